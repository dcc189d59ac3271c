//! What only PostgreSQL reads of games (a game newer than a copy held,
//! the flags a gone process left), and the helpers of its own
//! statements.

use deadpool_postgres::GenericClient;
use tokio_postgres::types::{FromSql, ToSql};

use super::tx::{cached, PgTx};
use crate::games::{game_and_moves, load_game};
use crate::ratings::game_changes;
use crate::rows::{moves_from, rebuild};
use crate::StoreError;
use awale_model::game::WebGame;

/// The first column of the one row `sql` finds with `params` (a count, an
/// id just made): an error, not a panic, when the row or its type is not
/// what was asked.
pub(super) async fn value_one<T: for<'a> FromSql<'a>>(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<T, StoreError> {
    let statement = cached(client, sql).await?;
    Ok(client.query_one(&statement, params).await?.try_get(0)?)
}

/// The first column of the one row `sql` finds with `params`, or None (as
/// the games file's `rows::query_opt`).
pub(super) async fn value_opt<T: for<'a> FromSql<'a>>(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<T>, StoreError> {
    let statement = cached(client, sql).await?;
    let row = client.query_opt(&statement, params).await?;
    Ok(row.map(|r| r.try_get(0)).transpose()?)
}

/// The rows `sql` finds with `params`, each read by `decode` (as the games
/// file's `rows::query_all`).
pub(super) async fn query_all<T, E>(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    decode: impl FnMut(&tokio_postgres::Row) -> Result<T, E>,
) -> Result<Vec<T>, StoreError>
where
    StoreError: From<E> + From<tokio_postgres::Error>,
{
    let statement = cached(client, sql).await?;
    let rows = client.query(&statement, params).await?;
    Ok(rows.iter().map(decode).collect::<Result<_, E>>()?)
}

/// Game `held.id` as stored now, from `held` (the revision before
/// `revision`, which left its first `kept` plies): its row and its moves
/// from ply `kept` on, in one statement (one snapshot), the first `kept`
/// plies being `held`'s; its rating changes only when it is over and
/// rated. The whole game when the row is at another revision than
/// `revision` (a later change may have taken back some of `held`'s plies)
/// or `held` has fewer than `kept` plies.
pub(super) async fn load_newer(
    tx: &PgTx,
    held: &WebGame,
    revision: i64,
    kept: usize,
) -> Result<Option<WebGame>, StoreError> {
    let id = held.id;
    if held.game.plies().len() < kept {
        return load_game(tx, id).await;
    }
    let Some((row, newer)) = game_and_moves(tx, id, kept).await? else {
        return Ok(None);
    };
    if row.revision != revision {
        return load_game(tx, id).await;
    }
    let mut moves = moves_from(held, 0);
    moves.truncate(kept);
    moves.extend(newer);
    let mut game = rebuild(id, row, &moves, None)?;
    if game.rated && game.end().is_some() {
        game.rating_changes = game_changes(tx, id).await?;
    }
    Ok(Some(game))
}

/// The games going on with a running clock whose side to move ran out of
/// time before `before_ms`, at most `limit` (the side to move as
/// [`crate::rows::TURNS_FILTER`] finds it; an online game's clock runs
/// once both seats are taken and the side to move has moved).
pub(super) async fn overdue_flags(
    client: &impl GenericClient,
    before_ms: i64,
    limit: usize,
) -> Result<Vec<i64>, StoreError> {
    query_all(
        client,
        "SELECT id FROM games
         WHERE result = '*' AND stop IS NULL AND resigned IS NULL
           AND clock_initial_ms IS NOT NULL AND turn_started_ms IS NOT NULL
           AND (mode <> 'online'
                OR (south_player IS NOT NULL AND north_player IS NOT NULL AND plies >= 2))
           AND turn_started_ms
               + CASE WHEN (right(start, 1) = 'S') = (plies % 2 = 0) THEN south_ms ELSE north_ms END
               < $1
         ORDER BY id LIMIT $2",
        &[&before_ms, &(limit as i64)],
        |r| r.try_get(0),
    )
    .await
}
