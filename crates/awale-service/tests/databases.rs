//! The databases a server builds for itself (`awale_service::databases`):
//! each level in use as soon as it is written (puzzles, the computer's
//! oracle), the build resumed after a stop, a half-written level never
//! read, a damaged one stopping the build (and never read, as before).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use awale_core::Rules;
use awale_service::computer::{Computer, OracleSource};
use awale_service::databases::build_in_background;
use awale_service::study::Readiness;
use awale_service::study::Study;

fn computer(root: &Path) -> Arc<Computer> {
    let root = root.to_path_buf();
    let source: OracleSource =
        Box::new(move |rules| awale_db::oracle_for(rules, Some(&root)).ok().flatten());
    Arc::new(Computer::new(Some(source), 1, 4))
}

/// Builds up to `target` in `root` in the background and waits for the end.
fn build(root: &Path, target: u8, study: &Arc<Study>, computer: &Arc<Computer>) -> Readiness {
    let handle = build_in_background(
        root.to_path_buf(),
        target,
        2,
        Arc::clone(study),
        Arc::clone(computer),
    )
    .expect("the build's thread starts");
    handle.join().expect("the build does not panic");
    study.readiness().expect("a build says how far it is")
}

fn level_file(root: &Path, seeds: u8) -> PathBuf {
    root.join("forbidden-nobody")
        .join(format!("level-{seeds:02}.awdb"))
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("the level file is there")
}

#[test]
fn each_level_is_used_and_a_stopped_build_resumes_without_reading_a_half_written_level() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let study = Arc::new(Study::default());
    let computer = computer(root);
    assert!(study.database().is_err(), "no puzzles before the build");
    assert!(!computer.has_oracle());

    let done = build(root, 6, &study, &computer);
    assert_eq!(
        done,
        Readiness {
            ready: Some(6),
            target: 6,
            building: false,
            stopped: None
        }
    );
    assert_eq!(study.database().unwrap().max_seeds(), 6);
    // The computer asked its source before the build: it asks again.
    assert!(computer.has_oracle());

    // A stop in the middle of level 7 leaves its file aside, half written:
    // never read as built, and built again.
    let kept = modified(&level_file(root, 3));
    let half = level_file(root, 7).with_extension("tmp");
    std::fs::write(&half, b"AWALEDB half a level").unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let study = Arc::new(Study::default());
    let done = build(root, 8, &study, &computer);
    assert_eq!(done.ready, Some(8));
    assert_eq!(study.database().unwrap().max_seeds(), 8);
    assert_eq!(
        modified(&level_file(root, 3)),
        kept,
        "the levels built before are kept, not built again"
    );
    let db = awale_db::Database::open(root, &Rules::AWALE).unwrap();
    assert_eq!(db.max_seeds(), 8, "level 7 rebuilt whole and checked");
}

#[test]
fn a_damaged_level_stops_the_build_and_is_never_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let study = Arc::new(Study::default());
    let computer = computer(root);
    build(root, 6, &study, &computer);
    // Level 6 damaged on disk (a bad disk, a hand's edit).
    let six = level_file(root, 6);
    let mut bytes = std::fs::read(&six).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    std::fs::write(&six, bytes).unwrap();

    let study = Arc::new(Study::default());
    let started = Instant::now();
    let done = build(root, 8, &study, &computer);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(!done.building);
    let why = done.stopped.expect("the build says why it stopped");
    assert!(why.contains("level-06"), "{why}");
    assert_eq!(done.ready, None);
    // A damaged folder is not used at all, as when the server starts.
    assert!(
        study.database().is_err(),
        "a damaged database is never read"
    );
}

/// Issue 40, accuracy: a game played as the databases play it, on both
/// sides, loses no seed on any move, every loss exact: 100 for each side.
#[test]
fn a_game_played_as_the_databases_play_scores_100_for_both_sides() {
    use awale_core::{Game, Position};
    use std::sync::atomic::AtomicBool;

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    awale_db::build(root, &Rules::AWALE, 8, 2).unwrap();
    let db = awale_db::Database::open(root, &Rules::AWALE).unwrap();
    let start: Position = "1-0-2-0-1-0-0-1-0-2-1-0-20-20-S".parse().unwrap();
    let mut game = Game::from_position(Rules::AWALE, start);
    while game.end().is_none() && game.plies().len() < 24 {
        let mv = db.best_move_in_game(&game).expect("the database decides");
        game.play(mv).unwrap();
    }
    assert!(game.plies().len() >= 4, "a game of a few moves each");
    let computer = computer(root);
    let rows = computer.review(&game, &AtomicBool::new(false));
    assert_eq!(rows.len(), game.plies().len());
    for row in &rows {
        assert!(row.exact, "decided by the databases: {row:?}");
        assert!(!row.mistake, "{row:?}");
    }
    let accuracy = awale_service::accuracy::accuracies(&rows);
    assert_eq!(accuracy.len(), 2);
    for side in accuracy {
        assert_eq!(side.accuracy, 100.0, "{side:?}");
        assert_eq!(side.exact, side.moves);
    }
}
