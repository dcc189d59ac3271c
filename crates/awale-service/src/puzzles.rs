//! Puzzle ratings in use (the rule is `puzzle_rating.rs`): each player's
//! puzzle rating (a guest's too, under their guest's id, going with them
//! at sign-up) moved by their first try of each puzzle, the puzzle's own
//! rating moved the other way; the next puzzle chosen near the solver's
//! rating among puzzles of every difficulty; a streak (puzzles of rising
//! difficulty until the first miss) and the best one kept.

use std::sync::Arc;

use awale_core::{Move, Position};
use awale_model::game::PlayerId;
use awale_model::rating::{Glicko, START};
use awale_puzzles::{Judgement, Puzzle};
use awale_store::puzzles::{Attempt, PuzzleRow, PuzzleStore, SolverRow};
use serde::Serialize;

use crate::computer::{Asker, Computer, Priority};
use crate::error::Error;
use crate::puzzle_rating::{nearest, puzzle_start, rate_attempt, streak_target};
use crate::study::{self, Study, MAX_PUZZLES};

/// A rating as the page shows it: rounded, provisional while uncertain.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingView {
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Still uncertain (shown with "?").
    pub provisional: bool,
}

impl RatingView {
    /// The view of `g`.
    pub fn of(g: &Glicko) -> RatingView {
        RatingView {
            rating: g.rating.round() as i64,
            deviation: g.deviation.round() as i64,
            provisional: g.provisional(),
        }
    }
}

/// A solver's puzzle rating and counts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolverView {
    /// Their puzzle rating (where a new solver starts when they have
    /// tried none).
    pub rating: RatingView,
    /// Puzzles tried (first tries).
    pub attempts: i64,
    /// Of them, solved at the first try.
    pub solved: i64,
    /// The streak going on.
    pub streak: i64,
    /// Their best streak.
    pub best_streak: i64,
}

impl SolverView {
    /// The view of `row` (None: a solver who tried no puzzle).
    pub fn of(row: Option<&SolverRow>) -> SolverView {
        match row {
            Some(r) => SolverView {
                rating: RatingView::of(&r.rating),
                attempts: r.attempts,
                solved: r.solved,
                streak: r.streak,
                best_streak: r.best_streak,
            },
            None => SolverView {
                rating: RatingView::of(&START),
                attempts: 0,
                solved: 0,
                streak: 0,
                best_streak: 0,
            },
        }
    }
}

/// A puzzle chosen for a solver.
#[derive(Clone, Debug, Serialize)]
pub struct Chosen {
    /// The seed it was found from.
    pub seed: u64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its own rating.
    pub puzzle_rating: RatingView,
    /// The rating it was chosen near.
    pub target: i64,
    /// In a streak: its number (0 first).
    pub streak: Option<i64>,
}

/// What a try did to the ratings.
#[derive(Clone, Debug, Serialize)]
pub struct TryRated {
    /// Whether it was rated (the solver's first try of this puzzle).
    pub rated: bool,
    /// The solver's rating change (0 when not rated).
    pub change: i64,
    /// The solver now.
    pub solver: SolverView,
    /// The puzzle's rating now.
    pub puzzle_rating: RatingView,
}

/// An answer judged, and rated when the asker is a player.
#[derive(Clone, Debug, Serialize)]
pub struct Answered {
    /// The database's judgement.
    #[serde(flatten)]
    pub judged: Judgement,
    /// The ratings after it: none for a position that is no puzzle, or an
    /// asker without a player.
    pub rating: Option<TryRated>,
}

/// Puzzle ratings: the store, the puzzles' database, the computer's pool.
pub struct Puzzles {
    store: Arc<dyn PuzzleStore>,
    study: Arc<Study>,
    computer: Arc<Computer>,
    /// The streaks each player (and address) starts.
    streaks: crate::limiter::PerPlayerAndClient<PlayerId>,
}

/// Streaks a player may start: 10 at once, then one every 10 s (four
/// players' worth per address). Each is a stored change: issue 38's
/// stranger started them in a flood.
pub const STREAKS_PER_PLAYER: crate::limiter::Rate = crate::limiter::Rate::new(10, 10_000);

impl Puzzles {
    /// Ratings kept in `store`, puzzles from `study`'s database, searched
    /// for in `computer`'s pool.
    pub fn new(store: Arc<dyn PuzzleStore>, study: Arc<Study>, computer: Arc<Computer>) -> Puzzles {
        Puzzles {
            store,
            study,
            computer,
            streaks: crate::limiter::PerPlayerAndClient::new(
                crate::limiter::Limit::Streaks,
                STREAKS_PER_PLAYER,
            ),
        }
    }

    /// `player`'s puzzle rating and streaks.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn solver(&self, player: &PlayerId) -> Result<SolverView, Error> {
        let row = self.store.puzzle_solver(player.clone()).await?;
        Ok(SolverView::of(row.as_ref()))
    }

    /// The next puzzle for `player` (None: a new solver's rating) from
    /// `seed`: of one puzzle of each difficulty (those they tried left
    /// out, unless they tried all), the one rated nearest their rating;
    /// in a streak, nearest the streak's rising target.
    ///
    /// # Errors
    ///
    /// `no_database` without a database, `no_puzzle` when none is found.
    pub async fn next(
        &self,
        player: Option<&PlayerId>,
        seed: u64,
        streak: bool,
        asker: Asker,
    ) -> Result<Chosen, Error> {
        let solver = match player {
            Some(p) => self.store.puzzle_solver(p.clone()).await?,
            None => None,
        };
        let rating = solver.as_ref().map_or(START, |s| s.rating);
        let step = solver.as_ref().map_or(0, |s| s.streak);
        let target = if streak {
            streak_target(&rating, u32::try_from(step).unwrap_or(u32::MAX))
        } else {
            rating.rating
        };
        let db = self.study.database()?;
        let found = self
            .computer
            .run(asker, Priority::Analysis, move |_| {
                (1..=5u8)
                    .filter_map(|d| {
                        let seed = seed.wrapping_add(u64::from(d));
                        awale_puzzles::find(&db, seed, Some(d), None, MAX_PUZZLES).ok()?
                    })
                    .collect::<Vec<Puzzle>>()
            })
            .await?;
        let keys: Vec<String> = found.iter().map(|p| p.position.to_string()).collect();
        let stored = self.store.puzzle_ratings(keys.clone()).await?;
        // Those the player tried are left out (all, if they tried all).
        let tried = match player {
            Some(p) => self.store.puzzles_tried(p.clone(), keys.clone()).await?,
            None => Vec::new(),
        };
        let fresh = keys.iter().any(|k| !tried.contains(k));
        let rated: Vec<(usize, Glicko)> = found
            .iter()
            .zip(&keys)
            .enumerate()
            .filter(|(_, (_, key))| !fresh || !tried.contains(key))
            .map(|(i, (p, key))| (i, rating_of(&stored, key, p)))
            .collect();
        let i = nearest(&rated, target).ok_or_else(study::no_puzzle)?;
        let puzzle_rating = rated
            .iter()
            .find(|(j, _)| *j == i)
            .map_or(RatingView::of(&START), |(_, g)| RatingView::of(g));
        let puzzle = found.into_iter().nth(i).ok_or_else(study::no_puzzle)?;
        Ok(Chosen {
            seed,
            puzzle,
            puzzle_rating,
            target: target.round() as i64,
            streak: streak.then_some(step),
        })
    }

    /// Starts a new streak for the player of `caller`: their solver as it
    /// is now (the streak at 0).
    ///
    /// # Errors
    ///
    /// `too_many` because `streaks` past [`STREAKS_PER_PLAYER`] (per
    /// player and per address); when the store cannot be written.
    pub async fn start_streak(
        &self,
        caller: &crate::limits::Caller,
        now_ms: i64,
    ) -> Result<SolverView, Error> {
        self.streaks.take(&caller.player, caller.client, now_ms)?;
        let row = self
            .store
            .start_streak(caller.player.clone(), START, now_ms)
            .await?;
        Ok(SolverView::of(Some(&row)))
    }

    /// `mv` tried in `position`, judged by the database; when the
    /// position is a puzzle and the asker a player, their first try of it
    /// rated (theirs and the puzzle's), and in a `streak` counted (a miss
    /// ends it).
    ///
    /// # Errors
    ///
    /// `no_database` without a database; `not_covered`, `illegal_move`
    /// from the judgement.
    pub async fn answer(
        &self,
        player: Option<&PlayerId>,
        position: Position,
        mv: Move,
        streak: bool,
        asker: Asker,
        now_ms: i64,
    ) -> Result<Answered, Error> {
        let db = self.study.database()?;
        let (judged, puzzle) = self
            .computer
            .run(asker, Priority::Analysis, move |_| {
                let judged = awale_puzzles::judge(&db, &position, mv)?;
                Ok((judged, Puzzle::from_position(&db, position)))
            })
            .await?
            .map_err(study::puzzle_error)?;
        let (Some(player), Some(puzzle)) = (player, puzzle) else {
            return Ok(Answered {
                judged,
                rating: None,
            });
        };
        let solved = judged.correct;
        let attempt = Attempt {
            player: player.clone(),
            position: puzzle.position.to_string(),
            solved,
            at_ms: now_ms,
            streak,
            solver_start: START,
            puzzle_start: puzzle_start(puzzle.difficulty),
        };
        let rated = self.store.rate_attempt(attempt, rate_attempt).await?;
        let change = (rated.solver.rating.rating - rated.before.rating).round() as i64;
        Ok(Answered {
            judged,
            rating: Some(TryRated {
                rated: rated.first,
                change,
                solver: SolverView::of(Some(&rated.solver)),
                puzzle_rating: RatingView::of(&rated.puzzle.rating),
            }),
        })
    }
}

/// A puzzle's rating: stored, else where its difficulty starts.
fn rating_of(stored: &[PuzzleRow], key: &str, puzzle: &Puzzle) -> Glicko {
    stored
        .iter()
        .find(|r| r.position == key)
        .map_or_else(|| puzzle_start(puzzle.difficulty), |r| r.rating)
}
