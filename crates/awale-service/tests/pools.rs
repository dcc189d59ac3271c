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
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(Games::new(store.clone(), Arc::new(Hub::default())).with_ratings(store));
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
    let id = games.find(&a, None).await.unwrap();
    let game = games.load(id).await.unwrap();
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
    assert!(pools.cancel(&seeker(1, false).player).await.unwrap());
    assert!(!pools.cancel(&seeker(1, false).player).await.unwrap());
    assert_eq!(pools.counts()[0].1, 1);
}

/// Players 1 and 2 paired in 3+2 (accounts): the game.
async fn paired(games: &Arc<Games>, pools: &Arc<Pools>) -> awale_service::game::WebGame {
    let pool = Pool::parse("3+2").unwrap();
    let first = {
        let pools = Arc::clone(pools);
        tokio::spawn(async move {
            pools
                .seek(pool, seeker(1, true), Duration::from_secs(5))
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    pools
        .seek(pool, seeker(2, true), Duration::from_secs(5))
        .await
        .unwrap();
    let SeekNews::Paired { game, .. } = first.await.unwrap().unwrap() else {
        panic!("paired");
    };
    let id = games.find(&game, None).await.unwrap();
    games.load(id).await.unwrap()
}

#[tokio::test]
async fn a_rated_game_that_ends_changes_both_ratings_and_says_so() {
    let (games, pools) = pools();
    let game = paired(&games, &pools).await;
    assert!(game.rated);
    let loser = game.seats[0].as_ref().unwrap().player.clone();
    let winner = game.seats[1].as_ref().unwrap().player.clone();
    // Two moves each: a real start (a rated game ended sooner is casual).
    for c in ['C', 'c', 'D', 'd'] {
        games
            .apply_move(
                game.id,
                None,
                awale_core::Move::from_letter(c).unwrap(),
                |_| Ok(()),
            )
            .await
            .unwrap();
    }
    let (ended, ()) = games
        .change(game.id, |g| {
            g.resign(awale_core::Side::South, awale_service::game::now_ms())
        })
        .await
        .unwrap();
    let [south, north] = ended.rating_changes.expect("rated at the end");
    assert!(south.change < 0 && north.change > 0, "{south:?} {north:?}");
    assert_eq!(south.change, -north.change);
    let view = ended.view(0, None);
    let told = view.head.rating_changes.unwrap();
    assert_eq!(
        (told[0].change, told[1].change),
        (south.change, north.change)
    );
    assert!(told[1].provisional, "one game: still provisional");
    let ratings = games.ratings().unwrap();
    let theirs = ratings.ratings(winner).await.unwrap();
    assert_eq!(theirs[0].speed, awale_service::rating::Speed::Blitz);
    assert_eq!(theirs[0].glicko, north.after);
    assert_eq!(ratings.ratings(loser).await.unwrap()[0].games, 1);
}

#[tokio::test]
async fn an_aborted_rated_game_changes_nothing() {
    let (games, pools) = pools();
    let game = paired(&games, &pools).await;
    let south = game.seats[0].as_ref().unwrap().player.clone();
    let aborted = games.abort(game.id, &south).await.unwrap();
    assert!(aborted.end().is_some() && aborted.rating_changes.is_none());
    let ratings = games.ratings().unwrap();
    assert!(ratings.ratings(south).await.unwrap().is_empty());
    assert!(ratings.unrated_games_blocking().unwrap().is_empty());
}
