//! The opening explorer: for the position after some moves from the
//! start (the `awale` rules), each move the site's finished games played
//! there, with how many and their results (South's wins, North's wins,
//! draws), the engine's evaluation of every legal move (a small fixed
//! search, [`EVAL_NODES`], kept per line in a bounded cache) and the
//! endgame databases' exact value where they cover the position (which
//! replaces the engine's estimate of a move they decide). The games counted are every stored game of the standard
//! rules from their start position that has a result (computer, one
//! screen and online alike; an aborted game has none), followed move for
//! move (a transposition from another order is another line, as an
//! opening book reads it). The counting is the store's
//! ([`ExplorerStore::opening_moves`]); the rule (which games, which
//! position, what a line may be) is here.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_core::{Game, Move, Rules};
use awale_engine::Limits;
use serde::Serialize;

use crate::computer::{Asker, Computer, MoveScore, OracleValue, Priority, Score};
use crate::lock;
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

/// The engine's budget for the moves of a position, all together (the
/// engine shares it out between them): small, so that an answer stays
/// fast; an estimate, not a review.
pub const EVAL_NODES: u64 = 20_000;

/// Lines whose evaluation the explorer keeps (the oldest forgotten
/// first): an opening tree is small and heavily shared.
pub const EVAL_CACHE_LINES: usize = 4_096;

/// How long an answer waits for its evaluation (a slot of the computer,
/// then the search) before it goes without: the search goes on and is
/// kept for the next answer.
pub const EVAL_WAIT: Duration = Duration::from_secs(1);

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
    /// The move's value, the mover's view (`cp`: hundredths of a seed,
    /// the final margin expected): the engine's estimate within
    /// [`EVAL_NODES`], or the databases' exact result where they decide
    /// the move (`exact`). Null when the computer had no time for it
    /// (the view's `evaluated` false) and the databases do not decide it.
    pub eval: Option<Score>,
    /// Whether `eval` is the databases' exact result (else the engine's
    /// estimate).
    pub exact: bool,
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
    /// Whether every move has its evaluation (false when the computer was
    /// too busy for the engine's: only the moves the databases decide
    /// have one).
    pub evaluated: bool,
    /// The engine's budget for the position's moves, in nodes.
    pub eval_nodes: u64,
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

/// The engine's scores of the lines explored lately: at most
/// [`EVAL_CACHE_LINES`], the oldest forgotten first.
struct Evaluations {
    scores: HashMap<String, Vec<MoveScore>>,
    order: VecDeque<String>,
    max: usize,
}

impl Evaluations {
    fn new(max: usize) -> Evaluations {
        Evaluations {
            scores: HashMap::new(),
            order: VecDeque::new(),
            max: max.max(1),
        }
    }

    fn get(&self, line: &str) -> Option<Vec<MoveScore>> {
        self.scores.get(line).cloned()
    }

    fn keep(&mut self, line: String, scores: Vec<MoveScore>) {
        if self.scores.contains_key(&line) {
            return;
        }
        while self.order.len() >= self.max {
            if let Some(old) = self.order.pop_front() {
                self.scores.remove(&old);
            }
        }
        self.order.push_back(line.clone());
        self.scores.insert(line, scores);
    }
}

/// The opening explorer over the stored games.
pub struct Explorer {
    store: Arc<dyn ExplorerStore>,
    computer: Arc<Computer>,
    evaluations: Arc<Mutex<Evaluations>>,
}

impl Explorer {
    /// The explorer of the games in `store`, the engine's evaluations and
    /// the databases' values from `computer`'s.
    pub fn new(store: Arc<dyn ExplorerStore>, computer: Arc<Computer>) -> Explorer {
        Explorer {
            store,
            computer,
            evaluations: Arc::new(Mutex::new(Evaluations::new(EVAL_CACHE_LINES))),
        }
    }

    /// How many lines' evaluations are kept now.
    pub fn evaluations_kept(&self) -> usize {
        lock(&self.evaluations).scores.len()
    }

    /// The position after `play` (letters from the start, spaces and
    /// commas allowed; the start when None or empty) and its moves.
    ///
    /// # Errors
    ///
    /// `bad_moves` for text that is not moves or more than [`MAX_LINE`],
    /// `illegal_move` naming the first move that cannot be played.
    pub async fn explore(&self, play: Option<&str>) -> Result<ExplorerView, Error> {
        self.explore_games(play, ExplorerFilter::default(), None)
            .await
    }

    /// The same, counting only the games `filter` lets through; the
    /// engine's search, if one is needed, asked for `asker` (the
    /// computer's slots are shared between clients).
    ///
    /// # Errors
    ///
    /// As [`Explorer::explore`].
    pub async fn explore_games(
        &self,
        play: Option<&str>,
        filter: ExplorerFilter,
        asker: Asker,
    ) -> Result<ExplorerView, Error> {
        let game = line(play)?;
        let start = game.start().to_string();
        let played: String = game.plies().iter().map(|p| p.mv.letter()).collect();
        let (counted, scores) = tokio::join!(
            self.store.opening_moves(
                RULES.to_string(),
                start.clone(),
                played.clone(),
                filter.stored(),
            ),
            self.evaluate(&game, &played, asker)
        );
        let counted = counted?;
        let position = game.position();
        let legal = if game.outcome().is_some() {
            Vec::new()
        } else {
            game.legal_moves()
        };
        let explored = |m: Move, games: i64, south_wins, north_wins, draws, average_rating| {
            let db = self.computer.move_value(&game, m);
            let engine = scores
                .as_ref()
                .and_then(|s| s.iter().find(|x| x.mv == m))
                .map(|x| x.score.clone());
            let exact = db.is_some_and(|v| v.is_exact());
            ExplorerMove {
                mv: m.to_string(),
                games,
                south_wins,
                north_wins,
                draws,
                average_rating,
                db,
                // Where the databases decide the move, their result.
                eval: self.computer.followed(&game, m, engine),
                exact,
            }
        };
        let mut moves: Vec<ExplorerMove> = counted
            .iter()
            .filter_map(|c| {
                let m = c.letter.chars().next().and_then(Move::from_letter)?;
                legal.contains(&m).then(|| {
                    explored(
                        m,
                        c.games,
                        c.south_wins,
                        c.north_wins,
                        c.draws,
                        c.average_rating.map(|r| r.round() as i64),
                    )
                })
            })
            .collect();
        for m in &legal {
            if !moves.iter().any(|x| x.mv == m.to_string()) {
                moves.push(explored(*m, 0, 0, 0, 0, None));
            }
        }
        // Every move has its value (the engine's, or the databases' where
        // they decide it all): else the computer had no time for it.
        let evaluated = moves.iter().all(|m| m.eval.is_some());
        Ok(ExplorerView {
            rules: RULES.to_string(),
            start,
            play: played,
            position: PositionView::of(&position, game.rules()),
            games: moves.iter().map(|m| m.games).sum(),
            db: self.computer.oracle_value(&game),
            moves,
            evaluated,
            eval_nodes: EVAL_NODES,
            speed: filter.speed.map(Speed::name),
            min_rating: filter.min_rating,
            max_rating: filter.max_rating,
        })
    }

    /// The engine's scores of the moves of `game` (the line `played`):
    /// kept ones, else a search of [`EVAL_NODES`] on the computer's
    /// slots (off the async threads), waited for at most [`EVAL_WAIT`]
    /// (it goes on and is kept for the next answer). None when the game
    /// is over, every move is decided by the databases (no search
    /// needed), or the computer had no time for it.
    async fn evaluate(&self, game: &Game, played: &str, asker: Asker) -> Option<Vec<MoveScore>> {
        if game.outcome().is_some() {
            return None;
        }
        if let Some(kept) = lock(&self.evaluations).get(played) {
            return Some(kept);
        }
        let decided = game.legal_moves().into_iter().all(|m| {
            self.computer
                .move_value(game, m)
                .is_some_and(|v| v.is_exact())
        });
        if decided {
            return None;
        }
        let computer = Arc::clone(&self.computer);
        let evaluations = Arc::clone(&self.evaluations);
        let (game, played) = (game.clone(), played.to_string());
        let search = tokio::spawn(async move {
            let scores = computer
                .run(asker, Priority::Analysis, move |c| {
                    // Not stopped: the search is short, and kept.
                    let stop = AtomicBool::new(false);
                    c.analyze(&game, &Limits::nodes(EVAL_NODES), false, &stop)
                })
                .await
                .ok()?;
            lock(&evaluations).keep(played, scores.clone());
            Some(scores)
        });
        tokio::time::timeout(EVAL_WAIT, search)
            .await
            .ok()?
            .ok()
            .flatten()
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

    #[test]
    fn the_evaluations_kept_are_bounded_and_the_oldest_go_first() {
        let mut kept = Evaluations::new(2);
        let score = |cp| {
            vec![MoveScore {
                mv: Move::from_letter('A').unwrap(),
                score: Score {
                    cp,
                    decided: false,
                    forced: None,
                    text: String::new(),
                },
            }]
        };
        kept.keep("F".into(), score(1));
        kept.keep("Ff".into(), score(2));
        kept.keep("F".into(), score(9));
        assert_eq!(kept.get("F").unwrap()[0].score.cp, 1, "kept once");
        kept.keep("C".into(), score(3));
        assert!(kept.get("F").is_none(), "the oldest forgotten");
        assert_eq!(kept.get("Ff").unwrap()[0].score.cp, 2);
        assert_eq!(kept.get("C").unwrap()[0].score.cp, 3);
        assert_eq!((kept.scores.len(), kept.order.len()), (2, 2));
    }
}
