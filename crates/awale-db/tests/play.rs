//! Playing with the database: its best moves realise the values it claims
//! (progress, no wandering), and the engine with the database as its oracle
//! never throws a result away.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Position, Rules, Side};
use awale_db::{level_size, unrank};
use awale_engine::{Engine, EngineOptions, Limits, Oracle, Score};
use rand::RngExt;

mod common;

const MAX: u8 = 10;

/// Random positions with 2..=MAX seeds, the side to move having a move, and
/// stores that add up to 48.
fn sample(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = common::rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let seeds = rng.random_range(2..=MAX);
        let board = unrank(rng.random_range(0..level_size(seeds)), seeds);
        let rest = 48 - seeds;
        let south = rng.random_range(0..=rest);
        let p = Position::new(board, [south, rest - south], Side::South).unwrap();
        if p.end(&Rules::AWALE).is_none() {
            out.push(p);
        }
    }
    out
}

#[test]
fn best_moves_on_both_sides_capture_exactly_the_value_from_a_fresh_start() {
    let (db, _dir) = common::database(&Rules::AWALE, MAX);
    for start in sample(400, 0x1234_5678_9ABC_DEF1) {
        let value = db.probe(&start).unwrap().lower;
        let mut game = Game::from_position(Rules::AWALE, start);
        let mut plies = 0;
        while game.end().is_none() {
            let m = db
                .best_move_in_game(&game)
                .expect("a covered position has a best move");
            game.play(m).unwrap();
            plies += 1;
            assert!(plies < 2_000, "{start}: the best moves wander");
        }
        let end = game.end().unwrap();
        let stores = game.position().final_stores(end, &Rules::AWALE);
        let gained = (i32::from(stores[0]) - i32::from(start.stores()[0]))
            - (i32::from(stores[1]) - i32::from(start.stores()[1]));
        assert_eq!(
            gained,
            i32::from(value),
            "{start}: ended by {end} after {plies} plies"
        );
    }
}

/// The result for the side to move: +1 won, 0 drawn, -1 lost, from the
/// stores and the seeds still to capture.
fn result(position: &Position, value: i8) -> i32 {
    let me = position.to_move();
    let d = i32::from(position.store(me)) - i32::from(position.store(me.opponent()));
    (d + i32::from(value)).signum()
}

#[test]
fn the_engine_with_the_database_never_makes_a_losing_move() {
    let (db, _dir) = common::database(&Rules::AWALE, MAX);
    let db = Arc::new(db);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let oracle: Arc<dyn Oracle> = db.clone();
    engine.set_oracle(Some(oracle));
    let stop = AtomicBool::new(false);
    let mut kept = 0;
    let positions = sample(120, 0xC0FF_EE00_1234_5678);
    for p in &positions {
        let game = Game::from_position(Rules::AWALE, *p);
        // The strongest level searches for seconds; a fixed depth keeps the
        // test short and reproducible, and every child is probed anyway.
        let best = engine
            .search(&game, &Limits::depth(6), &stop, &mut |_| {})
            .best
            .expect("the game is not over");
        let entries = db.move_entries(p).unwrap();
        let value = db.probe(p).unwrap().lower;
        let chosen = entries.iter().find(|e| e.mv == best).unwrap();
        assert_eq!(
            result(p, chosen.lower),
            result(p, value),
            "{p}: the engine played {best}, worth {} against {value}",
            chosen.lower
        );
        kept += usize::from(chosen.lower == value);
    }
    // The engine plays for the result: among winning moves it need not keep
    // the largest margin.
    eprintln!("{kept} of {} moves kept the exact value", positions.len());
}

#[test]
fn the_perfect_level_with_the_database_captures_exactly_the_value() {
    let (db, _dir) = common::database(&Rules::AWALE, MAX);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let oracle: Arc<dyn Oracle> = Arc::new(db);
    engine.set_oracle(Some(oracle.clone()));
    let stop = AtomicBool::new(false);
    for start in sample(100, 0x0BAD_5EED_0000_0001) {
        let value = oracle.probe(&start).unwrap().lower;
        let mut game = Game::from_position(Rules::AWALE, start);
        while game.end().is_none() {
            let m = awale_engine::choose_move(
                &mut engine,
                &game,
                awale_engine::Level::Perfect,
                1,
                &stop,
            )
            .expect("the game is not over");
            game.play(m).unwrap();
            assert!(
                game.plies().len() < 2_000,
                "{start}: the Perfect level wanders"
            );
        }
        let stores = game
            .position()
            .final_stores(game.end().unwrap(), &Rules::AWALE);
        let gained = (i32::from(stores[0]) - i32::from(start.stores()[0]))
            - (i32::from(stores[1]) - i32::from(start.stores()[1]));
        assert_eq!(gained, i32::from(value), "{start}");
    }
}

#[test]
fn the_search_with_the_database_scores_its_root_at_the_exact_value() {
    // North wins 28-20 (+9 from here, a margin of 8) with b or d, whose
    // next capture is 41 and 45 plies away; c wins by 4 only. Below the
    // root the positions since the last capture may come back, so the
    // database gives the search only bounds there (between 0 and the
    // value: -1 to 8 for North), and the search took a line it could
    // prove (c, a win by 4) for the root's score and move. The root's own
    // value is exact, and so is that of the database's move there.
    let (db, _dir) = common::database(&Rules::AWALE, MAX);
    let start: Position = "0-0-3-0-2-1-0-1-1-1-0-0-20-19-N".parse().unwrap();
    assert_eq!(db.probe(&start).unwrap().lower, 9);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let oracle: Arc<dyn Oracle> = Arc::new(db);
    engine.set_oracle(Some(oracle));
    let game = Game::from_position(Rules::AWALE, start);
    let stop = AtomicBool::new(false);
    for limits in [
        Limits::depth(12),
        Limits::movetime(Duration::from_millis(200)),
    ] {
        let result = engine.search(&game, &limits, &stop, &mut |_| {});
        assert_eq!(result.score, Score::proven(8), "{limits:?}");
        let best = result.best.unwrap().to_string();
        assert!(best == "b" || best == "d", "{limits:?}: {best}");
    }
    let analyses = engine.analyze(&game, &Limits::movetime(Duration::from_millis(300)), &stop);
    let score_of = |name: &str| {
        analyses
            .iter()
            .find(|a| a.mv.to_string() == name)
            .unwrap()
            .score
    };
    // b is the database's move: worth exactly the root's value. d's and
    // c's values inside the game are known only within bounds (c's next
    // capture is 8 plies away): below 8, and for c at most 4.
    assert_eq!(analyses[0].mv.to_string(), "b", "{analyses:?}");
    assert_eq!(analyses[0].score, Score::proven(8), "{analyses:?}");
    assert!(score_of("c") <= Score::proven(4), "{analyses:?}");
}
