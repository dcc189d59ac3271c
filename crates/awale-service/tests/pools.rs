//! The pools as the service runs them, on a real (scratch) SQLite store:
//! two seekers paired into one clock game with a seat each, a seek that
//! waits, a cancel.

use std::sync::Arc;
use std::time::Duration;

use awale_service::game::PlayerId;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::pools::{Pool, Pools, SeekNews, Seeker};
use awale_service::Store;

fn pools() -> (Arc<Games>, Arc<Pools>) {
    let store = Store::in_memory().unwrap();
    let games = Arc::new(Games::new(Arc::new(store), Arc::new(Hub::default())));
    let pools = Pools::new(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
    );
    (games, pools)
}

fn seeker(n: u8, account: bool) -> Seeker {
    Seeker {
        player: PlayerId(format!("{n:064x}")),
        name: format!("P{n}"),
        account,
        rating: 1500.0,
        balance: 0,
        limits: None,
    }
}

#[tokio::test]
async fn two_seekers_of_one_pool_get_one_clock_game_with_a_seat_each() {
    let (games, pools) = pools();
    let pool = Pool::parse("3+2").unwrap();
    let first = {
        let pools = Arc::clone(&pools);
        tokio::spawn(async move {
            pools
                .seek(pool, seeker(1, true), Duration::from_secs(5))
                .await
        })
    };
    // The first seek waits; the second pairs both at once.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = pools
        .seek(pool, seeker(2, true), Duration::from_secs(5))
        .await
        .unwrap();
    let first = first.await.unwrap().unwrap();
    let (
        SeekNews::Paired {
            game: a,
            side: sa,
            rated,
        },
        SeekNews::Paired {
            game: b, side: sb, ..
        },
    ) = (first, second)
    else {
        panic!("both are paired");
    };
    assert_eq!(a, b);
    assert!(rated, "two accounts play rated");
    assert_ne!(sa, sb);
    let game = games.load(a).await.unwrap();
    let clock = game.clock.unwrap();
    assert_eq!((clock.initial_ms, clock.increment_ms), (180_000, 2_000));
    assert!(game.seats.iter().all(Option::is_some));
    assert!(!game.waiting() && !game.public);
    assert!(pools.counts().iter().all(|(_, n)| *n == 0));
}

#[tokio::test]
async fn a_lone_seek_waits_and_a_cancel_ends_it() {
    let (_games, pools) = pools();
    let pool = Pool::parse("1+0").unwrap();
    let news = pools
        .seek(pool, seeker(1, false), Duration::from_millis(50))
        .await
        .unwrap();
    assert!(
        matches!(news, SeekNews::Waiting { ref pool, .. } if pool == "1+0"),
        "{news:?}"
    );
    assert_eq!(pools.counts()[0].1, 1);
    // A guest and an account are not paired.
    let other = pools
        .seek(pool, seeker(2, true), Duration::from_millis(50))
        .await
        .unwrap();
    assert!(matches!(other, SeekNews::Waiting { .. }));
    assert!(pools.cancel(&seeker(1, false).player));
    assert!(!pools.cancel(&seeker(1, false).player));
    assert_eq!(pools.counts()[0].1, 1);
}
