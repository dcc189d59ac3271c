//! Direct challenges without HTTP, on a real (scratch) SQLite store and
//! the injected clock: every refusal, accept (the game made, both seated,
//! rated only between accounts), decline, withdraw, expiry, and the live
//! events each player hears on their own channel. Lobby seeks with a
//! rating range: only the ratings within it may take the free seat.

mod common;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use awale_model::account::Account;
use awale_model::game::{Clock, Mode, PlayerId, Seat, WebGame};
use awale_model::rating::Speed;
use awale_service::accounts::Accounts;
use awale_service::challenges::{
    ChallengeState, ChallengeView, Challenges, NewChallenge, EXPIRES_MS, MAX_OPEN,
};
use awale_service::clock::Clock as Time;
use awale_service::games::Games;
use awale_service::limits::Caller;
use awale_service::live::Hub;
use awale_service::players::{parse_rating_range, Players};
use awale_store::ratings::{BoardRule, RatingStore};
use awale_store::Store;
use awale_store::{AccountStore, GameStore};

use common::refused_as;

struct World {
    store: Store,
    games: Arc<Games>,
    accounts: Accounts,
    challenges: Challenges,
    players: Players,
    time: Time,
}

fn world() -> World {
    let store = Store::in_memory().unwrap();
    let time = Time::adjustable();
    let games = Arc::new(
        Games::new(Arc::new(store.clone()), Arc::new(Hub::default()))
            .with_ratings(Arc::new(store.clone()))
            .with_clock(time.clone()),
    );
    let accounts =
        Accounts::with_cost(Arc::new(store.clone()), Arc::clone(&games), 1024, 1).unwrap();
    let challenges = Challenges::new(Arc::clone(&games), Arc::new(store.clone()));
    let shared = Arc::new(store.clone());
    let players = Players::new(shared.clone(), shared.clone(), shared, BoardRule::default());
    World {
        store,
        games,
        players,
        accounts,
        challenges,
        time,
    }
}

impl World {
    /// The challenge `by` (named `name`, a guest's) makes, which the
    /// service must take, not refuse.
    async fn made(&self, by: &PlayerId, name: &str, challenge: NewChallenge) -> ChallengeView {
        self.challenges.make(by, name, challenge).await.unwrap()
    }

    async fn sign_up(&self, name: &str, n: u8) -> Account {
        let ip = Some(IpAddr::from([10, 0, 0, n]));
        self.accounts
            .sign_up(name, "seeds in the fourth hole", None, ip)
            .await
            .unwrap()
            .account
    }

    /// Ama and Kofi, the two accounts most tests need.
    async fn ama_and_kofi(&self) -> (Account, Account) {
        (self.sign_up("Ama", 1).await, self.sign_up("Kofi", 2).await)
    }
}

fn guest(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

fn blitz(to: &str) -> NewChallenge {
    NewChallenge {
        to: to.into(),
        clock: Some(Clock::new(180_000, 2_000)),
        rated: true,
        colour: 'S',
    }
}

fn casual(to: &str) -> NewChallenge {
    NewChallenge {
        rated: false,
        colour: 'R',
        ..blitz(to)
    }
}

#[tokio::test]
async fn an_accepted_challenge_seats_both_in_a_rated_game_and_tells_the_challenger() {
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    let mut ama_hears = w.games.hub().watch_player(&ama.player);
    let mut kofi_hears = w.games.hub().watch_player(&kofi.player);
    // The username in any case.
    let made = w.made(&ama.player, "", blitz("kOFI")).await;
    assert_eq!((made.from.as_str(), made.to.as_str()), ("Ama", "Kofi"));
    assert!(made.sent && made.from_account && made.rated);
    assert_eq!(made.speed, "blitz");
    let heard = kofi_hears.events.try_recv().unwrap();
    assert_eq!(heard.name, "challenge");
    assert!(heard.data.contains("\"sent\":false") && heard.data.contains("\"state\":\"open\""));
    assert!(!heard.data.contains(&ama.player.0), "no player id is shown");
    assert!(ama_hears.events.try_recv().is_ok());

    let mine = w.challenges.mine(&kofi.player).await.unwrap();
    assert_eq!(mine.received.len(), 1);
    assert!(mine.sent.is_empty());

    let accepted = w.challenges.accept(made.id, &kofi.player).await.unwrap();
    assert_eq!(accepted.side, 'N', "Ama asked for South");
    assert_eq!(accepted.challenge.state, ChallengeState::Accepted);
    // The player's channel also tells a game's start (a bot's stream):
    // the challenge's news is the one named so.
    let heard = std::iter::from_fn(|| ama_hears.events.try_recv().ok())
        .find(|e| e.name == "challenge")
        .expect("the challenge's news");
    assert!(heard.data.contains(&accepted.game), "{}", heard.data);
    assert!(heard.data.contains("\"state\":\"accepted\""));

    let id = w.games.find(&accepted.game, None).await.unwrap();
    let game = w.games.load(id).await.unwrap();
    assert!(game.rated && !game.public && !game.waiting());
    let [south, north] = game.seats.clone().map(Option::unwrap);
    assert_eq!(
        (south.player, north.player),
        (ama.player.clone(), kofi.player.clone())
    );
    assert_eq!((south.name.as_str(), north.name.as_str()), ("Ama", "Kofi"));
    let clock = game.clock.unwrap();
    assert_eq!((clock.initial_ms, clock.increment_ms), (180_000, 2_000));

    // Settled once: a second answer is refused.
    refused_as(
        w.challenges.accept(made.id, &kofi.player).await,
        "challenge_settled",
    );
    refused_as(
        w.challenges.decline(made.id, &kofi.player).await,
        "challenge_settled",
    );
}

#[tokio::test]
async fn the_challenger_is_told_of_the_game_once_it_is_stored() {
    // Told before, the challenger's page went to a game not found (seen
    // on a loaded machine).
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    let made = w.made(&ama.player, "", blitz("Kofi")).await;
    let mut ama_hears = w.games.hub().watch_player(&ama.player);
    let (accepted, found) = tokio::join!(w.challenges.accept(made.id, &kofi.player), async {
        let heard = loop {
            let heard = ama_hears.events.recv().await.unwrap();
            if heard.name == "challenge" {
                break heard;
            }
        };
        let view: serde_json::Value = serde_json::from_str(&heard.data).unwrap();
        let game = view["game"]
            .as_str()
            .expect("the game in the news")
            .to_string();
        awale_store::GameStore::find(&w.store, game).await.unwrap()
    });
    assert!(found.is_some(), "the news came before the game was stored");
    assert_eq!(found, w.store.find(accepted.unwrap().game).await.unwrap());
}

#[tokio::test]
async fn a_guest_challenges_casual_only_and_its_game_is_casual() {
    let w = world();
    let kofi = w.sign_up("Kofi", 2).await;
    let refused = w.challenges.make(&guest(7), "Yaw", blitz("Kofi")).await;
    assert_eq!(refused.unwrap_err().code, "rated_needs_account");
    let made = w.made(&guest(7), "Yaw", casual("Kofi")).await;
    assert!(!made.from_account && made.from == "Yaw");
    let accepted = w.challenges.accept(made.id, &kofi.player).await.unwrap();
    let id = w.games.find(&accepted.game, None).await.unwrap();
    let game = w.games.load(id).await.unwrap();
    assert!(!game.rated);
    let names: Vec<String> = game
        .seats
        .iter()
        .flatten()
        .map(|s| s.name.clone())
        .collect();
    assert!(names.contains(&"Yaw".to_string()) && names.contains(&"Kofi".to_string()));
}

#[tokio::test]
async fn refusals_have_their_codes() {
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    let c = &w.challenges;
    refused_as(
        c.make(&ama.player, "", blitz("nobody")).await,
        "no_such_player",
    );
    refused_as(
        c.make(&ama.player, "", blitz("ama")).await,
        "challenge_self",
    );
    let no_clock = NewChallenge {
        clock: None,
        ..blitz("Kofi")
    };
    refused_as(c.make(&ama.player, "", no_clock).await, "rated_needs_clock");
    // 0.1 minute: below the rated clocks' range (issue 38).
    let bullet_six = NewChallenge {
        clock: Some(Clock::new(6_000, 0)),
        ..blitz("Kofi")
    };
    refused_as(
        c.make(&ama.player, "", bullet_six).await,
        "rated_needs_clock",
    );
    let days = NewChallenge {
        clock: Some(Clock::days(3).unwrap()),
        ..casual("Kofi")
    };
    refused_as(c.make(&ama.player, "", days).await, "bad_clock");
    let side = NewChallenge {
        colour: 'X',
        ..casual("Kofi")
    };
    refused_as(c.make(&ama.player, "", side).await, "bad_side");

    // Blocks, either way.
    w.accounts.block(&kofi, "Ama").await.unwrap();
    refused_as(c.make(&ama.player, "", casual("Kofi")).await, "blocked");
    refused_as(c.make(&kofi.player, "", casual("Ama")).await, "blocked");
    w.accounts.unblock(&kofi, "Ama").await.unwrap();

    // Kid mode: accounts only (a guest's name is free text).
    w.accounts.set_kid(&kofi, true).await.unwrap();
    refused_as(c.make(&guest(9), "Yaw", casual("Kofi")).await, "kid_mode");
    let made = c.make(&ama.player, "", casual("Kofi")).await.unwrap();

    // One open challenge to one player at a time.
    refused_as(
        c.make(&ama.player, "", casual("Kofi")).await,
        "already_challenged",
    );

    // Only the challenged answers, only the challenger withdraws.
    refused_as(c.accept(made.id, &ama.player).await, "not_your_challenge");
    refused_as(c.decline(made.id, &ama.player).await, "not_your_challenge");
    refused_as(c.cancel(made.id, &kofi.player).await, "not_your_challenge");
    // A stranger does not even see it.
    refused_as(c.accept(made.id, &guest(3)).await, "no_such_challenge");
    refused_as(c.accept(9_999, &kofi.player).await, "no_such_challenge");

    // A block made since the challenge: no game.
    w.accounts.block(&ama, "Kofi").await.unwrap();
    refused_as(c.accept(made.id, &kofi.player).await, "blocked");
}

#[tokio::test]
async fn a_player_has_at_most_a_few_open_challenges() {
    let w = world();
    let ama = w.sign_up("Ama", 1).await;
    let mut ids = Vec::new();
    for n in 0..MAX_OPEN {
        w.sign_up(&format!("player{n}"), 10 + n as u8).await;
        let made = w.made(&ama.player, "", casual(&format!("player{n}"))).await;
        ids.push(made.id);
    }
    w.sign_up("oneMore", 99).await;
    let refused = w.challenges.make(&ama.player, "", casual("oneMore")).await;
    assert_eq!(refused.unwrap_err().code, "too_many_challenges");
    // A withdrawn one frees its place.
    w.challenges.cancel(ids[0], &ama.player).await.unwrap();
    w.challenges
        .make(&ama.player, "", casual("oneMore"))
        .await
        .unwrap();
}

#[tokio::test]
async fn decline_and_withdraw_settle_the_challenge_and_tell_both() {
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    // Declined by Kofi (Ama hears it), then one withdrawn by Ama (Kofi
    // hears it): settled, a second answer is refused.
    for (by_kofi, state) in [
        (true, ChallengeState::Declined),
        (false, ChallengeState::Withdrawn),
    ] {
        let hearer = if by_kofi { &ama } else { &kofi };
        let mut hears = w.games.hub().watch_player(&hearer.player);
        let made = w.made(&ama.player, "", casual("Kofi")).await;
        let _ = hears.events.try_recv();
        let settled = if by_kofi {
            w.challenges.decline(made.id, &kofi.player).await
        } else {
            w.challenges.cancel(made.id, &ama.player).await
        };
        assert_eq!(settled.unwrap().state, state);
        let heard = hears.events.try_recv().unwrap();
        assert!(heard
            .data
            .contains(&format!("\"state\":\"{}\"", state.as_str())));
        if by_kofi {
            refused_as(
                w.challenges.cancel(made.id, &ama.player).await,
                "challenge_settled",
            );
        } else {
            refused_as(
                w.challenges.accept(made.id, &kofi.player).await,
                "challenge_settled",
            );
        }
    }
    // Settled ones are listed a little while, then no more.
    let mine = w.challenges.mine(&ama.player).await.unwrap();
    assert!(mine.sent.iter().all(|c| c.state != ChallengeState::Open));
    w.time.advance(Duration::from_secs(120));
    assert!(w
        .challenges
        .mine(&ama.player)
        .await
        .unwrap()
        .sent
        .is_empty());
}

#[tokio::test]
async fn a_challenge_nobody_answers_expires() {
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    let made = w.made(&ama.player, "", casual("Kofi")).await;
    assert_eq!(made.expires_ms, made.created_ms + EXPIRES_MS);
    w.time
        .advance(Duration::from_millis(EXPIRES_MS as u64 - 1_000));
    assert_eq!(
        w.challenges.mine(&kofi.player).await.unwrap().received[0].state,
        ChallengeState::Open
    );
    w.time.advance(Duration::from_secs(2));
    let mine = w.challenges.mine(&kofi.player).await.unwrap();
    assert_eq!(mine.received[0].state, ChallengeState::Expired);
    refused_as(
        w.challenges.accept(made.id, &kofi.player).await,
        "challenge_settled",
    );

    // Accepting an expired one settles it so (nobody listed it first).
    let again = w.made(&ama.player, "", casual("Kofi")).await;
    w.time.advance(Duration::from_millis(EXPIRES_MS as u64));
    refused_as(
        w.challenges.accept(again.id, &kofi.player).await,
        "challenge_expired",
    );
    // An expired one no longer counts as waiting: a new one may be sent.
    w.challenges
        .make(&ama.player, "", casual("Kofi"))
        .await
        .unwrap();
}

/// A stored online game (for ratings to refer to).
async fn some_game(w: &World) -> i64 {
    let game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 1);
    w.games.create(vec![game]).await.unwrap()[0].id
}

#[tokio::test]
async fn a_seek_with_a_rating_range_is_taken_only_by_ratings_within_it() {
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    let yaw = w.sign_up("Yaw", 3).await;
    let efua = w.sign_up("Efua", 4).await;
    // Kofi beats Yaw twice in blitz: far above 1500, Yaw far below.
    for _ in 0..2 {
        let id = some_game(&w).await;
        w.store
            .rate_game(
                id,
                [kofi.player.clone(), yaw.player.clone()],
                Speed::Blitz,
                Some(Side::South),
                1,
            )
            .await
            .unwrap();
    }
    // Ama's 3+2 seek in the lobby, ± 100 around her 1500.
    let mut seek = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 2);
    seek.clock = Some(Clock::new(180_000, 2_000));
    seek.public = true;
    seek.rating_range = parse_rating_range(Some(100), true, true).unwrap();
    seek.seats[0] = Some(Seat {
        player: ama.player.clone(),
        name: "Ama".into(),
    });
    let seek = w.games.create(vec![seek]).await.unwrap().remove(0);
    // Kept by the store, and shown in the lobby.
    let stored = w.games.load(seek.id).await.unwrap();
    assert_eq!(stored.rating_range, Some(100));
    let lobby = w.store.lobby(10).await.unwrap();
    assert_eq!(lobby[0].rating_range, Some(100));

    for (who, rating) in [(&kofi, "high"), (&yaw, "low")] {
        let refused = w
            .players
            .check_rating_range(&stored, &who.player)
            .await
            .unwrap_err();
        assert_eq!(refused.code.as_str(), "out_of_range", "{rating}");
        assert_eq!(refused.fields["low"], 1400);
        assert_eq!(refused.fields["high"], 1600);
    }
    let refused = w
        .players
        .check_rating_range(&stored, &guest(5))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code.as_str(), refused.reason),
        ("out_of_range", Some("guest"))
    );
    w.players
        .check_rating_range(&stored, &efua.player)
        .await
        .unwrap();
    // A seek without a range: anyone.
    let mut open = stored.clone();
    open.rating_range = None;
    w.players
        .check_rating_range(&open, &guest(5))
        .await
        .unwrap();
}

#[test]
fn a_rating_range_is_a_lobby_seeks_and_an_accounts() {
    assert_eq!(parse_rating_range(None, false, false).unwrap(), None);
    assert_eq!(
        parse_rating_range(Some(300), true, true).unwrap(),
        Some(300)
    );
    for (range, public, account, code) in [
        (0, true, true, "bad_range"),
        (5_000, true, true, "bad_range"),
        (200, false, true, "bad_range"),
        (200, true, false, "range_needs_account"),
    ] {
        let refused = parse_rating_range(Some(range), public, account).unwrap_err();
        assert_eq!(refused.code.as_str(), code, "{range} {public} {account}");
    }
}

#[tokio::test]
async fn guests_challenges_are_capped_and_an_accounts_comes_first() {
    use awale_service::challenges::MAX_FROM_GUESTS;
    let w = world();
    let (ama, kofi) = w.ama_and_kofi().await;
    // Kofi (an account, a friend) challenges first; then guests by the
    // hundred (issue 38: 120 buried the friend's challenge).
    w.made(&kofi.player, "", casual("Ama")).await;
    let mut refused = 0;
    for n in 0..120u8 {
        // From as many addresses (from one, the address's limit of games
        // made stops them sooner: `limits.rs`).
        let from = Caller::new(guest(n), Some(IpAddr::from([10, 0, 1, n])));
        match w.challenges.make(from, "Spam", casual("Ama")).await {
            Ok(_) => {}
            Err(e) => {
                assert_eq!(
                    (e.code.as_str(), e.reason),
                    ("too_many_challenges", Some("guests"))
                );
                refused += 1;
            }
        }
    }
    assert_eq!(refused, 120 - MAX_FROM_GUESTS);
    let mine = w.challenges.mine(&ama.player).await.unwrap();
    assert_eq!(mine.received.len(), MAX_FROM_GUESTS + 1);
    assert_eq!(mine.received[0].from, "Kofi", "the account's first");
    assert!(mine.received[0].from_account);
    // Another account still challenges Ama.
    w.sign_up("Abena", 3).await;
    let abena = w
        .store
        .account_by_key("abena".into())
        .await
        .unwrap()
        .unwrap();
    w.made(&abena.player, "", casual("Ama")).await;
}
