//! Properties of the search: legal moves, forced captures, decided games,
//! repetitions, stopping, threads and the endgame oracle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use awale_core::{Game, Move, Position, Rules, Side};
use awale_engine::{Bounds, Engine, EngineOptions, Limits, Oracle, Score};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn engine() -> Engine {
    engine_of(4, 1)
}

fn engine_of(hash_mb: usize, threads: usize) -> Engine {
    Engine::new(EngineOptions { hash_mb, threads })
}

/// An engine that asks `oracle` at the leaves.
fn engine_with(oracle: impl Oracle + 'static) -> Engine {
    let mut engine = engine();
    engine.set_oracle(Some(Arc::new(oracle)));
    engine
}

fn search(engine: &mut Engine, game: &Game, limits: &Limits) -> awale_engine::SearchResult {
    let stop = AtomicBool::new(false);
    engine.search(game, limits, &stop, &mut |_| {})
}

/// A game from a diagram such as `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
fn game_at(diagram: &str, rules: Rules) -> Game {
    Game::from_position(rules, diagram.parse().unwrap())
}

/// A flag that another thread sets after `delay`; join it when the search
/// is back.
fn flag_set_after(delay: Duration) -> (Arc<AtomicBool>, JoinHandle<()>) {
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            flag.store(true, Ordering::Relaxed);
        })
    };
    (flag, setter)
}

/// The search's move is legal, or there is none because the game is over.
fn assert_legal_or_over(game: &Game, best: Option<Move>) {
    match best {
        Some(m) => assert!(
            game.legal_moves().contains(&m),
            "{m} in {}",
            game.position()
        ),
        None => assert!(game.end().is_some(), "no move in {}", game.position()),
    }
}

/// Games of pseudo-random moves, reproducible.
fn random_games(count: usize, rules: Rules) -> Vec<Game> {
    let mut rng = StdRng::seed_from_u64(0x0123_4567_89AB_CDEF);
    let mut games = Vec::new();
    for g in 0..count {
        let mut game = Game::new(rules);
        let plies = 5 + g * 7 % 60;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        games.push(game);
    }
    games
}

#[test]
fn search_never_returns_an_illegal_move() {
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let mut engine = engine();
        for game in random_games(40, rules) {
            let result = search(&mut engine, &game, &Limits::depth(7));
            assert_legal_or_over(&game, result.best);
            // The principal variation is a line of legal moves.
            let mut line = game.clone();
            for m in &result.pv {
                line.play(*m).unwrap();
            }
        }
    }
}

#[test]
fn search_of_a_finished_game_returns_no_move() {
    // South has no seeds and North cannot feed: starvation.
    let game = game_at("0-0-0-0-0-0-1-0-0-0-0-0-20-27-S", Rules::AWALE);
    assert!(game.end().is_some());
    let result = search(&mut engine(), &game, &Limits::depth(5));
    assert_eq!(result.best, None);
    assert!(result.score.is_loss());
}

#[test]
fn search_finds_a_forced_capture() {
    // docs/RULES.md: hole 5 captures 7 (mover's row 0 0 0 0 0 6, opponent 1 1 5 1 2 1).
    let game = game_at("0-0-0-0-0-6-1-1-5-1-2-1-10-10-S", Rules::AWALE);
    for depth in [1, 2, 5, 9] {
        let result = search(&mut engine(), &game, &Limits::depth(depth));
        assert_eq!(result.best, Move::from_letter('F'), "depth {depth}");
    }
}

#[test]
fn a_side_with_more_than_half_the_seeds_has_won() {
    // South already holds 25: whatever happens, South wins, with either
    // side to move.
    for (diagram, mover_wins) in [
        ("1-1-1-1-1-1-1-1-1-1-1-3-25-9-S", true),
        ("1-1-1-1-1-1-1-1-1-1-1-3-25-9-N", false),
    ] {
        let game = game_at(diagram, Rules::AWALE);
        let score = search(&mut engine(), &game, &Limits::depth(6)).score;
        let decided = if mover_wins {
            score.is_win()
        } else {
            score.is_loss()
        };
        assert!(decided, "{score} in {diagram}");
    }
}

#[test]
fn a_capture_that_wins_the_game_scores_a_win_in_one() {
    // South has 22; capturing 3 reaches 25 of 48.
    let game = game_at("0-0-0-0-0-1-2-4-4-4-4-1-22-6-S", Rules::AWALE);
    let result = search(&mut engine(), &game, &Limits::depth(8));
    assert_eq!(result.best, Move::from_letter('F'));
    assert_eq!(result.score, Score::win_in(1));
}

#[test]
fn search_respects_stop() {
    let game = Game::new(Rules::AWALE);
    let mut engine = engine();
    // Stopped before it starts: still a legal move, at once.
    let stop = AtomicBool::new(true);
    let started = Instant::now();
    let result = engine.search(&game, &Limits::infinite(), &stop, &mut |_| {});
    assert!(game.legal_moves().contains(&result.best.unwrap()));
    assert!(started.elapsed() < Duration::from_secs(2));
    // Stopped from another thread while searching without limits.
    let (stop, stopper) = flag_set_after(Duration::from_millis(200));
    let started = Instant::now();
    let result = engine.search(&game, &Limits::infinite(), &stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(result.depth >= 1);
    assert!(game.legal_moves().contains(&result.best.unwrap()));
}

#[test]
fn a_node_limit_is_respected() {
    let game = Game::new(Rules::AWALE);
    let result = search(&mut engine(), &game, &Limits::nodes(20_000));
    assert!(result.nodes < 40_000, "{} nodes", result.nodes);
    assert!(result.best.is_some());
}

#[test]
fn threads_two_gives_a_legal_move() {
    let mut engine = engine_of(8, 2);
    for game in random_games(10, Rules::ABAPA) {
        let result = search(&mut engine, &game, &Limits::depth(10));
        assert_legal_or_over(&game, result.best);
    }
}

/// The value of a position with no history by brute
/// force: the seeds the mover will still capture minus the opponent's, the
/// search path checked for repetitions (which end the game, the seeds left
/// given out as the rules say). Exponential: for a handful of seeds only.
fn brute_force(pos: &Position, rules: &Rules, path: &mut Vec<u128>) -> i32 {
    let me = pos.to_move();
    let stores = pos.stores();
    if let Some(reason) = pos.end(rules) {
        let f = pos.final_stores(reason, rules);
        return i32::from(f[me.index()])
            - i32::from(stores[me.index()])
            - (i32::from(f[me.opponent().index()]) - i32::from(stores[me.opponent().index()]));
    }
    if path.contains(&pos.repetition_key()) {
        // The rules say who takes the seeds left: nobody, or each their row.
        let f = pos.final_stores(awale_core::EndReason::Repetition, rules);
        return i32::from(f[me.index()])
            - i32::from(stores[me.index()])
            - (i32::from(f[me.opponent().index()]) - i32::from(stores[me.opponent().index()]));
    }
    path.push(pos.repetition_key());
    let mut best = i32::MIN;
    for m in pos.legal_moves(rules) {
        let child = pos.play_unchecked(m);
        let captured = i32::from(child.store(me)) - i32::from(stores[me.index()]);
        let v = if captured > 0 {
            captured - brute_force(&child, rules, &mut Vec::new())
        } else {
            -brute_force(&child, rules, path)
        };
        best = best.max(v);
    }
    path.pop();
    best
}

/// An oracle that solves positions of up to `max` seeds by brute force.
struct BruteForce {
    max: u8,
    /// Answer only bounds one seed wide around the value.
    loose: bool,
    cache: Mutex<HashMap<u128, i8>>,
}

impl BruteForce {
    fn new(max: u8, loose: bool) -> BruteForce {
        BruteForce {
            max,
            loose,
            cache: Mutex::new(HashMap::new()),
        }
    }
}

impl Oracle for BruteForce {
    fn probe(&self, position: &Position) -> Option<Bounds> {
        if position.seeds_on_board() > self.max {
            return None;
        }
        let key = position.repetition_key();
        let cached = self.cache.lock().unwrap().get(&key).copied();
        let v = cached.unwrap_or_else(|| {
            let v = brute_force(position, &Rules::AWALE, &mut Vec::new()) as i8;
            self.cache.lock().unwrap().insert(key, v);
            v
        });
        Some(if self.loose {
            Bounds {
                lower: v - 1,
                upper: v + 1,
            }
        } else {
            Bounds::exact(v)
        })
    }
    fn max_seeds(&self) -> u8 {
        self.max
    }
    fn rules(&self) -> Rules {
        Rules::AWALE
    }
}

/// Small positions at 22-22 in the stores: whoever captures more wins.
fn close_endgames() -> Vec<Game> {
    let boards: [[u8; 12]; 5] = [
        [1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0],
        [0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0],
        [2, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0],
        [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0],
    ];
    boards
        .iter()
        .flat_map(|&holes| {
            Side::BOTH.map(|side| {
                Game::from_position(Rules::AWALE, Position::new(holes, [22, 22], side).unwrap())
            })
        })
        .filter(|g| g.end().is_none())
        .collect()
}

/// Won, drawn or lost as 1, 0, -1, from the side to move's view.
fn outcome_of(score: Score) -> i32 {
    i32::from(score.is_win()) - i32::from(score.is_loss())
}

#[test]
fn an_exact_oracle_gives_the_final_result() {
    for game in close_endgames() {
        let plain = search(&mut engine(), &game, &Limits::depth(40));
        let mut with_oracle = engine_with(BruteForce::new(2, false));
        let result = search(&mut with_oracle, &game, &Limits::depth(40));
        assert_eq!(
            outcome_of(result.score),
            outcome_of(plain.score),
            "{} vs {} in {}",
            result.score,
            plain.score,
            game.position()
        );
        assert!(game.legal_moves().contains(&result.best.unwrap()));
    }
}

#[test]
fn oracle_bounds_are_never_taken_as_exact() {
    // With bounds only, the search must still be right about who wins.
    for game in close_endgames() {
        let plain = search(&mut engine(), &game, &Limits::depth(40)).score;
        let mut loose = engine_with(BruteForce::new(2, true));
        let result = search(&mut loose, &game, &Limits::depth(40));
        assert_eq!(
            outcome_of(result.score),
            outcome_of(plain),
            "{} vs {plain} in {}",
            result.score,
            game.position()
        );
    }
}

/// An oracle for `rules` that gives every position the same exact value:
/// what such a value is worth when the search takes it as exact.
struct Constant {
    value: i8,
    rules: Rules,
}

impl Oracle for Constant {
    fn probe(&self, _: &Position) -> Option<Bounds> {
        Some(Bounds::exact(self.value))
    }
    fn max_seeds(&self) -> u8 {
        48
    }
    fn rules(&self) -> Rules {
        self.rules
    }
}

/// An oracle that says the side to move wins every position by 40.
fn boaster(rules: Rules) -> Constant {
    Constant { value: 40, rules }
}

#[test]
fn an_oracle_is_not_taken_as_exact_after_moves_without_capture() {
    // The oracle's values are those of a position reached by a capture.
    // After moves without one, a repetition can end the game first: the
    // value lies between the oracle's and what such a repetition pays (0
    // under `nobody`, the rows under `own_row`: docs/DATABASES.md).
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let mut game = game_at("1-0-2-0-1-0-0-1-0-2-0-1-18-22-S", rules);
        game.play(Move::from_letter('A').unwrap()).unwrap();
        // No move of North's captures: South answers each with a history.
        let pos = game.position();
        assert!(game.legal_moves().into_iter().all(|m| pos.captures(m) == 0));
        let result = search(&mut engine_with(boaster(rules)), &game, &Limits::depth(1));
        assert!(!result.score.is_decided(), "{rules}: {}", result.score);
    }
    // Straight after a capture, the oracle is believed: North's only move
    // captures, and South then "wins by 40".
    let game = game_at("1-1-4-4-4-4-0-0-0-0-0-1-14-15-N", Rules::AWALE);
    let mut boaster = engine_with(boaster(Rules::AWALE));
    assert!(search(&mut boaster, &game, &Limits::depth(1))
        .score
        .is_loss());
}

#[test]
fn an_oracle_for_other_rules_is_not_used() {
    // A lying oracle built for other rules must not change the result.
    let mut liar = engine_with(Constant {
        value: -40,
        rules: Rules::ABAPA,
    });
    let game = Game::new(Rules::AWALE);
    let result = search(&mut liar, &game, &Limits::depth(6));
    assert!(!result.score.is_decided());
}

/// Games from small positions, up to 26 plies without capture, after
/// which the side to move has a move back into a position of the game.
fn games_with_a_repetition_at_hand(rules: Rules) -> Vec<Game> {
    let mut found = Vec::new();
    let mut rng = StdRng::seed_from_u64(99);
    for case in 0..200 {
        let mut holes = [0u8; 12];
        for _ in 0..2 {
            holes[rng.random_range(0..12)] += 1;
        }
        let stores = [[23, 22], [22, 23], [22, 22]][case % 3];
        let Ok(start) = Position::new(holes, stores, Side::South) else {
            continue;
        };
        let mut stack = vec![Game::from_position(rules, start)];
        while let Some(game) = stack.pop() {
            if game.end().is_some() || found.len() >= 24 {
                continue;
            }
            let pos = game.position();
            let repeats = game.plies().len() >= 2
                && pos.legal_moves(&rules).any(|m| {
                    let mut g = game.clone();
                    g.play(m).is_ok() && g.end() == Some(awale_core::EndReason::Repetition)
                });
            if repeats {
                // Also two plies earlier: the repetition is then deeper in
                // the tree, below nodes whose scores could be stored.
                let mut earlier = game.clone();
                earlier.undo();
                earlier.undo();
                if !earlier.plies().is_empty() {
                    found.push(earlier);
                }
                found.push(game);
                continue;
            }
            if game.plies().len() < 26 {
                for m in game.legal_moves() {
                    let mut g = game.clone();
                    if g.play(m) == Ok(0) {
                        stack.push(g);
                    }
                }
            }
        }
    }
    found
}

#[test]
fn tt_does_not_break_repetition_handling() {
    // Each position is searched inside a game where a repetition is at hand
    // and as a fresh game (no history), in both orders on one engine (so
    // the table holds what the other search learnt): every result must
    // match a brute force that knows the history, or has none.
    let games: Vec<Game> = [Rules::AWALE, Rules::ABAPA]
        .into_iter()
        .flat_map(games_with_a_repetition_at_hand)
        .collect();
    assert!(games.len() >= 10, "only {} cases", games.len());
    let outcome = |game: &Game, history: bool| {
        let pos = game.position();
        let seeds = pos.seeds_on_board();
        let mut path: Vec<u128> = game
            .plies()
            .iter()
            .map(|p| p.before)
            .filter(|p| history && p.seeds_on_board() == seeds)
            .map(|p| p.repetition_key())
            .collect();
        let value = brute_force(&pos, game.rules(), &mut path);
        let me = pos.to_move();
        (value + i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()))).signum()
    };
    let mut differ = 0;
    for game in &games {
        let pos = game.position();
        let fresh_game = Game::from_position(*game.rules(), pos);
        let (with_history, without) = (outcome(game, true), outcome(&fresh_game, false));
        differ += usize::from(with_history != without);
        for history_first in [true, false] {
            let mut reused = engine();
            let order = if history_first {
                [(game, with_history), (&fresh_game, without)]
            } else {
                [(&fresh_game, without), (game, with_history)]
            };
            for (g, expected) in order {
                let score = search(&mut reused, g, &Limits::depth(24)).score;
                assert_eq!(
                    outcome_of(score),
                    expected,
                    "{score} in {pos}, history first: {history_first}"
                );
            }
        }
    }
    // The history must matter in some of them for the test to mean much.
    assert!(
        differ >= 1,
        "history changes the result in {differ} of {} cases",
        games.len()
    );
}

#[test]
fn info_is_reported_after_each_depth() {
    let game = Game::new(Rules::AWALE);
    let legal: Vec<Move> = game.legal_moves().into_iter().collect();
    let mut depths = Vec::new();
    let mut firsts = Vec::new();
    let stop = AtomicBool::new(false);
    let result = engine().search(&game, &Limits::depth(8), &stop, &mut |info| {
        depths.push(info.depth);
        firsts.push(info.pv.first().copied());
    });
    assert_eq!(depths, (1..=8).collect::<Vec<_>>());
    assert_eq!(result.depth, 8);
    // Each report's line starts with a legal move; the last one's is the move chosen.
    assert!(
        firsts.iter().all(|m| m.is_some_and(|m| legal.contains(&m))),
        "{firsts:?}"
    );
    assert_eq!(firsts.last().copied().flatten(), result.best);
}

#[test]
fn analyze_scores_every_legal_move_best_first() {
    let game = Game::new(Rules::ABAPA);
    let stop = AtomicBool::new(false);
    let analyses = engine().analyze(&game, &Limits::depth(6), &stop);
    assert_eq!(analyses.len(), 6);
    assert!(analyses.windows(2).all(|w| w[0].score >= w[1].score));
    for a in &analyses {
        assert_eq!(a.pv.first(), Some(&a.mv));
    }
}

#[test]
fn a_timed_analysis_searches_a_move_that_leaves_one_reply_in_full() {
    // C and F lose, D alone holds the draw. C leaves North one reply: the
    // search of C's child, timed, used to stop after one ply (nothing to
    // choose there) and score C from it, level with D or above it.
    let game = game_at("0-0-2-1-0-1-0-0-1-0-0-0-22-21-S", Rules::AWALE);
    let stop = AtomicBool::new(false);
    let limits = Limits::movetime(Duration::from_millis(200));
    let analyses = engine().analyze(&game, &limits, &stop);
    let moves: Vec<String> = analyses.iter().map(|a| a.mv.to_string()).collect();
    assert_eq!(moves[0], "D", "{analyses:?}");
    assert!(!analyses[0].score.is_decided(), "{analyses:?}");
    for a in &analyses[1..] {
        assert!(a.score.is_loss(), "{analyses:?}");
    }
}

#[test]
fn an_infinite_search_answers_only_when_stopped() {
    // Two seeds: every depth is searched in no time, yet the search waits.
    let game = game_at("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", Rules::AWALE);
    let (stop, stopper) = flag_set_after(Duration::from_millis(300));
    let started = Instant::now();
    let result = engine().search(&game, &Limits::infinite(), &stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(250));
    assert!(result.best.is_some());
}

#[test]
fn a_pondering_search_turns_into_a_timed_one_at_ponderhit() {
    let game = Game::new(Rules::AWALE);
    let (hit, hitter) = flag_set_after(Duration::from_millis(300));
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ponderhit: Some(hit),
        ..Limits::default()
    };
    let started = Instant::now();
    let result = search(&mut engine(), &game, &limits);
    hitter.join().unwrap();
    // Not before the ponderhit, and not much after its time ran out.
    assert!(started.elapsed() >= Duration::from_millis(280));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(result.best.is_some());
}

#[test]
fn two_threads_stop_when_told() {
    let mut engine = engine_of(8, 2);
    let game = Game::new(Rules::AWALE);
    let (stop, stopper) = flag_set_after(Duration::from_millis(150));
    let started = Instant::now();
    let result = engine.search(&game, &Limits::infinite(), &stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(game.legal_moves().contains(&result.best.unwrap()));
    // Both threads' nodes are counted.
    assert!(result.nodes > 0);
}

#[test]
fn an_infinite_analysis_scores_every_move_when_stopped() {
    let game = Game::new(Rules::AWALE);
    let (stop, stopper) = flag_set_after(Duration::from_millis(200));
    let started = Instant::now();
    let analyses = engine().analyze(&game, &Limits::infinite(), &stop);
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(analyses.len(), 6);
    // All from one depth: every line is at least that long.
    assert!(analyses.iter().all(|a| a.pv.len() >= 2), "{analyses:?}");
}

/// An oracle for `awale` that says every position's margin lies within one
/// seed either way of an even share.
struct WithinOne;

impl Oracle for WithinOne {
    fn probe(&self, _: &Position) -> Option<Bounds> {
        Some(Bounds {
            lower: -1,
            upper: 1,
        })
    }
    fn max_seeds(&self) -> u8 {
        48
    }
    fn rules(&self) -> Rules {
        Rules::AWALE
    }
}

#[test]
fn bounds_that_decide_nothing_still_bound_the_score() {
    // Even stores, no capture for South: the evaluation sees South more
    // than 3 seeds behind. The oracle says the game ends within a seed of
    // even from every position: the score must say no more.
    let game = game_at("1-1-1-0-0-0-1-1-1-2-1-1-19-19-S", Rules::AWALE);
    let pos = game.position();
    assert!(game.legal_moves().into_iter().all(|m| pos.captures(m) == 0));
    // Where the oracle knows the position, the engine evaluates it by the
    // tables alone (without the network): so does the engine compared.
    let mut tables = engine();
    tables.set_evaluations(Arc::new(awale_engine::eval::tables().clone()));
    let plain = search(&mut tables, &game, &Limits::depth(3)).score;
    assert!(
        !plain.is_decided() && plain.cp_value().abs() > 100,
        "the evaluation alone says {plain}"
    );
    let bounded = search(&mut engine_with(WithinOne), &game, &Limits::depth(3)).score;
    assert!(
        !bounded.is_decided() && bounded.cp_value().abs() <= 100,
        "{bounded}"
    );
    // Without the window (the search before), the bounds change nothing.
    let mut before = engine_with(WithinOne);
    before.set_params(awale_engine::SearchParams {
        oracle_window: false,
        ..awale_engine::SearchParams::default()
    });
    assert_eq!(search(&mut before, &game, &Limits::depth(3)).score, plain);
}

/// The network is left out where the oracle knows the position: an oracle
/// that knows nothing but covers every position makes the search that of
/// the tables alone.
#[test]
fn positions_the_oracle_covers_are_evaluated_without_the_network() {
    struct Silent;
    impl Oracle for Silent {
        fn probe(&self, _: &Position) -> Option<Bounds> {
            None
        }
        fn max_seeds(&self) -> u8 {
            48
        }
        fn rules(&self) -> Rules {
            Rules::AWALE
        }
    }
    let game = game_at("3-0-5-2-1-4-0-6-2-1-3-2-9-10-S", Rules::AWALE);
    let mut tables = engine();
    tables.set_evaluations(Arc::new(awale_engine::eval::tables().clone()));
    let with_tables = search(&mut tables, &game, &Limits::depth(8));
    let with_net = search(&mut engine(), &game, &Limits::depth(8));
    let covered = search(&mut engine_with(Silent), &game, &Limits::depth(8));
    assert_eq!(
        (covered.score, covered.nodes),
        (with_tables.score, with_tables.nodes)
    );
    assert_ne!(
        (with_net.score, with_net.nodes),
        (with_tables.score, with_tables.nodes)
    );
}
