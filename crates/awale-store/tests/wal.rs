//! The games file's write-ahead log under sustained writes while readers
//! keep reading (issue 39): the writer folds it into the file and empties
//! it between batches, so that it stays under `WAL_MAX_BYTES` at any load.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules};
use awale_model::game::{Mode, PlayerId, WebGame};
use awale_store::{GameStore, Store, WAL_MAX_BYTES};

/// Games played at once, and the saves of each.
const GAMES: usize = 300;
const SAVES: usize = 150;

fn game() -> WebGame {
    let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 1_000, 7);
    g.seat_maker(&PlayerId("p1".into()));
    g
}

/// Issue 39: the log reached 469 MB during a load test (9,328 moves/s):
/// a passive checkpoint cannot start it over while the writer adds to it,
/// and a `TRUNCATE` from another thread waited for the write lock the
/// writer took again at once. Here 300 games are saved 150 times each,
/// every save writing all the game's moves again, while four readers load
/// games all along; the log's size is looked at every 2 ms.
#[tokio::test]
async fn the_log_stays_bounded_under_sustained_writes_and_reads() {
    let store = Store::in_memory().unwrap();
    let games = store
        .create((0..GAMES).map(|_| game()).collect())
        .await
        .unwrap();
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let mut wal = store.path().as_os_str().to_owned();
    wal.push("-wal");
    let writing = Arc::new(AtomicBool::new(true));
    let largest = {
        let writing = Arc::clone(&writing);
        std::thread::spawn(move || {
            let mut largest = 0;
            while writing.load(Ordering::Relaxed) {
                largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
                std::thread::sleep(Duration::from_millis(2));
            }
            largest
        })
    };
    let readers: Vec<_> = (0..4)
        .map(|k| {
            let store = store.clone();
            let writing = Arc::clone(&writing);
            let ids = ids.clone();
            tokio::spawn(async move {
                let mut reads = 0usize;
                while writing.load(Ordering::Relaxed) {
                    let id = ids[(reads * 7 + k) % ids.len()];
                    assert!(store.load(id).await.unwrap().is_some());
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    let writers: Vec<_> = games
        .into_iter()
        .map(|mut g| {
            let store = store.clone();
            tokio::spawn(async move {
                for n in 0..SAVES {
                    let legal = g.game.legal_moves();
                    if g.end().is_some() || legal.is_empty() {
                        // Played out: a new game in its place.
                        g = store.create(vec![game()]).await.unwrap().remove(0);
                        continue;
                    }
                    let _ = g.play(legal[n % legal.len()], 0);
                    store.save(g.clone(), 0).await.unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    writing.store(false, Ordering::Relaxed);
    let largest = largest.join().unwrap();
    for r in readers {
        assert!(r.await.unwrap() > 0, "the readers read meanwhile");
    }
    assert!(largest > 0, "the writes went through the log");
    assert!(
        largest < WAL_MAX_BYTES,
        "the log reached {:.1} MB",
        largest as f64 / 1_048_576.0
    );
    eprintln!(
        "the log's largest size: {:.1} MB",
        largest as f64 / 1_048_576.0
    );
}
