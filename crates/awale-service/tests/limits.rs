//! The limits of what a caller makes, as the service's operations take
//! them (issue 37: rules in the service; issue 38: pools, challenges and
//! rematches under the same limits as games), on a real (scratch) SQLite
//! store: a flood past a limit gets `too_many` with the limit as its
//! reason, and nothing is made.

mod common;
use common::{player, resign_seated};

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use awale_model::game::{Clock, Mode, PlayerId, Seat, WebGame};
use awale_model::Error;
use awale_service::accounts::Accounts;
use awale_service::challenges::{Challenges, NewChallenge};
use awale_service::clock::Clock as Time;
use awale_service::games::{Games, NewGame};
use awale_service::handoff::Handoffs;
use awale_service::limiter::{Limit, Rate};
use awale_service::limits::{Caller, Rates};
use awale_service::live::Hub;
use awale_service::pools::{Pool, Pools, Seeker};
use awale_store::Store;

/// A service on a scratch store whose `limits` allow each its burst at
/// once, then hardly any more (one an hour); the others as by default.
fn limited(limits: &[(Limit, u32)]) -> (Store, Arc<Games>) {
    let mut rates = Rates::default();
    for &(limit, burst) in limits {
        let rate = Rate::new(burst, 3_600_000);
        match limit {
            Limit::Games => rates.games = rate,
            Limit::Offers => rates.offers = rate,
            Limit::Renames => rates.renames = rate,
            Limit::HandoffLinks => rates.handoff_links = rate,
            Limit::Reactions => rates.reactions = rate,
            other => panic!("{other:?} is not the games' limit"),
        }
    }
    let store = Store::in_memory().unwrap();
    let games = Arc::new(
        Games::new(Arc::new(store.clone()), Arc::new(Hub::default()))
            .with_ratings(Arc::new(store.clone()))
            .with_clock(Time::adjustable())
            .with_limits(rates),
    );
    (store, games)
}

fn address(n: u8) -> Option<IpAddr> {
    Some(IpAddr::from([192, 0, 2, n]))
}

/// Player `n` at address `at`.
fn caller(n: u8, at: u8) -> Caller {
    Caller::new(player(n), address(at))
}

/// A refusal by limit `reason`.
fn too_many<T: std::fmt::Debug>(answer: Result<T, Error>, reason: &str) {
    let e = answer.expect_err("refused by the limit");
    assert_eq!(
        (e.code.as_str(), e.reason),
        ("too_many", Some(reason)),
        "{e:?}"
    );
    assert!(e.fields.contains_key("wait_s"), "{e:?}");
}

/// What `caller` asks for: a game in `mode`, casual, no clock.
fn ask(caller: &Caller, mode: Mode) -> NewGame {
    NewGame {
        client: caller.client,
        ..common::ask(&caller.player, mode)
    }
}

/// How many games `players` have, all told.
async fn games_of(games: &Games, players: impl IntoIterator<Item = PlayerId>) -> usize {
    let mut n = 0;
    for p in players {
        n += games.list(Some(p), None, 100).await.unwrap().games.len();
    }
    n
}

#[tokio::test]
async fn games_made_from_one_address_stop_at_its_limit_whatever_the_cookie() {
    let (_, games) = limited(&[(Limit::Games, 5)]);
    // Made-up players from one address: five games, then none.
    for n in 0..20 {
        let asked = games.new_game(ask(&caller(n, 1), Mode::Humans)).await;
        if n < 5 {
            asked.unwrap();
        } else {
            too_many(asked, "games");
        }
    }
    assert_eq!(games_of(&games, (0..20).map(player)).await, 5);
    // Uploads and imports are games made too: refused, nothing stored.
    let mut played = Game::new(Rules::AWALE);
    played
        .play(awale_core::Move::from_letter('F').unwrap())
        .unwrap();
    let upload = awale_service::games::Upload {
        player: player(30),
        client: address(1),
        key: "offline-1234".to_string(),
        game: played,
        mode: Mode::Humans,
        seed: 3,
        created_ms: None,
    };
    too_many(games.upload(upload).await, "games");
    let record = "[Rules \"awale\"]\n\n1. F f *\n";
    let import = games
        .import(
            record,
            awale_service::records::ImportAs::Humans,
            &caller(30, 1),
        )
        .await;
    too_many(import, "games");
    assert_eq!(games_of(&games, [player(30)]).await, 0);
    // Another address makes its own.
    games
        .new_game(ask(&caller(30, 2), Mode::Humans))
        .await
        .unwrap();
}

#[tokio::test]
async fn online_games_offered_stop_at_the_players_offers() {
    let (_, games) = limited(&[(Limit::Offers, 2)]);
    let me = caller(1, 1);
    for _ in 0..2 {
        games.new_game(ask(&me, Mode::Online)).await.unwrap();
    }
    // Past the player's offers (before the open challenges' cap of 3).
    too_many(games.new_game(ask(&me, Mode::Online)).await, "offers");
    assert_eq!(games_of(&games, [player(1)]).await, 2);
    // A game against nobody online is no offer.
    games.new_game(ask(&me, Mode::Humans)).await.unwrap();
}

#[tokio::test]
async fn a_flood_of_seeks_from_made_up_players_of_one_address_makes_at_most_its_games() {
    let (_, games) = limited(&[(Limit::Games, 6)]);
    let pools = Pools::new(
        Arc::clone(&games),
        Arc::new(|_: &PlayerId, _: &PlayerId| false),
    );
    let pool = Pool::parse("3+2").unwrap();
    let mut waiting = 0;
    let mut refused = 0;
    for n in 0..40u8 {
        let seeker = Seeker {
            player: player(n),
            name: format!("P{n}"),
            account: false,
            rating: 1500.0,
            balance: 0,
            limits: None,
        };
        match pools
            .seek(pool, seeker, address(1), Duration::from_millis(1))
            .await
        {
            Ok(_) => waiting += 1,
            Err(e) => {
                assert_eq!((e.code.as_str(), e.reason), ("too_many", Some("games")));
                refused += 1;
            }
        }
    }
    assert_eq!((waiting, refused), (6, 34));
    // The pairings made of those six seeks: three games at most.
    assert!(games_of(&games, (0..40).map(player)).await <= 6);
}

#[tokio::test]
async fn direct_challenges_past_the_limit_are_refused_and_never_sent() {
    let (store, games) = limited(&[(Limit::Games, 3)]);
    let accounts =
        Accounts::with_cost(Arc::new(store.clone()), Arc::clone(&games), 1024, 1).unwrap();
    let ama = accounts
        .sign_up("Ama", "seeds in the fourth hole", None, address(9))
        .await
        .unwrap()
        .account;
    let challenges = Challenges::new(Arc::clone(&games), Arc::new(store.clone()));
    let challenge = || NewChallenge {
        to: "Ama".into(),
        clock: Some(Clock::new(180_000, 2_000)),
        rated: false,
        colour: 'R',
    };
    // Guests of one address (made-up cookies): three, then refused.
    for n in 0..10 {
        let made = challenges.make(caller(n, 1), "Spam", challenge()).await;
        if n < 3 {
            made.unwrap();
        } else {
            too_many(made, "games");
        }
    }
    let mine = challenges.mine(&ama.player).await.unwrap();
    assert_eq!(mine.received.len(), 3, "the refused ones were never sent");
}

/// An online game between players 1 (South) and 2 (North), going on.
async fn online(games: &Arc<Games>) -> i64 {
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), games.now_ms(), 9);
    for (side, n) in [(Side::South, 1), (Side::North, 2)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    games.create(vec![game]).await.unwrap().remove(0).id
}

/// The same, over.
async fn finished(games: &Arc<Games>) -> WebGame {
    let id = online(games).await;
    resign_seated(games, id, Side::North).await.unwrap()
}

#[tokio::test]
async fn a_rematch_asked_counts_as_a_game_made_for_the_asker() {
    let (_, games) = limited(&[(Limit::Offers, 1)]);
    let (south, north) = (caller(1, 1), caller(2, 2));
    let first = finished(&games).await;
    // A refused ask (a stranger, a game going on) costs nothing.
    let stranger = games.rematch(first.id, &caller(3, 3)).await.unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_your_seat");
    // Each asks once: the rematch is made.
    games.rematch(first.id, &south).await.unwrap();
    let accepted = games.rematch(first.id, &north).await.unwrap();
    let second = accepted.offers.rematch_id.expect("the rematch");
    let second = resign_seated(&games, second, Side::North).await.unwrap();
    // Another rematch of the pair: past both players' offers.
    too_many(games.rematch(second.id, &south).await, "offers");
    too_many(games.rematch(second.id, &north).await, "offers");
    let after = games.load(second.id).await.unwrap();
    assert_eq!(after.offers.rematch, None, "no offer made");
    assert_eq!(after.offers.rematch_id, None, "no game made");
    assert_eq!(games_of(&games, [player(1)]).await, 2);
}

#[tokio::test]
async fn renames_hand_over_links_and_reactions_are_limited_per_player() {
    let (store, games) = limited(&[
        (Limit::Renames, 2),
        (Limit::HandoffLinks, 2),
        (Limit::Reactions, 2),
    ]);
    let accounts =
        Accounts::with_cost(Arc::new(store.clone()), Arc::clone(&games), 1024, 1).unwrap();
    let me = caller(1, 1);
    for name in ["Yaa", "Esi"] {
        accounts.rename_guest(&me, Some(name)).await.unwrap();
    }
    // A refused name costs nothing; a good one past the limit is refused
    // and not kept.
    let bad = accounts.rename_guest(&me, Some("")).await.unwrap_err();
    assert_ne!(bad.code.as_str(), "too_many");
    too_many(accounts.rename_guest(&me, Some("Afua")).await, "renames");
    assert_eq!(
        games.player_name(&me.player).await.unwrap().as_deref(),
        Some("Esi")
    );
    // Hand-over links of a casual game going on.
    let id = online(&games).await;
    let handoffs = Handoffs::default();
    for _ in 0..2 {
        handoffs.offer(&games, id, &me).await.unwrap();
    }
    too_many(handoffs.offer(&games, id, &me).await, "handoff_links");
    // Reactions: a bad kind is refused for itself, free.
    let bad = games.react(id, &me, "boo").await.unwrap_err();
    assert_eq!(bad.code.as_str(), "bad_reaction");
    for _ in 0..2 {
        games.react(id, &me, "drum").await.unwrap();
    }
    too_many(games.react(id, &me, "drum").await, "reactions");
    // Another player still reacts.
    games.react(id, &caller(2, 2), "oh").await.unwrap();
}

#[tokio::test]
async fn puzzle_streaks_started_in_a_flood_stop_at_the_players_limit() {
    use awale_service::puzzles::{Puzzles, STREAKS_PER_PLAYER};
    // Issue 38's last routes: each streak started is a stored change.
    let store = Store::in_memory().unwrap();
    let puzzles = Puzzles::new(
        Arc::new(store),
        Arc::default(),
        Arc::new(awale_service::computer::Computer::new(None, 1, 1)),
    );
    let now = 1_000_000;
    let flood = caller(1, 1);
    for _ in 0..STREAKS_PER_PLAYER.burst {
        puzzles.start_streak(&flood, now).await.unwrap();
    }
    let refused = puzzles.start_streak(&flood, now).await.unwrap_err();
    assert_eq!(
        (refused.code.as_str(), refused.reason),
        ("too_many", Some("streaks"))
    );
    // Another player elsewhere is not held up; the flooder is again later.
    puzzles.start_streak(&caller(2, 2), now).await.unwrap();
    let later = now + i64::from(STREAKS_PER_PLAYER.every_ms);
    puzzles.start_streak(&flood, later).await.unwrap();
}
