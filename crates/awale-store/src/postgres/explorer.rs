//! The opening explorer's counting in PostgreSQL: [`ExplorerStore`] as the
//! games file's (`../explorer.rs`), the same query.

use super::PgStore;
use crate::cells::dollar_params;
use crate::explorer::{opening_move_of, ExplorerStore, OpeningMove, OPENING_MOVES};
use crate::StoreFuture;

impl ExplorerStore for PgStore {
    fn opening_moves(
        &self,
        rules: String,
        start: String,
        line: String,
    ) -> StoreFuture<'_, Vec<OpeningMove>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(OPENING_MOVES);
            let plies = line.chars().count() as i64;
            super::rows::query_all(
                &client,
                &sql,
                &[&rules, &start, &line, &plies],
                opening_move_of,
            )
            .await
        })
    }
}
