//! The server's own arenas, made again and again (lila's
//! `TournamentScheduler`), and each arena's start and end timed: its state
//! moved on from `created` to `started` to `finished`.

use std::sync::Arc;

use super::{TournamentKind, TournamentState, Tournaments};
use crate::error::Error;
use crate::game::PlayerId;
use crate::store::tournaments::TournamentRow;

/// The creator named on the server's own arenas.
pub const SERVER: &str = "server";

/// An arena the server makes itself, again and again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Its name.
    pub name: &'static str,
    /// Each side's time and the increment (ms).
    pub clock: (i64, i64),
    /// Its length (minutes).
    pub minutes: i64,
    /// How often it starts (ms).
    pub every_ms: i64,
    /// Its start within the period, from the Unix epoch (a Thursday, 00:00
    /// UTC).
    pub offset_ms: i64,
}

/// The server's schedule (`awale serve --schedule`): an hourly 3+2 arena
/// (57 minutes, so the next begins as it ends) and a weekly 5+3 one on
/// Sunday at 18:00 UTC, two hours long. Both rated.
pub const SCHEDULE: [Scheduled; 2] = [
    Scheduled {
        name: "Hourly 3+2",
        clock: (180_000, 2_000),
        minutes: 57,
        every_ms: 3_600_000,
        offset_ms: 0,
    },
    Scheduled {
        name: "Weekly 5+3",
        clock: (300_000, 3_000),
        minutes: 120,
        every_ms: 7 * 24 * 3_600_000,
        // Thursday 00:00 + 3 days + 18 hours: Sunday 18:00.
        offset_ms: (3 * 24 + 18) * 3_600_000,
    },
];

impl Scheduled {
    /// Its next start after `now`.
    #[must_use]
    pub fn next_start(&self, now: i64) -> i64 {
        ((now - self.offset_ms).div_euclid(self.every_ms) + 1) * self.every_ms + self.offset_ms
    }
}

/// How often the schedule is checked (ms).
const SCHEDULE_CHECK_MS: i64 = 60_000;

impl Tournaments {
    /// Keeps `schedule`: each of its arenas is made for its next start
    /// (once: one already made is found in the store, across restarts),
    /// checked every minute. Needs a Tokio runtime.
    pub fn keep_schedule(self: &Arc<Self>, schedule: Vec<Scheduled>) {
        let me = Arc::downgrade(self);
        let clock = self.games.clock().clone();
        tokio::spawn(async move {
            loop {
                let now = clock.now_ms();
                let Some(tournaments) = me.upgrade() else {
                    return;
                };
                if let Err(e) = tournaments.schedule_once(&schedule, now).await {
                    tracing::warn!(error = %e, "the schedule's arenas not made");
                }
                drop(tournaments);
                clock.sleep_until(now + SCHEDULE_CHECK_MS).await;
            }
        });
    }

    /// Makes the arenas of `schedule` whose next start after `now` has
    /// none yet.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn schedule_once(&self, schedule: &[Scheduled], now: i64) -> Result<(), Error> {
        let made = self.store.tournaments(now, 200).await?;
        for s in schedule {
            let starts_ms = s.next_start(now);
            if made
                .iter()
                .any(|t| t.creator.0 == SERVER && t.name == s.name && t.starts_ms == starts_ms)
            {
                continue;
            }
            let row = self
                .store
                .create_tournament(TournamentRow {
                    id: 0,
                    kind: TournamentKind::Arena.as_str().into(),
                    name: s.name.into(),
                    clock: s.clock,
                    rated: self.games.ratings().is_some(),
                    minutes: s.minutes,
                    starts_ms,
                    ends_ms: starts_ms + s.minutes * 60_000,
                    creator: PlayerId(SERVER.into()),
                    state: TournamentState::Created.as_str().into(),
                    created_ms: now,
                    rounds: 0,
                    current_round: 0,
                    manual_rounds: false,
                    // The server's schedule is people's.
                    bots_allowed: false,
                })
                .await?;
            self.room(row.id).await?;
        }
        Ok(())
    }

    /// Starts the timers of `room`'s start and end.
    pub(super) fn arm_schedule(&self, id: i64, starts: i64, ends: i64) {
        let me = self.me.clone();
        let clock = self.games.clock().clone();
        tokio::spawn(async move {
            for (at, state) in [
                (starts, TournamentState::Started),
                (ends, TournamentState::Finished),
            ] {
                clock.sleep_until(at).await;
                let Some(tournaments) = me.upgrade() else {
                    return;
                };
                if let Err(e) = tournaments.set_state(id, state).await {
                    tracing::warn!(tournament = id, error = %e, "a tournament's state not stored");
                }
            }
        });
    }

    /// Moves tournament `id` on to `state` (`started`, `finished`). Boxed:
    /// it is called from the timers that holding a tournament arms.
    pub(super) fn set_state<'a>(
        &'a self,
        id: i64,
        state: TournamentState,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), Error>> + Send + 'a>> {
        Box::pin(self.move_on(id, state))
    }

    async fn move_on(&self, id: i64, state: TournamentState) -> Result<(), Error> {
        let room = self.room(id).await?;
        let mut running = self.change(&room).await?;
        if running.state >= state {
            return Ok(());
        }
        if state == TournamentState::Finished {
            running.row.ends_ms = running.row.ends_ms.min(self.games.now_ms());
        }
        // An arena's time is up: it is finished once its last game ends
        // (`games_ended`); until then its results are pending.
        let finished_later = state == TournamentState::Finished
            && !running.is_swiss()
            && !running.arena.playing.is_empty();
        if !finished_later {
            running.set(state);
        }
        self.store.save_tournament(running.record(&[], &[])).await?;
        if state == TournamentState::Started {
            self.pair(&mut running).await;
        }
        self.tell(&room, &running);
        Ok(())
    }
}
