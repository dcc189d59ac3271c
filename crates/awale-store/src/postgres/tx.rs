//! [`Tx`] in PostgreSQL: each step awaited on a pooled connection, inside
//! a transaction for a write; SQLite's numbered parameters become
//! PostgreSQL's.

use deadpool_postgres::Object;
use tokio_postgres::types::ToSql;

use super::{PgStore, CHANNEL};
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
pub(crate) struct PgTx {
    /// The connection (always there until dropped).
    client: Option<Object>,
    /// This process's mark on the notices it sends.
    origin: u64,
    /// A transaction begun and not yet ended: its connection is not given
    /// back to the pool if it is dropped so (a task stopped midway).
    open: bool,
}

impl PgTx {
    /// A transaction begun on `client`.
    pub(crate) async fn begin(client: Object, origin: u64) -> Result<PgTx, StoreError> {
        let mut tx = PgTx {
            client: Some(client),
            origin,
            open: false,
        };
        tx.client()?.batch_execute("BEGIN").await?;
        tx.open = true;
        Ok(tx)
    }

    /// Commits the transaction.
    pub(crate) async fn commit(mut self) -> Result<(), StoreError> {
        self.end("COMMIT").await
    }

    /// The connection.
    pub(crate) fn client(&self) -> Result<&Object, StoreError> {
        self.client.as_ref().ok_or(StoreError::Closed)
    }

    async fn end(&mut self, how: &str) -> Result<(), StoreError> {
        self.client()?.batch_execute(how).await?;
        self.open = false;
        Ok(())
    }
}

impl Drop for PgTx {
    fn drop(&mut self) {
        if self.open {
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
        Ok(client.execute(&statement, &values).await?)
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
        let rows = client.query(&statement, &values).await?;
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
            deleted.await?;
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
        let (deleted, inserted) = futures_util::future::join(deleted, inserted).await;
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
        client.execute(&lock, &[&key, &space]).await?;
        Ok(())
    }

    async fn announce(&self, notice: Notice) -> Result<(), StoreError> {
        let client = self.client()?;
        let text = format!("{} {}", self.origin, notice.to_text());
        let notify = cached(client, "SELECT pg_notify($1, $2)").await?;
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
            let mut tx = PgTx::begin(me.client().await?, me.inner.origin).await?;
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
        let tx = PgTx {
            client: Some(self.client().await?),
            origin: self.inner.origin,
            open: false,
        };
        work(&tx).await
    }
}
