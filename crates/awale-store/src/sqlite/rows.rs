//! A game as rows of the games file: the shared statements and records of
//! `crate::rows` run on a SQLite connection.

use rusqlite::{params, params_from_iter, Connection, OptionalExtension};

use crate::error::StoreError;
use crate::ratings::{changes_of_sides, side_change, GAME_CHANGES};
use crate::records::{Page, Summary, CHAT_KEPT};
use crate::rows::{
    game_row, list_games_query, move_row, moves_from, page_of, rebuild, summary, NewRow, State,
    ADD_GAME, GAME_COLUMNS, MOVES, SET_STATE, SUMMARY_COLUMNS, TURNS_FILTER,
};
use awale_model::game::{PlayerId, WebGame};
use awale_model::rating::RatingChange;

pub(crate) fn insert_game(conn: &Connection, game: &mut WebGame) -> Result<(), StoreError> {
    let row = NewRow::of(game)?;
    game.id = conn
        .prepare_cached(ADD_GAME)?
        .query_row(params_from_iter(row.values()), |r| r.get(0))?;
    write_state(conn, game, 0)
}

pub(crate) fn write_state(
    conn: &Connection,
    game: &WebGame,
    from: usize,
) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![game.id, from as i64],
    )?;
    {
        let mut insert = conn.prepare_cached(
            "INSERT INTO moves (game_id, ply, letter, captured) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (ply, letter, captured) in moves_from(game, from) {
            insert.execute(params![game.id, ply, letter, captured])?;
        }
    }
    let changed = conn
        .prepare_cached(&format!("UPDATE games SET {SET_STATE} WHERE id = ?1"))?
        .execute(params_from_iter(State::of(game).values()))?;
    if changed != 1 {
        return Err(StoreError::Corrupt {
            id: game.id,
            message: "no such game to update".into(),
        });
    }
    Ok(())
}

pub(crate) fn load_game(conn: &Connection, id: i64) -> Result<Option<WebGame>, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
    let row = query_opt(conn, &sql, [id], |r| game_row(r))?;
    let Some(row) = row else { return Ok(None) };
    let moves = query_all(conn, MOVES, [id], |r| move_row(r))?;
    let changes = game_changes(conn, id)?;
    rebuild(id, row, &moves, changes).map(Some)
}
/// The games of `player` (by their seats), newest first: two index scans
/// merged, so a long list of other players' games costs nothing. Nobody's
/// games are listed to a request without a player.
pub(crate) fn list_games(
    conn: &Connection,
    player: Option<&PlayerId>,
    before: Option<(i64, i64)>,
    limit: usize,
    unfinished: bool,
) -> Result<Page, StoreError> {
    let Some(player) = player else {
        return Ok(page_of(Vec::new(), limit));
    };
    let (t, i) = before.unwrap_or((i64::MAX, i64::MAX));
    let sql = list_games_query(unfinished, false);
    let who = player.0.as_str();
    let games = query_all(conn, &sql, params![who, t, i, limit as i64 + 1], |r| {
        summary(r)
    })?;
    Ok(page_of(games, limit))
}

/// Adds a line to a chat room that keeps its last [`CHAT_KEPT`] lines:
/// `add` (which gives the line's number) with `params`, then `keep_last`
/// of room `room` (a game's chat, [`ADD_CHAT_LINE`] and
/// [`KEEP_LAST_CHAT`], or a tournament's). The line's number.
pub(crate) fn add_chat_line(
    conn: &Connection,
    add: &str,
    params: impl rusqlite::Params,
    keep_last: &str,
    room: i64,
) -> Result<i64, StoreError> {
    let id = conn.prepare_cached(add)?.query_row(params, |r| r.get(0))?;
    conn.prepare_cached(keep_last)?
        .execute(params![room, CHAT_KEPT as i64 - 1])?;
    Ok(id)
}

/// The games where it is `player`'s move, the longest waiting first, at
/// most `limit`.
pub(crate) fn turns(
    conn: &Connection,
    player: &PlayerId,
    limit: usize,
) -> Result<Vec<Summary>, StoreError> {
    let filter = TURNS_FILTER
        .replace("{p}", "?1")
        .replace("{last}", "substr(start, -1)");
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS} FROM games WHERE {filter} ORDER BY updated_ms, id LIMIT ?2"
    );
    query_all(conn, &sql, params![player.0, limit as i64], |r| summary(r))
}

/// The one row `sql` finds with `params`, read by `decode`, or None (as
/// tokio-postgres's `query_opt`), the statement kept prepared.
pub(crate) fn query_opt<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    decode: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, StoreError> {
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params, decode)
        .optional()?)
}

/// The rows `sql` finds with `params`, each read by `decode` (as
/// tokio-postgres's `query`), the statement kept prepared.
pub(crate) fn query_all<T, E>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    mut decode: impl FnMut(&rusqlite::Row<'_>) -> Result<T, E>,
) -> Result<Vec<T>, StoreError>
where
    StoreError: From<E>,
{
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(decode(r)?);
    }
    Ok(out)
}

/// The store's id of the game whose public id is `public_id`.
pub(crate) fn find_game(conn: &Connection, public_id: &str) -> Result<Option<i64>, StoreError> {
    query_opt(
        conn,
        "SELECT id FROM games WHERE public_id = ?1",
        [public_id],
        |r| r.get(0),
    )
}

/// The changes game `id` made, if it was rated.
pub(crate) fn game_changes(
    conn: &Connection,
    id: i64,
) -> Result<Option<[RatingChange; 2]>, StoreError> {
    changes_of_sides(id, query_all(conn, GAME_CHANGES, [id], |r| side_change(r))?)
}
