//! `awale loadtest --addr A [--addr B ...] [--store URL]`: the load test
//! of real servers, one process or several of one site. Online games
//! between simulated players through the page's API, as the one-process
//! test (`super`) plays them, but the two players of a game are on
//! different processes (when there are several) and the spectators spread
//! over all; a client whose process stops answering goes on through the
//! next, as behind a load balancer, and a move whose answer was lost with
//! its process counts as in doubt, not as acknowledged. Every simulated
//! client connects from a loopback address of its own (127.3.0.1 on), so
//! that servers started with their default options apply their limits per
//! address (new players, connections) to each as to a real player: the
//! servers must be on loopback. A 409 `stale` answering a client's own move
//! sent again at the same ply (after 3 s without an event) counts as
//! `stale`, not as an error. At the end, every game still going is
//! resigned (a challenge never joined, withdrawn), so that the servers do
//! not keep thousands of open games; `left_open` counts those that could
//! not be. With `--store`, the acknowledged moves are looked for in the
//! database itself. Its last line is one JSON object.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::StatusCode;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};

use super::{
    http_client, json_body, letters, log_in_flood_with, loopback, new_game, on_loopback, play_out,
    player_cookie, request_to, runtime, stop_run, take_events, Answer, Head, Http, Logins, Players,
    Tally, WalWatch,
};

/// What `awale loadtest` gives this run.
pub struct Args {
    /// The running servers to load (on loopback): one, or processes of one
    /// site (`--store postgres://`).
    pub(super) addr: Vec<String>,
    /// Each game's clients on one process (else spread over them).
    pub(super) together: bool,
    /// Games played at once.
    pub(super) games: usize,
    /// Spectators, spread over the games.
    pub(super) spectators: usize,
    /// How long to play.
    pub(super) seconds: u64,
    /// Each player's thinking time before a move, in milliseconds (0: as
    /// fast as the server goes).
    pub(super) think_ms: u64,
    /// Log-ins a second beside the games (0: none), to accounts made at
    /// the start, with their right password.
    pub(super) logins: u64,
    /// The site's database (`postgres://...`, the processes' `--store`):
    /// the acknowledged moves are then looked for there rather than
    /// through a process.
    pub(super) store: Option<String>,
    /// The games file of the server loaded (SQLite), whose log's largest
    /// size is reported.
    pub(super) games_file: Option<std::path::PathBuf>,
}

/// [`log_in_flood_with`] through the processes, each log-in (and each
/// account's sign-up) by a new client.
async fn log_in_flood(run: Arc<Run>, per_s: u64) -> anyhow::Result<Logins> {
    let send = |n, path: &'static str, body| {
        let run = Arc::clone(&run);
        let who = run.visitor(n);
        async move {
            match run.request(&who, "POST", path, Some(body)).await {
                Ok((status, _, body)) => Ok((status, body)),
                Err(e) => Err(anyhow::anyhow!("{e}")),
            }
        }
    };
    log_in_flood_with(&run, per_s, send).await
}

/// One simulated browser: its connections (from a loopback address of its
/// own), its player's cookie once it has one, and the process it talks to
/// now.
struct Visitor {
    client: Http,
    cookie: Option<String>,
    at: AtomicUsize,
}

impl Clone for Visitor {
    fn clone(&self) -> Visitor {
        Visitor {
            client: self.client.clone(),
            cookie: self.cookie.clone(),
            at: AtomicUsize::new(self.at.load(Ordering::Relaxed)),
        }
    }
}

/// Why a request got no answer.
enum Failed {
    /// Its process went away with it (killed): the client now talks to
    /// another; what it sent may or may not have been done.
    Gone,
    /// Anything else.
    Other(anyhow::Error),
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Gone => f.write_str("its process went away"),
            Failed::Other(e) => write!(f, "{e:#}"),
        }
    }
}

/// What all the simulated clients share.
struct Run {
    /// The processes, and whether each was found gone.
    addrs: Vec<String>,
    dead: Vec<AtomicBool>,
    /// Simulated clients made so far (each its own loopback address).
    visitors: AtomicU64,
    /// Each game's clients on one process (`--together`).
    together: bool,
    /// Clients moved to another process, and moves in doubt with it.
    failovers: AtomicU64,
    in_doubt: AtomicU64,
    /// Moves refused as stale (the client's own move sent again at a ply
    /// already played, a copy behind after a process was lost).
    stale: AtomicU64,
    tally: Tally,
}

counted_in_its_tally!(Run);

impl Run {
    /// A run over the processes at `addrs`, none found gone yet.
    fn new(addrs: Vec<String>, together: bool, tally: Tally) -> Run {
        Run {
            dead: addrs.iter().map(|_| AtomicBool::new(false)).collect(),
            addrs,
            visitors: AtomicU64::new(0),
            together,
            failovers: AtomicU64::new(0),
            in_doubt: AtomicU64::new(0),
            stale: AtomicU64::new(0),
            tally,
        }
    }

    /// A new simulated client, on process `at` (modulo their number).
    fn visitor(&self, at: usize) -> Visitor {
        let n = self.visitors.fetch_add(1, Ordering::Relaxed);
        Visitor {
            client: http_client(Some(loopback(n))),
            cookie: None,
            at: AtomicUsize::new(at % self.addrs.len()),
        }
    }

    /// After a failure on process `at` (where `who`'s request went): when
    /// nothing listens there any more, marks it gone and moves `who` to the
    /// next one alive, unless another of its requests did already (true).
    /// (Not `who`'s process of now: its events stream, failing on the same
    /// process, may have moved it to a live one meanwhile.)
    async fn fail_over(&self, who: &Visitor, at: usize) -> bool {
        if !self.dead[at].load(Ordering::Relaxed) {
            // A process being killed may still take a connection for a
            // moment, while the kernel closes its thousands of sockets
            // (on a loaded machine, more than the 0.2 s once allowed
            // here: a move's `SendRequest` then counted as an error):
            // asked for up to 2 s.
            for _ in 0..10 {
                if tokio::net::TcpStream::connect(&self.addrs[at])
                    .await
                    .is_ok()
                {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
                self.dead[at].store(true, Ordering::Relaxed);
                break;
            }
            if !self.dead[at].load(Ordering::Relaxed) {
                return false;
            }
        }
        let n = self.addrs.len();
        let next = (1..n)
            .map(|k| (at + k) % n)
            .find(|&i| !self.dead[i].load(Ordering::Relaxed));
        match next {
            Some(i) => {
                if who
                    .at
                    .compare_exchange(at, i, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
                {
                    self.failovers.fetch_add(1, Ordering::Relaxed);
                }
                true
            }
            None => false,
        }
    }

    /// Sends `method path` for `who` to its process; one whose process
    /// refuses the connection (never sent, so safe to send again) goes to
    /// the next.
    async fn send(
        &self,
        who: &Visitor,
        method: &str,
        path: &str,
        body: Option<&Value>,
        accept: Option<&str>,
    ) -> Result<(hyper::Response<hyper::body::Incoming>, usize), Failed> {
        let mut tries = 0;
        loop {
            let at = who.at.load(Ordering::Relaxed);
            let addr = &self.addrs[at];
            let mut req = request_to(addr, method, path, who.cookie.as_deref());
            if let Some(a) = accept {
                req = req.header("accept", a);
            }
            let req = req
                .body(json_body(body))
                .map_err(|e| Failed::Other(e.into()))?;
            match who.client.request(req).await {
                Ok(res) => return Ok((res, at)),
                // Never sent: sent again, to the next process when this
                // one is gone, else after a moment (a few times).
                Err(e) if e.is_connect() => {
                    tries += 1;
                    if !self.fail_over(who, at).await {
                        if tries > 5 {
                            return Err(Failed::Other(anyhow::anyhow!("{addr}: {e}")));
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                Err(e) => {
                    return Err(if self.fail_over(who, at).await {
                        Failed::Gone
                    } else {
                        Failed::Other(anyhow::anyhow!("{addr}: {e}"))
                    })
                }
            }
        }
    }

    async fn request(
        &self,
        who: &Visitor,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<(StatusCode, hyper::HeaderMap, Bytes), Failed> {
        let (res, at) = self.send(who, method, path, body.as_ref(), None).await?;
        let status = res.status();
        let headers = res.headers().clone();
        match res.into_body().collect().await {
            Ok(b) => Ok((status, headers, b.to_bytes())),
            Err(e) => Err(if self.fail_over(who, at).await {
                Failed::Gone
            } else {
                Failed::Other(e.into())
            }),
        }
    }

    /// A new player on process `at`: the cookie the server sets on a
    /// first visit.
    async fn player(&self, at: usize) -> anyhow::Result<Visitor> {
        let mut who = self.visitor(at);
        let (_, headers, _) = self
            .request(&who, "GET", "/api/me", None)
            .await
            .map_err(|e| anyhow::anyhow!("/api/me: {e}"))?;
        who.cookie = Some(player_cookie(&headers)?);
        Ok(who)
    }
}

/// How a stream of events ended.
enum Ended {
    /// `on_event` said so (the game is over), or the run is.
    Done,
    /// The stream ended or broke first: open it again (its process may
    /// be gone: `who` was moved to another then).
    Cut,
}

/// Reads server-sent events for `who`: calls `on_event(name, data)` until
/// it returns false or the stream ends.
async fn read_events(
    run: &Run,
    who: &Visitor,
    path: &str,
    mut on_event: impl FnMut(&str, &str) -> bool,
) -> Result<Ended, Failed> {
    let (res, at) = run
        .send(who, "GET", path, None, Some("text/event-stream"))
        .await?;
    if res.status() != StatusCode::OK {
        return Err(Failed::Other(anyhow::anyhow!("{path}: {}", res.status())));
    }
    let mut body = res.into_body();
    let mut text = String::new();
    loop {
        let frame = tokio::select! {
            f = body.frame() => f,
            () = tokio::time::sleep_until(run.deadline.into()) => return Ok(Ended::Done),
        };
        let Some(frame) = frame else {
            run.fail_over(who, at).await;
            return Ok(Ended::Cut);
        };
        let Ok(frame) = frame else {
            run.fail_over(who, at).await;
            return Ok(Ended::Cut);
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        text.push_str(&String::from_utf8_lossy(&data));
        if !take_events(&mut text, &mut on_event) {
            return Ok(Ended::Done);
        }
    }
}

/// How many times a client opens a game's stream again before it gives up.
const REOPENS: usize = 5;

/// Whether a listener whose stream ended with `result` stops (the game
/// over, the run over, or an error, counted as `what`) rather than
/// listening again through a process still up.
fn stream_done(run: &Run, result: Result<Ended, Failed>, what: &str) -> bool {
    match result {
        Ok(Ended::Done) => true,
        Ok(Ended::Cut) | Err(Failed::Gone) => run.over(),
        Err(Failed::Other(e)) => {
            if !run.over() {
                run.error(format!("{what}: {e:#}"));
            }
            true
        }
    }
}

/// A head read from the game itself (a watchdog, when no event came).
async fn fetch_head(run: &Run, who: &Visitor, game: &GameRef) -> Option<Head> {
    match run
        .request(who, "GET", &format!("/api/games/{game}"), None)
        .await
    {
        Ok((StatusCode::OK, _, body)) => serde_json::from_slice(&body).ok(),
        _ => None,
    }
}

/// One player of one game: moves when it is their turn, until the end.
async fn play(run: Arc<Run>, game: GameRef, who: Visitor, me: &'static str, seed: u64) {
    let who = Arc::new(who);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Head>();
    let listener = {
        let run = Arc::clone(&run);
        let who = Arc::clone(&who);
        let game = game.clone();
        tokio::spawn(async move {
            let path = format!("/api/games/{game}/events");
            for _ in 0..REOPENS {
                let result = read_events(&run, &who, &path, |name, data| {
                    run.player_event(&game, me, &tx, (name, data))
                })
                .await;
                if stream_done(&run, result, "events") {
                    return;
                }
            }
        })
    };
    let mut plies = 0usize;
    // The ply last moved at: a position heard twice (the state read on
    // connecting and the move event of its last ply) is not moved at
    // twice; only the watchdog sends a move again at the same ply.
    let mut moved_at = None;
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        // A move lost with its process, or a stale answer, may leave no
        // event to wait for: after a while, the game itself is read.
        let (head, watchdog) = match tokio::time::timeout(Duration::from_secs(3), rx.recv()).await {
            Ok(Some(head)) => (head, false),
            Ok(None) => break,
            Err(_) if run.over() => break,
            Err(_) => match fetch_head(&run, &who, &game).await {
                Some(head) => (head, true),
                None => continue,
            },
        };
        plies = head.plies(plies);
        if head.end.is_some() || run.over() {
            break;
        }
        if head.waiting || head.to_move != me || head.legal.is_empty() {
            continue;
        }
        let again = moved_at == Some(plies);
        if again && !watchdog {
            continue;
        }
        moved_at = Some(plies);
        let mv = run.choose_move(&game, plies, &head, &mut rng).await;
        let path = format!("/api/games/{game}/moves?answer=move");
        match run
            .request(&who, "POST", &path, Some(json!({"move": mv, "ply": plies})))
            .await
        {
            Ok((StatusCode::OK, _, _)) => run.acked_move(&game, plies, &mv),
            // The game moved on from the ply this client saw: its own
            // move sent again after 3 s without an event (the late event
            // then came), or, once a process was lost, a copy behind the
            // store's on a process that has not heard yet of the move a
            // lost one made. Not the server's error: the next state tells.
            // A first move at a ply refused so is one.
            Ok((StatusCode::CONFLICT, _, body))
                if serde_json::from_slice::<Value>(&body).is_ok_and(|v| v["error"] == "stale")
                    && (again || run.failovers.load(Ordering::Relaxed) > 0) =>
            {
                run.stale.fetch_add(1, Ordering::Relaxed);
            }
            Ok((status, _, body)) => {
                if !run.over() {
                    run.error(format!("move: {status} {}", String::from_utf8_lossy(&body)));
                }
            }
            Err(Failed::Gone) => {
                run.in_doubt.fetch_add(1, Ordering::Relaxed);
            }
            Err(Failed::Other(e)) => {
                if !run.over() {
                    run.error(format!("move: {e:#}"));
                }
            }
        }
    }
    listener.abort();
}

/// A spectator of one game: times each move's arrival.
async fn watch(run: Arc<Run>, game: GameRef, who: Visitor) {
    let path = format!("/api/games/{game}/events");
    for _ in 0..REOPENS {
        let result = read_events(&run, &who, &path, |name, data| {
            run.spectator_event(&game, (name, data))
        })
        .await;
        if stream_done(&run, result, "spectator") {
            return;
        }
    }
}

/// A game, by its public id.
type GameRef = Arc<str>;

impl Players for Run {
    type Player = Visitor;
    type Watcher = Visitor;
    type Failure = Failed;

    fn play(
        run: Arc<Run>,
        game: GameRef,
        who: Visitor,
        me: &'static str,
        seed: u64,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        play(run, game, who, me, seed)
    }

    fn watch(
        run: Arc<Run>,
        game: GameRef,
        who: Visitor,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        watch(run, game, who)
    }

    async fn ask(
        &self,
        who: &Visitor,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Answer, Failed> {
        self.request(who, method, path, body).await
    }

    fn lost(answer: &Result<Answer, Failed>) -> bool {
        matches!(answer, Err(Failed::Gone))
    }
}

/// One pair of players, game after game (two new players each time, as
/// new visitors: the limits per player are a person's), with `spectators`
/// watching each. With several processes, South is on process `slot`,
/// North on the next, the spectators on the ones after; `--together`,
/// all on process `slot`.
async fn pair(run: Arc<Run>, slot: usize, spectators: usize, games: Arc<Mutex<Vec<GameRef>>>) {
    let mut round = 0u64;
    // The process of each client after South's (by its offset).
    let at = |offset: usize| if run.together { slot } else { slot + offset };
    while !run.over() {
        round += 1;
        let (south, north) = match tokio::try_join!(run.player(slot), run.player(at(1))) {
            Ok(p) => p,
            Err(e) => {
                run.error(format!("players: {e:#}"));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let made = run
            .request(&south, "POST", "/api/games", Some(new_game(slot)))
            .await;
        let watchers = (0..spectators).map(|k| run.visitor(at(2 + k)));
        play_out(&run, (&games, slot, round), made, (south, north), watchers).await;
    }
}

/// The letters of game `game`'s moves: from the database when given,
/// else as a process serves the game.
async fn stored_moves(
    run: &Run,
    db: Option<&awale_store::PgStore>,
    reader: &Visitor,
    game: &GameRef,
) -> anyhow::Result<Vec<char>> {
    use awale_store::GameStore;
    if let Some(db) = db {
        let stored = db
            .load_public(game.to_string())
            .await?
            .with_context(|| format!("game {game} is not in the database"))?;
        return Ok(stored.game.moves().map(|m| m.letter()).collect());
    }
    let (status, _, body) = run
        .request(reader, "GET", &format!("/api/games/{game}"), None)
        .await
        .map_err(|e| anyhow::anyhow!("game {game}: {e}"))?;
    anyhow::ensure!(status == StatusCode::OK, "game {game}: {status}");
    Ok(letters(&serde_json::from_slice(&body)?))
}

/// Moves acknowledged but not in the store, looked up game by game, and
/// the acknowledgements of a move sent again for its ply (after its
/// process was lost with the first answer: played once, answered twice).
async fn lost_moves(
    run: &Run,
    db: Option<&awale_store::PgStore>,
    games: &[GameRef],
) -> anyhow::Result<(u64, u64)> {
    let mut by_game = run.acked_by_game();
    let mut lost = 0;
    let mut twice = 0;
    let reader = run.visitor(0);
    for game in games {
        let Some(acked) = by_game.get_mut(game) else {
            continue;
        };
        let stored = stored_moves(run, db, &reader, game).await?;
        acked.sort_unstable();
        twice += acked.windows(2).filter(|w| w[0].0 == w[1].0).count() as u64;
        for &(ply, letter) in acked.iter() {
            let found = stored.get(ply) == Some(&letter);
            if !found {
                lost += 1;
            }
        }
    }
    Ok((lost, twice))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    runtime()?.block_on(async move {
        anyhow::ensure!(
            !args.addr.is_empty(),
            "--store: give the processes serving the site (--addr HOST:PORT, repeated)"
        );
        on_loopback(&args.addr)?;
        let run = Arc::new(Run::new(
            args.addr.clone(),
            args.together,
            Tally::new(args.seconds, args.think_ms),
        ));
        let games = Arc::new(Mutex::new(Vec::new()));
        let wal = args.games_file.map(|file| WalWatch::start(&run, &file));
        let flood =
            (args.logins > 0).then(|| tokio::spawn(log_in_flood(Arc::clone(&run), args.logins)));
        let mut pairs = Vec::new();
        for slot in 0..args.games {
            // Spectators spread evenly: the first games get one more.
            let watching =
                args.spectators / args.games + usize::from(slot < args.spectators % args.games);
            pairs.push(tokio::spawn(pair(
                Arc::clone(&run),
                slot,
                watching,
                Arc::clone(&games),
            )));
        }
        for p in pairs {
            let _ = p.await;
        }
        let (wal, logins, games) = stop_run(&run.stop, wal, flood, &games).await?;
        let db = match &args.store {
            Some(url) => Some(awale_store::PgStore::connect(url).context("--store")?),
            None => None,
        };
        let (lost, twice) = lost_moves(&run, db.as_ref(), &games).await?;
        let moves = run.moves.load(Ordering::Relaxed) - twice;
        let mut report = run.report((args.games, args.spectators), games.len(), moves, lost);
        if twice > 0 {
            report["resent"] = json!(twice);
        }
        if let Some(wal) = wal {
            report["wal_mb"] = wal;
        }
        if run.addrs.len() > 1 {
            let gone: Vec<&String> = run
                .addrs
                .iter()
                .zip(&run.dead)
                .filter(|(_, d)| d.load(Ordering::Relaxed))
                .map(|(a, _)| a)
                .collect();
            report["processes"] = json!(run.addrs.len());
            report["gone"] = json!(gone);
            report["failovers"] = json!(run.failovers.load(Ordering::Relaxed));
            report["in_doubt"] = json!(run.in_doubt.load(Ordering::Relaxed));
        }
        report["stale"] = json!(run.stale.load(Ordering::Relaxed));
        if let Some(mut l) = logins {
            report["logins"] = l.report(args.logins);
        }
        outln!("{report}");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request failed on a process now gone, its client already moved
    /// to a live one by another of its requests (its events stream): a
    /// fail-over, where it was counted as an error (the client's process
    /// of now was asked whether it was gone, and answered).
    #[test]
    fn a_failure_on_a_gone_process_fails_over_though_its_client_moved_already() {
        runtime().unwrap().block_on(async {
            let gone = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let gone_addr = gone.local_addr().unwrap().to_string();
            drop(gone);
            let alive = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let alive_addr = alive.local_addr().unwrap().to_string();
            let run = Run::new(vec![gone_addr, alive_addr], false, Tally::new(1, 0));
            let who = run.visitor(1);
            assert!(run.fail_over(&who, 0).await);
            assert!(run.dead[0].load(Ordering::Relaxed));
            assert_eq!(who.at.load(Ordering::Relaxed), 1);
            // A failure on a process that still answers is no fail-over.
            assert!(!run.fail_over(&who, 1).await);
            assert_eq!(who.at.load(Ordering::Relaxed), 1);
        });
    }
}
