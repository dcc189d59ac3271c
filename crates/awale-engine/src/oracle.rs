//! Endgame knowledge from outside the search: the trait that endgame
//! databases (crate `awale-db`) implement, probed by the search at nodes with
//! few enough seeds on the board.

use awale_core::{Game, Move, Position, Rules};

/// What is known of a position's value: the seeds the side to move will
/// still capture minus those the opponent will, under perfect play, from a
/// fresh start (no history). `lower == upper` means exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i8,
    /// The value is at most this.
    pub upper: i8,
}

impl Bounds {
    /// Bounds that say the value is exactly `value`.
    pub fn exact(value: i8) -> Bounds {
        Bounds {
            lower: value,
            upper: value,
        }
    }

    /// Whether the value is known exactly.
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }
}

/// Endgame knowledge: exact values or bounds for positions with few seeds.
pub trait Oracle: Send + Sync {
    /// Bounds for `position` under the rules this oracle was built for, or
    /// None when it does not cover the position (too many seeds, other rules).
    fn probe(&self, position: &Position) -> Option<Bounds>;
    /// Most seeds on the board that it covers.
    fn max_seeds(&self) -> u8;
    /// The rules it was built for (only grand_slam/repetition/target matter).
    fn rules(&self) -> Rules;
    /// At the root, for perfect play: a move that keeps the best value the
    /// oracle knows *and makes progress* towards it (values alone do not:
    /// docs/RULES.md, "Facts for endgame databases"), given the game's history
    /// for repetitions; `None` when it has no such advice (not covered,
    /// only bounds, game over). `choose_move` plays it at `Level::Perfect`.
    fn root_move(&self, game: &Game) -> Option<Move> {
        let _ = game;
        None
    }
}
