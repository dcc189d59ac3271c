//! `awale loadtest --arena N`: an arena of N accounts, played through the
//! public API as the page plays it. Each player joins, follows the
//! tournament's events (the standings, with its own game named), plays
//! each game it is paired into, and waits for the next; a watcher follows
//! the standings as every visitor of the page does. Reported: the games
//! played, `pairing_ms` (from a game's end, its last move's sending, to
//! its player seeing their next game) and `standings_ms` (from a result,
//! its game's last move's sending, to the watcher's standings showing it:
//! for the players within the standings shown, the top 100).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use hyper::StatusCode;
use serde_json::{json, Value};

use super::{list_game, p50_p99, play, read_events, GameRef, Run};

/// The password of the arena's accounts.
const PASSWORD: &str = "an arena loadtest's password";

/// What the arena's players and watcher measured.
#[derive(Default)]
struct Measures {
    games: HashSet<GameRef>,
    pairing_ms: Vec<f64>,
    standings_ms: Vec<f64>,
}

/// The cookies of a new account named `name` (its player's and its
/// session's), made from `from`.
async fn account(run: &Run, from: Option<std::net::IpAddr>, name: &str) -> anyhow::Result<String> {
    let player = run.player(from).await?;
    let (status, headers, body) = run
        .request_from(
            from,
            "POST",
            "/api/account/signup",
            Some(&player),
            Some(json!({"username": name, "password": PASSWORD})),
        )
        .await?;
    anyhow::ensure!(
        status == StatusCode::CREATED,
        "sign-up of {name}: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let mut cookies = vec![player];
    for value in headers.get_all("set-cookie") {
        if let Some(c) = value
            .to_str()
            .ok()
            .and_then(|v| cookie::Cookie::parse(v).ok())
        {
            cookies.retain(|k| !k.starts_with(&format!("{}=", c.name())));
            cookies.push(format!("{}={}", c.name(), c.value()));
        }
    }
    Ok(cookies.join("; "))
}

/// When the last move of `game` was sent (its result, for a game that
/// ended by the rules), if one was.
fn last_move_sent(run: &Run, game: &GameRef) -> Option<Instant> {
    let sent = run.sent.lock().unwrap_or_else(|p| p.into_inner());
    (0..1000)
        .rev()
        .find_map(|ply| sent.get(&(game.clone(), ply)).copied())
}

/// The `"your_game"` the standings' stream gives a player: `Some(None)`
/// when they have no game in play.
fn your_game(data: &str) -> Option<Option<GameRef>> {
    let at = data.rfind("\"your_game\":")? + 12;
    let rest = &data[at..];
    if rest.starts_with("null") {
        return Some(None);
    }
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(Some(GameRef::from(&rest[..end])))
}

/// Runs the arena of `players` accounts until the run's end; its report.
/// Its games (by their South players) go to `played`, whose acknowledged
/// moves are looked for in the store at the end.
pub(super) async fn run(
    run: Arc<Run>,
    players: usize,
    first_client: usize,
    played: Arc<Mutex<Vec<GameRef>>>,
) -> anyhow::Result<Value> {
    // Names of this run's own (a server may have had other runs).
    let tag = format!("{:x}", std::process::id() % 0xfff);
    let maker = account(&run, run.honest(first_client), &format!("ar{tag}maker"))
        .await
        .context("the arena's maker")?;
    let seconds = run
        .deadline
        .saturating_duration_since(Instant::now())
        .as_secs();
    let minutes = seconds.div_ceil(60) + 1;
    let (status, _, body) = run
        .request(
            "POST",
            "/api/tournaments",
            Some(&maker),
            Some(
                json!({"name": "Loadtest arena", "minutes_each": 3, "increment_s": 2,
                        "minutes": minutes, "starts_in_minutes": 0}),
            ),
        )
        .await?;
    anyhow::ensure!(
        status == StatusCode::OK,
        "new arena: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let id = serde_json::from_slice::<Value>(&body)?["id"]
        .as_i64()
        .context("the arena's number")?;
    let measures = Arc::new(Mutex::new(Measures::default()));
    // The accounts, a few at a time (each password is hashed).
    let began = Instant::now();
    let mut cookies = Vec::new();
    let mut made = Vec::new();
    for n in 0..players {
        let run = Arc::clone(&run);
        let from = run.honest(first_client + 1 + n);
        let name = format!("ar{tag}p{n}");
        made.push(tokio::spawn(
            async move { account(&run, from, &name).await },
        ));
        if made.len() == 16 || n + 1 == players {
            for m in made.drain(..) {
                cookies.push(m.await.context("a sign-up")??);
            }
        }
    }
    eprintln!(
        "awale loadtest: {players} accounts made in {:.1} s; the arena begins",
        began.elapsed().as_secs_f64()
    );
    let watcher = tokio::spawn(watch_standings(Arc::clone(&run), id, Arc::clone(&measures)));
    let mut tasks = Vec::new();
    for (n, cookie) in cookies.into_iter().enumerate() {
        let from = run.honest(first_client + 1 + n);
        tasks.push(tokio::spawn(player(
            Arc::clone(&run),
            id,
            (cookie, from),
            n,
            Arc::clone(&measures),
            Arc::clone(&played),
        )));
    }
    for t in tasks {
        let _ = t.await;
    }
    let _ = watcher.await;
    // The arena ends with the run (on a server of its own, as on another).
    let _ = run
        .request(
            "POST",
            &format!("/api/tournaments/{id}/close"),
            Some(&maker),
            Some(json!({})),
        )
        .await;
    let mut m = measures.lock().unwrap_or_else(|p| p.into_inner());
    Ok(json!({
        "players": players,
        "games": m.games.len(),
        "pairing_ms": p50_p99(&mut m.pairing_ms),
        "standings_ms": p50_p99(&mut m.standings_ms),
    }))
}

/// The watcher: each line's game in play, from one standings to the
/// next; a game gone from its players' lines has ended.
async fn watch_standings(run: Arc<Run>, id: i64, measures: Arc<Mutex<Measures>>) {
    let mut shown: HashMap<u64, GameRef> = HashMap::new();
    let mut measured: HashSet<GameRef> = HashSet::new();
    let path = format!("/api/tournaments/{id}/events");
    let result = read_events(&run, None, &path, None, |name, data| {
        if name != "standings" {
            return true;
        }
        let Ok(view) = serde_json::from_str::<Value>(data) else {
            run.error("arena standings: not JSON".into());
            return true;
        };
        let mut now: HashMap<u64, GameRef> = HashMap::new();
        let mut lines = HashSet::new();
        for line in view["standings"].as_array().into_iter().flatten() {
            let Some(number) = line["number"].as_u64() else {
                continue;
            };
            lines.insert(number);
            if let Some(g) = line["game"].as_str() {
                now.insert(number, GameRef::from(g));
            }
        }
        for (number, game) in &shown {
            // Still shown, no longer in that game: its result is in.
            if lines.contains(number)
                && now.get(number) != Some(game)
                && measured.insert(game.clone())
            {
                if let Some(sent) = last_move_sent(&run, game) {
                    measures
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .standings_ms
                        .push(sent.elapsed().as_secs_f64() * 1000.0);
                }
            }
        }
        shown = now;
        true
    })
    .await;
    if let Err(e) = result {
        if !run.over() {
            run.error(format!("arena watcher: {e:#}"));
        }
    }
}

/// One player of the arena: joins, then plays each game the tournament's
/// events name as theirs, until the run's end.
async fn player(
    run: Arc<Run>,
    id: i64,
    (cookie, from): (String, Option<std::net::IpAddr>),
    n: usize,
    measures: Arc<Mutex<Measures>>,
    played: Arc<Mutex<Vec<GameRef>>>,
) {
    let join = format!("/api/tournaments/{id}/join");
    match run
        .request_from(from, "POST", &join, Some(&cookie), Some(json!({})))
        .await
    {
        Ok((StatusCode::OK, _, _)) => {}
        Ok((status, _, body)) => {
            return run.error(format!(
                "arena join: {status} {}",
                String::from_utf8_lossy(&body)
            ))
        }
        Err(e) => return run.error(format!("arena join: {e:#}")),
    }
    // The game the events name, and when it was heard.
    let (tx, mut rx) =
        tokio::sync::watch::channel::<(Option<GameRef>, Instant)>((None, Instant::now()));
    let listener = {
        let run = Arc::clone(&run);
        let cookie = cookie.clone();
        tokio::spawn(async move {
            let path = format!("/api/tournaments/{id}/events");
            let result = read_events(&run, from, &path, Some(&cookie), |name, data| {
                if name == "standings" || name == "your_game" {
                    if let Some(game) = your_game(data) {
                        if tx.borrow().0 != game {
                            let _ = tx.send((game, Instant::now()));
                        }
                    }
                }
                true
            })
            .await;
            if let Err(e) = result {
                if !run.over() {
                    run.error(format!("arena events: {e:#}"));
                }
            }
        })
    };
    let mut last: Option<(GameRef, Instant)> = None;
    let mut seed = (n as u64 + 7).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    while !run.over() {
        // The next game: a new one named.
        let next = loop {
            let (game, heard) = rx.borrow_and_update().clone();
            if let Some(g) = game {
                if last.as_ref().is_none_or(|(old, _)| *old != g) {
                    break Some((g, heard));
                }
            }
            let until = (Instant::now() + Duration::from_secs(10)).min(run.deadline);
            match tokio::time::timeout_at(until.into(), rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break None,
                // Long without a game (paused after a missed first move?):
                // come back.
                Err(_) => {
                    if run.over() {
                        break None;
                    }
                    let _ = run
                        .request_from(from, "POST", &join, Some(&cookie), Some(json!({})))
                        .await;
                }
            }
        };
        let Some((game, heard)) = next else { break };
        if let Some((_, ended)) = &last {
            let ms = heard.saturating_duration_since(*ended).as_secs_f64() * 1000.0;
            measures
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pairing_ms
                .push(ms);
        }
        measures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .games
            .insert(game.clone());
        let side = match run
            .request_from(
                from,
                "GET",
                &format!("/api/games/{game}"),
                Some(&cookie),
                None,
            )
            .await
        {
            Ok((StatusCode::OK, _, body)) => serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|v| v["you"][0].as_str().map(String::from)),
            _ => None,
        };
        let me = match side.as_deref() {
            Some("N") => "N",
            Some("S") => "S",
            _ => {
                run.error(format!("arena game {game}: no seat"));
                break;
            }
        };
        if me == "S" {
            list_game(&played, &game);
        }
        seed = seed.rotate_left(11) ^ 0x2545_F491;
        play(
            Arc::clone(&run),
            game.clone(),
            (cookie.clone(), from),
            me,
            seed | 1,
        )
        .await;
        let ended = last_move_sent(&run, &game).unwrap_or_else(Instant::now);
        last = Some((game, ended));
    }
    listener.abort();
}
