//! Several processes building one database together (MPI, or anything that
//! can gather and scatter bytes): each owns a range of every level's boards
//! and tells the others, between passes, what changed.
//!
//! The solver only needs the four collective operations of [`Cluster`];
//! [`Alone`] is the single process, and the `mpi` feature adds [`Mpi`].

#[cfg(feature = "mpi")]
mod mpi;
#[cfg(feature = "mpi")]
pub use self::mpi::Mpi;

/// The processes of a build, and the collective operations they use. Every
/// process calls each operation in the same order (they are collective:
/// one that returns early leaves the others waiting, so a process that
/// fails must end the whole job, as `MPI_Abort` does).
pub trait Cluster {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// How many processes build together.
    fn size(&self) -> usize;
    /// Sends `mine` to every other process; `receive(from, bytes)` is
    /// called with what each other process sent.
    fn all_gather(&self, mine: &[u8], receive: &mut dyn FnMut(usize, &[u8]));
    /// Sends `out[q]` to process `q` (`out[self.rank()]` is not sent);
    /// `receive(from, bytes)` is called with what each other process sent
    /// to this one.
    fn all_to_all(&self, out: &[Vec<u8>], receive: &mut dyn FnMut(usize, &[u8]));
    /// The sum of `mine` over the processes.
    fn sum(&self, mine: u64) -> u64;
    /// About the most bytes one process sends another in one call (at most
    /// 3 times this): bigger messages go in rounds, so that no buffer
    /// outgrows memory or MPI's counts.
    fn round_bytes(&self) -> usize {
        ((1usize << 30) / self.size().max(1)).max(1 << 20)
    }
}

/// A single process: the build as it always was.
pub struct Alone;

impl Cluster for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_gather(&self, _: &[u8], _: &mut dyn FnMut(usize, &[u8])) {}
    fn all_to_all(&self, _: &[Vec<u8>], _: &mut dyn FnMut(usize, &[u8])) {}
    fn sum(&self, mine: u64) -> u64 {
        mine
    }
}

/// The boards of a level of `size` boards that process `rank` of `processes`
/// owns: a range of ranks, cut at multiples of 2^14 (a unit of work of the
/// solver, and a whole number of 64-bit words of its bit sets).
pub fn owned(size: u64, processes: usize, rank: usize) -> std::ops::Range<u64> {
    const ALIGN: u64 = 1 << 14;
    let cut = |i: usize| -> u64 {
        if i >= processes {
            return size;
        }
        let even = (u128::from(size) * i as u128 / processes as u128) as u64;
        (even / ALIGN * ALIGN).min(size)
    };
    cut(rank)..cut(rank + 1)
}

/// Appends `x` in 7-bit groups, low first (LEB128).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Reads a number written by [`put_varint`] at `*at`, moving past it;
/// `None` at the end or on a malformed one.
pub(crate) fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        x |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(x);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_the_level_once_in_aligned_ranges() {
        for size in [0u64, 1, 78, 16_384, 1_352_078, 13_037_895] {
            for processes in 1..=5 {
                let mut next = 0;
                for rank in 0..processes {
                    let r = owned(size, processes, rank);
                    assert_eq!(r.start, next);
                    assert!(r.start.is_multiple_of(1 << 14) || r.start == size);
                    next = r.end;
                }
                assert_eq!(next, size);
            }
        }
    }

    #[test]
    fn varints_read_back_what_was_written() {
        let values = [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX];
        let mut bytes = Vec::new();
        for &v in &values {
            put_varint(&mut bytes, v);
        }
        let mut at = 0;
        for &v in &values {
            assert_eq!(get_varint(&bytes, &mut at), Some(v));
        }
        assert_eq!(get_varint(&bytes, &mut at), None);
        assert_eq!(get_varint(&[0x80, 0x80], &mut 0), None);
    }
}
