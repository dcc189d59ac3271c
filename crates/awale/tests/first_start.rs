//! Issue 40, ready on first start: `awale serve` on a fresh machine (a
//! fresh user data folder) builds the endgame databases it lacks in the
//! background, puzzles within a minute; a restart resumes; `--db none`
//! builds nothing. A real process over HTTP.

mod webdriver;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use webdriver::{http, temp_dir, Process};

/// `awale serve` with `home` as the user's data folder (where the
/// databases go by default) and `more` arguments; its address and log.
fn serve(home: &Path, more: &[&str]) -> (Process, String, Arc<Mutex<String>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(home.join("games"))
        .args(more)
        .env("XDG_DATA_HOME", home)
        .env("HOME", home)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("awale serve starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
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
        .map(|a| a.trim_end_matches('/').to_string())
        .unwrap_or_else(|| panic!("awale serve printed no address: {line}"));
    (Process(child), addr, log)
}

fn study(addr: &str) -> Value {
    let (status, body) = http(addr, "GET", "/api/study", None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 200);
    serde_json::from_slice(&body).unwrap()
}

/// Asks `GET /api/study` until `done` holds of it, for at most `limit`.
fn wait_for(addr: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let info = study(addr);
        if done(&info) {
            return info;
        }
        assert!(
            start.elapsed() < limit,
            "not within {limit:?}; last answer: {info}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_first_start_builds_the_databases_in_the_background_puzzles_within_a_minute() {
    let home = temp_dir("first-start");
    let db = home.join("awale").join("db").join("forbidden-nobody");
    let (server, addr, log) = serve(&home, &[]);
    // At once: the page is served, the build under way.
    let first = study(&addr);
    assert_eq!(first["databases"]["target"], 20, "{first}");
    let info = wait_for(&addr, Duration::from_secs(60), |i| i["puzzles"] == true);
    let ready = info["databases"]["ready"].as_u64().expect("a level ready");
    assert!(ready >= 5, "{info}");
    assert_eq!(info["databases"]["target"], 20);
    // A puzzle comes, and the computer plays with the levels built.
    let (status, _) = http(&addr, "GET", "/api/study/puzzles/daily", None).unwrap();
    assert_eq!(status, 200);
    let (_, body) = http(&addr, "GET", "/api/info", None).unwrap();
    let about: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(about["oracle"], true, "{about}");
    let said = log.lock().unwrap().clone();
    assert!(
        said.contains("perfect play and puzzles: levels up to"),
        "{said}"
    );
    // Stopped in the middle (the test does not wait for level 20): the
    // levels written are whole, the one being built is not among them.
    drop(server);
    let built: Vec<String> = std::fs::read_dir(&db)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".awdb"))
        .collect();
    assert!(built.len() > 5, "{built:?}");

    // Started again with a lower target: it resumes (here: has it all).
    let (_server, addr, _) = serve(&home, &["--db-levels", "8"]);
    let info = wait_for(&addr, Duration::from_secs(60), |i| {
        i["databases"]["building"] == false
    });
    assert!(info["databases"]["ready"].as_u64().unwrap() >= 8, "{info}");
    assert_eq!(info["puzzles"], true);
    assert_eq!(info["databases"]["stopped"], Value::Null);
}

#[test]
fn db_none_builds_nothing_and_uses_nothing() {
    let home = temp_dir("db-none");
    let (_server, addr, _) = serve(&home, &["--db", "none"]);
    std::thread::sleep(Duration::from_millis(500));
    let info = study(&addr);
    assert_eq!(info["puzzles"], false, "{info}");
    assert_eq!(info["databases"], Value::Null);
    assert!(!home.join("awale").join("db").exists());
    let refused = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            "none",
            "--db-levels",
            "8",
        ])
        .env("XDG_DATA_HOME", &home)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--db-levels") && err.contains("--db none"),
        "{err}"
    );
}
