//! Arena tournaments in the service, without HTTP, on a real (scratch)
//! SQLite store: who is free is paired at once through online games; a
//! game's end frees both; no immediate rematch while others play; streaks
//! and berserk count; a pause waits for the game's end; the end stops the
//! pairings while the games in play still count; a restart keeps it going;
//! a bot joins only a tournament that allows bots, its games rated by pool.

mod common;

use std::sync::Arc;
use std::time::Duration;

use awale_service::clock::Clock;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::pairing::arena::Presence;
use awale_service::tournaments::{
    ArenaSettings, TournamentState, TournamentView, Tournaments, FIRST_MOVE_MS,
};
use awale_store::Store;

use common::{games_file, play_seated, player, rated_service_on, service, until};

fn settings() -> ArenaSettings {
    ArenaSettings {
        name: "Test arena".into(),
        clock: (60_000, 1_000),
        rated: false,
        minutes: 30,
        starts_ms: 0,
        bots_allowed: false,
    }
}

/// Players 1 to `players` join tournament `id` (as P1, P2…): the view
/// after the last.
async fn join(t: &Arc<Tournaments>, id: i64, players: u8) -> TournamentView {
    let mut view = None;
    for n in 1..=players {
        view = Some(t.join(id, &player(n), &format!("P{n}")).await.unwrap());
    }
    view.expect("a player")
}

fn line(view: &TournamentView, n: u8) -> &awale_service::tournaments::StandingLine {
    view.standings
        .iter()
        .find(|l| l.name == format!("P{n}"))
        .unwrap()
}

/// `loser` resigns their game in play.
async fn resign(games: &Arc<Games>, view: &TournamentView, loser: u8) {
    let public = line(view, loser).game.clone().unwrap();
    let id = games.find(&public, None).await.unwrap();
    games.resign(id, Some(&player(loser)), None).await.unwrap();
}

/// Players 1 to 4 join started arena `id` and P1 resigns their first
/// game: P1's first opponent, and the view once that game is recorded.
async fn four_and_p1_lost(
    games: &Arc<Games>,
    t: &Arc<Tournaments>,
    id: i64,
) -> (String, TournamentView) {
    join(t, id, 4).await;
    let view = t.get(id, None).await.unwrap();
    let opponent_of_1 = view
        .standings
        .iter()
        .find(|l| l.name != "P1" && l.game == line(&view, 1).game)
        .unwrap()
        .name
        .clone();
    resign(games, &view, 1).await;
    (
        opponent_of_1,
        until(t, id, |v| line(v, 1).sheet.len() == 1).await,
    )
}

async fn started(t: &Arc<Tournaments>) -> i64 {
    let item = t.create(&player(1), settings()).await.unwrap();
    until(t, item.facts.id, |v| {
        v.facts.state == TournamentState::Started
    })
    .await;
    item.facts.id
}

#[tokio::test]
async fn the_free_are_paired_at_once_and_a_third_waits() {
    let (_games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    let view = join(&t, id, 2).await;
    assert!(line(&view, 1).game.is_some(), "paired at once");
    assert_eq!(line(&view, 1).game, line(&view, 2).game);
    assert_eq!(view.top_game, line(&view, 1).game);
    let view = t.join(id, &player(3), "P3").await.unwrap();
    assert_eq!(line(&view, 3).presence, Presence::Free);
    assert_eq!(view.players, 3);
}

#[tokio::test]
async fn a_finished_game_frees_both_without_an_immediate_rematch_while_others_play() {
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    let (opponent_of_1, view) = four_and_p1_lost(&games, &t, id).await;
    let winner = view.standings[0].clone();
    assert_eq!(winner.name, opponent_of_1);
    assert_eq!(winner.score, 2);
    // The two who just met wait for the other game.
    assert_eq!(line(&view, 1).presence, Presence::Free);
    assert!(line(&view, 1).game.is_none());
    let others: Vec<u8> = (2..=4)
        .filter(|n| format!("P{n}") != opponent_of_1)
        .collect();
    resign(&games, &view, others[0]).await;
    let view = until(&t, id, |v| line(v, 1).game.is_some()).await;
    let new_opponent = view
        .standings
        .iter()
        .find(|l| l.name != "P1" && l.game == line(&view, 1).game)
        .unwrap();
    assert_ne!(new_opponent.name, opponent_of_1, "no immediate rematch");
}

#[tokio::test]
async fn of_three_players_each_keeps_getting_games() {
    // P1 and P2 paired at once, P3 joins during their game; each game
    // resigned at once: nobody sits out two games in a row.
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    join(&t, id, 3).await;
    let played = |v: &TournamentView| v.standings.iter().map(|l| l.sheet.len()).sum::<usize>() / 2;
    let mut out = Vec::new();
    for k in 0..7 {
        let view = until(&t, id, |v| {
            played(v) == k && v.standings.iter().any(|l| l.game.is_some())
        })
        .await;
        let waiting: Vec<u8> = (1..=3).filter(|&n| line(&view, n).game.is_none()).collect();
        assert_eq!(waiting.len(), 1, "{view:?}");
        out.push(waiting[0]);
        let loser = (1..=3).find(|&n| line(&view, n).game.is_some()).unwrap();
        resign(&games, &view, loser).await;
    }
    for w in out.windows(2) {
        assert_ne!(w[0], w[1], "sat out twice in a row: {out:?}");
    }
}

#[tokio::test]
async fn streaks_double_the_third_win_and_berserk_adds_a_point() {
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    join(&t, id, 2).await;
    let mut scores = Vec::new();
    for k in 0..3 {
        let view = until(&t, id, |v| line(v, 1).game.is_some()).await;
        if k == 2 {
            assert!(view.can_berserk);
            assert!(line(&view, 1).on_fire, "two wins: the flame");
            t.berserk(id, &player(1)).await.unwrap();
            let again = t.berserk(id, &player(1)).await.unwrap_err();
            assert_eq!(again.code.as_str(), "cannot_berserk");
            let public = line(&view, 1).game.clone().unwrap();
            let game = games
                .load(games.find(&public, None).await.unwrap())
                .await
                .unwrap();
            let clock = game.clock.unwrap();
            assert!(clock.remaining_ms.contains(&30_000), "{clock:?}");
        }
        resign(&games, &view, 2).await;
        let view = until(&t, id, |v| line(v, 1).sheet.len() == k + 1).await;
        scores.push(line(&view, 1).score);
    }
    // 2, 2, then 4 on the streak plus the berserk point.
    assert_eq!(scores, vec![2, 4, 9]);
    let stranger = t.berserk(id, &player(9)).await.unwrap_err();
    assert_eq!(stranger.code.as_str(), "not_in_tournament");
}

#[tokio::test]
async fn a_pause_asked_in_a_game_waits_for_its_end_and_a_comeback_pairs() {
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    let view = join(&t, id, 2).await;
    let view2 = t.leave(id, &player(1), Presence::Paused).await.unwrap();
    assert_eq!(line(&view2, 1).presence, Presence::Playing);
    resign(&games, &view, 2).await;
    let view = until(&t, id, |v| line(v, 1).presence == Presence::Paused).await;
    assert_eq!(line(&view, 1).score, 2, "a paused player keeps the score");
    assert!(line(&view, 2).game.is_none(), "alone: not paired");
    let view = t.join(id, &player(1), "P1").await.unwrap();
    assert!(line(&view, 1).game.is_some(), "back: paired again");
}

#[tokio::test]
async fn a_first_mover_who_does_not_sow_is_aborted_and_paused() {
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    let view = join(&t, id, 2).await;
    assert!(line(&view, 1).game.is_some());
    // Not yet: the first mover has their time.
    games
        .clock()
        .advance(Duration::from_millis(FIRST_MOVE_MS as u64 - 1_000));
    let view = t.get(id, None).await.unwrap();
    assert!(view
        .standings
        .iter()
        .all(|l| l.presence == Presence::Playing));
    games.clock().advance(Duration::from_millis(1_000));
    let view = until(&t, id, |v| {
        v.standings.iter().any(|l| l.presence == Presence::Paused)
    })
    .await;
    assert!(view
        .standings
        .iter()
        .all(|l| l.score == 0 && l.sheet.is_empty()));
}

#[tokio::test]
async fn an_arena_is_finished_only_when_its_last_game_ends_and_its_podium_then_stays() {
    // Issue 42: an arena said finished and showed a podium while a game
    // still ran, then the podium changed. As lichess: the time up, no new
    // game, the standings provisional until the last game ends.
    let (games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    join(&t, id, 3).await;
    // Before the end, a player in a game who has not moved may berserk.
    let before = t.get(id, None).await.unwrap();
    let in_game: u8 = before
        .standings
        .iter()
        .find(|l| l.game.is_some())
        .unwrap()
        .name[1..]
        .parse()
        .unwrap();
    assert!(t.get(id, Some(&player(in_game))).await.unwrap().can_berserk);
    let refused = t.close(id, &player(2)).await.unwrap_err();
    assert_eq!(refused.code.as_str(), "not_the_creator");
    let view = t.close(id, &player(1)).await.unwrap();
    assert_eq!(
        view.facts.state,
        TournamentState::Started,
        "a game is still in play"
    );
    assert!(view.results_pending);
    assert!(
        view.podium.is_empty(),
        "no podium while results are pending"
    );
    assert!(
        view.standings.iter().all(|l| l.waiting_ms.is_none()),
        "nobody is looking for a game once the time is up"
    );
    let late = t.join(id, &player(5), "P5").await.unwrap_err();
    assert_eq!(late.code.as_str(), "tournament_over");
    let playing: Vec<String> = view
        .standings
        .iter()
        .filter(|l| l.game.is_some())
        .map(|l| l.name.clone())
        .collect();
    assert_eq!(playing.len(), 2);
    // Berserk is neither offered nor taken once the time is up (issue
    // 42: the button stayed, and a click answered 409).
    let in_play = t.get(id, Some(&player(in_game))).await.unwrap();
    assert!(!in_play.can_berserk, "no berserk once the time is up");
    let late = t.berserk(id, &player(in_game)).await.unwrap_err();
    assert_eq!(late.code.as_str(), "cannot_berserk");
    let loser: u8 = playing[1][1..].parse().unwrap();
    resign(&games, &view, loser).await;
    let view = until(&t, id, |v| v.facts.state == TournamentState::Finished).await;
    assert!(!view.results_pending);
    assert!(
        view.standings.iter().all(|l| l.game.is_none()),
        "no new game"
    );
    assert_eq!(view.podium.len(), 3);
    assert_eq!(view.podium[0].name, playing[0]);
    assert_eq!(view.podium[0].score, 2, "the last game counted");
    // A minute on (any timer left would fire), the podium stays.
    games.clock().advance(Duration::from_secs(60));
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    let later = t.get(id, Some(&player(1))).await.unwrap();
    assert_eq!(later.podium, view.podium, "the podium no longer changes");
    let late = t.join(id, &player(5), "P5").await.unwrap_err();
    assert_eq!(late.code.as_str(), "tournament_over");
}

#[tokio::test]
async fn an_arena_without_games_in_play_is_finished_at_once() {
    let (_games, t) = service(Store::in_memory().unwrap());
    let id = started(&t).await;
    t.join(id, &player(1), "P1").await.unwrap();
    let view = t.close(id, &player(1)).await.unwrap();
    assert_eq!(view.facts.state, TournamentState::Finished);
    assert!(!view.results_pending);
    assert_eq!(view.podium.len(), 1);
}

#[tokio::test]
async fn two_who_just_met_meet_again_after_a_short_wait_when_nobody_else_is_free() {
    // Issue 42: in a small arena a pair that had just played waited for
    // the other game to end, a minute with no word. Now they are told
    // they are looking for an opponent, since when, and meet again after
    // REMATCH_WAIT_MS when nobody else came free.
    use awale_service::pairing::arena::REMATCH_WAIT_MS;
    let (games, t) = rated_service_on(Store::in_memory().unwrap(), Clock::adjustable());
    let clock = games.clock().clone();
    let id = started(&t).await;
    let (opponent_of_1, view) = four_and_p1_lost(&games, &t, id).await;
    assert!(line(&view, 1).game.is_none(), "no rematch at once");
    let since = line(&view, 1).waiting_ms.expect("looking for an opponent");
    assert!(since <= view.now_ms && view.now_ms - since < REMATCH_WAIT_MS);
    assert!(
        view.standings
            .iter()
            .filter(|l| l.game.is_some())
            .all(|l| l.waiting_ms.is_none()),
        "{view:?}"
    );
    clock.advance(Duration::from_millis(REMATCH_WAIT_MS as u64));
    let view = until(&t, id, |v| line(v, 1).game.is_some()).await;
    let again = view
        .standings
        .iter()
        .find(|l| l.name != "P1" && l.game == line(&view, 1).game)
        .unwrap();
    assert_eq!(
        again.name, opponent_of_1,
        "nobody else was free: they meet again"
    );
    assert_eq!(line(&view, 1).waiting_ms, None);
}

#[tokio::test]
async fn the_standings_show_ratings_as_they_are_after_each_game() {
    // Issue 42: the rating column kept the ratings at join (1500).
    let (games, t) = rated_service_on(Store::in_memory().unwrap(), Clock::adjustable());
    let item = t
        .create(
            &player(1),
            ArenaSettings {
                rated: true,
                ..settings()
            },
        )
        .await
        .unwrap();
    let id = item.facts.id;
    until(&t, id, |v| v.facts.state == TournamentState::Started).await;
    let view = join(&t, id, 2).await;
    assert_eq!(line(&view, 1).rating, 1500);
    // A rated game counts once both sides made two moves.
    let game = games
        .find(line(&view, 1).game.as_ref().unwrap(), None)
        .await
        .unwrap();
    for _ in 0..4 {
        let g = games.load(game).await.unwrap();
        let mv = g.game.legal_moves()[0];
        let ply = g.game.plies().len();
        play_seated(&games, game, Some(ply), mv).await.unwrap();
    }
    resign(&games, &view, 2).await;
    let view = until(&t, id, |v| line(v, 1).sheet.len() == 1).await;
    assert!(line(&view, 1).rating > 1500, "{view:?}");
    assert!(line(&view, 2).rating < 1500, "{view:?}");
}

#[tokio::test]
async fn creating_is_checked_and_limited() {
    let (games, t) = service(Store::in_memory().unwrap());
    for (change, what) in [
        (
            ArenaSettings {
                name: " ".into(),
                ..settings()
            },
            "name",
        ),
        (
            ArenaSettings {
                clock: (1_000, 0),
                ..settings()
            },
            "clock",
        ),
        (
            ArenaSettings {
                minutes: 0,
                ..settings()
            },
            "minutes",
        ),
        (
            ArenaSettings {
                starts_ms: games.now_ms() + 30 * 24 * 3_600_000,
                ..settings()
            },
            "starts",
        ),
    ] {
        let e = t.create(&player(1), change).await.unwrap_err();
        assert_eq!((e.code.as_str(), e.reason), ("bad_tournament", Some(what)));
    }
    for _ in 0..awale_service::tournaments::MADE_PER_DAY {
        t.create(&player(1), settings()).await.unwrap();
    }
    let e = t.create(&player(1), settings()).await.unwrap_err();
    assert_eq!(e.code.as_str(), "tournament_limit");
    assert_eq!(
        t.list().await.unwrap().len() as i64,
        awale_service::tournaments::MADE_PER_DAY
    );
}

#[tokio::test]
async fn a_tournaments_name_loses_what_would_hide_or_turn_it() {
    let (_games, t) = service(Store::in_memory().unwrap());
    let made = t
        .create(
            &player(1),
            ArenaSettings {
                name: "Club \u{202E}txt.exe\u{200B}\u{2066}".into(),
                ..settings()
            },
        )
        .await
        .unwrap();
    assert_eq!(made.facts.name, "Club txt.exe");
    for blank in ["\u{202E}\u{200B}", "\u{E0041}\u{E0042}", "\n\t"] {
        let e = t
            .create(
                &player(1),
                ArenaSettings {
                    name: blank.into(),
                    ..settings()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.reason),
            ("bad_tournament", Some("name"))
        );
    }
}

#[tokio::test]
async fn a_restart_keeps_the_arena_and_records_a_game_that_ended_meanwhile() {
    let (_dir, path) = games_file();
    let (id, public) = {
        let (_games, t) = service(Store::open(&path).unwrap());
        let id = started(&t).await;
        let view = join(&t, id, 2).await;
        (id, line(&view, 1).game.clone().unwrap())
    };
    // Meanwhile, with no tournament service, the game ends.
    {
        let games = Arc::new(Games::new(
            Arc::new(Store::open(&path).unwrap()),
            Arc::new(Hub::default()),
        ));
        let gid = games.find(&public, None).await.unwrap();
        games.abort(gid, &player(1)).await.unwrap();
    }
    let (_games, t) = service(Store::open(&path).unwrap());
    let view = until(&t, id, |v| {
        v.standings.iter().any(|l| l.presence == Presence::Paused)
    })
    .await;
    assert_eq!(view.players, 2);
    assert_eq!(view.facts.state, TournamentState::Started);
}

#[tokio::test]
async fn the_schedule_makes_each_arena_once_for_its_next_start() {
    use awale_service::tournaments::SCHEDULE;
    let hourly = &SCHEDULE[0];
    // 2026-12-02 12:10 UTC: the next hourly at 13:00.
    let now = 1_796_213_400_000;
    assert_eq!(hourly.next_start(now), 1_796_216_400_000);
    // The weekly: the next Sunday, 18:00 UTC (2026-12-06).
    assert_eq!(SCHEDULE[1].next_start(now), 1_796_580_000_000);
    // The list shows what ends after the real clock: move the same Wednesday
    // 12:10 weeks ahead, past today, so the test does not age.
    const WEEK: i64 = 7 * 86_400_000;
    let (games, t) = service(Store::in_memory().unwrap());
    let now = now + ((games.now_ms() - now) / WEEK + 1) * WEEK;
    t.schedule_once(&SCHEDULE, now).await.unwrap();
    t.schedule_once(&SCHEDULE, now + 60_000).await.unwrap();
    let list = t.list().await.unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    assert!(list
        .iter()
        .any(|a| a.facts.name == "Hourly 3+2" && a.facts.minutes == 57));
    t.schedule_once(&SCHEDULE, now + 3_600_000).await.unwrap();
    assert_eq!(t.list().await.unwrap().len(), 3, "the next hour's");
}

#[tokio::test]
async fn joins_and_withdrawals_are_limited_per_player() {
    let (_games, t) = service(Store::in_memory().unwrap());
    let id = t.create(&player(1), settings()).await.unwrap().facts.id;
    // Issue 38: 300 joins and withdrawals in 2.8 s, each a stored change.
    let mut refused = None;
    for n in 0..40 {
        let done = if n % 2 == 0 {
            t.join(id, &player(2), "P2").await.map(|_| ())
        } else {
            t.leave(id, &player(2), Presence::Withdrawn)
                .await
                .map(|_| ())
        };
        if let Err(e) = done {
            refused = Some((n, e));
            break;
        }
    }
    let (n, e) = refused.expect("limited");
    assert_eq!(n, awale_service::tournaments::COMINGS.burst as usize);
    assert_eq!(
        (e.code.as_str(), e.reason),
        ("too_many", Some("tournament_comings"))
    );
    // Another player is not held up.
    t.join(id, &player(3), "P3").await.unwrap();
}

/// An account named `name` (a bot's when `bot`): the player it plays as.
async fn account(
    store: &Store,
    accounts: &awale_service::accounts::Accounts,
    name: &str,
    bot: bool,
) -> awale_model::game::PlayerId {
    use awale_store::AccountStore;
    let account = accounts
        .sign_up(name, "a long enough secret", None, None)
        .await
        .unwrap()
        .account;
    if bot {
        store.set_bot(account.id).await.unwrap();
    }
    account.player
}

/// Plays two moves a side in the game `public` (so that it is rated; a
/// bot's through `bots`), then `loser` resigns it (a bot through `bots` too); waits until the arena `id` recorded it.
async fn rated_game_lost_by(
    games: &Arc<Games>,
    bots: &common::Bots,
    t: &Arc<Tournaments>,
    id: i64,
    public: &str,
    loser: &awale_model::game::PlayerId,
) -> TournamentView {
    let game = games.find(public, None).await.unwrap();
    for _ in 0..4 {
        let g = games.load(game).await.unwrap();
        let mv = g.game.legal_moves()[0];
        let ply = g.game.plies().len();
        bots.play_seated(games, game, ply, mv).await.unwrap();
    }
    let g = games.load(game).await.unwrap();
    let side = awale_core::Side::BOTH
        .into_iter()
        .find(|s| g.seats[s.index()].as_ref().unwrap().player == *loser)
        .unwrap();
    bots.resign_seated(games, game, side).await.unwrap();
    until(t, id, |v| {
        v.standings
            .iter()
            .all(|l| l.game.as_deref() != Some(public))
    })
    .await
}

#[tokio::test]
async fn a_bot_joins_only_a_tournament_that_allows_bots_rated_or_casual_its_games_rated_by_pool() {
    use awale_model::rating::Pool;
    use awale_store::RatingStore;
    let store = Store::in_memory().unwrap();
    let shared = Arc::new(store.clone());
    let games = Arc::new(
        Games::new(shared.clone(), Arc::new(Hub::default()))
            .with_ratings(shared.clone())
            .with_bots(shared.clone())
            .with_clock(Clock::adjustable()),
    );
    let accounts = Arc::new(
        awale_service::accounts::Accounts::with_cost(shared.clone(), Arc::clone(&games), 1024, 1)
            .unwrap(),
    );
    let bots = common::Bots::new(&games, &accounts, &shared);
    let t = Tournaments::new(Arc::clone(&games), shared.clone(), Some(shared.clone()));
    t.start().unwrap();
    let ama = account(&store, &accounts, "Ama", false).await;
    let kofi = account(&store, &accounts, "Kofi", false).await;
    let alpha = account(&store, &accounts, "Alpha", true).await;
    let beta = account(&store, &accounts, "Beta", true).await;

    // People only (the default), rated or casual, arena or Swiss: a bot is
    // refused, a person joins.
    for rated in [true, false] {
        let arena = ArenaSettings {
            rated,
            ..settings()
        };
        let id = t.create(&ama, arena).await.unwrap().facts.id;
        let view = t.get(id, None).await.unwrap();
        assert!(!view.facts.bots_allowed);
        common::refused_as(t.join(id, &alpha, "").await, "bots_not_allowed");
        assert_eq!(t.join(id, &kofi, "").await.unwrap().players, 1);
    }
    let swiss = t
        .create_swiss(
            &ama,
            awale_service::tournaments::SwissSettings {
                name: "Club".into(),
                clock: (60_000, 1_000),
                rated: false,
                rounds: 3,
                manual_rounds: true,
                bots_allowed: false,
            },
        )
        .await
        .unwrap()
        .facts
        .id;
    common::refused_as(t.join(swiss, &beta, "").await, "bots_not_allowed");

    // A rated arena that allows bots: both bots join and meet.
    let item = t
        .create(
            &kofi,
            ArenaSettings {
                rated: true,
                bots_allowed: true,
                ..settings()
            },
        )
        .await
        .unwrap();
    assert!(item.facts.rated && item.facts.bots_allowed);
    let id = item.facts.id;
    until(&t, id, |v| v.facts.state == TournamentState::Started).await;
    t.join(id, &alpha, "").await.unwrap();
    let view = t.join(id, &beta, "").await.unwrap();
    assert!(view.facts.bots_allowed);
    assert!(view.standings.iter().all(|l| l.bot), "{view:?}");
    let bots_game = view.standings[0].game.clone().expect("the bots paired");
    // A person joins meanwhile (and waits for the bots' game to end).
    let view = t.join(id, &kofi, "").await.unwrap();
    let kofi_line = view.standings.iter().find(|l| l.name == "Kofi").unwrap();
    assert!(!kofi_line.bot && kofi_line.game.is_none());

    // Bot against bot: rated in the bots' pool, never in people's.
    rated_game_lost_by(&games, &bots, &t, id, &bots_game, &beta).await;
    for bot in [&alpha, &beta] {
        let pools: Vec<Pool> = store
            .ratings(bot.clone())
            .await
            .unwrap()
            .iter()
            .map(|r| r.pool)
            .collect();
        assert!(
            pools.iter().all(|p| matches!(p, Pool::Bots(_))) && !pools.is_empty(),
            "{pools:?}"
        );
    }

    // Then the person meets a bot (the fresh pair first): that game is
    // rated in people's pool, as any rated game a person chose to play
    // against a bot (here by joining a tournament open to bots).
    let view = until(&t, id, |v| {
        v.standings
            .iter()
            .any(|l| l.name == "Kofi" && l.game.is_some())
    })
    .await;
    let game = view
        .standings
        .iter()
        .find(|l| l.name == "Kofi")
        .unwrap()
        .game
        .clone()
        .unwrap();
    let opponent = view
        .standings
        .iter()
        .find(|l| l.name != "Kofi" && l.game.as_ref() == Some(&game))
        .unwrap();
    assert!(opponent.bot);
    let bot = if opponent.name == "Alpha" {
        &alpha
    } else {
        &beta
    };
    rated_game_lost_by(&games, &bots, &t, id, &game, &kofi).await;
    let people = |list: &[awale_model::rating::PlayerRating]| {
        list.iter()
            .find(|r| matches!(r.pool, Pool::People(_)))
            .map(|r| r.glicko.rating)
    };
    let kofi_people = people(&store.ratings(kofi.clone()).await.unwrap());
    let bot_people = people(&store.ratings(bot.clone()).await.unwrap());
    assert!(kofi_people.is_some_and(|r| r < 1500.0), "{kofi_people:?}");
    assert!(bot_people.is_some_and(|r| r > 1500.0), "{bot_people:?}");
}
