//! A player's mistakes as puzzles in PostgreSQL: [`MistakeStore`] as the
//! games file's (`../mistakes.rs`), query for query.

use awale_model::game::PlayerId;

use super::PgStore;
use crate::cells::dollar_params;
use crate::mistakes::{list_sql, mistake_of, one_sql, tried_sql, MistakeRow, MistakeStore, ADD};
use crate::StoreFuture;

impl MistakeStore for PgStore {
    fn add_mistakes(&self, rows: Vec<MistakeRow>) -> StoreFuture<'_, ()> {
        let me = self.clone();
        self.run(async move {
            let mut client = me.client().await?;
            let tx = client.transaction().await?;
            let add = tx.prepare(&dollar_params(ADD)).await?;
            for m in &rows {
                tx.execute(
                    &add,
                    &[
                        &m.player.0,
                        &m.game,
                        &m.ply,
                        &m.rules,
                        &m.position,
                        &m.played,
                        &m.best,
                        &m.solved,
                        &m.tries,
                        &m.created_ms,
                        &m.due_ms,
                    ],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn mistakes(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<MistakeRow>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(&list_sql());
            super::rows::query_all(&client, &sql, &[&player.0, &(limit as i64)], mistake_of).await
        })
    }

    fn mistake(&self, player: PlayerId, id: i64) -> StoreFuture<'_, Option<MistakeRow>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(&one_sql());
            let row = client.query_opt(&sql, &[&player.0, &id]).await?;
            Ok(row.as_ref().map(mistake_of).transpose()?)
        })
    }

    fn mistake_tried(
        &self,
        player: PlayerId,
        id: i64,
        solved: bool,
        due_ms: i64,
    ) -> StoreFuture<'_, Option<MistakeRow>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(&tried_sql());
            let row = client
                .query_opt(&sql, &[&player.0, &id, &i64::from(solved), &due_ms])
                .await?;
            Ok(row.as_ref().map(mistake_of).transpose()?)
        })
    }
}
