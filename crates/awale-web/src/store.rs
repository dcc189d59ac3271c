//! Stored games: one SQLite file. A game is a row of `games` (who plays,
//! rules, start, clock, resignation) and its moves in `moves`. Every change
//! is written in one transaction before the API answers, so a crash or a
//! restart loses nothing, and a failed write leaves the stored game as it
//! was.

use std::fmt;
use std::path::Path;

use awale_core::{Game, Move, Position, Rules, Side};
use rusqlite::{params, Connection, OptionalExtension};

use crate::game::{Clock, Mode, WebGame};

/// A storage failure, or a stored game that no longer replays.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// A stored game cannot be rebuilt (the file was edited by hand?).
    Corrupt {
        /// The game's id.
        id: i64,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "game store: {e}"),
            StoreError::Corrupt { id, message } => write!(f, "stored game {id}: {message}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

/// One line of the list of games.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The game's id.
    pub id: i64,
    /// When it was created (milliseconds since 1970).
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
    /// `computer` or `humans`.
    pub mode: String,
    /// The person's side against the computer (`S` or `N`).
    pub human: Option<String>,
    /// The computer's level.
    pub level: Option<u8>,
    /// The rules, as `awale,target=20`.
    pub rules: String,
    /// Moves played.
    pub plies: i64,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on.
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
}

/// The game store.
pub struct Store {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    mode TEXT NOT NULL,
    human TEXT,
    level INTEGER,
    seed INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    south_ms INTEGER,
    north_ms INTEGER,
    turn_started_ms INTEGER,
    resigned TEXT,
    flagged TEXT,
    redo TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    letter TEXT NOT NULL,
    captured INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
";

fn side_to_text(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

fn side_from_text(text: &str) -> Option<Side> {
    match text {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        _ => None,
    }
}

impl Store {
    /// Opens (or creates) the store at `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or is not a game store.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::setup(Connection::open(path)?)
    }

    /// A store in memory, for tests.
    ///
    /// # Errors
    ///
    /// When SQLite cannot start.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store, StoreError> {
        // WAL with synchronous=FULL: a committed move survives a crash.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn })
    }

    /// Stores a new game and sets its id.
    ///
    /// # Errors
    ///
    /// When the write fails; nothing is stored then.
    pub fn create(&mut self, game: &mut WebGame) -> Result<(), StoreError> {
        self.create_all(std::slice::from_mut(game))
    }

    /// Stores new games, all or none, and sets their ids.
    ///
    /// # Errors
    ///
    /// When a write fails; nothing is stored then.
    pub fn create_all(&mut self, games: &mut [WebGame]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for game in games.iter_mut() {
            let (mode, human, level) = mode_columns(game.mode);
            tx.execute(
                "INSERT INTO games (created_ms, updated_ms, rules, start, mode, human, level, seed)
                 VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    game.created_ms,
                    game.game.rules().to_string(),
                    game.game.start().to_string(),
                    mode,
                    human,
                    level,
                    game.seed as i64,
                ],
            )?;
            game.id = tx.last_insert_rowid();
            write_state(&tx, game, 0)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Writes `game` over its stored version: the moves from ply `from` on
    /// are replaced by the game's, and its state (clock, redo list, end) is
    /// updated, all in one transaction.
    ///
    /// # Errors
    ///
    /// When the write fails; the stored game is then unchanged.
    pub fn save(&mut self, game: &WebGame, from: usize) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        write_state(&tx, game, from)?;
        tx.commit()?;
        Ok(())
    }

    /// Loads a game, or None when there is no game with this id.
    ///
    /// # Errors
    ///
    /// When reading fails or the stored moves do not replay.
    pub fn load(&self, id: i64) -> Result<Option<WebGame>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT created_ms, rules, start, mode, human, level, seed, clock_initial_ms,
                        clock_increment_ms, south_ms, north_ms, turn_started_ms, resigned,
                        flagged, redo
                 FROM games WHERE id = ?1",
                [id],
                |r| {
                    Ok(Row {
                        created_ms: r.get(0)?,
                        rules: r.get(1)?,
                        start: r.get(2)?,
                        mode: r.get(3)?,
                        human: r.get(4)?,
                        level: r.get(5)?,
                        seed: r.get(6)?,
                        clock: match (r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?, r.get(11)?) {
                            (Some(initial_ms), Some(increment_ms), Some(s), Some(n), Some(t)) => {
                                Some(Clock {
                                    initial_ms,
                                    increment_ms,
                                    remaining_ms: [s, n],
                                    turn_started_ms: t,
                                })
                            }
                            _ => None,
                        },
                        resigned: r.get(12)?,
                        flagged: r.get(13)?,
                        redo: r.get(14)?,
                    })
                },
            )
            .optional()?;
        let Some(row) = row else { return Ok(None) };
        let corrupt = |message: String| StoreError::Corrupt { id, message };
        let rules: Rules = row.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
        let start: Position = row.start.parse().map_err(|e| corrupt(format!("{e}")))?;
        let mode = match (row.mode.as_str(), row.human.as_deref(), row.level) {
            ("humans", _, _) => Mode::Humans,
            ("computer", Some(h), Some(level)) => Mode::Computer {
                human: side_from_text(h).ok_or_else(|| corrupt(format!("side `{h}`")))?,
                level,
            },
            (m, _, _) => return Err(corrupt(format!("mode `{m}`"))),
        };
        let mut game = Game::from_position(rules, start);
        let mut stmt = self.conn.prepare_cached(
            "SELECT ply, letter, captured FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        let moves = stmt.query_map([id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for (expected, m) in moves.enumerate() {
            let (ply, letter, captured) = m?;
            let mv = letter
                .chars()
                .next()
                .and_then(Move::from_letter)
                .ok_or_else(|| corrupt(format!("move `{letter}` at ply {ply}")))?;
            if ply != expected as i64 {
                return Err(corrupt(format!("ply {ply} where {expected} was expected")));
            }
            let got = game
                .play(mv)
                .map_err(|e| corrupt(format!("ply {ply} ({mv}): {e}")))?;
            if i64::from(got) != captured {
                return Err(corrupt(format!(
                    "ply {ply} ({mv}) captures {got}, stored {captured}"
                )));
            }
        }
        if let Some(side) = row.resigned.as_deref() {
            let side = side_from_text(side).ok_or_else(|| corrupt(format!("side `{side}`")))?;
            game.resign(side)
                .map_err(|e| corrupt(format!("resignation: {e}")))?;
        }
        let flagged = match row.flagged.as_deref() {
            None => None,
            Some(s) => Some(side_from_text(s).ok_or_else(|| corrupt(format!("side `{s}`")))?),
        };
        let redo = row
            .redo
            .chars()
            .map(|c| Move::from_letter(c).ok_or_else(|| corrupt(format!("redo move `{c}`"))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(WebGame {
            id,
            created_ms: row.created_ms,
            mode,
            seed: row.seed as u64,
            clock: row.clock,
            flagged,
            redo,
            game,
        }))
    }

    /// The stored games, newest first.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub fn list(&self, limit: usize) -> Result<Vec<Summary>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT g.id, g.created_ms, g.updated_ms, g.mode, g.human, g.level, g.rules,
                    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.result, g.reason
             FROM games g ORDER BY g.updated_ms DESC, g.id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok(Summary {
                id: r.get(0)?,
                created_ms: r.get(1)?,
                updated_ms: r.get(2)?,
                mode: r.get(3)?,
                human: r.get(4)?,
                level: r.get(5)?,
                rules: r.get(6)?,
                plies: r.get(7)?,
                result: r.get(8)?,
                reason: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The id of the game changed last among those still going on.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub fn current(&self) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM games WHERE result = '*' ORDER BY updated_ms DESC, id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }
}

struct Row {
    created_ms: i64,
    rules: String,
    start: String,
    mode: String,
    human: Option<String>,
    level: Option<u8>,
    seed: i64,
    clock: Option<Clock>,
    resigned: Option<String>,
    flagged: Option<String>,
    redo: String,
}

fn mode_columns(mode: Mode) -> (&'static str, Option<&'static str>, Option<u8>) {
    match mode {
        Mode::Computer { human, level } => ("computer", Some(side_to_text(human)), Some(level)),
        Mode::Humans => ("humans", None, None),
    }
}

fn write_state(
    tx: &rusqlite::Transaction<'_>,
    game: &WebGame,
    from: usize,
) -> Result<(), StoreError> {
    tx.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![game.id, from as i64],
    )?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO moves (game_id, ply, letter, captured) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (ply, p) in game.game.plies().iter().enumerate().skip(from) {
            insert.execute(params![
                game.id,
                ply as i64,
                p.mv.letter().to_string(),
                i64::from(p.captured)
            ])?;
        }
    }
    let end = game.end();
    let result = match end {
        None => "*",
        Some(e) => match e.winner {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "1/2-1/2",
        },
    };
    let redo: String = game.redo.iter().map(|m| m.letter()).collect();
    let (level, human) = match game.mode {
        Mode::Computer { human, level } => (Some(level), Some(side_to_text(human))),
        Mode::Humans => (None, None),
    };
    let c = game.clock;
    tx.execute(
        "UPDATE games SET updated_ms = ?2, clock_initial_ms = ?3, clock_increment_ms = ?4,
            south_ms = ?5, north_ms = ?6, turn_started_ms = ?7, resigned = ?8, flagged = ?9,
            redo = ?10, result = ?11, reason = ?12, level = ?13, human = ?14
         WHERE id = ?1",
        params![
            game.id,
            crate::game::now_ms(),
            c.map(|c| c.initial_ms),
            c.map(|c| c.increment_ms),
            c.map(|c| c.remaining_ms[0]),
            c.map(|c| c.remaining_ms[1]),
            c.map(|c| c.turn_started_ms),
            game.game.resigned().map(side_to_text),
            game.flagged.map(side_to_text),
            redo,
            result,
            end.map(|e| e.reason),
            level,
            human,
        ],
    )?;
    Ok(())
}
