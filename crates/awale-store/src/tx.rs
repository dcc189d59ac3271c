//! A transaction's steps written once for both stores: [`Tx`] runs a
//! statement (written with SQLite's numbered parameters, `?1`) or reads
//! rows, in SQLite on the writer's thread or a reader's connection (each
//! step completes at once: [`at_once`]) and in PostgreSQL on a pooled
//! connection (each step awaited). A [`Backend`] runs such steps in one
//! transaction ([`Backend::write`]) or as reads ([`Backend::read`]); the
//! stores' interfaces are filled once for any backend (`ratings.rs`,
//! `mistakes.rs`, ...).

use std::future::Future;
use std::task::{Context, Poll, Waker};

use crate::cells::{Cell, Cells, Value};
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::interface::Notice;

/// A row of either store's answer, read by column ([`Cells`]).
pub(crate) enum Row<'a> {
    /// A row of the games file.
    Lite(&'a rusqlite::Row<'a>),
    /// A row of PostgreSQL.
    Pg(&'a tokio_postgres::Row),
}

impl Cells for Row<'_> {
    type Error = StoreError;

    fn cell<T: Cell>(&self, i: usize) -> Result<T, StoreError> {
        Ok(match self {
            Row::Lite(r) => r.get(i)?,
            Row::Pg(r) => r.try_get(i)?,
        })
    }
}

/// The steps of a transaction (or of reads) in either store. Statements
/// are written with SQLite's numbered parameters (`?1`); PostgreSQL's
/// side numbers them its way.
pub(crate) trait Tx: Send + Sync {
    /// Whether this is PostgreSQL (for the few places the dialects part).
    const POSTGRES: bool;

    /// Runs `sql` with `values`: how many rows it changed.
    fn execute(
        &self,
        sql: &str,
        values: &[&dyn Value],
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

    /// The rows `sql` finds with `values`, each read by `decode`.
    fn query<T: Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
        decode: impl FnMut(&Row<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StoreError>> + Send;

    /// The first row `sql` finds with `values`, read by `decode`, or None.
    fn query_opt<T: Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
        decode: impl FnMut(&Row<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Option<T>, StoreError>> + Send {
        async move { Ok(self.query(sql, values, decode).await?.into_iter().next()) }
    }

    /// The first column of the first row `sql` finds with `values`, or
    /// None.
    fn value_opt<T: Cell + Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
    ) -> impl Future<Output = Result<Option<T>, StoreError>> + Send {
        self.query_opt(sql, values, |r| r.cell(0))
    }

    /// The first column of the one row `sql` finds with `values` (a count,
    /// an id just made): an error, not a panic, when there is none.
    fn value<T: Cell + Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
    ) -> impl Future<Output = Result<T, StoreError>> + Send {
        async move {
            self.value_opt(sql, values)
                .await?
                .ok_or_else(|| StoreError::Refused(format!("no row answers `{sql}`")))
        }
    }

    /// Replaces game `game`'s moves from ply `from` on by `moves` (ply,
    /// letter, stones captured).
    fn replace_moves(
        &self,
        game: i64,
        from: usize,
        moves: Vec<(i64, String, i64)>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Holds the lock `key` of `space` until the transaction ends, so that
    /// processes sharing the store take turns (PostgreSQL's advisory
    /// locks); nothing in the games file, whose one writer takes every
    /// transaction in turn.
    fn lock(&self, space: i64, key: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Tells the other processes sharing the store of `notice` once the
    /// transaction commits; nothing in the games file, which one process
    /// writes.
    fn announce(&self, notice: Notice) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// A store that runs [`Tx`] steps: one transaction a write, answered once
/// it is durable; reads off the async threads.
pub(crate) trait Backend: Clone + Send + Sync + 'static {
    /// The store's steps.
    type Tx: Tx + 'static;

    /// Runs `work` in one transaction, committed when it succeeds (else
    /// nothing it did stays).
    fn write<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Self::Tx) -> StoreFuture<'a, T> + Send + 'static;

    /// Runs `work`'s reads.
    fn read<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Self::Tx) -> StoreFuture<'a, T> + Send + 'static;

    /// Runs `work`'s reads, waiting on this thread (at start).
    ///
    /// # Errors
    ///
    /// `work`'s, or the store's.
    fn read_here<T, W>(&self, work: W) -> Result<T, StoreError>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Self::Tx) -> StoreFuture<'a, T> + Send + 'static;
}

/// The answer of `work`, whose every step completes at once (the games
/// file's: no step waits on anything but the disk, on this thread).
///
/// # Errors
///
/// `work`'s, or [`StoreError::Refused`] if a step ever waited.
pub(crate) fn at_once<T>(
    work: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let mut work = std::pin::pin!(work);
    match work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(answer) => answer,
        Poll::Pending => Err(StoreError::Refused(
            "a step of the games file waited, which it never should".into(),
        )),
    }
}
