//! `awale db`: endgame databases. `build` solves every board with at most N
//! seeds level by level (resuming after a kill), `probe` prints what they
//! know of a position and of each move, `info` lists what is built.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use awale_core::{Position, Rules};
use awale_db::manifest::{Manifest, MANIFEST_FILE};
use awale_db::{Database, LevelSummary, Phase, Progress, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use crate::rules_args::RulesArgs;

/// `println!` that does not panic when standard output is closed (`| head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Arguments of `awale db`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(clap::Subcommand)]
enum DbCommand {
    /// Build the levels 0..=N (kept levels are checked and skipped: a
    /// killed build resumes where it stopped).
    Build(BuildArgs),
    /// Print the database value of a position and of each of its moves.
    Probe(ProbeArgs),
    /// List the levels built, per rule variant.
    Info(DirArgs),
    /// Check every board of the built levels against its moves: each value
    /// (or bound) the best over the moves, each distance one more than the
    /// right move's. Exit code 1 if a board is wrong.
    Verify(VerifyArgs),
}

#[derive(clap::Args)]
struct DirArgs {
    /// Database folder (default: `awale/db` in the user's data folder);
    /// `--db`, as for `serve`, `puzzles` and `analyze` (`--dir` is kept as
    /// another name).
    #[arg(long = "db", visible_alias = "dir", value_name = "PATH")]
    dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct BuildArgs {
    /// Build every level up to this many seeds on the board.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u8).range(0..=48))]
    max_seeds: u8,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// No progress bar (the summary is still printed).
    #[arg(long)]
    quiet: bool,
    /// Build together with the other processes of an MPI job (`mpirun -np
    /// N awale db build --mpi ...`; needs `--features mpi` and a folder
    /// every process sees). Threads default to the cores of the machine
    /// shared among its processes.
    #[arg(long)]
    mpi: bool,
    #[command(flatten)]
    dir: DirArgs,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(clap::Args)]
struct VerifyArgs {
    #[command(flatten)]
    dir: DirArgs,
    #[command(flatten)]
    rules: RulesArgs,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
}

#[derive(clap::Args)]
struct ProbeArgs {
    /// The position, e.g. 0-0-0-0-1-2-1-0-0-0-0-0-20-24-S.
    #[arg(value_name = "DIAGRAM")]
    position: Position,
    #[command(flatten)]
    dir: DirArgs,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The endgame database for `rules` in the default folder, as the engine's
/// oracle for the `Perfect` level: `None` when none is built (or, with a
/// warning on standard error, when a file is damaged: it is never used).
pub fn perfect_oracle(rules: &Rules) -> Option<std::sync::Arc<dyn awale_engine::Oracle>> {
    match awale_db::oracle_for(rules, None) {
        Ok(oracle) => oracle,
        Err(e) => {
            eprintln!("awale: endgame database not used: {e}");
            None
        }
    }
}

/// Why the folder a user named with `--db` gave no database for `rules`
/// (the library takes a folder without one for "none built"; a folder
/// named is a folder meant to hold one, and a typo is worth a word).
pub fn none_in(dir: &Path, rules: &Rules) -> String {
    if dir.is_dir() {
        format!(
            "--db {}: no endgame database for {rules} in it",
            dir.display()
        )
    } else {
        format!("--db {}: the folder does not exist", dir.display())
    }
}

fn resolve_dir(args: &DirArgs) -> anyhow::Result<PathBuf> {
    match &args.dir {
        Some(d) => Ok(d.clone()),
        None => awale_db::default_dir().context("no data folder known for this user: give --db"),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        DbCommand::Build(a) => build(a),
        DbCommand::Probe(a) => probe(a),
        DbCommand::Info(a) => info(a),
        DbCommand::Verify(a) => verify(a),
    }
}

/// A progress bar on standard error, one pass of one level at a time
/// (with several processes: for all of them, on process 0).
struct Bar(ProgressBar, std::sync::Mutex<String>);

impl Progress for Bar {
    fn pass(&self, seeds: u8, phase: Phase, pass: u32, positions: u64) {
        let what = match phase {
            Phase::Values => "values",
            Phase::Distances => "distances",
        };
        self.0.reset();
        self.0.set_length(positions);
        let exchanged = self.1.lock().map(|n| n.clone()).unwrap_or_default();
        self.0
            .set_message(format!("level {seeds:2}: {what}, pass {pass:3}{exchanged}"));
    }

    fn advance(&self, positions: u64) {
        self.0.inc(positions);
    }

    fn exchanged(&self, changed: u64, bytes: u64) {
        if let Ok(mut note) = self.1.lock() {
            *note = format!(
                " (pass before: {changed} boards changed, {} sent)",
                bytes_text(bytes as f64)
            );
        }
    }
}

/// The worker threads asked for (`--threads`), or one per core.
fn threads(asked: Option<usize>) -> anyhow::Result<usize> {
    let threads = asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    Ok(threads)
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    if args.mpi {
        return build_mpi(args);
    }
    build_on(args, &awale_db::Alone)
}

#[cfg(not(feature = "mpi"))]
fn build_mpi(_: BuildArgs) -> anyhow::Result<ExitCode> {
    bail!("--mpi: this awale was built without MPI (build it with `cargo build --release --features mpi`)")
}

/// `awale db build --mpi`: this process's part of a build on several. A
/// process that meets an error says so and ends the whole job (the others
/// would wait for it forever).
#[cfg(feature = "mpi")]
fn build_mpi(mut args: BuildArgs) -> anyhow::Result<ExitCode> {
    use awale_db::Cluster as _;
    let mpi = awale_db::cluster::Mpi::start().context("MPI could not be started")?;
    if args.threads.is_none() {
        // Open MPI says how many of the job's processes share this machine.
        let here = std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE")
            .ok()
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1)
            .max(1);
        args.threads = Some((threads(None)? / here).max(1));
    }
    if mpi.rank() != 0 {
        args.quiet = true;
    }
    match build_on(args, &mpi) {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!(
                "awale db build: process {} of {} (on {}): {e:#}; stopping the whole job, \
                 the levels finished so far are kept",
                mpi.rank(),
                mpi.size(),
                mpi.host()
            );
            mpi.abort(1)
        }
    }
}

/// `awale db build` as process `cluster.rank()` of `cluster.size()` (alone:
/// 0 of 1). Only process 0 prints and writes the manifest.
fn build_on(args: BuildArgs, cluster: &dyn awale_db::Cluster) -> anyhow::Result<ExitCode> {
    let first = cluster.rank() == 0;
    macro_rules! say {
        ($($arg:tt)*) => {{
            if first {
                use std::io::Write as _;
                let _ = writeln!(std::io::stdout(), $($arg)*);
            }
        }};
    }
    let rules = args.rules.rules()?;
    let root = resolve_dir(&args.dir)?;
    let threads = threads(args.threads)?;
    let variant = Variant::of(&rules);
    let dir = root.join(variant.name());
    let processes = if cluster.size() > 1 {
        format!("{} processes of ", cluster.size())
    } else {
        String::new()
    };
    say!(
        "Building levels 0 to {} for {} ({}) in {} on {processes}{threads} thread(s).",
        args.max_seeds,
        rules_name(variant),
        if variant.is_exact() {
            "exact values"
        } else {
            "bounds"
        },
        dir.display()
    );
    let bar = ProgressBar::new(0);
    if args.quiet {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {human_pos}/{human_len} {rate} ETA {eta} (this pass)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.2} M positions/s", state.per_sec() / 1e6);
            },
        )
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    let progress = Bar(bar, Default::default());
    // The records of earlier builds, for the rows of levels found built
    // (the build records each level in it as it goes).
    let manifest = Manifest::read(&dir, variant);
    // What the biggest level needs while it is built (see docs/DATABASES.md),
    // and the files of all levels.
    let biggest = awale_db::level_size(args.max_seeds) as f64;
    let all: f64 = (0..=args.max_seeds)
        .map(|n| awale_db::level_size(n) as f64)
        .sum();
    let per_board = if variant.is_exact() { 1.25 } else { 2.5 };
    say!(
        "Memory for the last level: about {}{}; files: {}.",
        bytes_text(biggest * per_board),
        if cluster.size() > 1 {
            " in each process"
        } else {
            ""
        },
        bytes_text(2.0 * all)
    );
    if first {
        print_header(variant.is_exact());
    }
    let result = awale_db::build_on(
        cluster,
        &root,
        &rules,
        args.max_seeds,
        threads,
        &progress,
        &mut |summary| {
            if !first {
                return;
            }
            progress.0.suspend(|| {
                print_row(summary, variant.is_exact(), &manifest, true);
                if summary.built && cluster.size() > 1 {
                    let passes = (summary.passes.0 + summary.passes.1).max(1);
                    say!(
                        "      {} sent between the {} processes, {} a pass",
                        bytes_text(summary.bytes_sent as f64),
                        cluster.size(),
                        bytes_text(summary.bytes_sent as f64 / f64::from(passes))
                    );
                }
            });
        },
    );
    progress.0.finish_and_clear();
    let summaries = result?;
    if !first {
        return Ok(ExitCode::SUCCESS);
    }
    let total: f64 = summaries.iter().map(|s| s.seconds).sum();
    let positions: u64 = summaries
        .iter()
        .filter(|s| s.built)
        .map(|s| s.stats.positions)
        .sum();
    say!(
        "Built {} level(s), {positions} positions, in {}; manifest: {}",
        summaries.iter().filter(|s| s.built).count(),
        seconds_text(total),
        dir.join(MANIFEST_FILE).display()
    );
    Ok(ExitCode::SUCCESS)
}

fn rules_name(variant: Variant) -> &'static str {
    variant.preset().map_or("custom rules", |p| p.name())
}

fn bytes_text(b: f64) -> String {
    if b < 1e6 {
        format!("{:.0} kB", b / 1e3)
    } else if b < 1e9 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.1} GB", b / 1e9)
    }
}

fn seconds_text(s: f64) -> String {
    // Rounded once, to tenths, so that 59.96 s is 1:00.0, not 0:60.0.
    let tenths = (s * 10.0).round() as u64;
    if tenths < 600 {
        format!("{}.{} s", tenths / 10, tenths % 10)
    } else {
        let (minutes, rest) = (tenths / 600, tenths % 600);
        format!("{minutes}:{:02}.{} min", rest / 10, rest % 10)
    }
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn print_header(exact: bool) {
    say!(
        "{:>5} {:>13} {:>7} {:>7} {:>7} {:>8} {:>7} {:>10} {:>12} {:>7}",
        "seeds",
        "positions",
        "won%",
        "drawn%",
        "lost%",
        if exact { "sum" } else { "unknown%" },
        "longest",
        "time",
        "positions/s",
        "passes"
    );
}

fn print_row(s: &LevelSummary, exact: bool, manifest: &Manifest, building: bool) {
    let st = &s.stats;
    let (seconds, passes) = if s.built {
        (Some(s.seconds), Some(s.passes))
    } else {
        // Kept from an earlier build: its time is in the manifest.
        let old = manifest.level(st.seeds).and_then(|l| l.build);
        (
            old.map(|b| b.seconds),
            old.map(|b| (b.passes_values, b.passes_distances)),
        )
    };
    let time = seconds.map_or("kept".to_string(), seconds_text);
    let rate = seconds.filter(|&t| t > 0.0).map_or("-".to_string(), |t| {
        format!("{:.0}", st.positions as f64 / t)
    });
    let passes = passes.map_or("-".to_string(), |(v, d)| format!("{v}+{d}"));
    say!(
        "{:>5} {:>13} {:>7.2} {:>7.2} {:>7.2} {:>8} {:>7} {:>10} {:>12} {:>7}{}",
        st.seeds,
        st.positions,
        share(st.won, st.playable),
        share(st.drawn, st.playable),
        share(st.lost, st.playable),
        if exact {
            st.sum_values.to_string()
        } else {
            format!("{:.2}", share(st.unknown, st.playable))
        },
        if exact {
            st.longest.to_string()
        } else {
            "-".to_string()
        },
        time,
        rate,
        passes,
        if building && !s.built {
            " (already built)"
        } else {
            ""
        }
    );
}

fn value_text(lower: i8, upper: i8) -> String {
    if lower == upper {
        format!("{lower:+}")
    } else {
        format!("between {lower:+} and {upper:+}")
    }
}

fn probe(args: ProbeArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let root = resolve_dir(&args.dir)?;
    let position = args.position;
    let db = Database::open(&root, &rules).with_context(|| {
        format!(
            "no database for these rules in {} (run `awale db build`)",
            root.display()
        )
    })?;
    let seeds = position.seeds_on_board();
    if seeds > db.max_seeds() {
        bail!(
            "{seeds} seeds on the board: the database covers up to {}",
            db.max_seeds()
        );
    }
    if let Some(reason) = position.end(&rules) {
        say!("The game is over ({reason}).");
        return Ok(ExitCode::SUCCESS);
    }
    let raw = db.probe_board(&position.relative_holes(), seeds);
    let entry = match (db.probe(&position), raw) {
        (Some(e), _) => e,
        (None, Some(e)) => {
            say!(
                "Note: the target rule could end this game early; the values below \
                 are the seeds still to capture without a target."
            );
            e
        }
        (None, None) => bail!("the position is not covered"),
    };
    let exactness = if db.is_exact() {
        "exact"
    } else {
        "bounds: a repetition gives each player their own row, so the value depends on the history"
    };
    say!(
        "{} to move, {seeds} seeds on the board: value {} ({exactness}; seeds the side to move \
         will still capture minus the opponent's, from a fresh start)",
        position.to_move(),
        value_text(entry.lower, entry.upper)
    );
    if let Some(d) = entry.distance {
        say!(
            "Distance to the next capture (or the end): {d} plies along value-keeping play \
             (the winner hurrying, the loser delaying)."
        );
    }
    let Some(moves) = db.move_entries_ignoring_target(&position) else {
        return Ok(ExitCode::SUCCESS);
    };
    let best = db.best_move_ignoring_target(&position);
    for m in moves {
        let distance = m
            .distance
            .map_or(String::new(), |d| format!(", distance {d}"));
        let captures = if m.captures > 0 {
            format!(", captures {}", m.captures)
        } else {
            String::new()
        };
        say!(
            "  {}: {}{captures}{distance}{}",
            m.mv,
            value_text(m.lower, m.upper),
            if Some(m.mv) == best { "  <- best" } else { "" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn info(args: DirArgs) -> anyhow::Result<ExitCode> {
    let root = resolve_dir(&args)?;
    say!("Database folder: {}", root.display());
    let mut any = false;
    let mut damaged = false;
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let variant = Variant::of(&rules);
        let dir = root.join(variant.name());
        if !dir.exists() {
            continue;
        }
        any = true;
        match Database::open(&root, &rules) {
            Ok(db) => {
                let bytes: u64 = db.levels().iter().map(|l| l.bytes()).sum();
                let positions: u64 = db
                    .levels()
                    .iter()
                    .map(|l| awale_db::level_size(l.seeds()))
                    .sum();
                say!(
                    "{} ({}, {}): levels 0 to {}, {positions} positions, {:.1} MiB, all checked",
                    rules_name(variant),
                    variant.name(),
                    if db.is_exact() {
                        "exact values"
                    } else {
                        "bounds"
                    },
                    db.max_seeds(),
                    bytes as f64 / (1 << 20) as f64
                );
                let manifest = Manifest::read(&dir, variant);
                print_header(db.is_exact());
                for level in db.levels() {
                    let summary = LevelSummary::found(level, db.is_exact());
                    print_row(&summary, db.is_exact(), &manifest, false);
                }
            }
            Err(e) => {
                damaged = true;
                say!("{}: {e}", rules_name(variant));
            }
        }
    }
    if !any {
        say!("Nothing built yet: run `awale db build --max-seeds 16`.");
    }
    // A damaged file is a failure a script must see.
    Ok(if damaged {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn verify(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let root = resolve_dir(&args.dir)?;
    let threads = threads(args.threads)?;
    let db = Database::open(&root, &rules)?;
    let variant = Variant::of(&rules);
    say!(
        "Checking levels 0 to {} for {} in {}.",
        db.max_seeds(),
        rules_name(variant),
        root.join(variant.name()).display()
    );
    let mut all_right = true;
    for seeds in 0..=db.max_seeds() {
        let start = std::time::Instant::now();
        let Some(check) = awale_db::check_level(&db, seeds, threads) else {
            break;
        };
        let verdict = if check.wrong_values == 0 && check.wrong_distances == 0 {
            "right".to_string()
        } else {
            all_right = false;
            format!(
                "WRONG: {} values, {} distances (e.g. board {:?}, side to move first)",
                check.wrong_values,
                check.wrong_distances,
                check.example.unwrap_or_default()
            )
        };
        say!(
            "level {seeds:2}: {} boards, {verdict} ({})",
            check.boards,
            seconds_text(start.elapsed().as_secs_f64())
        );
    }
    Ok(if all_right {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::seconds_text;

    #[test]
    fn times_round_to_tenths_before_splitting_minutes() {
        assert_eq!(seconds_text(0.04), "0.0 s");
        assert_eq!(seconds_text(59.94), "59.9 s");
        assert_eq!(seconds_text(59.96), "1:00.0 min");
        assert_eq!(seconds_text(1139.98), "19:00.0 min");
        assert_eq!(seconds_text(1170.0), "19:30.0 min");
    }
}
