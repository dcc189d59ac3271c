//! Lower and upper bounds (`repetition = own_row`).
//!
//! Two steps. First the coarse bounds: value iteration in which endless
//! play is worth -n (lower bound) or +n (upper bound) to the side to move.
//! Then, threshold by threshold, the bounds the repetition rule really
//! gives: a repetition pays each player the seeds of their own row, so a
//! player who can keep every position it cannot avoid seeing again at a
//! row split of at least t, or leave the level with at least t, gets at
//! least t. That is a co-Büchi game per threshold (see `docs/DATABASES.md`
//! for the game and the proof that it is sound); its winning regions are
//! computed from the coarse bounds upwards, with one bit per board and role
//! besides the two planes.

use std::sync::atomic::{AtomicI8, AtomicU32, Ordering};

use awale_core::Rules;

use super::share::{Part, Synced};
use super::{
    atomics_i8, final_value, for_each_predecessor, for_each_predecessor_ahead, into_bytes_i8,
    visit, Edges, LowerLevel, Marks, Phase, Share, SolvedLevel, NO_EXIT,
};
use crate::index::level_size;

/// The lower and upper bounds of the level of `seeds` seeds. This process
/// solves the boards of `share`; the bounds of every board of the level
/// come back, the others' from their owners.
pub(crate) fn solve_bounds(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    share: &Share<'_>,
) -> SolvedLevel {
    let size = level_size(seeds);
    let n = seeds as i8;
    // Endless play counted as the worst (lower bound) or the best (upper
    // bound) for the side to move: the bottom of each iteration.
    let lo = atomics_i8(size, -n);
    let hi = atomics_i8(size, n);
    let level = Level {
        rules,
        seeds,
        lower,
        part: &share.part,
        lo: &lo,
        hi: &hi,
        passes: AtomicU32::new(0),
    };
    level.coarse_bounds(share);
    // Every bound has the parity of n (a row split, or captures plus a
    // bound of the level below, has it), so the game of a threshold t of
    // the other parity has the same winners as that of t + 1: only those
    // thresholds are solved, and their winners get t + 1.
    for t in ((1 - n)..=n).step_by(2) {
        level.threshold(share, t);
    }
    let passes = level.passes.into_inner();
    SolvedLevel {
        lower: into_bytes_i8(lo),
        upper: into_bytes_i8(hi),
        distance: Vec::new(),
        passes: (passes, 0),
    }
}

/// A level being solved: its rules, the levels below, this process's part
/// of it, its two planes.
struct Level<'a> {
    rules: &'a Rules,
    seeds: u8,
    lower: &'a [LowerLevel<'a>],
    part: &'a Part<'a>,
    lo: &'a [AtomicI8],
    hi: &'a [AtomicI8],
    /// Passes over the level so far.
    passes: AtomicU32,
}

impl Level<'_> {
    /// Passes over the boards of `marks` (all when `None`) until one marks
    /// none. Each runs `f` on the boards that are `wanted`, on every
    /// thread, with whether it is the first of these passes and the
    /// board's moves (`None` when the game is over there); then the
    /// processes of `share` exchange the marks `f` set for the next pass
    /// and the entries of `planes` of the boards written. The moves are
    /// generated a few boards ahead and the bounds they lead to (and in the
    /// first pass, with `exits`, the lower levels' values of the captures)
    /// prefetched, so that the random reads overlap.
    fn passes<F>(
        &self,
        share: &Share<'_>,
        planes: &[&dyn Synced],
        mut marks: Option<Marks>,
        exits: bool,
        wanted: impl Fn(usize) -> bool + Sync,
        f: F,
    ) where
        F: Fn(bool, usize, &[u8; 12], Option<&Edges>, &Marks) + Sync,
    {
        let (seeds, size) = (self.seeds, level_size(self.seeds));
        let part = self.part;
        let mut first = true;
        loop {
            let pass = self.passes.fetch_add(1, Ordering::Relaxed) + 1;
            part.progress.pass(seeds, Phase::Values, pass, size);
            let next = Marks::new(size);
            let exits = exits && first;
            let prepare = |p, board: &[u8; 12]| {
                if !wanted(p) {
                    return None;
                }
                let edges = Edges::of(board, seeds, self.rules);
                if let Some(edges) = &edges {
                    edges.prefetch_stays(self.lo);
                    edges.prefetch_stays(self.hi);
                    if exits {
                        edges.prefetch_exits(seeds, self.lower);
                    }
                }
                Some(edges)
            };
            let finish = |p, board: &[u8; 12], prepared: Option<Option<Edges>>| {
                if let Some(edges) = prepared {
                    f(first, p, board, edges.as_ref(), &next);
                }
            };
            part.visit_ahead(seeds, marks.as_ref(), prepare, finish);
            if !share.exchange(planes, Some(&next)) {
                return;
            }
            marks = Some(next);
            first = false;
        }
    }

    /// Runs `work` over this process's boards, in chunks, on its threads,
    /// without telling the progress.
    fn quietly(&self, work: &(dyn Fn(u64, u64) + Sync)) {
        let part = self.part;
        super::parallel_range(part.start, part.end, part.threads, &super::Silent, work);
    }

    /// Marks the boards with a move to `board` in `next`.
    #[inline]
    fn mark_before(&self, board: &[u8; 12], next: &Marks) {
        let touch = |r| next.prefetch(r);
        for_each_predecessor_ahead(board, self.seeds, self.rules, touch, |r, _| next.set(r));
    }

    /// The coarse bounds (endless play worth -n or +n), by value iteration
    /// to the fixed point.
    ///
    /// Started from the bottom of each game, the lower bound only rises and
    /// the upper bound only falls. So after the first pass, which reads the
    /// captures, the lower bound is at least the best capture's value for
    /// good and need not see it again; the upper bound needs it only when
    /// the moves that stay would take it lower, and reads it again then
    /// (the lower levels are not cached: that would be two more bytes a
    /// board). Once the best capture holds the upper bound up, the upper
    /// bound is final: one bit a board (`settled`) says so, so that the
    /// capture is not read again.
    fn coarse_bounds(&self, share: &Share<'_>) {
        let (lo, hi) = (self.lo, self.hi);
        let part = self.part;
        let settled = Marks::new(level_size(self.seeds));
        self.passes(
            share,
            &[&lo, &hi],
            None,
            true,
            |_| true,
            |first, p, board, edges, next| {
                let Some(edges) = edges else {
                    // The game is over (only the first pass looks at such
                    // a board: no changed board marks it).
                    let v = final_value(board);
                    lo[p].store(v, Ordering::Relaxed);
                    hi[p].store(v, Ordering::Relaxed);
                    part.wrote(p as u64);
                    self.mark_before(board, next);
                    return;
                };
                let (mut best_lo, mut stay_hi) = if first {
                    (
                        edges.best_exit(self.seeds, self.lower, false),
                        edges.best_exit(self.seeds, self.lower, true),
                    )
                } else {
                    (lo[p].load(Ordering::Relaxed), NO_EXIT)
                };
                for &r in edges.stays() {
                    let q = r as usize;
                    best_lo = best_lo.max(-hi[q].load(Ordering::Relaxed));
                    stay_hi = stay_hi.max(-lo[q].load(Ordering::Relaxed));
                }
                let mut changed = false;
                if best_lo > lo[p].load(Ordering::Relaxed) {
                    lo[p].store(best_lo, Ordering::Relaxed);
                    changed = true;
                }
                let old_hi = hi[p].load(Ordering::Relaxed);
                if stay_hi < old_hi && !settled.contains(p as u64) {
                    let best_hi = if first {
                        stay_hi
                    } else {
                        let exit = edges.best_exit(self.seeds, self.lower, true);
                        if exit >= stay_hi {
                            settled.set(p as u64);
                        }
                        stay_hi.max(exit)
                    };
                    if best_hi < old_hi {
                        hi[p].store(best_hi, Ordering::Relaxed);
                        changed = true;
                    }
                }
                if changed {
                    part.wrote(p as u64);
                    self.mark_before(board, next);
                }
            },
        );
    }

    /// Threshold `t` (of the other parity than n), the thresholds below it
    /// being done: raises the lower bound to `t + 1` where the side to move
    /// wins the co-Büchi game "at least `t`" (`W_t`, the same as `W_(t+1)`),
    /// and lowers the upper bound to `-t - 1` where the other side does
    /// (`Z_t`).
    ///
    /// Invariant, before and after: for every threshold `u` done, the lower
    /// bound is at least `u` exactly where the mover wins the game of `u`,
    /// and the upper bound at most `-u` exactly where the other side does.
    /// So at `t` only boards with lower bound `t - 1` (in `W_(t-2)`) may
    /// join `W_t`, and only if `t` is not above the upper bound (the lower
    /// bound never passes the upper one: both hold the real value); likewise
    /// for `Z_t`. The other boards are known winners or losers of this game.
    /// A candidate for `W_t` has no capture worth `t` (the lower bound is at
    /// least the best capture since the coarse bounds); the captures of a
    /// candidate for `Z_t` are read when it is about to win.
    ///
    /// The game is solved by rounds: the attractor of the known winners
    /// (lower bound raised, upper bound lowered at once), then the boards
    /// from which the winner can stay forever on positions whose row split
    /// is at least `t` for it, or reach a winner (a greatest fixed point,
    /// in the bit sets `good_w` and `good_z`); those win too, and the next
    /// round starts. When a round adds nothing, the rest is lost: from
    /// there the other side can always force a bad position, and it never
    /// has to let play reach a winner.
    fn threshold(&self, share: &Share<'_>, t: i8) {
        let (lo, hi) = (self.lo, self.hi);
        let part = self.part;
        let size = level_size(self.seeds);
        // Candidates: the mover may win (`w`), the other side may win (`z`).
        let w =
            |p: usize| lo[p].load(Ordering::Relaxed) == t - 1 && hi[p].load(Ordering::Relaxed) >= t;
        let z = |p: usize| {
            hi[p].load(Ordering::Relaxed) == 1 - t && lo[p].load(Ordering::Relaxed) <= -t
        };
        // The other side wins the game at board `r` (the mover's row
        // split there is at most -t for good), or the mover does.
        let z_won = |r: u64| hi[r as usize].load(Ordering::Relaxed) <= -t;
        let w_won = |r: u64| lo[r as usize].load(Ordering::Relaxed) >= t;
        // Every capture of `board` leaves the other side at least t (by
        // the pessimistic bounds below).
        let exits_good = |edges: &Edges| edges.best_exit(self.seeds, self.lower, true) <= -t;
        // The mover at `board` (rank `p`) wins: the boards before it, where
        // the other side moves, need all their moves looked at.
        let w_wins = |p: usize, board: &[u8; 12], next: &Marks| {
            lo[p].store(t + 1, Ordering::Relaxed);
            part.wrote(p as u64);
            self.mark_before(board, next);
        };
        // The other side wins: the boards before it where the mover has
        // not won yet win at once (a move here is enough); only the boards
        // before those need a look. Another process's board is only marked:
        // its owner finds the same when it looks.
        let z_wins = |p: usize, board: &[u8; 12], next: &Marks| {
            hi[p].store(-t - 1, Ordering::Relaxed);
            part.wrote(p as u64);
            for_each_predecessor(board, self.seeds, self.rules, |q, before| {
                if !part.owns(q) {
                    next.set(q);
                    return;
                }
                let raised = lo[q as usize].compare_exchange(
                    t - 1,
                    t + 1,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
                if raised.is_ok() {
                    part.wrote(q);
                    self.mark_before(before, next);
                }
            });
        };
        let good_w = Marks::new(size);
        let good_z = Marks::new(size);
        let planes: [&dyn Synced; 4] = [&lo, &hi, &good_w, &good_z];
        // The candidates, looked at first (a cheap scan: most boards of a
        // level are not candidates at a given threshold).
        let candidates = Marks::new(size);
        self.quietly(&|start, count| {
            for p in start..start + count {
                if w(p as usize) || z(p as usize) {
                    candidates.set(p);
                }
            }
        });
        if !share.any(!candidates.is_empty()) {
            return;
        }
        let mut marks = candidates;
        loop {
            // The attractor of the winners (the first time from every
            // candidate).
            let wanted = |p| w(p) || z(p);
            self.passes(
                share,
                &planes,
                Some(marks),
                false,
                wanted,
                |_, p, board, edges, next| {
                    let (cw, cz) = (w(p), z(p));
                    if !cw && !cz {
                        return;
                    }
                    let Some(edges) = edges else {
                        return;
                    };
                    let children = edges.stays();
                    if cw && children.iter().any(|&c| z_won(c)) {
                        w_wins(p, board, next);
                    }
                    if cz && children.iter().all(|&c| w_won(c)) && exits_good(edges) {
                        z_wins(p, board, next);
                    }
                },
            );
            // The candidates left on a good position for the winner.
            let first = Marks::new(size);
            self.quietly(&|start, count| {
                visit(self.seeds, start, count, None, |p, board| {
                    let r = final_value(board);
                    if r >= t && w(p) {
                        good_w.set(p as u64);
                        first.set(p as u64);
                    }
                    if -r >= t && z(p) {
                        good_z.set(p as u64);
                        first.set(p as u64);
                    }
                    if first.contains(p as u64) {
                        part.wrote(p as u64);
                    }
                });
            });
            if !share.exchange(&planes, Some(&first)) {
                return;
            }
            // Those from which the winner cannot stay on them (or reach a
            // winner) leave the sets, until none does. The captures are
            // checked in the first pass.
            let wanted = |p| good_w.contains(p as u64) || good_z.contains(p as u64);
            self.passes(
                share,
                &planes,
                Some(first),
                false,
                wanted,
                |checks_exits, p, board, edges, next| {
                    let i = p as u64;
                    let (in_w, in_z) = (good_w.contains(i), good_z.contains(i));
                    if !in_w && !in_z {
                        return;
                    }
                    let Some(edges) = edges else {
                        return;
                    };
                    let children = edges.stays();
                    if in_w && !children.iter().any(|&c| z_won(c) || good_z.contains(c)) {
                        // The boards before it where the other side moves
                        // can now go somewhere neither safe nor won: they
                        // leave at once, and the boards before them need a
                        // look.
                        good_w.clear(i);
                        part.wrote(i);
                        for_each_predecessor(board, self.seeds, self.rules, |q, before| {
                            if !part.owns(q) {
                                next.set(q);
                            } else if good_z.clear(q) {
                                part.wrote(q);
                                self.mark_before(before, next);
                            }
                        });
                    }
                    if in_z
                        && !(children.iter().all(|&c| w_won(c) || good_w.contains(c))
                            && (!checks_exits || exits_good(edges)))
                    {
                        good_z.clear(i);
                        part.wrote(i);
                        self.mark_before(board, next);
                    }
                },
            );
            // What is left wins; the boards before those are looked at in
            // the next round's attractor.
            let next = Marks::new(size);
            self.quietly(&|start, count| {
                visit(self.seeds, start, count, Some(&good_w), |p, board| {
                    good_w.clear(p as u64);
                    w_wins(p, board, &next);
                });
            });
            self.quietly(&|start, count| {
                visit(self.seeds, start, count, Some(&good_z), |p, board| {
                    good_z.clear(p as u64);
                    z_wins(p, board, &next);
                });
            });
            if !share.exchange(&planes, Some(&next)) {
                return;
            }
            marks = next;
        }
    }
}
