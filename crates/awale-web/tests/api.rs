//! The JSON API, called on the router itself (no socket): games played,
//! stored and reloaded, and every kind of bad input answered with a JSON
//! error and the right status, leaving the stored game as it was.

mod common;

use std::time::Duration;

use awale_core::parse_records;
use awale_store::GameStore;
use awale_store::Store;
use awale_web::{app, AppState, Config};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{memory_state, refused, Events};

fn quick_config() -> Config {
    Config {
        move_time: Duration::from_millis(200),
        hint_time: Duration::from_millis(200),
        guest_key: Some(awale_model::secret::GuestKey::from_bytes(common::TEST_KEY)),
        ..Config::default()
    }
}

fn memory_app() -> Router {
    app(memory_state(quick_config()))
}

async fn call_raw(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("cookie", ME.as_str())
        .body(Body::from(body))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

/// The one player these tests play as (games need one: issue 20).
static ME: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("awale_player={}", common::guest(0x0123)));

/// GETs `uri`: the whole response.
async fn get(app: &Router, uri: &str) -> axum::response::Response {
    let request = Request::get(uri)
        .header("cookie", ME.as_str())
        .body(Body::empty())
        .unwrap();
    app.clone().oneshot(request).await.unwrap()
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
    let (status, out) = call_raw(app, method, uri, bytes).await;
    let value = serde_json::from_slice(&out).unwrap_or_else(|e| {
        panic!(
            "{method} {uri}: answer is not JSON ({e}): {}",
            String::from_utf8_lossy(&out)
        )
    });
    (status, value)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(body)).await
}

/// POSTs `body` to the game's `action` (`moves`, `undo`, `resign`...).
async fn on_game(
    app: &Router,
    id: impl std::fmt::Display,
    action: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/games/{id}/{action}"), body).await
}

/// Makes a game; its id and the game.
async fn new_game(app: &Router, body: Value) -> (String, Value) {
    let (status, game) = call(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    (game["id"].as_str().unwrap().to_string(), game)
}

/// A game between two people from `position`; its id and the game.
async fn humans_from(app: &Router, position: &str) -> (String, Value) {
    new_game(app, json!({"mode": "humans", "position": position})).await
}

/// Imports `record`; the answer (the games' ids, the first game).
async fn import(app: &Router, record: &str) -> Value {
    let (status, imported) = post(app, "/api/import", json!({"record": record})).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    imported
}

fn plies(game: &Value) -> usize {
    game["plies"].as_array().unwrap().len()
}

/// Game `id` once it has `n` moves: the server plays the computer's moves
/// by itself. Asked again until then, for at most ten seconds.
async fn with_moves(app: &Router, id: &str, n: usize) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, game) = call(app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{game}");
        if plies(&game) >= n {
            return game;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no computer's move: {game}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_new_game_starts_from_the_start_position() {
    let app = memory_app();
    let (id, game) = new_game(&app, json!({"mode": "humans"})).await;
    assert_eq!(game["position"], "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(game["legal"], json!(["A", "B", "C", "D", "E", "F"]));
    assert_eq!(game["end"], Value::Null);
    let (status, again) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["position"], game["position"]);
}

#[tokio::test]
async fn new_game_options_reach_the_rules() {
    let app = memory_app();
    let (_, game) = new_game(
        &app,
        json!({"mode": "humans", "rules": "abapa,direction=clockwise,first=north"}),
    )
    .await;
    assert_eq!(game["rules"]["grand_slam"], "no_capture");
    assert_eq!(game["rules"]["target"], 25);
    assert_eq!(game["rules"]["direction"], "clockwise");
    assert_eq!(game["rules"]["columns"]["S"], json!([5, 4, 3, 2, 1, 0]));
    assert_eq!(game["to_move"], "N");
}

#[tokio::test]
async fn moves_are_played_and_stored() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let (status, game) = on_game(&app, &id, "moves", Some(json!({"move": "F", "ply": 0}))).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["position"], "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
    let (_, game) = on_game(&app, &id, "moves", Some(json!({"move": "f", "ply": 1}))).await;
    assert_eq!(game["notation"], "1. F f");
    let (_, again) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(again["notation"], "1. F f");
}

#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let app = memory_app();
    let (id, game) = humans_from(&app, "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S").await;
    let url = format!("/api/games/{id}/moves");
    let cases = [
        (
            json!({"move": "A"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ), // empty hole
        (
            json!({"move": "F"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ), // grand slam, forbidden
        (json!({"move": "a"}), StatusCode::CONFLICT, "not_your_turn"),
        (json!({"move": "Z"}), StatusCode::BAD_REQUEST, "bad_move"),
        (json!({"move": "EE"}), StatusCode::BAD_REQUEST, "bad_move"),
        (json!({"move": ""}), StatusCode::BAD_REQUEST, "bad_move"),
        (
            json!({"move": "E", "ply": 3}),
            StatusCode::CONFLICT,
            "stale",
        ),
        (
            json!({"move": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_field",
        ),
        (
            json!({"hole": "E"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_field",
        ),
        (
            json!({"move": "E", "extra": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_field",
        ),
        (json!([1, 2]), StatusCode::UNPROCESSABLE_ENTITY, "bad_field"),
    ];
    for (body, status, code) in cases {
        let (got, answer) = call(&app, "POST", &url, Some(body.clone())).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(after["position"], game["position"]);
    assert_eq!(plies(&after), 0);
}

#[tokio::test]
async fn malformed_and_oversized_bodies_get_json_errors() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let url = format!("/api/games/{id}/moves");
    for body in [
        &b"{\"move\": "[..],
        b"not json",
        b"{\"move\": \"F\"}}",
        b"\xff\xfe",
    ] {
        let (status, out) = call_raw(&app, "POST", &url, body.to_vec()).await;
        let answer: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(answer["error"], "bad_json");
    }
    let huge = format!("{{\"move\": \"F\", \"pad\": \"{}\"}}", "x".repeat(100_000));
    let (status, out) = call_raw(&app, "POST", &url, huge.into_bytes()).await;
    let answer: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    assert_eq!(answer["error"], "too_large");
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&after), 0);
}

#[tokio::test]
async fn unknown_games_paths_and_methods_are_json_errors() {
    let app = memory_app();
    for uri in [
        "/api/games/999",
        "/api/games/abc",
        "/api/games/-1",
        "/api/games/99999999999999999999",
    ] {
        let (status, answer) = call(&app, "GET", uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(answer["error"], "no_such_game", "{uri}");
    }
    refused(
        post(&app, "/api/games/7/moves", json!({"move": "F"})).await,
        StatusCode::NOT_FOUND,
        "no_such_game",
    );
    refused(
        call(&app, "GET", "/api/nothing", None).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    refused(
        call(&app, "DELETE", "/api/games", None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    );
}

#[tokio::test]
async fn bad_new_game_requests_are_named() {
    let app = memory_app();
    let cases = [
        (json!({"rules": "chess"}), "bad_rules"),
        (json!({"rules": "awale,target=99"}), "bad_rules"),
        (json!({"mode": "robots"}), "bad_mode"),
        (json!({"level": 0}), "bad_level"),
        (json!({"level": 99}), "bad_level"),
        (json!({"human": "east"}), "bad_side"),
        (json!({"clock": {"minutes": -5}}), "bad_clock"),
        (
            json!({"clock": {"minutes": 5, "increment_seconds": 1e9}}),
            "bad_clock",
        ),
        (json!({"position": "4-4-4"}), "bad_position"),
        (json!({"level": 300}), "bad_field"),
        (json!({"colour": "red"}), "bad_field"),
    ];
    for (body, code) in cases {
        let (status, answer) = call(&app, "POST", "/api/games", Some(body.clone())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
        assert_eq!(answer["error"], code, "{body}: {answer}");
    }
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn the_computer_answers_and_only_once() {
    let app = memory_app();
    let (id, game) = new_game(&app, json!({"mode": "computer", "level": 2, "human": "S"})).await;
    assert_eq!(game["computer_to_move"], false);
    // Nobody asks the server for the computer's move: that path is gone.
    let (status, _) = on_game(&app, &id, "computer", Some(json!({"ply": 0}))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, game) = on_game(&app, &id, "moves", Some(json!({"move": "C", "ply": 0}))).await;
    // The person cannot play for the computer.
    if game["computer_to_move"] == true {
        refused(
            on_game(&app, &id, "moves", Some(json!({"move": "a", "ply": 1}))).await,
            StatusCode::CONFLICT,
            "not_your_turn",
        );
    }
    let game = with_moves(&app, &id, 2).await;
    assert_eq!(game["plies"][1]["side"], "N");
    assert_eq!(game["computer_to_move"], false);
    // It answers once: the game waits for the person.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (_, again) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&again), 2);
}

#[tokio::test]
async fn the_computer_moves_first_when_the_person_plays_north() {
    let app = memory_app();
    let (id, game) = new_game(&app, json!({"mode": "computer", "level": 1, "human": "N"})).await;
    assert_eq!(
        plies(&game),
        0,
        "the game is made before the computer moves"
    );
    let game = with_moves(&app, &id, 1).await;
    assert_eq!(game["to_move"], "N");
    // Nothing of the person's to take back yet.
    refused(
        on_game(&app, &id, "undo", None).await,
        StatusCode::CONFLICT,
        "nothing_to_undo",
    );
    let (_, game) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&game), 1);
}

#[tokio::test]
async fn undo_takes_back_the_answer_too_and_redo_restores_both() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "computer", "level": 1})).await;
    on_game(&app, &id, "moves", Some(json!({"move": "A", "ply": 0}))).await;
    let played = with_moves(&app, &id, 2).await;
    let (status, undone) = on_game(&app, &id, "undo", Some(json!({"ply": 2}))).await;
    assert_eq!(status, StatusCode::OK, "{undone}");
    assert_eq!(plies(&undone), 0);
    assert_eq!(undone["can_redo"], true);
    let (_, stored) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&stored), 0);
    let (status, redone) = on_game(&app, &id, "redo", None).await;
    assert_eq!(status, StatusCode::OK, "{redone}");
    assert_eq!(redone["notation"], played["notation"]);
    refused(
        on_game(&app, &id, "redo", None).await,
        StatusCode::CONFLICT,
        "nothing_to_redo",
    );
}

#[tokio::test]
async fn a_resigned_game_is_over_for_the_resigner() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "computer", "level": 1, "human": "S"})).await;
    refused(
        on_game(&app, &id, "resign", Some(json!({"side": "N"}))).await,
        StatusCode::FORBIDDEN,
        "not_your_seat",
    );
    let (status, game) = on_game(&app, &id, "resign", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["end"]["reason"], "resignation");
    assert_eq!(game["end"]["winner"], "N");
    assert_eq!(game["end"]["stores"], json!([0, 48]));
    // Once over, nothing more: no move, no second resignation.
    for (action, body) in [("moves", Some(json!({"move": "A"}))), ("resign", None)] {
        let answer = on_game(&app, &id, action, body).await;
        refused(answer, StatusCode::CONFLICT, "game_over");
    }
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list["games"][0]["result"], "0-1");
    assert_eq!(list["games"][0]["reason"], "resignation");
}

#[tokio::test]
async fn the_last_move_ends_the_game_with_its_reason() {
    let app = memory_app();
    // South feeds North with its last seed; North has nothing left to give
    // back after that: starvation.
    let record = "[Variant \"awale\"]\n[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-20-27-S\"]\n\n*";
    let imported = import(&app, record).await;
    let id = imported["ids"][0].as_str().unwrap().to_string();
    let (_, game) = on_game(&app, &id, "moves", Some(json!({"move": "F"}))).await;
    assert_eq!(game["end"]["reason"], "starvation", "{game}");
    assert_eq!(game["end"]["stores"], json!([20, 28]));
    assert_eq!(game["end"]["winner"], "N");
    assert_eq!(game["legal"], json!([]));
}

#[tokio::test]
async fn exported_records_read_back_as_the_same_game() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    for (i, m) in ["F", "f", "A", "a", "C"].iter().enumerate() {
        on_game(&app, &id, "moves", Some(json!({"move": m, "ply": i}))).await;
    }
    let (status, text) =
        call_raw(&app, "GET", &format!("/api/games/{id}/record"), Vec::new()).await;
    assert_eq!(status, StatusCode::OK);
    let text = String::from_utf8(text).unwrap();
    let records = parse_records(&text).unwrap();
    assert_eq!(records.len(), 1);
    let replayed = records[0].to_game().unwrap();
    let letters: String = replayed.moves().map(|m| m.letter()).collect();
    assert_eq!(letters, "FfAaC");
    let imported = import(&app, &text).await;
    assert_eq!(imported["game"]["notation"], "1. F f 2. A a 3. C");
}

#[tokio::test]
async fn a_game_lost_on_time_imports_as_lost_on_time() {
    // What an export writes for a game whose flag fell: moves that do not
    // end the game, a decided result and the termination.
    let app = memory_app();
    let text = "[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. F f 0-1\n";
    let imported = import(&app, text).await;
    assert_eq!(imported["game"]["end"]["reason"], "time", "{imported}");
    assert_eq!(imported["game"]["end"]["winner"], "N", "{imported}");
    assert_eq!(imported["game"]["legal"], json!([]), "{imported}");
    let id = imported["ids"][0].as_str().unwrap().to_string();
    let (_, text) = call_raw(&app, "GET", &format!("/api/games/{id}/record"), Vec::new()).await;
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
}

#[tokio::test]
async fn bad_records_are_refused_with_where_and_why() {
    let app = memory_app();
    let cases = [
        ("1. F f 2. F", "ply 3"),
        ("[Variant \"chess\"]\n1. F *", "chess"),
        ("[FEN \"9-9-9\"]\n*", "FEN"),
        ("1. F f+3 *", "captures"),
        ("", "no game"),
        ("[Event \"x\"\n1. F", "line"),
        // The result tag and the moves' result disagree (issue 21).
        (
            "[Result \"0-1\"]\n\n1. F f 2. A a 1-0",
            "Result tag says 0-1",
        ),
        ("[Result \"1-0\"]\n\n1. F f 2. A a 1-0", "not over"),
    ];
    for (text, needle) in cases {
        let (status, answer) = post(&app, "/api/import", json!({"record": text})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}: {answer}");
        assert_eq!(answer["error"], "bad_record");
        assert!(answer["reason"].is_string(), "{text}: {answer}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(needle), "{text}: {message}");
    }
    // The facts come as data, for the page to word: where, and what.
    let (_, answer) = post(&app, "/api/import", json!({"record": "1. F f 2. F"})).await;
    assert_eq!(answer["reason"], "illegal");
    assert_eq!(answer["fields"]["ply"], 3);
    assert_eq!(answer["fields"]["move"], "F");
    assert_eq!(answer["fields"]["rule"], "empty_hole");
    let (_, answer) = post(
        &app,
        "/api/import",
        json!({"record": "[Result \"0-1\"]\n\n1. F f 2. A a 1-0"}),
    )
    .await;
    assert_eq!(answer["reason"], "result_tag");
    assert_eq!(answer["fields"]["tag"], "0-1");
    assert_eq!(answer["fields"]["written"], "1-0");
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0, "nothing stored");
}

#[tokio::test]
async fn a_large_record_file_is_accepted_up_to_its_own_limit() {
    let app = memory_app();
    let one = format!("[Event \"{}\"]\n\n1. F f 2. A a *\n\n", "x".repeat(100));
    let text = one.repeat(150);
    assert!(text.len() > 16 * 1024);
    let answer = import(&app, &text).await;
    assert_eq!(answer["ids"].as_array().unwrap().len(), 150);
    let too_big = "x".repeat(2 * 1024 * 1024);
    let (status, _) = post(&app, "/api/import", json!({"record": too_big})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn hint_and_review_score_the_moves() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    for (i, m) in ["F", "f", "A", "a"].iter().enumerate() {
        on_game(&app, &id, "moves", Some(json!({"move": m, "ply": i}))).await;
    }
    let (status, hint) = on_game(&app, &id, "hint", None).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let best = hint["best"]["mv"].as_str().unwrap();
    assert!(["A", "B", "C", "D", "E", "F"].contains(&best), "{hint}");
    assert_eq!(
        hint["moves"].as_array().unwrap().len(),
        5,
        "F is empty: {hint}"
    );
    // The reasons, in both languages, as a list (possibly empty when
    // nothing simple explains the move).
    for why in hint["why"].as_array().unwrap() {
        // Data, not words: the page words each kind from its catalogs.
        assert!(why["kind"].is_string() && why.get("fr").is_none(), "{why}");
    }
    // Between two people, the review waits for the end.
    let review_url = format!("/api/games/{id}/review");
    refused(
        call(&app, "POST", &review_url, None).await,
        StatusCode::FORBIDDEN,
        "game_not_over",
    );
    let (status, _) = call(&app, "GET", &review_url, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    on_game(&app, &id, "resign", Some(json!({"side": "N"}))).await;
    let (status, review) = call(&app, "POST", &review_url, None).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    let rows = review["plies"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["ply"], i);
        assert!(row["eval_south"].is_i64(), "{row}");
        assert!(row["best"]["move"].is_string(), "{row}");
        // Seeds where both scores are in seeds, else null.
        assert!(
            row["loss"].is_null() || row["loss"].as_i64().unwrap() >= 0,
            "{row}"
        );
        assert!(row.get("gave_up").is_some(), "{row}");
        assert!(row["exact"].is_boolean(), "{row}");
    }
    assert_eq!(review["version"], 3);
    // Each side's accuracy, from 0 to 100 (docs/ACCURACY.md).
    let accuracy = review["accuracy"].as_array().unwrap();
    assert_eq!(accuracy.len(), 2, "{review}");
    for side in accuracy {
        let a = side["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a), "{side}");
    }
    assert_eq!(review["end"]["reason"], "resignation");
    // Stored with the game: asked again, the same review at once.
    let (status, stored) = call(&app, "GET", &review_url, None).await;
    assert_eq!((status, &stored), (StatusCode::OK, &review));
    let (_, again) = call(&app, "POST", &review_url, None).await;
    assert_eq!(again, review);
}

#[tokio::test]
async fn a_review_stored_in_the_old_form_is_made_again() {
    // Reviews written before version 2 counted a forced result as ±50
    // seeds against real margins: their costs are false, so the server
    // makes them again rather than serve them.
    let store = awale_store::Store::in_memory().unwrap();
    let mut config = quick_config();
    config.guest_key = Some(awale_model::secret::GuestKey::from_bytes(common::TEST_KEY));
    let state = awale_web::AppState::new(store.clone(), config).unwrap();
    let app = app(state.clone());
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    for (i, m) in ["F", "f"].iter().enumerate() {
        on_game(&app, &id, "moves", Some(json!({"move": m, "ply": i}))).await;
    }
    on_game(&app, &id, "resign", Some(json!({"side": "S"}))).await;
    let number = state.games().find(&id, None).await.unwrap();
    // The old form (as in awale-store's tests/data/games-v2-v3.sql), with
    // a "mistake" of 34 seeds.
    let row = |ply: usize, side: &str, mv: &str| {
        json!({"ply": ply, "side": side, "move": mv,
               "played": {"cp": 1600, "decided": true, "forced": null, "text": "win by 16"},
               "best": {"move": "A", "score": {"cp": 5000, "decided": true,
                        "forced": {"wins": true, "plies": 9}, "text": "win in 9"}},
               "eval_south": 5000, "loss": 3400, "mistake": true, "oracle": null})
    };
    let old = json!({"id": id, "plies": [row(0, "S", "F"), row(1, "N", "f")],
                     "end": {"reason": "resignation", "stores": [0, 48], "winner": "N",
                             "loser_by": "S", "result": "0-1"}});
    store.save_review(number, 2, old.to_string()).await.unwrap();
    let review_url = format!("/api/games/{id}/review");
    let (status, answer) = call(&app, "GET", &review_url, None).await;
    assert_eq!(
        (status, answer["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("no_review")),
        "{answer}"
    );
    let (status, review) = call(&app, "POST", &review_url, None).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review["version"], 3);
    for row in review["plies"].as_array().unwrap() {
        assert_ne!(row["loss"], 3400, "{row}");
        assert_eq!(row["mistake"], false, "the opening's first moves: {row}");
    }
    // Kept in the new form: served as it is from now on.
    let (status, stored) = call(&app, "GET", &review_url, None).await;
    assert_eq!((status, &stored), (StatusCode::OK, &review));
}

#[tokio::test]
async fn the_current_game_is_the_one_changed_last_and_unfinished() {
    let app = memory_app();
    let (_, none) = call(&app, "GET", "/api/games/current", None).await;
    assert_eq!(none["game"], Value::Null);
    let (a, _) = new_game(&app, json!({"mode": "humans"})).await;
    let (b, _) = new_game(&app, json!({"mode": "humans"})).await;
    let (_, current) = call(&app, "GET", "/api/games/current", None).await;
    assert_eq!(current["game"]["id"], b);
    on_game(&app, b, "resign", None).await;
    let (_, current) = call(&app, "GET", "/api/games/current", None).await;
    assert_eq!(current["game"]["id"], a);
}

#[tokio::test]
async fn the_computers_turn_left_by_a_stopped_server_is_played_when_the_game_is_opened() {
    use awale_model::game::{Mode, WebGame};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    // A game stored with the computer to move, as a server that stopped
    // mid-search leaves it.
    let id = {
        let store = Store::open(&path).unwrap();
        let game = WebGame::new(
            Mode::Computer {
                human: awale_core::Side::North,
                level: 1,
            },
            awale_core::Game::new(awale_core::Rules::AWALE),
            1_000,
            7,
        );
        let id = store.create(vec![game]).await.unwrap()[0].public_id.clone();
        store.close();
        id
    };
    let app = app(AppState::new(Store::open(&path).unwrap(), quick_config()).unwrap());
    let game = with_moves(&app, &id, 1).await;
    assert_eq!(game["plies"][0]["side"], "S");
    assert_eq!(game["computer_to_move"], false);
}

#[tokio::test]
async fn games_survive_a_restart_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let id = {
        let app = app(AppState::new(Store::open(&path).unwrap(), quick_config()).unwrap());
        let (id, _) = new_game(&app, json!({"mode": "computer", "level": 1})).await;
        on_game(&app, &id, "moves", Some(json!({"move": "B", "ply": 0}))).await;
        with_moves(&app, &id, 2).await;
        id
    };
    let app = app(AppState::new(Store::open(&path).unwrap(), quick_config()).unwrap());
    let (status, game) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plies(&game), 2);
    assert_eq!(game["plies"][0]["move"], "B");
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let app = memory_app();
    // The page names its files under a versioned path (/v/VERSION/...).
    let page = get(&app, "/").await;
    let page = page.into_body().collect().await.unwrap().to_bytes();
    let page = String::from_utf8_lossy(&page);
    let versioned = |file: &str| {
        let end = page
            .find(file)
            .unwrap_or_else(|| panic!("{file} in the page"));
        let start = page[..end].rfind('"').unwrap() + 1;
        page[start..end + file.len()].to_string()
    };
    let (board, style) = (versioned("/js/board.js"), versioned("/style.css"));
    for (uri, kind, needle) in [
        ("/", "text/html", "<svg id=\"board\""),
        (board.as_str(), "text/javascript", "function drawBoard"),
        (style.as_str(), "text/css", ".board-wrap"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let response = get(&app, uri).await;
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let ctype = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ctype.starts_with(kind), "{uri}: {ctype}");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains(needle), "{uri}");
    }
}

#[tokio::test]
async fn live_events_start_with_the_game_state() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let response = get(&app, &format!("/api/games/{id}/events")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let frame = tokio::time::timeout(Duration::from_secs(5), body.frame())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let text = String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap();
    assert!(text.starts_with("event: state"), "{text}");
    assert!(text.contains("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), "{text}");
    let (status, _) = call(&app, "GET", "/api/games/42/events", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_clock_game_shows_each_sides_time_and_refuses_takebacks() {
    let app = memory_app();
    let (id, game) = new_game(
        &app,
        json!({"mode": "humans", "clock": {"minutes": 5, "increment_seconds": 3}}),
    )
    .await;
    assert_eq!(game["clock"]["initial_ms"], 300_000);
    assert_eq!(game["clock"]["increment_ms"], 3_000);
    assert_eq!(game["clock"]["running"], "S");
    let (_, game) = on_game(&app, &id, "moves", Some(json!({"move": "F"}))).await;
    assert_eq!(game["clock"]["running"], "N");
    let left = game["clock"]["left_ms"].as_array().unwrap();
    // South used a moment and got 3 s back.
    assert!(
        left[0].as_i64().unwrap() > 300_000 && left[0].as_i64().unwrap() <= 303_000,
        "{left:?}"
    );
    assert_eq!(game["can_undo"], false);
    refused(
        on_game(&app, &id, "undo", None).await,
        StatusCode::CONFLICT,
        "clock_game",
    );
}

/// An oracle that knows only what is always true: a value lies between -48
/// and 48. Enough to check that hints carry the oracle's answer for the
/// positions it covers, and only under the rules it was built for.
struct WideBounds;

impl awale_engine::Oracle for WideBounds {
    fn probe(&self, position: &awale_core::Position) -> Option<awale_engine::Bounds> {
        (position.seeds_on_board() <= 3).then_some(awale_engine::Bounds {
            lower: -48,
            upper: 48,
        })
    }
    fn max_seeds(&self) -> u8 {
        3
    }
    fn rules(&self) -> awale_core::Rules {
        awale_core::Rules::AWALE
    }
}

#[tokio::test]
async fn hints_carry_the_oracles_value_where_it_covers_the_position() {
    let source: awale_service::computer::OracleSource = Box::new(|rules| {
        (rules.grand_slam == awale_core::Rules::AWALE.grand_slam)
            .then(|| std::sync::Arc::new(WideBounds) as std::sync::Arc<dyn awale_engine::Oracle>)
    });
    let app = app(
        AppState::with_oracle(Store::in_memory().unwrap(), quick_config(), Some(source)).unwrap(),
    );
    let (_, info) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(info["oracle"], true);
    let (few, _) = humans_from(&app, "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S").await;
    let (status, hint) = on_game(&app, few, "hint", None).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["oracle"], json!({"lower": -48, "upper": 48}));
    let (many, _) = new_game(&app, json!({"mode": "humans"})).await;
    let (_, hint) = on_game(&app, many, "hint", None).await;
    assert_eq!(hint["oracle"], Value::Null, "48 seeds: not covered");
    let (abapa, _) = new_game(
        &app,
        json!({"mode": "humans", "rules": "abapa", "position": "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S"}),
    )
    .await;
    let (_, hint) = on_game(&app, abapa, "hint", None).await;
    assert_eq!(hint["oracle"], Value::Null, "other rules: no oracle");
}

/// The events of `uri` (a game's), asked with `headers`.
async fn open_events(app: &Router, uri: &str, headers: &[(&str, &str)]) -> Events {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    Events::open(app, request.body(Body::empty()).unwrap()).await
}

/// Opens the event stream of game `id` as [`ME`] and reads its first event,
/// the game's state: the stream, then the state.
async fn watch(app: &Router, id: &str) -> (Events, Value) {
    let mut stream = open_events(
        app,
        &format!("/api/games/{id}/events"),
        &[("cookie", ME.as_str())],
    )
    .await;
    let first = stream.named("state").await;
    (stream, first)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computers_thinking_and_move_are_sent_live() {
    let app = memory_app();
    // A searching level, from a position out of the opening book (which
    // would answer at once).
    let (id, _) = new_game(
        &app,
        json!({"mode": "computer", "level": 18, "human": "N", "position": "3-5-5-5-0-5-5-4-4-4-4-4-0-0-S"}),
    )
    .await;
    // The computer is to move: the server searches at once, for nobody
    // in particular; whoever watches sees it think and move.
    let (mut stream, first) = watch(&app, &id).await;
    assert_eq!(first["id"], id);
    let thinking = stream.named("thinking").await;
    assert!(thinking["depth"].as_u64().unwrap() >= 1, "{thinking}");
    assert_eq!(thinking["game"], id);
    // Its line would be a free hint to the player.
    assert!(thinking.get("pv").is_none(), "{thinking}");
    let moved = stream.named("move").await;
    assert_eq!(
        (moved["id"].as_str(), moved["index"].as_u64()),
        (Some(id.as_str()), Some(0))
    );
    let answer = with_moves(&app, &id, 1).await;
    assert_eq!(answer["plies"][0], moved["ply"]);
    assert_eq!(answer["position"], moved["position"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flag_falls_on_the_server_for_watchers_and_for_nobody() {
    let time = awale_service::clock::Clock::adjustable();
    let config = Config {
        clock: time.clone(),
        ..quick_config()
    };
    let app = app(memory_state(config));
    let clock = json!({"mode": "humans", "clock": {"minutes": 0.1}});
    let (id, _) = new_game(&app, clock.clone()).await;
    let (alone, _) = new_game(&app, clock).await;
    let (mut stream, first) = watch(&app, &id).await;
    assert_eq!(first["clock"]["running"], "S");
    // Not a moment before its time is out, the flag stays up.
    time.advance(Duration::from_millis(5_000));
    let (_, early) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(early["end"], Value::Null, "{early}");
    // Six seconds later the server ends the game and says so, with no
    // request to make it look (the games' clock wakes its timer).
    time.advance(Duration::from_millis(1_100));
    let ended = stream.named("state").await;
    assert_eq!(ended["end"]["reason"], "time", "{ended}");
    assert_eq!(ended["end"]["loser_by"], "S");
    assert_eq!(ended["end"]["winner"], "N");
    assert_eq!(
        ended["clock"]["left_ms"],
        json!([0, 6000]),
        "the loser shows 0:00"
    );
    assert_eq!(ended["clock"]["running"], Value::Null);
    // The other game ends too (it began a moment later), though nobody
    // asks for it: the list reads the store as it is.
    let mut row = Value::Null;
    for _ in 0..40 {
        let (_, list) = call(&app, "GET", "/api/games", None).await;
        row = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == alone)
            .unwrap()
            .clone();
        if row["result"] != "*" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        (row["result"].as_str(), row["reason"].as_str()),
        (Some("0-1"), Some("time"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clicks_at_once_play_one_move() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let url = format!("/api/games/{id}/moves");
    let (a, b) = tokio::join!(
        call(&app, "POST", &url, Some(json!({"move": "A", "ply": 0}))),
        call(&app, "POST", &url, Some(json!({"move": "B", "ply": 0}))),
    );
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let (_, stored) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(plies(&stored), 1);
}

/// Reproducible noise for the hostile-input sweep.
struct Noise(StdRng);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0.random()
    }

    fn value(&mut self, depth: u32) -> Value {
        match self.next() % if depth > 2 { 5 } else { 7 } {
            0 => Value::Null,
            1 => json!(self.next().is_multiple_of(2)),
            2 => json!((self.next() % 2000) as i64 - 1000),
            3 => {
                let words = [
                    "A",
                    "f",
                    "Z",
                    "",
                    "S",
                    "N",
                    "humans",
                    "computer",
                    "abapa",
                    "awale,target=0",
                    "é",
                    "ply",
                ];
                json!(words[(self.next() % words.len() as u64) as usize])
            }
            4 => json!(f64::from((self.next() % 1000) as u32) / 7.0),
            5 => Value::Array(
                (0..self.next() % 3)
                    .map(|_| self.value(depth + 1))
                    .collect(),
            ),
            _ => {
                let keys = [
                    "move", "ply", "mode", "level", "human", "rules", "clock", "position",
                    "record", "side", "minutes", "x",
                ];
                let mut map = serde_json::Map::new();
                for _ in 0..self.next() % 4 {
                    let k = keys[(self.next() % keys.len() as u64) as usize];
                    map.insert(k.to_string(), self.value(depth + 1));
                }
                Value::Object(map)
            }
        }
    }
}

#[tokio::test]
async fn no_hostile_request_gets_a_server_error_or_changes_a_game_it_should_not() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let paths = [
        "/api/games".to_string(),
        format!("/api/games/{id}/moves"),
        format!("/api/games/{id}/undo"),
        format!("/api/games/{id}/redo"),
        "/api/import".to_string(),
        "/api/games/0/moves".to_string(),
    ];
    let mut noise = Noise(StdRng::seed_from_u64(0x05EE_D0FA_3A1E));
    for round in 0..600 {
        let path = &paths[round % paths.len()];
        let kind = noise.next() % 10;
        let body = if kind < 2 {
            (0..noise.next() % 40)
                .map(|_| (noise.next() % 256) as u8)
                .collect()
        } else if kind < 6 {
            // Nearly right: real letters, plausible or stale plies.
            let letters = [
                "A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f", "G", "AA",
            ];
            let mv = letters[(noise.next() % letters.len() as u64) as usize];
            let body = if noise.next().is_multiple_of(2) {
                json!({"move": mv})
            } else {
                json!({"move": mv, "ply": noise.next() % 6})
            };
            body.to_string().into_bytes()
        } else {
            noise.value(0).to_string().into_bytes()
        };
        let (status, out) = call_raw(&app, "POST", path, body.clone()).await;
        assert!(
            !status.is_server_error(),
            "{path} {}: {status} {}",
            String::from_utf8_lossy(&body),
            String::from_utf8_lossy(&out)
        );
        let answer: Value = serde_json::from_slice(&out).unwrap_or_else(|e| {
            panic!("{path} {}: not JSON ({e})", String::from_utf8_lossy(&body))
        });
        if !status.is_success() {
            assert!(
                answer["error"].is_string() && answer["message"].is_string(),
                "{answer}"
            );
        }
    }
    // Whatever happened, the stored game still replays as a game.
    let (status, after) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{after}");
}

#[tokio::test]
async fn a_refused_move_says_which_rule_it_breaks() {
    let app = memory_app();
    let (id, _) = humans_from(&app, "0-0-0-0-1-2-1-2-0-0-0-0-20-20-S").await;
    let url = format!("/api/games/{id}/moves");
    for (mv, reason) in [
        ("F", "grand_slam"),
        ("A", "empty_hole"),
        ("a", "not_your_hole"),
    ] {
        let (status, answer) = call(&app, "POST", &url, Some(json!({"move": mv}))).await;
        assert!(status.is_client_error(), "{mv}: {answer}");
        assert_eq!(answer["reason"], reason, "{mv}: {answer}");
    }
}

#[tokio::test]
async fn no_hints_against_the_clock_and_no_review_before_the_end() {
    let app = memory_app();
    let (timed, _) = new_game(
        &app,
        json!({"mode": "computer", "level": 1, "clock": {"minutes": 5}}),
    )
    .await;
    refused(
        on_game(&app, timed, "hint", None).await,
        StatusCode::FORBIDDEN,
        "no_hint",
    );
    let (free, _) = new_game(&app, json!({"mode": "computer", "level": 1})).await;
    let (status, _) = on_game(&app, &free, "hint", None).await;
    assert_eq!(status, StatusCode::OK);
    refused(
        on_game(&app, &free, "review", None).await,
        StatusCode::FORBIDDEN,
        "game_not_over",
    );
    let (_, info) = call(&app, "GET", "/api/info", None).await;
    let strongest = info["levels"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(strongest["uses_databases"], true);
}

#[tokio::test]
async fn a_move_can_answer_with_itself_only() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let url = format!("/api/games/{id}/moves?answer=move");
    let (status, answer) = post(&app, &url, json!({"move": "F", "ply": 0})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["index"], 0);
    assert_eq!(answer["ply"]["move"], "F");
    assert_eq!(answer["ply"]["sown"], json!([6, 7, 8, 9]));
    assert_eq!(answer["to_move"], "N");
    assert_eq!(answer["you"], json!(["S", "N"]));
    assert!(
        answer.get("plies").is_none(),
        "not the whole game: {answer}"
    );
    // Sent again for the same ply: played once, the same answer.
    let (status, again) = post(&app, &url, json!({"move": "F", "ply": 0})).await;
    assert_eq!((status, again["index"].as_u64()), (StatusCode::OK, Some(0)));
    let bad = format!("/api/games/{id}/moves?answer=everything");
    refused(
        post(&app, &bad, json!({"move": "f"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_query",
    );
}

/// POSTs `body` to `uri` as the browser whose player cookie is `player`.
async fn post_as(app: &Router, player: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    common::post_with_cookie(app, uri, &format!("awale_player={player}"), body).await
}

#[tokio::test]
async fn a_game_played_offline_is_uploaded_once_by_its_key() {
    let app = memory_app();
    let me = common::guest(0xc);
    let game = json!({
        "key": "0123456789abcdef", "start": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "moves": "FfA",
        "mode": "computer", "human": "N", "level": 5, "resigned": "N", "created_ms": 1_000,
    });
    let (status, first) = post_as(&app, &me, "/api/uploads", game.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(first["created"], true);
    let g = &first["game"];
    assert_eq!(
        (plies(g), g["human"].as_str(), g["level"].as_u64()),
        (3, Some("N"), Some(5))
    );
    assert_eq!(g["end"]["reason"], "resignation");
    assert_eq!(g["created_ms"], 1_000);
    assert_eq!(g["you"], json!(["N"]), "the uploader's game");
    // The answer was lost, the page sends it again: the same game.
    let (status, again) = post_as(&app, &me, "/api/uploads", game.clone()).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(
        (again["created"].as_bool(), &again["game"]["id"]),
        (Some(false), &g["id"])
    );
    // Another browser's key is its own.
    let (status, theirs) = post_as(&app, &common::guest(0xd), "/api/uploads", game.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{theirs}");
    assert_ne!(theirs["game"]["id"], g["id"]);
    // Without a player, refused; with a bad key, bad moves or an online
    // game, refused as unprocessable.
    refused(
        post_as(&app, "", "/api/uploads", game.clone()).await,
        StatusCode::FORBIDDEN,
        "no_player",
    );
    for (change, code) in [
        (json!({"key": "short"}), "bad_key"),
        (json!({"key": "a key with spaces"}), "bad_key"),
        (json!({"moves": "FF"}), "illegal_move"),
        (json!({"mode": "online"}), "bad_mode"),
        (json!({"level": 40}), "bad_level"),
        (json!({"start": "9-9"}), "bad_position"),
    ] {
        let mut body = game.clone();
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        body["key"] = body["key"].as_str().map_or(json!("fresh-key-1234"), |k| {
            if k == "0123456789abcdef" {
                json!("fresh-key-1234")
            } else {
                json!(k)
            }
        });
        let answer = post_as(&app, &me, "/api/uploads", body).await;
        refused(answer, StatusCode::UNPROCESSABLE_ENTITY, code);
    }
}

#[tokio::test]
async fn an_upload_resigned_after_the_end_is_told_how_the_game_ended() {
    let app = memory_app();
    let me = common::guest(0xc);
    // The start is already over (no seed on the board): no resigning it.
    let game = json!({
        "key": "finished-game-1", "start": "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", "moves": "",
        "mode": "humans", "resigned": "S",
    });
    let answer = post_as(&app, &me, "/api/uploads", game).await;
    refused(answer.clone(), StatusCode::CONFLICT, "game_over");
    assert_eq!(
        answer.1["fields"]["end"], "empty_board",
        "the end's code, not a sentence: {}",
        answer.1
    );
}

#[tokio::test]
async fn a_stream_opened_again_gets_the_events_it_missed_by_their_version() {
    let app = memory_app();
    let (id, _) = new_game(&app, json!({"mode": "humans"})).await;
    let uri = format!("/api/games/{id}/events");
    let mut live = open_events(&app, &uri, &[]).await;
    let (name, first_id, first) = live.next().await;
    assert_eq!(name, "state");
    let (epoch, number) = (
        first["version"]["epoch"].as_u64().unwrap(),
        first["version"]["number"].as_u64().unwrap(),
    );
    let version = |n: u64| format!("{epoch}.{n}");
    assert_eq!(
        first_id,
        Some(version(number)),
        "the whole game's id is its version"
    );
    // Two moves, each with the next number, in the answer and the event.
    for (ply, mv) in ["F", "f"].iter().enumerate() {
        let (status, game) =
            on_game(&app, &id, "moves", Some(json!({"move": mv, "ply": ply}))).await;
        assert_eq!(status, StatusCode::OK, "{game}");
        assert_eq!(game["version"]["number"], number + 1 + ply as u64, "{game}");
        let (name, event_id, event) = live.next().await;
        assert_eq!(
            (name.as_str(), event["index"].as_u64()),
            ("move", Some(ply as u64))
        );
        assert_eq!(event_id, Some(version(number + 1 + ply as u64)));
        assert_eq!(event["version"]["number"], number + 1 + ply as u64);
    }
    // Back after the first state (a page's own query): both moves, then
    // the clocks now; no whole game.
    let mut back = open_events(&app, &format!("{uri}?since={}", version(number)), &[]).await;
    for ply in 0..2 {
        let (name, _, event) = back.next().await;
        assert_eq!(
            (name.as_str(), event["index"].as_u64()),
            ("move", Some(ply))
        );
    }
    let (name, _, now) = back.next().await;
    assert_eq!(
        (name.as_str(), now["id"].as_str()),
        ("clock", Some(id.as_str()))
    );
    // The browser coming back by itself, after the first move.
    let last = version(number + 1);
    let mut back = open_events(&app, &uri, &[("last-event-id", &last)]).await;
    let (name, event_id, event) = back.next().await;
    assert_eq!((name.as_str(), event["index"].as_u64()), ("move", Some(1)));
    assert_eq!(event_id, Some(version(number + 2)));
    assert_eq!(back.next().await.0, "clock");
    // Nothing missed: the clocks alone.
    let mut back = open_events(&app, &format!("{uri}?since={}", version(number + 2)), &[]).await;
    assert_eq!(back.next().await.0, "clock");
    // Another history (a server started again) or a version from the
    // future: the whole game.
    for since in [
        format!("{}.1", epoch.wrapping_add(1) % (1 << 32)),
        version(99),
    ] {
        let mut back = open_events(&app, &format!("{uri}?since={since}"), &[]).await;
        let (name, _, whole) = back.next().await;
        assert_eq!(
            (name.as_str(), plies(&whole)),
            ("state", 2),
            "since {since}"
        );
    }
    // A header no server of ours wrote: the whole game too.
    let mut back = open_events(&app, &uri, &[("last-event-id", "yesterday")]).await;
    assert_eq!(back.next().await.0, "state");
    // A query that is no version is refused.
    let (status, refused) = call(&app, "GET", &format!("{uri}?since=soon"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(refused["error"], "bad_query");
}

#[tokio::test]
async fn an_online_games_links_have_their_qr_codes_apart() {
    let config = Config {
        public_url: Some("https://awale.example.org/".into()),
        ..quick_config()
    };
    let app = app(memory_state(config));
    let (id, _) = new_game(&app, json!({"mode": "online", "name": "Ama"})).await;
    let (status, links) = call(&app, "GET", &format!("/api/games/{id}/links"), None).await;
    assert_eq!(status, StatusCode::OK, "{links}");
    // A private game's invitation carries its key.
    let invite = links["invite"]
        .as_str()
        .unwrap_or_else(|| panic!("{links}"));
    assert!(
        invite.starts_with(&format!("https://awale.example.org/?join={id}&k=")),
        "{invite}"
    );
    assert_eq!(
        links["watch"],
        format!("https://awale.example.org/?game={id}")
    );
    // The codes come apart, the links not waiting for them to be drawn.
    assert!(links.get("invite_qr").is_none(), "{links}");
    // Each drawn when asked for.
    let mut codes = Vec::new();
    for link in ["invite", "watch"] {
        let path = format!("/api/games/{id}/links/qr?link={link}");
        let (status, code) = call(&app, "GET", &path, None).await;
        assert_eq!(status, StatusCode::OK, "{code}");
        let svg = code["qr"].as_str().unwrap_or_else(|| panic!("{code}"));
        assert!(svg.contains("<svg") && svg.contains("<path"), "{svg}");
        codes.push(svg.to_string());
    }
    assert_ne!(codes[0], codes[1]);
    for query in ["", "?link=", "?link=handoff", "?link=watch&size=9"] {
        refused(
            call(
                &app,
                "GET",
                &format!("/api/games/{id}/links/qr{query}"),
                None,
            )
            .await,
            StatusCode::BAD_REQUEST,
            "bad_query",
        );
    }
    let (status, handoff) = on_game(&app, id, "handoff", None).await;
    assert_eq!(status, StatusCode::OK, "{handoff}");
    let link = handoff["link"].as_str().unwrap();
    assert!(
        link.starts_with("https://awale.example.org/?continue="),
        "{link}"
    );
    assert!(
        handoff["qr"].as_str().is_some_and(|q| q.contains("<path")),
        "{handoff}"
    );
    let (local, _) = new_game(&app, json!({"mode": "humans"})).await;
    for links in ["links", "links/qr?link=watch"] {
        refused(
            call(&app, "GET", &format!("/api/games/{local}/{links}"), None).await,
            StatusCode::CONFLICT,
            "not_online",
        );
    }
}
