use super::parse::EXPECT_TERM;
use super::*;

fn p(s: &str) -> DiceExpr {
    match DiceExpr::parse(s) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    }
}

fn dice(count: u32, sides: u32) -> Term {
    Term::Dice {
        count,
        sides,
        negative: false,
    }
}

fn db(half: bool) -> Term {
    Term::Db {
        half,
        negative: false,
    }
}

fn roll(expr: &str, script: Vec<u32>, opts: &RollOptions) -> (DiceRoll, Dice) {
    let mut d = Dice::with_script(7, script);
    let r = p(expr).roll(&mut d, opts);
    (r, d)
}

/// A distribution's totals and chances: 1D10+4 with tens exploding
/// once (5-13 at a tenth each, 15-23 at a hundredth, the last 24 with
/// what is left); 2D6 without; a subtracted die; the chances sum to 1
/// and the mean approaches `mean`'s exact one as the chain deepens.
#[test]
fn a_distribution_gives_each_total_its_chance() {
    let e = DiceExpr::parse("1D10+4").unwrap();
    let d = e.distribution(None, Some(10), 1);
    let p = |v: i32| d.iter().find(|(t, _)| *t == v).map_or(0.0, |x| x.1);
    assert!((p(5) - 0.1).abs() < 1e-12 && (p(13) - 0.1).abs() < 1e-12);
    assert_eq!(p(14), 0.0, "a ten is never kept alone");
    assert!((p(15) - 0.01).abs() < 1e-12 && (p(24) - 0.01).abs() < 1e-12);
    let sum: f64 = d.iter().map(|x| x.1).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    let two = DiceExpr::parse("2D6").unwrap().distribution(None, None, 0);
    assert_eq!(two.len(), 11);
    assert!((two[5].1 - 6.0 / 36.0).abs() < 1e-12 && two[5].0 == 7);
    let less = DiceExpr::parse("10-1D4")
        .unwrap()
        .distribution(None, None, 0);
    assert_eq!(
        less.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![6, 7, 8, 9]
    );
    let deep = e.distribution(None, Some(10), 6);
    let mean: f64 = deep.iter().map(|(v, q)| f64::from(*v) * q).sum();
    assert!((mean - e.mean(None, Some(10))).abs() < 1e-4, "{mean}");
}

#[test]
fn without_db_mean_and_most_are_the_expression_without_its_bonus_bit_for_bit() {
    for text in [
        "1D6+1+db",
        "1D8+1+½db",
        "2D6+2",
        "db",
        "½db",
        "1D3+db",
        "1D10+1D6+2+db",
        "3",
        "1D4-1",
    ] {
        let e = p(text);
        let bare = e.without_db();
        let (mean, most) = e.without_db_mean_max();
        assert_eq!(mean.to_bits(), bare.mean(None, None).to_bits(), "{text}");
        assert_eq!(most, bare.max(None), "{text}");
    }
}

#[test]
fn a_damage_bonus_term_is_found_and_left_out() {
    // brp §5.9's tables: "1D8+2+db", "1D8+1+½db", "2D6+2" (no bonus).
    assert_eq!(p("1D8+2+db").db_share(), Some((DbShare::Full, false)));
    assert_eq!(p("1D8+1+½db").db_share(), Some((DbShare::Half, false)));
    assert_eq!(p("2D6+2").db_share(), None);
    assert_eq!(p("1D3-db").db_share(), Some((DbShare::Full, true)));
    assert_eq!(p("1D8+2+db").without_db().to_string(), "1D8+2");
    assert_eq!(p("1D8+1+½db").without_db().to_string(), "1D8+1");
    assert_eq!(p("db").without_db().to_string(), "0");
    assert_eq!(p("4D6").plus(&p("1D6")).to_string(), "5D6");
    assert_eq!(p("1D4+1").plus(&p("2")).to_string(), "1D4+3");
    assert_eq!(p("0").plus(&p("1D6")).to_string(), "1D6");
    assert_eq!(p("-1D4").plus(&p("1D6")).to_string(), "-1D4+1D6");
    assert_eq!(p("1D4+db+db").db_terms(), 2);
    assert_eq!(p("1D4").db_terms(), 0);
}

#[test]
fn parses_examples() {
    let cases: Vec<(&str, Vec<Term>, &str)> = vec![
        ("1D8+2", vec![dice(1, 8), Term::Flat(2)], "1D8+2"),
        ("2D6+2", vec![dice(2, 6), Term::Flat(2)], "2D6+2"),
        ("d4", vec![dice(1, 4)], "1D4"),
        ("3D6", vec![dice(3, 6)], "3D6"),
        ("2D10+3", vec![dice(2, 10), Term::Flat(3)], "2D10+3"),
        ("1D6+½db", vec![dice(1, 6), db(true)], "1D6+½db"),
        ("1D6+1/2db", vec![dice(1, 6), db(true)], "1D6+½db"),
        (
            "1D8+2+db",
            vec![dice(1, 8), Term::Flat(2), db(false)],
            "1D8+2+db",
        ),
        ("1D3-1", vec![dice(1, 3), Term::Flat(-1)], "1D3-1"),
        ("5", vec![Term::Flat(5)], "5"),
        ("d100", vec![dice(1, 100)], "1D100"),
        ("D%", vec![dice(1, 100)], "1D100"),
        ("1d8+2", vec![dice(1, 8), Term::Flat(2)], "1D8+2"),
        ("+1D4", vec![dice(1, 4)], "1D4"),
        (
            "-1D4",
            vec![Term::Dice {
                count: 1,
                sides: 4,
                negative: true,
            }],
            "-1D4",
        ),
        ("0", vec![Term::Flat(0)], "0"),
        (
            "1D6-1D4",
            vec![
                dice(1, 6),
                Term::Dice {
                    count: 1,
                    sides: 4,
                    negative: true,
                },
            ],
            "1D6-1D4",
        ),
        (" 1D6 + DB ", vec![dice(1, 6), db(false)], "1D6+db"),
        ("-5", vec![Term::Flat(-5)], "-5"),
    ];
    for (text, terms, shown) in cases {
        let e = p(text);
        assert_eq!(e.terms.as_slice(), &terms[..], "{text}");
        assert_eq!(e.to_string(), shown, "{text}");
        assert_eq!(p(shown), e, "round trip of {text}");
        assert_eq!(text.parse::<DiceExpr>(), Ok(e));
    }
    assert_eq!(DiceExpr::flat(-7).to_string(), "-7");
    assert_eq!(p("-7"), DiceExpr::flat(-7));
    let extreme = DiceExpr::flat(i32::MIN);
    assert_eq!(p(&extreme.to_string()), extreme);
    assert!(p("1D6+½db").uses_db());
    assert!(!p("1D6+2").uses_db());
}

#[test]
fn parse_errors_have_positions() {
    let err = |s: &str| match DiceExpr::parse(s) {
        Ok(e) => panic!("{s} parsed as {e}"),
        Err(e) => (e.position, e.expected),
    };
    assert_eq!(err("1D"), (2, "a number of sides".to_string()));
    assert_eq!(
        err("D0"),
        (1, "a number of sides from 1 to 1000000".to_string())
    );
    assert_eq!(
        err("2X6"),
        (1, "`D`, `+`, `-` or the end of the expression".to_string())
    );
    assert_eq!(err(""), (0, EXPECT_TERM.to_string()));
    assert_eq!(err("1D6+"), (4, EXPECT_TERM.to_string()));
    assert_eq!(err("1D6+½"), (5, "db".to_string()));
    assert_eq!(err("1D6+1/3db"), (6, "`2` (as in 1/2db)".to_string()));
    assert_eq!(
        err("1D6 x"),
        (4, "`+`, `-` or the end of the expression".to_string())
    );
    assert_eq!(
        err("0D6"),
        (0, "a number of dice from 1 to 1000".to_string())
    );
    assert_eq!(
        err("99999999999"),
        (0, "a number that fits in 32 bits".to_string())
    );
    let e = DiceExpr::parse("1D").unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad dice expression `1D`: at character 3 expected a number of sides"
    );
    assert_eq!(e.text, "1D");
}

#[test]
fn scripted_rolls() {
    let (r, d) = roll("2D6+2", vec![3, 5], &RollOptions::default());
    assert_eq!(r.total, 10);
    assert_eq!(r.flat, 2);
    assert_eq!(r.expr, "2D6+2");
    assert_eq!(
        r.dice.iter().map(|d| d.result).collect::<Vec<_>>(),
        vec![3, 5]
    );
    assert_eq!(d.script_left(), 0);
    assert_eq!(d.error(), None);

    let (r, d) = roll("d4", vec![5], &RollOptions::default());
    let e = ScriptError {
        index: 1,
        value: 5,
        sides: 4,
    };
    assert_eq!(d.error(), Some(&e));
    assert_eq!(
        e.to_string(),
        "scripted die #1 is 5, which a d4 cannot show"
    );
    assert!((1..=4).contains(&r.total));

    let (r, _) = roll("1D6-1D4", vec![2, 4], &RollOptions::default());
    assert_eq!(r.total, -2);
    assert!(r.dice[1].negative && !r.dice[0].negative);
}

#[test]
fn only_first_script_error_is_kept() {
    let mut d = Dice::with_script(1, vec![3, 12, 0, 4]);
    for _ in 0..4 {
        d.roll_die(10);
    }
    assert_eq!(
        d.error().map(ToString::to_string).as_deref(),
        Some("scripted die #2 is 12, which a d10 cannot show")
    );
    d.set_script(vec![2]);
    assert_eq!(d.error(), None);
    assert_eq!(d.roll_die(0), 0);
    assert_eq!(d.script_left(), 1);
}

#[test]
fn explosions() {
    let opts = RollOptions {
        db: None,
        explode_sides: Some(10),
    };
    let (r, _) = roll("1D10+2", vec![10, 10, 3], &opts);
    assert_eq!(r.total, 25);
    assert_eq!(r.dice.len(), 3);
    assert_eq!(
        r.dice.iter().map(|d| d.exploded).collect::<Vec<_>>(),
        vec![false, true, true]
    );
    assert_eq!(
        r.dice.iter().map(|d| d.result).collect::<Vec<_>>(),
        vec![10, 10, 3]
    );

    let (r, d) = roll("1D10+2", vec![10, 10, 3], &RollOptions::default());
    assert_eq!(r.total, 12);
    assert_eq!(r.dice.len(), 1);
    assert_eq!(d.script_left(), 2);

    // Extra rolls come right after their die, before the next die.
    let (r, _) = roll("2D10", vec![10, 4, 6], &opts);
    assert_eq!(r.total, 20);
    assert_eq!(
        r.dice.iter().map(|d| d.exploded).collect::<Vec<_>>(),
        vec![false, true, false]
    );

    // A d1 never explodes.
    let ones = RollOptions {
        db: None,
        explode_sides: Some(1),
    };
    let (r, _) = roll("1D1", vec![], &ones);
    assert_eq!(r.total, 1);
}

#[test]
fn damage_bonus() {
    let bonus = p("1D4");
    let opts = RollOptions {
        db: Some(&bonus),
        explode_sides: None,
    };
    let (r, _) = roll("1D6+½db", vec![4, 2], &opts);
    assert_eq!(r.total, 6);
    assert_eq!(r.dice[1].sides, 2);

    let (r, _) = roll("1D8+2+db", vec![5, 3], &opts);
    assert_eq!(r.total, 10);

    let minus = p("-1D4");
    let opts = RollOptions {
        db: Some(&minus),
        explode_sides: None,
    };
    let (r, _) = roll("1D8+db", vec![5, 3], &opts);
    assert_eq!(r.total, 2);
    assert!(r.dice[1].negative);

    let two = p("2D6");
    assert_eq!(p("½db").max(Some(&two)), 6);
    assert_eq!(p("½db").max(Some(&p("5"))), 2);
    assert_eq!(p("½db").min(Some(&p("-5"))), -2);
    assert_eq!(p("1D6+db").max(None), 6);
    assert_eq!(p("db").max(Some(&p("db+3"))), 3);
}

#[test]
fn min_max_mean() {
    let e = p("2D6+2");
    assert_eq!(e.min(None), 4);
    assert_eq!(e.max(None), 14);
    assert!((e.mean(None, None) - 9.0).abs() < 1e-12);

    let mean = p("1D10").mean(None, Some(10));
    assert!((mean - 5.5 / 0.9).abs() < 1e-12);
    assert!((mean - 6.1111).abs() < 1e-4);
    assert!((p("1D10").mean(None, Some(6)) - 5.5).abs() < 1e-12);

    let e = p("1D6-1D4");
    assert_eq!(e.min(None), -3);
    assert_eq!(e.max(None), 5);
    assert!((e.mean(None, None) - 1.0).abs() < 1e-12);

    let bonus = p("1D4");
    let e = p("1D6+½db");
    assert_eq!(e.min(Some(&bonus)), 2);
    assert_eq!(e.max(Some(&bonus)), 8);
    assert!((e.mean(Some(&bonus), None) - 5.0).abs() < 1e-12);
}

#[test]
fn seeded_rolls_are_deterministic() {
    let mut a = Dice::seeded(42);
    let mut b = Dice::seeded(42);
    let mut c = Dice::seeded(43);
    let ra: Vec<u32> = (0..100).map(|_| a.roll_die(20)).collect();
    let rb: Vec<u32> = (0..100).map(|_| b.roll_die(20)).collect();
    let rc: Vec<u32> = (0..100).map(|_| c.roll_die(20)).collect();
    assert_eq!(ra, rb);
    assert_ne!(ra, rc);
    assert!(ra.iter().all(|r| (1..=20).contains(r)));

    a.reseed(42);
    let again: Vec<u32> = (0..100).map(|_| a.roll_die(20)).collect();
    assert_eq!(again, ra);

    for _ in 0..100 {
        let u = a.unit();
        assert!((0.0..1.0).contains(&u));
        assert!(a.pick(3) < 3);
    }
    assert_eq!(a.pick(0), 0);
}

#[test]
fn pick_ignores_script() {
    let mut d = Dice::with_script(5, vec![1, 2]);
    d.pick(10);
    d.unit();
    assert_eq!(d.script_left(), 2);
}

#[test]
fn a_roll_writes_what_it_rolled_as_the_text_it_always_wrote() {
    let mut d = Dice::seeded(3);
    let r = p("2D6+db").roll(&mut d, &RollOptions::default());
    assert_eq!(r.expr.to_string(), "2D6+db");
    assert_eq!(DiceRoll::one_die(20, 7).expr.to_string(), "1D20");
    assert_eq!(Rolled::dice(1, 100).to_string(), "1D100");
    let times = Rolled::Times(2, p("1D8"));
    assert_eq!(times.to_string(), "2 x 1D8");
    assert!(times == "2 x 1D8" && times != "1D8" && times != "2 x 1D8+1" && times != "2 x 1D");
    // Serialised as that text, and read back from it.
    for rolled in [times, Rolled::Expr(p("1D10-1")), Rolled::dice(3, 6)] {
        let json = serde_json::to_string(&rolled).unwrap();
        assert_eq!(json, format!("\"{rolled}\""));
        let back: Rolled = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rolled);
    }
    assert!(serde_json::from_str::<Rolled>("\"x x 1D8\"").is_err());
    assert!(serde_json::from_str::<Rolled>("\"2 x 1D\"").is_err());
}

#[test]
fn serde_as_text_in_ron() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Weapon {
        name: String,
        damage: DiceExpr,
    }
    let w = Weapon {
        name: "sword".into(),
        damage: p("1D8+1+½db"),
    };
    let text = ron::to_string(&w).unwrap();
    assert_eq!(text, r#"(name:"sword",damage:"1D8+1+½db")"#);
    let back: Weapon = ron::from_str(&text).unwrap();
    assert_eq!(back, w);

    let parsed: Weapon = ron::from_str(r#"(name: "axe", damage: "1D10+2")"#).unwrap();
    assert_eq!(parsed.damage, p("1D10+2"));

    let err = ron::from_str::<Weapon>(r#"(name: "axe", damage: "1D")"#).unwrap_err();
    assert!(
        err.to_string()
            .contains("bad dice expression `1D`: at character 3 expected a number of sides"),
        "{err}"
    );
}
