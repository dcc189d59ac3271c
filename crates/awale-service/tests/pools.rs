//! The pools as the service runs them, on a real (scratch) SQLite store:
//! two seekers paired into one clock game with a seat each, a seek that
//! waits, a cancel.

mod common;
use common::{play_seated, resign_seated};

use std::sync::Arc;
use std::time::Duration;

use awale_model::game::PlayerId;
use awale_service::clock::Clock;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::pools::{Pool, Pools, SeekNews, Seeker};
use awale_store::Store;

fn pools() -> (Arc<Games>, Arc<Pools>) {
    pools_with(awale_service::limits::Rates::default())
}

/// The pools of games limited at `rates`.
fn pools_with(rates: awale_service::limits::Rates) -> (Arc<Games>, Arc<Pools>) {
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default()))
            .with_ratings(store)
            .with_clock(Clock::adjustable())
            .with_limits(rates),
    );
    let pools = Pools::new(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
    );
    (games, pools)
}

/// Until `n` seek in all the pools (the seeks spawned before have been
/// heard): the runtime is handed over, no time waited.
async fn seeking(pools: &Pools, n: usize) {
    while pools.counts().iter().map(|(_, k)| k).sum::<usize>() < n {
        tokio::task::yield_now().await;
    }
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
                .seek(pool, seeker(1, true), None, Duration::from_secs(5))
                .await
        })
    };
    // The first seek waits; the second pairs both at once.
    seeking(&pools, 1).await;
    let second = pools
        .seek(pool, seeker(2, true), None, Duration::from_secs(5))
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
        .seek(pool, seeker(1, false), None, Duration::from_millis(50))
        .await
        .unwrap();
    assert!(
        matches!(news, SeekNews::Waiting { ref pool, .. } if pool == "1+0"),
        "{news:?}"
    );
    assert_eq!(pools.counts()[0].1, 1);
    // A guest and an account are not paired.
    let other = pools
        .seek(pool, seeker(2, true), None, Duration::from_millis(50))
        .await
        .unwrap();
    assert!(matches!(other, SeekNews::Waiting { .. }));
    assert!(pools.cancel(&seeker(1, false).player).await.unwrap());
    assert!(!pools.cancel(&seeker(1, false).player).await.unwrap());
    assert_eq!(pools.counts()[0].1, 1);
}

/// Players 1 and 2 paired in 3+2 (accounts): the game.
async fn paired(games: &Arc<Games>, pools: &Arc<Pools>) -> awale_model::game::WebGame {
    let pool = Pool::parse("3+2").unwrap();
    let first = {
        let pools = Arc::clone(pools);
        tokio::spawn(async move {
            pools
                .seek(pool, seeker(1, true), None, Duration::from_secs(5))
                .await
        })
    };
    seeking(pools, 1).await;
    pools
        .seek(pool, seeker(2, true), None, Duration::from_secs(5))
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
        play_seated(
            &games,
            game.id,
            None,
            awale_core::Move::from_letter(c).unwrap(),
        )
        .await
        .unwrap();
    }
    let ended = resign_seated(&games, game.id, awale_core::Side::South)
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
    assert_eq!(theirs[0].speed, awale_model::rating::Speed::Blitz);
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

fn address(n: u8) -> Option<std::net::IpAddr> {
    Some(std::net::IpAddr::from([10, 0, 0, n]))
}

#[tokio::test]
async fn a_new_seek_counts_as_a_game_made_for_the_player_and_the_address() {
    use awale_service::limiter::Rate;
    use awale_service::limits::Rates;
    // One game per player at once: four players' worth per address.
    let rate = Rate {
        burst: 1,
        every_ms: 600_000,
    };
    let (_games, pools) = pools_with(Rates {
        offers: rate,
        ..Rates::default()
    });
    let pool = Pool::parse("1+0").unwrap();
    let wait = Duration::from_millis(10);
    // A guest's seek, then its renewals: one game made.
    for _ in 0..3 {
        let news = pools
            .seek(pool, seeker(1, false), address(1), wait)
            .await
            .unwrap();
        assert!(matches!(news, SeekNews::Waiting { .. }), "{news:?}");
    }
    // Cancelled and made again: a second game, past the player's limit.
    pools.cancel(&seeker(1, false).player).await.unwrap();
    let again = pools
        .seek(pool, seeker(1, false), address(1), wait)
        .await
        .unwrap_err();
    assert_eq!(again.code.as_str(), "too_many");
    // Other players of the same address: three more, then the address is
    // out, whoever the cookie names (accounts too: no pairing between
    // guests and accounts, so nobody is paired here).
    for n in 2..=4 {
        pools
            .seek(pool, seeker(n, false), address(1), wait)
            .await
            .unwrap();
    }
    let flood = pools
        .seek(pool, seeker(5, true), address(1), wait)
        .await
        .unwrap_err();
    assert_eq!(flood.code.as_str(), "too_many");
    // Another address seeks as before.
    pools
        .seek(pool, seeker(6, true), address(2), wait)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_pool_game_without_a_first_move_is_aborted_and_its_no_show_loses_its_seek() {
    let store = Arc::new(Store::in_memory().unwrap());
    let clock = Clock::adjustable();
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default()))
            .with_ratings(store)
            .with_clock(clock.clone()),
    );
    games.start().unwrap();
    let pools = Pools::new(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
    );
    pools.start();
    let game = paired(&games, &pools).await;
    let south = game.seats[0].as_ref().unwrap().player.clone();
    let north = game.seats[1].as_ref().unwrap().player.clone();
    // The ghost seeks again at once, in another pool, and never moves.
    let elsewhere = Pool::parse("1+0").unwrap();
    let as_south = seeker(
        if south == seeker(1, true).player {
            1
        } else {
            2
        },
        true,
    );
    pools
        .seek(elsewhere, as_south, None, Duration::from_millis(10))
        .await
        .unwrap();
    assert_eq!(pools.counts()[0].1, 1);
    // 29 s: still waiting for South's first move.
    let mut endings = games.endings();
    clock.advance(Duration::from_secs(29));
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert!(games.load(game.id).await.unwrap().end().is_none());
    clock.advance(Duration::from_secs(2));
    let ended = tokio::time::timeout(Duration::from_secs(60), endings.recv())
        .await
        .expect("the unplayed pool game is aborted")
        .unwrap();
    assert_eq!(ended.id, game.id);
    assert_eq!(ended.stop, Some(awale_model::game::Stop::Aborted));
    // The no-show's seek is dropped at the pools' next tick (on the clock).
    for _ in 0..1_000 {
        if pools.counts()[0].1 == 0 {
            break;
        }
        clock.advance(Duration::from_millis(500));
        tokio::task::yield_now().await;
    }
    assert_eq!(pools.counts()[0].1, 0, "South's seek is gone");
    assert_ne!(south, north);
}

#[tokio::test]
async fn after_a_block_and_an_unblock_the_pools_pair_the_two_again() {
    use awale_store::AccountStore;
    let store = Store::in_memory().unwrap();
    let clock = Clock::adjustable();
    let games = Arc::new(
        Games::new(Arc::new(store.clone()), Arc::new(Hub::default()))
            .with_ratings(Arc::new(store.clone()))
            .with_clock(clock.clone()),
    );
    let accounts = awale_service::accounts::Accounts::with_cost(
        Arc::new(store.clone()),
        Arc::clone(&games),
        1024,
        1,
    )
    .unwrap();
    let ama = accounts
        .sign_up("Ama", "seeds in the fourth hole", None, address(1))
        .await
        .unwrap();
    let kofi = accounts
        .sign_up("Kofi", "seeds in the fourth hole", None, address(2))
        .await
        .unwrap();
    let pools = Pools::with_accounts(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
        Some(Arc::new(store.clone())),
    );
    let as_seeker = |player: &PlayerId, name: &str| Seeker {
        player: player.clone(),
        name: name.into(),
        account: true,
        rating: 1500.0,
        balance: 0,
        limits: None,
    };
    let (a, k) = (&ama.account.player, &kofi.account.player);
    accounts.block(&ama.account, "Kofi").await.unwrap();
    let pool = Pool::parse("5+3").unwrap();
    let wait = Duration::from_millis(300);
    let both = || async {
        let first = {
            let pools = Arc::clone(&pools);
            let s = as_seeker(a, "Ama");
            tokio::spawn(async move { pools.seek(pool, s, None, wait).await })
        };
        seeking(&pools, 1).await;
        let second = pools.seek(pool, as_seeker(k, "Kofi"), None, wait).await;
        let first = first.await.unwrap().unwrap();
        pools.cancel(a).await.unwrap();
        pools.cancel(k).await.unwrap();
        (first, second.unwrap())
    };
    let (first, second) = both().await;
    assert!(
        matches!(first, SeekNews::Waiting { .. }),
        "blocked: {first:?}"
    );
    assert!(matches!(second, SeekNews::Waiting { .. }));
    accounts.unblock(&ama.account, "Kofi").await.unwrap();
    assert!(!store.blocks(a.clone(), k.clone()).await.unwrap());
    // Once the pair is asked about again, they meet.
    clock.advance(Duration::from_millis(
        awale_service::pools::AVOID_RECHECK_MS as u64 + 1,
    ));
    let (first, second) = both().await;
    assert!(matches!(first, SeekNews::Paired { .. }), "{first:?}");
    assert!(matches!(second, SeekNews::Paired { .. }), "{second:?}");
}
