//! Moving a seat to another device: a private link made for one player's
//! seat, taken once by another browser within ten minutes. Only the
//! token's digest is kept (in memory: a restart forgets the links), and
//! a player's few newest links only. A rated seat is never handed over:
//! its result is its account's, so the other device logs in instead.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Kind};
use crate::game::{PlayerId, WebGame};
use crate::games::Games;
use crate::secret::{digest, new_secret};
use awale_model::Code;

/// How long a "continue on another device" link works.
pub const HANDOFF_MS: i64 = 10 * 60 * 1000;
/// Links that may wait at once.
const MAX_WAITING: usize = 10_000;
/// Links that may wait for one player: a new one replaces their oldest,
/// so one player's links never fill the room everyone's wait in.
pub const PER_PLAYER: usize = 3;

/// A seat waiting to move to another device.
struct Handoff {
    game: i64,
    player: PlayerId,
    expires_ms: i64,
    /// The how-manieth link made: the oldest is the lowest (several may
    /// be made within one millisecond).
    made: u64,
}

/// The links waiting to be taken, by their token's digest.
#[derive(Default)]
pub struct Handoffs {
    waiting: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    links: HashMap<String, Handoff>,
    made: u64,
}

impl Handoffs {
    /// A token for `me`'s seat of online game `id`, to put in a link;
    /// `me`'s oldest link stops working when [`PER_PLAYER`] wait.
    ///
    /// # Errors
    ///
    /// `not_your_seat`; `rated_seat` in a rated game (a rated seat stays
    /// with its account); `too_many` (because `handoff_links`: the
    /// caller's limit, [`crate::limits`]); `busy` when too many links
    /// wait; `internal` when the system gives no random bytes.
    pub async fn offer(
        &self,
        games: &Arc<Games>,
        id: i64,
        caller: impl Into<crate::limits::Caller>,
    ) -> Result<String, Error> {
        let caller = caller.into();
        let me = caller.player.clone();
        let game = games.load(id).await?;
        if game.online_seat(Some(&me)).is_none() {
            return Err(
                Error::forbidden(Code::NotYourSeat, "you hold no seat in this game")
                    .because("watching"),
            );
        }
        if game.rated {
            // Its result is the account's: another device logs in.
            return Err(crate::game::rated_seat());
        }
        games.limits().take(
            crate::limiter::Limit::HandoffLinks,
            &caller,
            1,
            games.now_ms(),
        )?;
        let token = new_secret().map_err(|e| Error::internal(format!("no random bytes: {e}")))?;
        let now = games.now_ms();
        let mut waiting = crate::lock(&self.waiting);
        let Waiting { links, made } = &mut *waiting;
        links.retain(|_, h| h.expires_ms > now);
        let mine = || links.iter().filter(|(_, h)| h.player == me);
        if mine().count() >= PER_PLAYER {
            if let Some(oldest) = mine().min_by_key(|(_, h)| h.made).map(|(d, _)| d.clone()) {
                links.remove(&oldest);
            }
        }
        if links.len() > MAX_WAITING {
            return Err(Error::new(
                Kind::Busy,
                Code::Busy,
                "too many links waiting: try later",
            ));
        }
        *made += 1;
        links.insert(
            digest(&token),
            Handoff {
                game: id,
                player: me,
                expires_ms: now + HANDOFF_MS,
                made: *made,
            },
        );
        Ok(token)
    }

    /// `me` takes the seat `token` was made for; the game.
    ///
    /// # Errors
    ///
    /// `no_such_link` when the token is unknown, used, expired or
    /// replaced by its maker's newer links; the model's hand-over rules
    /// (`already_seated` for the opponent).
    pub async fn take(
        &self,
        games: &Arc<Games>,
        token: &str,
        me: PlayerId,
    ) -> Result<WebGame, Error> {
        let handoff = crate::lock(&self.waiting)
            .links
            .remove(&digest(token))
            .filter(|h| h.expires_ms > games.now_ms())
            .ok_or_else(|| {
                Error::new(
                    Kind::NotFound,
                    Code::NoSuchLink,
                    "this link is unknown, used, expired or replaced: make a new one on the other device",
                )
            })?;
        games.hand_over(handoff.game, &handoff.player, me).await
    }
}

impl Games {
    /// `from`'s seat in game `id` goes to `to` (a hand-over link taken).
    ///
    /// # Errors
    ///
    /// The model's hand-over rules (`already_seated`, `rated_seat`, ...).
    pub async fn hand_over(
        self: &Arc<Self>,
        id: i64,
        from: &PlayerId,
        to: PlayerId,
    ) -> Result<WebGame, Error> {
        let (game, _side) = self.change(id, |g| g.hand_over(from, to.clone())).await?;
        Ok(game)
    }
}
