//! The store in SQLite ([`Store`]): one file (WAL, synchronous=FULL),
//! written by one thread that commits whatever is waiting in one
//! transaction (group commit: one disk sync for many moves) and answers
//! each write only once it is durable; read by a small pool of read-only
//! connections. Nothing here runs on the async threads.
//!
//! The file carries the program's `application_id` and a schema version
//! (`user_version`) with migrations; a damaged file, a read-only file or
//! another program's database is refused at start with what to do.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags};

use crate::error::StoreError;
use awale_model::lock;
use schema::setup;

mod games;
pub(crate) mod rows;
pub(crate) mod schema;
mod tournaments;
mod tx;

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Backend(Box::new(e))
    }
}

type Finish = Box<dyn FnOnce(bool) + Send>;
/// A write: run inside the batch's transaction (None when the batch could
/// not begin), it gives back what to do once the batch is committed (true)
/// or not.
type Job = Box<dyn FnOnce(Option<&Shared>) -> Finish + Send>;

/// A connection `Lite` steps may share (one at a time: its lock).
pub(crate) type Shared = Arc<Mutex<Connection>>;

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
        let wal = Wal {
            path: wal_path(path),
            retry_at: None,
        };
        let thread = std::thread::Builder::new()
            .name("awale-store".into())
            .spawn(move || write_loop(conn, rx, wal))
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
        self.write_shared(move |conn| in_savepoint(&lock(conn), work))
            .await
    }

    /// [`Store::write`] of work on the shared connection (the steps of a
    /// [`Lite`] transaction).
    ///
    /// # Errors
    ///
    /// `work`'s error, or the commit's.
    pub(crate) async fn write_shared<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Shared) -> Result<T, StoreError> + Send + 'static,
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
        let work = move |conn: &Shared| in_savepoint(&lock(conn), work);
        self.submit(work, move |r| {
            let _ = reply.send(r);
        })?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    fn submit<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Shared) -> Result<T, StoreError> + Send + 'static,
        reply: impl FnOnce(Result<T, StoreError>) + Send + 'static,
    ) -> Result<(), StoreError> {
        let job: Job = Box::new(move |conn| {
            let Some(conn) = conn else {
                return Box::new(move |_| reply(Err(StoreError::Closed))) as Finish;
            };
            let result = work(conn);
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
        self.read_shared(move |conn| work(&lock(conn))).await
    }

    /// [`Store::read`] of work on a shared connection (the steps of a
    /// [`Lite`] read).
    ///
    /// # Errors
    ///
    /// `work`'s error, or the connection's.
    pub(crate) async fn read_shared<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Shared) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let _turn = self
            .inner
            .reading
            .acquire()
            .await
            .map_err(|_| StoreError::Closed)?;
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.read_shared_blocking(work))
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
        self.read_shared_blocking(|conn| work(&lock(conn)))
    }

    /// [`Store::read_shared`] from a thread that may block.
    ///
    /// # Errors
    ///
    /// As [`Store::read`].
    pub(crate) fn read_shared_blocking<T>(
        &self,
        work: impl FnOnce(&Shared) -> Result<T, StoreError>,
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
        let shared = Arc::new(Mutex::new(conn));
        let result = work(&shared);
        let back = Arc::try_unwrap(shared).ok().map(|m| {
            m.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        });
        let mut readers = lock(&self.inner.readers);
        if let Some(conn) = back.filter(|_| readers.len() < MAX_IDLE_READERS) {
            readers.push(conn);
        }
        result
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

/// Runs the steps of `work` inside a savepoint of the writer's
/// transaction, on the shared connection (each step takes its lock).
fn in_savepoint_shared<T>(
    conn: &Shared,
    work: impl FnOnce(&Shared) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    lock(conn).execute_batch("SAVEPOINT job")?;
    let result = work(conn);
    end_savepoint(&lock(conn), result)
}

fn in_savepoint<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    conn.execute_batch("SAVEPOINT job")?;
    let result = work(conn);
    end_savepoint(conn, result)
}

/// Ends savepoint `job` as its work went: released when the work
/// succeeded, rolled back to (and released) when it failed, so that a
/// failed step leaves nothing behind; the work's result either way.
fn end_savepoint<T>(conn: &Connection, result: Result<T, StoreError>) -> Result<T, StoreError> {
    match result {
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

/// The log's size beyond which the writer, between two batches, folds it
/// into the file and empties it (`TRUNCATE`).
pub const WAL_LIMIT_BYTES: u64 = 16 * 1024 * 1024;

/// The size the log is kept under at any load: from half of it, the
/// writer waits longer for the readers of the moment before its next
/// batch, and tries at every batch. Every read is short (a statement, or
/// a few, each its own snapshot); only a long one (a backup's `VACUUM
/// INTO`) can hold the log back meanwhile.
pub const WAL_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// The games file's write-ahead log (`FILE-wal`).
fn wal_path(path: &Path) -> PathBuf {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    PathBuf::from(wal)
}

/// Folds the write-ahead log into the file now and then, on a connection
/// of its own, so the writer never stops for it (the writer's own
/// automatic checkpoints are off): passive checkpoints, which copy the
/// log's pages into the file beside the writes, and the log emptied
/// (`TRUNCATE`) once it has stopped growing (the server is idle). A
/// passive checkpoint cannot start the log over while the writer keeps
/// adding to it, and a `TRUNCATE` from here waits for the write lock the
/// writer takes again at once: under steady writes the log grew to
/// 469 MB. So the writer itself empties it between batches
/// ([`Wal::fold`]) once it passes [`WAL_LIMIT_BYTES`].
fn checkpoint_loop(path: &Path, stop: &std::sync::atomic::AtomicBool) {
    let conn = match Connection::open(path) {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "no checkpoints: the log will grow until the server stops");
            return;
        }
    };
    let _ = conn.busy_timeout(std::time::Duration::from_secs(1));
    let wal = wal_path(path);
    let size = || std::fs::metadata(&wal).map_or(0, |m| m.len());
    let mut last = size();
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(CHECKPOINT_EVERY);
        let now = size();
        let idle = now == last && now > 0;
        let mode = if idle { "TRUNCATE" } else { "PASSIVE" };
        let pragma = format!("PRAGMA wal_checkpoint({mode})");
        if let Err(e) = conn.query_row(&pragma, [], |_| Ok(())) {
            tracing::debug!(error = %e, "checkpoint skipped");
        }
        last = size();
    }
}

/// The log as the writer keeps it bounded.
struct Wal {
    path: PathBuf,
    /// After a fold the readers kept from completing: not tried again
    /// before then, unless the log nears [`WAL_MAX_BYTES`].
    retry_at: Option<std::time::Instant>,
}

impl Wal {
    /// How long the writer waits at most for the readers of the moment
    /// to finish, below and above half of [`WAL_MAX_BYTES`].
    const WAIT: std::time::Duration = std::time::Duration::from_millis(100);
    const WAIT_NEAR_MAX: std::time::Duration = std::time::Duration::from_secs(2);
    /// How long after a fold that could not complete the next is tried.
    const RETRY: std::time::Duration = std::time::Duration::from_millis(250);

    /// Between two batches (no write under way, the write lock free): when
    /// the log has passed [`WAL_LIMIT_BYTES`], folds it into the file and
    /// empties it, waiting for the readers still on its pages (their
    /// snapshots are short). Near [`WAL_MAX_BYTES`] it waits longer, and
    /// tries again at each batch rather than let the log grow.
    fn fold(&mut self, conn: &Connection) {
        let size = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if size <= WAL_LIMIT_BYTES {
            return;
        }
        let near_max = size >= WAL_MAX_BYTES / 2;
        let now = std::time::Instant::now();
        if !near_max && self.retry_at.is_some_and(|at| now < at) {
            return;
        }
        let wait = if near_max {
            Self::WAIT_NEAR_MAX
        } else {
            Self::WAIT
        };
        let _ = conn.busy_timeout(wait);
        let busy = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            r.get::<_, i64>(0)
        });
        let _ = conn.busy_timeout(std::time::Duration::from_secs(5));
        match busy {
            Ok(0) => self.retry_at = None,
            Ok(_) => self.retry_at = Some(now + Self::RETRY),
            Err(e) => {
                tracing::debug!(error = %e, "the log could not be emptied yet");
                self.retry_at = Some(now + Self::RETRY);
            }
        }
    }
}

/// The writer: takes every write waiting (up to [`MAX_BATCH`]), runs them
/// in one transaction, commits (one disk sync), then answers each, and
/// keeps the log bounded ([`Wal::fold`]). When the store closes, folds the
/// write-ahead log into the file.
fn write_loop(conn: Connection, jobs: mpsc::Receiver<Job>, mut wal: Wal) {
    let shared: Shared = Arc::new(Mutex::new(conn));
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let began = lock(&shared).execute_batch("BEGIN IMMEDIATE").is_ok();
        let finishes: Vec<Finish> = batch
            .into_iter()
            .map(|job| job(began.then_some(&shared)))
            .collect();
        let conn = lock(&shared);
        let committed = began && conn.execute_batch("COMMIT").is_ok();
        if began && !committed {
            tracing::error!("the game store could not commit a batch of writes");
            let _ = conn.execute_batch("ROLLBACK");
        }
        drop(conn);
        for finish in finishes {
            finish(committed);
        }
        wal.fold(&lock(&shared));
    }
    let conn = lock(&shared);
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
        tracing::error!(error = %e, "the game store's log could not be folded into the file");
    }
}

// The guarantees of every store are checked on both in `tests/stores.rs`;
// here, what only the games file does.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AccountStore, GameStore};
    use awale_core::{Game, Move, Rules};
    use awale_model::error::Error;
    use awale_model::game::Mode;
    use awale_model::game::{PlayerId, WebGame};

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
                include_str!("../v1.sql"),
                include_str!("../v2.sql"),
                include_str!("../v3.sql"),
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
