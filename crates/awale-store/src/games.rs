//! The games, reviews, chat and nicknames ([`GameStore`]) written once for
//! both stores: a game written as its row and moves (`rows.rs`), read
//! back and replayed; what only one store does is its [`Backend`]'s
//! (`GameHooks`).

use std::future::Future;
use std::sync::Arc;

use crate::cells::{Cells, Value};
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::interface::{GameStore, Nickname, Notice};
use crate::rows::{
    chat_line, current_query, game_and_moves_query, game_row, list_games_query, lobby_game,
    lobby_query, moves_from, moves_of_text, page_of, rebuild, summary, NewRow, Row, State,
    ADD_CHAT_LINE, ADD_GAME, CHAT_LINES, KEEP_LAST_CHAT, LOBBY_KINDS, SET_STATE, SUMMARY_COLUMNS,
    TURNS_FILTER,
};
use crate::seeks::SeekStore;
use crate::tx::{Backend, Tx};
use awale_model::game::{PlayerId, WebGame};
use awale_model::lists::{ChatLine, LobbyGame, Page, Summary};

/// What only one store does with games (the others' defaults: a store
/// only this process writes).
pub(crate) trait GameHooks {
    /// As [`GameStore::resume_clocks_blocking`].
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn resume_clocks_here(&self, now: i64) -> Result<i64, StoreError>;

    /// As [`GameStore::revision`].
    fn stored_revision(&self, id: i64) -> StoreFuture<'_, Option<i64>> {
        let _ = id;
        Box::pin(async { Ok(None) })
    }

    /// As [`GameStore::load_newer`]: None to read the whole game.
    fn newer(
        &self,
        held: WebGame,
        revision: i64,
        kept: usize,
    ) -> Option<StoreFuture<'_, Option<WebGame>>> {
        let _ = (held, revision, kept);
        None
    }

    /// As [`GameStore::overdue_flags`].
    fn overdue(&self, before_ms: i64, limit: usize) -> StoreFuture<'_, Vec<i64>> {
        let _ = (before_ms, limit);
        Box::pin(async { Ok(Vec::new()) })
    }

    /// As [`GameStore::seek_store`].
    fn seeks(&self) -> Option<Arc<dyn SeekStore>> {
        None
    }

    /// As [`GameStore::save`] and [`GameStore::save_seats`]: in a
    /// transaction of its own, unless the store gathers the changes saved
    /// at one moment into one.
    fn save_change(&self, game: WebGame, change: Change) -> StoreFuture<'_, ()>
    where
        Self: Backend + Sized,
    {
        save_alone(self, game, change)
    }

    /// As [`GameStore::notices`].
    fn heard(&self) -> Option<tokio::sync::broadcast::Receiver<Notice>> {
        None
    }
}

/// Stores a new game: its id and revision (0) are set. A game made
/// without moves writes none (nothing stored to take back either: a
/// round trip saved in PostgreSQL).
pub(crate) async fn insert_game<X: Tx>(tx: &X, game: &mut WebGame) -> Result<(), StoreError> {
    let new = NewRow::of(game)?;
    game.id = tx.value(ADD_GAME, &new.values()).await?;
    game.revision = 0;
    write_row(tx, game, None).await?;
    let moves = moves_from(game, 0);
    if moves.is_empty() {
        return Ok(());
    }
    tx.replace_moves(game.id, 0, moves).await
}

/// Writes `game`'s state and its moves from ply `from` on. With `fence`
/// (a store several processes share), only over that stored revision
/// ([`StoreError::Stale`] otherwise), and the revision goes one up.
pub(crate) async fn write_state<X: Tx>(
    tx: &X,
    game: &WebGame,
    from: usize,
    fence: Option<i64>,
) -> Result<(), StoreError> {
    write_row(tx, game, fence).await?;
    tx.replace_moves(game.id, from, moves_from(game, from))
        .await
}

/// What a change of a game writes besides its row.
pub(crate) enum Change {
    /// Its moves from this ply on ([`GameStore::save`]).
    Moves { from: usize },
    /// Its seats, with the name of the player seated if given
    /// ([`GameStore::save_seats`]); the moves are not touched.
    Seats { nickname: Option<Nickname> },
}

/// A change's work in `tx`: `game`'s state (fenced by its revision where
/// several processes share the store) with what `change` names, then its
/// notice, only once written.
pub(crate) async fn write_change<X: Tx>(
    tx: &X,
    game: &WebGame,
    change: &Change,
) -> Result<(), StoreError> {
    let fence = X::POSTGRES.then_some(game.revision);
    let kept = match change {
        Change::Moves { from } => {
            write_state(tx, game, *from, fence).await?;
            *from
        }
        Change::Seats { nickname } => {
            // The fenced row first: a seat refused as stale writes no
            // name either, and leaves nothing written in a transaction it
            // shares with other games' changes.
            write_row(tx, game, fence).await?;
            write_nickname_opt(tx, nickname.as_ref()).await?;
            game.game.plies().len()
        }
    };
    // The other processes apply what it wrote without a read: a move, as
    // a seat taken (the maker's process hears each game's join).
    let notice = match X::POSTGRES {
        true => Notice::with_change(game, game.revision + 1, kept),
        false => Notice::of(game, game.revision + 1, kept),
    };
    tx.announce(notice).await
}

/// [`write_change`] in a transaction of its own.
pub(crate) fn save_alone<S: Backend>(
    store: &S,
    game: WebGame,
    change: Change,
) -> StoreFuture<'_, ()> {
    store.write(move |tx| boxed(async move { write_change(tx, &game, &change).await }))
}

/// Writes `game`'s state (its row, not its moves), fenced as
/// [`write_state`].
pub(crate) async fn write_row<X: Tx>(
    tx: &X,
    game: &WebGame,
    fence: Option<i64>,
) -> Result<(), StoreError> {
    let state = State::of(game);
    // The row first: its lock orders the writers of one game, and the
    // fence is checked before anything else is written.
    let (sql, fenced) = if X::POSTGRES {
        let sql = format!(
            "UPDATE games SET {SET_STATE},
                revision = revision + (CASE WHEN ?26::BIGINT IS NULL THEN 0 ELSE 1 END)
             WHERE id = ?1 AND (?26::BIGINT IS NULL OR revision = ?26::BIGINT)"
        );
        (sql, Some(&fence as &dyn Value))
    } else {
        (format!("UPDATE games SET {SET_STATE} WHERE id = ?1"), None)
    };
    let values: Vec<&dyn Value> = state.values().into_iter().chain(fenced).collect();
    if tx.execute(&sql, &values).await? != 1 {
        let stored = match fence {
            Some(_) => {
                tx.value_opt("SELECT revision FROM games WHERE id = ?1", &[&game.id])
                    .await?
            }
            None => None,
        };
        return Err(match stored {
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
    Ok(())
}

/// The player's nickname, made or changed.
const NAME_PLAYER: &str = "INSERT INTO players (id, name, created_ms) VALUES (?1, ?2, ?3)
     ON CONFLICT (id) DO UPDATE SET name = ?2";

/// The names of a player's seats in their games going on (the games held
/// in memory keep theirs), a statement a side: each found through its
/// side's player index (one statement for both sides, an `OR`, walked
/// every game going through `games_online` where the table's statistics
/// were young: 0.7 ms of PostgreSQL a seat with 1,000 games going). A
/// seat that has the name already is not written again.
const NAME_SOUTH_SEATS: &str = "UPDATE games SET south_name = ?2
     WHERE south_player = ?1 AND result = '*' AND (south_name IS NULL OR south_name <> ?2)";
const NAME_NORTH_SEATS: &str = "UPDATE games SET north_name = ?2
     WHERE north_player = ?1 AND result = '*' AND (north_name IS NULL OR north_name <> ?2)";

/// How many games `?1` made are waiting for an opponent, each side
/// counted through its partial index (`waiting_games.sql`).
const OPEN_CHALLENGES: &str = "SELECT (SELECT COUNT(*) FROM games WHERE south_player = ?1
        AND north_player IS NULL AND mode = 'online' AND result = '*' AND stop IS NULL)
     + (SELECT COUNT(*) FROM games WHERE north_player = ?1
        AND south_player IS NULL AND mode = 'online' AND result = '*' AND stop IS NULL)";

/// Writes `nickname` as its player's, and their seats' in their games
/// going on: the statements sent at once (one round trip in PostgreSQL,
/// the server running them in order).
pub(crate) async fn write_nickname<X: Tx>(tx: &X, nickname: &Nickname) -> Result<(), StoreError> {
    let values: [&dyn Value; 3] = [&nickname.player.0, &nickname.name, &nickname.now];
    let (named, south, north) = futures_util::future::join3(
        tx.execute(NAME_PLAYER, &values),
        tx.execute(NAME_SOUTH_SEATS, &values[..2]),
        tx.execute(NAME_NORTH_SEATS, &values[..2]),
    )
    .await;
    named?;
    south?;
    north?;
    Ok(())
}

/// [`write_nickname`] when there is a nickname to write.
async fn write_nickname_opt<X: Tx>(tx: &X, nickname: Option<&Nickname>) -> Result<(), StoreError> {
    match nickname {
        Some(nickname) => write_nickname(tx, nickname).await,
        None => Ok(()),
    }
}

/// Game `id`'s row with its revision (0 in the games file) and its moves
/// from ply `from` on, or None: one statement, so one snapshot in either
/// store (a row and its moves read by two statements could be of two
/// revisions, a move stored between the two reads: its moves and not its
/// row's clocks and result).
pub(crate) async fn game_and_moves<X: Tx>(
    tx: &X,
    id: i64,
    from: usize,
) -> Result<Option<(Row, Vec<(i64, String, i64)>)>, StoreError> {
    let found = read_game(tx, &id, false, from).await?;
    Ok(found.map(|(_, row, moves)| (row, moves)))
}

/// A game's id, row and moves (ply, letter, captured) as
/// [`game_and_moves`] reads them.
type GameRead = (i64, Row, Vec<(i64, String, i64)>);

/// [`game_and_moves`] of the game `key` names, its id or (with
/// `by_public_id`) its public id; with its id.
async fn read_game<X: Tx>(
    tx: &X,
    key: &dyn Value,
    by_public_id: bool,
    from: usize,
) -> Result<Option<GameRead>, StoreError> {
    let sql = game_and_moves_query(X::POSTGRES, by_public_id);
    let found = tx
        .query_opt(sql, &[key, &(from as i64)], |r| {
            let row = Row {
                revision: r.cell(30)?,
                ..game_row(r)?
            };
            Ok((r.cell::<i64>(32)?, row, r.cell::<Option<String>>(31)?))
        })
        .await?;
    let Some((id, row, moves)) = found else {
        return Ok(None);
    };
    Ok(Some((id, row, moves_of_text(id, moves.as_deref())?)))
}

/// Game `id`, its moves replayed and checked, or None.
pub(crate) async fn load_game<X: Tx>(tx: &X, id: i64) -> Result<Option<WebGame>, StoreError> {
    whole_game(tx, read_game(tx, &id, false, 0).await?).await
}

/// The game whose public id is `public_id`, as [`load_game`].
async fn load_public_game<X: Tx>(tx: &X, public_id: &str) -> Result<Option<WebGame>, StoreError> {
    whole_game(tx, read_game(tx, &public_id, true, 0).await?).await
}

/// The game of a row read with all its moves, rebuilt, with its rating
/// changes (only a rated game that is over has some: no read else).
async fn whole_game<X: Tx>(tx: &X, read: Option<GameRead>) -> Result<Option<WebGame>, StoreError> {
    let Some((id, row, moves)) = read else {
        return Ok(None);
    };
    let mut game = rebuild(id, row, &moves, None)?;
    if game.rated && game.end().is_some() {
        game.rating_changes = crate::ratings::game_changes(tx, id).await?;
    }
    Ok(Some(game))
}

/// The games of `player` (by their seats), newest first: two index scans
/// merged, so a long list of other players' games costs nothing. Nobody's
/// games are listed to a request without a player.
async fn list_games<X: Tx>(
    tx: &X,
    player: Option<PlayerId>,
    before: Option<(i64, i64)>,
    limit: usize,
) -> Result<Page, StoreError> {
    let Some(player) = player else {
        return Ok(page_of(Vec::new(), limit));
    };
    let (t, i) = before.unwrap_or((i64::MAX, i64::MAX));
    let sql = list_games_query(X::POSTGRES);
    let values: [&dyn Value; 4] = [&player.0, &t, &i, &(limit as i64 + 1)];
    let games = tx.query(&sql, &values, |r| summary(r)).await?;
    Ok(page_of(games, limit))
}

/// Runs `work`'s reads on `store` (a shorter name for the impl below).
fn reads<S, T, W>(store: &S, work: W) -> StoreFuture<'_, T>
where
    S: Backend,
    T: Send + 'static,
    W: for<'a> FnOnce(&'a S::Tx) -> StoreFuture<'a, T> + Send + 'static,
{
    store.read(work)
}

/// One value a statement without parameters reads, boxed.
fn boxed<'a, T>(
    work: impl Future<Output = Result<T, StoreError>> + Send + 'a,
) -> StoreFuture<'a, T> {
    Box::pin(work)
}

impl<S: Backend + GameHooks> GameStore for S {
    fn create(&self, games: Vec<WebGame>) -> StoreFuture<'_, Vec<WebGame>> {
        self.create_named(games, None)
    }

    fn create_named(
        &self,
        mut games: Vec<WebGame>,
        nickname: Option<Nickname>,
    ) -> StoreFuture<'_, Vec<WebGame>> {
        self.write(move |tx| {
            boxed(async move {
                // The name's statements go first, the first game's with
                // them (one round trip in PostgreSQL). A new game's row is
                // nobody else's yet: no order of locks to keep with a join
                // (whose fenced row goes before the name's).
                let made = async {
                    for game in &mut games {
                        insert_game(tx, game).await?;
                        tx.announce(Notice::of(game, 0, 0)).await?;
                    }
                    Ok::<_, StoreError>(())
                };
                let (named, made) =
                    futures_util::future::join(write_nickname_opt(tx, nickname.as_ref()), made)
                        .await;
                named?;
                made?;
                Ok(games)
            })
        })
    }

    fn upload(
        &self,
        player: PlayerId,
        key: String,
        mut game: WebGame,
    ) -> StoreFuture<'_, Result<WebGame, i64>> {
        self.write(move |tx| {
            boxed(async move {
                // Two processes given the same upload at once: one stores it.
                tx.lock(0, &format!("{} {key}", player.0)).await?;
                let values: [&dyn Value; 2] = [&player.0, &key];
                let stored = tx
                    .value_opt(
                        "SELECT game_id FROM uploads WHERE player = ?1 AND key = ?2",
                        &values,
                    )
                    .await?;
                if let Some(id) = stored {
                    return Ok(Err(id));
                }
                insert_game(tx, &mut game).await?;
                let values: [&dyn Value; 3] = [&player.0, &key, &game.id];
                tx.execute(
                    "INSERT INTO uploads (player, key, game_id) VALUES (?1, ?2, ?3)",
                    &values,
                )
                .await?;
                tx.announce(Notice::of(&game, 0, 0)).await?;
                Ok(Ok(game))
            })
        })
    }

    fn save(&self, game: WebGame, from: usize) -> StoreFuture<'_, ()> {
        self.save_change(game, Change::Moves { from })
    }

    fn save_seats(&self, game: WebGame, nickname: Option<Nickname>) -> StoreFuture<'_, ()> {
        self.save_change(game, Change::Seats { nickname })
    }

    fn load(&self, id: i64) -> StoreFuture<'_, Option<WebGame>> {
        reads(self, move |tx| boxed(load_game(tx, id)))
    }

    fn load_public(&self, public_id: String) -> StoreFuture<'_, Option<WebGame>> {
        reads(self, move |tx| {
            boxed(async move { load_public_game(tx, &public_id).await })
        })
    }

    fn find(&self, public_id: String) -> StoreFuture<'_, Option<i64>> {
        reads(self, move |tx| {
            boxed(async move {
                tx.value_opt("SELECT id FROM games WHERE public_id = ?1", &[&public_id])
                    .await
            })
        })
    }

    fn list(
        &self,
        player: Option<PlayerId>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> StoreFuture<'_, Page> {
        reads(self, move |tx| boxed(list_games(tx, player, before, limit)))
    }

    fn current(&self, player: Option<PlayerId>) -> StoreFuture<'_, Option<i64>> {
        reads(self, move |tx| {
            boxed(async move {
                let Some(player) = player else {
                    return Ok(None);
                };
                tx.value_opt(&current_query(S::Tx::POSTGRES), &[&player.0])
                    .await
            })
        })
    }

    fn lobby(&self, limit: usize) -> StoreFuture<'_, Vec<LobbyGame>> {
        reads(self, move |tx| {
            boxed(async move {
                // Both kinds in one statement, each with its own limit.
                let [waiting, playing] = LOBBY_KINDS.map(lobby_query);
                let sql = format!(
                    "SELECT * FROM ({waiting}) AS waiting
                     UNION ALL SELECT * FROM ({playing}) AS playing"
                );
                tx.query(&sql, &[&(limit as i64)], |r| lobby_game(r)).await
            })
        })
    }

    fn timed_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.read_here(|tx| {
            boxed(tx.query(
                "SELECT id FROM games WHERE result = '*' AND stop IS NULL
                 AND (clock_initial_ms IS NOT NULL OR mode = 'online')",
                &[],
                |r| r.cell(0),
            ))
        })
    }

    fn alive(&self, now: i64) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            boxed(async move {
                // Several processes: the latest beat of any, never set back.
                let value = if S::Tx::POSTGRES {
                    "GREATEST(meta.value, ?1)"
                } else {
                    "?1"
                };
                let sql = format!(
                    "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                     ON CONFLICT (key) DO UPDATE SET value = {value}"
                );
                tx.execute(&sql, &[&now]).await?;
                Ok(())
            })
        })
    }

    fn resume_clocks_blocking(&self, now: i64) -> Result<i64, StoreError> {
        self.resume_clocks_here(now)
    }

    fn save_review(&self, id: i64, plies: usize, body: String) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            boxed(async move {
                let values: [&dyn Value; 3] = [&id, &(plies as i64), &body];
                tx.execute(
                    "INSERT INTO reviews (game_id, plies, body) VALUES (?1, ?2, ?3)
                     ON CONFLICT (game_id) DO UPDATE SET plies = ?2, body = ?3",
                    &values,
                )
                .await?;
                Ok(())
            })
        })
    }

    fn review(&self, id: i64) -> StoreFuture<'_, Option<(usize, String)>> {
        reads(self, move |tx| {
            boxed(async move {
                let sql = "SELECT plies, body FROM reviews WHERE game_id = ?1";
                tx.query_opt(sql, &[&id], |r| {
                    Ok((r.cell::<i64>(0)? as usize, r.cell(1)?))
                })
                .await
            })
        })
    }

    fn add_chat(&self, game: i64, mut line: ChatLine) -> StoreFuture<'_, ChatLine> {
        self.write(move |tx| {
            boxed(async move {
                let side = line.side.map(String::from);
                let guest = line.guest.map(i64::from);
                let values: [&dyn Value; 7] = [
                    &game,
                    &line.room,
                    &line.at_ms,
                    &side,
                    &line.name,
                    &line.text,
                    &guest,
                ];
                let notice = |line| Notice::Chat { game, line };
                line.id = crate::rows::add_chat_line(
                    tx,
                    ADD_CHAT_LINE,
                    &values,
                    KEEP_LAST_CHAT,
                    game,
                    notice,
                )
                .await?;
                Ok(line)
            })
        })
    }

    fn chat(&self, id: i64, limit: usize) -> StoreFuture<'_, Vec<ChatLine>> {
        reads(self, move |tx| {
            boxed(async move {
                let values: [&dyn Value; 2] = [&id, &(limit as i64)];
                let mut lines = tx.query(CHAT_LINES, &values, |r| chat_line(r)).await?;
                lines.reverse();
                Ok(lines)
            })
        })
    }

    fn player_name(&self, player: PlayerId) -> StoreFuture<'_, Option<String>> {
        reads(self, move |tx| {
            boxed(async move {
                tx.value_opt("SELECT name FROM players WHERE id = ?1", &[&player.0])
                    .await
            })
        })
    }

    fn open_challenges(&self, player: PlayerId) -> StoreFuture<'_, i64> {
        reads(self, move |tx| {
            boxed(async move { tx.value(OPEN_CHALLENGES, &[&player.0]).await })
        })
    }

    fn turns(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<Summary>> {
        reads(self, move |tx| {
            boxed(async move {
                let last = if S::Tx::POSTGRES {
                    "right(start, 1)"
                } else {
                    "substr(start, -1)"
                };
                let filter = TURNS_FILTER.replace("{p}", "?1").replace("{last}", last);
                let sql = format!(
                    "SELECT {SUMMARY_COLUMNS} FROM games WHERE {filter}
                     ORDER BY turn_started_ms, id LIMIT ?2"
                );
                let values: [&dyn Value; 2] = [&player.0, &(limit as i64)];
                tx.query(&sql, &values, |r| summary(r)).await
            })
        })
    }

    fn set_player_name(&self, player: PlayerId, name: String, now: i64) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            boxed(async move {
                let nickname = Nickname { player, name, now };
                write_nickname(tx, &nickname).await
            })
        })
    }

    fn revision(&self, id: i64) -> StoreFuture<'_, Option<i64>> {
        self.stored_revision(id)
    }

    fn load_newer(
        &self,
        held: WebGame,
        revision: i64,
        kept: usize,
    ) -> StoreFuture<'_, Option<WebGame>> {
        let id = held.id;
        self.newer(held, revision, kept)
            .unwrap_or_else(|| self.load(id))
    }

    fn overdue_flags(&self, before_ms: i64, limit: usize) -> StoreFuture<'_, Vec<i64>> {
        self.overdue(before_ms, limit)
    }

    fn seek_store(&self) -> Option<Arc<dyn SeekStore>> {
        self.seeks()
    }

    fn notices(&self) -> Option<tokio::sync::broadcast::Receiver<Notice>> {
        self.heard()
    }
}

/// The statements run at each game made or seat taken find a player's
/// games through the player's indexes, never by walking the games going:
/// on a new database (no statistics yet) both stores' planners took
/// `games_online` (every online game going) for them, 0.6-0.7 ms of
/// PostgreSQL each with 1,000 games going.
#[cfg(test)]
mod plans {
    use super::{NAME_NORTH_SEATS, NAME_SOUTH_SEATS, OPEN_CHALLENGES};
    use crate::cells::dollar_params;
    use crate::test_cluster as pg;
    use crate::{GameStore, PgStore, Store};
    use awale_core::{Game, Rules};
    use awale_model::game::{Mode, PlayerId, Seat, WebGame};

    /// Each statement, its parameters, and the indexes its plan must use.
    const STATEMENTS: [(&str, &[&str], &[&str]); 3] = [
        (
            OPEN_CHALLENGES,
            &["p7"],
            &["games_waiting_south", "games_waiting_north"],
        ),
        (NAME_SOUTH_SEATS, &["p7", "Ama"], &["games_by_south"]),
        (NAME_NORTH_SEATS, &["p7", "Ama"], &["games_by_north"]),
    ];

    /// 300 online games going, made by 300 players, a third joined.
    fn games() -> Vec<WebGame> {
        (0..300)
            .map(|i| {
                let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
                let seat = |n: usize| {
                    Some(Seat {
                        player: PlayerId(format!("p{n}")),
                        name: format!("N{n}"),
                    })
                };
                g.seats[0] = seat(i);
                if i % 3 == 0 {
                    g.seats[1] = seat(i + 1000);
                }
                g
            })
            .collect()
    }

    fn check(plan: &str, indexes: &[&str], sql: &str) {
        for index in indexes {
            assert!(plan.contains(index), "{sql}\nnot through {index}:\n{plan}");
        }
        for walk in ["games_online", "Seq Scan", "SCAN games"] {
            assert!(
                !plan.contains(walk),
                "{sql}\nwalks the games ({walk}):\n{plan}"
            );
        }
    }

    #[tokio::test]
    async fn in_the_games_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        let store = Store::open(&path).unwrap();
        store.create(games()).await.unwrap();
        let conn = rusqlite::Connection::open(&path).unwrap();
        for (sql, values, indexes) in STATEMENTS {
            let mut explain = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let plan: Vec<String> = explain
                .query_map(rusqlite::params_from_iter(values), |r| {
                    r.get::<_, String>(3)
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            check(&plan.join("\n"), indexes, sql);
        }
    }

    #[tokio::test]
    async fn in_postgresql_before_any_statistics() {
        let cluster = pg::cluster();
        let url = cluster.database();
        let store = PgStore::connect(&url).unwrap();
        store.create(games()).await.unwrap();
        for (sql, values, indexes) in STATEMENTS {
            let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
            // The plan for the values given, and the one kept for any.
            for mode in ["force_custom_plan", "force_generic_plan"] {
                let plan = cluster.psql(
                    &url,
                    &format!(
                        "SET plan_cache_mode = {mode}; PREPARE s AS {}; EXPLAIN EXECUTE s({})",
                        dollar_params(sql),
                        quoted.join(", ")
                    ),
                );
                check(&plan, indexes, sql);
            }
        }
    }
}
