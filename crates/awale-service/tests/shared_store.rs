//! Several services on one PostgreSQL database, as the processes of a
//! site are (issue 39): the rules that hold across them. Each service here
//! has its own store (its own pool, its own listener), as a process does.

#[path = "../../awale-store/tests/pg/mod.rs"]
mod pg;
#[path = "common/pg_games.rs"]
mod pg_games;

use std::sync::Arc;
use std::time::Duration;

use awale_core::Side;
use awale_model::game::Seat;
use awale_model::Code;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_store::PgStore;

use pg_games::{challenge, player, service};

/// Games made on one service, each joined at once by three players, one
/// on each of three services (their copies of the game read before, as a
/// spectator's or the joining page's view reads it): each game's free
/// seat is taken exactly once, by one of them, and the other two are told
/// the seat is taken, never `stale` (the 409s at the start of a
/// load test on three processes); every service then sees the same
/// player seated, stored once (revision 1).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_joins_on_three_services_seat_each_game_once_none_stale() {
    let url = pg::cluster().database();
    let services = [service(&url), service(&url), service(&url)];
    const GAMES: u32 = 60;
    let mut made = Vec::new();
    for n in 0..GAMES {
        let game = services[0]
            .new_game(challenge(&player(n), n))
            .await
            .unwrap();
        made.push(game);
    }
    // Each service holds a copy of every game, read before the joins.
    for games in &services {
        for game in &made {
            games.load(game.id).await.unwrap();
        }
    }
    let mut joins = Vec::new();
    for (n, game) in (0u32..).zip(&made) {
        for (k, games) in (0u32..).zip(&services) {
            let games = Arc::clone(games);
            let (id, key) = (game.id, game.invite.clone());
            let who = player(1000 + 3 * n + k);
            joins.push(tokio::spawn(async move {
                let seat = Seat {
                    player: who.clone(),
                    name: format!("North {n}.{k}"),
                };
                (id, who, games.sit(id, seat, key.as_deref()).await)
            }));
        }
    }
    let mut seated = std::collections::HashMap::new();
    for join in joins {
        let (id, who, answer) = join.await.unwrap();
        match answer {
            Ok(game) => {
                assert_eq!(
                    game.seats[Side::North.index()].as_ref().map(|s| &s.player),
                    Some(&who)
                );
                assert!(
                    seated.insert(id, who).is_none(),
                    "game {id}: its seat given twice"
                );
            }
            Err(e) => assert_eq!(e.code, Code::SeatTaken, "game {id}: {e}"),
        }
    }
    assert_eq!(seated.len(), made.len(), "a game whose seat nobody got");
    // Every service sees the one player seated (the others' copies
    // catch up on the notice, or on their next read).
    for games in &services {
        for game in &made {
            let mut seen = None;
            for _ in 0..100 {
                let now = games.load(game.id).await.unwrap();
                seen = now.seats[Side::North.index()]
                    .as_ref()
                    .map(|s| s.player.clone());
                if seen.is_some() {
                    assert_eq!(now.revision, 1, "game {}: stored more than once", game.id);
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert_eq!(seen.as_ref(), seated.get(&game.id));
        }
    }
}

/// A service on the database at `url`, with its store, whose transactions
/// are counted ([`PgStore::transactions`]).
fn counted_service(url: &str) -> (Arc<Games>, PgStore) {
    let store = PgStore::connect(url).unwrap();
    let games = Arc::new(Games::new(
        Arc::new(store.clone()),
        Arc::new(Hub::default()),
    ));
    games.start().unwrap();
    (games, store)
}

/// The transactions of `stores` in all (reads and writes).
fn transactions(stores: &[&PgStore]) -> u64 {
    stores
        .iter()
        .map(|s| {
            let t = s.transactions();
            t.reads + t.writes
        })
        .sum()
}

/// Waits until the copy `games` holds of game `id` (for its watchers: no
/// read) has `plies` moves and revision `revision` at least.
async fn until_held(
    games: &Arc<Games>,
    id: i64,
    plies: usize,
    revision: i64,
) -> awale_model::game::WebGame {
    for _ in 0..2_500 {
        let game = games.load_watched(id).await.unwrap();
        if game.game.plies().len() >= plies && game.revision >= revision {
            return game;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("game {id}: {plies} plies never reached this service");
}

/// An online game made on `services[at[0]]` by South, joined on
/// `services[at[1]]` by North, watched by a spectator on `services[at[2]]`
/// (each listening there as its events' stream does); every service that
/// serves one of them holds the game at revision 1. Its id and the
/// watches (dropped: the clients leave).
async fn seated_game(
    services: &[Arc<Games>],
    at: [usize; 3],
    n: u32,
) -> (i64, Vec<awale_service::live::Watch>) {
    let (south, north) = (player(2 * n), player(2 * n + 1));
    let mut new = challenge(&south, n);
    new.clock = Some(awale_model::game::Clock::new(600_000, 2_000));
    let made = services[at[0]].new_game(new).await.unwrap();
    let id = made.id;
    let seat = Seat {
        player: north,
        name: format!("North {n}"),
    };
    services[at[1]]
        .sit(id, seat, made.invite.as_deref())
        .await
        .unwrap();
    let mut watches = Vec::new();
    for (k, side) in at.iter().zip([Some(Side::South), Some(Side::North), None]) {
        let games = &services[*k];
        let (_, _, _, watch) = games.hub().watch(id, side, games.now_ms(), None);
        watches.push(watch);
        until_held(games, id, 0, 1).await;
    }
    (id, watches)
}

/// Plays `moves` moves in each of `games` (id, the services of South and
/// North), or until it ends: each player on their own service, once it
/// has seen the opponent's move (as a page moves on the event). The
/// moves played in each.
async fn play_games(
    services: &[Arc<Games>],
    games: &[(i64, [usize; 2])],
    moves: usize,
) -> Vec<usize> {
    let mut played = vec![0; games.len()];
    let mut over = vec![false; games.len()];
    for ply in 0..moves {
        for ((&(id, at), over), played) in games.iter().zip(&mut over).zip(&mut played) {
            if *over {
                continue;
            }
            let seen = until_held(&services[at[0]], id, ply, 0).await;
            let side = seen.game.position().to_move();
            let on = &services[at[side.index()]];
            let seen = until_held(on, id, ply, 0).await;
            let legal = seen.game.legal_moves();
            let (Some(&mv), None) = (legal.first(), seen.end()) else {
                *over = true;
                continue;
            };
            let who = seen.seats[side.index()].as_ref().unwrap().player.clone();
            on.play(id, Some(&who), Some(ply), mv).await.unwrap();
            *played += 1;
        }
    }
    played
}

/// A move made on one service reaches a spectator on another without a
/// read of the database there (the notice carries the move, the clocks,
/// the revision: issue 39), and a third service, with no client of the
/// game, makes no transaction for its moves; the spectator's copy is the
/// stored game.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_reaches_a_spectator_elsewhere_without_a_read_an_idle_service_pays_nothing() {
    let url = pg::cluster().database();
    let (a, _) = counted_service(&url);
    let (b, b_store) = counted_service(&url);
    let (_c, c_store) = counted_service(&url);
    let services = [Arc::clone(&a), Arc::clone(&b)];
    // Both players on A, the spectator on B.
    let (id, watches) = seated_game(&services, [0, 0, 1], 1).await;
    let (mut events, _, _, spectator) = b.hub().watch(id, None, b.now_ms(), None);
    let (b_before, c_before) = (b_store.transactions(), c_store.transactions());
    let started = std::time::Instant::now();
    let played = play_games(&services, &[(id, [0, 0])], 24).await[0];
    let held = until_held(&b, id, played, 0).await;
    let elapsed = started.elapsed();
    // The spectator on B was told every move, as a move.
    let mut moves = 0;
    while let Ok(event) = events.try_recv() {
        moves += usize::from(event.name == "move");
    }
    assert_eq!(moves, played);
    // One heartbeat each 5 s is each service's own (not the game's).
    let beats = elapsed.as_secs() / 5 + 1;
    let (b_after, c_after) = (b_store.transactions(), c_store.transactions());
    assert_eq!(b_after.reads, b_before.reads, "B read the game");
    assert!(b_after.writes - b_before.writes <= beats, "B wrote");
    assert_eq!(c_after.reads, c_before.reads, "C, idle, read");
    assert!(c_after.writes - c_before.writes <= beats, "C, idle, wrote");
    // B's copy, made from the notices alone, is the stored game.
    let stored = awale_store::GameStore::load(&b_store, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(held.revision, stored.revision);
    assert_eq!(held.game.position(), stored.game.position());
    assert_eq!(
        held.game.moves().collect::<Vec<_>>(),
        stored.game.moves().collect::<Vec<_>>()
    );
    assert_eq!(held.clock, stored.clock);
    assert_eq!(held.turn_started_ms, stored.turn_started_ms);
    assert_eq!(held.seats, stored.seats);
    drop((watches, spectator));
}

/// The database's work per move does not grow with the processes: the
/// transactions per move of 3 services, each game's clients on one of
/// them or spread over all three (South, North and a spectator each on
/// its own), within 1.3 times those of 1 service serving them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn transactions_per_move_on_three_services_within_1_3x_of_one() {
    const GAMES: u32 = 6;
    const MOVES: usize = 16;
    // Per move: every service's transactions during the moves.
    async fn per_move(count: usize, place: impl Fn(u32) -> [usize; 3]) -> f64 {
        let url = pg::cluster().database();
        let (services, stores): (Vec<_>, Vec<_>) =
            (0..count).map(|_| counted_service(&url)).unzip();
        let mut games = Vec::new();
        let mut watches = Vec::new();
        for n in 0..GAMES {
            let at = place(n);
            let (id, w) = seated_game(&services, at, n).await;
            games.push((id, [at[0], at[1]]));
            watches.extend(w);
        }
        let stores: Vec<&PgStore> = stores.iter().collect();
        let before = transactions(&stores);
        let played = play_games(&services, &games, MOVES).await;
        // Every spectator's service has every move.
        for ((n, &(id, _)), &plies) in (0..GAMES).zip(&games).zip(&played) {
            until_held(&services[place(n)[2]], id, plies, 0).await;
        }
        let played: usize = played.iter().sum();
        let spent = transactions(&stores) - before;
        drop(watches);
        spent as f64 / played as f64
    }
    let one = per_move(1, |_| [0, 0, 0]).await;
    let together = per_move(3, |n| [n as usize % 3; 3]).await;
    let spread = per_move(3, |n| {
        let s = n as usize % 3;
        [s, (s + 1) % 3, (s + 2) % 3]
    })
    .await;
    eprintln!(
        "transactions per move: 1 service {one:.2}, 3 together {together:.2}, 3 spread {spread:.2}"
    );
    assert!(
        together <= 1.3 * one,
        "together: {together:.2} against {one:.2}"
    );
    assert!(spread <= 1.3 * one, "spread: {spread:.2} against {one:.2}");
}
