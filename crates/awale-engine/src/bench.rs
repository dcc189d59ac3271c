//! The fixed search of `awale bench`: the same positions searched to the
//! same depth, one thread, a fresh table for each. The node total is a
//! signature (it changes only when the search's behaviour changes); the
//! time gives the speed. The binary and the page's WebAssembly engine run
//! this same code, so their speeds compare.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Position, Rules};

use crate::clock::Instant;
use crate::{Engine, SearchResult};

/// The positions: openings, middle games and endgames from games between
/// engine levels, under both presets, as (rules, diagram).
pub const POSITIONS: &[(&str, &str)] = &[
    ("awale", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
    ("abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
    ("awale", "6-1-7-2-7-0-0-7-0-7-0-7-2-2-S"),
    ("awale", "10-0-12-1-1-5-0-9-0-1-0-3-4-2-S"),
    ("awale", "1-3-0-4-6-4-9-1-6-1-5-0-6-2-S"),
    ("awale", "0-6-0-2-1-1-1-0-0-4-12-1-12-8-S"),
    ("awale", "2-6-1-14-1-2-3-0-2-10-2-3-0-2-S"),
    ("awale", "1-1-12-0-4-8-0-1-1-1-2-2-7-8-S"),
    ("awale", "1-3-5-2-2-3-2-1-17-3-0-4-0-5-S"),
    ("awale", "0-1-0-4-5-2-0-1-0-3-9-2-9-12-S"),
    ("awale", "0-0-6-0-4-2-2-0-6-2-0-10-11-5-S"),
    ("awale", "1-1-1-1-0-0-0-1-0-5-0-3-18-17-S"),
    ("abapa", "0-2-0-1-2-10-0-0-4-10-0-10-4-5-S"),
    ("abapa", "0-0-7-12-1-1-9-0-8-0-0-5-2-3-S"),
    ("abapa", "1-8-13-1-2-3-1-5-1-5-0-0-2-6-S"),
    ("abapa", "1-1-0-0-3-0-1-14-0-0-1-0-14-13-S"),
];

/// What the fixed search found: the node signature and the time it took.
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// Nodes searched over every position.
    pub nodes: u64,
    /// Time spent searching (the positions' set-up left out).
    pub time: Duration,
}

impl Bench {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Searches every position of [`POSITIONS`] to `depth` with `engine`
/// (whose table is cleared before each), calling `each` with the rules,
/// the diagram and the result of each search.
pub fn run(
    engine: &mut Engine,
    depth: u32,
    each: &mut dyn FnMut(&str, &str, &SearchResult),
) -> Bench {
    let stop = AtomicBool::new(false);
    let mut bench = Bench {
        nodes: 0,
        time: Duration::ZERO,
    };
    for (rules, diagram) in POSITIONS {
        // Constants, checked by a test.
        let parsed: Rules = rules.parse().expect("the bench rules are valid");
        let position: Position = diagram.parse().expect("the bench positions are valid");
        let game = Game::from_position(parsed, position);
        engine.new_game();
        let started = Instant::now();
        let result = engine.search(&game, &crate::Limits::depth(depth), &stop, &mut |_| {});
        bench.time += started.elapsed();
        bench.nodes += result.nodes;
        each(rules, diagram, &result);
    }
    bench
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid() {
        for (rules, diagram) in POSITIONS {
            assert!(rules.parse::<Rules>().is_ok(), "{rules}");
            assert!(diagram.parse::<Position>().is_ok(), "{diagram}");
        }
    }
}
