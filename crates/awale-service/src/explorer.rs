//! The opening explorer: for the position after some moves from the
//! start (the `awale` rules), each move the site's finished games played
//! there, with how many and their results (South's wins, North's wins,
//! draws), and the endgame databases' exact value where they cover the
//! position. The games counted are every stored game of the standard
//! rules from their start position that has a result (computer, one
//! screen and online alike; an aborted game has none), followed move for
//! move (a transposition from another order is another line, as an
//! opening book reads it). The counting is the store's
//! ([`ExplorerStore::opening_moves`]); the rule (which games, which
//! position, what a line may be) is here.

use std::sync::Arc;

use awale_core::{Game, Move, Rules};
use serde::Serialize;

use crate::computer::{Computer, OracleValue};
use crate::study::{self, PositionView};
use awale_model::error::Error;
use awale_model::rating::Speed;
use awale_model::Code;
use awale_store::{ExplorerStore, OpeningFilter};

/// Moves of a line the explorer follows, at most (an opening is far
/// shorter; a whole game's worth is still answered).
pub const MAX_LINE: usize = 400;

/// The rules whose games the explorer counts.
pub const RULES: Rules = Rules::AWALE;

/// A move of the position, with the games that played it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerMove {
    /// Its letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// Finished games that played it here.
    pub games: i64,
    /// Of them, won by South.
    pub south_wins: i64,
    /// Won by North.
    pub north_wins: i64,
    /// Drawn.
    pub draws: i64,
    /// The mean rating of their players before them (rated games only),
    /// rounded; null when none was rated.
    pub average_rating: Option<i64>,
    /// The databases' value of the move inside the line (its capture
    /// included, the mover's view); null where they do not cover it.
    pub db: Option<OracleValue>,
}

/// The explorer's answer for a position.
#[derive(Clone, Debug, Serialize)]
pub struct ExplorerView {
    /// The rules whose games are counted (`awale`).
    pub rules: String,
    /// The start they are counted from (a diagram): a game of these
    /// rules from this start can be followed here.
    pub start: String,
    /// The line followed, as letters (`FfAa`): the position is the one
    /// after it.
    pub play: String,
    /// The position and what each of the mover's holes does.
    pub position: PositionView,
    /// Finished games that went on from here (the sum of the moves').
    pub games: i64,
    /// Every legal move: those played, the most played first, then the
    /// others (no game yet) by letter.
    pub moves: Vec<ExplorerMove>,
    /// The databases' value of the position inside the line (the side to
    /// move's view), when they cover it.
    pub db: Option<OracleValue>,
    /// The games counted: of this speed only (null: any).
    pub speed: Option<&'static str>,
    /// Rated games whose players' mean rating was at least this (null:
    /// any).
    pub min_rating: Option<i64>,
    /// Rated games whose players' mean rating was below this (null: any).
    pub max_rating: Option<i64>,
}

/// Which games the explorer counts (by default, all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExplorerFilter {
    /// Of this speed only.
    pub speed: Option<Speed>,
    /// Rated games whose players' mean rating before them is at least
    /// this.
    pub min_rating: Option<i64>,
    /// Rated games whose players' mean rating before them is below this.
    pub max_rating: Option<i64>,
}

/// The highest rating a band may name.
pub const MAX_BAND_RATING: i64 = 4_000;

impl ExplorerFilter {
    /// The filter of a speed's name and a band's bounds, as asked.
    ///
    /// # Errors
    ///
    /// `bad_filter` naming what is wrong: an unknown speed, a rating out
    /// of 0 to [`MAX_BAND_RATING`], a band whose bottom is not below its
    /// top.
    pub fn parse(
        speed: Option<&str>,
        min_rating: Option<i64>,
        max_rating: Option<i64>,
    ) -> Result<ExplorerFilter, Error> {
        let speed = match speed.filter(|s| !s.is_empty()) {
            None => None,
            Some(name) => Some(Speed::from_name(name).ok_or_else(|| {
                Error::invalid(Code::BadFilter, format!("`{name}` is not a speed"))
                    .because("speed")
                    .with("text", name)
            })?),
        };
        for r in [min_rating, max_rating].into_iter().flatten() {
            if !(0..=MAX_BAND_RATING).contains(&r) {
                return Err(Error::invalid(
                    Code::BadFilter,
                    format!("rating {r}: from 0 to {MAX_BAND_RATING}"),
                )
                .because("rating")
                .with("rating", r));
            }
        }
        if let (Some(min), Some(max)) = (min_rating, max_rating) {
            if min >= max {
                return Err(Error::invalid(
                    Code::BadFilter,
                    format!("the band from {min} to {max} is empty"),
                )
                .because("band")
                .with("min", min)
                .with("max", max));
            }
        }
        Ok(ExplorerFilter {
            speed,
            min_rating,
            max_rating,
        })
    }

    fn stored(self) -> OpeningFilter {
        OpeningFilter {
            speed: self.speed.map(|s| s.name().to_string()),
            min_rating: self.min_rating.map(|r| r as f64),
            max_rating: self.max_rating.map(|r| r as f64),
        }
    }
}

/// The opening explorer over the stored games.
pub struct Explorer {
    store: Arc<dyn ExplorerStore>,
    computer: Arc<Computer>,
}

impl Explorer {
    /// The explorer of the games in `store`, the databases' values from
    /// `computer`'s.
    pub fn new(store: Arc<dyn ExplorerStore>, computer: Arc<Computer>) -> Explorer {
        Explorer { store, computer }
    }

    /// The position after `play` (letters from the start, spaces and
    /// commas allowed; the start when None or empty) and its moves.
    ///
    /// # Errors
    ///
    /// `bad_moves` for text that is not moves or more than [`MAX_LINE`],
    /// `illegal_move` naming the first move that cannot be played.
    pub async fn explore(&self, play: Option<&str>) -> Result<ExplorerView, Error> {
        self.explore_games(play, ExplorerFilter::default()).await
    }

    /// The same, counting only the games `filter` lets through.
    ///
    /// # Errors
    ///
    /// As [`Explorer::explore`].
    pub async fn explore_games(
        &self,
        play: Option<&str>,
        filter: ExplorerFilter,
    ) -> Result<ExplorerView, Error> {
        let game = line(play)?;
        let start = game.start().to_string();
        let played: String = game.plies().iter().map(|p| p.mv.letter()).collect();
        let counted = self
            .store
            .opening_moves(
                RULES.to_string(),
                start.clone(),
                played.clone(),
                filter.stored(),
            )
            .await?;
        let position = game.position();
        let legal = if game.outcome().is_some() {
            Vec::new()
        } else {
            game.legal_moves()
        };
        let value = |m: Move| self.computer.move_value(&game, m);
        let mut moves: Vec<ExplorerMove> = counted
            .iter()
            .filter_map(|c| {
                let m = c.letter.chars().next().and_then(Move::from_letter)?;
                legal.contains(&m).then(|| ExplorerMove {
                    mv: m.to_string(),
                    games: c.games,
                    south_wins: c.south_wins,
                    north_wins: c.north_wins,
                    draws: c.draws,
                    average_rating: c.average_rating.map(|r| r.round() as i64),
                    db: value(m),
                })
            })
            .collect();
        for m in &legal {
            if !moves.iter().any(|x| x.mv == m.to_string()) {
                moves.push(ExplorerMove {
                    mv: m.to_string(),
                    games: 0,
                    south_wins: 0,
                    north_wins: 0,
                    draws: 0,
                    average_rating: None,
                    db: value(*m),
                });
            }
        }
        Ok(ExplorerView {
            rules: RULES.to_string(),
            start,
            play: played,
            position: PositionView::of(&position, game.rules()),
            games: moves.iter().map(|m| m.games).sum(),
            db: self.computer.oracle_value(&game),
            moves,
            speed: filter.speed.map(Speed::name),
            min_rating: filter.min_rating,
            max_rating: filter.max_rating,
        })
    }
}

/// The game of the standard rules from their start with `play` played.
///
/// # Errors
///
/// As [`Explorer::explore`].
pub fn line(play: Option<&str>) -> Result<Game, Error> {
    let start = Game::new(RULES).start();
    let play = play.filter(|p| !p.trim().is_empty());
    if let Some(text) = play {
        let count = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .count();
        if count > MAX_LINE {
            return Err(Error::invalid(
                Code::BadMoves,
                format!("{count} moves: the explorer follows at most {MAX_LINE}"),
            )
            .because("too_many")
            .with("count", count)
            .with("max", MAX_LINE));
        }
    }
    study::replay(start, RULES, play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_played_from_the_start_and_bad_ones_are_named() {
        assert_eq!(line(None).unwrap().plies().len(), 0);
        assert_eq!(line(Some(" ")).unwrap().plies().len(), 0);
        assert_eq!(line(Some("F f,A")).unwrap().plies().len(), 3);
        assert_eq!(line(Some("Fx")).unwrap_err().code, "bad_moves");
        assert_eq!(line(Some("FF")).unwrap_err().code, "illegal_move");
        let long = "Ff".repeat(MAX_LINE);
        assert_eq!(line(Some(&long)).unwrap_err().code, "bad_moves");
    }
}
