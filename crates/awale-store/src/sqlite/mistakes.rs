//! A player's mistakes ([`MistakeStore`]) in the games file.

use rusqlite::params;

use super::rows::{query_all, query_opt};
use super::Store;
use crate::interface::StoreFuture;
use crate::mistakes::*;
use awale_model::game::PlayerId;

impl MistakeStore for Store {
    fn add_mistakes(&self, rows: Vec<MistakeRow>) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            let mut add = conn.prepare_cached(ADD)?;
            for m in &rows {
                add.execute(params![
                    m.player.0,
                    m.game,
                    m.ply,
                    m.rules,
                    m.position,
                    m.played,
                    m.best,
                    m.solved,
                    m.tries,
                    m.created_ms,
                    m.due_ms
                ])?;
            }
            Ok(())
        }))
    }

    fn mistakes(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<MistakeRow>> {
        Box::pin(self.read(move |conn| {
            query_all(conn, &list_sql(), params![player.0, limit as i64], |r| {
                mistake_of(r)
            })
        }))
    }

    fn mistake(&self, player: PlayerId, id: i64) -> StoreFuture<'_, Option<MistakeRow>> {
        Box::pin(self.read(move |conn| {
            query_opt(conn, &one_sql(), params![player.0, id], |r| mistake_of(r))
        }))
    }

    fn mistake_tried(
        &self,
        player: PlayerId,
        id: i64,
        solved: bool,
        due_ms: i64,
    ) -> StoreFuture<'_, Option<MistakeRow>> {
        Box::pin(self.write(move |conn| {
            query_opt(
                conn,
                &tried_sql(),
                params![player.0, id, i64::from(solved), due_ms],
                |r| mistake_of(r),
            )
        }))
    }
}
