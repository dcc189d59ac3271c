//! Stored games: one SQLite file (WAL, synchronous=FULL), written by one
//! thread that commits whatever is waiting in one transaction (group
//! commit: one disk sync for many moves) and answers each write only once
//! it is durable; read by a small pool of read-only connections. Nothing
//! here runs on the async threads.
//!
//! The file carries the program's `application_id` and a schema version
//! (`user_version`) with migrations; a damaged file, a read-only file or
//! another program's database is refused at start with what to do.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use awale_model::error::Error;
use awale_model::game::{PlayerId, WebGame};
use awale_model::lock;
use awale_model::view;
use cells::Cells;

mod accounts;
mod cells;
mod copy;
mod interface;
pub mod mistakes;
mod postgres;
pub mod ratings;
mod rows;
mod schema;
pub mod seeks;
pub mod tournament_chat;
pub mod tournaments;

pub use accounts::{AccountStore, NewAccount, NewReport};
use awale_model::Code;
pub use copy::{copy_to_postgres, CopyReport};
pub use interface::{GameStore, Notice, StoreFuture};
pub use mistakes::{MistakeRow, MistakeStore};
pub use postgres::{is_postgres_url, PgStore, PG_SCHEMA_VERSION};
pub use ratings::RatingStore;
pub use rows::parse_cursor;
use rows::{find_game, insert_game, list_games, load_game, query_all, write_state};
use schema::setup;
pub use seeks::SeekStore;
pub use tournaments::TournamentStore;

/// A storage failure, or a stored game that no longer replays.
#[derive(Debug)]
pub enum StoreError {
    /// The database failed (its own error as the source).
    Backend(Box<dyn std::error::Error + Send + Sync>),
    /// The file cannot be used, and why, with what to do.
    Refused(String),
    /// A stored game cannot be rebuilt (the file was edited by hand?).
    Corrupt {
        /// The game's id.
        id: i64,
        /// What is wrong.
        message: String,
    },
    /// The store was closed (the server is stopping).
    Closed,
    /// Another process changed game `id` since this copy was read (a
    /// store shared by several processes): read it again.
    Stale {
        /// The game's id.
        id: i64,
        /// Its stored revision now.
        stored: i64,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Backend(e) => write!(f, "game store: {e}"),
            StoreError::Refused(why) => f.write_str(why),
            StoreError::Corrupt { id, message } => write!(f, "stored game {id}: {message}"),
            StoreError::Closed => f.write_str("the game store is closed (the server is stopping)"),
            StoreError::Stale { id, stored } => write!(
                f,
                "game {id} was changed by another server process (stored revision {stored})"
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Backend(e) => Some(&**e),
            _ => None,
        }
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Error {
        if let StoreError::Stale { .. } = e {
            // A race lost to another process: answered as a stale ply.
            return Error::conflict(
                Code::Stale,
                "the game changed meanwhile (on another server): reload the game",
            );
        }
        if let StoreError::Closed = e {
            // A request (or a computer's search) that ends while the server
            // stops: nothing failed, the player may try again.
            tracing::info!("a store call after the store closed: the server is stopping");
            return Error::new(
                awale_model::error::Kind::Busy,
                Code::Busy,
                "the server is stopping: try again in a moment",
            );
        }
        // The cause is logged once here; the player gets a plain message
        // (the cause may name the file's insides).
        tracing::error!(error = %e, "game store failed");
        Error::internal("the server failed to read or store the game: it is logged")
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Backend(Box::new(e))
    }
}

/// One line of the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The game's id in the store (not shown).
    #[serde(skip)]
    pub id: i64,
    /// The game's public id.
    #[serde(rename = "id")]
    pub public_id: String,
    /// When it was created (milliseconds since 1970).
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
    /// `computer`, `humans` or `online`.
    pub mode: String,
    /// The person's side against the computer (`S` or `N`).
    pub human: Option<String>,
    /// The computer's level.
    pub level: Option<u8>,
    /// The rules.
    #[serde(flatten)]
    pub rules: StoredRules,
    /// Moves played.
    pub plies: i64,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on (or aborted).
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// The nicknames of an online game's players (South, North).
    pub names: [Option<String>; 2],
    /// A game over days (its clock a time per move).
    pub per_move: bool,
    /// The tournament it was played in (its number), if any.
    pub tournament: Option<i64>,
    /// The side of the player whose list it is (`S` or `N`; South when
    /// they hold both seats, as on one screen).
    pub you: Option<String>,
}

/// Rules as stored, with their options (read once from their column).
#[derive(Clone, Debug, Serialize)]
pub struct StoredRules {
    /// The rules, as `awale,target=20`.
    pub rules: String,
    /// The same, option by option (None if the stored text is unreadable).
    pub rules_view: Option<view::RulesView>,
}

impl StoredRules {
    /// The rules as stored, read option by option.
    pub fn from_text(rules: String) -> StoredRules {
        let rules_view = rules
            .parse::<awale_core::Rules>()
            .ok()
            .map(|r| view::RulesView::of(&r));
        StoredRules { rules, rules_view }
    }
}

/// A page of the list of games, newest first.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The games.
    pub games: Vec<Summary>,
    /// Where the next page starts, if there is one (give it as `before`).
    pub next: Option<String>,
}

/// An online game as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct LobbyGame {
    /// The game's id in the store (not shown).
    #[serde(skip)]
    pub id: i64,
    /// The game's public id.
    #[serde(rename = "id")]
    pub public_id: String,
    /// The rules.
    #[serde(flatten)]
    pub rules: StoredRules,
    /// Initial time and increment, when the game has a clock.
    pub clock: Option<[i64; 2]>,
    /// A game over days: the clock's time is given again at each move.
    pub per_move: bool,
    /// The nicknames (South, North); None for a free seat.
    pub names: [Option<String>; 2],
    /// Moves played.
    pub plies: i64,
    /// When it was offered.
    pub created_ms: i64,
    /// The start diagram, when it is not the rules' own start (a study
    /// position: the one who accepts sees what they accept).
    pub start: Option<String>,
    /// Rated (between two accounts: its names are usernames) or casual.
    pub rated: bool,
    /// A rated game's players' ratings now in its speed (South, North),
    /// rounded; None for a casual game or a player not rated yet.
    pub ratings: [Option<i32>; 2],
    /// A seek's rating range (± around its maker's rating), if it has one.
    pub rating_range: Option<i64>,
    /// Which seats are open accounts' (South, North): their names link
    /// to their pages; a guest's does not.
    pub accounts: [bool; 2],
}

/// The lobby's columns of whether each seat is an open account's (the
/// same SQL for both stores).
pub(crate) const LOBBY_ACCOUNTS: &str =
    "EXISTS (SELECT 1 FROM accounts a WHERE a.player = south_player
             AND a.deleted_ms IS NULL AND a.closed_ms IS NULL),
     EXISTS (SELECT 1 FROM accounts a WHERE a.player = north_player
             AND a.deleted_ms IS NULL AND a.closed_ms IS NULL)";

/// The lobby's columns of a rated game's two players' ratings now (the
/// same SQL for both stores).
pub(crate) const LOBBY_RATINGS: &str =
    "(SELECT r.rating FROM ratings r WHERE rated AND r.player = south_player AND r.speed = games.speed),
     (SELECT r.rating FROM ratings r WHERE rated AND r.player = north_player AND r.speed = games.speed)";

/// The lobby's two kinds of games, each counted apart (games in play never
/// hide a challenge): the public ones waiting for a second player (a
/// private invitation is nobody else's business until it is played), and
/// those being played.
pub(crate) const LOBBY_KINDS: [&str; 2] = [
    "public AND (south_player IS NULL OR north_player IS NULL)",
    "south_player IS NOT NULL AND north_player IS NOT NULL",
];

/// The newest `?1` online games going on of kind `which` (one of
/// [`LOBBY_KINDS`]), as [`lobby_game`] reads them.
pub(crate) fn lobby_query(which: &str) -> String {
    format!(
        "SELECT id, rules, clock_initial_ms, clock_increment_ms, south_name, north_name,
                plies, created_ms, start, public_id, rated, clock_per_move, {LOBBY_RATINGS},
                rating_range, {LOBBY_ACCOUNTS}
         FROM games WHERE mode = 'online' AND result = '*' AND stop IS NULL
         AND {which}
         ORDER BY updated_ms DESC, id DESC LIMIT ?1"
    )
}

/// A game of the lobby from a row of [`lobby_query`], in either store.
pub(crate) fn lobby_game<R: Cells>(r: &R) -> Result<LobbyGame, R::Error> {
    let clock = match (r.cell(2)?, r.cell(3)?) {
        (Some(i), Some(inc)) => Some([i, inc]),
        _ => None,
    };
    let rules = StoredRules::from_text(r.cell(1)?);
    let start: String = r.cell(8)?;
    let usual = rules
        .rules
        .parse::<awale_core::Rules>()
        .ok()
        .map(|r| awale_core::Game::new(r).start().to_string());
    Ok(LobbyGame {
        id: r.cell(0)?,
        public_id: r.cell(9)?,
        rules,
        clock,
        per_move: r.cell(11)?,
        names: [r.cell(4)?, r.cell(5)?],
        plies: r.cell(6)?,
        created_ms: r.cell(7)?,
        start: (usual.as_deref() != Some(start.as_str())).then_some(start),
        rated: r.cell(10)?,
        ratings: [rounded(r.cell(12)?), rounded(r.cell(13)?)],
        rating_range: r.cell(14)?,
        accounts: [r.cell(15)?, r.cell(16)?],
    })
}

/// A rating as the lobby shows it.
pub(crate) fn rounded(rating: Option<f64>) -> Option<i32> {
    rating.map(|r| r.round() as i32)
}

/// A chat message.
#[derive(Clone, Debug, Serialize)]
pub struct ChatLine {
    /// Its number, increasing.
    pub id: i64,
    /// `players` or `public`.
    pub room: &'static str,
    /// When it was sent.
    pub at_ms: i64,
    /// The sender's side, for a player; None for a spectator.
    pub side: Option<char>,
    /// The sender's nickname (empty for a guest without one).
    pub name: String,
    /// The text, as typed (shown as text, never as HTML).
    pub text: String,
    /// The guest number of a sender without a nickname, which the page
    /// words in its language ("Invité 4821", "Guest 4821").
    pub guest: Option<u32>,
}

type Finish = Box<dyn FnOnce(bool) + Send>;
/// A write: run inside the batch's transaction (None when the batch could
/// not begin), it gives back what to do once the batch is committed (true)
/// or not.
type Job = Box<dyn FnOnce(Option<&Connection>) -> Finish + Send>;

/// Chat messages a game keeps (the page shows the last 200).
pub const CHAT_KEPT: usize = 500;

/// Most writes committed together.
const MAX_BATCH: usize = 512;
/// Reads running at once, each on its own connection.
const MAX_READERS: usize = 8;
/// Read connections kept open between reads.
const MAX_IDLE_READERS: usize = MAX_READERS;

/// The game store.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The thread that folds the log into the file, beside the writer.
    checkpoints: Mutex<Option<JoinHandle<()>>>,
    checkpoints_stop: Arc<std::sync::atomic::AtomicBool>,
    readers: Mutex<Vec<Connection>>,
    /// Reads at once (each holds a connection and its files).
    reading: tokio::sync::Semaphore,
    /// The folder of a scratch store, removed with it.
    _scratch: Option<tempfile::TempDir>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.close();
    }
}

impl Inner {
    /// Stops the checkpoints, then the writer (which folds the log in).
    fn close(&self) {
        self.checkpoints_stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(handle) = lock(&self.checkpoints).take() {
            let _ = handle.join();
        }
        drop(lock(&self.writer).take());
        if let Some(handle) = lock(&self.thread).take() {
            let _ = handle.join();
        }
    }
}

impl Store {
    /// Opens (or creates) the store at `path`, checking that it is a
    /// sound, writable games file of this program, and migrating an older
    /// one.
    ///
    /// # Errors
    ///
    /// [`StoreError::Refused`] saying why and what to do: a damaged file, a
    /// read-only one, a database of another program, a newer schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, None)
    }

    /// A store in a scratch file, removed when the store is dropped: for
    /// tests and benchmarks.
    ///
    /// # Errors
    ///
    /// When SQLite cannot start.
    pub fn in_memory() -> Result<Store, StoreError> {
        let dir = tempfile::tempdir()
            .map_err(|e| StoreError::Refused(format!("cannot make a scratch folder: {e}")))?;
        let path = dir.path().join("games.sqlite");
        Store::open_with(&path, Some(dir))
    }

    fn open_with(path: &Path, scratch: Option<tempfile::TempDir>) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path).map_err(|e| refused_open(path, e))?;
        setup(&mut conn, path)?;
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("awale-store".into())
            .spawn(move || write_loop(conn, rx))
            .map_err(|e| StoreError::Refused(format!("cannot start the store's thread: {e}")))?;
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let checkpoints = {
            let path = path.to_path_buf();
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("awale-checkpoint".into())
                .spawn(move || checkpoint_loop(&path, &stop))
                .map_err(|e| StoreError::Refused(format!("cannot start the store's thread: {e}")))?
        };
        Ok(Store {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                writer: Mutex::new(Some(tx)),
                thread: Mutex::new(Some(thread)),
                checkpoints: Mutex::new(Some(checkpoints)),
                checkpoints_stop: stop,
                readers: Mutex::new(Vec::new()),
                reading: tokio::sync::Semaphore::new(MAX_READERS),
                _scratch: scratch,
            }),
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Finishes the writes waiting, folds the write-ahead log back into
    /// the file and stops writing: a copy of the file alone is then whole.
    /// Later writes fail with [`StoreError::Closed`].
    pub fn close(&self) {
        self.inner.close();
    }

    /// Runs `work` in the writer's next transaction and answers once it is
    /// committed (durable). A failing `work` changes nothing and does not
    /// disturb the other writes of the batch.
    ///
    /// # Errors
    ///
    /// `work`'s error, or the commit's.
    pub(crate) async fn write<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.submit(work, move |r| {
            let _ = reply.send(r);
        })?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// [`Store::write`], waiting on this thread (at start, or on a
    /// thread that may block).
    ///
    /// # Errors
    ///
    /// As [`Store::write`].
    pub(crate) fn write_blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = mpsc::channel();
        self.submit(work, move |r| {
            let _ = reply.send(r);
        })?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    fn submit<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
        reply: impl FnOnce(Result<T, StoreError>) + Send + 'static,
    ) -> Result<(), StoreError> {
        let job: Job = Box::new(move |conn| {
            let Some(conn) = conn else {
                return Box::new(move |_| reply(Err(StoreError::Closed))) as Finish;
            };
            let result = in_savepoint(conn, work);
            Box::new(move |committed| {
                let answer = match result {
                    Ok(value) if committed => Ok(value),
                    Ok(_) => Err(StoreError::Refused(
                        "the write was not committed (disk full or read-only?)".into(),
                    )),
                    Err(e) => Err(e),
                };
                reply(answer);
            })
        });
        let writer = lock(&self.inner.writer);
        let sender = writer.as_ref().ok_or(StoreError::Closed)?;
        sender.send(job).map_err(|_| StoreError::Closed)
    }

    /// Runs `work` on a read connection, off the async threads.
    ///
    /// # Errors
    ///
    /// `work`'s error, or the connection's.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let _turn = self
            .inner
            .reading
            .acquire()
            .await
            .map_err(|_| StoreError::Closed)?;
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.read_blocking(work))
            .await
            .map_err(|e| StoreError::Refused(format!("a read failed: {e}")))?
    }

    /// [`Store::read`] from a thread that may block.
    ///
    /// # Errors
    ///
    /// As [`Store::read`].
    pub(crate) fn read_blocking<T>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let pooled = lock(&self.inner.readers).pop();
        let conn = match pooled {
            Some(c) => c,
            None => {
                let c = Connection::open_with_flags(
                    &self.inner.path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                c.busy_timeout(std::time::Duration::from_secs(5))?;
                c
            }
        };
        let result = work(&conn);
        let mut readers = lock(&self.inner.readers);
        if readers.len() < MAX_IDLE_READERS {
            readers.push(conn);
        }
        result
    }
}

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
                rows::ADD_CHAT_LINE,
                params![
                    game,
                    line.room,
                    line.at_ms,
                    line.side.map(String::from),
                    line.name,
                    line.text,
                    line.guest
                ],
                rows::KEEP_LAST_CHAT,
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
            let mut lines = query_all(conn, rows::CHAT_LINES, values, |r| rows::chat_line(r))?;
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

impl Store {
    /// A consistent copy of the whole store at `dest` (which must not
    /// exist), taken while the server runs.
    ///
    /// # Errors
    ///
    /// When the copy fails.
    pub fn backup_blocking(&self, dest: &Path) -> Result<(), StoreError> {
        if dest.exists() {
            return Err(StoreError::Refused(format!(
                "{} already exists: give a new file name",
                dest.display()
            )));
        }
        let dest = dest
            .to_str()
            .ok_or_else(|| StoreError::Refused("the backup's path is not UTF-8".into()))?
            .to_string();
        self.read_blocking(move |conn| {
            conn.execute("VACUUM INTO ?1", [dest])?;
            Ok(())
        })
    }
}

fn refused_open(path: &Path, e: rusqlite::Error) -> StoreError {
    StoreError::Refused(format!(
        "cannot open the games file {}: {e}",
        path.display()
    ))
}

fn in_savepoint<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    conn.execute_batch("SAVEPOINT job")?;
    match work(conn) {
        Ok(value) => {
            conn.execute_batch("RELEASE job")?;
            Ok(value)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK TO job; RELEASE job");
            Err(e)
        }
    }
}

/// How often the log is folded into the file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// The log's size beyond which it is folded in and emptied at once, even
/// while moves keep coming (the writers wait for that, briefly).
pub const WAL_LIMIT_BYTES: u64 = 32 * 1024 * 1024;

/// Folds the write-ahead log into the file now and then, on a connection
/// of its own, so the writer never stops for it (the writer's own
/// automatic checkpoints are off). A passive checkpoint cannot shrink the
/// log, and under steady writes and reads it cannot start it over either
/// (it grew to 281 MB for a 2.6 MB file): so the log is also emptied
/// (`TRUNCATE`) once it passes [`WAL_LIMIT_BYTES`], and whenever it has
/// stopped growing (the server is idle).
fn checkpoint_loop(path: &Path, stop: &std::sync::atomic::AtomicBool) {
    let conn = match Connection::open(path) {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "no checkpoints: the log will grow until the server stops");
            return;
        }
    };
    let _ = conn.busy_timeout(std::time::Duration::from_secs(1));
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let wal = PathBuf::from(wal);
    let size = || std::fs::metadata(&wal).map_or(0, |m| m.len());
    let mut last = size();
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(CHECKPOINT_EVERY);
        let now = size();
        let idle = now == last && now > 0;
        let mode = if now > WAL_LIMIT_BYTES || idle {
            "TRUNCATE"
        } else {
            "PASSIVE"
        };
        let pragma = format!("PRAGMA wal_checkpoint({mode})");
        if let Err(e) = conn.query_row(&pragma, [], |_| Ok(())) {
            tracing::debug!(error = %e, "checkpoint skipped");
        }
        last = size();
    }
}

/// The writer: takes every write waiting (up to [`MAX_BATCH`]), runs them
/// in one transaction, commits (one disk sync), then answers each. When
/// the store closes, folds the write-ahead log into the file.
fn write_loop(conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let began = conn.execute_batch("BEGIN IMMEDIATE").is_ok();
        let finishes: Vec<Finish> = batch
            .into_iter()
            .map(|job| job(began.then_some(&conn)))
            .collect();
        let committed = began && conn.execute_batch("COMMIT").is_ok();
        if began && !committed {
            tracing::error!("the game store could not commit a batch of writes");
            let _ = conn.execute_batch("ROLLBACK");
        }
        for finish in finishes {
            finish(committed);
        }
    }
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::error!(error = %e, "the game store's log could not be folded into the file");
    }
}

// The guarantees of every store are checked on both in `tests/stores.rs`;
// here, what only the games file does.
#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::{Game, Move, Rules};
    use awale_model::game::Mode;

    /// A game between people, its maker seated.
    fn game() -> WebGame {
        let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 1_000, 7);
        g.seat_maker(&PlayerId("p1".into()));
        g
    }

    /// A write after the store closed (a search ending while the server
    /// stops) is answered 503 `busy`, not a server failure.
    #[tokio::test]
    async fn a_write_after_the_store_closed_is_a_wait_not_a_failure() {
        let store = Store::in_memory().unwrap();
        let made = store.create(vec![game()]).await.unwrap().remove(0);
        store.close();
        let e = store.save(made, 0).await.unwrap_err();
        assert!(matches!(e, StoreError::Closed), "{e}");
        let answer = Error::from(e);
        assert_eq!(
            (answer.kind, answer.code.as_str()),
            (awale_model::error::Kind::Busy, "busy"),
            "{answer:?}"
        );
    }

    #[tokio::test]
    async fn a_failing_write_does_not_spoil_the_others_of_its_batch() {
        let store = Store::in_memory().unwrap();
        let good = store.create(vec![game()]).await.unwrap().remove(0);
        let bad = store.write(|conn| {
            conn.execute("INSERT INTO nowhere VALUES (1)", [])?;
            Ok(())
        });
        let fine = store.save(good.clone(), 0);
        let (bad, fine) = tokio::join!(bad, fine);
        assert!(bad.is_err());
        fine.unwrap();
        assert!(store.load(good.id).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn the_log_is_emptied_once_the_writes_stop() {
        // Finding 10 of issue 20: the log only ever grew while serving.

        let store = Store::in_memory().unwrap();
        let mut games = store
            .create((0..50).map(|_| game()).collect())
            .await
            .unwrap();
        let reader = store.clone();
        let reading = tokio::spawn(async move {
            for _ in 0..200 {
                let _ = reader.load(1).await;
            }
        });
        for round in 0..40 {
            for g in &mut games {
                let _ = g.play(
                    Move::from_letter("FfAaBbCcDdEe".chars().nth(round % 12).unwrap()).unwrap(),
                    0,
                );
                store.save(g.clone(), 0).await.unwrap();
            }
        }
        reading.await.unwrap();
        let mut wal = store.path().as_os_str().to_owned();
        wal.push("-wal");
        let size = || std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert!(size() > 0, "the writes went through the log");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while size() > 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the log keeps {} bytes with nothing written",
                size()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    #[tokio::test]
    async fn a_games_file_of_version_3_keeps_its_games_and_gains_accounts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v3.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            for sql in [
                include_str!("v1.sql"),
                include_str!("v2.sql"),
                include_str!("v3.sql"),
            ] {
                conn.execute_batch(sql).unwrap();
            }
            conn.execute_batch(
                "INSERT INTO games (id, created_ms, updated_ms, rules, start, mode, seed,
                       south_player, south_name, turn_started_ms)
                     VALUES (1, 5, 5, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 'online', 1,
                       'p1', 'Ama', 5);
                     INSERT INTO meta (key, value) VALUES ('levels', 16);
                     PRAGMA application_id = 1098342764;
                     PRAGMA user_version = 3;",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let game = store.load(1).await.unwrap().expect("the old game is kept");
        assert_eq!(game.seats[0].as_ref().unwrap().name, "Ama");
        assert!(store.account_by_key("ama".into()).await.unwrap().is_none());
        let conn = Connection::open(&path).unwrap();
        let version: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        // Every later version too (5: ratings).
        assert_eq!(i64::from(version), schema::migrations().len() as i64);
    }
}
