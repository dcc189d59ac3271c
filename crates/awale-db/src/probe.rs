//! Probing: a database opened from its folder, the value of a position and
//! of each of its moves, and the [`Oracle`] the search asks.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use awale_core::oracle::{Bounds, Oracle};
use awale_core::{Game, Move, Position, Rules};

use crate::store::{self, LevelFile, Variant};
use crate::{rank, DbError, NO_DISTANCE};

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
    pub(crate) variant: Variant,
    pub(crate) levels: Vec<LevelFile>,
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
