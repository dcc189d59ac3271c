//! Properties of the levels: legal, reproducible, varied at the bottom, and
//! never blind to a winning capture.

use std::sync::atomic::AtomicBool;

use awale_core::{Game, Move, Position, Rules, Side};
use awale_engine::{choose_move, Engine, EngineOptions, Level};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        threads: 1,
    })
}

/// The stop flag for `level`: the slow levels are stopped at once (they
/// still answer), the others run to their own limits.
fn stop_for(level: Level) -> &'static AtomicBool {
    static STOPPED: AtomicBool = AtomicBool::new(true);
    static RUNNING: AtomicBool = AtomicBool::new(false);
    if level >= Level::Master {
        &STOPPED
    } else {
        &RUNNING
    }
}

#[test]
fn every_level_plays_legal_moves() {
    let mut engine = engine();
    for &level in Level::ALL {
        let mut game = Game::new(Rules::ABAPA);
        for ply in 0..12u64 {
            let m = choose_move(&mut engine, &game, level, ply, stop_for(level)).expect("a move");
            assert!(game.legal_moves().contains(&m), "{level:?} played {m}");
            game.play(m).unwrap();
        }
    }
}

#[test]
fn choose_move_is_reproducible_with_a_seed() {
    let game = Game::new(Rules::AWALE);
    let stop = AtomicBool::new(false);
    for &level in &Level::ALL[..4] {
        for seed in 0..10 {
            let a = choose_move(&mut engine(), &game, level, seed, &stop);
            let b = choose_move(&mut engine(), &game, level, seed, &stop);
            assert_eq!(a, b, "{level:?} seed {seed}");
        }
    }
}

#[test]
fn the_weakest_level_varies_its_moves() {
    let game = Game::new(Rules::AWALE);
    let stop = AtomicBool::new(false);
    let mut seen: Vec<Move> = (0..40)
        .filter_map(|seed| choose_move(&mut engine(), &game, Level::Seed, seed, &stop))
        .collect();
    seen.sort();
    seen.dedup();
    assert!(seen.len() >= 3, "{seen:?}");
}

#[test]
fn every_level_takes_a_capture_that_wins_the_game() {
    // South has 22; F captures 3 and reaches 25 of 48.
    let position =
        Position::new([0, 0, 3, 0, 0, 1, 2, 4, 4, 4, 4, 1], [22, 3], Side::South).unwrap();
    let game = Game::from_position(Rules::AWALE, position);
    for &level in Level::ALL {
        for seed in 0..5 {
            let m = choose_move(&mut engine(), &game, level, seed, stop_for(level));
            assert_eq!(m, Move::from_letter('F'), "{level:?} seed {seed}");
        }
    }
}

#[test]
fn no_move_is_chosen_when_the_game_is_over() {
    let position = Position::new([0; 12], [24, 24], Side::South).unwrap();
    let game = Game::from_position(Rules::AWALE, position);
    assert_eq!(
        choose_move(
            &mut engine(),
            &game,
            Level::Seed,
            1,
            &AtomicBool::new(false)
        ),
        None
    );
}

/// Every level plays with the tables its Elo figure was measured with, not
/// with the network the engine searches with otherwise, and leaves the
/// network in place for the engine's other searches.
#[test]
fn levels_play_with_the_tables_and_leave_the_network_in_place() {
    use std::sync::Arc;

    use awale_engine::eval::{tables, trained};
    let stop = AtomicBool::new(false);
    let with_tables = || {
        let mut e = engine();
        e.set_evaluations(Arc::new(tables().clone()));
        e
    };
    let mut game = Game::new(Rules::AWALE);
    for k in [2, 3, 4, 1, 1, 5] {
        let moves = game.legal_moves();
        game.play(moves[k % moves.len()]).unwrap();
    }
    for level in [
        Level::Player,
        Level::Expert,
        Level::Grandmaster,
        Level::Titan,
    ] {
        for seed in 0..4 {
            let mut with_net = engine();
            let a = choose_move(&mut with_net, &game, level, seed, &stop);
            let b = choose_move(&mut with_tables(), &game, level, seed, &stop);
            assert_eq!(a, b, "{level:?}, seed {seed}");
            assert_eq!(
                with_net.evaluation(game.rules()),
                trained().for_rules(game.rules())
            );
        }
    }
    assert!(trained().for_rules(game.rules()).correction.is_some());
}
