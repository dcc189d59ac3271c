//! The transposition table: what earlier searches learnt about positions,
//! shared by all search threads without locks.
//!
//! Each entry is two atomic words: the data, and the position's hash XORed
//! with the data. A reader accepts an entry only when the two XOR back to
//! its hash, so a torn write by another thread reads as a miss, never as
//! another position's data.

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is the value.
    Exact = 3,
}

/// One entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Score, relative to the node (see `Score::to_tt`).
    pub score: i16,
    /// Depth searched.
    pub depth: u8,
    /// How the score bounds the value; `None` when only a move is stored.
    pub bound: Option<Bound>,
    /// Best move, as an index in the mover's row.
    pub best: Option<u8>,
}

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let bound = self.bound.map_or(0, |b| b as u64);
        let best = self.best.map_or(0, |m| u64::from(m) + 1);
        u64::from(self.score as u16)
            | u64::from(self.depth) << 16
            | bound << 24
            | best << 26
            | u64::from(generation) << 32
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            score: data as u16 as i16,
            depth: (data >> 16) as u8,
            bound: match (data >> 24) & 3 {
                1 => Some(Bound::Upper),
                2 => Some(Bound::Lower),
                3 => Some(Bound::Exact),
                _ => None,
            },
            best: match (data >> 26) & 7 {
                0 => None,
                m => Some(m as u8 - 1),
            },
        }
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 32) as u8
}

const WAYS: usize = 2;

/// One bucket: `WAYS` entries of two words (key XOR data, data), aligned to
/// its size so that a probe touches a single cache line.
#[repr(align(32))]
struct Bucket([AtomicU64; 2 * WAYS]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// The table: buckets of two entries, one preferring depth.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    generation: u8,
}

/// A table that could not be made: the memory is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooBig {
    /// The size asked for, in MiB.
    pub mib: usize,
    /// The memory the system said was available, in MiB, when known.
    pub available_mib: Option<u64>,
}

impl std::fmt::Display for TableTooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a table of {} MiB does not fit in memory", self.mib)?;
        if let Some(a) = self.available_mib {
            write!(f, " ({a} MiB available)")?;
        }
        Ok(())
    }
}

impl std::error::Error for TableTooBig {}

/// The memory the system can give without swapping, in MiB (Linux:
/// `MemAvailable` of `/proc/meminfo`); `None` elsewhere.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl Table {
    /// A table of about `mib` MiB (at least one bucket), or an error when
    /// the system has not that much memory available: the allocation is
    /// asked for before any of it is touched, and a size beyond the
    /// available memory is refused, so that the process is not killed for
    /// lack of memory while filling it.
    pub fn try_new(mib: usize) -> Result<Table, TableTooBig> {
        let too_big = |available_mib| TableTooBig { mib, available_mib };
        let available = available_mib();
        if available.is_some_and(|a| mib as u64 > a) {
            return Err(too_big(available));
        }
        let bytes = mib.max(1).checked_mul(1 << 20).ok_or(too_big(available))?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| too_big(available))?;
        buckets.extend((0..count).map(|_| Bucket::empty()));
        Ok(Table {
            buckets,
            generation: 0,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            for w in &mut bucket.0 {
                *w.get_mut() = 0;
            }
        }
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &[AtomicU64; 2 * WAYS] {
        let i = ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i].0
    }

    /// Starts loading the bucket of `hash` into the cache, so that a probe
    /// a little later does not wait for memory. (A plain load whose value
    /// is dropped: the processor goes on while it is outstanding.)
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        std::hint::black_box(self.bucket(hash)[1].load(Ordering::Relaxed));
    }

    /// The entry stored for `hash`, if any.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let b = self.bucket(hash);
        for way in 0..WAYS {
            let key = b[2 * way].load(Ordering::Relaxed);
            let data = b[2 * way + 1].load(Ordering::Relaxed);
            if key ^ data == hash && data != 0 {
                return Some(Entry::unpack(data));
            }
        }
        None
    }

    /// Stores `entry` for `hash`. Keeps the old best move when the new entry
    /// has none.
    #[inline]
    pub fn store(&self, hash: u64, mut entry: Entry) {
        let b = self.bucket(hash);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for way in 0..WAYS {
            let key = b[2 * way].load(Ordering::Relaxed);
            let data = b[2 * way + 1].load(Ordering::Relaxed);
            if key ^ data == hash && data != 0 {
                let old = Entry::unpack(data);
                if entry.best.is_none() {
                    entry.best = old.best;
                }
                // A move alone (its score held only on one path) keeps what
                // was known of the score.
                if entry.bound.is_none() {
                    entry = Entry {
                        best: entry.best,
                        ..old
                    };
                }
                // Keep a deeper exact result of this search.
                if old.bound == Some(Bound::Exact)
                    && entry.bound != Some(Bound::Exact)
                    && old.depth > entry.depth.saturating_add(2)
                    && generation_of(data) == self.generation
                {
                    return;
                }
                victim = way;
                break;
            }
            let age = self.generation.wrapping_sub(generation_of(data)) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                (data >> 16 & 0xFF) as i32 - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = way;
            }
        }
        let data = entry.pack(self.generation);
        b[2 * victim].store(hash ^ data, Ordering::Relaxed);
        b[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in this search.
    pub fn hashfull(&self) -> u32 {
        let n = (self.buckets.len() * WAYS).min(1000);
        let used = (0..n)
            .filter(|&i| {
                let data = self.buckets[i / WAYS].0[2 * (i % WAYS) + 1].load(Ordering::Relaxed);
                data != 0 && generation_of(data) == self.generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry with a score bounding the value as `bound` says, and a
    /// best move.
    fn scored(score: i16, depth: u8, bound: Bound, best: u8) -> Entry {
        Entry {
            score,
            depth,
            bound: Some(bound),
            best: Some(best),
        }
    }

    #[test]
    fn an_entry_reads_back_as_stored() {
        let table = Table::try_new(1).unwrap();
        let e = scored(-29_990, 17, Bound::Lower, 5);
        table.store(0xDEAD_BEEF, e);
        assert_eq!(table.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(table.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn a_move_alone_keeps_the_stored_score() {
        let table = Table::try_new(1).unwrap();
        let with_score = scored(250, 9, Bound::Exact, 2);
        table.store(7, with_score);
        let move_only = Entry {
            score: -30_000,
            depth: 12,
            bound: None,
            best: Some(4),
        };
        table.store(7, move_only);
        assert_eq!(
            table.probe(7),
            Some(Entry {
                best: Some(4),
                ..with_score
            })
        );
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = Table::try_new(1).unwrap();
        let e = scored(100, 3, Bound::Exact, 1);
        table.store(42, e);
        let b = table.bucket(42);
        // Another thread's half-finished write: new data, old key word.
        b[1].store(e.pack(7) ^ 1 << 40, Ordering::Relaxed);
        assert_eq!(table.probe(42), None);
    }
}
