//! [`Tx`] in PostgreSQL: each step awaited on a pooled connection, inside
//! a transaction for a write; SQLite's numbered parameters become
//! PostgreSQL's.

use std::future::Future;

use deadpool_postgres::Object;

use super::{rows::cached, PgStore, CHANNEL};
use crate::cells::{dollar_params, pg_values, Value};
use crate::error::StoreError;
use crate::interface::{Notice, StoreFuture};
use crate::tx::{Backend, Row, Tx};

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
    fn client(&self) -> Result<&Object, StoreError> {
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

    fn execute(
        &self,
        sql: &str,
        values: &[&dyn Value],
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        async move {
            let client = self.client()?;
            let statement = cached(client, &dollar_params(sql)).await?;
            let values = pg_values(values.iter().copied());
            Ok(client.execute(&statement, &values).await?)
        }
    }

    fn query<T: Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
        mut decode: impl FnMut(&Row<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StoreError>> + Send {
        async move {
            let client = self.client()?;
            let statement = cached(client, &dollar_params(sql)).await?;
            let values = pg_values(values.iter().copied());
            let rows = client.query(&statement, &values).await?;
            rows.iter().map(|r| decode(&Row::Pg(r))).collect()
        }
    }

    fn lock(&self, space: i64, key: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        async move {
            let client = self.client()?;
            let lock = cached(
                client,
                "SELECT pg_advisory_xact_lock(hashtextextended($1, $2))",
            )
            .await?;
            client.execute(&lock, &[&key, &space]).await?;
            Ok(())
        }
    }

    fn announce(&self, notice: Notice) -> impl Future<Output = Result<(), StoreError>> + Send {
        async move {
            let client = self.client()?;
            let text = format!("{} {}", self.origin, notice.to_text());
            let notify = cached(client, "SELECT pg_notify($1, $2)").await?;
            client.execute(&notify, &[&CHANNEL, &text]).await?;
            Ok(())
        }
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
            let mut tx = PgTx {
                client: Some(me.client().await?),
                origin: me.inner.origin,
                open: false,
            };
            tx.client()?.batch_execute("BEGIN").await?;
            tx.open = true;
            match work(&tx).await {
                Ok(value) => {
                    tx.end("COMMIT").await?;
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
