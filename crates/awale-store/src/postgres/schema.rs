//! The PostgreSQL store's schema: a version kept in `meta`
//! (`schema_version`), the migrations run at start under an advisory lock
//! (several processes may start at once: one migrates, the others wait and
//! find it done), and the check that the database is this program's.

use tokio_postgres::Client;

use crate::StoreError;

/// The schema version this program writes (the games file's, mirrored).
pub const SCHEMA_VERSION: i64 = 12;

/// What a new database starts from: the games file's version 3 at once.
const SCHEMA_V3: &str = include_str!("v3.sql");

/// Version 4: accounts, sessions, recovery codes, blocks, reports.
const MIGRATE_V4: &str = include_str!("v4.sql");

/// Version 5: rated games, draw offers, ratings and their changes.
const MIGRATE_V5: &str = include_str!("v5.sql");
/// Version 6: public ids, invitations' keys, chat guests' numbers.
const MIGRATE_V6: &str = include_str!("v6.sql");
/// Version 7: clocks of days per move.
const MIGRATE_V7: &str = include_str!("v7.sql");
/// Version 8: tournaments, their players and their games.
const MIGRATE_V8: &str = include_str!("v8.sql");
/// Version 9: direct challenges.
const MIGRATE_V9: &str = include_str!("v9.sql");
/// Version 10: Swiss tournaments' rounds and byes.
const MIGRATE_V10: &str = include_str!("v10.sql");
/// Version 11: a tournament's chat room.
const MIGRATE_V11: &str = include_str!("v11.sql");
/// Version 12: a lobby seek's rating range.
const MIGRATE_V12: &str = include_str!("v12.sql");

/// The key of the advisory lock the migrations run under.
const MIGRATION_LOCK: i64 = 0x4177_616C_0001;

/// Checks the database, migrates it, and notes when it was opened.
pub(crate) async fn setup(client: &mut Client, shown: &str) -> Result<(), StoreError> {
    let refused = |e: tokio_postgres::Error| {
        StoreError::Refused(format!("cannot prepare the database {shown}: {e}"))
    };
    let tx = client.transaction().await.map_err(refused)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(refused)?;
    let tables: Vec<String> = tx
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() ORDER BY table_name",
            &[],
        )
        .await
        .map_err(refused)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let version: i64 = if tables.is_empty() {
        0
    } else if tables.iter().any(|t| t == "meta") && tables.iter().any(|t| t == "games") {
        let row = tx
            .query_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])
            .await
            .map_err(refused)?;
        match row.and_then(|r| r.get::<_, Option<i64>>(0)) {
            Some(v) => v,
            None => return Err(foreign(shown, &tables)),
        }
    } else {
        return Err(foreign(shown, &tables));
    };
    if version > SCHEMA_VERSION {
        return Err(StoreError::Refused(format!(
            "the database {shown} was written by a newer version of awale (schema {version}, \
             this one knows up to {SCHEMA_VERSION}): update awale"
        )));
    }
    if version < 3 {
        tx.batch_execute(SCHEMA_V3).await.map_err(refused)?;
    }
    // One file a version, as the games file's.
    if version < 4 {
        tx.batch_execute(MIGRATE_V4).await.map_err(refused)?;
    }
    if version < 5 {
        tx.batch_execute(MIGRATE_V5).await.map_err(refused)?;
    }
    if version < 6 {
        tx.batch_execute(MIGRATE_V6).await.map_err(refused)?;
    }
    if version < 7 {
        tx.batch_execute(MIGRATE_V7).await.map_err(refused)?;
    }
    if version < 8 {
        tx.batch_execute(MIGRATE_V8).await.map_err(refused)?;
    }
    if version < 9 {
        tx.batch_execute(MIGRATE_V9).await.map_err(refused)?;
    }
    if version < 10 {
        tx.batch_execute(MIGRATE_V10).await.map_err(refused)?;
    }
    if version < 11 {
        tx.batch_execute(MIGRATE_V11).await.map_err(refused)?;
    }
    if version < 12 {
        tx.batch_execute(MIGRATE_V12).await.map_err(refused)?;
    }
    // Not kept data, outside the versions (`seeks.rs`).
    tx.batch_execute(super::seeks::SEEKS_TABLE)
        .await
        .map_err(refused)?;
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = $1",
        &[&SCHEMA_VERSION],
    )
    .await
    .map_err(refused)?;
    // The levels' numbering of the games file (see `schema.rs`): a new
    // database has the sixteen levels' from the start.
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('levels', 16) ON CONFLICT (key) DO NOTHING",
        &[],
    )
    .await
    .map_err(refused)?;
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('opened_ms', $1)
         ON CONFLICT (key) DO UPDATE SET value = $1",
        &[&awale_model::game::now_ms()],
    )
    .await
    .map_err(refused)?;
    tx.commit().await.map_err(refused)
}

fn foreign(shown: &str, tables: &[String]) -> StoreError {
    StoreError::Refused(format!(
        "the database {shown} holds tables of another program ({}): awale does not write into \
         it. Give an empty database (createdb awale)",
        tables.join(", ")
    ))
}
