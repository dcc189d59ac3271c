//! The handlers of direct challenges (from a player's page): make one,
//! list one's own, accept, decline, withdraw, and the player's own live
//! stream, where each change of their challenges arrives at once. Each
//! calls one operation of the service (`awale_service::challenges`).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::Json;
use futures_util::stream::Stream;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::error::ApiError;
use super::extract::{not_a, player_acts, ClientIp, JsonBody, Player, Session};
use super::games::{parse_clock, ClockRequest};
use super::online::nickname;
use crate::challenges::{Accepted, ChallengeView, MyChallenges, NewChallenge};
use crate::{AppState, Error};
use awale_model::Code;

type ApiResult<T> = Result<T, ApiError>;

/// The body of POST /api/challenges.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The challenged's username.
    to: String,
    /// Minutes each and seconds per move; absent: no clock.
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// Rated (two accounts, a clock) or casual.
    #[serde(default)]
    rated: bool,
    /// The challenger's side: `S`, `N` or `random` (the default).
    #[serde(default)]
    colour: Option<String>,
    /// A guest's nickname (the one chosen before when absent).
    #[serde(default)]
    name: Option<String>,
}

/// POST /api/challenges: challenges a player.
pub async fn make(
    State(state): State<AppState>,
    Player(me): Player,
    session: Session,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let colour = match req.colour.as_deref().unwrap_or("random") {
        "random" | "R" => 'R',
        "S" => 'S',
        "N" => 'N',
        other => return Err(not_a(Code::BadSide, other, "side (S, N or random)").into()),
    };
    let clock = parse_clock(req.clock)?;
    let name = nickname(&state, &session, &me, req.name.as_deref()).await?;
    let new = NewChallenge {
        to: req.to,
        clock,
        rated: req.rated,
        colour,
    };
    let caller = awale_service::limits::Caller::new(me, ip);
    let made = state.shared.direct.make(caller, &name, new).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// GET /api/challenges: the viewer's challenges, sent and received.
pub async fn mine(
    State(state): State<AppState>,
    Player(me): Player,
) -> ApiResult<Json<MyChallenges>> {
    Ok(Json(state.shared.direct.mine(&me).await?))
}

player_acts! { ChallengeId {
    /// POST /api/challenges/{id}/accept: the game is made; its id and the
    /// accepter's side.
    accept -> Accepted: direct.accept();
    /// POST /api/challenges/{id}/decline.
    decline -> ChallengeView: direct.decline();
    /// POST /api/challenges/{id}/cancel: the challenger withdraws it.
    cancel -> ChallengeView: direct.cancel();
}}

/// GET /api/me/events: the viewer's own stream, open on every page of the
/// site: `challenges` (all of them, first), then `challenge` each time one
/// of theirs changes (made, accepted with its game, declined, withdrawn,
/// expired). A listener that falls behind gets `challenges` again.
pub async fn events(
    State(state): State<AppState>,
    Player(me): Player,
) -> ApiResult<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>> {
    // Listening before the list is read: nothing falls between the two.
    let watch = state.shared.games.hub().watch_player(&me);
    let first = state.shared.direct.mine(&me).await?;
    let first = serde_json::to_string(&first)
        .map_err(|e| Error::internal(format!("challenges not written: {e}")))?;
    let stopping = state.shared.stopping.subscribe();
    let stream = futures_util::stream::unfold(
        (watch, Some(first), stopping, state, me),
        |(mut watch, first, mut stopping, state, me)| async move {
            if let Some(first) = first {
                let sse = SseEvent::default()
                    .event("challenges")
                    .data(first)
                    .retry(Duration::from_secs(1));
                return Some((Ok(sse), (watch, None, stopping, state, me)));
            }
            let received = tokio::select! {
                r = watch.events.recv() => r,
                _ = async { stopping.wait_for(|s| *s).await.map(|_| ()) } => return None,
            };
            let sse = match received {
                Ok(event) => SseEvent::default().event(event.name).data(&*event.data),
                // Fell behind: all of them again.
                Err(RecvError::Lagged(_)) => {
                    let all = state.shared.direct.mine(&me).await.ok()?;
                    let data = serde_json::to_string(&all).unwrap_or_default();
                    SseEvent::default().event("challenges").data(data)
                }
                Err(RecvError::Closed) => return None,
            };
            Some((Ok(sse), (watch, None, stopping, state, me)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
