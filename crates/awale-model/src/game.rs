//! A game as the server keeps it: the rules' [`Game`] plus what the browser
//! game adds (who sits where, the computer's level, the clock, the redo
//! list, an end the rules do not know: time, abandon, abort) and the
//! operations on it, each checking who asks. Nothing here knows HTTP.

use awale_core::{Game, Move, Position, Side};
use serde::Serialize;

use crate::error::Error;
use crate::Code;

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

/// A player: the hash of the secret their browser keeps in a cookie (the
/// secret itself is never stored).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerId(pub String);

/// Who sits on a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The player holding the seat.
    pub player: PlayerId,
    /// Their nickname.
    pub name: String,
}

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

    /// Gives a new game its public id and, when it is a private online
    /// game, its invitation's key (both from the system's randomness), if
    /// it has none yet. Stores call it before writing a new game.
    ///
    /// # Errors
    ///
    /// When the system gives no random bytes.
    pub fn give_keys(&mut self) -> Result<(), Error> {
        let no_randomness =
            |e: getrandom::Error| Error::internal(format!("no random bytes from the system: {e}"));
        if self.public_id.is_empty() {
            self.public_id = crate::secret::new_game_id().map_err(no_randomness)?;
        }
        if self.mode == Mode::Online && !self.public && self.invite.is_none() {
            self.invite = Some(crate::secret::new_invite_key().map_err(no_randomness)?);
        }
        Ok(())
    }

    /// Whether the game waits for its second player (online).
    pub fn waiting(&self) -> bool {
        self.mode == Mode::Online && self.seats.iter().any(Option::is_none)
    }

    /// The side `player` holds in this online game, if any (none in games
    /// that are not played online).
    pub fn online_seat(&self, player: Option<&PlayerId>) -> Option<Side> {
        if self.mode != Mode::Online {
            return None;
        }
        let player = player?;
        Side::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|seat| seat.player == *player)
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

    /// The sides `player` may act for: both on one screen, the person's
    /// against the computer, their seat online. A game without seats (made
    /// by a script before games needed a player) is nobody's: it can be
    /// watched, not played.
    pub fn sides_of(&self, player: Option<&PlayerId>) -> Vec<Side> {
        let holds = |side: Side| match (&self.seats[side.index()], player) {
            (Some(seat), Some(p)) => seat.player == *p,
            _ => false,
        };
        let candidates: Vec<Side> = match self.mode {
            Mode::Computer { human, .. } => vec![human],
            Mode::Humans | Mode::Online => Side::BOTH.to_vec(),
        };
        candidates.into_iter().filter(|&s| holds(s)).collect()
    }

    /// Checks that `player` may act for `side`.
    ///
    /// # Errors
    ///
    /// `not_your_seat` (forbidden) naming the side.
    pub fn check_side(&self, player: Option<&PlayerId>, side: Side) -> Result<(), Error> {
        if self.sides_of(player).contains(&side) {
            return Ok(());
        }
        let seated = !self.sides_of(player).is_empty();
        let (reason, message) = match self.mode {
            // Only a player of the game is told whose turn it is.
            Mode::Computer { .. } if seated && self.computer_to_move() => (
                "computer",
                format!("{side} is the computer's side: wait for its move"),
            ),
            _ if player.is_none() => (
                "no_player",
                "you are watching this game: only its players move \
                 (this browser sent no player cookie; open the page to get one)"
                    .to_string(),
            ),
            _ => (
                "watching",
                format!("you are watching this game: {side} is another player's seat"),
            ),
        };
        Err(Error::forbidden(Code::NotYourSeat, message)
            .because(reason)
            .with("side", side.to_string()))
    }

    /// The side `player` acts for in a request that names none: their only
    /// side, or the side to move when they hold both.
    ///
    /// # Errors
    ///
    /// `not_your_seat` when they hold no seat.
    pub fn side_for(&self, player: Option<&PlayerId>) -> Result<Side, Error> {
        let sides = self.sides_of(player);
        match sides.as_slice() {
            [side] => Ok(*side),
            [] => Err(Error::forbidden(
                Code::NotYourSeat,
                "you are watching this game: only its players can do that",
            )
            .because("watching")),
            _ => Ok(self.game.position().to_move()),
        }
    }

    /// Whether `side` has made a move in this game.
    pub fn has_moved(&self, side: Side) -> bool {
        self.game.plies().iter().any(|p| p.before.to_move() == side)
    }

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

    /// At an end that is no move (a resignation, a draw agreed, an abort),
    /// charges the side to move the time it used since its turn began, if
    /// its clock was `running` then: once the game is over no clock runs,
    /// and the time used in the last turn would be given back, as a flag
    /// fall never is.
    fn charge_clock(&mut self, running: bool, now: i64) {
        if let (Some(clock), true) = (&mut self.clock, running) {
            let mover = self.game.position().to_move().index();
            let used = (now - self.turn_started_ms).max(0);
            clock.remaining_ms[mover] = (clock.remaining_ms[mover] - used).max(0);
            self.turn_started_ms = now;
        }
    }

    /// Gives `player`, who made this game against the computer or on one
    /// screen, its seats: the person's side, or both. (An online game's
    /// seats are taken with a nickname: see [`WebGame::sit`].)
    pub fn seat_maker(&mut self, player: &PlayerId) {
        let seat = Some(Seat {
            player: player.clone(),
            name: String::new(),
        });
        match self.mode {
            Mode::Computer { human, .. } => self.seats[human.index()] = seat,
            Mode::Humans => self.seats = [seat.clone(), seat],
            Mode::Online => {}
        }
    }

    // ------------------------------------------------------------ online --

    /// `seat` takes the free side of an online game that waits for its
    /// second player, with `key`, the key of the invitation link it came
    /// by (a public challenge needs none); the game begins at `now` (each
    /// side's clock at its first move). Returns the side taken.
    ///
    /// # Errors
    ///
    /// `seat_taken` when no seat is free; `already_seated` when the player
    /// holds the other seat; `invite_key` (forbidden) when a private game's
    /// free seat is asked without its invitation's key (`missing`) or with
    /// another (`wrong`).
    pub fn sit(&mut self, seat: Seat, key: Option<&str>, now: i64) -> Result<Side, Error> {
        if self.mode != Mode::Online || self.end().is_some() {
            return Err(Error::conflict(
                Code::SeatTaken,
                "this game has no free seat: you can watch it",
            )
            .because("closed"));
        }
        if self.seats.iter().flatten().any(|s| s.player == seat.player) {
            return Err(Error::conflict(
                Code::AlreadySeated,
                "you already play in this game",
            ));
        }
        if let (false, Some(invite)) = (self.public, &self.invite) {
            let refused = |reason| {
                Err(Error::forbidden(
                    Code::InviteKey,
                    "this game is played by invitation: its free seat is taken with the whole \
                     invitation link (ask its maker for it)",
                )
                .because(reason))
            };
            match key {
                None => return refused("missing"),
                Some(k) if !crate::secret::same_secret(k, invite) => return refused("wrong"),
                Some(_) => {}
            }
        }
        // Two players who look alike by name: one passes for the other.
        let named = !seat.name.trim().is_empty();
        if named
            && self
                .seats
                .iter()
                .flatten()
                .any(|s| look_alike(&s.name, &seat.name))
        {
            return Err(Error::conflict(
                Code::NameTaken,
                "your name looks like your opponent's: choose another",
            )
            .because("opponent"));
        }
        let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
        else {
            return Err(Error::conflict(
                Code::SeatTaken,
                "both seats are taken: you can watch the game",
            ));
        };
        self.seats[side.index()] = Some(seat);
        self.turn_started_ms = now;
        Ok(side)
    }

    /// Moves `player`'s seat to `to` (another device).
    ///
    /// # Errors
    ///
    /// `not_your_seat` when `player` holds no seat here; `already_seated`
    /// when `to` holds the other seat (the opponent, given the link, would
    /// play both sides and lock `player` out), as [`WebGame::sit`] refuses;
    /// `rated_seat` when the game is rated and `to` is another player (a
    /// rated seat stays with its account: its result is the account's).
    pub fn hand_over(&mut self, player: &PlayerId, to: PlayerId) -> Result<Side, Error> {
        if self.rated && *player != to && self.online_seat(Some(player)).is_some() {
            return Err(rated_seat());
        }
        let side = Side::BOTH
            .into_iter()
            .find(|s| {
                self.seats[s.index()]
                    .as_ref()
                    .is_some_and(|seat| seat.player == *player)
            })
            .ok_or_else(|| {
                Error::forbidden(Code::NotYourSeat, "this link is for a seat you do not hold")
                    .because("link")
            })?;
        if self.seats[side.opponent().index()]
            .as_ref()
            .is_some_and(|seat| seat.player == to)
        {
            return Err(Error::conflict(
                Code::AlreadySeated,
                "you already play in this game",
            ));
        }
        if let Some(seat) = &mut self.seats[side.index()] {
            seat.player = to;
        }
        Ok(side)
    }

    /// `side` asks to take back the last move (online).
    ///
    /// # Errors
    ///
    /// `nothing_to_undo`, `game_over`, or `takeback_pending` when one is
    /// already asked.
    pub fn ask_takeback(&mut self, side: Side) -> Result<(), Error> {
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
        self.offers.takeback = Some(side);
        self.offers.takeback_declined = None;
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

    /// The side to move's opponent aborts the game before both have moved,
    /// when the side to move has waited [`ABORT_AFTER_MS`] (or either
    /// player before any move of their own).
    ///
    /// # Errors
    ///
    /// `cannot_abort` when the game has really begun.
    pub fn abort(&mut self, side: Side, now: i64) -> Result<(), Error> {
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
        self.charge_clock(self.clock_running(), now);
        self.stop = Some(Stop::Aborted);
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
        self.stop = Some(Stop::Abandoned(mover));
        Ok(())
    }

    /// `side` offers or accepts a rematch. Returns true when both now want
    /// it (the caller makes the game, colours swapped).
    ///
    /// # Errors
    ///
    /// `not_over` while the game goes on; `rematch_made` once it exists.
    pub fn offer_rematch(&mut self, side: Side) -> Result<bool, Error> {
        if self.end().is_none() {
            return Err(Error::conflict(Code::NotOver, "the game is not over yet"));
        }
        if self.offers.rematch_id.is_some() {
            return Err(Error::conflict(
                Code::RematchMade,
                "the rematch has already begun",
            ));
        }
        match self.offers.rematch {
            Some(other) if other != side => Ok(true),
            _ => {
                self.offers.rematch = Some(side);
                self.offers.rematch_declined = None;
                Ok(false)
            }
        }
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
        self.offers.draw = Some(side);
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

/// Reads a move letter.
///
/// # Errors
///
/// `bad_move` naming the text when it is not one letter `A`-`F` or `a`-`f`.
pub fn parse_move(text: &str) -> Result<Move, Error> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Move::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| {
        Error::new(
            crate::error::Kind::Malformed,
            Code::BadMove,
            format!(
                "`{}` is not a move (holes are A-F for South, a-f for North)",
                crate::error::shown(text)
            ),
        )
        .with("text", text)
    })
}

/// Whether `c` may be hidden or turn text around: a control character
/// (NUL, a newline), an interlinear annotation mark, or one of Unicode's
/// Default_Ignorable_Code_Point set, those a font shows as nothing:
/// bidirectional embeddings, overrides, isolates and marks (U+202E would
/// show `evil` as `live`), characters of no width, Hangul fillers,
/// variation selectors, tags. (The set, not a list of ours: it names the
/// code points Unicode keeps for such uses, unassigned ones included.)
fn hidden(c: char) -> bool {
    use icu_properties::props::DefaultIgnorableCodePoint;
    use icu_properties::{CodePointSetData, CodePointSetDataBorrowed};
    const IGNORABLE: CodePointSetDataBorrowed<'static> =
        CodePointSetData::new::<DefaultIgnorableCodePoint>();
    c.is_control() || matches!(c, '\u{FFF9}'..='\u{FFFB}') || IGNORABLE.contains(c)
}

/// Text typed by a player, as others will see it: hidden and turning
/// characters dropped (a newline, a tab or the braille blank becomes a
/// space), trimmed.
pub fn clean_text(text: &str) -> String {
    let shown: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' | '\u{2800}' => Some(' '),
            c if hidden(c) => None,
            c => Some(c),
        })
        .collect();
    shown.trim().to_string()
}

/// Longest nickname, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A nickname, checked: hidden and turning characters dropped
/// ([`clean_text`]), then 1 to [`MAX_NAME_CHARS`] characters.
///
/// # Errors
///
/// `bad_name` when nothing is left, or too much.
pub fn parse_name(name: Option<&str>) -> Result<String, Error> {
    let name = clean_text(name.unwrap_or(""));
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME_CHARS {
        return Err(Error::invalid(
            Code::BadName,
            "a nickname takes 1 to 24 characters",
        ));
    }
    Ok(name)
}

/// The forms two names that look alike share: their confusable skeletons
/// (Unicode TS #39), in lower case, folded before and after (`I` and `l`
/// are one, and so are `A` and `a`): `аlice` in Cyrillic, `ａｌｉｃｅ` in
/// full width and `aIice` all give `alice`.
pub fn name_skeletons(name: &str) -> Vec<String> {
    use unicode_security::confusable_detection::skeleton;
    let name = name.trim();
    let mut keys = vec![
        skeleton(name).collect::<String>().to_lowercase(),
        skeleton(&name.to_lowercase()).collect::<String>(),
    ];
    keys.dedup();
    keys
}

/// Whether two names look alike: they share a skeleton.
pub fn look_alike(a: &str, b: &str) -> bool {
    let b = name_skeletons(b);
    name_skeletons(a).iter().any(|k| b.contains(k))
}

/// A position's diagram, checked.
///
/// # Errors
///
/// `bad_position` naming what is wrong in the diagram.
pub fn parse_position(text: &str) -> Result<Position, Error> {
    text.parse::<Position>()
        .map_err(|e| Error::invalid(Code::BadPosition, e.to_string()).with("text", text))
}

/// A rated seat is not handed to another player: its result is its
/// account's, so another device logs in to the account instead.
pub fn rated_seat() -> Error {
    Error::forbidden(
        Code::RatedSeat,
        "a rated seat stays with its account: log in to your account on the other device",
    )
    .because("rated")
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::Rules;

    fn clocked(now: i64) -> WebGame {
        let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), now, 0);
        g.clock = Some(Clock::new(60_000, 2_000));
        g
    }

    fn letter(c: char) -> Move {
        Move::from_letter(c).unwrap()
    }

    fn player(name: &str) -> Seat {
        Seat {
            player: PlayerId(name.to_string()),
            name: name.to_string(),
        }
    }

    #[test]
    fn a_move_charges_the_movers_clock_and_adds_the_increment() {
        let mut g = clocked(1_000);
        g.play(letter('F'), 11_000).unwrap();
        let clock = g.clock.unwrap();
        assert_eq!(clock.remaining_ms, [60_000 - 10_000 + 2_000, 60_000]);
        assert_eq!(g.turn_started_ms, 11_000);
        assert_eq!(g.time_left(16_000), Some([52_000, 55_000]));
    }

    #[test]
    fn the_flag_falls_for_the_side_to_move_only_and_shows_zero() {
        let mut g = clocked(0);
        assert_eq!(g.flag_deadline(), Some(60_000));
        assert!(!g.check_flag(59_999));
        assert!(g.check_flag(60_000));
        assert_eq!(g.stop, Some(Stop::Time(Side::South)));
        let end = g.end().unwrap();
        assert_eq!(
            (end.reason, end.winner, end.loser_by),
            (EndReason::Time, Some(Side::North), Some(Side::South))
        );
        assert_eq!(g.time_left(99_999), Some([0, 60_000]));
        assert!(g.play(letter('F'), 60_001).is_err());
        assert!(!g.check_flag(1_000_000), "an ended game does not end twice");
    }

    #[test]
    fn takebacks_are_refused_in_clock_games() {
        let mut g = clocked(0);
        g.play(letter('F'), 10).unwrap();
        assert_eq!(g.undo(10).unwrap_err().code, "clock_game");
    }

    #[test]
    fn online_only_an_accepted_takeback_takes_moves_back() {
        for clock in [None, Some(Clock::new(60_000, 2_000))] {
            let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 1);
            g.seats = [Some(player("ama")), Some(player("kofi"))];
            g.clock = clock;
            for c in ['F', 'f', 'A'] {
                g.play(letter(c), 0).unwrap();
            }
            assert_eq!(g.undo(0).unwrap_err().code, "online_game");
            assert_eq!(g.redo(0).unwrap_err().code, "online_game");
            assert_eq!(g.game.plies().len(), 3, "nothing taken back alone");
            g.ask_takeback(Side::South).unwrap();
            g.answer_takeback(Side::North, true, 0).unwrap();
            assert_eq!(g.game.plies().len(), 2);
        }
    }

    #[test]
    fn between_two_people_undo_and_redo_go_one_move() {
        let mut g = clocked(0);
        g.clock = None;
        for c in ['F', 'f', 'A'] {
            g.play(letter(c), 0).unwrap();
        }
        g.undo(0).unwrap();
        assert_eq!(g.game.plies().len(), 2);
        g.redo(0).unwrap();
        assert_eq!(g.game.plies().len(), 3);
        assert!(!g.game.can_redo());
    }

    #[test]
    fn a_different_move_after_undo_clears_the_redo_list() {
        let mut g = clocked(0);
        g.clock = None;
        g.play(letter('F'), 0).unwrap();
        g.undo(0).unwrap();
        g.play(letter('E'), 0).unwrap();
        assert!(!g.game.can_redo());
        assert_eq!(g.redo(0).unwrap_err().code, "nothing_to_redo");
    }

    #[test]
    fn a_player_cannot_sit_under_a_name_that_looks_like_the_opponents() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats[0] = Some(Seat {
            player: PlayerId("ama".into()),
            name: "alice_s".into(),
        });
        for alike in ["аlice_s", "ａｌｉｃｅ＿ｓ", "aIice_s", "ALICE_S", "alice_s"] {
            let seat = Seat {
                player: PlayerId("kofi".into()),
                name: alike.into(),
            };
            let e = g.sit(seat, None, 5).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.reason),
                ("name_taken", Some("opponent")),
                "{alike}"
            );
        }
        let seat = Seat {
            player: PlayerId("kofi".into()),
            name: "Kofi".into(),
        };
        assert_eq!(g.sit(seat, None, 5).unwrap(), Side::North);
    }

    #[test]
    fn online_seats_let_each_player_act_for_their_side_only() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats[0] = Some(player("ama"));
        assert!(g.waiting());
        assert_eq!(
            g.play(letter('F'), 0).unwrap_err().code,
            "waiting_for_opponent"
        );
        assert_eq!(
            g.sit(player("ama"), None, 5).unwrap_err().code,
            "already_seated"
        );
        assert_eq!(g.sit(player("kofi"), None, 5).unwrap(), Side::North);
        assert_eq!(
            g.sit(player("yaw"), None, 6).unwrap_err().code,
            "seat_taken"
        );
        let ama = PlayerId("ama".into());
        let kofi = PlayerId("kofi".into());
        assert_eq!(g.sides_of(Some(&ama)), vec![Side::South]);
        assert_eq!(g.sides_of(Some(&kofi)), vec![Side::North]);
        assert!(g.sides_of(None).is_empty());
        assert!(g.sides_of(Some(&PlayerId("yaw".into()))).is_empty());
        assert_eq!(
            g.check_side(Some(&kofi), Side::South).unwrap_err().kind,
            crate::error::Kind::Forbidden
        );
    }

    #[test]
    fn a_private_games_free_seat_needs_its_invitations_key() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats[0] = Some(player("ama"));
        g.give_keys().unwrap();
        let key = g
            .invite
            .clone()
            .expect("a private game has an invitation key");
        assert_eq!(g.public_id.len(), crate::secret::GAME_ID_CHARS);
        for (given, reason) in [
            (None, "missing"),
            (Some("x"), "wrong"),
            (Some(&key[1..]), "wrong"),
        ] {
            let e = g.clone().sit(player("yaw"), given, 5).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.reason, e.kind),
                ("invite_key", Some(reason), crate::error::Kind::Forbidden)
            );
        }
        assert_eq!(g.sit(player("kofi"), Some(&key), 5).unwrap(), Side::North);
        // A public challenge is anyone's: it has no key.
        let mut open = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        open.public = true;
        open.seats[0] = Some(player("ama"));
        open.give_keys().unwrap();
        assert_eq!(open.invite, None);
        assert_eq!(open.sit(player("yaw"), None, 5).unwrap(), Side::North);
    }

    #[test]
    fn names_and_messages_lose_what_would_hide_or_turn_them() {
        assert_eq!(
            parse_name(Some(" Ama\u{202E}txt.exe ")).unwrap(),
            "Amatxt.exe"
        );
        assert_eq!(parse_name(Some("K\u{200B}o\u{FEFF}fi\0")).unwrap(), "Kofi");
        assert_eq!(
            parse_name(Some("\u{2066}\u{200D}")).unwrap_err().code,
            "bad_name"
        );
        assert_eq!(clean_text("one\ntwo\u{0}\u{2067}"), "one two");
    }

    #[test]
    fn every_default_ignorable_character_is_dropped() {
        // Unicode's Default_Ignorable_Code_Point set, the ends of each
        // run: fonts show these as nothing, so a name or a message of them
        // alone would look blank.
        let runs: [(&str, &[char]); 14] = [
            ("soft hyphen, grapheme joiner", &['\u{00AD}', '\u{034F}']),
            ("Arabic letter mark", &['\u{061C}']),
            (
                "Hangul fillers",
                &['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}'],
            ),
            ("Khmer inherent vowels", &['\u{17B4}', '\u{17B5}']),
            ("Mongolian selectors", &['\u{180B}', '\u{180E}', '\u{180F}']),
            ("zero widths, marks", &['\u{200B}', '\u{200D}', '\u{200F}']),
            ("embeddings, overrides", &['\u{202A}', '\u{202E}']),
            (
                "joiner, isolates",
                &['\u{2060}', '\u{2065}', '\u{2066}', '\u{206F}'],
            ),
            (
                "variation selectors",
                &['\u{FE00}', '\u{FE0F}', '\u{E0100}', '\u{E01EF}'],
            ),
            (
                "byte order mark, specials",
                &['\u{FEFF}', '\u{FFF0}', '\u{FFF8}'],
            ),
            ("shorthand format controls", &['\u{1BCA0}', '\u{1BCA3}']),
            ("musical formatting", &['\u{1D173}', '\u{1D17A}']),
            (
                "tags",
                &['\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}'],
            ),
            (
                "unassigned, kept ignorable",
                &['\u{E0080}', '\u{E01F0}', '\u{E0FFF}'],
            ),
        ];
        for (run, chars) in runs {
            for c in chars {
                let shown = clean_text(&format!("a{c}b"));
                assert_eq!(shown, "ab", "{run}: U+{:04X}", u32::from(*c));
            }
        }
        assert_eq!(clean_text("\u{E0041}\u{E0042}\u{E0043}"), "");
        assert_eq!(
            parse_name(Some("\u{1D173}\u{1D174}")).unwrap_err().code,
            "bad_name"
        );
        // Letters, marks, braille and emoji stay.
        for text in ["Akwaaba", "é\u{0301}", "🎉", "مرحبا", "\u{2801}\u{2803}"] {
            assert_eq!(clean_text(text), text);
        }
    }

    #[test]
    fn a_braille_blank_is_a_space_so_a_name_of_them_is_blank() {
        // Not Default_Ignorable, yet a font draws U+2800 as nothing: in
        // braille text it is the space between words, so it becomes one.
        assert_eq!(clean_text("\u{2801}\u{2800}\u{2803}"), "\u{2801} \u{2803}");
        assert_eq!(
            parse_name(Some("\u{2800}\u{2800}\u{2800}"))
                .unwrap_err()
                .code,
            "bad_name"
        );
    }

    #[test]
    fn a_seat_is_never_handed_to_the_player_of_the_other() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats[0] = Some(player("ama"));
        g.sit(player("kofi"), None, 5).unwrap();
        let ama = PlayerId("ama".into());
        let kofi = PlayerId("kofi".into());
        let e = g.hand_over(&ama, kofi.clone()).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.kind),
            ("already_seated", crate::error::Kind::Conflict)
        );
        assert_eq!(g.sides_of(Some(&ama)), vec![Side::South]);
        assert_eq!(g.sides_of(Some(&kofi)), vec![Side::North]);
        // To another device, or to the same one again, it moves.
        assert_eq!(g.hand_over(&ama, ama.clone()).unwrap(), Side::South);
        let phone = PlayerId("ama's phone".into());
        assert_eq!(g.hand_over(&ama, phone.clone()).unwrap(), Side::South);
        assert_eq!(g.sides_of(Some(&phone)), vec![Side::South]);
    }

    #[test]
    fn a_game_without_seats_is_nobodys() {
        let g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 0, 0);
        assert!(g.sides_of(None).is_empty());
        assert!(g.sides_of(Some(&PlayerId("kofi".into()))).is_empty());
        let mut mine = g.clone();
        mine.seats = [Some(player("ama")), Some(player("ama"))];
        assert!(mine.sides_of(None).is_empty());
        assert!(mine.sides_of(Some(&PlayerId("kofi".into()))).is_empty());
    }

    #[test]
    fn an_accepted_takeback_returns_to_the_askers_turn() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.play(letter('F'), 1).unwrap();
        g.play(letter('f'), 2).unwrap();
        g.ask_takeback(Side::South).unwrap();
        assert_eq!(
            g.ask_takeback(Side::North).unwrap_err().code,
            "takeback_pending"
        );
        assert_eq!(
            g.answer_takeback(Side::South, true, 3).unwrap_err().code,
            "no_takeback"
        );
        g.answer_takeback(Side::North, true, 3).unwrap();
        assert!(g.game.plies().is_empty());
        assert_eq!(g.game.position().to_move(), Side::South);
    }

    #[test]
    fn a_declined_takeback_or_rematch_is_told_to_the_asker() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.play(letter('F'), 1).unwrap();
        g.ask_takeback(Side::South).unwrap();
        g.answer_takeback(Side::North, false, 2).unwrap();
        assert_eq!(g.offers.takeback, None);
        assert_eq!(g.offers.takeback_declined, Some(Side::South));
        assert_eq!(g.game.plies().len(), 1, "nothing taken back");
        // Said until the asker's next move.
        g.play(letter('f'), 3).unwrap();
        assert_eq!(g.offers.takeback_declined, None);
        g.resign(Side::North, 4).unwrap();
        assert_eq!(
            g.decline_rematch(Side::North).unwrap_err().code,
            "no_rematch"
        );
        assert!(!g.offer_rematch(Side::South).unwrap());
        assert_eq!(
            g.decline_rematch(Side::South).unwrap_err().code,
            "no_rematch",
            "one's own offer"
        );
        g.decline_rematch(Side::North).unwrap();
        assert_eq!(g.offers.rematch, None);
        assert_eq!(g.offers.rematch_declined, Some(Side::South));
        // The offerer may offer again.
        assert!(!g.offer_rematch(Side::South).unwrap());
        assert_eq!(g.offers.rematch_declined, None);
    }

    #[test]
    fn the_offers_read_in_json_as_the_page_reads_them() {
        let offers = Offers {
            takeback: Some(Side::South),
            rematch_id: Some(7),
            rematch_public_id: Some("k3Xq".into()),
            draw_declined: Some(Side::North),
            ..Offers::default()
        };
        assert_eq!(
            serde_json::to_value(&offers).unwrap(),
            serde_json::json!({
                "takeback": "S", "rematch": null, "rematch_id": "k3Xq",
                "takeback_declined": null, "rematch_declined": null,
                "draw": null, "draw_declined": "N",
            }),
            "sides by letter, the rematch by its public id, the store's id not shown"
        );
    }

    #[test]
    fn a_draw_is_offered_accepted_declined_and_cancelled_by_a_move() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        assert_eq!(
            g.offer_draw(Side::South).unwrap_err().code,
            "draw_too_early"
        );
        g.play(letter('F'), 1).unwrap();
        g.play(letter('f'), 2).unwrap();
        // South offers on its turn, then moves: the offer stands.
        g.offer_draw(Side::South).unwrap();
        assert_eq!(g.offer_draw(Side::South).unwrap_err().reason, Some("yours"));
        // Refused while the opponent's own offer waits.
        let theirs = g.offer_draw(Side::North).unwrap_err();
        assert_eq!(
            (theirs.code.as_str(), theirs.reason),
            ("draw_pending", Some("theirs"))
        );
        assert_eq!(
            g.answer_draw(Side::South, true, 0).unwrap_err().code,
            "no_draw"
        );
        g.play(letter('A'), 3).unwrap();
        assert_eq!(g.offers.draw, Some(Side::South));
        // North moves instead of answering: the offer is gone, South told,
        // and South may offer again only after its next move.
        g.play(letter('a'), 4).unwrap();
        assert_eq!(
            (g.offers.draw, g.offers.draw_declined),
            (None, Some(Side::South))
        );
        assert_eq!(g.offer_draw(Side::South).unwrap_err().code, "draw_declined");
        assert_eq!(
            g.answer_draw(Side::North, false, 0).unwrap_err().code,
            "no_draw"
        );
        g.play(letter('B'), 5).unwrap();
        assert_eq!(g.offers.draw_declined, None);
        // Offered by North, declined by South.
        g.offer_draw(Side::North).unwrap();
        g.answer_draw(Side::South, false, 0).unwrap();
        assert_eq!(
            (g.offers.draw, g.offers.draw_declined),
            (None, Some(Side::North))
        );
        assert!(g.end().is_none());
        // Offered by South, accepted: a draw, no winner.
        g.offers.draw_declined = None;
        g.offer_draw(Side::South).unwrap();
        assert!(!g.actions(Side::South, 6).draw, "its own offer waits");
        assert!(!g.actions(Side::North, 6).draw, "answer instead");
        g.answer_draw(Side::North, true, 0).unwrap();
        let end = g.end().unwrap();
        assert_eq!((end.reason, end.winner), (EndReason::Agreement, None));
        assert_eq!(end.result_text(), "1/2-1/2");
        assert_eq!(g.offer_draw(Side::South).unwrap_err().code, "game_over");
    }

    #[test]
    fn a_game_over_days_gives_each_move_its_days_again_and_flags_after_weeks() {
        assert_eq!(Clock::days(4).unwrap_err().code, "bad_clock");
        assert_eq!(Clock::days(0).unwrap_err().code, "bad_clock");
        let day = DAY_MS;
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.clock = Some(Clock::days(3).unwrap());
        assert_eq!(g.speed(), crate::rating::Speed::Correspondence);
        g.seats[0] = Some(player("ama"));
        g.sit(player("kofi"), None, 0).unwrap();
        // The first moves are free (no clock before a side's first move),
        // however long they take.
        g.play(letter('C'), 10 * day).unwrap();
        g.play(letter('c'), 20 * day).unwrap();
        assert_eq!(g.flag_deadline(), Some(23 * day));
        // South moves after 2 days 23 hours: three days again, not one
        // hour left.
        g.play(letter('D'), 23 * day - 3_600_000).unwrap();
        assert_eq!(g.clock.unwrap().remaining_ms, [3 * day; 2]);
        assert_eq!(g.time_left(24 * day), Some([3 * day, 2 * day - 3_600_000]));
        // North does not move for three weeks: the flag fell after three
        // days, and a read weeks later sees it then.
        assert!(!g.check_flag(26 * day - 3_600_001));
        assert!(g.check_flag(47 * day));
        assert_eq!(g.stop, Some(Stop::Time(Side::North)));
        assert_eq!(g.time_left(47 * day), Some([3 * day, 0]));
        // A rematch is over days too, its days full.
        let next = g.rematch_game(48 * day).clock.unwrap();
        assert!(next.per_move);
        assert_eq!(next.remaining_ms, [3 * day; 2]);
    }

    #[test]
    fn online_no_clock_runs_before_each_sides_first_move() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.clock = Some(Clock::new(30_000, 1_000));
        g.seats[0] = Some(player("ama"));
        g.sit(player("kofi"), None, 1_000).unwrap();
        // South thinks 25 s over the first move: nothing is charged, no
        // flag is armed, nothing falls.
        assert!(!g.clock_running());
        assert_eq!(g.flag_deadline(), None);
        assert_eq!(g.time_left(26_000), Some([30_000, 30_000]));
        assert!(!g.check_flag(99_000));
        g.play(letter('F'), 26_000).unwrap();
        assert_eq!(g.clock.unwrap().remaining_ms, [30_000, 30_000]);
        // North's first move is free too.
        assert!(!g.clock_running());
        g.play(letter('f'), 60_000).unwrap();
        assert_eq!(g.clock.unwrap().remaining_ms, [30_000, 30_000]);
        // From South's second move on, each side's time runs.
        assert!(g.clock_running());
        assert_eq!(g.flag_deadline(), Some(90_000));
        assert_eq!(g.time_left(70_000), Some([20_000, 30_000]));
        g.play(letter('A'), 70_000).unwrap();
        assert_eq!(g.clock.unwrap().remaining_ms, [21_000, 30_000]);
        assert!(g.check_flag(100_000));
        assert_eq!(g.stop, Some(Stop::Time(Side::North)));
    }

    #[test]
    fn an_end_by_the_players_keeps_the_clocks_of_its_moment() {
        // South and North have made their first moves (free, online), so
        // South's time runs: 5 s of it are used when South resigns, North
        // agrees a draw or the game is aborted.
        let begun = || {
            let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
            g.clock = Some(Clock::new(30_000, 0));
            g.seats = [Some(player("ama")), Some(player("kofi"))];
            g.play(letter('F'), 1_000).unwrap();
            g.play(letter('f'), 2_000).unwrap();
            g
        };
        let mut resigned = begun();
        assert_eq!(resigned.time_left(7_000), Some([25_000, 30_000]));
        resigned.resign(Side::South, 7_000).unwrap();
        assert_eq!(resigned.clock.unwrap().remaining_ms, [25_000, 30_000]);
        assert_eq!(resigned.time_left(99_000), Some([25_000, 30_000]));
        // The opponent resigning on the other's turn charges the mover.
        let mut theirs = begun();
        theirs.resign(Side::North, 7_000).unwrap();
        assert_eq!(theirs.time_left(99_000), Some([25_000, 30_000]));
        let mut agreed = begun();
        agreed.play(letter('A'), 3_000).unwrap();
        agreed.offer_draw(Side::South).unwrap();
        agreed.answer_draw(Side::North, true, 10_000).unwrap();
        assert_eq!(agreed.time_left(99_000), Some([29_000, 23_000]));
        // Never below nothing, and a free first move is charged nothing.
        let mut late = begun();
        late.resign(Side::South, 99_000).unwrap();
        assert_eq!(late.time_left(99_000), Some([0, 30_000]));
        let mut first = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        first.clock = Some(Clock::new(30_000, 0));
        first.seats = [Some(player("ama")), Some(player("kofi"))];
        first.abort(Side::South, 9_000).unwrap();
        assert_eq!(first.time_left(99_000), Some([30_000, 30_000]));
    }

    #[test]
    fn abort_only_before_both_have_moved() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.play(letter('F'), 1_000).unwrap();
        // South moved; North has 30 s to answer before South may abort.
        assert_eq!(
            g.abort(Side::South, 20_000).unwrap_err().code,
            "cannot_abort"
        );
        let mut early = g.clone();
        early.abort(Side::North, 2_000).unwrap();
        g.abort(Side::South, 31_000).unwrap();
        assert_eq!(g.end().unwrap().result_text(), "*");
        let mut begun = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        begun.seats = [Some(player("ama")), Some(player("kofi"))];
        begun.play(letter('F'), 1).unwrap();
        begun.play(letter('f'), 2).unwrap();
        assert_eq!(
            begun.abort(Side::North, 99_000).unwrap_err().code,
            "cannot_abort"
        );
    }

    #[test]
    fn a_win_is_claimed_only_after_two_minutes_gone_on_their_move() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.play(letter('F'), 0).unwrap();
        assert!(g.claim(Side::South, Some(0), 60_000).is_err());
        assert!(
            g.claim(Side::South, None, STALL_AFTER_MS - 1).is_err(),
            "still connected, within the move limit"
        );
        // Connected but stalled past the move limit: claimable (issue 38).
        assert!(g.clone().claim(Side::South, None, STALL_AFTER_MS).is_ok());
        assert!(g.clone().claim(Side::South, None, 999_000).is_ok());
        assert!(g.claim(Side::North, Some(0), 999_000).is_err(), "own move");
        g.claim(Side::South, Some(0), 120_000).unwrap();
        let end = g.end().unwrap();
        assert_eq!(
            (end.reason, end.winner),
            (EndReason::Abandoned, Some(Side::South))
        );
    }

    #[test]
    fn the_actions_of_each_side_follow_the_rules_of_abort_claim_and_takeback() {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        // Before any move both may call the game off; nobody takes back.
        for side in Side::BOTH {
            let a = g.actions(side, 0);
            assert_eq!(
                (a.abort_in_ms, a.takeback, a.rematch),
                (Some(0), false, false)
            );
        }
        g.play(letter('F'), 1_000).unwrap();
        // South moved: it may abort once North has let 30 s go by, and
        // claim once North has been gone two minutes on its move: not
        // while North is here.
        let south = g.actions(Side::South, 11_000);
        assert_eq!(south.abort_in_ms, Some(20_000));
        // Connected, North runs into the move limit only.
        assert_eq!(south.claim_in_ms, Some(1_000 + STALL_AFTER_MS - 11_000));
        assert!(south.takeback);
        // Gone since before its turn: two minutes from the turn's start.
        g.gone_since[Side::North.index()] = Some(0);
        assert_eq!(g.actions(Side::South, 11_000).claim_in_ms, Some(110_000));
        // Gone since during its turn: two minutes from then.
        g.gone_since[Side::North.index()] = Some(5_000);
        assert_eq!(g.actions(Side::South, 11_000).claim_in_ms, Some(114_000));
        assert_eq!(g.actions(Side::South, 125_000).claim_in_ms, Some(0));
        let north = g.actions(Side::North, 11_000);
        assert_eq!((north.abort_in_ms, north.claim_in_ms), (Some(0), None));
        g.play(letter('f'), 12_000).unwrap();
        assert_eq!(g.actions(Side::North, 99_000).abort_in_ms, None);
        // Watchers' views carry both sides; a game over offers a rematch.
        g.resign(Side::South, 13_000).unwrap();
        let after = g.actions(Side::North, 100_000);
        assert!(after.rematch && !after.takeback && after.claim_in_ms.is_none());
    }
}
