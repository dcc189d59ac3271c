//! The opening explorer over a real games file: the moves of the finished
//! games of a line, counted and with their results; the databases' exact
//! value where they cover the position; bad lines named.

use std::sync::Arc;

use awale_core::{Game, Move, Rules, Side};
use awale_model::game::{Mode, PlayerId, Stop, WebGame};
use awale_service::computer::{Computer, OracleSource};
use awale_service::explorer::Explorer;
use awale_store::{GameStore, Store};

/// A game of `rules` with `line` played, ended by `end` (a side's
/// resignation, a draw agreed when None, going on when `going`), stored.
async fn stored(store: &Store, rules: Rules, line: &str, end: Option<Side>, going: bool) {
    let mut g = WebGame::new(Mode::Humans, Game::new(rules), 1_000, 7);
    g.seat_maker(&PlayerId("p1".into()));
    let mut g = store.create(vec![g]).await.unwrap().remove(0);
    for c in line.chars() {
        g.play(Move::from_letter(c).unwrap(), 2_000).unwrap();
    }
    if !going {
        match end {
            Some(side) => g.game.resign(side).unwrap(),
            None => g.stop = Some(Stop::Agreed),
        }
    }
    store.save(g, 0).await.unwrap();
}

fn explorer(store: &Store, computer: Computer) -> Explorer {
    Explorer::new(Arc::new(store.clone()), Arc::new(computer))
}

/// (move, games, South's wins, North's wins, draws) of each move listed.
fn counts(view: &awale_service::explorer::ExplorerView) -> Vec<(String, i64, i64, i64, i64)> {
    view.moves
        .iter()
        .map(|m| (m.mv.clone(), m.games, m.south_wins, m.north_wins, m.draws))
        .collect()
}

fn row(m: &str, games: i64, south: i64, north: i64, draws: i64) -> (String, i64, i64, i64, i64) {
    (m.to_string(), games, south, north, draws)
}

#[tokio::test]
async fn the_explorer_counts_the_finished_games_of_each_move_and_lists_every_legal_move() {
    let store = Store::in_memory().unwrap();
    stored(&store, Rules::AWALE, "FfAa", Some(Side::South), false).await;
    stored(&store, Rules::AWALE, "FfB", Some(Side::North), false).await;
    stored(&store, Rules::AWALE, "Fe", None, false).await;
    stored(&store, Rules::AWALE, "Cd", Some(Side::North), false).await;
    // Not counted: another preset's game, a game going on.
    stored(&store, Rules::ABAPA, "Ff", Some(Side::South), false).await;
    stored(&store, Rules::AWALE, "Ff", None, true).await;
    let explorer = explorer(&store, Computer::new(None, 1, 1));

    let start = explorer.explore(None).await.unwrap();
    assert_eq!(start.play, "");
    assert_eq!(start.games, 4);
    assert_eq!(
        counts(&start),
        [
            row("F", 3, 1, 1, 1),
            row("C", 1, 1, 0, 0),
            row("A", 0, 0, 0, 0),
            row("B", 0, 0, 0, 0),
            row("D", 0, 0, 0, 0),
            row("E", 0, 0, 0, 0),
        ],
        "the most played first, then every other legal move"
    );
    assert!(start.moves.iter().all(|m| m.db.is_none()), "no databases");
    assert_eq!(start.position.position.to_move, 'S');

    let after = explorer.explore(Some("F f")).await.unwrap();
    assert_eq!(after.play, "Ff");
    assert_eq!(after.games, 2);
    assert_eq!(
        &counts(&after)[..2],
        [row("A", 1, 0, 1, 0), row("B", 1, 1, 0, 0)]
    );
    assert_eq!(after.moves.len(), 5, "F is empty");

    // A line no game took: every legal move, none played.
    let fresh = explorer.explore(Some("Ab")).await.unwrap();
    assert_eq!(fresh.games, 0);
    assert!(fresh.moves.iter().all(|m| m.games == 0));

    for (bad, code) in [("Fz", "bad_moves"), ("FF", "illegal_move")] {
        let e = explorer.explore(Some(bad)).await.unwrap_err();
        assert_eq!(e.code.as_str(), code, "{bad}: {e:?}");
    }
}

/// Where the databases cover the position reached, the explorer gives
/// their exact value of it and of each move.
#[tokio::test]
async fn the_explorer_gives_the_databases_exact_value_where_they_cover_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    awale_db::build(&root, &Rules::AWALE, 8, 2).unwrap();
    let source: OracleSource =
        Box::new(move |rules| awale_db::oracle_for(rules, Some(&root)).ok().flatten());
    // A line from the start down to 8 seeds on the board: the move that
    // captures most, the first of them.
    let mut game = Game::new(Rules::AWALE);
    while game.position().seeds_on_board() > 8 {
        assert!(game.end().is_none(), "the line ended before 8 seeds");
        let position = game.position();
        let mv = game
            .legal_moves()
            .into_iter()
            .max_by_key(|m| (position.captures(*m), std::cmp::Reverse(m.letter())))
            .unwrap();
        game.play(mv).unwrap();
    }
    let line: String = game.plies().iter().map(|p| p.mv.letter()).collect();
    let store = Store::in_memory().unwrap();
    let explorer = explorer(&store, Computer::new(Some(source), 1, 1));
    let view = explorer.explore(Some(&line)).await.unwrap();
    if game.end().is_none() {
        let db = view.db.expect("the databases cover 8 seeds");
        assert_eq!(db.lower, db.upper, "exact: {db:?}");
        assert!(!view.moves.is_empty());
        // Each move's value, exact unless a repetition of the line's
        // positions widens it (the databases' own then given too).
        for m in &view.moves {
            let v = m.db.expect("each move's value");
            assert!(v.lower == v.upper || v.fresh.is_some(), "{}: {v:?}", m.mv);
        }
    }
    // Before it, 48 seeds: not covered.
    assert!(explorer.explore(None).await.unwrap().db.is_none());
}

/// The speed goal (issue 40): with 1,000 stored games, the explorer
/// answers within 50 ms p99. Ignored in the suite (a measure, not a
/// check: the machine's load decides it); run it alone, as
/// docs/BENCHMARKS.md says, and write the load average beside its line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measure: cargo test --profile fast --test explorer -- --ignored --nocapture"]
async fn explorer_p99_with_1000_stored_games() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("games.db")).unwrap();
    // 1,000 games played at random (a fixed seed), each to its end by the
    // rules or resigned at 200 moves.
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut lines = Vec::new();
    for chunk in 0..10 {
        let mut made = Vec::new();
        for _ in 0..100 {
            let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 1_000, 7);
            g.seat_maker(&PlayerId("p1".into()));
            made.push(g);
        }
        for mut g in store.create(made).await.unwrap() {
            while g.game.end().is_none() && g.game.plies().len() < 200 {
                let moves = g.game.legal_moves();
                // Openings repeat as they do on a site: the first moves
                // chosen among two.
                let pick = if g.game.plies().len() < 6 {
                    next(moves.len().min(2))
                } else {
                    next(moves.len())
                };
                g.play(moves[pick], 2_000).unwrap();
            }
            if g.game.end().is_none() {
                let side = g.game.position().to_move();
                g.game.resign(side).unwrap();
            }
            let line: String = g.game.plies().iter().map(|p| p.mv.letter()).collect();
            lines.push(line);
            store.save(g, 0).await.unwrap();
        }
        eprintln!("{} games stored", (chunk + 1) * 100);
    }
    let explorer = explorer(&store, Computer::new(None, 1, 1));
    // Lines of 0 to 12 moves of the stored games, 1,000 answers.
    let mut times = Vec::new();
    for i in 0..1_000 {
        let line = &lines[next(lines.len())];
        let plies = (i % 13).min(line.len());
        let play = &line[..plies];
        let began = std::time::Instant::now();
        let view = explorer.explore(Some(play)).await.unwrap();
        times.push(began.elapsed());
        assert!(plies == line.len() || view.games > 0, "{play}");
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "explorer, 1,000 stored games, 1,000 answers: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        at(0.50).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
