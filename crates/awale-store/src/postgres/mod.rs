//! The store in PostgreSQL ([`PgStore`]), for a site served by several
//! processes sharing one database: the same tables and guarantees as the
//! games file (each change written whole or not at all, answered once
//! committed; a failed change leaves the game as it was), plus what several processes
//! need:
//!
//! - every change of a game is written only over the revision it was made
//!   from (a fencing token kept in the row, checked under the row's lock in
//!   the change's transaction): of two processes that race for one ply,
//!   the second gets [`StoreError::Stale`];
//! - every committed change is announced (`NOTIFY awale`, sent by the
//!   database at commit) to the other processes, which hear it on a
//!   connection of their own ([`PgStore::notices`]);
//! - a process holds a shared advisory lock while it runs, so one that
//!   starts knows whether the site was down (no process held it) before it
//!   gives the clocks their time back.
//!
//! The work runs on the store's own Tokio runtime (two threads), so the
//! callers' runtime, and those that call before any runtime exists, never
//! hold a connection's task. The games' changes saved at one moment share
//! one transaction (`group.rs`: each with its own answer, fenced and
//! announced as alone), and concurrent transactions on the pool's
//! connections share one WAL flush.

use std::future::Future;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::broadcast;
use tokio_postgres::NoTls;

use crate::error::StoreFuture;
use crate::games::{Change, GameHooks};
use crate::interface::Notice;
use crate::tx::Backend;
use crate::StoreError;
use awale_model::game::WebGame;
use awale_model::lock;

mod group;
mod rows;
pub(crate) mod schema;
mod seeks;
mod tournaments;
mod tx;

pub(crate) use tx::PgTx;

pub use schema::SCHEMA_VERSION as PG_SCHEMA_VERSION;

/// Connections in the pool: writes and reads at once.
const POOL_SIZE: usize = 16;
/// The channel changes are announced on.
pub(crate) const CHANNEL: &str = "awale";
/// The key of the advisory lock every running process holds (shared).
const SITE_LOCK: i64 = 0x4177_616C_0002;
/// How long the listener waits before connecting again.
const LISTEN_RETRY: Duration = Duration::from_millis(500);
/// Notices waiting for a slow reader before it is told to catch up.
const NOTICES_KEPT: usize = 4096;

/// The game store in PostgreSQL.
#[derive(Clone)]
pub struct PgStore {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    config: tokio_postgres::Config,
    /// The address without its password, for messages.
    shown: String,
    /// This process's mark on the notices it sends (it skips its own).
    origin: u64,
    notices: broadcast::Sender<Notice>,
    /// The connection holding the site's lock (shared) once this process
    /// serves (from [`GameStore::resume_clocks_blocking`] on).
    site: tokio::sync::Mutex<Option<tokio_postgres::Client>>,
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    handle: tokio::runtime::Handle,
    /// The transactions this process ran (see [`PgStore::transactions`])
    /// and the notices it heard ([`PgStore::notices_heard`]).
    counts: Arc<Counts>,
    /// The games' changes waiting to be saved together (`group.rs`).
    saves: tokio::sync::mpsc::UnboundedSender<group::Pending>,
}

/// The transactions a process ran, counted as they are sent, and the
/// notices it heard.
#[derive(Default)]
pub(crate) struct Counts {
    pub(crate) reads: AtomicU64,
    pub(crate) writes: AtomicU64,
    /// The other processes' notices passed on to this one's readers.
    notices: AtomicU64,
}

/// The transactions a process ran on the database since it connected, as
/// `pg_stat_database` counts them (each a commit): [`PgStore::transactions`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Transactions {
    /// Reads of games and lists (each statement alone is a transaction of
    /// its own), revision checks included.
    pub reads: u64,
    /// Writes (`BEGIN` ... `COMMIT`), the heartbeat's (one each 5 s)
    /// included.
    pub writes: u64,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(runtime) = lock(&self.runtime).take() {
            // Allowed inside an async context, unlike a plain drop.
            runtime.shutdown_background();
        }
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Backend(Box::new(e))
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Backend(Box::new(e))
    }
}

/// Whether `text` names a PostgreSQL database rather than a games file.
pub fn is_postgres_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// `url` without its password, to be shown.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((who, place)) => {
            let user = who.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{place}")
        }
        None => url.to_string(),
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER@HOST/DB`, or
    /// the socket's folder as `?host=/path`), checks it is empty or this
    /// program's, and migrates it. Callable with or without a runtime.
    ///
    /// # Errors
    ///
    /// [`StoreError::Refused`] saying why: an address that does not parse,
    /// a server that cannot be reached, another program's tables, a newer
    /// schema.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let shown = shown(url);
        let config = tokio_postgres::Config::from_str(url).map_err(|e| {
            StoreError::Refused(format!(
                "{shown} is not a PostgreSQL address ({e}): give postgres://USER@HOST/DATABASE"
            ))
        })?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("awale-pg")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Refused(format!("cannot start the store's threads: {e}")))?;
        let handle = runtime.handle().clone();
        let (saves, waiting) = tokio::sync::mpsc::unbounded_channel();
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|e| StoreError::Refused(format!("cannot make the connection pool: {e}")))?;
        let store = PgStore {
            inner: Arc::new(Inner {
                pool,
                config,
                shown: shown.clone(),
                origin: awale_model::game::random_seed(),
                notices: broadcast::channel(NOTICES_KEPT).0,
                site: tokio::sync::Mutex::new(None),
                runtime: Mutex::new(Some(runtime)),
                handle,
                counts: Arc::default(),
                saves,
            }),
        };
        let me = store.clone();
        store.block(async move {
            let mut client = me.inner.pool.get().await.map_err(|e| {
                StoreError::Refused(format!("cannot reach the database {}: {e}", me.inner.shown))
            })?;
            schema::setup(&mut client, &me.inner.shown).await
        })?;
        let me = Arc::downgrade(&store.inner);
        store.inner.handle.spawn(listen(me.clone()));
        store.inner.handle.spawn(group::gather(me, waiting));
        Ok(store)
    }

    /// The transactions this process ran since it connected: the games'
    /// reads and writes, the lists', the accounts' (not the pools' seeks,
    /// the tournaments' own statements, nor the look for overdue flags,
    /// one each 2 s). What a process pays the database, counted where it
    /// is asked (issue 39: a process pays nothing for the moves of a game
    /// none of its clients plays or watches).
    pub fn transactions(&self) -> Transactions {
        let counts = &self.inner.counts;
        Transactions {
            reads: counts.reads.load(Ordering::Relaxed),
            writes: counts.writes.load(Ordering::Relaxed),
        }
    }

    /// How many of the other processes' notices this one has heard and
    /// passed on since it connected: what a test waits for before it
    /// counts what came of them.
    pub fn notices_heard(&self) -> u64 {
        self.inner.counts.notices.load(Ordering::Relaxed)
    }

    /// The database's address, without its password.
    pub fn shown(&self) -> &str {
        &self.inner.shown
    }

    /// Stops the store: work not yet begun fails with
    /// [`StoreError::Closed`]; what is committed stays.
    pub fn close(&self) {
        if let Some(runtime) = lock(&self.inner.runtime).take() {
            runtime.shutdown_background();
        }
    }

    /// Runs `work` on the store's runtime; its answer, awaited anywhere.
    fn run<T, F>(&self, work: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let task = self.inner.handle.spawn(work);
        Box::pin(async move { task.await.map_err(|_| StoreError::Closed)? })
    }

    /// Runs `work` on the store's runtime and waits for it on this thread.
    fn block<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let (reply, answer) = std::sync::mpsc::channel();
        self.inner.handle.spawn(async move {
            let _ = reply.send(work.await);
        });
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    /// Runs `work` on the store's runtime with a connection of the pool.
    fn with_client<T, F, Fut>(&self, work: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let me = self.clone();
        self.run(async move { work(me.client().await?).await })
    }

    /// The ids a query (without parameters) lists, waited for on this
    /// thread: what a start takes up again.
    fn ids_blocking(&self, sql: &str) -> Result<Vec<i64>, StoreError> {
        let me = self.clone();
        let sql = sql.to_string();
        self.block(async move {
            rows::query_all(&me.client().await?, &sql, &[], |r| r.try_get(0)).await
        })
    }

    /// A connection of the pool.
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        Ok(self.inner.pool.get().await?)
    }

    /// The notice of `game`'s change, sent at the transaction's commit.
    async fn announce(
        &self,
        tx: &impl deadpool_postgres::GenericClient,
        notice: Notice,
    ) -> Result<(), StoreError> {
        let text = format!("{} {}", self.inner.origin, notice.to_text());
        let notify = tx::cached(tx, "SELECT pg_notify($1, $2)").await?;
        tx.execute(&notify, &[&CHANNEL, &text]).await?;
        Ok(())
    }

    /// The pool, for the copy of a games file.
    pub(crate) fn pool(&self) -> &Pool {
        &self.inner.pool
    }

    /// Runs `work` on the store's runtime, waiting on this thread.
    pub(crate) fn block_on<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        self.block(work)
    }
}

/// Hears the other processes' notices and passes them on; on a lost
/// connection, connects again and tells the readers to catch up
/// ([`Notice::Resync`]).
async fn listen(store: std::sync::Weak<Inner>) {
    let mut first = true;
    loop {
        let Some(inner) = store.upgrade() else { return };
        let config = inner.config.clone();
        let origin = inner.origin;
        let sender = inner.notices.clone();
        let counts = Arc::clone(&inner.counts);
        drop(inner);
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (notes, mut heard) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    use futures_util::StreamExt;
                    while let Some(message) = messages.next().await {
                        match message {
                            Ok(tokio_postgres::AsyncMessage::Notification(n)) => {
                                let _ = notes.send(n.payload().to_string());
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!(error = %e, "the store's listener lost its connection");
                                return;
                            }
                        }
                    }
                });
                let listen = format!("LISTEN {CHANNEL}");
                let ready = client.batch_execute(&listen);
                match ready.await {
                    Ok(()) => {
                        if !first {
                            let _ = sender.send(Notice::Resync);
                        }
                        first = false;
                        while let Some(text) = heard.recv().await {
                            let Some((from, rest)) = text.split_once(' ') else {
                                continue;
                            };
                            if from.parse::<u64>().ok() == Some(origin) {
                                continue;
                            }
                            if let Some(notice) = Notice::from_text(rest) {
                                let _ = sender.send(notice);
                                counts.notices.fetch_add(1, Ordering::Relaxed);
                            }
                            if store.strong_count() == 0 {
                                return;
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "the store's listener could not listen"),
                }
                driver.abort();
            }
            Err(e) => tracing::warn!(error = %e, "the store's listener cannot connect"),
        }
        tokio::time::sleep(LISTEN_RETRY).await;
    }
}

impl GameHooks for PgStore {
    fn resume_clocks_here(&self, now: i64) -> Result<i64, StoreError> {
        let me = self.clone();
        self.block(async move {
            let mut client = me.client().await?;
            let tx = client.transaction().await?;
            // Processes starting at once take turns here.
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', NULL) ON CONFLICT DO NOTHING",
                &[],
            )
            .await?;
            let alive: Option<i64> = rows::value_one(
                &tx,
                "SELECT value FROM meta WHERE key = 'alive_ms' FOR UPDATE",
                &[],
            )
            .await?;
            // Another process running holds the site's lock (shared): the
            // site was up, nobody's time is given back.
            let alone: bool =
                rows::value_one(&tx, "SELECT pg_try_advisory_xact_lock($1)", &[&SITE_LOCK]).await?;
            let down = if alone {
                alive.map_or(0, |a| (now - a).max(0))
            } else {
                0
            };
            if down > 0 {
                tx.execute(
                    "UPDATE games SET turn_started_ms = turn_started_ms + $1
                     WHERE result = '*' AND stop IS NULL AND turn_started_ms IS NOT NULL",
                    &[&down],
                )
                .await?;
            }
            tx.execute(
                "UPDATE meta SET value = GREATEST(COALESCE(value, $1), $1) WHERE key = 'alive_ms'",
                &[&now],
            )
            .await?;
            tx.commit().await?;
            // This process serves now: the next to start knows the site
            // is up while this connection lives (it ends with the process).
            let (site, connection) = me.inner.config.connect(NoTls).await?;
            tokio::spawn(connection);
            site.execute("SELECT pg_advisory_lock_shared($1)", &[&SITE_LOCK])
                .await?;
            *me.inner.site.lock().await = Some(site);
            Ok(down)
        })
    }

    fn stored_revision(&self, id: i64) -> StoreFuture<'_, Option<i64>> {
        self.inner.counts.reads.fetch_add(1, Ordering::Relaxed);
        self.with_client(move |client| async move {
            rows::value_opt(&client, "SELECT revision FROM games WHERE id = $1", &[&id]).await
        })
    }

    fn newer(
        &self,
        held: WebGame,
        revision: i64,
        kept: usize,
    ) -> Option<StoreFuture<'_, Option<WebGame>>> {
        Some(self.read(move |tx| {
            Box::pin(async move { rows::load_newer(tx, &held, revision, kept).await })
        }))
    }

    fn overdue(&self, before_ms: i64, limit: usize) -> StoreFuture<'_, Vec<i64>> {
        self.with_client(move |client| async move {
            rows::overdue_flags(&client, before_ms, limit).await
        })
    }

    fn seeks(&self) -> Option<Arc<dyn crate::seeks::SeekStore>> {
        Some(Arc::new(self.clone()))
    }

    fn heard(&self) -> Option<broadcast::Receiver<Notice>> {
        Some(self.inner.notices.subscribe())
    }

    fn save_change(&self, game: WebGame, change: Change) -> StoreFuture<'_, ()> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let sent = self.inner.saves.send(group::Pending {
            game,
            change,
            answer,
        });
        Box::pin(async move {
            // Refused: the store is closing.
            sent.map_err(|_| StoreError::Closed)?;
            answered.await.map_err(|_| StoreError::Closed)?
        })
    }
}
