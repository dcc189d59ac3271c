//! A row of either store read by column number, so that turning a row into
//! a record (an account, a played game) is written once for SQLite and
//! PostgreSQL alike: the SQL differs between the two, the decoding not.

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
