//! Ratings in PostgreSQL: [`RatingStore`] as the games file's
//! (`../ratings.rs`), query for query. Several processes may rate at once
//! (a game ending on one, the unrated games taken up by another at its
//! start): a game is rated under advisory locks on both its players, taken
//! in one order, so two games of one player never lose an update and one
//! game is never rated twice.

use deadpool_postgres::GenericClient;

use super::rows::query_all;
use super::PgStore;
use crate::cells::{dollar_params, pg_values};
use crate::ratings::{
    current_of, leader, leaderboard_query, played_game, played_games_query, player_rating,
    rating_point, results_query, BoardRule, GameFilter, Leader, PlayedGame, RatingPoint, RatingRow,
    RatingStore, Results, ADD_CHANGE, CURRENT, RATINGS, RATING_HISTORY, RESULT_SEATS, SET_RATING,
    UNRATED_GAMES,
};
use crate::{StoreError, StoreFuture};
use awale_core::Side;
use awale_model::game::PlayerId;
use awale_model::rating::{self, Glicko, PlayerRating, RatingChange, Speed};

/// The second key of the players' advisory locks (beside uploads' 0 and
/// account names' 1).
const RATING_LOCK_SPACE: i64 = 2;

async fn current(
    tx: &impl GenericClient,
    player: &PlayerId,
    speed: Speed,
) -> Result<Option<(Glicko, i64)>, StoreError> {
    let row = tx
        .query_opt(&dollar_params(CURRENT), &[&player.0, &speed.name()])
        .await?;
    Ok(row.as_ref().map(current_of).transpose()?)
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
    for row in RatingRow::of_game(game, players, speed, at_ms, &changes) {
        tx.execute(&dollar_params(SET_RATING), &pg_values(row.rating()))
            .await?;
        tx.execute(&dollar_params(ADD_CHANGE), &pg_values(row.change()))
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
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            let changes = rate(&tx, game, &players, speed, winner, at_ms).await?;
            tx.commit().await?;
            Ok(changes)
        })
    }

    fn ratings(&self, player: PlayerId) -> StoreFuture<'_, Vec<PlayerRating>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(RATINGS);
            let mut out: Vec<PlayerRating> = query_all(&client, &sql, &[&player.0], player_rating)
                .await?
                .into_iter()
                .flatten()
                .collect();
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
        self.with_client(move |client| async move {
            let sql = dollar_params(RATING_HISTORY);
            let mut points = query_all(
                &client,
                &sql,
                &[&player.0, &speed.name(), &(limit as i64)],
                rating_point,
            )
            .await?;
            points.reverse();
            Ok(points)
        })
    }

    fn results(&self, player: PlayerId) -> StoreFuture<'_, Results> {
        self.with_client(move |client| async move {
            let mut results = Results::default();
            for (seat, won, lost) in RESULT_SEATS {
                let sql = dollar_params(&results_query(seat));
                results.add(&client.query_one(&sql, &[&player.0, &won, &lost]).await?)?;
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
            let (sql, values) = played_games_query(player, filter, before, limit);
            let refs = pg_values(values.iter().map(|v| &**v));
            let client = me.client().await?;
            query_all(&client, &dollar_params(&sql), &refs, played_game).await
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
        let since = rule.since(now);
        self.run(async move {
            let client = me.client().await?;
            let sql = dollar_params(&leaderboard_query(true));
            query_all(
                &client,
                &sql,
                &[
                    &speed.name(),
                    &since,
                    &rule.min_games,
                    &(limit as i64),
                    // Compared with a DOUBLE PRECISION column.
                    &(rule.max_deviation as f64),
                ],
                leader,
            )
            .await
        })
    }

    fn unrated_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.ids_blocking(&dollar_params(UNRATED_GAMES))
    }
}
