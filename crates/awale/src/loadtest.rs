//! `awale loadtest`: online games between simulated players, through the
//! same public API the page uses (cookies, POSTed moves, server-sent
//! events), with spectators spread over the games. Each pair of players
//! plays game after game until the time is up; every move is timed from
//! its sending to its arrival at the opponent and at each spectator, and
//! the start by when half the pairs, then all, had a first move in their
//! first game (`moving_s`); at the end, every acknowledged move is looked
//! for in the store. With
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
//! scratch games file, and reports its log's (WAL's) largest size (with
//! `--games-file`, that of the server loaded). Its last line is one JSON
//! object. With `--addr` (real servers started with their default
//! options: one, or processes of one site on one PostgreSQL database),
//! the run is [`spread`]'s, each client on a loopback address of its own;
//! `--abuse`, `--pools` and `--arena` load one server through this run.
//! Games still going when the time is up are resigned. The open files'
//! limit is raised to the hard limit; when even that is too low for the
//! run, the tool says how many clients it can hold.

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
mod client;
mod games;
mod logins;
mod spread;
mod statistics;

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

use client::*;
use games::*;
use logins::*;
use statistics::*;

/// Arguments of `awale loadtest`.
#[derive(clap::Args)]
pub struct Args {
    /// A running server to load (default: one started here, on a scratch
    /// games file), on loopback, with its default options: each client
    /// connects from a loopback address of its own; repeated, processes
    /// of one site (`--store postgres://`), each game's players on
    /// different ones.
    #[arg(long, value_name = "HOST:PORT")]
    addr: Vec<String>,
    /// With several `--addr`: each game's players and spectators on one
    /// process (the games spread over them), as a load balancer hashing
    /// on the game's id keeps them; without it, each game's players on
    /// two processes and its spectators on the others.
    #[arg(long)]
    together: bool,
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
    /// The games file of the server loaded (`awale serve --data`'s
    /// `games.sqlite`): its log's (WAL's) largest size is reported.
    #[arg(long, value_name = "FILE")]
    games_file: Option<std::path::PathBuf>,
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

/// The runtime a load test runs on.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let one_server = args.abuse || args.pools > 0 || args.arena > 0;
    if args.addr.len() > 1 || args.store.is_some() {
        anyhow::ensure!(
            !one_server,
            "--abuse, --pools and --arena load one process: give one --addr and no --store"
        );
    }
    open_files(&args);
    if !args.addr.is_empty() && !one_server {
        return spread::run(spread::Args {
            addr: args.addr,
            together: args.together,
            games: args.games,
            spectators: args.spectators,
            seconds: args.seconds,
            think_ms: args.think_ms,
            logins: args.logins,
            store: args.store,
            games_file: args.games_file,
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
                on_loopback(std::slice::from_ref(addr))?;
                (addr.clone(), None)
            }
            None => {
                let (addr, server) = start_server(server_config(args.abuse), args.abuse).await?;
                (addr, Some(server))
            }
        };
        let run = Arc::new(Run {
            client: http_client(None),
            clients: Mutex::new(HashMap::new()),
            // A real server keeps its limits per address: each honest
            // client on one of its own.
            spread: args.abuse || server.is_none(),
            addr,
            tally: Tally::new(args.seconds, args.think_ms),
        });
        let games = Arc::new(Mutex::new(Vec::new()));
        let games_file = match (&server, args.games_file) {
            (Some((_, store)), _) => Some(store.path().to_path_buf()),
            (None, file) => file,
        };
        let wal = games_file.map(|file| WalWatch::start(&run, &file));
        let flood =
            (args.logins > 0).then(|| tokio::spawn(log_in_flood(Arc::clone(&run), args.logins)));
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
        let pool_names: Vec<String> = awale_service::pools::POOLS
            .iter()
            .map(|p| p.name())
            .collect();
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
        let (wal, logins, games) = stop_run(&run.stop, wal, flood, &games).await?;
        let lost = lost_moves(&run, &games).await?;
        let moves = run.moves.load(Ordering::Relaxed);
        let mut report = run.report((args.games, args.spectators), games.len(), moves, lost);
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
        if let Some(wal) = wal {
            report["wal_mb"] = wal;
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

/// Refuses servers not on loopback: the clients spread over loopback
/// source addresses, each its own, so that a server's limits per address
/// apply to each as to a real player.
fn on_loopback(addrs: &[String]) -> anyhow::Result<()> {
    for addr in addrs {
        let on_loopback = addr
            .parse::<std::net::SocketAddr>()
            .is_ok_and(|a| a.ip().is_loopback());
        anyhow::ensure!(
            on_loopback,
            "the load test's clients come from loopback addresses, each its own: \
             give servers on loopback (--addr 127.0.0.1:PORT), not {addr}"
        );
    }
    Ok(())
}

/// The run's end: stops its players (`stop`), then gives the log's report (with
/// `--games-file`), the log-ins of the flood (with `--logins`) and the
/// games made.
async fn stop_run(
    stop: &AtomicBool,
    wal: Option<WalWatch>,
    flood: Option<tokio::task::JoinHandle<anyhow::Result<Logins>>>,
    games: &Mutex<Vec<GameRef>>,
) -> anyhow::Result<(Option<Value>, Option<Logins>, Vec<GameRef>)> {
    stop.store(true, Ordering::Relaxed);
    let wal = WalWatch::report_of(wal).await?;
    let logins = match flood {
        Some(task) => Some(task.await.context("log-ins")??),
        None => None,
    };
    let games = games.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Ok((wal, logins, games))
}

/// The games file's log (`FILE-wal`) looked at while the run lasts.
struct WalWatch {
    /// Its largest size, looked at every 50 ms.
    largest: tokio::task::JoinHandle<u64>,
    path: std::path::PathBuf,
}

impl WalWatch {
    /// Looks at the log of `games_file` until `run` is over.
    fn start<R>(run: &Arc<R>, games_file: &std::path::Path) -> WalWatch
    where
        R: std::ops::Deref<Target = Tally> + Send + Sync + 'static,
    {
        let mut path = games_file.as_os_str().to_owned();
        path.push("-wal");
        let path = std::path::PathBuf::from(path);
        let (run, watched) = (Arc::clone(run), path.clone());
        let largest = tokio::spawn(async move {
            let mut max = 0;
            let mut tick = tokio::time::interval(Duration::from_millis(50));
            while !run.over() {
                tick.tick().await;
                max = max.max(std::fs::metadata(&watched).map_or(0, |m| m.len()));
            }
            max
        });
        WalWatch { largest, path }
    }

    /// The report's `wal_mb` of `watch`, if any, once the run is over.
    async fn report_of(watch: Option<WalWatch>) -> anyhow::Result<Option<Value>> {
        match watch {
            Some(watch) => Ok(Some(watch.report().await?)),
            None => Ok(None),
        }
    }

    /// The report's `wal_mb` once the run is over: the log's largest size,
    /// its size once the moves stop and how long after.
    async fn report(self) -> anyhow::Result<Value> {
        let max = self.largest.await.context("the log's size")?;
        let (idle, after) = wal_idle(&self.path).await;
        let mb = |bytes: u64| round2(bytes as f64 / 1_048_576.0);
        Ok(json!({"max": mb(max), "idle": mb(idle), "idle_after_s": round2(after)}))
    }
}

/// Raises the open files' limit to the hard limit where the system allows;
/// when that is still fewer than the run needs (about two a player, one a
/// spectator, twice that with the server in this process), says so, and
/// how many clients it can hold.
fn open_files(args: &Args) {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            limit.current = limit.maximum;
            if let Err(e) = setrlimit(Resource::Nofile, limit) {
                eprintln!("awale loadtest: cannot raise the open files' limit: {e}");
            }
        }
        let Some(have) = getrlimit(Resource::Nofile).current else {
            return;
        };
        let players = 2 * args.games + args.pools + args.arena;
        let clients = players + args.spectators;
        let per_client = if args.addr.is_empty() { 4 } else { 2 };
        // Spare files: the games file, the logs, the server's own.
        let need = (2 * players + args.spectators) * per_client / 2 + 256;
        if (have as usize) < need {
            let can = (have as usize).saturating_sub(256) * clients / (need - 256).max(1);
            eprintln!(
                "awale loadtest: {have} open files allowed (the hard limit), about {need} \
                 needed: at most about {can} of the {clients} clients can be held \
                 (raise it with ulimit -n, or run fewer)"
            );
        }
    }
    #[cfg(not(unix))]
    let _ = args;
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

/// The built-in server's settings. Without `real_limits`, no limits per
/// client (every simulated client comes from one address); with them
/// (`--abuse`, where each client has an address of its own), the limits
/// the server ships with.
fn server_config(real_limits: bool) -> awale_web::Config {
    use awale_service::limiter::Rate;
    let unlimited = Rate {
        burst: u32::MAX,
        every_ms: 1,
    };
    if real_limits {
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
    }
}

/// A server with `config` on a free loopback port with a scratch games
/// file; its connections limited per client with `real_limits` (as
/// [`server_config`]).
async fn start_server(
    config: awale_web::Config,
    real_limits: bool,
) -> anyhow::Result<(String, (awale_web::AppState, awale_store::Store))> {
    let store = awale_store::Store::in_memory().context("scratch games file")?;
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
