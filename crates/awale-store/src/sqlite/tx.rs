//! [`Tx`] in the games file: each step runs at once on the connection it
//! is given (the writer's, inside its batch's transaction, or a reader's).

use std::future::Future;

use rusqlite::{params, params_from_iter};

use super::{in_savepoint_shared, Shared, Store};
use crate::cells::Value;
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::interface::Notice;
use crate::tx::{at_once, Backend, Row, Tx};
use awale_model::lock;

/// The steps of a write or a read on a connection of the games file.
pub(crate) struct Lite(pub(crate) Shared);

impl Tx for Lite {
    const POSTGRES: bool = false;

    fn execute(
        &self,
        sql: &str,
        values: &[&dyn Value],
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        let done = (|| {
            let conn = lock(&self.0);
            let changed = conn
                .prepare_cached(sql)?
                .execute(params_from_iter(values))?;
            Ok(changed as u64)
        })();
        std::future::ready(done)
    }

    fn query<T: Send>(
        &self,
        sql: &str,
        values: &[&dyn Value],
        mut decode: impl FnMut(&Row<'_>) -> Result<T, StoreError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StoreError>> + Send {
        let done = (|| {
            let conn = lock(&self.0);
            let mut statement = conn.prepare_cached(sql)?;
            let mut rows = statement.query(params_from_iter(values))?;
            let mut out = Vec::new();
            while let Some(r) = rows.next()? {
                out.push(decode(&Row::Lite(r))?);
            }
            Ok(out)
        })();
        std::future::ready(done)
    }

    fn replace_moves(
        &self,
        game: i64,
        from: usize,
        moves: Vec<(i64, String, i64)>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let done = (|| {
            let conn = lock(&self.0);
            conn.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
                .execute(params![game, from as i64])?;
            let mut insert = conn.prepare_cached(
                "INSERT INTO moves (game_id, ply, letter, captured) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (ply, letter, captured) in moves {
                insert.execute(params![game, ply, letter, captured])?;
            }
            Ok(())
        })();
        std::future::ready(done)
    }

    fn lock(&self, _space: i64, _key: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(Ok(()))
    }

    fn announce(&self, _notice: Notice) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(Ok(()))
    }
}

impl Backend for Store {
    type Tx = Lite;

    fn write<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Lite) -> StoreFuture<'a, T> + Send + 'static,
    {
        Box::pin(self.write_shared(move |conn| {
            in_savepoint_shared(conn, |conn| at_once(work(&Lite(conn.clone()))))
        }))
    }

    fn read<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Lite) -> StoreFuture<'a, T> + Send + 'static,
    {
        Box::pin(self.read_shared(move |conn| at_once(work(&Lite(conn.clone())))))
    }

    fn read_here<T, W>(&self, work: W) -> Result<T, StoreError>
    where
        T: Send + 'static,
        W: for<'a> FnOnce(&'a Lite) -> StoreFuture<'a, T> + Send + 'static,
    {
        self.read_shared_blocking(move |conn| at_once(work(&Lite(conn.clone()))))
    }
}
