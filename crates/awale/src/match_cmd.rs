//! `awale match`: two engines play each other from balanced openings, each
//! opening once with each engine as South; prints every game and then the
//! score, the Elo difference with its 95% interval and, when asked, the SPRT
//! decision; writes every game to a records file. The match itself is the
//! crate `awale-match`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use awale_match::elo::{Sprt, SprtDecision, Tally};
use awale_match::openings::{self, parse_openings};
use awale_match::{GameReport, Match, MatchConfig, PlayerSpec};
use clap::builder::RangedU64ValueParser;

use crate::rules_args::RulesArgs;

/// Arguments of `awale match`.
#[derive(clap::Args)]
#[command(after_help = "PLAYER is comma-separated key=value pairs:\n  \
    level=N                 our engine at level N (its own depth and time)\n  \
    depth=D nodes=N         search limits per move\n  \
    movetime=MS             time per move, in milliseconds\n  \
    tc=BASE+INC             a clock, in seconds (e.g. tc=10+0.1)\n  \
    threads=N hash=MIB      our engine's (or an external engine's) settings\n  \
    name=NAME               the name in results and records\n  \
    option.NAME=VALUE       a setoption for an external engine\n  \
    cmd=PROGRAM ARGS...     an external engine speaking the protocol (last key)\n\
Examples:\n  \
    awale match level=3 level=4 --games 100\n  \
    awale match depth=10 'depth=10,cmd=./other-engine --uci' --concurrency 2")]
pub struct Args {
    /// The first player (results are given from its side).
    #[arg(value_name = "PLAYER")]
    a: PlayerSpec,
    /// The second player.
    #[arg(value_name = "PLAYER")]
    b: PlayerSpec,
    /// Games to play, rounded up to an even number (default: each opening
    /// twice).
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    games: Option<usize>,
    /// Openings file: one opening a line, as moves (`FfAa`), `#` comments
    /// (default: the built-in balanced openings).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games played at a time: 1 or 2.
    #[arg(long, default_value_t = 1, value_name = "1|2",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=2))]
    concurrency: usize,
    /// Stop early by a sequential probability ratio test:
    /// `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Where to write the games as records.
    #[arg(long, default_value = "awale-match.ogn", value_name = "FILE")]
    records: PathBuf,
    /// Adjudicate a game still going after this many plies (by the stores).
    #[arg(long, default_value_t = 400, value_name = "PLIES")]
    max_plies: usize,
    /// Play games to their end even once a store holds more than half the
    /// seeds (by default they are adjudicated then: the result is settled).
    #[arg(long)]
    play_out: bool,
    /// Longest wait for a move when neither a clock nor a move time bounds
    /// it, in milliseconds; a player taking longer forfeits.
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    move_timeout: u64,
    /// How far past its clock a player may go before losing on time, in
    /// milliseconds.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    time_margin: u64,
    /// Print only the final statistics, not every game.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

fn parse_sprt(text: &str) -> anyhow::Result<Sprt> {
    let numbers: Vec<f64> = text
        .split(',')
        .map(|t| t.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("`{text}`: expected numbers such as 0,10,0.05,0.05"))?;
    let (elo0, elo1, alpha, beta) = match numbers[..] {
        [e0, e1] => (e0, e1, 0.05, 0.05),
        [e0, e1, a, b] => (e0, e1, a, b),
        _ => bail!("`{text}`: give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"),
    };
    Ok(Sprt::new(elo0, elo1, alpha, beta)?)
}

/// `+1 =0 -2` for a tally.
fn tally_text(t: &Tally) -> String {
    format!("+{} ={} -{}", t.wins, t.draws, t.losses)
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns -0.0 into 0.0.
        format!("{:+.1}", x + 0.0)
    }
}

/// Plays the match and prints its statistics.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let a = args.a;
    let mut b = args.b;
    if a.name == b.name {
        b.name.push_str(" (2)");
    }
    let openings = match &args.openings {
        None => openings::builtin(rules).context("the built-in openings")?,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            parse_openings(&text, rules)
                .with_context(|| format!("openings file {}", path.display()))?
        }
    };
    let sprt = args.sprt;
    let games = args.games.unwrap_or(openings.len() * 2);
    let config = MatchConfig {
        rules,
        openings,
        games,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        adjudicate_decided: !args.play_out,
        move_timeout: Duration::from_millis(args.move_timeout),
        time_margin: Duration::from_millis(args.time_margin),
        sprt,
    };
    let prepared = Match::new(&config, &a, &b)?;
    let mut records = BufWriter::new(
        File::create(&args.records)
            .with_context(|| format!("creating {}", args.records.display()))?,
    );
    let total = games.div_ceil(2) * 2;
    outln!(
        "{} vs {}: {total} games, {} openings, rules {rules}, {} at a time",
        a.name,
        b.name,
        config.openings.len(),
        config.concurrency
    );
    for note in prepared.notes() {
        outln!("Note: {note}");
    }
    let started = Instant::now();
    let mut write_error = None;
    let mut on_game = |report: &GameReport, tally: &Tally| {
        if write_error.is_none() {
            if let Err(e) = writeln!(records, "{}", report.record).and_then(|()| records.flush()) {
                write_error = Some(e);
            }
        }
        if !args.quiet {
            let south = report.record.tag("South").unwrap_or("?");
            let north = report.record.tag("North").unwrap_or("?");
            outln!(
                "game {:>4}/{total}  {south} (S) - {north} (N)  opening {}  {}  {}  [{}: {}]",
                report.round,
                report.record.tag("Opening").unwrap_or(""),
                report.record.result,
                report.termination,
                a.name,
                tally_text(tally),
            );
        }
    };
    let summary = prepared.run(&mut on_game);
    records.flush().ok();
    if let Some(e) = write_error {
        eprintln!("awale: writing {}: {e}", args.records.display());
    }
    let summary = summary?;
    let t = summary.tally;
    outln!();
    outln!(
        "{} vs {}: {} wins, {} draws, {} losses in {} games ({:.1} s)",
        a.name,
        b.name,
        t.wins,
        t.draws,
        t.losses,
        t.games(),
        started.elapsed().as_secs_f64()
    );
    if let (Some(score), Some(elo)) = (t.score(), t.elo()) {
        outln!(
            "Score of {}: {:.1}/{} ({:.1}%)",
            a.name,
            t.points(),
            t.games(),
            100.0 * score
        );
        let margin = if elo.margin().is_finite() {
            format!(" ± {:.1}", elo.margin())
        } else {
            String::new()
        };
        outln!(
            "Elo difference: {}{margin} (95% interval {} .. {})",
            signed(elo.elo),
            signed(elo.lower),
            signed(elo.upper)
        );
        if let Some(los) = t.likelihood_of_superiority() {
            outln!("Likelihood of superiority: {:.1}%", 100.0 * los);
        }
    }
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match summary.sprt {
            Some(SprtDecision::AcceptH1) => "H1 accepted: stopped early".to_string(),
            Some(SprtDecision::AcceptH0) => "H0 accepted: stopped early".to_string(),
            None => "no decision".to_string(),
        };
        outln!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} [{:.2}, {:.2}]: {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&t),
            lower,
            upper
        );
    }
    outln!("Games written to {}", args.records.display());
    Ok(ExitCode::SUCCESS)
}
