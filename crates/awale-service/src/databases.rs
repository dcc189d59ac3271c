//! The endgame databases a server builds for itself: at start, in the
//! background, the levels of the `awale` rules it lacks, up to a target
//! ([`DEFAULT_TARGET`] seeds), on threads of the lowest CPU priority so
//! that games are not slowed. Each level is used as soon as it is written
//! (the computer's oracle, the Perfect level, hints, reviews, puzzles); the
//! build resumes after a stop at the level it was building, since a level
//! file exists only once complete (`awale_db::store::write_level`: written
//! aside, synced, then renamed). What is ready is told in [`Readiness`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use awale_core::Rules;
use awale_db::{Database, DbError};

use crate::computer::{lower_this_threads_priority_by, Computer};
use crate::study::{Readiness, Study};

/// The level a server builds up to by default: every board of at most 20
/// seeds (225.8 million boards, 452 MB of files, about 106 MB of memory
/// while the last level is built). About five minutes on one thread of a
/// two-core machine (`awale serve` leaves a core to the players:
/// docs/BENCHMARKS.md, "Moves during the first start's database build");
/// puzzles come with level 5, in the first second.
pub const DEFAULT_TARGET: u8 = 20;

/// How much nicer than the server the build's threads are: the most there
/// is (19), so a game's move always comes first.
const BUILD_NICENESS: i32 = 19;

/// How long a server waits before looking again when another process
/// (`awale db build`, another server) is building in the same folder.
const BUSY_RETRY: Duration = Duration::from_secs(20);

/// Starts building, in the background, the levels of the `awale` rules
/// missing in the database folder `root` up to `target` seeds, on
/// `threads` threads at the lowest priority. After each level the
/// database is opened again and handed to `study` (puzzles, from level
/// [`awale_puzzles::MIN_SEEDS`]) and `computer` (its oracles found again);
/// `study`'s readiness says how far it is.
///
/// # Errors
///
/// When the thread cannot be started.
pub fn build_in_background(
    root: PathBuf,
    target: u8,
    threads: usize,
    study: Arc<Study>,
    computer: Arc<Computer>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let target = target.min(awale_core::TOTAL_SEEDS);
    study.set_readiness(Some(Readiness {
        ready: None,
        target,
        building: true,
        stopped: None,
    }));
    std::thread::Builder::new()
        .name("db-build".into())
        .spawn(move || {
            // The solver's threads, started from this one, inherit it.
            lower_this_threads_priority_by(BUILD_NICENESS);
            let builder = Builder {
                root,
                target,
                study,
                computer,
            };
            builder.run(threads.max(1));
        })
}

struct Builder {
    root: PathBuf,
    target: u8,
    study: Arc<Study>,
    computer: Arc<Computer>,
}

impl Builder {
    fn run(&self, threads: usize) {
        // What an earlier run (or `awale db build`) left is used at once.
        self.use_levels(true);
        tracing::info!(
            target = self.target,
            folder = %self.root.display(),
            "building the endgame databases in the background (perfect play and puzzles)"
        );
        loop {
            let result = awale_db::build_on(
                &awale_db::Alone,
                &self.root,
                &Rules::AWALE,
                self.target,
                threads,
                &awale_db::Silent,
                &mut |summary| {
                    if summary.built {
                        self.use_levels(summary.stats.seeds < self.target);
                    }
                },
            );
            match result {
                Ok(_) => {
                    self.use_levels(false);
                    let ready = self.study.readiness().and_then(|r| r.ready);
                    tracing::info!(
                        ready,
                        "endgame databases ready: perfect play and puzzles up to {} seeds",
                        ready.unwrap_or(0)
                    );
                    return;
                }
                Err(DbError::Busy(dir)) => {
                    tracing::info!(
                        folder = %dir.display(),
                        "another process is building the endgame databases here; \
                         their levels are used as they come"
                    );
                    std::thread::sleep(BUSY_RETRY);
                    self.use_levels(true);
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the endgame databases' build stopped");
                    self.use_levels(false);
                    self.study
                        .update_readiness(|r| r.stopped = Some(e.to_string()));
                    return;
                }
            }
        }
    }

    /// Opens the levels built so far and puts them in use; `building`:
    /// whether more are coming.
    fn use_levels(&self, building: bool) {
        let db = match Database::open(&self.root, &Rules::AWALE) {
            Ok(db) => Some(db),
            Err(DbError::Missing(_)) => None,
            Err(e) => {
                // The build meets the same file and stops, saying so.
                tracing::warn!(error = %e, "endgame database not used");
                None
            }
        };
        let ready = db.as_ref().map(Database::max_seeds);
        if let Some(db) = db {
            if db.max_seeds() >= awale_puzzles::MIN_SEEDS {
                self.study.set_database(Some(Arc::new(db)));
            }
        }
        self.computer.forget_oracles();
        let target = self.target.max(ready.unwrap_or(0));
        let before = self.study.readiness().and_then(|r| r.ready);
        self.study.update_readiness(|r| {
            r.ready = ready;
            r.target = target;
            r.building = building;
        });
        if ready != before {
            if let Some(level) = ready {
                tracing::info!(
                    level,
                    target,
                    "perfect play and puzzles: levels up to {level} of {target} ready"
                );
            }
        }
    }
}
