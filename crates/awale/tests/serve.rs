//! `awale serve` as a real process over HTTP: the endgame databases built by
//! `awale db build` reach the hints, and a bad address is a clear error.

mod webdriver;

use std::process::Command;

use serde_json::{json, Value};
use webdriver::{http, start_server_with, temp_dir};

fn call(url: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let addr = url.trim_start_matches("http://");
    let (status, out) = http(addr, method, path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{path}: {e}"));
    (status, value)
}

#[test]
fn hints_give_the_endgame_databases_exact_value() {
    let dir = temp_dir("serve-db");
    let db = dir.join("db");
    let built = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(["db", "build", "--max-seeds", "5", "--quiet", "--dir"])
        .arg(&db)
        .output()
        .expect("awale db build");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let db_arg = db.to_str().expect("a UTF-8 path");
    let (_server, url) = start_server_with(&dir, &["--db", db_arg]);
    let (_, info) = call(&url, "GET", "/api/info", None);
    assert_eq!(info["oracle"], true);
    // South's E then feeds and wins a seed in the end: +1, exact.
    let (status, game) = call(
        &url,
        "POST",
        "/api/games",
        Some(json!({"mode": "humans", "position": "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S"})),
    );
    assert_eq!(status, 201, "{game}");
    let (status, hint) = call(
        &url,
        "POST",
        &format!("/api/games/{}/hint", game["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["oracle"], json!({"lower": 1, "upper": 1}), "{hint}");
    assert_eq!(hint["best"]["mv"], "E", "{hint}");
    // Under other rules, this database says nothing.
    let (_, abapa) = call(
        &url,
        "POST",
        "/api/games",
        Some(
            json!({"mode": "humans", "rules": "abapa", "position": "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S"}),
        ),
    );
    let (_, hint) = call(
        &url,
        "POST",
        &format!("/api/games/{}/hint", abapa["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(hint["oracle"], Value::Null);
}

#[test]
fn an_address_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    let dir = temp_dir("serve-busy");
    let out = Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(["serve", "--addr", &addr, "--data"])
        .arg(&dir)
        .output()
        .expect("awale serve");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("cannot listen on {addr}")),
        "{stderr}"
    );
}
