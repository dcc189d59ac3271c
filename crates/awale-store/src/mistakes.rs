//! A player's mistakes kept as puzzles (learn from your mistakes), behind
//! their own interface ([`MistakeStore`], which the PostgreSQL store fills
//! too): each the position before a move a review found a mistake, with
//! how often it was solved and tried and when it is next due. The service
//! decides what is a mistake, what answer is right and when one comes
//! back; the store keeps the rows.

use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::StoreFuture;
use crate::tx::{Backend, Tx};

/// One mistake of a player, as a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MistakeRow {
    /// Its number (0 before it is stored).
    pub id: i64,
    /// Whose mistake it is.
    pub player: PlayerId,
    /// The game's public id.
    pub game: String,
    /// The index of the move in the game.
    pub ply: i64,
    /// The game's rules, as text.
    pub rules: String,
    /// The position before the move (a diagram).
    pub position: String,
    /// The move played (a letter).
    pub played: String,
    /// The review's better move (a letter).
    pub best: String,
    /// Times solved.
    pub solved: i64,
    /// Times tried.
    pub tries: i64,
    /// When it was kept.
    pub created_ms: i64,
    /// When it comes back.
    pub due_ms: i64,
}

/// Where the players' mistakes are kept.
pub trait MistakeStore: Send + Sync {
    /// Keeps `rows` (a mistake a player has already is kept once, as it
    /// was); all of them or none.
    fn add_mistakes(&self, rows: Vec<MistakeRow>) -> StoreFuture<'_, ()>;

    /// `player`'s mistakes, the soonest due first, `limit` at most.
    fn mistakes(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<MistakeRow>>;

    /// `player`'s mistake number `id`, if it is theirs.
    fn mistake(&self, player: PlayerId, id: i64) -> StoreFuture<'_, Option<MistakeRow>>;

    /// Notes a try of `player`'s mistake `id` (solved or not) and when it
    /// comes back; the mistake as it is now, None when it is not theirs.
    fn mistake_tried(
        &self,
        player: PlayerId,
        id: i64,
        solved: bool,
        due_ms: i64,
    ) -> StoreFuture<'_, Option<MistakeRow>>;
}

/// The columns of a mistake, in [`mistake_of`]'s order.
const COLUMNS: &str =
    "id, player, game, ply, rules, position, played, best, solved, tries, created_ms, due_ms";

/// Keeps a mistake once (player, game, move).
pub(crate) const ADD: &str = "INSERT INTO mistakes
     (player, game, ply, rules, position, played, best, solved, tries, created_ms, due_ms)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
     ON CONFLICT (player, game, ply) DO NOTHING";

/// Player `?1`'s mistakes, soonest due first, `?2` at most.
pub(crate) fn list_sql() -> String {
    format!("SELECT {COLUMNS} FROM mistakes WHERE player = ?1 ORDER BY due_ms, id LIMIT ?2")
}

/// Player `?1`'s mistake `?2`.
pub(crate) fn one_sql() -> String {
    format!("SELECT {COLUMNS} FROM mistakes WHERE player = ?1 AND id = ?2")
}

/// Notes a try of player `?1`'s mistake `?2`: solved `?3` (0 or 1) more
/// times, due at `?4`.
pub(crate) fn tried_sql() -> String {
    format!(
        "UPDATE mistakes SET solved = solved + ?3, tries = tries + 1, due_ms = ?4
         WHERE player = ?1 AND id = ?2 RETURNING {COLUMNS}"
    )
}

/// A mistake from a row of [`COLUMNS`], in either store.
pub(crate) fn mistake_of<R: Cells>(r: &R) -> Result<MistakeRow, R::Error> {
    Ok(MistakeRow {
        id: r.cell(0)?,
        player: PlayerId(r.cell(1)?),
        game: r.cell(2)?,
        ply: r.cell(3)?,
        rules: r.cell(4)?,
        position: r.cell(5)?,
        played: r.cell(6)?,
        best: r.cell(7)?,
        solved: r.cell(8)?,
        tries: r.cell(9)?,
        created_ms: r.cell(10)?,
        due_ms: r.cell(11)?,
    })
}

impl MistakeRow {
    /// The values of [`ADD`], in its order.
    fn values(&self) -> [&dyn Value; 11] {
        [
            &self.player.0,
            &self.game,
            &self.ply,
            &self.rules,
            &self.position,
            &self.played,
            &self.best,
            &self.solved,
            &self.tries,
            &self.created_ms,
            &self.due_ms,
        ]
    }
}

impl<S: Backend> MistakeStore for S {
    fn add_mistakes(&self, rows: Vec<MistakeRow>) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            Box::pin(async move {
                for m in &rows {
                    tx.execute(ADD, &m.values()).await?;
                }
                Ok(())
            })
        })
    }

    fn mistakes(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<MistakeRow>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&player.0, &(limit as i64)];
                tx.query(&list_sql(), &values, |r| mistake_of(r)).await
            })
        })
    }

    fn mistake(&self, player: PlayerId, id: i64) -> StoreFuture<'_, Option<MistakeRow>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&player.0, &id];
                tx.query_opt(&one_sql(), &values, |r| mistake_of(r)).await
            })
        })
    }

    fn mistake_tried(
        &self,
        player: PlayerId,
        id: i64,
        solved: bool,
        due_ms: i64,
    ) -> StoreFuture<'_, Option<MistakeRow>> {
        self.write(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 4] = [&player.0, &id, &i64::from(solved), &due_ms];
                tx.query_opt(&tried_sql(), &values, |r| mistake_of(r)).await
            })
        })
    }
}
