//! What only the games file does with games: its clocks given back
//! after a stop (one process: no other was up meanwhile).

use rusqlite::OptionalExtension;

use super::Store;
use crate::error::StoreError;
use crate::games::GameHooks;

impl GameHooks for Store {
    /// Gives back to the unfinished timed games the time the server was
    /// down (from its last heartbeat to `now`), so no clock runs while
    /// nobody can move. Returns that time.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn resume_clocks_here(&self, now: i64) -> Result<i64, StoreError> {
        self.write_blocking(move |conn| {
            let alive: Option<i64> = conn
                .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| {
                    r.get(0)
                })
                .optional()?;
            let down = alive.map_or(0, |a| (now - a).max(0));
            if down > 0 {
                conn.execute(
                    "UPDATE games SET turn_started_ms = turn_started_ms + ?1
                     WHERE result = '*' AND stop IS NULL AND turn_started_ms IS NOT NULL",
                    [down],
                )?;
            }
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('alive_ms', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = ?1",
                [now],
            )?;
            Ok(down)
        })
    }
}
