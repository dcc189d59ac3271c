//! Checks a built level against its moves, board by board: each value (or
//! each bound) is the best over the moves, and each distance is one more
//! than that of the right value-keeping move. A check of the equations, not
//! a new solve: it catches a value a build got wrong (a damaged computation,
//! a race), not one that a wrong solver would make consistently wrong.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::{final_value, load, parallel_chunks, visit, Edges, LowerLevel, Silent, NO_DISTANCE};
use crate::Database;

/// What [`check_level`] found in one level.
#[derive(Clone, Debug, Default)]
pub struct LevelCheck {
    /// Seeds on the board.
    pub seeds: u8,
    /// Boards looked at (all of the level).
    pub boards: u64,
    /// Boards whose value (or bounds) are not the best over their moves.
    pub wrong_values: u64,
    /// Boards whose distance does not follow from their moves'.
    pub wrong_distances: u64,
    /// The first wrong board found, seen from the side to move.
    pub example: Option<[u8; 12]>,
}

/// Checks level `seeds` of `db` on `threads` threads. Levels missing from
/// `db` give `None`.
pub fn check_level(db: &Database, seeds: u8, threads: usize) -> Option<LevelCheck> {
    let level = db.levels.get(usize::from(seeds))?;
    let exact = db.variant.is_exact();
    let rules = db.variant.rules();
    let lower: Vec<LowerLevel<'_>> = db.levels[..usize::from(seeds)]
        .iter()
        .map(|l| LowerLevel {
            lower: l.plane(0),
            upper: if exact { l.plane(0) } else { l.plane(1) },
        })
        .collect();
    let (first, second) = (level.plane(0), level.plane(1));
    let wrong_values = AtomicU64::new(0);
    let wrong_distances = AtomicU64::new(0);
    let example = Mutex::new(None);
    let wrong = |count: &AtomicU64, board: &[u8; 12]| {
        count.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut e) = example.lock() {
            e.get_or_insert(*board);
        }
    };
    parallel_chunks(seeds, threads, &Silent, &|start, count| {
        visit(seeds, start, count, None, |p, board| {
            let lo = first[p] as i8;
            let hi = if exact { lo } else { second[p] as i8 };
            let Some(edges) = Edges::of(board, seeds, &rules) else {
                let v = final_value(board);
                if (lo, hi) != (v, v) {
                    wrong(&wrong_values, board);
                }
                let expected = if v == 0 { NO_DISTANCE } else { 0 };
                if exact && second[p] != expected {
                    wrong(&wrong_distances, board);
                }
                return;
            };
            // The lower bound is the best of the moves' pessimistic values,
            // the upper bound of their optimistic ones.
            let mut best_lo = edges.best_exit(seeds, &lower, false);
            let mut best_hi = edges.best_exit(seeds, &lower, true);
            for &r in edges.stays() {
                let (child_lo, child_hi) = if exact {
                    (load(first, r), load(first, r))
                } else {
                    (load(first, r), load(second, r))
                };
                best_lo = best_lo.max(-child_hi);
                best_hi = best_hi.max(-child_lo);
            }
            if (lo, hi) != (best_lo, best_hi) {
                wrong(&wrong_values, board);
            }
            if !exact {
                return;
            }
            let expected = if lo == 0 {
                NO_DISTANCE
            } else {
                // The moves that keep the value: a capture counts 0.
                let capture_keeps = edges.best_exit(seeds, &lower, true) == lo;
                let keeping = edges
                    .stays()
                    .iter()
                    .filter(|&&r| -load(first, r) == lo)
                    .map(|&r| second[r as usize])
                    .chain(capture_keeps.then_some(0));
                let pick = if lo > 0 { keeping.min() } else { keeping.max() };
                pick.map_or(NO_DISTANCE, |d| d.saturating_add(1))
            };
            if second[p] != expected {
                wrong(&wrong_distances, board);
            }
        });
    });
    let example = example.into_inner().ok().flatten();
    Some(LevelCheck {
        seeds,
        boards: first.len() as u64,
        wrong_values: wrong_values.into_inner(),
        wrong_distances: wrong_distances.into_inner(),
        example,
    })
}
