//! Accounts through the HTTP API, on the router itself: browsers as cookie
//! jars; sign-up taking the guest's games, a second browser logging in to
//! the same games, the session cookie's form, log-out, limits told with
//! their wait, blocks and kid mode in chat, moderators only for moderators.

mod common;

use std::time::Duration;

use awale_web::{app, Config};
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

use common::{memory_state, refused, Browser, PASSWORD};

fn memory_app() -> Router {
    let config = Config {
        move_time: Duration::from_millis(200),
        ..Config::default()
    };
    app(memory_state(config))
}

fn ids(list: &Value) -> Vec<String> {
    let mut ids: Vec<String> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort_unstable();
    ids
}

#[tokio::test]
async fn a_guests_games_follow_it_into_its_account_and_to_a_second_browser() {
    let app = memory_app();
    let mut first = Browser::opened(&app).await;
    let game = first.online_game(&app).await;
    let (_, computer) = first
        .post(&app, "/api/games", json!({"mode": "computer"}))
        .await;
    let computer = computer["id"].as_str().unwrap().to_string();
    let mut both = vec![game.clone(), computer.clone()];
    both.sort_unstable();
    let made = first.sign_up(&app, "Ama").await;
    assert_eq!(made["account"]["username"], "Ama");
    assert_eq!(made["recovery_codes"].as_array().unwrap().len(), 10);
    let cookie = first
        .set
        .iter()
        .find(|c| c.starts_with("awale_session="))
        .unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(cookie.contains("Path=/"), "{cookie}");
    let (_, me) = first.get(&app, "/api/me").await;
    assert_eq!(me["account"]["username"], "Ama");
    let (_, mine) = first.get(&app, "/api/games").await;
    assert_eq!(ids(&mine), both);
    let (_, shown) = first.get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(shown["seats"][0]["name"], "Ama", "{shown}");

    // Another browser profile, logged in: the same games, its seats.
    let mut second = Browser::opened(&app).await;
    let (_, none) = second.get(&app, "/api/games").await;
    assert!(ids(&none).is_empty());
    second
        .posted(
            &app,
            "/api/account/login",
            json!({"username": "ama", "password": PASSWORD}),
            StatusCode::OK,
        )
        .await;
    let (_, theirs) = second.get(&app, "/api/games").await;
    assert_eq!(ids(&theirs), both);
    let (status, played) = second
        .post(
            &app,
            &format!("/api/games/{computer}/moves"),
            json!({"move": "C"}),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the account plays its games anywhere: {played}"
    );

    // Logged out, the browser is a guest again, without the games.
    second.log_out(&app).await;
    assert!(!second.cookies.contains_key("awale_session"));
    let (_, gone) = second.get(&app, "/api/games").await;
    assert!(ids(&gone).is_empty());
    let (_, me) = second.get(&app, "/api/me").await;
    assert_eq!(me["account"], Value::Null);
}

#[tokio::test]
async fn an_ended_sessions_cookie_is_dropped() {
    let app = memory_app();
    let mut a = Browser::account(&app, "Kofi").await;
    let kept = a.cookies.clone();
    let (status, ended) = a
        .post(&app, "/api/account/logout-everywhere", json!({}))
        .await;
    assert_eq!((status, ended["ended"].as_i64()), (StatusCode::OK, Some(1)));
    // The old cookie, sent again (another browser kept it).
    let mut b = Browser {
        cookies: kept,
        ..Browser::default()
    };
    let (_, me) = b.get(&app, "/api/me").await;
    assert_eq!(me["account"], Value::Null);
    assert!(b
        .set
        .iter()
        .any(|c| c.starts_with("awale_session=;") && c.contains("Max-Age=0")));
    refused(
        b.get(&app, "/api/account").await,
        StatusCode::FORBIDDEN,
        "not_logged_in",
    );
}

#[tokio::test]
async fn refusals_are_codes_and_a_limit_tells_its_wait() {
    let app = memory_app();
    let mut a = Browser::opened(&app).await;
    let (status, body) = a
        .post(
            &app,
            "/api/account/signup",
            json!({"username": "A", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        (body["error"].as_str(), body["reason"].as_str()),
        (Some("bad_username"), Some("length"))
    );
    let (_, body) = a
        .post(
            &app,
            "/api/account/signup",
            json!({"username": "Yaw", "password": "iloveyou"}),
        )
        .await;
    assert_eq!(
        (body["error"].as_str(), body["reason"].as_str()),
        (Some("weak_password"), Some("common"))
    );
    a.sign_up(&app, "Yaw").await;
    // Logged in: no second account, and the username is the name.
    for (uri, body, code) in [
        (
            "/api/account/signup",
            json!({"username": "Efua", "password": PASSWORD}),
            "logged_in",
        ),
        ("/api/me", json!({"name": "Other"}), "account_name"),
    ] {
        a.post_refused(&app, uri, body, StatusCode::CONFLICT, code)
            .await;
    }

    let mut b = Browser::opened(&app).await;
    let mut last = (StatusCode::OK, Value::Null);
    for _ in 0..6 {
        last = b
            .post(
                &app,
                "/api/account/login",
                json!({"username": "yaw", "password": "wrong one"}),
            )
            .await;
    }
    assert_eq!(last.0, StatusCode::TOO_MANY_REQUESTS, "{}", last.1);
    assert_eq!(last.1["reason"], "logins");
    let wait = last.1["fields"]["wait_s"].as_i64().unwrap();
    assert!(wait >= 1);
    assert_eq!(b.retry_after, Some(wait.to_string()));
}

#[tokio::test]
async fn a_blocked_player_can_neither_join_nor_chat() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    assert_eq!(ama.block(&app, "kofi", true).await, json!(["Kofi"]));
    let game = ama.online_game(&app).await;
    kofi.post_refused(
        &app,
        &format!("/api/games/{game}/join"),
        json!({}),
        StatusCode::FORBIDDEN,
        "blocked",
    )
    .await;
    refused(
        kofi.say(&app, &game, "hi").await,
        StatusCode::FORBIDDEN,
        "blocked",
    );
    // A guest joins with the invitation's key, under its nickname; an
    // account under its username.
    let key = ama.invite_key(&app, &game).await;
    let mut guest = Browser::opened(&app).await;
    let joined = guest
        .posted(
            &app,
            &format!("/api/games/{game}/join"),
            json!({"name": "Yaw", "key": key}),
            StatusCode::OK,
        )
        .await;
    let names: Vec<&str> = (0..2)
        .filter_map(|s| joined["seats"][s]["name"].as_str())
        .collect();
    assert!(names.contains(&"Ama") && names.contains(&"Yaw"), "{joined}");
}

#[tokio::test]
async fn kid_mode_turns_chat_off() {
    let app = memory_app();
    let mut kid = Browser::account(&app, "Adjoa").await;
    let (status, body) = kid
        .post(&app, "/api/account/settings", json!({"kid": true}))
        .await;
    assert_eq!(
        (status, body["account"]["kid"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    let (_, me) = kid.get(&app, "/api/me").await;
    assert_eq!(me["account"]["kid"], true);
    let game = kid.online_game(&app).await;
    let mut other = Browser::opened(&app).await;
    let (status, _) = other.say(&app, &game, "hello").await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, lines) = kid.get(&app, &format!("/api/games/{game}/chat")).await;
    assert_eq!(lines, json!([]));
    refused(
        kid.say(&app, &game, "hi").await,
        StatusCode::FORBIDDEN,
        "kid_mode",
    );
    let (_, lines) = other.get(&app, &format!("/api/games/{game}/chat")).await;
    assert_eq!(lines.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn moderation_is_for_moderators_and_reports_reach_them() {
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    kofi.posted(
        &app,
        "/api/reports",
        json!({"username": "Ama", "reason": "spam", "text": "ads"}),
        StatusCode::CREATED,
    )
    .await;
    refused(
        ama.get(&app, "/api/moderation/reports").await,
        StatusCode::FORBIDDEN,
        "not_moderator",
    );
    refused(
        ama.get(&app, "/api/moderation/flags").await,
        StatusCode::FORBIDDEN,
        "not_moderator",
    );
    state.accounts().grant_moderator("ama").await.unwrap();
    let (status, body) = ama.get(&app, "/api/moderation/flags").await;
    assert_eq!(
        (status, &body["flags"]),
        (StatusCode::OK, &json!([])),
        "{body}"
    );
    let (status, body) = ama.get(&app, "/api/moderation/reports").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["reports"][0]["reporter"], "Kofi");
    assert_eq!(body["reports"][0]["reason"], "spam");
    ama.mute(&app, "kofi").await;
    let game = ama.online_game(&app).await;
    refused(
        kofi.say(&app, &game, "hi").await,
        StatusCode::FORBIDDEN,
        "muted",
    );
    ama.posted(
        &app,
        "/api/moderation/close",
        json!({"username": "kofi", "reason": "insults"}),
        StatusCode::NO_CONTENT,
    )
    .await;
    kofi.assert_me_without(&app, "account", "a closed account's session ends")
        .await;
    ama.post_refused(
        &app,
        "/api/moderation/reports/x/resolve",
        json!({}),
        StatusCode::NOT_FOUND,
        "no_such_report",
    )
    .await;
}

#[tokio::test]
async fn a_report_names_its_game_by_the_id_in_its_address() {
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let game = ama.online_game(&app).await;
    // What the page sends from the online game it shows.
    let report =
        |game: Value| json!({"username": "Ama", "game": game, "reason": "insults", "text": "rude"});
    kofi.posted(
        &app,
        "/api/reports",
        report(json!(game)),
        StatusCode::CREATED,
    )
    .await;
    // A public id of no game, a number as text (the store's, never shown),
    // a number: refused, and no report taken.
    for (other, status, code) in [
        (json!("zzzzzzzzzz"), StatusCode::NOT_FOUND, "no_such_game"),
        (json!("1"), StatusCode::NOT_FOUND, "no_such_game"),
        (json!("-1"), StatusCode::NOT_FOUND, "no_such_game"),
        (json!(1), StatusCode::UNPROCESSABLE_ENTITY, "bad_field"),
        (
            json!(1_i64 << 62),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_field",
        ),
    ] {
        kofi.post_refused(&app, "/api/reports", report(other), status, code)
            .await;
    }
    let mut mo = Browser::account(&app, "Efua").await;
    state.accounts().grant_moderator("efua").await.unwrap();
    let (status, body) = mo.get(&app, "/api/moderation/reports").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let reports = body["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "{body}");
    assert!(!reports[0]["game"].is_null(), "about the game: {body}");
}

#[tokio::test]
async fn a_moderator_removes_a_chat_line_by_the_games_public_id() {
    // What the page sends (`chat.js`): the game's id from its address,
    // never the store's number (which is never shown).
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut mo = Browser::account(&app, "Ama").await;
    state.accounts().grant_moderator("ama").await.unwrap();
    let mut maker = Browser::opened(&app).await;
    let game = maker.online_game(&app).await;
    let mut watcher = Browser::opened(&app).await;
    let (status, line) = watcher.say(&app, &game, "rude words").await;
    assert_eq!(status, StatusCode::CREATED, "{line}");
    let mut events = common::Events::open(
        &app,
        watcher.request("GET", &format!("/api/games/{game}/events"), None),
    )
    .await;
    let remove = json!({"game": game, "line": line["id"]});
    maker
        .post_refused(
            &app,
            "/api/moderation/chat-remove",
            remove.clone(),
            StatusCode::FORBIDDEN,
            "not_logged_in",
        )
        .await;
    mo.posted(
        &app,
        "/api/moderation/chat-remove",
        remove.clone(),
        StatusCode::NO_CONTENT,
    )
    .await;
    let gone = events.named("chat_removed").await;
    assert_eq!(gone["id"], line["id"], "{gone}");
    let (_, lines) = watcher.get(&app, &format!("/api/games/{game}/chat")).await;
    assert_eq!(lines, json!([]), "the line is gone for watchers");
    mo.post_refused(
        &app,
        "/api/moderation/chat-remove",
        remove,
        StatusCode::NOT_FOUND,
        "no_such_line",
    )
    .await;
    // A number, as text or not, names no game.
    for other in [json!("1"), json!("zzzzzzzzzz")] {
        mo.post_refused(
            &app,
            "/api/moderation/chat-remove",
            json!({"game": other, "line": 1}),
            StatusCode::NOT_FOUND,
            "no_such_game",
        )
        .await;
    }
    mo.post_refused(
        &app,
        "/api/moderation/chat-remove",
        json!({"game": 1, "line": 1}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_field",
    )
    .await;
}

#[tokio::test]
async fn a_guest_takes_no_accounts_name_nor_the_servers_and_keeps_none_after_log_out() {
    let app = memory_app();
    let mut alice = Browser::account(&app, "alice_t").await;
    let mut gina = Browser::account(&app, "Gina").await;
    gina.posted(
        &app,
        "/api/account/delete",
        json!({"password": PASSWORD}),
        StatusCode::NO_CONTENT,
    )
    .await;
    gina.assert_me_without(&app, "name", "a deleted account's name is dropped")
        .await;
    let mut guest = Browser::opened(&app).await;
    // An account's name in any case (open or deleted), a reserved one, with
    // what `parse_name` drops hidden in it.
    for name in [
        "alice_t",
        "ALICE_T",
        " Gina ",
        "admin",
        "Moderator",
        "al\u{200B}ice_t",
    ] {
        guest
            .post_refused(
                &app,
                "/api/me",
                json!({"name": name}),
                StatusCode::CONFLICT,
                "name_taken",
            )
            .await;
        guest
            .post_refused(
                &app,
                "/api/games",
                json!({"mode": "online", "public": true, "name": name}),
                StatusCode::CONFLICT,
                "name_taken",
            )
            .await;
    }
    let (_, me) = guest.get(&app, "/api/me").await;
    assert_eq!(me["name"], Value::Null, "{me}");
    // Names that only look near one are a guest's to take.
    for name in ["alice t", "Alice the guest", "adminette"] {
        let me = guest
            .posted(&app, "/api/me", json!({"name": name}), StatusCode::OK)
            .await;
        assert_eq!(me["name"], name);
    }
    // The account logs out: its browser is a guest without its name.
    let (_, me) = alice.get(&app, "/api/me").await;
    assert_eq!(me["account"]["username"], "alice_t", "{me}");
    // The account itself seeks under its own name (the page sends it):
    // the check is a guest's, never the account's.
    let seek = alice
        .posted(
            &app,
            "/api/pools/3+2/seek?wait_s=0",
            json!({"name": "alice_t"}),
            StatusCode::OK,
        )
        .await;
    assert!(seek["waiting"].is_object(), "{seek}");
    alice
        .posted(&app, "/api/pools/cancel", json!({}), StatusCode::OK)
        .await;
    alice.log_out(&app).await;
    let me = alice.me(&app).await;
    assert_eq!(
        (me["account"].clone(), me["name"].clone()),
        (Value::Null, Value::Null),
        "{me}"
    );
}

#[tokio::test]
async fn hostile_bodies_to_the_account_routes_get_clear_refusals() {
    let app = memory_app();
    let mut a = Browser::opened(&app).await;
    let long = "x".repeat(10_000);
    let bodies = [
        json!(null),
        json!({}),
        json!([1, 2]),
        json!({"username": long, "password": long}),
        json!({"username": "\u{0}\u{202e}", "password": "\u{0}".repeat(20)}),
        json!({"username": 12, "password": true}),
        json!({"username": "Ama", "password": PASSWORD, "extra": 1}),
        json!({"username": "Ama", "code": long, "password": PASSWORD}),
        json!({"current": long, "new": long}),
        json!({"kid": "yes"}),
        json!({"username": long, "blocked": true}),
        json!({"username": "Ama", "reason": long, "text": long, "game": -1}),
        json!({"game": i64::MAX, "line": -5}),
        json!({"username": "ama", "muted": 3}),
    ];
    let routes = [
        "/api/account/signup",
        "/api/account/login",
        "/api/account/reset",
        "/api/account/password",
        "/api/account/recovery-codes",
        "/api/account/delete",
        "/api/account/settings",
        "/api/account/blocks",
        "/api/reports",
        "/api/moderation/mute",
        "/api/moderation/close",
        "/api/moderation/chat-remove",
        "/api/moderation/reports/99999999999999999999/resolve",
        // Last: it logs out.
        "/api/account/logout-everywhere",
    ];
    for signed_in in [false, true] {
        if signed_in {
            a.sign_up(&app, "Hostile").await;
        }
        for route in routes {
            for body in &bodies {
                let (status, answer) = a.post(&app, route, body.clone()).await;
                assert!(
                    status.is_client_error() || status.is_success(),
                    "{route} {body}: {status} {answer}"
                );
                if status.is_client_error() {
                    assert!(answer["error"].is_string(), "{route}: {answer}");
                }
            }
        }
    }
}

#[tokio::test]
async fn a_game_made_rated_is_between_two_accounts_and_changes_their_ratings() {
    let app = memory_app();
    let mut guest = Browser::opened(&app).await;
    // A guest may not make a rated game, nor may anyone a rated game
    // against the computer or from a study position.
    guest
        .post_refused(
            &app,
            "/api/games",
            json!({"mode": "online", "name": "Yaw", "rated": true}),
            StatusCode::FORBIDDEN,
            "rated_needs_account",
        )
        .await;
    let mut ama = Browser::account(&app, "Ama").await;
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    for (body, code) in [
        (
            json!({"mode": "computer", "rated": true}),
            "rated_needs_online",
        ),
        (
            json!({"mode": "online", "rated": true, "position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"}),
            "rated_from_position",
        ),
    ] {
        ama.post_refused(&app, "/api/games", body, status, code)
            .await;
    }
    // Casual unless asked.
    let casual = ama.online_game(&app).await;
    let (_, view) = ama.get(&app, &format!("/api/games/{casual}")).await;
    assert_eq!(view["rated"], false, "{view}");
    // Rated means earned: no rated game without a clock, at 0.1 min, or
    // on rules changed (the service's rule, for every way a game is made).
    for (body, code) in [
        (
            json!({"mode": "online", "rated": true}),
            "rated_needs_clock",
        ),
        (
            json!({"mode": "online", "rated": true,
                   "clock": {"minutes": 0.1, "increment_seconds": 0}}),
            "rated_needs_clock",
        ),
        (
            json!({"mode": "online", "rated": true, "rules": "awale,target=2",
                   "clock": {"minutes": 3, "increment_seconds": 2}}),
            "rated_needs_standard_rules",
        ),
    ] {
        ama.post_refused(
            &app,
            "/api/games",
            body,
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
        )
        .await;
    }
    let made = ama
        .posted(
            &app,
            "/api/games",
            json!({"mode": "online", "rated": true, "human": "S",
                   "clock": {"minutes": 3, "increment_seconds": 2}}),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(made["rated"], true, "{made}");
    let game = made["id"].as_str().unwrap().to_string();
    let key = ama.invite_key(&app, &game).await;
    // A guest with the invitation is refused the seat; an account takes it.
    guest
        .post_refused(
            &app,
            &format!("/api/games/{game}/join"),
            json!({"name": "Yaw", "key": key}),
            StatusCode::FORBIDDEN,
            "rated_needs_account",
        )
        .await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    kofi.posted(
        &app,
        &format!("/api/games/{game}/join"),
        json!({"key": key}),
        StatusCode::OK,
    )
    .await;
    // Two moves each (a real start), then Kofi resigns: both ratings
    // move, as the players' pages say.
    for (i, letter) in ["C", "c", "D", "d"].into_iter().enumerate() {
        let mover = if i % 2 == 0 { &mut ama } else { &mut kofi };
        mover
            .posted(
                &app,
                &format!("/api/games/{game}/moves"),
                json!({"move": letter}),
                StatusCode::OK,
            )
            .await;
    }
    kofi.resigns(&app, &game).await;
    let (status, page) = ama.get(&app, "/api/players/ama").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let rating = &page["ratings"][0];
    assert!(rating["rating"].as_i64().unwrap() > 1500, "{page}");
    assert_eq!(rating["graph"][0]["game"], json!(game), "{page}");
    let (_, page) = ama.get(&app, "/api/players/kofi").await;
    assert!(
        page["ratings"][0]["rating"].as_i64().unwrap() < 1500,
        "{page}"
    );
}
