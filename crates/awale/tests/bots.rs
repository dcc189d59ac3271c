//! Engines online, end to end with real processes: `awale serve`, two bot
//! accounts with their tokens, and two `awale bot` bridges around `awale
//! uci` at two levels; one challenges the other, they play a rated game
//! to its end through the API, and the ratings show it. Then a bridge
//! killed mid-game and started again goes on with the same game, moving
//! after the restart, to an end by the rules; and a bridge's rules (speeds,
//! rated or casual, people or bots, at most N games) decline challenges,
//! the challengers seeing it.

mod webdriver;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::{account_cookies, bot_token, make_token, request_as, Site};

/// A child process killed when dropped.
struct Bridge(Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
    // The engine ladder's page counts rated challenges between bots too:
    // both ranked in the bots' bullet pool, the game listed.
    let (status, ladder) = site.call("GET", "/api/ladder", None);
    assert_eq!(status, 200, "{ladder}");
    let bullet = &ladder["ladders"][0];
    assert_eq!(bullet["pool"], "bot_bullet", "{ladder}");
    assert_eq!(bullet["games"][0]["id"], game.as_str(), "{ladder}");
    let ranked: Vec<&str> = bullet["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        ranked.contains(&"Alpha") && ranked.contains(&"Beta"),
        "{ladder}"
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
    let plies = |game: &str| {
        let (status, view) = site.call("GET", &format!("/api/games/{game}"), None);
        assert_eq!(status, 200, "{view}");
        (view["plies"].as_array().map_or(0, Vec::len), view)
    };
    // Killed once the game is under way, not after a set time: two quick
    // bots played a whole game within the 1.5 s this test once slept,
    // and the bridge started again then had no game to go on with.
    let start = Instant::now();
    while plies(&game).0 < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game never got going"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    a.0.kill().unwrap();
    a.0.wait().unwrap();
    drop(a);
    // The moves made before the restart.
    let (before, view) = plies(&game);
    assert!(
        view["end"].is_null(),
        "the game went on at the kill: {view}"
    );
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
    // It ended by the rules (neither flag fell, nobody left), and the
    // restarted bridge moved: the sides alternate, so two moves more than
    // at the kill hold one of Alpha's.
    let (after, view) = plies(&game);
    let reason = view["end"]["reason"].as_str().unwrap_or_default();
    assert!(
        ["starvation", "repetition", "target", "empty_board"].contains(&reason),
        "an end by the rules, not on time: {view}"
    );
    assert!(
        after >= before + 2,
        "moves after the restart: {before} then {after}: {log}"
    );
}

/// A bot's account named `name` (player `n`): its cookies (to read its
/// challenges as the page does) and its token of scope `bot:play`.
fn bot_with_cookies(site: &Site, name: &str, n: u8) -> (String, String) {
    let cookies = account_cookies(site, name, n);
    let (status, answer, _) = request_as(site, "POST", "/api/account/bot", &cookies, json!({}));
    assert_eq!(status, 200, "{answer}");
    let token = make_token(site, &cookies, &["bot:play"]);
    (cookies, token)
}

/// Challenge `id` as its challenger (of `cookies`) sees it once it is
/// answered (30 s at most).
fn answered(site: &Site, cookies: &str, id: &Value) -> Value {
    let start = Instant::now();
    loop {
        let (status, mine, _) = request_as(site, "GET", "/api/challenges", cookies, json!({}));
        assert_eq!(status, 200, "{mine}");
        let sent = mine["sent"]
            .as_array()
            .and_then(|s| s.iter().find(|c| c["id"] == *id).cloned())
            .unwrap_or_else(|| panic!("challenge {id} among those sent: {mine}"));
        if sent["state"] != "open" {
            return sent;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "challenge {id} never answered: {sent}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_bridge_declines_challenges_its_rules_exclude_and_accepts_the_others() {
    let site = Site::start("bots_rules");
    let dir = webdriver::temp_dir("bots_rules_logs");
    let beta = bot_token(&site, "Beta", 2);
    let log = dir.join("beta.log");
    // Blitz only, casual only, bots only, one game at a time.
    let _b = bridge(
        &site,
        &beta,
        1,
        &log,
        &[
            "--speeds",
            "blitz",
            "--modes",
            "casual",
            "--opponents",
            "bots",
            "--max-games",
            "1",
        ],
    );
    let start = Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("connected")
    {
        assert!(start.elapsed() < Duration::from_secs(30), "never connected");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (alpha_cookies, alpha) = bot_with_cookies(&site, "Alpha", 1);
    let (gamma_cookies, gamma) = bot_with_cookies(&site, "Gamma", 4);
    let ama = account_cookies(&site, "Ama", 3);
    let blitz = json!({"minutes": 3, "increment_seconds": 2});
    // Each challenge, by whom (cookies, and the token for a bot's through
    // the API), what it asks, and whether the bridge takes it, in order:
    // the one accepted makes the last one too many.
    let by_api = |token: &str, body: Value| {
        let (status, made, _) = request_as(
            &site,
            "POST",
            "/api/challenge/Beta",
            &format!("Bearer {token}"),
            body,
        );
        assert_eq!(status, 201, "{made}");
        made["id"].clone()
    };
    let checks: [(&str, &str, Value, &str); 5] = [
        // A person: not among --opponents.
        ("Ama", &ama, Value::Null, "--opponents"),
        // Bullet: not among --speeds.
        (
            "Alpha",
            &alpha_cookies,
            json!({"clock": {"minutes": 1, "increment_seconds": 0}}),
            "--speeds",
        ),
        // Rated: not among --modes.
        (
            "Alpha",
            &alpha_cookies,
            json!({"clock": blitz, "rated": true}),
            "--modes",
        ),
        // Blitz, casual, from a bot: accepted.
        ("Alpha", &alpha_cookies, json!({"clock": blitz}), ""),
        // The same from another bot while that game goes on: over
        // --max-games.
        (
            "Gamma",
            &gamma_cookies,
            json!({"clock": blitz}),
            "--max-games",
        ),
    ];
    for (who, cookies, body, rule) in checks {
        let id = if who == "Ama" {
            let (status, made, _) = request_as(
                &site,
                "POST",
                "/api/challenges",
                cookies,
                json!({"to": "Beta", "clock": blitz}),
            );
            assert_eq!(status, 201, "{made}");
            made["id"].clone()
        } else {
            by_api(if who == "Alpha" { &alpha } else { &gamma }, body)
        };
        let seen = answered(&site, cookies, &id);
        // The bridge logs its answer once the server answered it: the
        // challenger may see it first.
        let said = format!(" challenge {id} from ");
        let start = Instant::now();
        let text = loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.contains(&said) || start.elapsed() > Duration::from_secs(10) {
                break text;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        if rule.is_empty() {
            assert_eq!(seen["state"], "accepted", "{seen}: {text}");
            assert!(seen["game"].is_string(), "{seen}");
            // The game begins (the bridge plays it).
            assert_eq!(started(&log), seen["game"].as_str().unwrap());
        } else {
            assert_eq!(seen["state"], "declined", "{who}'s {seen}: {text}");
            let said = format!("decline challenge {id} ");
            let line = text
                .lines()
                .find(|l| l.contains(&said))
                .unwrap_or_else(|| panic!("the decline of {id} logged: {text}"));
            assert!(line.contains(rule), "declined by {rule}: {line}");
        }
    }
}

/// What a child process wrote on its standard output so far, gathered by
/// a thread of its own.
fn gathered(out: std::process::ChildStdout) -> std::sync::Arc<std::sync::Mutex<String>> {
    let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let into = text.clone();
    std::thread::spawn(move || {
        let mut out = out;
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

#[test]
fn a_person_plays_an_online_game_against_a_bot_in_the_terminal_through_the_board_api() {
    let site = Site::start("play_online");
    let dir = webdriver::temp_dir("play_online_logs");
    let beta = bot_token(&site, "Beta", 2);
    let beta_log = dir.join("beta.log");
    let mut b = bridge(&site, &beta, 1, &beta_log, &[]);
    std::thread::sleep(Duration::from_millis(500));
    // Ama, a person, challenges the bot from the page (South, 5+0), and
    // plays from the terminal with a token of scope board:play.
    let ama = account_cookies(&site, "Ama", 3);
    let token = make_token(&site, &ama, &["board:play"]);
    let (status, made, _) = request_as(
        &site,
        "POST",
        "/api/challenges",
        &ama,
        json!({"to": "Beta", "clock": {"minutes": 5, "increment_seconds": 0}, "colour": "S"}),
    );
    assert_eq!(status, 201, "{made}");
    let game = started(&beta_log);
    let mut child = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args([
            "play", "--online", &site.url, "--token", &token, "--lang", "en",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("awale play --online");
    let mut keys = child.stdin.take().unwrap();
    let out = gathered(child.stdout.take().unwrap());
    let mut answered = 0;
    let start = Instant::now();
    // Three moves of Ama's, each after the bot's answer, then a word in
    // the chat and the resignation.
    while answered < 3 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no prompt: {}",
            out.lock().unwrap()
        );
        let text = out.lock().unwrap().clone();
        let prompts: Vec<&str> = text.split(") > ").collect();
        if prompts.len() - 1 > answered {
            let before = prompts[answered];
            let legal = before.rsplit('(').next().unwrap();
            let mv = legal.split_whitespace().next().unwrap();
            writeln!(keys, "{mv}").unwrap();
            answered += 1;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    writeln!(keys, "say good game").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    writeln!(keys, "resign").unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(150),
            "the game never ended: {}",
            out.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = out.lock().unwrap().clone();
    assert!(text.contains(&format!("Game {game}: South Ama")), "{text}");
    assert!(text.contains("North Beta [BOT]"), "{text}");
    assert!(
        text.contains("North plays "),
        "the bot's moves shown: {text}"
    );
    assert!(text.contains("Clock: South "), "{text}");
    assert!(
        text.contains("Game over: North wins (resignation)."),
        "{text}"
    );
    ends(&mut b, Duration::from_secs(30), &beta_log);
    // Said in the players' room: Ama reads it.
    let (_, chat, _) = request_as(
        &site,
        "GET",
        &format!("/api/games/{game}/chat"),
        &ama,
        json!({}),
    );
    assert!(chat.to_string().contains("good game"), "{chat}");
}

/// The number of moves in the list on `b`'s page.
fn moves_shown(b: &webdriver::Browser) -> u64 {
    b.eval("return document.querySelectorAll('#move-list .mv').length")
        .as_u64()
        .unwrap_or(0)
}

/// Plays the first legal hole on `b`'s board if there is one: tapped
/// again when the move is not in the list 1.5 s later (a tap the page
/// takes while busy is no move). Whether a move was made.
fn play_first_legal(b: &webdriver::Browser) -> bool {
    let before = moves_shown(b);
    let start = Instant::now();
    let mut tapped: Option<Instant> = None;
    while start.elapsed() < Duration::from_secs(20) {
        if moves_shown(b) > before {
            return true;
        }
        let legal = b.eval("return !!document.querySelector('.hole-hit.legal')") == json!(true);
        if !legal && tapped.is_none() {
            return false;
        }
        if legal && tapped.is_none_or(|t| t.elapsed() > Duration::from_millis(1500)) {
            webdriver::tap(b, ".hole-hit.legal");
            tapped = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("a tap on a legal hole made no move");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_person_in_a_browser_plays_a_full_game_against_a_bot_whose_bridge_is_killed_and_started_again()
{
    let site = Site::start("bots_browser");
    let dir = webdriver::temp_dir("bots_browser_logs");
    let beta = bot_token(&site, "Beta", 2);
    let log = dir.join("beta.log");
    let mut first = bridge(&site, &beta, 1, &log, &[]);
    let url = site.url.clone();
    let ama = webdriver::member("bots-ama", "en-GB,en", webdriver::DESKTOP, &url, "Ama_B");
    // The bot's page marks it; Ama challenges it: 3+2, casual, South.
    ama.goto(&format!("{url}/@/Beta"));
    ama.wait_shown("#player-challenge", 20);
    ama.wait_for(
        "the BOT mark on its page",
        "return document.querySelector('#player-name .bot-mark')?.textContent === 'BOT (bot)'",
        20,
    );
    webdriver::tap(&ama, "#player-challenge");
    ama.wait_open("#dlg-challenge", 10);
    ama.exec(
        "document.querySelector('#challenge-clock').value = '3+2';
         document.querySelector('#challenge-colour').value = 'S';",
        json!([]),
    );
    webdriver::tap(&ama, "#challenge-send");
    // The bridge accepts: Ama is taken into the game, the bot's seat
    // marked.
    ama.wait_for(
        "the page taken to the game",
        "return location.hash.startsWith('#game=')",
        30,
    );
    let game = webdriver::game_id(&ama);
    ama.wait_for(
        "the bot's seat marked BOT",
        "return !!document.querySelector('#player-top .who .bot-mark')",
        20,
    );
    let found = ama.axe_violations();
    assert!(found.is_empty(), "a game against a bot: {found:?}");
    // The bot's word in the players' chat: its name marked BOT there too.
    let (status, said, _) = request_as(
        &site,
        "POST",
        &format!("/api/bot/game/{game}/chat"),
        &format!("Bearer {beta}"),
        json!({"room": "player", "text": "bonne partie"}),
    );
    assert_eq!(status, 201, "{said}");
    ama.wait_for(
        "the bot's chat line marked BOT",
        "return [...document.querySelectorAll('#chat-lines li')]
           .some((li) => li.textContent.includes('bonne partie') && !!li.querySelector('.bot-mark'))",
        20,
    );
    // Ama plays the first legal hole each turn; after five of her moves
    // the bridge is killed, then started again: the bot goes on.
    let mut mine = 0;
    let mut restarted = None;
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the game never ended: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        let view = webdriver::page_fetch(&ama, "GET", &format!("/api/games/{game}"), Value::Null);
        if !view["body"]["end"].is_null() {
            break;
        }
        if play_first_legal(&ama) {
            mine += 1;
            if mine == 5 && restarted.is_none() {
                first.0.kill().unwrap();
                first.0.wait().unwrap();
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&log)
                    .unwrap()
                    .write_all(b"--- killed, started again ---\n")
                    .unwrap();
                std::thread::sleep(Duration::from_secs(1));
                restarted = Some(bridge(&site, &beta, 1, &log, &[]));
            }
        } else {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    assert!(mine > 5, "Ama played on after the restart: {mine} moves");
    let mut again = restarted.expect("the bridge started again");
    ends(&mut again, Duration::from_secs(30), &log);
    let text = std::fs::read_to_string(&log).unwrap();
    let after = text.split("--- killed, started again ---").nth(1).unwrap();
    assert!(after.contains(&format!("game {game} starts")), "{text}");
    assert!(
        after.contains(&format!("game {game}: ")),
        "the game ended: {text}"
    );
    let view = webdriver::page_fetch(&ama, "GET", &format!("/api/games/{game}"), Value::Null);
    let plies = view["body"]["plies"].as_array().map_or(0, Vec::len);
    assert!(plies > 10, "a full game: {view}");
    assert_ne!(
        view["body"]["end"]["reason"], "time",
        "nobody lost on time: {view}"
    );
}

/// Waits on `b` until the element of `css` holds a name with the BOT mark
/// whose text includes `name`.
fn marked_in(b: &webdriver::Browser, what: &str, css: &str, name: &str) {
    b.wait_for(
        what,
        &format!(
            "return [...document.querySelectorAll({css})].some((n) => {{
               const box = n.closest('.player-name') || n.parentElement;
               return box.textContent.includes({name}) && n.textContent === 'BOT (bot)';
             }})",
            css = json!(format!("{css} .bot-mark")),
            name = json!(name),
        ),
        20,
    );
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_bots_name_is_marked_bot_in_the_lobby_my_games_and_tournament_standings() {
    let site = Site::start("bots_marks");
    let url = site.url.clone();
    // Ama first (the home page shows its first dialog while the lobby is
    // empty).
    let ama = webdriver::member(
        "bots-marks-ama",
        "en-GB,en",
        webdriver::DESKTOP,
        &url,
        "Ama_M",
    );
    // Beta, a bot, plays only through the bot API (its cookies are refused
    // at the people's doors): Ama challenges it, it accepts with its token.
    let beta = account_cookies(&site, "Beta", 2);
    let (status, answer, _) = request_as(&site, "POST", "/api/account/bot", &beta, json!({}));
    assert_eq!(status, 200, "{answer}");
    let beta_api = format!("Bearer {}", make_token(&site, &beta, &["bot:play"]));
    let game = webdriver::challenge_accepted_by_bot(
        &site,
        &ama,
        json!({"to": "Beta", "clock": {"minutes": 5, "increment_seconds": 0}}),
        &beta_api,
    );
    let (_, lobby) = site.call("GET", "/api/lobby", None);
    let playing = &lobby["live"][0];
    assert_eq!(playing["id"], game.as_str(), "{lobby}");
    let beta_seat = usize::from(playing["names"][0] != "Beta");
    assert_eq!(playing["bots"][beta_seat], true, "{lobby}");
    assert_eq!(playing["bots"][1 - beta_seat], false, "{lobby}");

    // Ama sees the game being played in the lobby, and the featured game:
    // they mark Beta and only Beta.
    ama.goto(&format!("{url}/#lobby"));
    marked_in(&ama, "the game being played marked", "#lobby-live", "Beta");
    marked_in(&ama, "the featured game marked", "#featured-names", "Beta");
    assert_eq!(
        ama.eval("return document.querySelectorAll('#lobby-live .bot-mark').length"),
        json!(1),
        "Ama's own name is not marked"
    );
    let found = ama.axe_violations();
    assert!(found.is_empty(), "the lobby with a bot's game: {found:?}");
    // My games.
    ama.goto(&format!("{url}/#games"));
    marked_in(&ama, "My games marked", ".game-card", "Beta");

    // An arena to come and a Swiss, both letting bots in, that Beta
    // joins: their standings (and the Swiss's crosstable) mark it.
    let arena = webdriver::page_fetch(
        &ama,
        "POST",
        "/api/tournaments",
        json!({"name": "Bots welcome", "minutes_each": 3, "increment_s": 2, "minutes": 30,
               "starts_in_minutes": 30, "bots_allowed": true}),
    );
    assert_eq!(arena["status"], 200, "{arena}");
    let swiss = webdriver::page_fetch(
        &ama,
        "POST",
        "/api/tournaments",
        json!({"kind": "swiss", "name": "Bots Swiss", "minutes_each": 3, "increment_s": 2,
               "rounds": 3, "bots_allowed": true}),
    );
    assert_eq!(swiss["status"], 200, "{swiss}");
    for made in [&arena, &swiss] {
        let id = made["body"]["id"].as_i64().unwrap();
        let (status, answer, _) = request_as(
            &site,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            &beta,
            json!({}),
        );
        assert_eq!(status, 200, "{answer}");
        let mine = webdriver::page_fetch(
            &ama,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            json!({}),
        );
        assert_eq!(mine["status"], 200, "{mine}");
        let (_, view) = site.call("GET", &format!("/api/tournaments/{id}"), None);
        let bots: Vec<(&str, bool)> = view["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["name"].as_str().unwrap(), l["bot"].as_bool().unwrap()))
            .collect();
        assert!(bots.contains(&("Beta", true)), "{view}");
        assert!(bots.contains(&("Ama_M", false)), "{view}");
    }
    let arena_id = arena["body"]["id"].as_i64().unwrap();
    ama.goto(&format!("{url}/#tournament={arena_id}"));
    marked_in(
        &ama,
        "the arena's standings marked",
        "#arena-standings",
        "Beta",
    );
    // The tournament's page says that bots are welcome.
    ama.wait_for(
        "the arena said open to bots",
        "return document.querySelector('#arena-info').textContent.includes('bots welcome')",
        20,
    );
    let swiss_id = swiss["body"]["id"].as_i64().unwrap();
    ama.goto(&format!("{url}/#tournament={swiss_id}"));
    marked_in(
        &ama,
        "the Swiss's standings marked",
        "#swiss-standings",
        "Beta",
    );
    marked_in(
        &ama,
        "the Swiss's crosstable marked",
        "#swiss-crosstable",
        "Beta",
    );
    assert_eq!(
        ama.eval("return document.querySelectorAll('#swiss-standings .bot-mark').length"),
        json!(1),
        "Ama's own name is not marked"
    );

    // A move each (Beta's through the bot API), then Ama resigns: her
    // page's games list marks her opponent.
    for ply in 0..2 {
        let view = webdriver::page_fetch(&ama, "GET", &format!("/api/games/{game}"), Value::Null);
        let legal = view["body"]["legal"][0]
            .as_str()
            .expect("a legal move")
            .to_string();
        let body = json!({"move": legal, "ply": ply});
        let path = format!("/api/games/{game}/moves");
        let mine = webdriver::page_fetch(&ama, "POST", &path, body.clone());
        if mine["status"].as_u64().is_none_or(|s| s >= 300) {
            let path = format!("/api/bot/game/{game}/move/{legal}");
            let (status, answer, _) = request_as(&site, "POST", &path, &beta_api, json!({}));
            assert!(status < 300, "{answer}");
        }
    }
    let resigned = webdriver::page_fetch(
        &ama,
        "POST",
        &format!("/api/games/{game}/resign"),
        json!({}),
    );
    assert!(
        resigned["status"].as_u64().is_some_and(|s| s < 300),
        "{resigned}"
    );
    ama.goto(&format!("{url}/@/Ama_M"));
    marked_in(
        &ama,
        "her page's games list marked",
        "#player-games",
        "Beta",
    );
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_account_page_shows_when_each_token_was_last_used() {
    let site = Site::start("tokens_used");
    let url = site.url.clone();
    let ama = webdriver::member(
        "tokens-used-ama",
        "en-GB,en",
        webdriver::DESKTOP,
        &url,
        "Ama_T",
    );
    let mut secrets = Vec::new();
    for name in ["used", "idle"] {
        let made = webdriver::page_fetch(
            &ama,
            "POST",
            "/api/account/tokens",
            json!({"name": name, "scopes": ["board:play"]}),
        );
        assert_eq!(made["status"], 201, "{made}");
        secrets.push(made["body"]["token"].as_str().unwrap().to_string());
    }
    // One call with the first token (refused: no such challenge; a call
    // all the same).
    let (status, answer, _) = request_as(
        &site,
        "POST",
        "/api/challenge/999/decline",
        &format!("Bearer {}", secrets[0]),
        json!({}),
    );
    assert!((400..500).contains(&status), "{answer}");
    webdriver::tap(&ama, "#btn-account");
    ama.wait_open("#dlg-account", 30);
    ama.exec(
        "document.querySelector('#api-tokens').open = true",
        json!([]),
    );
    let said = ama.wait_for(
        "each token's last use",
        "const items = [...document.querySelectorAll('#tokens-list li')];
         if (items.length !== 2) return null;
         return items.map((li) => li.querySelector('b').textContent + ': '
           + li.querySelector('.token-used').textContent);",
        20,
    );
    let said: Vec<String> = serde_json::from_value(said).unwrap();
    assert!(said.contains(&"idle: never used".to_string()), "{said:?}");
    assert!(
        said.iter().any(|s| s.starts_with("used: last used ")),
        "{said:?}"
    );
}
