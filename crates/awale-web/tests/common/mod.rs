//! What the HTTP tests share: the router on a scratch store, a browser
//! that keeps its cookies across calls, opens its session and signs up,
//! and a reader of server-sent events. Each test program uses its part
//! (`mod common;`).
#![allow(dead_code)]

use std::collections::HashMap;
use std::time::Duration;

use awale_store::Store;
use awale_web::{app, AppState, Config};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The guest key of the tests' servers (unless a test gives its own), so
/// tests can make guests' cookies as the server would ([`guest`]).
pub const TEST_KEY: [u8; 32] = [7; 32];

/// The secret of the test server's guest numbered `n` (a cookie's value):
/// one the server could have issued, unlike a made-up one.
pub fn guest(n: u64) -> String {
    awale_model::secret::GuestKey::from_bytes(TEST_KEY).sign(&format!("{n:032x}"))
}

/// The server's state on a store in memory, with `config` (and the tests'
/// guest key when it gives none).
pub fn memory_state(mut config: Config) -> AppState {
    config
        .guest_key
        .get_or_insert_with(|| awale_model::secret::GuestKey::from_bytes(TEST_KEY));
    AppState::new(Store::in_memory().unwrap(), config).unwrap()
}

/// The site on a store in memory, with the default settings.
pub fn memory_app() -> Router {
    app(memory_state(Config::default()))
}

/// The password of the accounts the tests make.
pub const PASSWORD: &str = "seeds in the fourth hole";

/// A browser: its cookies, kept as a browser keeps them (one set with
/// `Max-Age=0` is dropped).
#[derive(Default)]
pub struct Browser {
    pub cookies: HashMap<String, String>,
    /// The last answer's `Set-Cookie` lines.
    pub set: Vec<String>,
    /// The last answer's `Retry-After`.
    pub retry_after: Option<String>,
}

impl Browser {
    /// A request with the browser's cookies.
    pub fn request(&self, method: &str, uri: &str, body: Option<Value>) -> Request<Body> {
        let cookie: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header("host", "127.0.0.1")
            .header("content-type", "application/json");
        if !cookie.is_empty() {
            request = request.header("cookie", cookie.join("; "));
        }
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        request.body(Body::from(body)).unwrap()
    }

    /// A call: its status and JSON answer (null when empty); the cookies
    /// it sets are kept.
    pub async fn call(
        &mut self,
        app: &Router,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let request = self.request(method, uri, body);
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        self.set = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect();
        self.retry_after = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        for line in &self.set {
            let (name, value) = line.split(';').next().unwrap().split_once('=').unwrap();
            if line.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        (status, json_of(response.into_body()).await)
    }

    pub async fn get(&mut self, app: &Router, uri: &str) -> (StatusCode, Value) {
        self.call(app, "GET", uri, None).await
    }

    /// What `/api/me` tells this browser of itself: its account (null for a
    /// guest), its name.
    pub async fn me(&mut self, app: &Router) -> Value {
        self.get(app, "/api/me").await.1
    }

    /// Checks that `/api/me` tells this browser no `field` (null): `why`
    /// is what the test says when it does.
    pub async fn assert_me_without(&mut self, app: &Router, field: &str, why: &str) {
        let me = self.me(app).await;
        assert_eq!(me[field], Value::Null, "{why}");
    }

    pub async fn post(&mut self, app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
        self.call(app, "POST", uri, Some(body)).await
    }

    /// POSTs `body` to `uri`, which must answer `status`: the answer.
    pub async fn posted(
        &mut self,
        app: &Router,
        uri: &str,
        body: Value,
        status: StatusCode,
    ) -> Value {
        let (got, answer) = self.post(app, uri, body).await;
        assert_eq!(got, status, "{uri}: {answer}");
        answer
    }

    /// Resigns game `game` (its public id), which must be taken.
    pub async fn resigns(&mut self, app: &Router, game: &str) {
        let uri = format!("/api/games/{game}/resign");
        self.posted(app, &uri, json!({}), StatusCode::OK).await;
    }

    /// Blocks the player `name` (or, with `blocked` false, no longer):
    /// the usernames blocked now.
    pub async fn block(&mut self, app: &Router, name: &str, blocked: bool) -> Value {
        let body = json!({"username": name, "blocked": blocked});
        self.posted(app, "/api/account/blocks", body, StatusCode::OK)
            .await["blocked"]
            .clone()
    }

    /// A moderator mutes the player `name` from chat.
    pub async fn mute(&mut self, app: &Router, name: &str) {
        let body = json!({"username": name, "muted": true, "reason": "rude words"});
        self.posted(app, "/api/moderation/mute", body, StatusCode::NO_CONTENT)
            .await;
    }

    /// Says `text` in the public room of `game`: the answer.
    pub async fn say(&mut self, app: &Router, game: &str, text: &str) -> (StatusCode, Value) {
        let body = json!({"room": "public", "text": text});
        self.post(app, &format!("/api/games/{game}/chat"), body)
            .await
    }

    /// The key of the invitation to `game` (from its links).
    pub async fn invite_key(&mut self, app: &Router, game: &str) -> String {
        let (_, links) = self.get(app, &format!("/api/games/{game}/links")).await;
        links["invite"]
            .as_str()
            .and_then(|l| l.split("&k=").nth(1))
            .unwrap_or_else(|| panic!("{links}"))
            .to_string()
    }

    /// POSTs `body` to `uri`, which must refuse it as `code` with
    /// `status`.
    pub async fn post_refused(
        &mut self,
        app: &Router,
        uri: &str,
        body: Value,
        status: StatusCode,
        code: &str,
    ) {
        refused(self.post(app, uri, body).await, status, code);
    }

    /// A browser that opened the site: it has its player's cookie.
    pub async fn opened(app: &Router) -> Browser {
        let mut b = Browser::default();
        b.get(app, "/api/me").await;
        assert!(b.cookies.contains_key("awale_player"));
        b
    }

    /// Signs up as `name` (with [`PASSWORD`]): the answer.
    pub async fn sign_up(&mut self, app: &Router, name: &str) -> Value {
        let (status, body) = self
            .post(
                app,
                "/api/account/signup",
                json!({"username": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body
    }

    /// Logs this browser's account out (answered No Content).
    pub async fn log_out(&mut self, app: &Router) {
        self.posted(
            app,
            "/api/account/logout",
            json!({}),
            StatusCode::NO_CONTENT,
        )
        .await;
    }

    /// A browser signed up as `name`.
    pub async fn account(app: &Router, name: &str) -> Browser {
        let mut b = Browser::opened(app).await;
        b.sign_up(app, name).await;
        b
    }

    /// A browser signed up as `name`, its account set to kid mode.
    pub async fn kid_account(app: &Router, name: &str) -> Browser {
        let mut kid = Browser::account(app, name).await;
        kid.posted(
            app,
            "/api/account/settings",
            json!({"kid": true}),
            StatusCode::OK,
        )
        .await;
        kid
    }

    /// An online game made by this browser (as "Guest Ama"): its id.
    pub async fn online_game(&mut self, app: &Router) -> String {
        let (status, game) = self
            .post(
                app,
                "/api/games",
                json!({"mode": "online", "name": "Guest Ama"}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game["id"].as_str().unwrap().to_string()
    }
}

/// The JSON a response's `body` holds, read to its end: null when empty.
pub async fn json_of(body: Body) -> Value {
    let bytes = body.collect().await.unwrap().to_bytes();
    if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap()
    }
}

/// POSTs `body` as JSON with no cookie but `cookie` (a header's whole
/// value): the status and the JSON answer, which must be JSON.
pub async fn post_with_cookie(
    app: &Router,
    uri: &str,
    cookie: &str,
    body: Value,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

/// Checks that an answer is the refusal `code` with `status`.
pub fn refused(answer: (StatusCode, Value), status: StatusCode, code: &str) {
    assert_eq!(
        (answer.0, answer.1["error"].as_str()),
        (status, Some(code)),
        "{}",
        answer.1
    );
}

/// What `uri` answers once `check` holds (polled every 10 ms, up to 30 s).
pub async fn until(
    b: &mut Browser,
    app: &Router,
    uri: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..3000 {
        let (_, view) = b.get(app, uri).await;
        if check(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{uri}: never happened");
}

/// A stream of server-sent events, read one event at a time: its name, its
/// id (a version, for the events of a game's history) and its data.
pub struct Events {
    body: Body,
    text: String,
}

impl Events {
    /// The events `request` answers with (it must be 200, as an event
    /// stream).
    pub async fn open(app: &Router, request: Request<Body>) -> Events {
        let uri = request.uri().to_string();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let kind = &response.headers()[header::CONTENT_TYPE];
        assert!(
            kind.to_str().unwrap().starts_with("text/event-stream"),
            "{uri}: {kind:?}"
        );
        Events {
            body: response.into_body(),
            text: String::new(),
        }
    }

    /// The next event but `presence` (sent to every new listener of a
    /// game): its name, its id if it has one, and its data (JSON).
    pub async fn next(&mut self) -> (String, Option<String>, Value) {
        loop {
            while let Some(end) = self.text.find("\n\n") {
                let raw: String = self.text.drain(..end + 2).collect();
                let field = |name: &str| {
                    raw.lines()
                        .filter_map(|l| l.strip_prefix(name))
                        .collect::<Vec<_>>()
                };
                let Some(name) = field("event: ").first().map(|s| s.to_string()) else {
                    continue; // a comment (keep-alive), or the retry time alone
                };
                if name == "presence" {
                    continue;
                }
                let id = field("id: ").first().map(|s| s.to_string());
                let data = serde_json::from_str(&field("data: ").concat()).expect("JSON data");
                return (name, id, data);
            }
            let frame = tokio::time::timeout(Duration::from_secs(30), self.body.frame())
                .await
                .unwrap_or_else(|_| panic!("no event; got: {}", self.text))
                .expect("the stream ended")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                self.text.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    /// The data of the next event named `name` (the others are passed
    /// over).
    pub async fn named(&mut self, name: &str) -> Value {
        loop {
            let (event, _, data) = self.next().await;
            if event == name {
                return data;
            }
        }
    }
}
