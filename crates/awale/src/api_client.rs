//! A client of a site's API (docs/BOTS.md) with a personal token: a call
//! and its JSON answer, or a stream of newline-delimited JSON. The bridge
//! (`awale bot`) and the terminal's online game (`awale play --online`)
//! both speak through it. Only `http://` servers (a TLS proxy before an
//! `https://` site).

use std::time::Duration;

use anyhow::bail;
use awale_web::ndjson::{self, Next};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// The site's address and the token every request bears.
pub struct ApiClient {
    http: Client<HttpConnector, Full<Bytes>>,
    server: String,
    token: String,
}

impl ApiClient {
    /// A client of `server` (`http://HOST:PORT`) with `token`.
    ///
    /// # Errors
    ///
    /// A server address that is not `http://`.
    pub fn new(server: &str, token: &str) -> anyhow::Result<ApiClient> {
        if !server.starts_with("http://") {
            bail!("the server must be an http:// address (put a TLS proxy before an https site)");
        }
        Ok(ApiClient {
            http: Client::builder(TokioExecutor::new()).build(HttpConnector::new()),
            server: server.trim_end_matches('/').to_string(),
            token: token.to_string(),
        })
    }

    async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Response<Incoming>> {
        let mut req = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.server))
            .header("authorization", format!("Bearer {}", self.token));
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
        Ok(self.http.request(req.body(Full::new(body))?).await?)
    }

    /// A call: its status and JSON answer (null when it is none).
    ///
    /// # Errors
    ///
    /// The server not reached, or the connection broken.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<(StatusCode, Value)> {
        let res = self.send(method, path, body).await?;
        let status = res.status();
        let bytes = res.into_body().collect().await?.to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value))
    }

    /// Opens stream `path`: its lines.
    ///
    /// # Errors
    ///
    /// The server not reached, or the stream refused ([`Refused`] when
    /// the token is: no use trying again).
    pub async fn stream(&self, path: &str) -> anyhow::Result<Lines> {
        let res = self.send("GET", path, None).await?;
        let status = res.status();
        if status != StatusCode::OK {
            let bytes = res.into_body().collect().await?.to_bytes();
            let text = format!("{path}: {status} {}", String::from_utf8_lossy(&bytes));
            if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                return Err(Refused(text).into());
            }
            bail!(text);
        }
        Ok(Lines(ndjson::Lines::new(res.into_body())))
    }
}

/// The server refuses the token (401, 403): trying again is no use.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server refuses this token: {}", self.0)
    }
}

impl std::error::Error for Refused {}

/// A stream's lines.
pub struct Lines(ndjson::Lines<Incoming>);

/// How long a stream may be silent: keep-alives come every 5 s, so 20 s
/// of silence is a drop.
pub const SILENCE: Duration = Duration::from_secs(20);

impl Lines {
    /// The next JSON line (keep-alives passed over), or None when the
    /// stream ends, breaks or falls silent for [`SILENCE`].
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            match self.0.next(SILENCE).await {
                Next::Line(value) => return Some(value),
                Next::NotJson(_) => {}
                Next::End | Next::Broken | Next::Silent => return None,
            }
        }
    }
}

/// The error words of an API's refusal (`{"error": CODE, "message": ...}`).
pub fn refusal(status: StatusCode, answer: &Value) -> String {
    match (answer["error"].as_str(), answer["message"].as_str()) {
        (Some(code), Some(message)) => format!("{message} ({code})"),
        _ => format!("{status} {answer}"),
    }
}
