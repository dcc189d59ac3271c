//! `awale bot`: the bridge between a site's bot API and any engine that
//! speaks the Oware engine protocol (this program's `awale uci`, or
//! another), as lichess-bot is for UCI engines. It listens to the bot's
//! events, accepts the challenges its rules allow (speeds, rated or
//! casual, people or bots, at most N games at once), plays each game with
//! its own engine process fed the clock, goes on after a dropped
//! connection (the event stream lists the games going on when it opens
//! again), and logs each game. Docs: docs/BOTS.md.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use awale_core::{Game, Move, Rules};
use awale_engine::protocol::Go;
use awale_match::external::{ExternalEngine, HANDSHAKE_TIMEOUT};
use clap::Parser;
use hyper::StatusCode;
use serde_json::{json, Value};

use crate::api_client::{ApiClient, Lines, Refused};

/// `awale bot`'s options.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// The site's address (`http://HOST:PORT`).
    #[arg(long)]
    server: String,
    /// The bot's API token (scope `bot:play`).
    #[arg(long)]
    token: String,
    /// The engine's command line (`"awale uci --level 3"`).
    #[arg(long)]
    engine: String,
    /// An engine option set at its start, `NAME=VALUE` (`Level=3`); again
    /// for more.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The most games played at once.
    #[arg(long, default_value_t = 2)]
    max_games: usize,
    /// The speeds accepted (`bullet,blitz,rapid,classical`; also
    /// `ultra_bullet`, `correspondence`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "bullet,blitz,rapid,classical",
        value_parser = ["ultra_bullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
    )]
    speeds: Vec<String>,
    /// Accept rated challenges, casual ones, or both (`rated,casual`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "rated,casual",
        value_parser = ["rated", "casual"]
    )]
    modes: Vec<String>,
    /// Accept challenges from people, from bots, or both (`people,bots`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "people,bots",
        value_parser = ["people", "bots"]
    )]
    opponents: Vec<String>,
    /// Challenge this player or bot once connected.
    #[arg(long)]
    challenge: Option<String>,
    /// The clock of that challenge: minutes + seconds per move (`1+0`).
    #[arg(long, default_value = "1+0")]
    clock: String,
    /// Make that challenge rated.
    #[arg(long)]
    rated: bool,
    /// Join the engine ladder(s) named (`bullet`, `blitz`) at each
    /// connection: the server pairs the bot there as it comes free.
    #[arg(long, value_delimiter = ',')]
    ladder: Vec<String>,
    /// Write each game's record to this folder (`GAME.txt`).
    #[arg(long)]
    log_dir: Option<PathBuf>,
    /// Stop after this many games have ended (0: never).
    #[arg(long, default_value_t = 0)]
    games: usize,
}

/// How many times a move the token's rate refused is sent again.
const MOVE_TRIES: usize = 30;

/// What the games share: the client, the options, the games in play.
struct Bridge {
    api: ApiClient,
    args: Args,
    playing: Mutex<HashSet<String>>,
    ended: Mutex<usize>,
    done: tokio::sync::Notify,
}

/// Runs the bridge until it is stopped (or `--games` have ended).
///
/// # Errors
///
/// A bad server address or engine command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.engine.split_whitespace().next().is_none() {
        anyhow::bail!("--engine is the engine's command line");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let bridge = Arc::new(Bridge {
            api: ApiClient::new(&args.server, &args.token)?,
            args,
            playing: Mutex::new(HashSet::new()),
            ended: Mutex::new(0),
            done: tokio::sync::Notify::new(),
        });
        tokio::select! {
            r = bridge.clone().listen() => r,
            () = bridge.done.notified() => Ok(()),
        }
    })
}

impl Bridge {
    /// A call: its status and JSON answer.
    async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<(StatusCode, Value)> {
        self.api.call(method, path, body).await
    }

    /// Opens stream `path`: its lines, or an error when refused.
    async fn stream(&self, path: &str) -> anyhow::Result<Lines> {
        self.api.stream(path).await
    }

    /// The account's events, again after each drop.
    async fn listen(self: Arc<Self>) -> anyhow::Result<()> {
        let mut challenged = false;
        loop {
            match self.stream("/api/stream/event").await {
                Ok(mut lines) => {
                    eprintln!("awale bot: connected to {}", self.args.server);
                    if !challenged {
                        challenged = true;
                        self.challenge().await;
                    }
                    self.join_ladders().await;
                    while let Some(event) = lines.next().await {
                        self.clone().on_event(event).await;
                    }
                    eprintln!("awale bot: the event stream ended; connecting again");
                }
                Err(e) => {
                    eprintln!("awale bot: {e}");
                    // A token refused is not a network drop.
                    if e.is::<Refused>() {
                        return Err(e);
                    }
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    async fn challenge(&self) {
        let Some(to) = &self.args.challenge else {
            return;
        };
        let (minutes, increment) = self
            .args
            .clock
            .split_once('+')
            .unwrap_or((&self.args.clock, "0"));
        let body = json!({
            "rated": self.args.rated,
            "clock": {
                "minutes": minutes.trim().parse::<f64>().unwrap_or(1.0),
                "increment_seconds": increment.trim().parse::<f64>().unwrap_or(0.0),
            },
        });
        match self
            .call("POST", &format!("/api/challenge/{to}"), Some(body))
            .await
        {
            Ok((status, answer)) if status.is_success() => {
                eprintln!("awale bot: challenged {to} (challenge {})", answer["id"]);
            }
            Ok((status, answer)) => {
                eprintln!("awale bot: challenge to {to} refused: {status} {answer}")
            }
            Err(e) => eprintln!("awale bot: challenge to {to} failed: {e}"),
        }
    }

    /// Joins the ladders of `--ladder` (again after a reconnection: the
    /// server may have restarted; joining twice changes nothing).
    async fn join_ladders(&self) {
        for name in &self.args.ladder {
            let path = format!("/api/bot/ladder/{name}/join");
            match self.call("POST", &path, None).await {
                Ok((status, _)) if status.is_success() => {
                    eprintln!("awale bot: on the {name} ladder");
                }
                Ok((status, answer)) => {
                    eprintln!("awale bot: the {name} ladder refused: {status} {answer}")
                }
                Err(e) => eprintln!("awale bot: joining the {name} ladder failed: {e}"),
            }
        }
    }

    async fn on_event(self: Arc<Self>, event: Value) {
        match event["type"].as_str() {
            Some("challenge") => self.answer(&event["challenge"]).await,
            Some("gameStart") => {
                if let Some(game) = event["game"].as_str() {
                    self.start(game);
                }
            }
            _ => {}
        }
    }

    /// Plays game `id` unless it is played already.
    fn start(self: &Arc<Self>, id: &str) {
        if lock(&self.playing).insert(id.to_string()) {
            tokio::spawn(self.clone().play(id.to_string()));
        }
    }

    /// Accepts or declines a challenge received, by the bridge's rules.
    /// An accepted challenge's game counts at once towards `--max-games`
    /// (before its `gameStart` comes), so that challenges that come
    /// together are not all accepted.
    async fn answer(self: &Arc<Self>, c: &Value) {
        if c["sent"].as_bool() != Some(false) || c["state"] != "open" {
            return;
        }
        let id = c["id"].as_i64().unwrap_or_default();
        let speed = c["speed"].as_str().unwrap_or("");
        let mode = if c["rated"].as_bool() == Some(true) {
            "rated"
        } else {
            "casual"
        };
        let opponent = if c["from_bot"].as_bool() == Some(true) {
            "bots"
        } else {
            "people"
        };
        let refuse = refusal(&self.args, lock(&self.playing).len(), speed, mode, opponent);
        let (verb, why) = match refuse {
            Some(why) => ("decline", why),
            None => ("accept", "its rules allow it"),
        };
        match self
            .call("POST", &format!("/api/challenge/{id}/{verb}"), None)
            .await
        {
            Ok((status, answer)) => {
                eprintln!(
                    "awale bot: {verb} challenge {id} from {} ({speed}, {mode}, {opponent}): {why} ({status})",
                    c["from"]
                );
                if let Some(game) = answer["game"].as_str().filter(|_| status.is_success()) {
                    self.start(game);
                }
            }
            Err(e) => eprintln!("awale bot: challenge {id}: {e}"),
        }
    }

    /// Plays game `id` to its end, its stream opened again after a drop.
    async fn play(self: Arc<Self>, id: String) {
        eprintln!("awale bot: game {id} starts");
        let mut engine: Option<ExternalEngine> = None;
        let mut last = Value::Null;
        let mut tries = 0;
        loop {
            match self.play_stream(&id, &mut engine, &mut last).await {
                Ok(true) => break,
                Ok(false) => tries = 0,
                Err(e) => {
                    eprintln!("awale bot: game {id}: {e:#}");
                    tries += 1;
                    if tries > 30 {
                        break;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        self.log(&id, &last);
        lock(&self.playing).remove(&id);
        let ended = {
            let mut ended = lock(&self.ended);
            *ended += 1;
            *ended
        };
        if self.args.games > 0 && ended >= self.args.games {
            self.done.notify_one();
        }
    }

    /// Follows game `id`'s stream, moving when it is the bot's turn: true
    /// once the game is over.
    async fn play_stream(
        &self,
        id: &str,
        engine: &mut Option<ExternalEngine>,
        last: &mut Value,
    ) -> anyhow::Result<bool> {
        let mut lines = self.stream(&format!("/api/bot/game/stream/{id}")).await?;
        let full = lines
            .next()
            .await
            .context("the game's stream closed at once")?;
        let rules: Rules = full["rules"]
            .as_str()
            .unwrap_or("awale")
            .parse()
            .map_err(|e| anyhow::anyhow!("rules {}: {e:?}", full["rules"]))?;
        let you = full["you"].as_str().unwrap_or("S").to_string();
        let increment = full["clock"][1].as_i64().unwrap_or(0);
        *last = full.clone();
        let mut state = full["state"].clone();
        loop {
            if state["status"] != "started" {
                last["state"] = state;
                return Ok(true);
            }
            if state["to_move"].as_str() == Some(you.as_str()) {
                let mv = self.think(engine, rules, &state, increment).await?;
                self.send_move(id, mv).await?;
            }
            let Some(next) = lines.next().await else {
                return Ok(false);
            };
            if next["type"] == "gameState" {
                last["state"] = next.clone();
                state = next;
            }
        }
    }

    /// Sends move `mv` in game `id`; sent again after the wait that a
    /// `429` asks (`wait_s`: the token's rate, which a fast engine's
    /// moves exhaust), else the move would never come and the bot lose on
    /// time. Another refusal is said and left: the game's stream tells
    /// what the game is now.
    async fn send_move(&self, id: &str, mv: char) -> anyhow::Result<()> {
        let path = format!("/api/bot/game/{id}/move/{mv}");
        for _ in 0..MOVE_TRIES {
            let (status, answer) = self.call("POST", &path, None).await?;
            if status == StatusCode::TOO_MANY_REQUESTS {
                let wait = answer["fields"]["wait_s"]
                    .as_f64()
                    .unwrap_or(1.0)
                    .clamp(0.1, 10.0);
                eprintln!(
                    "awale bot: game {id}: move {mv} sent again in {wait} s (the token's rate)"
                );
                tokio::time::sleep(Duration::from_secs_f64(wait)).await;
                continue;
            }
            if !status.is_success() {
                eprintln!("awale bot: game {id}: move {mv} refused: {status} {answer}");
            }
            return Ok(());
        }
        anyhow::bail!("move {mv}: the server's rate refused it {MOVE_TRIES} times")
    }

    /// The engine's move in `state` (its own process, started at the
    /// game's first move to make).
    async fn think(
        &self,
        engine: &mut Option<ExternalEngine>,
        rules: Rules,
        state: &Value,
        increment: i64,
    ) -> anyhow::Result<char> {
        let mut game = Game::new(rules);
        for letter in state["moves"].as_str().unwrap_or("").split_whitespace() {
            let mv = letter
                .chars()
                .next()
                .and_then(Move::from_letter)
                .with_context(|| format!("`{letter}` is not a move"))?;
            game.play(mv).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        }
        let ms = |i: usize| {
            state["time_ms"][i]
                .as_i64()
                .map(|t| Duration::from_millis(t.max(0) as u64))
        };
        let go = Go {
            wtime: ms(0),
            btime: ms(1),
            winc: (increment > 0).then(|| Duration::from_millis(increment as u64)),
            binc: (increment > 0).then(|| Duration::from_millis(increment as u64)),
            movetime: ms(0).is_none().then(|| Duration::from_millis(500)),
            ..Go::default()
        };
        let mine = match ms(0).zip(ms(1)) {
            Some((s, n)) => {
                if game.position().to_move() == awale_core::Side::South {
                    s
                } else {
                    n
                }
            }
            None => Duration::from_secs(5),
        };
        let timeout = mine.min(Duration::from_secs(60)) + Duration::from_millis(200);
        let taken = engine.take();
        let command: Vec<String> = self
            .args
            .engine
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let options: Vec<(String, String)> = self
            .args
            .options
            .iter()
            .filter_map(|o| o.split_once('='))
            .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
            .collect();
        let (back, answer) = tokio::task::spawn_blocking(move || {
            let mut engine = match taken {
                Some(e) => e,
                None => {
                    let mut e = ExternalEngine::start(&command, &options, HANDSHAKE_TIMEOUT)?;
                    e.new_game(&rules)?;
                    e
                }
            };
            let answer = engine.go(&game, &go, timeout);
            Ok::<_, awale_match::external::ExternalError>((Some(engine), answer))
        })
        .await??;
        *engine = back;
        let answer = answer?;
        let best = answer.best.context("the engine found no move")?;
        Ok(best.letter())
    }

    /// Writes game `id`'s record to the log folder, and a line to standard
    /// error.
    fn log(&self, id: &str, last: &Value) {
        let state = &last["state"];
        let line = format!(
            "game {id}: {} vs {}, {}, winner {}, moves: {}",
            last["south"]["name"],
            last["north"]["name"],
            state["status"],
            state["winner"],
            state["moves"].as_str().unwrap_or("")
        );
        eprintln!("awale bot: {line}");
        if let Some(dir) = &self.args.log_dir {
            let written = std::fs::create_dir_all(dir).and_then(|()| {
                let mut f = std::fs::File::create(dir.join(format!("{id}.txt")))?;
                writeln!(f, "{line}")?;
                writeln!(f, "{last}")
            });
            if let Err(e) = written {
                eprintln!("awale bot: game {id} not logged: {e}");
            }
        }
    }
}

/// Why the bridge's rules decline a challenge of `speed`, `mode` (`rated`,
/// `casual`) from `opponent` (`people`, `bots`) while `playing` games go
/// on; None: accepted.
fn refusal(
    args: &Args,
    playing: usize,
    speed: &str,
    mode: &str,
    opponent: &str,
) -> Option<&'static str> {
    if playing >= args.max_games {
        Some("busy: --max-games reached")
    } else if !args.speeds.iter().any(|s| s == speed) {
        Some("its speed is not among --speeds")
    } else if !args.modes.iter().any(|m| m == mode) {
        Some("rated or casual: not among --modes")
    } else if !args.opponents.iter().any(|o| o == opponent) {
        Some("its challenger's kind is not among --opponents")
    } else {
        None
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
