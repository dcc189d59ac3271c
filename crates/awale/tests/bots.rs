//! Engines online, end to end with real processes: `awale serve`, two bot
//! accounts with their tokens, and two `awale bot` bridges around `awale
//! uci` at two levels; one challenges the other, they play a rated game
//! to its end through the API, and the ratings show it. Then a bridge
//! killed mid-game and started again goes on with the same game.

mod webdriver;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::Site;

/// A child process killed when dropped.
struct Bridge(Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One request with `cookies`: the status, the JSON answer and the
/// cookies set (`NAME=VALUE`).
fn request(
    url: &str,
    method: &str,
    path: &str,
    cookies: &str,
    body: Value,
) -> (u16, Value, Vec<String>) {
    let addr = url.trim_start_matches("http://");
    let mut stream = webdriver::send(
        addr,
        method,
        path,
        Some(cookies),
        Some(&body),
        Duration::from_secs(30),
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let set = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap().to_string())
        .collect();
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::Null),
        set,
    )
}

/// Signs up `name`, upgrades it to a bot and makes its token: the token.
fn bot_token(site: &Site, name: &str, n: u8) -> String {
    let player = format!("awale_player={}", format!("{n:02x}").repeat(32));
    let (status, answer, set) = request(
        &site.url,
        "POST",
        "/api/account/signup",
        &player,
        json!({"username": name, "password": "seeds in the fourth hole"}),
    );
    assert_eq!(status, 201, "{answer}");
    let session = set
        .iter()
        .find(|c| c.contains("session"))
        .expect("a session")
        .clone();
    let cookies = format!("{player}; {session}");
    let (status, answer, _) = request(&site.url, "POST", "/api/account/bot", &cookies, json!({}));
    assert_eq!(status, 200, "{answer}");
    let (status, answer, _) = request(
        &site.url,
        "POST",
        "/api/account/tokens",
        &cookies,
        json!({"name": "bridge", "scopes": ["bot:play"]}),
    );
    assert_eq!(status, 201, "{answer}");
    answer["token"].as_str().unwrap().to_string()
}

/// `awale bot` for `token` around `awale uci` at `level`, with `more`
/// arguments, its standard error in `log`.
fn bridge(site: &Site, token: &str, level: u8, log: &Path, more: &[&str]) -> Bridge {
    let engine = format!("{} uci", env!("CARGO_BIN_EXE_awale"));
    let child = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args([
            "bot", "--server", &site.url, "--token", token, "--engine", &engine,
        ])
        .args(["--option", &format!("Level={level}"), "--games", "1"])
        .args(more)
        .stdout(Stdio::null())
        .stderr(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .unwrap(),
        )
        .spawn()
        .expect("awale bot");
    Bridge(child)
}

/// Waits for `b` to exit (it stops after its one game), up to `limit`.
fn ends(b: &mut Bridge, limit: Duration, log: &Path) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = b.0.try_wait().unwrap() {
            assert!(
                status.success(),
                "{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!(
        "the bridge never ended: {}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

/// The game the log of a bridge says started, once it does.
fn started(log: &Path) -> String {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if let Some(id) = text
            .lines()
            .find_map(|l| l.strip_prefix("awale bot: game ")?.strip_suffix(" starts"))
        {
            return id.to_string();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!(
        "no game started: {}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

#[test]
fn two_bridges_around_awale_uci_play_a_rated_game_and_the_ratings_show_it() {
    let site = Site::start("bots_rated");
    let dir = webdriver::temp_dir("bots_rated_logs");
    let alpha = bot_token(&site, "Alpha", 1);
    let beta = bot_token(&site, "Beta", 2);
    let (beta_log, alpha_log) = (dir.join("beta.log"), dir.join("alpha.log"));
    let games = dir.join("games");
    let games_arg = games.to_str().unwrap();
    let mut b = bridge(&site, &beta, 1, &beta_log, &["--log-dir", games_arg]);
    // Beta listens before Alpha challenges.
    std::thread::sleep(Duration::from_millis(500));
    let mut a = bridge(
        &site,
        &alpha,
        3,
        &alpha_log,
        &["--challenge", "Beta", "--rated", "--clock", "0.5+0"],
    );
    ends(&mut a, Duration::from_secs(180), &alpha_log);
    ends(&mut b, Duration::from_secs(30), &beta_log);
    let game = started(&beta_log);
    let record = std::fs::read_to_string(games.join(format!("{game}.txt"))).unwrap();
    // The side of each was drawn: either way round.
    assert!(
        record.contains("\"Alpha\" vs \"Beta\"") || record.contains("\"Beta\" vs \"Alpha\""),
        "{record}"
    );
    assert!(!record.contains("\"started\""), "the game ended: {record}");
    let (status, page) = site.call("GET", "/api/players/Alpha", None);
    assert_eq!(status, 200, "{page}");
    assert!(
        page.to_string().contains("bullet"),
        "a bullet rating: {page}"
    );
}

#[test]
fn a_bridge_killed_mid_game_and_started_again_goes_on_with_the_same_game() {
    let site = Site::start("bots_restart");
    let dir = webdriver::temp_dir("bots_restart_logs");
    let alpha = bot_token(&site, "Alpha", 1);
    let beta = bot_token(&site, "Beta", 2);
    let (beta_log, alpha_log) = (dir.join("beta.log"), dir.join("alpha.log"));
    let mut b = bridge(&site, &beta, 1, &beta_log, &[]);
    std::thread::sleep(Duration::from_millis(500));
    let mut a = bridge(
        &site,
        &alpha,
        1,
        &alpha_log,
        &["--challenge", "Beta", "--clock", "2+0"],
    );
    let game = started(&alpha_log);
    std::thread::sleep(Duration::from_millis(1500));
    a.0.kill().unwrap();
    a.0.wait().unwrap();
    drop(a);
    std::fs::OpenOptions::new()
        .append(true)
        .open(&alpha_log)
        .unwrap()
        .write_all(b"--- killed, started again ---\n")
        .unwrap();
    let mut again = bridge(&site, &alpha, 1, &alpha_log, &[]);
    ends(&mut again, Duration::from_secs(300), &alpha_log);
    ends(&mut b, Duration::from_secs(30), &beta_log);
    let log = std::fs::read_to_string(&alpha_log).unwrap();
    let after = log.split("--- killed, started again ---").nth(1).unwrap();
    assert!(after.contains(&format!("game {game} starts")), "{log}");
    assert!(after.contains(&format!("game {game}: ")), "{log}");
}
