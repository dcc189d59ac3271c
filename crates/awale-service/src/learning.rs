//! The learning part of a player's page: their puzzle rating and best
//! streak, and their accuracy by speed over their reviewed online games
//! (`GET /api/players/{name}/learning`).

use std::sync::Arc;

use awale_store::puzzles::PuzzleStore;
use awale_store::reviewed::ReviewedStore;
use awale_store::AccountStore;
use serde::Serialize;

use crate::accuracy::{self, SpeedAccuracy};
use crate::error::Error;
use crate::puzzles::SolverView;

/// Reviewed games a page's accuracies are the mean of, at most (the
/// latest).
pub const MAX_REVIEWS: usize = 200;

/// What a player's page shows of their learning.
#[derive(Clone, Debug, Serialize)]
pub struct LearningView {
    /// The player's username.
    pub username: String,
    /// Their puzzle rating, counts and best streak; null when they have
    /// tried no puzzle.
    pub puzzles: Option<SolverView>,
    /// Their mean accuracy by speed, the speeds with a reviewed game.
    pub accuracy: Vec<SpeedAccuracy>,
}

/// The learning parts of players' pages.
pub struct Learning {
    accounts: Arc<dyn AccountStore>,
    puzzles: Arc<dyn PuzzleStore>,
    reviews: Arc<dyn ReviewedStore>,
}

impl Learning {
    /// Players found in `accounts`, their puzzle ratings in `puzzles`,
    /// their reviewed games in `reviews`.
    pub fn new(
        accounts: Arc<dyn AccountStore>,
        puzzles: Arc<dyn PuzzleStore>,
        reviews: Arc<dyn ReviewedStore>,
    ) -> Learning {
        Learning {
            accounts,
            puzzles,
            reviews,
        }
    }

    /// The learning part of the page of the player named `name`.
    ///
    /// # Errors
    ///
    /// `no_such_player` (not found) when no open account has that name.
    pub async fn page(&self, name: &str) -> Result<LearningView, Error> {
        let key = name.trim().to_ascii_lowercase();
        let account = match self.accounts.account_by_key(key).await? {
            Some(account) if account.is_open() => account,
            _ => return Err(crate::players::no_player(name)),
        };
        let solver = self.puzzles.puzzle_solver(account.player.clone()).await?;
        let reviews = self
            .reviews
            .player_reviews(account.player, MAX_REVIEWS)
            .await?;
        Ok(LearningView {
            username: account.username,
            puzzles: solver.as_ref().map(|s| SolverView::of(Some(s))),
            accuracy: accuracy::by_speed(&reviews),
        })
    }
}
