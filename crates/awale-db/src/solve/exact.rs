//! Exact values and distances to capture (`repetition = nobody`).
//!
//! Two phases, each holding one byte per board plus two bit sets, so that a
//! build needs about 1.25 bytes per board of the level being built: first
//! the values ([`solve_values`]); then, with the values read-only (the
//! builder writes them to disk and maps them, like the lower levels), the
//! distances ([`solve_distances`]). The best capture of a board is read from
//! the lower levels again when it is needed rather than kept.

use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};

use awale_core::Rules;

use super::{
    atomics_i8, atomics_u8, check_lower, final_value, for_each_predecessor_ahead, into_bytes_i8,
    parallel_chunks, position_of, prefetch, visit, Edges, LowerLevel, Marks, Phase, Share, Silent,
    NO_DISTANCE,
};
use crate::index::level_size;
use crate::DbError;

/// The exact values of the level of `seeds` seeds (one `i8` per board, as
/// bytes, in rank order) and the number of passes it took. This process
/// solves the boards of `share`; the values of every board of the level
/// come back, the others' from their owners.
///
/// # Panics
///
/// If `lower` does not hold the `seeds` levels below, each of its size.
pub(crate) fn solve_values(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    share: &Share<'_>,
) -> (Vec<u8>, u32) {
    check_lower(seeds, lower);
    let part = &share.part;
    let size = level_size(seeds);
    let values = atomics_i8(size, 0);
    let mut marks: Option<Marks> = None;
    let mut passes = 0;
    loop {
        passes += 1;
        part.progress.pass(seeds, Phase::Values, passes, size);
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
                    // Another process's board: its owner looks at it in
                    // the next pass and finds the same.
                    if !part.owns(r) {
                        next.set(r);
                        return;
                    }
                    // A plain read first: most are high enough already,
                    // and a read-modify-write waits for its cache line.
                    let q = r as usize;
                    if values[q].load(Ordering::Relaxed) < -v
                        && values[q].fetch_max(-v, Ordering::Relaxed) < -v
                    {
                        part.wrote(r);
                        mark_before(before);
                    }
                });
            } else {
                mark_before(board);
            }
        };
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
        part.visit_ahead(seeds, marks.as_ref(), prepare, |p, board, edges| {
            let Some(edges) = edges else {
                // The game is over (only the first pass looks at such a
                // board: it has no moves, so no changed board marks it).
                let v = final_value(board);
                values[p].store(v, Ordering::Relaxed);
                if v != 0 {
                    part.wrote(p as u64);
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
            if update(&values[p], best) {
                part.wrote(p as u64);
                changed(board, best);
            }
        });
        if !share.exchange(&[&values.as_slice()], Some(&next)) {
            break;
        }
        marks = Some(next);
    }
    (into_bytes_i8(values), passes)
}

/// Puts `best`, a board's value computed from what its moves were worth a
/// moment ago, in `value`, unless that would move it back towards 0:
/// values only move away from 0 (see the documentation of [`super`]), and
/// another thread may have raised this one since (a board it moves to was
/// found lost). Only the board's own visit makes a value negative, and
/// never a won one. Whether the value changed.
#[inline]
fn update(value: &AtomicI8, best: i8) -> bool {
    if best > 0 {
        value.fetch_max(best, Ordering::Relaxed) < best
    } else {
        value
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |now| {
                (now <= 0 && best < now).then_some(best)
            })
            .is_ok()
    }
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
/// This process solves the boards of `share`; the distances of every board
/// of the level come back, the others' from their owners.
///
/// # Errors
///
/// [`DbError::DistanceTooLong`] when a distance does not fit the format's
/// byte (253 plies).
///
/// # Panics
///
/// If `lower` does not hold the `seeds` levels below, each of its size, or
/// `values` is not of this level's size.
pub(crate) fn solve_distances(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    values: &[u8],
    share: &Share<'_>,
) -> Result<(Vec<u8>, u32), DbError> {
    let part = &share.part;
    // A loser not yet known whose best capture keeps its value (a move of
    // distance 0): known from pass 1 on without reading the lower levels.
    const EXIT_PENDING: u8 = NO_DISTANCE - 1;
    check_lower(seeds, lower);
    let size = level_size(seeds);
    assert_eq!(values.len() as u64, size, "values of another level");
    let value = |r: usize| values[r] as i8;
    let distance = atomics_u8(size, NO_DISTANCE);
    // Distance 0: the game is over (the side to move has no move). A player
    // with seeds always has a move when the other has seeds too
    // (docs/RULES.md), so only boards with an empty row need the rules
    // crate. Every process finds them all (few need a look): nothing to
    // exchange.
    parallel_chunks(seeds, part.threads, &Silent, &|start, count| {
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
        part.progress.pass(seeds, Phase::Distances, pass, size);
        // Distances set in this pass. One more than the format holds only
        // tells whether a board needs it.
        let d = u8::try_from(pass).unwrap_or(u8::MAX).min(EXIT_PENDING);
        let too_long = AtomicBool::new(false);
        let first = pass == 1;
        let next = Marks::new(size);
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
        part.visit_ahead(seeds, marks.as_ref(), prepare, |p, board, edges| {
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
            if set && d == EXIT_PENDING {
                too_long.store(true, Ordering::Relaxed);
            } else if set {
                distance[p].store(d, Ordering::Relaxed);
                part.wrote(p as u64);
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
        });
        if share.any(too_long.load(Ordering::Relaxed)) {
            return Err(DbError::DistanceTooLong(seeds));
        }
        if !share.exchange(&[&distance.as_slice()], Some(&next)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_value_is_never_lowered_by_a_stale_computation() {
        // A board read one of its moves' boards before it was found lost
        // (best 0); meanwhile another thread raised it to 3.
        let value = AtomicI8::new(3);
        assert!(!update(&value, 0));
        assert!(!update(&value, -2));
        assert_eq!(value.load(Ordering::Relaxed), 3);
        assert!(update(&value, 5));
        assert_eq!(value.load(Ordering::Relaxed), 5);
    }

    #[test]
    fn a_value_of_0_or_below_only_goes_down() {
        let value = AtomicI8::new(0);
        assert!(!update(&value, 0));
        assert!(update(&value, -2));
        assert!(!update(&value, -1));
        assert!(update(&value, -4));
        assert_eq!(value.load(Ordering::Relaxed), -4);
    }
}
