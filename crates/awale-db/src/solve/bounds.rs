//! Lower and upper bounds (`repetition = own_row`).

use std::sync::atomic::Ordering;

use awale_core::Rules;

use super::{
    atomics_i8, best_exits, for_each_predecessor, into_bytes_i8, parallel_chunks, stays, visit,
    LowerLevel, Marks, Phase, Progress, SolvedLevel, NO_EXIT,
};
use crate::index::level_size;

pub(super) fn solve_bounds(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    threads: usize,
    progress: &dyn Progress,
) -> SolvedLevel {
    let size = level_size(seeds);
    let n = seeds as i8;
    let exits_lo = atomics_i8(size, NO_EXIT);
    let exits_hi = atomics_i8(size, NO_EXIT);
    // Endless play counted as the worst (lower bound) or the best (upper
    // bound) for the side to move: the bottom of each iteration.
    let lo = atomics_i8(size, -n);
    let hi = atomics_i8(size, n);
    let mut marks: Option<Marks> = None;
    let mut passes = 0;
    loop {
        passes += 1;
        progress.pass(seeds, Phase::Values, passes, size);
        let first = passes == 1;
        let next = Marks::new(size);
        parallel_chunks(seeds, threads, progress, &|start, count| {
            visit(seeds, start, count, marks.as_ref(), |p, board| {
                if first {
                    let (l, h, has_moves) = best_exits(board, seeds, rules, lower);
                    exits_lo[p].store(l, Ordering::Relaxed);
                    exits_hi[p].store(h, Ordering::Relaxed);
                    if !has_moves {
                        lo[p].store(l, Ordering::Relaxed);
                        hi[p].store(h, Ordering::Relaxed);
                        for_each_predecessor(board, seeds, rules, |r, _| next.set(r));
                        return;
                    }
                }
                let mut best_lo = exits_lo[p].load(Ordering::Relaxed);
                let mut best_hi = exits_hi[p].load(Ordering::Relaxed);
                let Some((children, len)) = stays(board, seeds, rules) else {
                    return;
                };
                for &r in &children[..len] {
                    let q = r as usize;
                    best_lo = best_lo.max(-hi[q].load(Ordering::Relaxed));
                    best_hi = best_hi.max(-lo[q].load(Ordering::Relaxed));
                }
                let mut changed = false;
                if best_lo != lo[p].load(Ordering::Relaxed) {
                    lo[p].store(best_lo, Ordering::Relaxed);
                    changed = true;
                }
                if best_hi != hi[p].load(Ordering::Relaxed) {
                    hi[p].store(best_hi, Ordering::Relaxed);
                    changed = true;
                }
                if changed {
                    for_each_predecessor(board, seeds, rules, |r, _| next.set(r));
                }
            });
        });
        if next.is_empty() {
            break;
        }
        marks = Some(next);
    }
    SolvedLevel {
        lower: into_bytes_i8(lo),
        upper: into_bytes_i8(hi),
        distance: Vec::new(),
        passes: (passes, 0),
    }
}
