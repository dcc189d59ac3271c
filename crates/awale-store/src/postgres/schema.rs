//! The PostgreSQL store's schema: a version kept in `meta`
//! (`schema_version`), the migrations run at start under an advisory lock
//! (several processes may start at once: one migrates, the others wait and
//! find it done), and the check that the database is this program's.

use tokio_postgres::Client;

use crate::schema::{LEVELS, LEVELS_MARKED, PERFECT_MOVES_UP};
use crate::StoreError;

/// The schema version this program writes (the games file's, mirrored).
pub const SCHEMA_VERSION: i64 = 20;

/// Where a version's SQL comes from.
enum Source {
    /// Written for PostgreSQL (where the dialects part: the first
    /// versions' games at once with `revision`, the randomness of version
    /// 6).
    Own(&'static str),
    /// The games file's migration, in PostgreSQL's types
    /// ([`from_games_file`]).
    GamesFile(&'static str),
    /// The games file's migration from the statement that starts with the
    /// second text on (what comes before, PostgreSQL's own file does).
    GamesFileFrom(&'static str, &'static str),
}

use Source::{GamesFile, GamesFileFrom, Own};

impl Source {
    fn sql(&self) -> String {
        match *self {
            Own(sql) => sql.into(),
            GamesFile(sql) => from_games_file(sql),
            GamesFileFrom(sql, from) => {
                let start = sql
                    .find(from)
                    .unwrap_or_else(|| panic!("no {from:?} in the games file's migration"));
                from_games_file(&sql[start..])
            }
        }
    }
}

/// Each version's SQL, run on a database of an older version: what a new
/// database starts from (the games file's version 3 at once), then one
/// version at a time, as the games file's.
const MIGRATIONS: [(i64, &[Source]); 18] = [
    // The games and their moves, made whole (the games file's version 2
    // alters the games of version 1), then the rest of version 2 (the
    // indexes, reviews, chat, players, meta) and version 3 as the games
    // file's.
    (
        3,
        &[
            Own(include_str!("v3.sql")),
            GamesFileFrom(include_str!("../v2.sql"), "CREATE INDEX games_by_time"),
            GamesFile(include_str!("../v3.sql")),
        ],
    ),
    // Accounts, sessions, recovery codes, blocks, reports.
    (4, &[GamesFile(include_str!("../v4.sql"))]),
    // Rated games, draw offers, ratings and their changes (a database of
    // version 4 holds no online games whose speed is to be found, since
    // PostgreSQL stores came after the speeds: the games file's
    // `v5-speeds.sql` is not run).
    (5, &[GamesFile(include_str!("../v5.sql"))]),
    // Public ids, invitations' keys, chat guests' numbers.
    (6, &[Own(include_str!("v6.sql"))]),
    // Clocks of days per move.
    (7, &[GamesFile(include_str!("../v7.sql"))]),
    // Tournaments, their players and their games.
    (8, &[GamesFile(include_str!("../v8.sql"))]),
    // Direct challenges.
    (9, &[GamesFile(include_str!("../v9.sql"))]),
    // Swiss tournaments' rounds and byes.
    (10, &[GamesFile(include_str!("../v10.sql"))]),
    // A tournament's chat room.
    (11, &[GamesFile(include_str!("../v11.sql"))]),
    // A lobby seek's rating range.
    (12, &[GamesFile(include_str!("../v12.sql"))]),
    // A player's mistakes as puzzles.
    (13, &[GamesFile(include_str!("../mistakes.sql"))]),
    // Bots and personal API tokens.
    (14, &[GamesFile(include_str!("../bots.sql"))]),
    // Puzzle ratings.
    (15, &[GamesFile(include_str!("../puzzle_ratings.sql"))]),
    // Moderation with ranks: the log, refunds, name skeletons.
    (16, &[GamesFile(include_str!("../moderation.sql"))]),
    // When each API token was last used.
    (17, &[GamesFile(include_str!("../token_last_used.sql"))]),
    // Fair play: sightings, flagged pairs, the rated games of each pair.
    (18, &[GamesFile(include_str!("../fair_play.sql"))]),
    // Tournaments that let bots join.
    (19, &[GamesFile(include_str!("../tournament_bots.sql"))]),
    // A player's games waiting for an opponent, by player.
    (20, &[GamesFile(include_str!("../waiting_games.sql"))]),
];

// The last file is the version this program writes.
const _: () = assert!(MIGRATIONS[MIGRATIONS.len() - 1].0 == SCHEMA_VERSION);

/// The columns kept as BOOLEAN here, as 0 or 1 in an INTEGER in the games
/// file.
const BOOLEANS: [&str; 9] = [
    "bot",
    "bots_allowed",
    "kid",
    "muted",
    "rated",
    "clock_per_move",
    "berserk_first",
    "berserk_second",
    "manual_rounds",
];

/// A migration of the games file in PostgreSQL's types: BIGINT for
/// INTEGER (a table's own `id` an identity, SQLite's row id), DOUBLE
/// PRECISION for REAL, BOOLEAN (FALSE for 0) for the columns of
/// [`BOOLEANS`], BIGINT for a column of no type (SQLite's any value: here
/// the store keeps only numbers in one, `meta`'s). Comments are kept; a
/// line is its words with one space between.
fn from_games_file(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() * 5 / 4);
    for line in sql.lines() {
        if line.trim_start().starts_with("--") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [column] = words[..] {
            if column.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                out.push_str(column);
                out.push_str(" BIGINT\n");
                continue;
            }
        }
        let mut column = "";
        for (i, word) in words.iter().enumerate() {
            // A word and the punctuation after it (`INTEGER,`, `0;`).
            let bare = word.trim_end_matches([',', ';', ')']);
            let rest = &word[bare.len()..];
            if matches!(bare, "INTEGER" | "REAL") && i > 0 {
                column = words[i - 1];
            }
            let boolean = BOOLEANS.contains(&column);
            let translated = match bare {
                "INTEGER" if boolean => "BOOLEAN",
                "INTEGER" if column == "id" && words.get(i + 1) == Some(&"PRIMARY") => {
                    "BIGINT GENERATED BY DEFAULT AS IDENTITY"
                }
                "INTEGER" => "BIGINT",
                "REAL" => "DOUBLE PRECISION",
                "0" if boolean && i > 0 && words[i - 1] == "DEFAULT" => "FALSE",
                _ => bare,
            };
            if i > 0 {
                out.push(' ');
            }
            out.push_str(translated);
            out.push_str(rest);
        }
        out.push('\n');
    }
    out
}

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
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()
        .map_err(refused)?;
    let version: i64 = if tables.is_empty() {
        0
    } else if tables.iter().any(|t| t == "meta") && tables.iter().any(|t| t == "games") {
        let row = tx
            .query_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[])
            .await
            .map_err(refused)?;
        // Another program's `meta` may hold anything there: not a
        // version of ours (not a number) is another program's database.
        match row.and_then(|r| r.try_get::<_, Option<i64>>(0).ok().flatten()) {
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
    for (to, sources) in MIGRATIONS {
        if version < to {
            for source in sources {
                tx.batch_execute(&source.sql()).await.map_err(refused)?;
            }
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
    // The levels' numbering, as the games file's (see `schema.rs`): a new
    // database is marked with today's, one of fewer levels has its games
    // at Perfect moved to the last number.
    let levels: Option<i64> = tx
        .query_opt("SELECT value FROM meta WHERE key = 'levels'", &[])
        .await
        .map_err(refused)?
        .map(|r| r.try_get(0))
        .transpose()
        .map_err(refused)?;
    if levels.is_none_or(|l| l < LEVELS) {
        let from = levels.unwrap_or(LEVELS);
        tx.execute(PERFECT_MOVES_UP, &[&LEVELS, &from])
            .await
            .map_err(refused)?;
        tx.execute(LEVELS_MARKED, &[&LEVELS])
            .await
            .map_err(refused)?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_files_types_become_postgresqls() {
        let sqlite = "CREATE TABLE t (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    -- kid INTEGER stays in a comment
    kid INTEGER NOT NULL DEFAULT 0,
    rated INTEGER NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL,
    value
);
ALTER TABLE games ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_range INTEGER;
";
        let postgres = "CREATE TABLE t (
id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
game_id BIGINT NOT NULL REFERENCES games(id),
    -- kid INTEGER stays in a comment
kid BOOLEAN NOT NULL DEFAULT FALSE,
rated BOOLEAN NOT NULL,
rounds BIGINT NOT NULL DEFAULT 0,
rating DOUBLE PRECISION NOT NULL,
value BIGINT
);
ALTER TABLE games ADD COLUMN clock_per_move BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN rating_range BIGINT;
";
        assert_eq!(from_games_file(sqlite), postgres);
    }
}
