//! The PostgreSQL store's schema: a version kept in `meta`
//! (`schema_version`), the migrations run at start under an advisory lock
//! (several processes may start at once: one migrates, the others wait and
//! find it done), and the check that the database is this program's.

use tokio_postgres::Client;

use crate::StoreError;

/// The schema version this program writes (the games file's, mirrored).
pub const SCHEMA_VERSION: i64 = 12;

/// Each version's file, run on a database of an older version: what a new
/// database starts from (the games file's version 3 at once), then one file
/// a version, as the games file's.
const MIGRATIONS: [(i64, &str); 10] = [
    (3, include_str!("v3.sql")),
    // Accounts, sessions, recovery codes, blocks, reports.
    (4, include_str!("v4.sql")),
    // Rated games, draw offers, ratings and their changes.
    (5, include_str!("v5.sql")),
    // Public ids, invitations' keys, chat guests' numbers.
    (6, include_str!("v6.sql")),
    // Clocks of days per move.
    (7, include_str!("v7.sql")),
    // Tournaments, their players and their games.
    (8, include_str!("v8.sql")),
    // Direct challenges.
    (9, include_str!("v9.sql")),
    // Swiss tournaments' rounds and byes.
    (10, include_str!("v10.sql")),
    // A tournament's chat room.
    (11, include_str!("v11.sql")),
    // A lobby seek's rating range.
    (12, include_str!("v12.sql")),
];

// The last file is the version this program writes.
const _: () = assert!(MIGRATIONS[MIGRATIONS.len() - 1].0 == SCHEMA_VERSION);

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
    for (to, sql) in MIGRATIONS {
        if version < to {
            tx.batch_execute(sql).await.map_err(refused)?;
        }
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
