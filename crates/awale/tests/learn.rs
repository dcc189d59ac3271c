//! The study commands as a user runs them: `awale puzzles` on a real
//! database built by `awale db build` in a temporary folder (each JSON puzzle
//! checked against it), and `awale play` without counting and with a clock.

mod common;

use std::time::Duration;

use awale_core::{Move, Position, Rules};
use awale_db::Database;
use common::{awale, awale_reading_after, folder, text};

#[test]
fn json_puzzles_have_the_one_move_that_keeps_the_database_value() {
    let guard = folder();
    let dir = guard.path();
    let d = dir.to_str().unwrap();
    let out = awale(&["db", "build", "--max-seeds", "10", "--dir", d, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    let args = [
        "puzzles", "--db", d, "--count", "20", "--seed", "7", "--json",
    ];
    let out = awale(&args);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 20);
    let db = Database::open(dir, &Rules::AWALE).unwrap();
    for line in stdout.lines() {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let position: Position = json["position"].as_str().unwrap().parse().unwrap();
        let answer: Move = json["answer"].as_str().unwrap().parse().unwrap();
        assert!(
            json["theme"].is_string() && json["difficulty"].is_u64(),
            "{line}"
        );
        let value = db.probe(&position).unwrap().lower;
        for m in db.move_entries(&position).unwrap() {
            assert_eq!(m.lower, m.upper);
            if m.mv == answer {
                assert_eq!(m.lower, value, "{line}");
            } else {
                assert!(m.lower < value, "{line}: {} keeps the value too", m.mv);
            }
        }
    }
    // The same seed, the same puzzles; as text, with the board.
    assert_eq!(awale(&args).stdout, stdout.as_bytes());
    let out = awale(&["puzzles", "--db", d, "--count", "1", "--seed", "7"]);
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.starts_with("Puzzle 1: ") && t.contains("Answer: "), "{t}");
}

#[test]
fn without_a_database_puzzles_say_how_to_build_one() {
    let guard = folder();
    let d = guard.path().to_str().unwrap();
    let out = awale(&["puzzles", "--db", d]);
    assert_eq!(out.status.code(), Some(2));
    let t = text(&out);
    assert!(t.contains("no endgame database"), "{t}");
    assert!(
        t.contains(&format!("awale db build --max-seeds 16 --db {d}")),
        "{t}"
    );
    // Bounds are no values: abapa makes no puzzles, whatever is built.
    let out = awale(&["puzzles", "--db", d, "--rules", "abapa"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("exact values"), "{}", text(&out));
    let out = awale(&["puzzles", "--db", d, "--difficulty", "9"]);
    assert!(text(&out).contains("--difficulty 9"), "{}", text(&out));
}

/// `awale play ARGS` with `input` written to it after `delay`.
fn play(args: &[&str], input: &str, delay: Duration) -> String {
    let out = awale_reading_after(&[&["play"], args].concat(), input, delay);
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn without_counting_no_number_shows_until_the_result_screen() {
    let args = ["--opponent", "human", "--no-count", "--lang", "en"];
    // Three moves, a hint, and North resigns.
    let out = play(&args, "F\nf\nA\nhint\nresign\n", Duration::ZERO);
    // The result screen is the last board and what follows it.
    let last_board = out.rfind("\n\n").expect("boards");
    let (during, end) = out.split_at(last_board);
    assert!(end.contains("Game over"), "{end}");
    assert!(!during.chars().any(|c| c.is_ascii_digit()), "{during}");
    assert!(during.contains('⠛'), "four seeds are four dots: {during}");
    assert!(during.contains("Try "), "{during}");
    // The result screen counts.
    assert!(end.contains("South wins 48-0"), "{end}");
    assert!(end.contains("│ 6 │"), "{end}");
}

#[test]
fn fast_play_has_a_short_clock_and_the_slow_side_loses_on_time() {
    let out = play(
        &["--opponent", "human", "--fast", "--lang", "en"],
        "F\nundo\nresign\n",
        Duration::ZERO,
    );
    assert!(out.contains("Clock: South 3:00 · North 3:00"), "{out}");
    assert!(out.contains("moves cannot be taken back"), "{out}");
    // A clock of 0.6 s: South's move comes too late.
    let out = play(
        &["--opponent", "human", "--clock", "0.01+0", "--lang", "fr"],
        "F\n",
        Duration::from_millis(1500),
    );
    assert!(
        out.contains("Fin de la partie (temps écoulé)\u{a0}: Nord gagne 0-0."),
        "{out}"
    );
    let out = awale(&["play", "--clock", "5+x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("seconds a move from 0 to 600"),
        "{}",
        text(&out)
    );
}
