//! The time the search reads. Native builds use std's monotonic clock.
//! `std::time::Instant` panics on `wasm32-unknown-unknown` (no clock
//! there), so in WebAssembly the host (the page's worker) gives one with
//! [`set_clock`] before searching; without it, time limits never fall and
//! only depth and node limits stop a search.

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use host::{set_clock, Instant};

#[cfg(target_arch = "wasm32")]
mod host {
    use std::sync::OnceLock;
    use std::time::Duration;

    static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

    /// Sets the clock the search reads: milliseconds from any fixed
    /// origin, never going back (the page gives `performance.now`). Only
    /// the first call counts.
    pub fn set_clock(now_ms: fn() -> f64) {
        let _ = CLOCK.set(now_ms);
    }

    /// A moment of the host's clock.
    #[derive(Clone, Copy, Debug)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(CLOCK.get().map_or(0.0, |now| now()))
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((Instant::now().0 - self.0).max(0.0) / 1000.0)
        }
    }
}
