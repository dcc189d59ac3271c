//! What every request goes through before its handler:
//! - the `Host` check: a name the server does not answer to is refused, so
//!   a page of another site cannot reach a server on 127.0.0.1 through DNS
//!   rebinding (IP literals and `localhost` always pass, other names only
//!   when configured: the public URL's and `--allow-host`'s);
//! - the cross-site check: a request that changes something and comes from
//!   another site's page (`Sec-Fetch-Site`, else `Origin`) is refused, and
//!   so is one not sent as `application/json`, with a body or without;
//! - the player's identity: the secret in the `awale_player` cookie
//!   (HttpOnly, SameSite=Lax), made on the first visit of the page; the
//!   server keeps only its SHA-256; or, when the browser is logged in to an
//!   account, the session in the `awale_session` cookie (the same kind of
//!   cookie and secret), which stands for the account's own player;
//! - security headers on every answer (a strict Content-Security-Policy,
//!   no sniffing, no framing, no referrer).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cookie::{Cookie, SameSite};

use super::error::ApiError;
use super::extract::{says_json, ClientIp, GuestCookie, Session, SignedIn, Viewer};
use crate::AppState;
use awale_model::secret::player_id;
use awale_model::Code;

/// The cookie that holds a browser's player secret.
pub const COOKIE: &str = "awale_player";

/// Its name over https (`--public-url https://...`).
pub const SECURE_COOKIE: &str = "__Host-awale_player";

/// The cookie that holds a browser's session (logged in to an account).
pub const SESSION_COOKIE: &str = "awale_session";

/// Its name over https.
pub const SECURE_SESSION_COOKIE: &str = "__Host-awale_session";

/// The cookie of a device that logged in to an account before (OWASP's
/// device cookie): its log-ins are not locked out by strangers' tries.
pub const DEVICE_COOKIE: &str = "awale_device";

/// Its name over https.
pub const SECURE_DEVICE_COOKIE: &str = "__Host-awale_device";

/// How long a device cookie lasts (one year).
const DEVICE_SECONDS: i64 = 365 * 24 * 3600;

/// The requests that make a player for a browser without one: the page,
/// and `/api/me`, which a page its service worker served asks first. No
/// other: a browser also asks for `/favicon.ico` and the like, and such a
/// request, answered late, would replace the cookie a first visit just got
/// (or one set meanwhile) with another player's.
const PAGE_LOADS: [&str; 2] = ["/", "/api/me"];

/// How long the player cookie lasts (one year).
const COOKIE_SECONDS: i64 = 365 * 24 * 3600;

/// Who the server answers to, and how its cookies are set.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// Host names (lower case, no port) answered besides IP literals and
    /// `localhost`.
    pub allowed_hosts: Vec<String>,
    /// The public origin (`https://awale.example.org`), if any.
    pub public_origin: Option<String>,
    /// Cookies only over HTTPS (when the public URL is `https`).
    pub secure_cookies: bool,
    /// The reverse proxies in front (their addresses): a request from one
    /// of them has its client's address in `X-Forwarded-For`.
    pub trust_proxy: Vec<std::net::IpAddr>,
}

const CSP: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; font-src 'self'; \
object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The guard: see the module's documentation.
pub async fn guard(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let policy = &state.shared.policy;
    if let Err(e) = check_host(policy, req.headers()) {
        return with_security_headers(policy, e.into_response());
    }
    // A request bearing an API token is the token's alone: its cookies
    // are not read (a page of another site cannot add the header without
    // asking, so the cross-site checks have nothing to guard).
    let token = req.headers().contains_key(header::AUTHORIZATION);
    if token {
        req.extensions_mut().insert(Viewer(None));
        req.extensions_mut().insert(Session(None));
        let client = ClientIp::of(
            ClientIp::peer(req.extensions()),
            req.headers(),
            &policy.trust_proxy,
        );
        req.extensions_mut().insert(client);
        return with_security_headers(policy, next.run(req).await);
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        if let Err(e) = check_same_site(policy, req.headers()).and_then(|()| check_json(&req)) {
            return with_security_headers(policy, e.into_response());
        }
    }
    let client = ClientIp::of(
        ClientIp::peer(req.extensions()),
        req.headers(),
        &policy.trust_proxy,
    );
    let mut issued = None;
    // Only a secret the server issued stands for a guest.
    let guest = match secret_of(req.headers(), COOKIE, SECURE_COOKIE) {
        Some(secret) => {
            state
                .shared
                .guests
                .player(secret, client.0, state.shared.games.now_ms())
                .await
        }
        None => None,
    };
    let mut player = guest.clone();
    let mut session = None;
    let mut stale_session = false;
    if let Some(secret) = secret_of(req.headers(), SESSION_COOKIE, SECURE_SESSION_COOKIE) {
        match state.shared.accounts.session(secret).await {
            Ok(Some(account)) => {
                // Where the account is seen (its address, this browser):
                // two accounts seen at one place play casual.
                state
                    .shared
                    .games
                    .sightings()
                    .note(
                        &account.player,
                        client.0,
                        player.as_ref(),
                        state.shared.games.now_ms(),
                    )
                    .await;
                player = Some(account.player.clone());
                session = Some(SignedIn {
                    account,
                    secret: secret.to_string(),
                });
            }
            Ok(None) => stale_session = true,
            // The store failed: the request goes on as the guest's.
            Err(e) => tracing::warn!(error = %e, "a session could not be looked up"),
        }
    }
    let page_load = req.method() == Method::GET && PAGE_LOADS.contains(&req.uri().path());
    // New guests are counted per address: past the rate, the page is
    // served without one (it can watch, not play, until later).
    if player.is_none() && page_load {
        match state
            .shared
            .guests
            .admit(client.0, state.shared.games.now_ms())
        {
            Ok(secret) => {
                player = Some(player_id(&secret));
                issued = Some(secret);
            }
            Err(e) if e.kind == awale_model::Kind::Internal => {
                tracing::error!(error = %e, "no player secret");
            }
            Err(_) => {}
        }
    }
    req.extensions_mut().insert(GuestCookie(guest));
    req.extensions_mut().insert(Viewer(player));
    req.extensions_mut().insert(Session(session));
    req.extensions_mut().insert(client);
    let mut response = next.run(req).await;
    if stale_session && !response.headers().contains_key(header::SET_COOKIE) {
        // An ended session's cookie is dropped (the browser is a guest).
        response
            .headers_mut()
            .append(header::SET_COOKIE, session_cookie(policy, None));
    }
    if let Some(secret) = issued {
        if let Some(value) = secret_cookie(policy, (COOKIE, SECURE_COOKIE), &secret, COOKIE_SECONDS)
        {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    with_security_headers(policy, response)
}

/// The `Set-Cookie` of a session: its secret, or (None) the cookie's
/// removal. HttpOnly, SameSite=Lax, for the whole site; over https under
/// the `__Host-` name, sent securely only.
pub fn session_cookie(policy: &Policy, secret: Option<&str>) -> HeaderValue {
    let (value, seconds) = match secret {
        Some(secret) => (secret, awale_service::accounts::SESSION_MS / 1000),
        None => ("", 0),
    };
    secret_cookie(
        policy,
        (SESSION_COOKIE, SECURE_SESSION_COOKIE),
        value,
        seconds,
    )
    .unwrap_or_else(|| HeaderValue::from_static(""))
}

/// The `Set-Cookie` of a device's secret (see [`DEVICE_COOKIE`]).
pub fn device_cookie(policy: &Policy, secret: &str) -> HeaderValue {
    secret_cookie(
        policy,
        (DEVICE_COOKIE, SECURE_DEVICE_COOKIE),
        secret,
        DEVICE_SECONDS,
    )
    .unwrap_or_else(|| HeaderValue::from_static(""))
}

/// The device secret a request's cookie holds, when well formed.
pub fn device_of(headers: &HeaderMap) -> Option<&str> {
    secret_of(headers, DEVICE_COOKIE, SECURE_DEVICE_COOKIE)
}

/// The `Set-Cookie` of a secret kept `seconds` (0 with an empty value:
/// the cookie's removal), HttpOnly, SameSite=Lax, for the whole site. Over
/// https, under its `__Host-` name (the second of `names`): the browser
/// keeps such a cookie only from this very host, sent securely.
fn secret_cookie(
    policy: &Policy,
    names: (&'static str, &'static str),
    value: &str,
    seconds: i64,
) -> Option<HeaderValue> {
    let name = if policy.secure_cookies {
        names.1
    } else {
        names.0
    };
    let cookie = Cookie::build((name, value))
        .path("/")
        .max_age(cookie::time::Duration::seconds(seconds))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(policy.secure_cookies)
        .build();
    HeaderValue::from_str(&cookie.to_string()).ok()
}

fn with_security_headers(policy: &Policy, mut response: Response) -> Response {
    let h = response.headers_mut();
    if policy.secure_cookies {
        // Served over https (the public URL says so): browsers keep to it.
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
    );
    response
}

/// The host name of a `Host` value, lower case, without its port; `None`
/// when the value is not a host and port: a bracketed address followed by
/// anything but `:PORT` (`[::1]@evil.com`), or a name holding other than
/// letters, digits, dots, dashes and underscores (`evil.com/.localhost`),
/// either of which would make the links built from it name another site.
fn host_name(host: &str) -> Option<String> {
    let host = host.trim().to_ascii_lowercase();
    let port_ok = |port: &str| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = host.strip_prefix('[') {
        // [::1]:8080
        let (address, after) = rest.split_once(']')?;
        let ok = after.is_empty() || after.strip_prefix(':').is_some_and(port_ok);
        return ok.then(|| address.to_string());
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port_ok(port) => name,
        _ => host.as_str(),
    };
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    name_ok.then(|| name.to_string())
}

fn check_host(policy: &Policy, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(host) = headers.get(header::HOST) else {
        // Browsers always send one: a request without is not a page's.
        return Ok(());
    };
    let Some(name) = host.to_str().ok().and_then(host_name) else {
        return Err(ApiError::bad_request(
            Code::BadHost,
            "the Host header is not a host name or address with an optional port",
        ));
    };
    let ok = name.parse::<std::net::IpAddr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
        || policy.allowed_hosts.contains(&name);
    if ok {
        Ok(())
    } else {
        let name = crate::error::shown(&name);
        Err(ApiError::forbidden(
            Code::BadHost,
            format!(
                "this server does not answer to the name `{name}` (start it with \
                 --public-url or --allow-host `{name}` to serve it under that name)"
            ),
        ))
    }
}

fn check_same_site(policy: &Policy, headers: &HeaderMap) -> Result<(), ApiError> {
    let refuse = |what: &str| {
        Err(ApiError::forbidden(
            Code::CrossSite,
            format!("refused: this request comes from another site ({what})"),
        ))
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.to_str() {
            Ok("same-origin") | Ok("none") => Ok(()),
            Ok(other) => refuse(&format!("Sec-Fetch-Site: {other}")),
            Err(_) => refuse("Sec-Fetch-Site"),
        };
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        // Not a browser's request (browsers send Origin with every POST):
        // a script of the server's user, not another site.
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("null").to_ascii_lowercase();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_ascii_lowercase);
    // The origin's host and port, as a `Host` header names them.
    let authority = url::Url::parse(&origin).ok().and_then(|u| {
        let host = u.host_str()?.to_string();
        Some(match u.port() {
            Some(port) => format!("{host}:{port}"),
            None => host,
        })
    });
    // Served over https (an https public URL): a page over plain http,
    // even on the same host, is not the site's (issue 38).
    let scheme_ok = !policy.secure_cookies || origin.starts_with("https://");
    let same_host = scheme_ok && host.is_some_and(|h| authority.is_some_and(|a| a == h));
    let public = policy
        .public_origin
        .as_deref()
        .is_some_and(|p| p.eq_ignore_ascii_case(&origin));
    if same_host || public {
        Ok(())
    } else {
        refuse(&format!("Origin: {origin}"))
    }
}

/// A request that changes something must say it sends JSON, body or not:
/// a form or a `text/plain` request (which another site's page may send
/// without asking) cannot, so none passes for the page's.
fn check_json(req: &Request) -> Result<(), ApiError> {
    if says_json(req.headers()) {
        Ok(())
    } else {
        Err(ApiError::new(
            axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::NotJson,
            "a request that changes something must be sent as application/json",
        ))
    }
}

/// The secret of cookie `name` (or `secure`, its https name), when well
/// formed: 64 hex digits.
fn secret_of<'a>(headers: &'a HeaderMap, name: &str, secure: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name || c.name() == secure)
        .and_then(|c| c.value_raw())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn host_names_lose_their_port_and_case() {
        assert_eq!(host_name("LocalHost:8080").as_deref(), Some("localhost"));
        assert_eq!(host_name("[::1]:8080").as_deref(), Some("::1"));
        assert_eq!(host_name("[::1]").as_deref(), Some("::1"));
        assert_eq!(
            host_name("awale.example.org").as_deref(),
            Some("awale.example.org")
        );
    }

    #[test]
    fn a_host_is_a_name_or_address_and_a_port_with_nothing_after() {
        let policy = Policy::default();
        for forged in [
            "[::1]@evil.com",
            "[::1]:80@evil.com",
            "[::1]evil.com",
            "[::1]:",
            "[::1",
            "evil.com/.localhost",
            "evil.com#.localhost",
            "evil.com?.localhost",
            "x@evil.localhost",
            "localhost:80@evil.com",
            "",
        ] {
            assert_eq!(host_name(forged), None, "{forged}");
            let refused = check_host(&policy, &headers(&[("host", forged)])).unwrap_err();
            assert!(
                matches!(
                    refused,
                    ApiError::Http {
                        code: Code::BadHost,
                        ..
                    }
                ),
                "{forged}: {refused}"
            );
        }
    }

    #[test]
    fn only_known_names_and_addresses_are_answered() {
        let policy = Policy {
            allowed_hosts: vec!["awale.example.org".into()],
            ..Policy::default()
        };
        for (host, answered) in [
            ("127.0.0.1:8080", true),
            ("localhost", true),
            ("[::1]:80", true),
            ("awale.example.org:443", true),
            ("10.0.0.5", true),
            ("attacker.example", false),
            ("127.0.0.1.nip.io", false),
            ("awale.example.org.evil", false),
        ] {
            let checked = check_host(&policy, &headers(&[("host", host)]));
            assert_eq!(checked.is_ok(), answered, "{host}");
        }
    }

    #[test]
    fn changes_from_another_site_are_refused() {
        let policy = Policy::default();
        let ok = [
            headers(&[("sec-fetch-site", "same-origin")]),
            headers(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8080"),
            ]),
            headers(&[]),
        ];
        for h in &ok {
            assert!(check_same_site(&policy, h).is_ok(), "{h:?}");
        }
        let bad = [
            headers(&[("sec-fetch-site", "cross-site")]),
            headers(&[("sec-fetch-site", "same-site")]),
            headers(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://evil.example"),
            ]),
            headers(&[("host", "127.0.0.1:8080"), ("origin", "null")]),
        ];
        for h in &bad {
            assert!(check_same_site(&policy, h).is_err(), "{h:?}");
        }
    }

    #[test]
    fn behind_an_https_public_url_a_plain_http_origin_is_refused() {
        let policy = Policy {
            allowed_hosts: vec!["awale.example.org".into()],
            public_origin: Some("https://awale.example.org".into()),
            secure_cookies: true,
            ..Policy::default()
        };
        let http = headers(&[
            ("host", "awale.example.org"),
            ("origin", "http://awale.example.org"),
        ]);
        assert!(check_same_site(&policy, &http).is_err());
        let https = headers(&[
            ("host", "awale.example.org"),
            ("origin", "https://awale.example.org"),
        ]);
        assert!(check_same_site(&policy, &https).is_ok());
    }
}
