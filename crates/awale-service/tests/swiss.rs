//! Swiss tournaments in the service, without HTTP, on a real (scratch)
//! SQLite store: a club's evening of five players and three rounds played
//! through online games, with the standings and tie-breaks worked out by
//! hand; rounds started by the organiser; the refusals as codes; a restart
//! that keeps the round in play; a flag that falls on the injected clock
//! and a first move not made in time, both results. No timing: each step
//! waits for what it needs to see.

mod common;

use std::sync::Arc;
use std::time::Duration;

use awale_core::{parse_records, Side};
use awale_model::game::Stop;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::pairing::swiss::Cell;
use awale_service::tournaments::{
    SwissSettings, SwissView, TournamentState, TournamentView, Tournaments,
};
use awale_store::Store;

use awale_service::round::Offer;
use common::{games_file, play_seated, player, resign_seated, service, until};

/// The player numbered `n` is named by a letter: 1 is A, 2 is B…
fn name(n: u8) -> String {
    char::from(b'A' + n - 1).to_string()
}

fn settings(rounds: i64, manual_rounds: bool) -> SwissSettings {
    SwissSettings {
        name: "Club evening".into(),
        clock: (300_000, 3_000),
        rated: false,
        rounds,
        manual_rounds,
        bots_allowed: false,
    }
}

fn swiss(view: &TournamentView) -> &SwissView {
    view.swiss.as_ref().expect("a Swiss's view")
}

/// The round shown, as "first-second" by names, and its bye.
fn pairings(view: &TournamentView) -> (Vec<String>, Option<String>) {
    let s = swiss(view);
    let name_of = |n: usize| {
        view.standings
            .iter()
            .find(|l| l.number == n)
            .unwrap()
            .name
            .clone()
    };
    (
        s.games
            .iter()
            .map(|g| format!("{}-{}", g.first_name, g.second_name))
            .collect(),
        s.bye.map(name_of),
    )
}

#[derive(Clone, Copy)]
enum Ends {
    FirstWins,
    SecondWins,
    Draw,
}

/// Ends the game of the round shown whose first player is `first`, and
/// waits until its result is in the crosstable.
async fn play(t: &Tournaments, games: &Arc<Games>, id: i64, first: &str, ends: Ends) {
    let view = t.get(id, None).await.unwrap();
    let round = swiss(&view).round as usize;
    let game = swiss(&view)
        .games
        .iter()
        .find(|g| g.first_name == first)
        .unwrap_or_else(|| panic!("no game of {first} in {:?}", pairings(&view)))
        .clone();
    let gid = games.find(game.game.as_ref().unwrap(), None).await.unwrap();
    let first_player = player(first.as_bytes()[0] - b'A' + 1);
    let g = games.load(gid).await.unwrap();
    let first_side = Side::BOTH
        .into_iter()
        .find(|s| g.seats[s.index()].as_ref().unwrap().player == first_player)
        .unwrap();
    match ends {
        Ends::FirstWins => {
            resign_seated(games, gid, first_side.opponent())
                .await
                .unwrap();
        }
        Ends::SecondWins => {
            resign_seated(games, gid, first_side).await.unwrap();
        }
        Ends::Draw => {
            // A draw is agreed once both have moved.
            for _ in 0..2 {
                let mv = games.load(gid).await.unwrap().game.legal_moves()[0];
                play_seated(games, gid, None, mv).await.unwrap();
            }
            let [south, north] = g.seats.clone().map(|s| s.unwrap().player);
            games.offer(gid, &south, Offer::Draw, None).await.unwrap();
            games
                .offer(gid, &north, Offer::Draw, Some(true))
                .await
                .unwrap();
        }
    }
    let number = game.first;
    until(t, id, |v| {
        swiss(v).standings.iter().any(|l| {
            l.number == number
                && matches!(
                    l.rounds.get(round - 1),
                    Some(Cell::Game {
                        scored: Some(_),
                        ..
                    })
                )
        })
    })
    .await;
}

/// Five players, A to E in the order they join, all rated alike (no
/// ratings here: everyone has the starting rating), so the seed order is
/// the order of joining. Three rounds, paired as the last ends. The
/// pairings are the Swiss module's, worked out here by hand:
///
/// Round 1, everyone on 0: the bye to the lowest ranked, E; the top half
/// (A, B) meets the bottom half (C, D): A-C, B-D, the higher ranked sowing
/// first in an odd round. Results: A beats C, B and D draw.
/// Points (half points): A 2, B 1, C 0, D 1, E 2 (the bye).
///
/// Round 2, ranked A 2, E 2, B 1, D 1, C 0 (equal points by seed): the bye
/// to the lowest ranked without one, C. A-E would leave B-D, who met: so
/// A-B and E-D. Colours: A and B both sowed first once and last, so in an
/// even round the lower ranked, B, sows first; D sowed second (balance -1)
/// against E's 0, so D sows first. Results: B beats A, E beats D.
/// Points: A 2, B 3, C 2, D 1, E 4.
///
/// Round 3, ranked E 4, B 3, A 2, C 2, D 1: the bye to D (the lowest
/// ranked without one). E-B would leave A-C, who met: so E-A and B-C. E
/// (balance -1) sows first against A (0); C (-1) against B (+2).
/// Results: E beats A, C beats B.
///
/// Final points (half points): A 2, B 3, C 4, D 3 (a bye), E 6.
/// Buchholz (the opponents' points, byes add none):
///   E: D 3 + A 2 = 5;  C: A 2 + B 3 = 5;  B: D 3 + A 2 + C 4 = 9;
///   D: B 3 + E 6 = 9;  A: C 4 + B 3 + E 6 = 13.
/// Sonneborn-Berger (quarter points: half points scored times the
/// opponent's half points):
///   E: 2×3 (D) + 2×2 (A) = 10;  C: 0 + 2×3 (B) = 6;
///   B: 1×3 (D) + 2×2 (A) + 0 = 7;  D: 1×3 (B) + 0 = 3;  A: 2×4 (C) = 8.
/// Standings: E 3; C 2; then B and D on 1½ with Buchholz 4½ each, B ahead
/// on Sonneborn-Berger (1.75 against 0.75); A last on 1 (Buchholz 6½).
#[tokio::test]
async fn a_club_evening_of_five_players_and_three_rounds_worked_by_hand() {
    let (games, t) = service(Store::in_memory().unwrap());
    let item = organised(&t, 3, false).await;
    assert_eq!((item.facts.kind.as_str(), item.rounds), ("swiss", 3));
    let id = item.facts.id;
    for n in 1..=5 {
        t.join(id, &player(n), &name(n)).await.unwrap();
    }
    let mut view = t.start_round(id, &player(1)).await.unwrap();
    assert_eq!(view.facts.state, TournamentState::Started);
    assert_eq!(swiss(&view).round, 1);
    // Each round: its pairings and bye, then how its games end.
    for (round, (games_of_round, bye), ends) in [
        (
            1,
            (["A-C", "B-D"], "E"),
            [("A", Ends::FirstWins), ("B", Ends::Draw)],
        ),
        (
            2,
            (["B-A", "D-E"], "C"),
            [("B", Ends::FirstWins), ("D", Ends::SecondWins)],
        ),
        (
            3,
            (["E-A", "C-B"], "D"),
            [("E", Ends::FirstWins), ("C", Ends::FirstWins)],
        ),
    ] {
        assert_eq!(
            pairings(&view),
            (
                games_of_round.map(String::from).to_vec(),
                Some(bye.to_string())
            ),
            "round {round}"
        );
        for (first, how) in ends {
            play(&t, &games, id, first, how).await;
        }
        view = until(&t, id, |v| {
            if round < 3 {
                swiss(v).round == round + 1
            } else {
                v.facts.state == TournamentState::Finished
            }
        })
        .await;
    }
    let lines: Vec<(String, u32, u32, u32)> = swiss(&view)
        .standings
        .iter()
        .map(|l| (l.name.clone(), l.points, l.buchholz, l.sonneborn_berger))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("E".into(), 6, 5, 10),
            ("C".into(), 4, 5, 6),
            ("B".into(), 3, 9, 7),
            ("D".into(), 3, 9, 3),
            ("A".into(), 2, 13, 8),
        ]
    );
    // The podium, from the same standings.
    let podium: Vec<&str> = view.podium.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(podium, ["E", "C", "B"]);
    // The crosstable of B (number 1): drew D (3) sowing first, beat A (0)
    // sowing first, lost to C (2) sowing second.
    let b = swiss(&view)
        .standings
        .iter()
        .find(|l| l.name == "B")
        .unwrap();
    assert_eq!(
        b.rounds,
        vec![
            Cell::Game {
                opponent: 3,
                first: true,
                scored: Some(1)
            },
            Cell::Game {
                opponent: 0,
                first: true,
                scored: Some(2)
            },
            Cell::Game {
                opponent: 2,
                first: false,
                scored: Some(0)
            },
        ]
    );
    let e = swiss(&view)
        .standings
        .iter()
        .find(|l| l.name == "E")
        .unwrap();
    assert_eq!(e.rounds[0], Cell::Bye);
    // The club's files.
    let (_, csv) = t.standings_csv(id).await.unwrap();
    assert_eq!(
        csv,
        "rank,name,rating,points,buchholz,sonneborn_berger\n\
         1,E,1500,3,2.5,2.5\n\
         2,C,1500,2,2.5,1.5\n\
         3,B,1500,1.5,4.5,1.75\n\
         4,D,1500,1.5,4.5,0.75\n\
         5,A,1500,1,6.5,2\n"
    );
    let (_, text) = t.games_file(id).await.unwrap();
    let records = parse_records(&text).unwrap();
    assert_eq!(records.len(), 6);
    let rounds: Vec<&str> = records.iter().map(|r| r.tag("Round").unwrap()).collect();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]);
    assert!(records
        .iter()
        .all(|r| r.tag("Event") == Some("Club evening")));
    let results: Vec<&str> = records.iter().map(|r| r.result.as_str()).collect();
    assert_eq!(results.iter().filter(|r| **r == "1/2-1/2").count(), 1);
    // Joining a finished Swiss is refused.
    let late = t.join(id, &player(9), "Late").await.unwrap_err();
    assert_eq!(late.code.as_str(), "tournament_over");
}

#[tokio::test]
async fn rounds_started_by_hand_wait_for_the_organiser_and_refusals_are_codes() {
    let (games, t) = service(Store::in_memory().unwrap());
    let id = organised(&t, 3, true).await.facts.id;
    t.join(id, &player(1), "A").await.unwrap();
    let code = |r: Result<TournamentView, awale_model::Error>| r.unwrap_err().code;
    assert_eq!(code(t.start_round(id, &player(1)).await), "too_few_players");
    t.join(id, &player(2), "B").await.unwrap();
    t.join(id, &player(3), "C").await.unwrap();
    // C withdraws before the start, D joins: A, B, D play.
    t.leave(
        id,
        &player(3),
        awale_service::pairing::arena::Presence::Withdrawn,
    )
    .await
    .unwrap();
    t.join(id, &player(4), "D").await.unwrap();
    assert_eq!(code(t.start_round(id, &player(2)).await), "not_organiser");
    let view = t.start_round(id, &player(1)).await.unwrap();
    let s = swiss(&view);
    // Three present: at most 3 rounds without meeting twice, one game and
    // a bye a round; C not paired.
    assert_eq!((s.round, s.rounds, s.games.len()), (1, 3, 1));
    assert!(s.bye.is_some());
    let (games_of_round, bye) = pairings(&view);
    assert!(!games_of_round[0].contains('C') && bye.as_deref() != Some("C"));
    assert_eq!(code(t.start_round(id, &player(1)).await), "round_in_play");
    assert_eq!(code(t.join(id, &player(5), "E").await), "round_in_play");
    let first = s.games[0].first_name.clone();
    play(&t, &games, id, &first, Ends::FirstWins).await;
    // The round is over; the next waits for the organiser.
    let view = t.get(id, Some(&player(1))).await.unwrap();
    assert_eq!(swiss(&view).round, 1);
    assert!(swiss(&view).next_round_ready);
    assert!(!swiss(&view).round_in_play);
    // Between rounds E joins, and C comes back.
    t.join(id, &player(5), "E").await.unwrap();
    t.join(id, &player(3), "C").await.unwrap();
    let view = t.start_round(id, &player(1)).await.unwrap();
    assert_eq!(swiss(&view).round, 2);
    assert_eq!(
        swiss(&view).games.len(),
        2,
        "five players: two games and a bye"
    );
    // A player who withdraws in a game plays it out: withdrawn at its end.
    let leaver = swiss(&view).games[0].second_name.clone();
    let first = swiss(&view).games[0].first_name.clone();
    let leaver_id = player(leaver.as_bytes()[0] - b'A' + 1);
    let view = t
        .leave(
            id,
            &leaver_id,
            awale_service::pairing::arena::Presence::Withdrawn,
        )
        .await
        .unwrap();
    let line =
        |v: &TournamentView, who: &str| v.standings.iter().find(|l| l.name == who).unwrap().clone();
    assert_eq!(
        line(&view, &leaver).presence,
        awale_service::pairing::arena::Presence::Playing
    );
    play(&t, &games, id, &first, Ends::SecondWins).await;
    let view = t.get(id, None).await.unwrap();
    assert_eq!(
        line(&view, &leaver).presence,
        awale_service::pairing::arena::Presence::Withdrawn
    );
    assert!(swiss(&view)
        .standings
        .iter()
        .any(|l| l.name == leaver && l.withdrawn && l.points >= 2));
    // The organiser ends it early: the games in play still count.
    let view = t.close(id, &player(1)).await.unwrap();
    assert_eq!(view.facts.state, TournamentState::Finished);
    assert_eq!(code(t.start_round(id, &player(1)).await), "tournament_over");
    // Not a Swiss: no rounds, no CSV.
    let arena = t
        .create(
            &player(2),
            awale_service::tournaments::ArenaSettings {
                name: "Arena".into(),
                clock: (60_000, 0),
                rated: false,
                minutes: 30,
                starts_ms: 0,
                bots_allowed: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        code(t.start_round(arena.facts.id, &player(2)).await),
        "not_swiss"
    );
    assert_eq!(
        t.standings_csv(arena.facts.id).await.unwrap_err().code,
        "not_swiss"
    );
    // Creating is checked.
    let bad = t
        .create_swiss(&player(3), settings(0, true))
        .await
        .unwrap_err();
    assert_eq!(
        (bad.code.as_str(), bad.reason),
        ("bad_tournament", Some("rounds"))
    );
    let bad = t
        .create_swiss(&player(3), settings(16, true))
        .await
        .unwrap_err();
    assert_eq!(bad.code.as_str(), "bad_tournament");
}

#[tokio::test]
async fn a_restart_keeps_the_round_in_play_and_pairs_the_next_when_it_ended_meanwhile() {
    let (_dir, path) = games_file();
    let (id, public) = {
        let (_games, t) = service(Store::open(&path).unwrap());
        let view = first_round(&t, 2, 4).await;
        let id = view.facts.id;
        assert_eq!(pairings(&view).0, ["A-C", "B-D"]);
        let public: Vec<String> = swiss(&view)
            .games
            .iter()
            .map(|g| g.game.clone().unwrap())
            .collect();
        (id, public)
    };
    // Meanwhile, with no tournament service, both games end.
    {
        let games = Arc::new(Games::new(
            Arc::new(Store::open(&path).unwrap()),
            Arc::new(Hub::default()),
        ));
        for p in &public {
            let gid = games.find(p, None).await.unwrap();
            let to_move = games.load(gid).await.unwrap().game.position().to_move();
            resign_seated(&games, gid, to_move).await.unwrap();
        }
    }
    let (_games, t) = service(Store::open(&path).unwrap());
    // Both results recorded from the games, round 2 paired at once.
    let view = until(&t, id, |v| swiss(v).round == 2).await;
    assert_eq!(swiss(&view).games.len(), 2);
    assert_eq!(view.facts.state, TournamentState::Started);
    let points: u32 = swiss(&view).standings.iter().map(|l| l.points).sum();
    assert_eq!(points, 4, "two games of round 1 counted");
    // And the round-2 games are the new process's to record.
    drop(t);
    let (_games, t) = service(Store::open(&path).unwrap());
    let view = until(&t, id, |v| swiss(v).round == 2).await;
    assert!(swiss(&view).round_in_play);
    assert!(swiss(&view).games.iter().all(|g| g.game.is_some()));
}

/// Each side sows once in game `public` (then the clocks run); its id.
async fn both_sow(games: &Arc<Games>, public: &str) -> i64 {
    let gid = games.find(public, None).await.unwrap();
    for ply in 0..2 {
        let game = games.load(gid).await.unwrap();
        let mv = game.game.legal_moves()[0];
        play_seated(games, gid, Some(ply), mv).await.unwrap();
    }
    gid
}

/// A Swiss of `players` (A, B…) and one round, started, on `games`.
async fn one_round(
    games: &Arc<Games>,
    store: Arc<Store>,
    players: u8,
    first_move_ms: Option<i64>,
) -> (Arc<Tournaments>, TournamentView) {
    let t = Tournaments::new(Arc::clone(games), store, None);
    t.start().unwrap();
    if let Some(ms) = first_move_ms {
        t.set_first_move_ms(ms);
    }
    let view = first_round(&t, 1, players).await;
    (t, view)
}

/// A Swiss of `rounds` rounds (started by hand when `manual_rounds`)
/// made by player 1, the organiser.
async fn organised(
    t: &Arc<Tournaments>,
    rounds: i64,
    manual_rounds: bool,
) -> awale_service::tournaments::TournamentItem {
    t.create_swiss(&player(1), settings(rounds, manual_rounds))
        .await
        .unwrap()
}

/// A Swiss of `rounds` rounds made by player 1, joined by players 1 to
/// `players`, its first round started: the view then.
async fn first_round(t: &Arc<Tournaments>, rounds: i64, players: u8) -> TournamentView {
    let id = organised(t, rounds, false).await.facts.id;
    for n in 1..=players {
        t.join(id, &player(n), &name(n)).await.unwrap();
    }
    t.start_round(id, &player(1)).await.unwrap()
}

#[tokio::test]
async fn a_flag_that_falls_on_the_injected_clock_is_a_result() {
    let time = awale_service::clock::Clock::adjustable();
    let store = Arc::new(Store::in_memory().unwrap());
    let games =
        Arc::new(Games::new(store.clone(), Arc::new(Hub::default())).with_clock(time.clone()));
    let (t, view) = one_round(&games, store, 2, None).await;
    assert_eq!(pairings(&view).0, ["A-B"]);
    // Both sow once; then the clock of the one to move runs out: five
    // minutes and a second on the injected clock.
    let gid = both_sow(&games, swiss(&view).games[0].game.as_ref().unwrap()).await;
    let mover = games.load(gid).await.unwrap().game.position().to_move();
    time.advance(Duration::from_secs(301));
    let view = until(&t, view.facts.id, |v| {
        v.facts.state == TournamentState::Finished
    })
    .await;
    let game = games.load(gid).await.unwrap();
    assert_eq!(game.stop, Some(Stop::Time(mover)));
    // A sowed first, so A was to move again and lost on time.
    let a_side = Side::BOTH
        .into_iter()
        .find(|s| game.seats[s.index()].as_ref().unwrap().player == player(1))
        .unwrap();
    assert_eq!(mover, a_side);
    assert_eq!(swiss(&view).standings[0].name, "B");
    assert_eq!(swiss(&view).standings[0].points, 2);
}

#[tokio::test]
async fn a_first_move_not_made_in_time_loses_the_game() {
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(Games::new(store.clone(), Arc::new(Hub::default())));
    // Nobody sows: the first mover's wait is cut short.
    let (t, view) = one_round(&games, store, 2, Some(1)).await;
    let view = until(&t, view.facts.id, |v| {
        v.facts.state == TournamentState::Finished
    })
    .await;
    let lines: Vec<(&str, u32)> = swiss(&view)
        .standings
        .iter()
        .map(|l| (l.name.as_str(), l.points))
        .collect();
    assert_eq!(lines, [("B", 2), ("A", 0)], "A was to sow first");
}

#[tokio::test]
async fn a_round_without_a_pairing_that_avoids_a_repeat_ends_the_swiss() {
    use awale_service::pairing::arena::Presence;
    let (games, t) = service(Store::in_memory().unwrap());
    let view = first_round(&t, 2, 4).await;
    let id = view.facts.id;
    assert_eq!(pairings(&view).0, ["A-C", "B-D"]);
    // (Two rounds of four: paired as a Swiss; three would be a round
    // robin.) B and D withdraw during their game: after round 1 only A
    // and C, who met, are left.
    for n in [2, 4] {
        t.leave(id, &player(n), Presence::Withdrawn).await.unwrap();
    }
    play(&t, &games, id, "B", Ends::Draw).await;
    play(&t, &games, id, "A", Ends::FirstWins).await;
    let view = until(&t, id, |v| v.facts.state == TournamentState::Finished).await;
    let s = swiss(&view);
    assert_eq!(
        (s.round, s.rounds),
        (1, 1),
        "the rounds cut to the one played"
    );
    assert_eq!(view.podium[0].name, "A");
}

/// Stop 31's review: a withdrawal from a round robin left its last round
/// without a pairing, and the tournament ended early without a word. Now
/// the rounds are cut to those the players in can still play, and each is
/// played. Five players, five rounds (a round robin), rounds started by
/// hand: after round 1, E withdraws; the four left can meet the opponents
/// they have not met in two more rounds, so the Swiss has three, all
/// played, no pair twice.
#[tokio::test]
async fn a_withdrawal_from_a_round_robin_cuts_the_rounds_to_those_still_possible() {
    use awale_service::pairing::arena::Presence;
    let (games, t) = service(Store::in_memory().unwrap());
    let id = t
        .create_swiss(&player(1), settings(5, true))
        .await
        .unwrap()
        .facts
        .id;
    for n in 1..=5 {
        t.join(id, &player(n), &name(n)).await.unwrap();
    }
    let mut met = Vec::new();
    for round in 1..=3 {
        let view = t.start_round(id, &player(1)).await.unwrap();
        for pair in pairings(&view).0 {
            let mut two: Vec<&str> = pair.split('-').collect();
            two.sort_unstable();
            assert!(!met.contains(&two.join("")), "{pair} met again");
            met.push(two.join(""));
            play(&t, &games, id, two_first(&pair), Ends::FirstWins).await;
        }
        if round == 1 {
            t.leave(id, &player(5), Presence::Withdrawn).await.unwrap();
            let view = t.get(id, None).await.unwrap();
            assert_eq!(swiss(&view).rounds, 3, "cut from 5 to 3");
        }
    }
    let view = until(&t, id, |v| v.facts.state == TournamentState::Finished).await;
    assert_eq!((swiss(&view).round, swiss(&view).rounds), (3, 3));
}

/// The first player's name of a pair written `first-second`.
fn two_first(pair: &str) -> &str {
    pair.split('-').next().unwrap()
}
