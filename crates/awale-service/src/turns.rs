//! Games over days: the games where it is a player's move, for the page
//! that lists them first and counts them in its tab's title.

use std::sync::Arc;

use serde::Serialize;

use crate::error::Error;
use crate::game::PlayerId;
use crate::games::Games;
use awale_model::lists::Summary;
use awale_model::Code;

/// How many of a player's turns are listed at most.
pub const TURNS_LISTED: usize = 100;

/// A game where it is the player's move.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// The game, as the list of games shows it.
    #[serde(flatten)]
    pub game: Summary,
    /// When the player's flag falls if they do not move (ms since 1970),
    /// for a game with a clock running.
    pub deadline_ms: Option<i64>,
}

impl Games {
    /// The online games going on where it is `player`'s move, the one
    /// whose flag falls first first (then the longest waiting). Each is
    /// read through the games in use, so a flag that fell unseen falls
    /// now and the game leaves the list.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn turns(self: &Arc<Self>, player: &PlayerId) -> Result<Vec<Turn>, Error> {
        let listed = self.store().turns(player.clone(), TURNS_LISTED).await?;
        let mut turns = Vec::with_capacity(listed.len());
        for summary in listed {
            let game = match self.load(summary.id).await {
                Ok(game) => game,
                Err(e) if e.code == Code::NoSuchGame => continue,
                Err(e) => return Err(e),
            };
            let mine = game.seats[game.game.position().to_move().index()]
                .as_ref()
                .is_some_and(|seat| seat.player == *player);
            if game.end().is_some() || !mine {
                continue;
            }
            turns.push(Turn {
                deadline_ms: game.flag_deadline(),
                game: summary,
            });
        }
        turns.sort_by_key(|t| t.deadline_ms.unwrap_or(i64::MAX));
        Ok(turns)
    }
}
