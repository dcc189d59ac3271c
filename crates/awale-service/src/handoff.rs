//! Moving a seat to another device: a private link made for one player's
//! seat, taken once by another browser within ten minutes. Only the
//! token's digest is kept (in memory: a restart forgets the links).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Kind};
use crate::game::{now_ms, PlayerId, WebGame};
use crate::games::Games;
use crate::secret::{digest, new_secret};

/// How long a "continue on another device" link works.
pub const HANDOFF_MS: i64 = 10 * 60 * 1000;
/// Links that may wait at once.
const MAX_WAITING: usize = 10_000;

/// A seat waiting to move to another device.
struct Handoff {
    game: i64,
    player: PlayerId,
    expires_ms: i64,
}

/// The links waiting to be taken, by their token's digest.
#[derive(Default)]
pub struct Handoffs {
    waiting: Mutex<HashMap<String, Handoff>>,
}

impl Handoffs {
    /// A token for `me`'s seat of online game `id`, to put in a link.
    ///
    /// # Errors
    ///
    /// `not_your_seat`; `busy` when too many links wait; `internal` when
    /// the system gives no random bytes.
    pub async fn offer(&self, games: &Arc<Games>, id: i64, me: PlayerId) -> Result<String, Error> {
        let game = games.load(id).await?;
        if game.online_seat(Some(&me)).is_none() {
            return Err(
                Error::forbidden("not_your_seat", "you hold no seat in this game")
                    .because("watching"),
            );
        }
        let token = new_secret().map_err(|e| Error::internal(format!("no random bytes: {e}")))?;
        let now = now_ms();
        let mut waiting = crate::lock(&self.waiting);
        waiting.retain(|_, h| h.expires_ms > now);
        if waiting.len() > MAX_WAITING {
            return Err(Error::new(
                Kind::Busy,
                "busy",
                "too many links waiting: try later",
            ));
        }
        waiting.insert(
            digest(&token),
            Handoff {
                game: id,
                player: me,
                expires_ms: now + HANDOFF_MS,
            },
        );
        Ok(token)
    }

    /// `me` takes the seat `token` was made for; the game.
    ///
    /// # Errors
    ///
    /// `no_such_link` when the token is unknown, used or expired; the
    /// model's hand-over rules.
    pub async fn take(
        &self,
        games: &Arc<Games>,
        token: &str,
        me: PlayerId,
    ) -> Result<WebGame, Error> {
        let handoff = crate::lock(&self.waiting)
            .remove(&digest(token))
            .filter(|h| h.expires_ms > now_ms())
            .ok_or_else(|| {
                Error::new(
                    Kind::NotFound,
                    "no_such_link",
                    "this link is unknown, used or expired: make a new one on the other device",
                )
            })?;
        let (game, _) = games
            .change(handoff.game, |g| g.hand_over(&handoff.player, me))
            .await?;
        Ok(game)
    }
}
