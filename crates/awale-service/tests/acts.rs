//! The service's typed operations on one game (`Games::new_game`,
//! `upload`, `play`, `resign`, `hint`, `review`): the rules that were the
//! handlers' now answered by the service, the view's `can_hint` and
//! `can_review` saying what the service answers, and a flag that falls on
//! the games' own clock, moved forward, with no sleep.

mod common;

use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side};
use awale_model::game::{Clock as GameClock, Mode, Seat, WebGame};
use awale_service::clock::Clock;
use awale_service::computer::Computer;
use awale_service::games::{Games, NewGame, Upload, MAX_OPEN_CHALLENGES};
use awale_service::live::Hub;
use awale_store::Store;

use common::{ask, play_seated, player};

/// The games of a store in memory on `clock`, with a computer.
fn games_on(clock: Clock) -> Arc<Games> {
    Arc::new(
        Games::new(
            Arc::new(Store::in_memory().unwrap()),
            Arc::new(Hub::default()),
        )
        .with_computer(
            Arc::new(Computer::new(None, 1, 4)),
            Duration::from_millis(50),
        )
        .with_clock(clock),
    )
}

/// An online game of player 1 (South) and player 2 (North) on `clock`.
async fn online(games: &Arc<Games>, clock: Option<GameClock>) -> WebGame {
    let made = games
        .new_game(NewGame {
            clock,
            ..ask(&player(1), Mode::Online)
        })
        .await
        .unwrap();
    let seat = Seat {
        player: player(2),
        name: "Kofi".to_string(),
    };
    games
        .sit(made.id, seat, made.invite.as_deref())
        .await
        .unwrap()
}

#[tokio::test]
async fn the_rules_of_making_a_game_are_the_services() {
    let games = games_on(Clock::system());
    let me = player(1);
    let days = GameClock::days(3).unwrap();
    let refused = games
        .new_game(NewGame {
            clock: Some(days),
            ..ask(&me, Mode::Humans)
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code.as_str(), "days_need_online");
    let refused = games
        .new_game(NewGame {
            rated: true,
            ..ask(&me, Mode::Online)
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code.as_str(), "rated_needs_account");
    let refused = games
        .new_game(NewGame {
            rated: true,
            account: true,
            ..ask(&me, Mode::Online)
        })
        .await
        .unwrap_err();
    assert_eq!(
        refused.code.as_str(),
        "no_ratings",
        "this service keeps no ratings"
    );
    let refused = games
        .new_game(NewGame {
            rated: true,
            ..ask(&me, Mode::Humans)
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code.as_str(), "rated_needs_online");
    for _ in 0..MAX_OPEN_CHALLENGES {
        games.new_game(ask(&me, Mode::Online)).await.unwrap();
    }
    let refused = games.new_game(ask(&me, Mode::Online)).await.unwrap_err();
    assert_eq!(refused.code.as_str(), "too_many_challenges");
    // The guest's nickname is kept for their next games.
    assert_eq!(
        games.player_name(&me).await.unwrap().as_deref(),
        Some("Ama")
    );
}

#[tokio::test]
async fn an_upload_is_stored_once_per_key_and_its_key_is_checked() {
    let games = games_on(Clock::system());
    let me = player(1);
    let mut game = Game::new(Rules::AWALE);
    game.play(Move::from_letter('F').unwrap()).unwrap();
    let up = Upload {
        player: me.clone(),
        client: None,
        key: "offline-1234".to_string(),
        game,
        mode: Mode::Humans,
        seed: 3,
        created_ms: Some(i64::MAX),
    };
    let (created, stored) = games.upload(up.clone()).await.unwrap();
    assert!(created);
    assert_eq!(stored.game.plies().len(), 1);
    assert!(stored.created_ms <= games.now_ms(), "never in the future");
    let (again, same) = games.upload(up.clone()).await.unwrap();
    assert!(!again);
    assert_eq!(same.id, stored.id);
    let bad = Upload {
        key: "short".to_string(),
        ..up.clone()
    };
    assert_eq!(games.upload(bad).await.unwrap_err().code, "bad_key");
    let online = Upload {
        key: "offline-5678".to_string(),
        mode: Mode::Online,
        ..up
    };
    assert_eq!(games.upload(online).await.unwrap_err().code, "bad_mode");
}

#[tokio::test]
async fn a_stranger_and_the_computers_turn_are_refused_by_play() {
    let games = games_on(Clock::system());
    let me = player(1);
    let game = games
        .new_game(ask(
            &me,
            Mode::Computer {
                human: Side::North,
                level: 1,
            },
        ))
        .await
        .unwrap();
    let mv = game.game.legal_moves()[0];
    let stranger = games
        .play(game.id, Some(&player(5)), Some(0), mv)
        .await
        .unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_your_seat");
    let turn = games.play(game.id, Some(&me), Some(0), mv).await;
    // The computer may have moved already: then the request is stale.
    let code = turn.map(|_| "played").unwrap_or_else(|e| e.code.as_str());
    assert!(
        code == "not_your_turn" || code == "stale",
        "the computer's turn: {code}"
    );
}

#[tokio::test]
async fn an_aborted_games_view_says_what_the_service_answers_to_a_hint_or_a_review() {
    let games = games_on(Clock::system());
    let game = online(&games, None).await;
    let aborted = games.abort(game.id, &player(1)).await.unwrap();
    let view = aborted.view(games.now_ms(), Some(Some(&player(1))));
    let one = player(1);
    let hint = games.hint(game.id, Some(&one), None, Duration::from_millis(20));
    assert!(!view.head.can_hint);
    assert_eq!(hint.await.unwrap_err().code, "game_over");
    assert!(!view.head.can_review);
    let review = games.review(game.id, None).await.unwrap_err();
    assert_eq!(review.code.as_str(), "nothing_to_review");

    // On one screen, without a clock: both say yes to its player; a
    // stranger's view and answer both say no.
    let me = player(3);
    let mine = games.new_game(ask(&me, Mode::Humans)).await.unwrap();
    let view = mine.view(games.now_ms(), Some(Some(&me)));
    assert!(view.head.can_hint && !view.head.can_review);
    let hint = games.hint(mine.id, Some(&me), None, Duration::from_millis(20));
    assert!(hint.await.is_ok());
    let theirs = mine.view(games.now_ms(), Some(Some(&player(4))));
    assert!(!theirs.head.can_hint);
    let four = player(4);
    let stranger = games.hint(mine.id, Some(&four), None, Duration::from_millis(20));
    assert_eq!(stranger.await.unwrap_err().code, "not_fair");
    let review = games.review(mine.id, None).await.unwrap_err();
    assert_eq!(review.code.as_str(), "game_not_over");
}

#[tokio::test]
async fn a_flag_falls_on_the_games_clock_moved_forward_without_sleeping() {
    let time = Clock::adjustable();
    let games = games_on(time.clone());
    let game = online(&games, Some(GameClock::new(30_000, 0))).await;
    // The first moves are free online: then South's time runs.
    for c in ['F', 'f'] {
        play_seated(&games, game.id, None, Move::from_letter(c).unwrap())
            .await
            .unwrap();
    }
    let mut endings = games.endings();
    time.advance(Duration::from_secs(31));
    // The flag's timer waits on the games' clock: moved, it wakes at once
    // and the game ends, told to whoever follows the ends.
    let ended = endings.recv().await.unwrap();
    assert_eq!(ended.id, game.id);
    let end = ended.end().expect("the flag fell");
    assert_eq!((end.reason.name(), end.winner), ("time", Some(Side::North)));
    let stored = games.load(game.id).await.unwrap();
    assert_eq!(stored.end().unwrap().reason.name(), "time");
}
