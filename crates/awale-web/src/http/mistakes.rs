//! The handlers of "learn from your mistakes" (see
//! [`crate::mistakes`]): a reviewed game's mistakes kept as the player's
//! puzzles, their list, one of them, an answer judged. Each reads the
//! request and calls one operation of the service.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use super::extract::{ClientIp, JsonBody, MistakeId, OnGame, Player};
use crate::mistakes::{MistakeAnswer, MistakeList, MistakeView};
use crate::AppState;
use awale_model::game::parse_move;

type ApiResult<T> = Result<T, ApiError>;

/// POST /api/games/{id}/mistakes: the asker's mistakes in this reviewed
/// game kept as puzzles in their list, `{"mistakes": [...]}` (those of
/// this game).
pub async fn learn(on: OnGame, Player(player): Player) -> ApiResult<Json<Value>> {
    let game = on.load().await?;
    let mistakes = on
        .state
        .shared
        .mistakes
        .learn(&player, on.id, &game, on.state.shared.games.now_ms())
        .await?;
    Ok(Json(
        json!({ "game": game.public_id, "mistakes": mistakes }),
    ))
}

/// GET /api/study/mistakes: the asker's mistakes, those to try first.
pub async fn list(
    State(state): State<AppState>,
    Player(player): Player,
) -> ApiResult<Json<MistakeList>> {
    let now = state.shared.games.now_ms();
    Ok(Json(state.shared.mistakes.list(&player, now).await?))
}

/// GET /api/study/mistakes/{id}: one of the asker's mistakes.
pub async fn show(
    State(state): State<AppState>,
    Player(player): Player,
    MistakeId(id): MistakeId,
) -> ApiResult<Json<MistakeView>> {
    Ok(Json(state.shared.mistakes.get(&player, id).await?))
}

/// The body of POST /api/study/mistakes/{id}/answer.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The move tried, a letter.
    #[serde(rename = "move")]
    mv: String,
}

/// POST /api/study/mistakes/{id}/answer `{"move": "F"}`: the answer
/// judged (right or not, the values, the better line), the try noted.
pub async fn answer(
    State(state): State<AppState>,
    Player(player): Player,
    ClientIp(asker): ClientIp,
    MistakeId(id): MistakeId,
    JsonBody(req): JsonBody<Answer>,
) -> ApiResult<Json<MistakeAnswer>> {
    let mv = parse_move(&req.mv)?;
    let judged = state
        .shared
        .mistakes
        .answer(&player, id, mv, asker, state.shared.games.now_ms())
        .await?;
    Ok(Json(judged))
}
