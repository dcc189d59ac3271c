//! Awalé's stored games, behind one interface ([`GameStore`] and the
//! stores beside it: accounts, ratings, tournaments, mistakes, seeks) and
//! two stores that fill it: SQLite ([`Store`], `sqlite/`: one file, one
//! writer thread with group commit) and PostgreSQL ([`PgStore`],
//! `postgres/`: one database several server processes share). What both
//! run the same way (the SQL of each table, a row read into a record, a
//! transaction's steps) is written once, here beside the interface.

mod accounts;
mod cells;
mod change;
mod copy;
mod error;
pub mod explorer;
pub mod fairplay;
mod games;
mod interface;
pub mod mistakes;
pub mod moderation;
mod postgres;
pub mod puzzles;
pub mod ratings;
pub mod reviewed;
mod rows;
mod schema;
pub mod seeks;
mod sqlite;
mod stored_text;
pub mod tournament_chat;
pub mod tournaments;
mod tx;

/// The throwaway PostgreSQL cluster of the store's tests, for the unit
/// tests that look at PostgreSQL's plans.
#[cfg(test)]
#[path = "../tests/pg/mod.rs"]
mod test_cluster;

pub use accounts::{AccountStore, NewAccount, NewReport, TOKEN_USE_KEPT_MS};
pub use change::GameChange;
pub use copy::{copy_to_postgres, CopyReport};
pub use error::{StoreError, StoreFuture};
pub use explorer::{ExplorerStore, OpeningFilter, OpeningMove};
pub use fairplay::FairPlayStore;
pub use interface::{GameStore, Nickname, Notice};
pub use mistakes::{MistakeRow, MistakeStore};
pub use moderation::ModerationStore;
pub use postgres::{is_postgres_url, PgStore, Transactions, PG_SCHEMA_VERSION};
pub use puzzles::{PuzzleStore, SolverRow};
pub use ratings::RatingStore;
pub use rows::{parse_cursor, CHAT_KEPT};
pub use seeks::SeekStore;
pub use sqlite::{Store, WAL_LIMIT_BYTES, WAL_MAX_BYTES};
pub use tournaments::TournamentStore;

/// Every interface both stores fill, in one: what a server keeps its
/// games, accounts, ratings, tournaments and their chat, mistakes and
/// openings in (either store, or a `dyn Stores` in the contract suite).
pub trait Stores:
    GameStore
    + AccountStore
    + RatingStore
    + TournamentStore
    + tournament_chat::TournamentChatStore
    + MistakeStore
    + ExplorerStore
    + PuzzleStore
    + reviewed::ReviewedStore
    + ModerationStore
    + FairPlayStore
{
}
impl Stores for Store {}
impl Stores for PgStore {}
