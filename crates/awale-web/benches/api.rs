//! What a move costs the server: a request through the router, the game
//! loaded and replayed from SQLite, the move checked, played and committed
//! to a file store (WAL, synchronous=FULL) before the answer. See
//! docs/BENCHMARKS.md.

use awale_store::Store;
use awale_web::{app, AppState, Config};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use criterion::{criterion_group, criterion_main, Criterion};
use tower::ServiceExt;

async fn post(app: &Router, uri: &str, body: &str) -> StatusCode {
    let request = Request::post(uri)
        .header("content-type", "application/json")
        .header(
            "cookie",
            "awale_player=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        )
        .body(Body::from(body.to_string()))
        .expect("request");
    app.clone().oneshot(request).await.expect("answer").status()
}

fn stored_moves(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("awale-web-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = Store::open(&dir.join("games.sqlite")).expect("store");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let app =
        runtime.block_on(async { app(AppState::new(store, Config::default()).expect("state")) });
    runtime.block_on(async {
        assert_eq!(
            post(&app, "/api/games", r#"{"mode":"humans"}"#).await,
            StatusCode::CREATED
        );
        // 40 plies into a game, as in the middle of a real one.
        for m in "FfAaBbCcDdEeFfAaBbCcDdEeFfAaBbCcDdEeFfAa".chars() {
            let _ = post(&app, "/api/games/1/moves", &format!(r#"{{"move":"{m}"}}"#)).await;
        }
    });
    let mut group = c.benchmark_group("api");
    group.sample_size(30);
    group.bench_function("move_then_undo_stored", |b| {
        b.iter(|| {
            runtime.block_on(async {
                // Any legal move, then back: two committed changes.
                let mut played = false;
                for m in ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"] {
                    let status =
                        post(&app, "/api/games/1/moves", &format!(r#"{{"move":"{m}"}}"#)).await;
                    if status == StatusCode::OK {
                        played = true;
                        break;
                    }
                }
                assert!(played);
                assert_eq!(post(&app, "/api/games/1/undo", "").await, StatusCode::OK);
            })
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, stored_moves);
criterion_main!(benches);
