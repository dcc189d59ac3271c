//! Exact values and distances to capture (`repetition = nobody`).
//!
//! Two phases, each holding one byte per board plus two bit sets, so that a
//! build needs about 1.25 bytes per board of the level being built: first
//! the values ([`solve_values`]); then, with the values read-only (the
//! builder writes them to disk and maps them, like the lower levels), the
//! distances ([`solve_distances`]). The best capture of a board is read from
//! the lower levels again when it is needed rather than kept.

use std::sync::atomic::Ordering;

use awale_core::Rules;

use super::{
    atomics_i8, atomics_u8, final_value, for_each_predecessor_ahead, into_bytes_i8,
    parallel_chunks, position_of, prefetch, visit, visit_ahead, Edges, LowerLevel, Marks, Phase,
    Progress, Silent, NO_DISTANCE,
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
/// `values`, and the number of passes it took: plies until a capture or the
/// end of the game when both sides keep the value, the winner hurrying and
/// the loser delaying (a capture that keeps the value counts 0 more plies).
///
/// Pass d sets the boards of distance d, from those set before: a winner
/// with a value-keeping move to a board of distance d - 1 (none shorter, or
/// it would have been set earlier), a loser whose value-keeping moves all
/// lead to known distances, the longest being d - 1. Pass 1 looks at every
/// board; pass d + 1 only at the boards before those set in pass d.
///
/// # Errors
///
/// [`DbError::DistanceTooLong`] when a distance does not fit the format's
/// byte (253 plies).
pub fn solve_distances(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    values: &[u8],
    threads: usize,
    progress: &dyn Progress,
) -> Result<(Vec<u8>, u32), DbError> {
    // A loser not yet known whose best capture keeps its value (a move of
    // distance 0): known from pass 1 on without reading the lower levels.
    const EXIT_PENDING: u8 = NO_DISTANCE - 1;
    let size = level_size(seeds);
    assert_eq!(values.len() as u64, size, "values of another level");
    let value = |r: usize| values[r] as i8;
    let distance = atomics_u8(size, NO_DISTANCE);
    // Distance 0: the game is over (the side to move has no move). A player
    // with seeds always has a move when the other has seeds too (RULES.md),
    // so only boards with an empty row need the rules crate.
    parallel_chunks(seeds, threads, &Silent, &|start, count| {
        visit(seeds, start, count, None, |p, board| {
            let row_empty =
                board[..6].iter().all(|&h| h == 0) || board[6..].iter().all(|&h| h == 0);
            if row_empty && value(p) != 0 && position_of(board).legal_moves(rules).is_empty() {
                distance[p].store(0, Ordering::Relaxed);
            }
        });
    });
    let mut marks: Option<Marks> = None;
    let mut pass: u32 = 0;
    loop {
        pass += 1;
        progress.pass(seeds, Phase::Distances, pass, size);
        // Distances set in this pass.
        let Ok(d) = u8::try_from(pass).map(|d| d.min(EXIT_PENDING)) else {
            unreachable!("passes stop at EXIT_PENDING")
        };
        if d == EXIT_PENDING {
            return Err(DbError::DistanceTooLong(seeds));
        }
        let first = pass == 1;
        let next = Marks::new(size);
        parallel_chunks(seeds, threads, progress, &|start, count| {
            let prepare = |p: usize, board: &[u8; 12]| {
                let known = distance[p].load(Ordering::Relaxed);
                if value(p) == 0 || known < EXIT_PENDING {
                    return None;
                }
                let edges = Edges::of(board, seeds, rules)?;
                edges.prefetch_stays(values);
                edges.prefetch_stays(&distance);
                if first {
                    edges.prefetch_exits(seeds, lower);
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
                    let mut exit_keeps = distance[p].load(Ordering::Relaxed) == EXIT_PENDING;
                    if first {
                        exit_keeps = edges.best_exit(seeds, lower, true) == v;
                    }
                    // Only distances set in earlier passes count: a board set in
                    // this pass is d, not yet below it.
                    let mut shortest = exit_keeps.then_some(0);
                    let mut longest = exit_keeps.then_some(0);
                    let mut unknown = false;
                    for &r in edges.stays() {
                        let q = r as usize;
                        if -value(q) != v {
                            continue;
                        }
                        let e = distance[q].load(Ordering::Relaxed);
                        if e < d {
                            shortest = Some(shortest.map_or(e, |s: u8| s.min(e)));
                            longest = Some(longest.map_or(e, |l: u8| l.max(e)));
                        } else {
                            unknown = true;
                        }
                    }
                    let set = if v > 0 {
                        shortest.is_some()
                    } else {
                        longest.is_some() && !unknown
                    };
                    if set {
                        distance[p].store(d, Ordering::Relaxed);
                        for_each_predecessor_ahead(
                            board,
                            seeds,
                            rules,
                            |r| next.prefetch(r),
                            |r, _| next.set(r),
                        );
                    } else if first && exit_keeps && v < 0 {
                        distance[p].store(EXIT_PENDING, Ordering::Relaxed);
                    }
                },
            );
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    let distance: Vec<u8> = distance
        .into_iter()
        .map(|d| match d.into_inner() {
            EXIT_PENDING => NO_DISTANCE,
            d => d,
        })
        .collect();
    Ok((distance, pass))
}
