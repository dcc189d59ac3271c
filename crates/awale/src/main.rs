//! `awale`: the one binary. Parses the command line and hands each
//! subcommand to its module; the game itself lives in the library crates.

// Standard output goes through `outln!` and `out!` (module `out`): a reader
// gone (`| head`) is an error to report, not a panic.
#![deny(clippy::print_stdout)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod out;

mod admin;
mod analyze;
mod api_client;
mod bench;
mod board_text;
mod bot;
mod db;
mod loadtest;
mod match_cmd;
mod openings;
mod perft;
mod play;
mod play_online;
mod puzzles;
mod replay;
mod rules_args;
mod serve;
mod show;
mod uci;
mod words;

/// The allocator: the server's many threads allocate small buffers for
/// every request and event, which glibc's arenas serialise under load
/// (docs/BENCHMARKS.md, online play under load).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "awale",
    version,
    about = "Awalé (Oware, Awari): play, analyse and study"
)]
struct Cli {
    /// What to do; without one, `serve`: the browser game.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the browser: serve the game and print its address (the default).
    Serve(serve::Args),
    /// Play in the terminal, against the computer or another person.
    Play(play::Args),
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(bench::Args),
    /// Count the leaves of the move tree (perft).
    Perft(perft::Args),
    /// Draw a position diagram.
    Show(show::Args),
    /// Replay games read from standard input and print every ply.
    Replay(replay::Args),
    /// Speak the engine protocol (the UCI dialect of Oware engines) on
    /// standard input and output.
    Uci(uci::Args),
    /// Score every legal move of a position, with its best line.
    Analyze(analyze::Args),
    /// Play a match between two engines and print the score and Elo.
    Match(Box<match_cmd::Args>),
    /// Connect an engine (the Oware engine protocol) to a site as a bot.
    Bot(Box<bot::Args>),
    /// Find balanced openings for matches.
    Openings(openings::Args),
    /// Endgame databases: build, probe, info.
    Db(db::Args),
    /// Puzzles from the endgame databases: one move alone keeps the value.
    Puzzles(puzzles::Args),
    /// Copy the games file safely, even while the server runs.
    Backup(serve::BackupArgs),
    /// The game store: copy a games file into PostgreSQL.
    Store(serve::StoreArgs),
    /// The server owner's actions on accounts: grant-moderator NAME,
    /// revoke-moderator NAME.
    Admin(admin::Args),
    /// Load a server with simulated online games and spectators; print
    /// moves per second and delivery times as JSON.
    Loadtest(loadtest::Args),
}

/// Log lines for operators on standard error: warnings by default (the
/// server: its start, stop and refusals too), more with `RUST_LOG` (e.g.
/// `RUST_LOG=info awale db build` for each level,
/// `RUST_LOG=awale_match=debug` for every game of a match).
fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Help and version are not errors; a bad flag exits with 2.
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let command = cli
        .command
        .unwrap_or(Command::Serve(serve::Args::default()));
    init_logging(match command {
        Command::Serve(_) => "info",
        _ => "warn",
    });
    let result = match command {
        Command::Serve(args) => serve::run(args),
        Command::Play(mut args) => match args.online() {
            Some((server, token, game, lang)) => play_online::run(&server, &token, game, lang),
            None => play::run(args),
        },
        Command::Bench(args) => bench::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Show(args) => show::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Match(args) => match_cmd::run(*args),
        Command::Bot(args) => bot::run(*args).map(|()| ExitCode::SUCCESS),
        Command::Openings(args) => openings::run(args),
        Command::Db(args) => db::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Backup(args) => serve::backup(args),
        Command::Store(args) => serve::store(args),
        Command::Loadtest(args) => loadtest::run(args),
        Command::Admin(args) => admin::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("awale: {e:#}");
            ExitCode::from(2)
        }
    }
}
