//! The game server's model, below every other layer of the server: a
//! stored game ([`game::WebGame`]: seats, clock, ends the rules do not know,
//! offers; every operation checks who asks), what a page sees of it
//! ([`view`]), the records of lists it sees ([`lists`]: games, the
//! lobby, chat lines, results) and the server's own [`error::Error`]. No input or output:
//! the store (`awale-store`) keeps these games, the service
//! (`awale-service`) runs them, the HTTP crate (`awale-web`) serves them.
#![deny(missing_docs)]

pub mod account;
pub mod code;
pub mod error;
pub mod game;
pub mod lists;
pub mod rating;
pub mod secret;
pub mod view;

pub use code::Code;
pub use error::{Error, Kind};

/// Locks `m`, going on when a thread panicked while holding it: every value
/// the server keeps behind such a lock is whole between two statements (a
/// map, a counter), so what a panic left is still good to use. The one
/// place the server's crates lock a mutex.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
