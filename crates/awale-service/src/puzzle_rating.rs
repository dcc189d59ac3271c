//! Puzzle ratings, apart from game ratings: Glicko-2 (the model's
//! [`Glicko`], as games use it), a solver and a puzzle each rated as the
//! other's opponent (a solve is the solver's win and the puzzle's loss),
//! so that a puzzle's rating moves with its solvers' results; the next
//! puzzle chosen near the solver's rating; a streak's puzzles of rising
//! difficulty. Pure arithmetic: what is stored and served is `puzzles.rs`.

use crate::rating::{Glicko, Result as Game, MAX_DEVIATION, MAX_VOLATILITY, MIN_DEVIATION, START};

/// The system constant of puzzle ratings (Glickman's 0.5: puzzles are
/// many short periods, lichess's game 0.75 would swing them).
pub const TAU: f64 = 0.5;

/// Where a puzzle of `difficulty` (1 to 5, `awale_puzzles::difficulty`)
/// starts: solvers and puzzles are rated on one scale, an unknown solver
/// at [`START`] (1500) meeting the middle difficulty; each step of
/// difficulty [`DIFFICULTY_STEP`] more; as uncertain as a new solver, so
/// its first solvers soon move it.
pub fn puzzle_start(difficulty: u8) -> Glicko {
    let steps = f64::from(difficulty.clamp(1, 5)) - 3.0;
    Glicko {
        rating: START.rating + DIFFICULTY_STEP * steps,
        ..START
    }
}

/// How far apart the start ratings of two difficulties are.
pub const DIFFICULTY_STEP: f64 = 200.0;

/// A streak's first puzzle is this far below the solver's rating; each
/// one after is [`STREAK_STEP`] harder.
pub const STREAK_BELOW: f64 = 400.0;

/// How much harder each puzzle of a streak is than the one before.
pub const STREAK_STEP: f64 = 50.0;

/// One rating period of a solver: each attempt against a puzzle's rating,
/// solved or not (Glickman's steps with the system constant `tau`), with
/// the server's bounds.
pub fn after_attempts(solver: &Glicko, attempts: &[(Glicko, bool)], tau: f64) -> Glicko {
    let games: Vec<Game> = attempts
        .iter()
        .map(|&(puzzle, solved)| Game {
            opponent: puzzle,
            score: if solved { 1.0 } else { 0.0 },
        })
        .collect();
    solver.after_period(&games, 1.0, tau)
}

/// An attempt rated: the solver's and the puzzle's ratings after it
/// (each rated against the other's rating before), within the bounds
/// game ratings keep.
pub fn rate_attempt(solver: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, Glicko) {
    let bounded = |before: Glicko, after: Glicko| {
        if after.rating.is_finite() && after.deviation.is_finite() && after.volatility.is_finite() {
            Glicko {
                rating: after.rating,
                deviation: after.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
                volatility: after.volatility.min(MAX_VOLATILITY),
            }
        } else {
            before
        }
    };
    let solver_after = after_attempts(&solver, &[(puzzle, solved)], TAU);
    let puzzle_after = after_attempts(&puzzle, &[(solver, !solved)], TAU);
    (bounded(solver, solver_after), bounded(puzzle, puzzle_after))
}

/// Of `puzzles` (a key and its rating), the one nearest `target`; the
/// first of those equally near.
pub fn nearest<K: Copy>(puzzles: &[(K, Glicko)], target: f64) -> Option<K> {
    puzzles
        .iter()
        .min_by(|a, b| {
            let da = (a.1.rating - target).abs();
            let db = (b.1.rating - target).abs();
            da.total_cmp(&db)
        })
        .map(|p| p.0)
}

/// The rating a streak's puzzle number `step` (0 first) is chosen near,
/// for a solver rated `solver`: rising until the first miss.
pub fn streak_target(solver: &Glicko, step: u32) -> f64 {
    solver.rating - STREAK_BELOW + STREAK_STEP * f64::from(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example ("Example of the Glicko-2 system"): a
    /// solver of 1500/200/0.06 who solves a puzzle rated 1400/30 and
    /// misses two of 1550/100 and 1700/300 ends at 1464.06/151.52/0.05999.
    #[test]
    fn glickmans_example_as_puzzle_attempts() {
        let attempts = [
            (Glicko::example(1400.0, 30.0), true),
            (Glicko::example(1550.0, 100.0), false),
            (Glicko::example(1700.0, 300.0), false),
        ];
        let after = after_attempts(&Glicko::example(1500.0, 200.0), &attempts, TAU);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_solve_moves_the_solver_up_and_the_puzzle_down() {
        let (solver, puzzle) = rate_attempt(
            Glicko::example(1500.0, 200.0),
            Glicko::example(1600.0, 200.0),
            true,
        );
        assert!(
            solver.rating > 1500.0 && puzzle.rating < 1600.0,
            "{solver:?} {puzzle:?}"
        );
        let (solver, puzzle) = rate_attempt(
            Glicko::example(1500.0, 200.0),
            Glicko::example(1600.0, 200.0),
            false,
        );
        assert!(
            solver.rating < 1500.0 && puzzle.rating > 1600.0,
            "{solver:?} {puzzle:?}"
        );
    }

    #[test]
    fn a_new_puzzle_starts_by_its_difficulty_an_unknown_solver_meeting_the_middle() {
        assert_eq!(puzzle_start(3).rating, START.rating);
        assert!(puzzle_start(1).rating < puzzle_start(2).rating);
        assert!(puzzle_start(4).rating < puzzle_start(5).rating);
        // Out of range, the nearest difficulty.
        assert_eq!(puzzle_start(0), puzzle_start(1));
        assert_eq!(puzzle_start(9), puzzle_start(5));
        assert_eq!(puzzle_start(5).deviation, START.deviation);
    }

    #[test]
    fn the_next_puzzle_is_the_nearest_and_a_streak_rises() {
        let puzzles = [
            (1, Glicko::example(1200.0, 80.0)),
            (2, Glicko::example(1480.0, 80.0)),
            (3, Glicko::example(1900.0, 80.0)),
        ];
        assert_eq!(nearest(&puzzles, 1500.0), Some(2));
        assert_eq!(nearest::<u8>(&[], 1500.0), None);
        let me = Glicko::example(1500.0, 80.0);
        assert_eq!(nearest(&puzzles, streak_target(&me, 0)), Some(1));
        assert!(streak_target(&me, 5) > streak_target(&me, 4));
    }
}
