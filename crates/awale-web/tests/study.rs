//! The study API, called on the router itself (no socket), with a real
//! endgame database built here: puzzles (of the day, the next, an answer
//! checked), a position's moves, the analysis of a position; and every kind
//! of bad input answered with a JSON error.

mod common;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use awale_core::{Position, Rules};
use awale_db::{build, Database};
use awale_store::Store;
use awale_web::{app, AppState, Config};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{memory_state, refused, Browser};

const MAX: u8 = 10;

fn db_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("awale-web-study-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&dir, &Rules::AWALE, MAX, 2).unwrap();
        dir
    })
}

fn config() -> Config {
    Config {
        hint_time: Duration::from_millis(300),
        guest_key: Some(awale_model::secret::GuestKey::from_bytes(common::TEST_KEY)),
        ..Config::default()
    }
}

/// A server with the database, for puzzles and as the engine's oracle.
fn study_app() -> Router {
    study_app_with(config())
}

/// The same with `config` (a test's clock, say).
fn study_app_with(config: Config) -> Router {
    let dir = db_dir().clone();
    let oracles: awale_service::computer::OracleSource =
        Box::new(move |rules| awale_db::oracle_for(rules, Some(&dir)).ok().flatten());
    let state = AppState::with_oracle(Store::in_memory().unwrap(), config, Some(oracles)).unwrap();
    let db = Database::open(db_dir(), &Rules::AWALE).unwrap();
    state.set_puzzle_database(Some(Arc::new(db)));
    app(state)
}

fn bare_app() -> Router {
    app(memory_state(config()))
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{method} {uri}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, value)
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None).await
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(&body.to_string())).await
}

fn error_code(status: StatusCode, body: &Value, expected: (StatusCode, &str)) {
    assert_eq!(
        (status, body["error"].as_str()),
        (expected.0, Some(expected.1)),
        "{body}"
    );
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

/// The analysis of `body` (a position and options): its answer, which
/// must be OK.
async fn analysis(app: &Router, body: Value) -> Value {
    let (status, answer) = post(app, "/api/study/analysis", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

#[tokio::test]
async fn twenty_puzzles_in_a_row_each_with_one_answer_the_database_confirms() {
    let app = study_app();
    let (status, info) = get(&app, "/api/study").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (info["puzzles"].clone(), info["max_seeds"].clone()),
        (json!(true), json!(MAX))
    );
    let db = Database::open(db_dir(), &Rules::AWALE).unwrap();
    let mut seen = std::collections::HashSet::new();
    for seed in 1..=20 {
        let (status, next) = get(&app, &format!("/api/study/puzzles/next?seed={seed}")).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert_eq!(next["seed"], seed);
        let p = &next["puzzle"];
        let diagram = p["position"].as_str().unwrap();
        seen.insert(diagram.to_string());
        let position: Position = diagram.parse().unwrap();
        let answer = p["answer"].as_str().unwrap();
        // The answer is right, with the puzzle's line.
        let (status, right) = post(
            &app,
            "/api/study/puzzles/check",
            json!({"position": diagram, "move": answer}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{right}");
        assert_eq!(right["correct"], true);
        assert_eq!(right["best"], json!([answer]));
        assert_eq!(right["line"], p["line"]);
        assert_eq!(right["refutation"], json!([]));
        // Every other move is wrong, and the database agrees.
        let value = db.probe(&position).unwrap().lower;
        assert_eq!(p["value"], value);
        for m in db.move_entries(&position).unwrap() {
            let letter = m.mv.to_string();
            if letter == answer {
                assert_eq!(m.lower, value);
                continue;
            }
            assert!(m.lower < value);
            let (_, wrong) = post(
                &app,
                "/api/study/puzzles/check",
                json!({"position": diagram, "move": letter}),
            )
            .await;
            assert_eq!(wrong["correct"], false, "{wrong}");
            assert_eq!(wrong["refutation"][0], letter.as_str());
        }
    }
    assert_eq!(seen.len(), 20, "twenty different puzzles");
}

#[tokio::test]
async fn the_puzzle_of_the_day_is_the_same_all_day_and_next_follows_its_filters() {
    let app = study_app();
    let (status, a) = get(&app, "/api/study/puzzles/daily?day=20422").await;
    assert_eq!(status, StatusCode::OK, "{a}");
    let (_, b) = get(&app, "/api/study/puzzles/daily?day=20422").await;
    assert_eq!(a, b);
    let (_, c) = get(&app, "/api/study/puzzles/daily?day=20423").await;
    assert_ne!(a["puzzle"], c["puzzle"]);
    let (status, today) = get(&app, "/api/study/puzzles/daily").await;
    assert_eq!(status, StatusCode::OK);
    assert!(today["day"].as_i64().unwrap() > 20_000);
    for d in 1..=4 {
        let (status, p) = get(
            &app,
            &format!("/api/study/puzzles/next?seed=3&difficulty={d}"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["puzzle"]["difficulty"], d);
    }
    let (_, p) = get(&app, "/api/study/puzzles/next?seed=3&theme=save_draw").await;
    assert_eq!(p["puzzle"]["theme"], "save_draw");
    assert_eq!(p["puzzle"]["goal"], "draw");
    // Without a seed, a random one, given back.
    let (_, p) = get(&app, "/api/study/puzzles/next").await;
    assert!(p["seed"].is_u64());
    // A krou needs 12 seeds in a hole: none under 10, and the hunt stops.
    let (status, none) = get(&app, "/api/study/puzzles/next?seed=1&theme=krou").await;
    error_code(status, &none, (StatusCode::NOT_FOUND, "no_puzzle"));
}

#[tokio::test]
async fn bad_study_requests_get_json_errors_naming_the_problem() {
    let app = study_app();
    let refused = |(s, v): (StatusCode, Value), status: u16, code: &str, what: &str| {
        assert_eq!(
            (s.as_u16(), v["error"].as_str()),
            (status, Some(code)),
            "{what}: {v}"
        );
    };
    // Queries, `GET /api/study/...`: the status and code of the refusal.
    for (query, status, code) in [
        ("puzzles/next?difficulty=9", 422, "bad_difficulty"),
        ("puzzles/next?theme=nope", 422, "bad_theme"),
        ("puzzles/next?seed=abc", 400, "bad_query"),
        ("puzzles/next?seed=-1", 400, "bad_query"),
        ("puzzles/next?what=1", 400, "bad_query"),
        ("puzzles/daily?day=99999999999", 400, "bad_query"),
        ("position", 400, "bad_query"),
        ("position?position=4-4", 422, "bad_position"),
        (
            "position?position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&rules=chess",
            422,
            "bad_rules",
        ),
        ("analysis", 405, "method_not_allowed"),
    ] {
        refused(
            get(&app, &format!("/api/study/{query}")).await,
            status,
            code,
            query,
        );
    }
    // A puzzle's answer to check: a position and a move.
    let check = "/api/study/puzzles/check";
    refused(
        call(&app, "POST", check, Some("{")).await,
        400,
        "bad_json",
        "{",
    );
    for (position, mv, status, code) in [
        ("x", "F", 422, "bad_position"),
        ("0-0-0-0-1-1-1-0-0-0-0-0-20-25-S", "FF", 400, "bad_move"),
        ("0-0-0-0-1-1-1-0-0-0-0-0-20-25-S", "A", 422, "illegal_move"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "F", 422, "not_covered"),
        ("0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", "F", 422, "illegal_move"),
        ("99-0-0-0-0-0-0-0-0-0-0-0-0-0-S", "A", 422, "bad_position"),
    ] {
        let body = json!({"position": position, "move": mv});
        let what = format!("{position} {mv}");
        refused(post(&app, check, body).await, status, code, &what);
    }
    // An analysis of the start position with one field out of bounds.
    for (field, value, code) in [
        ("lines", json!(0), "bad_lines"),
        ("lines", json!(7), "bad_lines"),
        ("depth", json!(7), "bad_field"),
        ("rules", json!("awale,target=99"), "bad_rules"),
    ] {
        let mut body = json!({"position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"});
        body[field] = value;
        refused(
            post(&app, "/api/study/analysis", body).await,
            422,
            code,
            field,
        );
    }
    // A long hostile query is refused as such, not a panic.
    let long = format!("/api/study/position?position={}", "9-".repeat(5_000));
    let (s, v) = get(&app, &long).await;
    error_code(s, &v, (StatusCode::UNPROCESSABLE_ENTITY, "bad_position"));
}

#[tokio::test]
async fn without_a_database_puzzles_say_how_to_build_one() {
    let app = bare_app();
    let (_, info) = get(&app, "/api/study").await;
    assert_eq!(info["puzzles"], false);
    for uri in ["/api/study/puzzles/daily", "/api/study/puzzles/next?seed=1"] {
        let (s, v) = get(&app, uri).await;
        error_code(s, &v, (StatusCode::NOT_FOUND, "no_database"));
        assert!(
            v["message"].as_str().unwrap().contains("awale db build"),
            "{v}"
        );
    }
    let body = json!({"position": "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S", "move": "E"});
    let (s, v) = post(&app, "/api/study/puzzles/check", body).await;
    error_code(s, &v, (StatusCode::NOT_FOUND, "no_database"));
    // The moves of a position and the engine's analysis need no database.
    let (s, _) = get(
        &app,
        "/api/study/position?position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let a = analysis(
        &app,
        json!({"position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "lines": 2}),
    )
    .await;
    assert_eq!(a["lines"].as_array().unwrap().len(), 2);
    assert!(a["scores"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["db"].is_null()));
}

#[tokio::test]
async fn a_position_tells_what_each_hole_does_or_why_it_cannot_be_played() {
    let app = bare_app();
    let (_, start) = get(
        &app,
        "/api/study/position?position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    )
    .await;
    assert_eq!(start["to_move"], "S");
    assert_eq!(start["seeds"], 48);
    assert_eq!(start["rules"]["name"], "awale");
    let f = &start["moves"][5];
    assert_eq!(f["move"], "F");
    assert_eq!(f["legal"], true);
    assert_eq!(f["sown"], json!([6, 7, 8, 9]));
    assert_eq!(f["after"], "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
    // North starving: only feeding moves; a grand slam refused.
    let (_, feed) = get(
        &app,
        "/api/study/position?position=2-0-4-0-1-0-0-0-0-0-0-0-21-20-S",
    )
    .await;
    let reasons: Vec<&str> = feed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reason"].as_str().unwrap_or("legal"))
        .collect();
    assert_eq!(
        reasons,
        [
            "does_not_feed",
            "empty_hole",
            "legal",
            "empty_hole",
            "does_not_feed",
            "empty_hole"
        ]
    );
    let (_, slam) = get(
        &app,
        "/api/study/position?position=3-0-0-0-1-2-1-2-0-0-0-0-20-19-S",
    )
    .await;
    assert_eq!(slam["moves"][5]["reason"], "grand_slam");
    let (_, chain) = get(
        &app,
        "/api/study/position?position=1-0-0-2-3-1-1-2-4-0-2-1-15-16-S",
    )
    .await;
    assert_eq!(chain["moves"][4]["captures"], json!([7, 6]));
    assert_eq!(chain["moves"][4]["captured"], 5);
    // Under abapa the same grand slam is legal and captures nothing.
    let (_, abapa) = get(
        &app,
        "/api/study/position?position=3-0-0-0-1-2-1-2-0-0-0-0-20-19-S&rules=abapa",
    )
    .await;
    assert_eq!(abapa["moves"][5]["legal"], true);
    assert_eq!(abapa["moves"][5]["grand_slam"], true);
    assert_eq!(abapa["moves"][5]["captured"], 0);
    // The end: North cannot be fed, South takes the rest.
    let (_, end) = get(
        &app,
        "/api/study/position?position=1-2-1-0-0-0-0-0-0-0-0-0-21-23-S",
    )
    .await;
    assert_eq!(
        end["end"],
        json!({"reason": "starvation", "stores": [25, 23], "winner": "S"})
    );
    // Fewer than 48 seeds: a study position, its total shown.
    let (_, few) = get(
        &app,
        "/api/study/position?position=1-0-0-0-0-0-0-0-0-0-0-1-0-0-N",
    )
    .await;
    assert_eq!(few["seeds"], 2);
    assert_eq!(few["to_move"], "N");
    assert_eq!(few["moves"][5]["move"], "f");
}

#[tokio::test]
async fn the_analysis_gives_engine_lines_and_database_values_per_move() {
    let app = study_app();
    // F takes 5 at once (b and a); the database knows every move.
    let diagram = "0-0-0-1-0-2-1-2-0-0-0-1-20-21-S";
    let a = analysis(&app, json!({"position": diagram, "lines": 2})).await;
    let lines = a["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["move"], "F");
    assert_eq!(lines[0]["pv"][0], "F");
    assert!(lines[0]["score"]["text"].is_string());
    let db = Database::open(db_dir(), &Rules::AWALE).unwrap();
    let position: Position = diagram.parse().unwrap();
    assert_eq!(a["db"]["lower"], db.probe(&position).unwrap().lower);
    let entries = db.move_entries(&position).unwrap();
    let scores = a["scores"].as_array().unwrap();
    assert_eq!(scores.len(), entries.len());
    for (m, e) in scores.iter().zip(&entries) {
        assert_eq!(m["move"], e.mv.to_string().as_str());
        // The database's own value, from a fresh start: the value itself
        // where nothing can come back (F captures) or its move keeps the
        // position's value; else beside the bounds in the game.
        let fresh = if m["db"]["fresh"].is_null() {
            json!([m["db"]["lower"], m["db"]["upper"]])
        } else {
            m["db"]["fresh"].clone()
        };
        assert_eq!(fresh, json!([e.lower, e.upper]), "{m}");
        assert_eq!(m["captured"], e.captures);
    }
    // Over 10 seeds: no database value, the engine's lines still.
    let (_, start) = post(
        &app,
        "/api/study/analysis",
        json!({"position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}),
    )
    .await;
    assert_eq!(start["lines"].as_array().unwrap().len(), 3);
    assert!(start["db"].is_null());
    // A finished game has no lines.
    let (_, over) = post(
        &app,
        "/api/study/analysis",
        json!({"position": "1-2-1-0-0-0-0-0-0-0-0-0-21-23-S"}),
    )
    .await;
    assert_eq!(over["lines"], json!([]));
    assert_eq!(over["end"]["reason"], "starvation");
}

#[tokio::test]
async fn a_move_that_loses_at_once_is_scored_a_loss() {
    // South's one move F leaves North, 27 seeds in store, the game: a
    // forced result at ply 0, which a count of plies alone said was won.
    let diagram = "0-0-0-0-0-1-0-0-0-0-0-0-20-27-S";
    let a = analysis(&bare_app(), json!({"position": diagram})).await;
    let lost = json!({"wins": false, "plies": 0});
    for score in [&a["lines"][0]["score"], &a["scores"][0]["score"]] {
        assert_eq!(score["forced"], lost, "{a}");
        assert_eq!(score["cp"], -5_000, "{a}");
        assert_eq!(score["text"], "loss in 0", "{a}");
    }
    // Where the database decides the move too, the loss keeps its
    // distance (it agrees with the database's result).
    let a = analysis(&study_app(), json!({"position": diagram})).await;
    let score = &a["scores"][0]["score"];
    assert_eq!(score["forced"], lost, "{a}");
    assert!(final_margin(score).is_some_and(|m| m < 0), "{a}");
}

/// The score in seeds at the end (the mover's view) that an analysis gives
/// a move, when decided.
fn final_margin(score: &Value) -> Option<i64> {
    score["decided"]
        .as_bool()
        .unwrap()
        .then(|| score["cp"].as_i64().unwrap() / 100)
}

#[tokio::test]
async fn the_analysis_follows_the_database_where_it_decides_a_move() {
    let app = study_app();
    let db = Database::open(db_dir(), &Rules::AWALE).unwrap();
    // Five seeds left, South 20, North 23, South to move: the database says
    // South takes all five (wins 25-23) from here; no move captures.
    let diagram = "1-1-0-1-1-0-0-0-0-1-0-0-20-23-S";
    let position: Position = diagram.parse().unwrap();
    let value = db.probe(&position).unwrap();
    assert_eq!((value.lower, value.upper), (5, 5));
    let best = db.best_move(&position).unwrap().to_string();
    let a = analysis(&app, json!({"position": diagram, "lines": 4})).await;
    assert_eq!(a["db"], json!({"lower": 5, "upper": 5}));
    // The move the database plays keeps the value: decided, its score the
    // result at the end (25-23), first of the lines, and its line the
    // database's: each move keeps the value of its position.
    let scores = a["scores"].as_array().unwrap();
    let decided = scores.iter().find(|m| m["move"] == best.as_str()).unwrap();
    assert_eq!(decided["db"], json!({"lower": 5, "upper": 5}), "{decided}");
    assert_eq!(final_margin(&decided["score"]), Some(2), "{decided}");
    let line = &a["lines"][0];
    assert_eq!(line["move"], best.as_str(), "{a}");
    assert_eq!(final_margin(&line["score"]), Some(2));
    let mut here = position;
    for letter in line["pv"].as_array().unwrap() {
        let mv = letter.as_str().unwrap().parse().unwrap();
        let entries = db.move_entries(&here).unwrap();
        let top = entries.iter().map(|e| e.lower).max().unwrap();
        let played = entries.iter().find(|e| e.mv == mv).expect("a legal move");
        assert_eq!(played.lower, top, "{letter} at {here}: {line}");
        here = here.play_unchecked(mv);
    }
    // The others: the position before them may come back, where the seeds
    // left go to nobody (South then loses 20-23): the bounds in the game
    // run from there to the database's, which stays beside them. Their
    // scores are the engine's, never a decided result the bounds deny.
    for m in scores.iter().filter(|m| m["move"] != best.as_str()) {
        assert_eq!(m["db"]["fresh"], json!([5, 5]), "{m}");
        assert_eq!(
            (&m["db"]["lower"], &m["db"]["upper"]),
            (&json!(0), &json!(5)),
            "{m}"
        );
        if let Some(margin) = final_margin(&m["score"]) {
            assert!((-3..=2).contains(&margin), "{m}");
        }
    }
    // With moves played to get here, the position itself may come back.
    let body = json!({"position": diagram, "moves": "Bd", "lines": 2});
    let (_, later) = post(&app, "/api/study/analysis", body).await;
    let after: Position = "1-0-1-1-1-0-0-0-0-0-1-0-20-23-S".parse().unwrap();
    assert_eq!(later["position"], after.to_string().as_str());
    let fresh = db.probe(&after).unwrap();
    if fresh.lower != 0 {
        assert_eq!(
            later["db"]["fresh"],
            json!([fresh.lower, fresh.upper]),
            "{later}"
        );
        assert_eq!(later["db"]["lower"], json!(fresh.lower.min(0)), "{later}");
    }
    // Every move whose value is exact in the game is scored by it.
    for m in later["scores"].as_array().unwrap() {
        if m["db"]["lower"] == m["db"]["upper"] {
            let margin = -3 + m["db"]["lower"].as_i64().unwrap();
            assert_eq!(final_margin(&m["score"]), Some(margin), "{m}");
        }
    }
}

#[tokio::test]
async fn an_analysis_from_a_game_knows_its_history() {
    let app = bare_app();
    let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
    let body = json!({"position": start, "moves": "FfAa", "lines": 1});
    let (s, a) = post(&app, "/api/study/analysis", body).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["position"], "0-6-6-6-5-1-0-6-6-6-5-1-0-0-S");
    // One seed each, chasing round the board: after twelve moves the first
    // position is back, and the game ends there.
    let chase = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S";
    let (_, fresh) = post(&app, "/api/study/analysis", json!({"position": chase})).await;
    assert!(fresh["end"].is_null(), "{fresh}");
    let body = json!({"position": chase, "moves": "FfAaBbCcDdEe"});
    let (_, again) = post(&app, "/api/study/analysis", body).await;
    assert_eq!(again["end"]["reason"], "repetition", "{again}");
    assert_eq!(again["lines"], json!([]));
    for (moves, status, code) in [
        ("FF", StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        ("Fx", StatusCode::BAD_REQUEST, "bad_moves"),
    ] {
        let body = json!({"position": start, "moves": moves});
        let (s, v) = post(&app, "/api/study/analysis", body).await;
        error_code(s, &v, (status, code));
    }
    let body = json!({"position": chase, "moves": "Ff".repeat(1_001)});
    let (s, v) = post(&app, "/api/study/analysis", body).await;
    error_code(s, &v, (StatusCode::UNPROCESSABLE_ENTITY, "bad_moves"));
}

#[tokio::test]
async fn analyses_share_the_search_pool_and_beyond_its_queue_are_refused() {
    // One search at a time, one waiting: of four analyses asked at once,
    // the fourth at least is refused as busy, and none is lost.
    let config = Config {
        max_searches: 1,
        max_queued_searches: 1,
        hint_time: Duration::from_millis(400),
        ..Config::default()
    };
    let app = app(memory_state(config));
    let body = json!({"position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "lines": 1});
    let ask = || post(&app, "/api/study/analysis", body.clone());
    let (a, b, c, d) = tokio::join!(ask(), ask(), ask(), ask());
    let statuses: Vec<StatusCode> = [&a, &b, &c, &d].iter().map(|r| r.0).collect();
    assert!(statuses.contains(&StatusCode::OK), "{statuses:?}");
    for (status, v) in [a, b, c, d] {
        match status {
            StatusCode::OK => assert_eq!(v["lines"].as_array().unwrap().len(), 1),
            _ => error_code(status, &v, (StatusCode::SERVICE_UNAVAILABLE, "busy")),
        }
    }
    assert!(
        statuses.contains(&StatusCode::SERVICE_UNAVAILABLE),
        "{statuses:?}"
    );
}

/// Random bodies and queries to every study endpoint: never a server error,
/// always a JSON answer. A longer run: `PROPTEST_CASES=5000 cargo test -p
/// awale-web --test study`.
#[test]
fn no_study_request_gets_a_server_error() {
    use proptest::prelude::*;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let app = runtime.block_on(async {
        let dir = db_dir().clone();
        let oracles: awale_service::computer::OracleSource =
            Box::new(move |rules| awale_db::oracle_for(rules, Some(&dir)).ok().flatten());
        let config = Config {
            hint_time: Duration::from_millis(5),
            ..Config::default()
        };
        let state =
            AppState::with_oracle(Store::in_memory().unwrap(), config, Some(oracles)).unwrap();
        state.set_puzzle_database(Some(Arc::new(
            Database::open(db_dir(), &Rules::AWALE).unwrap(),
        )));
        app(state)
    });
    // Diagrams: some real, most not (wrong counts, huge numbers, junk).
    let diagram = prop_oneof![
        proptest::collection::vec(0u16..70, 0..16).prop_map(|v| {
            let mut parts: Vec<String> = v.iter().map(u16::to_string).collect();
            parts.push(["S", "N", "x", ""][v.len() % 4].to_string());
            parts.join("-")
        }),
        "\\PC{0,40}",
    ];
    let text = "\\PC{0,12}";
    let request = prop_oneof![
        (diagram.clone(), text).prop_map(|(p, m)| (
            "POST",
            "/api/study/puzzles/check".to_string(),
            json!({"position": p, "move": m}).to_string()
        )),
        (diagram.clone(), text, 0usize..9, text).prop_map(|(p, m, l, r)| (
            "POST",
            "/api/study/analysis".to_string(),
            json!({"position": p, "moves": m, "lines": l, "rules": r}).to_string()
        )),
        proptest::collection::vec(any::<u8>(), 0..64).prop_map(|b| (
            "POST",
            "/api/study/analysis".to_string(),
            String::from_utf8_lossy(&b).into_owned()
        )),
        (diagram, text).prop_map(|(p, r)| {
            let q = format!("position={}&rules={}", urlish(&p), urlish(&r));
            ("GET", format!("/api/study/position?{q}"), String::new())
        }),
        (text, text, text).prop_map(|(s, d, t)| {
            let q = format!(
                "seed={}&difficulty={}&theme={}",
                urlish(&s),
                urlish(&d),
                urlish(&t)
            );
            ("GET", format!("/api/study/puzzles/next?{q}"), String::new())
        }),
        text.prop_map(|d| (
            "GET",
            format!("/api/study/puzzles/daily?day={}", urlish(&d)),
            String::new()
        )),
    ];
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases,
        ..Default::default()
    });
    runner
        .run(&request, |(method, uri, body)| {
            let (status, bytes) = runtime.block_on(async {
                let request = Request::builder()
                    .method(method)
                    .uri(&uri)
                    .header("content-type", "application/json")
                    .body(Body::from(body.clone()))
                    .unwrap();
                let response = app.clone().oneshot(request).await.unwrap();
                let status = response.status();
                (
                    status,
                    response.into_body().collect().await.unwrap().to_bytes(),
                )
            });
            prop_assert!(!status.is_server_error(), "{method} {uri} {body}: {status}");
            prop_assert!(
                serde_json::from_slice::<Value>(&bytes).is_ok(),
                "{uri}: not JSON"
            );
            Ok(())
        })
        .unwrap();
}

/// Text as it may come in a query: percent-encoded but for what is safe.
fn urlish(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b',' | b'=' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `call` as a player (games need one), with its cookie.
async fn as_player(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("cookie", format!("awale_player={}", common::guest(0x0123)))
        .body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// The decided kind of a score (mover's view), as the review gives it:
/// "win", "loss", "draw" or none (an estimate), and its margin where known
/// (a forced result without one has ±50 seeds, which are no margin).
fn result_and_margin(score: &Value) -> (Option<&'static str>, Option<i64>) {
    if score["decided"] != true {
        return (None, None);
    }
    let cp = score["cp"].as_i64().unwrap();
    let result = match (&score["forced"]["wins"], cp.signum()) {
        (Value::Bool(true), _) | (_, 1) => "win",
        (Value::Bool(false), _) | (_, -1) => "loss",
        _ => "draw",
    };
    (Some(result), (cp.abs() < 5_000).then_some(cp))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_of_an_endgame_played_as_the_databases_play_it_finds_no_mistake() {
    // Issue: in a lost endgame, moves that kept it lost were 34-40-seed
    // mistakes, and the winner's own winning move a 34-seed one: a forced
    // result (±50 seeds) was measured against the databases' margins.
    let app = study_app();
    let start = "0-0-1-1-0-2-1-2-0-1-0-1-19-20-S";
    let dir = db_dir().clone();
    let oracle = awale_db::oracle_for(&Rules::AWALE, Some(&dir))
        .unwrap()
        .expect("the oracle");
    let mut game =
        awale_core::Game::from_position(Rules::AWALE, start.parse::<Position>().unwrap());
    let (status, made) = as_player(
        &app,
        "POST",
        "/api/games",
        Some(json!({"mode": "humans", "position": start})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let mut ply = 0;
    while game.end().is_none() && ply < 40 {
        let mv = oracle.root_move(&game).expect("the databases' move");
        let (status, answer) = as_player(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": mv.letter().to_string(), "ply": ply})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        game.play(mv).unwrap();
        ply += 1;
    }
    if game.end().is_none() {
        as_player(
            &app,
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(json!({"side": "S"})),
        )
        .await;
    }
    let (status, review) = as_player(&app, "POST", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review["version"], 3);
    let rows = review["plies"].as_array().unwrap();
    assert_eq!(rows.len(), ply, "{review}");
    // Issue 40: the databases' play loses nothing: 100 for the side that
    // played it (docs/ACCURACY.md).
    let south = &review["accuracy"][0];
    assert_eq!(south["side"], "S", "{review}");
    assert_eq!(south["accuracy"], 100.0, "{review}");
    let mut decided = 0;
    for row in rows {
        let (played, best) = (&row["played"], &row["best"]["score"]);
        let (played_result, played_margin) = result_and_margin(played);
        let (best_result, best_margin) = result_and_margin(best);
        decided += usize::from(played_result.is_some());
        // Both decided: the loss is exact, and the row says so.
        if played_result.is_some() && best_result.is_some() {
            assert_eq!(row["exact"], true, "{row}");
        }
        // The databases' move keeps the result and its margin: no mistake,
        // no seeds lost.
        assert_eq!(row["mistake"], false, "{row}");
        assert!(row["gave_up"].is_null(), "{row}");
        assert!(row["loss"].is_null() || row["loss"] == 0, "{row}");
        assert_eq!(played_result, best_result, "{row}");
        // Where both margins are known they are the same.
        if let (Some(p), Some(b)) = (played_margin, best_margin) {
            assert_eq!(p, b, "{row}");
        }
    }
    assert!(decided * 2 >= rows.len(), "mostly decided: {review}");
}

/// Issue 40, learn from your mistakes: a reviewed game's mistakes become
/// puzzles of its player's own list (never of another's); an answer is
/// judged by the review's rule (the blunder again is wrong, the
/// databases' win is right and exact, with its line); solved twice, a
/// mistake is learnt. Every bad request gets its clear error.
#[tokio::test]
async fn a_reviewed_games_mistakes_become_its_players_puzzles_judged_by_the_review_rule() {
    let app = study_app();
    let mut ama = Browser::opened(&app).await;
    let mut kofi = Browser::opened(&app).await;
    // E where F wins by 8 seeds (the databases decide), then North's a.
    let game = ama
        .posted(
            &app,
            "/api/games",
            json!({"mode": "humans", "position": "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"}),
            StatusCode::CREATED,
        )
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    let moves = format!("/api/games/{id}/moves");
    ama.posted(&app, &moves, json!({"move": "E", "ply": 0}), StatusCode::OK)
        .await;
    ama.posted(&app, &moves, json!({"move": "a", "ply": 1}), StatusCode::OK)
        .await;
    let learn = format!("/api/games/{id}/mistakes");
    // Not over, so not reviewed: nothing to learn yet.
    refused(
        ama.post(&app, &learn, json!({})).await,
        StatusCode::NOT_FOUND,
        "no_review",
    );
    ama.posted(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"side": "S"}),
        StatusCode::OK,
    )
    .await;
    ama.posted(
        &app,
        &format!("/api/games/{id}/review"),
        json!({}),
        StatusCode::OK,
    )
    .await;
    refused(
        kofi.post(&app, &learn, json!({})).await,
        StatusCode::FORBIDDEN,
        "not_your_game",
    );
    let kept = ama.posted(&app, &learn, json!({}), StatusCode::OK).await;
    let mistakes = kept["mistakes"].as_array().unwrap();
    let blunder = mistakes
        .iter()
        .find(|m| m["ply"] == 0)
        .unwrap_or_else(|| panic!("E is a mistake: {kept}"));
    assert_eq!(
        (&blunder["position"], &blunder["played"], &blunder["side"]),
        (
            &json!("0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"),
            &json!("E"),
            &json!("S")
        )
    );
    let n = blunder["id"].as_i64().unwrap();
    // Asked again, kept once.
    let again = ama.posted(&app, &learn, json!({}), StatusCode::OK).await;
    assert_eq!(again["mistakes"], kept["mistakes"]);
    // Another player neither sees nor answers it.
    let (_, theirs) = kofi.get(&app, "/api/study/mistakes").await;
    assert_eq!(theirs["mistakes"], json!([]));
    let answer = format!("/api/study/mistakes/{n}/answer");
    refused(
        kofi.post(&app, &answer, json!({"move": "F"})).await,
        StatusCode::NOT_FOUND,
        "no_mistake",
    );
    refused(
        ama.post(&app, "/api/study/mistakes/x1/answer", json!({"move": "F"}))
            .await,
        StatusCode::NOT_FOUND,
        "no_mistake",
    );
    refused(
        ama.post(&app, &answer, json!({"move": "Z"})).await,
        StatusCode::BAD_REQUEST,
        "bad_move",
    );
    let (status, empty) = ama.post(&app, &answer, json!({"move": "A"})).await;
    assert_eq!(
        (status, empty["error"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("illegal_move")),
        "{empty}"
    );
    // The blunder is wrong; the databases' win is right, exact, its line
    // played out.
    let wrong = ama
        .posted(&app, &answer, json!({"move": "E"}), StatusCode::OK)
        .await;
    assert_eq!(wrong["right"], false, "{wrong}");
    assert_eq!(wrong["best"]["move"], "F", "{wrong}");
    let right = ama
        .posted(&app, &answer, json!({"move": "F"}), StatusCode::OK)
        .await;
    assert_eq!(
        (&right["right"], &right["exact"], &right["margin"]),
        (&json!(true), &json!(true), &Value::Null),
        "{right}"
    );
    assert_eq!(right["good"], json!(["F"]), "{right}");
    assert_eq!(right["line"][0], "F", "{right}");
    assert_eq!(right["answered"]["score"]["decided"], true, "{right}");
    assert_eq!(
        (
            &right["mistake"]["solved"],
            &right["mistake"]["tries"],
            &right["mistake"]["learnt"]
        ),
        (&json!(1), &json!(2), &json!(false))
    );
    // Solved twice: learnt, listed after those still to learn.
    let learnt = ama
        .posted(&app, &answer, json!({"move": "F"}), StatusCode::OK)
        .await;
    assert_eq!(learnt["mistake"]["learnt"], true, "{learnt}");
    let (_, list) = ama.get(&app, "/api/study/mistakes").await;
    let listed = list["mistakes"].as_array().unwrap();
    assert_eq!(listed.last().unwrap()["id"], n, "{list}");
    let (status, one) = ama.get(&app, &format!("/api/study/mistakes/{n}")).await;
    assert_eq!((status, &one["learnt"]), (StatusCode::OK, &json!(true)));
}

/// A game of `ama`'s (both sides hers) from the position where E throws
/// away F's win by 8 seeds: E played, then South resigns, the game
/// reviewed and its mistakes kept; the number of the mistake E.
async fn blunder_kept(app: &Router, ama: &mut Browser) -> i64 {
    let game = ama
        .posted(
            app,
            "/api/games",
            json!({"mode": "humans", "position": "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"}),
            StatusCode::CREATED,
        )
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    ama.posted(
        app,
        &format!("/api/games/{id}/moves"),
        json!({"move": "E", "ply": 0}),
        StatusCode::OK,
    )
    .await;
    ama.posted(
        app,
        &format!("/api/games/{id}/resign"),
        json!({"side": "S"}),
        StatusCode::OK,
    )
    .await;
    ama.posted(
        app,
        &format!("/api/games/{id}/review"),
        json!({}),
        StatusCode::OK,
    )
    .await;
    let kept = ama
        .posted(
            app,
            &format!("/api/games/{id}/mistakes"),
            json!({}),
            StatusCode::OK,
        )
        .await;
    let mistakes = kept["mistakes"].as_array().unwrap();
    assert_eq!(mistakes.len(), 1, "E alone: {kept}");
    assert_eq!(mistakes[0]["played"], "E", "{kept}");
    mistakes[0]["id"].as_i64().unwrap()
}

/// `ama`'s list of mistakes: their numbers in the list's order, and how
/// many are due now.
async fn listed(app: &Router, ama: &mut Browser) -> (Vec<i64>, Value) {
    let (status, list) = ama.get(app, "/api/study/mistakes").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let ids = list["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    (ids, list["due"].clone())
}

/// Answers `ama`'s mistake `n` with `letter` on the server's clock
/// `time`: checks that it comes back `after` the answer (its `due_ms`
/// between the clock before and after the call, moved on by `after`), and
/// gives the answer.
async fn answered(
    app: &Router,
    ama: &mut Browser,
    time: &awale_service::clock::Clock,
    n: i64,
    letter: &str,
    after: Duration,
) -> Value {
    let before = time.now_ms();
    let answer = ama
        .posted(
            app,
            &format!("/api/study/mistakes/{n}/answer"),
            json!({"move": letter}),
            StatusCode::OK,
        )
        .await;
    let due = answer["mistake"]["due_ms"].as_i64().unwrap();
    let wait = after.as_millis() as i64;
    assert!(
        (before + wait..=time.now_ms() + wait).contains(&due),
        "due {due}, answered between {before} and {} plus {wait}: {answer}",
        time.now_ms()
    );
    answer
}

/// Issue 40, "retried later until solved twice": a mistake kept is due at
/// once; missed, it comes back 10 minutes later; solved (not yet twice), a
/// day later; the list gives the soonest due first and the learnt last,
/// and counts those due now. The server's own clock is moved (injected,
/// `Config::clock`), nothing waits.
#[tokio::test]
async fn a_mistake_comes_back_ten_minutes_after_a_miss_and_a_day_after_a_solve() {
    let time = awale_service::clock::Clock::adjustable();
    let app = study_app_with(Config {
        clock: time.clone(),
        ..config()
    });
    let mut ama = Browser::opened(&app).await;
    let first = blunder_kept(&app, &mut ama).await;
    let second = blunder_kept(&app, &mut ama).await;
    assert_ne!(first, second);
    // Both due at once, the first kept first.
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![first, second], json!(2))
    );
    let minutes = |m: u64| Duration::from_secs(60 * m);
    let ten = minutes(10);
    let day = minutes(24 * 60);
    // The first missed: back in 10 minutes. The second solved once: back
    // in a day. None due now; the first comes back sooner.
    let missed = answered(&app, &mut ama, &time, first, "E", ten).await;
    assert_eq!(missed["right"], false, "{missed}");
    assert_eq!(
        (&missed["mistake"]["tries"], &missed["mistake"]["solved"]),
        (&json!(1), &json!(0))
    );
    let solved = answered(&app, &mut ama, &time, second, "F", day).await;
    assert_eq!(solved["right"], true, "{solved}");
    assert_eq!(solved["mistake"]["learnt"], false, "{solved}");
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![first, second], json!(0))
    );
    // Nine minutes on: still not due. Ten: the missed one is.
    time.advance(minutes(9));
    assert_eq!(listed(&app, &mut ama).await.1, json!(0));
    time.advance(minutes(1) + Duration::from_secs(1));
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![first, second], json!(1))
    );
    // Solved now: back a day from now, after the second (due a day from
    // its own solve, ten minutes earlier): the order turns.
    let solved = answered(&app, &mut ama, &time, first, "F", day).await;
    assert_eq!(solved["right"], true, "{solved}");
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![second, first], json!(0))
    );
    // A day after the second's solve: it is due, the first not yet.
    time.advance(day - ten);
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![second, first], json!(1))
    );
    // Solved twice, the second is learnt: it comes back no more, listed
    // after those still to learn, never counted due.
    let learnt = answered(&app, &mut ama, &time, second, "F", day).await;
    assert_eq!(learnt["mistake"]["learnt"], true, "{learnt}");
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![first, second], json!(0))
    );
    time.advance(day);
    assert_eq!(
        listed(&app, &mut ama).await,
        (vec![first, second], json!(1))
    );
    time.advance(day * 30);
    assert_eq!(listed(&app, &mut ama).await.1, json!(1));
}

/// An online game between `ama` (South) and `kofi` from the position
/// where F wins by 8 and E throws it away: South plays `south`, North
/// a legal move, South resigns if the game goes on; the game reviewed. `clock`: the
/// game's clock (none: a correspondence game). Gives the review.
async fn reviewed_online(
    app: &Router,
    ama: &mut Browser,
    kofi: &mut Browser,
    clock: Option<Value>,
    south: &str,
) -> Value {
    let mut body = json!({"mode": "online", "human": "S", "public": true,
        "position": "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"});
    if let Some(clock) = clock {
        body["clock"] = clock;
    }
    let game = ama
        .posted(app, "/api/games", body, StatusCode::CREATED)
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    kofi.posted(
        app,
        &format!("/api/games/{id}/join"),
        json!({}),
        StatusCode::OK,
    )
    .await;
    let moves = format!("/api/games/{id}/moves");
    ama.posted(
        app,
        &moves,
        json!({"move": south, "ply": 0}),
        StatusCode::OK,
    )
    .await;
    // North's first legal move after E (a, b and f hold seeds) or after
    // F (which takes a and b: f alone).
    let north = if south == "F" { "f" } else { "a" };
    let after = kofi
        .posted(
            app,
            &moves,
            json!({"move": north, "ply": 1}),
            StatusCode::OK,
        )
        .await;
    // After F then f, North's three seeds are in South's row and no move
    // of South's can feed North: over already. Otherwise South resigns.
    if after["end"].is_null() {
        ama.posted(
            app,
            &format!("/api/games/{id}/resign"),
            json!({}),
            StatusCode::OK,
        )
        .await;
    }
    ama.posted(
        app,
        &format!("/api/games/{id}/review"),
        json!({}),
        StatusCode::OK,
    )
    .await
}

/// A side's accuracy in a review.
fn accuracy_of(review: &Value, side: &str) -> f64 {
    review["accuracy"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["side"] == side)
        .and_then(|a| a["accuracy"].as_f64())
        .unwrap_or_else(|| panic!("{side}'s accuracy: {review}"))
}

/// Issue 40, accuracy on the player page: the mean of a player's
/// accuracies over their reviewed online games, by speed (two blitz games
/// and a correspondence one), each from the side they played; a player
/// with no reviewed game has none; no such player, a clear error.
#[tokio::test]
async fn a_players_page_gives_their_mean_accuracy_by_speed() {
    let app = study_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let (status, none) = ama.get(&app, "/api/players/ama/learning").await;
    assert_eq!(status, StatusCode::OK, "{none}");
    assert_eq!(none["accuracy"], json!([]), "{none}");
    // Blitz (5 minutes: 300 s estimated): the blunder, then the best move.
    let blitz = json!({"minutes": 5});
    let blunder = reviewed_online(&app, &mut ama, &mut kofi, Some(blitz.clone()), "E").await;
    let best = reviewed_online(&app, &mut ama, &mut kofi, Some(blitz), "F").await;
    // Correspondence (no clock): the blunder again.
    let slow = reviewed_online(&app, &mut ama, &mut kofi, None, "E").await;
    let (low, high) = (accuracy_of(&blunder, "S"), accuracy_of(&best, "S"));
    assert!(low < high, "the blunder costs: {low} {high}");
    assert_eq!(high, 100.0, "{best}");
    let tenth = |x: f64| (x * 10.0).round() / 10.0;
    let (status, page) = kofi.get(&app, "/api/players/Ama/learning").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["username"], "Ama");
    assert_eq!(
        page["accuracy"],
        json!([
            {"speed": "blitz", "accuracy": tenth((low + high) / 2.0), "games": 2},
            {"speed": "correspondence", "accuracy": accuracy_of(&slow, "S"), "games": 1},
        ]),
        "{page}"
    );
    // Kofi's, from North's side of the same games.
    let (_, page) = ama.get(&app, "/api/players/kofi/learning").await;
    let north = [&blunder, &best].map(|r| accuracy_of(r, "N"));
    assert_eq!(
        page["accuracy"],
        json!([
            {"speed": "blitz", "accuracy": tenth((north[0] + north[1]) / 2.0), "games": 2},
            {"speed": "correspondence", "accuracy": accuracy_of(&slow, "N"), "games": 1},
        ]),
        "{page}"
    );
    refused(
        ama.get(&app, "/api/players/nobody/learning").await,
        StatusCode::NOT_FOUND,
        "no_such_player",
    );
}

/// Puzzle `p` tried as a player with its first legal move that is not
/// the answer: the server's word.
async fn first_wrong(app: &Router, p: &Value, streak: bool) -> Value {
    for m in ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"] {
        if p["answer"] == m {
            continue;
        }
        let (status, tried) = as_player(
            app,
            "POST",
            "/api/study/puzzles/check",
            Some(json!({"position": p["position"], "move": m, "streak": streak})),
        )
        .await;
        if status == StatusCode::OK {
            return tried;
        }
    }
    panic!("no wrong legal move in {p}")
}

/// Issue 40, puzzle ratings: a player's first try of each puzzle moves
/// their puzzle rating and the puzzle's (a second try, nothing); the next
/// puzzle is the one rated nearest their rating of one of each
/// difficulty; without a player nothing is rated.
#[tokio::test]
async fn a_first_try_rates_the_solver_and_the_puzzle_and_the_next_is_chosen_near_the_rating() {
    let app = study_app();
    let (status, me) = as_player(&app, "GET", "/api/study/puzzles/rating", None).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["rating"]["rating"], 1500);
    assert_eq!(me["rating"]["provisional"], true);
    assert_eq!(me["attempts"], 0);
    // The next: of the puzzles of seed+1 (difficulty 1) to seed+5
    // (difficulty 5), the one rated nearest 1500 (none tried yet: each at
    // its difficulty's start).
    let (status, next) = as_player(&app, "GET", "/api/study/puzzles/next?seed=40", None).await;
    assert_eq!(status, StatusCode::OK, "{next}");
    assert_eq!(next["target"], 1500);
    let chosen = next["puzzle_rating"]["rating"].as_i64().unwrap();
    for d in 1..=5u64 {
        let (status, p) = get(
            &app,
            &format!("/api/study/puzzles/next?seed={}&difficulty={d}", 40 + d),
        )
        .await;
        if status != StatusCode::OK {
            continue;
        }
        let start = 1500 + 200 * (d as i64 - 3);
        assert!((chosen - 1500).abs() <= (start - 1500).abs(), "{p} {next}");
    }
    let p = &next["puzzle"];
    let diagram = p["position"].as_str().unwrap();
    let answer = p["answer"].as_str().unwrap();
    // A miss at the first try: the solver down, the puzzle up.
    let missed = first_wrong(&app, p, false).await;
    assert_eq!(missed["correct"], false, "{missed}");
    let rating = &missed["rating"];
    assert_eq!(rating["rated"], true, "{missed}");
    assert!(rating["change"].as_i64().unwrap() < 0, "{missed}");
    assert_eq!(rating["solver"]["attempts"], 1);
    assert_eq!(rating["solver"]["solved"], 0);
    assert!(
        rating["puzzle_rating"]["rating"].as_i64().unwrap() > chosen,
        "{missed}"
    );
    let after_miss = rating["solver"]["rating"]["rating"].as_i64().unwrap();
    // The answer now: right, not rated (the first try counted).
    let (_, right) = as_player(
        &app,
        "POST",
        "/api/study/puzzles/check",
        Some(json!({"position": diagram, "move": answer})),
    )
    .await;
    assert_eq!(right["correct"], true, "{right}");
    assert_eq!(right["rating"]["rated"], false, "{right}");
    assert_eq!(right["rating"]["change"], 0);
    assert_eq!(right["rating"]["solver"]["rating"]["rating"], after_miss);
    // The next puzzle is chosen near the new rating.
    let (_, next) = as_player(&app, "GET", "/api/study/puzzles/next?seed=90", None).await;
    assert_eq!(next["target"], after_miss, "{next}");
    // A solve at the first try: the solver up.
    let p = &next["puzzle"];
    let (_, solved) = as_player(
        &app,
        "POST",
        "/api/study/puzzles/check",
        Some(json!({"position": p["position"], "move": p["answer"]})),
    )
    .await;
    assert_eq!(solved["rating"]["rated"], true, "{solved}");
    assert!(solved["rating"]["change"].as_i64().unwrap() > 0, "{solved}");
    let (_, me) = as_player(&app, "GET", "/api/study/puzzles/rating", None).await;
    assert_eq!(
        (me["attempts"].clone(), me["solved"].clone()),
        (json!(2), json!(1))
    );
    // Without a player: judged, not rated; no rating to read.
    let (status, judged) = post(
        &app,
        "/api/study/puzzles/check",
        json!({"position": p["position"], "move": p["answer"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(judged["correct"], true);
    assert_eq!(judged["rating"], Value::Null);
    let (status, none) = get(&app, "/api/study/puzzles/rating").await;
    error_code(status, &none, (StatusCode::FORBIDDEN, "no_player"));
}

/// Issue 40, streaks: puzzles of rising difficulty (each chosen near a
/// target 50 above the one before) until the first miss; the best kept.
#[tokio::test]
async fn a_streak_rises_until_the_first_miss_and_its_best_is_kept() {
    let app = study_app();
    let (status, started) = as_player(&app, "POST", "/api/study/puzzles/streak", None).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert_eq!(started["streak"], 0);
    let mut targets = Vec::new();
    for (i, seed) in [11, 12, 13].into_iter().enumerate() {
        let (_, me) = as_player(&app, "GET", "/api/study/puzzles/rating", None).await;
        let rating = me["rating"]["rating"].as_i64().unwrap();
        let (status, next) = as_player(
            &app,
            "GET",
            &format!("/api/study/puzzles/next?seed={seed}&streak=true"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert_eq!(next["streak"], i as i64);
        // 400 below the rating at first, 50 more each puzzle.
        let target = next["target"].as_i64().unwrap();
        assert!(
            (target - (rating - 400 + 50 * i as i64)).abs() <= 1,
            "{next}"
        );
        targets.push(target - rating);
        let p = &next["puzzle"];
        let (_, solved) = as_player(
            &app,
            "POST",
            "/api/study/puzzles/check",
            Some(json!({"position": p["position"], "move": p["answer"], "streak": true})),
        )
        .await;
        assert_eq!(
            solved["rating"]["solver"]["streak"],
            i as i64 + 1,
            "{solved}"
        );
    }
    assert!(targets.windows(2).all(|w| w[1] > w[0]), "{targets:?}");
    // A miss ends it; the best stays.
    let (_, next) = as_player(
        &app,
        "GET",
        "/api/study/puzzles/next?seed=14&streak=true",
        None,
    )
    .await;
    let p = &next["puzzle"];
    let missed = first_wrong(&app, p, true).await;
    assert_eq!(missed["correct"], false);
    assert_eq!(missed["rating"]["solver"]["streak"], 0, "{missed}");
    assert_eq!(missed["rating"]["solver"]["best_streak"], 3, "{missed}");
    let (status, none) = post(&app, "/api/study/puzzles/streak", json!(null)).await;
    error_code(status, &none, (StatusCode::FORBIDDEN, "no_player"));
}

/// Issue 40, the explorer's filters: by speed and by the band of the
/// players' mean rating, given back with the answer; each move's mean
/// rating (none without rated games); a bad filter named.
#[tokio::test]
async fn the_explorer_takes_a_speed_and_a_rating_band_and_names_a_bad_one() {
    let app = bare_app();
    let (status, view) = get(
        &app,
        "/api/explorer?play=F&speed=blitz&min_rating=1500&max_rating=1800",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["speed"], "blitz");
    assert_eq!(
        (view["min_rating"].clone(), view["max_rating"].clone()),
        (json!(1500), json!(1800))
    );
    assert_eq!(view["games"], 0);
    assert!(view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["average_rating"].is_null()));
    for (query, because) in [
        ("speed=fast", "speed"),
        ("min_rating=5000", "rating"),
        ("min_rating=1800&max_rating=1500", "band"),
    ] {
        let (status, e) = get(&app, &format!("/api/explorer?{query}")).await;
        error_code(status, &e, (StatusCode::UNPROCESSABLE_ENTITY, "bad_filter"));
        assert_eq!(e["reason"], because, "{e}");
    }
}
