//! Untrusted text into the parsers (diagrams, game records, move lists):
//! random text and small mutations of good text never panic, and a
//! refusal always says what is wrong. A bounded run here; a longer one:
//! `PROPTEST_CASES=200000 cargo test -p awale-core --test hostile_text --release`
//! (docs/SECURITY.md).

use awale_core::{parse_moves, parse_records, Position};
use proptest::prelude::*;

/// Good text with a few bytes changed, cut or repeated.
fn mutated(good: &'static str) -> impl Strategy<Value = String> {
    (
        proptest::collection::vec((0..good.len().max(1), any::<u8>()), 0..6),
        0..=good.len(),
        any::<bool>(),
    )
        .prop_map(move |(edits, cut, twice)| {
            let mut bytes = good.as_bytes().to_vec();
            for (at, b) in edits {
                if at < bytes.len() {
                    bytes[at] = b;
                }
            }
            bytes.truncate(cut.max(1));
            if twice {
                let copy = bytes.clone();
                bytes.extend_from_slice(&copy);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

const RECORD: &str = "[Event \"Awalé\"]\n[Rules \"abapa\"]\n[SetUp \"1\"]\n\
[Position \"0-0-3-0-2-1-0-1-1-1-0-0-20-19-N\"]\n[Result \"*\"]\n\n1. ... d C+2 2. b *\n";

proptest! {
    #[test]
    fn diagrams_never_panic(text in "\\PC{0,60}", near in mutated("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")) {
        for t in [&text, &near] {
            if let Err(e) = t.parse::<Position>() {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn records_never_panic(text in "\\PC{0,300}", near in mutated(RECORD)) {
        for t in [&text, &near] {
            match parse_records(t) {
                Ok(records) => {
                    for r in records {
                        if let Err(e) = r.to_game() {
                            prop_assert!(!e.to_string().is_empty());
                        }
                    }
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn move_lists_never_panic(text in "[A-Fa-f0-9. +*\\-]{0,80}") {
        if let Err(e) = parse_moves(&text) {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
