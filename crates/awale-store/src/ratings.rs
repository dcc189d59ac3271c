//! Ratings as the store keeps them, behind their own interface
//! ([`RatingStore`], beside [`crate::GameStore`]; no SQLite type in it, so
//! a PostgreSQL store fills it too): each player's Glicko-2 rating per
//! speed, each rated game's effect on both its players (the rating
//! history), a player's results, and the leaderboards. A game is rated in
//! one transaction with both ratings, so two games ending at once never
//! lose an update; the arithmetic is the model's (`awale_model::rating`).

use awale_core::Side;
use awale_model::game::PlayerId;
use awale_model::lists::{Leader, Outcome, PlayedGame, PoolGame, RatingPoint, Results};
use awale_model::rating::{self, Glicko, PlayerRating, Pool, RatingChange, Speed};

use crate::cells::{Cells, Value};
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::stored_text::side_to_text;
use crate::tx::{Backend, Tx};

/// Which of a player's finished games to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Rated only (true) or casual only (false).
    pub rated: Option<bool>,
    /// Of this speed only.
    pub speed: Option<Speed>,
    /// `win`, `draw` or `loss` only, from the player's side.
    pub result: Option<Outcome>,
    /// Against this player only.
    pub opponent: Option<PlayerId>,
}

/// Who may appear on a leaderboard: at least `min_games` rated games in
/// the speed within the last `weeks` weeks, and a rating no longer
/// provisional (its deviation at most `max_deviation`), as lichess lists
/// only established ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardRule {
    /// Rated games needed in the window.
    pub min_games: i64,
    /// The window, in weeks.
    pub weeks: i64,
    /// The highest rating deviation listed (as of the player's last rated
    /// game): [`rating::PROVISIONAL_DEVIATION`], a provisional rating ("?")
    /// is not.
    pub max_deviation: i64,
}

impl Default for BoardRule {
    /// Three rated games in the last four weeks, the rating established.
    fn default() -> BoardRule {
        BoardRule {
            min_games: 3,
            weeks: 4,
            max_deviation: rating::PROVISIONAL_DEVIATION as i64,
        }
    }
}

/// Where the service keeps ratings.
pub trait RatingStore: Send + Sync {
    /// Rates game `game`, ended at `at_ms` between `players` (South,
    /// North) in `speed`, won by `winner` (None: drawn): both ratings and
    /// the game's changes in one transaction. Rating a game again gives
    /// the changes already made.
    fn rate_game(
        &self,
        game: i64,
        players: [PlayerId; 2],
        speed: Speed,
        winner: Option<Side>,
        at_ms: i64,
    ) -> StoreFuture<'_, [RatingChange; 2]>;

    /// Rates game `game` as [`RatingStore::rate_game`], in `pool` (a
    /// speed's people's pool, or its bots' pool).
    fn rate_game_in(
        &self,
        game: i64,
        players: [PlayerId; 2],
        pool: Pool,
        winner: Option<Side>,
        at_ms: i64,
    ) -> StoreFuture<'_, [RatingChange; 2]>;

    /// Everyone rated in `pool`, best first, `limit` at most (provisional
    /// ratings too: the engine ladder lists every bot); only accounts not
    /// deleted.
    fn pool_board(&self, pool: Pool, limit: usize) -> StoreFuture<'_, Vec<Leader>>;

    /// The rated games of `pool`, newest first, `limit` at most.
    fn pool_games(&self, pool: Pool, limit: usize) -> StoreFuture<'_, Vec<PoolGame>>;

    /// `player`'s ratings, one per pool they played rated in (people's
    /// speeds, and a bot's pools).
    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<PlayerRating>>;

    /// `player`'s rating after each of their rated games in `speed`,
    /// oldest first (the graph), the last `limit` at most.
    fn rating_history(
        &self,
        player: PlayerId,
        speed: Speed,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingPoint>>;

    /// As [`RatingStore::rating_history`], in `pool`.
    fn rating_history_in(
        &self,
        player: PlayerId,
        pool: Pool,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingPoint>>;

    /// `player`'s wins, draws and losses.
    fn results(&self, player: PlayerId) -> StoreFuture<'_, Results>;

    /// `player`'s finished online games under `filter`, newest first,
    /// `limit` at most, before `before` (the last one's `(updated_ms,
    /// public id)`).
    fn played_games(
        &self,
        player: PlayerId,
        filter: GameFilter,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> StoreFuture<'_, Vec<PlayedGame>>;

    /// The best `limit` players of `speed` under `rule` at `now`, best
    /// first; only open accounts, never a bot (bots are ranked apart, on
    /// the engine ladder).
    fn leaderboard(
        &self,
        speed: Speed,
        rule: BoardRule,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Leader>>;

    /// At start: the rated games that ended without their rating change
    /// (the server stopped in between), to rate now. Blocks.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn unrated_games_blocking(&self) -> Result<Vec<i64>, StoreError>;
}

/// The rating at columns `i`, `i + 1`, `i + 2` (rating, deviation,
/// volatility) of a row, in either store.
pub(crate) fn glicko_at<R: Cells>(r: &R, i: usize) -> Result<Glicko, R::Error> {
    Ok(Glicko {
        rating: r.cell(i)?,
        deviation: r.cell(i + 1)?,
        volatility: r.cell(i + 2)?,
    })
}

/// Player `?1`'s rating in speed `?2` and when it last changed.
pub(crate) const CURRENT: &str = "SELECT rating, deviation, volatility, last_ms FROM ratings
     WHERE player = ?1 AND speed = ?2";

/// A rating and when it last changed, from a row of [`CURRENT`].
pub(crate) fn current_of<R: Cells>(r: &R) -> Result<(Glicko, i64), R::Error> {
    Ok((glicko_at(r, 0)?, r.cell(3)?))
}

/// Player `?1`'s rating in speed `?2` after a game, at `?6`: `?3`, `?4`,
/// `?5` (rating, deviation, volatility).
pub(crate) const SET_RATING: &str =
    "INSERT INTO ratings (player, speed, rating, deviation, volatility, games, last_ms)
     VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)
     ON CONFLICT (player, speed) DO UPDATE SET rating = ?3, deviation = ?4,
        volatility = ?5, games = ratings.games + 1, last_ms = ?6";

/// A game's change of one player's rating, kept.
pub(crate) const ADD_CHANGE: &str = "INSERT INTO rating_changes (game_id, side, player, speed,
        at_ms, rating_before, deviation_before, volatility_before, rating_after,
        deviation_after, volatility_after)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

/// A player's rating after a rated game and the game's change of it, as
/// both stores write them ([`SET_RATING`], [`ADD_CHANGE`]).
pub(crate) struct RatingRow {
    game: i64,
    side: String,
    player: String,
    speed: &'static str,
    at_ms: i64,
    change: RatingChange,
}

impl RatingRow {
    /// The rows of game `game`, ended at `at_ms` between `players` (South,
    /// North) in `pool`, with its `changes`.
    pub(crate) fn of_game(
        game: i64,
        players: &[PlayerId; 2],
        pool: Pool,
        at_ms: i64,
        changes: &[RatingChange; 2],
    ) -> [RatingRow; 2] {
        Side::BOTH.map(|side| RatingRow {
            game,
            side: side_to_text(side),
            player: players[side.index()].0.clone(),
            speed: pool.name(),
            at_ms,
            change: changes[side.index()],
        })
    }

    /// The values of [`SET_RATING`], in its order.
    pub(crate) fn rating(&self) -> [&dyn Value; 6] {
        let after = &self.change.after;
        [
            &self.player,
            &self.speed,
            &after.rating,
            &after.deviation,
            &after.volatility,
            &self.at_ms,
        ]
    }

    /// The values of [`ADD_CHANGE`], in its order.
    pub(crate) fn change(&self) -> [&dyn Value; 11] {
        let (before, after) = (&self.change.before, &self.change.after);
        [
            &self.game,
            &self.side,
            &self.player,
            &self.speed,
            &self.at_ms,
            &before.rating,
            &before.deviation,
            &before.volatility,
            &after.rating,
            &after.deviation,
            &after.volatility,
        ]
    }
}

/// Player `?1`'s ratings, one a speed.
pub(crate) const RATINGS: &str = "SELECT speed, rating, deviation, volatility, games, last_ms
     FROM ratings WHERE player = ?1";

/// A rating from a row of [`RATINGS`], in either store; none in a pool
/// this program does not know (skipped, not fatal).
pub(crate) fn player_rating<R: Cells>(r: &R) -> Result<Option<PlayerRating>, R::Error> {
    let name: String = r.cell(0)?;
    Ok(match Pool::from_name(&name) {
        Some(pool) => Some(PlayerRating {
            speed: pool.speed(),
            pool,
            glicko: glicko_at(r, 1)?,
            games: r.cell(4)?,
            last_ms: Some(r.cell(5)?),
        }),
        None => None,
    })
}

/// Player `?1`'s rating after each rated game in speed `?2`, newest first,
/// `?3` at most.
pub(crate) const RATING_HISTORY: &str = "SELECT c.at_ms, c.rating_after, g.public_id
     FROM rating_changes c JOIN games g ON g.id = c.game_id
     WHERE c.player = ?1 AND c.speed = ?2 ORDER BY c.at_ms DESC, c.game_id DESC LIMIT ?3";

/// A point of the graph from a row of [`RATING_HISTORY`], in either store.
pub(crate) fn rating_point<R: Cells>(r: &R) -> Result<RatingPoint, R::Error> {
    Ok(RatingPoint {
        at_ms: r.cell(0)?,
        rating: r.cell::<f64>(1)?.round() as i64,
        game: r.cell(2)?,
    })
}

/// A line of a leaderboard from a row of username, rating, deviation and
/// games, in either store.
pub(crate) fn leader<R: Cells>(r: &R) -> Result<Leader, R::Error> {
    Ok(Leader {
        username: r.cell(0)?,
        rating: r.cell::<f64>(1)?.round() as i64,
        deviation: r.cell::<f64>(2)?.round() as i64,
        games: r.cell(3)?,
    })
}

/// The seats of a player's results: the seat's column, the result it
/// wins by, the one it loses by.
pub(crate) const RESULT_SEATS: [(&str, &str, &str); 2] = [
    ("south_player", "1-0", "0-1"),
    ("north_player", "0-1", "1-0"),
];

/// Player `?1`'s wins (result `?2`), draws, losses (result `?3`) and rated
/// games from `seat` (one of [`RESULT_SEATS`]), as [`Results::add`] reads
/// them.
pub(crate) fn results_query(seat: &str) -> String {
    format!(
        "SELECT COUNT(*) FILTER (WHERE result = ?2),
                COUNT(*) FILTER (WHERE result = '1/2-1/2'),
                COUNT(*) FILTER (WHERE result = ?3),
                COUNT(*) FILTER (WHERE rated)
         FROM games WHERE {seat} = ?1 AND mode = 'online' AND result <> '*'"
    )
}

/// Adds a seat's row of [`results_query`] to `results`, in either store.
fn add_results<R: Cells>(results: &mut Results, r: &R) -> Result<(), R::Error> {
    results.wins += r.cell::<i64>(0)?;
    results.draws += r.cell::<i64>(1)?;
    results.losses += r.cell::<i64>(2)?;
    results.rated += r.cell::<i64>(3)?;
    Ok(())
}

impl BoardRule {
    /// The start of the window at `now`.
    pub(crate) fn since(self, now: i64) -> i64 {
        now - self.weeks * 7 * 86_400_000
    }
}

/// The best `?4` open accounts of speed `?1` with at least `?3` rated
/// games since `?2` (a [`BoardRule`]), best first, as [`leader`] reads
/// them. Names of one rating are compared byte by byte, as SQLite does;
/// PostgreSQL (`postgres`) is told so, whatever the database's collation.
pub(crate) fn leaderboard_query(postgres: bool) -> String {
    let collate = if postgres { " COLLATE \"C\"" } else { "" };
    format!(
        "SELECT a.username, r.rating, r.deviation, r.games FROM ratings r
         JOIN accounts a ON a.player = r.player
         WHERE r.speed = ?1 AND r.last_ms >= ?2 AND r.deviation <= ?5
           AND a.deleted_ms IS NULL AND a.closed_ms IS NULL AND NOT a.bot
           AND (SELECT COUNT(*) FROM rating_changes c
                WHERE c.player = r.player AND c.speed = r.speed AND c.at_ms >= ?2) >= ?3
         ORDER BY r.rating DESC, a.username_key{collate} LIMIT ?4"
    )
}

/// Everyone rated in pool `?1`, best first, `?2` at most, as [`leader`]
/// reads them (names of one rating compared as [`leaderboard_query`]).
pub(crate) fn pool_board_query(postgres: bool) -> String {
    let collate = if postgres { " COLLATE \"C\"" } else { "" };
    format!(
        "SELECT a.username, r.rating, r.deviation, r.games FROM ratings r
         JOIN accounts a ON a.player = r.player
         WHERE r.speed = ?1 AND a.deleted_ms IS NULL
         ORDER BY r.rating DESC, a.username_key{collate} LIMIT ?2"
    )
}

/// The rated games of pool `?1`, newest first, `?2` at most, as
/// [`pool_game`] reads them.
pub(crate) const POOL_GAMES: &str = "SELECT g.public_id, sa.username, na.username, g.result,
        g.reason, s.at_ms, ROUND(s.rating_after) - ROUND(s.rating_before),
        ROUND(n.rating_after) - ROUND(n.rating_before)
     FROM rating_changes s
     JOIN rating_changes n ON n.game_id = s.game_id AND n.side = 'N'
     JOIN games g ON g.id = s.game_id
     JOIN accounts sa ON sa.player = s.player
     JOIN accounts na ON na.player = n.player
     WHERE s.speed = ?1 AND s.side = 'S'
     ORDER BY s.at_ms DESC, s.game_id DESC LIMIT ?2";

/// A game of a pool from a row of [`POOL_GAMES`], in either store.
pub(crate) fn pool_game<R: Cells>(r: &R) -> Result<PoolGame, R::Error> {
    Ok(PoolGame {
        id: r.cell(0)?,
        names: [r.cell(1)?, r.cell(2)?],
        result: r.cell(3)?,
        reason: r.cell(4)?,
        at_ms: r.cell(5)?,
        changes: [r.cell::<f64>(6)? as i64, r.cell::<f64>(7)? as i64],
    })
}

/// The rated games that ended without their rating change.
pub(crate) const UNRATED_GAMES: &str = "SELECT id FROM games g
     WHERE rated AND mode = 'online' AND result <> '*'
     AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id)";

/// The played games' query of `player` under `filter`, `limit` at most,
/// before `before` (from the newest when None), as [`played_game`] reads
/// its rows: its text and its values.
pub(crate) fn played_games_query(
    player: PlayerId,
    filter: GameFilter,
    before: Option<(i64, String)>,
    limit: usize,
) -> (String, Vec<Box<dyn Value>>) {
    // The player's side and result are worked out once, in a subquery, so
    // the filters read as the page names them.
    let mut sql = String::from(
        "SELECT * FROM (
           SELECT g.public_id, g.updated_ms, g.id,
             CASE WHEN g.south_player = ?1 THEN 'S' ELSE 'N' END AS side,
             g.south_name, g.north_name,
             (SELECT a.username FROM accounts a WHERE a.player =
                CASE WHEN g.south_player = ?1 THEN g.north_player ELSE g.south_player END
                AND a.deleted_ms IS NULL AND a.closed_ms IS NULL) AS opponent,
             CASE WHEN g.result = '1/2-1/2' THEN 'draw'
                  WHEN (g.result = '1-0') = (g.south_player = ?1) THEN 'win'
                  ELSE 'loss' END AS outcome,
             g.result, g.reason, g.rated, g.speed, g.plies,
             (SELECT ROUND(c.rating_after) - ROUND(c.rating_before) FROM rating_changes c
                WHERE c.game_id = g.id AND c.player = ?1) AS change,
             CASE WHEN g.south_player = ?1 THEN g.north_player ELSE g.south_player END
                AS opponent_player,
             g.clock_initial_ms IS NOT NULL AS clocked, g.clock_per_move,
             EXISTS (SELECT 1 FROM accounts a WHERE a.player =
                CASE WHEN g.south_player = ?1 THEN g.north_player ELSE g.south_player END
                AND a.bot AND a.deleted_ms IS NULL) AS opponent_bot
           FROM games g
           WHERE (g.south_player = ?1 OR g.north_player = ?1) AND g.mode = 'online'
             AND g.result <> '*'
             AND (g.updated_ms < ?2 OR (g.updated_ms = ?2
                  AND g.id < (SELECT b.id FROM games b WHERE b.public_id = ?3))))
           AS played
         WHERE TRUE",
    );
    let (t, i) = before.unwrap_or((i64::MAX, String::new()));
    let mut values: Vec<Box<dyn Value>> = vec![Box::new(player.0), Box::new(t), Box::new(i)];
    let mut add = |clause: &str, value: Box<dyn Value>| {
        values.push(value);
        sql.push_str(&format!(" AND {clause} ?{}", values.len()));
    };
    if let Some(rated) = filter.rated {
        add("rated =", Box::new(rated));
    }
    if let Some(speed) = filter.speed {
        add("speed =", Box::new(speed.name()));
    }
    if let Some(outcome) = filter.result {
        add("outcome =", Box::new(outcome.name()));
    }
    if let Some(opponent) = filter.opponent {
        add("opponent_player =", Box::new(opponent.0));
    }
    values.push(Box::new(limit as i64));
    sql.push_str(&format!(
        " ORDER BY updated_ms DESC, id DESC LIMIT ?{}",
        values.len()
    ));
    (sql, values)
}

/// A player's game from a row of the played games' query, in either
/// store (column 2 is the store's id, for the order only).
pub(crate) fn played_game<R: Cells>(r: &R) -> Result<PlayedGame, R::Error> {
    let side: String = r.cell(3)?;
    let outcome: String = r.cell(7)?;
    Ok(PlayedGame {
        id: r.cell(0)?,
        updated_ms: r.cell(1)?,
        side: if side == "S" { 'S' } else { 'N' },
        names: [r.cell(4)?, r.cell(5)?],
        opponent: r.cell(6)?,
        outcome: Outcome::from_name(&outcome).unwrap_or(Outcome::Loss),
        result: r.cell(8)?,
        reason: r.cell(9)?,
        rated: r.cell(10)?,
        speed: r.cell(11)?,
        plies: r.cell(12)?,
        change: r.cell::<Option<f64>>(13)?.map(|c| c as i64),
        clock: if r.cell::<bool>(16)? {
            "per_move"
        } else if r.cell::<bool>(15)? {
            "clock"
        } else {
            "none"
        },
        opponent_bot: r.cell(17)?,
    })
}

/// Game `?1`'s rating changes, as [`side_change`] reads them.
pub(crate) const GAME_CHANGES: &str = "SELECT side, rating_before, deviation_before,
     volatility_before, rating_after, deviation_after, volatility_after
     FROM rating_changes WHERE game_id = ?1";

/// A side's change (its side, its rating before and after) from a row of
/// [`GAME_CHANGES`], in either store.
pub(crate) fn side_change<R: Cells>(r: &R) -> Result<(String, Glicko, Glicko), R::Error> {
    Ok((r.cell(0)?, glicko_at(r, 1)?, glicko_at(r, 4)?))
}

/// Game `id`'s rating changes from its rows (side, before, after), in
/// either store: South's and North's, or none when it was not rated.
///
/// # Errors
///
/// [`StoreError::Corrupt`] on a side that is neither `S` nor `N`.
pub(crate) fn changes_of_sides(
    id: i64,
    rows: impl IntoIterator<Item = (String, Glicko, Glicko)>,
) -> Result<Option<[RatingChange; 2]>, StoreError> {
    let (mut south, mut north) = (None, None);
    for (side, before, after) in rows {
        let change = RatingChange::new(before, after);
        match side.as_str() {
            "S" => south = Some(change),
            "N" => north = Some(change),
            other => {
                return Err(StoreError::Corrupt {
                    id,
                    message: format!("rating change of side `{other}`"),
                })
            }
        }
    }
    Ok(south.zip(north).map(|(s, n)| [s, n]))
}

/// The second key of the players' locks (beside uploads' 0 and account
/// names' 1).
pub(crate) const RATING_LOCK_SPACE: i64 = 2;

/// The changes game `id` made, if it was rated.
pub(crate) async fn game_changes<X: Tx>(
    tx: &X,
    id: i64,
) -> Result<Option<[RatingChange; 2]>, StoreError> {
    changes_of_sides(
        id,
        tx.query(GAME_CHANGES, &[&id], |r| side_change(r)).await?,
    )
}

/// Rates game `game` (as [`RatingStore::rate_game`]): both players' locks
/// taken in one order (processes sharing the store rate one player's games
/// in turn, and a game once), the changes already made if any, else both
/// ratings and the game's changes written.
async fn rate<X: Tx>(
    tx: &X,
    game: i64,
    players: [PlayerId; 2],
    pool: Pool,
    winner: Option<Side>,
    at_ms: i64,
) -> Result<[RatingChange; 2], StoreError> {
    let mut keys = [players[0].0.as_str(), players[1].0.as_str()];
    keys.sort_unstable();
    for key in keys {
        tx.lock(RATING_LOCK_SPACE, key).await?;
    }
    if let Some(done) = game_changes(tx, game).await? {
        return Ok(done);
    }
    let mut before = [(rating::START, None); 2];
    for (p, b) in players.iter().zip(&mut before) {
        let values: [&dyn Value; 2] = [&p.0, &pool.name()];
        if let Some((g, last)) = tx.query_opt(CURRENT, &values, |r| current_of(r)).await? {
            *b = (g, Some(last));
        }
    }
    let changes = rating::rate_game(before[0], before[1], winner, at_ms);
    for row in RatingRow::of_game(game, &players, pool, at_ms, &changes) {
        tx.execute(SET_RATING, &row.rating()).await?;
        tx.execute(ADD_CHANGE, &row.change()).await?;
    }
    Ok(changes)
}

impl<S: Backend> RatingStore for S {
    fn rate_game(
        &self,
        game: i64,
        players: [PlayerId; 2],
        speed: Speed,
        winner: Option<Side>,
        at_ms: i64,
    ) -> StoreFuture<'_, [RatingChange; 2]> {
        self.rate_game_in(game, players, Pool::People(speed), winner, at_ms)
    }

    fn rate_game_in(
        &self,
        game: i64,
        players: [PlayerId; 2],
        pool: Pool,
        winner: Option<Side>,
        at_ms: i64,
    ) -> StoreFuture<'_, [RatingChange; 2]> {
        self.write(move |tx| Box::pin(rate(tx, game, players, pool, winner, at_ms)))
    }

    fn pool_board(&self, pool: Pool, limit: usize) -> StoreFuture<'_, Vec<Leader>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&pool.name(), &(limit as i64)];
                let sql = pool_board_query(S::Tx::POSTGRES);
                tx.query(&sql, &values, |r| leader(r)).await
            })
        })
    }

    fn pool_games(&self, pool: Pool, limit: usize) -> StoreFuture<'_, Vec<PoolGame>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&pool.name(), &(limit as i64)];
                tx.query(POOL_GAMES, &values, |r| pool_game(r)).await
            })
        })
    }

    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<PlayerRating>> {
        self.read(move |tx| {
            Box::pin(async move {
                let rows = tx
                    .query(RATINGS, &[&player.0], |r| player_rating(r))
                    .await?;
                let mut out: Vec<PlayerRating> = rows.into_iter().flatten().collect();
                out.sort_by_key(|r| r.pool);
                Ok(out)
            })
        })
    }

    fn rating_history(
        &self,
        player: PlayerId,
        speed: Speed,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingPoint>> {
        self.rating_history_in(player, Pool::People(speed), limit)
    }

    fn rating_history_in(
        &self,
        player: PlayerId,
        pool: Pool,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingPoint>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 3] = [&player.0, &pool.name(), &(limit as i64)];
                let mut points = tx
                    .query(RATING_HISTORY, &values, |r| rating_point(r))
                    .await?;
                points.reverse();
                Ok(points)
            })
        })
    }

    fn results(&self, player: PlayerId) -> StoreFuture<'_, Results> {
        self.read(move |tx| {
            Box::pin(async move {
                let mut results = Results::default();
                for (seat, won, lost) in RESULT_SEATS {
                    let values: [&dyn Value; 3] = [&player.0, &won, &lost];
                    tx.query(&results_query(seat), &values, |r| {
                        add_results(&mut results, r)
                    })
                    .await?;
                }
                Ok(results)
            })
        })
    }

    fn played_games(
        &self,
        player: PlayerId,
        filter: GameFilter,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> StoreFuture<'_, Vec<PlayedGame>> {
        self.read(move |tx| {
            Box::pin(async move {
                let (sql, values) = played_games_query(player, filter, before, limit);
                let values: Vec<&dyn Value> = values.iter().map(|v| &**v).collect();
                tx.query(&sql, &values, |r| played_game(r)).await
            })
        })
    }

    fn leaderboard(
        &self,
        speed: Speed,
        rule: BoardRule,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Leader>> {
        let since = rule.since(now);
        self.read(move |tx| {
            Box::pin(async move {
                // The deviation is compared with a DOUBLE PRECISION column.
                let values: [&dyn Value; 5] = [
                    &speed.name(),
                    &since,
                    &rule.min_games,
                    &(limit as i64),
                    &(rule.max_deviation as f64),
                ];
                let sql = leaderboard_query(S::Tx::POSTGRES);
                tx.query(&sql, &values, |r| leader(r)).await
            })
        })
    }

    fn unrated_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.read_here(|tx| Box::pin(tx.query(UNRATED_GAMES, &[], |r| r.cell(0))))
    }
}
