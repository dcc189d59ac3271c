//! The rules of Awalé (Oware, Awari), exactly as `docs/RULES.md`
//! reads the source texts: positions, moves, games and their notation.
//!
//! No allocation in move generation or in playing a move: fast enough for
//! deep search and endgame databases. One dependency, `rand`, draws the
//! first player when the rules say so.
//!
//! ```
//! use awale_core::{Game, Move, Rules, Side};
//!
//! let mut game = Game::new(Rules::AWALE);
//! let captured = game.play(Move::from_letter('F').unwrap()).unwrap();
//! assert_eq!(captured, 0);
//! assert_eq!(game.position().to_move(), Side::North);
//! assert_eq!(game.position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
//! assert!(game.end().is_none());
//! ```
#![deny(missing_docs)]

mod game;
mod notation;
pub mod oracle;
mod position;
mod record;
mod rules;
mod side;
mod sowing;

pub use game::{leader, result_text, result_winner, Game, GameError, Outcome, Ply};
pub use notation::{parse_moves, NotationError};
pub use position::{
    perft, EndReason, Move, MoveError, Moves, Position, PositionError, HOLES, TOTAL_SEEDS,
};
pub use record::{parse_records, record_date, Record, RecordError, RecordMove, Syntax};
pub use rules::{
    Direction, FirstPlayer, GrandSlam, Preset, Repetition, RuleOption, Rules, RulesError, Variant,
};
pub use side::{Side, SideError};
pub use sowing::{last_hole, seeds_into, Sowing};
