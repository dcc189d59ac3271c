//! `awale loadtest`: online games between simulated players, through the
//! same public API the page uses (cookies, POSTed moves, server-sent
//! events), with spectators spread over the games. Each pair of players
//! plays game after game until the time is up; every move is timed from
//! its sending to its arrival at the opponent and at each spectator; at the
//! end, every acknowledged move is looked for in the store. With
//! `--logins N`, N log-ins a second to accounts made at the start (the
//! right password: every one is hashed) run beside the games, so the moves'
//! times show what a flood of log-ins does to them. With `--abuse`, a
//! stranger attacks the same server meanwhile (see [`abuse`]). With
//! `--pools N`, N more players seek in the quick-pairing pools at once
//! (spread over the seven clocks), each playing the game it is paired
//! into, then seeking again, until the time is up: the report adds how
//! many were paired and how long each waited. With `--arena N`, an arena
//! of N accounts is played beside (see [`arena`]): the report adds its
//! games and how long a pairing and the standings take. Without
//! `--addr`, it starts its own server on a free loopback port with a
//! scratch games file, and reports its log's (WAL's) largest size. Its last
//! line is one JSON object. With several `--addr` (processes of one site
//! on one PostgreSQL database), or `--store`, the run is [`spread`]'s.

/// A run whose field `tally` is what its clients count, read through it
/// (`run.over()`, `run.error(..)`).
macro_rules! counted_in_its_tally {
    ($run:ty) => {
        impl std::ops::Deref for $run {
            type Target = Tally;

            fn deref(&self) -> &Tally {
                &self.tally
            }
        }
    };
}

mod abuse;
mod arena;
mod spread;

use std::collections::HashMap;
use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};

/// Arguments of `awale loadtest`.
#[derive(clap::Args)]
pub struct Args {
    /// A running server to load (default: one started here, on a scratch
    /// games file); repeated, processes of one site (`--store
    /// postgres://`), each game's players on different ones.
    #[arg(long, value_name = "HOST:PORT")]
    addr: Vec<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 100, value_name = "N")]
    games: usize,
    /// Spectators, spread over the games.
    #[arg(long, default_value_t = 0, value_name = "M")]
    spectators: usize,
    /// How long to play.
    #[arg(long, default_value_t = 10, value_name = "S")]
    seconds: u64,
    /// Each player's thinking time before a move, in milliseconds (0: as
    /// fast as the server goes).
    #[arg(long, default_value_t = 0, value_name = "MS")]
    think_ms: u64,
    /// Log-ins a second beside the games (0: none), to accounts made at
    /// the start, with their right password.
    #[arg(long, default_value_t = 0, value_name = "N")]
    logins: u64,
    /// A stranger attacks meanwhile: searches abandoned while they wait,
    /// a flood of challenges, chat, reactions and renames with made-up
    /// players, from several loopback addresses. The server keeps every
    /// limit it ships with, and each honest player has an address of its
    /// own; honest players also play the computer, ask hints and offer
    /// public challenges. The server must be on loopback.
    #[arg(long)]
    abuse: bool,
    /// Players seeking in the quick-pairing pools at once (0: none),
    /// spread over the seven pools; each plays the game it is paired
    /// into, then seeks again.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pools: usize,
    /// Accounts playing one arena tournament (0: none): each joins, plays
    /// the games it is paired into through the public API and waits for
    /// the next, while a watcher follows the standings.
    #[arg(long, default_value_t = 0, value_name = "N")]
    arena: usize,
    /// The site's database (`postgres://...`, the processes' `--store`):
    /// the acknowledged moves are then looked for there rather than
    /// through a process.
    #[arg(long, value_name = "URL")]
    store: Option<String>,
}

/// Accounts the log-ins go to.
const LOGIN_ACCOUNTS: usize = 20;
const LOGIN_PASSWORD: &str = "a loadtest's password";

/// What the log-ins got.
#[derive(Default)]
struct Logins {
    ok: u64,
    busy: u64,
    too_many: u64,
    other: u64,
    ms: Vec<f64>,
}

impl Logins {
    /// The log-ins' part of the report, at `per_s` a second.
    fn report(&mut self, per_s: u64) -> Value {
        json!({
            "per_s": per_s,
            "ok": self.ok,
            "busy": self.busy,
            "too_many": self.too_many,
            "other": self.other,
            "ok_ms": p50_p99(&mut self.ms),
        })
    }
}

/// Makes the accounts, then sends `per_s` log-ins a second until the end
/// of `tally`'s run, each on its own task. `send(n, path, body)` POSTs
/// for the `n`th client (an account's number, then a log-in's): the
/// answer's status and body.
async fn log_in_flood_with<S, F>(tally: &Tally, per_s: u64, send: S) -> anyhow::Result<Logins>
where
    S: Fn(usize, &'static str, Value) -> F,
    F: std::future::Future<Output = anyhow::Result<(StatusCode, Bytes)>> + Send + 'static,
{
    let mut names = Vec::new();
    for n in 0..LOGIN_ACCOUNTS {
        let name = format!("load{n}");
        let (status, body) = send(
            n,
            "/api/account/signup",
            json!({"username": name, "password": LOGIN_PASSWORD}),
        )
        .await
        .context("sign-up")?;
        anyhow::ensure!(
            status == StatusCode::CREATED,
            "sign-up: {status} {}",
            String::from_utf8_lossy(&body)
        );
        names.push(name);
    }
    let results = Arc::new(Mutex::new(Logins::default()));
    let every = Duration::from_secs_f64(1.0 / per_s.max(1) as f64);
    let mut tick = tokio::time::interval(every);
    let mut tasks = Vec::new();
    let mut n = 0usize;
    while !tally.over() {
        tick.tick().await;
        let results = Arc::clone(&results);
        let name = names[n % names.len()].clone();
        let answer = send(
            n,
            "/api/account/login",
            json!({"username": name, "password": LOGIN_PASSWORD}),
        );
        n += 1;
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let answer = answer.await;
            let ms = sent.elapsed().as_secs_f64() * 1000.0;
            let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
            match answer {
                Ok((StatusCode::OK, _)) => {
                    r.ok += 1;
                    r.ms.push(ms);
                }
                Ok((StatusCode::SERVICE_UNAVAILABLE, _)) => r.busy += 1,
                Ok((StatusCode::TOO_MANY_REQUESTS, _)) => r.too_many += 1,
                _ => r.other += 1,
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
    Ok(std::mem::take(&mut *r))
}

/// [`log_in_flood_with`] through this run's one server.
async fn log_in_flood(run: Arc<Run>, per_s: u64) -> anyhow::Result<Logins> {
    let send = |_, path: &'static str, body| {
        let run = Arc::clone(&run);
        async move {
            let (status, _, body) = run.request("POST", path, None, Some(body)).await?;
            Ok((status, body))
        }
    };
    log_in_flood_with(&run, per_s, send).await
}

type Http = Client<HttpConnector, Full<Bytes>>;

/// A client whose connections come from `from` (any address), a loopback
/// address of its own, so the server counts its limits apart.
fn http_client(from: Option<IpAddr>) -> Http {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    connector.set_local_address(from);
    Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(usize::MAX)
        .build(connector)
}

/// What all the simulated clients share.
struct Run {
    client: Http,
    /// The clients of each address (under `--abuse`).
    clients: Mutex<HashMap<IpAddr, Http>>,
    /// Each honest player on an address of its own (`--abuse`).
    spread: bool,
    addr: String,
    tally: Tally,
}

counted_in_its_tally!(Run);

/// What the clients of a load test count and share, whether on one
/// process or spread over several ([`spread`]).
struct Tally {
    deadline: Instant,
    stop: AtomicBool,
    moves: AtomicU64,
    errors: AtomicU64,
    first_error: Mutex<Option<String>>,
    /// When each move was sent: (game, ply).
    sent: Mutex<HashMap<(GameRef, usize), Instant>>,
    opponent_ms: Mutex<Vec<f64>>,
    spectator_ms: Mutex<Vec<f64>>,
    /// Acknowledged moves: (game, ply, letter).
    acked: Mutex<Vec<(GameRef, usize, char)>>,
    think: Duration,
}

impl Tally {
    /// The tally of a run of `seconds`, its players thinking `think_ms`
    /// before each move.
    fn new(seconds: u64, think_ms: u64) -> Tally {
        Tally {
            deadline: Instant::now() + Duration::from_secs(seconds),
            stop: AtomicBool::new(false),
            moves: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            first_error: Mutex::new(None),
            sent: Mutex::new(HashMap::new()),
            opponent_ms: Mutex::new(Vec::new()),
            spectator_ms: Mutex::new(Vec::new()),
            acked: Mutex::new(Vec::new()),
            think: Duration::from_millis(think_ms),
        }
    }

    /// Counts an error; the first is kept to be shown.
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            *first = Some(what);
        }
    }

    /// Whether the run is over (its time out, or stopped).
    fn over(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// What a player of `game` playing `me` hears on its stream: the
    /// opponent's moves timed, and each head passed to `tx`; false once
    /// the game is over.
    fn player_event(
        &self,
        game: &GameRef,
        me: &str,
        tx: &tokio::sync::mpsc::UnboundedSender<Head>,
        (name, data): (&str, &str),
    ) -> bool {
        if name == "move" {
            if let Some(i) = move_index(data) {
                // The opponent's move reaching me.
                let mine = data.contains(&format!("\"side\":\"{me}\""));
                if !mine {
                    self.note_arrival(game, i, &self.opponent_ms);
                }
            }
        }
        if name == "move" || name == "state" {
            match serde_json::from_str::<Head>(data) {
                Ok(head) => {
                    let over = head.end.is_some();
                    let _ = tx.send(head);
                    return !over;
                }
                Err(e) => self.error(format!("event: {e}")),
            }
        }
        true
    }

    /// What a spectator of `game` hears: each move timed; false once the
    /// game is over.
    fn spectator_event(&self, game: &GameRef, (name, data): (&str, &str)) -> bool {
        if name == "move" {
            if let Some(i) = move_index(data) {
                self.note_arrival(game, i, &self.spectator_ms);
            }
            if data.contains("\"end\":{") {
                return false;
            }
        }
        !(name == "state" && data.contains("\"end\":{"))
    }

    /// The move a player plays in `head` (at ply `plies` of `game`), after
    /// thinking: one of the legal ones, its sending time noted.
    async fn choose_move(
        &self,
        game: &GameRef,
        plies: usize,
        head: &Head,
        rng: &mut StdRng,
    ) -> String {
        if !self.think.is_zero() {
            tokio::time::sleep(self.think).await;
        }
        let mv = head.legal[rng.random_range(0..head.legal.len())].clone();
        self.sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert((game.clone(), plies), Instant::now());
        mv
    }

    /// Counts move `mv`, at ply `plies` of `game`, acknowledged.
    fn acked_move(&self, game: &GameRef, plies: usize, mv: &str) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        let letter = mv.chars().next().unwrap_or('?');
        self.acked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((game.clone(), plies, letter));
    }

    /// The acknowledged moves, game by game: (ply, letter).
    fn acked_by_game(&self) -> HashMap<GameRef, Vec<(usize, char)>> {
        let mut by_game: HashMap<GameRef, Vec<(usize, char)>> = HashMap::new();
        for (g, ply, letter) in self.acked.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            by_game.entry(g.clone()).or_default().push((*ply, *letter));
        }
        by_game
    }

    /// The report's figures of the games (`played` of them, `moves` moves
    /// in `elapsed` seconds, `lost` of them not found stored), the first
    /// error and a summary told on the standard error.
    fn report(
        &self,
        (games, spectators): (usize, usize),
        played: usize,
        moves: u64,
        elapsed: f64,
        lost: u64,
    ) -> Value {
        let mut opponent = self
            .opponent_ms
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let mut spectator = self
            .spectator_ms
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(e) = self
            .first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
        {
            eprintln!("awale loadtest: first error: {e}");
        }
        eprintln!("awale loadtest: {played} games played, {moves} moves in {elapsed:.1} s");
        json!({
            "games": games,
            "spectators": spectators,
            "moves": moves,
            "moves_per_s": round2(moves as f64 / elapsed.max(1e-9)),
            "opponent_ms": p50_p99(&mut opponent),
            "spectator_ms": p50_p99(&mut spectator),
            "errors": self.errors.load(Ordering::Relaxed),
            "lost": lost,
        })
    }

    /// Notes in `into` how long after it was sent move `ply` of `game`
    /// reached a watcher.
    fn note_arrival(&self, game: &GameRef, ply: usize, into: &Mutex<Vec<f64>>) {
        let sent = self
            .sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(game.clone(), ply))
            .copied();
        if let Some(t) = sent {
            into.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
}

impl Run {
    /// The `n`th honest client's address: 127.1.x.y under `--abuse`, else
    /// none of its own.
    fn honest(&self, n: usize) -> Option<IpAddr> {
        self.spread
            .then(|| IpAddr::from([127, 1, (n / 250 % 256) as u8, (n % 250 + 1) as u8]))
    }

    /// The client whose connections come from `from`.
    fn client(&self, from: Option<IpAddr>) -> Http {
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

    async fn request(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> anyhow::Result<(StatusCode, hyper::HeaderMap, Bytes)> {
        self.request_from(None, method, path, cookie, body).await
    }

    /// A request whose connection comes from `from`.
    async fn request_from(
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
    async fn player(&self, from: Option<IpAddr>) -> anyhow::Result<String> {
        let (_, headers, _) = self
            .request_from(from, "GET", "/api/me", None, None)
            .await?;
        player_cookie(&headers)
    }
}

/// A request of `method path` to the process at `addr`, with `cookie`.
fn request_to(
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
fn json_body(body: Option<&Value>) -> Full<Bytes> {
    Full::new(body.map_or_else(Bytes::new, |v| Bytes::from(v.to_string())))
}

/// The player's cookie the server set on a first visit (`/api/me`), as
/// sent back.
fn player_cookie(headers: &hyper::HeaderMap) -> anyhow::Result<String> {
    let cookie = headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| cookie::Cookie::parse(v).ok())
        .context("no player cookie from /api/me")?;
    Ok(format!("{}={}", cookie.name(), cookie.value()))
}

/// What a player reads from the events.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    plies: Option<Vec<Value>>,
    to_move: String,
    legal: Vec<String>,
    end: Option<Value>,
    #[serde(default)]
    waiting: bool,
}

impl Head {
    /// The plies played, as this head tells (`before`, when it does not).
    fn plies(&self, before: usize) -> usize {
        match (self.index, &self.plies) {
            (Some(i), _) => i + 1,
            (None, Some(p)) => p.len(),
            (None, None) => before,
        }
    }
}

/// Takes the whole events out of `text` (a stream of server-sent events
/// as read so far), calling `on_event(name, data)` on each: false as soon
/// as it does.
fn take_events(text: &mut String, on_event: &mut impl FnMut(&str, &str) -> bool) -> bool {
    while let Some(end) = text.find("\n\n") {
        let event: String = text.drain(..end + 2).collect();
        let mut name = "message";
        let mut data = String::new();
        for line in event.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n;
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            }
        }
        if !on_event(name, &data) {
            return false;
        }
    }
    true
}

/// Reads server-sent events: calls `on_event(name, data)` until it
/// returns false or the stream ends.
async fn read_events(
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
fn move_index(data: &str) -> Option<usize> {
    let at = data.find("\"index\":")? + 8;
    let digits: String = data[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// One player of one game: moves when it is their turn, until the end.
async fn play(
    run: Arc<Run>,
    game: GameRef,
    (cookie, from): (String, Option<IpAddr>),
    me: &'static str,
    seed: u64,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Head>();
    let listener = {
        let run = Arc::clone(&run);
        let cookie = cookie.clone();
        let game = game.clone();
        tokio::spawn(async move {
            let path = format!("/api/games/{game}/events");
            let result = read_events(&run, from, &path, Some(&cookie), |name, data| {
                run.player_event(&game, me, &tx, (name, data))
            })
            .await;
            if let Err(e) = result {
                if !run.over() {
                    run.error(format!("events: {e:#}"));
                }
            }
        })
    };
    let mut plies = 0usize;
    // The ply last moved at: a position heard twice (the state read on
    // connecting and the move event of its last ply, when the game had
    // begun before) is not moved at twice.
    let mut moved_at = None;
    let mut rng = StdRng::seed_from_u64(seed);
    while let Some(head) = rx.recv().await {
        plies = head.plies(plies);
        if head.end.is_some() || run.over() {
            break;
        }
        if head.waiting || head.to_move != me || head.legal.is_empty() || moved_at == Some(plies) {
            continue;
        }
        moved_at = Some(plies);
        let mv = run.choose_move(&game, plies, &head, &mut rng).await;
        let path = format!("/api/games/{game}/moves?answer=move");
        match run
            .request_from(
                from,
                "POST",
                &path,
                Some(&cookie),
                Some(json!({"move": mv, "ply": plies})),
            )
            .await
        {
            Ok((StatusCode::OK, _, _)) => run.acked_move(&game, plies, &mv),
            Ok((status, _, body)) => {
                if !run.over() {
                    run.error(format!("move: {status} {}", String::from_utf8_lossy(&body)));
                }
            }
            Err(e) => {
                if !run.over() {
                    run.error(format!("move: {e:#}"));
                }
            }
        }
    }
    listener.abort();
}

/// A spectator of one game: times each move's arrival.
async fn watch(run: Arc<Run>, game: GameRef, from: Option<IpAddr>) {
    let path = format!("/api/games/{game}/events");
    let result = read_events(&run, from, &path, None, |name, data| {
        run.spectator_event(&game, (name, data))
    })
    .await;
    if let Err(e) = result {
        if !run.over() {
            run.error(format!("spectator: {e:#}"));
        }
    }
}

/// A game, by its public id.
type GameRef = Arc<str>;

/// What the pool seekers got: how long each pairing took, from the first
/// seek to the answer naming the game.
#[derive(Default)]
struct Pairings {
    pairing_ms: Vec<f64>,
}

/// One player seeking in `pool` (`3+2`), as the page does: the seek is
/// asked again while it waits; once paired, it plays its side of the game,
/// then seeks again, until the time is up.
async fn seek(
    run: Arc<Run>,
    n: usize,
    pool: String,
    pairings: Arc<Mutex<Pairings>>,
    games: Arc<Mutex<Vec<GameRef>>>,
) {
    let from = run.honest(n);
    let cookie = match run.player(from).await {
        Ok(c) => c,
        Err(e) => return run.error(format!("pool player: {e:#}")),
    };
    let path = format!("/api/pools/{pool}/seek?wait_s=5");
    let mut seed = (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    while !run.over() {
        let started = Instant::now();
        let paired = loop {
            if run.over() {
                return;
            }
            let answer = run
                .request_from(
                    from,
                    "POST",
                    &path,
                    Some(&cookie),
                    Some(json!({"name": format!("Seeker {n}")})),
                )
                .await;
            match answer {
                Ok((StatusCode::OK, _, body)) => {
                    let news: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    let paired = &news["paired"];
                    if let (Some(game), Some(side)) =
                        (paired["game"].as_str(), paired["side"].as_str())
                    {
                        break (GameRef::from(game), side == "N");
                    }
                }
                Ok((status, _, body)) => {
                    if !run.over() {
                        run.error(format!("seek: {status} {}", String::from_utf8_lossy(&body)));
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => {
                    if !run.over() {
                        run.error(format!("seek: {e:#}"));
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        pairings
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pairing_ms
            .push(ms);
        let (game, north) = paired;
        // Both players of a game are seekers: the South one lists it.
        if !north {
            list_game(&games, &game);
        }
        seed = seed.rotate_left(13) ^ 0x9E37_79B9;
        let me = if north { "N" } else { "S" };
        play(Arc::clone(&run), game, (cookie.clone(), from), me, seed | 1).await;
    }
}

/// One pair of players, game after game, with `spectators` watching each
/// (honest clients `first_spectator`.. under `--abuse`). Under `--abuse`
/// the two take turns making the game, as two people would, so neither
/// offers more games than a person does.
async fn pair(
    run: Arc<Run>,
    slot: usize,
    (spectators, first_spectator): (usize, usize),
    games: Arc<Mutex<Vec<GameRef>>>,
) {
    let (a, b) = (run.honest(2 * slot), run.honest(2 * slot + 1));
    let (first, second) = match tokio::try_join!(run.player(a), run.player(b)) {
        Ok(p) => p,
        Err(e) => return run.error(format!("players: {e:#}")),
    };
    let mut round = 0u64;
    while !run.over() {
        round += 1;
        let (south, north) = if run.spread && round.is_multiple_of(2) {
            ((second.clone(), b), (first.clone(), a))
        } else {
            ((first.clone(), a), (second.clone(), b))
        };
        let made = run
            .request_from(
                south.1,
                "POST",
                "/api/games",
                Some(&south.0),
                Some(new_game(slot)),
            )
            .await;
        let made = match made {
            // Under the server's real limits (`--abuse`), players who make
            // games faster than people do are told to wait, and wait, as a
            // person would: their own pace, not the stranger's doing.
            Ok((StatusCode::TOO_MANY_REQUESTS, _, body)) if run.spread => {
                let wait_s = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["fields"]["wait_s"].as_u64())
                    .unwrap_or(1);
                let until = (Instant::now() + Duration::from_secs(wait_s)).min(run.deadline);
                tokio::time::sleep_until(until.into()).await;
                continue;
            }
            made => made,
        };
        let watcher = |game: &GameRef, k| {
            watch(
                Arc::clone(&run),
                game.clone(),
                run.honest(first_spectator + k),
            )
        };
        play_out(
            &run,
            (&games, slot, round),
            made,
            (south, north),
            (spectators, watcher),
            play,
        )
        .await;
    }
}

/// A player's answer: its status, headers and body.
type Answer = (StatusCode, hyper::HeaderMap, Bytes);

/// The requests of a run's players, for the steps of a pair the plain run
/// and [`spread`]'s share.
trait Players: std::ops::Deref<Target = Tally> + Sync {
    /// Who sends a request.
    type Player: Sync;
    /// A request that got no answer.
    type Failure: std::fmt::Display + Send;

    /// A request of `who`.
    fn ask(
        &self,
        who: &Self::Player,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> impl std::future::Future<Output = Result<Answer, Self::Failure>> + Send;

    /// Whether `answer` was lost with its process (not counted: the pair
    /// tries again).
    fn lost(answer: &Result<Answer, Self::Failure>) -> bool;
}

impl Players for Run {
    /// A player's cookie, and the address its connections come from.
    type Player = (String, Option<IpAddr>);
    type Failure = anyhow::Error;

    async fn ask(
        &self,
        (cookie, from): &Self::Player,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Answer> {
        self.request_from(*from, method, path, Some(cookie), body)
            .await
    }

    fn lost(_: &anyhow::Result<Answer>) -> bool {
        false
    }
}

/// Pair `slot`'s new game, from South's answer to making it (`made`):
/// listed among the games played, North seated in it with the
/// invitation's key, as South's page has it. None when that went wrong
/// (counted, unless lost with its process): the pair tries again, a
/// moment later when no game was made.
async fn seated_game<R: Players>(
    run: &R,
    games: &Mutex<Vec<GameRef>>,
    slot: usize,
    made: Result<Answer, R::Failure>,
    (south, north): (&R::Player, &R::Player),
) -> Option<GameRef> {
    let game = if R::lost(&made) {
        None
    } else {
        game_made(run, "new game", made)
    };
    let Some(game) = game else {
        tokio::time::sleep(Duration::from_millis(200)).await;
        return None;
    };
    list_game(games, &game);
    let links = run
        .ask(south, "GET", &format!("/api/games/{game}/links"), None)
        .await;
    if R::lost(&links) {
        return None;
    }
    let key = invite_key(run, links)?;
    let path = format!("/api/games/{game}/join");
    let joined = run.ask(north, "POST", &path, Some(join(slot, &key))).await;
    (!R::lost(&joined) && answered_ok(run, "join", joined)).then_some(game)
}

/// Lists `game` among the games played (their moves looked for in the
/// store at the end).
fn list_game(games: &Mutex<Vec<GameRef>>, game: &GameRef) {
    games
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(game.clone());
}

/// What South of pair `slot` asks for: an online game, to play South.
fn new_game(slot: usize) -> Value {
    json!({"mode": "online", "human": "S", "name": format!("South {slot}")})
}

/// The game a request to make one (`what`) was answered with; else none,
/// its refusal or failure counted as an error.
fn game_made<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    made: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<GameRef> {
    let body = expected(tally, what, StatusCode::CREATED, made)?;
    serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["id"].as_str().map(GameRef::from))
}

/// The invitation's key, from the answer to a game's links; else none,
/// counted as an error.
fn invite_key<E>(
    tally: &Tally,
    links: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<String> {
    let key = match links {
        Ok((StatusCode::OK, _, body)) => serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v["invite"].as_str().map(String::from))
            .and_then(|link| link.split_once("&k=").map(|(_, k)| k.to_string())),
        _ => None,
    };
    if key.is_none() {
        tally.error("links: no invitation key".to_string());
    }
    key
}

/// The body of `answer` (to `what`) when its status is `status`; else
/// none, counted as an error.
fn expected<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    status: StatusCode,
    answer: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<Bytes> {
    match answer {
        Ok((got, _, body)) if got == status => Some(body),
        Ok((got, _, body)) => {
            tally.error(format!("{what}: {got} {}", String::from_utf8_lossy(&body)));
            None
        }
        Err(e) => {
            tally.error(format!("{what}: {e:#}"));
            None
        }
    }
}

/// Whether `answer` (to `what`) is a plain OK; else counted as an error.
fn answered_ok<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    answer: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> bool {
    expected(tally, what, StatusCode::OK, answer).is_some()
}

/// What North of pair `slot` sends to join with the invitation's `key`.
fn join(slot: usize, key: &str) -> Value {
    json!({"name": format!("North {slot}"), "key": key})
}

/// The seeds of South's and North's moves in game `round` of pair `slot`.
fn seeds(slot: usize, round: u64) -> (u64, u64) {
    let seed = (slot as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ round;
    (seed | 1, seed.rotate_left(17) | 1)
}

/// Plays pair `slot`'s game `round` out, from South's answer to making it
/// (`made`): North seated in it (see [`seated_game`]), then, each on a
/// task of its own, its `spectators` (the `k`th by `watch(game, k)`) and
/// the players (South, North) by `play(run, game, player, side, seed)`
/// with the [`seeds`] of each; until all are done. Nothing more when the
/// seating went wrong: the pair tries again.
async fn play_out<R, F, W>(
    run: &Arc<R>,
    (games, slot, round): (&Mutex<Vec<GameRef>>, usize, u64),
    made: Result<Answer, R::Failure>,
    (south, north): (R::Player, R::Player),
    (spectators, watch): (usize, impl Fn(&GameRef, usize) -> W),
    play: impl Fn(Arc<R>, GameRef, R::Player, &'static str, u64) -> F,
) where
    R: Players,
    F: std::future::Future<Output = ()> + Send + 'static,
    W: std::future::Future<Output = ()> + Send + 'static,
{
    let Some(game) = seated_game(&**run, games, slot, made, (&south, &north)).await else {
        return;
    };
    let (south_seed, north_seed) = seeds(slot, round);
    let mut tasks: Vec<_> = (0..spectators)
        .map(|k| tokio::spawn(watch(&game, k)))
        .collect();
    tasks.push(tokio::spawn(play(
        Arc::clone(run),
        game.clone(),
        south,
        "S",
        south_seed,
    )));
    tasks.push(tokio::spawn(play(
        Arc::clone(run),
        game,
        north,
        "N",
        north_seed,
    )));
    for t in tasks {
        let _ = t.await;
    }
}

/// `x` to two decimals, as the report gives its figures.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The median and the 99th percentile of `values`, for the report.
fn p50_p99(values: &mut [f64]) -> Value {
    json!({"p50": round2(percentile(values, 50.0)), "p99": round2(percentile(values, 99.0))})
}

/// The letters of the moves of a game's view (`/api/games/ID`).
fn letters(view: &Value) -> Vec<char> {
    view["plies"]
        .as_array()
        .map(|plies| {
            plies
                .iter()
                .map(|p| {
                    p["move"]
                        .as_str()
                        .and_then(|m| m.chars().next())
                        .unwrap_or('?')
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The runtime a load test runs on.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// Moves acknowledged but not in the store, looked up game by game.
async fn lost_moves(run: &Run, games: &[GameRef]) -> anyhow::Result<u64> {
    let by_game = run.acked_by_game();
    let mut lost = 0;
    for game in games {
        let Some(acked) = by_game.get(game) else {
            continue;
        };
        let (status, _, body) = run
            .request("GET", &format!("/api/games/{game}"), None, None)
            .await?;
        anyhow::ensure!(status == StatusCode::OK, "game {game}: {status}");
        let stored = letters(&serde_json::from_slice(&body)?);
        for &(ply, letter) in acked {
            let found = stored.get(ply) == Some(&letter);
            if !found {
                lost += 1;
            }
        }
    }
    Ok(lost)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.addr.len() > 1 || args.store.is_some() {
        anyhow::ensure!(
            !args.abuse && args.pools == 0 && args.arena == 0,
            "--abuse, --pools and --arena load one process: give one --addr and no --store"
        );
        return spread::run(spread::Args {
            addr: args.addr,
            games: args.games,
            spectators: args.spectators,
            seconds: args.seconds,
            think_ms: args.think_ms,
            logins: args.logins,
            store: args.store,
        });
    }
    anyhow::ensure!(
        args.games > 0 || args.pools > 0 || args.arena > 0,
        "--games must be at least 1 (or --pools or --arena give players)"
    );
    anyhow::ensure!(
        args.arena != 1,
        "an arena needs at least 2 players (--arena N)"
    );
    runtime()?.block_on(async move {
        let (addr, server) = match args.addr.first() {
            Some(addr) => {
                if args.abuse {
                    let on_loopback = addr
                        .parse::<std::net::SocketAddr>()
                        .is_ok_and(|a| a.ip().is_loopback());
                    anyhow::ensure!(
                        on_loopback,
                        "--abuse spreads its clients over loopback addresses: \
                         give a server on loopback (--addr 127.0.0.1:PORT), not {addr}"
                    );
                }
                (addr.clone(), None)
            }
            None => {
                let (addr, server) = start_server(args.abuse).await?;
                (addr, Some(server))
            }
        };
        let run = Arc::new(Run {
            client: http_client(None),
            clients: Mutex::new(HashMap::new()),
            spread: args.abuse,
            addr,
            tally: Tally::new(args.seconds, args.think_ms),
        });
        let games = Arc::new(Mutex::new(Vec::new()));
        let wal = server.as_ref().map(|(_, store)| {
            let mut path = store.path().as_os_str().to_owned();
            path.push("-wal");
            let path = std::path::PathBuf::from(path);
            (
                tokio::spawn(wal_watch(Arc::clone(&run), path.clone())),
                path,
            )
        });
        let flood =
            (args.logins > 0).then(|| tokio::spawn(log_in_flood(Arc::clone(&run), args.logins)));
        let started = Instant::now();
        let mut pairs = Vec::new();
        // Honest clients by number: the players, then the spectators, then
        // (under --abuse) the computer's players and the challenges' makers.
        let mut next_client = 2 * args.games;
        for slot in 0..args.games {
            // Spectators spread evenly: the first games get one more.
            let watching = args.spectators / args.games.max(1)
                + usize::from(slot < args.spectators % args.games.max(1));
            let spectators = (watching, next_client);
            next_client += watching;
            pairs.push(tokio::spawn(pair(
                Arc::clone(&run),
                slot,
                spectators,
                Arc::clone(&games),
            )));
        }
        let pairings = Arc::new(Mutex::new(Pairings::default()));
        let pool_names: Vec<String> = awale_web::pools::POOLS.iter().map(|p| p.name()).collect();
        for n in 0..args.pools {
            let pool = pool_names[n % pool_names.len()].clone();
            let task = seek(
                Arc::clone(&run),
                next_client,
                pool,
                Arc::clone(&pairings),
                Arc::clone(&games),
            );
            next_client += 1;
            pairs.push(tokio::spawn(task));
        }
        let arena = (args.arena > 0).then(|| {
            let task = arena::run(
                Arc::clone(&run),
                args.arena,
                next_client,
                Arc::clone(&games),
            );
            next_client += args.arena + 1;
            tokio::spawn(task)
        });
        let abuse = args
            .abuse
            .then(|| tokio::spawn(abuse::run(Arc::clone(&run), next_client)));
        for p in pairs {
            let _ = p.await;
        }
        let abuse = match abuse {
            Some(task) => Some(task.await.context("the stranger")?),
            None => None,
        };
        let arena = match arena {
            Some(task) => Some(task.await.context("the arena")??),
            None => None,
        };
        run.stop.store(true, Ordering::Relaxed);
        let wal = match wal {
            Some((task, path)) => {
                Some((task.await.context("the log's size")?, wal_idle(&path).await))
            }
            None => None,
        };
        let logins = match flood {
            Some(task) => Some(task.await.context("log-ins")??),
            None => None,
        };
        let elapsed = started.elapsed().as_secs_f64();
        let games: Vec<GameRef> = games.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let lost = lost_moves(&run, &games).await?;
        let moves = run.moves.load(Ordering::Relaxed);
        let mut report = run.report(
            (args.games, args.spectators),
            games.len(),
            moves,
            elapsed,
            lost,
        );
        if let Some(mut l) = logins {
            report["logins"] = l.report(args.logins);
        }
        if let Some(abuse) = abuse {
            report["abuse"] = abuse;
        }
        if let Some(arena) = arena {
            report["arena"] = arena;
        }
        if args.pools > 0 {
            let mut p = pairings.lock().unwrap_or_else(|p| p.into_inner());
            report["pools"] = json!(args.pools);
            report["paired"] = json!(p.pairing_ms.len());
            report["pairing_ms"] = p50_p99(&mut p.pairing_ms);
        }
        if let Some((max, (idle, after))) = wal {
            let mb = |bytes: u64| round2(bytes as f64 / 1_048_576.0);
            report["wal_mb"] =
                json!({"max": mb(max), "idle": mb(idle), "idle_after_s": round2(after)});
        }
        outln!("{report}");
        if let Some((state, store)) = server {
            state.stop();
            store.close();
        }
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The largest size of the games file's log (`path`) while the run lasts,
/// looked at every 50 ms.
async fn wal_watch(run: Arc<Run>, path: std::path::PathBuf) -> u64 {
    let mut max = 0;
    let mut tick = tokio::time::interval(Duration::from_millis(50));
    while !run.over() {
        tick.tick().await;
        max = max.max(std::fs::metadata(&path).map_or(0, |m| m.len()));
    }
    max
}

/// The log's size once the moves stop: when it is emptied, or after 5 s
/// (its size then), and how long that took, in seconds.
async fn wal_idle(path: &std::path::Path) -> (u64, f64) {
    let since = Instant::now();
    loop {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size == 0 || since.elapsed() >= Duration::from_secs(5) {
            return (size, since.elapsed().as_secs_f64());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A server on a free loopback port with a scratch games file. Without
/// `real_limits`, no limits per client (every simulated client comes from
/// one address); with them (`--abuse`, where each client has an address of
/// its own), the limits the server ships with.
async fn start_server(
    real_limits: bool,
) -> anyhow::Result<(String, (awale_web::AppState, awale_web::Store))> {
    use awale_web::limiter::Rate;
    let store = awale_web::Store::in_memory().context("scratch games file")?;
    let unlimited = Rate {
        burst: u32::MAX,
        every_ms: 1,
    };
    let config = if real_limits {
        awale_web::Config::default()
    } else {
        awale_web::Config {
            create_rate: unlimited,
            player_rate: unlimited,
            challenge_rate: unlimited,
            login_rate: unlimited,
            login_client_rate: unlimited,
            signup_rate: unlimited,
            ..awale_web::Config::default()
        }
    };
    let state = awale_web::AppState::new(store.clone(), config).context("server")?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    let limits = awale_web::server::Limits {
        max_connections: 100_000,
        max_per_client: if real_limits {
            awale_web::server::Limits::default().max_per_client
        } else {
            0
        },
        ..awale_web::server::Limits::default()
    };
    let serving = state.clone();
    tokio::spawn(async move {
        awale_web::server::serve(listener, serving, limits, std::future::pending()).await;
    });
    Ok((addr, (state, store)))
}
