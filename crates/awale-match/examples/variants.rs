//! Matches between search variants at equal time per move, for deciding
//! search features: `cargo run --release -p awale-match --example variants -- MS`.

use std::time::Duration;

use awale_core::Rules;
use awale_engine::{Limits, SearchParams};
use awale_match::{openings, run_match, MatchConfig, PlayerSpec};

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let base = SearchParams::default();
    let variants = [
        (
            "qsearch",
            SearchParams {
                qsearch: true,
                ..base
            },
        ),
        (
            "no_lmr_deep",
            SearchParams {
                lmr_deep: false,
                ..base
            },
        ),
        (
            "lmr_first1",
            SearchParams {
                lmr_first: 1,
                ..base
            },
        ),
        (
            "no_futility",
            SearchParams {
                futility: 0,
                ..base
            },
        ),
    ];
    let which: Option<String> = std::env::args().nth(2);
    for (name, params) in variants {
        if which.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let (w, d, l) = play(params, base, Duration::from_millis(ms));
        println!(
            "{name} vs default at {ms} ms: +{w} ={d} -{l} ({:.1}%)",
            100.0 * (f64::from(w) + f64::from(d) / 2.0) / f64::from(w + d + l)
        );
    }
}

/// `a` against `b` at `time` a move, every 2-ply opening with both colours:
/// a's wins, draws, losses.
fn play(a: SearchParams, b: SearchParams, time: Duration) -> (u32, u32, u32) {
    let spec =
        |name: &str, params| PlayerSpec::ours(name, Limits::movetime(time)).with_params(params);
    let openings = openings::every(Rules::AWALE, 2);
    let config = MatchConfig {
        games: openings.len() * 2,
        openings,
        max_plies: 300,
        ..MatchConfig::default()
    };
    match run_match(
        &config,
        &spec("variant", a),
        &spec("default", b),
        &mut |_, _| {},
    ) {
        Ok(summary) => (
            summary.tally.wins,
            summary.tally.draws,
            summary.tally.losses,
        ),
        Err(e) => {
            eprintln!("{e}");
            (0, 0, 0)
        }
    }
}
