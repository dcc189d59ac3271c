//! The engine ladder and the bots' own rating pools, on a real (scratch)
//! SQLite store with real accounts: two bots join the bullet ladder, are
//! paired, play a rated game rated in the bots' pool (never people's
//! leaderboard), are not paired again at once while a third bot is free,
//! meet again once they have waited; a person cannot join and a rated game
//! a person plays against a bot rates both in people's pool, the bot kept
//! off people's leaderboard; a house bot is played by the server's
//! computer.

mod common;
use common::{refused_as, Bots};

use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use awale_model::account::Account;
use awale_model::game::{Clock as GameClock, Mode, Seat, WebGame};
use awale_model::rating::{Pool, Speed};
use awale_model::Code;
use awale_service::accounts::Accounts;
use awale_service::clock::Clock;
use awale_service::computer::Computer;
use awale_service::games::Games;
use awale_service::ladder::{pair_free, Ladder, LadderView, Rung, REMATCH_WAIT_MS};
use awale_service::live::Hub;
use awale_store::ratings::BoardRule;
use awale_store::{AccountStore, RatingStore, Store};

struct World {
    store: Arc<Store>,
    games: Arc<Games>,
    accounts: Arc<Accounts>,
    ladder: Arc<Ladder>,
    /// The bot API, through which the bots move.
    bots: Bots,
}

fn world() -> World {
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default()))
            .with_ratings(store.clone())
            .with_bots(store.clone())
            .with_computer(
                Arc::new(Computer::new(None, 2, 8)),
                Duration::from_millis(50),
            )
            .with_clock(Clock::adjustable()),
    );
    let accounts =
        Arc::new(Accounts::with_cost(store.clone(), Arc::clone(&games), 1024, 1).unwrap());
    let ladder = Ladder::new(Arc::clone(&games), store.clone(), store.clone());
    ladder.start();
    let bots = Bots::new(&games, &accounts, &store);
    World {
        store,
        games,
        accounts,
        ladder,
        bots,
    }
}

async fn sign_up(w: &World, name: &str, bot: bool) -> Account {
    let account = w
        .accounts
        .sign_up(name, "a long enough secret", None, None)
        .await
        .unwrap()
        .account;
    if bot {
        w.store.set_bot(account.id).await.unwrap();
    }
    w.store.account(account.id).await.unwrap().unwrap()
}

/// Waits (a minute at most) until `check` holds of the ladders' view.
async fn until(w: &World, check: impl Fn(&LadderView) -> bool) -> LadderView {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let view = w.ladder.view().await.unwrap();
        if check(&view) {
            return view;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never happened: {view:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The bullet ladder's games in play.
fn playing(view: &LadderView) -> Vec<String> {
    view.ladders[0].playing.clone()
}

/// Plays game `public` to a rated end: two moves each by whoever sits
/// (waiting for a house bot's), then `loser` resigns. The store's id.
async fn play_out(w: &World, public: &str, loser: Side) -> i64 {
    let game = load_public(&w.games, public).await;
    let id = game.id;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let game = w.games.load(id).await.unwrap();
        if game.real_start() {
            break;
        }
        let plies = game.game.plies().len();
        let mv = game.game.legal_moves()[0];
        // A house bot's side moves by itself: wait for it.
        let _ = w.bots.play_seated(&w.games, id, plies, mv).await;
        assert!(tokio::time::Instant::now() < deadline, "{game:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    w.bots.resign_seated(&w.games, id, loser).await.unwrap();
    id
}

/// Game `public` (its public id) as stored now.
async fn load_public(games: &Arc<Games>, public: &str) -> WebGame {
    let id = games.find(public, None).await.unwrap();
    games.load(id).await.unwrap()
}

#[tokio::test]
async fn bots_are_paired_on_the_ladder_and_rated_in_their_own_pool_never_on_peoples_board() {
    let w = world();
    let alpha = sign_up(&w, "Alpha", true).await;
    let beta = sign_up(&w, "Beta", true).await;
    let carol = sign_up(&w, "Carol", false).await;
    refused_as(w.ladder.join(&carol, Rung::Bullet).await, "not_a_bot");

    w.ladder.join(&alpha, Rung::Bullet).await.unwrap();
    let joined = w.ladder.join(&beta, Rung::Bullet).await.unwrap();
    assert!(joined.joined && joined.bots == 2, "{joined:?}");
    let view = until(&w, |v| playing(v).len() == 1).await;
    let public = playing(&view)[0].clone();
    let game = load_public(&w.games, &public).await;
    assert!(game.rated && game.clock.is_some_and(|c| c.initial_ms == 60_000));
    let south = game.seats[0].as_ref().unwrap().name.clone();
    let id = play_out(&w, &public, Side::North).await;

    // Rated in the bots' bullet pool, not people's.
    let rated = w.games.load(id).await.unwrap();
    let changes = rated.rating_changes.expect("rated");
    assert!(changes[0].change > 0 && changes[1].change < 0);
    let board = w
        .store
        .pool_board(Pool::Bots(Speed::Bullet), 10)
        .await
        .unwrap();
    assert_eq!(board.len(), 2);
    assert_eq!(board[0].username, south);
    let alphas = w.store.ratings(alpha.player.clone()).await.unwrap();
    assert_eq!(alphas.len(), 1);
    assert_eq!(alphas[0].pool, Pool::Bots(Speed::Bullet));
    let any = BoardRule {
        min_games: 1,
        weeks: 4,
        max_deviation: 500,
    };
    let people = w
        .store
        .leaderboard(Speed::Bullet, any, w.games.now_ms(), 10)
        .await
        .unwrap();
    assert!(people.is_empty(), "{people:?}");

    // The view: standings, results, the cross-table, the game.
    let view = until(&w, |v| v.ladders[0].games.len() == 1).await;
    let bullet = &view.ladders[0];
    assert_eq!(bullet.pool, "bot_bullet");
    assert_eq!(bullet.games[0].id, public);
    let top = &bullet.standings[0];
    assert_eq!(
        (top.name.as_str(), top.wins, top.losses, top.games),
        (south.as_str(), 1, 0, 1)
    );
    assert!(top.on_ladder && !top.house && top.provisional);
    assert_eq!(bullet.crosstable[0][1].unwrap().wins, 1);
    assert_eq!(bullet.crosstable[1][0].unwrap().losses, 1);
    assert_eq!(bullet.crosstable[0][0], None);

    // Alone together they are not paired again at once...
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let view = w.ladder.view().await.unwrap();
    assert!(playing(&view).is_empty(), "{view:?}");
    // ...a third bot is met first...
    let dana = sign_up(&w, "Dana", true).await;
    w.ladder.join(&dana, Rung::Bullet).await.unwrap();
    let view = until(&w, |v| playing(v).len() == 1).await;
    let third = load_public(&w.games, &playing(&view)[0]).await;
    assert!(third
        .seats
        .iter()
        .flatten()
        .any(|s| s.player == dana.player));
    // ...and the one left waiting leaves; once it has gone, nobody else
    // waits for a game.
    let left = third
        .seats
        .iter()
        .flatten()
        .all(|s| s.player != alpha.player);
    let waiting = if left { &alpha } else { &beta };
    let gone = w.ladder.leave(waiting, Rung::Bullet);
    assert!(!gone.joined && gone.bots == 2, "{gone:?}");
    play_out(&w, &third.public_id, Side::South).await;
    // The two who just met wait for another, then meet again.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let view = w.ladder.view().await.unwrap();
    assert!(playing(&view).is_empty(), "{view:?}");
    w.games
        .clock()
        .advance(Duration::from_millis(REMATCH_WAIT_MS as u64));
    until(&w, |v| playing(v).len() == 1).await;
}

#[tokio::test]
async fn a_rated_game_a_person_plays_against_a_bot_rates_both_in_peoples_pool() {
    let w = world();
    let bot = sign_up(&w, "Robot", true).await;
    let carol = sign_up(&w, "Carol", false).await;
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), w.games.now_ms(), 7);
    game.clock = Some(GameClock::new(60_000, 0));
    game.rated = true;
    game.seats = [(&carol, "Carol"), (&bot, "Robot")].map(|(a, name)| {
        Some(Seat {
            player: a.player.clone(),
            name: name.to_string(),
        })
    });
    let made = w.games.create(vec![game]).await.unwrap();
    play_out(&w, &made[0].public_id, Side::North).await;
    let carols = w.store.ratings(carol.player.clone()).await.unwrap();
    assert_eq!(carols[0].pool, Pool::People(Speed::Bullet));
    let bots = w.store.ratings(bot.player.clone()).await.unwrap();
    assert_eq!(bots[0].pool, Pool::People(Speed::Bullet));
    assert!(w
        .store
        .pool_board(Pool::Bots(Speed::Bullet), 10)
        .await
        .unwrap()
        .is_empty());
    let any = BoardRule {
        min_games: 1,
        weeks: 4,
        max_deviation: 500,
    };
    let people = w
        .store
        .leaderboard(Speed::Bullet, any, w.games.now_ms(), 10)
        .await
        .unwrap();
    let names: Vec<&str> = people.iter().map(|l| l.username.as_str()).collect();
    assert_eq!(names, ["Carol"], "the bot is rated, not listed");
}

#[tokio::test]
async fn a_house_bot_plays_the_ladder_with_the_servers_computer() {
    let w = world();
    let names = w.ladder.enter_house_bots(&[1]).await.unwrap();
    assert_eq!(names, ["Awale-Level-1"]);
    // Entered again (a restart): the same account, once.
    assert_eq!(w.ladder.enter_house_bots(&[1]).await.unwrap(), names);
    refused_as(w.ladder.enter_house_bots(&[99]).await, "bad_level");
    let alpha = sign_up(&w, "Alpha", true).await;
    w.ladder.join(&alpha, Rung::Bullet).await.unwrap();
    let view = until(&w, |v| playing(v).len() == 1).await;
    assert_eq!(view.ladders[0].entrants, ["Awale-Level-1", "Alpha"]);
    let public = playing(&view)[0].clone();
    let game = load_public(&w.games, &public).await;
    let alpha_side = if game.seats[0].as_ref().unwrap().player == alpha.player {
        Side::South
    } else {
        Side::North
    };
    // Alpha's moves only: the computer plays the house bot's.
    let id = game.id;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let game = w.games.load(id).await.unwrap();
        if game.real_start() {
            break;
        }
        if game.game.position().to_move() == alpha_side {
            let plies = game.game.plies().len();
            w.bots
                .play_seated(&w.games, id, plies, game.game.legal_moves()[0])
                .await
                .unwrap();
        }
        assert!(tokio::time::Instant::now() < deadline, "{game:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    w.bots
        .resign_seated(&w.games, id, alpha_side)
        .await
        .unwrap();
    let view = until(&w, |v| v.ladders[0].games.len() == 1).await;
    let top = &view.ladders[0].standings[0];
    assert_eq!(
        (top.name.as_str(), top.house, top.wins),
        ("Awale-Level-1", true, 1)
    );
}

#[test]
fn the_longest_waiting_meet_fresh_opponents_before_a_rematch() {
    // 0 and 1 just played each other; 2 is free: each meets 2 first.
    let now = 10_000;
    let waiting = [
        (now, Some(1), false),
        (now, Some(0), false),
        (now - 1, None, false),
    ];
    assert_eq!(pair_free(&waiting, now), vec![(2, 0)]);
    // Alone together, they wait, then meet again.
    let two = [(now, Some(1), false), (now, Some(0), false)];
    assert!(pair_free(&two, now).is_empty());
    assert_eq!(pair_free(&two, now + REMATCH_WAIT_MS), vec![(0, 1)]);
    // Two house bots never meet.
    let houses = [(0, None, true), (0, None, true)];
    assert!(pair_free(&houses, now).is_empty());
    let three = [(0, None, true), (0, None, true), (5, None, false)];
    assert_eq!(pair_free(&three, now), vec![(0, 2)]);
}

#[test]
fn ladders_have_fixed_clocks_and_bots_pools() {
    assert_eq!(Rung::Bullet.pool(), Pool::Bots(Speed::Bullet));
    assert_eq!(Rung::Blitz.pool(), Pool::Bots(Speed::Blitz));
    for rung in Rung::ALL {
        assert_eq!(Rung::from_name(rung.name()).ok(), Some(rung));
    }
    assert_eq!(
        Rung::from_name("turbo").unwrap_err().code,
        Code::NoSuchLadder
    );
}

#[test]
fn pools_keep_bots_apart_under_their_own_names() {
    for speed in Speed::ALL {
        for pool in [Pool::People(speed), Pool::Bots(speed)] {
            assert_eq!(Pool::from_name(pool.name()), Some(pool));
            assert_eq!(pool.speed(), speed);
        }
        assert_eq!(Pool::People(speed).name(), speed.name());
        assert_eq!(Pool::of(speed, true), Pool::Bots(speed));
        assert_eq!(Pool::of(speed, false), Pool::People(speed));
    }
    assert_eq!(Pool::Bots(Speed::Bullet).name(), "bot_bullet");
    assert_eq!(Pool::from_name("bot_turbo"), None);
    assert!(Pool::BOTS.iter().all(|p| matches!(p, Pool::Bots(_))));
}
