//! `awale serve` as a real process meeting strangers' sockets: idle and
//! half-sent connections closed, connections beyond the cap refused and
//! logged, a clean stop on SIGTERM that leaves a whole games file, a warning
//! when serving every network, and a damaged games file refused at start.

mod webdriver;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::{http, temp_dir};

/// A running server, its address, and what it logged so far.
struct Server {
    child: Child,
    addr: String,
    log: Arc<Mutex<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(data: &Path, more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_awale"))
            .args(["serve", "--data"])
            .arg(data)
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("awale serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("awale serve printed nothing");
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let log = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&log);
        let mut err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).is_ok_and(|n| n > 0) {
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .trim_end_matches('/')
            .to_string();
        Server { child, addr, log }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, out) = http(&self.addr, method, path, body.as_ref()).unwrap();
        (status, serde_json::from_slice(&out).unwrap_or(Value::Null))
    }

    fn wait_log(&self, text: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.log.lock().unwrap().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

/// Whether the server closes `stream` within `seconds`.
fn closed_within(stream: &mut TcpStream, seconds: u64) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_secs(seconds)))
        .unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            // A 408 before closing is fine.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn idle_half_sent_and_stalled_connections_are_closed() {
    let dir = temp_dir("slow");
    let server = Server::start(&dir, &["--addr", "127.0.0.1:0", "--timeout", "1"]);
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let mut stalled = TcpStream::connect(&server.addr).unwrap();
    stalled
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mode\":",
        )
        .unwrap();
    for (what, stream) in [
        ("idle", &mut idle),
        ("half-sent", &mut half),
        ("stalled", &mut stalled),
    ] {
        assert!(
            closed_within(stream, 5),
            "the {what} connection is still open"
        );
    }
    // Meanwhile the server answers others.
    assert_eq!(server.call("GET", "/api/info", None).0, 200);
}

#[test]
fn connections_beyond_the_cap_are_refused_and_logged() {
    let dir = temp_dir("cap");
    let server = Server::start(
        &dir,
        &["--addr", "127.0.0.1:0", "--max-connections-per-ip", "4"],
    );
    let held: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    // Give the server a moment to count them.
    std::thread::sleep(Duration::from_millis(300));
    let mut extra = TcpStream::connect(&server.addr).unwrap();
    assert!(closed_within(&mut extra, 3), "a fifth connection was kept");
    assert!(
        server.wait_log("connection refused: too many connections from one address"),
        "nothing logged: {}",
        server.log.lock().unwrap()
    );
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.call("GET", "/api/info", None).0, 200);
}

#[test]
fn sigterm_stops_cleanly_and_the_games_file_alone_is_whole() {
    let dir = temp_dir("stop");
    let mut server = Server::start(&dir, &["--addr", "127.0.0.1:0"]);
    let (status, game) = server.call("POST", "/api/games", Some(json!({"mode": "humans"})));
    assert_eq!(status, 201);
    let id = game["id"].as_i64().unwrap();
    let moves = ["F", "f", "A", "a", "B", "b", "C", "c"];
    for (ply, m) in moves.iter().enumerate() {
        let (status, _) = server.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": m, "ply": ply})),
        );
        assert_eq!(status, 200, "{m}");
    }
    let started = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let code = loop {
        if let Some(code) = server.child.try_wait().unwrap() {
            break code;
        }
        assert!(started.elapsed() < Duration::from_secs(8), "still running");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "exit code {code:?}");
    assert!(server.wait_log("stopped"), "{}", server.log.lock().unwrap());
    // What a user backs up: the file alone, without its -wal beside it.
    let copy = temp_dir("stop-copy").join("games.sqlite");
    std::fs::copy(dir.join("games.sqlite"), &copy).unwrap();
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let stored: i64 = conn
        .query_row("SELECT COUNT(*) FROM moves WHERE game_id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored as usize, moves.len());
}

#[test]
fn serving_every_network_says_what_is_exposed() {
    let dir = temp_dir("exposed");
    let server = Server::start(&dir, &["--addr", "0.0.0.0:0"]);
    assert!(
        server.wait_log("serving to every network"),
        "{}",
        server.log.lock().unwrap()
    );
}

#[test]
fn a_damaged_games_file_stops_the_start_with_what_to_do() {
    let dir = temp_dir("damaged-start");
    let path = dir.join("games.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE t (x); BEGIN;").unwrap();
        for i in 0..3000 {
            conn.execute("INSERT INTO t VALUES (?1)", [format!("{i:08}")])
                .unwrap();
        }
        conn.execute_batch("COMMIT").unwrap();
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle..middle + 4096].fill(0xA5);
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damaged") && err.contains("backup"), "{err}");
}

#[test]
fn a_backup_taken_while_serving_holds_every_game() {
    let dir = temp_dir("backup");
    let server = Server::start(&dir, &["--addr", "127.0.0.1:0"]);
    for _ in 0..3 {
        server.call("POST", "/api/games", Some(json!({"mode": "humans"})));
    }
    let copy = temp_dir("backup-copy").join("copy.sqlite");
    let out = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(["backup", "--data"])
        .arg(&dir)
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let games: i64 = conn
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 3);
    drop(server);
}
