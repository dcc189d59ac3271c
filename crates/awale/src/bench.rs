//! `awale bench`: the fixed search of `awale_engine::bench` (the same
//! positions to the same depth, one thread, a fresh table for each), printing
//! the total nodes and the speed. The node total is a signature: it changes
//! only when the search's behaviour changes.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use awale_core::{Game, Rules};
use awale_engine::{Engine, EngineOptions, Limits};

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
    let mut engine = Engine::try_new(EngineOptions {
        hash_mb: args.hash,
        threads: 1,
    })
    .context("--hash")?;
    let stop = AtomicBool::new(false);
    // Written through a handle so that a closed pipe is an error, not a panic.
    let mut out = std::io::stdout().lock();
    let mut failed = Ok(());
    let bench = awale_engine::bench::run(&mut engine, args.depth, &mut |rules, diagram, result| {
        if args.verbose && failed.is_ok() {
            let best = result.best.map_or("-".to_string(), |m| m.to_string());
            failed = writeln!(
                out,
                "{rules:<6} {diagram:<34} {best} {:>14} {:>10} nodes",
                result.score.to_string(),
                result.nodes
            );
        }
    });
    failed?;
    writeln!(out, "depth {}: {} nodes", args.depth, bench.nodes)?;
    writeln!(
        out,
        "time {:.3} s, {:.2} M nodes/s",
        bench.time.as_secs_f64(),
        bench.nodes_per_second() / 1e6
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
