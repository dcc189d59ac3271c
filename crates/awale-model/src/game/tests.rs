//! The tests of a game's operations.

use super::*;
use awale_core::Rules;

fn clocked(now: i64) -> WebGame {
    let mut g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), now, 0);
    g.clock = Some(Clock::new(60_000, 2_000));
    g
}

fn letter(c: char) -> Move {
    Move::from_letter(c).unwrap()
}

fn player(name: &str) -> Seat {
    Seat {
        player: PlayerId(name.to_string()),
        name: name.to_string(),
    }
}

#[test]
fn a_move_charges_the_movers_clock_and_adds_the_increment() {
    let mut g = clocked(1_000);
    g.play(letter('F'), 11_000).unwrap();
    let clock = g.clock.unwrap();
    assert_eq!(clock.remaining_ms, [60_000 - 10_000 + 2_000, 60_000]);
    assert_eq!(g.turn_started_ms, 11_000);
    assert_eq!(g.time_left(16_000), Some([52_000, 55_000]));
}

#[test]
fn the_flag_falls_for_the_side_to_move_only_and_shows_zero() {
    let mut g = clocked(0);
    assert_eq!(g.flag_deadline(), Some(60_000));
    assert!(!g.check_flag(59_999));
    assert!(g.check_flag(60_000));
    assert_eq!(g.stop, Some(Stop::Time(Side::South)));
    let end = g.end().unwrap();
    assert_eq!(
        (end.reason, end.winner, end.loser_by),
        (EndReason::Time, Some(Side::North), Some(Side::South))
    );
    assert_eq!(g.time_left(99_999), Some([0, 60_000]));
    assert!(g.play(letter('F'), 60_001).is_err());
    assert!(!g.check_flag(1_000_000), "an ended game does not end twice");
}

#[test]
fn takebacks_are_refused_in_clock_games() {
    let mut g = clocked(0);
    g.play(letter('F'), 10).unwrap();
    assert_eq!(g.undo(10).unwrap_err().code, "clock_game");
}

#[test]
fn online_only_an_accepted_takeback_takes_moves_back() {
    for clock in [None, Some(Clock::new(60_000, 2_000))] {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 1);
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.clock = clock;
        for c in ['F', 'f', 'A'] {
            g.play(letter(c), 0).unwrap();
        }
        assert_eq!(g.undo(0).unwrap_err().code, "online_game");
        assert_eq!(g.redo(0).unwrap_err().code, "online_game");
        assert_eq!(g.game.plies().len(), 3, "nothing taken back alone");
        g.ask_takeback(Side::South).unwrap();
        g.answer_takeback(Side::North, true, 0).unwrap();
        assert_eq!(g.game.plies().len(), 2);
    }
}

#[test]
fn between_two_people_undo_and_redo_go_one_move() {
    let mut g = clocked(0);
    g.clock = None;
    for c in ['F', 'f', 'A'] {
        g.play(letter(c), 0).unwrap();
    }
    g.undo(0).unwrap();
    assert_eq!(g.game.plies().len(), 2);
    g.redo(0).unwrap();
    assert_eq!(g.game.plies().len(), 3);
    assert!(!g.game.can_redo());
}

#[test]
fn a_different_move_after_undo_clears_the_redo_list() {
    let mut g = clocked(0);
    g.clock = None;
    g.play(letter('F'), 0).unwrap();
    g.undo(0).unwrap();
    g.play(letter('E'), 0).unwrap();
    assert!(!g.game.can_redo());
    assert_eq!(g.redo(0).unwrap_err().code, "nothing_to_redo");
}

#[test]
fn a_player_cannot_sit_under_a_name_that_looks_like_the_opponents() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats[0] = Some(Seat {
        player: PlayerId("ama".into()),
        name: "alice_s".into(),
    });
    for alike in ["аlice_s", "ａｌｉｃｅ＿ｓ", "aIice_s", "ALICE_S", "alice_s"] {
        let seat = Seat {
            player: PlayerId("kofi".into()),
            name: alike.into(),
        };
        let e = g.sit(seat, None, 5).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.reason),
            ("name_taken", Some("opponent")),
            "{alike}"
        );
    }
    let seat = Seat {
        player: PlayerId("kofi".into()),
        name: "Kofi".into(),
    };
    assert_eq!(g.sit(seat, None, 5).unwrap(), Side::North);
}

#[test]
fn online_seats_let_each_player_act_for_their_side_only() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats[0] = Some(player("ama"));
    assert!(g.waiting());
    assert_eq!(
        g.play(letter('F'), 0).unwrap_err().code,
        "waiting_for_opponent"
    );
    assert_eq!(
        g.sit(player("ama"), None, 5).unwrap_err().code,
        "already_seated"
    );
    assert_eq!(g.sit(player("kofi"), None, 5).unwrap(), Side::North);
    assert_eq!(
        g.sit(player("yaw"), None, 6).unwrap_err().code,
        "seat_taken"
    );
    let ama = PlayerId("ama".into());
    let kofi = PlayerId("kofi".into());
    assert_eq!(g.sides_of(Some(&ama)), vec![Side::South]);
    assert_eq!(g.sides_of(Some(&kofi)), vec![Side::North]);
    assert!(g.sides_of(None).is_empty());
    assert!(g.sides_of(Some(&PlayerId("yaw".into()))).is_empty());
    assert_eq!(
        g.check_side(Some(&kofi), Side::South).unwrap_err().kind,
        crate::error::Kind::Forbidden
    );
}

#[test]
fn a_private_games_free_seat_needs_its_invitations_key() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats[0] = Some(player("ama"));
    g.give_keys().unwrap();
    let key = g
        .invite
        .clone()
        .expect("a private game has an invitation key");
    assert_eq!(g.public_id.len(), crate::secret::GAME_ID_CHARS);
    for (given, reason) in [
        (None, "missing"),
        (Some("x"), "wrong"),
        (Some(&key[1..]), "wrong"),
    ] {
        let e = g.clone().sit(player("yaw"), given, 5).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.reason, e.kind),
            ("invite_key", Some(reason), crate::error::Kind::Forbidden)
        );
    }
    assert_eq!(g.sit(player("kofi"), Some(&key), 5).unwrap(), Side::North);
    // A public challenge is anyone's: it has no key.
    let mut open = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    open.public = true;
    open.seats[0] = Some(player("ama"));
    open.give_keys().unwrap();
    assert_eq!(open.invite, None);
    assert_eq!(open.sit(player("yaw"), None, 5).unwrap(), Side::North);
}

#[test]
fn names_and_messages_lose_what_would_hide_or_turn_them() {
    assert_eq!(
        parse_name(Some(" Ama\u{202E}txt.exe ")).unwrap(),
        "Amatxt.exe"
    );
    assert_eq!(parse_name(Some("K\u{200B}o\u{FEFF}fi\0")).unwrap(), "Kofi");
    assert_eq!(
        parse_name(Some("\u{2066}\u{200D}")).unwrap_err().code,
        "bad_name"
    );
    assert_eq!(clean_text("one\ntwo\u{0}\u{2067}"), "one two");
}

#[test]
fn every_default_ignorable_character_is_dropped() {
    // Unicode's Default_Ignorable_Code_Point set, the ends of each
    // run: fonts show these as nothing, so a name or a message of them
    // alone would look blank.
    let runs: [(&str, &[char]); 14] = [
        ("soft hyphen, grapheme joiner", &['\u{00AD}', '\u{034F}']),
        ("Arabic letter mark", &['\u{061C}']),
        (
            "Hangul fillers",
            &['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}'],
        ),
        ("Khmer inherent vowels", &['\u{17B4}', '\u{17B5}']),
        ("Mongolian selectors", &['\u{180B}', '\u{180E}', '\u{180F}']),
        ("zero widths, marks", &['\u{200B}', '\u{200D}', '\u{200F}']),
        ("embeddings, overrides", &['\u{202A}', '\u{202E}']),
        (
            "joiner, isolates",
            &['\u{2060}', '\u{2065}', '\u{2066}', '\u{206F}'],
        ),
        (
            "variation selectors",
            &['\u{FE00}', '\u{FE0F}', '\u{E0100}', '\u{E01EF}'],
        ),
        (
            "byte order mark, specials",
            &['\u{FEFF}', '\u{FFF0}', '\u{FFF8}'],
        ),
        ("shorthand format controls", &['\u{1BCA0}', '\u{1BCA3}']),
        ("musical formatting", &['\u{1D173}', '\u{1D17A}']),
        (
            "tags",
            &['\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}'],
        ),
        (
            "unassigned, kept ignorable",
            &['\u{E0080}', '\u{E01F0}', '\u{E0FFF}'],
        ),
    ];
    for (run, chars) in runs {
        for c in chars {
            let shown = clean_text(&format!("a{c}b"));
            assert_eq!(shown, "ab", "{run}: U+{:04X}", u32::from(*c));
        }
    }
    assert_eq!(clean_text("\u{E0041}\u{E0042}\u{E0043}"), "");
    assert_eq!(
        parse_name(Some("\u{1D173}\u{1D174}")).unwrap_err().code,
        "bad_name"
    );
    // Letters, marks, braille and emoji stay.
    for text in ["Akwaaba", "é\u{0301}", "🎉", "مرحبا", "\u{2801}\u{2803}"] {
        assert_eq!(clean_text(text), text);
    }
}

#[test]
fn a_braille_blank_is_a_space_so_a_name_of_them_is_blank() {
    // Not Default_Ignorable, yet a font draws U+2800 as nothing: in
    // braille text it is the space between words, so it becomes one.
    assert_eq!(clean_text("\u{2801}\u{2800}\u{2803}"), "\u{2801} \u{2803}");
    assert_eq!(
        parse_name(Some("\u{2800}\u{2800}\u{2800}"))
            .unwrap_err()
            .code,
        "bad_name"
    );
}

#[test]
fn a_seat_is_never_handed_to_the_player_of_the_other() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats[0] = Some(player("ama"));
    g.sit(player("kofi"), None, 5).unwrap();
    let ama = PlayerId("ama".into());
    let kofi = PlayerId("kofi".into());
    let e = g.hand_over(&ama, kofi.clone()).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.kind),
        ("already_seated", crate::error::Kind::Conflict)
    );
    assert_eq!(g.sides_of(Some(&ama)), vec![Side::South]);
    assert_eq!(g.sides_of(Some(&kofi)), vec![Side::North]);
    // To another device, or to the same one again, it moves.
    assert_eq!(g.hand_over(&ama, ama.clone()).unwrap(), Side::South);
    let phone = PlayerId("ama's phone".into());
    assert_eq!(g.hand_over(&ama, phone.clone()).unwrap(), Side::South);
    assert_eq!(g.sides_of(Some(&phone)), vec![Side::South]);
}

#[test]
fn a_game_without_seats_is_nobodys() {
    let g = WebGame::new(Mode::Humans, Game::new(Rules::AWALE), 0, 0);
    assert!(g.sides_of(None).is_empty());
    assert!(g.sides_of(Some(&PlayerId("kofi".into()))).is_empty());
    let mut mine = g.clone();
    mine.seats = [Some(player("ama")), Some(player("ama"))];
    assert!(mine.sides_of(None).is_empty());
    assert!(mine.sides_of(Some(&PlayerId("kofi".into()))).is_empty());
}

#[test]
fn an_accepted_takeback_returns_to_the_askers_turn() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    g.play(letter('F'), 1).unwrap();
    g.play(letter('f'), 2).unwrap();
    g.ask_takeback(Side::South).unwrap();
    assert_eq!(
        g.ask_takeback(Side::North).unwrap_err().code,
        "takeback_pending"
    );
    assert_eq!(
        g.answer_takeback(Side::South, true, 3).unwrap_err().code,
        "no_takeback"
    );
    g.answer_takeback(Side::North, true, 3).unwrap();
    assert!(g.game.plies().is_empty());
    assert_eq!(g.game.position().to_move(), Side::South);
}

#[test]
fn a_declined_takeback_or_rematch_is_told_to_the_asker() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    g.play(letter('F'), 1).unwrap();
    g.ask_takeback(Side::South).unwrap();
    g.answer_takeback(Side::North, false, 2).unwrap();
    assert_eq!(g.offers.takeback, None);
    assert_eq!(g.offers.takeback_declined, Some(Side::South));
    assert_eq!(g.game.plies().len(), 1, "nothing taken back");
    // Said until the asker's next move.
    g.play(letter('f'), 3).unwrap();
    assert_eq!(g.offers.takeback_declined, None);
    g.resign(Side::North, 4).unwrap();
    assert_eq!(
        g.decline_rematch(Side::North).unwrap_err().code,
        "no_rematch"
    );
    assert!(!g.offer_rematch(Side::South).unwrap());
    assert_eq!(
        g.decline_rematch(Side::South).unwrap_err().code,
        "no_rematch",
        "one's own offer"
    );
    g.decline_rematch(Side::North).unwrap();
    assert_eq!(g.offers.rematch, None);
    assert_eq!(g.offers.rematch_declined, Some(Side::South));
    // The offerer may offer again.
    assert!(!g.offer_rematch(Side::South).unwrap());
    assert_eq!(g.offers.rematch_declined, None);
}

#[test]
fn the_offers_read_in_json_as_the_page_reads_them() {
    let offers = Offers {
        takeback: Some(Side::South),
        rematch_id: Some(7),
        rematch_public_id: Some("k3Xq".into()),
        draw_declined: Some(Side::North),
        ..Offers::default()
    };
    assert_eq!(
        serde_json::to_value(&offers).unwrap(),
        serde_json::json!({
            "takeback": "S", "rematch": null, "rematch_id": "k3Xq",
            "takeback_declined": null, "rematch_declined": null,
            "draw": null, "draw_declined": "N",
        }),
        "sides by letter, the rematch by its public id, the store's id not shown"
    );
}

#[test]
fn a_draw_is_offered_accepted_declined_and_cancelled_by_a_move() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    assert_eq!(
        g.offer_draw(Side::South).unwrap_err().code,
        "draw_too_early"
    );
    g.play(letter('F'), 1).unwrap();
    g.play(letter('f'), 2).unwrap();
    // South offers on its turn, then moves: the offer stands.
    g.offer_draw(Side::South).unwrap();
    assert_eq!(g.offer_draw(Side::South).unwrap_err().reason, Some("yours"));
    // Refused while the opponent's own offer waits.
    let theirs = g.offer_draw(Side::North).unwrap_err();
    assert_eq!(
        (theirs.code.as_str(), theirs.reason),
        ("draw_pending", Some("theirs"))
    );
    assert_eq!(
        g.answer_draw(Side::South, true, 0).unwrap_err().code,
        "no_draw"
    );
    g.play(letter('A'), 3).unwrap();
    assert_eq!(g.offers.draw, Some(Side::South));
    // North moves instead of answering: the offer is gone, South told,
    // and South may offer again only after its next move.
    g.play(letter('a'), 4).unwrap();
    assert_eq!(
        (g.offers.draw, g.offers.draw_declined),
        (None, Some(Side::South))
    );
    assert_eq!(g.offer_draw(Side::South).unwrap_err().code, "draw_declined");
    assert_eq!(
        g.answer_draw(Side::North, false, 0).unwrap_err().code,
        "no_draw"
    );
    g.play(letter('B'), 5).unwrap();
    assert_eq!(g.offers.draw_declined, None);
    // Offered by North, declined by South.
    g.offer_draw(Side::North).unwrap();
    g.answer_draw(Side::South, false, 0).unwrap();
    assert_eq!(
        (g.offers.draw, g.offers.draw_declined),
        (None, Some(Side::North))
    );
    assert!(g.end().is_none());
    // Offered by South, accepted: a draw, no winner.
    g.offers.draw_declined = None;
    g.offer_draw(Side::South).unwrap();
    assert!(!g.actions(Side::South, 6).draw, "its own offer waits");
    assert!(!g.actions(Side::North, 6).draw, "answer instead");
    g.answer_draw(Side::North, true, 0).unwrap();
    let end = g.end().unwrap();
    assert_eq!((end.reason, end.winner), (EndReason::Agreement, None));
    assert_eq!(end.result_text(), "1/2-1/2");
    assert_eq!(g.offer_draw(Side::South).unwrap_err().code, "game_over");
}

#[test]
fn a_game_over_days_gives_each_move_its_days_again_and_flags_after_weeks() {
    assert_eq!(Clock::days(4).unwrap_err().code, "bad_clock");
    assert_eq!(Clock::days(0).unwrap_err().code, "bad_clock");
    let day = DAY_MS;
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.clock = Some(Clock::days(3).unwrap());
    assert_eq!(g.speed(), crate::rating::Speed::Correspondence);
    g.seats[0] = Some(player("ama"));
    g.sit(player("kofi"), None, 0).unwrap();
    // The first moves are free (no clock before a side's first move),
    // however long they take.
    g.play(letter('C'), 10 * day).unwrap();
    g.play(letter('c'), 20 * day).unwrap();
    assert_eq!(g.flag_deadline(), Some(23 * day));
    // South moves after 2 days 23 hours: three days again, not one
    // hour left.
    g.play(letter('D'), 23 * day - 3_600_000).unwrap();
    assert_eq!(g.clock.unwrap().remaining_ms, [3 * day; 2]);
    assert_eq!(g.time_left(24 * day), Some([3 * day, 2 * day - 3_600_000]));
    // North does not move for three weeks: the flag fell after three
    // days, and a read weeks later sees it then.
    assert!(!g.check_flag(26 * day - 3_600_001));
    assert!(g.check_flag(47 * day));
    assert_eq!(g.stop, Some(Stop::Time(Side::North)));
    assert_eq!(g.time_left(47 * day), Some([3 * day, 0]));
    // A rematch is over days too, its days full.
    let next = g.rematch_game(48 * day).clock.unwrap();
    assert!(next.per_move);
    assert_eq!(next.remaining_ms, [3 * day; 2]);
}

#[test]
fn online_no_clock_runs_before_each_sides_first_move() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.clock = Some(Clock::new(30_000, 1_000));
    g.seats[0] = Some(player("ama"));
    g.sit(player("kofi"), None, 1_000).unwrap();
    // South thinks 25 s over the first move: nothing is charged, no
    // flag is armed, nothing falls.
    assert!(!g.clock_running());
    assert_eq!(g.flag_deadline(), None);
    assert_eq!(g.time_left(26_000), Some([30_000, 30_000]));
    assert!(!g.check_flag(99_000));
    g.play(letter('F'), 26_000).unwrap();
    assert_eq!(g.clock.unwrap().remaining_ms, [30_000, 30_000]);
    // North's first move is free too.
    assert!(!g.clock_running());
    g.play(letter('f'), 60_000).unwrap();
    assert_eq!(g.clock.unwrap().remaining_ms, [30_000, 30_000]);
    // From South's second move on, each side's time runs.
    assert!(g.clock_running());
    assert_eq!(g.flag_deadline(), Some(90_000));
    assert_eq!(g.time_left(70_000), Some([20_000, 30_000]));
    g.play(letter('A'), 70_000).unwrap();
    assert_eq!(g.clock.unwrap().remaining_ms, [21_000, 30_000]);
    assert!(g.check_flag(100_000));
    assert_eq!(g.stop, Some(Stop::Time(Side::North)));
}

#[test]
fn an_end_by_the_players_keeps_the_clocks_of_its_moment() {
    // South and North have made their first moves (free, online), so
    // South's time runs: 5 s of it are used when South resigns, North
    // agrees a draw or the game is aborted.
    let begun = || {
        let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
        g.clock = Some(Clock::new(30_000, 0));
        g.seats = [Some(player("ama")), Some(player("kofi"))];
        g.play(letter('F'), 1_000).unwrap();
        g.play(letter('f'), 2_000).unwrap();
        g
    };
    let mut resigned = begun();
    assert_eq!(resigned.time_left(7_000), Some([25_000, 30_000]));
    resigned.resign(Side::South, 7_000).unwrap();
    assert_eq!(resigned.clock.unwrap().remaining_ms, [25_000, 30_000]);
    assert_eq!(resigned.time_left(99_000), Some([25_000, 30_000]));
    // The opponent resigning on the other's turn charges the mover.
    let mut theirs = begun();
    theirs.resign(Side::North, 7_000).unwrap();
    assert_eq!(theirs.time_left(99_000), Some([25_000, 30_000]));
    let mut agreed = begun();
    agreed.play(letter('A'), 3_000).unwrap();
    agreed.offer_draw(Side::South).unwrap();
    agreed.answer_draw(Side::North, true, 10_000).unwrap();
    assert_eq!(agreed.time_left(99_000), Some([29_000, 23_000]));
    // Never below nothing, and a free first move is charged nothing.
    let mut late = begun();
    late.resign(Side::South, 99_000).unwrap();
    assert_eq!(late.time_left(99_000), Some([0, 30_000]));
    let mut first = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    first.clock = Some(Clock::new(30_000, 0));
    first.seats = [Some(player("ama")), Some(player("kofi"))];
    first.abort(Side::South, 9_000).unwrap();
    assert_eq!(first.time_left(99_000), Some([30_000, 30_000]));
}

#[test]
fn abort_only_before_both_have_moved() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    g.play(letter('F'), 1_000).unwrap();
    // South moved; North has 30 s to answer before South may abort.
    assert_eq!(
        g.abort(Side::South, 20_000).unwrap_err().code,
        "cannot_abort"
    );
    let mut early = g.clone();
    early.abort(Side::North, 2_000).unwrap();
    g.abort(Side::South, 31_000).unwrap();
    assert_eq!(g.end().unwrap().result_text(), "*");
    let mut begun = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    begun.seats = [Some(player("ama")), Some(player("kofi"))];
    begun.play(letter('F'), 1).unwrap();
    begun.play(letter('f'), 2).unwrap();
    assert_eq!(
        begun.abort(Side::North, 99_000).unwrap_err().code,
        "cannot_abort"
    );
}

#[test]
fn a_win_is_claimed_only_after_two_minutes_gone_on_their_move() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    g.play(letter('F'), 0).unwrap();
    assert!(g.claim(Side::South, Some(0), 60_000).is_err());
    assert!(
        g.claim(Side::South, None, STALL_AFTER_MS - 1).is_err(),
        "still connected, within the move limit"
    );
    // Connected but stalled past the move limit: claimable (issue 38).
    assert!(g.clone().claim(Side::South, None, STALL_AFTER_MS).is_ok());
    assert!(g.clone().claim(Side::South, None, 999_000).is_ok());
    assert!(g.claim(Side::North, Some(0), 999_000).is_err(), "own move");
    g.claim(Side::South, Some(0), 120_000).unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.reason, end.winner),
        (EndReason::Abandoned, Some(Side::South))
    );
}

#[test]
fn the_actions_of_each_side_follow_the_rules_of_abort_claim_and_takeback() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    // Before any move both may call the game off; nobody takes back.
    for side in Side::BOTH {
        let a = g.actions(side, 0);
        assert_eq!(
            (a.abort_in_ms, a.takeback, a.rematch),
            (Some(0), false, false)
        );
    }
    g.play(letter('F'), 1_000).unwrap();
    // South moved: it may abort once North has let 30 s go by, and
    // claim once North has been gone two minutes on its move: not
    // while North is here.
    let south = g.actions(Side::South, 11_000);
    assert_eq!(south.abort_in_ms, Some(20_000));
    // Connected, North runs into the move limit only.
    assert_eq!(south.claim_in_ms, Some(1_000 + STALL_AFTER_MS - 11_000));
    assert!(south.takeback);
    // Gone since before its turn: two minutes from the turn's start.
    g.gone_since[Side::North.index()] = Some(0);
    assert_eq!(g.actions(Side::South, 11_000).claim_in_ms, Some(110_000));
    // Gone since during its turn: two minutes from then.
    g.gone_since[Side::North.index()] = Some(5_000);
    assert_eq!(g.actions(Side::South, 11_000).claim_in_ms, Some(114_000));
    assert_eq!(g.actions(Side::South, 125_000).claim_in_ms, Some(0));
    let north = g.actions(Side::North, 11_000);
    assert_eq!((north.abort_in_ms, north.claim_in_ms), (Some(0), None));
    g.play(letter('f'), 12_000).unwrap();
    assert_eq!(g.actions(Side::North, 99_000).abort_in_ms, None);
    // Watchers' views carry both sides; a game over offers a rematch.
    g.resign(Side::South, 13_000).unwrap();
    let after = g.actions(Side::North, 100_000);
    assert!(after.rematch && !after.takeback && after.claim_in_ms.is_none());
}

/// Each check the views show (`may_*`) answers as its operation does,
/// whatever the game's moment: over a game played out, with offers made
/// and answered, at times across the limits of abort and claim.
#[test]
fn each_actions_check_answers_as_its_operation() {
    let mut g = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 0, 0);
    g.seats = [Some(player("ama")), Some(player("kofi"))];
    let times = [0, ABORT_AFTER_MS, CLAIM_AFTER_MS + 1, STALL_AFTER_MS + 1];
    let check = |g: &WebGame| {
        for side in Side::BOTH {
            for gone in [None, Some(0)] {
                for &t in &times {
                    let now = g.turn_started_ms + t;
                    assert_eq!(
                        g.may_abort(side, now).is_ok(),
                        g.clone().abort(side, now).is_ok()
                    );
                    assert_eq!(
                        g.may_claim(side, gone, now).is_ok(),
                        g.clone().claim(side, gone, now).is_ok()
                    );
                }
            }
            assert_eq!(
                g.may_ask_takeback(side).is_ok(),
                g.clone().ask_takeback(side).is_ok()
            );
            assert_eq!(
                g.may_offer_draw(side).is_ok(),
                g.clone().offer_draw(side).is_ok()
            );
            assert_eq!(
                g.may_offer_rematch().is_ok(),
                g.clone().offer_rematch(side).is_ok()
            );
        }
    };
    let mut now = 0;
    let mut plies = 0;
    while g.end().is_none() && plies < 40 {
        check(&g);
        match plies % 7 {
            3 => g.offer_draw(g.game.position().to_move()).unwrap(),
            5 => g
                .ask_takeback(g.game.position().to_move().opponent())
                .unwrap(),
            _ => {}
        }
        check(&g);
        let legal = g.game.legal_moves();
        now += 1_000;
        g.play(legal[plies % legal.len()], now).unwrap();
        plies += 1;
    }
    if g.end().is_none() {
        g.resign(Side::North, now).unwrap();
    }
    check(&g);
    g.offer_rematch(Side::South).unwrap();
    check(&g);
}
