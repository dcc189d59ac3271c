//! The handlers of quick pairing: seeking in a pool (one request that
//! waits a while for the pairing, renewed by the page while it seeks), its
//! cancel, and how many seek in each pool. The pairing itself is the
//! service's (`awale_service::pools`).

use std::time::Duration;

use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{ClientIp, JsonBody, Player, Session, UrlQuery};
use super::online::nickname;
use crate::pools::{Pool, SeekNews};
use crate::AppState;

type ApiResult<T> = Result<T, ApiError>;

/// The longest a seek request waits for its pairing before it answers
/// "still waiting" (the page asks again at once).
const LONGEST_WAIT_S: u64 = 25;

/// The query of POST /api/pools/{pool}/seek.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SeekQuery {
    /// How long to wait for a pairing, in seconds (0 to 25; 20 when absent).
    #[serde(default)]
    wait_s: Option<u64>,
}

/// The body of POST /api/pools/{pool}/seek.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The nickname to play under (the one chosen before when absent).
    #[serde(default)]
    name: Option<String>,
}

/// POST /api/pools/{pool}/seek: seeks in pool `3+2` (or renews the seek)
/// and waits for the pairing: `{"paired": {"game", "side", "rated"}}` or
/// `{"waiting": {"pool", "waited_ms"}}`.
pub async fn seek(
    State(state): State<AppState>,
    Player(me): Player,
    session: Session,
    ClientIp(ip): ClientIp,
    Path(pool): Path<String>,
    UrlQuery(query): UrlQuery<SeekQuery>,
    JsonBody(req): JsonBody<SeekRequest>,
) -> ApiResult<Json<SeekNews>> {
    let pool = Pool::parse(&pool)?;
    crate::bots::check_may_seek(session.0.as_ref().map(|s| &s.account))?;
    let name = nickname(&state, &session, &me, req.name.as_deref()).await?;
    let seeker = state.shared.player_pages.seeker(me, name, pool).await?;
    let wait = Duration::from_secs(query.wait_s.unwrap_or(20).min(LONGEST_WAIT_S));
    Ok(Json(state.shared.pools.seek(pool, seeker, ip, wait).await?))
}

/// What POST /api/pools/cancel answers.
#[derive(Serialize)]
pub struct Cancelled {
    /// Whether the player was seeking.
    pub cancelled: bool,
}

/// POST /api/pools/cancel: stops seeking.
pub async fn cancel(
    State(state): State<AppState>,
    Player(me): Player,
) -> ApiResult<Json<Cancelled>> {
    Ok(Json(Cancelled {
        cancelled: state.shared.pools.cancel(&me).await?,
    }))
}

/// One pool, as GET /api/pools lists it.
#[derive(Serialize)]
pub struct PoolView {
    /// `3+2`.
    pub name: String,
    /// Initial time and increment, in milliseconds.
    pub clock: [i64; 2],
    /// Its speed (`bullet`, `blitz`, ...).
    pub speed: &'static str,
    /// How many seek in it now.
    pub seeking: usize,
}

/// GET /api/pools: the pools and how many seek in each.
pub async fn list(State(state): State<AppState>) -> Json<Vec<PoolView>> {
    Json(
        state
            .shared
            .pools
            .counts()
            .into_iter()
            .map(|(pool, seeking)| {
                let clock = pool.clock();
                PoolView {
                    name: pool.name(),
                    clock: [clock.initial_ms, clock.increment_ms],
                    speed: pool.speed().name(),
                    seeking,
                }
            })
            .collect(),
    )
}
