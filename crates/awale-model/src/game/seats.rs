//! Who sits where: the seats of a game, taking the free seat of an online
//! game, handing a seat to another device, and who may act for a side.

use awale_core::Side;

use super::{look_alike, Mode, WebGame};
use crate::error::Error;
use crate::Code;

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

/// A rated seat is not handed to another player: its result is its
/// account's, so another device logs in to the account instead.
pub fn rated_seat() -> Error {
    Error::forbidden(
        Code::RatedSeat,
        "a rated seat stays with its account: log in to your account on the other device",
    )
    .because("rated")
}

impl WebGame {
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
}
