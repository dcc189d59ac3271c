//! The engine ladder over HTTP: a bot joins or leaves a ladder with its
//! token (`POST /api/bot/ladder/{bullet|blitz}/join`, `.../leave`), and
//! anyone reads the ladders (`GET /api/ladder`: standings, cross-table,
//! games). The rules are the service's (`awale_service::ladder`).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;

use super::api::bearer;
use super::error::ApiError;
use crate::bots::Scope;
use crate::AppState;
use awale_model::account::Account;
use awale_service::ladder::{LadderView, Membership, Rung};

type ApiResult<T> = Result<T, ApiError>;

/// POST /api/bot/ladder/{ladder}/join: the token's bot joins the ladder.
pub async fn join(
    State(state): State<AppState>,
    Path(ladder): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Membership>> {
    let (bot, rung) = bot_and_rung(&state, &ladder, &headers).await?;
    Ok(Json(state.shared.ladder.join(&bot, rung).await?))
}

/// POST /api/bot/ladder/{ladder}/leave: the token's bot leaves the ladder.
pub async fn leave(
    State(state): State<AppState>,
    Path(ladder): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Membership>> {
    let (bot, rung) = bot_and_rung(&state, &ladder, &headers).await?;
    Ok(Json(state.shared.ladder.leave(&bot, rung)))
}

/// The bot of the request's token (scope `bot:play`) and the ladder its
/// path names.
async fn bot_and_rung(
    state: &AppState,
    ladder: &str,
    headers: &HeaderMap,
) -> ApiResult<(Account, Rung)> {
    let caller = state
        .shared
        .api
        .caller(bearer(headers), Scope::BotPlay)
        .await?;
    Ok((caller.account, Rung::from_name(ladder)?))
}

/// GET /api/ladder: the ladders, public.
pub async fn show(State(state): State<AppState>) -> ApiResult<Json<LadderView>> {
    Ok(Json(state.shared.ladder.view().await?))
}
