//! Swiss tournaments through the HTTP API, on the router itself: made
//! with `kind` `swiss`; the refusals' codes (a guest, a bad number of
//! rounds, a round started by another than the organiser or while one is
//! in play, too few players, a CSV of an arena); a round played by
//! resignations; the standings with tie-breaks and the crosstable in the
//! view; the club's files (the standings as CSV, the games as one record
//! file the import reads back).

mod common;

use axum::http::{header, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{memory_app, until, Browser};

/// A file downloaded: its status, type, disposition and text.
async fn file(b: &Browser, app: &Router, uri: &str) -> (StatusCode, String, String, String) {
    let response = app
        .clone()
        .oneshot(b.request("GET", uri, None))
        .await
        .unwrap();
    let status = response.status();
    let header_of = |name| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (kind, disposition) = (
        header_of(header::CONTENT_TYPE),
        header_of(header::CONTENT_DISPOSITION),
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        kind,
        disposition,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

fn swiss(rounds: i64) -> Value {
    json!({"kind": "swiss", "name": "Club evening", "minutes_each": 5, "increment_s": 3,
           "rounds": rounds, "manual_rounds": true})
}

fn error(body: &Value) -> (&str, &str) {
    (
        body["error"].as_str().unwrap_or(""),
        body["reason"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn a_swiss_is_made_played_by_rounds_and_its_files_downloaded() {
    let app = memory_app();
    let mut guest = Browser::opened(&app).await;
    let (status, body) = guest.post(&app, "/api/tournaments", swiss(3)).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::FORBIDDEN, "account_needed")
    );
    let mut ama = Browser::account(&app, "ama").await;
    let mut kofi = Browser::account(&app, "kofi").await;
    let mut esi = Browser::account(&app, "esi").await;
    for (body, reason) in [
        (swiss(0), "rounds"),
        (swiss(16), "rounds"),
        (
            json!({"kind": "round_robin", "name": "X", "minutes_each": 5, "increment_s": 3}),
            "kind",
        ),
    ] {
        let got = ama
            .posted(
                &app,
                "/api/tournaments",
                body,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        assert_eq!(error(&got), ("bad_tournament", reason));
    }
    let made = ama
        .posted(&app, "/api/tournaments", swiss(3), StatusCode::OK)
        .await;
    assert_eq!(
        (made["kind"].as_str(), made["rounds"].as_i64()),
        (Some("swiss"), Some(3))
    );
    let id = made["id"].as_i64().unwrap();
    let uri = format!("/api/tournaments/{id}");
    let (_, view) = ama.get(&app, &uri).await;
    assert_eq!(view["state"], "created", "a Swiss waits for its organiser");
    assert_eq!(view["swiss"]["round"], 0);
    ama.post(&app, &format!("{uri}/join"), json!({})).await;
    let (status, body) = ama.post(&app, &format!("{uri}/round"), json!({})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::CONFLICT, "too_few_players")
    );
    kofi.post(&app, &format!("{uri}/join"), json!({})).await;
    esi.post(&app, &format!("{uri}/join"), json!({})).await;
    let (status, body) = kofi.post(&app, &format!("{uri}/round"), json!({})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::FORBIDDEN, "not_organiser")
    );
    let view = ama
        .posted(&app, &format!("{uri}/round"), json!({}), StatusCode::OK)
        .await;
    assert_eq!(view["swiss"]["round"], 1);
    assert_eq!(view["swiss"]["round_in_play"], true);
    let (status, body) = ama.post(&app, &format!("{uri}/round"), json!({})).await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::CONFLICT, "round_in_play")
    );
    // Three players: one game, one bye. The second to sow resigns.
    let game = &view["swiss"]["games"][0];
    assert!(view["swiss"]["bye"].is_number());
    let public = game["game"].as_str().unwrap().to_string();
    let loser = game["second_name"].as_str().unwrap().to_string();
    let winner = game["first_name"].as_str().unwrap().to_string();
    let browser = match loser.as_str() {
        "ama" => &mut ama,
        "kofi" => &mut kofi,
        _ => &mut esi,
    };
    browser.resigns(&app, &public).await;
    let view = until(&mut ama, &app, &uri, |v| {
        v["swiss"]["next_round_ready"] == true
    })
    .await;
    let standings = view["swiss"]["standings"].as_array().unwrap();
    // The winner and the bye on 1 point (2 half points) each, the loser on 0.
    let points: Vec<i64> = standings
        .iter()
        .map(|l| l["points"].as_i64().unwrap())
        .collect();
    assert_eq!(points, [2, 2, 0]);
    // The winner played (Buchholz 0: the loser's points), the bye did not:
    // both 0, the winner ahead on seed or Sonneborn-Berger, never the bye
    // above the winner by tie-breaks alone.
    assert_eq!(standings[2]["name"], loser.as_str());
    let winner_line = standings
        .iter()
        .find(|l| l["name"] == winner.as_str())
        .unwrap();
    assert_eq!(winner_line["rounds"][0]["kind"], "game");
    assert_eq!(winner_line["rounds"][0]["scored"], 2);
    assert_eq!(winner_line["rounds"][0]["first"], true);
    // The files.
    let (status, kind, disposition, csv) = file(&ama, &app, &format!("{uri}/standings.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"), "{kind}");
    assert!(disposition.contains("attachment"), "{disposition}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "rank,name,rating,points,buchholz,sonneborn_berger");
    assert_eq!(rows.len(), 4);
    assert!(rows[3].starts_with(&format!("3,{loser},")), "{csv}");
    let (status, kind, _, text) = file(&guest, &app, &format!("{uri}/games.txt")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/plain"), "{kind}");
    assert!(text.contains("[Event \"Club evening\"]"), "{text}");
    assert!(text.contains("[Round \"1.1\"]"), "{text}");
    assert!(
        text.contains("[Result \"1-0\"]") || text.contains("[Result \"0-1\"]"),
        "{text}"
    );
    // The record file is one the import reads.
    let imported = ama
        .posted(
            &app,
            "/api/import",
            json!({"record": text}),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(imported["ids"].as_array().map(Vec::len), Some(1));
    // Round 2, started by the organiser.
    let view = ama
        .posted(&app, &format!("{uri}/round"), json!({}), StatusCode::OK)
        .await;
    assert_eq!(view["swiss"]["round"], 2);
    // Unknown tournaments and an arena's CSV.
    let (status, body) = ama.get(&app, "/api/tournaments/999/standings.csv").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::NOT_FOUND, "no_such_tournament")
    );
    let (status, body) = ama.get(&app, "/api/tournaments/x/games.txt").await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::NOT_FOUND, "no_such_tournament")
    );
    let (_, arena) = kofi
        .post(
            &app,
            "/api/tournaments",
            json!({"name": "Arena", "minutes_each": 3, "increment_s": 2, "minutes": 30}),
        )
        .await;
    let arena = arena["id"].as_i64().unwrap();
    // A setting of the other kind is refused, named, not ignored.
    for (body, field) in [
        (
            json!({"kind": "swiss", "name": "S", "minutes_each": 3, "increment_s": 2, "rounds": 3, "minutes": 30}),
            "minutes",
        ),
        (
            json!({"kind": "swiss", "name": "S", "minutes_each": 3, "increment_s": 2, "rounds": 3, "starts_in_minutes": 5}),
            "starts_in_minutes",
        ),
        (
            json!({"name": "A", "minutes_each": 3, "increment_s": 2, "minutes": 30, "rounds": 3}),
            "rounds",
        ),
        (
            json!({"name": "A", "minutes_each": 3, "increment_s": 2, "minutes": 30, "manual_rounds": false}),
            "manual_rounds",
        ),
    ] {
        let (status, refused) = kofi.post(&app, "/api/tournaments", body).await;
        assert_eq!(
            (status, error(&refused)),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                ("bad_tournament", "field")
            )
        );
        assert_eq!(refused["fields"]["field"], field);
    }
    let (status, body) = kofi
        .get(&app, &format!("/api/tournaments/{arena}/standings.csv"))
        .await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::CONFLICT, "not_swiss")
    );
    let (status, body) = kofi
        .post(&app, &format!("/api/tournaments/{arena}/round"), json!({}))
        .await;
    assert_eq!(
        (status, error(&body).0),
        (StatusCode::CONFLICT, "not_swiss")
    );
}
