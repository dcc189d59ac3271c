//! Solving one level (every board with `n` seeds) from the levels below it.
//!
//! A move either captures, and leads to a lower level whose values are
//! known (an *exit*), or does not, and stays in the level. So a level is a
//! game on a finite graph whose exits have known values and whose cycles are
//! worth what the repetition rule gives. See `docs/DATABASES.md` for the
//! proofs sketched in the comments here.
//!
//! **Exact values** (`repetition = nobody`, a cycle is worth 0) come from
//! value iteration started at 0 everywhere, `x(p) <- max over moves of
//! (exit value, or -x(child))`, repeated until a whole pass changes nothing.
//! Writing `x = a - b` with `a = max(x, 0)` and `b = max(-x, 0)`, this is at
//! the same time the least-fixed-point iteration of the attractor sets "the
//! side to move can force at least t" (`a >= t`) and "the side to move is
//! held to at most -t" (`b >= t`) for every t >= 1: reachability games,
//! where endless play (worth 0) fails the player who needs t >= 1. Those
//! iterations only ever grow `a` and `b`, so `|x|` only grows, at most `n`
//! times per board: the loop ends, and it ends on the least fixed point,
//! which is the value of the game (Knaster-Tarski/Kleene on a finite
//! lattice). Updating in place, from several threads, keeps this true: every
//! value read is between the start and the least fixed point.
//!
//! **Bounds** (`repetition = own_row`: what a repetition gives depends on
//! which position repeats, so there is no single value) start from the same
//! iteration on two games: the lower bound counts endless play as the worst
//! possible for the side to move (-n), the upper bound as the best (+n).
//! Then they are tightened threshold by threshold: a player who can make
//! every position it cannot avoid seeing again worth at least t to it (its
//! row minus the other's), or leave the level with at least t, gets at least
//! t, since the first repetition pays the repeated position's row split (a
//! co-Büchi game per threshold; see `bounds.rs`).
//!
//! **Distances** (exact databases): plies until the game leaves the level
//! (a capture or the end) when the winner hurries and the loser delays,
//! counting only moves that keep the value. A winner who always plays a
//! value-keeping move to a smaller distance reaches the capture and never
//! repeats a position: the progress that values alone do not give.

mod bounds;
pub mod check;
mod exact;
mod share;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicI8, AtomicU64, AtomicU8, Ordering};

use awale_core::{Move, Position, Rules, Side};

use crate::cluster::Alone;
use crate::index::{level_size, next_board, rank, unrank};
use crate::DbError;
pub(crate) use bounds::solve_bounds;
pub(crate) use exact::{solve_distances, solve_values};
pub(crate) use share::Share;

/// A distance not known, or not needed (the value is 0: no one needs to
/// make progress).
pub const NO_DISTANCE: u8 = u8::MAX;

/// No capture move: the best exit value is "minus infinity".
const NO_EXIT: i8 = i8::MIN;

/// Boards per unit of work handed to a thread.
const CHUNK: u64 = 1 << 14;

/// The values of one lower level, as stored: one plane of `i8` per bound
/// (the same plane twice for exact databases).
#[derive(Clone, Copy)]
pub struct LowerLevel<'a> {
    /// Lower bounds (or exact values), by rank.
    pub lower: &'a [u8],
    /// Upper bounds (or exact values), by rank.
    pub upper: &'a [u8],
}

/// Told about the progress of a build, from the worker threads.
pub trait Progress: Sync {
    /// A new pass over the level starts (`phase` says which kind).
    fn pass(&self, seeds: u8, phase: Phase, pass: u32, positions: u64);
    /// `positions` more boards of the current pass are done.
    fn advance(&self, positions: u64);
    /// Several processes build the level: at the end of a pass they
    /// exchanged `bytes` in all, telling each other of `changed` boards
    /// (told on process 0 only).
    fn exchanged(&self, changed: u64, bytes: u64) {
        let _ = (changed, bytes);
    }
}

/// What a pass over a level computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Values or bounds.
    Values,
    /// Distances to the next capture.
    Distances,
}

/// A progress that says nothing.
pub struct Silent;

impl Progress for Silent {
    fn pass(&self, _: u8, _: Phase, _: u32, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// A solved level, its planes in rank order.
pub struct SolvedLevel {
    /// Lower bounds (exact values for exact databases), as `i8`.
    pub lower: Vec<u8>,
    /// Upper bounds; empty for exact databases.
    pub upper: Vec<u8>,
    /// Distances to the next capture (exact databases); empty for bounds.
    pub distance: Vec<u8>,
    /// Passes over the level until values settled, then distances.
    pub passes: (u32, u32),
}

/// Whether databases for `rules` hold exact values (a repetition gives
/// nothing to anyone) or only bounds.
pub fn is_exact(rules: &Rules) -> bool {
    rules.repetition == awale_core::Repetition::Nobody
}

/// The board as a position with the side to move at the bottom.
#[inline]
pub(crate) fn position_of(board: &[u8; 12]) -> Position {
    // Every level has at most 48 seeds, so `new` cannot fail; the stores
    // play no part in the moves.
    match Position::new(*board, [0, 0], Side::South) {
        Ok(p) => p,
        Err(_) => unreachable!("a level never holds more than 48 seeds"),
    }
}

/// One move of a board, seen by the solver.
#[derive(Clone, Copy)]
enum Edge {
    /// A capture: the seeds captured, and the child's rank in its level
    /// (this level's seeds minus those captured).
    Exit { captured: u8, rank: u64 },
    /// A move that captures nothing: the child's rank in this level.
    Stay(u64),
}

/// The moves of `board` (or `None` when the game is over there: starvation
/// or an empty board), fed to `f`.
#[inline]
fn for_each_edge(board: &[u8; 12], seeds: u8, rules: &Rules, mut f: impl FnMut(Edge)) -> bool {
    let position = position_of(board);
    let moves = position.legal_moves(rules);
    if moves.is_empty() {
        return false;
    }
    for m in moves {
        let child = position.play_unchecked(m);
        let left = child.seeds_on_board();
        let r = rank(&child.relative_holes(), left);
        if left == seeds {
            f(Edge::Stay(r));
        } else {
            f(Edge::Exit {
                captured: seeds - left,
                rank: r,
            });
        }
    }
    true
}

/// The moves of a board as the solver sees them, from one generation: the
/// boards reached by moves that capture nothing (in this level), and the
/// captures (into lower levels). Small (56 bytes): the solver keeps a few
/// boards' moves while their values are fetched.
pub(crate) struct Edges {
    /// Ranks of the boards reached: those that stay in this level first,
    /// those of the captures last.
    ranks: [u64; 6],
    /// Seeds taken by the capture of `ranks[i]` (only the last `exits`).
    captured: [u8; 6],
    stays: u8,
    exits: u8,
}

impl Edges {
    /// The moves of `board`, or `None` when the game is over there
    /// (starvation or an empty board). All ranks are computed before any
    /// value is read, so that the reads (random, the costly part) overlap.
    #[inline]
    pub(crate) fn of(board: &[u8; 12], seeds: u8, rules: &Rules) -> Option<Edges> {
        let mut edges = Edges {
            ranks: [0; 6],
            captured: [0; 6],
            stays: 0,
            exits: 0,
        };
        let has_moves = for_each_edge(board, seeds, rules, |edge| match edge {
            Edge::Stay(r) => {
                edges.ranks[usize::from(edges.stays)] = r;
                edges.stays += 1;
            }
            Edge::Exit { captured, rank, .. } => {
                edges.exits += 1;
                let i = 6 - usize::from(edges.exits);
                edges.ranks[i] = rank;
                edges.captured[i] = captured;
            }
        });
        has_moves.then_some(edges)
    }

    /// The captures: seeds taken and rank of the board reached, whose level
    /// has `seeds` minus the seeds taken.
    #[inline]
    fn captures(&self) -> impl Iterator<Item = (u8, u64)> + '_ {
        let first = 6 - usize::from(self.exits);
        self.captured[first..]
            .iter()
            .copied()
            .zip(self.ranks[first..].iter().copied())
    }

    /// The ranks of the boards reached by moves that capture nothing.
    #[inline]
    pub(crate) fn stays(&self) -> &[u64] {
        &self.ranks[..usize::from(self.stays)]
    }

    /// Prefetches the entries of `plane` (of this level) that the moves
    /// capturing nothing lead to.
    #[inline]
    pub(crate) fn prefetch_stays<T>(&self, plane: &[T]) {
        for &r in self.stays() {
            prefetch(plane, r);
        }
    }

    /// Prefetches the values of the boards the captures of a board of
    /// `seeds` seeds lead to.
    #[inline]
    pub(crate) fn prefetch_exits(&self, seeds: u8, lower: &[LowerLevel<'_>]) {
        for (captured, r) in self.captures() {
            prefetch(lower[usize::from(seeds - captured)].lower, r);
        }
    }

    /// The best value of a capture of a board of `seeds` seeds, `captured -
    /// value of the board reached`, with the lower levels' lower bounds
    /// (`optimistic`: the best case for the side to move) or upper bounds;
    /// `NO_EXIT` when nothing captures.
    #[inline]
    pub(crate) fn best_exit(&self, seeds: u8, lower: &[LowerLevel<'_>], optimistic: bool) -> i8 {
        let mut best = NO_EXIT;
        for (captured, r) in self.captures() {
            let level = &lower[usize::from(seeds - captured)];
            let plane = if optimistic { level.lower } else { level.upper };
            // Saturating: a level file is checked by its checksums, not
            // its ranges, and a forged one must not overflow.
            best = best.max((captured as i8).saturating_sub(load(plane, r)));
        }
        best
    }
}

/// The value when the game ends on `board` with the side to move having no
/// move: each player takes the seeds in their own row (starvation), or the
/// board is empty.
#[inline]
fn final_value(board: &[u8; 12]) -> i8 {
    let own: i32 = board[..6].iter().map(|&h| i32::from(h)).sum();
    let other: i32 = board[6..].iter().map(|&h| i32::from(h)).sum();
    (own - other) as i8
}

/// Runs `work(first_rank, count)` over the level in chunks on `threads`
/// threads. Chunks start at multiples of 64 (one word of a [`Marks`]).
fn parallel_chunks(
    seeds: u8,
    threads: usize,
    progress: &dyn Progress,
    work: &(dyn Fn(u64, u64) + Sync),
) {
    parallel_range(0, level_size(seeds), threads, progress, work);
}

/// [`parallel_chunks`] over the ranks `first..end` (`first` a multiple of
/// 64).
fn parallel_range(
    first: u64,
    end: u64,
    threads: usize,
    progress: &dyn Progress,
    work: &(dyn Fn(u64, u64) + Sync),
) {
    let next = AtomicU64::new(first);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                if start >= end {
                    break;
                }
                let count = CHUNK.min(end - start);
                work(start, count);
                progress.advance(count);
            });
        }
    });
}

/// One bit per board of a level: the boards to look at again in the next
/// pass, because a move of theirs leads to a board that changed.
///
/// In segments made and swept by several threads: a set is made (and the
/// bigger ones swept) once or more a pass, and on one thread that would be
/// seconds a pass for the biggest levels, whatever the number of machines.
struct Marks {
    segments: Vec<Box<[AtomicU64]>>,
    words: usize,
}

/// Words of a segment of [`Marks`] (512 KiB).
const SEGMENT: usize = 1 << 16;

/// The cores of this machine.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `f(i)` for `i` in `0..count` on up to one thread per core (one
/// thread for small counts).
fn on_all_cores(count: usize, f: &(dyn Fn(usize) + Sync)) {
    on_threads(cores().min(count / 16), count, f);
}

/// Runs `f(i)` for `i` in `0..count` on `threads` threads, each taking the
/// next `i` when done with one (on this thread alone for 0 or 1).
fn on_threads(threads: usize, count: usize, f: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 {
        (0..count).for_each(f);
        return;
    }
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                if i >= count {
                    break;
                }
                f(i);
            });
        }
    });
}

impl Marks {
    fn new(size: u64) -> Marks {
        let words = size.div_ceil(64) as usize;
        let count = words.div_ceil(SEGMENT);
        let segment = |i: usize| -> Box<[AtomicU64]> {
            let len = SEGMENT.min(words - i * SEGMENT);
            (0..len).map(|_| AtomicU64::new(0)).collect()
        };
        let made = std::sync::Mutex::new(Vec::with_capacity(count));
        on_all_cores(count, &|i| {
            let s = segment(i);
            if let Ok(mut made) = made.lock() {
                made.push((i, s));
            }
        });
        let mut made = made.into_inner().unwrap_or_default();
        made.sort_unstable_by_key(|(i, _)| *i);
        let segments: Vec<Box<[AtomicU64]>> = made.into_iter().map(|(_, s)| s).collect();
        assert_eq!(segments.len(), count, "a segment of a bit set was lost");
        Marks { segments, words }
    }

    /// The word of bits `64 w .. 64 w + 63`.
    #[inline(always)]
    fn word(&self, w: usize) -> &AtomicU64 {
        &self.segments[w / SEGMENT][w % SEGMENT]
    }

    #[inline]
    fn set(&self, i: u64) {
        let bit = 1u64 << (i % 64);
        let word = self.word((i / 64) as usize);
        // Most boards are marked once: test first, write only if needed.
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Prefetches the word of bit `i`.
    #[inline]
    fn prefetch(&self, i: u64) {
        let w = (i / 64) as usize;
        if let Some(segment) = self.segments.get(w / SEGMENT) {
            prefetch(segment, (w % SEGMENT) as u64);
        }
    }

    fn is_empty(&self) -> bool {
        self.range_is_empty(0, self.words)
    }

    /// Whether the words `first..end` are all 0.
    fn range_is_empty(&self, first: usize, end: usize) -> bool {
        let found = std::sync::atomic::AtomicBool::new(false);
        let segments = (first / SEGMENT)..end.div_ceil(SEGMENT);
        let (base, count) = (segments.start, segments.len());
        on_all_cores(count, &|k| {
            let s = base + k;
            let from = first.max(s * SEGMENT) - s * SEGMENT;
            let to = end.min((s + 1) * SEGMENT) - s * SEGMENT;
            if self.segments[s][from..to]
                .iter()
                .any(|w| w.load(Ordering::Relaxed) != 0)
            {
                found.store(true, Ordering::Relaxed);
            }
        });
        !found.into_inner()
    }

    /// Whether board `i` is in the set.
    #[inline]
    fn contains(&self, i: u64) -> bool {
        self.word((i / 64) as usize).load(Ordering::Relaxed) & (1u64 << (i % 64)) != 0
    }

    /// Takes board `i` out of the set; whether it was in.
    #[inline]
    fn clear(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.word((i / 64) as usize)
            .fetch_and(!bit, Ordering::Relaxed)
            & bit
            != 0
    }
}

/// Calls `f(rank, board)` for the boards of `start..start + count` marked in
/// `marks` (every one when `marks` is `None`), in order.
#[inline]
fn visit(
    seeds: u8,
    start: u64,
    count: u64,
    marks: Option<&Marks>,
    mut f: impl FnMut(usize, &[u8; 12]),
) {
    let end = start + count;
    let Some(marks) = marks else {
        let mut board = unrank(start, seeds);
        for i in start..end {
            f(i as usize, &board);
            next_board(&mut board);
        }
        return;
    };
    // The board of rank `at`, kept in step: a short gap is walked, a long
    // one unranked.
    let mut at = u64::MAX;
    let mut board = [0u8; 12];
    let mut word_start = start;
    while word_start < end {
        let mut bits = marks
            .word((word_start / 64) as usize)
            .load(Ordering::Relaxed);
        while bits != 0 {
            let i = word_start + u64::from(bits.trailing_zeros());
            bits &= bits - 1;
            if i >= end {
                break;
            }
            if at <= i && i - at <= 8 {
                while at < i {
                    next_board(&mut board);
                    at += 1;
                }
            } else {
                board = unrank(i, seeds);
                at = i;
            }
            f(i as usize, &board);
        }
        word_start += 64;
    }
}

/// Boards prepared ahead of the one being finished in [`visit_ahead`]: enough
/// for the reads of the first to arrive while the others are generated.
const AHEAD: usize = 8;

/// Like [`visit`], in two steps [`AHEAD`] boards apart: `prepare(rank,
/// board)` (generate the moves, prefetch what finishing will read), then
/// `finish(rank, board, prepared)`.
#[inline]
fn visit_ahead<T>(
    seeds: u8,
    start: u64,
    count: u64,
    marks: Option<&Marks>,
    mut prepare: impl FnMut(usize, &[u8; 12]) -> T,
    mut finish: impl FnMut(usize, &[u8; 12], T),
) {
    let mut queue: VecDeque<(usize, [u8; 12], T)> = VecDeque::with_capacity(AHEAD + 1);
    visit(seeds, start, count, marks, |p, board| {
        let prepared = prepare(p, board);
        queue.push_back((p, *board, prepared));
        if queue.len() > AHEAD {
            if let Some((p, board, prepared)) = queue.pop_front() {
                finish(p, &board, prepared);
            }
        }
    });
    for (p, board, prepared) in queue {
        finish(p, &board, prepared);
    }
}

/// Asks the processor to bring the cache line of `plane[i]` in, without
/// waiting for it: the solver's reads are random, and starting them early
/// lets them overlap.
#[inline(always)]
fn prefetch<T>(plane: &[T], i: u64) {
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = plane.get(i as usize) {
        #[allow(unsafe_code)]
        // SAFETY: a prefetch is a hint to the cache: it changes nothing the
        // program can see and never faults (here the address is even that of
        // a live element). `unsafe` only because it is a target-specific
        // instruction; SSE, which it needs, is part of every x86-64.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (plane, i);
}

/// Sowing vectors: `SOWN[i][s]` is what sowing `s` seeds from hole `i` of
/// the mover's row adds to each hole (the origin skipped).
const SOWN: [[[u8; 12]; 49]; 6] = {
    let mut t = [[[0u8; 12]; 49]; 6];
    let mut origin = 0;
    while origin < 6 {
        let mut s = 1;
        while s <= 48 {
            let mut hole = 0;
            while hole < 12 {
                t[origin][s][hole] = awale_core::seeds_into(origin, s, hole);
                hole += 1;
            }
            s += 1;
        }
        origin += 1;
    }
    t
};

/// Calls `f(rank)` for every board of the level that has a move to
/// `board` capturing nothing (its predecessors inside the level): un-sows
/// every possible move, then checks it by playing it forward with the rules.
#[inline]
fn for_each_predecessor(
    board: &[u8; 12],
    seeds: u8,
    rules: &Rules,
    mut f: impl FnMut(u64, &[u8; 12]),
) {
    // The board before the move, from its mover's view: that mover's row is
    // the second row of `board`.
    let mut before = [0u8; 12];
    before[..6].copy_from_slice(&board[6..]);
    before[6..].copy_from_slice(&board[..6]);
    for origin in 0..6 {
        if before[origin] != 0 {
            continue;
        }
        let sizes = SOWN[origin].iter().enumerate().take(usize::from(seeds) + 1);
        'sizes: for (s, add) in sizes.skip(1) {
            let mut candidate = before;
            for (h, &a) in candidate.iter_mut().zip(add) {
                if *h < a {
                    // More seeds add at least as much everywhere.
                    break 'sizes;
                }
                *h -= a;
            }
            candidate[origin] = s as u8;
            // The hole of the last seed (the origin is skipped). Unless it
            // ends in the opponent's row on 2 or 3, the move captures
            // nothing and is legal when it feeds an empty row: no need for
            // the rules crate. Otherwise (a capture, or a grand slam that
            // captures nothing) the rules crate decides.
            let last = awale_core::last_hole(origin, s);
            let may_capture = last >= 6 && (before[last] == 2 || before[last] == 3);
            let m = Move::new(Side::South, origin);
            let stays = if may_capture {
                let position = position_of(&candidate);
                position.legal_moves(rules).contains(m)
                    && position.play_unchecked(m).seeds_on_board() == seeds
            } else {
                let opponent_empty = candidate[6..].iter().all(|&h| h == 0);
                !opponent_empty || origin + s >= 6
            };
            debug_assert_eq!(stays, {
                let position = position_of(&candidate);
                position.legal_moves(rules).contains(m)
                    && position.play_unchecked(m).seeds_on_board() == seeds
            });
            if stays {
                f(rank(&candidate, seeds), &candidate);
            }
        }
    }
}

/// [`for_each_predecessor`] in batches: the ranks of up to 16 boards before
/// `board` are found and `touch(rank)` is called on each (a prefetch of what
/// `f` will read), then `f` on each, so that their random reads overlap.
#[inline]
fn for_each_predecessor_ahead(
    board: &[u8; 12],
    seeds: u8,
    rules: &Rules,
    touch: impl Fn(u64),
    mut f: impl FnMut(u64, &[u8; 12]),
) {
    const BATCH: usize = 16;
    let mut batch = [(0u64, [0u8; 12]); BATCH];
    let mut len = 0;
    for_each_predecessor(board, seeds, rules, |r, before| {
        touch(r);
        batch[len] = (r, *before);
        len += 1;
        if len == BATCH {
            for (r, before) in &batch {
                f(*r, before);
            }
            len = 0;
        }
    });
    for (r, before) in &batch[..len] {
        f(*r, before);
    }
}

#[inline]
fn load(plane: &[u8], r: u64) -> i8 {
    plane[r as usize] as i8
}

/// Panics unless `lower` holds the `seeds` levels below, each of its size:
/// the callers open them, so a mismatch is a bug, not bad input.
fn check_lower(seeds: u8, lower: &[LowerLevel<'_>]) {
    assert!(lower.len() >= usize::from(seeds), "lower levels missing");
    for (n, level) in lower.iter().enumerate().take(usize::from(seeds)) {
        assert_eq!(level.lower.len() as u64, level_size(n as u8));
        assert_eq!(level.upper.len() as u64, level_size(n as u8));
    }
}

/// Solves the level of `seeds` seeds for `rules`, the levels below being
/// `lower[0..seeds]`.
///
/// # Errors
///
/// [`DbError::DistanceTooLong`] when a distance to capture does not fit the
/// format's byte (none up to 20 seeds).
///
/// # Panics
///
/// If `lower` has fewer than `seeds` levels or one of them has the wrong
/// size: the caller opens them.
pub fn solve_level(
    rules: &Rules,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    threads: usize,
    progress: &dyn Progress,
) -> Result<SolvedLevel, DbError> {
    check_lower(seeds, lower);
    let share = Share::new(&Alone, seeds, threads, progress);
    if is_exact(rules) {
        let (values, value_passes) = solve_values(rules, seeds, lower, &share);
        let (distance, distance_passes) = solve_distances(rules, seeds, lower, &values, &share)?;
        Ok(SolvedLevel {
            lower: values,
            upper: Vec::new(),
            distance,
            passes: (value_passes, distance_passes),
        })
    } else {
        Ok(solve_bounds(rules, seeds, lower, &share))
    }
}

fn atomics_i8(size: u64, value: i8) -> Vec<AtomicI8> {
    (0..size).map(|_| AtomicI8::new(value)).collect()
}

fn atomics_u8(size: u64, value: u8) -> Vec<AtomicU8> {
    (0..size).map(|_| AtomicU8::new(value)).collect()
}

fn into_bytes_i8(v: Vec<AtomicI8>) -> Vec<u8> {
    // Same layout: the allocation is reused.
    v.into_iter().map(|a| a.into_inner() as u8).collect()
}
