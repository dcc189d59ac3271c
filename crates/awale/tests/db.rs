//! `awale db` as a user runs it: real processes, a real folder, a real kill.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use common::{awale, command, folder, serve_with, text};

fn level(dir: &Path, seeds: u8) -> PathBuf {
    dir.join("forbidden-nobody")
        .join(format!("level-{seeds:02}.awdb"))
}

/// A temporary folder with the `awale` databases up to 6 seeds.
fn built_up_to_6() -> (tempfile::TempDir, PathBuf) {
    let guard = folder();
    let dir = guard.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let out = awale(&["db", "build", "--max-seeds", "6", "--db", d, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    (guard, dir)
}

/// Issue 21: one name for the databases folder everywhere (`--db`, as
/// `serve`, `puzzles` and `analyze` take it), the old `--dir` still read.
#[test]
fn the_databases_folder_is_given_with_db_and_dir_still_works() {
    let (_guard, dir) = built_up_to_6();
    let d = dir.to_str().unwrap();
    for flag in ["--db", "--dir"] {
        let out = awale(&["db", "info", flag, d]);
        assert!(out.status.success(), "{flag}: {}", text(&out));
    }
}

/// Issue 21: `awale serve --db` naming a folder that does not exist says
/// so and stops, instead of serving silently without databases.
#[test]
fn serve_refuses_a_databases_folder_that_does_not_exist() {
    let guard = folder();
    let missing = guard.path().join("no-such-folder");
    let data = guard.path().join("data");
    let out = serve_with(&data, &["--db", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("does not exist") && said.contains("no-such-folder"),
        "{said}"
    );
}

/// `awale db build --max-seeds 2 --dir DIR`.
fn build_up_to_2(dir: &Path) -> Output {
    awale(&[
        "db",
        "build",
        "--max-seeds",
        "2",
        "--dir",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn build_prints_a_summary_writes_a_manifest_and_probe_reads_it() {
    let dir_guard = folder();
    let dir = dir_guard.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let out = awale(&["db", "build", "--max-seeds", "8", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    assert!(t.contains("positions/s"), "{t}");
    // Level 8 of docs/RULES.md: its sum of values is 72,463.
    assert!(t.contains("72463"), "{t}");
    let manifest = std::fs::read_to_string(dir.join("forbidden-nobody/manifest.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(json["levels"].as_array().unwrap().len(), 9);
    assert_eq!(json["levels"][8]["won"], 37_755);
    // Nothing temporary is left: the level files, the manifest and the
    // lock that keeps a second build out.
    let mut names: Vec<String> = std::fs::read_dir(dir.join("forbidden-nobody"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected = vec!["build.lock".to_string()];
    expected.extend((0..=8).map(|n| format!("level-{n:02}.awdb")));
    expected.push("manifest.json".into());
    assert_eq!(names, expected);

    // South to move with 1 seed against 1: sowing it captures nothing, and
    // North then takes... the database knows.
    let out = awale(&["db", "probe", "0-0-0-0-0-1-0-0-0-0-0-1-20-26-S", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    assert!(t.contains("value"), "{t}");
    assert!(t.contains("F:"), "{t}");
    assert!(t.contains("<- best"), "{t}");

    let out = awale(&["db", "info", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("levels 0 to 8"), "{}", text(&out));
}

#[test]
fn a_killed_build_resumes_at_the_level_it_was_building() {
    let dir_guard = folder();
    let dir = dir_guard.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let mut child = command(&["db", "build", "--max-seeds", "14", "--dir", d, "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !level(&dir, 11).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "level 11 never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !level(&dir, 14).exists(),
        "the build was not killed before the end"
    );
    let out = awale(&["db", "build", "--max-seeds", "12", "--dir", d, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    // Levels 0-11 were kept (checked, not rebuilt).
    let kept = t.lines().filter(|l| l.contains("(already built)")).count();
    assert!(kept >= 12, "{t}");
    assert!(level(&dir, 12).exists());
}

#[test]
fn a_damaged_level_file_is_refused_with_a_clear_message() {
    let (_guard, dir) = built_up_to_6();
    let d = dir.to_str().unwrap();
    let path = level(&dir, 5);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    for args in [
        vec!["db", "probe", "0-0-0-0-1-1-0-1-1-1-0-0-20-23-S", "--dir", d],
        vec!["db", "build", "--max-seeds", "6", "--dir", d],
    ] {
        let out = awale(&args);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let t = text(&out);
        assert!(t.contains("level-05.awdb") && t.contains("checksum"), "{t}");
    }
    // A file of another level in its place: refused too, and `info` fails.
    std::fs::copy(level(&dir, 4), &path).unwrap();
    let out = awale(&["db", "info", "--dir", d]);
    assert!(text(&out).contains("refused"), "{}", text(&out));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    // A folder in its place: named as such, not "No such device".
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    for args in [
        vec!["db", "info", "--dir", d],
        vec!["db", "probe", "0-0-0-0-1-1-0-1-1-1-0-0-20-23-S", "--dir", d],
    ] {
        let out = awale(&args);
        assert_ne!(out.status.code(), Some(0), "{}", text(&out));
        let t = text(&out);
        assert!(t.contains("level-05.awdb") && t.contains("a folder"), "{t}");
        assert!(!t.contains("No such device"), "{t}");
    }
}

#[test]
fn the_perfect_level_plays_the_database_move_from_the_default_folder() {
    // The default folder is under the user's data folder: XDG_DATA_HOME.
    let data_guard = folder();
    let data = data_guard.path().to_path_buf();
    let run = |args: &[&str]| command(args).env("XDG_DATA_HOME", &data).output().unwrap();
    let out = run(&["db", "build", "--max-seeds", "9", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(data
        .join("awale/db/forbidden-nobody/level-09.awdb")
        .exists());
    // North wins 9 by b or d; b reaches the capture sooner.
    let diagram = "0-0-3-0-2-1-0-1-1-1-0-0-20-19-N";
    let out = run(&["db", "probe", diagram]);
    let t = text(&out);
    let best = t
        .lines()
        .find(|l| l.contains("<- best"))
        .and_then(|l| l.trim().chars().next())
        .unwrap_or_else(|| panic!("no best move in {t}"));
    let out = run(&[
        "play",
        "--level",
        "perfect",
        "--position",
        diagram,
        "--lang",
        "en",
    ]);
    let t = text(&out);
    assert!(t.contains(&format!("The computer plays {best}.")), "{t}");
}

#[test]
fn a_folder_that_cannot_be_made_is_named_once_in_the_error() {
    let dir_guard = folder();
    let dir = dir_guard.path().join("db");
    std::fs::write(&dir, "a file where the folder should be").unwrap();
    let out = build_up_to_2(&dir);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let t = text(&out);
    assert!(t.contains(dir.to_str().unwrap()), "{t}");
    // The system's message once, not repeated as the error's source.
    assert_eq!(t.matches("os error").count(), 1, "{t}");
}

#[test]
fn a_second_build_in_the_same_folder_is_refused_while_the_first_runs() {
    let dir_guard = folder();
    let dir = dir_guard.path().to_path_buf();
    let variant = dir.join("forbidden-nobody");
    std::fs::create_dir_all(&variant).unwrap();
    // This test process plays the first build: it holds the folder's lock.
    let lock = std::fs::File::create(variant.join("build.lock")).unwrap();
    lock.lock().unwrap();
    let out = build_up_to_2(&dir);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("another `awale db build` is writing here"),
        "{}",
        text(&out)
    );
    assert!(!level(&dir, 0).exists());
    drop(lock);
    let out = build_up_to_2(&dir);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn verify_finds_a_built_database_right_and_a_forged_value_wrong() {
    let (_guard, dir) = built_up_to_6();
    let d = dir.to_str().unwrap();
    let out = awale(&["db", "verify", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(text(&out).matches(", right (").count(), 7, "{}", text(&out));

    // Change one value of level 6 and make its checksums right again, as a
    // build that went wrong would have written it: only `verify` sees it.
    let path = level(&dir, 6);
    let mut bytes = std::fs::read(&path).unwrap();
    let positions = (bytes.len() - 64) / 2;
    let value = 64 + positions / 2;
    bytes[value] = (bytes[value] as i8 + 2) as u8;
    let planes = [&bytes[64..64 + positions], &bytes[64 + positions..]];
    let mut sum = 0u64;
    for plane in planes {
        sum = sum.rotate_left(17) ^ awale_db::store::checksum(plane);
    }
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    let head = awale_db::store::checksum(&bytes[..56]);
    bytes[56..64].copy_from_slice(&head.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let out = awale(&["db", "verify", "--dir", d]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("level  6: 12376 boards, WRONG: "),
        "{}",
        text(&out)
    );
}
