//! The games file's schema: the checks made at start (a sound, writable
//! SQLite file of this program, or a new one), the version kept in the
//! file, and the migrations from older versions (`v1.sql`, `v2.sql`,
//! `v3.sql`, `v6.sql`).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension};

use super::StoreError;

/// The program's mark in the file header (`PRAGMA application_id`):
/// "Awal".
const APPLICATION_ID: i32 = 0x4177_616C;
/// The schema version this program writes.
const SCHEMA_VERSION: i32 = 6;

/// Version 1 (before the schema was versioned), where new files start.
const SCHEMA_V1: &str = include_str!("v1.sql");

/// Version 2: seats and online play, ends the rules do not know, stored
/// reviews, chat, players, the server's heartbeat, the move count kept
/// with the game, and the indexes the lists need.
const MIGRATE_V2: &str = include_str!("v2.sql");

/// Version 3: the keys of the games uploaded after being played offline.
const MIGRATE_V3: &str = include_str!("v3.sql");

/// Version 6: games' public ids and private invitations' keys. (Versions 4
/// and 5 are the accounts' and the ratings', made beside it.)
const MIGRATE_V6: &str = include_str!("v6.sql");

/// The number of levels (`awale_engine::Level::ALL`) whose numbers the
/// games are stored with, kept in `meta` as `levels`: files written before
/// the mark, with twelve levels, stored Perfect as 12; it is 16 since
/// levels 12 to 15 came between Grandmaster and Perfect.
const LEVELS: i64 = 16;

/// The tables and columns of version 1 (before the schema was versioned),
/// to recognise such a file.
const V1_GAMES_COLUMNS: &[&str] = &[
    "id",
    "created_ms",
    "updated_ms",
    "rules",
    "start",
    "mode",
    "human",
    "level",
    "seed",
    "clock_initial_ms",
    "clock_increment_ms",
    "south_ms",
    "north_ms",
    "turn_started_ms",
    "resigned",
    "flagged",
    "redo",
    "result",
    "reason",
];

/// Checks the file, migrates it, and prepares the writer's connection.
pub(super) fn setup(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let shown = path.display();
    let not_sqlite = |e: rusqlite::Error| {
        if matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::NotADatabase)
        ) {
            StoreError::Refused(format!(
                "{shown} is not a games file (not even an SQLite database): give another file with --data"
            ))
        } else {
            StoreError::Refused(format!("cannot read the games file {shown}: {e}"))
        }
    };
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let check: String = conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(not_sqlite)?;
    if check != "ok" {
        return Err(StoreError::Refused(format!(
            "the games file {shown} is damaged (SQLite's check says: {check}). Restore it from a \
             backup, or move it away to start with an empty one; `sqlite3 {shown} .recover` may \
             save the games it still holds"
        )));
    }
    if conn.is_readonly("main")? {
        return Err(read_only(path));
    }
    let app: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let tables = table_names(conn)?;
    let from = if app == APPLICATION_ID {
        if version > SCHEMA_VERSION {
            return Err(StoreError::Refused(format!(
                "the games file {shown} was written by a newer version of awale (schema \
                 {version}, this one knows up to {SCHEMA_VERSION}): update awale"
            )));
        }
        version
    } else if app == 0 && tables.is_empty() {
        0
    } else if app == 0 && is_v1(conn, &tables)? {
        1
    } else {
        return Err(StoreError::Refused(format!(
            "{shown} is an SQLite database of another program (tables: {}): awale does not \
             write into it. Give another file with --data",
            tables.join(", ")
        )));
    };
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| writable(path, e))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Checkpoints run on their own thread (see `checkpoint_loop`).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // Every open writes (the migration or the heartbeat): a file that
    // cannot be written is refused now, not at the first move.
    let migrate = || -> Result<(), rusqlite::Error> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        if from < 1 {
            conn.execute_batch(SCHEMA_V1)?;
        }
        if from < 2 {
            conn.execute_batch(MIGRATE_V2)?;
        }
        if from < 3 {
            conn.execute_batch(MIGRATE_V3)?;
        }
        if from < 6 {
            conn.execute_batch(MIGRATE_V6)?;
        }
        // Levels renumbered apart from the schema (a file of any version
        // may hold games of the twelve levels): once, marked in `meta`.
        let levels: Option<i64> = conn
            .query_row("SELECT value FROM meta WHERE key = 'levels'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if levels.is_none() {
            conn.execute(
                "UPDATE games SET level = ?1 WHERE mode = 'computer' AND level = 12",
                [LEVELS],
            )?;
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('levels', ?1)",
                [LEVELS],
            )?;
        }
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('opened_ms', ?1)
             ON CONFLICT(key) DO UPDATE SET value = ?1",
            [awale_model::game::now_ms()],
        )?;
        conn.execute_batch("COMMIT")
    };
    if let Err(e) = migrate() {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(writable(path, e));
    }
    Ok(())
}

fn read_only(path: &Path) -> StoreError {
    StoreError::Refused(format!(
        "the games file {} cannot be written (read-only file or folder): make it writable, or \
         give another file with --data",
        path.display()
    ))
}

fn writable(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) | Some(rusqlite::ErrorCode::CannotOpen) => {
            read_only(path)
        }
        _ => StoreError::Refused(format!(
            "cannot prepare the games file {}: {e}",
            path.display()
        )),
    }
}

fn table_names(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name",
    )?;
    let names = stmt.query_map([], |r| r.get(0))?;
    Ok(names.collect::<Result<Vec<String>, _>>()?)
}

fn columns(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |r| r.get(0))?;
    Ok(names.collect::<Result<Vec<String>, _>>()?)
}

fn is_v1(conn: &Connection, tables: &[String]) -> Result<bool, StoreError> {
    if tables != ["games", "moves"] {
        return Ok(false);
    }
    let games = columns(conn, "games")?;
    let moves = columns(conn, "moves")?;
    Ok(games == V1_GAMES_COLUMNS && moves == ["game_id", "ply", "letter", "captured"])
}
