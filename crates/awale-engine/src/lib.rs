//! The Awalé engine: alpha-beta search over the rules of `awale-core`, an
//! evaluation tuned on self-play data, time management, and strength levels
//! for people.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use awale_core::{Game, Rules};
//! use awale_engine::{Engine, EngineOptions, Limits};
//!
//! let mut engine = Engine::new(EngineOptions::default());
//! let game = Game::new(Rules::AWALE);
//! let stop = AtomicBool::new(false);
//! let result = engine.search(&game, &Limits::depth(6), &stop, &mut |_| {});
//! assert!(game.position().is_legal(result.best.unwrap(), game.rules()));
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod book;
pub mod clock;
pub mod eval;
pub mod explain;
pub mod level;
pub mod limits;
pub mod net;
/// The endgame oracle's trait, from `awale-core` (where the databases
/// find it without the engine).
pub use awale_core::oracle;
pub mod protocol;
pub mod score;
pub mod search;
mod tt;

pub use book::Book;
pub use explain::{explain, Reason, ReasonFields};
pub use level::{choose_move, choose_move_within, greedy_move, Level, UnknownLevel};
pub use limits::{Clock, Limits};
pub use oracle::{move_value_in_game, value_in_game, Bounds, Oracle};
pub use score::{Forced, Score};
#[doc(hidden)]
pub use search::SearchParams;
pub use search::{Engine, EngineOptions, MoveAnalysis, SearchInfo, SearchResult};
pub use tt::TableTooBig;
