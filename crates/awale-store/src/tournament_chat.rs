//! A tournament's chat room as the store keeps it, behind its own
//! interface ([`TournamentChatStore`], which the PostgreSQL store fills
//! too): each line with the player who said it (never shown: the service
//! hides the lines of a player the reader blocks); a tournament keeps its
//! last [`CHAT_KEPT`] lines.

use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::StoreFuture;
use crate::interface::Notice;
use crate::rows::add_chat_line;
use crate::tx::{Backend, Tx};
use awale_model::lists::ChatLine;

/// A line of a tournament's chat and who said it.
#[derive(Clone, Debug)]
pub struct TournamentChatLine {
    /// The line as readers see it (room `public`, no side).
    pub line: ChatLine,
    /// Who said it.
    pub player: PlayerId,
}

/// Where the tournaments' chat rooms are kept.
pub trait TournamentChatStore: Send + Sync {
    /// Adds `line` to tournament `tournament`'s room; the line with its
    /// number.
    fn add_tournament_chat(
        &self,
        tournament: i64,
        line: TournamentChatLine,
    ) -> StoreFuture<'_, TournamentChatLine>;

    /// Tournament `tournament`'s last `limit` lines, oldest first.
    fn tournament_chat(
        &self,
        tournament: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<TournamentChatLine>>;

    /// Removes line `line` of tournament `tournament`: false when there is
    /// none.
    fn remove_tournament_chat_line(&self, tournament: i64, line: i64) -> StoreFuture<'_, bool>;
}

/// A room's last lines, newest first: tournament `?1`'s, `?2` at most.
pub(crate) const LAST_LINES: &str = "SELECT id, at_ms, player, name, text, guest
     FROM tournament_chat WHERE tournament_id = ?1 ORDER BY id DESC LIMIT ?2";

/// Adds a line to tournament `?1`'s room (time, player, name, text, guest
/// number): its number.
pub(crate) const ADD_LINE: &str =
    "INSERT INTO tournament_chat (tournament_id, at_ms, player, name, text, guest)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id";

/// Keeps tournament `?1`'s last `?2` + 1 lines only.
pub(crate) const KEEP_LAST: &str = "DELETE FROM tournament_chat WHERE tournament_id = ?1
     AND id < (SELECT id FROM tournament_chat WHERE tournament_id = ?1
               ORDER BY id DESC LIMIT 1 OFFSET ?2)";

/// A line from a row of [`LAST_LINES`], in either store.
pub(crate) fn line_of<R: Cells>(r: &R) -> Result<TournamentChatLine, R::Error> {
    let guest: Option<i64> = r.cell(5)?;
    Ok(TournamentChatLine {
        line: ChatLine {
            id: r.cell(0)?,
            room: "public",
            at_ms: r.cell(1)?,
            side: None,
            name: r.cell(3)?,
            text: r.cell(4)?,
            guest: guest.and_then(|g| u32::try_from(g).ok()),
        },
        player: PlayerId(r.cell(2)?),
    })
}

impl<S: Backend> TournamentChatStore for S {
    fn add_tournament_chat(
        &self,
        tournament: i64,
        mut said: TournamentChatLine,
    ) -> StoreFuture<'_, TournamentChatLine> {
        self.write(move |tx| {
            Box::pin(async move {
                let l = &said.line;
                let guest = l.guest.map(i64::from);
                let values: [&dyn Value; 6] = [
                    &tournament,
                    &l.at_ms,
                    &said.player.0,
                    &l.name,
                    &l.text,
                    &guest,
                ];
                let notice = |line| Notice::TournamentChat {
                    tournament,
                    line,
                    removed: false,
                };
                said.line.id =
                    add_chat_line(tx, ADD_LINE, &values, KEEP_LAST, tournament, notice).await?;
                Ok(said)
            })
        })
    }

    fn tournament_chat(
        &self,
        tournament: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<TournamentChatLine>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&tournament, &(limit as i64)];
                let mut lines = tx.query(LAST_LINES, &values, |r| line_of(r)).await?;
                lines.reverse();
                Ok(lines)
            })
        })
    }

    fn remove_tournament_chat_line(&self, tournament: i64, line: i64) -> StoreFuture<'_, bool> {
        self.write(move |tx| {
            Box::pin(async move {
                let removed = tx
                    .execute(
                        "DELETE FROM tournament_chat WHERE tournament_id = ?1 AND id = ?2",
                        &[&tournament, &line],
                    )
                    .await?
                    > 0;
                if removed {
                    let notice = Notice::TournamentChat {
                        tournament,
                        line,
                        removed: true,
                    };
                    tx.announce(notice).await?;
                }
                Ok(removed)
            })
        })
    }
}
