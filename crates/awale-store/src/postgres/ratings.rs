//! Ratings in PostgreSQL: [`RatingStore`] as the games file's
//! (`../ratings.rs`), query for query. Several processes may rate at once
//! (a game ending on one, the unrated games taken up by another at its
//! start): a game is rated under advisory locks on both its players, taken
//! in one order, so two games of one player never lose an update and one
//! game is never rated twice.

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::PgStore;
use crate::ratings::{
    played_game, BoardRule, GameFilter, Leader, Outcome, PlayedGame, RatingPoint, RatingStore,
    Results,
};
use crate::{StoreError, StoreFuture};
use awale_core::Side;
use awale_model::game::PlayerId;
use awale_model::rating::{self, Glicko, PlayerRating, RatingChange, Speed};

/// The second key of the players' advisory locks (beside uploads' 0 and
/// account names' 1).
const RATING_LOCK_SPACE: i64 = 2;

fn side_text(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

async fn current(
    tx: &impl GenericClient,
    player: &PlayerId,
    speed: Speed,
) -> Result<Option<(Glicko, i64)>, StoreError> {
    let row = tx
        .query_opt(
            "SELECT rating, deviation, volatility, last_ms FROM ratings
             WHERE player = $1 AND speed = $2",
            &[&player.0, &speed.name()],
        )
        .await?;
    Ok(row
        .map(|r| -> Result<_, tokio_postgres::Error> {
            Ok((
                Glicko {
                    rating: r.try_get(0)?,
                    deviation: r.try_get(1)?,
                    volatility: r.try_get(2)?,
                },
                r.try_get(3)?,
            ))
        })
        .transpose()?)
}

async fn rate(
    tx: &impl GenericClient,
    game: i64,
    players: &[PlayerId; 2],
    speed: Speed,
    winner: Option<Side>,
    at_ms: i64,
) -> Result<[RatingChange; 2], StoreError> {
    // Both players' locks, in one order (no two transactions wait on each
    // other), held to the commit.
    let mut keys = [players[0].0.as_str(), players[1].0.as_str()];
    keys.sort_unstable();
    for key in keys {
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, $2))",
            &[&key, &RATING_LOCK_SPACE],
        )
        .await?;
    }
    if let Some(done) = super::rows::rating_changes(tx, game).await? {
        return Ok(done);
    }
    let mut before = Vec::with_capacity(2);
    for p in players {
        before.push(
            current(tx, p, speed)
                .await?
                .map_or((rating::START, None), |(g, last)| (g, Some(last))),
        );
    }
    let changes = rating::rate_game(before[0], before[1], winner, at_ms);
    for (side, (player, change)) in Side::BOTH.into_iter().zip(players.iter().zip(&changes)) {
        let (b, a) = (change.before, change.after);
        tx.execute(
            "INSERT INTO ratings (player, speed, rating, deviation, volatility, games, last_ms)
             VALUES ($1, $2, $3, $4, $5, 1, $6)
             ON CONFLICT (player, speed) DO UPDATE SET rating = $3, deviation = $4,
                volatility = $5, games = ratings.games + 1, last_ms = $6",
            &[
                &player.0,
                &speed.name(),
                &a.rating,
                &a.deviation,
                &a.volatility,
                &at_ms,
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_changes (game_id, side, player, speed, at_ms, rating_before,
                deviation_before, volatility_before, rating_after, deviation_after,
                volatility_after)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            &[
                &game,
                &side_text(side),
                &player.0,
                &speed.name(),
                &at_ms,
                &b.rating,
                &b.deviation,
                &b.volatility,
                &a.rating,
                &a.deviation,
                &a.volatility,
            ],
        )
        .await?;
    }
    Ok(changes)
}

impl RatingStore for PgStore {
    fn rate_game(
        &self,
        game: i64,
        players: [PlayerId; 2],
        speed: Speed,
        winner: Option<Side>,
        at_ms: i64,
    ) -> StoreFuture<'_, [RatingChange; 2]> {
        let me = self.clone();
        self.run(async move {
            let mut client = me.client().await?;
            let tx = client.transaction().await?;
            let changes = rate(&tx, game, &players, speed, winner, at_ms).await?;
            tx.commit().await?;
            Ok(changes)
        })
    }

    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<PlayerRating>> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let rows = client
                .query(
                    "SELECT speed, rating, deviation, volatility, games, last_ms FROM ratings
                     WHERE player = $1",
                    &[&player.0],
                )
                .await?;
            let mut out = Vec::new();
            for r in rows {
                // A speed this program does not know is skipped, not fatal.
                let Some(speed) = Speed::from_name(&r.try_get::<_, String>(0)?) else {
                    continue;
                };
                out.push(PlayerRating {
                    speed,
                    glicko: Glicko {
                        rating: r.try_get(1)?,
                        deviation: r.try_get(2)?,
                        volatility: r.try_get(3)?,
                    },
                    games: r.try_get(4)?,
                    last_ms: Some(r.try_get(5)?),
                });
            }
            out.sort_by_key(|r| r.speed);
            Ok(out)
        })
    }

    fn rating_history(
        &self,
        player: PlayerId,
        speed: Speed,
        limit: usize,
    ) -> StoreFuture<'_, Vec<RatingPoint>> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let rows = client
                .query(
                    "SELECT c.at_ms, c.rating_after, g.public_id FROM rating_changes c
                     JOIN games g ON g.id = c.game_id
                     WHERE c.player = $1 AND c.speed = $2
                     ORDER BY c.at_ms DESC, c.game_id DESC LIMIT $3",
                    &[&player.0, &speed.name(), &(limit as i64)],
                )
                .await?;
            let mut points = rows
                .iter()
                .map(|r| {
                    Ok(RatingPoint {
                        at_ms: r.try_get(0)?,
                        rating: r.try_get::<_, f64>(1)?.round() as i64,
                        game: r.try_get(2)?,
                    })
                })
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
            points.reverse();
            Ok(points)
        })
    }

    fn results(&self, player: PlayerId) -> StoreFuture<'_, Results> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let mut results = Results::default();
            for (seat, won, lost) in [
                ("south_player", "1-0", "0-1"),
                ("north_player", "0-1", "1-0"),
            ] {
                let sql = format!(
                    "SELECT COUNT(*) FILTER (WHERE result = $2),
                            COUNT(*) FILTER (WHERE result = '1/2-1/2'),
                            COUNT(*) FILTER (WHERE result = $3),
                            COUNT(*) FILTER (WHERE rated)
                     FROM games WHERE {seat} = $1 AND mode = 'online' AND result <> '*'"
                );
                let r = client.query_one(&sql, &[&player.0, &won, &lost]).await?;
                results.wins += r.try_get::<_, i64>(0)?;
                results.draws += r.try_get::<_, i64>(1)?;
                results.losses += r.try_get::<_, i64>(2)?;
                results.rated += r.try_get::<_, i64>(3)?;
            }
            Ok(results)
        })
    }

    fn played_games(
        &self,
        player: PlayerId,
        filter: GameFilter,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> StoreFuture<'_, Vec<PlayedGame>> {
        let me = self.clone();
        self.run(async move {
            let (t, i) = before.unwrap_or((i64::MAX, String::new()));
            // As the games file's: the player's side and result worked out
            // once, in a subquery, so the filters read as the page names them.
            let mut sql = String::from(
                "SELECT * FROM (
                   SELECT g.public_id, g.updated_ms, g.id,
                     CASE WHEN g.south_player = $1 THEN 'S' ELSE 'N' END AS side,
                     g.south_name, g.north_name,
                     (SELECT a.username FROM accounts a WHERE a.player =
                        CASE WHEN g.south_player = $1 THEN g.north_player ELSE g.south_player END
                        AND a.deleted_ms IS NULL) AS opponent,
                     CASE WHEN g.result = '1/2-1/2' THEN 'draw'
                          WHEN (g.result = '1-0') = (g.south_player = $1) THEN 'win'
                          ELSE 'loss' END AS outcome,
                     g.result, g.reason, g.rated, g.speed, g.plies,
                     (SELECT ROUND(c.rating_after) - ROUND(c.rating_before) FROM rating_changes c
                        WHERE c.game_id = g.id AND c.player = $1) AS change,
                     CASE WHEN g.south_player = $1 THEN g.north_player ELSE g.south_player END
                        AS opponent_player
                   FROM games g
                   WHERE (g.south_player = $1 OR g.north_player = $1) AND g.mode = 'online'
                     AND g.result <> '*'
                     AND (g.updated_ms < $2 OR (g.updated_ms = $2
                          AND g.id < (SELECT b.id FROM games b WHERE b.public_id = $3))))
                   AS played
                 WHERE TRUE",
            );
            let mut values: Vec<Box<dyn ToSql + Sync + Send>> =
                vec![Box::new(player.0), Box::new(t), Box::new(i)];
            let mut add = |clause: &str, value: Box<dyn ToSql + Sync + Send>| {
                values.push(value);
                sql.push_str(&format!(" AND {clause} ${}", values.len()));
            };
            if let Some(rated) = filter.rated {
                add("rated =", Box::new(rated));
            }
            if let Some(speed) = filter.speed {
                add("speed =", Box::new(speed.name().to_string()));
            }
            if let Some(outcome) = filter.result {
                let name = match outcome {
                    Outcome::Win => "win",
                    Outcome::Draw => "draw",
                    Outcome::Loss => "loss",
                };
                add("outcome =", Box::new(name.to_string()));
            }
            if let Some(opponent) = filter.opponent {
                add("opponent_player =", Box::new(opponent.0));
            }
            values.push(Box::new(limit as i64));
            sql.push_str(&format!(
                " ORDER BY updated_ms DESC, id DESC LIMIT ${}",
                values.len()
            ));
            let refs: Vec<&(dyn ToSql + Sync)> =
                values.iter().map(|v| &**v as &(dyn ToSql + Sync)).collect();
            let client = me.client().await?;
            let rows = client.query(&sql, &refs).await?;
            rows.iter()
                .map(played_game)
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()
                .map_err(StoreError::from)
        })
    }

    fn leaderboard(
        &self,
        speed: Speed,
        rule: BoardRule,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Leader>> {
        let me = self.clone();
        let since = now - rule.weeks * 7 * 86_400_000;
        self.run(async move {
            let client = me.client().await?;
            // Names compared byte by byte, as SQLite does, whatever the
            // database's collation.
            let rows = client
                .query(
                    "SELECT a.username, r.rating, r.deviation, r.games FROM ratings r
                     JOIN accounts a ON a.player = r.player
                     WHERE r.speed = $1 AND r.last_ms >= $2
                       AND a.deleted_ms IS NULL AND a.closed_ms IS NULL
                       AND (SELECT COUNT(*) FROM rating_changes c
                            WHERE c.player = r.player AND c.speed = r.speed
                              AND c.at_ms >= $2) >= $3
                     ORDER BY r.rating DESC, a.username_key COLLATE \"C\" LIMIT $4",
                    &[&speed.name(), &since, &rule.min_games, &(limit as i64)],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(Leader {
                        username: r.try_get(0)?,
                        rating: r.try_get::<_, f64>(1)?.round() as i64,
                        deviation: r.try_get::<_, f64>(2)?.round() as i64,
                        games: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()
                .map_err(StoreError::from)
        })
    }

    fn unrated_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        let me = self.clone();
        self.block(async move {
            let client = me.client().await?;
            let rows = client
                .query(
                    "SELECT id FROM games g WHERE rated AND mode = 'online' AND result <> '*'
                     AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id)",
                    &[],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }
}
