//! A quick in-process check that each level beats the one below it: plays
//! every two-ply opening with both colours between adjacent levels.
//!
//! `cargo run --release -p awale-match --example ladder -- [FIRST_LEVEL] [LAST_LEVEL]`
//!
//! The formal ladder with Elo figures is `awale match` (docs/BENCHMARKS.md).

use awale_core::Rules;
use awale_engine::Level;
use awale_match::{openings, run_match, MatchConfig, PlayerSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u8> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let first = args.first().copied().unwrap_or(1);
    let last = args.get(1).copied().unwrap_or(5);
    let openings = openings::every(Rules::AWALE, 2);
    let config = MatchConfig {
        games: openings.len() * 2,
        openings,
        ..MatchConfig::default()
    };
    for n in first..last {
        let (Some(weak), Some(strong)) = (Level::from_number(n), Level::from_number(n + 1)) else {
            continue;
        };
        let a: PlayerSpec = format!("level={},hash=16", n + 1).parse()?;
        let b: PlayerSpec = format!("level={n},hash=16").parse()?;
        let t = run_match(&config, &a, &b, &mut |_, _| {})?.tally;
        println!(
            "level {} ({}) vs level {n} ({}): +{} ={} -{}, score {:.1}%",
            n + 1,
            strong.key(),
            weak.key(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.5)
        );
    }
    Ok(())
}
