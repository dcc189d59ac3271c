//! `awale loadtest --abuse`: while the honest players play, a stranger
//! runs issue 20's findings 1, 4 and 5 against the same server from a few
//! loopback addresses of its own: searches given up while they wait (40
//! at once per address, analyses and hints with a short client timeout,
//! asked again at once), a flood of public
//! challenges whose makers never come, and floods of chat, reactions and
//! renames with made-up players. Beside the online games, honest players
//! play the computer (asking hints) and offer public challenges, and the
//! report says whether each of their computer moves and hints was
//! answered and each of their challenges stayed in the lobby.
//!
//! Issue 38's rated attacks run beside them: rating farming (two accounts
//! from one address, a rated 3+2 game, one move each, a resignation,
//! rematches one after another, then the same with two moves each) and
//! the hand-over of a losing rated seat to a fresh guest; the report says
//! what the stranger got (`rated_points_gained`, must be 0;
//! `loss_dodged`, must be false). A player's account of the stranger's
//! also pushes on the routes issue 38's last session added (the
//! moderators' desk without the rank, the bots' ladder with a person's
//! cookie, a flood of puzzle streaks): `routes_ok` when every push on the
//! first two was refused and the streaks past their limit.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use hyper::StatusCode;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{json, Value};

use super::{game_made, read_events, Head, Run};

/// How many addresses the stranger comes from.
const STRANGER_ADDRESSES: u8 = 4;
/// Honest players of the computer, each on an address of its own.
const COMPUTER_PLAYERS: usize = 2;
/// The computer's level in their games (a quick one: the point is
/// whether it answers, not how well).
const LEVEL: u8 = 1;
/// How long an honest player waits for the computer's move or a hint
/// before calling it unanswered (the computer's longest think is 3 s).
const PATIENCE: Duration = Duration::from_secs(15);
/// How long the stranger waits for a search before giving it up.
const GIVE_UP: Duration = Duration::from_millis(300);
/// Searches the stranger keeps asking at once per address.
const BURST: usize = 40;
const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

/// Answers counted by kind: accepted, refused (429, 409, 503, 403), other.
#[derive(Default)]
struct Tally {
    ok: AtomicU64,
    refused: AtomicU64,
    other: AtomicU64,
}

impl Tally {
    fn note(&self, answer: &anyhow::Result<StatusCode>) {
        let counter = match answer {
            Ok(s) if s.is_success() => &self.ok,
            Ok(
                StatusCode::TOO_MANY_REQUESTS
                | StatusCode::CONFLICT
                | StatusCode::SERVICE_UNAVAILABLE
                // A made-up cookie is no player (issue 38).
                | StatusCode::FORBIDDEN
                // A call of the bots' API without a token.
                | StatusCode::UNAUTHORIZED,
            ) => &self.refused,
            _ => &self.other,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn report(&self) -> Value {
        json!({
            "ok": self.ok.load(Ordering::Relaxed),
            "refused": self.refused.load(Ordering::Relaxed),
            "other": self.other.load(Ordering::Relaxed),
        })
    }
}

/// What the stranger did and what the honest players got.
#[derive(Default)]
struct Abuse {
    computer_moves: AtomicU64,
    computer_answered: AtomicU64,
    hints: AtomicU64,
    hints_answered: AtomicU64,
    lobby_checks: AtomicU64,
    lobby_missing: AtomicU64,
    /// Honest public challenges made so far, by public id.
    challenges: Mutex<Vec<String>>,
    /// The stranger's searches: answered, refused, given up.
    searches: Tally,
    searches_given_up: AtomicU64,
    offers: Tally,
    chat: Tally,
    reactions: Tally,
    renames: Tally,
    /// Issue 38: the farmed account's rating points above the start, the
    /// farmed games played, and what became of the hand-over of a rated
    /// seat (its report).
    farm: Mutex<Value>,
    handover: Mutex<Value>,
    /// The stranger's pool seeks (made-up cookies and guests of its own).
    seeks: Tally,
    /// Pairings the stranger's seeks got: games nobody means to play.
    ghost_games: AtomicU64,
    /// The stranger's wrong passwords at the honest account.
    logins: Tally,
    /// The honest account's log-ins (from a device that logged in before),
    /// and those refused.
    honest_logins: AtomicU64,
    honest_logins_refused: AtomicU64,
    /// Set once the honest account has logged in a first time.
    honest_ready: std::sync::atomic::AtomicBool,
    /// The routes of issue 38's last session, pushed on by a player's
    /// account: the moderators' desk without the rank, the bots' ladder
    /// joined with a person's cookie, puzzle streaks started in a flood.
    desk: Tally,
    ladder_joins: Tally,
    streaks: Tally,
    /// Why the account pushing on them could not be made, if it could not.
    routes_error: Mutex<Option<String>>,
}

/// What every task of the run is given: the run, and the counts of what
/// the honest clients and the stranger met.
type Shared = (Arc<Run>, Arc<Abuse>);

/// Starts the stranger on a thread of its own, with its own runtime, at
/// the lowest CPU priority: on a real site the stranger's machine is not
/// the server's, so its client's work must neither delay the honest
/// clients' tasks (their times would count the stranger's queue) nor take
/// their CPU; what the server spends answering it still counts. Answers
/// once the stranger's tasks have all ended (or at once when the thread
/// could not start: then no stranger ran).
fn stranger_elsewhere(shared: Shared) -> anyhow::Result<tokio::sync::oneshot::Receiver<()>> {
    let (done, ended) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("stranger".into())
        .spawn(move || {
            #[cfg(target_os = "linux")]
            let _ = rustix::process::setpriority_process(None, 19);
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async move {
                let mut tasks = Vec::new();
                for n in 1..=STRANGER_ADDRESSES {
                    let from = Some(IpAddr::from([127, 2, 0, n]));
                    let seed = u64::from(n);
                    let s = || shared.clone();
                    tasks.push(tokio::spawn(give_up_searches(s(), from)));
                    tasks.push(tokio::spawn(offer_flood(s(), from, seed)));
                    tasks.push(tokio::spawn(chatter(s(), from, seed)));
                    tasks.push(tokio::spawn(pool_flood(s(), from, seed)));
                    tasks.push(tokio::spawn(login_flood(s(), from)));
                }
                tasks.push(tokio::spawn(rating_farm(shared.clone())));
                tasks.push(tokio::spawn(seat_handover(shared.clone())));
                tasks.push(tokio::spawn(new_routes(shared)));
                for t in tasks {
                    let _ = t.await;
                }
            });
            let _ = done.send(());
        })
        .context("cannot start the stranger's thread")?;
    Ok(ended)
}

/// Runs the honest computer players, the honest challenges, and the
/// stranger until the end of the run; honest clients are numbered from
/// `first_client`. Its report, for the last line's `"abuse"`.
pub(super) async fn run(run: Arc<Run>, first_client: usize) -> Value {
    let abuse = Arc::new(Abuse::default());
    let shared = || (Arc::clone(&run), Arc::clone(&abuse));
    let mut tasks = Vec::new();
    for k in 0..COMPUTER_PLAYERS {
        let from = run.honest(first_client + k);
        tasks.push(tokio::spawn(against_the_computer(shared(), from, k as u64)));
    }
    let makers = first_client + COMPUTER_PLAYERS;
    // One challenge before the flood, one in the middle of it.
    let later = (run.deadline - Instant::now()) / 3;
    for (k, wait) in [Duration::ZERO, later].into_iter().enumerate() {
        let from = run.honest(makers + k);
        tasks.push(tokio::spawn(challenge(shared(), from, wait)));
    }
    tasks.push(tokio::spawn(watch_lobby(shared(), run.honest(makers + 2))));
    tasks.push(tokio::spawn(honest_account(
        shared(),
        run.honest(makers + 3),
    )));
    let stranger = stranger_elsewhere(shared());
    for t in tasks {
        let _ = t.await;
    }
    if let Ok(done) = stranger {
        let _ = done.await;
    }
    let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let a = &abuse;
    let farm = a.farm.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let handover = a.handover.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let rated_ok =
        farm["rated_points_gained"] == json!(0) && handover["loss_dodged"] == json!(false);
    // Every push on the moderators' desk and the ladder refused, and the
    // streaks past their limit.
    let routes_ok = n(&a.desk.ok) == 0
        && n(&a.desk.refused) > 0
        && n(&a.ladder_joins.ok) == 0
        && n(&a.ladder_joins.refused) > 0
        && n(&a.streaks.refused) > 0;
    json!({
        "computer_ok": n(&a.computer_moves) > 0 && n(&a.computer_answered) == n(&a.computer_moves),
        "hints_ok": n(&a.hints) > 0 && n(&a.hints_answered) == n(&a.hints),
        "lobby_ok": n(&a.lobby_checks) > 0 && n(&a.lobby_missing) == 0,
        "honest": {
            "computer_moves": n(&a.computer_moves),
            "computer_answered": n(&a.computer_answered),
            "hints": n(&a.hints),
            "hints_answered": n(&a.hints_answered),
            "challenges": a.challenges.lock().unwrap_or_else(|p| p.into_inner()).len(),
            "lobby_checks": n(&a.lobby_checks),
            "lobby_missing": n(&a.lobby_missing),
            "logins": n(&a.honest_logins),
            "logins_refused": n(&a.honest_logins_refused),
        },
        "stranger": {
            "addresses": STRANGER_ADDRESSES,
            "searches": {
                "answered": n(&a.searches.ok),
                "refused": n(&a.searches.refused),
                "given_up": n(&a.searches_given_up),
                "other": n(&a.searches.other),
            },
            "challenges": a.offers.report(),
            "chat": a.chat.report(),
            "reactions": a.reactions.report(),
            "renames": a.renames.report(),
            "rating_farm": farm,
            "seat_handover": handover,
            "seeks": a.seeks.report(),
            "ghost_games": n(&a.ghost_games),
            "logins": a.logins.report(),
            "routes": {
                "desk_without_rank": a.desk.report(),
                "ladder_join_with_a_cookie": a.ladder_joins.report(),
                "streaks": a.streaks.report(),
                "error": a.routes_error.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            },
        },
        "rated_ok": rated_ok,
        "routes_ok": routes_ok,
    })
}

/// A made-up player's cookie (the server takes none of them since issue
/// 38: a guest's secret must be one it issued).
fn made_up(rng: &mut StdRng) -> String {
    format!(
        "awale_player={:016x}{:016x}{:016x}{:016x}",
        rng.random::<u64>(),
        rng.random::<u64>(),
        rng.random::<u64>(),
        rng.random::<u64>()
    )
}

async fn status_of(
    run: &Run,
    from: Option<IpAddr>,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> anyhow::Result<StatusCode> {
    Ok(run.request_from(from, method, path, cookie, body).await?.0)
}

/// The game `id` as `cookie` sees it.
async fn game_head(
    run: &Run,
    from: Option<IpAddr>,
    cookie: &str,
    id: &str,
) -> anyhow::Result<Head> {
    let (status, _, body) = run
        .request_from(from, "GET", &format!("/api/games/{id}"), Some(cookie), None)
        .await?;
    anyhow::ensure!(status == StatusCode::OK, "game {id}: {status}");
    Ok(serde_json::from_slice(&body)?)
}

/// An honest player of the computer: game after game, a hint before every
/// other move, each computer move waited for (at most [`PATIENCE`]).
async fn against_the_computer((run, abuse): Shared, from: Option<IpAddr>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0xC0FF_EE00);
    let cookie = match run.player(from).await {
        Ok(c) => c,
        Err(e) => return run.error(format!("computer's player: {e:#}")),
    };
    while !run.over() {
        let body = json!({"mode": "computer", "human": "S", "level": LEVEL});
        let made = run
            .request_from(from, "POST", "/api/games", Some(&cookie), Some(body))
            .await;
        let id = game_made(&run, "computer game", made);
        let Some(id) = id else {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let mut mine = 0u64;
        while !run.over() {
            let head = match game_head(&run, from, &cookie, &id).await {
                Ok(h) => h,
                Err(e) => {
                    run.error(format!("computer game: {e:#}"));
                    break;
                }
            };
            if head.end.is_some() || head.legal.is_empty() {
                break;
            }
            if head.to_move != "S" {
                // The computer starts (or is still thinking).
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            let plies = head.plies.as_ref().map_or(0, Vec::len);
            mine += 1;
            if mine % 2 == 1 {
                abuse.hints.fetch_add(1, Ordering::Relaxed);
                let path = format!("/api/games/{id}/hint");
                let hint = run.request_from(from, "POST", &path, Some(&cookie), None);
                match tokio::time::timeout(PATIENCE, hint).await {
                    Ok(Ok((StatusCode::OK, _, _))) => {
                        abuse.hints_answered.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Ok((status, _, body))) => {
                        run.error(format!("hint: {status} {}", String::from_utf8_lossy(&body)));
                    }
                    Ok(Err(e)) => run.error(format!("hint: {e:#}")),
                    Err(_) => run.error("hint: no answer".to_string()),
                }
            }
            let mv = head.legal[rng.random_range(0..head.legal.len())].clone();
            let path = format!("/api/games/{id}/moves?answer=move");
            let body = json!({"move": mv, "ply": plies});
            match run
                .request_from(from, "POST", &path, Some(&cookie), Some(body))
                .await
            {
                Ok((StatusCode::OK, _, _)) => {}
                Ok((status, _, body)) => {
                    run.error(format!(
                        "move against the computer: {status} {}",
                        String::from_utf8_lossy(&body)
                    ));
                    break;
                }
                Err(e) => {
                    run.error(format!("move against the computer: {e:#}"));
                    break;
                }
            }
            // The computer's answer (unless the move ended the game).
            let asked = Instant::now();
            let mut counted = false;
            loop {
                let head = match game_head(&run, from, &cookie, &id).await {
                    Ok(h) => h,
                    Err(e) => {
                        run.error(format!("computer game: {e:#}"));
                        break;
                    }
                };
                let now = head.plies.as_ref().map_or(0, Vec::len);
                if head.end.is_some() && now == plies + 1 {
                    break;
                }
                if !counted {
                    abuse.computer_moves.fetch_add(1, Ordering::Relaxed);
                    counted = true;
                }
                if now >= plies + 2 {
                    abuse.computer_answered.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                if asked.elapsed() >= PATIENCE || run.over() {
                    if !run.over() {
                        run.error(format!("the computer did not move in {id}"));
                    } else {
                        // The run ended while it thought: not a miss.
                        abuse.computer_moves.fetch_sub(1, Ordering::Relaxed);
                    }
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// An honest public challenge, made after `wait`, its maker on its live
/// events (connected, as a page is) until the end.
async fn challenge((run, abuse): Shared, from: Option<IpAddr>, wait: Duration) {
    tokio::time::sleep(wait).await;
    if run.over() {
        return;
    }
    let cookie = match run.player(from).await {
        Ok(c) => c,
        Err(e) => return run.error(format!("challenger: {e:#}")),
    };
    let body = json!({"mode": "online", "human": "S", "name": "Honest", "public": true});
    let made = run
        .request_from(from, "POST", "/api/games", Some(&cookie), Some(body))
        .await;
    let id = game_made(&run, "public challenge", made);
    let Some(id) = id else {
        // Counted as missing from the lobby: an honest challenge refused.
        abuse.lobby_missing.fetch_add(1, Ordering::Relaxed);
        return;
    };
    abuse
        .challenges
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(id.to_string());
    let path = format!("/api/games/{id}/events");
    if let Err(e) = read_events(&run, from, &path, Some(&cookie), |_, _| true).await {
        if !run.over() {
            run.error(format!("challenge's events: {e:#}"));
        }
    }
}

/// Looks at the lobby twice a second: is every honest challenge there?
async fn watch_lobby((run, abuse): Shared, from: Option<IpAddr>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    while !run.over() {
        tick.tick().await;
        let honest = abuse
            .challenges
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if honest.is_empty() {
            continue;
        }
        let lobby = match run
            .request_from(from, "GET", "/api/lobby", None, None)
            .await
        {
            Ok((StatusCode::OK, _, body)) => serde_json::from_slice::<Value>(&body).ok(),
            _ => None,
        };
        let listed: Vec<String> = lobby
            .as_ref()
            .and_then(|l| l["challenges"].as_array())
            .map(|c| {
                c.iter()
                    .filter_map(|g| g["id"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        abuse.lobby_checks.fetch_add(1, Ordering::Relaxed);
        let missing = honest.iter().filter(|id| !listed.contains(id)).count();
        if lobby.is_none() || missing > 0 {
            abuse.lobby_missing.fetch_add(1, Ordering::Relaxed);
            if !run.over() {
                run.error(format!(
                    "lobby: {missing} honest challenges missing of {}",
                    honest.len()
                ));
            }
        }
    }
}

/// Finding 1: [`BURST`] askers at once, each asking an analysis or a
/// hint, giving it up after [`GIVE_UP`] and asking again (50 ms after a
/// refusal), so the stranger's places in the queue are always taken.
async fn give_up_searches((run, abuse): Shared, from: Option<IpAddr>) {
    let Ok(cookie) = run.player(from).await else {
        return;
    };
    let game = match run
        .request_from(
            from,
            "POST",
            "/api/games",
            Some(&cookie),
            Some(json!({"mode": "humans"})),
        )
        .await
    {
        Ok((StatusCode::CREATED, _, body)) => serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v["id"].as_str().map(String::from)),
        _ => None,
    };
    let mut askers = Vec::new();
    for i in 0..BURST {
        let run = Arc::clone(&run);
        let abuse = Arc::clone(&abuse);
        let cookie = cookie.clone();
        let hint = game
            .as_ref()
            .filter(|_| i % 4 == 0)
            .map(|g| format!("/api/games/{g}/hint"));
        askers.push(tokio::spawn(async move {
            while !run.over() {
                let ask = async {
                    match &hint {
                        Some(path) => {
                            status_of(&run, from, "POST", path, Some(&cookie), None).await
                        }
                        None => {
                            let body = json!({"position": START});
                            let path = "/api/study/analysis";
                            status_of(&run, from, "POST", path, Some(&cookie), Some(body)).await
                        }
                    }
                };
                match tokio::time::timeout(GIVE_UP, ask).await {
                    Ok(answer) => {
                        abuse.searches.note(&answer);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    Err(_) => {
                        abuse.searches_given_up.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for a in askers {
        let _ = a.await;
    }
}

/// Finding 4: public challenges from made-up players, as fast as the
/// server takes them, their makers never connected.
async fn offer_flood((run, abuse): Shared, from: Option<IpAddr>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x0FFE_5000);
    while !run.over() {
        let cookie = made_up(&mut rng);
        for _ in 0..4 {
            let body = json!({"mode": "online", "name": "Spam", "public": true});
            let answer =
                status_of(&run, from, "POST", "/api/games", Some(&cookie), Some(body)).await;
            abuse.offers.note(&answer);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Issue 38, finding 3: pool seeks, most from made-up cookies (a new one
/// each time), one in four from a guest the server gave the stranger (as
/// many as the address may have); each pairing answered is a game nobody
/// means to play.
async fn pool_flood((run, abuse): Shared, from: Option<IpAddr>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x9001_5000);
    let mut round = 0u64;
    while !run.over() {
        round += 1;
        let cookie = if round.is_multiple_of(4) {
            match run.player(from).await {
                Ok(cookie) => cookie,
                Err(_) => made_up(&mut rng),
            }
        } else {
            made_up(&mut rng)
        };
        let body = json!({"name": "Ghost"});
        let answer = run
            .request_from(
                from,
                "POST",
                "/api/pools/3+2/seek?wait_s=0",
                Some(&cookie),
                Some(body),
            )
            .await;
        if let Ok((_, _, body)) = &answer {
            let paired =
                serde_json::from_slice::<Value>(body).is_ok_and(|v| v["paired"].is_object());
            if paired {
                abuse.ghost_games.fetch_add(1, Ordering::Relaxed);
            }
        }
        abuse.seeks.note(&answer.map(|(status, _, _)| status));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The password of the honest account the stranger tries to lock out.
const HONEST_PASSWORD: &str = "seeds in the fourth hole";
/// Its name.
const HONEST_ACCOUNT: &str = "honest_player";

/// An honest account: signed up, logged in once (its device cookie
/// kept), then logging in again every half second while the stranger
/// tries wrong passwords at it; each refusal is counted.
async fn honest_account((run, abuse): Shared, from: Option<IpAddr>) {
    let Ok(guest) = run.player(from).await else {
        return;
    };
    let credentials = json!({"username": HONEST_ACCOUNT, "password": HONEST_PASSWORD});
    let _ = run
        .request_from(
            from,
            "POST",
            "/api/account/signup",
            Some(&guest),
            Some(credentials.clone()),
        )
        .await;
    let mut device: Option<String> = None;
    while !run.over() {
        let cookie = match &device {
            Some(d) => format!("{guest}; {d}"),
            None => guest.clone(),
        };
        let answer = run
            .request_from(
                from,
                "POST",
                "/api/account/login",
                Some(&cookie),
                Some(credentials.clone()),
            )
            .await;
        abuse.honest_logins.fetch_add(1, Ordering::Relaxed);
        match answer {
            Ok((status, headers, _)) if status.is_success() => {
                if let Some(d) = headers
                    .get_all("set-cookie")
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .filter_map(|v| cookie::Cookie::parse(v).ok())
                    .find(|c| c.name().ends_with("awale_device"))
                {
                    device = Some(format!("{}={}", d.name(), d.value()));
                }
                abuse.honest_ready.store(true, Ordering::Relaxed);
            }
            _ => {
                abuse.honest_logins_refused.fetch_add(1, Ordering::Relaxed);
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Issue 38, findings 4 and 5: wrong passwords at the honest account,
/// once it has logged in a first time, as fast as the server answers.
async fn login_flood((run, abuse): Shared, from: Option<IpAddr>) {
    while !run.over() && !abuse.honest_ready.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let wrong = json!({"username": HONEST_ACCOUNT, "password": "not the password"});
    while !run.over() {
        let answer = status_of(
            &run,
            from,
            "POST",
            "/api/account/login",
            None,
            Some(wrong.clone()),
        )
        .await;
        abuse.logins.note(&answer);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Finding 5: chat, reactions and renames from made-up players (a new one
/// each time), in the games the lobby shows, about 50 rounds a second.
async fn chatter((run, abuse): Shared, from: Option<IpAddr>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x0C4A_7000);
    let mut games: Vec<String> = Vec::new();
    let mut looked = Instant::now() - Duration::from_secs(10);
    while !run.over() {
        if looked.elapsed() >= Duration::from_secs(1) {
            looked = Instant::now();
            if let Ok((StatusCode::OK, _, body)) = run
                .request_from(from, "GET", "/api/lobby", None, None)
                .await
            {
                if let Ok(lobby) = serde_json::from_slice::<Value>(&body) {
                    games = ["live", "challenges"]
                        .iter()
                        .filter_map(|k| lobby[k].as_array())
                        .flatten()
                        .filter_map(|g| {
                            g["id"]
                                .as_str()
                                .or_else(|| g["game"]["id"].as_str())
                                .map(String::from)
                        })
                        .collect();
                }
            }
        }
        if games.is_empty() {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let game = &games[rng.random_range(0..games.len())];
        let cookie = made_up(&mut rng);
        let c = Some(cookie.as_str());
        let chat = json!({"room": "public", "text": "spam spam spam"});
        let path = format!("/api/games/{game}/chat");
        abuse
            .chat
            .note(&status_of(&run, from, "POST", &path, c, Some(chat)).await);
        let path = format!("/api/games/{game}/react");
        let react = json!({"kind": "applause"});
        abuse
            .reactions
            .note(&status_of(&run, from, "POST", &path, c, Some(react)).await);
        let name = json!({"name": format!("Spam {}", rng.random_range(0..1000))});
        abuse
            .renames
            .note(&status_of(&run, from, "POST", "/api/me", c, Some(name)).await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An account of the stranger's, signed up from `from` on a browser of its
/// own: its cookies (player and session) and its name.
async fn stranger_account(run: &Run, from: Option<IpAddr>, name: &str) -> anyhow::Result<String> {
    let player = run.player(from).await?;
    let body = json!({"username": name, "password": "farmed rating seeds"});
    let (status, headers, answer) = run
        .request_from(
            from,
            "POST",
            "/api/account/signup",
            Some(&player),
            Some(body),
        )
        .await?;
    anyhow::ensure!(
        status == StatusCode::CREATED,
        "sign-up {name}: {status} {}",
        String::from_utf8_lossy(&answer)
    );
    let session = headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| cookie::Cookie::parse(v).ok())
        .find(|c| c.name().ends_with("awale_session"))
        .map(|c| format!("{}={}", c.name(), c.value()))
        .ok_or_else(|| anyhow::anyhow!("no session cookie for {name}"))?;
    Ok(format!("{player}; {session}"))
}

/// A request's answer as JSON (status, body; Null when it is not JSON).
async fn call(
    run: &Run,
    from: Option<IpAddr>,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> anyhow::Result<(StatusCode, Value)> {
    let (status, _, body) = run
        .request_from(from, method, path, Some(cookie), body)
        .await?;
    Ok((status, serde_json::from_slice(&body).unwrap_or(Value::Null)))
}

/// `name`'s rating points above the start, summed over its speeds.
async fn points_above_start(run: &Run, from: Option<IpAddr>, cookie: &str, name: &str) -> i64 {
    match call(
        run,
        from,
        "GET",
        &format!("/api/players/{name}"),
        cookie,
        None,
    )
    .await
    {
        Ok((StatusCode::OK, page)) => page["ratings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["rating"].as_i64())
            .map(|r| r - 1500)
            .sum(),
        _ => 0,
    }
}

/// Plays `moves` plies of game `id` between two players (whoever is to
/// move plays its first legal move): whether all were played.
async fn play_plies(
    run: &Run,
    players: [(Option<IpAddr>, &str); 2],
    id: &str,
    moves: usize,
) -> bool {
    let path = format!("/api/games/{id}/moves");
    for _ in 0..moves {
        let Ok(head) = game_head(run, players[0].0, players[0].1, id).await else {
            return false;
        };
        let Some(mv) = head.legal.first().cloned() else {
            return false;
        };
        let mut played = false;
        for (from, cookie) in players {
            let body = json!({"move": mv});
            if let Ok((StatusCode::OK, _)) =
                call(run, from, "POST", &path, cookie, Some(body)).await
            {
                played = true;
                break;
            }
        }
        if !played {
            return false;
        }
    }
    true
}

/// Issue 38, finding 1: two accounts from one address farm a rating. A
/// public rated 3+2 game, taken by the other; one move each (then, in the
/// second half, two each), the farmer's partner resigns; both ask a
/// rematch, again and again. Reports the farmer's points above the start.
async fn rating_farm((run, abuse): Shared) {
    let from = Some(IpAddr::from([127, 2, 0, 5]));
    let tag = std::process::id() % 10_000;
    let (farmer_name, partner_name) = (format!("farm{tag}a"), format!("farm{tag}b"));
    let accounts = async {
        let farmer = stranger_account(&run, from, &farmer_name).await?;
        let partner = stranger_account(&run, from, &partner_name).await?;
        anyhow::Ok((farmer, partner))
    };
    let (farmer, partner) = match accounts.await {
        Ok(a) => a,
        Err(e) => {
            *abuse.farm.lock().unwrap_or_else(|p| p.into_inner()) =
                json!({"error": format!("{e:#}"), "rated_points_gained": 0});
            return;
        }
    };
    let (mut games, mut rated, mut refused) = (0u64, 0u64, 0u64);
    let body = json!({"mode": "online", "human": "S", "public": true, "rated": true,
                      "clock": {"minutes": 3, "increment_seconds": 2}});
    let made = call(&run, from, "POST", "/api/games", &farmer, Some(body)).await;
    let mut game = match made {
        Ok((StatusCode::CREATED, v)) => v["id"].as_str().map(String::from),
        _ => None,
    };
    if let Some(id) = &game {
        let join = format!("/api/games/{id}/join");
        if !matches!(
            call(&run, from, "POST", &join, &partner, Some(json!({}))).await,
            Ok((StatusCode::OK, _))
        ) {
            game = None;
        }
    }
    let half = run.deadline - (run.deadline - Instant::now()) / 2;
    while let Some(id) = game.take() {
        if run.over() {
            break;
        }
        games += 1;
        // The farmer is South in the first game, the colours swap after.
        let moves = if Instant::now() < half { 2 } else { 4 };
        let players = [(from, farmer.as_str()), (from, partner.as_str())];
        if !play_plies(&run, players, &id, moves).await {
            break;
        }
        let resign = format!("/api/games/{id}/resign");
        let _ = call(&run, from, "POST", &resign, &partner, Some(json!({}))).await;
        if let Ok((_, view)) = call(
            &run,
            from,
            "GET",
            &format!("/api/games/{id}"),
            &farmer,
            None,
        )
        .await
        {
            if view["rated"] == json!(true) {
                rated += 1;
            }
        }
        let rematch = format!("/api/games/{id}/rematch");
        let _ = call(&run, from, "POST", &rematch, &farmer, Some(json!({}))).await;
        match call(&run, from, "POST", &rematch, &partner, Some(json!({}))).await {
            Ok((StatusCode::OK, view)) => {
                game = view["offers"]["rematch_id"].as_str().map(String::from);
            }
            _ => refused += 1,
        }
    }
    let gained = points_above_start(&run, from, &farmer, &farmer_name).await;
    *abuse.farm.lock().unwrap_or_else(|p| p.into_inner()) = json!({
        "games": games,
        "rated_games": rated,
        "rematches_refused": refused,
        "rated_points_gained": gained,
    });
}

/// Issue 38, finding 2: a rated game between two accounts on two
/// addresses; after two moves each the loser asks a "continue on another
/// device" link for a fresh guest, which would resign. Reports whether
/// the loss was dodged (the loser's rating unchanged).
async fn seat_handover((run, abuse): Shared) {
    let (winner_at, loser_at) = (
        Some(IpAddr::from([127, 2, 0, 6])),
        Some(IpAddr::from([127, 2, 0, 7])),
    );
    let tag = std::process::id() % 10_000;
    let (winner_name, loser_name) = (format!("hand{tag}a"), format!("hand{tag}b"));
    let report = async {
        let winner = stranger_account(&run, winner_at, &winner_name).await?;
        let loser = stranger_account(&run, loser_at, &loser_name).await?;
        let body = json!({"mode": "online", "human": "S", "public": true, "rated": true,
                          "clock": {"minutes": 3, "increment_seconds": 2}});
        let (status, made) =
            call(&run, winner_at, "POST", "/api/games", &winner, Some(body)).await?;
        anyhow::ensure!(status == StatusCode::CREATED, "rated game: {status} {made}");
        let id = made["id"].as_str().unwrap_or_default().to_string();
        let join = format!("/api/games/{id}/join");
        let (status, joined) = call(&run, loser_at, "POST", &join, &loser, Some(json!({}))).await?;
        anyhow::ensure!(status == StatusCode::OK, "join: {status} {joined}");
        let players = [(winner_at, winner.as_str()), (loser_at, loser.as_str())];
        anyhow::ensure!(play_plies(&run, players, &id, 4).await, "moves");
        let link = format!("/api/games/{id}/handoff");
        let (status, answer) = call(&run, loser_at, "POST", &link, &loser, Some(json!({}))).await?;
        let handed = status == StatusCode::OK;
        if handed {
            // The fresh guest takes the seat and resigns.
            let guest = run.player(loser_at).await?;
            let token = answer["link"]
                .as_str()
                .and_then(|l| l.split("continue=").nth(1))
                .unwrap_or_default()
                .to_string();
            let body = json!({"token": token});
            call(&run, loser_at, "POST", "/api/handoff", &guest, Some(body)).await?;
            let resign = format!("/api/games/{id}/resign");
            call(&run, loser_at, "POST", &resign, &guest, Some(json!({}))).await?;
        } else {
            let resign = format!("/api/games/{id}/resign");
            call(&run, loser_at, "POST", &resign, &loser, Some(json!({}))).await?;
        }
        let (_, view) = call(
            &run,
            winner_at,
            "GET",
            &format!("/api/games/{id}"),
            &winner,
            None,
        )
        .await?;
        let lost = points_above_start(&run, loser_at, &loser, &loser_name).await;
        anyhow::Ok(json!({
            "handoff": status.as_u16(),
            "refused_as": answer["error"],
            "rated": view["rated"],
            "loser_points": lost,
            "loss_dodged": view["rated"] == json!(true) && lost == 0,
        }))
    };
    let report = report
        .await
        .unwrap_or_else(|e| json!({"error": format!("{e:#}"), "loss_dodged": false}));
    *abuse.handover.lock().unwrap_or_else(|p| p.into_inner()) = report;
}

/// The routes issue 38's last session added, pushed on from an address of
/// the stranger's own by a player's account (no rank, no token): the
/// moderators' desk (403 each), the bots' ladder joined with the cookie
/// (401 each: the ladder is a bot's, through its token), and puzzle
/// streaks started as fast as the server answers (a write each: refused
/// past the player's limit).
async fn new_routes((run, abuse): Shared) {
    let from = Some(IpAddr::from([127, 2, 0, 8]));
    let name = format!("push{}", std::process::id() % 10_000);
    let cookie = match stranger_account(&run, from, &name).await {
        Ok(c) => c,
        Err(e) => {
            *abuse.routes_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!("{e:#}"));
            return;
        }
    };
    let c = Some(cookie.as_str());
    while !run.over() {
        let desk = status_of(&run, from, "GET", "/api/moderation/desk", c, None).await;
        abuse.desk.note(&desk);
        for rung in ["bullet", "blitz"] {
            let path = format!("/api/bot/ladder/{rung}/join");
            let joined = status_of(&run, from, "POST", &path, c, Some(json!({}))).await;
            abuse.ladder_joins.note(&joined);
        }
        for _ in 0..5 {
            let path = "/api/study/puzzles/streak";
            let started = status_of(&run, from, "POST", path, c, Some(json!({}))).await;
            abuse.streaks.note(&started);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
