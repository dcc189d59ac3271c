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

/// Waits until `store` has heard more than `before` notices of the other
/// services, then 100 ms for its service to take them in and for any
/// other of the same change (100 ms for the whole way through the
/// database, as these tests once waited, was not always enough on a
/// loaded machine).
async fn until_heard(store: &PgStore, before: u64) {
    eventually(
        "a notice",
        move || async move { store.notices_heard() > before },
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Waits until `done` says so (up to about 5 s, every 2 ms); panics
/// naming `what` when it never does.
async fn eventually<F: std::future::Future<Output = bool>>(
    what: &str,
    mut done: impl FnMut() -> F,
) {
    for _ in 0..2_500 {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("{what} never came");
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

/// A game first asked for on a service by its public id (a joining page,
/// a spectator's link) is read there once, its id and the game in one
/// read; and the requests naming it at once on that service share that
/// read.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_first_asked_for_by_public_id_is_read_once_by_its_askers_at_once() {
    let url = pg::cluster().database();
    let (a, _) = counted_service(&url);
    let (b, b_store) = counted_service(&url);
    let heard = b_store.notices_heard();
    let made = a.new_game(challenge(&player(1), 1)).await.unwrap();
    // Its making heard at B (a change heard during B's read would have
    // B read the game again: a copy possibly old is not kept).
    until_heard(&b_store, heard).await;
    let before = b_store.transactions().reads;
    let asks = (0..8).map(|_| {
        let (b, public) = (Arc::clone(&b), made.public_id.clone());
        tokio::spawn(async move { b.find(&public, None).await.unwrap() })
    });
    for ask in asks {
        assert_eq!(ask.await.unwrap(), made.id);
    }
    // A watcher's first read and a joining page's find the copy.
    let (_, _, _, watch) = b.hub().watch(made.id, None, b.now_ms(), None);
    assert!(b.load_watched(made.id).await.unwrap().waiting());
    b.load_held(made.id).await.unwrap();
    assert_eq!(b_store.transactions().reads - before, 1);
    drop(watch);
}

/// A game read by its public id on a service that did not know it while
/// another service moves in it: the change's notice, heard during the
/// read, when nothing of the game was kept there yet, does not leave an
/// old copy behind. A watcher there, once listening, has the stored game
/// without any further change to tell it (each round a new game, the
/// move sent at staggered moments of the read).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_read_by_public_id_during_a_move_elsewhere_is_not_kept_old() {
    let url = pg::cluster().database();
    let a = service(&url);
    let b = service(&url);
    let mut stale = Vec::new();
    for n in 0..40u32 {
        let (id, watches) = seated_game(&[Arc::clone(&a)], [0, 0, 0], n).await;
        let game = a.load(id).await.unwrap();
        let south = game.seats[Side::South.index()].clone().unwrap().player;
        let mv = game.game.legal_moves()[0];
        let delay = Duration::from_micros(u64::from(n % 12) * 250);
        let public = game.public_id.clone();
        let (moved, found) = tokio::join!(a.play(id, Some(&south), Some(0), mv), async {
            tokio::time::sleep(delay).await;
            b.find(&public, None).await
        });
        let stored = moved.unwrap().revision;
        assert_eq!(found.unwrap(), id);
        // Every notice heard.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (_, _, _, watch) = b.hub().watch(id, None, b.now_ms(), None);
        let held = b.load_watched(id).await.unwrap();
        if held.revision != stored {
            stale.push((n, held.revision, stored));
        }
        drop((watch, watches));
    }
    assert!(
        stale.is_empty(),
        "copies kept old (round, held, stored): {stale:?}"
    );
}

/// What a game's players and watchers leave behind costs no read: an end
/// heard on a service whose spectator left (its copy dropped on the next
/// move), and its maker's leaving once the game has begun (the challenge
/// would be withdrawn if it still waited: judged on the copy held).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_end_heard_after_the_watchers_left_and_a_makers_leaving_read_nothing() {
    let url = pg::cluster().database();
    let (a, a_store) = counted_service(&url);
    let (b, b_store) = counted_service(&url);
    a.set_challenge_grace(Duration::from_millis(50));
    let services = [Arc::clone(&a), Arc::clone(&b)];
    let (id, mut watches) = seated_game(&services, [0, 0, 1], 1).await;
    // The spectator on B leaves.
    watches.pop();
    play_games(&services, &[(id, [0, 0])], 2).await;
    let (a_before, b_before) = (a_store.transactions(), b_store.transactions());
    let game = a.load_held(id).await.unwrap();
    let south = game.seats[Side::South.index()].clone().unwrap().player;
    a.resign(id, Some(&south), None).await.unwrap();
    // South's page leaves.
    drop(watches.remove(0));
    a.withdraw_when_gone(id, Side::South);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (a_after, b_after) = (a_store.transactions(), b_store.transactions());
    assert_eq!(b_after.reads, b_before.reads, "B read the ended game");
    assert_eq!(
        a_after.reads, a_before.reads,
        "A read on its maker's leaving"
    );
    // The resignation, and perhaps A's heartbeat (one each 5 s).
    let written = a_after.writes - a_before.writes;
    assert!((1..=2).contains(&written), "A wrote {written} times");
    drop(watches);
}

/// A seat taken on one service by a guest (its name stored as theirs with
/// it, as a join through the page is) reaches the game's maker, listening
/// on another, without a read there: the notice carries the seat as it
/// carries a move.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_seat_taken_elsewhere_reaches_the_maker_without_a_read() {
    let url = pg::cluster().database();
    let (a, a_store) = counted_service(&url);
    let (b, _) = counted_service(&url);
    let made = a.new_game(challenge(&player(1), 1)).await.unwrap();
    let (_, _, _, watch) = a.hub().watch(made.id, Some(Side::South), a.now_ms(), None);
    let before = a_store.transactions();
    let seat = Seat {
        player: player(2),
        name: "North 2".into(),
    };
    b.sit_named(made.id, seat, made.invite.as_deref(), true)
        .await
        .unwrap();
    let held = until_held(&a, made.id, 0, 1).await;
    assert_eq!(
        held.seats[Side::North.index()]
            .as_ref()
            .map(|s| s.name.as_str()),
        Some("North 2")
    );
    assert_eq!(
        a_store.transactions().reads,
        before.reads,
        "A read the game"
    );
    drop(watch);
}

/// A copy a request read lately, nobody watching yet (a page between its
/// first request and its stream): a move made elsewhere meanwhile is
/// applied to it from the notice, and the stream that then opens reads
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_copy_asked_for_lately_takes_a_move_made_elsewhere_without_a_read() {
    let url = pg::cluster().database();
    let (a, _) = counted_service(&url);
    let (b, b_store) = counted_service(&url);
    let (id, watches) = seated_game(&[Arc::clone(&a)], [0, 0, 0], 1).await;
    b.load_held(id).await.unwrap();
    let before = b_store.transactions().reads;
    let played = play_games(&[Arc::clone(&a)], &[(id, [0, 0])], 1).await[0];
    // The move heard at B, nobody watching there yet (waited for, not
    // slept on: 200 ms were not always enough on a loaded machine). The
    // held copy is asked, which reads nothing while it is kept.
    eventually("the move at B", || {
        let b = Arc::clone(&b);
        async move { b.load_held(id).await.unwrap().game.plies().len() >= played }
    })
    .await;
    let (_, _, _, watch) = b.hub().watch(id, None, b.now_ms(), None);
    let held = b.load_watched(id).await.unwrap();
    assert_eq!(held.game.plies().len(), played);
    assert_eq!(
        b_store.transactions().reads,
        before,
        "B read the game again"
    );
    drop((watch, watches));
}

/// Sets the `redo` column of game `id`'s row in the database at `url`: a
/// row that cannot be read back (`?`), or whole again (nothing).
fn spoil(url: &str, id: i64, redo: &str) {
    let sql = format!("UPDATE games SET redo = '{redo}' WHERE id = {id}");
    pg::cluster().psql(url, &sql);
}

/// A first read by public id that fails (here its row spoilt a moment)
/// fails for all the requests that shared it, at once: one read, not one
/// each in turn (a stalled store would hold the last of them the longer);
/// the next request reads again and finds the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_first_read_by_public_id_fails_its_askers_together_and_is_tried_again() {
    let cluster = pg::cluster();
    let url = cluster.database();
    let (a, _) = counted_service(&url);
    let (b, b_store) = counted_service(&url);
    let heard = b_store.notices_heard();
    let made = a.new_game(challenge(&player(1), 1)).await.unwrap();
    until_heard(&b_store, heard).await;
    let spoil = |redo: &str| spoil(&url, made.id, redo);
    spoil("?");
    let before = b_store.transactions().reads;
    let asks: Vec<_> = (0..8)
        .map(|_| {
            let (b, public) = (Arc::clone(&b), made.public_id.clone());
            tokio::spawn(async move { b.find(&public, None).await })
        })
        .collect();
    for ask in asks {
        let failed = ask.await.unwrap().expect_err("a spoilt row");
        assert_ne!(failed.code, Code::NoSuchGame, "{failed:?}");
    }
    assert_eq!(b_store.transactions().reads - before, 1);
    spoil("");
    assert_eq!(b.find(&made.public_id, None).await.unwrap(), made.id);
}

/// A copy nobody watches that a read could not bring up to date after
/// notices were lost (its listening connection cut; the read failed,
/// here its row spoilt a moment) is dropped, not kept as it was: the next
/// request reads the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_copy_nobody_watches_that_a_failed_read_left_behind_is_dropped() {
    let cluster = pg::cluster();
    let url = cluster.database();
    let (a, a_store) = counted_service(&url);
    let made = a.new_game(challenge(&player(1), 1)).await.unwrap();
    let reads = || a_store.transactions().reads;
    let before = reads();
    a.load_held(made.id).await.unwrap();
    assert_eq!(reads(), before, "the maker's copy is held");
    let spoil = |redo: &str| spoil(&url, made.id, redo);
    spoil("?");
    cluster.psql(
        &url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query = 'LISTEN awale'",
    );
    // Heard again: every copy read (this one fails).
    for _ in 0..500 {
        if reads() > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(reads() > before, "the copy was never read again");
    tokio::time::sleep(Duration::from_millis(200)).await;
    spoil("");
    let before = reads();
    let game = a.load_held(made.id).await.unwrap();
    assert!(reads() > before, "the copy left behind was kept");
    assert!(game.waiting());
}
