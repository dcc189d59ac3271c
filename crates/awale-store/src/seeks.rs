//! The pools' seeks shared by the processes of one site ([`SeekStore`]):
//! each process writes its seekers here, every process pairs over all of
//! them, and a pairing is claimed in one transaction (both seeks or
//! neither), so two processes never pair one seeker twice. Only a store
//! several processes share has them (PostgreSQL); one process keeps its
//! pools in memory.
//!
//! Seeks are not kept data: a seek lives while its page renews it (every
//! few seconds), so the table is unlogged (no WAL; emptied by a crash of
//! the database, after which the pages seek again) and made at start
//! outside the schema's versions, and `awale store migrate` has nothing to
//! copy.

use awale_model::game::PlayerId;

use crate::error::StoreFuture;

/// A seek as the processes share it: who seeks in which pool, with what
/// the pairing needs of them.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// The seek's number, given by the store (0 before).
    pub id: i64,
    /// Who seeks.
    pub player: PlayerId,
    /// The pool's name (`3+2`).
    pub pool: String,
    /// Their name as the game shows it.
    pub name: String,
    /// An account (rated), or a guest.
    pub account: bool,
    /// Their rating in the pool's speed.
    pub rating: f64,
    /// Their recent games' colours (South +1, North -1).
    pub balance: i32,
    /// A range of their own: the lowest and highest rating accepted.
    pub limits: Option<(f64, f64)>,
    /// Since when they seek in this pool.
    pub since_ms: i64,
}

/// What a paired seeker is told: the game made for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// The game's public id.
    pub game: String,
    /// `S` or `N`.
    pub side: char,
    /// Whether it is rated.
    pub rated: bool,
}

/// What a renewed seek finds.
#[derive(Clone, Debug, PartialEq)]
pub enum Renewed {
    /// Still seeking: the seek as stored (its number, and since when it
    /// waits: kept over a renewal in the same pool).
    Seeking(SeekRow),
    /// Paired meanwhile (the seek is gone).
    Paired(Paired),
}

/// The seeks of the pools, for a store several processes share.
pub trait SeekStore: Send + Sync {
    /// Puts `seek` (or renews it, seen at `now`; a renewal in the same pool
    /// keeps its `since_ms`), unless the player was paired meanwhile: then
    /// the pairing, told once.
    fn renew_seek(&self, seek: SeekRow, now: i64) -> StoreFuture<'_, Renewed>;

    /// Drops `player`'s seek: whether there was one.
    fn drop_seek(&self, player: PlayerId) -> StoreFuture<'_, bool>;

    /// The seeks waiting to be paired, after dropping those not renewed
    /// since `stale_ms`, and giving back to the pool those claimed before
    /// `stale_ms` whose pairing never came (the process that claimed them
    /// was lost).
    fn waiting_seeks(&self, stale_ms: i64) -> StoreFuture<'_, Vec<SeekRow>>;

    /// Claims the seeks `a` and `b` for a pairing at `now`: both, when both
    /// still wait, or neither (another process paired one of them first).
    fn claim_seeks(&self, a: i64, b: i64, now: i64) -> StoreFuture<'_, bool>;

    /// Gives claimed seeks back to the pool (their game could not be made).
    fn release_seeks(&self, seeks: Vec<i64>) -> StoreFuture<'_, ()>;

    /// Tells the claimed seek `seek` its pairing (announced to every
    /// process as [`crate::Notice::Paired`]).
    fn tell_paired(&self, seek: i64, paired: Paired) -> StoreFuture<'_, ()>;

    /// The pairing of seek `seek`, taken (told once): None when it is not
    /// paired, or was told already.
    fn take_paired(&self, seek: i64) -> StoreFuture<'_, Option<Paired>>;
}
