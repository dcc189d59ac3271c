//! Tournaments: the arena ([`arena`]: a fixed time, whoever is free is
//! paired at once, streaks and berserk) and the Swiss ([`swiss`]: a club's
//! evening of rounds, tie-breaks, the crosstable and the standings as CSV).
//! These are the rules of each kind, pure and tested by hand-worked cases;
//! the service keeps them and starts their games.

pub mod arena;
mod matching;
pub mod swiss;
