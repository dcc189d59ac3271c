//! Tournaments in the store, on both stores: a tournament, its players
//! and its games written and read back; what changed written over; the
//! unfinished ones found again at start (a restart keeps them going); the
//! list and the count per creator; a Swiss's rounds, each game's round
//! and the byes.

use awale_core::{Game, Rules, Side};
use awale_model::game::{now_ms, Mode, Seat, WebGame};
use awale_store::tournaments::{ByeRow, EntrantRow, PairingRow, TournamentRecord, TournamentRow};
use awale_store::{GameStore, Store, TournamentStore};

mod common;
mod pg;

use awale_store::Stores;
use common::{on_both, player, two_processes};

fn arena(creator: u8, starts_ms: i64) -> TournamentRow {
    TournamentRow {
        id: 0,
        kind: "arena".into(),
        name: "Hourly 3+2".into(),
        clock: (180_000, 2_000),
        rated: true,
        minutes: 60,
        starts_ms,
        ends_ms: starts_ms + 3_600_000,
        creator: player(creator),
        state: "created".into(),
        created_ms: starts_ms - 1_000,
        rounds: 0,
        current_round: 0,
        manual_rounds: false,
        bots_allowed: false,
    }
}

fn entrant(number: i64, presence: &str, score: i64) -> EntrantRow {
    EntrantRow {
        number,
        player: player(number as u8 + 10),
        name: format!("P{number}"),
        rating: 1500 + number,
        presence: presence.into(),
        score,
        sheet: "[]".into(),
        firsts: 0,
    }
}

async fn online_game(store: &dyn Stores) -> i64 {
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now_ms(), 1);
    for (side, n) in [(Side::South, 10), (Side::North, 11)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    store.create(vec![game]).await.unwrap()[0].id
}

#[test]
fn a_tournament_its_players_and_games_read_back_and_change() {
    on_both(|store| async move {
        let t = store.create_tournament(arena(1, 5_000)).await.unwrap();
        assert!(t.id > 0);
        let game = online_game(&*store).await;
        let mut record = TournamentRecord {
            tournament: TournamentRow {
                state: "started".into(),
                ..t.clone()
            },
            entrants: vec![entrant(0, "playing", 0), entrant(1, "playing", 0)],
            games: vec![PairingRow {
                game_id: game,
                players: (1, 0),
                berserk: [false, true],
                result: None,
                round: 0,
            }],
            byes: vec![],
        };
        store.save_tournament(record.clone()).await.unwrap();
        let back = store.load_tournament(t.id).await.unwrap().unwrap();
        assert_eq!(back, record);
        // The game ends: only what changed is written.
        record.entrants = vec![EntrantRow {
            sheet: r#"[{"opponent":0}]"#.into(),
            firsts: 1,
            ..entrant(1, "free", 3)
        }];
        record.games[0].result = Some(2);
        store.save_tournament(record.clone()).await.unwrap();
        let back = store.load_tournament(t.id).await.unwrap().unwrap();
        assert_eq!(back.entrants.len(), 2);
        assert_eq!(back.entrants[0], entrant(0, "playing", 0));
        assert_eq!(back.entrants[1], record.entrants[0]);
        assert_eq!(back.games[0].result, Some(2));
        assert_eq!(store.load_tournament(t.id + 100).await.unwrap(), None);
    });
}

#[test]
fn unfinished_tournaments_are_found_at_start_and_listed() {
    on_both(|store| async move {
        let a = store.create_tournament(arena(1, 10_000)).await.unwrap();
        let b = store.create_tournament(arena(1, 5_000)).await.unwrap();
        let c = store.create_tournament(arena(2, 1_000)).await.unwrap();
        store
            .save_tournament(TournamentRecord {
                tournament: TournamentRow {
                    state: "finished".into(),
                    ..c.clone()
                },
                entrants: vec![],
                games: vec![],
                byes: vec![],
            })
            .await
            .unwrap();
        assert_eq!(
            store.unfinished_tournaments_blocking().unwrap(),
            vec![a.id, b.id]
        );
        let listed: Vec<i64> = store
            .tournaments(0, 10)
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        // Going on or to come, soonest first; then the finished.
        assert_eq!(listed, vec![b.id, a.id, c.id]);
        let recent: Vec<i64> = store
            .tournaments(c.ends_ms + 1, 10)
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(recent, vec![b.id, a.id], "long finished ones are left out");
        assert_eq!(store.tournaments_made(player(1), 0).await.unwrap(), 2);
        assert_eq!(store.tournaments_made(player(1), 5_000).await.unwrap(), 1);
        assert_eq!(store.tournaments_made(player(3), 0).await.unwrap(), 0);
    });
}

#[test]
fn saving_an_unknown_tournament_is_refused() {
    on_both(|store| async move {
        let mut t = arena(1, 0);
        t.id = 999;
        let saved = store
            .save_tournament(TournamentRecord {
                tournament: t,
                entrants: vec![],
                games: vec![],
                byes: vec![],
            })
            .await;
        assert!(saved.is_err());
    });
}

#[test]
fn a_swiss_keeps_its_rounds_its_games_rounds_and_its_byes() {
    on_both(|store| async move {
        let t = store
            .create_tournament(TournamentRow {
                kind: "swiss".into(),
                rounds: 4,
                manual_rounds: true,
                bots_allowed: true,
                ..arena(1, 5_000)
            })
            .await
            .unwrap();
        let back = store.load_tournament(t.id).await.unwrap().unwrap();
        assert_eq!(back.tournament, t);
        assert_eq!((t.rounds, t.current_round, t.manual_rounds), (4, 0, true));
        // Whether bots may join, as made (the arena above: people only).
        assert!(back.tournament.bots_allowed);
        let first = online_game(&*store).await;
        let second = online_game(&*store).await;
        // Round 1: a game and a bye; then the rounds are cut to 3 (fewer
        // players than foreseen) and round 2 is paired.
        let mut record = TournamentRecord {
            tournament: TournamentRow {
                state: "started".into(),
                current_round: 1,
                ..t.clone()
            },
            entrants: (0..3).map(|n| entrant(n, "playing", 0)).collect(),
            games: vec![PairingRow {
                game_id: first,
                players: (0, 1),
                berserk: [false, false],
                result: Some(2),
                round: 1,
            }],
            byes: vec![ByeRow {
                round: 1,
                number: 2,
            }],
        };
        store.save_tournament(record.clone()).await.unwrap();
        assert_eq!(store.load_tournament(t.id).await.unwrap().unwrap(), record);
        record.tournament.rounds = 3;
        record.tournament.current_round = 2;
        record.entrants = vec![];
        record.games = vec![PairingRow {
            game_id: second,
            players: (2, 0),
            berserk: [false, false],
            result: None,
            round: 2,
        }];
        record.byes = vec![ByeRow {
            round: 2,
            number: 1,
        }];
        store.save_tournament(record.clone()).await.unwrap();
        let back = store.load_tournament(t.id).await.unwrap().unwrap();
        assert_eq!(
            (back.tournament.rounds, back.tournament.current_round),
            (3, 2)
        );
        assert_eq!(back.entrants.len(), 3);
        assert_eq!(
            back.games.iter().map(|g| g.round).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert_eq!(
            back.byes,
            vec![
                ByeRow {
                    round: 1,
                    number: 2
                },
                ByeRow {
                    round: 2,
                    number: 1
                }
            ]
        );
    });
}

#[test]
fn two_processes_change_a_tournament_one_at_a_time_and_hear_each_other() {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let (a, b) = two_processes();
            let mut heard = b.notices().unwrap();
            // Its listener connects on its own: given the time to.
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            let row = a.create_tournament(arena(1, 0)).await.unwrap();
            let id = row.id;
            // The other process hears of the new tournament.
            let notice = tokio::time::timeout(std::time::Duration::from_secs(10), async {
                loop {
                    if let Ok(n @ awale_store::Notice::Tournament { .. }) = heard.recv().await {
                        return n;
                    }
                }
            })
            .await
            .expect("the new tournament heard");
            assert_eq!(notice, awale_store::Notice::Tournament { id });
            // The games file has nothing to hold: one process.
            assert!(Store::in_memory()
                .unwrap()
                .hold_tournament(id)
                .await
                .unwrap()
                .is_none());
            let first = a.hold_tournament(id).await.unwrap().expect("a hold");
            let b2 = b.clone();
            let second =
                tokio::spawn(async move { b2.hold_tournament(id).await.map(|h| h.is_some()) });
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            assert!(!second.is_finished(), "held twice at once");
            // Another tournament is not held by it.
            let other = a.create_tournament(arena(1, 0)).await.unwrap();
            drop(b.hold_tournament(other.id).await.unwrap());
            drop(first);
            let got = tokio::time::timeout(std::time::Duration::from_secs(10), second)
                .await
                .expect("held once the first let go")
                .unwrap()
                .unwrap();
            assert!(got);
        });
}
