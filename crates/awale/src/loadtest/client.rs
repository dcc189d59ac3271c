//! The load test's client: HTTP requests as the page makes them (cookies,
//! JSON bodies, each from its own address), the games' heads, the
//! server-sent events read as they come.

use super::*;

pub(super) type Http = Client<HttpConnector, Full<Bytes>>;

/// A client whose connections come from `from` (any address), a loopback
/// address of its own, so the server counts its limits apart.
pub(super) fn http_client(from: Option<IpAddr>) -> Http {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    connector.set_local_address(from);
    Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(usize::MAX)
        .build(connector)
}

/// The `n`th loopback address of a load test's clients on real servers
/// ([`spread`]): 127.3.0.1 on, each client's own (those of `--abuse` are
/// 127.1 and 127.2).
pub(super) fn loopback(n: u64) -> IpAddr {
    let byte = |x: u64| (x % 250) as u8;
    IpAddr::from([127, 3 + byte(n / 62_500), byte(n / 250), byte(n) + 1])
}

impl Run {
    /// The `n`th honest client's address: 127.1.x.y under `--abuse`, else
    /// none of its own.
    pub(super) fn honest(&self, n: usize) -> Option<IpAddr> {
        self.spread
            .then(|| IpAddr::from([127, 1, (n / 250 % 256) as u8, (n % 250 + 1) as u8]))
    }

    /// The client whose connections come from `from`.
    pub(super) fn client(&self, from: Option<IpAddr>) -> Http {
        let Some(ip) = from else {
            return self.client.clone();
        };
        self.clients
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ip)
            .or_insert_with(|| http_client(Some(ip)))
            .clone()
    }

    pub(super) async fn request(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> anyhow::Result<(StatusCode, hyper::HeaderMap, Bytes)> {
        self.request_from(None, method, path, cookie, body).await
    }

    /// A request whose connection comes from `from`.
    pub(super) async fn request_from(
        &self,
        from: Option<IpAddr>,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> anyhow::Result<(StatusCode, hyper::HeaderMap, Bytes)> {
        let req = request_to(&self.addr, method, path, cookie).body(json_body(body.as_ref()))?;
        let res = self.client(from).request(req).await?;
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await?.to_bytes();
        Ok((status, headers, bytes))
    }

    /// A new player: the cookie the server sets on a first visit.
    pub(super) async fn player(&self, from: Option<IpAddr>) -> anyhow::Result<String> {
        let (_, headers, _) = self
            .request_from(from, "GET", "/api/me", None, None)
            .await?;
        player_cookie(&headers)
    }
}

/// A request of `method path` to the process at `addr`, with `cookie`.
pub(super) fn request_to(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
) -> hyper::http::request::Builder {
    let mut req = Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .header("host", addr);
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    // Every change is sent as JSON, as the page does (the server refuses
    // any other).
    if method != "GET" {
        req = req.header("content-type", "application/json");
    }
    req
}

/// A request's body: `body` as JSON, or nothing.
pub(super) fn json_body(body: Option<&Value>) -> Full<Bytes> {
    Full::new(body.map_or_else(Bytes::new, |v| Bytes::from(v.to_string())))
}

/// The player's cookie the server set on a first visit (`/api/me`), as
/// sent back.
pub(super) fn player_cookie(headers: &hyper::HeaderMap) -> anyhow::Result<String> {
    let cookie = headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| cookie::Cookie::parse(v).ok())
        .context("no player cookie from /api/me")?;
    Ok(format!("{}={}", cookie.name(), cookie.value()))
}

/// What a player reads from the events.
#[derive(Deserialize)]
pub(super) struct Head {
    #[serde(default)]
    pub(super) index: Option<usize>,
    #[serde(default)]
    pub(super) plies: Option<Vec<Value>>,
    pub(super) to_move: String,
    pub(super) legal: Vec<String>,
    pub(super) end: Option<Value>,
    #[serde(default)]
    pub(super) waiting: bool,
}

impl Head {
    /// The plies played, as this head tells (`before`, when it does not).
    pub(super) fn plies(&self, before: usize) -> usize {
        match (self.index, &self.plies) {
            (Some(i), _) => i + 1,
            (None, Some(p)) => p.len(),
            (None, None) => before,
        }
    }
}

/// Takes the whole events out of `text` (a stream of server-sent events
/// as read so far), calling `on_event(name, data)` on each: false as soon
/// as it does. The events are read in place, the text kept once past
/// them: 7,000 simulated browsers read every move.
pub(super) fn take_events(
    text: &mut String,
    on_event: &mut impl FnMut(&str, &str) -> bool,
) -> bool {
    let mut taken = 0;
    let mut going = true;
    while let Some(end) = text[taken..].find("\n\n") {
        let event = &text[taken..taken + end];
        taken += end + 2;
        let mut name = "message";
        let mut data = std::borrow::Cow::Borrowed("");
        for line in event.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n;
            } else if let Some(d) = line.strip_prefix("data: ") {
                if data.is_empty() {
                    data = std::borrow::Cow::Borrowed(d);
                } else {
                    data.to_mut().push_str(d);
                }
            }
        }
        if !on_event(name, &data) {
            going = false;
            break;
        }
    }
    text.drain(..taken);
    going
}

/// Reads server-sent events: calls `on_event(name, data)` until it
/// returns false or the stream ends.
pub(super) async fn read_events(
    run: &Run,
    from: Option<IpAddr>,
    path: &str,
    cookie: Option<&str>,
    mut on_event: impl FnMut(&str, &str) -> bool,
) -> anyhow::Result<()> {
    let req = request_to(&run.addr, "GET", path, cookie).body(json_body(None))?;
    let res = run.client(from).request(req).await?;
    anyhow::ensure!(res.status() == StatusCode::OK, "{path}: {}", res.status());
    let mut body = res.into_body();
    let mut text = String::new();
    loop {
        let frame = tokio::select! {
            f = body.frame() => f,
            () = tokio::time::sleep_until(run.deadline.into()) => return Ok(()),
        };
        let Some(frame) = frame else { return Ok(()) };
        let Ok(data) = frame?.into_data() else {
            continue;
        };
        text.push_str(&String::from_utf8_lossy(&data));
        if !take_events(&mut text, &mut on_event) {
            return Ok(());
        }
    }
}

/// The `"index":N` of a move event, read without parsing the rest.
pub(super) fn move_index(data: &str) -> Option<usize> {
    let digits = &data[data.find("\"index\":")? + 8..];
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// A player's answer: its status, headers and body.
pub(super) type Answer = (StatusCode, hyper::HeaderMap, Bytes);

#[cfg(test)]
mod tests {
    use super::*;

    /// The events read as a stream brings them: whole ones taken in order,
    /// a part kept for the next read, a data split over lines joined.
    #[test]
    fn events_are_taken_whole_across_reads() {
        let mut seen = Vec::new();
        let mut keep = |name: &str, data: &str| {
            seen.push(format!("{name}={data}"));
            true
        };
        let mut text = String::from("event: move\ndata: {\"index\":3}\nid: 1.4\n\nretry: 1");
        assert!(take_events(&mut text, &mut keep));
        assert_eq!(text, "retry: 1");
        text.push_str("000\ndata: a\ndata: b\n\nevent: clock\ndata: {}\n\nevent: st");
        assert!(take_events(&mut text, &mut keep));
        assert_eq!(text, "event: st");
        assert_eq!(
            seen,
            ["move={\"index\":3}", "message=ab", "clock={}"].map(String::from)
        );
    }

    /// A listener that stops at an event leaves the ones after it unread.
    #[test]
    fn a_listener_that_stops_leaves_the_rest() {
        let mut text = String::from("event: a\ndata: 1\n\nevent: b\ndata: 2\n\n");
        let mut names = Vec::new();
        let going = take_events(&mut text, &mut |name, _| {
            names.push(name.to_string());
            false
        });
        assert!(!going);
        assert_eq!(names, ["a"]);
        assert_eq!(text, "event: b\ndata: 2\n\n");
    }

    #[test]
    fn a_moves_index_is_read_from_its_digits() {
        assert_eq!(move_index("{\"index\":12,\"ply\":{}}"), Some(12));
        assert_eq!(move_index("{\"index\":7}"), Some(7));
        assert_eq!(move_index("{\"index\":x}"), None);
        assert_eq!(move_index("{\"ply\":1}"), None);
    }
}
