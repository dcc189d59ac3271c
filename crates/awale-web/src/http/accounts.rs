//! The handlers of accounts: sign up, log in and out (everywhere), the
//! password (changed, or reset with a recovery code), new recovery codes,
//! kid mode, deletion; blocks and reports between players; the moderators'
//! page and actions. The rules are the service's (`awale_service::accounts`);
//! here requests are read and answered, and the session cookie set.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{account_acts, ClientIp, GuestCookie, JsonBody, Session, SignedIn, Viewer};
use super::guard::{device_cookie, device_of, session_cookie};
use super::online::drop_account_name;
use crate::error::Error;
use crate::AppState;
use awale_model::account::{AccountView, Report};
use awale_model::Code;

type ApiResult<T> = Result<T, ApiError>;

/// The body of a sign-up or a log-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

/// A new account: shown once, with its recovery codes.
#[derive(Serialize)]
pub struct SignedUpView {
    /// The account.
    pub account: AccountView,
    /// The recovery codes, in clear this once.
    pub recovery_codes: Vec<String>,
}

/// The account of a log-in.
#[derive(Serialize)]
pub struct AccountAnswer {
    /// The account.
    pub account: AccountView,
}

fn with_session(state: &AppState, secret: Option<&str>, answer: impl IntoResponse) -> Response {
    let mut response = answer.into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        session_cookie(&state.shared.policy, secret),
    );
    response
}

/// POST /api/account/signup: a new account, logged in; the browser's
/// guest (its games, seats and name) becomes it.
pub async fn sign_up(
    State(state): State<AppState>,
    Viewer(guest): Viewer,
    session: Session,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<Credentials>,
) -> ApiResult<Response> {
    session.guest_only(Code::LoggedIn, "log out first to make another account")?;
    let made = state
        .shared
        .accounts
        .sign_up(&req.username, &req.password, guest, ip)
        .await?;
    let body = SignedUpView {
        account: made.account.view(),
        recovery_codes: made.recovery_codes,
    };
    Ok(with_session(
        &state,
        Some(&made.session),
        (StatusCode::CREATED, Json(body)),
    ))
}

/// POST /api/account/login.
pub async fn log_in(
    State(state): State<AppState>,
    Session(session): Session,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> ApiResult<Response> {
    let device = device_of(&headers);
    let done = state
        .shared
        .accounts
        .log_in_on(&req.username, &req.password, ip, device)
        .await?;
    if let Some(old) = session {
        // Another account was logged in here: its session ends.
        state.shared.accounts.log_out(&old.secret).await?;
    }
    let body = AccountAnswer {
        account: done.account.view(),
    };
    let mut response = with_session(&state, Some(&done.session), Json(body));
    response.headers_mut().append(
        header::SET_COOKIE,
        device_cookie(&state.shared.policy, &done.device),
    );
    Ok(response)
}

/// POST /api/account/logout: this browser's session ends (it is a guest
/// again, without the account's name).
pub async fn log_out(
    State(state): State<AppState>,
    Session(session): Session,
    GuestCookie(guest): GuestCookie,
) -> ApiResult<Response> {
    if let Some(session) = session {
        state.shared.accounts.log_out(&session.secret).await?;
        drop_account_name(&state, guest, &session.account).await?;
    }
    Ok(with_session(&state, None, StatusCode::NO_CONTENT))
}

/// How many sessions ended.
#[derive(Serialize)]
pub struct Ended {
    /// Sessions ended (this one too).
    pub ended: usize,
}

/// POST /api/account/logout-everywhere: every session of the account ends,
/// this one too.
pub async fn log_out_everywhere(
    State(state): State<AppState>,
    me: SignedIn,
    GuestCookie(guest): GuestCookie,
) -> ApiResult<Response> {
    let ended = state
        .shared
        .accounts
        .log_out_everywhere(&me.account)
        .await?;
    drop_account_name(&state, guest, &me.account).await?;
    Ok(with_session(&state, None, Json(Ended { ended })))
}

/// The body of POST /api/account/password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    current: String,
    new: String,
}

/// POST /api/account/password: a new password (the current one asked);
/// the other sessions end.
pub async fn change_password(
    State(state): State<AppState>,
    me: SignedIn,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<PasswordChange>,
) -> ApiResult<StatusCode> {
    state
        .shared
        .accounts
        .change_password(&me.account, &me.secret, &req.current, &req.new, ip)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of POST /api/account/reset.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    username: String,
    code: String,
    password: String,
}

/// POST /api/account/reset: a new password with a recovery code; every
/// session ends, this browser logs in.
pub async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<Reset>,
) -> ApiResult<Response> {
    let done = state
        .shared
        .accounts
        .reset_password(&req.username, &req.code, &req.password, ip)
        .await?;
    let body = AccountAnswer {
        account: done.account.view(),
    };
    Ok(with_session(&state, Some(&done.session), Json(body)))
}

/// A body that only asks the password again.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordOnly {
    password: String,
}

/// New recovery codes.
#[derive(Serialize)]
pub struct Codes {
    /// The codes, in clear this once.
    pub recovery_codes: Vec<String>,
}

/// POST /api/account/recovery-codes: new codes (the password asked); the
/// old ones stop working.
pub async fn new_recovery_codes(
    State(state): State<AppState>,
    me: SignedIn,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<PasswordOnly>,
) -> ApiResult<Json<Codes>> {
    let recovery_codes = state
        .shared
        .accounts
        .new_recovery_codes(&me.account, &req.password, ip)
        .await?;
    Ok(Json(Codes { recovery_codes }))
}

/// POST /api/account/delete: the account is deleted (the password asked);
/// its games stay, played by a deleted player; the browser is a guest
/// again, without the account's name.
pub async fn delete(
    State(state): State<AppState>,
    me: SignedIn,
    ClientIp(ip): ClientIp,
    GuestCookie(guest): GuestCookie,
    JsonBody(req): JsonBody<PasswordOnly>,
) -> ApiResult<Response> {
    state
        .shared
        .accounts
        .delete(&me.account, &req.password, ip)
        .await?;
    drop_account_name(&state, guest, &me.account).await?;
    Ok(with_session(&state, None, StatusCode::NO_CONTENT))
}

/// The account as its settings page shows it.
#[derive(Serialize)]
pub struct AccountPage {
    /// The account.
    pub account: AccountView,
    /// Recovery codes left.
    pub recovery_codes_left: usize,
    /// The usernames it blocks.
    pub blocked: Vec<String>,
}

/// GET /api/account: the logged-in account, its codes left and blocks.
pub async fn show(State(state): State<AppState>, me: SignedIn) -> ApiResult<Json<AccountPage>> {
    let accounts = &state.shared.accounts;
    Ok(Json(AccountPage {
        account: me.account.view(),
        recovery_codes_left: accounts.recovery_codes_left(&me.account).await?,
        blocked: accounts.blocked_by(&me.account).await?,
    }))
}

/// The body of POST /api/account/settings.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    kid: bool,
}

/// POST /api/account/settings: kid mode on or off.
pub async fn settings(
    State(state): State<AppState>,
    me: SignedIn,
    JsonBody(req): JsonBody<Settings>,
) -> ApiResult<Json<AccountAnswer>> {
    state.shared.accounts.set_kid(&me.account, req.kid).await?;
    let mut account = me.account.view();
    account.kid = req.kid;
    Ok(Json(AccountAnswer { account }))
}

/// The body of POST /api/account/blocks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockRequest {
    username: String,
    blocked: bool,
}

/// The usernames blocked.
#[derive(Serialize)]
pub struct Blocked {
    /// They.
    pub blocked: Vec<String>,
}

/// POST /api/account/blocks: blocks (or no longer blocks) a player.
pub async fn block(
    State(state): State<AppState>,
    me: SignedIn,
    JsonBody(req): JsonBody<BlockRequest>,
) -> ApiResult<Json<Blocked>> {
    let accounts = &state.shared.accounts;
    if req.blocked {
        accounts.block(&me.account, &req.username).await?;
        let other = accounts.find(&req.username).await?;
        state
            .shared
            .direct
            .end_between(&me.account.player, &other.player)
            .await?;
    } else {
        accounts.unblock(&me.account, &req.username).await?;
    }
    Ok(Json(Blocked {
        blocked: accounts.blocked_by(&me.account).await?,
    }))
}

/// The body of POST /api/reports.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    username: String,
    /// The game it is about: its public id, as in its address.
    game: Option<String>,
    reason: String,
    #[serde(default)]
    text: String,
}

/// A report's number.
#[derive(Serialize)]
pub struct Reported {
    /// Its number.
    pub id: i64,
}

/// POST /api/reports: reports a player to the moderators.
pub async fn report(
    State(state): State<AppState>,
    me: SignedIn,
    JsonBody(req): JsonBody<ReportRequest>,
) -> ApiResult<(StatusCode, Json<Reported>)> {
    let id = state
        .shared
        .accounts
        .report(
            &me.account,
            &req.username,
            req.game.as_deref(),
            &req.reason,
            &req.text,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(Reported { id })))
}

/// The reports, for a moderator.
#[derive(Serialize)]
pub struct Reports {
    /// Open ones first, newest first.
    pub reports: Vec<Report>,
}

/// GET /api/moderation/reports.
pub async fn reports(State(state): State<AppState>, me: SignedIn) -> ApiResult<Json<Reports>> {
    let reports = state.shared.accounts.reports(&me.account).await?;
    Ok(Json(Reports { reports }))
}

/// The pairs flagged for playing rated from one place, for a moderator.
#[derive(Serialize)]
pub struct Flags {
    /// Newest first, each with their rated games together lately.
    pub flags: Vec<awale_service::moderation::FlagView>,
}

/// GET /api/moderation/flags.
pub async fn flags(State(state): State<AppState>, me: SignedIn) -> ApiResult<Json<Flags>> {
    let desk = state.shared.moderation.desk(&me.account).await?;
    Ok(Json(Flags { flags: desk.flags }))
}

/// GET /api/moderation/desk: the moderator page (reports, flagged pairs,
/// unusual gains, the accounts they name with their state, the log).
pub async fn desk(
    State(state): State<AppState>,
    me: SignedIn,
) -> ApiResult<Json<awale_service::moderation::Desk>> {
    Ok(Json(state.shared.moderation.desk(&me.account).await?))
}

/// GET /api/moderation/accounts/{name}: an account's state and the
/// actions that apply, for a moderator.
pub async fn mod_account(
    State(state): State<AppState>,
    me: SignedIn,
    Path(name): Path<String>,
) -> ApiResult<Json<awale_service::moderation::ModAccount>> {
    let account = state.shared.moderation.account(&me.account, &name).await?;
    Ok(Json(account))
}

/// The body of POST /api/moderation/reports/{id}/resolve.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    #[serde(default)]
    reason: String,
}

/// POST /api/moderation/reports/{id}/resolve.
pub async fn resolve(
    State(state): State<AppState>,
    me: SignedIn,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<ResolveRequest>,
) -> ApiResult<StatusCode> {
    let id = id.parse::<i64>().map_err(|_| {
        Error::new(
            awale_model::Kind::NotFound,
            Code::NoSuchReport,
            format!("no report `{}`", crate::error::shown(&id)),
        )
    })?;
    state
        .shared
        .moderation
        .dismiss(&me.account, id, &req.reason)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of POST /api/moderation/mute.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    username: String,
    muted: bool,
    #[serde(default)]
    reason: String,
}

/// The body of POST /api/moderation/close, `reopen`, `grant`, `revoke`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountAction {
    username: String,
    #[serde(default)]
    reason: String,
}

/// The body of POST /api/moderation/refund.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefundRequest {
    games: Vec<String>,
    #[serde(default)]
    reason: String,
}

/// The games refunded.
#[derive(Serialize)]
pub struct Refunded {
    /// How many.
    pub refunded: usize,
}

/// POST /api/moderation/refund: gives back the rating points of games.
pub async fn refund(
    State(state): State<AppState>,
    me: SignedIn,
    JsonBody(req): JsonBody<RefundRequest>,
) -> ApiResult<Json<Refunded>> {
    let refunded = state
        .shared
        .moderation
        .refund(&me.account, &req.games, &req.reason)
        .await?;
    Ok(Json(Refunded { refunded }))
}

account_acts! {
    /// POST /api/moderation/mute: mutes a player from chat (or not).
    mute(MuteRequest): |shared, me, req| shared.moderation.mute(&me.account, &req.username, req.muted, &req.reason);
    /// POST /api/moderation/close: closes a player's account.
    close(AccountAction): |shared, me, req| shared.moderation.close(&me.account, &req.username, &req.reason);
    /// POST /api/moderation/reopen: opens a closed account again.
    reopen(AccountAction): |shared, me, req| shared.moderation.reopen(&me.account, &req.username, &req.reason);
    /// POST /api/moderation/grant: an administrator makes a player a moderator.
    grant(AccountAction): |shared, me, req| shared.moderation.grant_moderator(&me.account, &req.username, &req.reason);
    /// POST /api/moderation/revoke: an administrator makes a moderator a player.
    revoke(AccountAction): |shared, me, req| shared.moderation.revoke_moderator(&me.account, &req.username, &req.reason);
}
