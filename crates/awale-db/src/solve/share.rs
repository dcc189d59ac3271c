//! The part of a level one process builds when several build it together
//! ([`crate::cluster`]). Each process owns a range of ranks: it visits only
//! its boards and writes only their entries, but keeps the whole level's
//! planes, since the boards a move leads to are anywhere in the level (a
//! move turns the board round, so a child's rank says nothing of its
//! parent's). Between passes every process sends the others the entries of
//! its boards that changed, and to each owner the marks it set on that
//! owner's boards: what it learnt about them. Alone, none of this runs.

use std::sync::atomic::{AtomicI8, AtomicU64, AtomicU8, Ordering};

use super::{on_threads, parallel_range, visit_ahead, Marks, Progress};
use crate::cluster::{get_varint, owned, put_varint, Cluster};
use crate::index::level_size;

/// A plane of entries, one byte a board, that the processes keep alike.
pub(crate) trait Synced: Sync {
    fn get(&self, i: usize) -> u8;
    fn put(&self, i: usize, byte: u8);
}

impl Synced for &[AtomicI8] {
    fn get(&self, i: usize) -> u8 {
        self[i].load(Ordering::Relaxed) as u8
    }
    fn put(&self, i: usize, byte: u8) {
        self[i].store(byte as i8, Ordering::Relaxed);
    }
}

impl Synced for &[AtomicU8] {
    fn get(&self, i: usize) -> u8 {
        self[i].load(Ordering::Relaxed)
    }
    fn put(&self, i: usize, byte: u8) {
        self[i].store(byte, Ordering::Relaxed);
    }
}

impl Synced for Marks {
    fn get(&self, i: usize) -> u8 {
        u8::from(self.contains(i as u64))
    }
    fn put(&self, i: usize, byte: u8) {
        if byte == 0 {
            self.clear(i as u64);
        } else {
            self.set(i as u64);
        }
    }
}

/// What the worker threads of one process see of the share: its range,
/// and the boards of it written since the last exchange.
pub(crate) struct Part<'a> {
    /// The boards of the level.
    pub(crate) size: u64,
    /// This process's boards.
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) threads: usize,
    pub(crate) progress: &'a dyn Progress,
    /// Boards of this process written since the last exchange (`None`
    /// alone: no one to tell).
    written: Option<Marks>,
}

impl Part<'_> {
    /// Whether board `r` is this process's.
    #[inline]
    pub(crate) fn owns(&self, r: u64) -> bool {
        (self.start..self.end).contains(&r)
    }

    /// Board `r` (this process's) got a new entry: the others must hear of it.
    #[inline]
    pub(crate) fn wrote(&self, r: u64) {
        if let Some(w) = &self.written {
            w.set(r);
        }
    }

    /// Runs [`visit_ahead`] over this process's boards of level `seeds`
    /// marked in `marks` (all when `None`), in chunks, on its threads. The
    /// progress counts the whole level's boards (the others go at about
    /// the same speed).
    #[inline]
    pub(super) fn visit_ahead<T>(
        &self,
        seeds: u8,
        marks: Option<&Marks>,
        prepare: impl Fn(usize, &[u8; 12]) -> T + Sync,
        finish: impl Fn(usize, &[u8; 12], T) + Sync,
    ) {
        let own = (self.end - self.start).max(1);
        let scaled = Scaled {
            inner: self.progress,
            size: self.size,
            own,
        };
        parallel_range(
            self.start,
            self.end,
            self.threads,
            &scaled,
            &|start, count| {
                visit_ahead(seeds, start, count, marks, &prepare, &finish);
            },
        );
    }
}

/// Progress of one process's boards, told as if for the whole level.
struct Scaled<'a> {
    inner: &'a dyn Progress,
    size: u64,
    own: u64,
}

impl Progress for Scaled<'_> {
    fn pass(&self, seeds: u8, phase: super::Phase, pass: u32, positions: u64) {
        self.inner.pass(seeds, phase, pass, positions);
    }
    fn advance(&self, positions: u64) {
        let all = u128::from(positions) * u128::from(self.size) / u128::from(self.own);
        self.inner.advance(all as u64);
    }
    fn exchanged(&self, changed: u64, bytes: u64) {
        self.inner.exchanged(changed, bytes);
    }
}

/// A process's part of a level, and the processes it shares it with.
pub(crate) struct Share<'a> {
    pub(crate) part: Part<'a>,
    cluster: &'a dyn Cluster,
    /// Where each process's boards start (and, last, the level's size).
    cuts: Vec<u64>,
    /// Bytes this process sent, in all.
    sent: AtomicU64,
}

impl<'a> Share<'a> {
    /// This process's part of level `seeds` among those of `cluster`.
    pub(crate) fn new(
        cluster: &'a dyn Cluster,
        seeds: u8,
        threads: usize,
        progress: &'a dyn Progress,
    ) -> Share<'a> {
        let size = level_size(seeds);
        let processes = cluster.size();
        let mut cuts: Vec<u64> = (0..processes)
            .map(|q| owned(size, processes, q).start)
            .collect();
        cuts.push(size);
        let mine = owned(size, processes, cluster.rank());
        Share {
            part: Part {
                size,
                start: mine.start,
                end: mine.end,
                threads,
                progress,
                written: (processes > 1).then(|| Marks::new(size)),
            },
            cluster,
            cuts,
            sent: AtomicU64::new(0),
        }
    }

    /// Whether this process writes the level files (process 0).
    pub(crate) fn writes_files(&self) -> bool {
        self.cluster.rank() == 0
    }

    /// Whether several processes build the level.
    pub(crate) fn is_shared(&self) -> bool {
        self.cluster.size() > 1
    }

    /// Bytes this process sent to the others so far.
    pub(crate) fn bytes_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Whether any process says yes.
    pub(super) fn any(&self, mine: bool) -> bool {
        self.cluster.sum(u64::from(mine)) > 0
    }

    /// The end of a pass: every process gets the entries of `planes` that
    /// the others wrote, and the marks set in `next` on its boards by the
    /// others; the marks on other processes' boards are cleared here.
    /// Whether any process has a board marked for the next pass.
    pub(super) fn exchange(&self, planes: &[&dyn Synced], next: Option<&Marks>) -> bool {
        let Some(written) = &self.part.written else {
            return next.is_some_and(|n| !n.is_empty());
        };
        let (start, end) = (self.part.start, self.part.end);
        let limit = self.cluster.round_bytes();
        // The entries written, to everyone, in rounds: the rank (as a gap
        // from the one before), then a byte per plane.
        let mut changed = 0u64;
        let mut sent = 0u64;
        let (first_word, end_word) = ((start / 64) as usize, end.div_ceil(64) as usize);
        let mut from = first_word;
        loop {
            let (out, count) = encode(written, &mut from, end_word, limit, &|r, out| {
                for plane in planes {
                    out.push(plane.get(r as usize));
                }
            });
            changed += count;
            sent += out.len() as u64 * (self.cluster.size() as u64 - 1);
            let mut received = Vec::new();
            self.cluster
                .all_gather(&out, &mut |_, bytes| received.push(bytes.to_vec()));
            self.in_parallel(&received, &|bytes| apply_entries(bytes, planes));
            if !self.any(from < end_word) {
                break;
            }
        }
        let marked = match next {
            Some(next) => self.send_marks(next, &mut sent),
            None => false,
        };
        self.sent.fetch_add(sent, Ordering::Relaxed);
        let changed = self.cluster.sum(changed);
        let sent = self.cluster.sum(sent);
        if self.cluster.rank() == 0 {
            self.part.progress.exchanged(changed, sent);
        }
        self.any(marked)
    }

    /// Runs `f` on each of `messages` (one from each other process), on
    /// this process's threads: with many processes, taking in what the
    /// others sent would otherwise be one thread's work for the whole
    /// level.
    fn in_parallel(&self, messages: &[Vec<u8>], f: &(dyn Fn(&[u8]) + Sync)) {
        let threads = self.part.threads.min(messages.len());
        on_threads(threads, messages.len(), &|i| f(&messages[i]));
    }

    /// Sends the marks of `next` on other processes' boards to their
    /// owners, in rounds, and takes them out of `next`; puts those the
    /// others send in it. Whether a board of this process is marked.
    fn send_marks(&self, next: &Marks, sent: &mut u64) -> bool {
        let (start, end) = (self.part.start, self.part.end);
        let limit = self.cluster.round_bytes();
        let processes = self.cluster.size();
        let word = |r: u64| r.div_ceil(64) as usize;
        let mut cursors: Vec<usize> = self.cuts[..processes].iter().map(|&r| word(r)).collect();
        loop {
            let mut out = vec![Vec::new(); processes];
            for (q, buffer) in out.iter_mut().enumerate() {
                let q_end = word(self.cuts[q + 1]);
                if q == self.cluster.rank() {
                    cursors[q] = q_end;
                    continue;
                }
                (*buffer, _) = encode(next, &mut cursors[q], q_end, limit, &|_, _| {});
                *sent += buffer.len() as u64;
            }
            let mut received = Vec::new();
            self.cluster
                .all_to_all(&out, &mut |_, bytes| received.push(bytes.to_vec()));
            self.in_parallel(&received, &|bytes| {
                let mut at = 0;
                let mut r = 0u64;
                while let Some(gap) = get_varint(bytes, &mut at) {
                    r += gap;
                    next.set(r);
                }
            });
            let more = (0..processes).any(|q| cursors[q] < word(self.cuts[q + 1]));
            if !self.any(more) {
                break;
            }
        }
        !next.range_is_empty((start / 64) as usize, end.div_ceil(64) as usize)
    }
}

/// Words of a piece of a bit set encoded by one thread in [`encode`], at
/// most.
const PIECE: usize = 1 << 14;

/// Takes the boards of `bits` out of it, from word `*cursor` on (and before
/// `end`), and writes them as gaps from the one before (the first from 0),
/// each followed by what `extra` writes; stops after `limit` bytes or a
/// little more (each thread finishes its piece: at most 3 times `limit`),
/// moving `*cursor` past the words done. The words are done in pieces on
/// every core, then put end to end. Also returns how many boards.
fn encode(
    bits: &Marks,
    cursor: &mut usize,
    end: usize,
    limit: usize,
    extra: &(dyn Fn(u64, &mut Vec<u8>) + Sync),
) -> (Vec<u8>, u64) {
    // Pieces small enough that the threads cannot pass the limit by much:
    // a word gives at most 64 boards of 10 bytes and a few planes.
    let piece = (limit / 1024).clamp(1, PIECE);
    let pieces = (end.saturating_sub(*cursor)).div_ceil(piece);
    let base = *cursor;
    let next = AtomicU64::new(0);
    let bytes = AtomicU64::new(0);
    // (piece, its bytes, the rank of its last board, its boards)
    let done = std::sync::Mutex::new(Vec::new());
    let work = || loop {
        if bytes.load(Ordering::Relaxed) >= limit as u64 {
            break;
        }
        let k = next.fetch_add(1, Ordering::Relaxed) as usize;
        if k >= pieces {
            break;
        }
        let mut out = Vec::new();
        let (mut last, mut count) = (0u64, 0u64);
        for w in base + k * piece..end.min(base + (k + 1) * piece) {
            let word = bits.word(w);
            // Most words are empty: read before writing.
            let mut set = match word.load(Ordering::Relaxed) {
                0 => 0,
                _ => word.swap(0, Ordering::Relaxed),
            };
            while set != 0 {
                let r = 64 * w as u64 + u64::from(set.trailing_zeros());
                set &= set - 1;
                put_varint(&mut out, r - last);
                extra(r, &mut out);
                last = r;
                count += 1;
            }
        }
        bytes.fetch_add(out.len() as u64, Ordering::Relaxed);
        if let Ok(mut done) = done.lock() {
            done.push((k, out, last, count));
        }
    };
    let threads = super::cores().min(pieces / 4);
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_unstable_by_key(|d| d.0);
    // Every piece below the last one taken was taken and done.
    let taken = done.len();
    *cursor = end.min(base + taken * piece);
    let mut out = Vec::with_capacity(done.iter().map(|d| d.1.len()).sum());
    let (mut last, mut count) = (0u64, 0u64);
    for (_, piece, piece_last, piece_count) in done {
        if piece_count == 0 {
            continue;
        }
        // Its first gap is from 0: make it from the last board before.
        let mut at = 0;
        let first = get_varint(&piece, &mut at).unwrap_or(0);
        put_varint(&mut out, first - last);
        out.extend_from_slice(&piece[at..]);
        last = piece_last;
        count += piece_count;
    }
    (out, count)
}

/// Puts the entries of `bytes` (as [`Share::exchange`] writes them) in
/// `planes`. They come from another process of the same build, which wrote
/// them in the same format: a malformed message is a bug of that process,
/// and stops at the first entry that does not fit.
fn apply_entries(bytes: &[u8], planes: &[&dyn Synced]) {
    let mut at = 0;
    let mut r = 0u64;
    while let Some(gap) = get_varint(bytes, &mut at) {
        r += gap;
        let Some(entry) = bytes.get(at..at + planes.len()) else {
            return;
        };
        for (plane, &byte) in planes.iter().zip(entry) {
            plane.put(r as usize, byte);
        }
        at += planes.len();
    }
}
