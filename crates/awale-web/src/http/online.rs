//! The handlers of online play: the player's nickname, joining a game by
//! its invite link, the lobby, takebacks, abort, claims, rematches, moving
//! a seat to another device and the public's reactions (chat: `chat.rs`). Who may do
//! what is the model's ([`crate::game`]); here requests are read, limited
//! and answered.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{Caller, JsonBody, OnGame, Player, Session, UrlQuery};
use crate::error::Error;
use crate::game::{parse_name, PlayerId, Seat};
use crate::games::Lobby;
use crate::round::Offer;
use crate::view::GameView;
use crate::AppState;
use awale_model::Code;

type ApiResult<T> = Result<T, ApiError>;

/// Who the viewer is.
#[derive(Serialize)]
pub struct Me {
    /// Their nickname, if they chose one.
    pub name: Option<String>,
    /// A number for a default nickname ("Guest 4821", "Invité 4821").
    pub guest: u32,
    /// The account this browser is logged in to, if any.
    pub account: Option<awale_model::account::AccountView>,
}

/// The name a player sits and speaks under: a logged-in account's
/// username, else the nickname given (checked, and no account's or the
/// server's name); and whether it is an account's.
pub(crate) async fn seat_name(
    state: &AppState,
    session: &Session,
    player: &PlayerId,
    given: Option<&str>,
) -> Result<(String, bool), Error> {
    match &session.0 {
        Some(signed) => Ok((signed.account.username.clone(), true)),
        None => Ok((guest_name(state, player, given).await?, false)),
    }
}

/// A guest's nickname `given`, checked: `bad_name`, or `name_taken` when
/// it would pass for an account or the server.
async fn guest_name(
    state: &AppState,
    player: &PlayerId,
    given: Option<&str>,
) -> Result<String, Error> {
    let name = parse_name(given)?;
    state
        .shared
        .accounts
        .check_guest_name(&name, Some(guest_number(player)))
        .await?;
    Ok(name)
}

/// The name `player` seeks or challenges under: a logged-in account's
/// username, else the nickname `given` (checked), else the one they chose
/// before, else the default one.
pub(crate) async fn nickname(
    state: &AppState,
    session: &Session,
    player: &PlayerId,
    given: Option<&str>,
) -> ApiResult<String> {
    if let Some(signed) = &session.0 {
        return Ok(signed.account.username.clone());
    }
    if given.is_some() {
        return Ok(guest_name(state, player, given).await?);
    }
    match stored_name(state, player).await? {
        Some(name) => Ok(name),
        None => Ok(parse_name(None)?),
    }
}

/// The nickname stored for `player`, if any (a dropped one is empty).
async fn stored_name(state: &AppState, player: &PlayerId) -> Result<Option<String>, Error> {
    state.shared.games.player_name(player).await
}

/// Drops the nickname of the browser's own player (`guest`, its cookie's)
/// when it is the username of `account`, which logs out or is deleted
/// there: a guest signing up gave its player the account's name, which
/// the browser would keep as a guest.
pub(crate) async fn drop_account_name(
    state: &AppState,
    guest: Option<PlayerId>,
    account: &awale_model::account::Account,
) -> Result<(), Error> {
    let Some(guest) = guest.filter(|g| *g != account.player) else {
        return Ok(());
    };
    let name = stored_name(state, &guest).await?;
    if name.is_some_and(|n| n.trim().eq_ignore_ascii_case(&account.username)) {
        state
            .shared
            .games
            .set_player_name(&guest, String::new())
            .await?;
    }
    Ok(())
}

/// A number from 1000 to 9999 for a player's default nickname.
pub(crate) fn guest_number(player: &PlayerId) -> u32 {
    awale_service::chat::guest_number(player)
}

/// GET /api/me.
pub async fn me(
    State(state): State<AppState>,
    Player(player): Player,
    Session(session): Session,
) -> ApiResult<Json<Me>> {
    let name = stored_name(&state, &player).await?;
    Ok(Json(Me {
        name,
        guest: guest_number(&player),
        account: session.map(|s| s.account.view()),
    }))
}

/// The body of POST /api/me.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    name: Option<String>,
}

/// POST /api/me: sets the viewer's nickname (and in their games going on).
pub async fn rename(
    State(state): State<AppState>,
    Caller(caller): Caller,
    session: Session,
    JsonBody(req): JsonBody<NameRequest>,
) -> ApiResult<Json<Me>> {
    session.guest_only(
        Code::AccountName,
        "a logged-in player's name is their username",
    )?;
    let accounts = &state.shared.accounts;
    let name = accounts.rename_guest(&caller, req.name.as_deref()).await?;
    Ok(Json(Me {
        name: Some(name),
        guest: guest_number(&caller.player),
        account: None,
    }))
}

/// GET /api/lobby: open challenges and games being played.
pub async fn lobby(State(state): State<AppState>) -> ApiResult<Json<Lobby>> {
    Ok(Json(state.shared.games.lobby().await?))
}

/// The base of the links the server gives: the public URL, or the address
/// the browser used (its `Host`, which the guard has checked).
fn base_url(state: &AppState, headers: &HeaderMap) -> Result<url::Url, Error> {
    if let Some(url) = &state.shared.public_url {
        return Ok(url.clone());
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1");
    url::Url::parse(&format!("http://{host}/")).map_err(|e| {
        Error::invalid(
            Code::BadHost,
            format!("the Host header `{host}` is not an address: {e}"),
        )
    })
}

/// The page at `base` asking `query` (`join=12`).
fn link(base: &url::Url, query: &str) -> String {
    let mut url = base.clone();
    url.set_query(Some(query));
    url.into()
}

/// The links of an online game.
#[derive(Serialize)]
pub struct Links {
    /// The invitation, for the game's players only: whoever opens it first
    /// takes the free seat; later visitors watch. A private game's carries
    /// its key (`?join=ID&k=KEY`), without which the seat is not given.
    pub invite: Option<String>,
    /// To watch.
    pub watch: String,
}

/// Which of a game's links [`link_code`] draws.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum LinkName {
    /// The invitation (its players' only).
    Invite,
    /// The watching link.
    Watch,
}

/// The query of GET /api/games/{id}/links/qr.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkCodeQuery {
    link: LinkName,
}

/// One of a game's links as a QR code (SVG), asked apart from the links:
/// a thousand games made at once ask a thousand codes, which the links
/// (the invitation's key, on the way to a join) do not wait for; and only the one a page
/// shows is drawn (the invitation while the game waits, the watching
/// link when it is shared).
#[derive(Serialize)]
pub struct LinkCode {
    /// None when the viewer is given no such link (the invitation, to a
    /// spectator) or it is too long for a code.
    pub qr: Option<String>,
}

/// GET /api/games/{id}/links.
pub async fn links(on: OnGame, headers: HeaderMap) -> ApiResult<Json<Links>> {
    Ok(Json(game_links(&on, &headers).await?))
}

/// GET /api/games/{id}/links/qr?link=invite|watch: one of [`links`]
/// drawn, for the same viewer.
pub async fn link_code(
    on: OnGame,
    headers: HeaderMap,
    UrlQuery(query): UrlQuery<LinkCodeQuery>,
) -> ApiResult<Json<LinkCode>> {
    let Links { invite, watch } = game_links(&on, &headers).await?;
    let link = match query.link {
        LinkName::Invite => invite,
        LinkName::Watch => Some(watch),
    };
    let qr = match link {
        Some(link) => super::qr::drawn(link).await,
        None => None,
    };
    Ok(Json(LinkCode { qr }))
}

/// The links of `on`'s game as its viewer may see them.
async fn game_links(on: &OnGame, headers: &HeaderMap) -> Result<Links, Error> {
    let games = &on.state.shared.games;
    let invitation = games.invitation(on.id, on.viewer.player()).await?;
    let base = base_url(&on.state, headers)?;
    Ok(Links {
        invite: invitation.join.map(|query| link(&base, &query)),
        watch: link(&base, &format!("game={}", invitation.public_id)),
    })
}

/// The body of POST /api/games/{id}/join.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    name: Option<String>,
    /// The invitation's key, from its link (`k`): a private game's free
    /// seat is given only with it.
    #[serde(default)]
    key: Option<String>,
}

/// POST /api/games/{id}/join: takes the free seat of an online game (a
/// private one with its invitation's key).
pub async fn join(
    on: OnGame,
    Player(me): Player,
    session: Session,
    JsonBody(req): JsonBody<JoinRequest>,
) -> ApiResult<Json<GameView>> {
    let (name, account) = seat_name(&on.state, &session, &me, req.name.as_deref()).await?;
    let games = &on.state.shared.games;
    // Checked on the copy held here (no round trip to the store); the
    // seat is then given over the stored revision, and a refusal is
    // checked again on the stored game before it is answered.
    let held = games.load_held(on.id).await?;
    if may_join(&on, &held, &me, account).await.is_err() {
        let game = on.load().await?;
        may_join(&on, &game, &me, account).await?;
    }
    let seat = Seat { player: me, name };
    // A guest's name is stored as theirs with the seat (one commit).
    let game = games
        .sit_named(on.id, seat, req.key.as_deref(), !account)
        .await?;
    Ok(on.view(&game))
}

/// Whether `me` (an account's player when `account`) may take the free
/// seat of `game` before the seating rules: a rated game's seat is an
/// account's; no challenge between players one of whom blocks the other
/// (a guest blocks nobody and nobody blocks a guest: nothing to read);
/// a seek with a rating range takes only the ratings within it.
async fn may_join(
    on: &OnGame,
    game: &awale_model::game::WebGame,
    me: &PlayerId,
    account: bool,
) -> Result<(), Error> {
    if game.rated && !account && game.waiting() {
        return Err(awale_service::games::rated_needs_account());
    }
    if account {
        for seat in game.seats.iter().flatten() {
            on.state
                .shared
                .accounts
                .check_not_blocked(&seat.player, me)
                .await?;
        }
    }
    if game.waiting() {
        on.state
            .shared
            .player_pages
            .check_rating_range(game, me)
            .await?;
    }
    Ok(())
}

/// The body of POST /api/games/{id}/takeback and /draw.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// Absent: make the offer (ask for a takeback, offer a draw); true or
    /// false: answer the other's.
    #[serde(default)]
    accept: Option<bool>,
}

/// POST /api/games/{id}/takeback (asks for a takeback, or answers one)
/// and /draw (offers a draw, or answers the other's offer).
pub async fn offer(
    offer: Offer,
    on: OnGame,
    Player(me): Player,
    JsonBody(req): JsonBody<OfferRequest>,
) -> ApiResult<Json<GameView>> {
    let games = &on.state.shared.games;
    let game = games.offer(on.id, &me, offer, req.accept).await?;
    Ok(on.view(&game))
}

/// POST /api/games/{id}/abort: aborts a game that has not really begun,
/// or withdraws a challenge nobody took.
pub async fn abort(on: OnGame, Player(me): Player) -> ApiResult<Json<GameView>> {
    let game = on.state.shared.games.abort(on.id, &me).await?;
    Ok(on.view(&game))
}

/// POST /api/games/{id}/claim: claims the win when the other player, to
/// move, has been gone for two minutes (games without a clock).
pub async fn claim(on: OnGame, Player(me): Player) -> ApiResult<Json<GameView>> {
    let game = on.state.shared.games.claim(on.id, &me).await?;
    Ok(on.view(&game))
}

/// The body of POST /api/games/{id}/rematch.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    /// Absent or true: offer, or accept the other's offer; false: decline it.
    #[serde(default)]
    accept: Option<bool>,
}

/// POST /api/games/{id}/rematch: offers a rematch, or accepts the other's:
/// then a new game starts with the colours swapped, and both are sent to it
/// (`offers.rematch_id`); `{"accept": false}` declines the other's offer.
pub async fn rematch(
    on: OnGame,
    Caller(caller): Caller,
    JsonBody(req): JsonBody<RematchRequest>,
) -> ApiResult<Json<GameView>> {
    let games = &on.state.shared.games;
    let game = if req.accept == Some(false) {
        games.decline_rematch(on.id, &caller.player).await?
    } else {
        games.rematch(on.id, &caller).await?
    };
    Ok(on.view(&game))
}

/// A private link that moves the viewer's seat to another device.
#[derive(Serialize)]
pub struct HandoffLink {
    /// Open it on the other device (within ten minutes, once).
    pub link: String,
    /// The link as a QR code (SVG), None when too long for one.
    pub qr: Option<String>,
}

/// POST /api/games/{id}/handoff: a link to continue on another device.
pub async fn handoff(
    on: OnGame,
    Caller(caller): Caller,
    headers: HeaderMap,
) -> ApiResult<Json<HandoffLink>> {
    let shared = &on.state.shared;
    let token = shared.handoffs.offer(&shared.games, on.id, caller).await?;
    let base = base_url(&on.state, &headers)?;
    let link = link(&base, &format!("continue={token}"));
    Ok(Json(HandoffLink {
        qr: super::qr::svg(&link),
        link,
    }))
}

/// The body of POST /api/handoff.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandoffRequest {
    token: String,
}

/// POST /api/handoff: this browser takes the seat the link was made for.
pub async fn take_handoff(
    State(state): State<AppState>,
    Player(me): Player,
    JsonBody(req): JsonBody<HandoffRequest>,
) -> ApiResult<Json<GameView>> {
    let shared = &state.shared;
    let game = shared
        .handoffs
        .take(&shared.games, &req.token, me.clone())
        .await?;
    Ok(Json(game.view(shared.games.now_ms(), Some(Some(&me)))))
}

/// The body of POST /api/games/{id}/react.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactRequest {
    kind: String,
}

/// POST /api/games/{id}/react: applause, "oh!", a drum or a song, seen
/// and heard by every viewer (not stored; `awale_service::reactions`).
pub async fn react(
    on: OnGame,
    Caller(caller): Caller,
    JsonBody(req): JsonBody<ReactRequest>,
) -> ApiResult<StatusCode> {
    let games = &on.state.shared.games;
    games.react(on.id, &caller, &req.kind).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// GET /api/games/{id}/accounts: which seats are accounts', and bots'.
pub async fn seat_accounts(on: OnGame) -> ApiResult<Json<awale_service::players::SeatAccounts>> {
    let game = on.load().await?;
    Ok(Json(
        on.state.shared.player_pages.seat_accounts(&game).await?,
    ))
}

/// The presence of a game, for the page at load.
pub async fn presence(on: OnGame) -> Json<crate::live::Presence> {
    Json(on.state.shared.games.hub().presence(on.id))
}
