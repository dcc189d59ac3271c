//! A tournament's chat room in PostgreSQL: [`TournamentChatStore`] as the
//! games file's (`../tournament_chat.rs`), query for query.

use super::PgStore;
use crate::cells::dollar_params;
use crate::tournament_chat::{
    line_of, TournamentChatLine, TournamentChatStore, ADD_LINE, KEEP_LAST, LAST_LINES,
};
use crate::{Notice, StoreFuture};

impl TournamentChatStore for PgStore {
    fn add_tournament_chat(
        &self,
        tournament: i64,
        said: TournamentChatLine,
    ) -> StoreFuture<'_, TournamentChatLine> {
        let me = self.clone();
        self.run(async move {
            let mut said = said;
            let l = &said.line;
            said.line.id = me
                .add_chat_line(
                    ADD_LINE,
                    &[
                        &tournament,
                        &l.at_ms,
                        &said.player.0,
                        &l.name,
                        &l.text,
                        &l.guest.map(i64::from),
                    ],
                    KEEP_LAST,
                    tournament,
                    |line| Notice::TournamentChat {
                        tournament,
                        line,
                        removed: false,
                    },
                )
                .await?;
            Ok(said)
        })
    }

    fn tournament_chat(
        &self,
        tournament: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<TournamentChatLine>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(LAST_LINES);
            let mut lines =
                super::rows::query_all(&client, &sql, &[&tournament, &(limit as i64)], line_of)
                    .await?;
            lines.reverse();
            Ok(lines)
        })
    }

    fn remove_tournament_chat_line(&self, tournament: i64, line: i64) -> StoreFuture<'_, bool> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let removed = client
                .execute(
                    "DELETE FROM tournament_chat WHERE tournament_id = $1 AND id = $2",
                    &[&tournament, &line],
                )
                .await?
                > 0;
            if removed {
                me.announce(
                    &client,
                    Notice::TournamentChat {
                        tournament,
                        line,
                        removed: true,
                    },
                )
                .await?;
            }
            Ok(removed)
        })
    }
}
