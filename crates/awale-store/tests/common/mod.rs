//! What the store's tests share: a check run on a new store of each kind
//! (the games file, then PostgreSQL on the throwaway cluster of
//! `pg/mod.rs`), two processes on one PostgreSQL database, the players.
//! Each test program declares `mod pg;` beside `mod common;`.
#![allow(dead_code)]

use std::future::Future;
use std::sync::Arc;

use awale_model::game::PlayerId;
use awale_store::tournament_chat::TournamentChatStore;
use awale_store::{AccountStore, GameStore, Notice, PgStore, RatingStore, Store, TournamentStore};
use awale_store::{ExplorerStore, MistakeStore, ModerationStore};

use crate::pg;

/// Every interface both stores fill, in one (the checks take either as a
/// `dyn Stores`).
pub trait Stores:
    GameStore
    + AccountStore
    + RatingStore
    + TournamentStore
    + TournamentChatStore
    + MistakeStore
    + ExplorerStore
    + ModerationStore
{
}
impl Stores for Store {}
impl Stores for PgStore {}

/// A runtime on the test's own thread.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A store on a new database of the cluster.
pub fn postgres() -> PgStore {
    PgStore::connect(&pg::cluster().database()).unwrap()
}

/// Two stores on one new database, as two processes of one site.
pub fn two_processes() -> (PgStore, PgStore) {
    let url = pg::cluster().database();
    (
        PgStore::connect(&url).unwrap(),
        PgStore::connect(&url).unwrap(),
    )
}

/// Runs `check` on a new store of each kind: the games file, then
/// PostgreSQL.
pub fn on_both<F, Fut>(check: F)
where
    F: Fn(Arc<dyn Stores>) -> Fut,
    Fut: Future<Output = ()>,
{
    runtime().block_on(async {
        check(Arc::new(Store::in_memory().unwrap())).await;
        check(Arc::new(postgres())).await;
    });
}

/// The next notice `heard` gets from another process, within 5 s.
pub async fn next_notice(heard: &mut tokio::sync::broadcast::Receiver<Notice>) -> Notice {
    tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv())
        .await
        .expect("a notice within 5 s")
        .unwrap()
}

/// Player `n`, an id of the length the service makes.
pub fn player(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}
