//! The store's guarantees, checked on both stores through the one
//! interface (`GameStore`): the games file (SQLite) and PostgreSQL (a
//! throwaway cluster, `pg/mod.rs`). Then what only a shared store does:
//! fenced changes, notices between processes, the copy of a games file.

mod common;
mod pg;

use awale_store::{FairPlayStore, Stores};
use common::{next_notice, on_both, player, postgres, runtime, two_processes};

use std::sync::Arc;

use awale_core::{Game, Move, Rules, Side};
use awale_model::account::{Account, ApiToken, Challenge, Role};
use awale_model::game::{Clock, Mode, PlayerId, Seat, Stop, WebGame};
use awale_model::lists::ChatLine;
use awale_model::rating::Glicko;
use awale_store::puzzles::Attempt;
use awale_store::tournament_chat::{TournamentChatLine, TournamentChatStore};
use awale_store::tournaments::{ByeRow, EntrantRow, PairingRow, TournamentRecord, TournamentRow};
use awale_store::{
    copy_to_postgres, parse_cursor, AccountStore, GameStore, MistakeRow, NewAccount, NewReport,
    Nickname, Notice, OpeningFilter, PgStore, Store, StoreError, TournamentStore, CHAT_KEPT,
    TOKEN_USE_KEPT_MS,
};

fn game() -> WebGame {
    let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 1_000, 7);
    g.seat_maker(&me());
    g
}

fn me() -> PlayerId {
    PlayerId("p1".into())
}

/// A new game, stored.
async fn stored(store: &dyn GameStore) -> WebGame {
    store.create(vec![game()]).await.unwrap().remove(0)
}

/// `letter`'s hole sown in `g` at `at_ms`.
fn sow(g: &mut WebGame, letter: char, at_ms: i64) {
    g.play(Move::from_letter(letter).unwrap(), at_ms).unwrap();
}

/// What the service does after a change is stored: the copy now stands
/// for the next revision.
async fn save(store: &dyn GameStore, g: &mut WebGame, from: usize) {
    store.save(g.clone(), from).await.unwrap();
    g.revision += 1;
}

#[test]
fn a_saved_game_loads_back_the_same() {
    on_both(|store| async move {
        let mut g = stored(&*store).await;
        for c in "FfAa".chars() {
            sow(&mut g, c, 2_000);
        }
        g.seats = [
            Some(Seat {
                player: PlayerId("p1".into()),
                name: "Ama".into(),
            }),
            None,
        ];
        g.stop = Some(Stop::Time(Side::North));
        g.clock = Some(Clock {
            initial_ms: 60_000,
            increment_ms: 2_000,
            remaining_ms: [55_000, 41_000],
            per_move: false,
        });
        save(&*store, &mut g, 0).await;
        let back = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.game.plies(), g.game.plies());
        assert_eq!(back.seats, g.seats);
        assert_eq!(back.stop, g.stop);
        assert_eq!(back.clock, g.clock);
        assert_eq!(back.turn_started_ms, 2_000);
        assert!(store.load(g.id + 1000).await.unwrap().is_none());
        // Read by its public id: the same game, in one statement.
        let public = store.load_public(g.public_id.clone()).await.unwrap();
        let public = public.unwrap();
        assert_eq!((public.id, public.revision), (back.id, back.revision));
        assert_eq!(public.game.plies(), back.game.plies());
        assert_eq!((public.seats, public.clock), (back.seats, back.clock));
        assert!(store
            .load_public("nOsUcHgAmE".into())
            .await
            .unwrap()
            .is_none());
    });
}

#[test]
fn moves_replaced_from_a_ply_keep_the_ones_before() {
    on_both(|store| async move {
        let mut g = stored(&*store).await;
        for c in "FfAa".chars() {
            sow(&mut g, c, 2_000);
            let before = g.game.plies().len() - 1;
            save(&*store, &mut g, before).await;
        }
        // A takeback of two moves, then another move: from ply 2 on.
        g.game.undo();
        g.game.undo();
        sow(&mut g, 'B', 3_000);
        save(&*store, &mut g, 2).await;
        let back = store.load(g.id).await.unwrap().unwrap();
        let letters: String = back.game.plies().iter().map(|p| p.mv.letter()).collect();
        assert_eq!(letters, "FfB");
    });
}

/// A game read while its moves are being stored is read as it was at one
/// moment: its row (here its clock, which each move sets to a value of
/// its ply) and its moves from the same revision. A row and its moves read
/// by two statements gave, now and then, a move stored between the two
/// reads without its row's change.
#[test]
fn a_game_read_while_moves_are_stored_is_read_from_one_moment() {
    on_both(|store| async move {
        let mut g = stored(&*store).await;
        let clock_after = |plies: usize| Clock {
            initial_ms: 600_000,
            increment_ms: 0,
            remaining_ms: [600_000 - plies as i64, 600_000 - plies as i64],
            per_move: false,
        };
        g.clock = Some(clock_after(0));
        save(&*store, &mut g, 0).await;
        let id = g.id;
        let done = std::sync::atomic::AtomicBool::new(false);
        let writer = async {
            for _ in 0..150 {
                let Some(&mv) = g.game.legal_moves().first() else {
                    break;
                };
                g.play(mv, 2_000).unwrap();
                g.clock = Some(clock_after(g.game.plies().len()));
                let before = g.game.plies().len() - 1;
                save(&*store, &mut g, before).await;
            }
            done.store(true, std::sync::atomic::Ordering::Relaxed);
        };
        let reader = async {
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let back = store.load(id).await.unwrap().unwrap();
                let plies = back.game.plies().len();
                assert_eq!(
                    back.clock.map(|c| c.remaining_ms),
                    Some(clock_after(plies).remaining_ms),
                    "read {reads}: {plies} moves with another moment's clock"
                );
                reads += 1;
            }
        };
        tokio::join!(writer, reader);
    });
}

#[test]
fn a_game_resigned_after_a_takeback_loads_back() {
    on_both(|store| async move {
        let mut g = stored(&*store).await;
        for c in "Ff".chars() {
            sow(&mut g, c, 2_000);
        }
        save(&*store, &mut g, 0).await;
        g.game.undo();
        g.game.resign(Side::South).unwrap();
        save(&*store, &mut g, 1).await;
        let back = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.game.resigned(), Some(Side::South));
        assert_eq!(back.game.plies().len(), 1);
        assert!(!back.game.can_redo());
    });
}

#[test]
fn several_games_are_created_all_together() {
    on_both(|store| async move {
        let made = store.create(vec![game(), game(), game()]).await.unwrap();
        let ids: Vec<i64> = made.iter().map(|g| g.id).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        for id in ids {
            assert!(store.load(id).await.unwrap().is_some());
        }
    });
}

/// Game `id`'s date, as `me()`'s list gives it.
async fn dated(store: &dyn GameStore, id: i64) -> i64 {
    let page = store.list(Some(me()), None, 10).await.unwrap();
    page.games.iter().find(|g| g.id == id).unwrap().updated_ms
}

/// An abort dates a game exactly, as any end does (an aborted game has no
/// result), and a change after it keeps that date.
#[test]
fn an_abort_dates_the_game_and_a_change_after_it_keeps_the_date() {
    on_both(|store| async move {
        let now = awale_model::game::now_ms;
        let mut g = stored(&*store).await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let aborted_at = now();
        g.abort(Side::South, aborted_at).unwrap();
        save(&*store, &mut g, 0).await;
        let aborted = dated(&*store, g.id).await;
        assert!(aborted >= aborted_at, "{aborted} {aborted_at}");
        assert_eq!(store.current(Some(me())).await.unwrap(), None);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        g.offers.rematch = Some(Side::South);
        save(&*store, &mut g, 0).await;
        assert_eq!(
            dated(&*store, g.id).await,
            aborted,
            "a change after the end"
        );
    });
}

#[test]
fn pages_follow_each_other_without_gaps_or_repeats() {
    on_both(|store| async move {
        let made = store
            .create((0..25).map(|_| game()).collect())
            .await
            .unwrap();
        let mut seen = Vec::new();
        let mut before = None;
        loop {
            let page = store.list(Some(me()), before, 10).await.unwrap();
            seen.extend(page.games.iter().map(|g| g.id));
            match page.next {
                Some(n) => before = parse_cursor(&n),
                None => break,
            }
        }
        let mut ids: Vec<i64> = made.iter().map(|g| g.id).collect();
        ids.reverse();
        assert_eq!(seen, ids);
        assert!(store.list(None, None, 10).await.unwrap().games.is_empty());
    });
}

/// The current game is the one going on with the latest move. A game's
/// date (by which lists order) moves at most once a minute while it goes
/// on, so that a move rewrites no index; its end dates it exactly.
#[test]
fn the_current_game_is_the_last_changed_going_on() {
    on_both(|store| async move {
        let now = awale_model::game::now_ms;
        let made_at = now();
        // Made at 1 s: the date more than a minute old moves to the time
        // of the writing.
        let made = store.create(vec![game(), game()]).await.unwrap();
        let first_date = dated(&*store, made[0].id).await;
        assert!(first_date >= made_at, "{first_date} {made_at}");
        let mut first = made[0].clone();
        sow(&mut first, 'F', now() + 5);
        save(&*store, &mut first, 0).await;
        assert_eq!(
            dated(&*store, first.id).await,
            first_date,
            "a move within the minute"
        );
        assert_eq!(store.current(Some(me())).await.unwrap(), Some(first.id));
        let mut second = made[1].clone();
        sow(&mut second, 'F', now() + 10);
        save(&*store, &mut second, 0).await;
        assert_eq!(store.current(Some(me())).await.unwrap(), Some(second.id));
        first.game.resign(Side::South).unwrap();
        let ended_at = now();
        save(&*store, &mut first, 1).await;
        assert!(
            dated(&*store, first.id).await >= ended_at,
            "the end dates exactly"
        );
        assert_eq!(store.current(Some(me())).await.unwrap(), Some(second.id));
        second.game.resign(Side::South).unwrap();
        save(&*store, &mut second, 1).await;
        assert_eq!(store.current(Some(me())).await.unwrap(), None);
    });
}

#[test]
fn a_finished_game_keeps_its_date_when_changed_after_its_end() {
    // Issue 42: deleting an account renamed its seats in every game and
    // wrote the deletion's time as each game's date.
    on_both(|store| async move {
        let mut g = stored(&*store).await;
        sow(&mut g, 'F', 2_000);
        save(&*store, &mut g, 0).await;
        g.game.resign(Side::North).unwrap();
        save(&*store, &mut g, 1).await;
        let id = g.id;
        let ended = dated(&*store, id).await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        g.seats.iter_mut().flatten().next().unwrap().name = String::new();
        save(&*store, &mut g, 1).await;
        assert_eq!(
            dated(&*store, id).await,
            ended,
            "a change after the end keeps the date"
        );
        assert_eq!(stored_name(&*store, id).await, "");
    });
}

async fn stored_name(store: &dyn GameStore, id: i64) -> String {
    let game = store.load(id).await.unwrap().unwrap();
    game.seats.iter().flatten().next().unwrap().name.clone()
}

#[test]
fn an_upload_sent_twice_is_stored_once() {
    on_both(|store| async move {
        let first = store
            .upload(me(), "key-1".into(), game())
            .await
            .unwrap()
            .unwrap();
        let again = store.upload(me(), "key-1".into(), game()).await.unwrap();
        assert_eq!(again.err(), Some(first.id));
        let other = store
            .upload(PlayerId("p2".into()), "key-1".into(), game())
            .await
            .unwrap();
        assert!(other.is_ok(), "another player's key is another upload");
    });
}

#[test]
fn a_seeks_rating_range_is_kept_and_listed_in_the_lobby() {
    on_both(|store| async move {
        let mut seek = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        seek.public = true;
        seek.rating_range = Some(200);
        seek.seats[0] = Some(Seat {
            player: PlayerId("p0".into()),
            name: "N0".into(),
        });
        let mut open = seek.clone();
        open.rating_range = None;
        let made = store.create(vec![seek, open]).await.unwrap();
        let loaded = store.load(made[0].id).await.unwrap().unwrap();
        assert_eq!(loaded.rating_range, Some(200));
        let loaded = store.load(made[1].id).await.unwrap().unwrap();
        assert_eq!(loaded.rating_range, None);
        let mut listed: Vec<(i64, Option<i64>)> = store
            .lobby(10)
            .await
            .unwrap()
            .iter()
            .map(|g| {
                assert_eq!(g.accounts, [false, false], "guests' seats");
                (g.id, g.rating_range)
            })
            .collect();
        listed.sort();
        assert_eq!(listed, vec![(made[0].id, Some(200)), (made[1].id, None)]);
    });
}

#[test]
fn the_lobby_lists_public_challenges_and_games_being_played() {
    on_both(|store| async move {
        let online = |public: bool, seats: usize| {
            let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
            g.public = public;
            for (i, seat) in g.seats.iter_mut().enumerate().take(seats) {
                *seat = Some(Seat {
                    player: PlayerId(format!("p{i}")),
                    name: format!("N{i}"),
                });
            }
            g
        };
        // The game being played is rated: the lobby says so.
        let mut rated = online(false, 2);
        rated.rated = true;
        let made = store
            .create(vec![online(true, 1), online(false, 1), rated])
            .await
            .unwrap();
        let mut listed: Vec<(i64, bool)> = store
            .lobby(10)
            .await
            .unwrap()
            .iter()
            .map(|g| (g.id, g.rated))
            .collect();
        listed.sort();
        assert_eq!(listed, vec![(made[0].id, false), (made[2].id, true)]);
        assert_eq!(
            store.open_challenges(PlayerId("p0".into())).await.unwrap(),
            2
        );
        let timed = store.timed_games_blocking().unwrap();
        assert_eq!(timed.len(), 3);
        // Games in play, newer than the challenge, never hide it: each kind
        // is counted apart.
        let playing = store
            .create(vec![online(false, 2), online(false, 2), online(false, 2)])
            .await
            .unwrap();
        let ids: Vec<i64> = store.lobby(2).await.unwrap().iter().map(|g| g.id).collect();
        assert!(
            ids.contains(&made[0].id),
            "the challenge is listed: {ids:?}"
        );
        assert_eq!(ids.len(), 3, "two of the games in play: {ids:?}");
        assert!(ids.contains(&playing[2].id) && ids.contains(&playing[1].id));
    });
}

#[test]
fn a_game_keeps_its_last_chat_messages_only() {
    on_both(|store| async move {
        let made = store.create(vec![game(), game()]).await.unwrap();
        let line = |text: String| ChatLine {
            id: 0,
            room: "public",
            at_ms: 0,
            side: Some('S'),
            name: "Cleo".into(),
            text,
            guest: None,
        };
        for i in 0..CHAT_KEPT + 20 {
            store
                .add_chat(made[0].id, line(format!("{i}")))
                .await
                .unwrap();
        }
        // A guest without a nickname keeps their number.
        store
            .add_chat(
                made[1].id,
                ChatLine {
                    name: String::new(),
                    guest: Some(7),
                    ..line("other".into())
                },
            )
            .await
            .unwrap();
        let kept = store.chat(made[0].id, 10_000).await.unwrap();
        assert_eq!(kept.len(), CHAT_KEPT);
        assert_eq!(kept[0].text, "20");
        assert_eq!(kept[0].side, Some('S'));
        let other = store.chat(made[1].id, 10).await.unwrap();
        assert_eq!((other.len(), other[0].guest), (1, Some(7)));
    });
}

#[test]
fn reviews_and_nicknames_are_kept() {
    on_both(|store| async move {
        let g = stored(&*store).await;
        assert!(store.review(g.id).await.unwrap().is_none());
        store.save_review(g.id, 3, "{}".into()).await.unwrap();
        store.save_review(g.id, 4, "[1]".into()).await.unwrap();
        assert_eq!(store.review(g.id).await.unwrap(), Some((4, "[1]".into())));
        assert!(store.player_name(me()).await.unwrap().is_none());
        store.set_player_name(me(), "Kofi".into(), 5).await.unwrap();
        assert_eq!(
            store.player_name(me()).await.unwrap().as_deref(),
            Some("Kofi")
        );
        let page = store.list(Some(me()), None, 1).await.unwrap();
        assert_eq!(page.games[0].names[0].as_deref(), Some("Kofi"));
    });
}

/// A guest's name written with the game it makes and with the seat it
/// takes (one transaction each: `create_named`, `save_seats`); a seat's
/// write leaves the moves as stored; in a shared store it is fenced like
/// any change, and a refused one stores no name either.
#[test]
fn a_guests_name_is_stored_with_its_new_game_and_with_its_seat() {
    on_both(|store| async move {
        let ama = Nickname {
            player: me(),
            name: "Ama".into(),
            now: 5,
        };
        let mut g = store
            .create_named(vec![game()], Some(ama))
            .await
            .unwrap()
            .remove(0);
        assert_eq!(
            store.player_name(me()).await.unwrap().as_deref(),
            Some("Ama")
        );
        for c in "Ff".chars() {
            sow(&mut g, c, 2_000);
        }
        save(&*store, &mut g, 0).await;
        g.seats[Side::North.index()] = Some(Seat {
            player: PlayerId("p2".into()),
            name: "Kofi".into(),
        });
        let kofi = Nickname {
            player: PlayerId("p2".into()),
            name: "Kofi".into(),
            now: 6,
        };
        store.save_seats(g.clone(), Some(kofi)).await.unwrap();
        let back = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.seats, g.seats);
        assert_eq!(back.game.plies(), g.game.plies());
        assert_eq!(
            store
                .player_name(PlayerId("p2".into()))
                .await
                .unwrap()
                .as_deref(),
            Some("Kofi")
        );
    });
    // Shared: a seat written over an older revision is refused, its name
    // with it.
    runtime().block_on(async {
        let store = postgres();
        let g = stored(&store).await;
        let mut old = g.clone();
        save(&store, &mut g.clone(), 0).await;
        old.seats[Side::North.index()] = Some(Seat {
            player: PlayerId("p3".into()),
            name: "Yaw".into(),
        });
        let yaw = Nickname {
            player: PlayerId("p3".into()),
            name: "Yaw".into(),
            now: 7,
        };
        match store.save_seats(old, Some(yaw)).await {
            Err(StoreError::Stale { id, stored }) => assert_eq!((id, stored), (g.id, 1)),
            other => panic!("a seat over an old revision was not refused: {other:?}"),
        }
        assert!(store
            .player_name(PlayerId("p3".into()))
            .await
            .unwrap()
            .is_none());
    });
}

#[test]
fn a_listed_game_has_its_rules_as_text_and_option_by_option() {
    on_both(|store| async move {
        let rules: Rules = "abapa,target=20".parse().unwrap();
        let mut made = WebGame::new(Mode::Humans, Game::new(rules), 1_000, 7);
        made.seat_maker(&me());
        store.create(vec![made]).await.unwrap();
        let page = store.list(Some(me()), None, 10).await.unwrap();
        let line = serde_json::to_value(&page.games[0]).unwrap();
        assert_eq!(line["rules"], "abapa,target=20");
        assert_eq!(line["rules_view"]["target"], 20);
        assert_eq!(line["rules_view"]["grand_slam"], "no_capture");
    });
}

#[test]
fn clocks_get_back_the_time_the_site_was_down() {
    on_both(|store| async move {
        let mut g = game();
        g.clock = Some(Clock::new(60_000, 0));
        g.turn_started_ms = 10_000;
        let g = store.create(vec![g]).await.unwrap().remove(0);
        store.alive(20_000).await.unwrap();
        assert_eq!(store.resume_clocks_blocking(25_000).unwrap(), 5_000);
        let back = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.turn_started_ms, 15_000);
    });
}

#[test]
fn games_over_days_keep_their_clock_and_each_player_finds_their_turns() {
    on_both(|store| async move {
        let (ama, kofi) = (PlayerId("ama".into()), PlayerId("kofi".into()));
        let online = |start: Option<&str>| {
            let game = match start {
                None => Game::new(Rules::AWALE),
                Some(d) => Game::from_position(Rules::AWALE, d.parse().unwrap()),
            };
            let mut g = WebGame::new(Mode::Online, game, 1_000, 7);
            g.seats = [
                Some(Seat {
                    player: ama.clone(),
                    name: "Ama".into(),
                }),
                Some(Seat {
                    player: kofi.clone(),
                    name: "Kofi".into(),
                }),
            ];
            g.clock = Some(Clock::days(3).unwrap());
            g
        };
        // A game where North moves first (a study's diagram), one from the
        // start, one finished, one waiting for its second player.
        let north_first = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N";
        let mut waiting = online(None);
        waiting.seats[1] = None;
        waiting.public = true;
        let mut over = online(None);
        over.resign(Side::South, awale_model::game::now_ms())
            .unwrap();
        let made = store
            .create(vec![online(None), online(Some(north_first)), over, waiting])
            .await
            .unwrap();
        let back = store.load(made[0].id).await.unwrap().unwrap();
        assert_eq!(
            back.clock,
            Some(Clock::days(3).unwrap()),
            "days per move kept"
        );
        let ids = |games: Vec<awale_model::lists::Summary>| {
            games.iter().map(|s| s.id).collect::<Vec<_>>()
        };
        assert_eq!(
            ids(store.turns(ama.clone(), 10).await.unwrap()),
            [made[0].id]
        );
        assert_eq!(
            ids(store.turns(kofi.clone(), 10).await.unwrap()),
            [made[1].id]
        );
        // Ama moves: the game is Kofi's turn, after his older one.
        let mut g = made[0].clone();
        sow(&mut g, 'C', 2_000);
        save(&*store, &mut g, 0).await;
        assert!(store.turns(ama.clone(), 10).await.unwrap().is_empty());
        assert_eq!(
            ids(store.turns(kofi.clone(), 10).await.unwrap()),
            [made[1].id, made[0].id]
        );
        assert_eq!(ids(store.turns(kofi, 1).await.unwrap()), [made[1].id]);
    });
}

fn new_account(name: &str, guest: Option<PlayerId>) -> NewAccount {
    NewAccount {
        username: name.into(),
        key: name.to_lowercase(),
        player: PlayerId(format!("acct-{name}")),
        password_hash: "$argon2id$x".into(),
        created_ms: 10,
        recovery: vec!["r1".into(), "r2".into()],
        session: (format!("s-{name}"), 1_000),
        guest,
        skeletons: Vec::new(),
    }
}

/// The account `store` makes for `name`, a name nobody has.
async fn signed_up(store: &dyn Stores, name: &str) -> Account {
    store
        .create_account(new_account(name, None))
        .await
        .unwrap()
        .expect("a new name")
}

#[test]
fn accounts_sessions_and_blocks_are_kept_by_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let g = stored(&*store).await;
        let ama = store
            .create_account(new_account("Ama", Some(me())))
            .await
            .unwrap()
            .expect("a new name");
        assert!(store
            .create_account(new_account("AMA", None))
            .await
            .unwrap()
            .is_none());
        // The guest's game is the account's now.
        let back = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.seats[0].as_ref().unwrap().player, ama.player);
        assert_eq!(
            store
                .session("s-Ama".into(), 500)
                .await
                .unwrap()
                .unwrap()
                .id,
            ama.id
        );
        assert!(store
            .session("s-Ama".into(), 2_000)
            .await
            .unwrap()
            .is_none());
        assert!(store
            .use_recovery_code(ama.id, "r1".into(), 5)
            .await
            .unwrap());
        assert!(!store
            .use_recovery_code(ama.id, "r1".into(), 6)
            .await
            .unwrap());
        assert_eq!(store.recovery_codes_left(ama.id).await.unwrap(), 1);
        let kofi = signed_up(&*store, "Kofi").await;
        store.block(ama.id, kofi.id, 7).await.unwrap();
        assert!(store
            .blocks(kofi.player.clone(), ama.player.clone())
            .await
            .unwrap());
        assert_eq!(
            store.blocked_by(ama.id).await.unwrap(),
            vec!["Kofi".to_string()]
        );
        store.set_kid(kofi.id, true).await.unwrap();
        assert!(store.account(kofi.id).await.unwrap().unwrap().kid);
        let report = store
            .add_report(NewReport {
                reporter: ama.id,
                reported: kofi.id,
                game: Some(g.id),
                reason: "chat".into(),
                text: "rude".into(),
                created_ms: 8,
            })
            .await
            .unwrap();
        assert!(store.resolve_report(report, ama.id, 9).await.unwrap());
        assert_eq!(store.reports(10).await.unwrap().len(), 1);
        store.delete_account(ama.id, 11).await.unwrap();
        let gone = store.load(g.id).await.unwrap().unwrap();
        assert_eq!(gone.seats[0].as_ref().unwrap().name, "");
        assert_eq!(store.end_sessions(kofi.id, None).await.unwrap(), 1);
    }
    on_both(check);
}

#[test]
fn bots_and_api_tokens_are_kept_by_both_stores_and_a_revoked_token_finds_nothing() {
    async fn check(store: Arc<dyn Stores>) {
        let ama = signed_up(&*store, "Ama").await;
        assert!(!ama.bot);
        store.set_bot(ama.id).await.unwrap();
        assert!(store.account(ama.id).await.unwrap().unwrap().bot);
        // Her seats are marked a bot's in the lobby and in the list of
        // games (the page marks her name BOT); a guest's are not.
        let mut offer = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        offer.public = true;
        offer.seats[1] = Some(Seat {
            player: ama.player.clone(),
            name: "Ama".into(),
        });
        let mut played = offer.clone();
        played.seats[0] = Some(Seat {
            player: PlayerId("a guest".into()),
            name: "Yaw".into(),
        });
        store.create(vec![offer, played]).await.unwrap();
        let lobby = store.lobby(10).await.unwrap();
        assert_eq!(lobby.len(), 2);
        for g in &lobby {
            assert_eq!(g.bots, [false, true], "{:?}", g.names);
        }
        let page = store
            .list(Some(ama.player.clone()), None, 10)
            .await
            .unwrap();
        assert_eq!(page.games.len(), 2);
        for g in &page.games {
            assert_eq!(g.bots, [false, true], "{:?}", g.names);
        }
        let token = |public_id: &str, digest: &str, at: i64| ApiToken {
            public_id: public_id.into(),
            account_id: ama.id,
            digest: digest.into(),
            name: "my engine".into(),
            scopes: "bot:play read".into(),
            created_ms: at,
            revoked_ms: None,
            used_ms: None,
        };
        store.add_token(token("t1", "d1", 10)).await.unwrap();
        store.add_token(token("t2", "d2", 20)).await.unwrap();
        let (found, owner) = store.token("d1".into()).await.unwrap().unwrap();
        assert_eq!(found, token("t1", "d1", 10));
        assert_eq!(owner.id, ama.id);
        assert!(owner.bot);
        assert!(store.token("nothing".into()).await.unwrap().is_none());
        let kofi = signed_up(&*store, "Kofi").await;
        // Only its owner revokes a token, once.
        assert!(!store.revoke_token(kofi.id, "t1".into(), 30).await.unwrap());
        assert!(store.revoke_token(ama.id, "t1".into(), 30).await.unwrap());
        assert!(!store.revoke_token(ama.id, "t1".into(), 31).await.unwrap());
        assert!(store.token("d1".into()).await.unwrap().is_none());
        let listed = store.tokens(ama.id).await.unwrap();
        assert_eq!(
            listed
                .iter()
                .map(|t| t.public_id.as_str())
                .collect::<Vec<_>>(),
            ["t2", "t1"]
        );
        assert_eq!(listed[1].revoked_ms, Some(30));
        assert!(store.tokens(kofi.id).await.unwrap().is_empty());
        // Its last use: written at most once a minute.
        let used = |store: Arc<dyn Stores>| async move {
            store.token("d2".into()).await.unwrap().unwrap().0.used_ms
        };
        assert_eq!(used(store.clone()).await, None, "never used");
        assert!(store.token_used("t2".into(), 100_000).await.unwrap());
        assert_eq!(used(store.clone()).await, Some(100_000));
        assert!(!store
            .token_used("t2".into(), 100_000 + TOKEN_USE_KEPT_MS - 1)
            .await
            .unwrap());
        assert_eq!(
            used(store.clone()).await,
            Some(100_000),
            "not within a minute"
        );
        assert!(store
            .token_used("t2".into(), 100_000 + TOKEN_USE_KEPT_MS)
            .await
            .unwrap());
        assert_eq!(
            store.tokens(ama.id).await.unwrap()[0].used_ms,
            Some(100_000 + TOKEN_USE_KEPT_MS),
            "the owner's list shows it"
        );
        assert!(!store.token_used("nothing".into(), 300_000).await.unwrap());
        // A closed account's tokens find nothing.
        store.close_account(ama.id, 40).await.unwrap();
        assert!(store.token("d2".into()).await.unwrap().is_none());
    }
    on_both(check);
}

/// The plain changes of accounts (each store writes them from one list of
/// statements): sessions, a new password, recovery codes, role, mute,
/// blocks, closing, a moderator's removal of a chat line.
#[test]
fn sessions_passwords_roles_and_blocks_change_alike_in_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let ama = store
            .create_account(new_account("Ama", None))
            .await
            .unwrap()
            .unwrap();
        store
            .add_session(ama.id, "s-two".into(), 20, 5_000)
            .await
            .unwrap();
        store
            .add_session(ama.id, "s-three".into(), 30, 5_000)
            .await
            .unwrap();
        store.end_session("s-three".into()).await.unwrap();
        assert!(store.session("s-three".into(), 40).await.unwrap().is_none());
        // A new password ends every session but the one kept.
        store
            .set_password(ama.id, "$argon2id$y".into(), Some("s-two".into()))
            .await
            .unwrap();
        assert!(store.session("s-Ama".into(), 500).await.unwrap().is_none());
        let kept = store.session("s-two".into(), 500).await.unwrap();
        assert_eq!(kept.expect("the kept session").password_hash, "$argon2id$y");
        store
            .set_recovery_codes(ama.id, vec!["n1".into(), "n2".into(), "n3".into()])
            .await
            .unwrap();
        assert_eq!(store.recovery_codes_left(ama.id).await.unwrap(), 3);
        assert!(!store
            .use_recovery_code(ama.id, "r1".into(), 50)
            .await
            .unwrap());
        store.set_role(ama.id, Role::Moderator).await.unwrap();
        store.set_muted(ama.id, true).await.unwrap();
        let back = store.account(ama.id).await.unwrap().unwrap();
        assert_eq!((back.role, back.muted), (Role::Moderator, true));
        let kofi = signed_up(&*store, "Kofi").await;
        store.block(ama.id, kofi.id, 60).await.unwrap();
        store.block(ama.id, kofi.id, 61).await.unwrap();
        assert_eq!(store.blocked_by(ama.id).await.unwrap().len(), 1);
        store.unblock(ama.id, kofi.id).await.unwrap();
        assert!(store.blocked_by(ama.id).await.unwrap().is_empty());
        store.close_account(kofi.id, 70).await.unwrap();
        assert!(store.session("s-Kofi".into(), 500).await.unwrap().is_none());
        let g = stored(&*store).await;
        let said = ChatLine {
            id: 0,
            room: "public",
            at_ms: 80,
            side: None,
            name: "Ama".into(),
            text: "hello".into(),
            guest: None,
        };
        let line = store.add_chat(g.id, said).await.unwrap();
        assert!(store.remove_chat_line(g.id, line.id).await.unwrap());
        assert!(!store.remove_chat_line(g.id, line.id).await.unwrap());
        assert!(store.chat(g.id, 10).await.unwrap().is_empty());
    }
    on_both(check);
}

/// The moderators' actions, made and logged in one transaction; a refund
/// of a rated game's points; the gains of a window; name skeletons.
#[test]
fn moderators_actions_refunds_and_skeletons_are_kept_by_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        use awale_model::account::{ModAction, NewModAction};
        use awale_model::rating::Speed;
        let ama = signed_up(&*store, "Ama").await;
        let kofi = signed_up(&*store, "Kofi").await;
        let yaa = signed_up(&*store, "Yaa").await;
        let act = |action, target: Option<i64>, at_ms| NewModAction {
            by: Some(ama.id),
            action,
            target,
            game: None,
            report: None,
            reason: format!("why {at_ms}"),
            at_ms,
        };
        assert!(store
            .moderate(act(ModAction::Close, Some(kofi.id), 100))
            .await
            .unwrap());
        assert!(store.session("s-Kofi".into(), 500).await.unwrap().is_none());
        // Closed already: nothing changes, nothing is logged.
        assert!(!store
            .moderate(act(ModAction::Close, Some(kofi.id), 101))
            .await
            .unwrap());
        assert!(store
            .moderate(act(ModAction::Reopen, Some(kofi.id), 102))
            .await
            .unwrap());
        assert!(store.account(kofi.id).await.unwrap().unwrap().is_open());
        assert!(store
            .moderate(act(ModAction::Mute, Some(kofi.id), 103))
            .await
            .unwrap());
        assert!(store.account(kofi.id).await.unwrap().unwrap().muted);
        assert!(store
            .moderate(act(ModAction::Unmute, Some(kofi.id), 104))
            .await
            .unwrap());
        assert!(!store.account(kofi.id).await.unwrap().unwrap().muted);
        // The command line's grant: nobody acts.
        let owner = NewModAction {
            by: None,
            ..act(ModAction::GrantAdmin, Some(ama.id), 105)
        };
        assert!(store.moderate(owner).await.unwrap());
        assert_eq!(
            store.account(ama.id).await.unwrap().unwrap().role,
            Role::Admin
        );
        assert!(store
            .moderate(act(ModAction::GrantModerator, Some(yaa.id), 106))
            .await
            .unwrap());
        assert!(store
            .moderate(act(ModAction::RevokeModerator, Some(yaa.id), 107))
            .await
            .unwrap());
        assert_eq!(
            store.account(yaa.id).await.unwrap().unwrap().role,
            Role::Player
        );
        let report = store
            .add_report(NewReport {
                reporter: yaa.id,
                reported: kofi.id,
                game: None,
                reason: "spam".into(),
                text: String::new(),
                created_ms: 50,
            })
            .await
            .unwrap();
        let dismiss = NewModAction {
            report: Some(report),
            ..act(ModAction::Dismiss, None, 108)
        };
        assert!(store.moderate(dismiss.clone()).await.unwrap());
        assert!(!store.moderate(dismiss).await.unwrap());
        assert_eq!(
            store.reports(10).await.unwrap()[0].resolved_by.as_deref(),
            Some("Ama")
        );
        // A rated game's points given back to both, once.
        let g = stored(&*store).await;
        let players = [kofi.player.clone(), yaa.player.clone()];
        store
            .rate_game(g.id, players.clone(), Speed::Blitz, Some(Side::South), 200)
            .await
            .unwrap();
        let gains = store.rating_gains(0, 1.0, 10).await.unwrap();
        assert_eq!(gains.len(), 1);
        assert_eq!(gains[0].username, "Kofi");
        assert_eq!(gains[0].games[0].game, g.public_id);
        assert_eq!(gains[0].games[0].opponent, "Yaa");
        assert_eq!(gains[0].games[0].points, gains[0].gain);
        let between = store
            .games_between(kofi.player.clone(), yaa.player.clone(), 0)
            .await
            .unwrap();
        assert_eq!(between.len(), 1);
        assert_eq!(
            store
                .rated_players(g.public_id.clone())
                .await
                .unwrap()
                .len(),
            2
        );
        let refund = act(ModAction::Refund, None, 300);
        assert!(store
            .refund_game(g.public_id.clone(), refund.clone())
            .await
            .unwrap());
        assert!(!store
            .refund_game(g.public_id.clone(), refund.clone())
            .await
            .unwrap());
        assert!(!store
            .refund_game("nosuchgame".into(), refund)
            .await
            .unwrap());
        for p in &players {
            let rating = store.ratings(p.clone()).await.unwrap()[0].glicko.rating;
            assert!((rating - 1500.0).abs() < 1e-9, "{rating}");
        }
        assert!(store.rating_gains(0, 1.0, 10).await.unwrap().is_empty());
        let between = store
            .games_between(kofi.player.clone(), yaa.player.clone(), 0)
            .await
            .unwrap();
        assert_eq!(between[0].refunded_ms, Some(300));
        // The log, newest first, with names and the game's public id.
        let log = store.mod_log(20).await.unwrap();
        let actions: Vec<ModAction> = log.iter().map(|a| a.action).collect();
        assert_eq!(
            actions,
            [
                ModAction::Refund,
                ModAction::Dismiss,
                ModAction::RevokeModerator,
                ModAction::GrantModerator,
                ModAction::GrantAdmin,
                ModAction::Unmute,
                ModAction::Mute,
                ModAction::Reopen,
                ModAction::Close,
            ]
        );
        assert_eq!(log[0].game.as_deref(), Some(g.public_id.as_str()));
        assert_eq!(log[1].report, Some(report));
        assert_eq!(log[4].by, None);
        assert_eq!(log[8].by.as_deref(), Some("Ama"));
        assert_eq!(log[8].target.as_deref(), Some("Kofi"));
        assert_eq!(log[8].reason, "why 100");
        // Name skeletons: one indexed lookup finds the look-alike.
        assert_eq!(store.accounts_without_skeletons(10).await.unwrap().len(), 3);
        store
            .set_skeletons(kofi.id, vec!["kofi".into(), "kofi".into()])
            .await
            .unwrap();
        assert_eq!(
            store
                .accounts_by_skeleton(vec!["kofi".into(), "other".into()])
                .await
                .unwrap(),
            ["Kofi"]
        );
        assert_eq!(store.accounts_without_skeletons(10).await.unwrap().len(), 2);
    }
    on_both(check);
}

#[test]
fn sightings_flagged_pairs_and_rated_pairs_are_kept_by_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        use awale_model::account::FlaggedPair;
        let (a, b, c) = (player(1), player(2), player(3));
        let home = "address:203.0.113.7".to_string();
        let phone = format!("device:{}", player(101).0);
        store
            .note_places(a.clone(), vec![home.clone(), phone.clone()], 100, 0, 16)
            .await
            .unwrap();
        store
            .note_places(b.clone(), vec![home.clone()], 150, 0, 16)
            .await
            .unwrap();
        // Seen again: its time moves, no second row.
        store
            .note_places(a.clone(), vec![home.clone()], 200, 0, 16)
            .await
            .unwrap();
        assert_eq!(
            store.places(a.clone(), 0).await.unwrap(),
            [home.clone(), phone.clone()]
        );
        assert_eq!(
            store.places(a.clone(), 150).await.unwrap(),
            vec![home.clone()]
        );
        assert!(store.places(c.clone(), 0).await.unwrap().is_empty());
        // An account keeps its newest places only; the stale are forgotten.
        let many: Vec<String> = (0..5).map(|i| format!("address:10.0.0.{i}")).collect();
        store
            .note_places(c.clone(), many[..3].to_vec(), 300, 0, 2)
            .await
            .unwrap();
        store
            .note_places(c.clone(), many[3..].to_vec(), 400, 0, 2)
            .await
            .unwrap();
        assert_eq!(store.places(c.clone(), 0).await.unwrap(), many[3..]);
        store
            .note_places(c.clone(), vec![], 500, 160, 16)
            .await
            .unwrap();
        assert_eq!(
            store.places(a.clone(), 0).await.unwrap(),
            vec![home.clone()]
        );
        assert!(store.places(b.clone(), 0).await.unwrap().is_empty());

        // One record a pair, whichever sat South; the newest first.
        let flag = |south: &PlayerId, north: &PlayerId, at_ms, address, device| FlaggedPair {
            names: [
                format!("n{}", &south.0[62..]),
                format!("n{}", &north.0[62..]),
            ],
            players: [south.clone(), north.clone()],
            at_ms,
            address,
            device,
            times: 0,
        };
        store
            .flag_pair(flag(&b, &a, 10, true, false))
            .await
            .unwrap();
        store
            .flag_pair(flag(&a, &c, 20, false, true))
            .await
            .unwrap();
        store
            .flag_pair(flag(&a, &b, 30, false, true))
            .await
            .unwrap();
        let flagged = store.flagged_pairs(10).await.unwrap();
        assert_eq!(flagged.len(), 2);
        assert_eq!(
            flagged[0],
            FlaggedPair {
                names: ["n01".into(), "n02".into()],
                players: [a.clone(), b.clone()],
                at_ms: 30,
                address: true,
                device: true,
                times: 2,
            }
        );
        assert_eq!((flagged[1].at_ms, flagged[1].times), (20, 1));
        assert_eq!(store.flagged_pairs(1).await.unwrap().len(), 1);

        // A pair's rated games against its limit, all or none.
        let ab = [a.clone(), b.clone()];
        let ba = [b.clone(), a.clone()];
        assert_eq!(
            store
                .take_rated_pairs(vec![ab.clone(), ba.clone()], 0, 1_000, 3)
                .await
                .unwrap(),
            None
        );
        let ac = [a.clone(), c.clone()];
        assert_eq!(
            store
                .take_rated_pairs(vec![ac.clone(), ba.clone(), ab.clone()], 0, 1_100, 3)
                .await
                .unwrap(),
            Some(2),
            "two begun, two more asked"
        );
        assert_eq!(
            store
                .take_rated_pairs(vec![ba.clone()], 0, 1_200, 3)
                .await
                .unwrap(),
            None,
            "the refused batch took nothing, not even a-c's"
        );
        assert_eq!(
            store
                .take_rated_pairs(vec![ab.clone()], 0, 1_300, 3)
                .await
                .unwrap(),
            Some(3)
        );
        assert_eq!(
            store
                .take_rated_pairs(vec![ac.clone(); 3], 0, 1_300, 3)
                .await
                .unwrap(),
            None
        );
        // Past the window the pair's games are forgotten.
        assert_eq!(
            store
                .take_rated_pairs(vec![ab.clone()], 1_200, 1_400, 3)
                .await
                .unwrap(),
            None
        );
    }
    on_both(check);
}

#[test]
fn direct_challenges_are_kept_and_settled_once_by_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let ama = PlayerId("ama".into());
        let kofi = PlayerId("kofi".into());
        let yaw = PlayerId("yaw".into());
        let challenge = |from: &PlayerId, to: &PlayerId, at: i64| Challenge {
            id: 0,
            from: from.clone(),
            from_name: from.0.clone(),
            to: to.clone(),
            to_name: to.0.clone(),
            clock: Some((180_000, 2_000)),
            rated: true,
            colour: 'N',
            created_ms: at,
            state: "ignored".into(),
            game: Some("ignored".into()),
            settled_ms: Some(1),
        };
        let first = store
            .add_challenge(challenge(&ama, &kofi, 10))
            .await
            .unwrap();
        let second = store
            .add_challenge(challenge(&yaw, &ama, 20))
            .await
            .unwrap();
        let untimed = Challenge {
            clock: None,
            rated: false,
            colour: 'R',
            ..challenge(&kofi, &yaw, 30)
        };
        let third = store.add_challenge(untimed).await.unwrap();
        let back = store.challenge(first).await.unwrap().unwrap();
        assert_eq!(
            back,
            Challenge {
                id: first,
                state: "open".into(),
                game: None,
                settled_ms: None,
                ..challenge(&ama, &kofi, 10)
            }
        );
        let back = store.challenge(third).await.unwrap().unwrap();
        assert_eq!((back.clock, back.rated, back.colour), (None, false, 'R'));
        assert!(store.challenge(third + 100).await.unwrap().is_none());
        // Ama's: the one she made and the one she was sent, newest first.
        let listed = async |who: &PlayerId, since_ms: i64, limit: usize| {
            let list = store.challenges(who.clone(), since_ms, limit).await;
            list.unwrap().iter().map(|c| c.id).collect::<Vec<_>>()
        };
        assert_eq!(listed(&ama, 0, 10).await, [second, first]);
        assert_eq!(listed(&ama, 0, 1).await, [second]);
        // Settled once: accepted with its game; a second settling changes nothing.
        let settle = async |id: i64, state: &'static str, game: Option<&str>, now: i64| {
            let game = game.map(String::from);
            store.settle_challenge(id, state, game, now).await.unwrap()
        };
        assert!(settle(first, "accepted", Some("G4me"), 100).await);
        assert!(!settle(first, "withdrawn", None, 200).await);
        assert!(!settle(third + 100, "declined", None, 200).await);
        let back = store.challenge(first).await.unwrap().unwrap();
        assert_eq!(
            (back.state.as_str(), back.game.as_deref(), back.settled_ms),
            ("accepted", Some("G4me"), Some(100))
        );
        assert!(settle(second, "declined", None, 300).await);
        // Settled ones are listed only when settled since the time asked.
        assert_eq!(listed(&ama, 100, 10).await, [second, first]);
        assert_eq!(listed(&ama, 101, 10).await, [second]);
        assert!(listed(&ama, 301, 10).await.is_empty());
        assert_eq!(listed(&yaw, 1_000, 10).await, [third]);
    }
    on_both(check);
}

/// A line of a tournament's chat, said by `player` as `name`.
fn said(player: PlayerId, name: &str, text: &str, at_ms: i64) -> TournamentChatLine {
    TournamentChatLine {
        line: ChatLine {
            id: 0,
            room: "public",
            at_ms,
            side: None,
            name: name.into(),
            text: text.into(),
            guest: (name.is_empty()).then_some(4821),
        },
        player,
    }
}

#[test]
fn a_tournaments_chat_is_kept_by_both_stores_its_last_lines_only() {
    async fn check(store: Arc<dyn Stores>) {
        let row = |name: &str| TournamentRow {
            id: 0,
            kind: "arena".into(),
            name: name.into(),
            clock: (60_000, 0),
            rated: false,
            minutes: 30,
            starts_ms: 0,
            ends_ms: 1_800_000,
            creator: me(),
            state: "started".into(),
            created_ms: 0,
            rounds: 0,
            current_round: 0,
            manual_rounds: false,
            bots_allowed: false,
        };
        let one = store.create_tournament(row("one")).await.unwrap().id;
        let two = store.create_tournament(row("two")).await.unwrap().id;
        let first = store
            .add_tournament_chat(one, said(me(), "Ama", "bonne chance", 5))
            .await
            .unwrap();
        assert!(first.line.id > 0);
        let guest = store
            .add_tournament_chat(one, said(PlayerId("g".into()), "", "hello", 6))
            .await
            .unwrap();
        store
            .add_tournament_chat(two, said(me(), "Ama", "ailleurs", 7))
            .await
            .unwrap();
        let lines = store.tournament_chat(one, 10).await.unwrap();
        let shown: Vec<_> = lines
            .iter()
            .map(|l| (l.line.text.as_str(), l.line.guest, l.player.0.as_str()))
            .collect();
        assert_eq!(
            shown,
            [("bonne chance", None, "p1"), ("hello", Some(4821), "g")]
        );
        assert_eq!(lines[0].line.room, "public");
        // A moderator's removal: once.
        assert!(store
            .remove_tournament_chat_line(one, guest.line.id)
            .await
            .unwrap());
        assert!(!store
            .remove_tournament_chat_line(one, guest.line.id)
            .await
            .unwrap());
        assert!(!store
            .remove_tournament_chat_line(two, first.line.id)
            .await
            .unwrap());
        assert_eq!(store.tournament_chat(one, 10).await.unwrap().len(), 1);
        // Only the last lines are kept.
        for i in 0..CHAT_KEPT + 3 {
            store
                .add_tournament_chat(two, said(me(), "Ama", &format!("{i}"), 8))
                .await
                .unwrap();
        }
        let kept = store.tournament_chat(two, 10_000).await.unwrap();
        assert_eq!(kept.len(), CHAT_KEPT);
        assert_eq!(kept.last().unwrap().line.text, format!("{}", CHAT_KEPT + 2));
        let last_two = store.tournament_chat(two, 2).await.unwrap();
        assert_eq!(last_two[1].line.text, format!("{}", CHAT_KEPT + 2));
    }
    on_both(check);
}

/// Mistake `ply` of game `game`, kept for `player`.
fn mistake(player: &PlayerId, game: &str, ply: i64) -> MistakeRow {
    MistakeRow {
        id: 0,
        player: player.clone(),
        game: game.into(),
        ply,
        rules: "awale".into(),
        position: "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S".into(),
        played: "E".into(),
        best: "F".into(),
        solved: 0,
        tries: 0,
        created_ms: 10,
        due_ms: 10 + ply,
    }
}

#[test]
fn a_players_mistakes_are_kept_once_each_their_tries_counted_by_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let other = PlayerId("p2".into());
        store
            .add_mistakes(vec![mistake(&me(), "g1", 4), mistake(&me(), "g1", 2)])
            .await
            .unwrap();
        // The same mistake again (a review asked twice) is kept once, as
        // it was; another player's is theirs.
        let mut again = mistake(&me(), "g1", 4);
        again.best = "A".into();
        store
            .add_mistakes(vec![again, mistake(&other, "g1", 4)])
            .await
            .unwrap();
        let mine = store.mistakes(me(), 10).await.unwrap();
        assert_eq!(
            mine.iter().map(|m| m.ply).collect::<Vec<_>>(),
            [2, 4],
            "soonest due first"
        );
        assert!(mine.iter().all(|m| m.best == "F" && m.player == me()));
        let first = mine[0].clone();
        assert_eq!(
            store.mistake(me(), first.id).await.unwrap(),
            Some(first.clone())
        );
        // Not theirs: neither read nor tried.
        assert_eq!(store.mistake(other.clone(), first.id).await.unwrap(), None);
        assert_eq!(
            store
                .mistake_tried(other.clone(), first.id, true, 99)
                .await
                .unwrap(),
            None
        );
        let tried = store
            .mistake_tried(me(), first.id, false, 50)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((tried.solved, tried.tries, tried.due_ms), (0, 1, 50));
        let tried = store
            .mistake_tried(me(), first.id, true, 70)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((tried.solved, tried.tries, tried.due_ms), (1, 2, 70));
        assert_eq!(store.mistakes(me(), 1).await.unwrap()[0].ply, 4);
        assert_eq!(store.mistakes(other, 10).await.unwrap().len(), 1);
        // A guest's mistakes go with them to their new account.
        let guest = PlayerId("guest-with-mistakes".into());
        store
            .add_mistakes(vec![mistake(&guest, "g2", 1)])
            .await
            .unwrap();
        let mut new = new_account("Adjoa", Some(guest.clone()));
        new.player = PlayerId("adjoa-player".into());
        store.create_account(new).await.unwrap().unwrap();
        assert!(store.mistakes(guest, 10).await.unwrap().is_empty());
        let moved = store
            .mistakes(PlayerId("adjoa-player".into()), 10)
            .await
            .unwrap();
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0].game, "g2");
    }
    on_both(check);
}

/// A try of puzzle `position` by `player`, solved or not, in a streak or
/// not.
fn attempt(player: &PlayerId, position: &str, solved: bool, streak: bool) -> Attempt {
    Attempt {
        player: player.clone(),
        position: position.into(),
        solved,
        at_ms: 100,
        streak,
        solver_start: Glicko::example(1500.0, 350.0),
        puzzle_start: Glicko::example(1300.0, 350.0),
    }
}

/// A stand-in for the service's rule: a solve takes 10 points from the
/// puzzle to the solver, a miss the other way.
fn ten_points(solver: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, Glicko) {
    let d = if solved { 10.0 } else { -10.0 };
    (
        Glicko::example(solver.rating + d, solver.deviation),
        Glicko::example(puzzle.rating - d, puzzle.deviation),
    )
}

#[test]
fn a_first_try_of_a_puzzle_rates_solver_and_puzzle_once_and_streaks_count_in_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let other = PlayerId("p2".into());
        assert_eq!(store.puzzle_solver(me()).await.unwrap(), None);
        // A first try: both rated from where they start.
        let rated = store
            .rate_attempt(attempt(&me(), "P1", true, false), ten_points)
            .await
            .unwrap();
        assert!(rated.first);
        assert_eq!(rated.before.rating, 1500.0);
        assert_eq!(rated.solver.rating.rating, 1510.0);
        assert_eq!((rated.solver.attempts, rated.solver.solved), (1, 1));
        assert_eq!(rated.puzzle.rating.rating, 1290.0);
        // A second try of the same puzzle changes nothing.
        let again = store
            .rate_attempt(attempt(&me(), "P1", false, false), ten_points)
            .await
            .unwrap();
        assert!(!again.first);
        assert_eq!(again.solver.rating.rating, 1510.0);
        assert_eq!(again.puzzle.rating.rating, 1290.0);
        // Another solver meets the puzzle as it is now.
        let theirs = store
            .rate_attempt(attempt(&other, "P1", false, false), ten_points)
            .await
            .unwrap();
        assert_eq!(theirs.puzzle.rating.rating, 1300.0);
        assert_eq!(theirs.solver.rating.rating, 1490.0);
        let ratings = store
            .puzzle_ratings(vec!["P1".into(), "never tried".into()])
            .await
            .unwrap();
        assert_eq!(ratings.len(), 1);
        assert_eq!((ratings[0].attempts, ratings[0].solved), (2, 1));
        assert_eq!(
            store
                .puzzles_tried(me(), vec!["P1".into(), "P2".into()])
                .await
                .unwrap(),
            ["P1"]
        );
        // A streak: first tries solved count, a miss ends it, the best is
        // kept.
        store
            .start_streak(me(), Glicko::example(1500.0, 350.0), 50)
            .await
            .unwrap();
        for p in ["S1", "S2", "S3"] {
            store
                .rate_attempt(attempt(&me(), p, true, true), ten_points)
                .await
                .unwrap();
        }
        // Solved again: not a first try, not counted.
        let mine = store
            .rate_attempt(attempt(&me(), "S3", true, true), ten_points)
            .await
            .unwrap();
        assert_eq!((mine.solver.streak, mine.solver.best_streak), (3, 3));
        let missed = store
            .rate_attempt(attempt(&me(), "S4", false, true), ten_points)
            .await
            .unwrap();
        assert_eq!((missed.solver.streak, missed.solver.best_streak), (0, 3));
        let restarted = store
            .start_streak(me(), Glicko::example(1500.0, 350.0), 60)
            .await
            .unwrap();
        assert_eq!((restarted.streak, restarted.best_streak), (0, 3));
        assert_eq!(
            store.puzzle_solver(me()).await.unwrap().unwrap().attempts,
            5
        );
        // A guest's puzzle rating goes with them to their new account.
        let guest = PlayerId("guest-with-puzzles".into());
        store
            .rate_attempt(attempt(&guest, "P1", true, false), ten_points)
            .await
            .unwrap();
        let mut new = new_account("Kofi", Some(guest.clone()));
        new.player = PlayerId("kofi-player".into());
        store.create_account(new).await.unwrap().unwrap();
        assert_eq!(store.puzzle_solver(guest.clone()).await.unwrap(), None);
        let moved = store
            .puzzle_solver(PlayerId("kofi-player".into()))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(moved.attempts, 1);
        // Their first tries went with them: P1 again is not rated.
        let later = store
            .rate_attempt(
                attempt(&PlayerId("kofi-player".into()), "P1", true, false),
                ten_points,
            )
            .await
            .unwrap();
        assert!(!later.first);
    }
    on_both(check);
}

/// A finished game of `rules` whose moves are `line`, ended by `end`
/// (a side's resignation, or a draw agreed when None), stored.
async fn finished(store: &dyn GameStore, rules: Rules, line: &str, end: Option<Side>) {
    let mut g = WebGame::new(Mode::Humans, Game::new(rules), 1_000, 7);
    g.seat_maker(&me());
    let mut g = store.create(vec![g]).await.unwrap().remove(0);
    for c in line.chars() {
        sow(&mut g, c, 2_000);
    }
    match end {
        Some(side) => g.game.resign(side).unwrap(),
        None => g.stop = Some(Stop::Agreed),
    }
    save(store, &mut g, 0).await;
}

#[test]
fn the_explorer_counts_the_finished_games_of_a_line_by_their_next_move_in_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        finished(&*store, Rules::AWALE, "FfAa", Some(Side::South)).await;
        finished(&*store, Rules::AWALE, "FfB", Some(Side::North)).await;
        finished(&*store, Rules::AWALE, "Fe", None).await;
        finished(&*store, Rules::AWALE, "F", Some(Side::South)).await;
        finished(&*store, Rules::AWALE, "Ae", Some(Side::South)).await;
        // Not counted: other rules, a game going on.
        finished(&*store, Rules::ABAPA, "Ff", Some(Side::South)).await;
        let mut going = stored(&*store).await;
        sow(&mut going, 'F', 2_000);
        sow(&mut going, 'f', 2_000);
        save(&*store, &mut going, 0).await;
        let start = Game::new(Rules::AWALE).start().to_string();
        let count = |line: &str| {
            let store = store.clone();
            let (start, line) = (start.clone(), line.to_string());
            async move {
                store
                    .opening_moves("awale".into(), start, line, OpeningFilter::default())
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|m| (m.letter, m.games, m.south_wins, m.north_wins, m.draws))
                    .collect::<Vec<_>>()
            }
        };
        let row = |l: &str, games, south, north, draws| (l.to_string(), games, south, north, draws);
        assert_eq!(
            count("").await,
            [row("F", 4, 1, 2, 1), row("A", 1, 0, 1, 0)],
            "at the start"
        );
        assert_eq!(
            count("F").await,
            [row("f", 2, 1, 1, 0), row("e", 1, 0, 0, 1)]
        );
        assert_eq!(
            count("Ff").await,
            [row("A", 1, 0, 1, 0), row("B", 1, 1, 0, 0)]
        );
        assert!(count("FfAa").await.is_empty(), "the game ended there");
        assert!(count("Fa").await.is_empty());
    }
    on_both(check);
}

#[test]
fn the_explorer_filters_by_speed_and_by_the_players_mean_rating_in_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        // An online blitz game, rated (both players at 1500 before it);
        // an online game of days, casual; a game on one screen.
        let mut blitz = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        blitz.clock = Some(Clock {
            initial_ms: 180_000,
            increment_ms: 2_000,
            remaining_ms: [180_000, 180_000],
            per_move: false,
        });
        blitz.seat_maker(&me());
        let mut blitz = store.create(vec![blitz]).await.unwrap().remove(0);
        // Played as the rules allow (an online game's seats are not the
        // point here).
        blitz.game.play(Move::from_letter('F').unwrap()).unwrap();
        blitz.game.resign(Side::North).unwrap();
        save(&*store, &mut blitz, 0).await;
        store
            .rate_game(
                blitz.id,
                [me(), PlayerId("p2".into())],
                awale_model::rating::Speed::Blitz,
                Some(Side::South),
                3_000,
            )
            .await
            .unwrap();
        let mut days = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        days.seat_maker(&me());
        let mut days = store.create(vec![days]).await.unwrap().remove(0);
        days.game.play(Move::from_letter('A').unwrap()).unwrap();
        days.game.resign(Side::South).unwrap();
        save(&*store, &mut days, 0).await;
        finished(&*store, Rules::AWALE, "E", Some(Side::South)).await;
        let start = Game::new(Rules::AWALE).start().to_string();
        let count = |filter: OpeningFilter| {
            let store = store.clone();
            let start = start.clone();
            async move {
                store
                    .opening_moves("awale".into(), start, String::new(), filter)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|m| (m.letter, m.games, m.average_rating))
                    .collect::<Vec<_>>()
            }
        };
        let row = |l: &str, games, rating| (l.to_string(), games, rating);
        assert_eq!(
            count(OpeningFilter::default()).await,
            [
                row("A", 1, None),
                row("E", 1, None),
                row("F", 1, Some(1500.0))
            ]
        );
        let speed = |s: &str| OpeningFilter {
            speed: Some(s.into()),
            ..OpeningFilter::default()
        };
        assert_eq!(count(speed("blitz")).await, [row("F", 1, Some(1500.0))]);
        assert_eq!(count(speed("correspondence")).await, [row("A", 1, None)]);
        assert!(count(speed("bullet")).await.is_empty());
        let band = |min: Option<f64>, max: Option<f64>| OpeningFilter {
            min_rating: min,
            max_rating: max,
            ..OpeningFilter::default()
        };
        assert_eq!(
            count(band(Some(1400.0), Some(1600.0))).await,
            [row("F", 1, Some(1500.0))],
            "rated games only"
        );
        assert!(count(band(Some(1600.0), None)).await.is_empty());
        assert!(
            count(band(None, Some(1500.0))).await.is_empty(),
            "the top excluded"
        );
    }
    on_both(check);
}

#[test]
fn a_players_reviewed_online_games_are_read_with_their_speed_and_side_in_both_stores() {
    async fn check(store: Arc<dyn Stores>) {
        let other = PlayerId("p2".into());
        let mut online = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        online.seat_maker(&me());
        // Both seats taken: the maker South, the other North.
        online.seats = [
            Some(Seat {
                player: me(),
                name: "Ama".into(),
            }),
            Some(Seat {
                player: other.clone(),
                name: "Kwame".into(),
            }),
        ];
        let (mine_side, theirs) = ('S', 'N');
        let mut online = store.create(vec![online]).await.unwrap().remove(0);
        online.game.play(Move::from_letter('F').unwrap()).unwrap();
        online.game.resign(Side::North).unwrap();
        save(&*store, &mut online, 0).await;
        store
            .save_review(online.id, 1, "{\"accuracy\": []}".into())
            .await
            .unwrap();
        // A game on one screen, reviewed: not an online game, not read.
        let mut humans = stored(&*store).await;
        sow(&mut humans, 'F', 2_000);
        save(&*store, &mut humans, 0).await;
        store.save_review(humans.id, 1, "{}".into()).await.unwrap();
        let mine = store.player_reviews(me(), 10).await.unwrap();
        assert_eq!(mine.len(), 1, "{mine:?}");
        assert_eq!(
            (mine[0].speed.as_str(), mine[0].side, mine[0].body.as_str()),
            ("correspondence", mine_side, "{\"accuracy\": []}")
        );
        assert_eq!(
            store.player_reviews(other, 10).await.unwrap()[0].side,
            theirs
        );
        assert!(store.player_reviews(me(), 0).await.unwrap().is_empty());
    }
    on_both(check);
}

// ------------------------------------------------- a shared store only --

#[test]
fn of_two_processes_racing_for_one_ply_the_second_is_stale() {
    runtime().block_on(async {
        let (one, two) = two_processes();
        let g = stored(&one).await;
        let mut a = one.load(g.id).await.unwrap().unwrap();
        let mut b = two.load(g.id).await.unwrap().unwrap();
        sow(&mut a, 'F', 2_000);
        sow(&mut b, 'E', 2_000);
        one.save(a.clone(), 0).await.unwrap();
        match two.save(b.clone(), 0).await {
            Err(StoreError::Stale { id, stored }) => {
                assert_eq!((id, stored), (g.id, 1));
            }
            other => panic!("the second change was not refused: {other:?}"),
        }
        // The refused change left the game as the first made it.
        let back = two.load(g.id).await.unwrap().unwrap();
        assert_eq!(back.game.plies()[0].mv, Move::from_letter('F').unwrap());
        assert_eq!(back.game.plies().len(), 1);
        assert_eq!(back.revision, 1);
        // Read again, the second process changes the new revision.
        let mut b = back;
        sow(&mut b, 'f', 3_000);
        two.save(b, 1).await.unwrap();
        assert_eq!(one.load(g.id).await.unwrap().unwrap().game.plies().len(), 2);
    });
}

#[test]
fn a_failed_change_leaves_the_game_as_it_was() {
    runtime().block_on(async {
        let store = postgres();
        let g = stored(&store).await;
        let mut bad = g.clone();
        sow(&mut bad, 'F', 2_000);
        // A name no column takes (longer than nothing refuses; a NUL does).
        bad.seats[0].as_mut().unwrap().name = "A\0B".into();
        assert!(store.save(bad, 0).await.is_err());
        let back = store.load(g.id).await.unwrap().unwrap();
        assert!(back.game.plies().is_empty());
        assert_eq!(back.revision, 0);
    });
}

/// The changes heard on `heard` within half a second of quiet: their
/// games' ids.
async fn changes_heard(heard: &mut tokio::sync::broadcast::Receiver<Notice>) -> Vec<i64> {
    let mut ids = Vec::new();
    let quiet = std::time::Duration::from_millis(500);
    while let Ok(Ok(notice)) = tokio::time::timeout(quiet, heard.recv()).await {
        if let Notice::Game {
            id,
            change: Some(_),
            ..
        } = notice
        {
            ids.push(id);
        }
    }
    ids.sort_unstable();
    ids
}

#[test]
fn changes_saved_at_once_share_transactions_each_with_its_own_answer() {
    runtime().block_on(async {
        let (one, two) = two_processes();
        let mut heard = two.notices().unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let mut games = Vec::new();
        for _ in 0..40 {
            let mut g = stored(&one).await;
            sow(&mut g, 'F', 2_000);
            games.push(g);
        }
        changes_heard(&mut heard).await;

        // Thirty moves of thirty games saved at once: a few transactions,
        // each move stored and announced once.
        let before = one.transactions().writes;
        let saves = games[..30].iter().map(|g| one.save(g.clone(), 0));
        for answer in futures_util::future::join_all(saves).await {
            answer.unwrap();
        }
        let writes = one.transactions().writes - before;
        assert!(writes <= 8, "{writes} transactions for 30 moves");
        let mut ids: Vec<i64> = games[..30].iter().map(|g| g.id).collect();
        ids.sort_unstable();
        assert_eq!(changes_heard(&mut heard).await, ids);
        for g in &games[..30] {
            let back = two.load(g.id).await.unwrap().unwrap();
            assert_eq!((back.revision, back.game.plies().len()), (1, 1));
        }

        // Ten more at once, one of them over a revision another process
        // changed meanwhile, one that no column takes (a NUL in a name):
        // each its own answer, the eight others stored and announced.
        let (stale, bad) = (games[31].clone(), 35);
        let mut theirs = two.load(stale.id).await.unwrap().unwrap();
        sow(&mut theirs, 'E', 2_500);
        two.save(theirs, 0).await.unwrap();
        let _ = changes_heard(&mut heard).await;
        games[bad].seats[0].as_mut().unwrap().name = "A\0B".into();
        let saves = games[30..].iter().map(|g| one.save(g.clone(), 0));
        let answers = futures_util::future::join_all(saves).await;
        let mut stored_ids = Vec::new();
        for (g, answer) in games[30..].iter().zip(answers) {
            match answer {
                Err(StoreError::Stale { id, stored }) => {
                    assert_eq!((id, stored), (stale.id, 1));
                }
                Err(e) => assert_eq!(g.id, games[bad].id, "{e}"),
                Ok(()) => {
                    assert!(g.id != stale.id && g.id != games[bad].id);
                    stored_ids.push(g.id);
                }
            }
        }
        assert_eq!(stored_ids.len(), 8);
        stored_ids.sort_unstable();
        assert_eq!(changes_heard(&mut heard).await, stored_ids);
        let kept = two.load(stale.id).await.unwrap().unwrap();
        assert_eq!(kept.game.plies()[0].mv, Move::from_letter('E').unwrap());
        let untouched = two.load(games[bad].id).await.unwrap().unwrap();
        assert_eq!((untouched.revision, untouched.game.plies().len()), (0, 0));
    });
}

/// Seats taken at once, beside moves of other games, share transactions
/// too, each with its own answer: a seat over an old revision is refused
/// with its name, the others stored with theirs and announced.
#[test]
fn seats_taken_at_once_share_transactions_with_moves_each_with_its_own_answer() {
    runtime().block_on(async {
        let (one, two) = two_processes();
        let mut heard = two.notices().unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let mut games = Vec::new();
        for _ in 0..36 {
            games.push(stored(&one).await);
        }
        let _ = games_heard(&mut heard).await;
        let joiner = |i: usize| PlayerId(format!("seated{i}"));
        let seat = |i: usize| {
            let mut g = games[i].clone();
            g.seats[Side::North.index()] = Some(Seat {
                player: joiner(i),
                name: format!("Joueur {i}"),
            });
            let name = Nickname {
                player: joiner(i),
                name: format!("Joueur {i}"),
                now: 9,
            };
            one.save_seats(g, Some(name))
        };

        // Twenty seats and ten moves at once: a few transactions.
        let before = one.transactions().writes;
        let moves = games[20..30].iter().map(|g| {
            let mut g = g.clone();
            sow(&mut g, 'F', 2_000);
            one.save(g, 0)
        });
        let (seated, moved) = futures_util::future::join(
            futures_util::future::join_all((0..20).map(seat)),
            futures_util::future::join_all(moves),
        )
        .await;
        let writes = one.transactions().writes - before;
        assert!(
            writes <= 8,
            "{writes} transactions for 20 seats and 10 moves"
        );
        seated.into_iter().chain(moved).for_each(|a| a.unwrap());
        assert_eq!(
            games_heard(&mut heard).await,
            games[..30].iter().map(|g| g.id).collect::<Vec<_>>()
        );

        // Six more at once, one over a revision the other process changed
        // meanwhile: refused, and its name with it; the others stored.
        let stale = games[33].clone();
        let mut theirs = two.load(stale.id).await.unwrap().unwrap();
        sow(&mut theirs, 'E', 2_500);
        two.save(theirs, 0).await.unwrap();
        let _ = games_heard(&mut heard).await;
        let answers = futures_util::future::join_all((30..36).map(seat)).await;
        for (i, answer) in (30..36).zip(answers) {
            let name = one.player_name(joiner(i)).await.unwrap();
            if i == 33 {
                match answer {
                    Err(StoreError::Stale { id, stored }) => {
                        assert_eq!((id, stored), (stale.id, 1))
                    }
                    other => panic!("a seat over an old revision was not refused: {other:?}"),
                }
                assert!(name.is_none(), "a refused seat's name was stored");
                continue;
            }
            answer.unwrap();
            assert_eq!(name.as_deref(), Some(format!("Joueur {i}").as_str()));
        }
        for i in (0..20).chain([30, 31, 32, 34, 35]) {
            let back = two.load(games[i].id).await.unwrap().unwrap();
            assert_eq!(back.revision, 1);
            let north = back.seats[Side::North.index()].as_ref().unwrap();
            assert_eq!(north.player, joiner(i));
        }
        let mut written: Vec<i64> = [30, 31, 32, 34, 35].map(|i| games[i].id).into();
        written.sort_unstable();
        assert_eq!(games_heard(&mut heard).await, written);
    });
}

/// The games whose notices are heard on `heard` within half a second of
/// quiet, whatever they carry.
async fn games_heard(heard: &mut tokio::sync::broadcast::Receiver<Notice>) -> Vec<i64> {
    let mut ids = Vec::new();
    let quiet = std::time::Duration::from_millis(500);
    while let Ok(Ok(notice)) = tokio::time::timeout(quiet, heard.recv()).await {
        if let Notice::Game { id, .. } = notice {
            ids.push(id);
        }
    }
    ids.sort_unstable();
    ids
}

#[test]
fn another_process_hears_each_change_once_committed() {
    runtime().block_on(async {
        let (one, two) = two_processes();
        let mut heard = two.notices().unwrap();
        let mut own = one.notices().unwrap();
        // Both listeners are connected once a first notice goes through.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let mut g = stored(&one).await;
        let first = next_notice(&mut heard).await;
        assert_eq!(
            first,
            Notice::Game {
                id: g.id,
                revision: 0,
                kept: 0,
                ended: false,
                change: None,
            }
        );
        let before = g.clone();
        sow(&mut g, 'F', 2_000);
        let started = std::time::Instant::now();
        one.save(g.clone(), 0).await.unwrap();
        let second = next_notice(&mut heard).await;
        let heard_after = started.elapsed();
        // It carries what the change wrote: applied to the copy of the
        // revision before, the game as stored, without a read.
        assert_eq!(second, Notice::with_change(&g, 1, 0));
        let Notice::Game {
            change: Some(change),
            ..
        } = &second
        else {
            panic!("no change carried: {second:?}");
        };
        let applied = change.apply(&before, 1, 0).unwrap();
        let stored = two.load(g.id).await.unwrap().unwrap();
        assert_eq!(applied.revision, stored.revision);
        assert_eq!(
            serde_json::to_value(applied.view(5_000, None)).unwrap(),
            serde_json::to_value(stored.view(5_000, None)).unwrap()
        );
        assert!(
            heard_after < std::time::Duration::from_millis(100),
            "heard after {heard_after:?}"
        );
        let line = one
            .add_chat(
                g.id,
                ChatLine {
                    id: 0,
                    room: "public",
                    at_ms: 1,
                    side: None,
                    name: "Cleo".into(),
                    text: "hello".into(),
                    guest: None,
                },
            )
            .await
            .unwrap();
        let third = next_notice(&mut heard).await;
        assert_eq!(
            third,
            Notice::Chat {
                game: g.id,
                line: line.id
            }
        );
        // A process does not hear its own changes.
        assert!(own.try_recv().is_err());
    });
}

#[test]
fn clocks_lose_nothing_when_another_process_kept_the_site_up() {
    runtime().block_on(async {
        let url = pg::cluster().database();
        let running = PgStore::connect(&url).unwrap();
        let mut g = game();
        g.clock = Some(Clock::new(60_000, 0));
        g.turn_started_ms = 10_000;
        let g = running.create(vec![g]).await.unwrap().remove(0);
        running.alive(20_000).await.unwrap();
        // The running process serves from here on.
        assert_eq!(running.resume_clocks_blocking(20_000).unwrap(), 0);
        let starting = PgStore::connect(&url).unwrap();
        assert_eq!(starting.resume_clocks_blocking(25_000).unwrap(), 0);
        assert_eq!(
            starting.load(g.id).await.unwrap().unwrap().turn_started_ms,
            10_000
        );
        // Once no process runs, the next one gives the time back.
        drop(running);
        drop(starting);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let alone = PgStore::connect(&url).unwrap();
        assert_eq!(alone.resume_clocks_blocking(30_000).unwrap(), 5_000);
        assert_eq!(
            alone.load(g.id).await.unwrap().unwrap().turn_started_ms,
            15_000
        );
    });
}

#[test]
fn another_programs_database_is_refused() {
    let cluster = pg::cluster();
    let url = cluster.database();
    cluster.psql(&url, "CREATE TABLE invoices (id INT)");
    match PgStore::connect(&url) {
        Err(StoreError::Refused(why)) => assert!(why.contains("invoices"), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("another program's database was used"),
    }
    // Tables named as ours, another program's all the same (its version
    // is not a number): refused, not a panic.
    let url = cluster.database();
    cluster.psql(
        &url,
        "CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE games (id INT); \
         INSERT INTO meta VALUES ('schema_version', 'v2')",
    );
    match PgStore::connect(&url) {
        Err(StoreError::Refused(why)) => assert!(why.contains("another program"), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("another program's database was used"),
    }
    match PgStore::connect("postgres://awale@127.0.0.1:1/none") {
        Err(StoreError::Refused(why)) => assert!(why.contains("cannot reach"), "{why}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a database nobody serves was used"),
    }
    assert!(matches!(
        PgStore::connect("postgres://a@b/c?sslmode=nonsense"),
        Err(StoreError::Refused(_))
    ));
    // Opened twice, a database is migrated once and stays readable.
    drop(PgStore::connect(&cluster.database()).unwrap());
}

#[test]
fn a_database_of_sixteen_levels_has_its_perfect_games_at_the_last_level() {
    runtime().block_on(async {
        let cluster = pg::cluster();
        let url = cluster.database();
        let against = |level| {
            let human = Side::South;
            WebGame::new(
                Mode::Computer { level, human },
                Game::new(Rules::AWALE),
                1_000,
                7,
            )
        };
        let ids: Vec<i64> = {
            let store = PgStore::connect(&url).unwrap();
            let made = store.create(vec![against(16), against(15)]).await.unwrap();
            made.iter().map(|g| g.id).collect()
        };
        // As a database written with sixteen levels (Perfect at 16) left it.
        cluster.psql(&url, "UPDATE meta SET value = 16 WHERE key = 'levels'");
        let store = PgStore::connect(&url).unwrap();
        let level = |game: Option<WebGame>| match game.unwrap().mode {
            Mode::Computer { level, .. } => level,
            other => panic!("{other:?}"),
        };
        assert_eq!(level(store.load(ids[0]).await.unwrap()), 18, "Perfect");
        assert_eq!(level(store.load(ids[1]).await.unwrap()), 15, "Titan");
        drop(store);
        // Once: a game stored at 16 since is Colossus's.
        cluster.psql(
            &url,
            &format!("UPDATE games SET level = 16 WHERE id = {}", ids[1]),
        );
        let store = PgStore::connect(&url).unwrap();
        assert_eq!(level(store.load(ids[1]).await.unwrap()), 16, "Colossus");
    });
}

#[test]
fn a_games_file_is_copied_whole_and_checked() {
    runtime().block_on(async {
        let file = Store::in_memory().unwrap();
        let mut games = file
            .create((0..30).map(|_| game()).collect())
            .await
            .unwrap();
        for (i, g) in games.iter_mut().enumerate() {
            for c in "FfAaBbCc".chars().take(i % 8) {
                sow(g, c, 2_000);
            }
            file.save(g.clone(), 0).await.unwrap();
        }
        file.add_chat(
            games[3].id,
            ChatLine {
                id: 0,
                room: "players",
                at_ms: 9,
                side: Some('N'),
                name: "Ama".into(),
                text: "bonne partie".into(),
                guest: None,
            },
        )
        .await
        .unwrap();
        file.save_review(games[4].id, 4, "{\"x\":1}".into())
            .await
            .unwrap();
        file.set_player_name(me(), "Kofi".into(), 3).await.unwrap();
        file.upload(me(), "k".into(), game())
            .await
            .unwrap()
            .unwrap();
        // A tournament (a Swiss in its second round) with a player, a game
        // and a bye, copied with the games.
        let arena = file
            .create_tournament(TournamentRow {
                id: 0,
                kind: "swiss".into(),
                name: "Soirée".into(),
                clock: (180_000, 2_000),
                rated: true,
                minutes: 60,
                starts_ms: 5,
                ends_ms: 3_600_005,
                creator: me(),
                state: "started".into(),
                created_ms: 4,
                rounds: 3,
                current_round: 2,
                manual_rounds: true,
                bots_allowed: true,
            })
            .await
            .unwrap();
        let record = TournamentRecord {
            tournament: arena.clone(),
            entrants: vec![EntrantRow {
                number: 0,
                player: me(),
                name: "Kofi".into(),
                rating: 1500,
                presence: "playing".into(),
                score: 2,
                sheet: "[]".into(),
                firsts: 1,
            }],
            games: vec![PairingRow {
                game_id: games[5].id,
                players: (0, 0),
                berserk: [true, false],
                result: None,
                round: 2,
            }],
            byes: vec![ByeRow {
                round: 1,
                number: 0,
            }],
        };
        file.save_tournament(record.clone()).await.unwrap();
        file.add_tournament_chat(arena.id, said(me(), "Kofi", "allez", 6))
            .await
            .unwrap();
        let challenge = Challenge {
            id: 0,
            from: me(),
            from_name: "Kofi".into(),
            to: PlayerId("p2".into()),
            to_name: "Ama".into(),
            clock: Some((180_000, 2_000)),
            rated: false,
            colour: 'R',
            created_ms: 5,
            state: String::new(),
            game: None,
            settled_ms: None,
        };
        let challenge_id = file.add_challenge(challenge).await.unwrap();
        // What fair play saw, copied too.
        file.note_places(me(), vec!["address:203.0.113.7".into()], 5, 0, 16)
            .await
            .unwrap();
        let flag = awale_model::account::FlaggedPair {
            names: ["Kofi".into(), "Ama".into()],
            players: [me(), PlayerId("p2".into())],
            at_ms: 6,
            address: true,
            device: false,
            times: 1,
        };
        file.flag_pair(flag.clone()).await.unwrap();
        file.take_rated_pairs(vec![flag.players.clone()], 0, 6, 10)
            .await
            .unwrap();
        let url = pg::cluster().database();
        let db = PgStore::connect(&url).unwrap();
        let report = copy_to_postgres(&file, &db).unwrap();
        assert_eq!(report.games_checked, 31);
        assert_eq!(
            db.load_tournament(arena.id).await.unwrap(),
            Some(record),
            "the tournament copied"
        );
        let copied = db
            .challenge(challenge_id)
            .await
            .unwrap()
            .expect("the challenge copied");
        assert_eq!(
            (copied.to_name.as_str(), copied.state.as_str()),
            ("Ama", "open")
        );
        let talk = db.tournament_chat(arena.id, 10).await.unwrap();
        assert_eq!(
            talk.iter()
                .map(|l| (l.player.clone(), l.line.text.as_str()))
                .collect::<Vec<_>>(),
            [(me(), "allez")],
            "the tournament's chat copied"
        );
        let next_arena = db.create_tournament(arena.clone()).await.unwrap();
        assert_eq!(next_arena.id, arena.id + 1, "new tournaments follow");
        let rows: std::collections::HashMap<String, i64> = report.rows.into_iter().collect();
        assert_eq!(rows["games"], 31);
        assert_eq!(rows["moves"], (0..30).map(|i| i % 8).sum::<i64>());
        assert_eq!(rows["chat"], 1);
        assert_eq!(rows["tournament_byes"], 1, "a Swiss's bye copied");
        assert_eq!(
            (
                rows["sightings"],
                rows["flagged_pairs"],
                rows["rated_pairs"]
            ),
            (1, 1, 1)
        );
        assert_eq!(db.flagged_pairs(10).await.unwrap()[0].names, flag.names);
        let back = db.load(games[7].id).await.unwrap().unwrap();
        assert_eq!(back.game.plies(), games[7].game.plies());
        assert_eq!(
            db.list(Some(me()), None, 100).await.unwrap().games.len(),
            31
        );
        assert_eq!(
            db.chat(games[3].id, 10).await.unwrap()[0].text,
            "bonne partie"
        );
        // New ids follow the copied ones.
        let next = stored(&db).await;
        assert_eq!(next.id, 32);
        // A second copy into the same database is refused, and changes nothing.
        match copy_to_postgres(&file, &db) {
            Err(StoreError::Refused(why)) => assert!(why.contains("already holds"), "{why}"),
            other => panic!("copied twice: {other:?}"),
        }
    });
}
