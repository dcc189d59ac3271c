//! Helpers of the games file's own statements (those of the stores not
//! yet written once for both).

use rusqlite::{Connection, OptionalExtension};

use crate::error::StoreError;

/// The one row `sql` finds with `params`, read by `decode`, or None (as
/// tokio-postgres's `query_opt`), the statement kept prepared.
pub(crate) fn query_opt<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    decode: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, StoreError> {
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params, decode)
        .optional()?)
}

/// The rows `sql` finds with `params`, each read by `decode` (as
/// tokio-postgres's `query`), the statement kept prepared.
pub(crate) fn query_all<T, E>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    mut decode: impl FnMut(&rusqlite::Row<'_>) -> Result<T, E>,
) -> Result<Vec<T>, StoreError>
where
    StoreError: From<E>,
{
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(decode(r)?);
    }
    Ok(out)
}
