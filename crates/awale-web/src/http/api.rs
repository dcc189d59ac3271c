//! The API for engines and other clients, in the shape of lichess's Bot
//! and Board APIs: personal tokens (made on the account page), the
//! account's event stream and a stream per game as newline-delimited JSON,
//! and the calls a player makes. Each handler reads the request, asks the
//! service ([`crate::bots::Api`]) who calls with which token, calls one
//! operation and writes its answer. Docs: docs/BOTS.md.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::error::ApiError;
use super::extract::{not_a, ClientIp, JsonBody, Session, SignedIn, UrlQuery};
use super::games::{parse_clock, ClockRequest};
use crate::bots::{Api, Caller, Scope};
use crate::challenges::NewChallenge;
use crate::AppState;
use awale_model::Code;

type ApiResult<T> = Result<T, ApiError>;

/// How often a stream sends an empty line (lichess does so too): a client
/// knows the connection lives, and the server that it is still read and
/// its token still valid.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
}

/// The scope of the API named in the path: `bot` or `board`.
fn scope_of(api: &str) -> ApiResult<Scope> {
    match api {
        "bot" => Ok(Scope::BotPlay),
        "board" => Ok(Scope::BoardPlay),
        other => Err(not_a(Code::NoSuchApi, other, "API (bot or board)").into()),
    }
}

/// The body of POST /api/account/tokens.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    name: String,
    scopes: Vec<String>,
}

/// POST /api/account/tokens: a new token, its secret shown this once.
pub async fn make_token(
    State(state): State<AppState>,
    me: SignedIn,
    JsonBody(req): JsonBody<TokenRequest>,
) -> ApiResult<(StatusCode, Json<crate::bots::NewToken>)> {
    let made = state
        .shared
        .api
        .make_token(&me.account, &req.name, &req.scopes)
        .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// The account's tokens.
#[derive(Serialize)]
pub struct Tokens {
    tokens: Vec<crate::bots::TokenView>,
    bot: bool,
}

/// GET /api/account/tokens.
pub async fn tokens(State(state): State<AppState>, me: SignedIn) -> ApiResult<Json<Tokens>> {
    Ok(Json(Tokens {
        tokens: state.shared.api.tokens(&me.account).await?,
        bot: me.account.bot,
    }))
}

/// POST /api/account/tokens/{id}/revoke.
pub async fn revoke(
    State(state): State<AppState>,
    me: SignedIn,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state.shared.api.revoke(&me.account, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// GET /api/account: with a token (scope `read`), its account, as
/// lichess's; without, the logged-in account's page (cookies).
pub async fn account(
    State(state): State<AppState>,
    headers: HeaderMap,
    session: Session,
) -> ApiResult<Response> {
    if headers.contains_key(header::AUTHORIZATION) {
        let account = state.shared.api.read_account(bearer(&headers)).await?;
        return Ok(Json(account).into_response());
    }
    let Session(Some(me)) = session else {
        return Err(awale_model::error::Error::forbidden(
            Code::NotLoggedIn,
            "this is for a logged-in account: log in first",
        )
        .into());
    };
    Ok(super::accounts::show(State(state), me)
        .await?
        .into_response())
}

/// The query of GET /api/account/games.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    /// Where to go on from (a page's `next`).
    #[serde(default)]
    before: Option<String>,
    /// How many (at most 100; 50 by default).
    #[serde(default)]
    limit: Option<usize>,
}

/// GET /api/account/games: the games of a token's account (scope
/// `read`), newest first, a page at a time.
pub async fn account_games(
    State(state): State<AppState>,
    headers: HeaderMap,
    UrlQuery(q): UrlQuery<GamesQuery>,
) -> ApiResult<Json<awale_model::lists::Page>> {
    let before = match q.before.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            awale_store::parse_cursor(text)
                .ok_or_else(|| not_a(Code::BadCursor, text, "page's `next`"))?,
        ),
    };
    let page = state
        .shared
        .api
        .read_games(bearer(&headers), before, q.limit.unwrap_or(50))
        .await?;
    Ok(Json(page))
}

/// What an upgrade answers.
#[derive(Serialize)]
pub struct Upgraded {
    ok: bool,
    username: String,
    bot: bool,
}

/// POST /api/account/bot: the logged-in account becomes a bot, for good.
pub async fn upgrade_page(
    State(state): State<AppState>,
    me: SignedIn,
) -> ApiResult<Json<Upgraded>> {
    let account = state.shared.api.upgrade(&me.account).await?;
    Ok(Json(Upgraded {
        ok: true,
        username: account.username,
        bot: account.bot,
    }))
}

/// POST /api/bot/account/upgrade: the token's account becomes a bot.
pub async fn upgrade(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Json<Upgraded>> {
    let account = state.shared.api.upgrade_by_token(bearer(&headers)).await?;
    Ok(Json(Upgraded {
        ok: true,
        username: account.username,
        bot: account.bot,
    }))
}

/// What a call that changes a game answers.
#[derive(Serialize)]
pub struct Done {
    ok: bool,
    state: crate::bots::GameState,
}

fn done(state: crate::bots::GameState) -> Json<Done> {
    Json(Done { ok: true, state })
}

/// POST /api/{bot|board}/game/{id}/move/{move}.
pub async fn play(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((api, game, mv)): Path<(String, String, String)>,
) -> ApiResult<Json<Done>> {
    let api_ = &state.shared.api;
    let caller = api_.caller(bearer(&headers), scope_of(&api)?).await?;
    Ok(done(api_.play(&caller, &game, &mv).await?))
}

/// POST /api/{bot|board}/game/{id}/resign.
pub async fn resign(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((api, game)): Path<(String, String)>,
) -> ApiResult<Json<Done>> {
    let api_ = &state.shared.api;
    let caller = api_.caller(bearer(&headers), scope_of(&api)?).await?;
    Ok(done(api_.resign(&caller, &game).await?))
}

/// POST /api/{bot|board}/game/{id}/draw/{yes|no}.
pub async fn draw(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((api, game, answer)): Path<(String, String, String)>,
) -> ApiResult<Json<Done>> {
    let yes = match answer.as_str() {
        "yes" => true,
        "no" => false,
        other => return Err(not_a(Code::BadAnswer, other, "answer (yes or no)").into()),
    };
    let api_ = &state.shared.api;
    let caller = api_.caller(bearer(&headers), scope_of(&api)?).await?;
    Ok(done(api_.draw(&caller, &game, yes).await?))
}

/// The body of POST /api/{bot|board}/game/{id}/chat, as JSON or as a
/// form (lichess's clients send `room=player&text=...`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// `player` or `spectator`.
    room: String,
    /// The message.
    text: String,
}

/// POST /api/{bot|board}/game/{id}/chat: the token's account says
/// something in a room of its game, through the one chat service.
pub async fn chat(
    State(state): State<AppState>,
    headers: HeaderMap,
    ClientIp(client): ClientIp,
    Path((api_name, game)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<awale_model::lists::ChatLine>)> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let req: ChatRequest = if form {
        serde_urlencoded::from_bytes(&body).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                Code::BadField,
                e.to_string(),
            )
        })?
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                Code::BadField,
                format!("the body is `room` and `text`, as JSON or a form: {e}"),
            )
        })?
    };
    let api = &state.shared.api;
    let caller = api.caller(bearer(&headers), scope_of(&api_name)?).await?;
    let line = api
        .chat(&caller, &game, &req.room, &req.text, client)
        .await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// The body of POST /api/challenge/{username}.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    color: Option<String>,
}

/// POST /api/challenge/{username}: the token's account challenges a
/// player or a bot.
pub async fn challenge(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(to): Path<String>,
    JsonBody(req): JsonBody<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<crate::challenges::ChallengeView>)> {
    let colour = match req.color.as_deref().unwrap_or("random") {
        "random" | "R" => 'R',
        "S" | "south" => 'S',
        "N" | "north" => 'N',
        other => return Err(not_a(Code::BadSide, other, "side (S, N or random)").into()),
    };
    let clock = parse_clock(req.clock)?;
    let api = &state.shared.api;
    let caller = api.player(bearer(&headers)).await?;
    let made = api
        .challenge(
            &caller,
            NewChallenge {
                to,
                clock,
                rated: req.rated,
                colour,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

fn challenge_id(text: &str) -> ApiResult<i64> {
    text.parse()
        .map_err(|_| not_a(Code::BadChallenge, text, "challenge number").into())
}

/// POST /api/challenge/{id}/accept.
pub async fn accept(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<crate::challenges::Accepted>> {
    let id = challenge_id(&id)?;
    let api = &state.shared.api;
    let caller = api.player(bearer(&headers)).await?;
    Ok(Json(api.accept(&caller, id).await?))
}

/// POST /api/challenge/{id}/decline.
pub async fn decline(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<crate::challenges::ChallengeView>> {
    let id = challenge_id(&id)?;
    let api = &state.shared.api;
    let caller = api.player(bearer(&headers)).await?;
    Ok(Json(api.decline(&caller, id).await?))
}

/// A line of newline-delimited JSON.
fn line(value: &impl Serialize) -> Bytes {
    let mut text = serde_json::to_vec(value).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}

/// A streamed answer fed by `rx`.
fn ndjson(rx: mpsc::Receiver<Bytes>) -> Response {
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    let mut response = Body::from_stream(stream).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Why a stream's task stops waiting: something to send, or the end.
enum Wake<T> {
    Event(T),
    Tick,
    End,
}

/// Waits for `recv`, a revocation of `caller`'s token, the keep-alive
/// tick, or the server's stop.
async fn wake<T>(
    recv: impl std::future::Future<Output = T>,
    caller: &Caller,
    revoked: &mut tokio::sync::broadcast::Receiver<String>,
    tick: &mut tokio::time::Interval,
    stopping: &mut tokio::sync::watch::Receiver<bool>,
) -> Wake<T> {
    tokio::select! {
        r = recv => Wake::Event(r),
        r = revoked.recv() => match r {
            Ok(id) if id == caller.token => Wake::End,
            Err(RecvError::Closed) => Wake::End,
            _ => Wake::Tick,
        },
        _ = tick.tick() => Wake::Tick,
        _ = async { stopping.wait_for(|s| *s).await.map(|_| ()) } => Wake::End,
    }
}

/// On each tick: an empty line, and the token checked again (a revocation
/// made on another process). False: the stream ends.
async fn alive(api: &Api, caller: &Caller, tx: &mpsc::Sender<Bytes>) -> bool {
    tx.send(Bytes::from_static(b"\n")).await.is_ok() && api.still_valid(caller).await
}

/// GET /api/stream/event: the account's events (challenges, games that
/// start and end), its waiting challenges and games going on first.
pub async fn account_events(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let api = Arc::clone(&state.shared.api);
    let caller = api.player(bearer(&headers)).await?;
    let games = Arc::clone(api.games());
    // Listening before the first events are read: nothing falls between.
    let mut watch = games.hub().watch_player(caller.player());
    let mut endings = games.endings();
    let mut revoked = api.revocations();
    let first = api.events_first(&caller).await?;
    let mut stopping = state.shared.stopping.subscribe();
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        for event in first {
            if tx.send(line(&event)).await.is_err() {
                return;
            }
        }
        let mut tick = tokio::time::interval(KEEP_ALIVE);
        tick.tick().await;
        loop {
            let woke = wake(
                async {
                    tokio::select! {
                        e = watch.events.recv() => Ok(e),
                        g = endings.recv() => Err(g),
                    }
                },
                &caller,
                &mut revoked,
                &mut tick,
                &mut stopping,
            )
            .await;
            let event = match woke {
                Wake::End => return,
                Wake::Tick => {
                    if alive(&api, &caller, &tx).await {
                        continue;
                    }
                    return;
                }
                Wake::Event(Ok(Ok(e))) => Api::account_event(e.name, &e.data),
                Wake::Event(Err(Ok(game))) => Api::finish_of(&caller, &game),
                // Fell behind: what is waiting, again.
                Wake::Event(Ok(Err(RecvError::Lagged(_)))) => {
                    for event in api.events_first(&caller).await.unwrap_or_default() {
                        if tx.send(line(&event)).await.is_err() {
                            return;
                        }
                    }
                    None
                }
                Wake::Event(Err(Err(RecvError::Lagged(_)))) => None,
                Wake::Event(_) => return,
            };
            if let Some(event) = event {
                if tx.send(line(&event)).await.is_err() {
                    return;
                }
            }
        }
    });
    Ok(ndjson(rx))
}

/// GET /api/{bot|board}/game/stream/{id}: the whole game, then its state
/// after each change, and the players' chat; the stream ends with the game.
pub async fn game_stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((api_name, game)): Path<(String, String)>,
) -> ApiResult<Response> {
    let api = Arc::clone(&state.shared.api);
    let caller = api.caller(bearer(&headers), scope_of(&api_name)?).await?;
    let (web, side) = api.my_game(&caller, &game).await?;
    let games = Arc::clone(api.games());
    let (mut rx, _, _, watch) = games.hub().watch(web.id, Some(side), games.now_ms(), None);
    let listener = awale_service::live::Listener {
        seated: true,
        kid: caller.account.kid,
        moderator: false,
    };
    let full = api.game_full(&caller, &game).await?;
    let mut revoked = api.revocations();
    let mut stopping = state.shared.stopping.subscribe();
    let (tx, out) = mpsc::channel(64);
    tokio::spawn(async move {
        let _watch = watch;
        let over = full.state.status != "started";
        if tx.send(line(&full)).await.is_err() || over {
            return;
        }
        let mut tick = tokio::time::interval(KEEP_ALIVE);
        tick.tick().await;
        let mut last = full.state;
        loop {
            match wake(rx.recv(), &caller, &mut revoked, &mut tick, &mut stopping).await {
                Wake::End => return,
                Wake::Tick => {
                    if !alive(&api, &caller, &tx).await {
                        return;
                    }
                }
                // The seat's own listener: the players' room reaches it, no
                // chat a kid-mode account, nothing for moderators only.
                Wake::Event(Ok(e)) if !e.reaches(listener) => {}
                Wake::Event(Ok(e)) if e.name == "chat" => {
                    let players = e.audience == awale_service::live::Audience::Players;
                    let said: serde_json::Value = serde_json::from_str(&e.data).unwrap_or_default();
                    // lichess's shape (`username`, `text`), the whole line
                    // beside it.
                    let chat = serde_json::json!({
                        "type": "chatLine",
                        "room": if players { "player" } else { "spectator" },
                        "username": said["name"],
                        "text": said["text"],
                        "line": said,
                    });
                    if tx.send(line(&chat)).await.is_err() {
                        return;
                    }
                }
                Wake::Event(Ok(e)) if !matches!(e.name, "move" | "state") => {}
                Wake::Event(Ok(_) | Err(RecvError::Lagged(_))) => {
                    let Ok(web) = games.load(web.id).await else {
                        return;
                    };
                    let now = crate::bots::game_state(&web, games.now_ms());
                    let same = now.moves == last.moves
                        && now.status == last.status
                        && now.draw_offer == last.draw_offer;
                    if !same {
                        if tx.send(line(&now)).await.is_err() {
                            return;
                        }
                        if now.status != "started" {
                            return;
                        }
                        last = now;
                    }
                }
                Wake::Event(Err(RecvError::Closed)) => return,
            }
        }
    });
    Ok(ndjson(out))
}
