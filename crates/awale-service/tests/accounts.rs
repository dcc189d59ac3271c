//! Accounts without HTTP, on a real (scratch) SQLite store: sign-up,
//! log-in and its limits, sessions, recovery codes, a guest's games taken
//! over, deletion, blocks, reports and the moderators' actions.

mod common;

use std::net::IpAddr;
use std::sync::Arc;

use awale_core::{Game, Rules, Side};
use awale_model::account::Role;
use awale_model::game::{now_ms, Mode, PlayerId, Seat, WebGame};
use awale_model::lists::ChatLine;
use awale_service::accounts::Accounts;
use awale_service::chat::Chat;
use awale_service::games::Games;
use awale_service::limiter::Rate;
use awale_service::live::Hub;
use awale_service::tournaments::Tournaments;
use awale_store::Store;
use awale_store::{AccountStore, GameStore};

use awale_model::Code;
use common::{ip, refused_as, resign_seated, Ratings, World, PASSWORD};

fn world() -> World {
    common::world(Ratings::Off)
}

fn guest(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

#[tokio::test]
async fn a_new_account_logs_in_with_its_password_only() {
    let w = world();
    let made = w.sign_up("Ama", 1).await;
    assert_eq!(made.account.username, "Ama");
    assert_eq!(made.account.role, Role::Player);
    assert_eq!(made.recovery_codes.len(), 10);
    // The hash is argon2id's, with its parameters; never the password.
    assert!(made
        .account
        .password_hash
        .starts_with("$argon2id$v=19$m=1024,t=1,p=1$"));
    assert!(!made.account.password_hash.contains(PASSWORD));
    let session = w.accounts.session(&made.session).await.unwrap().unwrap();
    assert_eq!(session.id, made.account.id);

    let again = w.accounts.log_in("AMA", PASSWORD, ip(1)).await.unwrap();
    assert_eq!(again.account.id, made.account.id);
    assert_ne!(again.session, made.session);
    let wrong = w.accounts.log_in("ama", "not the password", ip(1)).await;
    assert_eq!(wrong.unwrap_err().code, "bad_login");
    let nobody = w.accounts.log_in("kofi", PASSWORD, ip(1)).await;
    assert_eq!(nobody.unwrap_err().code, "bad_login", "one answer for both");
}

#[tokio::test]
async fn a_username_is_taken_whatever_its_case() {
    let w = world();
    w.sign_up("Kofi", 1).await;
    let e = w
        .accounts
        .sign_up("kOFI", PASSWORD, None, ip(2))
        .await
        .unwrap_err();
    assert_eq!(e.code.as_str(), "username_taken");
}

#[tokio::test]
async fn the_store_keeps_only_digests_of_sessions_and_codes() {
    let w = world();
    let made = w.sign_up("Yaw", 1).await;
    let path = w.store.path().to_path_buf();
    w.store.close();
    let bytes = std::fs::read(&path).unwrap();
    let file = String::from_utf8_lossy(&bytes);
    assert!(
        !file.contains(&made.session),
        "the session's secret is stored"
    );
    for code in &made.recovery_codes {
        assert!(!file.contains(&code.replace('-', "")), "a code is stored");
        assert!(!file.contains(code.as_str()), "a code is stored");
    }
    assert!(!file.contains(PASSWORD));
}

#[tokio::test]
async fn log_out_ends_one_session_and_log_out_everywhere_all() {
    let w = world();
    let made = w.sign_up("Efua", 1).await;
    let second = w.accounts.log_in("efua", PASSWORD, ip(1)).await.unwrap();
    let third = w.accounts.log_in("efua", PASSWORD, ip(1)).await.unwrap();
    w.accounts.log_out(&made.session).await.unwrap();
    assert!(w.accounts.session(&made.session).await.unwrap().is_none());
    assert!(w.accounts.session(&second.session).await.unwrap().is_some());
    let ended = w
        .accounts
        .log_out_everywhere(&second.account)
        .await
        .unwrap();
    assert_eq!(ended, 2);
    assert!(w.accounts.session(&second.session).await.unwrap().is_none());
    assert!(w.accounts.session(&third.session).await.unwrap().is_none());
    assert!(w.accounts.session("not a session").await.unwrap().is_none());
}

#[tokio::test]
async fn log_ins_are_limited_per_account_with_the_wait_told() {
    let w = world();
    w.sign_up("Kwame", 1).await;
    for n in 0..5 {
        let e = w
            .accounts
            .log_in("kwame", "guess", ip(n))
            .await
            .unwrap_err();
        assert_eq!(e.code.as_str(), "bad_login");
    }
    // The right password, from yet another address: still refused now.
    let e = w
        .accounts
        .log_in("kwame", PASSWORD, ip(9))
        .await
        .unwrap_err();
    assert_eq!((e.code.as_str(), e.reason), ("too_many", Some("logins")));
    assert!(e.fields["wait_s"].as_i64().unwrap() >= 1);
    // Another account is not held up.
    w.sign_up("Abena", 2).await;
    w.accounts.log_in("abena", PASSWORD, ip(9)).await.unwrap();
}

#[tokio::test]
async fn only_failed_password_checks_count_against_the_log_in_limit() {
    let w = world();
    let made = w.sign_up("Kwesi", 1).await;
    // Right passwords, more than the limit's five: none counts.
    for n in 0..8 {
        w.accounts.log_in("kwesi", PASSWORD, ip(n)).await.unwrap();
    }
    w.accounts
        .new_recovery_codes(&made.account, PASSWORD, ip(1))
        .await
        .unwrap();
    // Four wrong ones leave one try; a right one takes none of it.
    for _ in 0..4 {
        refused_as(
            w.accounts.log_in("kwesi", "guess", ip(1)).await,
            "bad_login",
        );
    }
    w.accounts.log_in("kwesi", PASSWORD, ip(1)).await.unwrap();
    // A wrong password where the account is known says so.
    refused_as(
        w.accounts.delete(&made.account, "guess", ip(1)).await,
        "bad_password",
    );
    let e = w
        .accounts
        .delete(&made.account, PASSWORD, ip(1))
        .await
        .unwrap_err();
    assert_eq!((e.code.as_str(), e.reason), ("too_many", Some("logins")));
}

#[tokio::test]
async fn log_ins_are_limited_per_address() {
    let w = world();
    let mut refused = None;
    for n in 0..30 {
        match w.accounts.log_in(&format!("name{n}"), "guess", ip(7)).await {
            Err(e) if e.code == Code::TooMany => {
                refused = Some((n, e));
                break;
            }
            Err(e) => assert_eq!(e.code.as_str(), "bad_login"),
            Ok(_) => unreachable!(),
        }
    }
    let (n, e) = refused.expect("an address is limited");
    assert_eq!(n, 20);
    assert!(e.fields["wait_s"].as_i64().unwrap() >= 1);
}

#[tokio::test]
async fn a_recovery_code_resets_the_password_once() {
    let w = world();
    let made = w.sign_up("Akua", 1).await;
    let code = made.recovery_codes[3].to_uppercase();
    let reset = w
        .accounts
        .reset_password("akua", &code, "a brand new password", ip(1))
        .await
        .unwrap();
    assert!(w.accounts.session(&made.session).await.unwrap().is_none());
    assert!(w.accounts.session(&reset.session).await.unwrap().is_some());
    refused_as(
        w.accounts.log_in("akua", PASSWORD, ip(1)).await,
        "bad_login",
    );
    w.accounts
        .log_in("akua", "a brand new password", ip(1))
        .await
        .unwrap();
    let used = w
        .accounts
        .reset_password("akua", &code, "yet another password", ip(1))
        .await
        .unwrap_err();
    assert_eq!(used.code.as_str(), "bad_recovery_code");
    let made_up = w
        .accounts
        .reset_password("akua", "0000-0000-0000", "yet another password", ip(1))
        .await
        .unwrap_err();
    assert_eq!(made_up.code.as_str(), "bad_recovery_code");
    assert_eq!(
        w.accounts
            .recovery_codes_left(&reset.account)
            .await
            .unwrap(),
        9
    );
}

#[tokio::test]
async fn changing_the_password_asks_the_current_one_and_ends_the_other_sessions() {
    let w = world();
    let made = w.sign_up("Esi", 1).await;
    let other = w.accounts.log_in("esi", PASSWORD, ip(1)).await.unwrap();
    let wrong = w
        .accounts
        .change_password(
            &made.account,
            &made.session,
            "nope",
            "new password here",
            ip(1),
        )
        .await
        .unwrap_err();
    assert_eq!(wrong.code.as_str(), "bad_password");
    let weak = w
        .accounts
        .change_password(&made.account, &made.session, PASSWORD, "password1", ip(1))
        .await
        .unwrap_err();
    assert_eq!(weak.code.as_str(), "weak_password");
    w.accounts
        .change_password(
            &made.account,
            &made.session,
            PASSWORD,
            "new password here",
            ip(1),
        )
        .await
        .unwrap();
    assert!(w.accounts.session(&made.session).await.unwrap().is_some());
    assert!(w.accounts.session(&other.session).await.unwrap().is_none());
    w.accounts
        .log_in("esi", "new password here", ip(1))
        .await
        .unwrap();
}

async fn online_game(w: &World, south: &PlayerId, north: Option<&PlayerId>) -> WebGame {
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now_ms(), 3);
    game.seats[Side::South.index()] = Some(Seat {
        player: south.clone(),
        name: "#1234".into(),
    });
    if let Some(north) = north {
        game.seats[Side::North.index()] = Some(Seat {
            player: north.clone(),
            name: "Kofi".into(),
        });
    }
    w.games.create(vec![game]).await.unwrap().remove(0)
}

#[tokio::test]
async fn signing_up_takes_the_guests_games_and_seats() {
    let w = world();
    let me = guest(1);
    let other = guest(2);
    let playing = online_game(&w, &me, Some(&other)).await;
    let waiting = online_game(&w, &me, None).await;
    let theirs = online_game(&w, &other, None).await;
    w.store
        .set_player_name(me.clone(), "Ama the guest".into(), now_ms())
        .await
        .unwrap();
    let made = w
        .accounts
        .sign_up("Ama", PASSWORD, Some(me.clone()), ip(1))
        .await
        .unwrap();
    let player = made.account.player.clone();
    assert_ne!(player, me);
    // In memory (the games being played) and in the store alike.
    for id in [playing.id, waiting.id] {
        let game = w.games.load(id).await.unwrap();
        let seat = game.seats[Side::South.index()].as_ref().unwrap();
        assert_eq!((&seat.player, seat.name.as_str()), (&player, "Ama"));
        let stored = GameStore::load(&w.store, id).await.unwrap().unwrap();
        assert_eq!(stored.seats, game.seats);
    }
    let untouched = w.games.load(theirs.id).await.unwrap();
    assert_eq!(untouched.seats[0].as_ref().unwrap().player, other);
    let listed = w.store.list(Some(player.clone()), None, 10).await.unwrap();
    let mut ids: Vec<i64> = listed.games.iter().map(|g| g.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![playing.id, waiting.id]);
    assert!(w
        .store
        .list(Some(me), None, 10)
        .await
        .unwrap()
        .games
        .is_empty());
    assert_eq!(
        w.store.player_name(player).await.unwrap().as_deref(),
        Some("Ama")
    );
}

#[tokio::test]
async fn a_deleted_account_keeps_its_games_but_not_its_name_nor_a_way_in() {
    let w = world();
    let made = w
        .accounts
        .sign_up("Kojo", PASSWORD, Some(guest(5)), ip(1))
        .await
        .unwrap();
    let game = online_game(&w, &made.account.player, Some(&guest(6))).await;
    let wrong = w
        .accounts
        .delete(&made.account, "not it", ip(1))
        .await
        .unwrap_err();
    assert_eq!(wrong.code.as_str(), "bad_password");
    w.accounts
        .delete(&made.account, PASSWORD, ip(1))
        .await
        .unwrap();
    assert!(w.accounts.session(&made.session).await.unwrap().is_none());
    refused_as(
        w.accounts.log_in("kojo", PASSWORD, ip(2)).await,
        "bad_login",
    );
    let kept = w.games.load(game.id).await.unwrap();
    assert_eq!(kept.seats[0].as_ref().unwrap().name, "");
    assert_eq!(kept.seats[1].as_ref().unwrap().name, "Kofi");
    // Nobody takes the name again.
    let again = w.accounts.sign_up("KOJO", PASSWORD, None, ip(3)).await;
    assert_eq!(again.unwrap_err().code, "username_taken");
    let stored = w.store.account(made.account.id).await.unwrap().unwrap();
    assert!(stored.password_hash.is_empty());
    assert!(stored.deleted_ms.is_some());
}

#[tokio::test]
async fn a_deleted_accounts_finished_games_keep_their_dates() {
    // Issue 42: deleting an account wrote the deletion's time as the date
    // of each of its games (a 05:25 draw showed as 05:47, lists reordered).
    let w = world();
    let made = w.sign_up("Kwabena", 1).await;
    let game = online_game(&w, &made.account.player, Some(&guest(6))).await;
    resign_seated(&w.games, game.id, Side::North).await.unwrap();
    let date = |w: &World| {
        let store = w.store.clone();
        async move {
            let page = store.list(Some(guest(6)), None, 10).await.unwrap();
            page.games
                .iter()
                .find(|s| s.id == game.id)
                .unwrap()
                .updated_ms
        }
    };
    let ended = date(&w).await;
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    w.accounts
        .delete(&made.account, PASSWORD, ip(1))
        .await
        .unwrap();
    let kept = w.games.load(game.id).await.unwrap();
    assert_eq!(kept.seats[0].as_ref().unwrap().name, "", "named as deleted");
    assert_eq!(date(&w).await, ended, "the game keeps its date");
}

#[tokio::test]
async fn a_block_works_both_ways_and_only_between_accounts() {
    let w = world();
    let ama = w.sign_up("Ama", 1).await;
    let kofi = w.sign_up("Kofi", 2).await;
    let (a, k) = (&ama.account.player, &kofi.account.player);
    assert!(!w.accounts.blocks(a, k).await.unwrap());
    w.accounts.block(&ama.account, "KOFI").await.unwrap();
    assert!(w.accounts.blocks(a, k).await.unwrap());
    assert!(w.accounts.blocks(k, a).await.unwrap());
    refused_as(w.accounts.check_not_blocked(k, a).await, "blocked");
    assert!(!w.accounts.blocks(a, &guest(1)).await.unwrap());
    assert_eq!(
        w.accounts.blocked_by(&ama.account).await.unwrap(),
        vec!["Kofi".to_string()]
    );
    refused_as(w.accounts.block(&ama.account, "ama").await, "bad_block");
    w.accounts.unblock(&ama.account, "kofi").await.unwrap();
    assert!(!w.accounts.blocks(a, k).await.unwrap());
}

#[tokio::test]
async fn reports_reach_the_moderators_only() {
    let w = world();
    let ama = w.sign_up("Ama", 1).await;
    let kofi = w.sign_up("Kofi", 2).await;
    let game = online_game(&w, &ama.account.player, Some(&kofi.account.player)).await;
    let bad = w
        .accounts
        .report(&ama.account, "kofi", Some(&game.public_id), "rude", "")
        .await
        .unwrap_err();
    assert_eq!(
        (bad.code.as_str(), bad.reason),
        ("bad_report", Some("reason"))
    );
    // A game is named by its public id, never by the store's number.
    let number = game.id.to_string();
    for other in [number.as_str(), "-1", "0000000000"] {
        refused_as(
            w.accounts
                .report(&ama.account, "kofi", Some(other), "insults", "")
                .await,
            "no_such_game",
        );
    }
    let id = w
        .accounts
        .report(
            &ama.account,
            "kofi",
            Some(&game.public_id),
            "insults",
            "he wrote \u{202e}bad words",
        )
        .await
        .unwrap();
    refused_as(w.accounts.reports(&ama.account).await, "not_moderator");
    let mo = w.accounts.grant_moderator("ama").await.unwrap();
    let reports = w.accounts.reports(&mo).await.unwrap();
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(
        (
            report.id,
            report.reporter.as_str(),
            report.reported.as_str()
        ),
        (id, "Ama", "Kofi")
    );
    assert_eq!(
        report.game.as_deref(),
        Some(game.public_id.as_str()),
        "shown by its public id"
    );
    assert_eq!(report.text, "he wrote bad words", "turning marks dropped");
    w.moderation.dismiss(&mo, id, "checked").await.unwrap();
    refused_as(
        w.moderation.dismiss(&mo, id, "checked").await,
        "no_such_report",
    );
    let reports = w.accounts.reports(&mo).await.unwrap();
    assert_eq!(reports[0].resolved_by.as_deref(), Some("Ama"));
    // The pairs flagged for playing rated from one place: moderators only.
    refused_as(w.moderation.desk(&kofi.account).await, "not_moderator");
    assert!(w.moderation.desk(&mo).await.unwrap().flags.is_empty());
}

#[tokio::test]
async fn a_moderator_mutes_removes_a_line_and_closes_an_account() {
    let w = world();
    w.sign_up("Ama", 1).await;
    let kofi = w.sign_up("Kofi", 2).await;
    let mo = w.accounts.grant_moderator("Ama").await.unwrap();
    refused_as(
        w.moderation.mute(&kofi.account, "ama", true, "spam").await,
        "not_moderator",
    );
    w.moderation.mute(&mo, "kofi", true, "spam").await.unwrap();
    let muted = w.accounts.session(&kofi.session).await.unwrap().unwrap();
    assert_eq!(
        Accounts::check_may_chat(Some(&muted)).unwrap_err().code,
        "muted"
    );
    Accounts::check_may_chat(None).unwrap();

    let game = online_game(&w, &mo.player, Some(&kofi.account.player)).await;
    let line = w
        .store
        .add_chat(
            game.id,
            ChatLine {
                id: 0,
                room: "public",
                at_ms: now_ms(),
                side: Some('N'),
                name: "Kofi".into(),
                text: "rude words".into(),
                guest: None,
            },
        )
        .await
        .unwrap();
    // The chat service removes it (its accounts over the same store).
    let chat = Chat::new(
        Arc::clone(&w.games),
        Arc::new(
            Accounts::with_cost(Arc::new(w.store.clone()), Arc::clone(&w.games), 1024, 1).unwrap(),
        ),
        Tournaments::new(Arc::clone(&w.games), Arc::new(w.store.clone()), None),
        Arc::new(w.store.clone()),
        Rate {
            burst: 5,
            every_ms: 2_000,
        },
    );
    refused_as(
        chat.remove_game_line(&kofi.account, &game.public_id, line.id)
            .await,
        "not_moderator",
    );
    // The game by its public id; the store's number is never shown, so a
    // number names no game.
    refused_as(
        chat.remove_game_line(&mo, &game.id.to_string(), line.id)
            .await,
        "no_such_game",
    );
    chat.remove_game_line(&mo, &game.public_id, line.id)
        .await
        .unwrap();
    assert!(w.store.chat(game.id, 10).await.unwrap().is_empty());
    refused_as(
        chat.remove_game_line(&mo, &game.public_id, line.id).await,
        "no_such_line",
    );

    w.moderation.close(&mo, "kofi", "spam").await.unwrap();
    assert!(w.accounts.session(&kofi.session).await.unwrap().is_none());
    refused_as(
        w.accounts.log_in("kofi", PASSWORD, ip(3)).await,
        "account_closed",
    );
    refused_as(
        w.moderation.close(&mo, "ama", "spam").await,
        "moderator_rank",
    );
}

#[tokio::test]
async fn kid_mode_is_kept_with_the_account() {
    let w = world();
    let made = w.sign_up("Adjoa", 1).await;
    assert!(!made.account.kid);
    w.accounts.set_kid(&made.account, true).await.unwrap();
    let now = w.accounts.session(&made.session).await.unwrap().unwrap();
    assert!(now.kid);
    assert!(now.view().kid);
}

#[tokio::test]
async fn a_flood_of_log_ins_waits_in_a_bounded_queue_then_is_told_to_wait() {
    // The server's own cost: a hash takes milliseconds, so the tries pile
    // up behind the few hashing turns; past the queue's bound they are
    // refused at once (`busy`, with a wait) instead of piling up.
    let store = Store::in_memory().unwrap();
    let games = Arc::new(Games::new(
        Arc::new(store.clone()),
        Arc::new(Hub::default()),
    ));
    let accounts = Arc::new(Accounts::new(Arc::new(store), games).unwrap());
    let mut tries = Vec::new();
    for n in 0..200u8 {
        let accounts = Arc::clone(&accounts);
        tries.push(tokio::spawn(async move {
            accounts
                .log_in(
                    &format!("user{n}"),
                    "a password",
                    Some(IpAddr::from([10, 1, 0, n])),
                )
                .await
        }));
    }
    let mut busy = 0;
    for t in tries {
        let e = t.await.unwrap().unwrap_err();
        match e.code.as_str() {
            "busy" => {
                assert_eq!(e.reason, Some("logins"));
                assert!(e.fields["wait_s"].as_i64().unwrap() >= 1);
                busy += 1;
            }
            code => assert_eq!(code, "bad_login"),
        }
    }
    assert!(busy > 0, "200 log-ins at once all waited");
    assert!(busy < 200 - awale_service::accounts::MAX_WAITING_HASHES);
}

fn code<T>(r: Result<T, awale_model::Error>) -> &'static str {
    match r {
        Ok(_) => "ok",
        Err(e) => e.code.as_str(),
    }
}

#[tokio::test]
async fn hostile_names_codes_and_passwords_are_refused_with_codes() {
    let w = world();
    let long = "x".repeat(10_000);
    assert_eq!(
        code(w.accounts.log_in(&long, PASSWORD, ip(1)).await),
        "bad_login"
    );
    assert_eq!(
        code(w.accounts.log_in("ama", &long, ip(1)).await),
        "bad_login"
    );
    assert_eq!(
        code(w.accounts.sign_up(&long, PASSWORD, None, ip(1)).await),
        "bad_username"
    );
    assert_eq!(
        code(w.accounts.sign_up("Ama\u{0}x", PASSWORD, None, ip(1)).await),
        "bad_username"
    );
    let e = w
        .accounts
        .sign_up("Ama", &long, None, ip(1))
        .await
        .unwrap_err();
    assert_eq!((e.code.as_str(), e.reason), ("weak_password", Some("long")));
    assert_eq!(
        code(
            w.accounts
                .reset_password(&long, &long, PASSWORD, ip(2))
                .await
        ),
        "bad_recovery_code"
    );
}

#[tokio::test]
async fn a_device_that_logged_in_before_is_not_locked_out_by_strangers() {
    let w = world();
    let made = w.sign_up("Yaw", 1).await;
    let mine = w
        .accounts
        .log_in_on("yaw", PASSWORD, ip(1), None)
        .await
        .unwrap();
    assert_eq!(mine.device.len(), 64);
    // Strangers, from many addresses, use up the account's tries.
    for n in 10..20 {
        let _ = w.accounts.log_in("yaw", "guess", ip(n)).await;
    }
    let stranger = w.accounts.log_in("yaw", PASSWORD, ip(30)).await;
    assert_eq!(
        stranger.unwrap_err().code,
        "too_many",
        "strangers stay limited"
    );
    // A device secret of another account, or a made-up one, is a stranger's.
    let other = w.sign_up("Adwoa", 2).await;
    let theirs = w
        .accounts
        .log_in_on("adwoa", PASSWORD, ip(2), None)
        .await
        .unwrap();
    for forged in [theirs.device.as_str(), &"ab".repeat(32), "short"] {
        let e = w
            .accounts
            .log_in_on("yaw", PASSWORD, ip(31), Some(forged))
            .await
            .unwrap_err();
        assert_eq!(e.code.as_str(), "too_many", "{forged}");
    }
    // The device it logged in on gets in.
    let again = w
        .accounts
        .log_in_on("yaw", PASSWORD, ip(1), Some(&mine.device))
        .await
        .unwrap();
    assert_eq!(again.account.id, made.account.id);
    // A device's own wrong tries are limited too.
    let mut refused = false;
    for _ in 0..10 {
        let e = w
            .accounts
            .log_in_on("yaw", "guess", ip(1), Some(&mine.device))
            .await
            .unwrap_err();
        refused |= e.code == Code::TooMany;
    }
    assert!(refused);
    assert_ne!(other.account.id, made.account.id);
}

#[tokio::test]
async fn a_refused_try_still_costs_the_address_its_try() {
    use awale_service::limiter::Rate;
    let store = Store::in_memory().unwrap();
    let games = Arc::new(Games::new(
        Arc::new(store.clone()),
        Arc::new(Hub::default()),
    ));
    let slow = Rate {
        burst: 1,
        every_ms: 600_000,
    };
    let client = Rate {
        burst: 4,
        every_ms: 600_000,
    };
    let accounts = Accounts::with_cost(Arc::new(store), games, 1024, 1)
        .unwrap()
        .with_limits(slow, client, awale_service::accounts::SIGNUPS_PER_CLIENT);
    accounts
        .sign_up("Kojo", PASSWORD, None, ip(1))
        .await
        .unwrap();
    // One wrong try, then polling: each 429 takes the address's try.
    refused_as(accounts.log_in("kojo", "guess", ip(5)).await, "bad_login");
    for _ in 0..3 {
        refused_as(accounts.log_in("kojo", "guess", ip(5)).await, "too_many");
    }
    // The address has no try left, whatever the name.
    refused_as(accounts.log_in("someone", "guess", ip(5)).await, "too_many");
    refused_as(
        accounts.log_in("someone", "guess", ip(6)).await,
        "bad_login",
    );
}

#[tokio::test]
async fn busy_never_counts_as_a_failed_try() {
    let w = Arc::new(world());
    w.sign_up("Efua", 1).await;
    let mut busy = 0;
    for round in 0..200u32 {
        // A flood of made-up names from many addresses fills the queue of
        // hashes while the honest player tries.
        let flood: Vec<_> = (0..120u32)
            .map(|i| {
                let w = Arc::clone(&w);
                tokio::spawn(async move {
                    let from = Some(IpAddr::from([10, 1, (i % 250) as u8, (round % 250) as u8]));
                    let _ = w
                        .accounts
                        .log_in(&format!("nobody{round}x{i}"), "guess", from)
                        .await;
                })
            })
            .collect();
        tokio::task::yield_now().await;
        match w.accounts.log_in("efua", PASSWORD, ip(1)).await {
            Err(e) if e.code == Code::Busy => busy += 1,
            Err(e) => panic!("the honest player was refused: {e:?} after {busy} busy"),
            Ok(_) => {}
        }
        for task in flood {
            task.await.unwrap();
        }
        if busy >= 6 {
            break;
        }
    }
    assert!(busy >= 6, "the flood made the server busy ({busy})");
    // Six busy answers took none of the account's five tries.
    w.accounts.log_in("efua", PASSWORD, ip(1)).await.unwrap();
}

#[tokio::test]
async fn a_reset_answers_the_same_for_a_known_name_and_an_unknown_one() {
    let w = world();
    w.sign_up("Kofi", 1).await;
    for name in ["kofi", "nobody-at-all"] {
        let weak = w
            .accounts
            .reset_password(name, "0000-0000-0000", "short", ip(2))
            .await
            .unwrap_err();
        assert_eq!(weak.code.as_str(), "weak_password", "{name}");
        let wrong = w
            .accounts
            .reset_password(name, "0000-0000-0000", "a long enough password", ip(3))
            .await
            .unwrap_err();
        assert_eq!(wrong.code.as_str(), "bad_recovery_code", "{name}");
    }
}

#[tokio::test]
async fn names_that_pass_for_another_are_refused() {
    let w = world();
    w.sign_up("alice_s", 1).await;
    // Issue 38: each of these was taken as a guest's nickname.
    for (name, code, reason) in [
        ("аlice_s", "bad_name", "mixed_scripts"),    // Cyrillic а
        ("Аdmin", "bad_name", "mixed_scripts"),      // Cyrillic А
        ("ａｌｉｃｅ＿ｓ", "name_taken", "account"), // full width
        ("aIice_s", "name_taken", "account"),        // I for l
        ("ALICE_S", "name_taken", "account"),
        ("Deleted player", "name_taken", "reserved"),
        ("Joueur supprimé", "name_taken", "reserved"),
        ("Guest 1234", "name_taken", "reserved"),
        ("ADMlN", "name_taken", "reserved"),
    ] {
        let e = w
            .accounts
            .check_guest_name(name, Some(4321))
            .await
            .unwrap_err();
        assert_eq!((e.code.as_str(), e.reason), (code, Some(reason)), "{name}");
    }
    // A guest sits under the page's own name for it, not another's
    // (the default name a joining guest's page sends).
    w.accounts
        .check_guest_name("Guest 1234", Some(1234))
        .await
        .unwrap();
    w.accounts
        .check_guest_name("Invité 1234", Some(1234))
        .await
        .unwrap();
    // Names of one script that pass for nobody are taken.
    for name in ["Kwame", "Ама", "Ζωή", "bob_2"] {
        w.accounts.check_guest_name(name, None).await.unwrap();
    }
    // Usernames too: an account's look-alike, a reserved name's.
    let e = w
        .accounts
        .sign_up("aIice_s", PASSWORD, None, ip(2))
        .await
        .unwrap_err();
    assert_eq!(e.code.as_str(), "username_taken");
    let e = w
        .accounts
        .sign_up("ADMlN", PASSWORD, None, ip(3))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.reason),
        ("bad_username", Some("reserved"))
    );
    assert!(awale_service::accounts::look_alike(
        "alice_s",
        "ａｌｉｃｅ＿ｓ"
    ));
    assert!(!awale_service::accounts::look_alike("alice_s", "alice_z"));
}

#[tokio::test]
async fn a_moderator_acts_neither_on_a_moderator_nor_on_themselves() {
    let w = world();
    w.sign_up("Ama", 1).await;
    w.sign_up("Kofi", 2).await;
    w.sign_up("Yaa", 3).await;
    let ama = w.accounts.grant_moderator("Ama").await.unwrap();
    w.accounts.grant_moderator("Kofi").await.unwrap();
    // Issue 38: a moderator closed another (no reopen) and muted itself.
    for (name, muted) in [("kofi", true), ("ama", true)] {
        refused_as(
            w.moderation.mute(&ama, name, muted, "rude").await,
            "moderator_rank",
        );
    }
    refused_as(
        w.moderation.close(&ama, "kofi", "rude").await,
        "moderator_rank",
    );
    refused_as(
        w.moderation.close(&ama, "ama", "rude").await,
        "moderator_rank",
    );
    // A player, muted, is unmuted: the action is undone.
    w.moderation.mute(&ama, "yaa", true, "rude").await.unwrap();
    w.moderation
        .mute(&ama, "yaa", false, "sorry")
        .await
        .unwrap();
    let yaa = w.store.account_by_key("yaa".into()).await.unwrap().unwrap();
    assert!(!yaa.muted);
}
