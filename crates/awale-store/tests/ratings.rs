//! Ratings in the store: a rated game moves both players' ratings in one
//! transaction, once; the history, results and the change read back with
//! the game.

use awale_core::{Game, Rules, Side};
use awale_model::game::{now_ms, Mode, PlayerId, Seat, WebGame};
use awale_model::rating::{Speed, START};
use awale_store::{RatingStore, Store};

fn player(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

fn online(rated: bool) -> WebGame {
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now_ms(), 1);
    for (side, n) in [(Side::South, 1), (Side::North, 2)] {
        game.seats[side.index()] = Some(Seat {
            player: player(n),
            name: format!("P{n}"),
        });
    }
    game.rated = rated;
    game
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_once_and_reads_back_with_the_game() {
    let store = Store::in_memory().unwrap();
    let mut game = store.create(vec![online(true)]).await.unwrap().remove(0);
    assert!(store.load(game.id).await.unwrap().unwrap().rated);
    game.resign(Side::North).unwrap();
    store.save(game.clone(), 0).await.unwrap();
    assert_eq!(store.unrated_games_blocking().unwrap(), vec![game.id]);
    let players = [player(1), player(2)];
    let changes = store
        .rate_game(
            game.id,
            players.clone(),
            Speed::Blitz,
            Some(Side::South),
            1_000,
        )
        .await
        .unwrap();
    assert_eq!(changes[0].before, START);
    assert!(changes[0].change > 0 && changes[1].change == -changes[0].change);
    assert!(store.unrated_games_blocking().unwrap().is_empty());
    // Again: the same changes, nothing counted twice.
    let again = store
        .rate_game(
            game.id,
            players.clone(),
            Speed::Blitz,
            Some(Side::South),
            2_000,
        )
        .await
        .unwrap();
    assert_eq!(again, changes);
    let mine = RatingStore::ratings(&store, player(1)).await.unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].speed, mine[0].games), (Speed::Blitz, 1));
    assert_eq!(mine[0].glicko, changes[0].after);
    let loaded = store.load(game.id).await.unwrap().unwrap();
    assert_eq!(loaded.rating_changes, Some(changes));
    let history = store
        .rating_history(player(2), Speed::Blitz, 10)
        .await
        .unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].rating, changes[1].after.rating.round() as i64);
    let results = store.results(player(1)).await.unwrap();
    assert_eq!(
        (results.wins, results.draws, results.losses, results.rated),
        (1, 0, 0, 1)
    );
    let theirs = store.results(player(2)).await.unwrap();
    assert_eq!((theirs.wins, theirs.losses), (0, 1));
}

#[tokio::test]
async fn a_second_game_starts_from_the_first_ones_ratings() {
    let store = Store::in_memory().unwrap();
    let players = [player(1), player(2)];
    let mut ids = Vec::new();
    for _ in 0..2 {
        ids.push(store.create(vec![online(true)]).await.unwrap()[0].id);
    }
    let first = store
        .rate_game(ids[0], players.clone(), Speed::Rapid, None, 1_000)
        .await
        .unwrap();
    let second = store
        .rate_game(
            ids[1],
            players.clone(),
            Speed::Rapid,
            Some(Side::North),
            2_000,
        )
        .await
        .unwrap();
    assert_eq!(second[0].before, first[0].after);
    assert!(second[1].after.deviation < first[1].after.deviation);
    let history = store
        .rating_history(player(1), Speed::Rapid, 10)
        .await
        .unwrap();
    assert_eq!(history.iter().map(|p| p.game).collect::<Vec<_>>(), ids);
}

#[tokio::test]
async fn a_draw_offer_waits_across_a_reload() {
    let store = Store::in_memory().unwrap();
    let mut game = store.create(vec![online(false)]).await.unwrap().remove(0);
    for c in ['C', 'c'] {
        game.play(awale_core::Move::from_letter(c).unwrap(), now_ms())
            .unwrap();
    }
    game.offer_draw(Side::South).unwrap();
    store.save(game.clone(), 0).await.unwrap();
    let loaded = store.load(game.id).await.unwrap().unwrap();
    assert_eq!(loaded.offers.draw, Some(Side::South));
    assert!(!loaded.rated && loaded.rating_changes.is_none());
}
