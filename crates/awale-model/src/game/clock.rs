//! The clock of a game: its time control (a clock, or days per move) and
//! the flag, timed by the `now` each call is given.

use super::{Mode, Stop, WebGame};
use crate::error::Error;
use crate::Code;

/// A game clock: each side's time left, counting down on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time each side starts with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Time left for South and North when the current turn began.
    pub remaining_ms: [i64; 2],
    /// A game over days ("days per move", correspondence): a move on time
    /// gives its side `initial_ms` again, whatever it used, instead of
    /// adding `increment_ms`.
    pub per_move: bool,
}

/// The days a correspondence game may give each move.
pub const DAYS_PER_MOVE: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

impl Clock {
    /// A clock of `initial_ms` each and `increment_ms` added per move.
    pub fn new(initial_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            per_move: false,
        }
    }

    /// A clock of `days` per move (one of [`DAYS_PER_MOVE`]).
    ///
    /// # Errors
    ///
    /// `bad_clock` naming the days when they are none of those.
    pub fn days(days: u32) -> Result<Clock, Error> {
        if !DAYS_PER_MOVE.contains(&days) {
            return Err(Error::invalid(
                Code::BadClock,
                format!("a game over days gives 1, 2, 3, 5, 7 or 14 days per move, not {days}"),
            )
            .with("days", days.to_string()));
        }
        Ok(Clock {
            per_move: true,
            ..Clock::new(i64::from(days) * DAY_MS, 0)
        })
    }
}

impl WebGame {
    /// Whether the side to move's time runs now: in a clock game going on;
    /// online, only once that side has made its first move (as on
    /// lichess: no clock runs before a side's first move, and a side that
    /// never moves is what [`WebGame::abort`] is for).
    pub fn clock_running(&self) -> bool {
        self.clock.is_some()
            && self.end().is_none()
            && !self.waiting()
            && (self.mode != Mode::Online || self.has_moved(self.game.position().to_move()))
    }

    /// Ends the game on time if the side to move's clock has run out at
    /// `now`. Returns whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        if !self.clock_running() {
            return false;
        }
        let Some(clock) = self.clock else {
            return false;
        };
        let mover = self.game.position().to_move();
        if clock.remaining_ms[mover.index()] - (now - self.turn_started_ms) <= 0 {
            self.stop = Some(Stop::Time(mover));
            true
        } else {
            false
        }
    }

    /// When the side to move's flag falls if nobody moves (ms since 1970),
    /// for a clock game going on.
    pub fn flag_deadline(&self) -> Option<i64> {
        let clock = self.clock?;
        if !self.clock_running() {
            return None;
        }
        let mover = self.game.position().to_move();
        Some(self.turn_started_ms + clock.remaining_ms[mover.index()].max(0))
    }

    /// Time left for each side at `now`: the side that ran out shows 0.
    pub fn time_left(&self, now: i64) -> Option<[i64; 2]> {
        let clock = self.clock?;
        let mut left = clock.remaining_ms;
        if let Some(Stop::Time(side)) = self.stop {
            left[side.index()] = 0;
        } else if self.clock_running() {
            let mover = self.game.position().to_move().index();
            left[mover] = (left[mover] - (now - self.turn_started_ms)).max(0);
        }
        Some(left)
    }

    /// At an end that is no move (a resignation, a draw agreed, an abort),
    /// charges the side to move the time it used since its turn began, if
    /// its clock was `running` then: once the game is over no clock runs,
    /// and the time used in the last turn would be given back, as a flag
    /// fall never is.
    pub(super) fn charge_clock(&mut self, running: bool, now: i64) {
        if let (Some(clock), true) = (&mut self.clock, running) {
            let mover = self.game.position().to_move().index();
            let used = (now - self.turn_started_ms).max(0);
            clock.remaining_ms[mover] = (clock.remaining_ms[mover] - used).max(0);
            self.turn_started_ms = now;
        }
    }
}
