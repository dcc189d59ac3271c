//! `awale puzzles`: puzzles found in the exact endgame databases (crate
//! `awale-puzzles`): one move alone keeps the value. As text with the board,
//! or one JSON object per line.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use awale_db::{Database, DbError};
use awale_puzzles::{Goal, Puzzle, Theme};

use crate::board_text;
use crate::rules_args::RulesArgs;

/// Arguments of `awale puzzles`.
#[derive(clap::Args)]
pub struct Args {
    /// Database folder, as built by `awale db build` (default: `awale/db` in
    /// the user's data folder).
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
    /// How many puzzles.
    #[arg(long, value_name = "N", default_value_t = 10)]
    count: usize,
    /// The same seed gives the same puzzles (with the same database);
    /// default: a new draw each time.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Only puzzles of this difficulty, 1 (first puzzles) to 5.
    #[arg(long, value_name = "1-5")]
    difficulty: Option<u8>,
    /// Only puzzles of this theme: capture_chain, starvation, krou,
    /// quiet_move, save_draw or win_seeds.
    #[arg(long, value_name = "NAME")]
    theme: Option<String>,
    /// One JSON object per line: position, answer, theme, difficulty, goal,
    /// value, second, seeds, line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    if let Some(d) = args.difficulty.filter(|d| !(1..=5).contains(d)) {
        bail!("--difficulty {d}: from 1 to 5");
    }
    let theme = match args.theme.as_deref() {
        None => None,
        Some(name) => Some(Theme::from_name(name).with_context(|| {
            let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
            format!("--theme {name}: one of {}", names.join(", "))
        })?),
    };
    if !awale_db::Variant::of(&rules).is_exact() {
        bail!("{}", awale_puzzles::PuzzleError::NotExact);
    }
    let root = match &args.db {
        Some(d) => d.clone(),
        None => awale_db::default_dir().context("no data folder known for this user: give --db")?,
    };
    let db = match Database::open(&root, &rules) {
        Ok(db) => db,
        Err(DbError::Missing(_)) => {
            let dir = args
                .db
                .as_ref()
                .map_or(String::new(), |d| format!(" --db {}", d.display()));
            bail!(
                "no endgame database for these rules in {}: puzzles come from one. Build it \
                 first with `awale db build --max-seeds 16{dir}` (a minute or so; \
                 --max-seeds 20 for harder puzzles, a few minutes)",
                root.display()
            )
        }
        Err(e) => return Err(e.into()),
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let wanted = |p: &Puzzle| {
        args.difficulty.is_none_or(|d| p.difficulty == d) && theme.is_none_or(|t| p.theme == t)
    };
    let mut seen = HashSet::new();
    // The generator gives up only after many boards in a row without a
    // puzzle; a filter that almost never matches gives up too.
    let looked_at = args.count.saturating_mul(200).max(2_000);
    let puzzles = awale_puzzles::generator(&db, seed)?
        .take(looked_at)
        .filter(|p| wanted(p) && seen.insert(p.position))
        .take(args.count);
    let mut out = std::io::stdout().lock();
    let mut found = 0;
    for (i, puzzle) in puzzles.enumerate() {
        found += 1;
        let text = if args.json {
            serde_json::to_string(&puzzle)? + "\n"
        } else {
            puzzle_text(i + 1, &puzzle, &rules)
        };
        if out.write_all(text.as_bytes()).is_err() {
            // The reader went away (`| head`): not an error.
            return Ok(ExitCode::SUCCESS);
        }
    }
    if found < args.count {
        bail!(
            "found {found} puzzle(s) of the {} asked for: the database (up to {} seeds) has \
             too few of this kind",
            args.count,
            db.max_seeds()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn puzzle_text(number: usize, p: &Puzzle, rules: &awale_core::Rules) -> String {
    let side = match p.position.to_move() {
        awale_core::Side::South => "South",
        awale_core::Side::North => "North",
    };
    let goal = match p.goal {
        Goal::Win => "to play and win",
        Goal::Draw => "to play and save a draw",
    };
    let line: Vec<String> = p.line.iter().map(|m| m.to_string()).collect();
    format!(
        "Puzzle {number}: {side} {goal} ({}, difficulty {}/5)\n{}{}\nAnswer: {} (value {:+}, \
         every other move {:+} or less). Line: {}\n\n",
        p.theme.title(),
        p.difficulty,
        board_text::draw(&p.position, rules.direction, None, crate::words::Lang::En),
        p.position,
        p.answer,
        p.value,
        p.second,
        line.join(" ")
    )
}
