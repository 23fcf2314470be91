//! The map's tests.

use super::*;

/// The kept answers about lines are the walked ones, the first time and
/// after, on a map small enough to keep them and on one too large.
#[test]
fn kept_lines_answer_as_walking_them_does() {
    let small = grid(&["..#..c..", ".C..#...", "..c...#.", "#...C...", "...c..,."]);
    let wide = Map::new(33, 32, vec![Terrain::Open; 33 * 32]);
    for (m, starts) in [(&small, 40), (&wide, 3)] {
        for _ in 0..2 {
            for a in m.cells().take(starts) {
                for b in m.cells() {
                    assert_eq!(m.line_of_sight(a, b), m.walk_sight(a, b), "{a} {b}");
                    let walked: Vec<Cell> = Map::cells_between(a, b)
                        .into_iter()
                        .filter(|c| Map::chebyshev(*c, b) == 1)
                        .collect();
                    let kept: Vec<Cell> = m.line_end(a, b).collect();
                    assert_eq!(kept, walked, "{a} {b}");
                }
            }
        }
    }
    assert!(
        small
            .lines
            .0
            .0
            .iter()
            .all(|s| s.load(std::sync::atomic::Ordering::Relaxed) != 0)
    );
    assert!(wide.lines.0.0.is_empty());
}

/// Builds a map from rows of characters: '.' open, '#' wall, ',' difficult,
/// '~' water, 'c' low cover, 'C' high cover, '^' high ground.
fn grid(rows: &[&str]) -> Map {
    let height = rows.len() as i32;
    let width = rows[0].len() as i32;
    let terrain = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            '.' => Terrain::Open,
            '#' => Terrain::Wall,
            ',' => Terrain::Difficult,
            '~' => Terrain::Water,
            'c' => Terrain::LowCover,
            'C' => Terrain::HighCover,
            '^' => Terrain::HighGround,
            other => panic!("bad test char {other}"),
        })
        .collect();
    Map::new(width, height, terrain)
}

fn c(x: i32, y: i32) -> Cell {
    Cell::new(x, y)
}

/// The tree counts a path's steps exactly as the path it would build.
#[test]
fn steps_to_counts_the_path_without_building_it() {
    let m = grid(&["....#.", ".##.#.", "......"]);
    let tree = m.reach_tree(c(0, 0), 200, |_| false);
    let mut seen = 0;
    for (cell, _) in tree.reached() {
        let path = tree.path_to(cell).expect("a path");
        assert_eq!(tree.steps_to(cell), Some(path.len()), "{cell}");
        seen += 1;
    }
    assert!(seen > 10);
    assert_eq!(tree.steps_to(c(0, 0)), Some(0));
    assert_eq!(tree.steps_to(c(4, 0)), None);
    assert_eq!(tree.steps_to(c(9, 9)), None);
}

#[test]
fn cell_display_and_terrain_basics() {
    assert_eq!(c(3, -1).to_string(), "(3,-1)");
    assert!(!Terrain::Wall.passable());
    assert!(!Terrain::HighCover.passable());
    assert!(Terrain::LowCover.passable());
    assert!(Terrain::Wall.blocks_sight());
    assert!(!Terrain::HighCover.blocks_sight());
    assert_eq!(Terrain::LowCover.name(), "low cover");
    assert_eq!(Terrain::HighGround.name(), "high ground");
    let m = grid(&["..", ".#"]);
    assert_eq!(m.width(), 2);
    assert_eq!(m.height(), 2);
    assert_eq!(m.terrain(c(1, 1)), Terrain::Wall);
    assert_eq!(m.terrain(c(0, 1)), Terrain::Open);
    assert_eq!(m.terrain(c(5, 0)), Terrain::Wall);
    assert_eq!(m.terrain(c(-1, 0)), Terrain::Wall);
    assert!(!m.in_bounds(c(2, 0)));
    assert_eq!(
        m.cells().collect::<Vec<_>>(),
        vec![c(0, 0), c(1, 0), c(0, 1), c(1, 1)]
    );
}

/// The table the reach search reads is `step_cost`, cell by cell, and a
/// map without it (read some other way) searches the same.
#[test]
fn the_step_table_is_step_cost() {
    let m = grid(&[
        "..#.", //
        ".,~^", //
        "c.#^", //
        ".C..",
    ]);
    for (i, c) in m.cells().enumerate() {
        for (k, (dx, dy)) in STEP_ORDER.iter().enumerate() {
            let n = Cell::new(c.x + dx, c.y + dy);
            assert_eq!(
                m.steps[i][k],
                m.terrain_step_cost(c, n).unwrap_or(u32::MAX),
                "{c} -> {n}"
            );
        }
    }
    // Asked of any two cells (the same, a step apart, further, off the
    // map), the table answers as the terrain does.
    for y in -1..=4 {
        for x in -1..=4 {
            let c = Cell::new(x, y);
            for dy in -2..=2 {
                for dx in -2..=2 {
                    let n = Cell::new(x + dx, y + dy);
                    assert_eq!(m.step_cost(c, n), m.terrain_step_cost(c, n), "{c} -> {n}");
                }
            }
        }
    }
    let bare = Map {
        steps: std::sync::Arc::from([]),
        ..m.clone()
    };
    for start in m.cells() {
        let (a, b) = (
            m.reach_tree(start, 90, |_| false),
            bare.reach_tree(start, 90, |_| false),
        );
        assert_eq!(a.cost, b.cost, "{start}");
        assert_eq!(a.parent, b.parent, "{start}");
    }
}

/// The table of terrains near each cell answers as looking at the
/// nine cells does, off the map (as `Wall`) too.
#[test]
fn the_table_of_terrains_near_is_the_nine_cells() {
    let m = grid(&["..c~", "#.^.", "C,.."]);
    let bare = Map {
        near: std::sync::Arc::from([]),
        ..m.clone()
    };
    let kinds: [&[Terrain]; 4] = [
        &[Terrain::LowCover, Terrain::HighCover],
        &[Terrain::Wall],
        &[Terrain::Water],
        &[Terrain::Open, Terrain::Pit],
    ];
    let mut seen = [0; 2];
    for y in -1..=3 {
        for x in -1..=4 {
            let c = Cell::new(x, y);
            for k in kinds {
                let near = m.near_any(c, k);
                assert_eq!(near, bare.near_any(c, k), "{c} {k:?}");
                seen[usize::from(near)] += 1;
            }
        }
    }
    // Both answers given, and the table read (not the walk) on the map.
    assert!(seen[0] > 0 && seen[1] > 0);
    assert_eq!(m.near.len(), 12);
    assert!(m.near_any(Cell::new(3, 1), &[Terrain::Water]));
    assert!(!m.near_any(Cell::new(3, 2), &[Terrain::Water]));
    assert!(m.near_any(Cell::new(1, 1), &[Terrain::LowCover]));
    assert!(!m.near_any(Cell::new(3, 2), &[Terrain::LowCover]));
    assert!(m.near_any(Cell::new(0, 0), &[Terrain::Wall]), "off the map");
}

/// A field searched until a cell is reached agrees with the whole
/// field on every cell nearer than that one, and puts no farther cell
/// below it.
#[test]
fn a_field_until_a_cell_agrees_with_the_whole_field_nearer_than_it() {
    let m = grid(&[
        "..#.....", //
        ".,~^..#.", //
        "c.#^.,..", //
        ".C....~.",
    ]);
    let mut cut_short = 0;
    for goal in m.cells() {
        let whole = m.reach_tree(goal, u32::MAX, |_| false);
        for until in m.cells() {
            let part = m.field_until(goal, until);
            let Some(limit) = whole.cost(until) else {
                assert_eq!(part.cost, whole.cost, "{goal} {until}");
                continue;
            };
            assert_eq!(part.cost(until), Some(limit), "{goal} {until}");
            for cell in m.cells() {
                match (whole.cost(cell), part.cost(cell)) {
                    (Some(w), p) if w < limit => assert_eq!(p, Some(w), "{goal} {cell}"),
                    (_, Some(p)) => assert!(p >= limit, "{goal} {cell}"),
                    (_, None) => cut_short += 1,
                }
            }
        }
    }
    // The search did stop early.
    assert!(cut_short > 0);
}

/// `nearest_by` is the least `(distance, cost, cell)` of `reached()`,
/// from a kept field and from one searched for the occasion, on a map
/// with walls, water and slopes, from every start to every goal and
/// with others' cells held; cells tie on distance and cost, so the
/// cell's own order decides some. `each_within_field` gives what
/// `within` and the field's `cost` give, under every budget.
#[test]
fn nearest_by_is_the_least_of_the_reached_cells() {
    let m = grid(&[
        "..#.....", //
        ".,~^..#.", //
        "c.#^.,..", //
        ".C....~.",
    ]);
    let held = [c(4, 1), c(1, 3)];
    let (mut found, mut ties, mut walked) = (0, 0, 0);
    for start in m.cells() {
        for budget in [30, 60, 200] {
            let tree = m.reach_tree_past(start, budget, &held);
            for goal in m.cells() {
                let fields = [
                    m.distances(goal, start),
                    Distances::Searched(m.field_until(goal, start)),
                ];
                for field in fields.iter() {
                    let all: Vec<(u32, u32, Cell)> = tree
                        .reached()
                        .filter_map(|(c, cost)| Some((field.cost(c)?, cost, c)))
                        .collect();
                    let least = all.iter().min().copied();
                    assert_eq!(tree.nearest_by(field), least, "{start} {goal}");
                    // Each cell within a budget the field knows, read
                    // from both tables: what `within` and `cost` give.
                    for within in [0, 20, budget] {
                        let mut each = Vec::new();
                        tree.each_within_field(within, field, |c, d| each.push((c, d)));
                        let asked: Vec<(Cell, u32)> = tree
                            .within(within)
                            .filter_map(|(c, _)| Some((c, field.cost(c)?)))
                            .collect();
                        assert_eq!(each, asked, "{start} {goal} {within}");
                        walked += each.len();
                    }
                    found += usize::from(least.is_some());
                    ties += usize::from(least.is_some_and(|(d, cost, cell)| {
                        all.iter()
                            .any(|&(d2, c2, x)| (d2, c2) == (d, cost) && x != cell)
                    }));
                }
            }
        }
    }
    assert!(found > 1_000 && ties > 100, "{found} found, {ties} tied");
    assert!(walked > 10_000, "{walked} cells walked");
    // A field of another map's shape is read cell by cell; a field's
    // cells off its map, or past a row's end, have no distance.
    let other = grid(&["...", ".#.", "...", "..."]);
    let field = other.distances(c(2, 3), c(0, 0));
    assert_eq!(field.cost(c(2, 3)), Some(0));
    for off in [c(3, 0), c(-1, 1), c(0, -1), c(0, 4), c(5, 5)] {
        assert_eq!(field.cost(off), None, "{off}");
    }
    let tree = m.reach_tree_past(c(0, 0), 200, &held);
    let mut each = Vec::new();
    tree.each_within_field(200, &field, |c, d| each.push((c, d)));
    let asked: Vec<(Cell, u32)> = tree
        .within(200)
        .filter_map(|(c, _)| Some((c, field.cost(c)?)))
        .collect();
    assert_eq!(each, asked);
    assert!(each.len() > 5, "{each:?}");
}

/// The search the frontier replaced, as it was: a binary heap of
/// `(cost, index)`, a `blocked` test for every step.
fn heap_search(m: &Map, start: Cell, budget: u32, held: &[Cell]) -> (Vec<u32>, Vec<u32>) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = (m.width * m.height) as usize;
    let (mut cost, mut parent) = (vec![u32::MAX; n], vec![u32::MAX; n]);
    let mut heap = BinaryHeap::new();
    let s = m.index(start).expect("start on the map");
    cost[s] = 0;
    heap.push(Reverse((0u32, s as u32)));
    while let Some(Reverse((c, i))) = heap.pop() {
        if c > cost[i as usize] {
            continue;
        }
        let here = Cell::new(i as i32 % m.width, i as i32 / m.width);
        for (dx, dy) in STEP_ORDER {
            let next = Cell::new(here.x + dx, here.y + dy);
            let Some(step) = m.step_cost(here, next) else {
                continue;
            };
            let j = m.index(next).expect("a step stays on the map");
            let nc = c + step;
            if nc > budget || nc >= cost[j] || held.contains(&next) {
                continue;
            }
            cost[j] = nc;
            parent[j] = i;
            heap.push(Reverse((nc, j as u32)));
        }
    }
    (cost, parent)
}

mod searches {
    use super::*;
    use proptest::prelude::*;

    fn terrain() -> impl Strategy<Value = Terrain> {
        prop_oneof![
            6 => Just(Terrain::Open),
            1 => Just(Terrain::Wall),
            1 => Just(Terrain::Difficult),
            1 => Just(Terrain::Water),
            1 => Just(Terrain::LowCover),
            1 => Just(Terrain::HighGround),
        ]
    }

    fn map_and_cells() -> impl Strategy<Value = (Map, Cell, Vec<Cell>, u32, u32)> {
        (2i32..11, 2i32..11).prop_flat_map(|(w, h)| {
            (
                proptest::collection::vec(terrain(), (w * h) as usize),
                (0..w, 0..h),
                proptest::collection::vec((0..w, 0..h), 0..8),
                0u32..250,
                0u32..250,
            )
                .prop_map(move |(t, (sx, sy), held, a, b)| {
                    let held = held
                        .into_iter()
                        .map(|(x, y)| Cell::new(x, y))
                        .filter(|c| *c != Cell::new(sx, sy))
                        .collect();
                    (
                        Map::new(w, h, t),
                        Cell::new(sx, sy),
                        held,
                        a.min(b),
                        a.max(b),
                    )
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The reach search with its frontier finds the very costs and
        /// paths (ties included) the binary heap and a `blocked` test
        /// found, with the cells others hold marked or asked about.
        #[test]
        fn the_frontier_searches_as_the_heap_did((m, start, held, _, budget) in map_and_cells()) {
            let (cost, parent) = heap_search(&m, start, budget, &held);
            let past = m.reach_tree_past(start, budget, &held);
            prop_assert_eq!(&past.cost, &cost);
            prop_assert_eq!(&past.parent, &parent);
            let asked = m.reach_tree(start, budget, |c| held.contains(&c));
            prop_assert_eq!(&asked.cost, &cost);
            prop_assert_eq!(&asked.parent, &parent);
        }

        /// A tree searched further, read within a smaller budget, is the
        /// tree searched to that budget: the same cells, costs and paths.
        #[test]
        fn a_further_search_read_within_a_budget_is_that_search((m, start, held, near, far) in map_and_cells()) {
            let small = m.reach_tree_past(start, near, &held);
            let big = m.reach_tree_past(start, far, &held);
            let within: Vec<(Cell, u32)> = big.within(near).collect();
            let direct: Vec<(Cell, u32)> = small.reached().collect();
            prop_assert_eq!(&within, &direct);
            for (c, _) in direct {
                prop_assert_eq!(big.path_to(c), small.path_to(c));
            }
        }

        /// The search that stops at the cheapest wanted cell finds the
        /// cell the whole tree gives as the least `(cost, cell)` of those
        /// wanted, and its very path; with none wanted, the whole tree.
        /// Wanted: the cells beside a goal, or those in a band of columns.
        #[test]
        fn the_nearest_wanted_cell_is_the_whole_tree_s(
            (m, start, held, _, budget) in map_and_cells(),
            (gx, gy, band) in (0i32..11, 0i32..11, 0i32..3),
        ) {
            let goal = Cell::new(gx, gy);
            let wants: [&dyn Fn(Cell) -> bool; 2] = [
                &|c: Cell| Map::chebyshev(c, goal) <= 1,
                &|c: Cell| c.x % 3 == band,
            ];
            for wanted in wants {
                let whole = m.reach_tree_past(start, budget, &held);
                let best = whole
                    .reached()
                    .filter(|(c, _)| wanted(*c))
                    .min_by_key(|(c, cost)| (*cost, *c));
                match (m.nearest_past(start, budget, &held, wanted), best) {
                    (Ok(path), Some((c, _))) => prop_assert_eq!(Some(path), whole.path_to(c)),
                    (Err(tree), None) => {
                        prop_assert_eq!(&tree.cost, &whole.cost);
                        prop_assert_eq!(&tree.parent, &whole.parent);
                    }
                    (found, best) => prop_assert!(false, "found {:?}, the whole tree's {:?}", found.ok(), best),
                }
            }
        }

        /// The way toward a goal is what the whole tree gives: the path
        /// to the cheapest cell beside the goal (the least of equally
        /// cheap ones), else to the reached cell least by (distance to
        /// the goal by the kept field, cost, cell) if nearer than the
        /// start, else none; searched, and again from what was kept.
        #[test]
        fn the_way_toward_a_goal_is_the_whole_tree_s(
            (m, start, held, _, budget) in map_and_cells(),
            (gx, gy) in (0i32..11, 0i32..11),
        ) {
            let goal = Cell::new(gx, gy);
            let whole = m.reach_tree_past(start, budget, &held);
            let beside = whole
                .reached()
                .filter(|(c, _)| Map::chebyshev(*c, goal) <= 1)
                .min_by_key(|(c, cost)| (*cost, *c));
            let field = m.distances(goal, start);
            let here_d = field.cost(start).unwrap_or(u32::MAX);
            let nearest = whole
                .reached()
                .filter_map(|(c, cost)| Some((field.cost(c)?, cost, c)))
                .filter(|(d, _, _)| *d < here_d)
                .min();
            let expected = match (beside, nearest) {
                (Some((c, _)), _) | (None, Some((_, _, c))) => whole.path_to(c),
                (None, None) => None,
            };
            prop_assert_eq!(&m.toward_searched(start, budget, &held, goal), &expected);
            prop_assert_eq!(&m.toward_past(start, budget, &held, goal), &expected);
            prop_assert_eq!(&m.toward_past(start, budget, &held, goal), &expected);
        }
    }
}

/// A kept way toward a goal is given again only on the map it was
/// found on: two maps alike but for a wall, the same start, goal,
/// budget and held cells, each its own way, asked in turn.
#[test]
fn a_kept_way_toward_a_goal_is_its_own_maps() {
    let open = grid(&["......", "......", "......"]);
    let walled = grid(&["......", "..#...", "......"]);
    let (start, goal) = (Cell::new(0, 1), Cell::new(5, 1));
    let held = [Cell::new(1, 0)];
    for _ in 0..2 {
        for m in [&open, &walled] {
            let whole = m.reach_tree_past(start, 200, &held);
            let cheapest = whole
                .reached()
                .filter(|(c, _)| Map::chebyshev(*c, goal) <= 1)
                .min_by_key(|(c, cost)| (*cost, *c))
                .and_then(|(c, _)| whole.path_to(c));
            assert_eq!(m.toward_past(start, 200, &held, goal), cheapest);
        }
    }
    assert_ne!(
        open.toward_past(start, 200, &held, goal),
        walled.toward_past(start, 200, &held, goal),
        "the wall changes the way"
    );
}

/// The kept distances are the whole field's, every time they are asked
/// for; a map too large to keep them searches to `until`.
#[test]
fn kept_distances_are_the_whole_field() {
    let m = grid(&[
        "..#.....", //
        ".,~^..#.", //
        "c.#^.,..", //
        ".C....~.",
    ]);
    for _ in 0..2 {
        for goal in m.cells() {
            let whole = m.reach_tree(goal, u32::MAX, |_| false);
            let kept = m.distances(goal, Cell::new(0, 0));
            assert!(matches!(kept, Distances::Kept { .. }));
            for c in m.cells().chain([Cell::new(-1, 0), Cell::new(8, 3)]) {
                assert_eq!(kept.cost(c), whole.cost(c), "{goal} {c}");
            }
        }
    }
    let wide = Map::new(33, 32, vec![Terrain::Open; 33 * 32]);
    let (goal, until) = (Cell::new(0, 0), Cell::new(3, 3));
    let Distances::Searched(tree) = wide.distances(goal, until) else {
        panic!("a map of 1,056 cells keeps no fields");
    };
    assert_eq!(tree.cost, wide.field_until(goal, until).cost);
}

/// No way between two cells costs less than `LEAST_DM_PER_METRE` per
/// metre of the line between them: on open ground (every offset up to
/// 40 cells, where the diagonal comes within 0.1 % of it) and over
/// terrain and walls (every cell's distance to every goal).
#[test]
fn no_way_is_cheaper_a_metre_than_the_least() {
    let open = Map::new(41, 41, vec![Terrain::Open; 41 * 41]);
    let rough = grid(&[
        "..#.....", //
        ".,~^..#.", //
        "c.#^.,..", //
        ".C....~.",
    ]);
    let mut closest = f64::MAX;
    for (m, goals) in [
        (&open, vec![Cell::new(0, 0)]),
        (&rough, rough.cells().collect()),
    ] {
        for goal in goals {
            let field = m.distances(goal, goal);
            for c in m.cells().filter(|c| *c != goal) {
                let Some(cost) = field.cost(c) else { continue };
                let line = Map::distance_m(c, goal);
                assert!(
                    f64::from(cost) >= LEAST_DM_PER_METRE * line,
                    "{goal} {c}: {cost} dm for {line} m"
                );
                closest = closest.min(f64::from(cost) / line);
            }
        }
    }
    // The bound is within 0.1 % of the cheapest way found: it spares
    // searches, and is not so low that it spares none.
    assert!(closest < LEAST_DM_PER_METRE * 1.001, "{closest}");
}

/// A kept tree is the tree a fresh search finds; asked for the same
/// (by this map or a copy of it) it is given again, asked for another
/// start, budget, held cells or map, it is searched.
#[test]
fn a_kept_tree_is_given_again_only_for_the_same_search() {
    let rows = ["....", ".#..", "..,.", "...."];
    let m = grid(&rows);
    let same = |a: &ReachTree, b: &ReachTree| {
        a.start == b.start && a.cost == b.cost && a.parent == b.parent
    };
    let held = [c(2, 0)];
    let first = m.reach_tree_kept(c(0, 0), 45, &held);
    assert!(same(&first, &m.reach_tree_past(c(0, 0), 45, &held)));
    let again = m.reach_tree_kept(c(0, 0), 45, &held);
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    assert!(std::sync::Arc::ptr_eq(
        &first,
        &m.clone().reach_tree_kept(c(0, 0), 45, &held)
    ));
    for (start, budget, held) in [
        (c(0, 1), 45, &held[..]),
        (c(0, 0), 60, &held[..]),
        (c(0, 0), 45, &[][..]),
    ] {
        let other = m.reach_tree_kept(start, budget, held);
        assert!(!std::sync::Arc::ptr_eq(&first, &other));
        assert!(same(&other, &m.reach_tree_past(start, budget, held)));
    }
    let m2 = grid(&rows);
    let first = m.reach_tree_kept(c(0, 0), 45, &held);
    assert!(!std::sync::Arc::ptr_eq(
        &first,
        &m2.reach_tree_kept(c(0, 0), 45, &held)
    ));
}

#[test]
fn step_costs() {
    let m = grid(&[
        "....", //
        ".,~^", //
        "..#^", //
        "....",
    ]);
    assert_eq!(m.step_cost(c(0, 0), c(1, 0)), Some(15));
    assert_eq!(m.step_cost(c(0, 0), c(0, 1)), Some(15));
    assert_eq!(m.step_cost(c(0, 1), c(1, 0)), Some(21));
    assert_eq!(m.step_cost(c(0, 0), c(1, 1)), Some(42)); // diagonal onto difficult
    assert_eq!(m.step_cost(c(1, 0), c(1, 1)), Some(30));
    assert_eq!(m.step_cost(c(2, 0), c(2, 1)), Some(45));
    assert_eq!(m.step_cost(c(3, 0), c(3, 1)), Some(30)); // climbing
    assert_eq!(m.step_cost(c(3, 1), c(3, 2)), Some(15)); // along the hill
    assert_eq!(m.step_cost(c(3, 2), c(3, 3)), Some(15)); // down
    assert_eq!(m.step_cost(c(2, 0), c(3, 1)), Some(42)); // diagonal climb
    // Corner cutting past the wall at (2,2).
    assert_eq!(m.step_cost(c(1, 2), c(2, 3)), None);
    assert_eq!(m.step_cost(c(1, 1), c(2, 2)), None); // into a wall
    assert_eq!(m.step_cost(c(1, 3), c(2, 3)), Some(15));
    // Not neighbours, out of bounds.
    assert_eq!(m.step_cost(c(0, 0), c(2, 0)), None);
    assert_eq!(m.step_cost(c(0, 0), c(0, 0)), None);
    assert_eq!(m.step_cost(c(0, 0), c(-1, 0)), None);
    assert_eq!(m.path_cost(c(0, 0), &[c(1, 0), c(2, 0), c(2, 1)]), Some(75));
    assert_eq!(m.path_cost(c(0, 0), &[]), Some(0));
    assert_eq!(m.path_cost(c(0, 0), &[c(2, 0)]), None);
}

#[test]
fn reachable_counts_around_wall() {
    let m = grid(&[
        ".....", //
        "..#..", //
        "..#..", //
        ".....",
    ]);
    let r = m.reachable(c(0, 0), 15, |_| false);
    assert_eq!(r.len(), 3);
    assert_eq!(r[&c(0, 0)], 0);
    assert_eq!(r[&c(1, 0)], 15);
    assert_eq!(r[&c(0, 1)], 15);
    let r = m.reachable(c(0, 0), 21, |_| false);
    assert_eq!(r.len(), 4);
    assert_eq!(r[&c(1, 1)], 21);
    let r = m.reachable(c(1, 1), 30, |_| false);
    // 15: (1,0), (0,1), (1,2); 21: (0,0), (0,2); 30: (2,0) via (1,0),
    // since the diagonal (1,1)->(2,0) would cut the wall's corner, and (1,3).
    assert_eq!(
        r.keys().copied().collect::<Vec<_>>(),
        vec![
            c(0, 0),
            c(0, 1),
            c(0, 2),
            c(1, 0),
            c(1, 1),
            c(1, 2),
            c(1, 3),
            c(2, 0)
        ]
    );
    assert_eq!(r[&c(2, 0)], 30);
    assert_eq!(r[&c(1, 3)], 30);
    let r = m.reachable(c(0, 0), 1000, |_| false);
    assert_eq!(r.len(), 18);
    // Blocking (0,1) and (1,0) and (1,1) walls the start in.
    let r = m.reachable(c(0, 0), 1000, |x| {
        x == c(0, 1) || x == c(1, 0) || x == c(1, 1)
    });
    assert_eq!(r.len(), 1);
    // The start is never blocked.
    let r = m.reachable(c(0, 0), 15, |x| x == c(0, 0));
    assert_eq!(r.len(), 3);
}

#[test]
fn path_around_wall() {
    let m = grid(&[
        ".....", //
        "..#..", //
        "..#..", //
        ".....",
    ]);
    let (steps, cost) = m.path(c(1, 1), c(3, 1), |_| false).unwrap();
    // Over the top; both diagonals next to the wall would cut its corner.
    assert_eq!(steps, vec![c(1, 0), c(2, 0), c(3, 0), c(3, 1)]);
    assert_eq!(cost, 60);
    assert_eq!(m.path_cost(c(1, 1), &steps), Some(60));
    // Deterministic.
    assert_eq!(m.path(c(1, 1), c(3, 1), |_| false), Some((steps, 60)));
    // Block the top route: round the bottom, again without cutting corners.
    let (steps, cost) = m.path(c(1, 1), c(3, 1), |x| x == c(2, 0)).unwrap();
    assert_eq!(
        steps,
        vec![c(1, 2), c(1, 3), c(2, 3), c(3, 3), c(3, 2), c(3, 1)]
    );
    assert_eq!(cost, 90);
    assert_eq!(m.path(c(1, 1), c(1, 1), |_| false), Some((vec![], 0)));
    assert_eq!(m.path(c(1, 1), c(2, 1), |_| false), None);
    assert_eq!(m.path(c(1, 1), c(3, 1), |x| x == c(3, 1)), None);
    assert_eq!(m.path(c(1, 1), c(3, 1), |x| x.x == 2), None);
}

#[test]
fn path_costs_agree_with_reachable_and_ties_are_stable() {
    let m = grid(&[
        "..,...", //
        ".#..~.", //
        "..C.^^", //
        ".c....",
    ]);
    let start = c(0, 0);
    let all = m.reachable(start, u32::MAX, |_| false);
    assert_eq!(all.len(), 22);
    for (&cell, &cost) in &all {
        let (steps, path_cost) = m.path(start, cell, |_| false).unwrap();
        assert_eq!(path_cost, cost, "{cell}");
        assert_eq!(m.path_cost(start, &steps), Some(cost), "{cell}");
    }
    // Many equally cheap paths lead across open ground; the same one is
    // returned every time.
    let open = grid(&[".....", ".....", "....."]);
    let first = open.path(c(0, 0), c(4, 2), |_| false).unwrap();
    assert_eq!(first.1, 15 + 15 + 21 + 21);
    for _ in 0..10 {
        assert_eq!(open.path(c(0, 0), c(4, 2), |_| false).unwrap(), first);
    }
}

#[test]
fn path_prefers_cheap_terrain() {
    let m = grid(&[
        ".~.", //
        "...",
    ]);
    let (steps, cost) = m.path(c(0, 0), c(2, 0), |_| false).unwrap();
    // Through the water: 45 + 15 = 60; around: 21 + 21 = 42.
    assert_eq!(steps, vec![c(1, 1), c(2, 0)]);
    assert_eq!(cost, 42);
}

#[test]
fn cells_between_lines() {
    assert_eq!(Map::cells_between(c(0, 0), c(0, 0)), vec![]);
    assert_eq!(Map::cells_between(c(0, 0), c(1, 0)), vec![]);
    assert_eq!(Map::cells_between(c(0, 0), c(3, 0)), vec![c(1, 0), c(2, 0)]);
    // Exact diagonal: each corner contributes both side cells.
    assert_eq!(
        Map::cells_between(c(0, 0), c(2, 2)),
        vec![c(1, 0), c(0, 1), c(1, 1), c(2, 1), c(1, 2)]
    );
    assert_eq!(
        Map::cells_between(c(0, 0), c(4, 1)),
        vec![c(1, 0), c(2, 0), c(2, 1), c(3, 1)]
    );
    // (0,0)->(2,1) crosses row boundary inside cell x=1.
    assert_eq!(Map::cells_between(c(0, 0), c(2, 1)), vec![c(1, 0), c(1, 1)]);
    assert_eq!(
        Map::cells_between(c(3, 1), c(0, 0)),
        vec![c(2, 1), c(1, 1), c(2, 0), c(1, 0)]
    );
}

#[test]
fn line_of_sight_walls_and_cover() {
    let m = grid(&[
        ".....", //
        "..#..", //
        "..c..", //
        ".....",
    ]);
    assert!(!m.line_of_sight(c(0, 1), c(4, 1)));
    assert!(!m.line_of_sight(c(4, 1), c(0, 1)));
    assert!(m.line_of_sight(c(0, 2), c(4, 2))); // low cover does not block
    assert!(m.line_of_sight(c(0, 0), c(4, 0)));
    assert!(m.line_of_sight(c(2, 1), c(2, 3))); // the end points never block
    // Through the wall's centre.
    assert!(!m.line_of_sight(c(1, 0), c(3, 2)));
    // Past one wall corner: only one side blocks.
    let m1 = grid(&[
        ".#", //
        "..",
    ]);
    assert!(m1.line_of_sight(c(0, 0), c(1, 1)));
    assert!(m1.line_of_sight(c(1, 1), c(0, 0)));
    let m2 = grid(&[
        ".#", //
        "#.",
    ]);
    assert!(!m2.line_of_sight(c(0, 0), c(1, 1)));
    assert!(!m2.line_of_sight(c(1, 1), c(0, 0)));
}

#[test]
fn line_of_sight_is_symmetric() {
    let m = grid(&[
        "..#...", //
        ".#..#.", //
        "...#..", //
        "#.c..#", //
        "..#.C.",
    ]);
    let cells: Vec<Cell> = m.cells().collect();
    for &a in &cells {
        for &b in &cells {
            assert_eq!(m.line_of_sight(a, b), m.line_of_sight(b, a), "{a} {b}");
            let mut fwd = Map::cells_between(a, b);
            let mut back = Map::cells_between(b, a);
            fwd.sort();
            back.sort();
            assert_eq!(fwd, back, "{a} {b}");
        }
    }
    // (0,0)-(2,2) touches corners whose sides are (1,0)/(0,1) then
    // (2,1)/(1,2); it passes the centre of the wall at (1,1).
    assert!(!m.line_of_sight(c(0, 0), c(2, 2)));
    assert!(m.line_of_sight(c(0, 0), c(0, 2)));
    assert!(!m.line_of_sight(c(0, 0), c(1, 2))); // crosses (1,1)
    assert!(m.line_of_sight(c(0, 3), c(5, 3))); // end points may be walls
    assert!(!m.line_of_sight(c(0, 2), c(5, 2)));
    assert!(m.line_of_sight(c(3, 4), c(5, 4))); // high cover does not block sight
}

#[test]
fn distances() {
    assert_eq!(Map::chebyshev(c(0, 0), c(3, -5)), 5);
    assert_eq!(Map::distance_m(c(0, 0), c(3, 4)), 7.5);
    assert_eq!(Map::distance_m(c(2, 2), c(2, 2)), 0.0);
    // The correctly rounded root on every platform: glibc's hypot gives
    // 31.906112267087636 for 17 and 27 cells, one unit in the last
    // place above the true root's rounding.
    assert_eq!(
        Map::distance_m(c(0, 0), c(17, 27)),
        31.906_112_267_087_632 * CELL_METRES
    );
    // 20 and 21 cells (with negative coordinates): 29 cells, 43.5 m.
    assert_eq!(Map::distance_m(c(5, 5), c(-15, -16)), 43.5);
}

/// The way off the map: the cost from each cell to the nearest
/// passable edge cell; none inside walls.
#[test]
fn exit_distances_lead_to_the_open_edge() {
    let m = grid(&[
        "#####.#", //
        "#.....#", //
        "#.###.#", //
        "#.#.#.#", //
        "#######",
    ]);
    let d = m.exit_distances();
    assert_eq!(d.cost(c(5, 0)), Some(0));
    assert_eq!(d.cost(c(5, 1)), Some(ORTHO_DM));
    // One way off: the distances are those from it.
    let from_exit = m.reach_tree(c(5, 0), u32::MAX, |_| false);
    for cell in m.cells() {
        assert_eq!(d.cost(cell), from_exit.cost(cell), "{cell}");
    }
    assert!(d.cost(c(1, 3)) > d.cost(c(1, 1)));
    // Walled in, and walls themselves: no way off.
    assert_eq!(d.cost(c(3, 3)), None);
    assert_eq!(d.cost(c(0, 0)), None);
    let cave = grid(&["###", "#.#", "###"]);
    assert_eq!(cave.exit_distances().cost(c(1, 1)), None);
}

#[test]
fn zones_and_adjacency() {
    let m = grid(&[
        "..#..", //
        "..#..", //
        ".....", //
        "#####", //
        ".....",
    ]);
    let zone = |name: &str, cells: &[(i32, i32)]| Zone {
        name: name.to_string(),
        cells: cells.iter().map(|&(x, y)| c(x, y)).collect(),
    };
    let m = m.with_zones(vec![
        zone("west", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        zone("east", &[(3, 0), (4, 0), (3, 1), (4, 1)]),
        zone("middle", &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]),
        zone("south", &[(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]),
        zone("wall", &[(2, 0), (2, 1)]),
    ]);
    assert_eq!(m.zones().len(), 5);
    assert_eq!(m.zone_of(c(1, 1)), Some(0));
    assert_eq!(m.zone_of(c(2, 2)), Some(2));
    assert_eq!(m.zone_of(c(2, 3)), None);
    assert_eq!(m.zone_of(c(9, 9)), None);
    assert_eq!(m.zone_index("east"), Some(1));
    assert_eq!(m.zone_index("nowhere"), None);
    // West and east are separated by a wall column; both touch the middle.
    assert!(!m.zones_adjacent(0, 1));
    assert!(m.zones_adjacent(0, 2));
    assert!(m.zones_adjacent(2, 1));
    assert!(!m.zones_adjacent(2, 2));
    // A map's key names it and its copies, not a map given other zones
    // (answers kept by the key read the zones).
    let key = m.key().expect("a map made by Map::new");
    assert!(key.is(&m) && key.is(&m.clone()));
    let regrouped = m.clone().with_zones(vec![zone("all", &[(0, 0), (1, 0)])]);
    assert!(!key.is(&regrouped));
    // The south zone only touches walls.
    assert!(!m.zones_adjacent(2, 3));
    // A zone drawn over walls touches nothing.
    assert_eq!(m.zone_neighbours(4), &[] as &[u16]);
    assert_eq!(m.zone_neighbours(0), &[2]);
    assert_eq!(m.zone_neighbours(2), &[0, 1]);
    assert_eq!(m.zone_neighbours(99), &[] as &[u16]);
    assert_eq!(m.zone_distance(0, 0), Some(0));
    assert_eq!(m.zone_distance(0, 2), Some(1));
    assert_eq!(m.zone_distance(0, 1), Some(2));
    assert_eq!(m.zone_distance(0, 3), None);
    assert_eq!(m.zone_distance(0, 17), None);
}
