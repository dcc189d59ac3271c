//! [`Cluster`] over MPI (the `mpi` feature): the processes `mpirun` started,
//! talking through MPI's collectives (`MPI_Allgatherv`, `MPI_Alltoallv`,
//! `MPI_Allreduce`), called from the main thread only.

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Threading};

use super::Cluster;

/// The processes of `MPI_COMM_WORLD`. MPI is finalised when it is dropped.
pub struct Mpi {
    world: SimpleCommunicator,
    round_bytes: Option<usize>,
    // Dropped last: finalises MPI.
    _universe: Universe,
}

impl Mpi {
    /// Starts MPI (the worker threads never call it: `MPI_THREAD_FUNNELED`).
    /// `None` when it was started already. Without `mpirun` this is a
    /// world of one process.
    ///
    /// `AWALE_MPI_ROUND_BYTES`, when set, caps the bytes one process sends
    /// another in one collective (tests use it to exercise the rounds).
    pub fn start() -> Option<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)?;
        let round_bytes = std::env::var("AWALE_MPI_ROUND_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(|b: usize| b.max(16));
        Some(Mpi {
            world: universe.world(),
            round_bytes,
            _universe: universe,
        })
    }

    /// Ends every process of the job (`MPI_Abort`): what a process that
    /// cannot go on must do, since the others wait for it in a collective.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// The name of this process's machine.
    pub fn host(&self) -> String {
        mpi::environment::processor_name().unwrap_or_default()
    }
}

fn count(len: usize) -> Count {
    // The rounds keep every message far below 2^31 bytes.
    Count::try_from(len).unwrap_or(Count::MAX)
}

/// A buffer of `len` zeros whose address is a real allocation even when
/// empty: the address of an empty `Vec` is 1, which is `MPI_IN_PLACE` for
/// Open MPI.
fn buffer(len: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(len.max(1));
    b.resize(len, 0);
    b
}

fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let here = *at;
            *at += c;
            Some(here)
        })
        .collect()
}

impl Cluster for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn all_gather(&self, mine: &[u8], receive: &mut dyn FnMut(usize, &[u8])) {
        let none = buffer(0);
        let mine = if mine.is_empty() { &none[..] } else { mine };
        let mut counts = vec![0 as Count; self.size()];
        self.world
            .all_gather_into(&count(mine.len()), &mut counts[..]);
        let displs = displacements(&counts);
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        let mut all = buffer(total);
        {
            let mut into = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            self.world.all_gather_varcount_into(mine, &mut into);
        }
        for (q, (&c, &d)) in counts.iter().zip(&displs).enumerate() {
            if q != self.rank() {
                receive(q, &all[d as usize..(d + c) as usize]);
            }
        }
    }

    fn all_to_all(&self, out: &[Vec<u8>], receive: &mut dyn FnMut(usize, &[u8])) {
        let me = self.rank();
        let send_counts: Vec<Count> = out
            .iter()
            .enumerate()
            .map(|(q, b)| if q == me { 0 } else { count(b.len()) })
            .collect();
        let mut recv_counts = vec![0 as Count; self.size()];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let mut send = buffer(0);
        for (q, b) in out.iter().enumerate() {
            if q != me {
                send.extend_from_slice(b);
            }
        }
        let send_displs = displacements(&send_counts);
        let recv_displs = displacements(&recv_counts);
        let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
        let mut all = buffer(total);
        {
            let from = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut into = PartitionMut::new(&mut all[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&from, &mut into);
        }
        for (q, (&c, &d)) in recv_counts.iter().zip(&recv_displs).enumerate() {
            if q != me {
                receive(q, &all[d as usize..(d + c) as usize]);
            }
        }
    }

    fn sum(&self, mine: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&mine, &mut total, SystemOperation::sum());
        total
    }

    fn round_bytes(&self) -> usize {
        self.round_bytes
            .unwrap_or(((1usize << 30) / self.size().max(1)).max(1 << 20))
    }
}
