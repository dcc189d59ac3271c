//! `awale bench`: searches a fixed set of positions to a fixed depth, one
//! thread, a fresh table for each, and prints the total nodes and the speed.
//! The node total is a signature: it changes only when the search's
//! behaviour changes.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use awale_core::{Game, Position, Rules};
use awale_engine::{Engine, EngineOptions, Limits};

/// The positions: openings, middle games and endgames from games between
/// engine levels, under both presets.
const POSITIONS: &[(&str, &str)] = &[
    ("awale", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
    ("abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
    ("awale", "6-1-7-2-7-0-0-7-0-7-0-7-2-2-S"),
    ("awale", "10-0-12-1-1-5-0-9-0-1-0-3-4-2-S"),
    ("awale", "1-3-0-4-6-4-9-1-6-1-5-0-6-2-S"),
    ("awale", "0-6-0-2-1-1-1-0-0-4-12-1-12-8-S"),
    ("awale", "2-6-1-14-1-2-3-0-2-10-2-3-0-2-S"),
    ("awale", "1-1-12-0-4-8-0-1-1-1-2-2-7-8-S"),
    ("awale", "1-3-5-2-2-3-2-1-17-3-0-4-0-5-S"),
    ("awale", "0-1-0-4-5-2-0-1-0-3-9-2-9-12-S"),
    ("awale", "0-0-6-0-4-2-2-0-6-2-0-10-11-5-S"),
    ("awale", "1-1-1-1-0-0-0-1-0-5-0-3-18-17-S"),
    ("abapa", "0-2-0-1-2-10-0-0-4-10-0-10-4-5-S"),
    ("abapa", "0-0-7-12-1-1-9-0-8-0-0-5-2-3-S"),
    ("abapa", "1-8-13-1-2-3-1-5-1-5-0-0-2-6-S"),
    ("abapa", "1-1-0-0-3-0-1-14-0-0-1-0-14-13-S"),
];

/// Arguments of `awale bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth of every search.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Also report the depth reached from the start position in this many
    /// milliseconds (not part of the signature).
    #[arg(long, value_name = "MS")]
    start_time: Option<u64>,
    /// Also report the nodes needed to complete this depth from the start
    /// position, under `awale` and `abapa` (not part of the signature).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=60))]
    start_depth: Option<u32>,
    /// Print one line per position.
    #[arg(long)]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: 1,
    });
    let stop = AtomicBool::new(false);
    // Written through a handle so that a closed pipe is an error, not a panic.
    let mut out = std::io::stdout().lock();
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for (rules, diagram) in POSITIONS {
        let rules: Rules = rules.parse().context("bench rules")?;
        let position: Position = diagram.parse().context("bench position")?;
        let game = Game::from_position(rules, position);
        engine.new_game();
        let started = Instant::now();
        let result = engine.search(&game, &Limits::depth(args.depth), &stop, &mut |_| {});
        time += started.elapsed();
        nodes += result.nodes;
        if args.verbose {
            let best = result.best.map_or("-".to_string(), |m| m.to_string());
            writeln!(
                out,
                "{rules:<6} {diagram:<34} {best} {:>14} {:>10} nodes",
                result.score.to_string(),
                result.nodes
            )?;
        }
    }
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    writeln!(out, "depth {}: {nodes} nodes", args.depth)?;
    writeln!(
        out,
        "time {:.3} s, {:.2} M nodes/s",
        time.as_secs_f64(),
        nps / 1e6
    )?;
    if let Some(depth) = args.start_depth {
        for rules in [Rules::AWALE, Rules::ABAPA] {
            engine.new_game();
            let started = Instant::now();
            let result =
                engine.search(&Game::new(rules), &Limits::depth(depth), &stop, &mut |_| {});
            let seconds = started.elapsed().as_secs_f64();
            writeln!(
                out,
                "start position ({rules}): depth {depth} in {} nodes, {seconds:.3} s, {:.2} M nodes/s",
                result.nodes,
                result.nodes as f64 / seconds.max(1e-9) / 1e6
            )?;
        }
    }
    if let Some(ms) = args.start_time {
        engine.new_game();
        let game = Game::new(Rules::AWALE);
        let result = engine.search(
            &game,
            &Limits::movetime(Duration::from_millis(ms)),
            &stop,
            &mut |_| {},
        );
        writeln!(
            out,
            "start position: depth {} in {ms} ms ({} nodes, best {}, {})",
            result.depth,
            result.nodes,
            result.best.map_or("-".to_string(), |m| m.to_string()),
            result.score
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
