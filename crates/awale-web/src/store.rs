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

use awale_core::{Game, Move, Position, Rules, Side};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use crate::game::{Clock, Mode, Offers, PlayerId, Seat, Stop, WebGame};

/// A storage failure, or a stored game that no longer replays.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite failed.
    Sqlite(rusqlite::Error),
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
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "game store: {e}"),
            StoreError::Refused(why) => f.write_str(why),
            StoreError::Corrupt { id, message } => write!(f, "stored game {id}: {message}"),
            StoreError::Closed => f.write_str("the game store is closed (the server is stopping)"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Sqlite(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

/// One line of the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The game's id.
    pub id: i64,
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
    /// The rules, as `awale,target=20`.
    pub rules: String,
    /// Moves played.
    pub plies: i64,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on (or aborted).
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// The nicknames of an online game's players (South, North).
    pub names: [Option<String>; 2],
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
    /// The game's id.
    pub id: i64,
    /// The rules, as `awale,target=20`.
    pub rules: String,
    /// Initial time and increment, when the game has a clock.
    pub clock: Option<[i64; 2]>,
    /// The nicknames (South, North); None for a free seat.
    pub names: [Option<String>; 2],
    /// Moves played.
    pub plies: i64,
    /// When it was offered.
    pub created_ms: i64,
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
    /// The sender's nickname.
    pub name: String,
    /// The text, as typed (shown as text, never as HTML).
    pub text: String,
}

type Finish = Box<dyn FnOnce(bool) + Send>;
/// A write: run inside the batch's transaction (None when the batch could
/// not begin), it gives back what to do once the batch is committed (true)
/// or not.
type Job = Box<dyn FnOnce(Option<&Connection>) -> Finish + Send>;

/// Most writes committed together.
const MAX_BATCH: usize = 512;
/// Reads running at once, each on its own connection.
const MAX_READERS: usize = 8;
/// Read connections kept open between reads.
const MAX_IDLE_READERS: usize = MAX_READERS;

/// The program's mark in the file header (`PRAGMA application_id`):
/// "Awal".
const APPLICATION_ID: i32 = 0x4177_616C;
/// The schema version this program writes.
const SCHEMA_VERSION: i32 = 2;

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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let conn = Connection::open(path).map_err(|e| refused_open(path, e))?;
        setup(&conn, path)?;
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
    pub async fn write<T: Send + 'static>(
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
    pub fn write_blocking<T: Send + 'static>(
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
    pub async fn read<T: Send + 'static>(
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
    pub fn read_blocking<T>(
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

    // -------------------------------------------------------------- games --

    /// Stores new games, all or none, and gives them back with their ids.
    ///
    /// # Errors
    ///
    /// When a write fails; nothing is stored then.
    pub async fn create(&self, mut games: Vec<WebGame>) -> Result<Vec<WebGame>, StoreError> {
        self.write(move |conn| {
            for game in &mut games {
                insert_game(conn, game)?;
            }
            Ok(games)
        })
        .await
    }

    /// Writes `game` over its stored version: the moves from ply `from` on
    /// are replaced by the game's, and its state (seats, clock, redo list,
    /// end) is updated, in one transaction.
    ///
    /// # Errors
    ///
    /// When the write fails; the stored game is then unchanged.
    pub async fn save(&self, game: WebGame, from: usize) -> Result<(), StoreError> {
        self.write(move |conn| write_state(conn, &game, from)).await
    }

    /// Loads a game, or None when there is no game with this id.
    ///
    /// # Errors
    ///
    /// When reading fails or the stored moves do not replay.
    pub async fn load(&self, id: i64) -> Result<Option<WebGame>, StoreError> {
        self.read(move |conn| load_game(conn, id)).await
    }

    /// The games `player` plays in (and those made without a player),
    /// newest first, `limit` at most, from `before` (a [`Page::next`]).
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn list(
        &self,
        player: Option<PlayerId>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> Result<Page, StoreError> {
        self.read(move |conn| list_games(conn, player.as_ref(), before, limit, false))
            .await
    }

    /// The id of the game `player` changed last among those still going
    /// on (online games waiting for a second player left out).
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn current(&self, player: Option<PlayerId>) -> Result<Option<i64>, StoreError> {
        self.read(move |conn| {
            Ok(list_games(conn, player.as_ref(), None, 1, true)?
                .games
                .first()
                .map(|s| s.id))
        })
        .await
    }

    /// Online games going on: those waiting for a second player (public
    /// ones) and those being played, newest first.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn lobby(&self, limit: usize) -> Result<Vec<LobbyGame>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, rules, clock_initial_ms, clock_increment_ms, south_name, north_name,
                        plies, created_ms, south_player IS NULL OR north_player IS NULL, public
                 FROM games WHERE mode = 'online' AND result = '*' AND stop IS NULL
                 ORDER BY updated_ms DESC, id DESC LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit as i64], |r| {
                let clock = match (r.get::<_, Option<i64>>(2)?, r.get::<_, Option<i64>>(3)?) {
                    (Some(i), Some(inc)) => Some([i, inc]),
                    _ => None,
                };
                let waiting: bool = r.get(8)?;
                let public: bool = r.get(9)?;
                Ok((
                    LobbyGame {
                        id: r.get(0)?,
                        rules: r.get(1)?,
                        clock,
                        names: [r.get(4)?, r.get(5)?],
                        plies: r.get(6)?,
                        created_ms: r.get(7)?,
                    },
                    waiting,
                    public,
                ))
            })?;
            let mut games = Vec::new();
            for row in rows {
                let (game, waiting, public) = row?;
                // A private invitation is nobody else's business until it
                // is being played.
                if !waiting || public {
                    games.push(game);
                }
            }
            Ok(games)
        })
        .await
    }

    /// Unfinished games with a clock, or online ones: their ids.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub fn timed_games_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.read_blocking(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id FROM games WHERE result = '*' AND stop IS NULL
                 AND (clock_initial_ms IS NOT NULL OR mode = 'online')",
            )?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    // ------------------------------------------------- server's heartbeat --

    /// Notes that the server is up at `now`.
    ///
    /// # Errors
    ///
    /// When the write fails.
    pub async fn alive(&self, now: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = ?1",
                [now],
            )?;
            Ok(())
        })
        .await
    }

    /// Gives back to the unfinished timed games the time the server was
    /// down (from its last heartbeat to `now`), so no clock runs while
    /// nobody can move. Returns that time.
    ///
    /// # Errors
    ///
    /// When the write fails.
    pub fn resume_clocks_blocking(&self, now: i64) -> Result<i64, StoreError> {
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
    pub async fn save_review(&self, id: i64, plies: usize, body: String) -> Result<(), StoreError> {
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO reviews (game_id, plies, body) VALUES (?1, ?2, ?3)
                 ON CONFLICT(game_id) DO UPDATE SET plies = ?2, body = ?3",
                params![id, plies as i64, body],
            )?;
            Ok(())
        })
        .await
    }

    /// The stored review of game `id`: the number of moves it covers and
    /// its JSON.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn review(&self, id: i64) -> Result<Option<(usize, String)>, StoreError> {
        self.read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT plies, body FROM reviews WHERE game_id = ?1",
                    [id],
                    |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)),
                )
                .optional()?)
        })
        .await
    }

    // --------------------------------------------------------------- chat --

    /// Stores a chat message and gives it back with its number.
    ///
    /// # Errors
    ///
    /// When the write fails.
    pub async fn add_chat(&self, game: i64, mut line: ChatLine) -> Result<ChatLine, StoreError> {
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO chat (game_id, room, at_ms, side, name, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    game,
                    line.room,
                    line.at_ms,
                    line.side.map(String::from),
                    line.name,
                    line.text
                ],
            )?;
            line.id = conn.last_insert_rowid();
            Ok(line)
        })
        .await
    }

    /// The last `limit` chat messages of game `id`, oldest first.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn chat(&self, id: i64, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, room, at_ms, side, name, text FROM chat WHERE game_id = ?1
                 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![id, limit as i64], |r| {
                let room: String = r.get(1)?;
                let side: Option<String> = r.get(3)?;
                Ok(ChatLine {
                    id: r.get(0)?,
                    room: if room == "players" {
                        "players"
                    } else {
                        "public"
                    },
                    at_ms: r.get(2)?,
                    side: side.and_then(|s| side_from_text(&s)).map(Side::letter),
                    name: r.get(4)?,
                    text: r.get(5)?,
                })
            })?;
            let mut lines = rows.collect::<Result<Vec<_>, _>>()?;
            lines.reverse();
            Ok(lines)
        })
        .await
    }

    // ------------------------------------------------------------ players --

    /// The nickname of `player`, if they have one.
    ///
    /// # Errors
    ///
    /// When reading fails.
    pub async fn player_name(&self, player: PlayerId) -> Result<Option<String>, StoreError> {
        self.read(move |conn| {
            Ok(conn
                .query_row("SELECT name FROM players WHERE id = ?1", [&player.0], |r| {
                    r.get(0)
                })
                .optional()?)
        })
        .await
    }

    /// Sets the nickname of `player` (creating the player), and in the
    /// seats of their unfinished games.
    ///
    /// # Errors
    ///
    /// When the write fails.
    pub async fn set_player_name(
        &self,
        player: PlayerId,
        name: String,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
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
        })
        .await
    }

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

/// Folds the write-ahead log into the file now and then, on a connection
/// of its own, so the writer never stops for it (the writer's own
/// automatic checkpoints are off).
fn checkpoint_loop(path: &Path, stop: &std::sync::atomic::AtomicBool) {
    let conn = match Connection::open(path) {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "no checkpoints: the log will grow until the server stops");
            return;
        }
    };
    let _ = conn.busy_timeout(std::time::Duration::from_secs(1));
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(CHECKPOINT_EVERY);
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::debug!(error = %e, "checkpoint skipped");
        }
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

// ------------------------------------------------------------ the schema --

const SCHEMA_V1: &str = "
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    mode TEXT NOT NULL,
    human TEXT,
    level INTEGER,
    seed INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    south_ms INTEGER,
    north_ms INTEGER,
    turn_started_ms INTEGER,
    resigned TEXT,
    flagged TEXT,
    redo TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    letter TEXT NOT NULL,
    captured INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
";

/// Version 2: seats and online play, ends the rules do not know, stored
/// reviews, chat, players, the server's heartbeat, the move count kept
/// with the game, and the indexes the lists need.
const MIGRATE_V2: &str = "
ALTER TABLE games ADD COLUMN stop TEXT;
UPDATE games SET stop = 'time ' || flagged WHERE flagged IS NOT NULL;
ALTER TABLE games DROP COLUMN flagged;
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN south_player TEXT;
ALTER TABLE games ADD COLUMN south_name TEXT;
ALTER TABLE games ADD COLUMN north_player TEXT;
ALTER TABLE games ADD COLUMN north_name TEXT;
ALTER TABLE games ADD COLUMN takeback TEXT;
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN rematch_id INTEGER;
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET plies = (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id);
UPDATE games SET turn_started_ms = updated_ms WHERE turn_started_ms IS NULL;
CREATE INDEX games_by_time ON games (updated_ms DESC, id DESC);
CREATE INDEX games_by_south ON games (south_player, updated_ms DESC, id DESC);
CREATE INDEX games_by_north ON games (north_player, updated_ms DESC, id DESC);
CREATE INDEX games_unowned ON games (updated_ms DESC, id DESC)
    WHERE south_player IS NULL AND north_player IS NULL AND mode != 'online';
CREATE INDEX games_online ON games (mode, result, updated_ms DESC);
CREATE TABLE reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    plies INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    room TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX chat_by_game ON chat (game_id, id);
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value
);
";

/// The tables and columns of version 1 (before the schema was versioned),
/// to recognise such a file.
const V1_GAMES_COLUMNS: &[&str] = &[
    "id",
    "created_ms",
    "updated_ms",
    "rules",
    "start",
    "mode",
    "human",
    "level",
    "seed",
    "clock_initial_ms",
    "clock_increment_ms",
    "south_ms",
    "north_ms",
    "turn_started_ms",
    "resigned",
    "flagged",
    "redo",
    "result",
    "reason",
];

fn setup(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let shown = path.display();
    let not_sqlite = |e: rusqlite::Error| {
        if matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::NotADatabase)
        ) {
            StoreError::Refused(format!(
                "{shown} is not a games file (not even an SQLite database): give another file with --data"
            ))
        } else {
            StoreError::Refused(format!("cannot read the games file {shown}: {e}"))
        }
    };
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let check: String = conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(not_sqlite)?;
    if check != "ok" {
        return Err(StoreError::Refused(format!(
            "the games file {shown} is damaged (SQLite's check says: {check}). Restore it from a \
             backup, or move it away to start with an empty one; `sqlite3 {shown} .recover` may \
             save the games it still holds"
        )));
    }
    if conn.is_readonly("main")? {
        return Err(read_only(path));
    }
    let app: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version: i32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let tables = table_names(conn)?;
    let from = if app == APPLICATION_ID {
        if version > SCHEMA_VERSION {
            return Err(StoreError::Refused(format!(
                "the games file {shown} was written by a newer version of awale (schema \
                 {version}, this one knows up to {SCHEMA_VERSION}): update awale"
            )));
        }
        version
    } else if app == 0 && tables.is_empty() {
        0
    } else if app == 0 && is_v1(conn, &tables)? {
        1
    } else {
        return Err(StoreError::Refused(format!(
            "{shown} is an SQLite database of another program (tables: {}): awale does not \
             write into it. Give another file with --data",
            tables.join(", ")
        )));
    };
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| writable(path, e))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Checkpoints run on their own thread (see `checkpoint_loop`).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // Every open writes (the migration or the heartbeat): a file that
    // cannot be written is refused now, not at the first move.
    let migrate = || -> Result<(), rusqlite::Error> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        if from < 1 {
            conn.execute_batch(SCHEMA_V1)?;
        }
        if from < 2 {
            conn.execute_batch(MIGRATE_V2)?;
        }
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('opened_ms', ?1)
             ON CONFLICT(key) DO UPDATE SET value = ?1",
            [crate::game::now_ms()],
        )?;
        conn.execute_batch("COMMIT")
    };
    if let Err(e) = migrate() {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(writable(path, e));
    }
    Ok(())
}

fn read_only(path: &Path) -> StoreError {
    StoreError::Refused(format!(
        "the games file {} cannot be written (read-only file or folder): make it writable, or \
         give another file with --data",
        path.display()
    ))
}

fn writable(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) | Some(rusqlite::ErrorCode::CannotOpen) => {
            read_only(path)
        }
        _ => StoreError::Refused(format!(
            "cannot prepare the games file {}: {e}",
            path.display()
        )),
    }
}

fn table_names(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         ORDER BY name",
    )?;
    let names = stmt.query_map([], |r| r.get(0))?;
    Ok(names.collect::<Result<Vec<String>, _>>()?)
}

fn columns(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |r| r.get(0))?;
    Ok(names.collect::<Result<Vec<String>, _>>()?)
}

fn is_v1(conn: &Connection, tables: &[String]) -> Result<bool, StoreError> {
    if tables != ["games", "moves"] {
        return Ok(false);
    }
    let games = columns(conn, "games")?;
    let moves = columns(conn, "moves")?;
    Ok(games == V1_GAMES_COLUMNS && moves == ["game_id", "ply", "letter", "captured"])
}

// ------------------------------------------------------ rows and columns --

/// A side as the store writes it: its letter.
fn side_to_text(side: Side) -> String {
    side.letter().to_string()
}

fn side_from_text(text: &str) -> Option<Side> {
    let mut letters = text.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Side::from_letter(letter),
        _ => None,
    }
}

fn stop_to_text(stop: Stop) -> String {
    match stop {
        Stop::Time(side) => format!("time {}", side_to_text(side)),
        Stop::Abandoned(side) => format!("abandoned {}", side_to_text(side)),
        Stop::Aborted => "aborted".to_string(),
    }
}

fn stop_from_text(text: &str) -> Option<Stop> {
    match text.split_once(' ') {
        Some(("time", s)) => side_from_text(s).map(Stop::Time),
        Some(("abandoned", s)) => side_from_text(s).map(Stop::Abandoned),
        None if text == "aborted" => Some(Stop::Aborted),
        _ => None,
    }
}

fn insert_game(conn: &Connection, game: &mut WebGame) -> Result<(), StoreError> {
    let (human, level) = match game.mode {
        Mode::Computer { human, level } => (Some(side_to_text(human)), Some(level)),
        Mode::Humans | Mode::Online => (None, None),
    };
    conn.execute(
        "INSERT INTO games (created_ms, updated_ms, rules, start, mode, human, level, seed)
         VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            game.created_ms,
            game.game.rules().to_string(),
            game.game.start().to_string(),
            game.mode.name(),
            human,
            level,
            game.seed as i64,
        ],
    )?;
    game.id = conn.last_insert_rowid();
    write_state(conn, game, 0)
}

fn write_state(conn: &Connection, game: &WebGame, from: usize) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![game.id, from as i64],
    )?;
    {
        let mut insert = conn.prepare_cached(
            "INSERT INTO moves (game_id, ply, letter, captured) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (ply, p) in game.game.plies().iter().enumerate().skip(from) {
            insert.execute(params![
                game.id,
                ply as i64,
                p.mv.letter().to_string(),
                i64::from(p.captured)
            ])?;
        }
    }
    let end = game.end();
    let redo: String = game.game.redo_list().iter().map(|m| m.letter()).collect();
    let (human, level) = match game.mode {
        Mode::Computer { human, level } => (Some(side_to_text(human)), Some(level)),
        Mode::Humans | Mode::Online => (None, None),
    };
    let c = game.clock;
    let [south, north] = &game.seats;
    let changed = conn
        .prepare_cached(
            "UPDATE games SET updated_ms = ?2, clock_initial_ms = ?3, clock_increment_ms = ?4,
                south_ms = ?5, north_ms = ?6, turn_started_ms = ?7, resigned = ?8, stop = ?9,
                redo = ?10, result = ?11, reason = ?12, level = ?13, human = ?14,
                public = ?15, south_player = ?16, south_name = ?17, north_player = ?18,
                north_name = ?19, takeback = ?20, rematch = ?21, rematch_id = ?22, plies = ?23
             WHERE id = ?1",
        )?
        .execute(params![
            game.id,
            crate::game::now_ms(),
            c.map(|c| c.initial_ms),
            c.map(|c| c.increment_ms),
            c.map(|c| c.remaining_ms[0]),
            c.map(|c| c.remaining_ms[1]),
            game.turn_started_ms,
            game.game.resigned().map(side_to_text),
            game.stop.map(stop_to_text),
            redo,
            end.map_or("*", |e| e.result_text()),
            end.map(|e| e.reason.name()),
            level,
            human,
            game.public,
            south.as_ref().map(|s| &s.player.0),
            south.as_ref().map(|s| &s.name),
            north.as_ref().map(|s| &s.player.0),
            north.as_ref().map(|s| &s.name),
            game.offers.takeback.map(side_to_text),
            game.offers.rematch.map(side_to_text),
            game.offers.rematch_id,
            game.game.plies().len() as i64,
        ])?;
    if changed != 1 {
        return Err(StoreError::Corrupt {
            id: game.id,
            message: "no such game to update".into(),
        });
    }
    Ok(())
}

const GAME_COLUMNS: &str = "created_ms, rules, start, mode, human, level, seed, clock_initial_ms,
    clock_increment_ms, south_ms, north_ms, turn_started_ms, resigned, stop, redo, public,
    south_player, south_name, north_player, north_name, takeback, rematch, rematch_id";

fn load_game(conn: &Connection, id: i64) -> Result<Option<WebGame>, StoreError> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
    let mut stmt = conn.prepare_cached(&sql)?;
    let row = stmt
        .query_row([id], |r| {
            Ok(Row {
                created_ms: r.get(0)?,
                rules: r.get(1)?,
                start: r.get(2)?,
                mode: r.get(3)?,
                human: r.get(4)?,
                level: r.get(5)?,
                seed: r.get(6)?,
                clock: match (r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?) {
                    (Some(initial_ms), Some(increment_ms), Some(s), Some(n)) => Some(Clock {
                        initial_ms,
                        increment_ms,
                        remaining_ms: [s, n],
                    }),
                    _ => None,
                },
                turn_started_ms: r.get(11)?,
                resigned: r.get(12)?,
                stop: r.get(13)?,
                redo: r.get(14)?,
                public: r.get(15)?,
                seats: [(r.get(16)?, r.get(17)?), (r.get(18)?, r.get(19)?)],
                takeback: r.get(20)?,
                rematch: r.get(21)?,
                rematch_id: r.get(22)?,
            })
        })
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let corrupt = |message: String| StoreError::Corrupt { id, message };
    let side = |text: &str| side_from_text(text).ok_or_else(|| corrupt(format!("side `{text}`")));
    let rules: Rules = row.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
    let start: Position = row.start.parse().map_err(|e| corrupt(format!("{e}")))?;
    let mode = match (row.mode.as_str(), row.human.as_deref(), row.level) {
        ("humans", _, _) => Mode::Humans,
        ("online", _, _) => Mode::Online,
        ("computer", Some(h), Some(level)) => Mode::Computer {
            human: side(h)?,
            level,
        },
        (m, _, _) => return Err(corrupt(format!("mode `{m}`"))),
    };
    let mut game = Game::from_position(rules, start);
    let mut moves = conn.prepare_cached(
        "SELECT ply, letter, captured FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let moves = moves.query_map([id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    for (expected, m) in moves.enumerate() {
        let (ply, letter, captured) = m?;
        let mv = letter
            .chars()
            .next()
            .and_then(Move::from_letter)
            .ok_or_else(|| corrupt(format!("move `{letter}` at ply {ply}")))?;
        if ply != expected as i64 {
            return Err(corrupt(format!("ply {ply} where {expected} was expected")));
        }
        let got = game
            .play(mv)
            .map_err(|e| corrupt(format!("ply {ply} ({mv}): {e}")))?;
        if i64::from(got) != captured {
            return Err(corrupt(format!(
                "ply {ply} ({mv}) captures {got}, stored {captured}"
            )));
        }
    }
    if let Some(s) = row.resigned.as_deref() {
        game.resign(side(s)?)
            .map_err(|e| corrupt(format!("resignation: {e}")))?;
    }
    let stop = match row.stop.as_deref() {
        None => None,
        Some(s) => Some(stop_from_text(s).ok_or_else(|| corrupt(format!("end `{s}`")))?),
    };
    let redo = row
        .redo
        .chars()
        .map(|c| Move::from_letter(c).ok_or_else(|| corrupt(format!("redo move `{c}`"))))
        .collect::<Result<Vec<_>, _>>()?;
    game.set_redo_list(redo)
        .map_err(|e| corrupt(format!("redo list: {e}")))?;
    let seats = row.seats.map(|(player, name)| {
        player.map(|p| Seat {
            player: PlayerId(p),
            name: name.unwrap_or_default(),
        })
    });
    let optional_side = |t: Option<String>| t.as_deref().map(side).transpose();
    Ok(Some(WebGame {
        id,
        created_ms: row.created_ms,
        mode,
        seats,
        public: row.public,
        seed: row.seed as u64,
        clock: row.clock,
        turn_started_ms: row.turn_started_ms.unwrap_or(row.created_ms),
        stop,
        offers: Offers {
            takeback: optional_side(row.takeback)?,
            rematch: optional_side(row.rematch)?,
            rematch_id: row.rematch_id,
        },
        game,
    }))
}

struct Row {
    created_ms: i64,
    rules: String,
    start: String,
    mode: String,
    human: Option<String>,
    level: Option<u8>,
    seed: i64,
    clock: Option<Clock>,
    turn_started_ms: Option<i64>,
    resigned: Option<String>,
    stop: Option<String>,
    redo: String,
    public: bool,
    seats: [(Option<String>, Option<String>); 2],
    takeback: Option<String>,
    rematch: Option<String>,
    rematch_id: Option<i64>,
}

const SUMMARY_COLUMNS: &str = "id, created_ms, updated_ms, mode, human, level, rules, plies,
    result, reason, south_name, north_name";

/// The games of `player` (by their seats) and those made without a
/// player, newest first: three index scans merged, so a long list of
/// other players' games costs nothing.
fn list_games(
    conn: &Connection,
    player: Option<&PlayerId>,
    before: Option<(i64, i64)>,
    limit: usize,
    unfinished: bool,
) -> Result<Page, StoreError> {
    let (t, i) = before.unwrap_or((i64::MAX, i64::MAX));
    let page = "(updated_ms < ?2 OR (updated_ms = ?2 AND id < ?3))";
    let open = if unfinished {
        "AND result = '*' AND stop IS NULL AND NOT (mode = 'online' AND (south_player IS NULL OR north_player IS NULL))"
    } else {
        ""
    };
    let branch = |filter: &str| {
        format!(
            "SELECT * FROM (SELECT {SUMMARY_COLUMNS} FROM games WHERE {filter} AND {page} {open}
             ORDER BY updated_ms DESC, id DESC LIMIT ?4)"
        )
    };
    let sql = format!(
        "SELECT * FROM ({} UNION {} UNION {}) ORDER BY updated_ms DESC, id DESC LIMIT ?4",
        branch("south_player = ?1"),
        branch("north_player = ?1"),
        branch("south_player IS NULL AND north_player IS NULL AND mode != 'online'"),
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let who = player.map_or("", |p| p.0.as_str());
    let rows = stmt.query_map(params![who, t, i, limit as i64 + 1], |r| {
        Ok(Summary {
            id: r.get(0)?,
            created_ms: r.get(1)?,
            updated_ms: r.get(2)?,
            mode: r.get(3)?,
            human: r.get(4)?,
            level: r.get(5)?,
            rules: r.get(6)?,
            plies: r.get(7)?,
            result: r.get(8)?,
            reason: r.get(9)?,
            names: [r.get(10)?, r.get(11)?],
        })
    })?;
    let mut games = rows.collect::<Result<Vec<_>, _>>()?;
    let next = if games.len() > limit {
        games.truncate(limit);
        games.last().map(|g| format!("{}.{}", g.updated_ms, g.id))
    } else {
        None
    };
    Ok(Page { games, next })
}

/// Reads a [`Page::next`] back.
pub fn parse_cursor(text: &str) -> Option<(i64, i64)> {
    let (t, i) = text.split_once('.')?;
    Some((t.parse().ok()?, i.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> WebGame {
        WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 1_000, 7)
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_saved_game_loads_back_the_same() {
        runtime().block_on(async {
            let store = Store::in_memory().unwrap();
            let mut g = store.create(vec![game()]).await.unwrap().remove(0);
            for c in "FfAa".chars() {
                g.play(Move::from_letter(c).unwrap(), 2_000).unwrap();
            }
            g.seats = [
                Some(Seat {
                    player: PlayerId("p1".into()),
                    name: "Ama".into(),
                }),
                None,
            ];
            g.stop = Some(Stop::Time(Side::North));
            store.save(g.clone(), 0).await.unwrap();
            let back = store.load(g.id).await.unwrap().unwrap();
            assert_eq!(back.game.plies(), g.game.plies());
            assert_eq!(back.seats, g.seats);
            assert_eq!(back.stop, g.stop);
            assert_eq!(back.turn_started_ms, 2_000);
        });
    }

    #[test]
    fn a_failing_write_does_not_spoil_the_others_of_its_batch() {
        runtime().block_on(async {
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
        });
    }

    #[test]
    fn pages_follow_each_other_without_gaps_or_repeats() {
        runtime().block_on(async {
            let store = Store::in_memory().unwrap();
            let made = store
                .create((0..25).map(|_| game()).collect())
                .await
                .unwrap();
            let mut seen = Vec::new();
            let mut before = None;
            loop {
                let page = store.list(None, before, 10).await.unwrap();
                seen.extend(page.games.iter().map(|g| g.id));
                match page.next {
                    Some(n) => before = parse_cursor(&n),
                    None => break,
                }
            }
            let mut ids: Vec<i64> = made.iter().map(|g| g.id).collect();
            ids.reverse();
            assert_eq!(seen, ids);
        });
    }
}
