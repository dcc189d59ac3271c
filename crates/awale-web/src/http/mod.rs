//! The HTTP face of the server: the routes, the guard every request goes
//! through, the extractors, the handlers and the one mapping of errors to
//! statuses. The model underneath knows nothing of HTTP.

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnFailure, DefaultOnResponse, TraceLayer};

use crate::round::Offer;
use crate::AppState;
use awale_model::Code;
use tournaments::TournamentFile;

pub mod accounts;
pub mod api;
mod assets;
pub mod challenges;
pub mod chat;
mod deadline;
pub mod error;
pub mod events;
pub mod explorer;
pub mod extract;
pub mod games;
pub mod guard;
pub mod ladder;
pub mod mistakes;
pub mod online;
pub mod players;
pub mod pools;
pub mod qr;
pub mod study;
pub mod tournaments;

/// The whole application: the page, its files and the API.
pub fn app(state: AppState) -> Router {
    let max_body = state.shared.config.max_body_bytes;
    let max_record = state.shared.config.max_record_bytes;
    Router::new()
        .route("/", get(assets::serve))
        .route("/sw.js", get(assets::serve))
        .route("/favicon.svg", get(assets::serve))
        .route("/v/{*file}", get(assets::serve))
        .route("/api/info", get(games::info))
        .route("/api/me", get(online::me).post(online::rename))
        .nest("/api/account", account_routes())
        .route("/api/reports", post(accounts::report))
        .nest("/api/moderation", moderation_routes())
        .route("/api/me/events", get(challenges::events))
        .route("/api/stream/event", get(api::account_events))
        .route("/api/bot/account/upgrade", post(api::upgrade))
        .route("/api/bot/ladder/{ladder}/join", post(ladder::join))
        .route("/api/bot/ladder/{ladder}/leave", post(ladder::leave))
        .route("/api/bot/tournament/{id}/join", post(tournaments::bot_join))
        .route(
            "/api/bot/tournament/{id}/withdraw",
            post(tournaments::bot_withdraw),
        )
        .route("/api/ladder", get(ladder::show))
        .route("/api/{api}/game/stream/{id}", get(api::game_stream))
        .route("/api/{api}/game/{id}/move/{mv}", post(api::play))
        .route("/api/{api}/game/{id}/resign", post(api::resign))
        .route("/api/{api}/game/{id}/draw/{answer}", post(api::draw))
        .route("/api/{api}/game/{id}/chat", post(api::chat))
        .route("/api/challenge/{name}", post(api::challenge))
        .route("/api/challenge/{id}/accept", post(api::accept))
        .route("/api/challenge/{id}/decline", post(api::decline))
        .route(
            "/api/challenges",
            get(challenges::mine).post(challenges::make),
        )
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/challenges/{id}/cancel", post(challenges::cancel))
        .route("/api/lobby", get(online::lobby))
        .route("/api/lobby/events", get(events::lobby_events))
        .route("/api/pools", get(pools::list))
        .route("/api/pools/{pool}/seek", post(pools::seek))
        .route("/api/pools/cancel", post(pools::cancel))
        .route("/api/players/{name}", get(players::show))
        .route("/api/players/{name}/games", get(players::games))
        .route("/api/players/{name}/learning", get(players::learning))
        .route("/api/leaderboard/{speed}", get(players::board))
        .route("/@/{name}", get(players::page))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .nest("/api/tournaments/{id}", tournament_routes())
        .route("/api/handoff", post(online::take_handoff))
        .route("/api/games", get(games::list).post(games::create))
        .route("/api/games/current", get(games::current))
        .route("/api/turns", get(games::turns))
        .nest("/api/games/{id}", game_routes())
        .nest("/api/study", study_routes())
        .route("/api/explorer", get(explorer::show))
        .route("/api/uploads", post(games::upload))
        .route(
            "/api/import",
            post(games::import).layer(DefaultBodyLimit::max(max_record)),
        )
        .fallback(error::not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            deadline::body_deadline,
        ))
        .layer(CatchPanicLayer::custom(panicked))
        // Each request and its answer at debug level (RUST_LOG=debug);
        // failures too: a refusal for being busy (503) is an answer, and a
        // flood of them logged one line each at error level would be a
        // flood of its own (real failures are logged where they happen).
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::DEBUG))
                .on_response(DefaultOnResponse::new().level(tracing::Level::DEBUG))
                .on_failure(DefaultOnFailure::new().level(tracing::Level::DEBUG)),
        )
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}

/// The routes of the logged-in account, under `/api/account`.
fn account_routes() -> Router<AppState> {
    Router::new()
        .route("/", get(api::account))
        .route("/games", get(api::account_games))
        .route("/signup", post(accounts::sign_up))
        .route("/login", post(accounts::log_in))
        .route("/logout", post(accounts::log_out))
        .route("/logout-everywhere", post(accounts::log_out_everywhere))
        .route("/password", post(accounts::change_password))
        .route("/reset", post(accounts::reset_password))
        .route("/recovery-codes", post(accounts::new_recovery_codes))
        .route("/delete", post(accounts::delete))
        .route("/settings", post(accounts::settings))
        .route("/blocks", post(accounts::block))
        .route("/tokens", get(api::tokens).post(api::make_token))
        .route("/tokens/{id}/revoke", post(api::revoke))
        .route("/bot", post(api::upgrade_page))
}

/// The moderators' routes, under `/api/moderation`.
fn moderation_routes() -> Router<AppState> {
    Router::new()
        .route("/reports", get(accounts::reports))
        .route("/reports/{id}/resolve", post(accounts::resolve))
        .route("/flags", get(accounts::flags))
        .route("/desk", get(accounts::desk))
        .route("/accounts/{name}", get(accounts::mod_account))
        .route("/mute", post(accounts::mute))
        .route("/close", post(accounts::close))
        .route("/reopen", post(accounts::reopen))
        .route("/grant", post(accounts::grant))
        .route("/revoke", post(accounts::revoke))
        .route("/refund", post(accounts::refund))
        .route("/chat-remove", post(chat::remove_game_line))
        .route(
            "/tournament-chat-remove",
            post(chat::remove_tournament_line),
        )
        .route("/games/{id}/chat", get(chat::reported_game))
}

/// The routes of one tournament, under `/api/tournaments/{id}`.
fn tournament_routes() -> Router<AppState> {
    Router::new()
        .route("/", get(tournaments::show))
        .route("/join", post(tournaments::join))
        .route("/withdraw", post(tournaments::withdraw))
        .route("/pause", post(tournaments::pause))
        .route("/berserk", post(tournaments::berserk))
        .route("/close", post(tournaments::close))
        .route("/round", post(tournaments::start_round))
        .route(
            "/standings.csv",
            get(|state, id| tournaments::download(TournamentFile::StandingsCsv, state, id)),
        )
        .route(
            "/games.txt",
            get(|state, id| tournaments::download(TournamentFile::GamesTxt, state, id)),
        )
        .route("/events", get(tournaments::events))
        .route(
            "/chat",
            get(chat::tournament_lines).post(chat::say_in_tournament),
        )
}

/// The routes of study (puzzles, positions, analysis), under `/api/study`.
fn study_routes() -> Router<AppState> {
    Router::new()
        .route("/", get(study::info))
        .route("/puzzles/daily", get(study::daily))
        .route("/puzzles/next", get(study::next))
        .route("/puzzles/check", post(study::check))
        .route("/puzzles/rating", get(study::rating))
        .route("/puzzles/streak", post(study::start_streak))
        .route("/position", get(study::position))
        .route("/analysis", post(study::analysis))
        .route("/mistakes", get(mistakes::list))
        .route("/mistakes/{id}", get(mistakes::show))
        .route("/mistakes/{id}/answer", post(mistakes::answer))
}

/// The routes of one game, under `/api/games/{id}`.
fn game_routes() -> Router<AppState> {
    Router::new()
        .route("/", get(games::show))
        .route("/moves", post(games::play))
        .route("/undo", post(games::undo))
        .route("/redo", post(games::redo))
        .route("/resign", post(games::resign))
        .route("/hint", post(games::hint))
        .route("/review", get(games::stored_review).post(games::review))
        .route("/mistakes", post(mistakes::learn))
        .route("/record", get(games::record))
        .route("/events", get(events::game_events))
        .route("/links", get(online::links))
        .route("/links/qr", get(online::link_code))
        .route("/join", post(online::join))
        .route(
            "/takeback",
            post(|on, me, body| online::offer(Offer::Takeback, on, me, body)),
        )
        .route(
            "/draw",
            post(|on, me, body| online::offer(Offer::Draw, on, me, body)),
        )
        .route("/abort", post(online::abort))
        .route("/claim", post(online::claim))
        .route("/rematch", post(online::rematch))
        .route("/handoff", post(online::handoff))
        .route("/chat", get(chat::game_lines).post(chat::say_in_game))
        .route("/react", post(online::react))
        .route("/presence", get(online::presence))
        .route("/accounts", get(online::seat_accounts))
}

/// A handler that panicked: logged once with its message, answered 500;
/// the server goes on (every write is one transaction, so nothing is left
/// half done).
fn panicked(payload: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    tracing::error!(panic = message, "a request handler panicked");
    error::ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        Code::Internal,
        "the server failed on this request",
    )
    .into_response()
}

/// A known path with the wrong method.
async fn method_not_allowed() -> error::ApiError {
    error::ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        Code::MethodNotAllowed,
        "this path does not take this method",
    )
}
