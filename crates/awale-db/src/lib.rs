//! Endgame databases for Awalé, built by retrograde analysis: for every board
//! with at most N seeds, the seeds the side to move will still capture minus
//! those the opponent will, under perfect play from a fresh start.
//!
//! Captures only ever lower the seeds on the board, so the levels are built
//! in order (0, 1, 2, ... seeds), each from those below it and itself
//! ([`solve`]). Each level is one file, memory-mapped when probing
//! ([`store`]). Under `repetition = nobody` (the `awale` preset) values are
//! exact; under `own_row` (`abapa`) only bounds are known. See
//! `docs/DATABASES.md` for the semantics and the proofs.
//!
//! ```no_run
//! use awale_core::{Position, Rules};
//! use awale_db::{build, Database};
//!
//! let dir = std::path::Path::new("/tmp/awale-db");
//! build(dir, &Rules::AWALE, 8, 2).unwrap();
//! let db = Database::open(dir, &Rules::AWALE).unwrap();
//! let p: Position = "0-0-0-0-1-2-1-0-0-0-0-0-20-24-S".parse().unwrap();
//! let entry = db.probe(&p).unwrap();
//! assert!(entry.is_exact());
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::io;
use std::path::PathBuf;

mod build;
pub mod cluster;
pub mod index;
pub mod manifest;
mod probe;
pub mod solve;
pub mod store;

pub use build::{build, build_on, LevelStats, LevelSummary};
pub use cluster::{Alone, Cluster};
pub use index::{level_size, rank, unrank};
pub use probe::{default_dir, oracle_for, Database, Entry, MoveEntry};
pub use solve::check::{check_level, LevelCheck};
pub use solve::{LowerLevel, Phase, Progress, Silent, NO_DISTANCE};
pub use store::{LevelFile, Variant};

/// What can go wrong with a database.
#[derive(Debug)]
pub enum DbError {
    /// A level file that should be there is not.
    Missing(PathBuf),
    /// A file could not be read or written.
    Io(PathBuf, io::Error),
    /// A file is not a valid level file for these rules and this level.
    Damaged(PathBuf, String),
    /// More seeds than a game has, or than the format can hold.
    TooManySeeds(u8),
    /// A distance to capture at this level is longer than a level file can
    /// hold (253 plies).
    DistanceTooLong(u8),
    /// Another build is writing to this folder.
    Busy(PathBuf),
    /// A level file that process 0 of a build on several processes wrote
    /// (or found) is not there for another process.
    NotShared(PathBuf),
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Missing(p) => write!(f, "{}: no such level file", p.display()),
            DbError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            DbError::Damaged(p, why) => write!(
                f,
                "{}: refused: {why} (delete it and run `awale db build` again)",
                p.display()
            ),
            DbError::TooManySeeds(n) => write!(f, "{n} seeds: a database level holds at most 48"),
            DbError::DistanceTooLong(n) => write!(
                f,
                "level {n}: a distance to capture is longer than 253 plies, more than the \
                 file format holds (the format needs wider distances)"
            ),
            DbError::Busy(p) => write!(
                f,
                "{}: another `awale db build` is writing here; wait for it to finish",
                p.display()
            ),
            DbError::NotShared(p) => write!(
                f,
                "{}: process 0 has this level file and this process does not see it: \
                 every process must see the same database folder (a shared file system)",
                p.display()
            ),
        }
    }
}

// The message of an I/O error is part of the display, so it is not also
// given as the source (it would be printed twice).
impl std::error::Error for DbError {}
