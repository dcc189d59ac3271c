//! What a player does to a game, one typed operation each (lila's round
//! module takes one message per act: `HumanPlay`, `Resign`, ...): a move,
//! undo and redo, resigning, a hint, a review. Each checks who asks, makes
//! its change under the game's lock, stores it and answers with the game.
//! The takeback and draw offers, abort, claim and rematch are in
//! [`crate::round`].

use std::sync::Arc;

use awale_core::{Move, Side};
use awale_model::error::{Error, Kind};
use awale_model::game::{PlayerId, WebGame};
use serde::{Deserialize, Serialize};

use super::Games;
use crate::computer::{self, Asker, Hint, ReviewRow};
use awale_model::Code;

/// The one check of a request that names the number of moves it saw
/// (`expected`): `stale` when the game has another number, so a double
/// click or a stale page cannot act twice.
///
/// # Errors
///
/// `stale`, with `plies` and `expected`.
pub fn check_ply(game: &WebGame, expected: Option<usize>) -> Result<(), Error> {
    let plies = game.game.plies().len();
    match expected {
        Some(e) if e != plies => Err(Error::conflict(
            Code::Stale,
            format!(
                "the game has {plies} move{}, the request expected {e}: reload the game",
                if plies == 1 { "" } else { "s" }
            ),
        )
        .with("plies", plies)
        .with("expected", e)),
        _ => Ok(()),
    }
}

/// Whether `player` may play `mv` in `game`: one of its players, on their
/// side's turn, never the computer's.
fn check_mover(game: &WebGame, player: Option<&PlayerId>, mv: Move) -> Result<(), Error> {
    // A stranger is refused as one, whoever is to move.
    if game.sides_of(player).is_empty() {
        game.check_side(player, mv.side())?;
    }
    if game.computer_to_move() {
        return Err(
            Error::conflict(Code::NotYourTurn, "it is the computer's turn").because("computer"),
        );
    }
    game.check_side(player, mv.side())
}

/// A game's review, as stored and answered.
#[derive(Serialize)]
pub struct Review {
    /// The form it is written in ([`computer::REVIEW_VERSION`]; absent
    /// before 2).
    pub version: u32,
    /// The game's public id.
    pub id: String,
    /// Each move, reviewed.
    pub plies: Vec<ReviewRow>,
    /// Each side's accuracy (docs/ACCURACY.md), South first.
    pub accuracy: Vec<crate::accuracy::Accuracy>,
    /// How the game ended.
    pub end: Option<awale_model::view::EndView>,
}

/// Whether a stored review is of the form reviews are made in now: an
/// older one (its costs counted a forced result as ±50 seeds) is made
/// again.
fn current_form(body: &str) -> bool {
    #[derive(Deserialize)]
    struct Form {
        version: Option<u32>,
    }
    serde_json::from_str::<Form>(body).is_ok_and(|f| f.version == Some(computer::REVIEW_VERSION))
}

/// Whether the player acting through the pages is a bot's account,
/// which acts in its online games through the bot API only.
struct BotAtThePages(bool);

impl BotAtThePages {
    /// `bot_api_only` when `game` is online and the player a bot.
    fn check(&self, game: &WebGame) -> Result<(), Error> {
        if self.0 && game.mode == awale_model::game::Mode::Online {
            return Err(crate::bots::bot_api_only());
        }
        Ok(())
    }
}

impl Games {
    /// Whether `player`, acting through the pages, is a bot's account.
    async fn bot_at_the_pages(&self, player: Option<&PlayerId>) -> Result<BotAtThePages, Error> {
        Ok(BotAtThePages(match player {
            Some(p) => self.is_bot(p).await?,
            None => false,
        }))
    }

    /// `player` plays `mv` in game `id`, having seen `ply` moves. The same
    /// move sent again for the same ply (a double click, a resent request)
    /// is played once: the second time the answer is the game as it is.
    ///
    /// # Errors
    ///
    /// `stale` when the game has moved on otherwise; `not_your_seat`,
    /// `not_your_turn` (the computer's turn: because `computer`),
    /// `illegal_move`, `game_over`; `bot_api_only` (a bot's account in an
    /// online game: it moves through the bot API, [`crate::bots::Api::play`]).
    pub async fn play(
        self: &Arc<Self>,
        id: i64,
        player: Option<&PlayerId>,
        ply: Option<usize>,
        mv: Move,
    ) -> Result<WebGame, Error> {
        let bot = self.bot_at_the_pages(player).await?;
        self.apply_move(id, ply, mv, |game| {
            bot.check(game)?;
            check_mover(game, player, mv)
        })
        .await
        .map(|(game, ())| game)
    }

    /// `player` takes back their last move (`redo`: plays it again) in
    /// game `id`, having seen `ply` moves.
    ///
    /// # Errors
    ///
    /// `stale`, `not_your_seat`, the model's (`nothing_to_undo`, ...).
    pub async fn undo(
        self: &Arc<Self>,
        id: i64,
        player: Option<&PlayerId>,
        ply: Option<usize>,
        redo: bool,
    ) -> Result<WebGame, Error> {
        let (game, ()) = self
            .change(id, |game| {
                check_ply(game, ply)?;
                game.side_for(player)?;
                let now = self.now_ms();
                if redo {
                    game.redo(now)
                } else {
                    game.undo(now)
                }
            })
            .await?;
        Ok(game)
    }

    /// `player` resigns game `id` for `side` (by default their own: the
    /// side to move on one screen).
    ///
    /// # Errors
    ///
    /// `not_your_seat`, `game_over`; `bot_api_only` (a bot's account in
    /// an online game: it resigns through the bot API,
    /// [`crate::bots::Api::resign`]).
    pub async fn resign(
        self: &Arc<Self>,
        id: i64,
        player: Option<&PlayerId>,
        side: Option<Side>,
    ) -> Result<WebGame, Error> {
        let bot = self.bot_at_the_pages(player).await?;
        let (game, ()) = self
            .change(id, |game| {
                bot.check(game)?;
                let side = match side {
                    Some(s) => {
                        game.check_side(player, s)?;
                        s
                    }
                    None => game.side_for(player)?,
                };
                // The games' clock, under the game's lock: the clocks kept
                // are those of this moment.
                game.resign(side, self.now_ms())
            })
            .await?;
        Ok(game)
    }

    /// The computer this service plays and helps with.
    fn computer(&self) -> Result<&Arc<computer::Computer>, Error> {
        self.player
            .as_ref()
            .map(|p| &p.computer)
            .ok_or_else(|| Error::internal("this server has no computer"))
    }

    /// A hint for `viewer` in game `id`: the engine's best move for the
    /// side to move, every move's score, and the database's value where it
    /// has one, searched for `budget`. Stops when `asker` goes away. The
    /// rule is the view's `can_hint` ([`WebGame::hint_refusal`]).
    ///
    /// # Errors
    ///
    /// `game_over`, `not_fair`, `no_hint`, `busy`.
    pub async fn hint(
        self: &Arc<Self>,
        id: i64,
        viewer: Option<&PlayerId>,
        asker: Asker,
        budget: std::time::Duration,
    ) -> Result<Hint, Error> {
        let game = self.load(id).await?;
        if let Some(refusal) = game.hint_refusal(Some(viewer)) {
            return Err(refusal);
        }
        let computer = Arc::clone(self.computer()?);
        computer
            .run_stoppable(asker, move |c, stop| c.hint(&game.game, budget, stop))
            .await
    }

    /// Game `id`'s stored review (JSON), if it has one of all its moves in
    /// the current form.
    ///
    /// # Errors
    ///
    /// `no_review`, or a storage failure.
    pub async fn stored_review(self: &Arc<Self>, id: i64) -> Result<String, Error> {
        let game = self.load(id).await?;
        match self.store.review(id).await? {
            Some((plies, body)) if plies == game.game.plies().len() && current_form(&body) => {
                Ok(body)
            }
            _ => Err(Error::new(
                Kind::NotFound,
                Code::NoReview,
                "this game has not been reviewed yet (POST to review it)",
            )),
        }
    }

    /// Game `id`'s review (JSON, a [`Review`]): every move scored with the
    /// same search budget (the same game always gets the same review), the
    /// evaluation after each (South's view), mistakes with the better
    /// move. Stored with the game and given again at once. Stops when
    /// `asker` goes away. The rule is the view's `can_review`
    /// ([`WebGame::review_refusal`]).
    ///
    /// # Errors
    ///
    /// `game_not_over`, `nothing_to_review`, `busy`, a storage failure.
    pub async fn review(self: &Arc<Self>, id: i64, asker: Asker) -> Result<String, Error> {
        let game = self.load(id).await?;
        if let Some(refusal) = game.review_refusal() {
            return Err(refusal);
        }
        let plies = game.game.plies().len();
        if let Some((stored, body)) = self.store.review(id).await? {
            if stored == plies && current_form(&body) {
                return Ok(body);
            }
        }
        let core = game.game.clone();
        let rows = Arc::clone(self.computer()?)
            .run_stoppable(asker, move |c, stop| c.review(&core, stop))
            .await?;
        if rows.len() < plies {
            return Err(Error::internal("the review was stopped"));
        }
        let end = game.head(self.now_ms()).end;
        let body = serde_json::to_string(&Review {
            version: computer::REVIEW_VERSION,
            id: game.public_id.clone(),
            accuracy: crate::accuracy::accuracies(&rows),
            plies: rows,
            end,
        })
        .map_err(|e| Error::internal(format!("review not written: {e}")))?;
        self.store.save_review(id, plies, body.clone()).await?;
        Ok(body)
    }
}
