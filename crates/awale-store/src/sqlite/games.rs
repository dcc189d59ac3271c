//! The games, reviews, chat and nicknames ([`GameStore`]) in the games
//! file.

use rusqlite::{params, OptionalExtension};

use super::rows::{self, find_game, insert_game, list_games, load_game, query_all, write_state};
use super::Store;
use crate::error::StoreError;
use crate::interface::{GameStore, StoreFuture};
use crate::records::{ChatLine, LobbyGame, Page, Summary};
use crate::rows::{lobby_game, lobby_query, LOBBY_KINDS};
use awale_model::game::{PlayerId, WebGame};

impl GameStore for Store {
    // -------------------------------------------------------------- games --

    /// Stores new games, all or none, and gives them back with their ids.
    ///
    /// # Errors
    ///
    /// When a write fails; nothing is stored then.
    fn create(&self, mut games: Vec<WebGame>) -> StoreFuture<'_, Vec<WebGame>> {
        Box::pin(self.write(move |conn| {
            for game in &mut games {
                insert_game(conn, game)?;
            }
            Ok(games)
        }))
    }

    /// Stores `game`, played in `player`'s browser without a network, under
    /// the browser's `key`, once: when that player already uploaded a game
    /// with this key, nothing is written and that game's id is given
    /// back. The new game (`Ok(Ok(game))`) or the stored one's id
    /// (`Ok(Err(id))`).
    ///
    /// # Errors
    ///
    /// When a write fails; nothing is stored then.
    fn upload(
        &self,
        player: PlayerId,
        key: String,
        mut game: WebGame,
    ) -> StoreFuture<'_, Result<WebGame, i64>> {
        Box::pin(self.write(move |conn| {
            let stored: Option<i64> = conn
                .query_row(
                    "SELECT game_id FROM uploads WHERE player = ?1 AND key = ?2",
                    params![player.0, key],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = stored {
                return Ok(Err(id));
            }
            insert_game(conn, &mut game)?;
            conn.execute(
                "INSERT INTO uploads (player, key, game_id) VALUES (?1, ?2, ?3)",
                params![player.0, key, game.id],
            )?;
            Ok(Ok(game))
        }))
    }

    /// Writes `game` over its stored version: the moves from ply `from` on
    /// are replaced by the game's, and its state (seats, clock, redo list,
    /// end) is updated, in one transaction.
    ///
    /// # Errors
    ///
    /// When the write fails; the stored game is then unchanged.
    fn save(&self, game: WebGame, from: usize) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| write_state(conn, &game, from)))
    }

    /// Loads a game, or None when there is no game with this id.
    ///
    /// # Errors
    ///
    /// When reading fails or the stored moves do not replay.
    fn load(&self, id: i64) -> StoreFuture<'_, Option<WebGame>> {
        Box::pin(self.read(move |conn| load_game(conn, id)))
    }

    /// The store's id of the game whose public id is `public_id`, or None.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn find(&self, public_id: String) -> StoreFuture<'_, Option<i64>> {
        Box::pin(self.read(move |conn| find_game(conn, &public_id)))
    }

    /// The games `player` plays in (none without a player), newest first, `limit` at most, from `before` (a [`Page::next`]).
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn list(
        &self,
        player: Option<PlayerId>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> StoreFuture<'_, Page> {
        Box::pin(self.read(move |conn| list_games(conn, player.as_ref(), before, limit, false)))
    }

    /// The id of the game `player` changed last among those still going
    /// on (online games waiting for a second player left out).
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn current(&self, player: Option<PlayerId>) -> StoreFuture<'_, Option<i64>> {
        Box::pin(self.read(move |conn| {
            Ok(list_games(conn, player.as_ref(), None, 1, true)?
                .games
                .first()
                .map(|s| s.id))
        }))
    }

    /// The online games going on where it is `player`'s move, the longest
    /// waiting first, `limit` at most.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn turns(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<Summary>> {
        Box::pin(self.read(move |conn| rows::turns(conn, &player, limit)))
    }

    /// How many online games `player` made wait for an opponent now.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn open_challenges(&self, player: PlayerId) -> StoreFuture<'_, i64> {
        Box::pin(
            self.read(move |conn| {
                Ok(conn.query_row(
                    "SELECT (SELECT COUNT(*) FROM games WHERE south_player = ?1 AND north_player IS NULL
                             AND mode = 'online' AND result = '*' AND stop IS NULL)
                          + (SELECT COUNT(*) FROM games WHERE north_player = ?1 AND south_player IS NULL
                             AND mode = 'online' AND result = '*' AND stop IS NULL)",
                    [&player.0],
                    |r| r.get(0),
                )?)
            }),
        )
    }

    /// Online games going on: those waiting for a second player (public
    /// ones: a private invitation is nobody else's business until it is
    /// played), the newest `limit` of them, and those being played, the
    /// newest `limit` of them (each kind filtered before it is counted, and
    /// counted apart: many games in play never hide the challenges).
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn lobby(&self, limit: usize) -> StoreFuture<'_, Vec<LobbyGame>> {
        Box::pin(self.read(move |conn| {
            let mut games = Vec::new();
            for which in LOBBY_KINDS {
                let sql = lobby_query(which);
                games.extend(query_all(conn, &sql, [limit as i64], |r| lobby_game(r))?);
            }
            Ok(games)
        }))
    }

    /// Unfinished games with a clock, or online ones: their ids.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn timed_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.read_blocking(|conn| {
            query_all(
                conn,
                "SELECT id FROM games WHERE result = '*' AND stop IS NULL
                 AND (clock_initial_ms IS NOT NULL OR mode = 'online')",
                [],
                |r| r.get(0),
            )
        })
    }

    // ------------------------------------------------- server's heartbeat --

    /// Notes that the server is up at `now`.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn alive(&self, now: i64) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                     ON CONFLICT(key) DO UPDATE SET value = ?1",
                [now],
            )?;
            Ok(())
        }))
    }

    /// Gives back to the unfinished timed games the time the server was
    /// down (from its last heartbeat to `now`), so no clock runs while
    /// nobody can move. Returns that time.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn resume_clocks_blocking(&self, now: i64) -> Result<i64, StoreError> {
        self.write_blocking(move |conn| {
            let alive: Option<i64> = conn
                .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                    r.get(0)
                })
                .optional()?;
            let down = alive.map_or(0, |a| (now - a).max(0));
            if down > 0 {
                conn.execute(
                    "UPDATE games SET turn_started_ms = turn_started_ms + ?1
                     WHERE result = '*' AND stop IS NULL AND turn_started_ms IS NOT NULL",
                    [down],
                )?;
            }
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = ?1",
                [now],
            )?;
            Ok(down)
        })
    }

    // ------------------------------------------------------------ reviews --

    /// Stores the review of game `id` as it stood at `plies` moves.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn save_review(&self, id: i64, plies: usize, body: String) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            conn.execute(
                "INSERT INTO reviews (game_id, plies, body) VALUES (?1, ?2, ?3)
                     ON CONFLICT(game_id) DO UPDATE SET plies = ?2, body = ?3",
                params![id, plies as i64, body],
            )?;
            Ok(())
        }))
    }

    /// The stored review of game `id`: the number of moves it covers and
    /// its JSON.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn review(&self, id: i64) -> StoreFuture<'_, Option<(usize, String)>> {
        Box::pin(self.read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT plies, body FROM reviews WHERE game_id = ?1",
                    [id],
                    |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)),
                )
                .optional()?)
        }))
    }

    // --------------------------------------------------------------- chat --

    /// Stores a chat message and gives it back with its number; a game
    /// keeps its last [`CHAT_KEPT`] messages, older ones are dropped.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn add_chat(&self, game: i64, mut line: ChatLine) -> StoreFuture<'_, ChatLine> {
        Box::pin(self.write(move |conn| {
            line.id = rows::add_chat_line(
                conn,
                crate::rows::ADD_CHAT_LINE,
                params![
                    game,
                    line.room,
                    line.at_ms,
                    line.side.map(String::from),
                    line.name,
                    line.text,
                    line.guest
                ],
                crate::rows::KEEP_LAST_CHAT,
                game,
            )?;
            Ok(line)
        }))
    }

    /// The last `limit` chat messages of game `id`, oldest first.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn chat(&self, id: i64, limit: usize) -> StoreFuture<'_, Vec<ChatLine>> {
        Box::pin(self.read(move |conn| {
            let values = params![id, limit as i64];
            let mut lines = query_all(conn, crate::rows::CHAT_LINES, values, |r| {
                crate::rows::chat_line(r)
            })?;
            lines.reverse();
            Ok(lines)
        }))
    }

    // ------------------------------------------------------------ players --

    /// The nickname of `player`, if they have one.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn player_name(&self, player: PlayerId) -> StoreFuture<'_, Option<String>> {
        Box::pin(self.read(move |conn| {
            Ok(conn
                .query_row("SELECT name FROM players WHERE id = ?1", [&player.0], |r| {
                    r.get(0)
                })
                .optional()?)
        }))
    }

    /// Sets the nickname of `player` (creating the player), and in the
    /// seats of their unfinished games.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn set_player_name(&self, player: PlayerId, name: String, now: i64) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            conn.execute(
                "INSERT INTO players (id, name, created_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT(id) DO UPDATE SET name = ?2",
                params![player.0, name, now],
            )?;
            conn.execute(
                "UPDATE games SET south_name = ?2 WHERE south_player = ?1 AND result = '*'",
                params![player.0, name],
            )?;
            conn.execute(
                "UPDATE games SET north_name = ?2 WHERE north_player = ?1 AND result = '*'",
                params![player.0, name],
            )?;
            Ok(())
        }))
    }
}
