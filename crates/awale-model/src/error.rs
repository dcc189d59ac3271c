//! The game server's own error: what kind of failure (not found, invalid,
//! conflict, forbidden, too many, busy, internal), a stable code, a more
//! precise reason and the facts the front ends word it with (the page from
//! its catalogs), and a message in English for logs and API users only. It
//! knows nothing of HTTP: `http::error` maps each kind to a status, once.

use std::fmt;

use crate::Code;

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
    /// No valid credentials (an API token missing, unknown or revoked).
    Unauthorized,
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
    pub code: Code,
    /// What went wrong, naming the rejected input.
    pub message: String,
    /// Why, more precisely, as a stable code (for an illegal move: the
    /// rule it breaks, `grand_slam`, `does_not_feed`, `empty_hole`,
    /// `not_your_hole`).
    pub reason: Option<&'static str>,
    /// The facts a front end words the error with (`{"wait_s": 3}`,
    /// `{"line": 2, "column": 5}`): names and values, never sentences.
    /// (Boxed: errors travel in every `Result` of the model.)
    pub fields: Box<serde_json::Map<String, serde_json::Value>>,
}

impl Error {
    /// An error of this kind, code and message.
    pub fn new(kind: Kind, code: Code, message: impl Into<String>) -> Error {
        Error {
            kind,
            code,
            message: message.into(),
            reason: None,
            fields: Box::default(),
        }
    }

    /// The same error, with one more fact.
    pub fn with(mut self, name: &str, value: impl Into<serde_json::Value>) -> Error {
        // A field may quote the client's input: cut it as the message
        // does, so a huge input is not echoed back whole.
        let value = match value.into() {
            serde_json::Value::String(text) => serde_json::Value::String(shown(&text)),
            other => other,
        };
        self.fields.insert(name.to_string(), value);
        self
    }

    /// The same error, with a more precise reason.
    pub fn because(mut self, reason: &'static str) -> Error {
        self.reason = Some(reason);
        self
    }

    /// A bad value or a move the rules refuse.
    pub fn invalid(code: Code, message: impl Into<String>) -> Error {
        Error::new(Kind::Invalid, code, message)
    }

    /// Not possible now.
    pub fn conflict(code: Code, message: impl Into<String>) -> Error {
        Error::new(Kind::Conflict, code, message)
    }

    /// Not this player's to do.
    pub fn forbidden(code: Code, message: impl Into<String>) -> Error {
        Error::new(Kind::Forbidden, code, message)
    }

    /// Too many requests.
    pub fn too_many(code: Code, message: impl Into<String>) -> Error {
        Error::new(Kind::TooMany, code, message)
    }

    /// The server failed.
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(Kind::Internal, Code::Internal, message)
    }

    /// No game with this id.
    pub fn no_game(id: i64) -> Error {
        Error::new(
            Kind::NotFound,
            Code::NoSuchGame,
            format!("no game with id `{id}`"),
        )
        .with("id", id)
    }

    /// A move the rules refuse: `illegal_move`, the rule it breaks as the
    /// reason (`grand_slam`, `does_not_feed`, `empty_hole`,
    /// `not_your_hole`, `game_over`) and the move.
    pub fn illegal_move(e: awale_core::GameError, mv: Option<awale_core::Move>) -> Error {
        let reason = match e {
            awale_core::GameError::Illegal(illegal) => illegal.name(),
            awale_core::GameError::Over(_) => "game_over",
        };
        let error = Error::invalid(Code::IllegalMove, e.to_string()).because(reason);
        match mv {
            Some(mv) => error.with("move", mv.to_string()),
            None => error,
        }
    }

    /// A record file that cannot be imported: `bad_record`, what is wrong
    /// as the reason (`syntax`, `variant`, `fen`, `illegal`,
    /// `wrong_capture`, `result_tag`, `wrong_result`) and its facts; `game`:
    /// the record's number in the file (1-based), when it holds several.
    pub fn bad_record(e: &awale_core::RecordError, game: Option<usize>) -> Error {
        use awale_core::{RecordError as R, Syntax as S};
        let message = match game {
            Some(n) => format!("game {n}: {e}"),
            None => e.to_string(),
        };
        let mut error = Error::invalid(Code::BadRecord, message);
        if let Some(n) = game {
            error = error.with("game", n);
        }
        match e {
            R::Syntax {
                line,
                column,
                error: what,
            } => {
                error = error
                    .because("syntax")
                    .with("line", *line)
                    .with("column", *column)
                    .with("syntax", what.name());
                error = match what {
                    S::NotANumber { word } => error.with("text", word.as_str()),
                    S::NumberGoesBack { number, after } => {
                        error.with("number", *number).with("after", *after)
                    }
                    S::BadCapture { written, mv } => error
                        .with("text", written.as_str())
                        .with("move", mv.to_string()),
                    S::NoSpace { found, mv } => error
                        .with("text", found.to_string())
                        .with("move", mv.to_string()),
                    S::Unexpected { found } => error.with("text", found.to_string()),
                    S::TagValueNotQuoted { tag }
                    | S::TagNotFinished { tag }
                    | S::TagValueNotClosed { tag }
                    | S::TagValueTooLong { tag }
                    | S::TagNotClosed { tag, .. } => error.with("tag", tag.as_str()),
                    S::NotOneRecord { found } => error.with("count", *found),
                    S::CommentTooLong
                    | S::CommentNotClosed
                    | S::TagNameTooLong
                    | S::TagWithoutName => error,
                };
            }
            R::Variant(_) => error = error.because("variant"),
            R::Fen(_) => error = error.because("fen"),
            R::Illegal { ply, mv, error: e } => {
                let rule = match e {
                    awale_core::GameError::Illegal(illegal) => illegal.name(),
                    awale_core::GameError::Over(_) => "game_over",
                };
                error = error
                    .because("illegal")
                    .with("ply", *ply)
                    .with("move", mv.to_string())
                    .with("rule", rule);
            }
            R::WrongCapture {
                ply,
                mv,
                written,
                actual,
            } => {
                error = error
                    .because("wrong_capture")
                    .with("ply", *ply)
                    .with("move", mv.to_string())
                    .with("written", *written)
                    .with("actual", *actual);
            }
            R::ResultTag { tag, written } => {
                error = error
                    .because("result_tag")
                    .with("tag", tag.as_str())
                    .with("written", written.as_str());
            }
            R::WrongResult { written, played } => {
                error = error
                    .because("wrong_result")
                    .with("written", written.as_str())
                    .with("played", played.as_str());
            }
        }
        error
    }

    /// The game is over (`reason`: how it ended).
    pub fn game_over(reason: &str) -> Error {
        Error::conflict(Code::GameOver, format!("the game is over ({reason})")).with("end", reason)
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
