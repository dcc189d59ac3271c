//! A player's reviewed games (behind [`ReviewedStore`], which the
//! PostgreSQL store fills too): the stored reviews of their finished
//! online games, each with the game's speed and the side they played, for
//! their accuracy by speed on their page. The service reads the reviews;
//! here, the one query.

use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::StoreFuture;
use crate::tx::{Backend, Tx};

/// One reviewed game of a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerReview {
    /// The game's speed (its stored name).
    pub speed: String,
    /// The side the player played, `S` or `N`.
    pub side: char,
    /// The stored review (JSON).
    pub body: String,
}

/// Where a player's reviewed games are read.
pub trait ReviewedStore: Send + Sync {
    /// The reviews of `player`'s online games (each of a speed), the
    /// latest `limit` at most.
    fn player_reviews(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<PlayerReview>>;
}

/// Player `?1`'s reviewed online games, newest first, `?2` at most.
const PLAYER_REVIEWS: &str = "SELECT g.speed,
        CASE WHEN g.south_player = ?1 THEN 'S' ELSE 'N' END, r.body
     FROM games g JOIN reviews r ON r.game_id = g.id
     WHERE (g.south_player = ?1 OR g.north_player = ?1) AND g.speed IS NOT NULL
     ORDER BY g.updated_ms DESC, g.id DESC LIMIT ?2";

fn review_of<R: Cells>(r: &R) -> Result<PlayerReview, R::Error> {
    let side: String = r.cell(1)?;
    Ok(PlayerReview {
        speed: r.cell(0)?,
        side: if side == "S" { 'S' } else { 'N' },
        body: r.cell(2)?,
    })
}

impl<S: Backend> ReviewedStore for S {
    fn player_reviews(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<PlayerReview>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&player.0, &(limit as i64)];
                tx.query(PLAYER_REVIEWS, &values, |r| review_of(r)).await
            })
        })
    }
}
