//! The opening explorer's counting (behind [`ExplorerStore`], filled once
//! PostgreSQL store fills too, with the same SQL): of the finished games
//! of some rules from some start, those whose first moves are a given
//! line, counted by the move they played next, with their results. The
//! service decides which rules and start count and what the counts mean;
//! here, the one query.

use crate::cells::{Cells, Value};
use crate::tx::{Backend, Tx};
use crate::StoreFuture;

/// A move played after a line, in the stored games.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningMove {
    /// The move, a letter (`A` to `F`, `a` to `f`).
    pub letter: String,
    /// Finished games that played it there.
    pub games: i64,
    /// Of them, South's wins.
    pub south_wins: i64,
    /// North's wins.
    pub north_wins: i64,
    /// Draws.
    pub draws: i64,
    /// The mean of their players' ratings before them (of the rated
    /// games among them; None when none was rated).
    pub average_rating: Option<f64>,
}

/// Which games the explorer counts, besides their rules and start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpeningFilter {
    /// Of this speed only (its stored name, `blitz`...).
    pub speed: Option<String>,
    /// Rated games whose players' mean rating before them is at least
    /// this.
    pub min_rating: Option<f64>,
    /// Rated games whose players' mean rating before them is below this.
    pub max_rating: Option<f64>,
}

/// Where the explorer counts the games played.
pub trait ExplorerStore: Send + Sync {
    /// The finished games (a result other than `*`) of `rules` (as
    /// stored: `awale`) from `start` (a diagram, as stored) whose first
    /// moves are `line` (letters), under `filter`, by the move each
    /// played next: the most played first, then by letter.
    fn opening_moves(
        &self,
        rules: String,
        start: String,
        line: String,
        filter: OpeningFilter,
    ) -> StoreFuture<'_, Vec<OpeningMove>>;
}

/// The count: `?1` the rules, `?2` the start, `?3` the line, `?4` its
/// length. The finished games of the rules and start are read one by one
/// (no index on moves by ply: a scan of the moves themselves cost 70 ms
/// with 1,000 games against 10 to 20 ms this way); a game follows the line
/// when none of its first `?4` moves differs from the line's letter at
/// that ply (its moves read by their key, game and ply, in order: most
/// games are left at their first moves); its next move is its move at ply
/// `?4` (none: it ended there, not counted). The same text in both
/// dialects (the `CAST`: PostgreSQL's `substr` takes an `INTEGER`). The
/// filter: `?5` the speed, `?6` and `?7` the band of the players' mean
/// rating before the game (from its rating changes: rated games only),
/// each NULL for any (cast: PostgreSQL cannot tell a NULL's type).
pub(crate) const OPENING_MOVES: &str = "SELECT next_letter, COUNT(*),
       SUM(CASE WHEN result = '1-0' THEN 1 ELSE 0 END),
       SUM(CASE WHEN result = '0-1' THEN 1 ELSE 0 END),
       SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
       AVG(average_rating)
     FROM (SELECT g.result AS result,
                  (SELECT AVG(c.rating_before) FROM rating_changes c
                   WHERE c.game_id = g.id) AS average_rating,
                  (SELECT m.letter FROM moves m
                   WHERE m.game_id = g.id AND m.ply = ?4) AS next_letter
           FROM games g
           WHERE g.rules = ?1 AND g.start = ?2 AND g.result IN ('1-0', '0-1', '1/2-1/2')
             AND (CAST(?5 AS TEXT) IS NULL OR g.speed = CAST(?5 AS TEXT))
             AND NOT EXISTS (SELECT 1 FROM moves p
                  WHERE p.game_id = g.id AND p.ply < ?4
                    AND p.letter <> substr(?3, CAST(p.ply + 1 AS INTEGER), 1))) AS followed
     WHERE next_letter IS NOT NULL
       AND (CAST(?6 AS DOUBLE PRECISION) IS NULL
            OR average_rating >= CAST(?6 AS DOUBLE PRECISION))
       AND (CAST(?7 AS DOUBLE PRECISION) IS NULL
            OR average_rating < CAST(?7 AS DOUBLE PRECISION))
     GROUP BY next_letter
     ORDER BY COUNT(*) DESC, next_letter";

/// A move from a row of [`OPENING_MOVES`], in either store.
pub(crate) fn opening_move_of<R: Cells>(r: &R) -> Result<OpeningMove, R::Error> {
    Ok(OpeningMove {
        letter: r.cell(0)?,
        games: r.cell(1)?,
        south_wins: r.cell(2)?,
        north_wins: r.cell(3)?,
        draws: r.cell(4)?,
        average_rating: r.cell(5)?,
    })
}

impl<S: Backend> ExplorerStore for S {
    fn opening_moves(
        &self,
        rules: String,
        start: String,
        line: String,
        filter: OpeningFilter,
    ) -> StoreFuture<'_, Vec<OpeningMove>> {
        self.read(move |tx| {
            Box::pin(async move {
                let plies = line.chars().count() as i64;
                let values: [&dyn Value; 7] = [
                    &rules,
                    &start,
                    &line,
                    &plies,
                    &filter.speed,
                    &filter.min_rating,
                    &filter.max_rating,
                ];
                tx.query(OPENING_MOVES, &values, |r| opening_move_of(r))
                    .await
            })
        })
    }
}
