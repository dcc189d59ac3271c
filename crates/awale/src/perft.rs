//! `awale perft DEPTH`: counts the leaves of the move tree, with the time
//! and the speed.

use std::process::ExitCode;
use std::time::Instant;

use awale_core::{perft, Game, Position};

use crate::rules_args::RulesArgs;

/// Arguments of `awale perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Plies to look ahead (at most 30).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: u32,
    /// Start from this diagram instead of the start position (its side to
    /// move as `--first` says).
    #[arg(long, value_name = "DIAGRAM")]
    position: Option<Position>,
    /// Print the count under each legal move first.
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    // The rules' start: `--first north` moves North first (`random`
    // draws, as a new game does).
    let position = args.position.unwrap_or_else(|| Game::new(rules).start());
    let started = Instant::now();
    let leaves = if args.divide && args.depth > 0 {
        let mut total = 0;
        if !rules.target_reached(position.stores()) {
            for m in position.legal_moves(&rules) {
                let n = perft(&position.play_unchecked(m), args.depth - 1, &rules);
                outln!("{m}: {n}");
                total += n;
            }
        }
        total
    } else {
        perft(&position, args.depth, &rules)
    };
    let seconds = started.elapsed().as_secs_f64();
    outln!("{leaves}");
    eprintln!(
        "perft {} under {rules} from {position}: {leaves} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        args.depth,
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
