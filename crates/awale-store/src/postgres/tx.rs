//! [`Tx`] in PostgreSQL: each step awaited on a pooled connection, inside
//! a transaction for a write; SQLite's numbered parameters become
//! PostgreSQL's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use awale_model::lock;
use deadpool_postgres::Object;
use tokio_postgres::types::ToSql;

use super::{Counts, PgStore, CHANNEL};
use crate::cells::{dollar_params, pg_values, Value};
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::interface::Notice;
use crate::tx::{Backend, Row, Tx};

/// Statement `sql` prepared on `client`'s connection, once: the pool keeps
/// each connection's prepared statements, so a statement run again costs
/// one round trip and no new plan.
pub(super) async fn cached(
    client: &impl deadpool_postgres::GenericClient,
    sql: &str,
) -> Result<tokio_postgres::Statement, StoreError> {
    Ok(client.prepare_cached(sql).await?)
}

/// The steps of a write (a transaction) or of reads on a pooled connection.
///
/// A write costs few round trips: its `BEGIN` goes out with its first
/// statement (pipelined: one round trip for both), and its notices go out
/// with its `COMMIT` (PostgreSQL sends them at the commit anyway). A save
/// of a move is then three round trips (begin and the row's fenced
/// update; the moves; the notice and the commit) where it was five.
pub(crate) struct PgTx {
    /// The connection (always there until dropped).
    client: Option<Object>,
    /// This process's mark on the notices it sends.
    origin: u64,
    /// A transaction begun and not yet ended: its connection is not given
    /// back to the pool if it is dropped so (a task stopped midway).
    open: bool,
    /// A transaction whose `BEGIN` is not sent yet: it goes with the
    /// first statement.
    unsent: AtomicBool,
    /// The notices of the transaction, sent with its `COMMIT`.
    notices: Mutex<Vec<String>>,
    /// Where the transactions run are counted (none: not counted).
    counts: Option<Arc<Counts>>,
}

impl PgTx {
    /// A transaction begun on `client` (its `BEGIN` sent and answered:
    /// the connection may be used directly, [`PgTx::client`]).
    pub(crate) async fn begin(client: Object, origin: u64) -> Result<PgTx, StoreError> {
        let tx = PgTx::deferred(client, origin, None);
        tx.unsent.store(false, Ordering::Relaxed);
        tx.client()?.batch_execute("BEGIN").await?;
        Ok(tx)
    }

    /// A transaction on `client` whose `BEGIN` goes with its first
    /// statement: its steps only through [`Tx`].
    pub(super) fn deferred(client: Object, origin: u64, counts: Option<Arc<Counts>>) -> PgTx {
        PgTx {
            client: Some(client),
            origin,
            open: true,
            unsent: AtomicBool::new(true),
            notices: Mutex::new(Vec::new()),
            counts,
        }
    }

    /// Counts one transaction run: a write (`BEGIN` ... `COMMIT`) or a
    /// statement alone (a read, or a notice outside a transaction).
    fn count(&self, write: bool) {
        if let Some(counts) = &self.counts {
            let counter = if write { &counts.writes } else { &counts.reads };
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Commits the transaction: its notices and its `COMMIT` sent
    /// together (with its `BEGIN` when nothing else was sent).
    pub(crate) async fn commit(mut self) -> Result<(), StoreError> {
        let notices = std::mem::take(&mut *lock(&self.notices));
        let begin = self.unsent.swap(false, Ordering::Relaxed);
        if begin && notices.is_empty() {
            // Nothing was sent: nothing to commit.
            self.open = false;
            return Ok(());
        }
        if begin {
            self.count(true);
        }
        let client = self.client()?;
        let notify = match notices.is_empty() {
            true => None,
            false => Some(cached(client, "SELECT pg_notify($1, $2)").await?),
        };
        let begun = async {
            match begin {
                true => client.batch_execute("BEGIN").await,
                false => Ok(()),
            }
        };
        let params: Vec<[&(dyn ToSql + Sync); 2]> = notices
            .iter()
            .map(|text| [&CHANNEL as &(dyn ToSql + Sync), text])
            .collect();
        let notified = futures_util::future::join_all(
            notify
                .iter()
                .flat_map(|notify| params.iter().map(|p| client.execute(notify, p))),
        );
        let committed = client.batch_execute("COMMIT");
        let (begun, notified, committed) =
            futures_util::future::join3(begun, notified, committed).await;
        // A failed notice aborted the transaction: the server answered the
        // COMMIT as a ROLLBACK; either way it is over.
        committed?;
        self.open = false;
        begun?;
        for n in notified {
            n?;
        }
        Ok(())
    }

    /// The connection.
    pub(crate) fn client(&self) -> Result<&Object, StoreError> {
        self.client.as_ref().ok_or(StoreError::Closed)
    }

    /// Runs `step` (a statement's answer, not yet asked): with the
    /// transaction's `BEGIN` before it, in one round trip, when that is
    /// not sent yet.
    async fn step<T>(
        &self,
        step: impl std::future::Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        if !self.open {
            // A statement alone: a transaction of its own.
            self.count(false);
            return Ok(step.await?);
        }
        if !self.unsent.swap(false, Ordering::Relaxed) {
            return Ok(step.await?);
        }
        self.count(true);
        // Sent in this order: the join polls the BEGIN first.
        let begin = self.client()?.batch_execute("BEGIN");
        let (begun, done) = futures_util::future::join(begin, step).await;
        begun?;
        Ok(done?)
    }

    pub(super) async fn end(&mut self, how: &str) -> Result<(), StoreError> {
        lock(&self.notices).clear();
        if !self.unsent.swap(false, Ordering::Relaxed) {
            self.client()?.batch_execute(how).await?;
        }
        self.open = false;
        Ok(())
    }
}

impl Drop for PgTx {
    fn drop(&mut self) {
        if self.open && !*self.unsent.get_mut() {
            if let Some(client) = self.client.take() {
                // Closed rather than handed on inside a transaction.
                drop(Object::take(client));
            }
        }
    }
}

impl Tx for PgTx {
    const POSTGRES: bool = true;

    async fn execute(&self, sql: &str, values: &[&dyn Value]) -> Result<u64, StoreError> {
        let client = self.client()?;
        let statement = cached(client, &dollar_params(sql)).await?;
        let values = pg_values(values.iter().copied());
        self.step(client.execute(&statement, &values)).await
    }

    async fn query<T: Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
        mut decode: impl FnMut(&Row<'_>) -> Result<T, StoreError> + Send,
    ) -> Result<Vec<T>, StoreError> {
        let client = self.client()?;
        let statement = cached(client, &dollar_params(sql)).await?;
        let values = pg_values(values.iter().copied());
        let rows = self.step(client.query(&statement, &values)).await?;
        rows.iter().map(|r| decode(&Row::Pg(r))).collect()
    }

    async fn replace_moves(
        &self,
        game: i64,
        from: usize,
        moves: Vec<(i64, String, i64)>,
    ) -> Result<(), StoreError> {
        let client = self.client()?;
        // The moves taken back (if any) and the new ones: sent
        // together, one round trip (the server runs them in order).
        let delete = cached(client, "DELETE FROM moves WHERE game_id = $1 AND ply >= $2").await?;
        let from_ply = from as i64;
        let delete_params: [&(dyn ToSql + Sync); 2] = [&game, &from_ply];
        let deleted = client.execute(&delete, &delete_params);
        if moves.is_empty() {
            self.step(deleted).await?;
            return Ok(());
        }
        let plies: Vec<i64> = moves.iter().map(|m| m.0).collect();
        let letters: Vec<&str> = moves.iter().map(|m| m.1.as_str()).collect();
        let captured: Vec<i64> = moves.iter().map(|m| m.2).collect();
        // One statement for all the moves (a whole game on creation or
        // import): arrays unnested.
        let insert = cached(
            client,
            "INSERT INTO moves (game_id, ply, letter, captured)
                 SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[], $4::BIGINT[])",
        )
        .await?;
        let insert_params: [&(dyn ToSql + Sync); 4] = [&game, &plies, &letters, &captured];
        let inserted = client.execute(&insert, &insert_params);
        let (deleted, inserted) = self
            .step(async {
                Ok::<_, tokio_postgres::Error>(futures_util::future::join(deleted, inserted).await)
            })
            .await?;
        deleted?;
        inserted?;
        Ok(())
    }

    async fn lock(&self, space: i64, key: &str) -> Result<(), StoreError> {
        let client = self.client()?;
        let lock = cached(
            client,
            "SELECT pg_advisory_xact_lock(hashtextextended($1, $2))",
        )
        .await?;
        self.step(client.execute(&lock, &[&key, &space])).await?;
        Ok(())
    }

    async fn announce(&self, notice: Notice) -> Result<(), StoreError> {
        let text = format!("{} {}", self.origin, notice.to_text());
        if self.open {
            // Sent with the COMMIT.
            lock(&self.notices).push(text);
            return Ok(());
        }
        let client = self.client()?;
        let notify = cached(client, "SELECT pg_notify($1, $2)").await?;
        self.count(true);
        client.execute(&notify, &[&CHANNEL, &text]).await?;
        Ok(())
    }
}

impl Backend for PgStore {
    type Tx = PgTx;

    fn write<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a PgTx) -> StoreFuture<'a, T> + Send + 'static,
    {
        let me = self.clone();
        self.run(async move {
            let counts = Some(Arc::clone(&me.inner.counts));
            let mut tx = PgTx::deferred(me.client().await?, me.inner.origin, counts);
            match work(&tx).await {
                Ok(value) => {
                    tx.commit().await?;
                    Ok(value)
                }
                Err(e) => {
                    let _ = tx.end("ROLLBACK").await;
                    Err(e)
                }
            }
        })
    }

    fn read<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a PgTx) -> StoreFuture<'a, T> + Send + 'static,
    {
        let me = self.clone();
        self.run(async move { me.reads(work).await })
    }

    fn read_here<T, W>(&self, work: W) -> Result<T, StoreError>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a PgTx) -> StoreFuture<'a, T> + Send + 'static,
    {
        let me = self.clone();
        self.block(async move { me.reads(work).await })
    }
}

impl PgStore {
    /// `work`'s reads on a pooled connection.
    async fn reads<T, W>(&self, work: W) -> Result<T, StoreError>
    where
        W: for<'a> FnOnce(&'a PgTx) -> StoreFuture<'a, T>,
    {
        let counts = Some(Arc::clone(&self.inner.counts));
        let mut tx = PgTx::deferred(self.client().await?, self.inner.origin, counts);
        tx.open = false;
        *tx.unsent.get_mut() = false;
        work(&tx).await
    }
}
