//! Arenas through the HTTP API, on the router itself: only accounts make
//! and join them; the codes of what is refused; two accounts paired at
//! once, a resignation moving the standings; the standings as server-sent
//! events.

mod common;

use awale_web::{app, Config};
use axum::http::StatusCode;
use serde_json::{json, Value};

use common::{memory_app, memory_state, refused, until, Browser, Events};

fn arena() -> Value {
    json!({"name": "Evening arena", "minutes_each": 3, "increment_s": 2, "minutes": 30})
}

fn line<'a>(view: &'a Value, name: &str) -> &'a Value {
    view["standings"]
        .as_array()
        .unwrap_or_else(|| panic!("no standings in {view}"))
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {view}"))
}

#[tokio::test]
async fn guests_cannot_make_or_join_and_bad_arenas_are_refused_with_codes() {
    let app = memory_app();
    let mut guest = Browser::opened(&app).await;
    guest
        .post_refused(
            &app,
            "/api/tournaments",
            arena(),
            StatusCode::FORBIDDEN,
            "account_needed",
        )
        .await;
    let mut ama = Browser::account(&app, "ama").await;
    let mut bad = arena();
    bad["minutes_each"] = json!(1000);
    ama.post_refused(
        &app,
        "/api/tournaments",
        bad,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_tournament",
    )
    .await;
    let (status, _) = ama
        .post(
            &app,
            "/api/tournaments",
            json!({"name": "x", "surprise": 1}),
        )
        .await;
    assert!(status.is_client_error());
    let made = ama
        .posted(&app, "/api/tournaments", arena(), StatusCode::OK)
        .await;
    let id = made["id"].as_i64().unwrap();
    guest
        .post_refused(
            &app,
            &format!("/api/tournaments/{id}/join"),
            json!({}),
            StatusCode::FORBIDDEN,
            "account_needed",
        )
        .await;
    for uri in [
        "/api/tournaments/nope",
        "/api/tournaments/-1",
        "/api/tournaments/999",
    ] {
        let (status, body) = guest.get(&app, uri).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (StatusCode::NOT_FOUND, Some("no_such_tournament")),
            "{uri}"
        );
    }
    ama.post_refused(
        &app,
        &format!("/api/tournaments/{id}/berserk"),
        json!({}),
        StatusCode::CONFLICT,
        "not_in_tournament",
    )
    .await;
    let (_, list) = guest.get(&app, "/api/tournaments").await;
    assert_eq!(list[0]["name"], "Evening arena");
    assert_eq!(list[0]["initial_ms"], 180_000);
}

#[tokio::test]
async fn two_accounts_are_paired_and_a_resignation_moves_the_standings_live() {
    let app = memory_app();
    let mut ama = Browser::account(&app, "ama").await;
    let mut kofi = Browser::account(&app, "kofi").await;
    let (_, made) = ama.post(&app, "/api/tournaments", arena()).await;
    let id = made["id"].as_i64().unwrap();
    let uri = format!("/api/tournaments/{id}");
    until(&mut ama, &app, &uri, |v| v["state"] == "started").await;
    let view = ama
        .posted(&app, &format!("{uri}/join"), json!({}), StatusCode::OK)
        .await;
    assert_eq!(view["you"], 0);
    // The standings' stream: first as they are.
    let mut events = Events::open(&app, kofi.request("GET", &format!("{uri}/events"), None)).await;
    assert_eq!(events.next().await.0, "standings");
    let (_, view) = kofi.post(&app, &format!("{uri}/join"), json!({})).await;
    let game = line(&view, "kofi")["game"].as_str().unwrap().to_string();
    assert_eq!(line(&view, "ama")["game"], game.as_str());
    assert!(view["can_berserk"].as_bool().is_some());
    let next = events.next().await.2.to_string();
    assert!(next.contains(&game), "the pairing is told");
    // Each viewer's stream names their own game, wherever their line is.
    assert!(
        next.contains(&format!("\"your_game\":\"{game}\"")),
        "{next}"
    );
    kofi.resigns(&app, &game).await;
    let view = until(&mut ama, &app, &uri, |v| line(v, "ama")["score"] == 2).await;
    assert_eq!(view["standings"][0]["name"], "ama");
    // Alone, the two meet again; a withdrawal during that game waits for
    // its end.
    let view = until(&mut ama, &app, &uri, |v| {
        line(v, "kofi")["game"].is_string()
    })
    .await;
    let game = line(&view, "kofi")["game"].as_str().unwrap().to_string();
    let (status, view) = kofi.post(&app, &format!("{uri}/withdraw"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(line(&view, "kofi")["presence"], "playing");
    kofi.post(&app, &format!("/api/games/{game}/resign"), json!({}))
        .await;
    let view = until(&mut ama, &app, &uri, |v| {
        line(v, "kofi")["presence"] == "withdrawn"
    })
    .await;
    assert!(line(&view, "ama")["game"].is_null(), "nobody left to play");
    kofi.post_refused(
        &app,
        &format!("{uri}/close"),
        json!({}),
        StatusCode::FORBIDDEN,
        "not_the_creator",
    )
    .await;
    let (status, view) = ama.post(&app, &format!("{uri}/close"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["state"], "finished");
    assert_eq!(view["podium"][0]["name"], "ama");
}

#[tokio::test]
async fn a_tournaments_chat_reaches_its_watchers_with_the_protections_of_a_games() {
    let config = Config {
        chat_rate: awale_service::limiter::Rate {
            burst: 3,
            every_ms: 3_600_000,
        },
        ..Config::default()
    };
    let state = memory_state(config);
    let app = app(state.clone());
    let mut ama = Browser::account(&app, "ama").await;
    let mut kofi = Browser::account(&app, "kofi").await;
    let mut guest = Browser::opened(&app).await;
    let (_, made) = ama.post(&app, "/api/tournaments", arena()).await;
    let id = made["id"].as_i64().unwrap();
    let chat = format!("/api/tournaments/{id}/chat");
    // A watcher (a guest) follows the tournament's events.
    let watching = guest.request("GET", &format!("/api/tournaments/{id}/events"), None);
    let mut events = Events::open(&app, watching).await;
    let standings = events.named("standings").await;
    assert!(
        standings.to_string().contains("Evening arena"),
        "{standings}"
    );
    // A player speaks: stored, told live, read by everyone.
    let line = kofi
        .posted(
            &app,
            &chat,
            json!({"text": " akwaaba "}),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(
        (line["name"].as_str(), line["text"].as_str()),
        (Some("kofi"), Some("akwaaba"))
    );
    let heard = events.named("chat").await;
    assert_eq!(
        (heard["name"].as_str(), heard["text"].as_str()),
        (Some("kofi"), Some("akwaaba"))
    );
    // A guest speaks too, under their guest number.
    let said = guest
        .posted(&app, &chat, json!({"text": "bravo"}), StatusCode::CREATED)
        .await;
    assert_eq!(said["name"], "");
    assert!(said["guest"]
        .as_u64()
        .is_some_and(|g| (1000..10000).contains(&g)));
    let (_, lines) = guest.get(&app, &chat).await;
    let texts: Vec<&str> = lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["akwaaba", "bravo"]);
    // What is refused, with its code.
    for (body, status, code) in [
        (
            json!({"text": "  "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_message",
        ),
        (
            json!({"text": "x".repeat(281)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_message",
        ),
    ] {
        refused(kofi.post(&app, &chat, body).await, status, code);
    }
    kofi.post_refused(
        &app,
        "/api/tournaments/999/chat",
        json!({"text": "hi"}),
        StatusCode::NOT_FOUND,
        "no_such_tournament",
    )
    .await;
    refused(
        kofi.get(&app, "/api/tournaments/x1/chat").await,
        StatusCode::NOT_FOUND,
        "no_such_tournament",
    );
    // The rate, per player: three (the refused tournament's counted),
    // then wait.
    kofi.posted(&app, &chat, json!({"text": "three"}), StatusCode::CREATED)
        .await;
    kofi.post_refused(
        &app,
        &chat,
        json!({"text": "four"}),
        StatusCode::TOO_MANY_REQUESTS,
        "too_many",
    )
    .await;
    // A block: ama no longer reads kofi, and kofi no longer reads ama.
    ama.block(&app, "kofi", true).await;
    let (_, lines) = ama.get(&app, &chat).await;
    assert!(
        lines
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["name"] != "kofi"),
        "{lines}"
    );
    ama.posted(
        &app,
        &chat,
        json!({"text": "sans kofi"}),
        StatusCode::CREATED,
    )
    .await;
    let (_, lines) = kofi.get(&app, &chat).await;
    assert!(lines.as_array().unwrap().iter().all(|l| l["name"] != "ama"));
    let (_, lines) = guest.get(&app, &chat).await;
    assert_eq!(lines.as_array().unwrap().len(), 4, "the others read both");
    // A moderator mutes and removes; nobody else may.
    kofi.post_refused(
        &app,
        "/api/moderation/tournament-chat-remove",
        json!({"tournament": id, "line": line["id"]}),
        StatusCode::FORBIDDEN,
        "not_moderator",
    )
    .await;
    state.accounts().grant_moderator("ama").await.unwrap();
    ama.mute(&app, "kofi").await;
    kofi.post_refused(
        &app,
        &chat,
        json!({"text": "hush"}),
        StatusCode::FORBIDDEN,
        "muted",
    )
    .await;
    let remove = json!({"tournament": id, "line": line["id"]});
    ama.posted(
        &app,
        "/api/moderation/tournament-chat-remove",
        remove.clone(),
        StatusCode::NO_CONTENT,
    )
    .await;
    let gone = events.named("chat_removed").await;
    assert_eq!(gone["id"], line["id"], "{gone}");
    ama.post_refused(
        &app,
        "/api/moderation/tournament-chat-remove",
        remove,
        StatusCode::NOT_FOUND,
        "no_such_line",
    )
    .await;
    let (_, lines) = guest.get(&app, &chat).await;
    assert!(lines
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["text"] != "akwaaba"));
    // Kid mode: nothing to read, nothing to say.
    let mut kid = Browser::kid_account(&app, "adjoa").await;
    let (_, lines) = kid.get(&app, &chat).await;
    assert_eq!(lines, json!([]));
    kid.post_refused(
        &app,
        &chat,
        json!({"text": "coucou"}),
        StatusCode::FORBIDDEN,
        "kid_mode",
    )
    .await;
}
