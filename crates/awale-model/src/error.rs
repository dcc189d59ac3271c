//! The game server's own error: what kind of failure (not found, invalid,
//! conflict, forbidden, too many, busy, internal), a stable code the page
//! translates, and a message for people and logs, in English. It knows
//! nothing of HTTP: `http::error` maps each kind to a status, once.

use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No such game, player or link.
    NotFound,
    /// A value that cannot even be read (a move that is not a hole letter).
    Malformed,
    /// The request is understood but breaks the rules or names a bad value.
    Invalid,
    /// Well formed but not possible now (out of turn, game over, stale).
    Conflict,
    /// Not this player's to do (a seat held by someone else).
    Forbidden,
    /// Too many requests of this kind from this player: wait.
    TooMany,
    /// The server is too busy now: try again later.
    Busy,
    /// The server failed (storage).
    Internal,
}

/// A failed operation on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Its kind.
    pub kind: Kind,
    /// A stable machine-readable code such as `illegal_move`.
    pub code: &'static str,
    /// What went wrong, naming the rejected input.
    pub message: String,
    /// Why, more precisely, as a stable code (for an illegal move: the
    /// rule it breaks, `grand_slam`, `does_not_feed`, `empty_hole`,
    /// `not_your_hole`).
    pub reason: Option<&'static str>,
}

impl Error {
    /// An error of this kind, code and message.
    pub fn new(kind: Kind, code: &'static str, message: impl Into<String>) -> Error {
        Error {
            kind,
            code,
            message: message.into(),
            reason: None,
        }
    }

    /// The same error, with a more precise reason.
    pub fn because(mut self, reason: &'static str) -> Error {
        self.reason = Some(reason);
        self
    }

    /// A bad value or a move the rules refuse.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(Kind::Invalid, code, message)
    }

    /// Not possible now.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(Kind::Conflict, code, message)
    }

    /// Not this player's to do.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(Kind::Forbidden, code, message)
    }

    /// Too many requests.
    pub fn too_many(code: &'static str, message: impl Into<String>) -> Error {
        Error::new(Kind::TooMany, code, message)
    }

    /// The server failed.
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(Kind::Internal, "internal", message)
    }

    /// No game with this id.
    pub fn no_game(id: i64) -> Error {
        Error::new(
            Kind::NotFound,
            "no_such_game",
            format!("no game with id `{id}`"),
        )
    }

    /// The game is over.
    pub fn game_over(reason: &str) -> Error {
        Error::conflict("game_over", format!("the game is over ({reason})"))
    }
}

/// Longest piece of a request's input an error message quotes back.
pub const SHOWN_CHARS: usize = 24;

/// `text` as an error message quotes it: its first [`SHOWN_CHARS`]
/// characters, with `…` when there is more (a 10 KB move is not echoed).
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}
