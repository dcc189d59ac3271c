//! A game as the server keeps it: the rules' [`Game`] plus what the browser
//! game adds (who sits where, the computer's level, the clock, the redo
//! list, an end the rules do not know: time, abandon, abort) and the
//! operations on it, each checking who asks. Nothing here knows HTTP.
//!
//! [`WebGame`] is one type; its operations live by what they are about:
//! here its identity, its moves (play, undo, redo) and whether it counts;
//! `clock` (the clock and the flag), `seats` (who sits where, who may act
//! for a side), `offers` (takebacks, draws and rematches: lila's
//! `Takebacker`, `Drawer`, `Rematcher`), `end` (the ends the rules do not
//! know: resignation, abort, claim, a withdrawn challenge) and `text`
//! (moves, names and positions typed by a player).

use awale_core::{Game, Move, Side};

use crate::error::Error;
use crate::Code;

mod clock;
mod end;
mod offers;
mod seats;
mod text;

pub use clock::{Clock, DAYS_PER_MOVE, DAY_MS};
pub use end::{End, EndReason, Stop, ABORT_AFTER_MS, CLAIM_AFTER_MS, STALL_AFTER_MS};
pub use offers::Offers;
pub use seats::{rated_seat, PlayerId, Seat};
pub use text::{
    clean_text, look_alike, name_skeletons, parse_move, parse_name, parse_position, MAX_NAME_CHARS,
};

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the computer.
    Computer {
        /// The person's side.
        human: Side,
        /// The computer's level number.
        level: u8,
    },
    /// Two people on one screen.
    Humans,
    /// Two people on two devices, each in their own seat.
    Online,
}

impl Mode {
    /// `computer`, `humans` or `online`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer { .. } => "computer",
            Mode::Humans => "humans",
            Mode::Online => "online",
        }
    }
}

/// The number of an event in a game's history (see `awale_service::live`). `epoch` names the history
/// (a random number, new when the server starts or the game comes back
/// into memory): numbers of two epochs cannot be compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Version {
    /// The history's name.
    pub epoch: u32,
    /// The event's number in it, from 1 (0: before any event).
    pub number: u64,
}

impl std::fmt::Display for Version {
    /// `EPOCH.NUMBER`, as the events' ids and `?since=` write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.epoch, self.number)
    }
}

impl std::str::FromStr for Version {
    type Err = ();

    fn from_str(text: &str) -> Result<Version, ()> {
        let (epoch, number) = text.trim().split_once('.').ok_or(())?;
        Ok(Version {
            epoch: epoch.parse().map_err(|_| ())?,
            number: number.parse().map_err(|_| ())?,
        })
    }
}

/// One stored browser game.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// Its id in the store (0 before it is stored): never shown, games are
    /// numbered in order.
    pub id: i64,
    /// Its public id, in every address and answer: random, so that games
    /// cannot be found by trying names (empty before it is stored: see
    /// [`WebGame::give_keys`]).
    pub public_id: String,
    /// The key of a private online game's invitation: without it in the
    /// link, a stranger cannot take the free seat (None for other games).
    pub invite: Option<String>,
    /// When it was created (milliseconds since 1970).
    pub created_ms: i64,
    /// Who plays.
    pub mode: Mode,
    /// Who sits on each side (South, North). Against the computer and on
    /// one screen, the person's seats belong to the browser that made the
    /// game (a game stored without seats, from before games needed a
    /// player, is nobody's). Online, an empty seat is free.
    pub seats: [Option<Seat>; 2],
    /// Listed in the lobby while a seat is free (online games).
    pub public: bool,
    /// Seed of the computer's choices, so a game can be reproduced.
    pub seed: u64,
    /// The clock, if the game is played with one.
    pub clock: Option<Clock>,
    /// When the side to move's turn began (milliseconds since 1970); for an
    /// online game waiting for its second player, when it was offered.
    pub turn_started_ms: i64,
    /// An end the rules do not know.
    pub stop: Option<Stop>,
    /// Offers between the players.
    pub offers: Offers,
    /// The game itself: rules, start, moves, resignation.
    pub game: Game,
    /// Whether it counts for the players' ratings (chosen when it is made;
    /// only between two accounts, with a clock).
    pub rated: bool,
    /// A lobby seek's rating range: the most the rating (in its speed) of
    /// who takes the free seat may differ from its maker's; None: anyone
    /// may take it. Set when it is made.
    pub rating_range: Option<i64>,
    /// What it did to the players' ratings (South's, North's), once it
    /// ended rated.
    pub rating_changes: Option<[crate::rating::RatingChange; 2]>,
    /// The number of its last event (see [`crate::live`]), for the views
    /// to carry: kept in memory, not stored.
    pub version: Version,
    /// The stored version this copy was read from or written as: a store
    /// shared by several server processes (PostgreSQL) writes a change
    /// only over the revision it was made from, so two processes never
    /// both change one revision (0 before it is stored; SQLite, with one
    /// process, keeps none).
    pub revision: i64,
    /// Since when each seat's player has had no connection (None while
    /// connected): the watchers' word, which the game service sets on
    /// the copies it hands out, so that the views say when a claim may
    /// come; kept in memory, not stored.
    pub gone_since: [Option<i64>; 2],
}

/// Milliseconds since 1970 now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A seed for the computer's choices, random sides and puzzles: random,
/// or the time when the system gives no random bytes.
pub fn random_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| now_ms() as u64)
}

/// The moves each side makes before a rated game counts (lichess: a game
/// with fewer than two moves each is an abort): a rated game that ends
/// sooner is played casual.
pub const RATED_MOVES_EACH: usize = 2;

impl WebGame {
    /// A new game, not yet stored.
    pub fn new(mode: Mode, game: Game, now: i64, seed: u64) -> WebGame {
        WebGame {
            id: 0,
            public_id: String::new(),
            invite: None,
            created_ms: now,
            mode,
            seats: [None, None],
            public: false,
            seed,
            clock: None,
            turn_started_ms: now,
            stop: None,
            offers: Offers::default(),
            game,
            rated: false,
            rating_range: None,
            rating_changes: None,
            version: Version::default(),
            revision: 0,
            gone_since: [None, None],
        }
    }

    /// The speed its ratings are kept in.
    pub fn speed(&self) -> crate::rating::Speed {
        match self.clock {
            Some(c) if c.per_move => crate::rating::Speed::Correspondence,
            c => crate::rating::Speed::of(c.map(|c| (c.initial_ms, c.increment_ms))),
        }
    }

    /// Whether this game, just ended, changes its players' ratings: rated,
    /// over, not aborted (an aborted game changes nothing) and really
    /// begun ([`WebGame::real_start`]).
    pub fn rates(&self) -> bool {
        self.rated
            && self.mode == Mode::Online
            && self.real_start()
            && self.end().is_some_and(|e| e.reason != EndReason::Aborted)
    }

    /// Whether both sides have made [`RATED_MOVES_EACH`] moves: a rated
    /// game counts only then.
    pub fn real_start(&self) -> bool {
        Side::BOTH.into_iter().all(|side| {
            self.game
                .plies()
                .iter()
                .filter(|p| p.before.to_move() == side)
                .count()
                >= RATED_MOVES_EACH
        })
    }

    /// Whether the computer plays the side to move now.
    pub fn computer_to_move(&self) -> bool {
        match self.mode {
            Mode::Computer { human, .. } => {
                self.end().is_none() && self.game.position().to_move() != human
            }
            Mode::Humans | Mode::Online => false,
        }
    }

    /// Whether `side` has made a move in this game.
    pub fn has_moved(&self, side: Side) -> bool {
        self.game.plies().iter().any(|p| p.before.to_move() == side)
    }

    fn check_going_on(&self) -> Result<(), Error> {
        if let Some(end) = self.end() {
            return Err(Error::game_over(end.reason.name()));
        }
        if self.waiting() {
            return Err(Error::conflict(
                Code::WaitingForOpponent,
                "the game has not begun: it waits for its second player",
            ));
        }
        Ok(())
    }

    /// Plays `mv` for the side to move at time `now`, after checking that
    /// the game goes on, that it is that side's hole and that it is legal.
    /// The clock is charged and the redo list kept when `mv` is its next.
    /// Returns the seeds captured.
    ///
    /// # Errors
    ///
    /// `game_over`, `not_your_turn` (conflict) or `illegal_move` (invalid).
    pub fn play(&mut self, mv: Move, now: i64) -> Result<u8, Error> {
        self.check_going_on()?;
        let mover = self.game.position().to_move();
        let timed = self.clock_running();
        if mv.side() != mover {
            return Err(Error::conflict(
                Code::NotYourTurn,
                format!("{mv} is a hole of {} but {mover} is to move", mv.side()),
            )
            .because("not_your_hole")
            .with("move", mv.to_string()));
        }
        let captured = self
            .game
            .play(mv)
            .map_err(|e| Error::illegal_move(e, Some(mv)))?;
        // A move made before the side's clock ran (its first, online) is
        // free, and earns no increment.
        if let (Some(clock), true) = (&mut self.clock, timed) {
            let used = now - self.turn_started_ms;
            if clock.per_move {
                clock.remaining_ms[mover.index()] = clock.initial_ms;
            } else {
                clock.remaining_ms[mover.index()] += clock.increment_ms - used;
            }
        }
        self.turn_started_ms = now;
        self.offers.takeback = None;
        self.offers.takeback_declined = None;
        // A move instead of an answer declines the other's draw offer; the
        // offerer's own move leaves it standing (offered, then played).
        if self.offers.draw == Some(mover.opponent()) {
            self.offers.draw = None;
            self.offers.draw_declined = Some(mover.opponent());
        } else if self.offers.draw_declined == Some(mover) {
            self.offers.draw_declined = None;
        }
        Ok(captured)
    }

    /// Takes back moves: against the computer, back to the person's
    /// previous turn; otherwise one move. Online, only an accepted request
    /// takes moves back ([`WebGame::answer_takeback`]).
    ///
    /// # Errors
    ///
    /// `nothing_to_undo`, `clock_game`, `game_over` or `online_game`
    /// (conflict).
    pub fn undo(&mut self, now: i64) -> Result<(), Error> {
        self.check_takeback()?;
        self.check_offline()?;
        let human = match self.mode {
            Mode::Computer { human, .. } => Some(human),
            Mode::Humans | Mode::Online => None,
        };
        if self.game.plies().is_empty() {
            return Err(Error::conflict(Code::NothingToUndo, "no move to take back"));
        }
        // Against the computer, take back the computer's answer and the
        // person's move, back to a position where the person moves.
        let before = self.game.plies().len();
        while self.game.undo().is_some() {
            if human.is_none_or(|h| self.game.position().to_move() == h) {
                break;
            }
        }
        if let Some(h) = human {
            if self.game.position().to_move() != h {
                // The computer moved first and nothing of the person's is
                // left to take back: put the moves back.
                while self.game.plies().len() < before && self.game.redo().is_some() {}
                return Err(
                    Error::conflict(Code::NothingToUndo, "no move of yours to take back")
                        .because("yours"),
                );
            }
        }
        self.turn_started_ms = now;
        Ok(())
    }

    /// Plays again the moves taken back by the last [`WebGame::undo`]: up to
    /// the person's next turn against the computer, one move otherwise.
    ///
    /// # Errors
    ///
    /// `nothing_to_redo`, `clock_game`, `game_over` or `online_game`
    /// (conflict).
    pub fn redo(&mut self, now: i64) -> Result<(), Error> {
        self.check_takeback()?;
        self.check_offline()?;
        let human = match self.mode {
            Mode::Computer { human, .. } => Some(human),
            Mode::Humans | Mode::Online => None,
        };
        if !self.game.can_redo() {
            return Err(Error::conflict(
                Code::NothingToRedo,
                "no move to play again",
            ));
        }
        while self.game.can_redo() {
            let played = self.game.redo();
            if played.is_none() {
                return Err(Error::internal("a move to redo cannot be played"));
            }
            let at_person = human.is_none_or(|h| self.game.position().to_move() == h);
            if at_person || self.game.end().is_some() {
                break;
            }
        }
        self.turn_started_ms = now;
        Ok(())
    }

    /// Whether moves may be taken back now (not in clock games, not after
    /// a resignation or an end by time; online only through an accepted
    /// request).
    fn check_takeback(&self) -> Result<(), Error> {
        if self.clock.is_some() && self.mode != Mode::Online {
            return Err(Error::conflict(
                Code::ClockGame,
                "moves cannot be taken back in a game with a clock",
            ));
        }
        if self.stop.is_some() || self.game.resigned().is_some() {
            return Err(Error::conflict(
                Code::GameOver,
                "the game ended by resignation, time or abandon",
            )
            .because("stopped"));
        }
        Ok(())
    }

    /// Refuses the undo and redo of one player alone in an online game:
    /// there the opponent must accept a takeback.
    fn check_offline(&self) -> Result<(), Error> {
        if self.mode == Mode::Online {
            return Err(Error::conflict(
                Code::OnlineGame,
                "an online game has no undo or redo: ask for a takeback instead",
            ));
        }
        Ok(())
    }

    /// Whether an undo is possible now (for the page's button).
    pub fn can_undo(&self) -> bool {
        self.mode != Mode::Online && self.check_takeback().is_ok() && !self.game.plies().is_empty()
    }

    /// Whether a redo is possible now.
    pub fn can_redo(&self) -> bool {
        self.mode != Mode::Online && self.check_takeback().is_ok() && self.game.can_redo()
    }
}

#[cfg(test)]
mod tests;
