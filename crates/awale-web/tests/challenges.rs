//! Direct challenges through the HTTP API, on the router itself: a player
//! challenges another from their page, the challenged hears it at once on
//! their own stream (GET /api/me/events), accepts, and both are seated in
//! the game; declines, withdrawals and refusals with their statuses and
//! codes.

mod common;

use axum::http::StatusCode;
use axum::Router;
use serde_json::json;

use common::{memory_app, refused, Browser, Events};

/// Opens `b`'s own stream.
async fn listen(b: &Browser, app: &Router) -> Events {
    Events::open(app, b.request("GET", "/api/me/events", None)).await
}

#[tokio::test]
async fn the_challenged_hears_the_challenge_at_once_and_accepting_seats_both() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let mut heard = listen(&kofi, &app).await;
    let mut ama_hears = listen(&ama, &app).await;
    let (name, _, all) = heard.next().await;
    assert_eq!(name, "challenges");
    assert_eq!(all, json!({"sent": [], "received": []}));
    assert_eq!(ama_hears.next().await.0, "challenges");

    let made = ama
        .posted(
            &app,
            "/api/challenges",
            json!({"to": "kofi", "clock": {"minutes": 5, "increment_seconds": 3},
                   "rated": true, "colour": "N"}),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(
        (made["to"].as_str(), made["speed"].as_str()),
        (Some("Kofi"), Some("rapid"))
    );
    let (name, _, event) = heard.next().await;
    assert_eq!(name, "challenge");
    assert_eq!(
        (event["from"].as_str(), event["sent"].as_bool()),
        (Some("Ama"), Some(false))
    );
    assert_eq!(event["clock"], json!([300_000, 3_000]));
    assert_eq!(ama_hears.next().await.2["state"], "open");

    let (_, mine) = kofi.call(&app, "GET", "/api/challenges", None).await;
    assert_eq!(mine["received"][0]["id"], made["id"]);

    let id = made["id"].as_i64().unwrap();
    let accepted = kofi
        .posted(
            &app,
            &format!("/api/challenges/{id}/accept"),
            json!({}),
            StatusCode::OK,
        )
        .await;
    assert_eq!(accepted["side"], "S", "Ama asked for North");
    let game = accepted["game"].as_str().unwrap().to_string();
    // The challenger is told where the game is (past the game's start,
    // which the player's stream tells too).
    let event = loop {
        let (name, _, event) = ama_hears.next().await;
        if name == "challenge" {
            break event;
        }
    };
    assert_eq!(
        (event["state"].as_str(), event["game"].as_str()),
        (Some("accepted"), Some(game.as_str()))
    );

    for (who, side) in [(&mut ama, "N"), (&mut kofi, "S")] {
        let (status, view) = who
            .call(&app, "GET", &format!("/api/games/{game}"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(view["rated"], true);
        assert_eq!(view["you"], json!([side]), "{view}");
    }
    refused(
        kofi.post(&app, &format!("/api/challenges/{id}/decline"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "challenge_settled",
    );
}

#[tokio::test]
async fn refusals_declines_and_withdrawals_have_their_statuses() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let mut guest = Browser::opened(&app).await;
    let casual = |to: &str| json!({"to": to, "clock": {"minutes": 3, "increment_seconds": 2}});
    for (by_guest, body, status, code) in [
        (
            false,
            casual("nobody"),
            StatusCode::NOT_FOUND,
            "no_such_player",
        ),
        (
            false,
            casual("Ama"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "challenge_self",
        ),
        (
            false,
            json!({"to": "Kofi", "colour": "E"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_side",
        ),
        (
            false,
            json!({"to": "Kofi", "rated": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rated_needs_clock",
        ),
        (
            true,
            json!({"to": "Kofi", "rated": true, "name": "Yaw",
                   "clock": {"minutes": 3, "increment_seconds": 2}}),
            StatusCode::FORBIDDEN,
            "rated_needs_account",
        ),
    ] {
        let who = if by_guest { &mut guest } else { &mut ama };
        refused(who.post(&app, "/api/challenges", body).await, status, code);
    }
    kofi.post_refused(
        &app,
        "/api/challenges/abc/accept",
        json!({}),
        StatusCode::NOT_FOUND,
        "no_such_challenge",
    )
    .await;

    // A guest's casual challenge, declined.
    let made = guest
        .posted(
            &app,
            "/api/challenges",
            json!({"to": "Kofi", "name": "Yaw"}),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(
        (made["from"].as_str(), made["from_account"].as_bool()),
        (Some("Yaw"), Some(false))
    );
    let id = made["id"].as_i64().unwrap();
    guest
        .post_refused(
            &app,
            &format!("/api/challenges/{id}/accept"),
            json!({}),
            StatusCode::FORBIDDEN,
            "not_your_challenge",
        )
        .await;
    let (status, declined) = kofi
        .post(&app, &format!("/api/challenges/{id}/decline"), json!({}))
        .await;
    assert_eq!(
        (status, declined["state"].as_str()),
        (StatusCode::OK, Some("declined"))
    );

    // Ama's, withdrawn; then a block stops any new one.
    let (_, made) = ama.post(&app, "/api/challenges", casual("Kofi")).await;
    let id = made["id"].as_i64().unwrap();
    let (status, withdrawn) = ama
        .post(&app, &format!("/api/challenges/{id}/cancel"), json!({}))
        .await;
    assert_eq!(
        (status, withdrawn["state"].as_str()),
        (StatusCode::OK, Some("withdrawn"))
    );
    kofi.block(&app, "Ama", true).await;
    ama.post_refused(
        &app,
        "/api/challenges",
        casual("Kofi"),
        StatusCode::FORBIDDEN,
        "blocked",
    )
    .await;
}

#[tokio::test]
async fn blocking_a_player_ends_the_challenges_between_them() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let mut efua = Browser::account(&app, "Efua").await;
    let body = |to: &str| json!({"to": to, "clock": {"minutes": 3, "increment_seconds": 2}});
    let sent = ama
        .posted(&app, "/api/challenges", body("Kofi"), StatusCode::CREATED)
        .await;
    let theirs = kofi
        .posted(&app, "/api/challenges", body("Ama"), StatusCode::CREATED)
        .await;
    let other = efua
        .posted(&app, "/api/challenges", body("Kofi"), StatusCode::CREATED)
        .await;
    kofi.block(&app, "Ama", true).await;
    let (_, mine) = kofi.get(&app, "/api/challenges").await;
    let state = |list: &serde_json::Value, id: &serde_json::Value| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == *id)
            .map(|c| c["state"].clone())
    };
    assert_eq!(
        state(&mine["received"], &sent["id"]),
        Some(json!("declined")),
        "{mine}"
    );
    assert_eq!(
        state(&mine["sent"], &theirs["id"]),
        Some(json!("withdrawn")),
        "{mine}"
    );
    assert_eq!(
        state(&mine["received"], &other["id"]),
        Some(json!("open")),
        "{mine}"
    );
    for (who, id) in [(&mut kofi, &sent["id"]), (&mut ama, &theirs["id"])] {
        who.post_refused(
            &app,
            &format!("/api/challenges/{id}/accept"),
            json!({}),
            StatusCode::CONFLICT,
            "challenge_settled",
        )
        .await;
    }
}

#[tokio::test]
async fn a_lobby_seek_with_a_rating_range_shows_it_and_refuses_who_is_outside() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut efua = Browser::account(&app, "Efua").await;
    let mut guest = Browser::opened(&app).await;
    let seek = |public: bool| {
        json!({"mode": "online", "public": public, "rating_range": 200,
               "clock": {"minutes": 3, "increment_seconds": 2}, "name": "Yaw"})
    };
    guest
        .post_refused(
            &app,
            "/api/games",
            seek(true),
            StatusCode::FORBIDDEN,
            "range_needs_account",
        )
        .await;
    let (status, body) = ama.post(&app, "/api/games", seek(false)).await;
    assert_eq!(
        (status, body["error"].as_str(), body["reason"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("bad_range"),
            Some("private")
        )
    );
    let made = ama
        .posted(&app, "/api/games", seek(true), StatusCode::CREATED)
        .await;
    let id = made["id"].as_str().unwrap().to_string();
    let (_, lobby) = guest.call(&app, "GET", "/api/lobby", None).await;
    let listed = lobby["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .unwrap_or_else(|| panic!("{lobby}"));
    assert_eq!(listed["rating_range"], 200);
    assert_eq!(
        listed["accounts"],
        json!([true, false]),
        "Ama's seat links to her page"
    );
    // A guest has no rating: refused; an account at 1500 takes it.
    let join = format!("/api/games/{id}/join");
    let (status, body) = guest.post(&app, &join, json!({"name": "Yaw"})).await;
    assert_eq!(
        (status, body["error"].as_str(), body["reason"].as_str()),
        (StatusCode::FORBIDDEN, Some("out_of_range"), Some("guest"))
    );
    assert_eq!(
        (
            body["fields"]["low"].as_i64(),
            body["fields"]["high"].as_i64()
        ),
        (Some(1300), Some(1700))
    );
    efua.posted(&app, &join, json!({}), StatusCode::OK).await;
    // Both seats are accounts': their names link to their pages.
    let accounts = format!("/api/games/{id}/accounts");
    let (status, seats) = guest.call(&app, "GET", &accounts, None).await;
    assert_eq!(status, StatusCode::OK, "{seats}");
    assert_eq!(seats["accounts"], json!([true, true]));
    // A guest's seat is not.
    let (_, own) = guest
        .post(&app, "/api/games", json!({"mode": "online", "name": "Yaw"}))
        .await;
    let own = own["id"].as_str().unwrap();
    let (_, seats) = guest
        .call(&app, "GET", &format!("/api/games/{own}/accounts"), None)
        .await;
    assert_eq!(seats["accounts"], json!([false, false]));
}
