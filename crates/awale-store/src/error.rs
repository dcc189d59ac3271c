//! What a store call fails with, in either store.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use awale_model::error::Error;
use awale_model::Code;

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

/// What a store's calls give: a future that may be sent between threads.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;
