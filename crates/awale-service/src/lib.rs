//! The game service: the games in use ([`games`]: their locks, clocks that
//! fall on the server, the lobby), their watchers ([`live`]), the computer
//! ([`computer`]: searches, hints, reviews), the study pages ([`study`]) and
//! rate limits ([`limits`], over [`limiter`]'s buckets), accounts ([`accounts`]: sign-up, log-in,
//! sessions, recovery codes, blocks, reports, moderators), direct
//! challenges between players ([`challenges`]), every chat room
//! ([`chat`]) and the time they read ([`clock`]). It knows no HTTP and no SQL: it keeps games
//! through `awale-store` and is served by `awale-web`.
#![deny(missing_docs)]

pub mod accounts;
pub mod accuracy;
pub mod bots;
pub mod challenges;
pub mod chat;
pub mod clock;
pub mod computer;
pub mod databases;
pub mod explorer;
pub mod fairplay;
pub mod games;
pub mod guests;
pub mod handoff;
pub mod ladder;
pub mod learning;
pub mod limiter;
pub mod limits;
pub mod live;
pub mod mistakes;
pub mod moderation;
mod notices;
pub mod pairing;
pub mod players;
pub mod pools;
pub mod puzzle_rating;
pub mod puzzles;
pub mod reactions;
pub mod records;
pub mod round;
pub mod study;
pub mod tournaments;
pub mod turns;

// The lower crates' names the service's modules use (not re-exported:
// other crates name `awale_model` and `awale_store` themselves).
use awale_model::{error, game, lock, rating, secret, view, Kind};
use awale_store as store;
