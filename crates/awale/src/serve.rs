//! `awale serve` (and `awale` alone): the browser game. Opens the game
//! store, binds the address and prints it, then serves until Ctrl-C or
//! SIGTERM, when it finishes the requests in flight, folds the store's log
//! into the file and exits 0. The store is the games file (SQLite, the
//! default) or a PostgreSQL database (`--store postgres://...`), which
//! several processes may share. Also `awale backup`: a consistent copy of
//! the games file, safe while the server runs; and `awale store migrate`:
//! a games file copied into PostgreSQL, checked.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use awale_store::{PgStore, Store};
use awale_web::server::Limits;
use awale_web::{AppState, Config, Policy};

/// Arguments of `awale serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port). `0.0.0.0:8080`
    /// serves other machines too.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    /// The game store: a SQLite file, or a directory to keep `games.sqlite`
    /// in (default: the user's data directory).
    #[arg(long, value_name = "PATH", conflicts_with = "store")]
    data: Option<PathBuf>,
    /// The game store in a PostgreSQL database instead of the games file:
    /// `postgres://USER@HOST/DATABASE` (a password as `USER:PASSWORD@`, or
    /// in `~/.pgpass`). Several processes may serve one site from one
    /// database (docs/DEPLOY.md).
    #[arg(long, value_name = "URL")]
    store: Option<String>,
    /// Endgame databases folder, as built by `awale db build` (default:
    /// `awale/db` in the user's data directory, where the server builds
    /// the levels it lacks in the background); `none`: no databases, and
    /// no build.
    #[arg(long, value_name = "PATH|none")]
    db: Option<PathBuf>,
    /// Build the endgame databases of the `awale` rules up to this many
    /// seeds in the background, at the lowest CPU priority, each level used
    /// as soon as it is written, on all cores but one (default: 20 in the
    /// default folder, about five minutes on two cores and 452 MB; none in
    /// a folder named with `--db` unless given).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u8).range(0..=48))]
    db_levels: Option<u8>,
    /// The address players reach the server at, e.g.
    /// `https://awale.example.org` (behind a reverse proxy): invite links
    /// use it, the server answers to its name, and cookies are sent over
    /// HTTPS only when it is `https`.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Another host name to answer to (besides IP addresses, `localhost`
    /// and the public URL's); may be repeated.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// Behind a reverse proxy at this address (repeat for several): a
    /// request from it has its client's address taken from
    /// `X-Forwarded-For` (the rightmost address that is not a trusted
    /// proxy), for the limits per client.
    #[arg(long, value_name = "ADDRESS")]
    trust_proxy: Vec<std::net::IpAddr>,
    /// Connections open at once, in all.
    #[arg(long, default_value_t = 4096, value_name = "N")]
    max_connections: usize,
    /// Connections open at once from one address (0: no limit; behind a
    /// reverse proxy, whose connections all come from one address).
    #[arg(long, default_value_t = 64, value_name = "N")]
    max_connections_per_ip: usize,
    /// Seconds a client may take to send a request's headers or body (and
    /// stay idle between requests).
    #[arg(long, default_value_t = 20, value_name = "SECONDS", hide = true)]
    timeout: u64,
    /// Runs the server's own arenas: an hourly 3+2 and a weekly 5+3 on
    /// Sundays at 18:00 UTC, listed on the home page.
    #[arg(long)]
    schedule: bool,
    /// The engine ladder's house bots: the built-in levels the server's
    /// computer plays there (`Awale-Level-N` accounts), so that a bot
    /// joining is never alone (`--house-bots 2,5,8`); none unless asked
    /// (with several processes on one PostgreSQL store, give it to one).
    #[arg(long, default_value = "none", value_name = "LEVELS|none")]
    house_bots: String,
    /// The file of the key that tags guests' cookies (made when missing;
    /// default: `guest.key` beside the games file, or in the user's data
    /// directory with `--store`). Every process serving one PostgreSQL
    /// store needs the same key: give them one file.
    #[arg(long, value_name = "FILE")]
    guest_key: Option<PathBuf>,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            addr: "127.0.0.1:8080".to_string(),
            data: None,
            store: None,
            db: None,
            db_levels: None,
            public_url: None,
            allow_host: Vec::new(),
            trust_proxy: Vec::new(),
            max_connections: 4096,
            max_connections_per_ip: 64,
            timeout: 20,
            schedule: false,
            house_bots: "none".to_string(),
            guest_key: None,
        }
    }
}

/// Arguments of `awale backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// The copy to write (a new file).
    #[arg(value_name = "FILE")]
    dest: PathBuf,
    /// The game store, as for `awale serve`.
    #[arg(long, value_name = "PATH")]
    data: Option<PathBuf>,
}

/// Arguments of `awale store`.
#[derive(clap::Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    command: StoreCommand,
}

#[derive(clap::Subcommand)]
enum StoreCommand {
    /// Copy a games file into an empty PostgreSQL database, then check the
    /// copy (rows counted, every game replayed on both sides); all or
    /// nothing.
    Migrate {
        /// The games file (SQLite), as `--data` of `awale serve`.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The database: `postgres://USER@HOST/DATABASE`.
        #[arg(long, value_name = "URL")]
        to: String,
    },
}

/// The store a server runs on.
enum Opened {
    File(Store, PathBuf),
    Postgres(PgStore),
}

impl Opened {
    fn open(data: Option<PathBuf>, url: Option<&str>) -> anyhow::Result<Opened> {
        match url {
            Some(url) => Ok(Opened::Postgres(connect(postgres_url(
                url,
                "--store",
                "a games file is given with --data",
            )?)?)),
            None => {
                let path = new_store_path(data)?;
                let store =
                    Store::open(&path).with_context(|| format!("game store {}", path.display()))?;
                Ok(Opened::File(store, path))
            }
        }
    }

    /// Where the server's guest key is kept: beside the games file, or
    /// (PostgreSQL) in the user's data directory; every process serving
    /// one PostgreSQL store needs the same file (docs/DEPLOY.md).
    fn guest_key_path(&self) -> anyhow::Result<PathBuf> {
        Ok(match self {
            Opened::File(_, path) => path
                .parent()
                .map(|dir| dir.join(GUEST_KEY_FILE))
                .unwrap_or_else(|| PathBuf::from(GUEST_KEY_FILE)),
            Opened::Postgres(_) => default_data_dir()?.join(GUEST_KEY_FILE),
        })
    }

    fn shown(&self) -> String {
        match self {
            Opened::File(_, path) => path.display().to_string(),
            Opened::Postgres(db) => db.shown().to_string(),
        }
    }

    fn close(&self) {
        match self {
            Opened::File(store, _) => store.close(),
            Opened::Postgres(db) => db.close(),
        }
    }
}

/// `url` if it is a PostgreSQL address; else an error naming the `flag`
/// that gave it and, in `instead`, the flag for a games file.
fn postgres_url<'a>(url: &'a str, flag: &str, instead: &str) -> anyhow::Result<&'a str> {
    if !awale_store::is_postgres_url(url) {
        anyhow::bail!(
            "{flag} `{url}`: give a PostgreSQL address, postgres://USER@HOST/DATABASE ({instead})"
        );
    }
    Ok(url)
}

fn connect(url: &str) -> anyhow::Result<PgStore> {
    PgStore::connect(url).context("game store")
}

/// `awale store migrate`.
pub fn store(args: StoreArgs) -> anyhow::Result<ExitCode> {
    let StoreCommand::Migrate { from, to } = args.command;
    let to = postgres_url(&to, "--to", "the games file is given with --from")?;
    if !from.is_file() {
        anyhow::bail!("--from {}: no such games file", from.display());
    }
    let file = Store::open(&from).with_context(|| format!("game store {}", from.display()))?;
    let db = connect(to)?;
    let report = awale_store::copy_to_postgres(&file, &db)
        .with_context(|| format!("copy of {} into {}", from.display(), db.shown()))?;
    file.close();
    db.close();
    let mut out = std::io::stdout();
    for (table, rows) in &report.rows {
        let _ = writeln!(out, "{table}: {rows} rows");
    }
    let _ = writeln!(
        out,
        "{} copied to {}: {} games replayed on both sides, the same",
        from.display(),
        db.shown(),
        report.games_checked
    );
    Ok(ExitCode::SUCCESS)
}

/// The user's data directory for this program, by the platform's custom
/// (`~/.local/share/awale` on Linux), as the databases' default folder is.
fn default_data_dir() -> anyhow::Result<PathBuf> {
    dirs::data_dir()
        .map(|d| d.join("awale"))
        .context("no data directory (HOME is not set): give one with --data")
}

/// The games file `--data` names: the file itself, or `games.sqlite` in
/// the folder it names (the user's data directory without it).
fn games_file(data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(match data {
        Some(p) if p.is_dir() => p.join("games.sqlite"),
        Some(p) => p,
        None => default_data_dir()?.join("games.sqlite"),
    })
}

/// The games file `awale serve` keeps, its folder made if missing: the
/// server alone starts a new games file.
fn new_store_path(data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let path = games_file(data)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(path)
}

/// The games file of the commands that act on a server's games (`backup`,
/// `admin`), which must exist: a typo in `--data` would otherwise open a
/// new, empty file and act on it as if it were the server's.
pub(crate) fn existing_store_path(data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let given = data.is_some();
    let path = games_file(data)?;
    if !path.is_file() {
        if given {
            anyhow::bail!("--data {}: no such games file", path.display());
        }
        anyhow::bail!(
            "{}: no such games file (`awale serve` makes it; another one is given with --data)",
            path.display()
        );
    }
    Ok(path)
}

/// The database of the `awale` rules in `dir` (or the default folder), for
/// the study pages' puzzles; None when none is built (or, with a warning,
/// when a file is damaged).
fn puzzle_database(dir: Option<&std::path::Path>) -> Option<std::sync::Arc<awale_db::Database>> {
    let root = dir.map(PathBuf::from).or_else(awale_db::default_dir)?;
    match awale_db::Database::open(&root, &awale_core::Rules::AWALE) {
        Ok(db) => {
            tracing::info!(
                max_seeds = db.max_seeds(),
                "puzzles from the endgame database"
            );
            Some(std::sync::Arc::new(db))
        }
        Err(awale_db::DbError::Missing(_)) => {
            tracing::info!("no puzzles: no endgame database for the awale rules");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "no puzzles: the endgame database is not used");
            None
        }
    }
}

/// What an address serves to, said at start.
fn exposure(addr: &SocketAddr) -> Option<String> {
    let ip = addr.ip();
    if ip.is_loopback() {
        return None;
    }
    let whom = if ip.is_unspecified() {
        "every network this machine is on"
    } else {
        "the network of this address"
    };
    Some(format!(
        "serving to {whom}: anyone who reaches {addr} can see the lobby, watch online games, \
         play and chat (games against the computer stay their maker's). Put it behind a \
         reverse proxy with TLS to serve strangers (docs/DEPLOY.md)"
    ))
}

/// What the server does with endgame databases: none (`--db none`), or
/// those of a folder (`--db`, or the default), perhaps building the
/// levels it lacks up to a target.
struct Databases {
    /// The folder named (None: the default one).
    dir: Option<PathBuf>,
    /// Build up to this many seeds in the background.
    build: Option<u8>,
}

impl Databases {
    /// From `--db` and `--db-levels`; None for `--db none`.
    fn of(args: &Args) -> anyhow::Result<Option<Databases>> {
        if args.db.as_deref() == Some(std::path::Path::new("none")) {
            if args.db_levels.is_some() {
                anyhow::bail!("--db-levels builds databases, and --db none asks for none");
            }
            return Ok(None);
        }
        let build = match (&args.db, args.db_levels) {
            (_, Some(n)) => Some(n),
            (None, None) => Some(awale_service::databases::DEFAULT_TARGET),
            // A folder of the owner's is theirs to fill.
            (Some(_), None) => None,
        };
        Ok(Some(Databases {
            dir: args.db.clone(),
            build,
        }))
    }
}

/// The file of the key that tags guests' secrets (see `guest_key`).
pub const GUEST_KEY_FILE: &str = "guest.key";

/// The server's guest key, read from `path` (64 hex digits), or made and
/// written there (readable by its owner only) when the file is missing:
/// guests' cookies outlive a restart only with the same key.
pub fn guest_key(path: &std::path::Path) -> anyhow::Result<awale_model::secret::GuestKey> {
    use awale_model::secret::GuestKey;
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let text = text.trim();
            let mut bytes = [0u8; 32];
            let ok = text.len() == 64
                && text.is_ascii()
                && bytes.iter_mut().enumerate().all(|(i, b)| {
                    u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
                        .map(|v| *b = v)
                        .is_ok()
                });
            if !ok {
                anyhow::bail!(
                    "{}: not a guest key (64 hex digits); remove it to make a new one                      (every guest's cookie then ends)",
                    path.display()
                );
            }
            Ok(GuestKey::from_bytes(bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = GuestKey::new().map_err(|e| anyhow::anyhow!("no random bytes: {e}"))?;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot make {}", dir.display()))?;
            }
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options
                .open(path)
                .with_context(|| format!("cannot write the guest key {}", path.display()))?;
            let text = awale_model::secret::hex(&key.bytes());
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("cannot write the guest key {}", path.display()))?;
            Ok(key)
        }
        Err(e) => Err(e).with_context(|| format!("cannot read the guest key {}", path.display())),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let databases = Databases::of(&args)?;
    // A folder named but missing is a mistake (a typo, an unmounted disk):
    // said at once rather than serving silently with no databases.
    if let Some(db) = databases.as_ref().and_then(|d| d.dir.as_ref()) {
        if !db.is_dir() {
            anyhow::bail!(
                "--db {}: the folder does not exist (build the databases into it with \
                 `awale db build --db {}`, or leave --db out)",
                db.display(),
                db.display()
            );
        }
    }
    if let Some(url) = &args.public_url {
        awale_web::parse_public_url(url).map_err(|why| anyhow::anyhow!("--public-url: {why}"))?;
    }
    let opened = Opened::open(args.data, args.store.as_deref())?;
    let guest_key = guest_key(&match &args.guest_key {
        Some(path) => path.clone(),
        None => opened.guest_key_path()?,
    })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let db = args.db.clone();
    let public_url = args.public_url;
    let timeout = std::time::Duration::from_secs(args.timeout.max(1));
    let config = Config {
        public_url,
        guest_key: Some(guest_key),
        body_timeout: timeout,
        // Searches (the computer's moves, hints, analyses) on all cores but
        // one: nice as analyses are, on a core they hold a move waits for
        // the scheduler (docs/BENCHMARKS.md, "The stranger against a real
        // server": two searches on two cores under a flood of abandoned
        // searches, the honest p99 2.1x-2.5x; one, 0.98x-1.11x); at most
        // the default's, which bounds the engines' memory.
        max_searches: spare_cores().min(Config::default().max_searches),
        policy: Policy {
            allowed_hosts: args
                .allow_host
                .iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .collect(),
            trust_proxy: args.trust_proxy.clone(),
            ..Policy::default()
        },
        ..Config::default()
    };
    let limits = Limits {
        max_connections: args.max_connections,
        max_per_client: args.max_connections_per_ip,
        header_timeout: timeout,
        ..Limits::default()
    };
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr().context("no local address")?;
        // Whoever started us may stop reading: never fail on that.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "Awalé: http://{addr}/");
        let _ = writeln!(out, "(games stored in {})", opened.shown());
        let _ = out.flush();
        tracing::info!(%addr, store = %opened.shown(), "serving");
        if let Some(warning) = exposure(&addr) {
            tracing::warn!("{warning}");
        }
        // Endgame databases built with `awale db build`, found per rule
        // variant when a game needs one: the Perfect level, hints and
        // reviews use them.
        let oracles: Option<awale_service::computer::OracleSource> = databases.as_ref().map(|_| {
            Box::new(move |rules: &awale_core::Rules| {
                match awale_db::oracle_for(rules, db.as_deref()) {
                    Ok(oracle) => oracle,
                    Err(e) => {
                        // A damaged file is never used; the game goes on without.
                        tracing::warn!("endgame database not used: {e}");
                        None
                    }
                }
            }) as awale_service::computer::OracleSource
        });
        let state = match &opened {
            Opened::File(store, _) => AppState::with_oracle(store.clone(), config, oracles),
            Opened::Postgres(db) => AppState::with_oracle(db.clone(), config, oracles),
        }
        .context("cannot start the server")?;
        if let Some(databases) = &databases {
            // Puzzles come from the exact database of the awale rules.
            state.set_puzzle_database(puzzle_database(databases.dir.as_deref()));
            let root = databases.dir.clone().or_else(awale_db::default_dir);
            match (databases.build, root) {
                (Some(target), Some(root)) => {
                    // One core is left to the players: the build's threads
                    // are the nicest there are, but on a busy core a move
                    // still waits for the scheduler (docs/BENCHMARKS.md,
                    // "Moves during the first start's database build").
                    state
                        .build_databases(root, target, spare_cores())
                        .context("cannot start building the endgame databases")?;
                }
                (Some(_), None) => tracing::warn!(
                    "no data folder known for this user: no endgame databases built (give --db)"
                ),
                (None, _) => {}
            }
        } else {
            tracing::info!("no endgame databases (--db none)");
        }
        if args.schedule {
            state
                .tournaments()
                .keep_schedule(awale_service::tournaments::SCHEDULE.to_vec());
        }
        let house = house_levels(&args.house_bots)?;
        if !house.is_empty() {
            let names = state
                .ladder()
                .enter_house_bots(&house)
                .await
                .context("cannot enter the house bots on the engine ladder")?;
            tracing::info!(bots = ?names, "house bots on the engine ladder");
        }
        awale_web::server::serve(listener, state, limits, awale_web::server::signal()).await;
        anyhow::Ok(())
    })?;
    // Everything acknowledged is in the file now; the copy alone is whole.
    opened.close();
    tracing::info!("stopped; the game store is complete");
    Ok(ExitCode::SUCCESS)
}

/// The levels of `--house-bots` (`2,5,8`, or `none`).
fn house_levels(text: &str) -> anyhow::Result<Vec<u8>> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|l| {
            l.trim()
                .parse::<u8>()
                .ok()
                .filter(|&n| awale_service::computer::is_level(n))
                .ok_or_else(|| {
                    anyhow::anyhow!("--house-bots: `{l}` is no level (1 to 18), or give `none`")
                })
        })
        .collect()
}

/// `awale backup FILE`.
pub fn backup(args: BackupArgs) -> anyhow::Result<ExitCode> {
    let path = existing_store_path(args.data)?;
    let store = Store::open(&path).with_context(|| format!("game store {}", path.display()))?;
    store
        .backup_blocking(&args.dest)
        .with_context(|| format!("backup of {}", path.display()))?;
    store.close();
    outln!("{} copied to {}", path.display(), args.dest.display());
    Ok(ExitCode::SUCCESS)
}

/// The cores the server's own background work may take: all but one (at
/// least one), so that a player's move always finds a core free.
fn spare_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}
