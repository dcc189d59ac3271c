//! The games file's schema: the checks made at start (a sound, writable
//! SQLite file of this program, or a new one), and the migrations that
//! take a file of any earlier version to this one, run by
//! `rusqlite_migration` (the version is the file's `user_version`).

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

use crate::error::StoreError;
use crate::schema::{LEVELS, LEVELS_MARKED, PERFECT_MOVES_UP, UNMARKED_LEVELS};

/// The program's mark in the file header (`PRAGMA application_id`):
/// "Awal".
const APPLICATION_ID: i32 = 0x4177_616C;

/// The migrations, in order: the n-th takes a file to schema version n,
/// and the last one's number is the version this program writes. A new
/// version is one more line here, with its SQL file beside this one (which
/// the PostgreSQL store runs too, in its types, where the dialects agree);
/// what a migration once released builds never changes, since files out
/// there have run it.
pub(crate) fn migrations() -> Vec<M<'static>> {
    vec![
        // Version 1 (awale 0.1, before the schema was versioned), where a
        // new file starts. A file of that version (recognised by its
        // tables, unmarked) runs it too, a no-op (`IF NOT EXISTS`); both
        // get the program's mark with it.
        M::up_with_hook(include_str!("../v1.sql"), |tx: &Transaction| {
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
            Ok(())
        }),
        // Version 2: seats and online play, ends the rules do not know,
        // stored reviews, chat, players, the server's heartbeat, the move
        // count kept with the game, and the indexes the lists need.
        M::up(include_str!("../v2.sql")),
        // Version 3: the keys of the games uploaded after being played
        // offline.
        M::up(include_str!("../v3.sql")),
        // Version 4: accounts, their sessions and recovery codes, blocks,
        // reports.
        M::up(include_str!("../v4.sql")),
        // Version 5: ratings. Games rated or casual, a draw offer kept
        // with its game, each player's rating per speed, each rated game's
        // changes; the online games' speeds (the games file's own part).
        M::up(concat!(
            include_str!("../v5.sql"),
            include_str!("../v5-speeds.sql")
        )),
        // Version 6: games' public ids (old games get one) and private
        // invitations' keys, a chat line's guest number.
        M::up(include_str!("../v6.sql")),
        // Version 7: clocks of days per move (games over days).
        M::up(include_str!("../v7.sql")),
        // Version 8: tournaments, their players and their games.
        M::up(include_str!("../v8.sql")),
        // Version 9: direct challenges (a player's page's "challenge this
        // player"), kept across a restart.
        M::up(include_str!("../v9.sql")),
        // Version 10: Swiss tournaments (rounds, each game's round, byes).
        M::up(include_str!("../v10.sql")),
        // Version 11: a tournament's chat room.
        M::up(include_str!("../v11.sql")),
        // Version 12: a lobby seek's rating range.
        M::up(include_str!("../v12.sql")),
        // Version 13: a player's mistakes as puzzles (learn from your
        // mistakes).
        M::up(include_str!("../mistakes.sql")),
        // Version 14: bots and personal API tokens.
        M::up(include_str!("../bots.sql")),
        // Version 15: puzzle ratings (solvers', puzzles', first tries).
        M::up(include_str!("../puzzle_ratings.sql")),
        // Version 16: moderation with ranks (the moderators' log, refunded
        // rating changes, accounts' name skeletons).
        M::up(include_str!("../moderation.sql")),
        // Version 17: when each API token was last used.
        M::up(include_str!("../token_last_used.sql")),
        // Version 18: fair play kept (where accounts were seen, the pairs
        // flagged for it, the rated games each pair began).
        M::up(include_str!("../fair_play.sql")),
        // Version 19: tournaments that let bots join.
        M::up(include_str!("../tournament_bots.sql")),
        // Version 20: a player's games waiting for an opponent, by player.
        M::up(include_str!("../waiting_games.sql")),
    ]
}

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
pub(super) fn setup(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
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
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let tables = table_names(conn)?;
    let migrations = migrations();
    let latest = migrations.len() as i64;
    if app == APPLICATION_ID {
        if version > latest {
            return Err(StoreError::Refused(format!(
                "the games file {shown} was written by a newer version of awale (schema \
                 {version}, this one knows up to {latest}): update awale"
            )));
        }
    } else if app == 0 && version == 0 && (tables.is_empty() || is_v1(conn, &tables)?) {
        // A new file, or one of version 1: the migrations start from 0.
    } else {
        return Err(StoreError::Refused(format!(
            "{shown} is an SQLite database of another program (tables: {}): awale does not \
             write into it. Give another file with --data",
            tables.join(", ")
        )));
    }
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| writable(path, e))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Checkpoints run on their own thread (see `checkpoint_loop`).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // One writer: its transactions take the write lock at once.
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    Migrations::new(migrations)
        .to_latest(conn)
        .map_err(|e| migration_failed(path, latest, e))?;
    // Every open writes (the heartbeat at least): a file that cannot be
    // written is refused now, not at the first move.
    let after = || -> Result<(), rusqlite::Error> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        // Levels renumbered apart from the schema (a file of any version
        // may hold games of fewer levels): once, marked in `meta`.
        let levels: i64 = conn
            .query_row("SELECT value FROM meta WHERE key = 'levels'", [], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or(UNMARKED_LEVELS);
        if levels < LEVELS {
            conn.execute(PERFECT_MOVES_UP, [LEVELS, levels])?;
            conn.execute(LEVELS_MARKED, [LEVELS])?;
        }
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('opened_ms', ?1)
             ON CONFLICT(key) DO UPDATE SET value = ?1",
            [awale_model::game::now_ms()],
        )?;
        conn.execute_batch("COMMIT")
    };
    if let Err(e) = after() {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(writable(path, e));
    }
    Ok(())
}

/// A migration that failed (and changed nothing: they run in one
/// transaction), as a refusal saying why.
fn migration_failed(path: &Path, latest: i64, e: rusqlite_migration::Error) -> StoreError {
    match e {
        rusqlite_migration::Error::RusqliteError { err, .. } => writable(path, err),
        rusqlite_migration::Error::Hook(why) => StoreError::Refused(format!(
            "cannot prepare the games file {}: {why}",
            path.display()
        )),
        other => StoreError::Refused(format!(
            "cannot migrate the games file {} to schema {latest}: {other}",
            path.display()
        )),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_run_on_an_empty_database() {
        Migrations::new(migrations()).validate().unwrap();
    }
}
