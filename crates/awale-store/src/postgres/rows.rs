//! A game as PostgreSQL rows: the same columns as the games file's
//! (`../rows.rs`, whose [`rebuild`] replays and checks every move), with
//! the `revision` every change is fenced by.

use deadpool_postgres::GenericClient;
use tokio_postgres::types::{FromSql, ToSql};

use crate::cells::{dollar_params, pg_values, Value};
use crate::ratings::{changes_of_sides, side_change, GAME_CHANGES};
use crate::rows::{
    game_row, move_row, moves_from, rebuild, summary, NewRow, Row, State, GAME_COLUMNS, MOVES,
    SET_STATE, SUMMARY_COLUMNS,
};
use crate::{Page, StoreError, Summary};
use awale_model::game::{PlayerId, WebGame};
use awale_model::rating::RatingChange;

/// Statement `sql` prepared on `client`'s connection, once: the pool keeps
/// each connection's prepared statements, so a statement run again costs
/// one round trip and no new plan.
pub(super) async fn cached(
    client: &impl GenericClient,
    sql: &str,
) -> Result<tokio_postgres::Statement, StoreError> {
    Ok(client.prepare_cached(sql).await?)
}

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

/// Stores a new game: its id and revision (0) are set.
pub(super) async fn insert_game(
    tx: &impl GenericClient,
    game: &mut WebGame,
) -> Result<(), StoreError> {
    let new = NewRow::of(game)?;
    let add = cached(tx, &dollar_params(crate::rows::ADD_GAME)).await?;
    let row = tx.query_one(&add, &pg_values(new.values())).await?;
    game.id = row.try_get(0)?;
    game.revision = 0;
    write_state(tx, game, 0, None).await
}

/// Writes `game`'s moves from ply `from` on and its state. With
/// `fence`, only over that stored revision ([`StoreError::Stale`]
/// otherwise), and the revision goes one up.
pub(super) async fn write_state(
    tx: &impl GenericClient,
    game: &WebGame,
    from: usize,
    fence: Option<i64>,
) -> Result<(), StoreError> {
    let s = State::of(game);
    // The row first: its lock orders the writers of one game, and the
    // fence is checked before anything else is written.
    let update = cached(
        tx,
        &dollar_params(&format!(
            "UPDATE games SET {SET_STATE},
                revision = revision + (CASE WHEN ?26::BIGINT IS NULL THEN 0 ELSE 1 END)
             WHERE id = ?1 AND (?26::BIGINT IS NULL OR revision = ?26::BIGINT)"
        )),
    )
    .await?;
    let changed = tx
        .execute(
            &update,
            &pg_values(s.values().into_iter().chain([&fence as &dyn Value])),
        )
        .await?;
    if changed != 1 {
        let exists = value_opt(tx, "SELECT revision FROM games WHERE id = $1", &[&game.id]).await?;
        return Err(match exists {
            Some(stored) => StoreError::Stale {
                id: game.id,
                stored,
            },
            None => StoreError::Corrupt {
                id: game.id,
                message: "no such game to update".into(),
            },
        });
    }
    // The moves taken back (if any) and the new ones: sent together, one
    // round trip (the server runs them in order).
    let delete = cached(tx, "DELETE FROM moves WHERE game_id = $1 AND ply >= $2").await?;
    let from_ply = from as i64;
    let delete_params: [&(dyn ToSql + Sync); 2] = [&game.id, &from_ply];
    let deleted = tx.execute(&delete, &delete_params);
    let moves = moves_from(game, from);
    if moves.is_empty() {
        deleted.await?;
        return Ok(());
    }
    let plies: Vec<i64> = moves.iter().map(|m| m.0).collect();
    let letters: Vec<&str> = moves.iter().map(|m| m.1.as_str()).collect();
    let captured: Vec<i64> = moves.iter().map(|m| m.2).collect();
    // One statement for all the moves (a whole game on creation or
    // import): arrays unnested.
    let insert = cached(
        tx,
        "INSERT INTO moves (game_id, ply, letter, captured)
         SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[], $4::BIGINT[])",
    )
    .await?;
    let insert_params: [&(dyn ToSql + Sync); 4] = [&game.id, &plies, &letters, &captured];
    let inserted = tx.execute(&insert, &insert_params);
    let (deleted, inserted) = futures_util::future::join(deleted, inserted).await;
    deleted?;
    inserted?;
    Ok(())
}

/// Game `id` with its revision, or None.
pub(super) async fn load_game(
    client: &impl GenericClient,
    id: i64,
) -> Result<Option<WebGame>, StoreError> {
    let Some(row) = game_row_of(client, id).await? else {
        return Ok(None);
    };
    let moves = query_all(client, &dollar_params(MOVES), &[&id], move_row).await?;
    let changes = rating_changes(client, id).await?;
    rebuild(id, row, &moves, changes).map(Some)
}

/// Game `id`'s row with its revision, or None.
pub(super) async fn game_row_of(
    client: &impl GenericClient,
    id: i64,
) -> Result<Option<Row>, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS}, revision FROM games WHERE id = $1");
    let statement = cached(client, &sql).await?;
    let Some(r) = client.query_opt(&statement, &[&id]).await? else {
        return Ok(None);
    };
    Ok(Some(Row {
        revision: r.try_get(30)?,
        ..game_row(&r)?
    }))
}

/// Game `held.id` as stored now, from `held` (the revision before
/// `revision`, which left its first `kept` plies): its row and its moves
/// from ply `kept` on, in one statement (one snapshot), the first `kept`
/// plies being `held`'s; its rating changes only when it is over and
/// rated. The whole game when the row is at another revision than
/// `revision` (a later change may have taken back some of `held`'s plies)
/// or `held` has fewer than `kept` plies.
pub(super) async fn load_newer(
    client: &impl GenericClient,
    held: &WebGame,
    revision: i64,
    kept: usize,
) -> Result<Option<WebGame>, StoreError> {
    let id = held.id;
    if held.game.plies().len() < kept {
        return load_game(client, id).await;
    }
    let sql = format!(
        "SELECT {GAME_COLUMNS}, revision,
            ARRAY(SELECT ply FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply),
            ARRAY(SELECT letter FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply),
            ARRAY(SELECT captured FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply)
         FROM games WHERE id = $1"
    );
    let statement = cached(client, &sql).await?;
    let Some(r) = client.query_opt(&statement, &[&id, &(kept as i64)]).await? else {
        return Ok(None);
    };
    let row = Row {
        revision: r.try_get(30)?,
        ..game_row(&r)?
    };
    if row.revision != revision {
        return load_game(client, id).await;
    }
    let plies: Vec<i64> = r.try_get(31)?;
    let letters: Vec<String> = r.try_get(32)?;
    let captured: Vec<i64> = r.try_get(33)?;
    let mut moves = moves_from(held, 0);
    moves.truncate(kept);
    moves.extend(
        plies
            .into_iter()
            .zip(letters)
            .zip(captured)
            .map(|((p, l), c)| (p, l, c)),
    );
    let mut game = rebuild(id, row, &moves, None)?;
    if game.rated && game.end().is_some() {
        game.rating_changes = rating_changes(client, id).await?;
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

/// The changes game `id` made to its players' ratings, if it was rated
/// (as the games file's `ratings::game_changes`).
pub(super) async fn rating_changes(
    client: &impl GenericClient,
    id: i64,
) -> Result<Option<[RatingChange; 2]>, StoreError> {
    let sides = query_all(client, &dollar_params(GAME_CHANGES), &[&id], side_change).await?;
    changes_of_sides(id, sides)
}

/// As the games file's `list_games`: `player`'s games, newest first.
pub(super) async fn list_games(
    client: &impl GenericClient,
    player: Option<&PlayerId>,
    before: Option<(i64, i64)>,
    limit: usize,
    unfinished: bool,
) -> Result<Page, StoreError> {
    let Some(player) = player else {
        return Ok(crate::rows::page_of(Vec::new(), limit));
    };
    let (t, i) = before.unwrap_or((i64::MAX, i64::MAX));
    let sql = dollar_params(&crate::rows::list_games_query(unfinished, true));
    let games = query_all(
        client,
        &sql,
        &[&player.0, &t, &i, &(limit as i64 + 1)],
        summary,
    )
    .await?;
    Ok(crate::rows::page_of(games, limit))
}

/// The games where it is `player`'s move, the longest waiting first (the
/// condition is the games file's, [`crate::rows::TURNS_FILTER`]).
pub(super) async fn turns(
    client: &impl GenericClient,
    player: &PlayerId,
    limit: usize,
) -> Result<Vec<Summary>, StoreError> {
    let filter = crate::rows::TURNS_FILTER
        .replace("{p}", "$1")
        .replace("{last}", "right(start, 1)");
    // The summary's columns name the player as `?1`.
    let sql = dollar_params(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM games WHERE {filter} ORDER BY updated_ms, id LIMIT $2"
    ));
    query_all(client, &sql, &[&player.0, &(limit as i64)], summary).await
}
