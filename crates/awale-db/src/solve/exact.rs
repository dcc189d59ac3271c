//! Exact values and distances to capture (`repetition = nobody`).
//!
//! Two phases, each holding one byte per board plus two bit sets, so that a
//! build needs about 1.25 bytes per board of the level being built: first
//! the values ([`solve_values`]); then, with the values read-only (the
//! builder writes them to disk and maps them, like the lower levels), the
//! distances ([`solve_distances`]). The best capture of a board is read from
//! the lower levels again when it is needed rather than kept.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use awale_core::Rules;

use super::{
    atomics_i8, atomics_u8, final_value, for_each_predecessor_ahead, into_bytes_i8,
    parallel_chunks, prefetch, visit_ahead, Edges, LowerLevel, Marks, Phase, Progress, NO_DISTANCE,
};
use crate::index::level_size;
use crate::DbError;

/// The exact values of the level of `seeds` seeds (one `i8` per board, as
/// bytes, in rank order) and the number of passes it took.
pub fn solve_values(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    threads: usize,
    progress: &dyn Progress,
) -> (Vec<u8>, u32) {
    let size = level_size(seeds);
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
        let mark_before = |board: &[u8; 12]| {
            let touch = |r| next.prefetch(r);
            for_each_predecessor_ahead(board, seeds, rules, touch, |r, _| next.set(r));
        };
        let changed = |board: &[u8; 12], v: i8| {
            if v < 0 {
                let touch = |r| prefetch(&values, r);
                for_each_predecessor_ahead(board, seeds, rules, touch, |r, before| {
                    // A plain read first: most are high enough already,
                    // and a read-modify-write waits for its cache line.
                    let q = r as usize;
                    if values[q].load(Ordering::Relaxed) < -v
                        && values[q].fetch_max(-v, Ordering::Relaxed) < -v
                    {
                        mark_before(before);
                    }
                });
            } else {
                mark_before(board);
            }
        };
        parallel_chunks(seeds, threads, progress, &|start, count| {
            let prepare = |_, board: &[u8; 12]| {
                let edges = Edges::of(board, seeds, rules);
                if let Some(edges) = &edges {
                    edges.prefetch_stays(&values);
                    if first {
                        edges.prefetch_exits(seeds, lower);
                    }
                }
                edges
            };
            visit_ahead(
                seeds,
                start,
                count,
                marks.as_ref(),
                prepare,
                |p, board, edges| {
                    let Some(edges) = edges else {
                        // The game is over (only the first pass looks at such a
                        // board: it has no moves, so no changed board marks it).
                        let v = final_value(board);
                        values[p].store(v, Ordering::Relaxed);
                        if v != 0 {
                            changed(board, v);
                        }
                        return;
                    };
                    let mut best = i8::MIN;
                    for &r in edges.stays() {
                        best = best.max(-values[r as usize].load(Ordering::Relaxed));
                    }
                    // After its first visit a board's value is at least its best
                    // capture, and a won value is kept up by that capture or by a
                    // lost board it moves to (values only move away from 0): it
                    // cannot drop. So the capture is read again only when the
                    // other moves give less than a value of 0 or below, which may
                    // then lose more: at most `seeds` times per board.
                    let old = values[p].load(Ordering::Relaxed);
                    if first {
                        best = best.max(edges.best_exit(seeds, lower, true));
                    } else if best < old {
                        if old > 0 {
                            return;
                        }
                        best = best.max(edges.best_exit(seeds, lower, true));
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
                },
            );
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    (into_bytes_i8(values), passes)
}

/// Distances to the next capture for a level whose exact values are
/// `values` (see the module documentation of [`super`]), and the number of
/// passes it took. Each is set once, when the moves that keep the board's
/// value are known well enough, so that the winner's value-keeping move to
/// the smallest distance, and every value-keeping move of the loser, goes to
/// a strictly smaller distance.
///
/// # Errors
///
/// [`DbError::DistanceTooLong`] when a distance does not fit the format's
/// byte (none up to 24 seeds).
pub fn solve_distances(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    values: &[u8],
    threads: usize,
    progress: &dyn Progress,
) -> Result<(Vec<u8>, u32), DbError> {
    // A loser not yet known whose best capture keeps its value: it counts
    // as a move of distance 0 when the others are known.
    const EXIT_PENDING: u8 = NO_DISTANCE - 1;
    let size = level_size(seeds);
    assert_eq!(values.len() as u64, size, "values of another level");
    let value = |r: usize| values[r] as i8;
    let distance = atomics_u8(size, NO_DISTANCE);
    let overflow = AtomicBool::new(false);
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
        let mark_before = |board: &[u8; 12]| {
            let touch = |r| next.prefetch(r);
            for_each_predecessor_ahead(board, seeds, rules, touch, |r, _| next.set(r));
        };
        let settled = |board: &[u8; 12], v: i8, d: u8| {
            if v < 0 {
                let touch = |r| {
                    prefetch(values, r);
                    prefetch(&distance, r);
                };
                for_each_predecessor_ahead(board, seeds, rules, touch, |r, before| {
                    let q = r as usize;
                    if value(q) != -v {
                        return;
                    }
                    if d + 1 >= EXIT_PENDING {
                        overflow.store(true, Ordering::Relaxed);
                    } else if distance[q].load(Ordering::Relaxed) == NO_DISTANCE
                        && distance[q]
                            .compare_exchange(
                                NO_DISTANCE,
                                d + 1,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .is_ok()
                    {
                        mark_before(before);
                    }
                });
            } else {
                mark_before(board);
            }
        };
        parallel_chunks(seeds, threads, progress, &|start, count| {
            let prepare = |p, board: &[u8; 12]| {
                if value(p) == 0 {
                    return None;
                }
                let edges = Edges::of(board, seeds, rules);
                if let Some(edges) = &edges {
                    edges.prefetch_stays(values);
                    edges.prefetch_stays(&distance);
                    if first {
                        edges.prefetch_exits(seeds, lower);
                    }
                }
                Some(edges)
            };
            visit_ahead(
                seeds,
                start,
                count,
                marks.as_ref(),
                prepare,
                |p, board, edges| {
                    let Some(edges) = edges else {
                        return;
                    };
                    let v = value(p);
                    let Some(edges) = edges else {
                        // The game is over: distance 0 (first pass only: such a
                        // board is never marked).
                        distance[p].store(0, Ordering::Relaxed);
                        settled(board, v, 0);
                        return;
                    };
                    let mut known = distance[p].load(Ordering::Relaxed);
                    if first {
                        let exit_keeps = edges.best_exit(seeds, lower, true) == v;
                        if v > 0 {
                            if exit_keeps {
                                // The smallest distance a board with moves can
                                // have. Lowering a distance another thread set
                                // keeps every step going down.
                                distance[p].store(1, Ordering::Relaxed);
                                settled(board, v, 1);
                            }
                            // Otherwise it is set (and tells the boards before)
                            // when a board it moves to is settled.
                            return;
                        }
                        if !exit_keeps {
                            // A loser is looked at once a board it moves to is
                            // settled.
                            return;
                        }
                        // Only this visit writes a loser's distance.
                        known = EXIT_PENDING;
                        distance[p].store(known, Ordering::Relaxed);
                    } else if known < EXIT_PENDING {
                        return;
                    }
                    // Winner: the nearest known value-keeping move. Loser: the
                    // farthest, once all of them are known.
                    let mut found: Option<u8> = (known == EXIT_PENDING).then_some(0);
                    let mut unknown = false;
                    for &r in edges.stays() {
                        let q = r as usize;
                        if -value(q) != v {
                            continue;
                        }
                        let d = distance[q].load(Ordering::Relaxed);
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
                    let d = if v > 0 {
                        found.map(|d| d + 1)
                    } else {
                        found.filter(|_| !unknown).map(|d| d + 1)
                    };
                    if let Some(d) = d {
                        if d >= EXIT_PENDING {
                            overflow.store(true, Ordering::Relaxed);
                        } else if v < 0 {
                            distance[p].store(d, Ordering::Relaxed);
                            settled(board, v, d);
                        } else if distance[p]
                            .compare_exchange(known, d, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                        {
                            // Set once: another thread may have set it first.
                            settled(board, v, d);
                        }
                    }
                },
            );
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    if overflow.load(Ordering::Relaxed) {
        return Err(DbError::DistanceTooLong(seeds));
    }
    Ok((
        distance.into_iter().map(AtomicU8::into_inner).collect(),
        passes,
    ))
}
