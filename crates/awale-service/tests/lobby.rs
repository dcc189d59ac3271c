//! The lobby's featured game: which of the games being played the home
//! page shows.

use awale_service::games::{featured, LiveGame};
use awale_service::store::{LobbyGame, StoredRules};

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
