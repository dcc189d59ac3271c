//! `awale uci`: the engine behind the text protocol of Oware GUIs and match
//! programs (a dialect of UCI), on standard input and output. The protocol
//! itself is `awale_engine::protocol`; this module only wires the pipes.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use awale_core::Rules;

use anyhow::Context;
use awale_engine::protocol::{
    read_line, Flow, LineRead, Output, Protocol, MAX_HASH_MB, MAX_LINE_BYTES, MAX_THREADS,
};
use awale_engine::{Engine, EngineOptions};

use crate::rules_args::RulesArgs;

/// Arguments of `awale uci`.
#[derive(clap::Args)]
pub struct Args {
    /// Transposition table size in MiB (the `Hash` option can change it),
    /// within the option's range.
    #[arg(long, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: Option<u64>,
    /// Search threads (the `Threads` option can change it), within the
    /// option's range.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: Option<u64>,
    /// Endgame databases folder (default: where `awale db build` writes),
    /// or `none` to search without them. Used when built for the rules set.
    #[arg(long, value_name = "DIR|none")]
    db: Option<String>,
    /// The rules to play until told otherwise (`setoption name Rules`);
    /// without `--rules`, tournament Oware (`abapa`), as the GUIs that never
    /// set them play.
    #[command(flatten)]
    rules: RulesArgs,
}

/// Reads commands until `quit` or the end of the input.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules_or(Rules::ABAPA)?;
    let defaults = EngineOptions::default();
    // The flags' ranges are the options' (what `uci` advertises).
    let options = EngineOptions {
        hash_mb: args.hash.map_or(defaults.hash_mb, |mib| mib as usize),
        threads: args.threads.map_or(defaults.threads, |n| n as usize),
    };
    let output: Output = Arc::new(|line: &str| {
        // One lock per line: lines from the search thread never interleave.
        let mut out = std::io::stdout().lock();
        // A closed pipe means the GUI is gone; `quit` or the end of the
        // input follows, so the error is not fatal here.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    let engine = Engine::try_new(options).context("--hash")?;
    let mut protocol = Protocol::with_engine(engine, options, Arc::clone(&output));
    protocol.set_rules(rules);
    if args.db.as_deref() != Some("none") {
        let dir = args.db.map(PathBuf::from);
        let output = Arc::clone(&output);
        // Asked at a `go` under rules not seen before: an `info string`
        // before the search's lines says what a folder named lacks.
        protocol.set_oracle_source(Box::new(move |rules: &Rules| {
            match awale_db::oracle_for(rules, dir.as_deref()) {
                Ok(None) => {
                    if let Some(dir) = &dir {
                        let why = crate::db::none_in(dir, rules);
                        output(&format!("info string endgame databases not used: {why}"));
                    }
                    None
                }
                Ok(oracle) => oracle,
                Err(e) => {
                    output(&format!("info string endgame databases not used: {e}"));
                    None
                }
            }
        }));
    }
    let mut input = std::io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        // Bytes, not `lines()`: a line that is not UTF-8 must not end the
        // session; and at most MAX_LINE_BYTES of a line are kept.
        match read_line(&mut input, &mut buffer)? {
            LineRead::End => break,
            LineRead::TooLong(bytes) => {
                output(&format!(
                    "info string line of {bytes} bytes ignored: the longest read is {MAX_LINE_BYTES}"
                ));
                continue;
            }
            LineRead::Line => {}
        }
        let line = String::from_utf8_lossy(&buffer);
        if protocol.handle_line(&line) == Flow::Quit {
            return Ok(ExitCode::SUCCESS);
        }
    }
    protocol.shutdown();
    Ok(ExitCode::SUCCESS)
}
