//! Awalé in the browser: an HTTP server (axum) with a JSON API, live
//! updates as server-sent events, stored games in SQLite, and the page
//! itself (HTML, CSS, JavaScript and the SVG board), embedded in the binary.
//!
//! [`app`] builds the router from an [`AppState`]; the binary binds it to a
//! socket with [`serve`]. Tests call the router directly (`oneshot`).
//!
//! ```
//! use awale_web::{app, AppState, Config, Store};
//! let state = AppState::new(Store::in_memory().unwrap(), Config::default());
//! let router = app(state);
//! # let _ = router;
//! ```
#![deny(missing_docs)]

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

mod api;
mod assets;
pub mod computer;
pub mod error;
pub mod game;
pub mod live;
pub mod store;
pub mod study;

pub use error::ApiError;
pub use store::{Store, StoreError};

/// Limits of the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Longest time the computer thinks over one move.
    pub move_time: Duration,
    /// Longest time for a hint.
    pub hint_time: Duration,
    /// Longest time for the review of a whole game.
    pub review_time: Duration,
    /// How many searches may run at once (the others wait their turn).
    pub max_searches: usize,
    /// Largest request body, in bytes (game records may be larger: see
    /// `max_record_bytes`).
    pub max_body_bytes: usize,
    /// Largest imported record file, in bytes.
    pub max_record_bytes: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            move_time: Duration::from_secs(3),
            hint_time: Duration::from_millis(1500),
            review_time: Duration::from_secs(12),
            max_searches: 2,
            max_body_bytes: 16 * 1024,
            max_record_bytes: 1024 * 1024,
        }
    }
}

/// What every request handler shares: the store, the computer, the limits.
#[derive(Clone)]
pub struct AppState {
    shared: Arc<Shared>,
}

struct Shared {
    store: Mutex<Store>,
    computer: computer::Computer,
    searches: Semaphore,
    thinking: Mutex<HashSet<i64>>,
    hub: live::Hub,
    config: Config,
    study: study::Study,
}

impl AppState {
    /// The state of a server storing its games in `store`.
    pub fn new(store: Store, config: Config) -> AppState {
        AppState::with_oracle(store, config, None)
    }

    /// The same, with endgame knowledge for the computer, hints and review:
    /// `oracles` finds the database for a game's rules (None when there is
    /// none).
    pub fn with_oracle(
        store: Store,
        config: Config,
        oracles: Option<computer::OracleSource>,
    ) -> AppState {
        AppState {
            shared: Arc::new(Shared {
                store: Mutex::new(store),
                computer: computer::Computer::new(oracles),
                searches: Semaphore::new(config.max_searches.max(1)),
                thinking: Mutex::new(HashSet::new()),
                hub: live::Hub::default(),
                config,
                study: study::Study::default(),
            }),
        }
    }

    /// Gives the study pages the exact endgame database of the `awale`
    /// rules, which puzzles come from (None: no puzzles).
    pub fn set_puzzle_database(&self, db: Option<Arc<awale_db::Database>>) {
        self.shared.study.set_database(db);
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock cannot leave a half-written game:
        // every write is one SQLite transaction.
        self.shared
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The whole application: the page, its files and the API.
pub fn app(state: AppState) -> Router {
    let max_body = state.shared.config.max_body_bytes;
    let max_record = state.shared.config.max_record_bytes;
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::favicon))
        .route("/api/info", get(api::info))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/games/current", get(api::current))
        .route("/api/games/{id}", get(api::show))
        .route("/api/games/{id}/moves", post(api::play))
        .route("/api/games/{id}/computer", post(api::computer_move))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/redo", post(api::redo))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/review", post(api::review))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/study", get(study::info))
        .route("/api/study/puzzles/daily", get(study::daily))
        .route("/api/study/puzzles/next", get(study::next))
        .route("/api/study/puzzles/check", post(study::check))
        .route("/api/study/position", get(study::position))
        .route("/api/study/analysis", post(study::analysis))
        .route(
            "/api/import",
            post(api::import).layer(DefaultBodyLimit::max(max_record)),
        )
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Serves `app(state)` on `listener` until the process ends.
///
/// # Errors
///
/// When the socket fails.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    axum::serve(listener, app(state)).await
}
