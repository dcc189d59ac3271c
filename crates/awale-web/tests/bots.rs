//! The API for bots and other clients, on the router itself: personal
//! tokens made on the account page (shown once, revoked), bot accounts,
//! the account's event stream and a game's stream as newline-delimited
//! JSON, a rated game between two bots played through the API to its end,
//! and every bad input refused with its status and code, nothing changed.

mod common;

use std::time::Duration;

use awale_core::{Game, Move, Rules};
use awale_web::ndjson::Next;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{json_of, memory_app, refused, Browser};

/// A client of the API: its token, sent as `Authorization: Bearer`.
struct Client {
    token: String,
}

impl Client {
    fn request(&self, method: &str, uri: &str, body: Option<Value>) -> Request<Body> {
        let mut r = Request::builder()
            .method(method)
            .uri(uri)
            .header("host", "127.0.0.1")
            .header("authorization", format!("Bearer {}", self.token));
        if body.is_some() {
            r = r.header("content-type", "application/json");
        }
        r.body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
            .unwrap()
    }

    async fn call(
        &self,
        app: &Router,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let response = app
            .clone()
            .oneshot(self.request(method, uri, body))
            .await
            .unwrap();
        let status = response.status();
        (status, json_of(response.into_body()).await)
    }

    async fn post(&self, app: &Router, uri: &str) -> (StatusCode, Value) {
        self.call(app, "POST", uri, None).await
    }

    async fn stream(&self, app: &Router, uri: &str) -> Lines {
        let response = app
            .clone()
            .oneshot(self.request("GET", uri, None))
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Lines(awale_web::ndjson::Lines::new(response.into_body()))
    }
}

/// A stream of newline-delimited JSON, read a line at a time (the empty
/// lines that keep it alive passed over).
struct Lines(awale_web::ndjson::Lines<Body>);

impl Lines {
    /// The next line, or None when the stream ended.
    async fn next(&mut self) -> Option<Value> {
        match self.0.next(Duration::from_secs(30)).await {
            Next::Line(value) => Some(value),
            Next::End => None,
            other => panic!("a JSON line within 30 s, not {other:?}"),
        }
    }

    /// The next line of type `kind`.
    async fn of_type(&mut self, kind: &str) -> Value {
        loop {
            let line = self.next().await.expect("the stream goes on");
            if line["type"] == kind {
                return line;
            }
        }
    }
}

/// A token of `b`'s account with `scopes`: its secret.
async fn token(b: &mut Browser, app: &Router, scopes: &[&str]) -> String {
    let made = b
        .posted(
            app,
            "/api/account/tokens",
            json!({"name": "my engine", "scopes": scopes}),
            StatusCode::CREATED,
        )
        .await;
    made["token"].as_str().unwrap().to_string()
}

/// An account named `name` upgraded to a bot, and its client.
async fn bot(app: &Router, name: &str) -> (Browser, Client) {
    let mut b = Browser::account(app, name).await;
    let client = Client {
        token: token(&mut b, app, &["bot:play"]).await,
    };
    let (status, up) = client.post(app, "/api/bot/account/upgrade").await;
    assert_eq!(status, StatusCode::OK, "{up}");
    assert_eq!(up["bot"], true);
    (b, client)
}

/// The first legal move in a game of `moves` (letters, spaced).
fn a_legal_move(moves: &str) -> String {
    let mut game = Game::new(Rules::AWALE);
    for letter in moves.split_whitespace() {
        game.play(Move::from_letter(letter.chars().next().unwrap()).unwrap())
            .unwrap();
    }
    game.legal_moves()[0].letter().to_string()
}

/// Alpha challenges Beta (rated, 1+0, Alpha South) and Beta accepts:
/// the game's id.
async fn rated_game(app: &Router, alpha: &Client, beta: &Client) -> String {
    let (status, made) = alpha
        .call(
            app,
            "POST",
            "/api/challenge/Beta",
            Some(json!({"rated": true, "clock": {"minutes": 1, "increment_seconds": 0}, "color": "S"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_i64().unwrap();
    let (status, accepted) = beta.post(app, &format!("/api/challenge/{id}/accept")).await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    accepted["game"].as_str().unwrap().to_string()
}

/// Ama (South, a person) challenges the bot Alpha to a casual 3+2 game,
/// which Alpha accepts through the API: the game's public id.
async fn challenged_bot(app: &Router, ama: &mut Browser, alpha: &Client) -> String {
    let made = ama
        .posted(
            app,
            "/api/challenges",
            json!({"to": "Alpha", "clock": {"minutes": 3, "increment_seconds": 2}, "colour": "S"}),
            StatusCode::CREATED,
        )
        .await;
    let id = made["id"].as_i64().unwrap();
    let (status, accepted) = alpha
        .post(app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    accepted["game"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn two_bots_challenge_each_other_and_play_a_rated_game_to_its_end_through_the_api() {
    let app = memory_app();
    let (_, alpha) = bot(&app, "Alpha").await;
    let (_, beta) = bot(&app, "Beta").await;
    let mut beta_events = beta.stream(&app, "/api/stream/event").await;
    let mut alpha_events = alpha.stream(&app, "/api/stream/event").await;

    let (status, made) = alpha
        .call(
            &app,
            "POST",
            "/api/challenge/Beta",
            Some(json!({"rated": true, "clock": {"minutes": 1, "increment_seconds": 0}, "color": "S"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let heard = beta_events.of_type("challenge").await;
    assert_eq!(heard["challenge"]["from"], "Alpha");
    let id = heard["challenge"]["id"].as_i64().unwrap();
    let (status, _) = beta
        .post(&app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let game = alpha_events.of_type("gameStart").await["game"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(beta_events.of_type("gameStart").await["game"], game);

    let mut south = alpha
        .stream(&app, &format!("/api/bot/game/stream/{game}"))
        .await;
    let full = south.next().await.unwrap();
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["rated"], true);
    assert_eq!(full["south"], json!({"name": "Alpha", "bot": true}));
    assert_eq!(full["north"], json!({"name": "Beta", "bot": true}));
    assert_eq!(full["state"]["moves"], "");

    // A few moves each, each seen on the stream, then North resigns.
    let mut moves = String::new();
    for ply in 0..6 {
        let mover = if ply % 2 == 0 { &alpha } else { &beta };
        let mv = a_legal_move(&moves);
        let (status, done) = mover
            .post(&app, &format!("/api/bot/game/{game}/move/{mv}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{done}");
        let state = south.of_type("gameState").await;
        moves = state["moves"].as_str().unwrap().to_string();
        assert_eq!(moves.split_whitespace().count(), ply + 1);
        assert!(state["time_ms"].is_array());
    }
    let (status, _) = beta
        .post(&app, &format!("/api/bot/game/{game}/resign"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let last = south.of_type("gameState").await;
    assert_eq!(
        (last["status"].as_str(), last["winner"].as_str()),
        (Some("resignation"), Some("S"))
    );
    assert!(
        south.next().await.is_none(),
        "the game's stream ends with it"
    );
    assert_eq!(alpha_events.of_type("gameFinish").await["game"], game);

    // The ratings show it.
    let mut anyone = Browser::opened(&app).await;
    let (_, page) = anyone.get(&app, "/api/players/Alpha").await;
    assert!(page.to_string().contains("bullet"), "{page}");
}

#[tokio::test]
async fn bad_tokens_wrong_apis_other_games_and_moves_out_of_turn_are_refused_and_change_nothing() {
    let app = memory_app();
    let (_, alpha) = bot(&app, "Alpha").await;
    let (_, beta) = bot(&app, "Beta").await;
    let (_, gamma) = bot(&app, "Gamma").await;
    let game = rated_game(&app, &alpha, &beta).await;
    let play = |mv: &str| format!("/api/bot/game/{game}/move/{mv}");

    // No token, a made-up token.
    let nobody = Client {
        token: "awt_made-up".into(),
    };
    refused(
        nobody.post(&app, &play("A")).await,
        StatusCode::UNAUTHORIZED,
        "bad_token",
    );
    let mut raw = Browser::opened(&app).await;
    refused(
        raw.post(&app, &play("A"), json!({})).await,
        StatusCode::UNAUTHORIZED,
        "no_token",
    );
    // A bot of another game.
    refused(
        gamma.post(&app, &play("A")).await,
        StatusCode::FORBIDDEN,
        "not_your_game",
    );
    // A game that does not exist.
    refused(
        alpha.post(&app, "/api/bot/game/NoSuchGame9/move/A").await,
        StatusCode::NOT_FOUND,
        "no_such_game",
    );
    // Out of turn: North moves first.
    refused(
        beta.post(&app, &play("a")).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    // A hole that is no move.
    refused(
        alpha.post(&app, &play("Z")).await,
        StatusCode::BAD_REQUEST,
        "bad_move",
    );
    // A person's tokens: on the bot API, refused.
    let mut ama = Browser::account(&app, "Ama").await;
    let board = Client {
        token: token(&mut ama, &app, &["board:play"]).await,
    };
    refused(
        board.post(&app, &play("A")).await,
        StatusCode::FORBIDDEN,
        "not_a_bot",
    );
    let wrong = Client {
        token: token(&mut ama, &app, &["bot:play"]).await,
    };
    refused(
        wrong.post(&app, &play("A")).await,
        StatusCode::FORBIDDEN,
        "not_a_bot",
    );
    // A token without the scope asked for.
    let reader = Client {
        token: token(&mut ama, &app, &["read"]).await,
    };
    refused(
        reader
            .post(&app, &format!("/api/board/game/{game}/move/A"))
            .await,
        StatusCode::FORBIDDEN,
        "missing_scope",
    );
    // A bot's on the board API, refused too.
    refused(
        alpha
            .post(&app, &format!("/api/board/game/{game}/move/A"))
            .await,
        StatusCode::FORBIDDEN,
        "bot_on_board_api",
    );
    // Nothing moved.
    let mut south = alpha
        .stream(&app, &format!("/api/bot/game/stream/{game}"))
        .await;
    assert_eq!(south.next().await.unwrap()["state"]["moves"], "");

    // A revoked token: refused, and its streams end.
    let mut b = Browser::account(&app, "Delta").await;
    let delta = Client {
        token: token(&mut b, &app, &["board:play"]).await,
    };
    let mut events = delta.stream(&app, "/api/stream/event").await;
    let (_, list) = b.get(&app, "/api/account/tokens").await;
    let listed = list["tokens"].as_array().unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        listed[0]["used_ms"].is_i64(),
        "its last use is kept: {list}"
    );
    assert!(
        !list.to_string().contains(&delta.token),
        "a token is shown once"
    );
    let id = listed[0]["id"].as_str().unwrap();
    b.posted(
        &app,
        &format!("/api/account/tokens/{id}/revoke"),
        json!({}),
        StatusCode::NO_CONTENT,
    )
    .await;
    assert!(
        events.next().await.is_none(),
        "a revoked token's stream ends"
    );
    refused(
        delta.post(&app, "/api/challenge/Alpha").await,
        StatusCode::UNAUTHORIZED,
        "bad_token",
    );
    refused(
        delta.post(&app, &play("A")).await,
        StatusCode::UNAUTHORIZED,
        "bad_token",
    );
    // Someone else's token is not theirs to revoke.
    let (_, alpha_list) = ama.get(&app, "/api/account/tokens").await;
    let theirs = alpha_list["tokens"][0]["id"].as_str().unwrap();
    b.post_refused(
        &app,
        &format!("/api/account/tokens/{theirs}/revoke"),
        json!({}),
        StatusCode::NOT_FOUND,
        "no_such_token",
    )
    .await;
    // The players of the game were unaffected by all of it: South plays
    // on, North answers.
    let (status, done) = alpha.post(&app, &play("A")).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["state"]["moves"], "A");
    let (status, done) = beta.post(&app, &play("a")).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["state"]["moves"], "A a");
}

#[tokio::test]
async fn a_flood_from_one_token_is_refused_and_other_players_are_unaffected() {
    // Seven accounts: more sign-ups than one address may make at once.
    let state = common::memory_state(awale_web::Config {
        signup_rate: awale_service::limiter::Rate {
            burst: 10,
            every_ms: 1,
        },
        ..awale_web::Config::default()
    });
    let app = awale_web::app(state);
    let (_, alpha) = bot(&app, "Alpha").await;
    let (_, beta) = bot(&app, "Beta").await;
    let (_, gamma) = bot(&app, "Gamma").await;
    let names = ["Ama", "Kofi", "Yaw", "Esi"];
    let mut people = Vec::new();
    for name in names {
        people.push(Browser::account(&app, name).await);
    }
    let game = rated_game(&app, &alpha, &beta).await;
    // A thousand calls at once from Beta's token (from its own address),
    // each of which would change something: a challenge to a person.
    // Past the token's burst (and what its rate gave back meanwhile),
    // every call is refused `too_many` before it is read.
    let started = std::time::Instant::now();
    let mut limited = 0;
    let mut through = 0;
    for n in 0..1000 {
        let mut request = beta.request(
            "POST",
            &format!("/api/challenge/{}", names[n % names.len()]),
            Some(json!({"clock": {"minutes": 1, "increment_seconds": 0}})),
        );
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                [192, 0, 2, 7],
                4000,
            ))));
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = json_of(response.into_body()).await;
        if status == StatusCode::TOO_MANY_REQUESTS && body["reason"] == "api_calls" {
            assert_eq!(body["error"], "too_many", "{body}");
            limited += 1;
        } else {
            // Through the token's limit: made, or refused by the
            // challenges' own rules (one open to each person, a player's
            // offers).
            through += 1;
        }
    }
    let rate = awale_service::bots::CALLS_PER_TOKEN;
    let given_back = started.elapsed().as_millis() as usize / rate.every_ms as usize + 1;
    assert!(
        through <= rate.burst as usize + given_back,
        "{through} calls went through ({} at once, {given_back} given back)",
        rate.burst
    );
    assert_eq!(limited + through, 1000);
    assert!(limited >= 900, "{limited} refused as too many");
    // Only what went through was made: one challenge to each person at
    // most, nothing beyond.
    let mut made = 0;
    for p in &mut people {
        let (_, mine) = p.get(&app, "/api/challenges").await;
        let from_beta = mine["received"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["from"] == "Beta")
            .count();
        assert!(from_beta <= 1, "{mine}");
        made += from_beta;
    }
    assert_eq!(made, names.len(), "one challenge to each person");
    // The others are unaffected: Alpha plays in the flooder's game and
    // chats there, Gamma challenges a person, a person makes a game.
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/move/A"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["state"]["moves"], "A");
    let (status, said) = alpha
        .call(
            &app,
            "POST",
            &format!("/api/bot/game/{game}/chat"),
            Some(json!({"room": "player", "text": "still here"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{said}");
    let (status, sent) = gamma
        .call(
            &app,
            "POST",
            "/api/challenge/Ama",
            Some(json!({"clock": {"minutes": 1, "increment_seconds": 0}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    let (status, mine) = people[1]
        .post(&app, "/api/games", json!({"mode": "computer"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    // Beta's own game did not move for its flood.
    let mut south = alpha
        .stream(&app, &format!("/api/bot/game/stream/{game}"))
        .await;
    assert_eq!(south.next().await.unwrap()["state"]["moves"], "A");
}

#[tokio::test]
async fn bots_keep_out_of_quick_pairing_and_people_only_tournaments_and_challenge_people_to_casual_games_only(
) {
    let app = memory_app();
    let (mut bot_page, alpha) = bot(&app, "Alpha").await;
    bot_page
        .post_refused(
            &app,
            "/api/pools/1+0/seek?wait_s=0",
            json!({}),
            StatusCode::FORBIDDEN,
            "bot_in_pools",
        )
        .await;
    let mut ama = Browser::account(&app, "Ama").await;
    // A tournament is people's unless its organiser lets bots in: then a
    // bot joins it, rated or casual (from its page or with its token);
    // else it is refused.
    for (rated, kind, bots) in [
        (true, "arena", false),
        (false, "swiss", false),
        (true, "arena", true),
    ] {
        let mut settings = json!({"kind": kind, "name": "Open", "minutes_each": 3,
                                  "increment_s": 2, "rated": rated, "bots_allowed": bots});
        if kind == "arena" {
            settings["minutes"] = json!(30);
            settings["starts_in_minutes"] = json!(30);
        } else {
            settings["rounds"] = json!(3);
        }
        let made = ama
            .posted(&app, "/api/tournaments", settings, StatusCode::OK)
            .await;
        assert_eq!(made["bots_allowed"], bots);
        let id = &made["id"];
        let join = format!("/api/tournaments/{id}/join");
        let api_join = format!("/api/bot/tournament/{id}/join");
        if bots {
            let (status, view) = alpha.post(&app, &api_join).await;
            assert_eq!(status, StatusCode::OK, "{view}");
            assert_eq!(view["bots_allowed"], true);
            assert_eq!(view["standings"][0]["bot"], true);
            let (status, view) = alpha
                .post(&app, &format!("/api/bot/tournament/{id}/withdraw"))
                .await;
            assert_eq!(status, StatusCode::OK, "{view}");
            assert_eq!(view["standings"][0]["presence"], "withdrawn");
            bot_page
                .posted(&app, &join, json!({}), StatusCode::OK)
                .await;
        } else {
            bot_page
                .post_refused(
                    &app,
                    &join,
                    json!({}),
                    StatusCode::FORBIDDEN,
                    "bots_not_allowed",
                )
                .await;
            refused(
                alpha.post(&app, &api_join).await,
                StatusCode::FORBIDDEN,
                "bots_not_allowed",
            );
        }
    }
    // The bot API's join is a bot's: a person's token is refused.
    let person = Client {
        token: token(&mut ama, &app, &["board:play"]).await,
    };
    let (_, list) = ama.get(&app, "/api/tournaments").await;
    let open = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["bots_allowed"] == true)
        .unwrap();
    refused(
        person
            .post(&app, &format!("/api/bot/tournament/{}/join", open["id"]))
            .await,
        StatusCode::FORBIDDEN,
        "not_a_bot",
    );
    refused(
        alpha
            .call(
                &app,
                "POST",
                "/api/challenge/Ama",
                Some(json!({"rated": true, "clock": {"minutes": 1, "increment_seconds": 0}})),
            )
            .await,
        StatusCode::FORBIDDEN,
        "bot_rated_vs_person",
    );
    // A person challenges the bot to a rated game and plays it from
    // another client through the board API.
    let made = ama
        .posted(
            &app,
            "/api/challenges",
            json!({"to": "Alpha", "rated": true, "clock": {"minutes": 3, "increment_seconds": 2}, "colour": "S"}),
            StatusCode::CREATED,
        )
        .await;
    // The challenge marks the bot.
    assert_eq!(
        (&made["to_bot"], &made["from_bot"]),
        (&json!(true), &json!(false))
    );
    let id = made["id"].as_i64().unwrap();
    let (status, accepted) = alpha
        .post(&app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["challenge"]["to_bot"], true);
    let game = accepted["game"].as_str().unwrap();
    // So do the game's seats (Ama South) and the bot's page.
    let (_, seats) = ama.get(&app, &format!("/api/games/{game}/accounts")).await;
    assert_eq!(
        seats,
        json!({"accounts": [true, true], "bots": [false, true], "api": [false, false]})
    );
    let (_, page) = ama.get(&app, "/api/players/Alpha").await;
    assert_eq!(page["bot"], true);
    let (_, page) = ama.get(&app, "/api/players/Ama").await;
    assert_eq!(page["bot"], false);
    let board = Client {
        token: token(&mut ama, &app, &["board:play"]).await,
    };
    let (status, done) = board
        .post(&app, &format!("/api/board/game/{game}/move/C"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/move/f"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["state"]["moves"], "C f");
    // The upgrade is for good.
    refused(
        alpha.post(&app, "/api/bot/account/upgrade").await,
        StatusCode::CONFLICT,
        "already_bot",
    );
}

/// An account that has played online stays a person's, even when its
/// newest games are against the computer (all its games are looked at,
/// not the newest).
#[tokio::test]
async fn an_account_that_played_online_cannot_become_a_bot_whatever_it_played_since() {
    let app = memory_app();
    let mut kofi = Browser::account(&app, "Kofi").await;
    let clock = json!({"minutes": 3, "increment_seconds": 2});
    kofi.posted(
        &app,
        "/api/games",
        json!({"mode": "online", "public": true, "clock": clock, "human": "S"}),
        StatusCode::CREATED,
    )
    .await;
    for _ in 0..3 {
        kofi.posted(
            &app,
            "/api/games",
            json!({"mode": "computer"}),
            StatusCode::CREATED,
        )
        .await;
    }
    let client = Client {
        token: token(&mut kofi, &app, &["bot:play"]).await,
    };
    let (status, said) = client.post(&app, "/api/bot/account/upgrade").await;
    assert_eq!(status, StatusCode::CONFLICT, "{said}");
    assert_eq!(said["error"], "has_games", "{said}");
    let (_, account) = kofi.get(&app, "/api/account").await;
    assert_eq!(account["account"]["bot"], false, "{account}");
}

#[tokio::test]
async fn a_bot_with_its_cookies_is_refused_at_the_peoples_doors_and_nothing_changes() {
    let app = memory_app();
    let (mut page, alpha) = bot(&app, "Alpha").await;
    let mut ama = Browser::account(&app, "Ama").await;
    let clock = json!({"minutes": 3, "increment_seconds": 2});

    // A challenge to a person, rated or casual, from its cookies: refused,
    // none made.
    for rated in [true, false] {
        page.post_refused(
            &app,
            "/api/challenges",
            json!({"to": "Ama", "rated": rated, "clock": clock}),
            StatusCode::FORBIDDEN,
            "bot_api_only",
        )
        .await;
    }
    let (_, mine) = ama.get(&app, "/api/challenges").await;
    assert_eq!(mine["received"], json!([]), "{mine}");
    // A game offered in the lobby: refused, the lobby empty.
    page.post_refused(
        &app,
        "/api/games",
        json!({"mode": "online", "public": true, "clock": clock}),
        StatusCode::FORBIDDEN,
        "bot_api_only",
    )
    .await;
    let (_, lobby) = ama.get(&app, "/api/lobby").await;
    assert_eq!(lobby["challenges"], json!([]), "{lobby}");
    // A person's lobby game taken: refused, the seat still free.
    let offered = ama
        .posted(
            &app,
            "/api/games",
            json!({"mode": "online", "public": true, "clock": clock, "human": "S"}),
            StatusCode::CREATED,
        )
        .await;
    let open = offered["id"].as_str().unwrap();
    page.post_refused(
        &app,
        &format!("/api/games/{open}/join"),
        json!({}),
        StatusCode::FORBIDDEN,
        "bot_api_only",
    )
    .await;
    let (_, seats) = ama.get(&app, &format!("/api/games/{open}/accounts")).await;
    assert_eq!(seats["accounts"], json!([true, false]), "{seats}");

    // Ama challenges the bot (its South): the page's accept refused, the
    // API's taken.
    let made = ama
        .posted(
            &app,
            "/api/challenges",
            json!({"to": "Alpha", "clock": clock, "colour": "N"}),
            StatusCode::CREATED,
        )
        .await;
    let id = made["id"].as_i64().unwrap();
    page.post_refused(
        &app,
        &format!("/api/challenges/{id}/accept"),
        json!({}),
        StatusCode::FORBIDDEN,
        "bot_api_only",
    )
    .await;
    let (status, accepted) = alpha
        .post(&app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    let game = accepted["game"].as_str().unwrap();
    // A move from its cookies: refused, nothing played; through the bot
    // API, played.
    page.post_refused(
        &app,
        &format!("/api/games/{game}/moves"),
        json!({"move": "A", "ply": 0}),
        StatusCode::FORBIDDEN,
        "bot_api_only",
    )
    .await;
    let (_, view) = ama.get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(view["plies"], json!([]), "{view}");
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/move/A"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["state"]["moves"], "A");
    // The person plays on from the page.
    let (status, view) = ama
        .post(
            &app,
            &format!("/api/games/{game}/moves"),
            json!({"move": "a", "ply": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");

    // Nothing else of its game from its cookies either: a takeback asked,
    // a draw offered, an abort, a chat line, a resignation; the game goes
    // on, nothing said.
    for (act, body) in [
        ("takeback", json!({})),
        ("draw", json!({})),
        ("abort", json!({})),
        ("chat", json!({"room": "players", "text": "hello"})),
        ("resign", json!({})),
    ] {
        page.post_refused(
            &app,
            &format!("/api/games/{game}/{act}"),
            body,
            StatusCode::FORBIDDEN,
            "bot_api_only",
        )
        .await;
    }
    let (_, view) = ama.get(&app, &format!("/api/games/{game}")).await;
    assert!(view["end"].is_null(), "{view}");
    assert_eq!(view["offers"]["draw"], json!(null), "{view}");
    let (_, lines) = ama.get(&app, &format!("/api/games/{game}/chat")).await;
    assert_eq!(lines, json!([]), "{lines}");
    // Through the bot API: said, then resigned.
    let (status, said) = alpha
        .call(
            &app,
            "POST",
            &format!("/api/bot/game/{game}/chat"),
            Some(json!({"room": "player", "text": "hello"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{said}");
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/resign"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (_, view) = ama.get(&app, &format!("/api/games/{game}")).await;
    assert!(!view["end"].is_null(), "{view}");
    // A rematch asked from its cookies: refused, none offered.
    page.post_refused(
        &app,
        &format!("/api/games/{game}/rematch"),
        json!({}),
        StatusCode::FORBIDDEN,
        "bot_api_only",
    )
    .await;
    let (_, view) = ama.get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(view["offers"]["rematch"], json!(null), "{view}");
}

#[tokio::test]
async fn a_person_playing_through_the_board_api_shows_as_such_on_their_seat() {
    let app = memory_app();
    let (_, alpha) = bot(&app, "Alpha").await;
    let mut ama = Browser::account(&app, "Ama").await;
    let game = challenged_bot(&app, &mut ama, &alpha).await;
    let seats = format!("/api/games/{game}/accounts");
    let presence = format!("/api/games/{game}/presence");
    let mut watcher = Browser::opened(&app).await;
    // Nobody plays through the board API yet; the bot's API is not it.
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/move/a"))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "South moves first: {done}");
    let (_, view) = watcher.get(&app, &seats).await;
    assert_eq!(view["api"], json!([false, false]), "{view}");
    let (_, here) = watcher.get(&app, &presence).await;
    assert_eq!(here["api"], json!([false, false]), "{here}");
    // Ama (South) moves from another client with her board token.
    let board = Client {
        token: token(&mut ama, &app, &["board:play"]).await,
    };
    let (status, done) = board
        .post(&app, &format!("/api/board/game/{game}/move/C"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (_, view) = watcher.get(&app, &seats).await;
    assert_eq!(view["api"], json!([true, false]), "{view}");
    assert_eq!(view["bots"], json!([false, true]), "{view}");
    // The page's presence (what its stream's `presence` events carry too)
    // says it.
    let (_, here) = watcher.get(&app, &presence).await;
    assert_eq!(here["api"], json!([true, false]), "{here}");
    // Her moves from the page afterwards change nothing of it.
    let (status, done) = alpha
        .post(&app, &format!("/api/bot/game/{game}/move/f"))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (status, _) = ama
        .post(
            &app,
            &format!("/api/games/{game}/moves"),
            json!({"move": "A", "ply": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, view) = ama.get(&app, &seats).await;
    assert_eq!(view["api"], json!([true, false]), "{view}");
}

#[tokio::test]
async fn a_read_token_reads_its_account_and_games_and_does_nothing_else() {
    let app = memory_app();
    let (_, alpha) = bot(&app, "Alpha").await;
    let mut ama = Browser::account(&app, "Ama").await;
    let game = challenged_bot(&app, &mut ama, &alpha).await;
    let reader = Client {
        token: token(&mut ama, &app, &["read"]).await,
    };
    // Its account, and its games.
    let (status, me) = reader.call(&app, "GET", "/api/account", None).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(
        (&me["username"], &me["bot"]),
        (&json!("Ama"), &json!(false))
    );
    let (status, games) = reader
        .call(&app, "GET", "/api/account/games?limit=10", None)
        .await;
    assert_eq!(status, StatusCode::OK, "{games}");
    assert_eq!(games["games"][0]["id"], game.as_str(), "{games}");
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
    refused(
        reader
            .call(&app, "GET", "/api/account/games?before=nonsense", None)
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_cursor",
    );
    // Nothing else: no move, no stream, no challenge, no answer.
    let uses: [(&str, String, Option<Value>); 6] = [
        ("POST", format!("/api/board/game/{game}/move/C"), None),
        ("POST", format!("/api/board/game/{game}/resign"), None),
        ("GET", format!("/api/board/game/stream/{game}"), None),
        ("GET", "/api/stream/event".to_string(), None),
        (
            "POST",
            "/api/challenge/Alpha".to_string(),
            Some(json!({"clock": {"minutes": 1, "increment_seconds": 0}})),
        ),
        ("POST", format!("/api/board/game/{game}/draw/yes"), None),
    ];
    for (method, uri, body) in uses {
        refused(
            reader.call(&app, method, &uri, body).await,
            StatusCode::FORBIDDEN,
            "missing_scope",
        );
    }
    // A playing token reads nothing of this kind; cookies read the page.
    let board = Client {
        token: token(&mut ama, &app, &["board:play"]).await,
    };
    for uri in ["/api/account", "/api/account/games"] {
        refused(
            board.call(&app, "GET", uri, None).await,
            StatusCode::FORBIDDEN,
            "missing_scope",
        );
    }
    let (status, page) = ama.get(&app, "/api/account").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["account"]["username"], "Ama");
    let mut nobody = Browser::opened(&app).await;
    refused(
        nobody.get(&app, "/api/account").await,
        StatusCode::FORBIDDEN,
        "not_logged_in",
    );
    // Nothing changed: the game has no move, and goes on.
    let (_, view) = ama.get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(view["plies"], json!([]), "{view}");
    assert!(view["end"].is_null(), "{view}");
}

#[tokio::test]
async fn draws_offered_declined_and_accepted_and_a_challenge_declined_through_the_api() {
    let app = memory_app();
    let (_, alpha) = bot(&app, "Alpha").await;
    let (_, beta) = bot(&app, "Beta").await;
    let mut alpha_events = alpha.stream(&app, "/api/stream/event").await;

    // A challenge declined: the challenger hears it; it cannot be
    // accepted after.
    let (status, made) = alpha
        .call(
            &app,
            "POST",
            "/api/challenge/Beta",
            Some(json!({"clock": {"minutes": 3, "increment_seconds": 2}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_i64().unwrap();
    let (status, declined) = beta
        .post(&app, &format!("/api/challenge/{id}/decline"))
        .await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(declined["state"], "declined");
    loop {
        let heard = alpha_events.of_type("challenge").await;
        if heard["challenge"]["id"] == id && heard["challenge"]["state"] == "declined" {
            break;
        }
    }
    let (status, again) = beta
        .post(&app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert!(status.is_client_error(), "{status} {again}");

    // A game (Alpha South): no draw before both have moved.
    let game = rated_game(&app, &alpha, &beta).await;
    let draw = |yes: &str| format!("/api/bot/game/{game}/draw/{yes}");
    let (status, early) = alpha.post(&app, &draw("yes")).await;
    assert!(status.is_client_error(), "{early}");
    assert_eq!(early["error"], "draw_too_early");
    let mut moves = String::new();
    for mover in [&alpha, &beta] {
        let mv = a_legal_move(&moves);
        let (status, done) = mover
            .post(&app, &format!("/api/bot/game/{game}/move/{mv}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{done}");
        moves = done["state"]["moves"].as_str().unwrap().to_string();
    }
    // Alpha offers; Beta declines; Alpha may not offer again before its
    // next move.
    let (status, offered) = alpha.post(&app, &draw("yes")).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["state"]["draw_offer"], "S");
    let (status, pending) = alpha.post(&app, &draw("yes")).await;
    assert!(status.is_client_error(), "{pending}");
    assert_eq!(pending["error"], "draw_pending");
    let (status, no) = beta.post(&app, &draw("no")).await;
    assert_eq!(status, StatusCode::OK, "{no}");
    assert_eq!(
        (&no["state"]["draw_offer"], &no["state"]["status"]),
        (&Value::Null, &json!("started"))
    );
    let (status, refused_again) = alpha.post(&app, &draw("yes")).await;
    assert!(status.is_client_error(), "{refused_again}");
    assert_eq!(refused_again["error"], "draw_declined");
    // Beta offers, Alpha accepts: drawn by agreement, seen on the stream.
    let mut south = alpha
        .stream(&app, &format!("/api/bot/game/stream/{game}"))
        .await;
    assert_eq!(south.next().await.unwrap()["type"], "gameFull");
    let (status, offered) = beta.post(&app, &draw("yes")).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["state"]["draw_offer"], "N");
    assert_eq!(south.of_type("gameState").await["draw_offer"], "N");
    let (status, agreed) = alpha.post(&app, &draw("yes")).await;
    assert_eq!(status, StatusCode::OK, "{agreed}");
    assert_eq!(
        (&agreed["state"]["status"], &agreed["state"]["winner"]),
        (&json!("agreement"), &Value::Null)
    );
    assert_eq!(agreed["state"]["moves"], moves.as_str());
    let last = south.of_type("gameState").await;
    assert_eq!(last["status"], "agreement");
    assert!(
        south.next().await.is_none(),
        "the stream ends with the game"
    );
}

#[tokio::test]
async fn chat_through_the_api_goes_through_the_one_chat_service_and_its_rules() {
    // Six accounts: more sign-ups than one address may make at once.
    let state = common::memory_state(awale_web::Config {
        signup_rate: awale_service::limiter::Rate {
            burst: 10,
            every_ms: 1,
        },
        ..awale_web::Config::default()
    });
    let app = awale_web::app(state.clone());
    let (_, alpha) = bot(&app, "Alpha").await;
    let (mut beta_page, beta) = bot(&app, "Beta").await;
    let (_, gamma) = bot(&app, "Gamma").await;
    let game = rated_game(&app, &alpha, &beta).await;
    let chat = format!("/api/bot/game/{game}/chat");
    let mut north = beta
        .stream(&app, &format!("/api/bot/game/stream/{game}"))
        .await;
    assert_eq!(north.next().await.unwrap()["type"], "gameFull");

    // As JSON, in the players' room: on the other's game stream, in
    // lichess's shape.
    let (status, said) = alpha
        .call(
            &app,
            "POST",
            &chat,
            Some(json!({"room": "player", "text": "good luck"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{said}");
    let heard = north.of_type("chatLine").await;
    assert_eq!(
        (&heard["room"], &heard["username"], &heard["text"]),
        (&json!("player"), &json!("Alpha"), &json!("good luck"))
    );
    // As a form (lichess's clients), in the spectators' room.
    let form = Request::builder()
        .method("POST")
        .uri(&chat)
        .header("host", "127.0.0.1")
        .header("authorization", format!("Bearer {}", alpha.token))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("room=spectator&text=hello%20all"))
        .unwrap();
    let answer = app.clone().oneshot(form).await.unwrap();
    assert_eq!(answer.status(), StatusCode::CREATED);
    let heard = north.of_type("chatLine").await;
    assert_eq!(
        (&heard["room"], &heard["text"]),
        (&json!("spectator"), &json!("hello all"))
    );
    // The page's chat has both lines.
    let (_, lines) = beta_page
        .get(&app, &format!("/api/games/{game}/chat"))
        .await;
    assert_eq!(lines.as_array().unwrap().len(), 2, "{lines}");

    // A room that is none, a game of others, an empty message.
    let say = |room: &str, text: &str| Some(json!({"room": room, "text": text}));
    refused(
        alpha.call(&app, "POST", &chat, say("lobby", "hi")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_room",
    );
    refused(
        gamma.call(&app, "POST", &chat, say("player", "hi")).await,
        StatusCode::FORBIDDEN,
        "not_your_game",
    );
    refused(
        alpha.call(&app, "POST", &chat, say("player", "  ")).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_message",
    );
    // The flood limit: Beta's fifth line at once is too many.
    let mut flooded = false;
    for n in 0..6 {
        let (status, body) = beta
            .call(&app, "POST", &chat, say("player", &format!("line {n}")))
            .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(body["error"], "too_many");
            flooded = true;
        }
    }
    assert!(flooded, "the chat's flood limit holds on the API");
    // Blocks: Beta blocks Alpha, who then speaks in none of Beta's games.
    beta_page.block(&app, "Alpha", true).await;
    refused(
        alpha.call(&app, "POST", &chat, say("player", "hi")).await,
        StatusCode::FORBIDDEN,
        "blocked",
    );
    // A moderator's mute.
    let mut mo = Browser::account(&app, "Efua").await;
    state.accounts().grant_moderator("efua").await.unwrap();
    mo.mute(&app, "Gamma").await;
    let (_, delta) = bot(&app, "Delta").await;
    let other = {
        let (status, made) = gamma
            .call(
                &app,
                "POST",
                "/api/challenge/Delta",
                Some(json!({"clock": {"minutes": 1, "increment_seconds": 0}})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_i64().unwrap();
        let (_, accepted) = delta
            .post(&app, &format!("/api/challenge/{id}/accept"))
            .await;
        accepted["game"].as_str().unwrap().to_string()
    };
    refused(
        gamma
            .call(
                &app,
                "POST",
                &format!("/api/bot/game/{other}/chat"),
                say("player", "hi"),
            )
            .await,
        StatusCode::FORBIDDEN,
        "muted",
    );
    // Kid mode: a kid-mode person's board token says nothing either.
    let mut kid = Browser::kid_account(&app, "Adjoa").await;
    let made = kid
        .posted(
            &app,
            "/api/challenges",
            json!({"to": "Delta", "clock": {"minutes": 3, "increment_seconds": 2}}),
            StatusCode::CREATED,
        )
        .await;
    let id = made["id"].as_i64().unwrap();
    let (status, accepted) = delta
        .post(&app, &format!("/api/challenge/{id}/accept"))
        .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    let kids_game = accepted["game"].as_str().unwrap().to_string();
    let board = Client {
        token: token(&mut kid, &app, &["board:play"]).await,
    };
    refused(
        board
            .call(
                &app,
                "POST",
                &format!("/api/board/game/{kids_game}/chat"),
                say("player", "hi"),
            )
            .await,
        StatusCode::FORBIDDEN,
        "kid_mode",
    );
}
