//! Two builds' tactical AIs against each other: `fray versus`. The proof an
//! AI made faster plays no worse asks the new AI to win at least half of
//! many mirrored battles against the old one, and the old one lives only in
//! an older build. So this build plays one side of each battle and another
//! build, a child process (`fray serve-ai`), the others, in lockstep: both
//! play the same seeded battle with every faction [`Controller::Remote`],
//! each side's AI decides in its own build, and every command goes into
//! both battles. After each command the two battles' logs must agree (a
//! running hash of their events): if the builds' rules differ, the
//! comparison is refused rather than reported.
//!
//! The protocol is one JSON object a line, this build asking and the other
//! answering, each command in its JSON form (`{"core": ...}` for the
//! core's own, `{"own": ...}` for a ruleset's, read back by the ruleset's
//! [`parse_own`](crate::rules::hooks::RulesetHooks::parse_own) hook):
//! `{"start": {"level", "ruleset", "seed", "settings"}}`, `{"decide": cid}`,
//! `{"play": {"actor", "command"}}`; answers `{"log": {"events", "hash"}}`,
//! `{"command": ...}` or `{"error": "..."}`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::rules::battle::{Battle, RulesetId};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Controller};
use crate::rules::engine::{Controls, Engine, Stop};
use crate::rules::hooks::RulesetRegistry;
use crate::rules::level::Level;
use crate::rules::view;
use crate::sim::{BattleResult, End, MAX_STEPS, battle_seed, result_of, start_seeded, wilson};

/// What to play.
#[derive(Clone, Debug)]
pub struct VersusConfig {
    pub level: Level,
    /// The level's file, for the other build to read.
    pub level_file: PathBuf,
    pub ruleset: RulesetId,
    /// How many seeds: each is played once per faction, this build's AI
    /// playing that faction and the other build's the rest.
    pub seeds: u64,
    pub seed: u64,
    pub threads: usize,
    /// Ruleset settings to change, `key=value`, in both builds.
    pub settings: Vec<(String, String)>,
    pub assets: PathBuf,
    /// The other build's `fray`.
    pub other: PathBuf,
}

/// How far a battle's log has come: its events, and a hash of their JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogMark {
    pub events: usize,
    pub hash: u64,
}

impl LogMark {
    /// The mark moved on over the events `engine` logged since.
    fn follow(&mut self, engine: &Engine) {
        for e in engine.events().iter().skip(self.events) {
            // FNV-1a: the same in every build, unlike std's hasher.
            let bytes = serde_json::to_vec(e).unwrap_or_default();
            let mut h = if self.hash == 0 {
                0xcbf2_9ce4_8422_2325
            } else {
                self.hash
            };
            for b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
            self.hash = h;
        }
        self.events = engine.events().len();
    }
}

/// A command as the protocol sends it.
pub fn command_to_json(command: &Command) -> Value {
    match command {
        Command::Ruleset(_) => json!({ "own": command }),
        _ => json!({ "core": command }),
    }
}

/// A command from the protocol's JSON, a ruleset's own read by its hook.
pub fn command_from_json(
    engine: &Engine,
    ruleset: RulesetId,
    v: &Value,
) -> Result<Command, String> {
    if let Some(core) = v.get("core") {
        return serde_json::from_value(core.clone()).map_err(|e| format!("{e}: {core}"));
    }
    let own = v
        .get("own")
        .ok_or_else(|| format!("a command is {{\"core\": ...}} or {{\"own\": ...}}, not {v}"))?;
    let hooks = engine
        .world()
        .resource::<RulesetRegistry>()
        .get(ruleset)
        .ok_or_else(|| format!("ruleset {} is not in this build", ruleset.id()))?;
    (hooks.parse_own)(own.clone()).map_err(|e| format!("{e}: {own}"))
}

/// The battle both builds play: every faction waits for its commands.
fn start(
    engine: &mut Engine,
    level: &Level,
    ruleset: RulesetId,
    seed: u64,
) -> Result<LogMark, String> {
    let control = Controls::PerFaction(vec![Controller::Remote; level.factions.len()]);
    start_seeded(engine, level, ruleset, seed, control)?;
    let stop = engine.run(MAX_STEPS);
    let mut mark = LogMark::default();
    mark.follow(engine);
    match stop {
        Stop::StepLimit => Err("the battle ran past the step limit before a command".into()),
        _ => Ok(mark),
    }
}

/// This build's AI's command for `actor`, the one the battle is waiting on.
fn own_decision(engine: &Engine, actor: Cid) -> Result<Command, String> {
    let world = engine.world();
    let ruleset = world
        .resource::<Battle>()
        .ruleset
        .ok_or("no ruleset in force")?;
    let hooks = world
        .resource::<RulesetRegistry>()
        .get(ruleset)
        .ok_or("the ruleset in force is not in this build")?;
    Ok((hooks.decide)(world, actor))
}

/// The answering side of the protocol: one engine, one battle at a time.
pub struct Server {
    engine: Engine,
    assets: PathBuf,
    /// The settings changed in `engine` (none when new).
    settings: Vec<(String, String)>,
    ruleset: Option<RulesetId>,
    mark: LogMark,
}

impl Server {
    pub fn new(assets: &Path) -> Result<Server, String> {
        Ok(Server {
            engine: crate::rulesets::engine_with_assets(assets).map_err(|e| e.to_string())?,
            assets: assets.to_path_buf(),
            settings: Vec::new(),
            ruleset: None,
            mark: LogMark::default(),
        })
    }

    /// The answer to one request.
    pub fn answer(&mut self, request: &Value) -> Value {
        match self.handle(request) {
            Ok(v) => v,
            Err(e) => json!({ "error": e }),
        }
    }

    fn handle(&mut self, request: &Value) -> Result<Value, String> {
        if let Some(s) = request.get("start") {
            let file = s["level"].as_str().ok_or("start: no level")?;
            let level =
                crate::data::level::load_level(Path::new(file)).map_err(|e| e.to_string())?;
            let id = s["ruleset"].as_str().ok_or("start: no ruleset")?;
            let ruleset = crate::rulesets::parse(id).ok_or(format!("unknown ruleset `{id}`"))?;
            let seed = s["seed"].as_u64().ok_or("start: no seed")?;
            let settings: Vec<(String, String)> =
                serde_json::from_value(s["settings"].clone()).map_err(|e| e.to_string())?;
            // Settings stay with the engine: other settings than the last
            // battle's start from a new one, with the data's own.
            if settings != self.settings {
                self.engine =
                    crate::rulesets::engine_with_assets(&self.assets).map_err(|e| e.to_string())?;
                for (k, v) in &settings {
                    self.engine.configure(ruleset, k, v)?;
                }
                self.settings = settings;
            }
            self.mark = start(&mut self.engine, &level, ruleset, seed)?;
            self.ruleset = Some(ruleset);
            return Ok(json!({ "log": self.mark }));
        }
        let ruleset = self.ruleset.ok_or("no battle started")?;
        if let Some(actor) = request.get("decide") {
            let actor: Cid = serde_json::from_value(actor.clone()).map_err(|e| e.to_string())?;
            let command = own_decision(&self.engine, actor)?;
            return Ok(json!({ "command": command_to_json(&command) }));
        }
        if let Some(p) = request.get("play") {
            let actor: Cid =
                serde_json::from_value(p["actor"].clone()).map_err(|e| e.to_string())?;
            let command = command_from_json(&self.engine, ruleset, &p["command"])?;
            self.engine.send(actor, command);
            self.engine.run(MAX_STEPS);
            self.mark.follow(&self.engine);
            return Ok(json!({ "log": self.mark }));
        }
        Err(format!("not a request: {request}"))
    }
}

/// `fray serve-ai`: answer requests read from `input`, one a line, until
/// it ends.
pub fn serve(input: impl BufRead, mut output: impl Write, assets: &Path) -> Result<(), String> {
    let mut server = Server::new(assets)?;
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(request) => server.answer(&request),
            Err(e) => json!({ "error": format!("not JSON: {e}") }),
        };
        writeln!(output, "{answer}")
            .and_then(|()| output.flush())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Whom this build's battles ask for the other side's AI.
pub trait Opponent {
    fn ask(&mut self, request: &Value) -> Result<Value, String>;
}

/// The other build, as a child process.
pub struct Process {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Process {
    pub fn spawn(fray: &Path) -> Result<Process, String> {
        let mut child = std::process::Command::new(fray)
            .arg("serve-ai")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", fray.display()))?;
        let to = child.stdin.take().ok_or("no pipe to the other build")?;
        let from = BufReader::new(child.stdout.take().ok_or("no pipe from the other build")?);
        Ok(Process { child, to, from })
    }
}

impl Opponent for Process {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        writeln!(self.to, "{request}")
            .and_then(|()| self.to.flush())
            .map_err(|e| {
                format!("the other build stopped listening ({e}): does it have `fray serve-ai`?")
            })?;
        let mut line = String::new();
        let n = self.from.read_line(&mut line).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the other build ended (does it have `fray serve-ai`?)".into());
        }
        serde_json::from_str(&line).map_err(|e| format!("the other build answered {line:?}: {e}"))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The other side in this process (a [`Server`] of this build): what the
/// tests pit this build against.
impl Opponent for Server {
    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        Ok(self.answer(request))
    }
}

/// An answer's field, or the error it carries.
fn field<'v>(answer: &'v Value, key: &str) -> Result<&'v Value, String> {
    if let Some(e) = answer.get("error") {
        return Err(format!("the other build: {}", e.as_str().unwrap_or("?")));
    }
    answer
        .get(key)
        .ok_or_else(|| format!("the other build answered {answer}, not `{key}`"))
}

fn mark_of(answer: &Value) -> Result<LogMark, String> {
    serde_json::from_value(field(answer, "log")?.clone()).map_err(|e| e.to_string())
}

/// One battle: this build's AI plays faction `side`, the opponent's every
/// other faction.
pub fn play_one(
    engine: &mut Engine,
    other: &mut dyn Opponent,
    cfg: &VersusConfig,
    seed: u64,
    side: u8,
) -> Result<BattleResult, String> {
    let mut mine = start(engine, &cfg.level, cfg.ruleset, seed)?;
    let theirs = mark_of(&other.ask(&json!({ "start": {
        "level": cfg.level_file,
        "ruleset": cfg.ruleset.id(),
        "seed": seed,
        "settings": cfg.settings,
    }}))?)?;
    let mut expected = Some(theirs);
    for _ in 0..MAX_STEPS {
        if let Some(theirs) = expected.take()
            && theirs != mine
        {
            return Err(format!(
                "the two builds' battles parted at event {} of seed {seed} (this build {}, the \
                 other {}): their rules differ, and their AIs cannot be compared so",
                mine.events.min(theirs.events),
                mine.events,
                theirs.events
            ));
        }
        let world = engine.world();
        let battle = world.resource::<Battle>();
        if battle.is_over() {
            return Ok(result_of(engine, Stop::Over));
        }
        let actor = battle.prompt.actor().ok_or("the battle waits on nobody")?;
        let command = if view::faction(world, actor) == Some(side) {
            own_decision(engine, actor)?
        } else {
            let answer = other.ask(&json!({ "decide": actor }))?;
            command_from_json(engine, cfg.ruleset, field(&answer, "command")?)?
        };
        let answer = other.ask(&json!({ "play": {
            "actor": actor,
            "command": command_to_json(&command),
        }}))?;
        expected = Some(mark_of(&answer)?);
        engine.send(actor, command);
        engine.run(MAX_STEPS);
        mine.follow(engine);
    }
    Ok(result_of(engine, Stop::StepLimit))
}

/// The outcome of a versus.
#[derive(Clone, Debug, Serialize)]
pub struct VersusReport {
    pub level: String,
    pub level_file: String,
    pub ruleset: String,
    pub other: String,
    pub seed: u64,
    pub battles: u64,
    /// Battles this build's AI won, and the other's.
    pub this_won: u64,
    pub other_won: u64,
    /// Battles nobody won (nobody left standing, or out of time).
    pub undecided: u64,
    /// This build's share of the battles either side won, and its 95 %
    /// Wilson interval.
    pub this_share: f64,
    pub this_share_low: f64,
    pub this_share_high: f64,
    /// Per faction: (its name, battles this build played it, won).
    pub by_side: Vec<(String, u64, u64)>,
    pub seconds: f64,
}

/// Play the versus: every seed once per faction, over `threads` workers,
/// each with its own engine and its own child process.
pub fn versus(cfg: &VersusConfig) -> Result<VersusReport, String> {
    versus_with(cfg, || {
        Ok(Box::new(Process::spawn(&cfg.other)?) as Box<dyn Opponent>)
    })
}

/// [`versus`], with the opponents `connect` makes (one per worker).
pub fn versus_with(
    cfg: &VersusConfig,
    connect: impl Fn() -> Result<Box<dyn Opponent>, String> + Sync,
) -> Result<VersusReport, String> {
    let started = std::time::Instant::now();
    let sides = cfg.level.factions.len() as u64;
    let total = cfg.seeds * sides;
    let threads = cfg.threads.max(1).min(total.max(1) as usize);
    let all = crate::sim::spread(
        threads,
        total,
        || {
            let mut engine =
                crate::rulesets::engine_with_assets(&cfg.assets).map_err(|e| e.to_string())?;
            for (k, v) in &cfg.settings {
                engine.configure(cfg.ruleset, k, v)?;
            }
            Ok((engine, connect()?))
        },
        |(engine, other), i| {
            let side = (i % sides) as u8;
            let seed = battle_seed(cfg.seed, i / sides);
            Ok((side, play_one(engine, other.as_mut(), cfg, seed, side)?))
        },
    )?;
    let mut by_side: Vec<(String, u64, u64)> = cfg
        .level
        .factions
        .iter()
        .map(|f| (f.name.clone(), 0, 0))
        .collect();
    let (mut this_won, mut other_won, mut undecided) = (0, 0, 0);
    for (_, (side, r)) in &all {
        by_side[*side as usize].1 += 1;
        match r.winner {
            Some(w) if r.end == End::Won && w == *side => {
                this_won += 1;
                by_side[*side as usize].2 += 1;
            }
            Some(_) if r.end == End::Won => other_won += 1,
            _ => undecided += 1,
        }
    }
    let decided = this_won + other_won;
    let (low, high) = wilson(this_won, decided);
    Ok(VersusReport {
        level: cfg.level.name.clone(),
        level_file: cfg.level_file.display().to_string(),
        ruleset: cfg.ruleset.id().to_string(),
        other: cfg.other.display().to_string(),
        seed: cfg.seed,
        battles: total,
        this_won,
        other_won,
        undecided,
        this_share: if decided == 0 {
            0.0
        } else {
            this_won as f64 / decided as f64
        },
        this_share_low: low,
        this_share_high: high,
        by_side,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl VersusReport {
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} under {}: this build's AI against {}'s, {} battles ({} seeds from seed {}, \
             each build on each side of each)\n",
            self.level,
            self.ruleset,
            self.other,
            self.battles,
            self.battles / self.by_side.len().max(1) as u64,
            self.seed,
        );
        s += &format!(
            "this build won {} ({:.1} % of the {} battles either won, 95 % interval {:.1}-{:.1} %), \
             the other {}; {} won by neither\n",
            self.this_won,
            100.0 * self.this_share,
            self.this_won + self.other_won,
            100.0 * self.this_share_low,
            100.0 * self.this_share_high,
            self.other_won,
            self.undecided,
        );
        for (name, played, won) in &self.by_side {
            s += &format!("  this build as {name}: won {won} of {played}\n");
        }
        s += &format!("({:.1} s)\n", self.seconds);
        s
    }
}

#[cfg(test)]
mod tests;
