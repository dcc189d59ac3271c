//! The rules of tournaments (lila's `PairingSystem`): the arena ([`arena`]:
//! a fixed time, whoever is free is paired at once, streaks and berserk)
//! and the Swiss ([`swiss`]: a club's evening of rounds, tie-breaks, the
//! crosstable and the standings as CSV), both over the most pairs a graph
//! allows ([`matching`]). Pure and tested by hand-worked cases; the
//! service's [`crate::tournaments`] keeps them and starts their games.

pub mod arena;
mod matching;
pub mod swiss;
