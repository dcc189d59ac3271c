//! `awale analyze`: the score and best line of every legal move of a
//! position, from a deep search of each, and in words why each is good
//! (`awale_engine::explain`).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{bail, Context};
use awale_core::{parse_moves, Game, Position};
use awale_engine::{explain, Engine, EngineOptions, Limits};

use crate::words::{reason_text, search_score_text, Lang};

use crate::rules_args::RulesArgs;

/// Arguments of `awale analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The position, as a diagram such as 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S
    /// (default: the start position).
    #[arg(value_name = "DIAGRAM")]
    diagram: Option<String>,
    /// Moves played from the position first, e.g. `FfAa`.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    /// Thinking time for all the moves together, in milliseconds (default
    /// 2000 when no depth is given).
    #[arg(long, value_name = "MS", conflicts_with = "depth")]
    time: Option<u64>,
    /// Search each move to this depth (plies from the position).
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    hash: usize,
    /// Endgame databases folder (default: where `awale db build` writes),
    /// or `none` to search without them.
    #[arg(long, value_name = "DIR|none")]
    db: Option<String>,
    /// Language of the scores and explanations: `fr` or `en` (default:
    /// from LANG, French if it starts with fr).
    #[arg(long, value_name = "fr|en")]
    lang: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Prints one line per legal move, best first.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let lang = match args.lang.as_deref() {
        Some("fr") => Lang::Fr,
        Some("en") => Lang::En,
        Some(other) => bail!("--lang: unknown language `{other}` (expected fr or en)"),
        None if std::env::var("LANG").unwrap_or_default().starts_with("fr") => Lang::Fr,
        None => Lang::En,
    };
    let start = match &args.diagram {
        Some(d) => d.parse::<Position>().context("the diagram")?,
        None => Position::START,
    };
    let mut game = Game::from_position(rules, start);
    if let Some(text) = &args.moves {
        for (i, m) in parse_moves(text)
            .context("--moves")?
            .into_iter()
            .enumerate()
        {
            game.play(m)
                .with_context(|| format!("--moves: move {} ({m})", i + 1))?;
        }
    }
    if args.threads == 0 || args.hash == 0 {
        bail!("--threads and --hash must be at least 1");
    }
    let position = game.position();
    outln!("{position}  {} to move  ({rules})", position.to_move());
    if let Some(reason) = game.end() {
        outln!("the game is over ({reason}): no move to analyse");
        return Ok(ExitCode::SUCCESS);
    }
    let limits = match args.depth {
        Some(depth) => Limits::depth(depth),
        None => Limits::movetime(Duration::from_millis(args.time.unwrap_or(2000))),
    };
    let mut engine = Engine::try_new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
    })
    .context("--hash")?;
    if args.db.as_deref() != Some("none") {
        let dir = args.db.as_deref().map(std::path::Path::new);
        let oracle = awale_db::oracle_for(&rules, dir).context("the endgame databases")?;
        match (&oracle, dir) {
            (Some(o), _) => outln!("endgame databases: up to {} seeds", o.max_seeds()),
            (None, Some(dir)) => eprintln!(
                "awale: searching without endgame databases: {}",
                crate::db::none_in(dir, &rules)
            ),
            (None, None) => {}
        }
        engine.set_oracle(oracle);
    }
    let oracle = engine.oracle_for(&rules).is_some();
    let analyses = engine.analyze(&game, &limits, &AtomicBool::new(false));
    outln!("{:<5} {:<18} line", "move", "score");
    for a in analyses {
        let line: Vec<String> = a.pv.iter().map(|m| m.to_string()).collect();
        outln!(
            "{:<5} {:<18} {}",
            a.mv.to_string(),
            search_score_text(a.score, lang),
            line.join(" ")
        );
        let oracle = if oracle {
            engine.oracle_for(&rules)
        } else {
            None
        };
        for reason in explain(&game, a.mv, Some(a.score), oracle) {
            outln!("      - {}", reason_text(&reason, lang));
        }
    }
    Ok(ExitCode::SUCCESS)
}
