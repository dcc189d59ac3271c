//! The static evaluation: the store difference plus what a player of Awalé
//! looks at on the board. Scores are from the side to move's view, in
//! hundredths of a seed.

use awale_core::Position;

/// The evaluation of `position` for the side to move.
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    let stores = position.stores();
    let me = position.to_move().index();
    100 * (i32::from(stores[me]) - i32::from(stores[1 - me]))
}
