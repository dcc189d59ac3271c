//! What players do to a game beyond its moves, as service operations on the
//! games in use (lila's round module, its `Takebacker` and `Rematcher`, is
//! the model): takebacks asked and answered, draws offered and answered,
//! abort, the withdrawal of a challenge whose maker left, claims,
//! rematches. Who may do what is the
//! model's ([`crate::game`]); each operation finds the asker's seat, makes
//! its change under the game's lock and stores it before it answers.

use std::sync::Arc;
use std::time::Duration;

use awale_core::Side;

use crate::bots::Door;
use crate::error::Error;
use crate::game::{Mode, PlayerId, Stop, WebGame};
use crate::games::Games;
use awale_model::Code;

/// What one player of a game going on offers the other, who answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Take the last move back.
    Takeback,
    /// End the game drawn.
    Draw,
}

impl Games {
    /// Applies `change` to online game `id` for `me`, the player of one of
    /// its seats (`change` is given their side), asked through the pages.
    ///
    /// # Errors
    ///
    /// As [`Games::online_change_through`].
    pub(crate) async fn online_change(
        self: &Arc<Self>,
        id: i64,
        me: &PlayerId,
        change: impl FnMut(&mut WebGame, Side) -> Result<(), Error>,
    ) -> Result<WebGame, Error> {
        self.online_change_through(id, me, Door::Page, change).await
    }

    /// [`Games::online_change`] asked through `door`: a bot's account acts
    /// in its games through the bot API only.
    ///
    /// # Errors
    ///
    /// `bot_api_only` (a bot's account through the pages), `not_online`,
    /// `not_your_seat`, `change`'s, or as [`Games::change`].
    pub(crate) async fn online_change_through(
        self: &Arc<Self>,
        id: i64,
        me: &PlayerId,
        door: Door,
        mut change: impl FnMut(&mut WebGame, Side) -> Result<(), Error>,
    ) -> Result<WebGame, Error> {
        if door == Door::Page {
            self.check_not_bot(me).await?;
        }
        let (game, ()) = self
            .change(id, |g| {
                if g.mode != Mode::Online {
                    return Err(Error::conflict(
                        Code::NotOnline,
                        "this game is not played online",
                    ));
                }
                let side = g.online_seat(Some(me)).ok_or_else(|| {
                    Error::forbidden(
                        Code::NotYourSeat,
                        "you hold no seat in this game: you can watch, not play",
                    )
                    .because("watching")
                })?;
                change(g, side)
            })
            .await?;
        Ok(game)
    }

    /// `me` makes `offer` (`accept` None: asks for a takeback, offers a
    /// draw) or answers the other's: yes takes the last move back or ends
    /// the game drawn, no tells the one who offered.
    ///
    /// # Errors
    ///
    /// As [`Games::online_change`] and the model's takeback and draw rules
    /// (`draw_too_early`, `draw_pending`, `draw_declined`, `no_draw`).
    pub async fn offer(
        self: &Arc<Self>,
        id: i64,
        me: &PlayerId,
        offer: Offer,
        accept: Option<bool>,
    ) -> Result<WebGame, Error> {
        self.offer_through(id, me, offer, accept, Door::Page).await
    }

    /// [`Games::offer`] made through `door`.
    ///
    /// # Errors
    ///
    /// As [`Games::offer`] and [`Games::online_change_through`].
    pub async fn offer_through(
        self: &Arc<Self>,
        id: i64,
        me: &PlayerId,
        offer: Offer,
        accept: Option<bool>,
        door: Door,
    ) -> Result<WebGame, Error> {
        self.online_change_through(id, me, door, |g, side| match (offer, accept) {
            (Offer::Takeback, None) => g.ask_takeback(side),
            (Offer::Takeback, Some(yes)) => g.answer_takeback(side, yes, self.now_ms()),
            (Offer::Draw, None) => g.offer_draw(side),
            (Offer::Draw, Some(yes)) => g.answer_draw(side, yes, self.now_ms()),
        })
        .await
    }

    /// `me` aborts a game that has not really begun, or withdraws a
    /// challenge nobody took.
    ///
    /// # Errors
    ///
    /// As [`Games::online_change`]; `cannot_abort`.
    pub async fn abort(self: &Arc<Self>, id: i64, me: &PlayerId) -> Result<WebGame, Error> {
        self.online_change(id, me, |g, side| {
            if g.waiting() && g.end().is_none() {
                return g.withdraw();
            }
            g.abort(side, self.now_ms())
        })
        .await
    }

    /// `me` claims the win: the other player, to move, has been gone for two
    /// minutes (games without a clock).
    ///
    /// # Errors
    ///
    /// As [`Games::online_change`]; `cannot_claim`.
    pub async fn claim(self: &Arc<Self>, id: i64, me: &PlayerId) -> Result<WebGame, Error> {
        self.online_change(id, me, |g, side| {
            let gone = g.gone_since[side.opponent().index()];
            g.claim(side, gone, self.now_ms())
        })
        .await
    }

    /// `me` offers a rematch, or accepts the other's: then a new game
    /// starts with the colours swapped, and both are sent to it
    /// (`offers.rematch_id`). The new game is made first, then linked: a
    /// failure in between leaves the offer open (accepting again makes
    /// another), never a game stuck.
    ///
    /// Asking (offering or accepting) counts as a game made for the asker
    /// ([`crate::limits::Limits::game_offered`]): a rematch skips no limit.
    ///
    /// # Errors
    ///
    /// `bot_api_only` (a bot's account: it plays again through the bot
    /// API's challenges), `not_your_seat`, `too_many` (because `games` or `offers`), `stale`
    /// (the other has just offered: accept again), `no_rematch` (the offer
    /// was withdrawn), the model's rematch rules.
    pub async fn rematch(
        self: &Arc<Self>,
        id: i64,
        caller: impl Into<crate::limits::Caller>,
    ) -> Result<WebGame, Error> {
        let caller = caller.into();
        let me = &caller.player;
        self.check_not_bot(me).await?;
        let seat = |g: &WebGame| {
            g.online_seat(Some(me)).ok_or_else(|| {
                Error::forbidden(Code::NotYourSeat, "only the players can ask for a rematch")
                    .because("watching")
            })
        };
        let game = self.load(id).await?;
        let side = seat(&game)?;
        // The model's rules first: a refusal costs nothing.
        game.may_offer_rematch()?;
        self.limits().game_offered(&caller, self.now_ms())?;
        if game.offers.rematch != Some(side.opponent()) {
            let (game, ()) = self
                .change(id, |g| {
                    if g.offer_rematch(seat(g)?)? {
                        // The other's offer came meanwhile: accept it again.
                        return Err(Error::conflict(
                            Code::Stale,
                            "the other player has just offered",
                        ));
                    }
                    Ok(())
                })
                .await?;
            return Ok(game);
        }
        let next = self
            .create(vec![game.rematch_game(self.now_ms())])
            .await?
            .remove(0);
        let linked = self
            .change(id, |g| {
                if !g.offer_rematch(seat(g)?)? {
                    return Err(Error::conflict(
                        Code::NoRematch,
                        "the rematch offer was withdrawn",
                    ));
                }
                g.offers.rematch = None;
                g.offers.rematch_id = Some(next.id);
                g.offers.rematch_public_id = Some(next.public_id.clone());
                Ok(())
            })
            .await;
        match linked {
            Ok((game, ())) => Ok(game),
            Err(e) => {
                // Another acceptance won: this game is not needed.
                let _ = self
                    .change(next.id, |g| {
                        g.stop = Some(Stop::Aborted);
                        Ok(())
                    })
                    .await;
                Err(e)
            }
        }
    }

    /// `me` declines the other player's rematch offer.
    ///
    /// # Errors
    ///
    /// As [`Games::online_change`] and the model's rematch rules.
    pub async fn decline_rematch(
        self: &Arc<Self>,
        id: i64,
        me: &PlayerId,
    ) -> Result<WebGame, Error> {
        self.online_change(id, me, |g, side| g.decline_rematch(side))
            .await
    }

    /// How long the maker of a waiting online game may be away (never
    /// come yet, or gone) before it is withdrawn ([`crate::games::CHALLENGE_GRACE`] by
    /// default).
    pub fn set_challenge_grace(&self, grace: Duration) {
        self.challenge_grace_ms.store(
            grace.as_millis() as i64,
            std::sync::atomic::Ordering::Relaxed,
        );
    }

    /// After the challenge grace, withdraws online game `id` if it still
    /// waits for its second player and its maker (on `side`) is still gone
    /// (or never came).
    pub fn withdraw_when_gone(self: &Arc<Self>, id: i64, side: Side) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            let grace = games
                .challenge_grace_ms
                .load(std::sync::atomic::Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(grace.max(0) as u64)).await;
            if games.hub().gone_since(id, side, 0).is_none() {
                return;
            }
            // A game begun or over does not wait again: judged on the copy
            // held here, without a round trip to the store (every game's
            // maker leaves it once it is over).
            let settled = |g: &WebGame| !g.waiting() || g.end().is_some();
            if games.load_held(id).await.is_ok_and(|g| settled(&g)) {
                return;
            }
            if games.withdraw(id).await.is_ok() {
                tracing::debug!(game = id, "challenge withdrawn: its maker left");
            }
        });
    }

    /// Withdraws online game `id`, a challenge nobody took (its maker
    /// left).
    ///
    /// # Errors
    ///
    /// `not_waiting` when the game has begun, or as [`Games::load`].
    pub async fn withdraw(self: &Arc<Self>, id: i64) -> Result<WebGame, Error> {
        let (game, ()) = self.change(id, WebGame::withdraw).await?;
        Ok(game)
    }
}
