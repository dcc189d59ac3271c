//! Rated means earned: the rules that keep ratings honest, each from a
//! finding of the third attack test (issue 38), on a real (scratch) SQLite
//! store. A rated game counts only after a real start; a rated seat stays
//! with its account; rated games are played on a rated clock and standard
//! rules, whichever way they are made; the rated games between two
//! accounts are limited, rematches included; a connected player who
//! stalls can be claimed against.

mod common;

use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side};
use awale_model::game::{Clock, Mode, Seat, Stop, WebGame};
use awale_service::fairplay::PAIR_RATED_LIMIT;
use awale_service::games::Games;
use awale_service::handoff::Handoffs;
use awale_service::live::Hub;
use awale_store::ratings::RatingStore;
use awale_store::Store;

use common::{play_seated, player, refused_as, resign_seated};

fn rated_games() -> (Arc<Games>, Arc<Store>, awale_service::clock::Clock) {
    let time = awale_service::clock::Clock::adjustable();
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default()))
            .with_ratings(store.clone())
            .with_clock(time.clone()),
    );
    (games, store, time)
}

/// A game between players `south` and `north`, on `clock` and `rules`,
/// rated when asked: not yet made.
fn between(south: u8, north: u8, clock: Option<Clock>, rules: Rules, rated: bool) -> WebGame {
    let mut game = WebGame::new(Mode::Online, Game::new(rules), 0, 9);
    for (side, n) in [(Side::South, south), (Side::North, north)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    game.clock = clock;
    game.rated = rated;
    game
}

fn blitz() -> Option<Clock> {
    Some(Clock::new(180_000, 2_000))
}

/// Plays `count` legal moves in game `id` (the first legal move each time).
async fn play(games: &Arc<Games>, id: i64, count: usize) {
    for _ in 0..count {
        let game = games.load(id).await.unwrap();
        let mv: Move = game.game.legal_moves()[0];
        let ply = game.game.plies().len();
        play_seated(games, id, Some(ply), mv).await.unwrap();
    }
}

async fn resign(games: &Arc<Games>, id: i64, side: Side) -> WebGame {
    resign_seated(games, id, side).await.unwrap()
}

/// A rated blitz game between players 1 and 2, made and played `moves`
/// legal moves into: its id.
async fn rated_blitz_played(games: &Arc<Games>, moves: usize) -> i64 {
    let id = games
        .create(vec![between(1, 2, blitz(), Rules::AWALE, true)])
        .await
        .unwrap()[0]
        .id;
    play(games, id, moves).await;
    id
}

#[tokio::test]
async fn a_rated_game_resigned_before_two_moves_each_changes_no_rating() {
    let (games, store, _) = rated_games();
    // The farming of the attack: one move each, then a resignation.
    let id = rated_blitz_played(&games, 2).await;
    let ended = resign(&games, id, Side::North).await;
    assert!(ended.rating_changes.is_none(), "{:?}", ended.rating_changes);
    assert!(!ended.rated, "an early end is played casual");
    assert!(store.ratings(player(1)).await.unwrap().is_empty());
    assert!(store.ratings(player(2)).await.unwrap().is_empty());
    // Still unrated read back from the store (a restart rates nothing).
    assert!(!store.load(id).await.unwrap().unwrap().rated);
    // Two moves each: a real start, rated.
    let id = rated_blitz_played(&games, 4).await;
    let ended = resign(&games, id, Side::North).await;
    assert!(ended.rated && ended.rating_changes.is_some());
    assert_eq!(store.ratings(player(1)).await.unwrap()[0].games, 1);
}

use awale_store::GameStore;

#[tokio::test]
async fn rated_games_need_a_rated_clock_and_standard_rules_however_made() {
    let (games, _, _) = rated_games();
    let refused = |clock, rules| {
        let games = Arc::clone(&games);
        async move { games.create(vec![between(1, 2, clock, rules, true)]).await }
    };
    refused_as(refused(None, Rules::AWALE).await, "rated_needs_clock");
    // 0.1 minute: faster than any speed rates.
    refused_as(
        refused(Some(Clock::new(6_000, 0)), Rules::AWALE).await,
        "rated_needs_clock",
    );
    let target_two: Rules = "awale,target=2".parse().unwrap();
    refused_as(
        refused(blitz(), target_two).await,
        "rated_needs_standard_rules",
    );
    // A game from a position is casual.
    let mut from_position = between(1, 2, blitz(), Rules::AWALE, true);
    let mut moved = Game::new(Rules::AWALE);
    let first = moved.legal_moves()[0];
    moved.play(first).unwrap();
    from_position.game = Game::from_position(Rules::AWALE, moved.position());
    refused_as(
        games.create(vec![from_position]).await,
        "rated_from_position",
    );
    // The same terms casual are fine; rated on a fair clock too, days
    // per move included, Abapa too.
    games
        .create(vec![between(1, 2, None, target_two, false)])
        .await
        .unwrap();
    for (clock, rules) in [
        (blitz(), Rules::AWALE),
        (Some(Clock::days(3).unwrap()), Rules::AWALE),
        (Some(Clock::new(15_000, 0)), Rules::ABAPA),
    ] {
        games
            .create(vec![between(1, 2, clock, rules, true)])
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_rated_seat_is_never_handed_to_another_player() {
    let (games, store, _) = rated_games();
    let id = rated_blitz_played(&games, 4).await;
    let handoffs = Handoffs::default();
    // The loser's link to a fresh guest: refused, the seat stays theirs.
    refused_as(handoffs.offer(&games, id, player(2)).await, "rated_seat");
    refused_as(
        games.hand_over(id, &player(2), player(9)).await,
        "rated_seat",
    );
    let ended = resign(&games, id, Side::North).await;
    assert_eq!(ended.seats[1].as_ref().unwrap().player, player(2));
    assert!(store.ratings(player(2)).await.unwrap()[0].glicko.rating < 1500.0);
    // A casual seat still moves to another device.
    let casual = games
        .create(vec![between(1, 2, blitz(), Rules::AWALE, false)])
        .await
        .unwrap()[0]
        .id;
    let token = handoffs.offer(&games, casual, player(2)).await.unwrap();
    let moved = handoffs.take(&games, &token, player(9)).await.unwrap();
    assert_eq!(moved.seats[1].as_ref().unwrap().player, player(9));
}

#[tokio::test]
async fn rematches_and_challenges_between_two_accounts_share_one_limit() {
    let (games, _, time) = rated_games();
    let mut last = 0;
    for n in 0..PAIR_RATED_LIMIT {
        // Colours swapped each time, as rematches are.
        let (s, nth) = if n % 2 == 0 { (1, 2) } else { (2, 1) };
        last = games
            .create(vec![between(s, nth, blitz(), Rules::AWALE, true)])
            .await
            .unwrap()[0]
            .id;
    }
    play(&games, last, 4).await;
    resign(&games, last, Side::North).await;
    // A rematch of the last: over the limit, refused.
    games.rematch(last, &player(1)).await.unwrap();
    refused_as(
        games.rematch(last, &player(2)).await,
        "too_many_rated_together",
    );
    refused_as(
        games
            .create(vec![between(2, 1, blitz(), Rules::AWALE, true)])
            .await,
        "too_many_rated_together",
    );
    // Casual, or with someone else, they play on.
    games
        .create(vec![between(2, 1, blitz(), Rules::AWALE, false)])
        .await
        .unwrap();
    games
        .create(vec![between(1, 3, blitz(), Rules::AWALE, true)])
        .await
        .unwrap();
    // The window passes: rated again.
    time.advance(Duration::from_millis(
        awale_service::fairplay::PAIR_WINDOW_MS as u64 + 1,
    ));
    games
        .create(vec![between(2, 1, blitz(), Rules::AWALE, true)])
        .await
        .unwrap();
}

#[tokio::test]
async fn a_connected_player_who_stalls_can_be_claimed_against() {
    let (games, _, time) = rated_games();
    let id = games
        .create(vec![between(1, 2, None, Rules::AWALE, false)])
        .await
        .unwrap()[0]
        .id;
    // Both keep a stream open; South moves, North never does.
    let hub = Arc::clone(games.hub());
    let now = games.now_ms();
    let (_s, _, _, _south) = hub.watch(id, Some(Side::South), now, None);
    let (_n, _, _, _north) = hub.watch(id, Some(Side::North), now, None);
    play(&games, id, 1).await;
    time.advance(Duration::from_secs(128));
    refused_as(games.claim(id, &player(1)).await, "cannot_claim");
    let claim_in = games
        .load(id)
        .await
        .unwrap()
        .actions(Side::South, games.now_ms())
        .claim_in_ms
        .expect("a claim to come though North is connected");
    time.advance(Duration::from_millis(claim_in as u64));
    let won = games.claim(id, &player(1)).await.unwrap();
    assert_eq!(won.stop, Some(Stop::Abandoned(Side::North)));
    // At the move limit (the test's clock runs with the system's too).
    let limit = awale_model::game::STALL_AFTER_MS - 128_000;
    assert!((limit - 5_000..=limit).contains(&claim_in), "{claim_in}");
}

#[tokio::test]
async fn accounts_seen_at_one_place_play_casual_and_are_flagged() {
    let (games, store, _) = rated_games();
    let now = games.now_ms();
    let home: std::net::IpAddr = [203, 0, 113, 7].into();
    let elsewhere: std::net::IpAddr = [198, 51, 100, 9].into();
    let seen = games.sightings();
    // Players 1 and 2 from one address (the farm of the attack test).
    seen.note(&player(1), Some(home), Some(&player(101)), now)
        .await;
    seen.note(&player(2), Some(home), Some(&player(102)), now)
        .await;
    // Player 3 elsewhere, but on player 1's browser; player 4 apart.
    seen.note(&player(3), Some(elsewhere), Some(&player(101)), now)
        .await;
    seen.note(&player(4), Some(elsewhere), Some(&player(104)), now)
        .await;
    let made = games
        .create(vec![
            between(1, 2, blitz(), Rules::AWALE, true),
            between(3, 1, blitz(), Rules::AWALE, true),
            between(2, 4, blitz(), Rules::AWALE, true),
        ])
        .await
        .unwrap();
    assert!(!made[0].rated, "one address: casual");
    assert!(!made[1].rated, "one device: casual");
    assert!(made[2].rated, "two places: rated");
    // Played out, the casual one moves no rating.
    play(&games, made[0].id, 4).await;
    resign(&games, made[0].id, Side::North).await;
    assert!(store.ratings(player(1)).await.unwrap().is_empty());
    let flagged = seen.flagged(10).await.unwrap();
    assert_eq!(flagged.len(), 2);
    let of = |names: [&str; 2]| {
        flagged
            .iter()
            .find(|f| f.names == names)
            .unwrap_or_else(|| panic!("{names:?} in {flagged:?}"))
            .clone()
    };
    let (by_address, by_device) = (of(["P1", "P2"]), of(["P1", "P3"]));
    assert!(by_address.address && !by_address.device);
    assert!(by_device.device && !by_device.address);
    // A rated game offered by one, its seat taken by the other: casual too.
    let mut offered = between(1, 2, blitz(), Rules::AWALE, true);
    offered.seats[1] = None;
    offered.public = true;
    let id = games.create(vec![offered]).await.unwrap()[0].id;
    assert!(
        games.load(id).await.unwrap().rated,
        "one seat: nothing to compare"
    );
    let seat = Seat {
        player: player(2),
        name: "P2".into(),
    };
    let joined = games.sit(id, seat, None).await.unwrap();
    assert!(!joined.rated && !joined.waiting());
    // The same pair flagged again: one record, two games.
    let flagged = seen.flagged(10).await.unwrap();
    assert_eq!(flagged.len(), 2);
    assert_eq!(
        (flagged[0].names.clone(), flagged[0].times),
        (["P1".to_string(), "P2".to_string()], 2)
    );
    // The machine's own address is no place (tests' browsers, a server
    // told no client's address).
    let own: std::net::IpAddr = [127, 0, 0, 1].into();
    seen.note(&player(5), Some(own), Some(&player(105)), now)
        .await;
    seen.note(&player(6), Some(own), Some(&player(106)), now)
        .await;
    assert_eq!(
        seen.shared(&player(5), &player(6), now).await.unwrap(),
        (false, false)
    );
    // Past the window, the place is forgotten.
    let later = now + awale_service::fairplay::SAME_PLACE_WINDOW_MS + 1;
    assert_eq!(
        seen.shared(&player(1), &player(2), later).await.unwrap(),
        (false, false)
    );
}

#[tokio::test]
async fn flags_and_pair_limits_are_the_stores_seen_by_every_process_and_after_a_restart() {
    let (_dir, path) = common::games_file();
    let time = awale_service::clock::Clock::adjustable();
    let on = |store: &Arc<Store>| {
        Arc::new(
            Games::new(store.clone(), Arc::new(Hub::default()))
                .with_ratings(store.clone())
                .with_clock(time.clone()),
        )
    };
    let store = Arc::new(Store::open(&path).unwrap());
    // Two processes over one store: each sees one account at the address.
    let (first, second) = (on(&store), on(&store));
    let now = first.now_ms();
    let home: std::net::IpAddr = [203, 0, 113, 7].into();
    first
        .sightings()
        .note(&player(1), Some(home), None, now)
        .await;
    second
        .sightings()
        .note(&player(2), Some(home), None, now)
        .await;
    let made = second
        .create(vec![between(1, 2, blitz(), Rules::AWALE, true)])
        .await
        .unwrap();
    assert!(!made[0].rated, "seen at one place by two processes: casual");
    let flagged = first.sightings().flagged(10).await.unwrap();
    assert_eq!(flagged.len(), 1, "the first process sees the second's flag");
    assert!(flagged[0].address);
    // The pair limit is counted over both processes.
    for n in 0..PAIR_RATED_LIMIT {
        let games = if n % 2 == 0 { &first } else { &second };
        games
            .create(vec![between(3, 4, blitz(), Rules::AWALE, true)])
            .await
            .unwrap();
    }
    refused_as(
        first
            .create(vec![between(4, 3, blitz(), Rules::AWALE, true)])
            .await,
        "too_many_rated_together",
    );
    // A restart forgets neither.
    drop((first, second));
    store.close();
    drop(store);
    let store = Arc::new(Store::open(&path).unwrap());
    let again = on(&store);
    assert_eq!(again.sightings().flagged(10).await.unwrap(), flagged);
    assert!(
        !again
            .create(vec![between(2, 1, blitz(), Rules::AWALE, true)])
            .await
            .unwrap()[0]
            .rated,
        "the address is still shared after the restart"
    );
    refused_as(
        again
            .create(vec![between(3, 4, blitz(), Rules::AWALE, true)])
            .await,
        "too_many_rated_together",
    );
}

#[tokio::test]
async fn a_connected_player_who_lets_a_days_clock_run_out_loses_on_time() {
    let (games, _, time) = rated_games();
    let id = games
        .create(vec![between(
            1,
            2,
            Some(Clock::days(1).unwrap()),
            Rules::AWALE,
            true,
        )])
        .await
        .unwrap()[0]
        .id;
    // Both keep a stream open; after a move each and South's second,
    // North never moves again.
    let hub = Arc::clone(games.hub());
    let now = games.now_ms();
    let (_s, _, _, _south) = hub.watch(id, Some(Side::South), now, None);
    let (_n, _, _, _north) = hub.watch(id, Some(Side::North), now, None);
    play(&games, id, 3).await;
    // A game with a clock is decided by the flag, not a claim.
    refused_as(games.claim(id, &player(1)).await, "cannot_claim");
    time.advance(Duration::from_secs(24 * 60 * 60 + 1));
    // The flag falls on the server, connected or not (read here as the
    // flag's timer reads it).
    let ended = games.load(id).await.unwrap();
    assert_eq!(ended.stop, Some(Stop::Time(Side::North)));
    assert!(
        ended.rating_changes.is_none(),
        "one move of North's: no real start"
    );
}
