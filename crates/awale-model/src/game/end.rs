//! The ends the rules do not know: time, resignation, abort, a claim
//! against a player gone, a draw agreed, a withdrawn challenge; and the end
//! of a game, whichever it is.

use awale_core::Side;

use super::WebGame;
use crate::error::Error;
use crate::Code;

/// An end the rules crate does not know about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// This side's time ran out.
    Time(Side),
    /// This side left the game; the other claimed the win.
    Abandoned(Side),
    /// Stopped before it really began: no result.
    Aborted,
    /// Drawn by agreement: one offered a draw, the other accepted.
    Agreed,
}

/// Why a game ended, in one word, as the API and the store name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// An end by the rules (starvation, repetition, target, resignation,
    /// empty board).
    Rules(awale_core::EndReason),
    /// A flag fell.
    Time,
    /// A player left and the other claimed the win.
    Abandoned,
    /// Aborted before it began.
    Aborted,
    /// A draw offered and accepted.
    Agreement,
}

impl EndReason {
    /// `starvation`, ..., `time`, `abandoned`, `aborted`, `agreement`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Rules(r) => r.name(),
            EndReason::Time => "time",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
            EndReason::Agreement => "agreement",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// Why it ended.
    pub reason: EndReason,
    /// Final stores, with the seeds left given out as the rules say.
    pub stores: [u8; 2],
    /// The winner, None for a draw or an aborted game.
    pub winner: Option<Side>,
    /// The side that ran out of time or left, for `time` and `abandoned`.
    pub loser_by: Option<Side>,
}

impl End {
    /// The result as records write it: `1-0`, `0-1`, `1/2-1/2`, or `*` for
    /// an aborted game.
    pub fn result_text(&self) -> &'static str {
        match self.reason {
            EndReason::Aborted => "*",
            _ => awale_core::result_text(self.winner),
        }
    }
}

/// How long a side may wait before its first move before the game can be
/// aborted.
pub const ABORT_AFTER_MS: i64 = 30_000;

/// How long a player must be gone on their move (no clock) before the
/// other may claim the win.
pub const CLAIM_AFTER_MS: i64 = 120_000;

/// How long a player may stay on their move in a game without a clock,
/// connected or not, before the other may claim the win: the move limit
/// a player who keeps the page open and never moves runs into.
pub const STALL_AFTER_MS: i64 = 10 * 60_000;

impl WebGame {
    /// The end of the game, if it is over, by the rules, the clock or the
    /// players.
    pub fn end(&self) -> Option<End> {
        let position = self.game.position();
        match self.stop {
            Some(Stop::Time(side)) | Some(Stop::Abandoned(side)) => {
                let reason = match self.stop {
                    Some(Stop::Time(_)) => EndReason::Time,
                    _ => EndReason::Abandoned,
                };
                return Some(End {
                    reason,
                    stores: position.stores(),
                    winner: Some(side.opponent()),
                    loser_by: Some(side),
                });
            }
            // Nobody wins an aborted game or a draw agreed.
            Some(stop @ (Stop::Aborted | Stop::Agreed)) => {
                return Some(End {
                    reason: if stop == Stop::Aborted {
                        EndReason::Aborted
                    } else {
                        EndReason::Agreement
                    },
                    stores: position.stores(),
                    winner: None,
                    loser_by: None,
                })
            }
            None => {}
        }
        self.game.outcome().map(|o| End {
            reason: EndReason::Rules(o.reason),
            stores: o.stores,
            winner: o.winner,
            loser_by: None,
        })
    }

    /// Withdraws an open challenge: an online game still waiting for its
    /// second player ends, aborted.
    ///
    /// # Errors
    ///
    /// `not_waiting` once the second player has come or the game is over.
    pub fn withdraw(&mut self) -> Result<(), Error> {
        if !self.waiting() || self.end().is_some() {
            return Err(Error::conflict(Code::NotWaiting, "the game has begun"));
        }
        self.stop = Some(Stop::Aborted);
        Ok(())
    }

    /// `side` resigns at `now`; the running clock is charged up to then,
    /// so the clocks kept are those of the moment of resigning.
    ///
    /// # Errors
    ///
    /// `game_over` when the game is already over.
    pub fn resign(&mut self, side: Side, now: i64) -> Result<(), Error> {
        self.check_going_on()?;
        let running = self.clock_running();
        self.game
            .resign(side)
            .map_err(|e| Error::conflict(Code::GameOver, e.to_string()).because("stopped"))?;
        self.charge_clock(running, now);
        Ok(())
    }

    /// The side to move's opponent aborts the game before both have moved,
    /// when the side to move has waited [`ABORT_AFTER_MS`] (or either
    /// player before any move of their own).
    ///
    /// # Errors
    ///
    /// `cannot_abort` when the game has really begun.
    pub fn abort(&mut self, side: Side, now: i64) -> Result<(), Error> {
        self.may_abort(side, now)?;
        self.charge_clock(self.clock_running(), now);
        self.stop = Some(Stop::Aborted);
        Ok(())
    }

    /// Whether `side` may [abort](Self::abort) the game at `now`, the
    /// game untouched.
    ///
    /// # Errors
    ///
    /// As [`Self::abort`].
    pub fn may_abort(&self, side: Side, now: i64) -> Result<(), Error> {
        self.check_going_on()?;
        let moved = |s: Side| self.has_moved(s);
        let mover = self.game.position().to_move();
        let allowed = if moved(Side::South) && moved(Side::North) {
            false
        } else if !moved(side) {
            true
        } else {
            mover != side && now - self.turn_started_ms >= ABORT_AFTER_MS
        };
        if !allowed {
            return Err(Error::conflict(
                Code::CannotAbort,
                "the game can be aborted only before both players have moved, or when the \
                 other has not made a first move within 30 seconds",
            ));
        }
        Ok(())
    }

    /// The server aborts a game whose side to move has not made its first
    /// move within [`ABORT_AFTER_MS`] of its turn (a pool's pairing nobody
    /// plays): the side that did not move, or None when the game has
    /// begun, ended, or the time is not up.
    pub fn abort_unstarted(&mut self, now: i64) -> Option<Side> {
        let mover = self.game.position().to_move();
        let due = self.check_going_on().is_ok()
            && !self.waiting()
            && !self.has_moved(mover)
            && now - self.turn_started_ms >= ABORT_AFTER_MS;
        if !due {
            return None;
        }
        self.charge_clock(self.clock_running(), now);
        self.stop = Some(Stop::Aborted);
        Some(mover)
    }

    /// `side` claims the win because the other, to move, has been gone for
    /// [`CLAIM_AFTER_MS`] (`gone_since`: when they were last connected), or
    /// has stayed on their move for [`STALL_AFTER_MS`], connected or not.
    ///
    /// # Errors
    ///
    /// `cannot_claim` when the other is to move but not gone or stalled
    /// long enough, or the game has a clock (the flag decides then).
    pub fn claim(&mut self, side: Side, gone_since: Option<i64>, now: i64) -> Result<(), Error> {
        self.may_claim(side, gone_since, now)?;
        self.stop = Some(Stop::Abandoned(self.game.position().to_move()));
        Ok(())
    }

    /// Whether `side` may [claim](Self::claim) the win at `now`, the game
    /// untouched.
    ///
    /// # Errors
    ///
    /// As [`Self::claim`].
    pub fn may_claim(&self, side: Side, gone_since: Option<i64>, now: i64) -> Result<(), Error> {
        self.check_going_on()?;
        let mover = self.game.position().to_move();
        let gone = gone_since.is_some_and(|t| now - t.max(self.turn_started_ms) >= CLAIM_AFTER_MS);
        let stalled = now - self.turn_started_ms >= STALL_AFTER_MS;
        if self.clock.is_some() || mover == side || !(gone || stalled) {
            return Err(Error::conflict(
                Code::CannotClaim,
                "the win can be claimed only when your opponent, to move, has been gone for \
                 2 minutes or on their move for 10 (in a game without a clock)",
            ));
        }
        Ok(())
    }
}
