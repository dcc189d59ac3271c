//! The build on several processes ([`awale_db::build_on`]) against the
//! build of one, with the processes played by threads of this test that
//! talk through shared memory: the sharing of the boards, the exchanges and
//! their rounds, without MPI (the MPI transport itself is tested in
//! `crates/awale/tests/mpi.rs`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use awale_core::Rules;
use awale_db::{build, build_on, Cluster, Silent, Variant};

/// A barrier that fails, instead of waiting forever, once a process has
/// panicked (as `mpirun` ends a job whose process died).
struct Barrier {
    processes: usize,
    state: Mutex<(usize, u64, bool)>,
    turn: Condvar,
}

impl Barrier {
    fn new(processes: usize) -> Barrier {
        Barrier {
            processes,
            state: Mutex::new((0, 0, false)),
            turn: Condvar::new(),
        }
    }

    fn wait(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let generation = state.1;
        state.0 += 1;
        if state.0 == self.processes {
            state.0 = 0;
            state.1 += 1;
            self.turn.notify_all();
        }
        while state.1 == generation && !state.2 {
            state = self.turn.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        assert!(!state.2, "another process failed");
    }

    fn fail(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).2 = true;
        self.turn.notify_all();
    }
}

/// Fails the barrier when its process panics.
struct FailOnPanic<'a>(&'a Barrier);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail();
        }
    }
}

/// What the simulated processes share: one mailbox per (to, from).
struct Hub {
    processes: usize,
    barrier: Barrier,
    mail: Mutex<Vec<Vec<u8>>>,
    sums: Mutex<Vec<u64>>,
}

/// One simulated process.
struct Member {
    rank: usize,
    hub: Arc<Hub>,
    round_bytes: usize,
}

impl Member {
    /// Puts `to_each(q)` in the mailbox of every other process, then hands
    /// this one's mail to `receive`.
    fn post(&self, to_each: &dyn Fn(usize) -> Vec<u8>, receive: &mut dyn FnMut(usize, &[u8])) {
        let n = self.hub.processes;
        {
            let mut mail = self.hub.mail.lock().unwrap();
            for q in (0..n).filter(|&q| q != self.rank) {
                mail[q * n + self.rank] = to_each(q);
            }
        }
        self.hub.barrier.wait();
        let mine: Vec<(usize, Vec<u8>)> = {
            let mut mail = self.hub.mail.lock().unwrap();
            (0..n)
                .filter(|&q| q != self.rank)
                .map(|q| (q, std::mem::take(&mut mail[self.rank * n + q])))
                .collect()
        };
        self.hub.barrier.wait();
        for (q, bytes) in mine {
            receive(q, &bytes);
        }
    }
}

impl Cluster for Member {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.hub.processes
    }
    fn all_gather(&self, mine: &[u8], receive: &mut dyn FnMut(usize, &[u8])) {
        assert!(mine.len() <= 3 * self.round_bytes, "a round too big");
        self.post(&|_| mine.to_vec(), receive);
    }
    fn all_to_all(&self, out: &[Vec<u8>], receive: &mut dyn FnMut(usize, &[u8])) {
        assert!(out.iter().all(|b| b.len() <= 3 * self.round_bytes));
        self.post(&|q| out[q].clone(), receive);
    }
    fn sum(&self, mine: u64) -> u64 {
        self.hub.sums.lock().unwrap()[self.rank] = mine;
        self.hub.barrier.wait();
        let total = self.hub.sums.lock().unwrap().iter().sum();
        self.hub.barrier.wait();
        total
    }
    fn round_bytes(&self) -> usize {
        self.round_bytes
    }
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("awale-db-shared-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Builds up to `max` seeds with `processes` simulated processes of one
/// thread each, exchanging at most `round_bytes` a message.
fn build_shared(dir: &Path, rules: &Rules, max: u8, processes: usize, round_bytes: usize) {
    let hub = Arc::new(Hub {
        processes,
        barrier: Barrier::new(processes),
        mail: Mutex::new(vec![Vec::new(); processes * processes]),
        sums: Mutex::new(vec![0; processes]),
    });
    std::thread::scope(|scope| {
        for rank in 0..processes {
            let member = Member {
                rank,
                hub: Arc::clone(&hub),
                round_bytes,
            };
            scope.spawn(move || {
                let _fail = FailOnPanic(&member.hub.barrier);
                let summaries =
                    build_on(&member, dir, rules, max, 1, &Silent, &mut |_| {}).unwrap();
                assert_eq!(summaries.len(), usize::from(max) + 1);
                if processes > 1 {
                    assert!(summaries[usize::from(max)].bytes_sent > 0);
                }
            });
        }
    });
}

fn assert_same_files(a: &Path, b: &Path, rules: &Rules, max: u8) {
    let variant = Variant::of(rules).name();
    for seeds in 0..=max {
        let name = format!("level-{seeds:02}.awdb");
        let x = std::fs::read(a.join(&variant).join(&name)).unwrap();
        let y = std::fs::read(b.join(&variant).join(&name)).unwrap();
        assert!(x == y, "{variant} level {seeds} differs");
    }
}

#[test]
fn three_processes_write_the_files_of_one_byte_for_byte() {
    for (rules, max) in [(Rules::AWALE, 10), (Rules::ABAPA, 8)] {
        let alone = tempdir("alone");
        build(&alone, &rules, max, 2).unwrap();
        // Small rounds: every exchange of the bigger levels takes several.
        let shared = tempdir("three");
        build_shared(&shared, &rules, max, 3, 16_384);
        assert_same_files(&alone, &shared, &rules, max);
        // Resumed with another number of processes: the levels kept, one
        // more built.
        build_shared(&shared, &rules, max + 1, 2, 1 << 20);
        build(&alone, &rules, max + 1, 2).unwrap();
        assert_same_files(&alone, &shared, &rules, max + 1);
        std::fs::remove_dir_all(&alone).unwrap();
        std::fs::remove_dir_all(&shared).unwrap();
    }
}
