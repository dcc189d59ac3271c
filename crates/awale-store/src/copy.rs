//! `awale store migrate`: a games file copied into an empty PostgreSQL
//! database, in one transaction (all or nothing), then checked: the rows
//! of every table counted on both sides, and every game replayed from
//! both and compared.

use rusqlite::types::Value;
use tokio_postgres::types::{ToSql, Type};

use crate::tx::Backend;
use crate::{PgStore, Store, StoreError};

/// The tables copied, in an order their references allow; `meta` is the
/// database's own but for the server's last heartbeat. A table the file
/// has and this list has not (a newer schema) stops the copy.
const TABLES: &[&str] = &[
    "games",
    "moves",
    "reviews",
    "chat",
    "accounts",
    "players",
    "sessions",
    "recovery_codes",
    "uploads",
    "blocks",
    "reports",
    "ratings",
    "rating_changes",
    "tournaments",
    "tournament_players",
    "tournament_games",
    "tournament_byes",
    "challenges",
    "tournament_chat",
    "mistakes",
    "api_tokens",
    "puzzle_solvers",
    "puzzle_ratings",
    "puzzle_attempts",
    "moderation_log",
    "name_skeletons",
    "sightings",
    "flagged_pairs",
    "rated_pairs",
];

/// What was copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Rows per table, as counted on both sides.
    pub rows: Vec<(String, i64)>,
    /// Games replayed on both sides and found the same.
    pub games_checked: usize,
}

type Rows = Vec<Vec<Value>>;

/// A column's value as PostgreSQL's column of type `ty` takes it.
fn param(value: &Value, ty: &Type) -> Result<Box<dyn ToSql + Sync + Send>, String> {
    Ok(match (value, ty) {
        (Value::Null, &Type::INT8) => Box::new(None::<i64>),
        (Value::Null, &Type::BOOL) => Box::new(None::<bool>),
        (Value::Null, &Type::TEXT) => Box::new(None::<String>),
        (Value::Null, &Type::FLOAT8) => Box::new(None::<f64>),
        (Value::Real(x), &Type::FLOAT8) => Box::new(*x),
        (Value::Integer(i), &Type::FLOAT8) => Box::new(*i as f64),
        (Value::Integer(i), &Type::INT8) => Box::new(*i),
        (Value::Integer(i), &Type::BOOL) => Box::new(*i != 0),
        (Value::Text(t), &Type::TEXT) => Box::new(t.clone()),
        (Value::Integer(i), &Type::TEXT) => Box::new(i.to_string()),
        (v, t) => return Err(format!("a value {v:?} for a column of type {t}")),
    })
}

fn sqlite_columns(store: &Store, table: &str) -> Result<Vec<String>, StoreError> {
    let table = table.to_string();
    store.read_blocking(move |conn| {
        let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
        let names = stmt.query_map([&table], |r| r.get(0))?;
        Ok(names.collect::<Result<Vec<String>, _>>()?)
    })
}

fn sqlite_rows(store: &Store, table: &str, columns: &[String]) -> Result<Rows, StoreError> {
    let sql = format!("SELECT {} FROM {table}", columns.join(", "));
    let width = columns.len();
    store.read_blocking(move |conn| {
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map([], |r| {
            (0..width)
                .map(|i| r.get::<_, Value>(i))
                .collect::<Result<Vec<_>, _>>()
        })?;
        Ok(rows.collect::<Result<Rows, _>>()?)
    })
}

/// A game's whole content, to compare two copies of it.
fn fingerprint(g: &awale_model::game::WebGame) -> String {
    let moves: String = g.game.plies().iter().map(|p| p.mv.letter()).collect();
    let redo: String = g.game.redo_list().iter().map(|m| m.letter()).collect();
    format!(
        "{:?} {:?} {} {} {:?} {} {:?} {:?} {} {} {} {moves} {redo} {:?}",
        g.mode,
        g.seats,
        g.public,
        g.seed,
        g.clock,
        g.turn_started_ms,
        g.stop,
        g.offers,
        g.created_ms,
        g.game.rules(),
        g.game.start(),
        g.game.resigned(),
    )
}

/// Copies the games file `from` into the empty database `to`, then checks
/// the copy.
///
/// # Errors
///
/// [`StoreError::Refused`] when the database already holds games, the
/// file has a table this program does not know, or the check finds a
/// difference (nothing is kept then); a failed read or write.
pub fn copy_to_postgres(from: &Store, to: &PgStore) -> Result<CopyReport, StoreError> {
    let known: Vec<String> = from.read_blocking(|conn| {
        let mut stmt = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )?;
        let names = stmt.query_map([], |r| r.get(0))?;
        Ok(names.collect::<Result<Vec<String>, _>>()?)
    })?;
    if let Some(other) = known
        .iter()
        .find(|t| t.as_str() != "meta" && !TABLES.contains(&t.as_str()))
    {
        return Err(StoreError::Refused(format!(
            "the games file has a table `{other}` this version of awale cannot copy: update awale"
        )));
    }
    let mut tables = Vec::new();
    for table in TABLES {
        let columns = sqlite_columns(from, table)?;
        let rows = sqlite_rows(from, table, &columns)?;
        tables.push((table.to_string(), columns, rows));
    }
    let alive: Option<i64> = from.read_blocking(|conn| {
        use rusqlite::OptionalExtension;
        Ok(conn
            .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                r.get(0)
            })
            .optional()?)
    })?;
    let ids: Vec<i64> = tables[0]
        .2
        .iter()
        .filter_map(|row| match row.first() {
            Some(Value::Integer(id)) => Some(*id),
            _ => None,
        })
        .collect();
    let mut expected = Vec::with_capacity(ids.len());
    for &id in &ids {
        let game = from
            .read_here(move |tx| Box::pin(crate::games::load_game(tx, id)))?
            .ok_or_else(|| StoreError::Refused(format!("game {id} vanished during the copy")))?;
        expected.push((id, fingerprint(&game)));
    }
    let store = to.clone();
    let counts: Vec<(String, i64)> = tables
        .iter()
        .map(|t| (t.0.clone(), t.2.len() as i64))
        .collect();
    let report = to.block_on(async move {
        let pg = super::postgres::PgTx::begin(store.pool().get().await?, 0).await?;
        let tx = pg.client()?;
        let held: i64 = tx
            .query_one("SELECT COUNT(*) FROM games", &[])
            .await?
            .get(0);
        if held > 0 {
            return Err(StoreError::Refused(format!(
                "the database {} already holds {held} games: copy into an empty one",
                store.shown()
            )));
        }
        for (table, columns, rows) in &tables {
            let marks: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
            let stmt = tx
                .prepare(&format!(
                    "INSERT INTO {table} ({}) VALUES ({})",
                    columns.join(", "),
                    marks.join(", ")
                ))
                .await?;
            for row in rows {
                let params = row
                    .iter()
                    .zip(stmt.params())
                    .map(|(v, ty)| param(v, ty))
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(|e| StoreError::Refused(format!("table {table}: {e}")))?;
                let refs: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| &**p as &(dyn ToSql + Sync)).collect();
                tx.execute(&stmt, &refs).await?;
            }
        }
        for table in [
            "games",
            "chat",
            "accounts",
            "reports",
            "tournaments",
            "challenges",
            "tournament_chat",
            "mistakes",
            "api_tokens",
            "moderation_log",
        ] {
            tx.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'),
                     COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ),
                &[],
            )
            .await?;
        }
        if let Some(alive) = alive {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', $1)
                 ON CONFLICT (key) DO UPDATE SET value = $1",
                &[&alive],
            )
            .await?;
        }
        // The check, inside the transaction: a difference keeps nothing.
        let mut rows = Vec::new();
        for (table, count) in counts {
            let got: i64 = tx
                .query_one(&format!("SELECT COUNT(*) FROM {table}"), &[])
                .await?
                .get(0);
            if got != count {
                return Err(StoreError::Refused(format!(
                    "table {table}: {count} rows in the file, {got} copied"
                )));
            }
            rows.push((table, got));
        }
        for (id, print) in &expected {
            let copied = crate::games::load_game(&pg, *id)
                .await?
                .ok_or_else(|| StoreError::Refused(format!("game {id} was not copied")))?;
            if fingerprint(&copied) != *print {
                return Err(StoreError::Refused(format!(
                    "game {id} differs once copied: nothing is kept"
                )));
            }
        }
        pg.commit().await?;
        Ok(CopyReport {
            rows,
            games_checked: expected.len(),
        })
    })?;
    Ok(report)
}
