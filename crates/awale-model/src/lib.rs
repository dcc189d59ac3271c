//! The game server's model, below every other layer of the server: a
//! stored game ([`game::WebGame`]: seats, clock, ends the rules do not know,
//! offers; every operation checks who asks), what a page sees of it
//! ([`view`]) and the server's own [`error::Error`]. No input or output:
//! the store (`awale-store`) keeps these games, the service
//! (`awale-service`) runs them, the HTTP crate (`awale-web`) serves them.
#![deny(missing_docs)]

pub mod error;
pub mod game;
pub mod view;

pub use error::{Error, Kind};
