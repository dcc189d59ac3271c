//! Building: the levels of a variant one after the other, each solved from
//! those below it ([`crate::solve`]), written, checked and recorded in the
//! folder's manifest.

use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::Instant;

use awale_core::Rules;

use crate::cluster::{Alone, Cluster};
use crate::solve::{self, LowerLevel, Progress, Silent};
use crate::store::{self, LevelFile, Variant};
use crate::{index, manifest, DbError, NO_DISTANCE};

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
