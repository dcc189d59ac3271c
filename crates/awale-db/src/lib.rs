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
use std::fs::{File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use awale_core::oracle::{Bounds, Oracle};
use awale_core::{Game, Move, Position, Rules};

pub mod cluster;
pub mod index;
pub mod manifest;
pub mod solve;
pub mod store;

pub use cluster::{Alone, Cluster};
pub use index::{level_size, rank, unrank};
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

/// What a database knows of a position, from the side to move's view: the
/// seeds it will still capture minus the opponent's, from a fresh start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value is at least this.
    pub lower: i8,
    /// The value is at most this. Equal to `lower` when exact.
    pub upper: i8,
    /// Exact databases: plies to the next capture (or the end) under play
    /// that keeps the value, the winner hurrying and the loser delaying.
    /// `None` when the value is 0 (nothing to hurry for) or for bounds.
    pub distance: Option<u8>,
}

impl Entry {
    /// Whether the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// A legal move and what the database knows after it, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move.
    pub mv: Move,
    /// Seeds it captures.
    pub captures: u8,
    /// Bounds on the mover's value if they play it (captures included).
    pub lower: i8,
    /// See `lower`.
    pub upper: i8,
    /// Plies to the next capture after this move, counting this move, when
    /// exact and nonzero: 1 for a capture.
    pub distance: Option<u8>,
}

/// A set of levels 0..=N for one rule variant, memory-mapped.
pub struct Database {
    rules: Rules,
    variant: Variant,
    levels: Vec<LevelFile>,
}

impl Database {
    /// Opens the levels built for `rules` in the database folder `root`
    /// (level 0 upwards, as far as they go). `rules` is kept to apply the
    /// target when probing.
    ///
    /// # Errors
    ///
    /// [`DbError::Missing`] when not even level 0 is there; any error of
    /// [`store::open_level`] for a damaged file (it is never read as values).
    pub fn open(root: &Path, rules: &Rules) -> Result<Database, DbError> {
        let variant = Variant::of(rules);
        let dir = root.join(variant.name());
        let mut levels = Vec::new();
        for seeds in 0..=awale_core::TOTAL_SEEDS {
            match store::open_level(&dir, variant, seeds) {
                Ok(level) => levels.push(level),
                Err(DbError::Missing(path)) if seeds == 0 => return Err(DbError::Missing(path)),
                Err(DbError::Missing(_)) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(Database {
            rules: *rules,
            variant,
            levels,
        })
    }

    /// The rules given to [`Database::open`].
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether the values are exact (`repetition = nobody`) or bounds.
    pub fn is_exact(&self) -> bool {
        self.variant.is_exact()
    }

    /// The most seeds on the board covered.
    pub fn max_seeds(&self) -> u8 {
        (self.levels.len() - 1) as u8
    }

    /// The levels, for `awale db info`.
    pub fn levels(&self) -> &[LevelFile] {
        &self.levels
    }

    /// What is known of a board (side to move's view, its row first) with
    /// `seeds` seeds, with no target rule; `None` above the levels built.
    pub fn probe_board(&self, board: &[u8; 12], seeds: u8) -> Option<Entry> {
        let level = self.levels.get(usize::from(seeds))?;
        let r = rank(board, seeds) as usize;
        let first = level.plane(0)[r] as i8;
        let second = level.plane(1)[r];
        Some(if self.variant.is_exact() {
            Entry {
                lower: first,
                upper: first,
                distance: (second != NO_DISTANCE && first != 0).then_some(second),
            }
        } else {
            Entry {
                lower: first,
                upper: second as i8,
                distance: None,
            }
        })
    }

    /// What is known of `position` under the rules of [`Database::open`],
    /// from a fresh start; `None` when it has too many seeds or the game is
    /// already over.
    ///
    /// With a target (`abapa`: 25), the database does not see the stores:
    /// when no store can reach the target any more, its values stand; when
    /// one can, the game may end early and only the result carries over
    /// (when the target is more than half the seeds in play, reaching it
    /// wins with or without the target rule), so the bounds become those the
    /// result implies (see `docs/DATABASES.md`); otherwise `None`.
    pub fn probe(&self, position: &Position) -> Option<Entry> {
        if self.rules.target_reached(position.stores()) {
            return None;
        }
        let seeds = position.seeds_on_board();
        let raw = self.probe_board(&position.relative_holes(), seeds)?;
        let Some(target) = self.rules.target else {
            return Some(raw);
        };
        let mover = position.to_move();
        let a = i32::from(position.store(mover));
        let b = i32::from(position.store(mover.opponent()));
        let (n, t) = (i32::from(seeds), i32::from(target));
        if a + n < t && b + n < t {
            return Some(raw);
        }
        if 2 * t <= a + b + n {
            return None;
        }
        // The result from the stores' difference d and the value v: a win
        // when d + v > 0. Under the target the final margin is unknown, but
        // its sign is the same.
        let d = a - b;
        let lower = match d + i32::from(raw.lower) {
            x if x > 0 => 1 - d,
            0 => -d,
            _ => -n,
        };
        let upper = match d + i32::from(raw.upper) {
            x if x < 0 => -1 - d,
            0 => -d,
            _ => n,
        };
        Some(Entry {
            lower: lower.clamp(-n, n) as i8,
            upper: upper.clamp(-n, n) as i8,
            distance: None,
        })
    }

    /// Every legal move of `position` with what is known after it, or `None`
    /// when the position is not covered (as [`Database::probe`]) or the
    /// game is over.
    pub fn move_entries(&self, position: &Position) -> Option<Vec<MoveEntry>> {
        self.probe(position)?;
        self.move_entries_ignoring_target(position)
    }

    /// As [`Database::move_entries`], without the target rule: the seeds
    /// still to capture, for display (`awale db probe`).
    pub fn move_entries_ignoring_target(&self, position: &Position) -> Option<Vec<MoveEntry>> {
        let moves = position.legal_moves(&self.rules);
        if moves.is_empty() {
            return None;
        }
        let seeds = position.seeds_on_board();
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let child = position.play_unchecked(mv);
            let left = child.seeds_on_board();
            let e = self.probe_board(&child.relative_holes(), left)?;
            let captures = seeds - left;
            let c = captures as i8;
            let (lower, upper) = (c - e.upper, c - e.lower);
            let distance = if lower != upper || lower == 0 {
                None
            } else if captures > 0 {
                Some(1)
            } else {
                e.distance.map(|d| d.saturating_add(1))
            };
            out.push(MoveEntry {
                mv,
                captures,
                lower,
                upper,
                distance,
            });
        }
        Some(out)
    }

    /// The move to play in `position` for an exact database: one that keeps
    /// the best value and, when winning, the nearest capture (when losing,
    /// the farthest). Played from a fresh start it never repeats a position
    /// and wins the value. `None` when not covered or not exact.
    pub fn best_move(&self, position: &Position) -> Option<Move> {
        self.probe(position)?;
        self.best_move_ignoring_target(position)
    }

    /// As [`Database::best_move`], without the target rule.
    pub fn best_move_ignoring_target(&self, position: &Position) -> Option<Move> {
        if !self.is_exact() {
            return None;
        }
        let entries = self.move_entries_ignoring_target(position)?;
        let best = entries.iter().map(|e| e.lower).max()?;
        let keeping = entries.iter().filter(|e| e.lower == best);
        let chosen = if best > 0 {
            keeping.min_by_key(|e| e.distance.unwrap_or(u8::MAX))
        } else if best < 0 {
            keeping.max_by_key(|e| e.distance.unwrap_or(0))
        } else {
            keeping.max_by_key(|e| e.captures)
        }?;
        Some(chosen.mv)
    }

    /// As [`Database::best_move`], inside a game: among the moves that keep
    /// the best value, those that repeat no position of the game since the
    /// last capture come first (a repetition ends the game and would throw
    /// the value away). `None` when the game's rules are not the database's.
    pub fn best_move_in_game(&self, game: &Game) -> Option<Move> {
        let position = game.position();
        let same_rules = game.rules().same_values(&self.rules);
        if !self.is_exact() || !same_rules || game.end().is_some() {
            return None;
        }
        let entries = self.move_entries(&position)?;
        let best = entries.iter().map(|e| e.lower).max()?;
        let seen: Vec<u128> = game.since_capture().map(|p| p.repetition_key()).collect();
        let repeats = |e: &MoveEntry| {
            e.captures == 0 && seen.contains(&position.play_unchecked(e.mv).repetition_key())
        };
        let keeping = entries.iter().filter(|e| e.lower == best);
        let key = |e: &&MoveEntry| {
            let d = i32::from(e.distance.unwrap_or(u8::MAX));
            let progress = if best > 0 { -d } else { d };
            (!repeats(e), progress, e.captures)
        };
        keeping.max_by_key(key).map(|e| e.mv)
    }
}

impl Oracle for Database {
    fn probe(&self, position: &Position) -> Option<Bounds> {
        Database::probe(self, position).map(|e| Bounds {
            lower: e.lower,
            upper: e.upper,
        })
    }

    fn max_seeds(&self) -> u8 {
        Database::max_seeds(self)
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn root_move(&self, game: &Game) -> Option<Move> {
        self.best_move_in_game(game)
    }
}

/// The default database folder: `awale/db` in the user's data folder
/// (`~/.local/share/awale/db` on Linux), where `awale db build` writes.
pub fn default_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("awale").join("db"))
}

/// The database for `rules` in `dir` (or the default folder) as an engine
/// oracle, if one is built there and sound; `None` otherwise (a damaged
/// file is never used: the error is returned for the caller to report).
///
/// # Errors
///
/// A damaged or unreadable level file.
pub fn oracle_for(rules: &Rules, dir: Option<&Path>) -> Result<Option<Arc<dyn Oracle>>, DbError> {
    let Some(root) = dir.map(Path::to_path_buf).or_else(default_dir) else {
        return Ok(None);
    };
    match Database::open(&root, rules) {
        Ok(db) => Ok(Some(Arc::new(db))),
        Err(DbError::Missing(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Counts for one level: how the boards split for the side to move. As
/// written in `manifest.json` ([`manifest::Manifest`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LevelStats {
    /// Seeds on the board.
    pub seeds: u8,
    /// Boards in the level, C(seeds + 11, 11).
    pub positions: u64,
    /// Boards where the side to move has a seed (the others are never
    /// reached in play: docs/RULES.md's counts leave them out). The counts below
    /// are over these.
    pub playable: u64,
    /// Won by the side to move (value, or lower bound, above 0).
    pub won: u64,
    /// Drawn (value 0; for bounds, both bounds 0).
    pub drawn: u64,
    /// Lost (value, or upper bound, below 0).
    pub lost: u64,
    /// Bounds only: neither known won, drawn nor lost.
    pub unknown: u64,
    /// Exact only: the sum of the values.
    pub sum_values: i64,
    /// Bounds only: boards whose bounds are equal (value known).
    pub exact: u64,
    /// Exact only: the longest distance to capture, in plies (the file
    /// format holds up to 253).
    #[serde(rename = "longest_distance")]
    pub longest: u8,
}

impl LevelStats {
    /// Counts the level `seeds` from its two planes.
    pub fn count(seeds: u8, exact: bool, first: &[u8], second: &[u8]) -> LevelStats {
        let mut s = LevelStats {
            seeds,
            positions: first.len() as u64,
            ..LevelStats::default()
        };
        let mut board = [0u8; 12];
        board[11] = seeds;
        for i in 0..first.len() {
            if board[..6].iter().any(|&h| h > 0) {
                s.playable += 1;
                let lo = first[i] as i8;
                let hi = if exact { lo } else { second[i] as i8 };
                if lo > 0 {
                    s.won += 1;
                } else if hi < 0 {
                    s.lost += 1;
                } else if lo == 0 && hi == 0 {
                    s.drawn += 1;
                } else {
                    s.unknown += 1;
                }
                if lo == hi {
                    s.exact += 1;
                    s.sum_values += i64::from(lo);
                }
                if exact && second[i] != NO_DISTANCE {
                    s.longest = s.longest.max(second[i]);
                }
            }
            index::next_board(&mut board);
        }
        s
    }
}

/// What happened to one level in [`build`].
#[derive(Clone, Copy, Debug)]
pub struct LevelSummary {
    /// Counts of the level.
    pub stats: LevelStats,
    /// Whether it was built now (false: found on disk and checked).
    pub built: bool,
    /// Seconds spent building it (0 if found).
    pub seconds: f64,
    /// Passes over the level: values (or bounds), then distances.
    pub passes: (u32, u32),
    /// Size of the file in bytes.
    pub file_bytes: u64,
    /// Processes that built it (1 alone, or when found built).
    pub processes: usize,
    /// Bytes the processes sent each other while building it (0 alone).
    pub bytes_sent: u64,
}

impl LevelSummary {
    /// The summary of a level found built: its counts, no build figures.
    pub fn found(level: &LevelFile, exact: bool) -> LevelSummary {
        LevelSummary {
            stats: LevelStats::count(level.seeds(), exact, level.plane(0), level.plane(1)),
            built: false,
            seconds: 0.0,
            passes: (0, 0),
            file_bytes: level.bytes(),
            processes: 1,
            bytes_sent: 0,
        }
    }
}

/// Builds the levels 0..=`max_seeds` for `rules` in the database folder
/// `root` (in its subfolder for the rule variant), on `threads` threads of
/// this process, quietly: [`build_on`] with [`Alone`], telling no one.
///
/// # Errors
///
/// As [`build_on`].
pub fn build(
    root: &Path,
    rules: &Rules,
    max_seeds: u8,
    threads: usize,
) -> Result<Vec<LevelSummary>, DbError> {
    build_on(
        &Alone,
        root,
        rules,
        max_seeds,
        threads,
        &Silent,
        &mut |_| {},
    )
}

/// Builds the levels 0..=`max_seeds` for `rules` in the database folder
/// `root` (in its subfolder for the rule variant), by the processes of
/// `cluster` together (this one being `cluster.rank()`, [`Alone`] for a
/// single process), each with `threads` threads. Levels already there and
/// sound are kept: a killed build resumes at the level it was building.
/// `progress` hears of the whole build on process 0, and `on_level` about
/// each level when done. Process 0 records each level in the folder's
/// manifest ([`manifest::Manifest`]) as soon as it is done, so a killed
/// build keeps the record of the levels it finished.
///
/// With several processes, every process builds its share of each level's
/// boards and process 0 writes the level files, so `root` must be a folder
/// that every process sees (a shared file system): they all read the lower
/// levels from it. The files are those of a single process, byte for byte.
/// Every process calls it with the same arguments.
///
/// # Errors
///
/// [`DbError::TooManySeeds`] above 48; I/O errors; a damaged level file
/// (refused: the caller says to delete it); on the process that met the
/// problem (the others then wait in the next exchange: the caller must end
/// the whole job, e.g. with `MPI_Abort`); [`DbError::NotShared`] when a
/// process does not see a level file that process 0 has.
pub fn build_on(
    cluster: &dyn Cluster,
    root: &Path,
    rules: &Rules,
    max_seeds: u8,
    threads: usize,
    progress: &dyn Progress,
    on_level: &mut dyn FnMut(&LevelSummary),
) -> Result<Vec<LevelSummary>, DbError> {
    if max_seeds > awale_core::TOTAL_SEEDS {
        return Err(DbError::TooManySeeds(max_seeds));
    }
    let variant = Variant::of(rules);
    let dir = root.join(variant.name());
    std::fs::create_dir_all(&dir).map_err(|e| DbError::Io(dir.clone(), e))?;
    let first = cluster.rank() == 0;
    // One build at a time per folder: two would write the same files. The
    // lock goes with the process, even when it is killed. Process 0 writes
    // the files, so it holds the lock for the others.
    let lock_path = dir.join("build.lock");
    let _lock = if first {
        let lock = File::create(&lock_path).map_err(|e| DbError::Io(lock_path.clone(), e))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(DbError::Busy(dir)),
            Err(TryLockError::Error(e)) => return Err(DbError::Io(lock_path, e)),
        }
        Some(lock)
    } else {
        None
    };
    let mut manifest = manifest::Manifest::read(&dir, variant);
    let mut levels: Vec<LevelFile> = Vec::new();
    let mut summaries = Vec::new();
    for seeds in 0..=max_seeds {
        // Process 0 decides whether a level is there; the others must see
        // the same file.
        let opened = if first {
            store::open_level(&dir, variant, seeds)
        } else {
            Err(DbError::Missing(store::level_path(&dir, seeds)))
        };
        let found = match &opened {
            Ok(_) => 1,
            Err(DbError::Missing(_)) => 0,
            Err(_) => 2,
        };
        let opened = match cluster.sum(if first { found } else { 0 }) {
            1 if !first => match store::open_level(&dir, variant, seeds) {
                Err(DbError::Missing(path)) => Err(DbError::NotShared(path)),
                other => other,
            },
            _ => opened,
        };
        let summary = match opened {
            Ok(level) => {
                let summary = LevelSummary::found(&level, variant.is_exact());
                levels.push(level);
                summary
            }
            Err(DbError::Missing(_)) => {
                let start = Instant::now();
                let lower: Vec<LowerLevel<'_>> = levels
                    .iter()
                    .map(|l| {
                        if variant.is_exact() {
                            LowerLevel {
                                lower: l.plane(0),
                                upper: l.plane(0),
                            }
                        } else {
                            LowerLevel {
                                lower: l.plane(0),
                                upper: l.plane(1),
                            }
                        }
                    })
                    .collect();
                let share = solve::Share::new(cluster, seeds, threads, progress);
                let (stats, passes) = build_level(&dir, variant, seeds, &lower, &share)?;
                let bytes_sent = cluster.sum(share.bytes_sent());
                // Process 0 wrote the file: the others open it when it has.
                cluster.sum(0);
                let seconds = start.elapsed().as_secs_f64();
                let level = match store::open_level(&dir, variant, seeds) {
                    Err(DbError::Missing(path)) if !first => Err(DbError::NotShared(path)),
                    other => other,
                }?;
                let summary = LevelSummary {
                    stats,
                    built: true,
                    seconds,
                    passes,
                    file_bytes: level.bytes(),
                    processes: cluster.size(),
                    bytes_sent,
                };
                levels.push(level);
                summary
            }
            Err(e) => return Err(e),
        };
        tracing::info!(
            seeds,
            built = summary.built,
            positions = summary.stats.positions,
            seconds = summary.seconds,
            passes = ?summary.passes,
            "level done"
        );
        on_level(&summary);
        if first {
            manifest.record(&summary);
            manifest
                .write(&dir)
                .map_err(|e| DbError::Io(e.path, e.error))?;
        }
        summaries.push(summary);
    }
    Ok(summaries)
}

/// Solves this process's share of level `seeds` of `variant` from the
/// `lower` levels (every process ends with the whole level) and, on
/// process 0, writes its file in `dir`: its counts and passes. For exact
/// values, the values are written to disk and mapped while the distances
/// are computed, so that only one plane is in memory at a time.
fn build_level(
    dir: &Path,
    variant: Variant,
    seeds: u8,
    lower: &[LowerLevel<'_>],
    share: &solve::Share<'_>,
) -> Result<(LevelStats, (u32, u32)), DbError> {
    let rules = variant.rules();
    let writes = share.writes_files();
    if variant.is_exact() {
        let (values, value_passes) = solve::solve_values(&rules, seeds, lower, share);
        // Several processes each spill the whole level: on the machine's
        // own disk (the temporary folder), not the shared folder.
        let scratch = if share.is_shared() {
            std::env::temp_dir()
        } else {
            dir.to_path_buf()
        };
        let spill = store::Spill::write(&scratch, &values)?;
        drop(values);
        let values = spill;
        let (distance, distance_passes) =
            solve::solve_distances(&rules, seeds, lower, values.bytes(), share)?;
        if writes {
            store::write_level(dir, variant, seeds, &[values.bytes(), &distance])?;
        }
        let stats = LevelStats::count(seeds, true, values.bytes(), &distance);
        Ok((stats, (value_passes, distance_passes)))
    } else {
        let solved = solve::solve_bounds(&rules, seeds, lower, share);
        if writes {
            store::write_level(dir, variant, seeds, &[&solved.lower, &solved.upper])?;
        }
        let stats = LevelStats::count(seeds, false, &solved.lower, &solved.upper);
        Ok((stats, solved.passes))
    }
}
