//! What handlers take from a request, read with the API's own errors: a
//! JSON body (only as `application/json`), a query, a game id (its public
//! id in the path), a tournament's or a challenge's number, the viewer (the
//! player their cookie names, if any), the request about one game that
//! bundles them, and the client's address; and the handlers made of one
//! call of the service (`player_acts!`, `account_acts!`).

use std::net::{IpAddr, SocketAddr};

use awale_model::Code;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request};
use axum::http::header::AsHeaderName;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

use super::error::ApiError;
use crate::error::Error;
use crate::game::{PlayerId, WebGame};
use crate::view::GameView;
use crate::AppState;

/// A JSON request body: 415 when it is not sent as `application/json`
/// (so another site's form or `text/plain` request cannot pass for the
/// page), 413 when too large, 400 when not JSON, 422 when a field has the
/// wrong type. An empty body reads as `{}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json = says_json(req.headers());
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status();
            let text = e.body_text();
            if text.contains(super::deadline::TOO_SLOW) {
                return ApiError::new(StatusCode::REQUEST_TIMEOUT, Code::SlowBody, TOO_SLOW_TEXT);
            }
            let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
                Code::TooLarge
            } else {
                Code::BadBody
            };
            ApiError::new(status, code, text)
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return serde_json::from_slice(b"{}").map(JsonBody).map_err(|e| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Code::BadField,
                    e.to_string(),
                )
            });
        }
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                Code::NotJson,
                "the body must be sent as application/json",
            ));
        }
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            if e.is_data() {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Code::BadField,
                    e.to_string(),
                )
            } else {
                ApiError::bad_request(Code::BadJson, format!("malformed JSON: {e}"))
            }
        })
    }
}

const TOO_SLOW_TEXT: &str = "the request's body came too slowly: send it at once";

/// A URL's query: 400 `bad_query` naming the problem (an unknown field, a
/// value of the wrong type, and the field at fault) when it cannot be read.
pub struct UrlQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for UrlQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        // Read as axum's `Query` reads it, but with the field at fault in
        // backticks: axum's message names it bare (a 20 KB key twice),
        // where the answer cannot cut it.
        let query = parts.uri.query().unwrap_or_default();
        let pairs =
            serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(pairs)
            .map(UrlQuery)
            .map_err(|e| {
                let message = match e.path().to_string().as_str() {
                    "." => format!("the query: {}", e.inner()),
                    path => format!("the query's `{path}`: {}", e.inner()),
                };
                ApiError::bad_request(Code::BadQuery, message)
            })
    }
}

/// The `{id}` of a game's path, as the address gives it: a game's public
/// id (or an old link's number), found by [`OnGame`].
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(text) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, Code::NoSuchGame, e.body_text()))?;
        Ok(GameId(text))
    }
}

/// The `{id}` of a tournament's path: its number (404
/// `no_such_tournament` for anything else).
pub struct TournamentId(pub i64);

/// The `{id}` of a direct challenge's path: its number (404
/// `no_such_challenge` for anything else).
pub struct ChallengeId(pub i64);

/// The `{id}` of one of the player's mistakes: its number (404
/// `no_mistake` for anything else).
pub struct MistakeId(pub i64);

/// Extractors of a number from the path, each with the code and the word
/// of what it numbers.
macro_rules! numbered_in_path {
    ($($extractor:ident: $code:expr, $what:literal;)+) => {$(
        impl<S: Send + Sync> FromRequestParts<S> for $extractor {
            type Rejection = Response;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
                let Path(text) = Path::<String>::from_request_parts(parts, state)
                    .await
                    .map_err(|e| {
                        ApiError::new(StatusCode::NOT_FOUND, $code, e.body_text()).into_response()
                    })?;
                path_number(&text, $code, $what)
                    .map($extractor)
                    .map_err(|e| ApiError::from(e).into_response())
            }
        }
    )+};
}

numbered_in_path! {
    TournamentId: Code::NoSuchTournament, "tournament";
    ChallengeId: Code::NoSuchChallenge, "challenge";
    MistakeId: Code::NoMistake, "mistake";
}

/// Handlers of what a player does to the thing numbered in the path (`Id`
/// is its extractor, [`TournamentId`] or [`ChallengeId`]): each calls one
/// operation of a service of the server's shared state with the number,
/// the player and any further arguments (`service.operation(args)`), and
/// answers with what it gives, as JSON.
macro_rules! player_acts {
    ($Id:ident {
        $($(#[doc = $doc:literal])+
        $name:ident -> $answer:ty: $service:ident.$op:ident($($arg:expr),*);)+
    }) => {$(
        $(#[doc = $doc])+
        pub async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::AppState>,
            $crate::http::extract::Player(me): $crate::http::extract::Player,
            $crate::http::extract::$Id(id): $crate::http::extract::$Id,
        ) -> Result<axum::Json<$answer>, $crate::http::error::ApiError> {
            Ok(axum::Json(state.shared.$service.$op(id, &me $(, $arg)*).await?))
        }
    )+};
}
pub(crate) use player_acts;

/// Handlers of what a logged-in account asks with a JSON body (`name(Body)`):
/// each calls one operation of a service of the server's shared state
/// (`|shared, me, req| ...`, `me` the [`SignedIn`] account, `req` the body)
/// and answers 204 No Content.
macro_rules! account_acts {
    ($($(#[doc = $doc:literal])+
        $name:ident($body:ty): |$shared:ident, $me:ident, $req:ident| $op:expr;)+
    ) => {$(
        $(#[doc = $doc])+
        pub async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::AppState>,
            $me: $crate::http::extract::SignedIn,
            $crate::http::extract::JsonBody($req): $crate::http::extract::JsonBody<$body>,
        ) -> Result<axum::http::StatusCode, $crate::http::error::ApiError> {
            let $shared = &state.shared;
            $op.await?;
            Ok(axum::http::StatusCode::NO_CONTENT)
        }
    )+};
}
pub(crate) use account_acts;

/// A number from the path, above 0: for anything else, 404 `code`, "no
/// `what` `text`".
pub(crate) fn path_number(text: &str, code: Code, what: &str) -> Result<i64, Error> {
    text.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
        Error::new(
            awale_model::Kind::NotFound,
            code,
            format!("no {what} `{}`", crate::error::shown(text)),
        )
    })
}

/// A word of the request that is none of those it may be: `code`,
/// "`text` is not a `what`", the word given back (`text`).
pub(crate) fn not_a(code: Code, text: &str, what: &str) -> Error {
    Error::invalid(
        code,
        format!("`{}` is not a {what}", crate::error::shown(text)),
    )
    .with("text", text)
}

/// The player the request's cookie names, if it has a well-formed one
/// (set by the guard, see `guard::identify`).
#[derive(Clone, Debug, Default)]
pub struct Viewer(pub Option<PlayerId>);

impl Viewer {
    /// The player, if any.
    pub fn player(&self) -> Option<&PlayerId> {
        self.0.as_ref()
    }
}

/// The account a request's session cookie stands for, and the session's
/// secret (set by the guard).
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// The account, as looked up for this request.
    pub account: awale_model::account::Account,
    /// The session's secret (from the cookie).
    pub secret: String,
}

/// The request's session, if it is logged in (set by the guard).
#[derive(Clone, Debug, Default)]
pub struct Session(pub Option<SignedIn>);

impl Session {
    /// Refuses what only a guest may do: 409 `code`, `why`, when logged in.
    ///
    /// # Errors
    ///
    /// That refusal.
    pub fn guest_only(&self, code: Code, why: &str) -> Result<(), Error> {
        match self.0 {
            Some(_) => Err(Error::conflict(code, why)),
            None => Ok(()),
        }
    }
}

/// The guest the browser's own player cookie stands for (a secret the
/// server issued), whatever account is logged in there (set by the guard).
#[derive(Clone, Debug, Default)]
pub struct GuestCookie(pub Option<PlayerId>);

/// Extractors of what the guard put in the request (each type's default
/// when it put nothing there).
macro_rules! set_by_guard {
    ($($extractor:ty),+) => {$(
        impl<S: Send + Sync> FromRequestParts<S> for $extractor {
            type Rejection = std::convert::Infallible;

            async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
                Ok(parts.extensions.get::<$extractor>().cloned().unwrap_or_default())
            }
        }
    )+};
}

set_by_guard!(Viewer, Session, GuestCookie);

impl<S: Send + Sync> FromRequestParts<S> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Ok(Session(session)) = Session::from_request_parts(parts, state).await;
        session.ok_or_else(|| {
            Error::forbidden(
                Code::NotLoggedIn,
                "this is for a logged-in account: log in first",
            )
            .into()
        })
    }
}

/// The viewer's player, for what only a player may do: 403 `no_player`
/// when the request has no player cookie.
pub struct Player(pub PlayerId);

impl<S: Send + Sync> FromRequestParts<S> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Ok(Viewer(player)) = Viewer::from_request_parts(parts, state).await;
        let player = player.ok_or_else(|| {
            Error::forbidden(
                Code::NoPlayer,
                "this browser has no player cookie: open the page first",
            )
        })?;
        Ok(Player(player))
    }
}

/// Who asks, as the service's limits count them: the viewer's player (403
/// `no_player` without one, as [`Player`]) and the client address.
pub struct Caller(pub awale_service::limits::Caller);

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Player(player) = Player::from_request_parts(parts, state).await?;
        let Ok(ClientIp(client)) = ClientIp::from_request_parts(parts, state).await;
        Ok(Caller(awale_service::limits::Caller::new(player, client)))
    }
}

/// A request about one game: the server's state, the game's id (found from
/// the path's public id, 404 naming it when it is no game's; an old link's
/// number only for the game's own players) and who asks.
pub struct OnGame {
    /// The server's state.
    pub state: AppState,
    /// The game's id in the store.
    pub id: i64,
    /// Who asks.
    pub viewer: Viewer,
}

impl FromRequestParts<AppState> for OnGame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let GameId(text) = GameId::from_request_parts(parts, state).await?;
        let Ok(viewer) = Viewer::from_request_parts(parts, state).await;
        let id = state.shared.games.find(&text, viewer.player()).await?;
        Ok(OnGame {
            state: state.clone(),
            id,
            viewer,
        })
    }
}

impl OnGame {
    /// The game as stored now.
    ///
    /// # Errors
    ///
    /// `no_such_game`, or when the store fails.
    pub async fn load(&self) -> Result<WebGame, Error> {
        self.state.shared.games.load(self.id).await
    }

    /// `game` as the viewer sees it now.
    pub fn view(&self, game: &WebGame) -> Json<GameView> {
        Json(game.view(self.state.shared.games.now_ms(), Some(self.viewer.player())))
    }
}

/// The client's address as limits count it (an IPv6 address by its /64,
/// what one subscriber is given): the socket's peer, or, behind trusted
/// reverse proxies, the address they received the request from (see
/// [`ClientIp::of`]). None in tests that call the router directly.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub Option<IpAddr>);

impl ClientIp {
    /// The client of a request from the socket's `peer` with `headers`:
    /// when the peer is one of the `trusted` proxies, the rightmost address
    /// of `X-Forwarded-For` that is not one of them (what the proxies in
    /// front added: anything to its left is the client's own word).
    pub fn of(peer: Option<IpAddr>, headers: &HeaderMap, trusted: &[IpAddr]) -> ClientIp {
        let Some(mut client) = peer else {
            return ClientIp(None);
        };
        if trusted.contains(&client) {
            let hops: Vec<&str> = header_items(headers, "x-forwarded-for", ',').collect();
            for hop in hops.iter().rev() {
                let Ok(ip) = hop.parse::<IpAddr>() else { break };
                client = ip;
                if !trusted.contains(&ip) {
                    break;
                }
            }
        }
        ClientIp(Some(client_key(client)))
    }

    /// The socket's peer of a request (None when the router is called
    /// without a socket, as tests do).
    pub fn peer(parts: &axum::http::Extensions) -> Option<IpAddr> {
        parts.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        // The guard found it (it knows the trusted proxies).
        Ok(parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .unwrap_or_else(|| {
                ClientIp::of(ClientIp::peer(&parts.extensions), &parts.headers, &[])
            }))
    }
}

/// An address as limits count it: an IPv4 address, an IPv6 address by its
/// /64 (an IPv4 address mapped into IPv6 as the IPv4 address).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
        },
    }
}

/// The items of a header that lists them (`a, b` or `a; b`, split at
/// `separator`), over all its lines, trimmed; a line that is not text is
/// passed over.
pub fn header_items<'a>(
    headers: &'a HeaderMap,
    name: impl AsHeaderName,
    separator: char,
) -> impl DoubleEndedIterator<Item = &'a str> + 'a {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(move |v| v.split(separator))
        .map(str::trim)
}

/// Whether `headers` say the body is JSON (`application/json`, with or
/// without parameters).
pub(super) fn says_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}
