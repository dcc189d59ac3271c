//! What the tests of several services on one PostgreSQL database share:
//! players by number (more than the 255 of `common::player`), a service
//! started as a process's is, a private online game to join.

use std::sync::Arc;

use awale_core::{Game, Rules, Side};
use awale_model::game::{Mode, PlayerId};
use awale_service::games::{Games, NewGame};
use awale_service::live::Hub;
use awale_store::PgStore;

/// Player `n`.
pub fn player(n: u32) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

/// A service on the database at `url` (its own pool and listener, as a
/// process has), started as a process's is.
pub fn service(url: &str) -> Arc<Games> {
    let store = Arc::new(PgStore::connect(url).unwrap());
    let games = Arc::new(Games::new(store, Arc::new(Hub::default())));
    games.start().unwrap();
    games
}

/// A private online game of guest `maker`, who plays South.
pub fn challenge(maker: &PlayerId, n: u32) -> NewGame {
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
        client: Some(std::net::IpAddr::from([
            127,
            0,
            (n / 200) as u8,
            (n % 200) as u8 + 1,
        ])),
    }
}
