//! Ratings in the store: a rated game moves both players' ratings in one
//! transaction, once; the history, results and the change read back with
//! the game.

use awale_core::{Game, Rules, Side};
use awale_model::game::{now_ms, Mode, Seat, WebGame};
use awale_model::rating::{Speed, START};
use awale_store::{GameStore, RatingStore};

mod common;
mod pg;

use common::{on_both, player, runtime, two_processes};

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

#[test]
fn a_rated_game_moves_both_ratings_once_and_reads_back_with_the_game() {
    on_both(|store| async move {
        let mut game = store.create(vec![online(true)]).await.unwrap().remove(0);
        assert!(store.load(game.id).await.unwrap().unwrap().rated);
        game.resign(Side::North, now_ms()).unwrap();
        store.save(game.clone(), 0).await.unwrap();
        assert_eq!(store.unrated_games_blocking().unwrap(), vec![game.id]);
        let players = [player(1), player(2)];
        let rate = |at_ms: i64| {
            store.rate_game(
                game.id,
                players.clone(),
                Speed::Blitz,
                Some(Side::South),
                at_ms,
            )
        };
        let changes = rate(1_000).await.unwrap();
        assert_eq!(changes[0].before, START);
        assert!(changes[0].change > 0 && changes[1].change == -changes[0].change);
        assert!(store.unrated_games_blocking().unwrap().is_empty());
        // Again: the same changes, nothing counted twice.
        let again = rate(2_000).await.unwrap();
        assert_eq!(again, changes);
        let mine = store.ratings(player(1)).await.unwrap();
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
    });
}

#[test]
fn a_second_game_starts_from_the_first_ones_ratings() {
    on_both(|store| async move {
        let players = [player(1), player(2)];
        let mut ids = Vec::new();
        let mut public_ids = Vec::new();
        for _ in 0..2 {
            let game = store.create(vec![online(true)]).await.unwrap().remove(0);
            ids.push(game.id);
            public_ids.push(game.public_id);
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
        // The graph names its games by public id (never the store's number).
        assert_eq!(
            history.iter().map(|p| p.game.clone()).collect::<Vec<_>>(),
            public_ids
        );
    });
}

#[test]
fn a_draw_offer_waits_across_a_reload() {
    on_both(|store| async move {
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
    });
}

#[test]
fn a_players_games_are_filtered_by_rated_speed_result_and_opponent() {
    on_both(|store| async move {
        let blitz = awale_model::game::Clock::new(180_000, 2_000);
        // 1 beats 2 (rated blitz), draws 3 (casual, no clock), loses to 2
        // (casual blitz); one game goes on.
        let mut games = Vec::new();
        for (opponent, rated, clock) in [
            (2, true, Some(blitz)),
            (3, false, None),
            (2, false, Some(blitz)),
            (3, false, None),
        ] {
            let mut g = online(rated);
            g.seats[1].as_mut().unwrap().player = player(opponent);
            g.clock = clock;
            games.push(g);
        }
        let mut games = store.create(games).await.unwrap();
        games[0].resign(Side::North, now_ms()).unwrap();
        games[1].stop = Some(awale_model::game::Stop::Agreed);
        games[2].resign(Side::South, now_ms()).unwrap();
        for g in &games[..3] {
            store.save(g.clone(), 0).await.unwrap();
        }
        store
            .rate_game(
                games[0].id,
                [player(1), player(2)],
                Speed::Blitz,
                Some(Side::South),
                5,
            )
            .await
            .unwrap();
        let list = |filter: awale_store::ratings::GameFilter| {
            let store = store.clone();
            async move {
                store
                    .played_games(player(1), filter, None, 10)
                    .await
                    .unwrap()
                    .iter()
                    .map(|g| g.id.clone())
                    .collect::<Vec<_>>()
            }
        };
        use awale_model::lists::Outcome;
        use awale_store::ratings::GameFilter;
        // Listed by public id, never the store's number.
        let ids: Vec<String> = games.iter().map(|g| g.public_id.clone()).collect();
        assert_eq!(
            list(GameFilter::default()).await,
            vec![ids[2].clone(), ids[1].clone(), ids[0].clone()]
        );
        let rated = GameFilter {
            rated: Some(true),
            ..Default::default()
        };
        assert_eq!(list(rated).await, vec![ids[0].clone()]);
        let speed = GameFilter {
            speed: Some(Speed::Correspondence),
            ..Default::default()
        };
        assert_eq!(list(speed).await, vec![ids[1].clone()]);
        for (outcome, id) in [
            (Outcome::Win, ids[0].clone()),
            (Outcome::Draw, ids[1].clone()),
            (Outcome::Loss, ids[2].clone()),
        ] {
            let only = GameFilter {
                result: Some(outcome),
                ..Default::default()
            };
            assert_eq!(list(only).await, vec![id], "{outcome:?}");
        }
        let against = GameFilter {
            opponent: Some(player(2)),
            ..Default::default()
        };
        assert_eq!(list(against).await, vec![ids[2].clone(), ids[0].clone()]);
        let first = store
            .played_games(player(1), GameFilter::default(), None, 10)
            .await
            .unwrap();
        // The next page starts after the last game of the one before, named
        // by its time and public id.
        let rest = store
            .played_games(
                player(1),
                GameFilter::default(),
                Some((first[0].updated_ms, first[0].id.clone())),
                10,
            )
            .await
            .unwrap();
        assert_eq!(
            rest.iter().map(|g| g.id.clone()).collect::<Vec<_>>(),
            vec![ids[1].clone(), ids[0].clone()]
        );
        assert_eq!(first[2].change, Some(first[2].change.unwrap().abs()));
        assert!(first[2].change.unwrap() > 0 && first[1].change.is_none());
        assert_eq!(first[0].side, 'S');
        // Seen from 2's side, the win is a loss.
        let theirs = store
            .played_games(player(2), GameFilter::default(), None, 10)
            .await
            .unwrap();
        assert_eq!(theirs.last().unwrap().outcome, Outcome::Loss);
        // A game without a clock is said so ("none"), not by its speed
        // for ratings ("correspondence"); the others have a clock.
        assert!(first.iter().any(|g| g.clock == "none"), "{first:?}");
        for g in &first {
            let unclocked = g.speed.as_deref() == Some("correspondence");
            assert_eq!(g.clock == "none", unclocked, "{g:?}");
        }
        // The list of one's games says one's seat, and that they are
        // neither over days nor of a tournament.
        for (n, side) in [(1, "S"), (2, "N")] {
            let page = store.list(Some(player(n)), None, 10).await.unwrap();
            assert!(!page.games.is_empty());
            for g in &page.games {
                assert_eq!(g.you.as_deref(), Some(side), "{g:?}");
                assert!(!g.per_move && g.tournament.is_none(), "{g:?}");
            }
        }
    });
}

fn account(n: u8) -> awale_store::NewAccount {
    awale_store::NewAccount {
        username: format!("Joueur{n}"),
        key: format!("joueur{n}"),
        player: player(n),
        password_hash: "$argon2id$x".into(),
        created_ms: 1,
        recovery: Vec::new(),
        session: (format!("s{n}"), 1_000),
        guest: None,
        skeletons: Vec::new(),
    }
}

#[test]
fn the_leaderboard_ranks_the_recently_active_open_accounts() {
    use awale_store::ratings::BoardRule;
    on_both(|store| async move {
        let now = 100 * 86_400_000;
        let mut accounts = Vec::new();
        for n in 1..=3 {
            accounts.push(store.create_account(account(n)).await.unwrap().unwrap());
        }
        // 1 beats 2 three times; 3 plays once, too few to be ranked.
        for (at, (south, north)) in [(1, 2), (1, 2), (1, 2), (3, 1)].into_iter().enumerate() {
            let mut game = online(true);
            game.seats[0].as_mut().unwrap().player = player(south);
            game.seats[1].as_mut().unwrap().player = player(north);
            let id = store.create(vec![game]).await.unwrap()[0].id;
            store
                .rate_game(
                    id,
                    [player(south), player(north)],
                    Speed::Blitz,
                    Some(Side::South),
                    now - 1_000 + at as i64,
                )
                .await
                .unwrap();
        }
        // Four games leave a rating provisional (deviation over 110): not
        // listed under the site's rule, as on lichess.
        let provisional = store
            .leaderboard(Speed::Blitz, BoardRule::default(), now, 10)
            .await
            .unwrap();
        assert!(provisional.is_empty(), "{provisional:?}");
        // Any deviation allowed, to see the rest of the rule.
        let any = BoardRule {
            max_deviation: 500,
            ..BoardRule::default()
        };
        let board = store.leaderboard(Speed::Blitz, any, now, 10).await.unwrap();
        let names: Vec<&str> = board.iter().map(|l| l.username.as_str()).collect();
        assert_eq!(names, ["Joueur1", "Joueur2"]);
        assert!(board.iter().all(|l| l.deviation > 110), "{board:?}");
        assert_eq!(board[0].games, 4);
        assert!(board[0].rating > board[1].rating);
        // Four weeks later, nobody is recent enough.
        let later = now + 29 * 86_400_000;
        let empty = store
            .leaderboard(Speed::Blitz, any, later, 10)
            .await
            .unwrap();
        assert!(empty.is_empty());
        // A closed account leaves the board.
        store.close_account(accounts[0].id, now).await.unwrap();
        let board = store.leaderboard(Speed::Blitz, any, now, 10).await.unwrap();
        let names: Vec<&str> = board.iter().map(|l| l.username.as_str()).collect();
        assert_eq!(names, ["Joueur2"]);
    });
}

/// Two processes rating two games of one player at the same moment: each
/// game starts from the other's result, none is lost, and a game rated by
/// both is rated once.
#[test]
fn two_processes_rating_at_once_lose_no_update() {
    runtime().block_on(async {
        let (one, two) = two_processes();
        let players = [player(1), player(2)];
        for round in 0..10 {
            let made = one.create(vec![online(true), online(true)]).await.unwrap();
            let (a, b) = (made[0].id, made[1].id);
            let at = 1_000 * (round + 1);
            let (first, second, again) = tokio::join!(
                one.rate_game(a, players.clone(), Speed::Blitz, Some(Side::South), at),
                two.rate_game(b, players.clone(), Speed::Blitz, None, at),
                two.rate_game(a, players.clone(), Speed::Blitz, Some(Side::South), at),
            );
            let (first, second, again) = (first.unwrap(), second.unwrap(), again.unwrap());
            assert_eq!(again, first);
            // One of the two went first; the other began from its result.
            assert!(
                second[0].before == first[0].after || first[0].before == second[0].after,
                "round {round}: {first:?} {second:?}"
            );
        }
        let mine = one.ratings(player(1)).await.unwrap();
        assert_eq!(mine[0].games, 20);
    });
}

#[test]
fn the_lobby_shows_a_rated_games_players_ratings_in_its_speed() {
    on_both(|store| async move {
        let mut first = store.create(vec![online(true)]).await.unwrap().remove(0);
        first.resign(Side::North, now_ms()).unwrap();
        store.save(first.clone(), 0).await.unwrap();
        // Games without a clock are correspondence.
        store
            .rate_game(
                first.id,
                [player(1), player(2)],
                Speed::Correspondence,
                Some(Side::South),
                1_000,
            )
            .await
            .unwrap();
        let made = store
            .create(vec![online(true), online(false)])
            .await
            .unwrap();
        let lobby = store.lobby(10).await.unwrap();
        let shown = |id: i64| lobby.iter().find(|g| g.id == id).unwrap().ratings;
        let [south, north] = shown(made[0].id);
        assert!(
            south.unwrap() > 1500 && north.unwrap() < 1500,
            "{south:?} {north:?}"
        );
        assert_eq!(shown(made[1].id), [None, None], "a casual game");
    });
}

#[test]
fn a_bots_pool_keeps_its_ratings_and_games_apart_and_no_bot_is_on_peoples_board() {
    use awale_model::rating::Pool;
    use awale_store::ratings::BoardRule;
    on_both(|store| async move {
        let now = 100 * 86_400_000;
        for n in 1..=3 {
            let made = store.create_account(account(n)).await.unwrap().unwrap();
            if n < 3 {
                store.set_bot(made.id).await.unwrap();
            }
        }
        let bots = Pool::Bots(Speed::Bullet);
        let mut ids = Vec::new();
        for (at, (south, north, pool)) in [
            (1, 2, bots),
            (2, 1, bots),
            (3, 1, Pool::People(Speed::Bullet)),
        ]
        .into_iter()
        .enumerate()
        {
            let mut game = online(true);
            game.seats[0].as_mut().unwrap().player = player(south);
            game.seats[1].as_mut().unwrap().player = player(north);
            let id = store.create(vec![game]).await.unwrap()[0].id;
            store
                .rate_game_in(
                    id,
                    [player(south), player(north)],
                    pool,
                    Some(Side::South),
                    now + at as i64,
                )
                .await
                .unwrap();
            ids.push(id);
        }
        let board = store.pool_board(bots, 10).await.unwrap();
        let names: Vec<&str> = board.iter().map(|l| l.username.as_str()).collect();
        assert_eq!(names.len(), 2, "{board:?}");
        assert!(board.iter().all(|l| l.games == 2), "{board:?}");
        let games = store.pool_games(bots, 10).await.unwrap();
        assert_eq!(games.len(), 2);
        // Newest first, each with its players' names and changes.
        assert_eq!(games[0].names, ["Joueur2", "Joueur1"]);
        assert!(
            games[0].changes[0] > 0 && games[0].changes[1] < 0,
            "{games:?}"
        );
        let mine = store.ratings(player(1)).await.unwrap();
        let pools: Vec<Pool> = mine.iter().map(|r| r.pool).collect();
        assert_eq!(pools, [Pool::People(Speed::Bullet), bots]);
        let history = store.rating_history_in(player(1), bots, 10).await.unwrap();
        assert_eq!(history.len(), 2);
        // People's bullet board: the person only, the bot rated against
        // them left out.
        let any = BoardRule {
            min_games: 1,
            weeks: 4,
            max_deviation: 500,
        };
        let people = store
            .leaderboard(Speed::Bullet, any, now, 10)
            .await
            .unwrap();
        let names: Vec<&str> = people.iter().map(|l| l.username.as_str()).collect();
        assert_eq!(names, ["Joueur3"]);
    });
}
