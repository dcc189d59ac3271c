//! What the players of an online game ask of each other: a takeback, a
//! draw, a rematch (lila's `Takebacker`, `Drawer`, `Rematcher`), each
//! offered, accepted or declined by a side.

use awale_core::{Game, Side};
use serde::Serialize;

use super::{Mode, Stop, WebGame};
use crate::error::Error;
use crate::Code;

/// What the two players of an online game have asked of each other. The
/// view shows it as it is, each side by its letter (`S`, `N`), the rematch
/// by its public id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Offers {
    /// A takeback asked by this side, waiting for the other's answer.
    #[serde(serialize_with = "letter")]
    pub takeback: Option<Side>,
    /// A rematch offered by this side (after the end).
    #[serde(serialize_with = "letter")]
    pub rematch: Option<Side>,
    /// The rematch game, once accepted (its id in the store).
    #[serde(skip)]
    pub rematch_id: Option<i64>,
    /// The rematch game's public id, as the page names it.
    #[serde(rename = "rematch_id")]
    pub rematch_public_id: Option<String>,
    /// The side whose takeback request the other has just declined (until
    /// its next move or request), so that it is told. News of the moment:
    /// not stored.
    #[serde(serialize_with = "letter")]
    pub takeback_declined: Option<Side>,
    /// The side whose rematch offer the other has declined (until it
    /// offers again). Not stored either.
    #[serde(serialize_with = "letter")]
    pub rematch_declined: Option<Side>,
    /// A draw offered by this side, waiting for the other's answer.
    #[serde(serialize_with = "letter")]
    pub draw: Option<Side>,
    /// The side whose draw offer was declined (answered no, or the other
    /// moved instead of answering): it is told, and may offer again after
    /// its next move, so that offers cannot be repeated at every tick.
    #[serde(serialize_with = "letter")]
    pub draw_declined: Option<Side>,
}

/// A side in JSON: its letter, `S` or `N`.
fn letter<S: serde::Serializer>(side: &Option<Side>, out: S) -> Result<S::Ok, S::Error> {
    side.map(Side::letter).serialize(out)
}

impl WebGame {
    /// The rematch of this game: a new online game under the same rules and
    /// clock (full again), the colours swapped.
    pub fn rematch_game(&self, now: i64) -> WebGame {
        let mut next = WebGame::new(
            Mode::Online,
            Game::new(*self.game.rules()),
            now,
            self.seed.wrapping_add(1),
        );
        next.seats = [self.seats[1].clone(), self.seats[0].clone()];
        next.rated = self.rated;
        next.clock = self.clock.map(|mut c| {
            c.remaining_ms = [c.initial_ms; 2];
            c
        });
        next
    }

    /// `side` asks to take back the last move (online).
    ///
    /// # Errors
    ///
    /// `nothing_to_undo`, `game_over`, or `takeback_pending` when one is
    /// already asked.
    pub fn ask_takeback(&mut self, side: Side) -> Result<(), Error> {
        self.may_ask_takeback(side)?;
        self.offers.takeback = Some(side);
        self.offers.takeback_declined = None;
        Ok(())
    }

    /// Whether `side` may [ask to take back](Self::ask_takeback) its last
    /// move, the game untouched.
    ///
    /// # Errors
    ///
    /// As [`Self::ask_takeback`].
    pub fn may_ask_takeback(&self, side: Side) -> Result<(), Error> {
        self.check_going_on()?;
        self.check_takeback()?;
        if !self.has_moved(side) {
            return Err(
                Error::conflict(Code::NothingToUndo, "you have no move to take back")
                    .because("yours"),
            );
        }
        if self.offers.takeback.is_some() {
            return Err(Error::conflict(
                Code::TakebackPending,
                "a takeback is already asked",
            ));
        }
        Ok(())
    }

    /// `side` answers the other's takeback request: on yes, the moves back
    /// to the asker's last move are taken back, and the asker moves again;
    /// on no, the asker is told (`takeback_declined`).
    ///
    /// # Errors
    ///
    /// `no_takeback` when the other side asked nothing.
    pub fn answer_takeback(&mut self, side: Side, accept: bool, now: i64) -> Result<(), Error> {
        let Some(asker) = self.offers.takeback.filter(|&a| a != side) else {
            return Err(Error::conflict(
                Code::NoTakeback,
                "your opponent has not asked for a takeback",
            ));
        };
        self.offers.takeback = None;
        if !accept {
            self.offers.takeback_declined = Some(asker);
            return Ok(());
        }
        while self.game.undo().is_some() {
            if self.game.position().to_move() == asker {
                break;
            }
        }
        // Nothing to redo online: the moves taken back are gone.
        let _ = self.game.set_redo_list(Vec::new());
        self.offers.draw = None;
        self.turn_started_ms = now;
        Ok(())
    }

    /// `side` offers or accepts a rematch. Returns true when both now want
    /// it (the caller makes the game, colours swapped).
    ///
    /// # Errors
    ///
    /// `not_over` while the game goes on; `rematch_made` once it exists.
    pub fn offer_rematch(&mut self, side: Side) -> Result<bool, Error> {
        self.may_offer_rematch()?;
        match self.offers.rematch {
            Some(other) if other != side => Ok(true),
            _ => {
                self.offers.rematch = Some(side);
                self.offers.rematch_declined = None;
                Ok(false)
            }
        }
    }

    /// Whether a rematch may be [offered](Self::offer_rematch), the game
    /// untouched.
    ///
    /// # Errors
    ///
    /// As [`Self::offer_rematch`].
    pub fn may_offer_rematch(&self) -> Result<(), Error> {
        if self.end().is_none() {
            return Err(Error::conflict(Code::NotOver, "the game is not over yet"));
        }
        if self.offers.rematch_id.is_some() {
            return Err(Error::conflict(
                Code::RematchMade,
                "the rematch has already begun",
            ));
        }
        Ok(())
    }

    /// `side` offers a draw (online, once both have moved: before, the game
    /// is aborted instead).
    ///
    /// # Errors
    ///
    /// `game_over`, `waiting_for_opponent`; `draw_too_early` before both
    /// have moved; `draw_pending` when this side's offer waits, or the
    /// other's (answer it instead); `draw_declined` when this side's last
    /// offer was declined and it has not moved since.
    pub fn offer_draw(&mut self, side: Side) -> Result<(), Error> {
        self.may_offer_draw(side)?;
        self.offers.draw = Some(side);
        Ok(())
    }

    /// Whether `side` may [offer a draw](Self::offer_draw), the game
    /// untouched.
    ///
    /// # Errors
    ///
    /// As [`Self::offer_draw`].
    pub fn may_offer_draw(&self, side: Side) -> Result<(), Error> {
        self.check_going_on()?;
        if !(self.has_moved(Side::South) && self.has_moved(Side::North)) {
            return Err(Error::conflict(
                Code::DrawTooEarly,
                "a draw can be offered once both players have moved (before, abort the game)",
            ));
        }
        match self.offers.draw {
            Some(offerer) if offerer == side => {
                return Err(Error::conflict(
                    Code::DrawPending,
                    "you have offered a draw: waiting for the answer",
                )
                .because("yours"))
            }
            Some(_) => {
                return Err(Error::conflict(
                    Code::DrawPending,
                    "your opponent offers a draw: accept or decline it",
                )
                .because("theirs"))
            }
            None => {}
        }
        if self.offers.draw_declined == Some(side) {
            return Err(Error::conflict(
                Code::DrawDeclined,
                "your draw offer was declined: you may offer again after your next move",
            ));
        }
        Ok(())
    }

    /// `side` answers the other's draw offer at `now`: yes ends the game
    /// drawn (the running clock charged up to then), no tells the offerer
    /// (`draw_declined`).
    ///
    /// # Errors
    ///
    /// `game_over`; `no_draw` when the other offered none.
    pub fn answer_draw(&mut self, side: Side, accept: bool, now: i64) -> Result<(), Error> {
        self.check_going_on()?;
        let Some(offerer) = self.offers.draw.filter(|&o| o != side) else {
            return Err(Error::conflict(
                Code::NoDraw,
                "your opponent has not offered a draw",
            ));
        };
        self.offers.draw = None;
        if accept {
            self.charge_clock(self.clock_running(), now);
            self.stop = Some(Stop::Agreed);
        } else {
            self.offers.draw_declined = Some(offerer);
        }
        Ok(())
    }

    /// `side` declines the other's rematch offer; the offerer is told
    /// (`rematch_declined`) and may offer again.
    ///
    /// # Errors
    ///
    /// `no_rematch` when the other has offered none.
    pub fn decline_rematch(&mut self, side: Side) -> Result<(), Error> {
        let Some(offerer) = self.offers.rematch.filter(|&o| o != side) else {
            return Err(Error::conflict(
                Code::NoRematch,
                "your opponent has not offered a rematch",
            ));
        };
        self.offers.rematch = None;
        self.offers.rematch_declined = Some(offerer);
        Ok(())
    }
}
