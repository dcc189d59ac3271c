//! Several services on one PostgreSQL database, as the processes of a
//! site are (issue 39): the rules that hold across them. Each service here
//! has its own store (its own pool, its own listener), as a process does.

#[path = "../../awale-store/tests/pg/mod.rs"]
mod pg;

use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use awale_model::game::{Mode, PlayerId, Seat};
use awale_model::Code;
use awale_service::games::{Games, NewGame};
use awale_service::live::Hub;
use awale_store::PgStore;

/// Player `n` (more than the 255 of `common::player`).
fn player(n: u32) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

/// A service on the database at `url`, started as a process's is.
fn service(url: &str) -> Arc<Games> {
    let store = Arc::new(PgStore::connect(url).unwrap());
    let games = Arc::new(Games::new(store, Arc::new(Hub::default())));
    games.start().unwrap();
    games
}

/// A private online game of player `maker`, who plays South.
fn challenge(maker: &PlayerId, n: u32) -> NewGame {
    NewGame {
        maker: maker.clone(),
        name: format!("South {n}"),
        account: false,
        mode: Mode::Online,
        game: Game::new(Rules::AWALE),
        seed: u64::from(n),
        clock: None,
        side: Side::South,
        public: false,
        rated: false,
        rating_range: None,
        // Each maker from an address of its own (the limits hold per address).
        client: Some(std::net::IpAddr::from([127, 0, 0, n as u8 + 1])),
    }
}

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
