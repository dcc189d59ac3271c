//! `awale openings`: finds balanced openings for matches (every move
//! sequence of a few plies whose position a deep search scores near 0) and
//! prints them in the openings file format, most balanced first. The
//! built-in list, `crates/awale-match/data/openings.txt`, was made with it.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Context};
use awale_engine::{Engine, EngineOptions, Limits};
use awale_match::openings::generate;

use crate::rules_args::RulesArgs;

/// Arguments of `awale openings`.
#[derive(clap::Args)]
pub struct Args {
    /// Length of the openings, in plies.
    #[arg(long, default_value_t = 4, value_name = "PLIES")]
    plies: usize,
    /// Search depth for each position.
    #[arg(long, default_value_t = 16, value_name = "PLIES")]
    depth: u32,
    /// Also stop each search after this many milliseconds.
    #[arg(long, value_name = "MS")]
    time: Option<u64>,
    /// Keep positions scored within this many hundredths of a seed of 0.
    #[arg(long, default_value_t = 50, value_name = "CP")]
    max_score: i32,
    /// Print at most this many openings.
    #[arg(long, default_value_t = 60, value_name = "N")]
    count: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    hash: usize,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Searches every position and prints the openings file.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    if args.plies == 0 || args.plies > 8 {
        bail!("--plies must be from 1 to 8");
    }
    if args.threads == 0 || args.hash == 0 {
        bail!("--threads and --hash must be at least 1");
    }
    let mut engine = Engine::try_new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
    })
    .context("--hash")?;
    let limits = Limits {
        depth: Some(args.depth),
        movetime: args.time.map(Duration::from_millis),
        ..Limits::default()
    };
    let found = generate(
        &mut engine,
        rules,
        args.plies,
        &limits,
        args.max_score,
        &AtomicBool::new(false),
        &mut |done, total| {
            if done % 50 == 0 || done == total {
                eprint!("\r{done}/{total} positions searched");
                let _ = std::io::stderr().flush();
            }
        },
    );
    eprintln!();
    outln!("# Balanced openings for `awale match`: each is played once with each");
    outln!("# engine as South. Made by:");
    let mut command = format!(
        "awale openings --plies {} --depth {} --max-score {} --count {} --rules {rules}",
        args.plies, args.depth, args.max_score, args.count
    );
    if let Some(t) = args.time {
        command.push_str(&format!(" --time {t}"));
    }
    outln!("#   {command}");
    outln!(
        "# {} of the positions after {} plies scored within {} cp of 0;",
        found.len(),
        args.plies,
        args.max_score
    );
    outln!("# the score is the side to move's (South's after an even number of plies).");
    for (opening, score) in found.iter().take(args.count) {
        outln!("{}  # {score}", opening.letters());
    }
    Ok(ExitCode::SUCCESS)
}
