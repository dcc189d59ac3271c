//! A tournament's kind and state as the service holds them: closed enums
//! whose names, on the wire and in the store, are the words of before
//! (`arena`, `swiss`; `created`, `started`, `finished`); a stored word that
//! names none of them is an error naming it.

use serde::Serialize;

use crate::error::Error;

/// What kind of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// A fixed time, whoever is free paired at once.
    Arena,
    /// Rounds, everyone paired at each.
    Swiss,
}

/// Where a tournament is, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentState {
    /// Made, not started.
    Created,
    /// Going on (an arena whose time is up stays so until its last game
    /// ends).
    Started,
    /// Over, its standings final.
    Finished,
}

impl TournamentKind {
    /// Its word, on the wire and in the store.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentKind::Arena => "arena",
            TournamentKind::Swiss => "swiss",
        }
    }

    /// The kind a stored word names.
    ///
    /// # Errors
    ///
    /// An internal error naming `word` when it names no kind.
    pub fn parse(word: &str) -> Result<TournamentKind, Error> {
        match word {
            "arena" => Ok(TournamentKind::Arena),
            "swiss" => Ok(TournamentKind::Swiss),
            _ => Err(Error::internal(format!(
                "a tournament of no known kind: {word:?}"
            ))),
        }
    }
}

impl TournamentState {
    /// Its word, on the wire and in the store.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentState::Created => "created",
            TournamentState::Started => "started",
            TournamentState::Finished => "finished",
        }
    }

    /// The state a stored word names.
    ///
    /// # Errors
    ///
    /// An internal error naming `word` when it names no state.
    pub fn parse(word: &str) -> Result<TournamentState, Error> {
        match word {
            "created" => Ok(TournamentState::Created),
            "started" => Ok(TournamentState::Started),
            "finished" => Ok(TournamentState::Finished),
            _ => Err(Error::internal(format!(
                "a tournament in no known state: {word:?}"
            ))),
        }
    }
}

impl std::fmt::Display for TournamentState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_and_kind_reads_back_its_own_word() {
        use TournamentState::{Created, Finished, Started};
        for state in [Created, Started, Finished] {
            assert_eq!(TournamentState::parse(state.as_str()).unwrap(), state);
            assert_eq!(
                serde_json::to_string(&state).unwrap(),
                format!("\"{state}\"")
            );
        }
        for kind in [TournamentKind::Arena, TournamentKind::Swiss] {
            assert_eq!(TournamentKind::parse(kind.as_str()).unwrap(), kind);
        }
    }

    #[test]
    fn a_stored_word_that_names_no_state_is_an_error_naming_it() {
        let e = TournamentState::parse("paused").unwrap_err();
        assert!(e.message.contains("\"paused\""), "{e:?}");
        assert!(TournamentKind::parse("knockout").is_err());
    }
}
