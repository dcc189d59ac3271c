//! Learn from your mistakes: after a game's review, each mistake of a
//! player (a move the review's rule, [`Cost::is_mistake`], found costly)
//! becomes a puzzle in that player's own list (guests and accounts alike):
//! the position before it, "find a better move". An answer is judged as
//! the review judges a move ([`Computer::judge`]): right when it is no
//! mistake against the best move, exact where the databases decide every
//! move, the engine's estimate with its margin ([`MISTAKE_LOSS`])
//! otherwise. A mistake comes back until it is solved [`SOLVED_ENOUGH`]
//! times: soon after a miss, a day after a success.

use std::str::FromStr;
use std::sync::Arc;

use awale_core::{Game, Move, Rules};
use serde::{Deserialize, Serialize};

use crate::computer::{Asker, Computer, Priority, Score, MISTAKE_LOSS};
use crate::error::{Error, Kind};
use crate::game::{parse_position, PlayerId, WebGame};
use crate::store::{GameStore, MistakeRow, MistakeStore};
use awale_model::Code;

/// Solved this many times, a mistake is learnt: it comes back no more.
pub const SOLVED_ENOUGH: i64 = 2;

/// A missed mistake comes back after this long.
pub const AGAIN_AFTER_MISS_MS: i64 = 10 * 60_000;

/// A mistake solved (not yet enough) comes back after this long.
pub const AGAIN_AFTER_SOLVED_MS: i64 = 24 * 3_600_000;

/// Mistakes a list gives, at most.
pub const MAX_LISTED: usize = 200;

/// One mistake as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct MistakeView {
    /// Its number.
    pub id: i64,
    /// The game's public id.
    pub game: String,
    /// The move's index in the game.
    pub ply: i64,
    /// The rules, as text.
    pub rules: String,
    /// The position before the move (a diagram).
    pub position: String,
    /// The side to move there, `S` or `N`.
    pub side: char,
    /// The move played.
    pub played: String,
    /// Times solved, and tried.
    pub solved: i64,
    /// Times tried.
    pub tries: i64,
    /// Solved [`SOLVED_ENOUGH`] times: learnt.
    pub learnt: bool,
    /// When it comes back.
    pub due_ms: i64,
}

impl MistakeView {
    fn of(row: &MistakeRow) -> MistakeView {
        MistakeView {
            id: row.id,
            game: row.game.clone(),
            ply: row.ply,
            rules: row.rules.clone(),
            position: row.position.clone(),
            side: if row.position.ends_with('N') {
                'N'
            } else {
                'S'
            },
            played: row.played.clone(),
            solved: row.solved,
            tries: row.tries,
            learnt: row.solved >= SOLVED_ENOUGH,
            due_ms: row.due_ms,
        }
    }
}

/// A player's mistakes: those to try (not learnt), the soonest due
/// first, then the learnt ones.
#[derive(Clone, Debug, Serialize)]
pub struct MistakeList {
    /// Every mistake kept (at most [`MAX_LISTED`]).
    pub mistakes: Vec<MistakeView>,
    /// How many are due now.
    pub due: usize,
}

/// A move with its score, as an answer tells it.
#[derive(Clone, Debug, Serialize)]
pub struct ScoredMove {
    /// Its letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score, the mover's view (the databases' result where they
    /// decide it).
    pub score: Score,
}

/// An answer judged.
#[derive(Clone, Debug, Serialize)]
pub struct MistakeAnswer {
    /// The mistake, its counts as they are now.
    pub mistake: MistakeView,
    /// Whether the answer is good enough.
    pub right: bool,
    /// The answer and its score.
    pub answered: ScoredMove,
    /// The best move and its score.
    pub best: ScoredMove,
    /// Every move good enough.
    pub good: Vec<String>,
    /// Whether the values are the databases' (exact); otherwise they are
    /// the engine's estimates, and `margin` says how far from the best a
    /// move may stay.
    pub exact: bool,
    /// Hundredths of a seed a good move may lose against the best, where
    /// the values are estimates.
    pub margin: Option<i32>,
    /// The better line to play out: the answer's when right, the best
    /// move's otherwise.
    pub line: Vec<String>,
}

/// The part of a stored review this needs.
#[derive(Deserialize)]
struct StoredReview {
    plies: Vec<StoredPly>,
}

#[derive(Deserialize)]
struct StoredPly {
    ply: usize,
    side: char,
    #[serde(rename = "move")]
    mv: String,
    mistake: bool,
    best: Option<StoredBest>,
}

#[derive(Deserialize)]
struct StoredBest {
    #[serde(rename = "move")]
    mv: String,
}

/// The mistakes of the players' games as puzzles.
pub struct Mistakes {
    store: Arc<dyn MistakeStore>,
    games: Arc<dyn GameStore>,
    computer: Arc<Computer>,
}

impl Mistakes {
    /// Mistakes kept in `store`, the games' reviews read from `games`,
    /// answers judged by `computer`.
    pub fn new(
        store: Arc<dyn MistakeStore>,
        games: Arc<dyn GameStore>,
        computer: Arc<Computer>,
    ) -> Mistakes {
        Mistakes {
            store,
            games,
            computer,
        }
    }

    /// Keeps `player`'s mistakes in `game` (stored as number `id`), as its
    /// stored review found them, as puzzles in their list (each once);
    /// their mistakes in this game.
    ///
    /// # Errors
    ///
    /// `not_your_game` when `player` has no seat in the game, `no_review`
    /// when it has no review of all its moves yet.
    pub async fn learn(
        &self,
        player: &PlayerId,
        id: i64,
        game: &WebGame,
        now_ms: i64,
    ) -> Result<Vec<MistakeView>, Error> {
        let sides = game.sides_of(Some(player));
        if sides.is_empty() {
            return Err(Error::forbidden(
                Code::NotYourGame,
                "only a player of the game learns from its mistakes",
            ));
        }
        let plies = game.game.plies().len();
        let no_review = || {
            Error::new(
                Kind::NotFound,
                Code::NoReview,
                "this game has not been reviewed yet (POST to review it)",
            )
        };
        let (reviewed, body) = self.games.review(id).await?.ok_or_else(no_review)?;
        if reviewed != plies {
            return Err(no_review());
        }
        let review: StoredReview = serde_json::from_str(&body)
            .map_err(|e| Error::internal(format!("a stored review cannot be read: {e}")))?;
        let moves: Vec<Move> = game.game.moves().collect();
        let mut replay = Game::from_position(*game.game.rules(), game.game.start());
        let mut rows = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let position = replay.position();
            let mine = sides.contains(&position.to_move());
            if let Some(p) = review
                .plies
                .get(i)
                .filter(|p| p.ply == i && p.mistake && mine)
            {
                if let Some(best) = p.best.as_ref().filter(|b| b.mv != p.mv) {
                    debug_assert_eq!(p.side, position.to_move().letter());
                    rows.push(MistakeRow {
                        id: 0,
                        player: player.clone(),
                        game: game.public_id.clone(),
                        ply: i as i64,
                        rules: game.game.rules().to_string(),
                        position: position.to_string(),
                        played: p.mv.clone(),
                        best: best.mv.clone(),
                        solved: 0,
                        tries: 0,
                        created_ms: now_ms,
                        due_ms: now_ms,
                    });
                }
            }
            if replay.play(*mv).is_err() {
                break;
            }
        }
        if !rows.is_empty() {
            self.store.add_mistakes(rows).await?;
        }
        let list = self.store.mistakes(player.clone(), MAX_LISTED).await?;
        Ok(list
            .iter()
            .filter(|m| m.game == game.public_id)
            .map(MistakeView::of)
            .collect())
    }

    /// `player`'s mistakes: those to try first (the soonest due first),
    /// then the learnt ones.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn list(&self, player: &PlayerId, now_ms: i64) -> Result<MistakeList, Error> {
        let rows = self.store.mistakes(player.clone(), MAX_LISTED).await?;
        let mut mistakes: Vec<MistakeView> = rows.iter().map(MistakeView::of).collect();
        mistakes.sort_by_key(|m| (m.learnt, m.due_ms, m.id));
        let due = mistakes
            .iter()
            .filter(|m| !m.learnt && m.due_ms <= now_ms)
            .count();
        Ok(MistakeList { mistakes, due })
    }

    /// `player`'s mistake number `id`.
    ///
    /// # Errors
    ///
    /// `no_mistake` (not found) when they have none of that number.
    pub async fn get(&self, player: &PlayerId, id: i64) -> Result<MistakeView, Error> {
        let row = self.row(player, id).await?;
        Ok(MistakeView::of(&row))
    }

    async fn row(&self, player: &PlayerId, id: i64) -> Result<MistakeRow, Error> {
        self.store
            .mistake(player.clone(), id)
            .await?
            .ok_or_else(|| {
                Error::new(
                    Kind::NotFound,
                    Code::NoMistake,
                    format!("no mistake {id} in your list"),
                )
                .with("id", id)
            })
    }

    /// Judges `answer` to `player`'s mistake `id` (searched for `asker`
    /// in the computer's pool), notes the try and when the mistake comes
    /// back.
    ///
    /// # Errors
    ///
    /// `no_mistake` when it is not theirs, `illegal_move` for a move that
    /// cannot be played there, `busy` when the computer is.
    pub async fn answer(
        &self,
        player: &PlayerId,
        id: i64,
        answer: Move,
        asker: Asker,
        now_ms: i64,
    ) -> Result<MistakeAnswer, Error> {
        let row = self.row(player, id).await?;
        let rules = Rules::from_str(&row.rules)
            .map_err(|e| Error::internal(format!("stored rules `{}`: {e}", row.rules)))?;
        let position = parse_position(&row.position)?;
        let game = Game::from_position(rules, position);
        if let Err(e) = position.check(answer, &rules) {
            return Err(Error::illegal_move(
                awale_core::GameError::Illegal(e),
                Some(answer),
            ));
        }
        let judged = self
            .computer
            .run(asker, Priority::Analysis, move |c| {
                c.judge(&game, answer, &std::sync::atomic::AtomicBool::new(false))
            })
            .await?
            .ok_or_else(|| Error::internal("the position could not be judged"))?;
        // The move played in the game is never the answer, whatever a
        // search from the bare position (no history) makes of it.
        let right = judged.good.contains(&answer) && answer.to_string() != row.played;
        let due = now_ms
            + if right {
                AGAIN_AFTER_SOLVED_MS
            } else {
                AGAIN_AFTER_MISS_MS
            };
        let tried = self
            .store
            .mistake_tried(player.clone(), id, right, due)
            .await?
            .unwrap_or(row);
        let letters = |moves: &[Move]| moves.iter().map(Move::to_string).collect::<Vec<_>>();
        Ok(MistakeAnswer {
            mistake: MistakeView::of(&tried),
            right,
            answered: ScoredMove {
                mv: judged.answered.mv.to_string(),
                score: judged.answered.score.clone(),
            },
            best: ScoredMove {
                mv: judged.best.mv.to_string(),
                score: judged.best.score.clone(),
            },
            good: letters(&judged.good),
            exact: judged.exact,
            margin: (!judged.exact).then_some(MISTAKE_LOSS),
            line: letters(if right {
                &judged.answer_line
            } else {
                &judged.best_line
            }),
        })
    }
}
