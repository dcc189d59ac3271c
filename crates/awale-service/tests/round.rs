//! The game service's operations without HTTP: rematches, takebacks,
//! withdrawals, hand-overs and the computer's own moves, on a real (scratch)
//! SQLite store.

mod common;

use awale_store::GameStore;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side};
use awale_model::game::{now_ms, Clock, Mode, Seat, Stop, WebGame};
use awale_service::computer::Computer;
use awale_service::games::Games;
use awale_service::handoff::Handoffs;
use awale_service::live::Hub;
use awale_service::round::Offer;
use awale_store::Store;

use common::{play_seated, player, resign_seated};

fn games() -> Arc<Games> {
    games_on(Store::in_memory().unwrap())
}

/// The games of `store`, with a computer.
fn games_on(store: Store) -> Arc<Games> {
    Arc::new(
        Games::new(Arc::new(store), Arc::new(Hub::default())).with_computer(
            Arc::new(Computer::new(None, 1, 4)),
            Duration::from_millis(200),
        ),
    )
}

/// Player 3, seated nowhere, may not make `offer` in game `id`.
async fn not_for_a_stranger(games: &Arc<Games>, id: i64, offer: Offer) {
    let stranger = games.offer(id, &player(3), offer, None).await.unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_your_seat");
}

/// An online game between players 1 (South) and 2 (North).
async fn online(games: &Arc<Games>, clock: Option<Clock>) -> WebGame {
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now_ms(), 9);
    for (side, n) in [(Side::South, 1), (Side::North, 2)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    game.clock = clock;
    games.create(vec![game]).await.unwrap().remove(0)
}

#[tokio::test]
async fn a_rematch_offered_and_accepted_starts_a_game_with_the_colours_swapped() {
    let games = games();
    let clock = Clock::new(60_000, 1_000);
    let first = online(&games, Some(clock)).await;
    let id = first.id;
    let refused = games.rematch(id, &player(1)).await.unwrap_err();
    assert_eq!(refused.code.as_str(), "not_over");
    resign_seated(&games, id, Side::North).await.unwrap();
    let stranger = games.rematch(id, &player(3)).await.unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_your_seat");
    let offered = games.rematch(id, &player(1)).await.unwrap();
    assert_eq!(offered.offers.rematch, Some(Side::South));
    assert_eq!(offered.offers.rematch_id, None);
    let accepted = games.rematch(id, &player(2)).await.unwrap();
    let next = accepted.offers.rematch_id.expect("the rematch's id");
    let next = games.load(next).await.unwrap();
    assert_eq!(next.seats[0].as_ref().unwrap().player, player(2));
    assert_eq!(next.seats[1].as_ref().unwrap().player, player(1));
    assert_eq!(next.clock.unwrap().remaining_ms, [60_000; 2]);
    assert!(next.game.plies().is_empty());
    // Once made, no second rematch.
    let again = games.rematch(id, &player(1)).await.unwrap_err();
    assert_eq!(again.code.as_str(), "rematch_made");
}

#[tokio::test]
async fn a_takeback_asked_and_accepted_takes_the_last_move_back() {
    let games = games();
    let id = online(&games, None).await.id;
    play_seated(&games, id, Some(0), Move::from_letter('C').unwrap())
        .await
        .unwrap();
    not_for_a_stranger(&games, id, Offer::Takeback).await;
    games
        .offer(id, &player(1), Offer::Takeback, None)
        .await
        .unwrap();
    let back = games
        .offer(id, &player(2), Offer::Takeback, Some(true))
        .await
        .unwrap();
    assert!(back.game.plies().is_empty());
}

#[tokio::test]
async fn a_challenge_is_withdrawn_by_its_maker_and_only_while_it_waits() {
    let games = games();
    let mut open = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now_ms(), 3);
    open.seats[0] = Some(Seat {
        player: player(1),
        name: "P1".into(),
    });
    let id = games.create(vec![open]).await.unwrap()[0].id;
    let withdrawn = games.abort(id, &player(1)).await.unwrap();
    assert!(withdrawn.end().is_some(), "the challenge ends");
    // A game that has begun is not withdrawn.
    let begun = online(&games, None).await.id;
    let refused = games.withdraw(begun).await.unwrap_err();
    assert_eq!(refused.code.as_str(), "not_waiting");
}

#[tokio::test]
async fn a_hand_over_link_moves_the_seat_once() {
    let games = games();
    let id = online(&games, None).await.id;
    let handoffs = Handoffs::default();
    let stranger = handoffs.offer(&games, id, player(3)).await.unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_your_seat");
    let token = handoffs.offer(&games, id, player(1)).await.unwrap();
    let moved = handoffs.take(&games, &token, player(7)).await.unwrap();
    assert_eq!(moved.online_seat(Some(&player(7))), Some(Side::South));
    assert_eq!(moved.online_seat(Some(&player(1))), None);
    let used = handoffs.take(&games, &token, player(8)).await.unwrap_err();
    assert_eq!(used.code.as_str(), "no_such_link");
}

#[tokio::test]
async fn a_players_fourth_hand_over_link_replaces_their_oldest_never_anothers() {
    let games = games();
    let handoffs = Handoffs::default();
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(online(&games, None).await.id);
    }
    let north = handoffs.offer(&games, ids[0], player(2)).await.unwrap();
    let mut links = Vec::new();
    for &id in &ids {
        links.push(handoffs.offer(&games, id, player(1)).await.unwrap());
    }
    let oldest = handoffs
        .take(&games, &links[0], player(7))
        .await
        .unwrap_err();
    assert_eq!(oldest.code.as_str(), "no_such_link");
    let first = games.load(ids[0]).await.unwrap();
    assert_eq!(first.online_seat(Some(&player(1))), Some(Side::South));
    for (&id, link) in ids.iter().zip(&links).skip(1) {
        let moved = handoffs.take(&games, link, player(7)).await.unwrap();
        assert_eq!(moved.id, id);
        assert_eq!(moved.online_seat(Some(&player(7))), Some(Side::South));
    }
    let moved = handoffs.take(&games, &north, player(8)).await.unwrap();
    assert_eq!(moved.online_seat(Some(&player(8))), Some(Side::North));
}

#[tokio::test]
async fn the_opponent_may_not_take_a_hand_over_link() {
    let games = games();
    let id = online(&games, None).await.id;
    let handoffs = Handoffs::default();
    let token = handoffs.offer(&games, id, player(1)).await.unwrap();
    let taken = handoffs.take(&games, &token, player(2)).await.unwrap_err();
    assert_eq!(taken.code.as_str(), "already_seated");
    let game = games.load(id).await.unwrap();
    assert_eq!(game.online_seat(Some(&player(1))), Some(Side::South));
    assert_eq!(game.online_seat(Some(&player(2))), Some(Side::North));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_plays_the_computers_move_with_nobody_asking() {
    let games = games();
    let mode = Mode::Computer {
        human: Side::North,
        level: 1,
    };
    let game = WebGame::new(mode, Game::new(Rules::AWALE), now_ms(), 5);
    let id = games.create(vec![game]).await.unwrap()[0].id;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let game = games.load(id).await.unwrap();
        if !game.game.plies().is_empty() {
            assert_eq!(game.game.plies().len(), 1, "it answers once");
            assert!(!game.computer_to_move());
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "no computer's move");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_draw_offered_and_accepted_ends_the_game_drawn_and_is_stored() {
    let store = Store::in_memory().unwrap();
    let games = games_on(store.clone());
    let id = online(&games, None).await.id;
    for c in ['C', 'c'] {
        play_seated(&games, id, None, Move::from_letter(c).unwrap())
            .await
            .unwrap();
    }
    not_for_a_stranger(&games, id, Offer::Draw).await;
    let offered = games
        .offer(id, &player(2), Offer::Draw, None)
        .await
        .unwrap();
    assert_eq!(offered.offers.draw, Some(Side::North));
    let refused = games
        .offer(id, &player(1), Offer::Draw, None)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code.as_str(), refused.reason),
        ("draw_pending", Some("theirs"))
    );
    let own = games
        .offer(id, &player(2), Offer::Draw, Some(true))
        .await
        .unwrap_err();
    assert_eq!(own.code.as_str(), "no_draw");
    let drawn = games
        .offer(id, &player(1), Offer::Draw, Some(true))
        .await
        .unwrap();
    let end = drawn.end().unwrap();
    assert_eq!((end.reason.name(), end.winner), ("agreement", None));
    // Read back from the store as another process would.
    let stored = store.load(id).await.unwrap().unwrap();
    assert_eq!(stored.end().unwrap().reason.name(), "agreement");
    assert_eq!(stored.end().unwrap().result_text(), "1/2-1/2");
}

#[tokio::test]
async fn a_game_read_after_its_flag_fell_unseen_is_the_game_ended_on_time() {
    // A game stored by a process that died with its flag timer: its time
    // ran out before anyone here read it.
    let store = Arc::new(Store::in_memory().unwrap());
    let started = now_ms() - 120_000;
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), started, 9);
    for (side, n) in [(Side::South, 1), (Side::North, 2)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    game.clock = Some(Clock::new(6_000, 0));
    for letter in ['C', 'c'] {
        game.play(Move::from_letter(letter).unwrap(), started)
            .unwrap();
    }
    let id = store.create(vec![game]).await.unwrap()[0].id;
    let games = Arc::new(Games::new(store, Arc::new(Hub::default())));
    let read = games.load(id).await.expect("a read is not refused");
    assert_eq!(read.stop, Some(Stop::Time(Side::South)));
    // The fall is stored once: a second read sees the same end.
    assert_eq!(games.load(id).await.unwrap().stop, read.stop);
}

#[tokio::test]
async fn a_claim_comes_when_the_view_says_two_minutes_after_the_opponent_left() {
    let time = awale_service::clock::Clock::adjustable();
    let store = Store::in_memory().unwrap();
    let games =
        Arc::new(Games::new(Arc::new(store), Arc::new(Hub::default())).with_clock(time.clone()));
    let id = online(&games, None).await.id;
    // Both at the board; South moves, North is to move.
    let hub = Arc::clone(games.hub());
    let (_south_events, _, _, _south) = hub.watch(id, Some(Side::South), now_ms(), None);
    let (_north_events, _, _, north) = hub.watch(id, Some(Side::North), now_ms(), None);
    let south_move = Move::from_letter('F').unwrap();
    play_seated(&games, id, Some(0), south_move).await.unwrap();
    let claim_in = |g: &WebGame| g.actions(Side::South, games.now_ms()).claim_in_ms;
    let here = games.load(id).await.unwrap();
    // North at the board: only the move limit's claim, 10 minutes on.
    assert!(
        claim_in(&here).is_some_and(|w| w > 590_000),
        "North is at the board: {:?}",
        claim_in(&here)
    );
    drop(north);
    let wait = claim_in(&games.load(id).await.unwrap()).expect("a claim to come");
    assert!((119_000..=120_000).contains(&wait), "{wait}");
    let early = games.claim(id, &player(1)).await.unwrap_err();
    assert_eq!(early.code.as_str(), "cannot_claim");
    time.advance(Duration::from_millis(wait as u64));
    assert_eq!(claim_in(&games.load(id).await.unwrap()), Some(0));
    let won = games.claim(id, &player(1)).await.unwrap();
    assert_eq!(won.stop, Some(Stop::Abandoned(Side::North)));
}

#[tokio::test]
async fn a_resignation_or_a_draw_agreed_keeps_the_clocks_of_its_moment_in_the_store() {
    let time = awale_service::clock::Clock::adjustable();
    let store = Store::in_memory().unwrap();
    let games = Arc::new(
        Games::new(Arc::new(store.clone()), Arc::new(Hub::default())).with_clock(time.clone()),
    );
    let resigned = online(&games, Some(Clock::new(30_000, 0))).await.id;
    let drawn = online(&games, Some(Clock::new(30_000, 0))).await.id;
    for id in [resigned, drawn] {
        // The first moves are free online: then South's time runs.
        for c in ['F', 'f'] {
            play_seated(&games, id, None, Move::from_letter(c).unwrap())
                .await
                .unwrap();
        }
    }
    games
        .offer(drawn, &player(1), Offer::Draw, None)
        .await
        .unwrap();
    time.advance(Duration::from_millis(5_000));
    // As the resign handler does: the games' clock, under the game's lock.
    resign_seated(&games, resigned, Side::South).await.unwrap();
    games
        .offer(drawn, &player(2), Offer::Draw, Some(true))
        .await
        .unwrap();
    time.advance(Duration::from_millis(60_000));
    for id in [resigned, drawn] {
        // Read back from the store as another process would, a minute on.
        let stored = store.load(id).await.unwrap().unwrap();
        assert!(stored.end().is_some());
        let [south, north] = stored.time_left(games.now_ms()).unwrap();
        assert!((24_000..=25_000).contains(&south), "game {id}: {south}");
        assert_eq!(north, 30_000);
        let held = games.load(id).await.unwrap();
        assert_eq!(held.time_left(games.now_ms()), Some([south, north]));
    }
}

#[tokio::test]
async fn a_stale_request_is_told_the_moves_in_good_english() {
    let games = games();
    let id = online(&games, None).await.id;
    let c = Move::from_letter('C').unwrap();
    play_seated(&games, id, Some(0), c).await.unwrap();
    let stale = play_seated(&games, id, Some(0), Move::from_letter('E').unwrap())
        .await
        .unwrap_err();
    assert_eq!(stale.code.as_str(), "stale");
    assert!(
        stale.message.starts_with("the game has 1 move, "),
        "{}",
        stale.message
    );
    play_seated(&games, id, Some(1), Move::from_letter('c').unwrap())
        .await
        .unwrap();
    let stale = play_seated(&games, id, Some(0), c).await;
    assert!(stale.is_ok(), "the same move again is played once");
    let stale = play_seated(&games, id, Some(1), Move::from_letter('a').unwrap())
        .await
        .unwrap_err();
    assert!(
        stale.message.starts_with("the game has 2 moves, "),
        "{}",
        stale.message
    );
}
