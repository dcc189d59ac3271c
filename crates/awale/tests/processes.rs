//! Several `awale serve` processes, one site: three real processes on one
//! PostgreSQL database (a throwaway cluster), two players and a spectator
//! each on a different process playing a whole online game through the
//! page's API; one process killed (SIGKILL) mid-game, its player going on
//! through another; a flag armed by the killed process falling anyway,
//! once; a race for one ply between two processes won by one; `awale
//! loadtest` over two processes, one killed during the run.

#[path = "../../awale-store/tests/pg/mod.rs"]
mod pg;
mod webdriver;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A served process: killed when dropped.
struct Serve {
    child: Child,
    addr: String,
    log: PathBuf,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serve {
    /// `awale serve` on store `url` with the arguments `more`, named
    /// `name`: its log in `dir`.
    fn start_with(url: &str, dir: &std::path::Path, name: &str, more: &[&str]) -> Serve {
        let log = dir.join(format!("{name}.log"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_awale"))
            .args(["serve", "--addr", "127.0.0.1:0", "--store", url])
            .arg("--guest-key")
            .arg({
                // The tests' guest key, so `player(n)` is a guest.
                let key = dir.join("test-guest.key");
                std::fs::write(&key, "07".repeat(32)).unwrap();
                key
            })
            .args(more)
            // No databases built in the user's data folder by a test.
            .args(["--db", "none"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("awale serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .map(|a| a.trim_end_matches('/').to_string())
            .unwrap_or_else(|| {
                panic!(
                    "awale serve printed no address: {line} {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            });
        Serve { child, addr, log }
    }

    /// SIGKILL: nothing is finished, nothing is flushed.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

/// A player's cookie: guest `n` of the servers' key (`--guest-key`).
fn player(n: u8) -> String {
    let key = awale_model::secret::GuestKey::from_bytes([7; 32]);
    format!("awale_player={}", key.sign(&format!("{n:032x}")))
}

/// One request; the status and the JSON answer.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    request_with_cookies(addr, method, path, cookie, body).map(|(status, v, _)| (status, v))
}

/// The same, with the cookies the answer sets (`NAME=VALUE`).
fn request_with_cookies(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value, Vec<String>), String> {
    let timeout = Duration::from_secs(30);
    let stream = webdriver::send(addr, method, path, cookie, body.as_ref(), timeout)?;
    let mut reader = BufReader::new(stream);
    let (status, chunked, length, cookies) = read_head(&mut reader)?;
    let mut bytes = Vec::new();
    if chunked {
        while let Some(chunk) = read_chunk(&mut reader)? {
            bytes.extend(chunk);
        }
    } else if let Some(n) = length {
        bytes.resize(n, 0);
        reader
            .read_exact(&mut bytes)
            .map_err(|e| format!("read {addr}{path}: {e}"))?;
    } else {
        let _ = reader.read_to_end(&mut bytes);
    }
    Ok((
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        cookies,
    ))
}

/// An answer's status line and headers: the status, whether the body is
/// chunked, its length, and the cookies set (`NAME=VALUE`).
type Head = (u16, bool, Option<usize>, Vec<String>);

fn read_head(reader: &mut impl BufRead) -> Result<Head, String> {
    let mut status = 0;
    let mut chunked = false;
    let mut length = None;
    let mut cookies = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed before the answer".into());
        }
        if let Some((name, value)) = line.trim_end().split_once(':') {
            if name.eq_ignore_ascii_case("set-cookie") {
                let pair = value.trim().split(';').next().unwrap_or("");
                cookies.push(pair.to_string());
            }
        }
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            return Ok((status, chunked, length, cookies));
        }
        if l.starts_with("http/") {
            status = l
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        } else if l == "transfer-encoding: chunked" {
            chunked = true;
        } else if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse().ok();
        }
    }
}

fn read_chunk(reader: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut line = String::new();
    if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
        return Err("the stream ended".into());
    }
    let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
        .map_err(|_| format!("bad chunk size `{}`", line.trim()))?;
    let mut chunk = vec![0; size + 2];
    reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
    chunk.truncate(size);
    Ok((size > 0).then_some(chunk))
}

/// Events heard on one stream: name, data, when.
type Heard = Arc<Mutex<Vec<(String, Value, Instant)>>>;

/// Listens to game `id`'s events on `addr` until the stream ends.
fn listen(addr: &str, id: &str, cookie: Option<&str>) -> Heard {
    listen_to(addr, &format!("/api/games/{id}/events"), cookie)
}

/// Listens to the events of stream `path` on `addr` until it ends.
fn listen_to(addr: &str, path: &str, cookie: Option<&str>) -> Heard {
    let heard: Heard = Arc::default();
    let sink = Arc::clone(&heard);
    let addr = addr.to_string();
    let path = path.to_string();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    std::thread::spawn(move || {
        let Ok(mut stream) = TcpStream::connect(&addr) else {
            return;
        };
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Accept: text/event-stream\r\n\r\n"
        );
        if stream.write_all(head.as_bytes()).is_err() {
            return;
        }
        let mut reader = BufReader::new(stream);
        let Ok((200, true, _, _)) = read_head(&mut reader) else {
            return;
        };
        let mut text = String::new();
        while let Ok(Some(chunk)) = read_chunk(&mut reader) {
            text.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = text.find("\n\n") {
                let event: String = text.drain(..end + 2).collect();
                let mut name = "message".to_string();
                let mut data = String::new();
                for line in event.lines() {
                    if let Some(n) = line.strip_prefix("event: ") {
                        name = n.to_string();
                    } else if let Some(d) = line.strip_prefix("data: ") {
                        data.push_str(d);
                    }
                }
                let value = serde_json::from_str(&data).unwrap_or(Value::Null);
                sink.lock().unwrap().push((name, value, Instant::now()));
            }
        }
    });
    heard
}

fn ok(answer: Result<(u16, Value), String>, what: &str) -> Value {
    match answer {
        Ok((200 | 201, v)) => v,
        Ok((status, v)) => panic!("{what}: {status} {v}"),
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Two or three processes, `a`, `b` (and `c`), serving one site on a new
/// database with `awale serve`'s arguments `more`: its address, the folder
/// of their logs (kept while it lives) and them.
fn processes<const N: usize>(more: &[&str]) -> (String, tempfile::TempDir, [Serve; N]) {
    let url = pg::cluster().database();
    let dir = tempfile::tempdir().unwrap();
    let processes =
        std::array::from_fn(|i| Serve::start_with(&url, dir.path(), ["a", "b", "c"][i], more));
    (url, dir, processes)
}

/// Makes an online game on `south_at` and seats North on `north_at`.
fn online_game(south_at: &str, north_at: &str, clock: Option<Value>) -> String {
    let mut body = json!({"mode": "online", "human": "S", "name": "Ama"});
    if let Some(c) = clock {
        body["clock"] = c;
    }
    let made = ok(
        request(south_at, "POST", "/api/games", Some(&player(1)), Some(body)),
        "new game",
    );
    let id = made["id"].as_str().expect("a public id").to_string();
    // A private game: North joins with the invitation's key, from its link.
    let links = ok(
        request(
            south_at,
            "GET",
            &format!("/api/games/{id}/links"),
            Some(&player(1)),
            None,
        ),
        "links",
    );
    let key = links["invite"]
        .as_str()
        .and_then(|l| l.split_once("&k="))
        .map(|(_, k)| k.to_string())
        .expect("the invitation's key");
    ok(
        request(
            north_at,
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&player(2)),
            Some(json!({"name": "Kofi", "key": key})),
        ),
        "join",
    );
    id
}

/// Plays the first legal move (or the `pick`-th) of whoever is to move.
fn play_one(addr: &str, id: &str, pick: usize) -> Value {
    let game = ok(
        request(addr, "GET", &format!("/api/games/{id}"), None, None),
        "game",
    );
    let legal = game["legal"].as_array().expect("legal moves").clone();
    let mover = if game["to_move"] == "S" { 1 } else { 2 };
    let mv = &legal[pick % legal.len()];
    ok(
        request(
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&player(mover)),
            Some(json!({"move": mv, "ply": game["plies"].as_array().unwrap().len()})),
        ),
        "move",
    )
}

#[test]
fn three_processes_serve_one_site_through_the_loss_of_one() {
    let (url, _dir, [mut a, b, c]) = processes(&[]);

    // South plays on A, North on B, a spectator watches on C.
    let id = online_game(&a.addr, &b.addr, Some(json!({"minutes": 30})));
    let spectator = listen(&c.addr, &id, None);
    std::thread::sleep(Duration::from_millis(300));
    let mut seed: u64 = 0x9E37_79B9;
    let mut plies = 0;
    let mut south_at = a.addr.clone();
    let mut killed = false;
    let mut sent_at = Vec::new();
    let mut flagged = None;
    loop {
        let game = ok(
            request(&b.addr, "GET", &format!("/api/games/{id}"), None, None),
            "game",
        );
        if !game["end"].is_null() {
            break;
        }
        if plies == 20 && !killed {
            // A game whose flag the process about to die armed: its last
            // move was played there, 6 s each.
            let other = online_game(&a.addr, &a.addr, Some(json!({"minutes": 0.1})));
            play_one(&a.addr, &other, 0);
            play_one(&a.addr, &other, 0);
            let watch = listen(&c.addr, &other, None);
            flagged = Some((other, watch));
            a.kill();
            killed = true;
            // South's page reconnects: to another process.
            south_at = c.addr.clone();
        }
        if plies >= 300 {
            ok(
                request(
                    &b.addr,
                    "POST",
                    &format!("/api/games/{id}/resign"),
                    Some(&player(2)),
                    Some(json!({})),
                ),
                "resign",
            );
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let at = if game["to_move"] == "S" {
            &south_at
        } else {
            &b.addr
        };
        sent_at.push(Instant::now());
        play_one(at, &id, (seed >> 33) as usize);
        plies += 1;
    }
    assert!(killed, "the game ended before the kill ({plies} plies)");
    let end = ok(
        request(&c.addr, "GET", &format!("/api/games/{id}"), None, None),
        "game",
    );
    let stored = end["plies"].as_array().unwrap().len();
    assert_eq!(stored, plies, "every acknowledged move is stored");
    assert!(!end["end"].is_null());

    // The spectator on C saw every move, each within a second of its
    // sending, and the end.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let heard = spectator.lock().unwrap().clone();
        let ended = heard.iter().any(|(_, d, _)| !d["end"].is_null());
        if ended || Instant::now() > deadline {
            let mut seen = vec![false; stored];
            for (name, data, at) in &heard {
                if name == "move" {
                    let i = data["index"].as_u64().unwrap() as usize;
                    seen[i] = true;
                    let late = at.duration_since(sent_at[i]);
                    assert!(
                        late < Duration::from_secs(1),
                        "move {i} reached C after {late:?}"
                    );
                }
                if name == "state" {
                    let known = data["plies"].as_array().map_or(0, Vec::len);
                    seen.iter_mut().take(known).for_each(|s| *s = true);
                }
            }
            assert!(ended, "the spectator did not see the end");
            let missing: Vec<usize> = (0..stored).filter(|i| !seen[*i]).collect();
            assert!(
                missing.is_empty(),
                "moves the spectator missed: {missing:?}"
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }

    // The flag armed on A fell, on B or C: South ran out of time.
    let (flagged, flag_watch) = flagged.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let fallen = loop {
        let game = ok(
            request(&b.addr, "GET", &format!("/api/games/{flagged}"), None, None),
            "game",
        );
        if !game["end"].is_null() {
            break game;
        }
        assert!(Instant::now() < deadline, "the flag did not fall: {game}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(fallen["end"]["reason"], "time", "{fallen}");
    assert_eq!(fallen["end"]["loser_by"], "S");
    std::thread::sleep(Duration::from_millis(500));
    let ends = flag_watch
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, d, _)| d["end"]["reason"] == "time")
        .count();
    assert_eq!(ends, 1, "the flag fell once for the watcher on C");
    assert_eq!(
        pg::cluster().psql(
            &url,
            &format!("SELECT stop FROM games WHERE public_id = '{flagged}'")
        ),
        "time S"
    );
    for s in [&b, &c] {
        let log = std::fs::read_to_string(&s.log).unwrap_or_default();
        assert!(!log.contains("ERROR"), "{log}");
    }
}

/// The statements the cluster logged from offset `from` of its log on,
/// each with the program that sent it (`application_name`); a statement
/// of several lines whole (the lines after its first carry no prefix).
fn statements_since(from: u64) -> Vec<(String, String)> {
    let mut log = std::fs::File::open(pg::cluster().dir.join("server.log")).unwrap();
    std::io::Seek::seek(&mut log, std::io::SeekFrom::Start(from)).unwrap();
    let mut text = String::new();
    log.read_to_string(&mut text).unwrap();
    let mut said: Vec<(String, String)> = Vec::new();
    // Whether the last line read began a statement (its next lines go on).
    let mut open = false;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            if let (true, Some((_, sql))) = (open, said.last_mut()) {
                sql.push('\n');
                sql.push_str(line.trim());
            }
            continue;
        }
        open = false;
        let Some((_, rest)) = line.split_once("] ") else {
            continue;
        };
        let Some((who, text)) = rest.split_once(": LOG:  ") else {
            continue;
        };
        let sql = text.strip_prefix("statement: ").or_else(|| {
            text.split_once(": ")
                .filter(|(k, _)| k.starts_with("execute"))
                .map(|(_, q)| q)
        });
        if let Some(sql) = sql {
            said.push((who.to_string(), sql.to_string()));
            open = true;
        }
    }
    said
}

/// The length of the cluster's log now.
fn log_length() -> u64 {
    std::fs::metadata(pg::cluster().dir.join("server.log"))
        .unwrap()
        .len()
}

/// Whether statement `sql` reads a game: its row (`SELECT created_ms, ...`,
/// the first line of the game's columns), its moves or its ratings.
fn reads_a_game(sql: &str) -> bool {
    sql.starts_with("SELECT created_ms, rules, start")
        || sql.contains("FROM moves")
        || sql.contains("FROM rating_changes")
}

#[test]
fn an_idle_process_reads_nothing_of_the_games_it_does_not_serve() {
    // Three processes, each naming itself to the database; every
    // statement of this test's database logged.
    let url = pg::cluster().database();
    let name = url.rsplit('/').next().unwrap().to_string();
    pg::cluster().psql(
        &url,
        &format!("ALTER DATABASE {name} SET log_statement = 'all'"),
    );
    let dir = tempfile::tempdir().unwrap();
    let [mut a, b, c] = ["a", "b", "c"].map(|n| {
        Serve::start_with(
            &format!("{url}?application_name=awale-{n}"),
            dir.path(),
            n,
            &[],
        )
    });

    // Both players on A, a spectator on B, nobody on C.
    let id = online_game(&a.addr, &a.addr, Some(json!({"minutes": 30})));
    let spectator = listen(&b.addr, &id, None);
    std::thread::sleep(Duration::from_millis(500));
    let from = log_length();
    let moves = 30;
    for n in 0..moves {
        play_one(&a.addr, &id, n);
    }
    // B's spectator saw them all (several moves stored before B read them
    // come as one `state`).
    let deadline = Instant::now() + Duration::from_secs(10);
    let seen = || {
        let heard = spectator.lock().unwrap();
        let mut seen = vec![false; moves];
        for (name, data, _) in heard.iter() {
            if name == "move" {
                if let Some(i) = data["index"].as_u64() {
                    seen[i as usize] = true;
                }
            }
            if name == "state" {
                let known = data["plies"].as_array().map_or(0, Vec::len);
                seen.iter_mut().take(known).for_each(|s| *s = true);
            }
        }
        seen.iter().all(|s| *s)
    };
    while !seen() {
        assert!(
            Instant::now() < deadline,
            "B's spectator missed moves: {:?} {}",
            spectator
                .lock()
                .unwrap()
                .iter()
                .map(|(n, d, _)| format!("{n} {}", d["index"]))
                .collect::<Vec<_>>(),
            std::fs::read_to_string(&b.log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let said = statements_since(from);
    let of = |who: &str| -> Vec<&String> {
        said.iter()
            .filter(|(w, _)| w == who)
            .map(|(_, sql)| sql)
            .collect()
    };
    let (by_a, by_b, by_c) = (of("awale-a"), of("awale-b"), of("awale-c"));
    assert!(by_a.len() >= moves, "A's statements not logged: {said:?}");
    // C serves nobody in this game: it read nothing of it.
    let read_by_c: Vec<_> = by_c.iter().filter(|sql| reads_a_game(sql)).collect();
    assert!(
        read_by_c.is_empty(),
        "C read a game it does not serve: {read_by_c:?}"
    );
    // B, whose client watches, applied each move from its notice (the
    // notice carries what the change wrote): it read nothing of the game
    // either (issue 39).
    let read_by_b: Vec<_> = by_b.iter().filter(|sql| reads_a_game(sql)).collect();
    assert!(
        read_by_b.is_empty(),
        "B read the game its spectator watches: {read_by_b:?}"
    );
    eprintln!(
        "statements during {moves} moves: A {}, B {}, C {} (C's: {:?})",
        by_a.len(),
        by_b.len(),
        by_c.len(),
        by_c
    );

    // A game whose clock runs on A only, nobody else serving it: A killed,
    // its flag falls anyway (taken over by B or C from the store), once.
    let flagged = online_game(&a.addr, &a.addr, Some(json!({"minutes": 0.1})));
    play_one(&a.addr, &flagged, 0);
    play_one(&a.addr, &flagged, 0);
    let revision = |what: &str| {
        pg::cluster().psql(
            &url,
            &format!("SELECT {what} FROM games WHERE public_id = '{flagged}'"),
        )
    };
    let before: i64 = revision("revision").parse().unwrap();
    a.kill();
    let deadline = Instant::now() + Duration::from_secs(30);
    while revision("COALESCE(stop, '')").is_empty() {
        assert!(Instant::now() < deadline, "the flag did not fall");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(revision("stop"), "time S");
    // B and C both look for overdue flags: one stored the fall.
    std::thread::sleep(Duration::from_secs(5));
    let after: i64 = revision("revision").parse().unwrap();
    assert_eq!(after, before + 1, "the fall was stored more than once");
    for s in [&b, &c] {
        let log = std::fs::read_to_string(&s.log).unwrap_or_default();
        assert!(!log.contains("ERROR"), "{log}");
    }
}

#[test]
fn of_two_processes_sent_one_ply_one_plays_it() {
    let (_url, _dir, [a, b]) = processes(&[]);
    let id = online_game(&a.addr, &b.addr, None);
    // Both processes hold the game.
    for s in [&a, &b] {
        ok(
            request(&s.addr, "GET", &format!("/api/games/{id}"), None, None),
            "game",
        );
    }
    // South sends two different moves for ply 0, one to each process, at once.
    let send = |addr: String, mv: &'static str| {
        let id = id.clone();
        std::thread::spawn(move || {
            request(
                &addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&player(1)),
                Some(json!({"move": mv, "ply": 0})),
            )
        })
    };
    let one = send(a.addr.clone(), "D");
    let two = send(b.addr.clone(), "E");
    let answers = [one.join().unwrap().unwrap(), two.join().unwrap().unwrap()];
    let played: Vec<&(u16, Value)> = answers.iter().filter(|(s, _)| *s == 200).collect();
    assert_eq!(played.len(), 1, "{answers:?}");
    let refused: Vec<&(u16, Value)> = answers.iter().filter(|(s, _)| *s != 200).collect();
    assert_eq!(refused[0].0, 409, "{answers:?}");
    assert_eq!(refused[0].1["error"], "stale", "{answers:?}");
    for s in [&a, &b] {
        let game = ok(
            request(&s.addr, "GET", &format!("/api/games/{id}"), None, None),
            "game",
        );
        assert_eq!(game["plies"].as_array().unwrap().len(), 1, "{game}");
    }
}

#[test]
fn a_load_over_two_processes_loses_nothing_when_one_is_killed() {
    // Processes with their default options (issue 39): each simulated
    // client connects from a loopback address of its own, so their
    // limits per address apply to each as to a real player.
    let (url, _dir, [mut a, b]) = processes(&[]);
    let load = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args([
            "loadtest", "--addr", &a.addr, "--addr", &b.addr, "--store", &url,
        ])
        .args(["--games", "6", "--spectators", "6", "--seconds", "5"])
        .args(["--think-ms", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("awale loadtest");
    std::thread::sleep(Duration::from_millis(2_000));
    a.kill();
    let out = load.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout} {stderr}");
    let report: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    assert_eq!(report["errors"], 0, "{report} {stderr}");
    assert_eq!(report["lost"], 0, "{report}");
    assert_eq!(report["gone"], json!([a.addr]), "{report}");
    assert!(report["failovers"].as_u64().unwrap() > 0, "{report}");
    assert!(report["moves"].as_u64().unwrap() > 100, "{report}");
    // Every acknowledged move is in the database: at least as many there.
    let stored: u64 = pg::cluster()
        .psql(&url, "SELECT COUNT(*) FROM moves")
        .parse()
        .unwrap();
    assert!(
        stored >= report["moves"].as_u64().unwrap(),
        "{stored} {report}"
    );
}

/// Seeks in pool `3+2` on `addr` as player `n`, waiting up to `wait_s`.
fn seek(addr: &str, n: u8, name: &str, wait_s: u64) -> Value {
    ok(
        request(
            addr,
            "POST",
            &format!("/api/pools/3+2/seek?wait_s={wait_s}"),
            Some(&player(n)),
            Some(json!({"name": name})),
        ),
        "seek",
    )
}

#[test]
fn seekers_on_two_processes_are_paired_into_one_game() {
    let (_url, _dir, [a, b]) = processes(&[]);
    // One who seeks on A, then cancels, is paired with nobody.
    let waiting = seek(&a.addr, 9, "Esi", 0);
    assert!(waiting["waiting"].is_object(), "{waiting}");
    let cancelled = ok(
        request(&a.addr, "POST", "/api/pools/cancel", Some(&player(9)), None),
        "cancel",
    );
    assert_eq!(cancelled["cancelled"], true, "{cancelled}");
    // Two guests, each on their own process, both waiting for news.
    let (a_addr, b_addr) = (a.addr.clone(), b.addr.clone());
    let ama = std::thread::spawn(move || seek(&a_addr, 1, "Ama", 20));
    let kofi = std::thread::spawn(move || seek(&b_addr, 2, "Kofi", 20));
    let (ama, kofi) = (ama.join().unwrap(), kofi.join().unwrap());
    let (ama, kofi) = (&ama["paired"], &kofi["paired"]);
    assert!(ama["game"].is_string(), "Ama: {ama}");
    assert_eq!(ama["game"], kofi["game"], "one game for both");
    assert_ne!(ama["side"], kofi["side"]);
    assert_eq!(ama["rated"], false, "guests play casual");
    // The game is there on either process, both seated, Esi in neither.
    let id = ama["game"].as_str().unwrap();
    for s in [&a, &b] {
        let game = ok(
            request(&s.addr, "GET", &format!("/api/games/{id}"), None, None),
            "game",
        );
        let names: Vec<&str> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|seat| seat["name"].as_str())
            .collect();
        assert_eq!(names.len(), 2, "{game}");
        assert!(names.contains(&"Ama") && names.contains(&"Kofi"), "{game}");
    }
    // Nobody is left seeking, on either process, once each has paired
    // again (each counts at its own rounds).
    for s in [&a, &b] {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pools = ok(request(&s.addr, "GET", "/api/pools", None, None), "pools");
            if !pools.to_string().contains("\"seeking\":1") {
                break;
            }
            assert!(Instant::now() < deadline, "still seeking: {pools}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Signs up account `name` on `addr` as the guest numbered `n`; the
/// cookies to send as that player from then on.
fn sign_up(addr: &str, n: u8, name: &str) -> String {
    let guest = player(n);
    let (status, answer, cookies) = request_with_cookies(
        addr,
        "POST",
        "/api/account/signup",
        Some(&guest),
        Some(json!({"username": name, "password": "sowing seeds 2026"})),
    )
    .unwrap();
    assert!(status < 300, "sign-up of {name}: {status} {answer}");
    let session = cookies
        .iter()
        .find(|c| c.starts_with("awale_session="))
        .unwrap_or_else(|| panic!("no session cookie for {name}: {cookies:?}"));
    format!("{guest}; {session}")
}

/// Issue 24: an arena over three processes on one database, through the
/// public API as the page uses it. Four accounts, each signed up and
/// playing on a process of its own (two on the first); the arena made on
/// the first; every game found and played where its player is; the
/// standings the same on every process as results come in; closed on the
/// first, the podium seen on the others.
#[test]
fn an_arena_over_three_processes_is_joined_played_and_ended_on_any() {
    let (_url, _dir, [a, b, c]) = processes(&[]);
    let at = [&a.addr, &b.addr, &c.addr, &a.addr];
    let names = ["Ama", "Kofi", "Esi", "Yaw"];
    let cookies: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, name)| sign_up(at[i], i as u8 + 1, name))
        .collect();
    // Player `i`'s request (`what`), on its process, with its cookies.
    let as_player = |i: usize, method: &str, path: &str, body: Option<Value>, what: &str| {
        ok(request(at[i], method, path, Some(&cookies[i]), body), what)
    };
    let arena =
        json!({"name": "Evening arena", "minutes_each": 3, "increment_s": 2, "minutes": 30});
    let made = as_player(0, "POST", "/api/tournaments", Some(arena), "new arena");
    let id = made["id"].as_i64().expect("an arena");
    let path = format!("/api/tournaments/{id}");
    for i in 0..4 {
        as_player(i, "POST", &format!("{path}/join"), Some(json!({})), "join");
    }
    // Each plays where they are: a move while it is theirs, then South
    // resigns once both have sown, until two games are over.
    let total = |view: &Value| -> u64 {
        view["standings"]
            .as_array()
            .map(|lines| lines.iter().filter_map(|l| l["score"].as_u64()).sum())
            .unwrap_or(0)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let seen = ok(request(&c.addr, "GET", &path, None, None), "arena");
        if total(&seen) >= 4 {
            break;
        }
        assert!(Instant::now() < deadline, "two games not over: {seen}");
        for i in 0..4 {
            let mine = as_player(i, "GET", &path, None, "arena");
            let Some(game) = mine["your_game"].as_str() else {
                continue;
            };
            let view = as_player(i, "GET", &format!("/api/games/{game}"), None, "game");
            let you = view["you"].as_array().cloned().unwrap_or_default();
            let plies = view["plies"].as_array().map_or(0, Vec::len);
            if !view["end"].is_null() || you.is_empty() {
                continue;
            }
            if plies >= 2 && you.contains(&json!("S")) {
                let resign = format!("/api/games/{game}/resign");
                as_player(i, "POST", &resign, Some(json!({})), "resign");
            } else if plies < 2 && you.contains(&view["to_move"]) {
                let mv = json!({"move": view["legal"][0], "ply": plies});
                let moves = format!("/api/games/{game}/moves");
                as_player(i, "POST", &moves, Some(mv), "move");
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // The same standings on every process (each reads the change again
    // when told of it).
    let standings = |addr: &str| {
        let view = ok(request(addr, "GET", &path, None, None), "arena");
        let mut lines: Vec<(String, u64)> = view["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["name"].as_str().unwrap().to_string(),
                    l["score"].as_u64().unwrap(),
                )
            })
            .collect();
        lines.sort();
        lines
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while standings(&a.addr) != standings(&b.addr) || standings(&b.addr) != standings(&c.addr) {
        assert!(Instant::now() < deadline, "the processes disagree");
        std::thread::sleep(Duration::from_millis(50));
    }
    let winners = standings(&b.addr).iter().filter(|(_, s)| *s >= 2).count();
    assert!(winners >= 2, "{:?}", standings(&b.addr));

    // Its maker ends it on the first process; the others show the end.
    as_player(
        0,
        "POST",
        &format!("{path}/close"),
        Some(json!({})),
        "close",
    );
    // Its games in play finish first (issue 42: the results pending until
    // then): each is resigned, once, where its player is.
    let mut resigned = Vec::new();
    for i in 0..4 {
        let mine = as_player(i, "GET", &path, None, "arena");
        if let Some(game) = mine["your_game"].as_str() {
            if !resigned.contains(&game.to_string()) {
                let resign = format!("/api/games/{game}/resign");
                as_player(i, "POST", &resign, Some(json!({})), "resign");
                resigned.push(game.to_string());
            }
        }
    }
    for addr in [&b.addr, &c.addr] {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let view = ok(request(addr, "GET", &path, None, None), "arena");
            if view["state"] == "finished"
                && view["podium"].as_array().is_some_and(|p| p.len() == 3)
            {
                break;
            }
            assert!(Instant::now() < deadline, "not ended on {addr}: {view}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Waits until `heard` holds an event named `name` whose data passes
/// `check`; panics after `seconds`.
fn heard_event(heard: &Heard, name: &str, check: impl Fn(&Value) -> bool, seconds: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let found = heard
            .lock()
            .unwrap()
            .iter()
            .find(|(n, v, _)| n == name && check(v))
            .map(|(_, v, _)| v.clone());
        if let Some(v) = found {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "no `{name}` event heard: {:?}",
            heard.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 24: what one process is told reaches the players on another at
/// once: a direct challenge made on the first is seen live by the
/// challenged on the second, who accepts it there; the challenger, on the
/// first, is told where the game is. A line said in a tournament's chat
/// on the first is heard on the third, and its removal by a moderator too;
/// a line said in their game on the first is heard on the others by its
/// room's audience.
#[test]
fn challenges_and_a_tournaments_chat_reach_the_players_on_other_processes() {
    let (url, _dir, [a, b, c]) = processes(&[]);
    let ama = sign_up(&a.addr, 1, "Ama");
    let kofi = sign_up(&b.addr, 2, "Kofi");
    let ama_hears = listen_to(&a.addr, "/api/me/events", Some(&ama));
    let kofi_hears = listen_to(&b.addr, "/api/me/events", Some(&kofi));
    std::thread::sleep(Duration::from_millis(300));
    let made = ok(
        request(
            &a.addr,
            "POST",
            "/api/challenges",
            Some(&ama),
            Some(json!({"to": "Kofi", "clock": {"minutes": 5, "increment_seconds": 3}})),
        ),
        "challenge",
    );
    let id = made["id"].as_i64().expect("a challenge");
    let seen = heard_event(&kofi_hears, "challenge", |v| v["id"] == id, 5);
    assert_eq!(
        (seen["from"].as_str(), seen["state"].as_str()),
        (Some("Ama"), Some("open"))
    );
    ok(
        request(
            &b.addr,
            "POST",
            &format!("/api/challenges/{id}/accept"),
            Some(&kofi),
            Some(json!({})),
        ),
        "accept",
    );
    let told = heard_event(
        &ama_hears,
        "challenge",
        |v| v["id"] == id && v["state"] == "accepted",
        5,
    );
    assert!(told["game"].is_string(), "{told}");

    // A tournament's room: said on the first, heard on the third.
    let arena = ok(
        request(
            &a.addr,
            "POST",
            "/api/tournaments",
            Some(&ama),
            Some(json!({"name": "Chat arena", "minutes_each": 3, "increment_s": 2, "minutes": 30})),
        ),
        "arena",
    )["id"]
        .as_i64()
        .unwrap();
    let watching = listen_to(&c.addr, &format!("/api/tournaments/{arena}/events"), None);
    std::thread::sleep(Duration::from_millis(300));
    ok(
        request(
            &a.addr,
            "POST",
            &format!("/api/tournaments/{arena}/chat"),
            Some(&ama),
            Some(json!({"text": "Good luck, everyone"})),
        ),
        "say",
    );
    let line = heard_event(&watching, "chat", |v| v["text"] == "Good luck, everyone", 5);
    // A moderator (made so in the database, seen by the second process
    // once its 10 s cache of the session is over) removes it there.
    pg::cluster().psql(
        &url,
        "UPDATE accounts SET role = 'moderator' WHERE username = 'Kofi'",
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let answer = request(
            &b.addr,
            "POST",
            "/api/moderation/tournament-chat-remove",
            Some(&kofi),
            Some(json!({"tournament": arena, "line": line["id"]})),
        )
        .unwrap();
        if answer.0 < 300 {
            break;
        }
        assert!(
            answer.0 == 403 && Instant::now() < deadline,
            "remove: {answer:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    heard_event(
        &watching,
        "chat_removed",
        |v| v.to_string().contains(&line["id"].to_string()),
        5,
    );

    // The game's rooms: said on the first, heard on the others by their
    // audience (the players' room by the players only).
    let game = told["game"].as_str().unwrap().to_string();
    let events = format!("/api/games/{game}/events");
    let kofi_watches = listen_to(&b.addr, &events, Some(&kofi));
    let fan_watches = listen_to(&c.addr, &events, None);
    std::thread::sleep(Duration::from_millis(300));
    for (room, text) in [("players", "between us"), ("public", "hello all")] {
        ok(
            request(
                &a.addr,
                "POST",
                &format!("/api/games/{game}/chat"),
                Some(&ama),
                Some(json!({"room": room, "text": text})),
            ),
            "say in a game",
        );
    }
    let heard = heard_event(&kofi_watches, "chat", |v| v["room"] == "players", 5);
    assert_eq!(heard["text"], "between us", "{heard}");
    let heard = heard_event(&fan_watches, "chat", |_| true, 5);
    assert_eq!(
        heard["text"], "hello all",
        "a spectator hears the public's room only: {heard}"
    );
}
