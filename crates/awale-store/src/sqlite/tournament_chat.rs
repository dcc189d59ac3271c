//! Tournaments' chat rooms ([`TournamentChatStore`]) in the games file.

use rusqlite::params;

use super::rows::{add_chat_line, query_all};
use super::Store;
use crate::interface::StoreFuture;
use crate::tournament_chat::*;

impl TournamentChatStore for Store {
    fn add_tournament_chat(
        &self,
        tournament: i64,
        mut said: TournamentChatLine,
    ) -> StoreFuture<'_, TournamentChatLine> {
        Box::pin(self.write(move |conn| {
            let l = &said.line;
            said.line.id = add_chat_line(
                conn,
                ADD_LINE,
                params![tournament, l.at_ms, said.player.0, l.name, l.text, l.guest],
                KEEP_LAST,
                tournament,
            )?;
            Ok(said)
        }))
    }

    fn tournament_chat(
        &self,
        tournament: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<TournamentChatLine>> {
        Box::pin(self.read(move |conn| {
            let values = params![tournament, limit as i64];
            let mut lines = query_all(conn, LAST_LINES, values, |r| line_of(r))?;
            lines.reverse();
            Ok(lines)
        }))
    }

    fn remove_tournament_chat_line(&self, tournament: i64, line: i64) -> StoreFuture<'_, bool> {
        Box::pin(self.write(move |conn| {
            Ok(conn
                .prepare_cached("DELETE FROM tournament_chat WHERE tournament_id = ?1 AND id = ?2")?
                .execute(params![tournament, line])?
                > 0)
        }))
    }
}
