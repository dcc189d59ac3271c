//! `manifest.json`, written beside the level files of a variant: per level,
//! its counts (as `awale db info` shows them) and how its build went (time,
//! passes, size). For people and scripts; the level files do not need it.

use std::io;
use std::path::{Path, PathBuf};

use awale_core::Variant;
use serde::{Deserialize, Serialize};

use crate::{LevelStats, LevelSummary};

/// The file name of a manifest in a variant's folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// What a variant's folder holds, level by level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The level files' format version.
    #[serde(default)]
    pub format_version: u32,
    /// The variant's name (`forbidden-nobody`, `no_capture-own_row`).
    #[serde(default)]
    pub rules: String,
    /// `exact` (values) or `bounds`.
    #[serde(default)]
    pub values: String,
    /// The levels, by seeds on the board.
    #[serde(default)]
    pub levels: Vec<ManifestLevel>,
}

/// One level of a [`Manifest`]: its counts, their shares, and how its
/// build went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManifestLevel {
    /// The counts.
    #[serde(flatten)]
    pub stats: LevelStats,
    /// Won boards over the playable ones.
    pub won_share: f64,
    /// Drawn boards over the playable ones.
    pub drawn_share: f64,
    /// Lost boards over the playable ones.
    pub lost_share: f64,
    /// How its build went, when known (not for a level found built by an
    /// older program).
    #[serde(flatten)]
    pub build: Option<BuildFigures>,
    /// Size of its file in bytes.
    #[serde(default)]
    pub file_bytes: u64,
}

/// How the build of a level went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BuildFigures {
    /// Seconds it took.
    pub seconds: f64,
    /// Boards per second.
    pub positions_per_second: f64,
    /// Passes over the values (or bounds).
    pub passes_values: u32,
    /// Passes over the distances.
    pub passes_distances: u32,
    /// Processes that built it together (`awale db build --mpi`), when
    /// more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<u32>,
    /// Bytes those processes sent each other while building it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_sent: Option<u64>,
}

/// A share of `whole`, 0 when it is empty.
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

impl ManifestLevel {
    /// The counts of `stats`, with nothing known of a build.
    pub fn of_stats(stats: &LevelStats) -> ManifestLevel {
        ManifestLevel {
            stats: *stats,
            won_share: share(stats.won, stats.playable),
            drawn_share: share(stats.drawn, stats.playable),
            lost_share: share(stats.lost, stats.playable),
            ..ManifestLevel::default()
        }
    }
}

/// Why a manifest could not be written.
#[derive(Debug)]
pub struct ManifestError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub error: io::Error,
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}", self.path.display())
    }
}

impl std::error::Error for ManifestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl Manifest {
    /// An empty manifest for `variant`.
    pub fn new(variant: Variant) -> Manifest {
        Manifest {
            format_version: crate::store::FORMAT_VERSION,
            rules: variant.name(),
            values: if variant.is_exact() {
                "exact"
            } else {
                "bounds"
            }
            .to_string(),
            levels: Vec::new(),
        }
    }

    /// The manifest in the variant folder `dir`, or an empty one for
    /// `variant` when there is none or it cannot be read (it is only a
    /// record: the level files are checked on their own).
    pub fn read(dir: &Path, variant: Variant) -> Manifest {
        let read = std::fs::read_to_string(dir.join(MANIFEST_FILE))
            .ok()
            .and_then(|text| serde_json::from_str::<Manifest>(&text).ok());
        let mut manifest = read.unwrap_or_default();
        let fresh = Manifest::new(variant);
        manifest.format_version = fresh.format_version;
        manifest.rules = fresh.rules;
        manifest.values = fresh.values;
        manifest
    }

    /// The level of `seeds`, if recorded.
    pub fn level(&self, seeds: u8) -> Option<&ManifestLevel> {
        self.levels.iter().find(|l| l.stats.seeds == seeds)
    }

    /// Records a level: its counts, and its build's figures when it was
    /// built now (those of an earlier build are kept for a level found
    /// built).
    pub fn record(&mut self, s: &LevelSummary) {
        let mut entry = ManifestLevel::of_stats(&s.stats);
        entry.build = if s.built {
            Some(BuildFigures {
                seconds: s.seconds,
                positions_per_second: s.stats.positions as f64 / s.seconds.max(1e-9),
                passes_values: s.passes.0,
                passes_distances: s.passes.1,
                processes: (s.processes > 1).then_some(s.processes as u32),
                bytes_sent: (s.processes > 1).then_some(s.bytes_sent),
            })
        } else {
            self.level(s.stats.seeds).and_then(|old| old.build)
        };
        entry.file_bytes = s.file_bytes;
        self.levels.retain(|l| l.stats.seeds != s.stats.seeds);
        self.levels.push(entry);
        self.levels.sort_by_key(|l| l.stats.seeds);
    }

    /// Writes the manifest into the variant folder `dir`, whole or not at
    /// all (through a temporary file renamed over the old one).
    ///
    /// # Errors
    ///
    /// [`ManifestError`] when the file cannot be written.
    pub fn write(&self, dir: &Path) -> Result<(), ManifestError> {
        let path = dir.join(MANIFEST_FILE);
        let tmp = dir.join(format!("{MANIFEST_FILE}.tmp"));
        let fail = |path: &Path, error: io::Error| ManifestError {
            path: path.to_path_buf(),
            error,
        };
        let text = serde_json::to_string_pretty(self).map_err(|e| fail(&path, e.into()))?;
        std::fs::write(&tmp, text + "\n").map_err(|e| fail(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| fail(&path, e))
    }
}

#[cfg(test)]
mod tests {
    use awale_core::Rules;

    use super::*;

    fn summary(seeds: u8, built: bool) -> LevelSummary {
        LevelSummary {
            stats: LevelStats {
                seeds,
                positions: 12,
                playable: 10,
                won: 5,
                ..LevelStats::default()
            },
            built,
            seconds: 2.0,
            passes: (3, 4),
            file_bytes: 88,
            processes: 1,
            bytes_sent: 0,
        }
    }

    #[test]
    fn a_written_manifest_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let variant = Rules::AWALE.variant();
        let mut m = Manifest::new(variant);
        m.record(&summary(1, true));
        m.record(&summary(0, false));
        m.write(dir.path()).unwrap();
        let read = Manifest::read(dir.path(), variant);
        assert_eq!(read, m);
        assert_eq!(
            read.levels
                .iter()
                .map(|l| l.stats.seeds)
                .collect::<Vec<_>>(),
            [0, 1]
        );
        assert_eq!(read.level(1).unwrap().won_share, 0.5);
        assert_eq!(read.level(0).unwrap().build, None);
        assert_eq!(read.rules, "forbidden-nobody");
        assert_eq!(read.values, "exact");
    }

    #[test]
    fn a_level_found_built_keeps_its_build_figures() {
        let mut m = Manifest::new(Rules::ABAPA.variant());
        m.record(&summary(3, true));
        m.record(&summary(3, false));
        let build = m.level(3).unwrap().build.unwrap();
        assert_eq!(build.seconds, 2.0);
        assert_eq!(build.passes_distances, 4);
        assert_eq!(m.levels.len(), 1);
    }

    #[test]
    fn a_missing_or_broken_manifest_reads_as_empty() {
        let dir = tempfile::tempdir().unwrap();
        let variant = Rules::AWALE.variant();
        assert!(Manifest::read(dir.path(), variant).levels.is_empty());
        std::fs::write(dir.path().join(MANIFEST_FILE), "{ not json").unwrap();
        let m = Manifest::read(dir.path(), variant);
        assert!(m.levels.is_empty());
        assert_eq!(m.rules, "forbidden-nobody");
    }
}
