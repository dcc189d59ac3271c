//! The lessons of the page (`page/lessons.json`) say true things: every
//! position is real, every move the learner is told to play can be played
//! and does what the text says (captures, chains, krous, feeding, the
//! forbidden grand slam, the end of the game), checked with the rules
//! library; strategy steps are the only best move by an endgame database
//! built here, and what follows them is the database's line.

use std::collections::HashSet;

use awale_core::{Game, Move, Position, Rules, Side};
use awale_db::{build, Database};
use awale_service::study::PositionView;
use serde_json::Value;

fn lessons() -> Value {
    let text = include_str!("../page/lessons.json");
    serde_json::from_str(text).expect("lessons.json is JSON")
}

/// Both languages, not empty, short: a lesson is no reading-heavy screen.
fn words(v: &Value, what: &str) {
    for lang in ["fr", "en"] {
        let s = v[lang]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: no {lang}"));
        assert!(!s.trim().is_empty(), "{what}: empty {lang}");
        assert!(s.chars().count() <= 260, "{what}: {lang} is too long");
    }
}

fn letter(v: &Value) -> Move {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn every_lesson_step_is_true_to_the_rules() {
    let all = lessons();
    let list = all["lessons"].as_array().unwrap();
    let ids: HashSet<&str> = list.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), list.len(), "lesson ids are unique");
    // What the issue asks the lessons to teach, each in a lesson of its own.
    for id in [
        "sow",
        "krou",
        "capture",
        "chain",
        "feed",
        "grand_slam",
        "end",
        "target",
        "strategy",
    ] {
        assert!(ids.contains(id), "no lesson `{id}`");
    }
    let mut best_steps = Vec::new();
    for lesson in list {
        let id = lesson["id"].as_str().unwrap();
        words(&lesson["title"], id);
        let steps = lesson["steps"].as_array().unwrap();
        assert!(!steps.is_empty(), "{id}: no step");
        for (n, step) in steps.iter().enumerate() {
            let at = format!("{id} step {}", n + 1);
            for key in ["task", "hint", "success"] {
                words(&step[key], &format!("{at} {key}"));
            }
            let rules: Rules = step["rules"].as_str().unwrap_or("awale").parse().unwrap();
            let position: Position = step["position"].as_str().unwrap().parse().unwrap();
            let total = position.seeds_on_board() + position.stores().iter().sum::<u8>();
            assert_eq!(total, 48, "{at}: a real game has 48 seeds");
            assert_eq!(
                position.to_move(),
                Side::South,
                "{at}: the learner plays South"
            );
            assert!(position.end(&rules).is_none(), "{at}: the game is over");
            let accept: Vec<Move> = step["accept"]
                .as_array()
                .unwrap()
                .iter()
                .map(letter)
                .collect();
            assert!(!accept.is_empty(), "{at}: nothing to play");
            for &m in &accept {
                position
                    .check(m, &rules)
                    .unwrap_or_else(|e| panic!("{at}: {m} cannot be played: {e}"));
            }
            if let Some(wrong) = step["wrong"].as_object() {
                for (m, text) in wrong {
                    let m: Move = m.parse().unwrap();
                    assert!(!accept.contains(&m), "{at}: {m} is right and wrong");
                    assert_eq!(m.side(), Side::South, "{at}: {m}");
                    words(text, &format!("{at} wrong {m}"));
                }
            }
            let check = &step["check"];
            for &m in &accept {
                let sowing = position.sowing(m);
                if let Some(c) = check["captures"].as_u64() {
                    assert_eq!(u64::from(position.captures(m)), c, "{at}: {m} captures");
                }
                if let Some(k) = check["holes_captured"].as_u64() {
                    assert_eq!(sowing.captures.len() as u64, k, "{at}: {m} chain");
                }
                if let Some(last) = check["last"].as_str() {
                    let hole = *sowing.sown.last().unwrap() as usize;
                    assert_eq!(
                        Move::from_hole(hole).unwrap().to_string(),
                        last,
                        "{at}: {m}"
                    );
                }
                if check["krou"] == true {
                    assert!(position.hole(m.hole()) >= 12, "{at}: {m} is no krou");
                    assert!(sowing.sown.len() > 11, "{at}: {m} goes round");
                }
                if check["grand_slam"] == true {
                    assert!(position.is_grand_slam(m), "{at}: {m}");
                }
                let mut game = Game::from_position(rules, position);
                game.play(m).unwrap();
                if let Some(after) = check["store_after"].as_u64() {
                    assert_eq!(u64::from(game.position().store(Side::South)), after, "{at}");
                }
                for reply in step["then"].as_array().into_iter().flatten() {
                    game.play(letter(reply))
                        .unwrap_or_else(|e| panic!("{at}: then {reply}: {e}"));
                }
                match check["end"].as_str() {
                    Some(end) => {
                        let outcome = game.outcome().unwrap_or_else(|| panic!("{at}: no end"));
                        assert_eq!(outcome.reason.name(), end, "{at}");
                        let winner = outcome
                            .winner
                            .map_or("draw".to_string(), |s| s.letter().to_string());
                        assert_eq!(Some(winner.as_str()), check["winner"].as_str(), "{at}");
                    }
                    None => assert!(game.end().is_none(), "{at}: the game ends"),
                }
            }
            // Why a move cannot be played, as the server tells the page.
            let view = PositionView::of(&position, &rules);
            for (m, why) in check["illegal"].as_object().into_iter().flatten() {
                let hole = view.moves.iter().find(|h| h.mv == *m);
                let hole = hole.unwrap_or_else(|| panic!("{at}: {m} is not a hole of the mover"));
                assert!(!hole.legal, "{at}: {m} is legal");
                assert_eq!(hole.reason, why.as_str(), "{at}: {m}");
                assert!(!accept.contains(&m.parse().unwrap()));
            }
            if check["best"] == true {
                assert_eq!(accept.len(), 1, "{at}: one best move");
                best_steps.push((at, position, accept[0], step["then"].clone()));
            }
        }
    }
    // Strategy: the database confirms the one best move, and what the page
    // plays after it is the database's line.
    let most = best_steps
        .iter()
        .map(|s| s.1.seeds_on_board())
        .max()
        .unwrap_or(0);
    let dir = tempfile_dir();
    build(&dir, &Rules::AWALE, most, 2).unwrap();
    let db = Database::open(&dir, &Rules::AWALE).unwrap();
    for (at, position, answer, then) in best_steps {
        let judged = awale_puzzles::judge(&db, &position, answer).unwrap();
        assert_eq!(judged.best, vec![answer], "{at}: not the only best move");
        let then: Vec<Move> = then.as_array().unwrap().iter().map(letter).collect();
        assert_eq!(judged.line[1..], then[..], "{at}: not the database's line");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("awale-web-lessons-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
