//! Moderation with ranks (issue 38), on a real (scratch) SQLite store:
//! who may act on whom, the log of every action with who, when and why,
//! each action undone, and the refund of the rating points farmed games
//! moved. `docs/SECURITY.md`, "Moderation", names these tests.

mod common;

use std::net::IpAddr;

use awale_core::{Game, Move, Rules, Side};
use awale_model::account::ModAction;
use awale_model::account::{Account, Role};
use awale_model::game::{Clock, Mode, Seat, WebGame};
use awale_store::ratings::RatingStore;
use awale_store::{AccountStore, ModerationStore, Store};

use common::{ip, play_seated, refused_as, resign_seated, Ratings, World, PASSWORD};

fn world() -> World {
    common::world(Ratings::On)
}

impl World {
    async fn account(&self, name: &str) -> Account {
        self.accounts.find(name).await.unwrap()
    }

    /// A rated blitz game of `south` against `north`, played four moves
    /// into (a real start) and resigned by North: its public id.
    async fn rated_win(&self, south: &Account, north: &Account) -> String {
        let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 9);
        for (side, a) in [(Side::South, south), (Side::North, north)] {
            game.seats[side.index()] = Some(Seat {
                player: a.player.clone(),
                name: a.username.clone(),
            });
        }
        game.clock = Some(Clock::new(180_000, 2_000));
        game.rated = true;
        let made = self.games.create(vec![game]).await.unwrap().remove(0);
        for _ in 0..4 {
            let now = self.games.load(made.id).await.unwrap();
            let mv: Move = now.game.legal_moves()[0];
            let ply = now.game.plies().len();
            play_seated(&self.games, made.id, Some(ply), mv)
                .await
                .unwrap();
        }
        let ended = resign_seated(&self.games, made.id, Side::North)
            .await
            .unwrap();
        assert!(ended.rated && ended.rating_changes.is_some());
        made.public_id
    }

    async fn rating(&self, a: &Account) -> f64 {
        self.store.ratings(a.player.clone()).await.unwrap()[0]
            .glicko
            .rating
    }
}

#[tokio::test]
async fn moderators_act_on_players_only_and_administrators_on_moderators_too() {
    let w = world();
    for (name, n) in [
        ("Ama", 1),
        ("Kofi", 2),
        ("Yaa", 3),
        ("Esi", 4),
        ("Kwame", 5),
    ] {
        w.sign_up(name, n).await;
    }
    let admin = w.accounts.grant_role("Esi", Role::Admin).await.unwrap();
    let ama = w.accounts.grant_moderator("Ama").await.unwrap();
    w.accounts.grant_moderator("Kofi").await.unwrap();
    let yaa = w.account("Yaa").await;
    // A player is no moderator.
    refused_as(
        w.moderation.mute(&yaa, "kwame", true, "spam").await,
        "not_moderator",
    );
    refused_as(w.moderation.log(&yaa).await, "not_moderator");
    // A moderator acts neither on a moderator, nor on an administrator,
    // nor on themselves (issue 38: a moderator closed another, muted
    // itself).
    for name in ["kofi", "esi", "ama"] {
        refused_as(
            w.moderation.mute(&ama, name, true, "spam").await,
            "moderator_rank",
        );
        refused_as(
            w.moderation.close(&ama, name, "spam").await,
            "moderator_rank",
        );
    }
    // Only an administrator grants or revokes the moderator's rank.
    refused_as(
        w.moderation.grant_moderator(&ama, "yaa", "helps").await,
        "not_admin",
    );
    refused_as(
        w.moderation.revoke_moderator(&ama, "kofi", "absent").await,
        "not_admin",
    );
    // An administrator acts on moderators, not on administrators or
    // themselves.
    w.moderation
        .mute(&admin, "kofi", true, "rude to players")
        .await
        .unwrap();
    refused_as(
        w.moderation.close(&admin, "esi", "test").await,
        "moderator_rank",
    );
    w.accounts.grant_role("Kwame", Role::Admin).await.unwrap();
    refused_as(
        w.moderation.close(&admin, "kwame", "test").await,
        "moderator_rank",
    );
    w.moderation
        .grant_moderator(&admin, "yaa", "helps in the French room")
        .await
        .unwrap();
    assert_eq!(w.account("yaa").await.role, Role::Moderator);
    refused_as(
        w.moderation.grant_moderator(&admin, "yaa", "again").await,
        "already_done",
    );
    w.moderation
        .revoke_moderator(&admin, "kofi", "absent for months")
        .await
        .unwrap();
    assert_eq!(w.account("kofi").await.role, Role::Player);
    // Now a player, Kofi is in the moderators' reach.
    w.moderation
        .mute(&ama, "kofi", false, "apologised")
        .await
        .unwrap();
    // What the page offers follows the ranks: nothing on an equal.
    let desk = w.moderation.account(&ama, "yaa").await.unwrap();
    assert!(desk.actions.is_empty(), "{desk:?}");
    let on_player = w.moderation.account(&admin, "kofi").await.unwrap();
    assert_eq!(
        on_player.actions,
        [ModAction::Mute, ModAction::Close, ModAction::GrantModerator]
    );
}

#[tokio::test]
async fn every_action_is_logged_with_who_when_and_why_and_can_be_undone() {
    let w = world();
    w.sign_up("Ama", 1).await;
    let kofi = w.sign_up("Kofi", 2).await;
    let mo = w.accounts.grant_moderator("Ama").await.unwrap();
    // A reason is required.
    for reason in ["", "   ", "\u{202e}"] {
        refused_as(
            w.moderation.close(&mo, "kofi", reason).await,
            "reason_needed",
        );
    }
    refused_as(
        w.moderation.close(&mo, "kofi", &"x".repeat(301)).await,
        "reason_needed",
    );
    w.moderation
        .close(&mo, "kofi", "insults in chat")
        .await
        .unwrap();
    assert!(w.accounts.session(&kofi.session).await.unwrap().is_none());
    refused_as(
        w.accounts.log_in("kofi", PASSWORD, ip(2)).await,
        "account_closed",
    );
    // The page offers what applies: a closed account is reopened.
    let state = w.moderation.account(&mo, "kofi").await.unwrap();
    assert!(state.closed && state.actions.contains(&ModAction::Reopen));
    refused_as(
        w.moderation.close(&mo, "kofi", "again").await,
        "already_done",
    );
    w.moderation
        .reopen(&mo, "kofi", "closed by mistake")
        .await
        .unwrap();
    w.accounts.log_in("kofi", PASSWORD, ip(2)).await.unwrap();
    w.moderation.mute(&mo, "kofi", true, "spam").await.unwrap();
    refused_as(
        w.moderation.mute(&mo, "kofi", true, "spam").await,
        "already_done",
    );
    let state = w.moderation.account(&mo, "kofi").await.unwrap();
    assert!(state.muted);
    assert_eq!(state.actions, [ModAction::Unmute, ModAction::Close]);
    w.moderation
        .mute(&mo, "kofi", false, "it was a joke")
        .await
        .unwrap();
    assert!(!w.account("kofi").await.muted);
    // The log, newest first: who, when, on whom, why.
    let log = w.moderation.log(&mo).await.unwrap();
    let seen: Vec<_> = log
        .iter()
        .map(|a| {
            (
                a.action,
                a.by.as_deref(),
                a.target.as_deref(),
                a.reason.as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                ModAction::Unmute,
                Some("Ama"),
                Some("Kofi"),
                "it was a joke"
            ),
            (ModAction::Mute, Some("Ama"), Some("Kofi"), "spam"),
            (
                ModAction::Reopen,
                Some("Ama"),
                Some("Kofi"),
                "closed by mistake"
            ),
            (
                ModAction::Close,
                Some("Ama"),
                Some("Kofi"),
                "insults in chat"
            ),
        ]
    );
    assert!(log.iter().all(|a| a.at_ms > 0));
    // The moderator page reads it too.
    assert_eq!(w.moderation.desk(&mo).await.unwrap().log.len(), 4);
}

#[tokio::test]
async fn a_refund_gives_both_players_their_points_back_and_marks_the_games() {
    let w = world();
    w.sign_up("Ama", 1).await;
    let farmer = w.sign_up("Kofi", 2).await.account;
    let helper = w.sign_up("Yaa", 3).await.account;
    let mo = w.accounts.grant_moderator("Ama").await.unwrap();
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(w.rated_win(&farmer, &helper).await);
    }
    let (won, lost) = (w.rating(&farmer).await, w.rating(&helper).await);
    assert!(won > 1600.0 && lost < 1400.0, "{won} {lost}");
    // The unusual gains of the day name the farmer with the games.
    let desk = w.moderation.desk(&mo).await.unwrap();
    let gain = desk.gains.iter().find(|g| g.username == "Kofi").unwrap();
    assert_eq!(gain.gain, (won - 1500.0).round() as i64);
    let mut listed: Vec<String> = gain.games.iter().map(|g| g.game.clone()).collect();
    listed.sort();
    let mut sorted = games.clone();
    sorted.sort();
    assert_eq!(listed, sorted);
    assert!(gain
        .games
        .iter()
        .all(|g| g.opponent == "Yaa" && g.points > 0));
    // Refused: no reason, no such game, a moderator's own game.
    refused_as(w.moderation.refund(&mo, &games, "").await, "reason_needed");
    refused_as(
        w.moderation
            .refund(&mo, &["nosuchgame".to_string()], "farmed")
            .await,
        "not_refundable",
    );
    let refunded = w
        .moderation
        .refund(&mo, &games, "a farmed series from one address")
        .await
        .unwrap();
    assert_eq!(refunded, 3);
    assert!((w.rating(&farmer).await - 1500.0).abs() < 1e-6);
    assert!((w.rating(&helper).await - 1500.0).abs() < 1e-6);
    // Once only; the games are marked; the gain is gone from the list.
    refused_as(
        w.moderation.refund(&mo, &games, "again").await,
        "not_refundable",
    );
    let desk = w.moderation.desk(&mo).await.unwrap();
    assert!(desk.gains.iter().all(|g| g.username != "Kofi"));
    let between = w
        .store
        .games_between(farmer.player.clone(), helper.player.clone(), 0)
        .await
        .unwrap();
    assert_eq!(between.len(), 3);
    assert!(between.iter().all(|g| g.refunded_ms.is_some()));
    let log = w.moderation.log(&mo).await.unwrap();
    assert_eq!(log.len(), 3);
    assert!(log
        .iter()
        .all(|a| a.action == ModAction::Refund && a.game.is_some()));
    // A moderator's own games are not theirs to refund.
    let mo_game = w.rated_win(&mo, &helper).await;
    refused_as(
        w.moderation
            .refund(&mo, std::slice::from_ref(&mo_game), "mine")
            .await,
        "moderator_rank",
    );
    refused_as(
        w.moderation
            .refund(&farmer, &[mo_game], "not a moderator")
            .await,
        "not_moderator",
    );
    // Untouched: the store's accounts stay as they were.
    assert!(w
        .store
        .account_by_key("kofi".into())
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_look_alike_name_is_found_by_its_kept_skeleton_whichever_came_first() {
    let w = world();
    // Issue 38 found `aIice_s` beside `alice_s`: refused now both ways,
    // the account that came first being the look-alike or the plain one
    // (`m` passes for `rn`: the old lookup of the new name's skeletons as
    // usernames missed `mike` for `rnike` and `aIice` for `alice`).
    w.sign_up("mike", 1).await;
    w.sign_up("aIice", 2).await;
    for name in ["rnike", "alice", "ALICE", "aiice"] {
        refused_as(
            w.accounts.sign_up(name, PASSWORD, None, ip(3)).await,
            "username_taken",
        );
    }
    refused_as(
        w.accounts.check_guest_name("rnike", None).await,
        "name_taken",
    );
    // An account of an earlier version, without its skeletons kept: kept
    // at start, then found the same way.
    let old = awale_store::NewAccount {
        username: "Kwame".into(),
        key: "kwame".into(),
        player: common::player(40),
        password_hash: "$argon2id$x".into(),
        created_ms: 1,
        recovery: Vec::new(),
        session: ("s-kwame".into(), 1_000),
        guest: None,
        skeletons: Vec::new(),
    };
    w.store.create_account(old).await.unwrap().unwrap();
    assert_eq!(w.accounts.index_names().await.unwrap(), 1);
    assert_eq!(w.accounts.index_names().await.unwrap(), 0, "once");
    refused_as(
        w.accounts.sign_up("Kwarne", PASSWORD, None, ip(4)).await,
        "username_taken",
    );
    w.sign_up("Kojo", 5).await;
}

#[tokio::test]
async fn the_moderators_see_the_pairs_another_process_flagged_and_after_a_restart() {
    let (_dir, path) = common::games_file();
    let one = common::world_on(Store::open(&path).unwrap(), Ratings::On);
    // Another process over the same store.
    let two = common::world_on(one.store.clone(), Ratings::On);
    let ama = one.sign_up("Ama", 1).await.account;
    let kofi = one.sign_up("Kofi", 2).await.account;
    one.sign_up("Esi", 3).await;
    let mo = one.accounts.grant_moderator("Esi").await.unwrap();
    // The farm of the attack test: two accounts from one address, each
    // seen by another process.
    let home = IpAddr::from([203, 0, 113, 7]);
    let now = one.games.now_ms();
    one.games
        .sightings()
        .note(&ama.player, Some(home), None, now)
        .await;
    two.games
        .sightings()
        .note(&kofi.player, Some(home), None, now)
        .await;
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 9);
    for (side, a) in [(Side::South, &ama), (Side::North, &kofi)] {
        game.seats[side.index()] = Some(Seat {
            player: a.player.clone(),
            name: a.username.clone(),
        });
    }
    game.clock = Some(Clock::new(180_000, 2_000));
    game.rated = true;
    let made = two.games.create(vec![game]).await.unwrap().remove(0);
    assert!(!made.rated, "seen at one place: casual");
    // The first process's moderator page lists the second's flag.
    let desk = one.moderation.desk(&mo).await.unwrap();
    assert_eq!(desk.flags.len(), 1, "{:?}", desk.flags);
    let flag = desk.flags[0].flag.clone();
    let mut names = flag.names.to_vec();
    names.sort();
    assert_eq!(names, ["Ama", "Kofi"]);
    assert!(flag.address && !flag.device && flag.times == 1);
    for name in ["Ama", "Kofi"] {
        let account = desk.accounts.iter().find(|a| a.username == name).unwrap();
        assert!(!account.actions.is_empty(), "{account:?}");
    }
    // After a restart, the same list.
    one.store.close();
    drop((one, two));
    let again = common::world_on(Store::open(&path).unwrap(), Ratings::On);
    let mo = again.account("Esi").await;
    let desk = again.moderation.desk(&mo).await.unwrap();
    assert_eq!(
        desk.flags
            .iter()
            .map(|f| f.flag.clone())
            .collect::<Vec<_>>(),
        [flag]
    );
}
