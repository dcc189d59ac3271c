//! `awale serve` (and `awale` alone): the browser game. Opens the game
//! store, binds the address and prints it, then serves until stopped.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use awale_web::{AppState, Config, Store};

/// Arguments of `awale serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    /// The game store: a SQLite file, or a directory to keep `games.sqlite`
    /// in (default: the user's data directory).
    #[arg(long, value_name = "PATH")]
    data: Option<PathBuf>,
    /// Endgame databases folder, as built by `awale db build` (default:
    /// `awale/db` in the user's data directory; used when present).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            addr: "127.0.0.1:8080".to_string(),
            data: None,
            db: None,
        }
    }
}

/// The user's data directory for this program, by the platform's custom.
fn default_data_dir() -> anyhow::Result<PathBuf> {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        env("APPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library").join("Application Support"))
    } else {
        env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local").join("share")))
    };
    let base = base.context("no data directory (HOME is not set): give one with --data")?;
    Ok(base.join("awale"))
}

fn store_path(data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let path = match data {
        Some(p) if p.is_dir() => p.join("games.sqlite"),
        Some(p) => p,
        None => default_data_dir()?.join("games.sqlite"),
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(path)
}

/// The database of the `awale` rules in `dir` (or the default folder), for
/// the study pages' puzzles; None when none is built (or, with a warning,
/// when a file is damaged).
fn puzzle_database(dir: Option<&std::path::Path>) -> Option<std::sync::Arc<awale_db::Database>> {
    let root = dir.map(PathBuf::from).or_else(awale_db::default_dir)?;
    match awale_db::Database::open(&root, &awale_core::Rules::AWALE) {
        Ok(db) => Some(std::sync::Arc::new(db)),
        Err(awale_db::DbError::Missing(_)) => None,
        Err(e) => {
            eprintln!("awale: no puzzles: {e}");
            None
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let path = store_path(args.data)?;
    let store = Store::open(&path).with_context(|| format!("game store {}", path.display()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr().context("no local address")?;
        // Whoever started us may stop reading: never fail on that.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "Awalé: http://{addr}/");
        let _ = writeln!(out, "(games stored in {})", path.display());
        let _ = out.flush();
        // Endgame databases built with `awale db build`, found per rule
        // variant when a game needs one: the Perfect level, hints and
        // reviews use them.
        let db = args.db.clone();
        let oracles: awale_web::computer::OracleSource = Box::new(move |rules| {
            match awale_db::oracle_for(rules, db.as_deref()) {
                Ok(oracle) => oracle,
                Err(e) => {
                    // A damaged file is never used; the game goes on without.
                    eprintln!("awale: endgame database not used: {e}");
                    None
                }
            }
        });
        let state = AppState::with_oracle(store, Config::default(), Some(oracles));
        // Puzzles come from the exact database of the awale rules.
        state.set_puzzle_database(puzzle_database(args.db.as_deref()));
        awale_web::serve(listener, state)
            .await
            .context("server failed")
    })?;
    Ok(ExitCode::SUCCESS)
}
