//! `awale puzzles` as a user runs it: a real database built by `awale db
//! build` in a temporary folder, each JSON puzzle checked against it.

use std::process::{Command, Output, Stdio};

use awale_core::{Move, Position, Rules};
use awale_db::Database;

fn awale(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_awale"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the awale binary runs")
}

/// An empty folder of its own in the temporary folder.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("awale-cli-puzzles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn json_puzzles_have_the_one_move_that_keeps_the_database_value() {
    let dir = folder("json");
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
    let db = Database::open(&dir, &Rules::AWALE).unwrap();
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_database_puzzles_say_how_to_build_one() {
    let dir = folder("none");
    let d = dir.to_str().unwrap();
    let out = awale(&["puzzles", "--db", d]);
    assert_eq!(out.status.code(), Some(2));
    let t = text(&out);
    assert!(t.contains("no endgame database"), "{t}");
    assert!(
        t.contains(&format!("awale db build --max-seeds 16 --dir {d}")),
        "{t}"
    );
    // Bounds are no values: abapa makes no puzzles, whatever is built.
    let out = awale(&["puzzles", "--db", d, "--rules", "abapa"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("exact values"), "{}", text(&out));
    let out = awale(&["puzzles", "--db", d, "--difficulty", "9"]);
    assert!(text(&out).contains("--difficulty 9"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
