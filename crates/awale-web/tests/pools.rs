//! Games between two players through the JSON API, on the router itself
//! (no socket): quick pairing (two players seek the same pool, are paired
//! into one clock game, and play it to a draw by agreement), and games
//! over days (days per move, each player's list of games to move in).

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{memory_app, refused};

fn cookie(n: u8) -> String {
    format!("awale_player={}", common::guest(u64::from(n)))
}

async fn call(app: &Router, who: u8, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("cookie", cookie(who))
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

/// Players 1 and 2 seek 3+2 and are paired: the game's id and player 1's
/// side.
async fn paired(app: &Router) -> (String, String) {
    let first = {
        let app = app.clone();
        tokio::spawn(async move {
            call(
                &app,
                1,
                "POST",
                "/api/pools/3+2/seek?wait_s=5",
                json!({"name": "Ama"}),
            )
            .await
        })
    };
    // The first seek is waiting (on a loaded machine, give it time).
    let mut p32 = Value::Null;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (status, pools) = call(app, 3, "GET", "/api/pools", Value::Null).await;
        assert_eq!(status, StatusCode::OK);
        p32 = pools
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "3+2")
            .unwrap()
            .clone();
        if p32["seeking"] == 1 {
            break;
        }
    }
    assert_eq!(
        (p32["seeking"].as_i64(), p32["speed"].as_str()),
        (Some(1), Some("blitz"))
    );
    let (status, second) = call(
        app,
        2,
        "POST",
        "/api/pools/3+2/seek?wait_s=5",
        json!({"name": "Kofi"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let (status, first) = first.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{first}");
    let game = first["paired"]["game"]
        .as_str()
        .expect("paired")
        .to_string();
    assert_eq!(second["paired"]["game"].as_str(), Some(game.as_str()));
    assert_ne!(first["paired"]["side"], second["paired"]["side"]);
    assert_eq!(first["paired"]["rated"], false, "guests play casual");
    (game, first["paired"]["side"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn two_seekers_are_paired_and_agree_a_draw() {
    let app = memory_app();
    let (id, side_of_1) = paired(&app).await;
    let (south, north) = if side_of_1 == "S" { (1, 2) } else { (2, 1) };
    let (_, game) = call(&app, south, "GET", &format!("/api/games/{id}"), Value::Null).await;
    assert_eq!(game["clock"]["initial_ms"], 180_000);
    assert_eq!(game["clock"]["increment_ms"], 2_000);
    let draw = format!("/api/games/{id}/draw");
    refused(
        call(&app, south, "POST", &draw, json!({})).await,
        StatusCode::CONFLICT,
        "draw_too_early",
    );
    for (who, mv) in [(south, "C"), (north, "c")] {
        let (status, moved) = call(
            &app,
            who,
            "POST",
            &format!("/api/games/{id}/moves"),
            json!({"move": mv}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{moved}");
    }
    let (_, before) = call(&app, north, "GET", &format!("/api/games/{id}"), Value::Null).await;
    assert_eq!(before["actions"]["N"]["draw"], true);
    let (status, offered) = call(&app, north, "POST", &draw, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["offers"]["draw"], "N");
    let (status, theirs) = call(&app, south, "POST", &draw, json!({})).await;
    assert_eq!(
        (status, theirs["error"].as_str(), theirs["reason"].as_str()),
        (StatusCode::CONFLICT, Some("draw_pending"), Some("theirs"))
    );
    refused(
        call(&app, 9, "POST", &draw, json!({"accept": true})).await,
        StatusCode::FORBIDDEN,
        "not_your_seat",
    );
    let (status, drawn) = call(&app, south, "POST", &draw, json!({"accept": true})).await;
    assert_eq!(status, StatusCode::OK, "{drawn}");
    assert_eq!(drawn["end"]["reason"], "agreement");
    assert_eq!(drawn["end"]["result"], "1/2-1/2");
    let (_, record) = call(&app, south, "GET", &format!("/api/games/{id}"), Value::Null).await;
    assert_eq!(record["end"]["reason"], "agreement");
}

#[tokio::test]
async fn a_seek_waits_is_cancelled_and_a_bad_pool_is_named() {
    let app = memory_app();
    let (status, waiting) = call(
        &app,
        1,
        "POST",
        "/api/pools/1+0/seek?wait_s=0",
        json!({"name": "Ama"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{waiting}");
    assert_eq!(waiting["waiting"]["pool"], "1+0");
    let (_, cancelled) = call(&app, 1, "POST", "/api/pools/cancel", json!({})).await;
    assert_eq!(cancelled["cancelled"], true);
    let (_, again) = call(&app, 1, "POST", "/api/pools/cancel", json!({})).await;
    assert_eq!(again["cancelled"], false);
    refused(
        call(&app, 1, "POST", "/api/pools/2+1/seek", json!({})).await,
        StatusCode::NOT_FOUND,
        "no_such_pool",
    );
    refused(
        call(
            &app,
            1,
            "POST",
            "/api/pools/3+2/seek",
            json!({"name": "\u{200b}"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_name",
    );
}

#[tokio::test]
async fn a_game_over_days_is_made_joined_and_listed_as_each_ones_turn() {
    let app = memory_app();
    // Days per move: online only, the days from the list, not both kinds.
    for (body, code) in [
        (json!({"mode": "online", "clock": {"days": 4}}), "bad_clock"),
        (
            json!({"mode": "online", "clock": {"days": 3, "minutes": 5}}),
            "bad_clock",
        ),
        (
            json!({"mode": "humans", "clock": {"days": 3}}),
            "days_need_online",
        ),
    ] {
        refused(
            call(&app, 1, "POST", "/api/games", body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
        );
    }
    let (status, made) = call(
        &app,
        1,
        "POST",
        "/api/games",
        json!({"mode": "online", "human": "S", "name": "Ama", "public": true, "clock": {"days": 3}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["clock"]["per_move"], true);
    assert_eq!(made["clock"]["initial_ms"], 3 * 86_400_000_i64);
    assert_eq!(made["speed"], "correspondence");
    let (status, joined) = call(
        &app,
        2,
        "POST",
        &format!("/api/games/{id}/join"),
        json!({"name": "Kofi"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let turns = |who: u8| {
        let app = app.clone();
        async move {
            let (status, list) = call(&app, who, "GET", "/api/turns", Value::Null).await;
            assert_eq!(status, StatusCode::OK, "{list}");
            list["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        turns(1).await,
        std::slice::from_ref(&id),
        "South moves first"
    );
    assert!(turns(2).await.is_empty());
    let (status, after) = call(
        &app,
        1,
        "POST",
        &format!("/api/games/{id}/moves"),
        json!({"move": "C", "ply": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert!(turns(1).await.is_empty());
    assert_eq!(turns(2).await, std::slice::from_ref(&id));
    // A stranger has no turns; nor has a request without a player.
    assert!(turns(3).await.is_empty());
}

/// POSTs a seek of pool 1+0 (answered at once) with `cookie`.
async fn seek_with(app: &Router, cookie: &str) -> (StatusCode, Value) {
    let seek = json!({"name": "Ghost"});
    common::post_with_cookie(app, "/api/pools/1+0/seek?wait_s=0", cookie, seek).await
}

#[tokio::test]
async fn made_up_cookies_are_no_players_and_flood_no_pool() {
    let app = memory_app();
    // A guest the server made (a page's first visit).
    let mut browser = common::Browser::default();
    let (status, _) = browser.get(&app, "/api/me").await;
    assert_eq!(status, StatusCode::OK);
    let cookie = format!("awale_player={}", browser.cookies["awale_player"]);
    // Issue 38, finding 3: 2,000 seeks, each with a new made-up cookie,
    // made 1,001 games. A made-up secret is no player now.
    for i in 0..200u32 {
        let (status, answer) = seek_with(&app, &format!("awale_player={i:064x}")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
        assert_eq!(answer["error"], "no_player");
    }
    let (_, pools) = call(&app, 1, "GET", "/api/pools", Value::Null).await;
    let seeking: u64 = pools
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seeking"].as_u64().unwrap())
        .sum();
    assert_eq!(seeking, 0);
    // The guest the server made seeks. (The made-up cookies cost the
    // address its new guests' tokens: no new guest from it for now.)
    let (status, answer) = seek_with(&app, &cookie).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["waiting"].is_object(), "{answer}");
}

#[tokio::test]
async fn a_seek_counts_as_a_game_made_for_the_player() {
    let app = memory_app();
    // Seek, cancel, seek again: each new seek is a game offered; the
    // player's ten are soon spent (renewals cost nothing).
    let mut refused = None;
    for n in 0..30 {
        let (status, answer) = seek_with(&app, &cookie(9)).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((n, answer));
            break;
        }
        assert_eq!(status, StatusCode::OK, "{answer}");
        let (status, _) = seek_with(&app, &cookie(9)).await;
        assert_eq!(status, StatusCode::OK, "a renewal is free");
        let (status, _) = call(&app, 9, "POST", "/api/pools/cancel", Value::Null).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (n, answer) = refused.expect("seeks are limited as games made");
    assert_eq!(n, 10, "{answer}");
    assert_eq!(answer["error"], "too_many");
}

#[tokio::test]
async fn a_guest_of_before_signed_secrets_keeps_its_cookie() {
    use awale_store::GameStore;
    let store = awale_store::Store::in_memory().unwrap();
    let state = awale_web::AppState::new(
        store.clone(),
        awale_web::Config {
            guest_key: Some(awale_model::secret::GuestKey::from_bytes(common::TEST_KEY)),
            ..awale_web::Config::default()
        },
    )
    .unwrap();
    let app = awale_web::app(state);
    // An old guest: a secret the server made before it tagged them, its
    // player known to the store (a nickname, here).
    let old = "5".repeat(64);
    let player = awale_model::secret::player_id(&old);
    store
        .set_player_name(player, "Old Timer".into(), 1_000)
        .await
        .unwrap();
    let (status, answer) = seek_with(&app, &format!("awale_player={old}")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // One never seen is no player.
    let (status, _) = seek_with(&app, &format!("awale_player={}", "6".repeat(64))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
