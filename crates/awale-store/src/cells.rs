//! A row of either store read by column number, so that turning a row into
//! a record (an account, a played game) is written once for SQLite and
//! PostgreSQL alike, and a statement's values given to either store the
//! same way: a statement is written once too, with SQLite's numbered
//! parameters ([`dollar_params`] gives PostgreSQL's).

/// A value both stores can read from a column.
pub(crate) trait Cell:
    rusqlite::types::FromSql + for<'a> tokio_postgres::types::FromSql<'a>
{
}

impl<T> Cell for T where T: rusqlite::types::FromSql + for<'a> tokio_postgres::types::FromSql<'a> {}

/// A row of a query's answer, in either store.
pub(crate) trait Cells {
    /// The store's own error.
    type Error;

    /// The value of column `i` (from 0).
    fn cell<T: Cell>(&self, i: usize) -> Result<T, Self::Error>;
}

impl Cells for rusqlite::Row<'_> {
    type Error = rusqlite::Error;

    fn cell<T: Cell>(&self, i: usize) -> Result<T, rusqlite::Error> {
        self.get(i)
    }
}

impl Cells for tokio_postgres::Row {
    type Error = tokio_postgres::Error;

    fn cell<T: Cell>(&self, i: usize) -> Result<T, tokio_postgres::Error> {
        self.try_get(i)
    }
}

/// A value both stores can bind to a statement's parameter, so that a
/// statement's values are listed once for SQLite and PostgreSQL alike
/// (SQLite binds them as they are: `rusqlite::params_from_iter`).
pub(crate) trait Value:
    rusqlite::ToSql + tokio_postgres::types::ToSql + Send + Sync
{
}

impl<T> Value for T where T: rusqlite::ToSql + tokio_postgres::types::ToSql + Send + Sync {}

/// `values` as PostgreSQL's client takes them.
pub(crate) fn pg_values<'a>(
    values: impl IntoIterator<Item = &'a dyn Value>,
) -> Vec<&'a (dyn tokio_postgres::types::ToSql + Sync)> {
    values.into_iter().map(|v| v as _).collect()
}

/// `sql`, written with SQLite's numbered parameters (`?1`), with
/// PostgreSQL's (`$1`): a statement both stores run, written once.
pub(crate) fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        let numbered = c == '?' && chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if numbered { '$' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dollar_params;

    #[test]
    fn numbered_parameters_become_postgres_ones_and_nothing_else_changes() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?1 AND c = ?12 AND d = '?'"),
            "SELECT a FROM t WHERE b = $1 AND c = $12 AND d = '?'"
        );
    }
}
