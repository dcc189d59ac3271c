//! Game records: the forms other programs write, and clear errors for broken
//! ones.

use awale_core::{parse_records, EndReason, Game, Record, RecordError, Rules, Side};

const RECORD: &str = r#"[Event "Club evening"]
[Site "Abidjan"]
[Date "2026.11.29"]
[South "Awa"]
[North "Kofi \"the wise\""]
[Result "*"]
[Variant "awale"]

{An opening} 1. F f 2. A {quiet} 2... a 3.B b 4. C c 5. D *
"#;

#[test]
fn a_record_reads_with_tags_comments_and_numbers() {
    let r: Record = RECORD.parse().unwrap();
    assert_eq!(r.tag("North"), Some("Kofi \"the wise\""));
    assert_eq!(r.intro.as_deref(), Some("An opening"));
    assert_eq!(r.moves.len(), 9);
    assert_eq!(r.moves[2].comment.as_deref(), Some("quiet"));
    assert_eq!(r.result, "*");
    let game = r.to_game().unwrap();
    assert_eq!(game.plies().len(), 9);
}

#[test]
fn printing_numbers_moves_and_restates_after_a_comment() {
    let r: Record = RECORD.parse().unwrap();
    let text = r.to_string();
    assert!(
        text.contains("{An opening} 1. F f 2. A {quiet} 2... a 3. B b 4. C c 5. D *"),
        "{text}"
    );
    assert_eq!(text.parse::<Record>().unwrap(), r);
}

#[test]
fn captures_are_written_and_checked() {
    let r: Record = "[FEN \"0-0-0-0-0-2-1-2-4-0-0-0-0-0-S\"]\n1. F+5 *"
        .parse()
        .unwrap();
    let game = r.to_game().unwrap();
    assert_eq!(game.position().store(Side::South), 5);
    let wrong: Record = "[FEN \"0-0-0-0-0-2-1-2-4-0-0-0-0-0-S\"]\n1. F+3 *"
        .parse()
        .unwrap();
    let e = wrong.to_game().unwrap_err();
    assert!(
        matches!(
            e,
            RecordError::WrongCapture {
                ply: 1,
                written: 3,
                actual: 5,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("captures 5"), "{e}");
}

#[test]
fn a_game_starting_with_north_is_numbered_with_an_ellipsis() {
    let r: Record = "1... f 2. F a *".parse().unwrap();
    let game = r.to_game().unwrap();
    assert_eq!(game.start().to_move(), Side::North);
    assert!(Record::from_game(&game, &[])
        .to_string()
        .contains("1... f 2. F a *"));
}

#[test]
fn several_games_follow_each_other() {
    let text = format!("{RECORD}\n[Event \"Second\"]\n1. A a 1-0\n1. B b 0-1 1. C *");
    let games = parse_records(&text).unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[1].tag("Event"), Some("Second"));
    assert_eq!(games[1].result, "1-0");
    assert_eq!(games[2].result, "0-1");
    assert_eq!(games[3].moves.len(), 1);
}

#[test]
fn a_finished_game_keeps_its_result_and_termination() {
    let mut game = awale_core::Game::new(awale_core::Rules::ABAPA);
    game.play("F".parse().unwrap()).unwrap();
    game.resign(Side::North).unwrap();
    let record = Record::from_game(&game, &[("Event", "x")]);
    assert_eq!(record.result, "1-0");
    assert_eq!(record.tag("Termination"), Some("resignation"));
    assert_eq!(record.tag("Variant"), Some("abapa"));
    let again = record
        .to_string()
        .parse::<Record>()
        .unwrap()
        .to_game()
        .unwrap();
    assert_eq!(again.end(), Some(EndReason::Resignation));
    assert_eq!(again.outcome(), game.outcome());
}

#[test]
fn broken_records_say_where() {
    let cases: &[(&str, &str)] = &[
        ("[Event \"x\"\n1. F *", "line 1, column 11: expected `]`"),
        ("[Event x]\n1. F *", "double quotes"),
        ("1. F f {never closed", "never closed"),
        ("1. F f\n2. Z *", "line 2, column 4"),
        ("1. Ff *", "separated by spaces"),
        ("1. F+ *", "not a number"),
        ("1. F+99 *", "not a number"),
        ("12x. F *", "`12` is neither"),
        ("[Event \"unterminated\n1. F *", "no closing quote"),
        (
            "1. F f 2. A a\n\n1. B b *",
            "line 3, column 1: move number 1 after 2",
        ),
        (
            "1. F f\n1. B b *",
            "line 2, column 1: move number 1 after 1",
        ),
    ];
    for (text, expected) in cases {
        let e = parse_records(text).unwrap_err().to_string();
        assert!(e.contains(expected), "{text:?}: {e}");
    }
}

#[test]
fn records_that_are_not_legal_games_are_refused() {
    for (text, expected) in [
        ("1. F F *", "ply 2"),
        ("[Variant \"chess\"]\n1. F *", "Variant"),
        ("[FEN \"4-4\"]\n1. F *", "FEN"),
    ] {
        let e = text.parse::<Record>().unwrap().to_game().unwrap_err();
        assert!(e.to_string().contains(expected), "{text}: {e}");
    }
}

#[test]
fn hostile_records_do_not_panic() {
    for text in [
        "[",
        "[A",
        "[A \"",
        "[A \"\\",
        "{",
        "1.",
        "1...",
        "1-",
        "+",
        "A+",
        "\u{feff}1. F *",
        "[A \"b\"] junk",
    ] {
        let _ = parse_records(text);
    }
    let long = format!("{{{}}}", "x".repeat(100_000));
    assert!(parse_records(&long).is_err());
}

#[test]
fn printed_lines_never_break_between_a_move_number_and_its_move() {
    // A long game, with comments and captures, as exports write it.
    let mut game = Game::new(Rules::AWALE);
    while game.end().is_none() && game.plies().len() < 160 {
        let moves = game.legal_moves();
        let m = moves[game.plies().len() * 7 % moves.len()];
        game.play(m).unwrap();
    }
    let mut record = Record::from_game(&game, &[("Event", "test")]);
    for (i, rm) in record.moves.iter_mut().enumerate() {
        if i % 11 == 5 {
            rm.comment = Some("a comment of some length to shift the lines".into());
        }
    }
    let text = record.to_string();
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('[')).collect();
    assert!(body.len() > 3, "{text}");
    for line in body {
        assert!(line.len() <= 79, "{line}");
        let last = line.split(' ').next_back().unwrap_or("");
        assert!(
            !last.ends_with('.'),
            "a line ends with the move number `{last}`:\n{text}"
        );
    }
    assert_eq!(text.parse::<Record>().unwrap(), record);
}

#[test]
fn a_result_tag_that_disagrees_with_the_result_after_the_moves_is_named() {
    let text = "[Result \"0-1\"]\n\n1. F f 2. A a 1-0\n";
    let e = text.parse::<Record>().unwrap().to_game().unwrap_err();
    assert_eq!(
        e,
        RecordError::ResultTag {
            tag: "0-1".into(),
            written: "1-0".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "the Result tag says 0-1, but the moves end with 1-0"
    );
}

#[test]
fn a_decided_result_for_a_game_still_going_needs_a_termination() {
    // Four moves do not end a game: "1-0" alone would be lost on import.
    let text = "[Result \"1-0\"]\n\n1. F f 2. A a 1-0\n";
    let e = text.parse::<Record>().unwrap().to_game().unwrap_err();
    assert_eq!(
        e,
        RecordError::WrongResult {
            written: "1-0".into(),
            played: "*".into()
        }
    );
    // With the reason it ended otherwise, the record is a game.
    let timed = "[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. F f 2. A a 1-0\n";
    assert!(timed.parse::<Record>().unwrap().to_game().is_ok());
    let unfinished = "1. F f 2. A a *\n";
    assert!(unfinished.parse::<Record>().unwrap().to_game().is_ok());
}
