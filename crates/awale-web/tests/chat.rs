//! A game's chat on its live stream, each event to its audience: the
//! players' room to the players only, no chat line (either room) to a
//! kid-mode account, live or replayed; a moderator reads both rooms of a
//! game a report names, nobody else does. On the router itself, the real
//! event stream read as a browser reads it.

mod common;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

use awale_web::{app, Config};
use common::{memory_state, refused, Browser, Events};

/// The events of `game`'s stream up to the next `reaction` (a marker sent
/// after what the test looks at), `presence` aside: their names, and
/// their data.
async fn until_reaction(events: &mut Events) -> Vec<(String, Value)> {
    let mut seen = Vec::new();
    loop {
        let (name, _, data) = events.next().await;
        if name == "reaction" {
            return seen;
        }
        seen.push((name, data));
    }
}

/// The rooms of the `chat` events among `events`.
fn chat_rooms(events: &[(String, Value)]) -> Vec<String> {
    events
        .iter()
        .filter(|(name, _)| name.starts_with("chat"))
        .map(|(_, data)| data["room"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// `b` joins `game` with its invitation's key.
async fn join(app: &Router, maker: &mut Browser, b: &mut Browser, game: &str) {
    let key = maker.invite_key(app, game).await;
    b.posted(
        app,
        &format!("/api/games/{game}/join"),
        json!({"name": "Yaw", "key": key}),
        StatusCode::OK,
    )
    .await;
}

async fn say(app: &Router, b: &mut Browser, game: &str, room: &str, text: &str) {
    b.posted(
        app,
        &format!("/api/games/{game}/chat"),
        json!({"room": room, "text": text}),
        StatusCode::CREATED,
    )
    .await;
}

/// `b` reports Kofi for insults in `game`.
async fn report_kofi(app: &Router, b: &mut Browser, game: &str) {
    b.posted(
        app,
        "/api/reports",
        json!({"username": "Kofi", "game": game, "reason": "insults", "text": "rude"}),
        StatusCode::CREATED,
    )
    .await;
}

async fn react(app: &Router, b: &mut Browser, game: &str) {
    b.posted(
        app,
        &format!("/api/games/{game}/react"),
        json!({"kind": "applause"}),
        StatusCode::NO_CONTENT,
    )
    .await;
}

#[tokio::test]
async fn a_kid_mode_accounts_event_stream_carries_no_chat_line() {
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut kid = Browser::kid_account(&app, "Adjoa").await;
    let game = kid.online_game(&app).await;
    let mut other = Browser::opened(&app).await;
    join(&app, &mut kid, &mut other, &game).await;
    let mut fan = Browser::opened(&app).await;
    let events = |b: &Browser, query: &str| {
        b.request("GET", &format!("/api/games/{game}/events{query}"), None)
    };
    let mut kids = Events::open(&app, events(&kid, "")).await;
    let (first, since, _) = kids.next().await;
    assert_eq!(first, "state");
    let since = since.expect("the state's version");
    let mut others = Events::open(&app, events(&other, "")).await;
    let mut fans = Events::open(&app, events(&fan, "")).await;

    say(&app, &mut other, &game, "players", "to the players").await;
    say(&app, &mut fan, &game, "public", "to everyone").await;
    react(&app, &mut other, &game).await;

    assert_eq!(
        chat_rooms(&until_reaction(&mut kids).await),
        Vec::<String>::new(),
        "a kid-mode account hears no chat, in neither room"
    );
    assert_eq!(
        chat_rooms(&until_reaction(&mut others).await),
        ["players", "public"],
        "a player hears both rooms, each as `chat`"
    );
    assert_eq!(
        chat_rooms(&until_reaction(&mut fans).await),
        ["public"],
        "a spectator hears the public's room only"
    );

    // Coming back: what was missed is replayed, its chat left out too.
    let mut back = Events::open(&app, events(&kid, &format!("?since={since}"))).await;
    let mut replayed = Vec::new();
    loop {
        let (name, _, data) = back.next().await;
        if name == "clock" {
            break;
        }
        assert_ne!(name, "state", "the history has it all: {data}");
        replayed.push((name, data));
    }
    assert_eq!(chat_rooms(&replayed), Vec::<String>::new());
    let mut fan_back = Events::open(&app, events(&fan, &format!("?since={since}"))).await;
    let (name, _, data) = fan_back.next().await;
    assert_eq!((name.as_str(), &data["room"]), ("chat", &json!("public")));

    // Nor a moderator's removal of a line.
    let (_, lines) = fan.get(&app, &format!("/api/games/{game}/chat")).await;
    let mut mo = Browser::account(&app, "Efua").await;
    state.accounts().grant_moderator("efua").await.unwrap();
    mo.posted(
        &app,
        "/api/moderation/chat-remove",
        json!({"game": game, "line": lines[0]["id"]}),
        StatusCode::NO_CONTENT,
    )
    .await;
    react(&app, &mut other, &game).await;
    let heard = until_reaction(&mut kids).await;
    assert!(
        heard.iter().all(|(name, _)| !name.starts_with("chat")),
        "{heard:?}"
    );
    let heard = until_reaction(&mut fans).await;
    assert_eq!(heard[0].0, "chat_removed", "{heard:?}");
}

#[tokio::test]
async fn a_moderator_reads_both_rooms_of_a_reported_game_and_nobody_else_does() {
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let mut mo = Browser::account(&app, "Efua").await;
    state.accounts().grant_moderator("efua").await.unwrap();
    let game = ama.online_game(&app).await;
    join(&app, &mut ama, &mut kofi, &game).await;
    say(&app, &mut kofi, &game, "players", "rude words").await;
    say(&app, &mut ama, &game, "public", "hello all").await;
    let uri = format!("/api/moderation/games/{game}/chat");

    // Not reported yet: the players' room is theirs.
    refused(
        mo.get(&app, &uri).await,
        StatusCode::NOT_FOUND,
        "not_reported",
    );
    report_kofi(&app, &mut ama, &game).await;

    let (status, chat) = mo.get(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{chat}");
    assert_eq!(chat["game"], json!(game));
    assert_eq!(chat["players"][0]["text"], "rude words", "{chat}");
    assert_eq!(chat["players"][0]["name"], "Kofi", "{chat}");
    assert_eq!(chat["public"][0]["text"], "hello all", "{chat}");

    // A player, even the reporter, and a guest: refused.
    refused(
        ama.get(&app, &uri).await,
        StatusCode::FORBIDDEN,
        "not_moderator",
    );
    let mut guest = Browser::opened(&app).await;
    let (status, _) = guest.get(&app, &uri).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A number names no game.
    refused(
        mo.get(&app, "/api/moderation/games/1/chat").await,
        StatusCode::NOT_FOUND,
        "no_such_game",
    );
}

#[tokio::test]
async fn a_moderator_watching_a_reported_game_hears_its_players_room_live_and_nobody_else_does() {
    let state = memory_state(Config::default());
    let app = app(state.clone());
    let mut ama = Browser::account(&app, "Ama").await;
    let mut kofi = Browser::account(&app, "Kofi").await;
    let mo = Browser::account(&app, "Efua").await;
    state.accounts().grant_moderator("efua").await.unwrap();
    let game = ama.online_game(&app).await;
    join(&app, &mut ama, &mut kofi, &game).await;
    let events = |b: &Browser| b.request("GET", &format!("/api/games/{game}/events"), None);

    // Not reported: the moderator watches as any spectator.
    let mut before = Events::open(&app, events(&mo)).await;
    say(&app, &mut kofi, &game, "players", "before the report").await;
    react(&app, &mut ama, &game).await;
    assert_eq!(
        chat_rooms(&until_reaction(&mut before).await),
        Vec::<String>::new()
    );

    report_kofi(&app, &mut ama, &game).await;
    // Reported: the moderator's stream carries the players' room; a
    // spectator's and a player's of the public (logged in) do not change.
    let mut mods = Events::open(&app, events(&mo)).await;
    let fan = Browser::account(&app, "Abena").await;
    let mut fans = Events::open(&app, events(&fan)).await;
    say(&app, &mut kofi, &game, "players", "rude words").await;
    react(&app, &mut ama, &game).await;
    let heard = until_reaction(&mut mods).await;
    let lines: Vec<&Value> = heard
        .iter()
        .filter(|(name, _)| name == "chat")
        .map(|(_, data)| data)
        .collect();
    assert_eq!(lines.len(), 1, "{heard:?}");
    assert_eq!(lines[0]["room"], "players");
    assert_eq!(lines[0]["text"], "rude words");
    assert_eq!(
        chat_rooms(&until_reaction(&mut fans).await),
        Vec::<String>::new(),
        "a spectator never hears the players' room"
    );
}
