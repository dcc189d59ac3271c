//! The time the games in use read: the system's, or in tests the system's
//! moved forward at will, so a test can make a flag fall without waiting
//! for it. Timers wait on this clock ([`Clock::sleep_until`]), so moving it
//! forward wakes them at once.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::game::now_ms;

/// A source of the time in milliseconds since 1970 (cheap to clone: the
/// clones share one time).
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// None: the system's time.
    ahead: Option<Arc<Ahead>>,
}

/// How far a test moved its clock ahead of the system's, and who waits.
#[derive(Debug, Default)]
struct Ahead {
    ms: AtomicI64,
    moved: Notify,
}

impl Clock {
    /// The system's time, as the server runs.
    pub fn system() -> Clock {
        Clock { ahead: None }
    }

    /// The system's time, which [`Clock::advance`] moves forward (for tests).
    pub fn adjustable() -> Clock {
        Clock {
            ahead: Some(Arc::default()),
        }
    }

    /// Milliseconds since 1970 on this clock.
    pub fn now_ms(&self) -> i64 {
        now_ms()
            + self
                .ahead
                .as_ref()
                .map_or(0, |a| a.ms.load(Ordering::SeqCst))
    }

    /// Moves an adjustable clock `by` forward and wakes the timers waiting
    /// on it; the system's clock is not moved.
    pub fn advance(&self, by: Duration) {
        if let Some(ahead) = &self.ahead {
            ahead.ms.fetch_add(by.as_millis() as i64, Ordering::SeqCst);
            ahead.moved.notify_waiters();
        }
    }

    /// Waits until this clock reads `deadline_ms` or later.
    pub async fn sleep_until(&self, deadline_ms: i64) {
        loop {
            // Registered before the time is read, so an advance between
            // the two is not missed.
            let moved = self.ahead.as_ref().map(|a| a.moved.notified());
            let left = deadline_ms - self.now_ms();
            if left < 0 {
                return;
            }
            let wait = tokio::time::sleep(Duration::from_millis(left as u64 + 1));
            match moved {
                Some(moved) => {
                    tokio::select! {
                        _ = wait => {}
                        _ = moved => {}
                    }
                }
                None => wait.await,
            }
        }
    }
}
