//! Untrusted lines into the engine protocol: random words and mutations of
//! real commands never panic and never stop the protocol from answering
//! `isready`. A bounded run here; a longer one:
//! `PROPTEST_CASES=20000 cargo test -p awale-engine --test hostile_lines --release`.

use std::sync::{Arc, Mutex};

use awale_engine::protocol::{Output, Protocol};
use awale_engine::{Engine, EngineOptions};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "movetime",
    "nodes",
    "wtime",
    "btime",
    "stop",
    "setoption",
    "name",
    "value",
    "Hash",
    "Level",
    "Rules",
    "abapa",
    "OwnBook",
    "ponderhit",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "0-0-0-0-0-1-0-0-0-0-0-0-24-23-S",
    "F",
    "a",
    "CbDaFaB",
    "-1",
    "99999999999999999999",
    "",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(proptest::sample::select(WORDS), 0..8).prop_map(|w| w.join(" ")),
        "\\PC{0,40}",
    ]
}

/// 64 cases, or PROPTEST_CASES for a longer run (see above).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok());
    ProptestConfig {
        cases: cases.unwrap_or(64),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn protocol_lines_never_panic(lines in proptest::collection::vec(line(), 1..12)) {
        let said = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&said);
        let output: Output = Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string()));
        let options = EngineOptions { hash_mb: 1, threads: 1 };
        let mut protocol = Protocol::with_engine(Engine::new(options), options, output);
        for l in &lines {
            // Searches are kept short: a `go` without limits would think on.
            let l = if l.starts_with("go") { format!("{l} movetime 5") } else { l.clone() };
            protocol.handle_line(&l);
            protocol.handle_line("stop");
        }
        protocol.handle_line("isready");
        protocol.shutdown();
        prop_assert!(said.lock().unwrap().iter().any(|l| l == "readyok"));
    }
}
