//! The handlers of players' pages and leaderboards: a player's ratings,
//! results and games (with the filters), the best players of each speed,
//! and `/@/NAME`, the address of a player's page, which the page opens.

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::UrlQuery;
use crate::error::Error;
use crate::players::{Board, ListFilter, PlayerPage};
use crate::rating::Speed;
use crate::AppState;
use awale_model::lists::{Outcome, PlayedGame};
use awale_model::Code;

type ApiResult<T> = Result<T, ApiError>;

/// GET /api/players/{name}: the player's page.
pub async fn show(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<PlayerPage>> {
    Ok(Json(state.shared.player_pages.page(&name).await?))
}

/// GET /api/players/{name}/learning: the learning part of the player's
/// page (puzzle rating, best streak, accuracy by speed).
pub async fn learning(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<awale_service::learning::LearningView>> {
    Ok(Json(state.shared.learning.page(&name).await?))
}

/// The query of GET /api/players/{name}/games.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    /// `true`: rated only; `false`: casual only.
    #[serde(default)]
    rated: Option<bool>,
    /// `blitz`...
    #[serde(default)]
    speed: Option<String>,
    /// `win`, `draw` or `loss`.
    #[serde(default)]
    result: Option<String>,
    /// The opponent's username.
    #[serde(default)]
    opponent: Option<String>,
    /// `UPDATED_MS.ID` of the last game of the previous page (its
    /// `updated_ms` and public `id`).
    #[serde(default)]
    before: Option<String>,
    /// Games on the page (1 to 100; 30 when absent).
    #[serde(default)]
    limit: Option<usize>,
}

fn bad_filter(name: &'static str, text: &str) -> Error {
    Error::invalid(
        Code::BadFilter,
        format!("`{}` is not a {name}", crate::error::shown(text)),
    )
    .because(name)
    .with("text", text)
}

/// `UPDATED_MS.ID`, a game's `updated_ms` and public id.
fn games_cursor(text: &str) -> Option<(i64, String)> {
    let (ms, id) = text.split_once('.')?;
    let ms = ms.parse().ok()?;
    let id_ok = !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric());
    id_ok.then(|| (ms, id.to_string()))
}

/// GET /api/players/{name}/games: the player's finished online games,
/// newest first, filtered.
pub async fn games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    UrlQuery(q): UrlQuery<GamesQuery>,
) -> ApiResult<Json<Vec<PlayedGame>>> {
    let speed = match q.speed.as_deref() {
        Some(s) => Some(Speed::from_name(s).ok_or_else(|| bad_filter("speed", s))?),
        None => None,
    };
    let result = match q.result.as_deref() {
        Some(r) => Some(Outcome::from_name(r).ok_or_else(|| bad_filter("result", r))?),
        None => None,
    };
    let before = match q.before.as_deref() {
        Some(b) => Some(games_cursor(b).ok_or_else(|| bad_filter("cursor", b))?),
        None => None,
    };
    let games = state
        .shared
        .player_pages
        .games(
            &name,
            ListFilter {
                rated: q.rated,
                speed,
                result,
                opponent: q.opponent,
            },
            before,
            q.limit.unwrap_or(30),
        )
        .await?;
    Ok(Json(games))
}

/// GET /api/leaderboard/{speed}: the best players of a speed.
pub async fn board(
    State(state): State<AppState>,
    Path(speed): Path<String>,
) -> ApiResult<Json<Board>> {
    let speed = Speed::from_name(&speed).ok_or_else(|| bad_filter("speed", &speed))?;
    Ok(Json(state.shared.player_pages.board(speed).await?))
}

/// GET /@/{name}: the player's page, which the page shows at `#player=NAME`.
pub async fn page(Path(name): Path<String>) -> Response {
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(20)
        .collect();
    Redirect::to(&format!("/#player={name}")).into_response()
}
