//! Tournaments in the store, on both stores: a tournament, its players
//! and its games written and read back; what changed written over; the
//! unfinished ones found again at start (a restart keeps them going); the
//! list and the count per creator.

use std::sync::Arc;

use awale_core::{Game, Rules, Side};
use awale_model::game::{now_ms, Mode, PlayerId, Seat, WebGame};
use awale_store::tournaments::{EntrantRow, PairingRow, TournamentRecord, TournamentRow};
use awale_store::{GameStore, PgStore, Store, TournamentStore};

mod pg;

/// Both stores' interfaces in one.
trait Stores: GameStore + TournamentStore {}
impl<T: GameStore + TournamentStore> Stores for T {}

fn on_both<F, Fut>(check: F)
where
    F: Fn(Arc<dyn Stores>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            check(Arc::new(Store::in_memory().unwrap())).await;
            check(Arc::new(
                PgStore::connect(&pg::cluster().database()).unwrap(),
            ))
            .await;
        });
}

fn player(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

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
            }],
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
            })
            .await;
        assert!(saved.is_err());
    });
}
