//! What both stores' schemas share beside the migrations' SQL files (the
//! games file's, `sqlite/schema.rs`, which PostgreSQL runs in its types):
//! the numbering of the computer's levels.

/// The number of levels (`awale_engine::Level::ALL`) whose numbers the
/// games are stored with, kept in `meta` as `levels`: files written before
/// the mark, with twelve levels, stored Perfect as 12; it was 16 once four
/// levels came between Grandmaster and Perfect, and is 18 since two more
/// came below Perfect (levels 1 to 15 kept their play; some their names). Perfect is always the last: a store of fewer levels
/// has its games at Perfect moved to the last number, once; the numbers
/// below keep their levels.
pub(crate) const LEVELS: i64 = 18;

/// The levels of a store without the `levels` mark.
pub(crate) const UNMARKED_LEVELS: i64 = 12;

/// Moves the games at Perfect of a store of `?2` levels to level `?1`.
pub(crate) const PERFECT_MOVES_UP: &str =
    "UPDATE games SET level = $1 WHERE mode = 'computer' AND level = $2";

/// Marks the store with its levels' numbering, `?1`.
pub(crate) const LEVELS_MARKED: &str = "INSERT INTO meta (key, value) VALUES ('levels', $1)
     ON CONFLICT (key) DO UPDATE SET value = $1";
