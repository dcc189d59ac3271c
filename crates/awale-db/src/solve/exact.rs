//! Exact values and distances to capture (`repetition = nobody`).

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU8, Ordering};

use awale_core::Rules;

use super::{
    atomics_i8, atomics_u8, best_exits, for_each_predecessor, into_bytes_i8, parallel_chunks,
    position_of, stays, visit, LowerLevel, Marks, Phase, Progress, Silent, SolvedLevel,
    NO_DISTANCE, NO_EXIT,
};
use crate::index::level_size;
use crate::DbError;

pub(super) fn solve_exact(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    threads: usize,
    progress: &dyn Progress,
) -> Result<SolvedLevel, DbError> {
    let size = level_size(seeds);
    // The best capture of each board (`NO_EXIT` if none), computed in the
    // first pass: the lower levels are read only then. The same bytes then
    // hold the distances.
    let exits = atomics_u8(size, NO_EXIT as u8);
    let values = atomics_i8(size, 0);
    let mut marks: Option<Marks> = None;
    let mut passes = 0;
    loop {
        passes += 1;
        progress.pass(seeds, Phase::Values, passes, size);
        let first = passes == 1;
        let next = Marks::new(size);
        // The value of `board` became `v`. If it is lost (v < 0), every board
        // before it is worth at least -v at once (a value is a maximum over
        // the moves): raise them here, and only the boards before *those*
        // need a look. If it is won, the boards before may now be lost, which
        // needs all their moves: look at them in the next pass.
        let changed = |board: &[u8; 12], v: i8| {
            if v < 0 {
                for_each_predecessor(board, seeds, rules, |r, before| {
                    if values[r as usize].fetch_max(-v, Ordering::Relaxed) < -v {
                        for_each_predecessor(before, seeds, rules, |r, _| next.set(r));
                    }
                });
            } else {
                for_each_predecessor(board, seeds, rules, |r, _| next.set(r));
            }
        };
        parallel_chunks(seeds, threads, progress, &|start, count| {
            visit(seeds, start, count, marks.as_ref(), |p, board| {
                if first {
                    let (exit, _, has_moves) = best_exits(board, seeds, rules, lower);
                    exits[p].store(exit as u8, Ordering::Relaxed);
                    if !has_moves {
                        // The game is over: `exit` is the final value.
                        values[p].store(exit, Ordering::Relaxed);
                        if exit != 0 {
                            changed(board, exit);
                        }
                        return;
                    }
                }
                let Some((children, len)) = stays(board, seeds, rules) else {
                    return;
                };
                let mut best = exits[p].load(Ordering::Relaxed) as i8;
                for &r in &children[..len] {
                    best = best.max(-values[r as usize].load(Ordering::Relaxed));
                }
                // Values only move away from 0 (see the module comment), so
                // a smaller gain, computed from values read before another
                // thread raised this one, is dropped. Only this visit makes
                // a value negative: other threads only raise won boards.
                if best > 0 {
                    if values[p].fetch_max(best, Ordering::Relaxed) < best {
                        changed(board, best);
                    }
                } else if best < values[p].load(Ordering::Relaxed) {
                    values[p].store(best, Ordering::Relaxed);
                    changed(board, best);
                }
            });
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    let distance_passes = distances(rules, seeds, threads, progress, &exits, &values)?;
    Ok(SolvedLevel {
        lower: into_bytes_i8(values),
        upper: Vec::new(),
        distance: exits.into_iter().map(AtomicU8::into_inner).collect(),
        passes: (passes, distance_passes),
    })
}

/// Distances to the next capture for a solved exact level (see the module
/// documentation), written over `exits`. Each is set once, when the moves
/// that keep the board's value are known well enough, so that the winner's
/// value-keeping move to the smallest distance, and every value-keeping move
/// of the loser, goes to a strictly smaller distance.
fn distances(
    rules: &Rules,
    seeds: u8,
    threads: usize,
    progress: &dyn Progress,
    exits: &[AtomicU8],
    values: &[AtomicI8],
) -> Result<u32, DbError> {
    // Not yet known, and a capture keeps the value (a loser's board).
    const EXIT_PENDING: u8 = NO_DISTANCE - 1;
    let size = level_size(seeds);
    let overflow = AtomicBool::new(false);
    // First the best captures become the first marks: 0 where the game is
    // over, 1 where a capture wins the value, EXIT_PENDING where a capture
    // keeps a losing value.
    parallel_chunks(seeds, threads, &Silent, &|start, count| {
        visit(seeds, start, count, None, |p, board| {
            let v = values[p].load(Ordering::Relaxed);
            let exit_keeps = exits[p].load(Ordering::Relaxed) as i8 == v;
            let mark = if v == 0 {
                NO_DISTANCE
            } else if position_of(board).legal_moves(rules).is_empty() {
                0
            } else if exit_keeps && v > 0 {
                1
            } else if exit_keeps {
                EXIT_PENDING
            } else {
                NO_DISTANCE
            };
            exits[p].store(mark, Ordering::Relaxed);
        });
    });
    let mut marks: Option<Marks> = None;
    let mut passes = 0;
    loop {
        passes += 1;
        progress.pass(seeds, Phase::Distances, passes, size);
        let first = passes == 1;
        let next = Marks::new(size);
        // The distance of `board` (value `v`) became `d`. If it is lost, the
        // winners before it that keep their value by moving here and have no
        // distance yet take d + 1 at once; losers before it need all their
        // moves: look at them in the next pass.
        let settled = |board: &[u8; 12], v: i8, d: u8| {
            if v < 0 {
                for_each_predecessor(board, seeds, rules, |r, before| {
                    let q = r as usize;
                    if values[q].load(Ordering::Relaxed) != -v {
                        return;
                    }
                    if d + 1 >= EXIT_PENDING {
                        overflow.store(true, Ordering::Relaxed);
                    } else if exits[q]
                        .compare_exchange(NO_DISTANCE, d + 1, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        for_each_predecessor(before, seeds, rules, |r, _| next.set(r));
                    }
                });
            } else {
                for_each_predecessor(board, seeds, rules, |r, _| next.set(r));
            }
        };
        parallel_chunks(seeds, threads, progress, &|start, count| {
            visit(seeds, start, count, marks.as_ref(), |p, board| {
                let v = values[p].load(Ordering::Relaxed);
                let known = exits[p].load(Ordering::Relaxed);
                if v == 0 {
                    return;
                }
                if known < EXIT_PENDING {
                    // Known from the first marks: tell the boards before.
                    if first {
                        settled(board, v, known);
                    }
                    return;
                }
                if first && known == NO_DISTANCE {
                    // Nothing below it is known yet: it will be looked at
                    // (or set) when one of its moves' boards is.
                    return;
                }
                // Winner: the nearest known value-keeping move. Loser: the
                // farthest, once all of them are known.
                let mut found: Option<u8> = (known == EXIT_PENDING).then_some(0);
                let mut unknown = false;
                let (children, len) = stays(board, seeds, rules).unwrap_or(([0; 6], 0));
                for &r in &children[..len] {
                    let q = r as usize;
                    if -values[q].load(Ordering::Relaxed) != v {
                        continue;
                    }
                    let d = exits[q].load(Ordering::Relaxed);
                    if d >= EXIT_PENDING {
                        unknown = true;
                    } else {
                        found = Some(match found {
                            None => d,
                            Some(f) if v > 0 => f.min(d),
                            Some(f) => f.max(d),
                        });
                    }
                }
                let distance = if v > 0 {
                    found.map(|d| d + 1)
                } else {
                    found.filter(|_| !unknown).map(|d| d + 1)
                };
                if let Some(d) = distance {
                    if d >= EXIT_PENDING {
                        overflow.store(true, Ordering::Relaxed);
                    } else if v < 0 {
                        // Only this visit sets a loser's distance.
                        exits[p].store(d, Ordering::Relaxed);
                        settled(board, v, d);
                    } else if exits[p]
                        .compare_exchange(known, d, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        // Set once: another thread may have set it first.
                        settled(board, v, d);
                    }
                }
            });
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    if overflow.load(Ordering::Relaxed) {
        return Err(DbError::DistanceTooLong(seeds));
    }
    Ok(passes)
}
