//! Players as others see them, with real accounts on a real (scratch)
//! SQLite store: two accounts seek the 3+2 pool, play rated, and the
//! result shows on both pages (ratings, graph, results, games with
//! filters) and on the leaderboard; a guest meets guests only; a blocked
//! pair is never paired.

mod common;
use common::{play_seated, resign_seated};

use std::sync::Arc;
use std::time::Duration;

use awale_core::Side;
use awale_model::game::PlayerId;
use awale_model::lists::Outcome;
use awale_model::rating::Speed;
use awale_service::accounts::Accounts;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::players::{ListFilter, Players};
use awale_service::pools::{Pool, Pools, SeekNews};
use awale_store::ratings::BoardRule;
use awale_store::Store;

struct World {
    games: Arc<Games>,
    accounts: Accounts,
    pools: Arc<Pools>,
    players: Players,
}

fn world() -> World {
    let store = Arc::new(Store::in_memory().unwrap());
    let games =
        Arc::new(Games::new(store.clone(), Arc::new(Hub::default())).with_ratings(store.clone()));
    let accounts = Accounts::with_cost(store.clone(), Arc::clone(&games), 1024, 1).unwrap();
    let pools = Pools::with_accounts(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
        Some(store.clone()),
    );
    // One game is enough, any deviation (the provisional bound is the
    // stores' test, `the_leaderboard_ranks_the_recently_active_open_accounts`).
    let rule = BoardRule {
        min_games: 1,
        weeks: 4,
        max_deviation: 500,
    };
    let players = Players::new(store.clone(), store.clone(), store, rule)
        .with_presence(Arc::clone(games.hub()));
    World {
        games,
        accounts,
        pools,
        players,
    }
}

async fn sign_up(w: &World, name: &str) -> PlayerId {
    w.accounts
        .sign_up(name, "a long enough secret", None, None)
        .await
        .unwrap()
        .account
        .player
}

/// `a` and `b` seek 3+2: the news of each.
async fn seek_both(w: &World, a: &PlayerId, b: &PlayerId) -> (SeekNews, SeekNews) {
    let pool = Pool::parse("3+2").unwrap();
    let sa = w.players.seeker(a.clone(), "x".into(), pool).await.unwrap();
    let sb = w.players.seeker(b.clone(), "y".into(), pool).await.unwrap();
    let first = {
        let pools = Arc::clone(&w.pools);
        tokio::spawn(async move { pools.seek(pool, sa, None, Duration::from_millis(800)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = w
        .pools
        .seek(pool, sb, None, Duration::from_millis(700))
        .await
        .unwrap();
    (first.await.unwrap().unwrap(), second)
}

#[tokio::test]
async fn a_rated_pool_game_shows_on_both_pages_and_the_leaderboard() {
    let w = world();
    let ama = sign_up(&w, "Ama").await;
    let kofi = sign_up(&w, "kofi_7").await;
    let seeker = w
        .players
        .seeker(ama.clone(), "ignored".into(), Pool::parse("3+2").unwrap())
        .await
        .unwrap();
    assert!(seeker.account && seeker.name == "Ama" && seeker.rating == 1500.0);
    let (SeekNews::Paired { game, rated, .. }, _) = seek_both(&w, &ama, &kofi).await else {
        panic!("paired");
    };
    assert!(rated);
    let id = w.games.find(&game, None).await.unwrap();
    let g = w.games.load(id).await.unwrap();
    let names: Vec<&str> = g.seats.iter().flatten().map(|s| s.name.as_str()).collect();
    assert!(
        names.contains(&"Ama") && names.contains(&"kofi_7"),
        "{names:?}"
    );
    // Two moves each (a real start), then Ama resigns: Kofi wins.
    for _ in 0..4 {
        let g = w.games.load(id).await.unwrap();
        let mv = g.game.legal_moves()[0];
        let ply = g.game.plies().len();
        play_seated(&w.games, id, Some(ply), mv).await.unwrap();
    }
    let ama_side = if g.seats[0].as_ref().unwrap().player == ama {
        Side::South
    } else {
        Side::North
    };
    resign_seated(&w.games, id, ama_side).await.unwrap();
    let page = w.players.page("KOFI_7").await.unwrap();
    assert_eq!(page.username, "kofi_7");
    assert_eq!((page.results.wins, page.results.losses), (1, 0));
    let blitz = &page.ratings[0];
    assert_eq!((blitz.speed, blitz.games), ("blitz", 1));
    assert!(blitz.rating > 1500 && blitz.provisional);
    assert_eq!(blitz.graph.len(), 1);
    assert_eq!(
        blitz.graph[0].game, game,
        "the graph names games by public id"
    );
    let lost = w.players.page("ama").await.unwrap();
    assert!(lost.ratings[0].rating < 1500);
    assert_eq!(lost.results.losses, 1);
    // Her games, filtered.
    let all = w
        .players
        .games("ama", ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].opponent.as_deref(), Some("kofi_7"));
    assert_eq!(all[0].outcome, Outcome::Loss);
    assert!(all[0].change.unwrap() < 0);
    let wins = w
        .players
        .games(
            "ama",
            ListFilter {
                rated: Some(true),
                speed: Some(Speed::Blitz),
                result: Some(Outcome::Win),
                opponent: None,
            },
            None,
            10,
        )
        .await
        .unwrap();
    assert!(wins.is_empty());
    let against = w
        .players
        .games(
            "ama",
            ListFilter {
                opponent: Some("Kofi_7".into()),
                ..ListFilter::default()
            },
            None,
            10,
        )
        .await
        .unwrap();
    assert_eq!(against.len(), 1);
    let board = w.players.board(Speed::Blitz).await.unwrap();
    let order: Vec<&str> = board.players.iter().map(|l| l.username.as_str()).collect();
    assert_eq!(order, ["kofi_7", "Ama"]);
    assert!(w
        .players
        .board(Speed::Rapid)
        .await
        .unwrap()
        .players
        .is_empty());
    assert_eq!(
        w.players.page("nobody").await.unwrap_err().code,
        "no_such_player"
    );
}

#[tokio::test]
async fn a_guest_is_not_paired_with_an_account() {
    let w = world();
    let ama = sign_up(&w, "Ama").await;
    let guest = PlayerId(format!("{:064x}", 9));
    let (a, b) = seek_both(&w, &ama, &guest).await;
    assert!(matches!(a, SeekNews::Waiting { .. }), "{a:?}");
    assert!(matches!(b, SeekNews::Waiting { .. }), "{b:?}");
}

#[tokio::test]
async fn players_who_block_each_other_are_not_paired() {
    let w = world();
    let ama = sign_up(&w, "Ama").await;
    let kofi = sign_up(&w, "Kofi").await;
    let account = w.accounts.of_player(&ama).await.unwrap().unwrap();
    w.accounts.block(&account, "Kofi").await.unwrap();
    let (a, b) = seek_both(&w, &ama, &kofi).await;
    assert!(matches!(a, SeekNews::Waiting { .. }), "{a:?}");
    assert!(matches!(b, SeekNews::Waiting { .. }), "{b:?}");
    // Both still seek, their wait kept.
    assert_eq!(w.pools.counts()[3].1, 2);
}

#[tokio::test]
async fn a_players_page_says_whether_they_are_online() {
    // Issue 42: no online status on players' pages. Online: a page of
    // theirs listens to their own stream.
    let w = world();
    let ama = sign_up(&w, "Ama").await;
    assert!(!w.players.page("ama").await.unwrap().online);
    let watch = w.games.hub().watch_player(&ama);
    assert!(w.players.page("Ama").await.unwrap().online);
    drop(watch);
    assert!(!w.players.page("ama").await.unwrap().online);
}
