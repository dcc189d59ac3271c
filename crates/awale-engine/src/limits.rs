//! How long a search may run: depth, nodes, a fixed time per move, a game
//! clock with increment, or until stopped; and how a clock is turned into a
//! time for one move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The side to move's clock, as in `go wtime/btime/winc/binc/movestogo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the next time control, if there is one.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search. Every limit set applies (the first reached
/// stops the search); with none set and `infinite` false, the search runs to
/// the deepest depth it can reach, which can take very long: set at least
/// one.
///
/// ```
/// use std::time::Duration;
/// use awale_engine::Limits;
/// let limits = Limits { depth: Some(12), ..Limits::default() };
/// assert_eq!(limits.depth, Limits::depth(12).depth);
/// assert_eq!(Limits::movetime(Duration::from_millis(100)).movetime, Some(Duration::from_millis(100)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Most nodes, all threads together (checked every few thousand nodes).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The game clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever the other limits say.
    pub infinite: bool,
    /// Pondering: while this flag is false the search runs as if infinite;
    /// once it becomes true (`ponderhit`) the other limits apply, their time
    /// counted from that moment.
    pub ponderhit: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Searches to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Searches for `time`.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Searches `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Searches until stopped.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// The time budget: `(start_limit, hard)`. No new iteration starts
    /// after `start_limit`; the search stops at `hard`. `None` when time
    /// does not limit. A fixed move time is used to the end (an unfinished
    /// iteration still gives its best move); a clock's share is not: an
    /// iteration takes about as long as all before it together, so none
    /// starts after about half the share (the search's time manager makes
    /// that 35% to 230%, by how sure it is of its move).
    pub(crate) fn time_budget(&self) -> Option<(Duration, Duration)> {
        let mut budget: Option<(Duration, Duration)> = None;
        if let Some(t) = self.movetime {
            budget = Some((t, t));
        }
        if let Some(clock) = &self.clock {
            // Keep a reserve for process and protocol overhead.
            let overhead = Duration::from_millis(30);
            let left = clock.remaining.saturating_sub(overhead);
            let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 60);
            let share = left / (moves + 2) + clock.increment * 3 / 4;
            let hard_cap = if clock.moves_to_go == Some(1) {
                left * 9 / 10
            } else {
                left / 3
            };
            let soft = share.min(hard_cap);
            let hard = (share * 4).min(hard_cap).max(soft);
            let soft = soft / 2;
            budget = Some(match budget {
                Some((s, h)) => (s.min(soft), h.min(hard)),
                None => (soft, hard),
            });
        }
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(remaining_ms: u64, increment_ms: u64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_never_spends_more_than_a_third_of_what_is_left() {
        for (remaining, increment, togo) in [
            (60_000, 0, None),
            (1_000, 5_000, None),
            (100, 0, Some(5)),
            (10, 0, None),
            (0, 0, None),
        ] {
            let (start, hard) = clock(remaining, increment, togo).time_budget().unwrap();
            assert!(
                hard <= Duration::from_millis(remaining) / 3,
                "{remaining} {increment}"
            );
            assert!(start <= hard);
        }
    }

    #[test]
    fn the_last_move_before_the_control_may_use_most_of_the_time() {
        let (_, hard) = clock(10_000, 0, Some(1)).time_budget().unwrap();
        assert!(hard > Duration::from_secs(5));
        assert!(hard < Duration::from_secs(10));
    }

    #[test]
    fn a_move_time_is_used_to_the_end() {
        let t = Duration::from_millis(250);
        assert_eq!(Limits::movetime(t).time_budget(), Some((t, t)));
        assert_eq!(Limits::depth(5).time_budget(), None);
    }

    #[test]
    fn move_time_and_clock_together_take_the_smaller() {
        let mut limits = clock(60_000, 0, None);
        limits.movetime = Some(Duration::from_millis(10));
        let (start, hard) = limits.time_budget().unwrap();
        assert!(start <= Duration::from_millis(10) && hard <= Duration::from_millis(10));
    }
}
