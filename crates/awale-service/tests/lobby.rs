//! The lobby's featured game: which of the games being played the home
//! page shows.

mod common;
use common::resign_seated;

use awale_model::lists::{LobbyGame, StoredRules};
use awale_service::games::{featured, featured_among, LiveGame};

fn live(id: i64, ratings: [Option<i32>; 2], spectators: usize) -> LiveGame {
    LiveGame {
        game: LobbyGame {
            id,
            public_id: format!("g{id}"),
            rules: StoredRules::from_text("awale".into()),
            clock: Some([180_000, 2_000]),
            per_move: false,
            names: [Some("a".into()), Some("b".into())],
            plies: 10,
            created_ms: 0,
            start: None,
            rated: ratings.iter().all(Option::is_some),
            ratings,
            rating_range: None,
            accounts: [false, false],
            bots: [false, false],
        },
        spectators,
    }
}

#[test]
fn the_featured_game_is_the_highest_rated_then_the_most_watched() {
    assert!(featured(&[]).is_none());
    let games = [
        live(1, [None, None], 9),
        live(2, [Some(1600), Some(1700)], 0),
        live(3, [Some(1900), Some(1500)], 1),
        // One player not rated yet: counted as casual.
        live(4, [Some(2400), None], 0),
    ];
    assert_eq!(featured(&games).map(|g| g.game.id), Some(3));
    // Casual games only: the most watched, then the newest.
    let casual = [
        live(1, [None, None], 2),
        live(2, [None, None], 5),
        live(3, [None, None], 5),
    ];
    assert_eq!(featured(&casual).map(|g| g.game.id), Some(3));
}

#[test]
fn a_tournament_top_game_comes_before_higher_rated_games() {
    let games = [
        live(1, [Some(1500), Some(1500)], 0),
        live(2, [Some(2000), Some(2100)], 7),
        live(3, [Some(1400), Some(1450)], 0),
    ];
    assert_eq!(featured_among(&games, &[]).map(|g| g.game.id), Some(2));
    assert_eq!(featured_among(&games, &[3]).map(|g| g.game.id), Some(3));
    // Two tournaments' top games: the higher rated of them.
    assert_eq!(featured_among(&games, &[1, 3]).map(|g| g.game.id), Some(1));
    // A top game no longer in play is not there to feature.
    assert_eq!(featured_among(&games, &[9]).map(|g| g.game.id), Some(2));
}

/// The lobby's featured game is a running arena's top game (the game of
/// its highest-placed players) even when a newer game is going on, and
/// falls back to the usual order once the arena has no game in play.
#[tokio::test]
async fn the_lobby_features_a_running_arenas_top_game() {
    use std::sync::Arc;
    use std::time::Duration;

    use awale_model::game::{now_ms, random_seed, Mode, PlayerId, Seat, WebGame};
    use awale_service::games::Games;
    use awale_service::live::Hub;
    use awale_service::tournaments::{ArenaSettings, TournamentState, Tournaments};
    use awale_store::Store;

    let player = |n: u8| PlayerId(format!("{n:064x}"));
    let store = Arc::new(Store::in_memory().unwrap());
    let games = Arc::new(Games::new(store.clone(), Arc::new(Hub::default())));
    let t = Tournaments::new(Arc::clone(&games), store, None);
    t.start().unwrap();
    let settings = ArenaSettings {
        name: "Featured arena".into(),
        clock: (60_000, 1_000),
        rated: false,
        minutes: 30,
        starts_ms: 0,
        bots_allowed: false,
    };
    let id = t.create(&player(1), settings).await.unwrap().facts.id;
    for n in 1..=4 {
        t.join(id, &player(n), &format!("P{n}")).await.unwrap();
    }
    // Two games in play; the arena names its top game.
    let mut view = t.get(id, None).await.unwrap();
    for _ in 0..200 {
        if view.facts.state == TournamentState::Started
            && view.standings.iter().all(|l| l.game.is_some())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        view = t.get(id, None).await.unwrap();
    }
    let top = view.top_game.clone().expect("a top game");
    // A newer game outside the arena, which the usual order would prefer.
    let mut other = WebGame::new(
        Mode::Online,
        awale_core::Game::new(awale_core::Rules::AWALE),
        now_ms(),
        random_seed(),
    );
    other.seats = [
        Some(Seat {
            player: player(8),
            name: "Out1".into(),
        }),
        Some(Seat {
            player: player(9),
            name: "Out2".into(),
        }),
    ];
    let other = games.create(vec![other]).await.unwrap().remove(0);
    let lobby = games.lobby().await.unwrap();
    assert_eq!(lobby.live.len(), 3);
    assert_eq!(lobby.featured.unwrap().game.game.public_id, top);
    // The arena ends and its games are resigned: the newest game again.
    t.close(id, &player(1)).await.unwrap();
    for line in &view.standings {
        let Some(public) = &line.game else { continue };
        let game = games.find(public, None).await.unwrap();
        let _ = resign_seated(&games, game, awale_core::Side::South).await;
    }
    let mut featured = None;
    for _ in 0..200 {
        featured = games
            .lobby()
            .await
            .unwrap()
            .featured
            .map(|f| f.game.game.public_id);
        if featured.as_deref() == Some(other.public_id.as_str()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(featured, Some(other.public_id));
}
