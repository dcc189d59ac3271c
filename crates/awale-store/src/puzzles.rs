//! Puzzle ratings as the store keeps them, behind their own interface
//! ([`PuzzleStore`], which the PostgreSQL store fills too): each solver's
//! rating with their counts and streaks, each puzzle's own rating, and
//! each solver's first try of each puzzle (the only one rated). The
//! arithmetic is the service's (`puzzle_rating.rs`), handed to
//! [`PuzzleStore::rate_attempt`]; here, both ratings read, changed and
//! written in one transaction, under the solver's and the puzzle's locks,
//! so two answers at once never lose an update.

use awale_model::game::PlayerId;
use awale_model::rating::Glicko;

use crate::cells::{Cells, Value};
use crate::error::{StoreError, StoreFuture};
use crate::ratings::glicko_at;
use crate::tx::{Backend, Tx};

/// A solver's locks (a player's key), taken before a puzzle's.
const SOLVER_LOCK_SPACE: i64 = 3;

/// A puzzle's locks (its position), taken after its solver's.
const PUZZLE_LOCK_SPACE: i64 = 4;

/// A solver's puzzle rating and counts.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverRow {
    /// Whose.
    pub player: PlayerId,
    /// Their puzzle rating.
    pub rating: Glicko,
    /// Puzzles tried (first tries: those rated).
    pub attempts: i64,
    /// Of them, solved at the first try.
    pub solved: i64,
    /// Puzzles solved in a row in the streak going on.
    pub streak: i64,
    /// Their best streak.
    pub best_streak: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// A puzzle's own rating, moved by its solvers' results.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// The puzzle, by its position (a diagram).
    pub position: String,
    /// Its rating.
    pub rating: Glicko,
    /// Rated tries of it.
    pub attempts: i64,
    /// Of them, solved.
    pub solved: i64,
}

/// A try of a puzzle, to rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// Who tried.
    pub player: PlayerId,
    /// The puzzle's position.
    pub position: String,
    /// Whether it was solved.
    pub solved: bool,
    /// When.
    pub at_ms: i64,
    /// Part of a streak: a solve adds one to it, a miss ends it.
    pub streak: bool,
    /// Where a solver without a rating starts.
    pub solver_start: Glicko,
    /// Where the puzzle starts if nobody tried it yet.
    pub puzzle_start: Glicko,
}

/// The arithmetic of one rated try: the solver's and the puzzle's
/// ratings after it, from theirs before and whether it was solved.
pub type RateFn = fn(Glicko, Glicko, bool) -> (Glicko, Glicko);

/// What a try did.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// Whether it was rated: the solver's first try of this puzzle
    /// (later tries change nothing).
    pub first: bool,
    /// The solver's rating before.
    pub before: Glicko,
    /// The solver as they are now.
    pub solver: SolverRow,
    /// The puzzle as it is now.
    pub puzzle: PuzzleRow,
}

/// Where puzzle ratings are kept.
pub trait PuzzleStore: Send + Sync {
    /// `player`'s puzzle rating, if they have tried a puzzle.
    fn puzzle_solver(&self, player: PlayerId) -> StoreFuture<'_, Option<SolverRow>>;

    /// The ratings of those of `positions` that were tried.
    fn puzzle_ratings(&self, positions: Vec<String>) -> StoreFuture<'_, Vec<PuzzleRow>>;

    /// Those of `positions` that `player` has tried.
    fn puzzles_tried(
        &self,
        player: PlayerId,
        positions: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>>;

    /// Rates `attempt` with `rate` when it is the player's first try of
    /// the puzzle (and, in a streak, counts it), all in one transaction.
    fn rate_attempt(&self, attempt: Attempt, rate: RateFn) -> StoreFuture<'_, Rated>;

    /// Starts a new streak for `player` (the one going on, if any, ends);
    /// a solver without a rating starts at `start`.
    fn start_streak(
        &self,
        player: PlayerId,
        start: Glicko,
        at_ms: i64,
    ) -> StoreFuture<'_, SolverRow>;
}

/// The columns of a solver, in [`solver_of`]'s order.
const SOLVER: &str =
    "player, rating, deviation, volatility, attempts, solved, streak, best_streak, updated_ms";

/// The columns of a puzzle, in [`puzzle_of`]'s order.
const PUZZLE: &str = "position, rating, deviation, volatility, attempts, solved";

fn solver_sql() -> String {
    format!("SELECT {SOLVER} FROM puzzle_solvers WHERE player = ?1")
}

fn puzzle_sql() -> String {
    format!("SELECT {PUZZLE} FROM puzzle_ratings WHERE position = ?1")
}

const SET_SOLVER: &str = "INSERT INTO puzzle_solvers
     (player, rating, deviation, volatility, attempts, solved, streak, best_streak, updated_ms)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
     ON CONFLICT (player) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
        attempts = ?5, solved = ?6, streak = ?7, best_streak = ?8, updated_ms = ?9";

const SET_PUZZLE: &str = "INSERT INTO puzzle_ratings
     (position, rating, deviation, volatility, attempts, solved)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (position) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4,
        attempts = ?5, solved = ?6";

/// Whether player `?1` tried puzzle `?2`.
const TRIED: &str = "SELECT at_ms FROM puzzle_attempts WHERE player = ?1 AND position = ?2";

/// A first try kept (none when the player tried this puzzle before).
const ADD_ATTEMPT: &str = "INSERT INTO puzzle_attempts (player, position, solved, at_ms)
     VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player, position) DO NOTHING";

fn solver_of<R: Cells>(r: &R) -> Result<SolverRow, R::Error> {
    Ok(SolverRow {
        player: PlayerId(r.cell(0)?),
        rating: glicko_at(r, 1)?,
        attempts: r.cell(4)?,
        solved: r.cell(5)?,
        streak: r.cell(6)?,
        best_streak: r.cell(7)?,
        updated_ms: r.cell(8)?,
    })
}

fn puzzle_of<R: Cells>(r: &R) -> Result<PuzzleRow, R::Error> {
    Ok(PuzzleRow {
        position: r.cell(0)?,
        rating: glicko_at(r, 1)?,
        attempts: r.cell(4)?,
        solved: r.cell(5)?,
    })
}

impl SolverRow {
    fn new(player: PlayerId, rating: Glicko, at_ms: i64) -> SolverRow {
        SolverRow {
            player,
            rating,
            attempts: 0,
            solved: 0,
            streak: 0,
            best_streak: 0,
            updated_ms: at_ms,
        }
    }

    async fn write<X: Tx>(&self, tx: &X) -> Result<(), StoreError> {
        let values: [&dyn Value; 9] = [
            &self.player.0,
            &self.rating.rating,
            &self.rating.deviation,
            &self.rating.volatility,
            &self.attempts,
            &self.solved,
            &self.streak,
            &self.best_streak,
            &self.updated_ms,
        ];
        tx.execute(SET_SOLVER, &values).await?;
        Ok(())
    }
}

impl PuzzleRow {
    async fn write<X: Tx>(&self, tx: &X) -> Result<(), StoreError> {
        let values: [&dyn Value; 6] = [
            &self.position,
            &self.rating.rating,
            &self.rating.deviation,
            &self.rating.volatility,
            &self.attempts,
            &self.solved,
        ];
        tx.execute(SET_PUZZLE, &values).await?;
        Ok(())
    }
}

async fn solver<X: Tx>(tx: &X, player: &PlayerId) -> Result<Option<SolverRow>, StoreError> {
    tx.query_opt(&solver_sql(), &[&player.0], |r| solver_of(r))
        .await
}

/// One try rated (as [`PuzzleStore::rate_attempt`]).
async fn rate<X: Tx>(tx: &X, a: Attempt, how: RateFn) -> Result<Rated, StoreError> {
    tx.lock(SOLVER_LOCK_SPACE, &a.player.0).await?;
    tx.lock(PUZZLE_LOCK_SPACE, &a.position).await?;
    let mut me = solver(tx, &a.player)
        .await?
        .unwrap_or_else(|| SolverRow::new(a.player.clone(), a.solver_start, a.at_ms));
    let mut puzzle = tx
        .query_opt(&puzzle_sql(), &[&a.position], |r| puzzle_of(r))
        .await?
        .unwrap_or_else(|| PuzzleRow {
            position: a.position.clone(),
            rating: a.puzzle_start,
            attempts: 0,
            solved: 0,
        });
    let before = me.rating;
    let values: [&dyn Value; 4] = [&a.player.0, &a.position, &i64::from(a.solved), &a.at_ms];
    let first = tx.execute(ADD_ATTEMPT, &values).await? == 1;
    if first {
        let (solver_after, puzzle_after) = how(me.rating, puzzle.rating, a.solved);
        me.rating = solver_after;
        me.attempts += 1;
        me.solved += i64::from(a.solved);
        puzzle.rating = puzzle_after;
        puzzle.attempts += 1;
        puzzle.solved += i64::from(a.solved);
        puzzle.write(tx).await?;
    }
    // A streak counts first tries solved; a miss ends it, first try or
    // not.
    if a.streak {
        if !a.solved {
            me.streak = 0;
        } else if first {
            me.streak += 1;
            me.best_streak = me.best_streak.max(me.streak);
        }
    }
    if first || a.streak {
        me.updated_ms = a.at_ms;
        me.write(tx).await?;
    }
    Ok(Rated {
        first,
        before,
        solver: me,
        puzzle,
    })
}

impl<S: Backend> PuzzleStore for S {
    fn puzzle_solver(&self, player: PlayerId) -> StoreFuture<'_, Option<SolverRow>> {
        self.read(move |tx| Box::pin(async move { solver(tx, &player).await }))
    }

    fn puzzle_ratings(&self, positions: Vec<String>) -> StoreFuture<'_, Vec<PuzzleRow>> {
        self.read(move |tx| {
            Box::pin(async move {
                let mut found = Vec::new();
                for p in &positions {
                    if let Some(row) = tx.query_opt(&puzzle_sql(), &[p], |r| puzzle_of(r)).await? {
                        found.push(row);
                    }
                }
                Ok(found)
            })
        })
    }

    fn puzzles_tried(
        &self,
        player: PlayerId,
        positions: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>> {
        self.read(move |tx| {
            Box::pin(async move {
                let mut tried = Vec::new();
                for p in positions {
                    let values: [&dyn Value; 2] = [&player.0, &p];
                    if tx.value_opt::<i64>(TRIED, &values).await?.is_some() {
                        tried.push(p);
                    }
                }
                Ok(tried)
            })
        })
    }

    fn rate_attempt(&self, attempt: Attempt, how: RateFn) -> StoreFuture<'_, Rated> {
        self.write(move |tx| Box::pin(async move { rate(tx, attempt, how).await }))
    }

    fn start_streak(
        &self,
        player: PlayerId,
        start: Glicko,
        at_ms: i64,
    ) -> StoreFuture<'_, SolverRow> {
        self.write(move |tx| {
            Box::pin(async move {
                tx.lock(SOLVER_LOCK_SPACE, &player.0).await?;
                let mut me = solver(tx, &player)
                    .await?
                    .unwrap_or_else(|| SolverRow::new(player.clone(), start, at_ms));
                me.streak = 0;
                me.updated_ms = at_ms;
                me.write(tx).await?;
                Ok(me)
            })
        })
    }
}
