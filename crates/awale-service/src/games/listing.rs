//! What is read of the games and their players beyond one game: a
//! player's games a page at a time, the game they play now, the
//! nicknames players chose.

use std::sync::Arc;

use awale_model::error::Error;
use awale_model::game::{PlayerId, WebGame};
use awale_model::lists::Page;

use super::Games;

impl Games {
    /// `player`'s games (none without a player), newest first, `limit` at
    /// most, before `before` (a page's `next`, read by
    /// `awale_store::parse_cursor`).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn list(
        &self,
        player: Option<PlayerId>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> Result<Page, Error> {
        Ok(self.store.list(player, before, limit).await?)
    }

    /// `player`'s game going on with the latest move (or making), if any
    /// (its flag falls first if its time ran out).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn current(
        self: &Arc<Self>,
        player: Option<&PlayerId>,
    ) -> Result<Option<WebGame>, Error> {
        match self.store.current(player.cloned()).await? {
            None => Ok(None),
            Some(id) => Ok(Some(self.load(id).await?)),
        }
    }

    /// The nickname `player` chose, if any (a dropped one is none).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn player_name(&self, player: &PlayerId) -> Result<Option<String>, Error> {
        let name = self.store.player_name(player.clone()).await?;
        Ok(name.filter(|n| !n.is_empty()))
    }

    /// `player`'s nickname is now `name` (empty: none), in their games
    /// going on too.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn set_player_name(&self, player: &PlayerId, name: String) -> Result<(), Error> {
        let now = self.now_ms();
        Ok(self
            .store
            .set_player_name(player.clone(), name, now)
            .await?)
    }
}
