//! `awale play`: a game in the terminal, two people or against the computer,
//! with the board redrawn after every move. Messages in French or English.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Move, Position, Side};
use awale_engine::{
    choose_move, greedy_move, Engine, EngineOptions, Lang as EngineLang, Level, Limits,
};

use crate::board_text;
use crate::rules_args::RulesArgs;

/// Arguments of `awale play`.
#[derive(clap::Args)]
pub struct Args {
    /// Who plays against you: `computer` or `human` (two people, one keyboard).
    #[arg(long, default_value = "computer", value_name = "computer|human")]
    opponent: String,
    /// How the computer chooses: `engine` (searches, at `--level`), `random`
    /// or `greedy` (takes the biggest capture).
    #[arg(long, default_value = "engine", value_name = "engine|random|greedy")]
    computer: String,
    /// The engine's strength: 1 (Graine/Seed, a child's first day) to 10
    /// (Parfait/Perfect), or the level's name (default: the engine's
    /// default level, as on the page).
    #[arg(long, value_name = "1-10|NAME")]
    level: Option<String>,
    /// Your side against the computer: `south` or `north`.
    #[arg(long, default_value = "south", value_name = "south|north")]
    side: String,
    /// Start from this diagram.
    #[arg(long, value_name = "DIAGRAM")]
    position: Option<String>,
    /// Language: `fr` or `en` (default: from LANG, French if it starts with fr).
    #[arg(long, value_name = "fr|en")]
    lang: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Fr,
    En,
}

/// One message in both languages.
fn t(lang: Lang, fr: &'static str, en: &'static str) -> &'static str {
    match lang {
        Lang::Fr => fr,
        Lang::En => en,
    }
}

fn side_name(lang: Lang, side: Side) -> &'static str {
    match side {
        Side::South => t(lang, "Sud", "South"),
        Side::North => t(lang, "Nord", "North"),
    }
}

#[derive(Clone, Copy)]
enum Computer {
    Engine(Level),
    Random,
    Greedy,
}

impl Computer {
    fn choose(self, game: &Game, seed: &mut u64, engine: &mut Engine) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        // xorshift: enough to vary the computer's choices between games.
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let pick = (*seed % moves.len() as u64) as usize;
        match self {
            Computer::Engine(level) => {
                choose_move(engine, game, level, *seed, &AtomicBool::new(false))
            }
            Computer::Random => Some(moves[pick]),
            Computer::Greedy => greedy_move(game, *seed),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let lang = match args.lang.as_deref() {
        Some("fr") => Lang::Fr,
        Some("en") => Lang::En,
        Some(other) => anyhow::bail!("--lang: unknown language `{other}` (expected fr or en)"),
        None => {
            let env = std::env::var("LANG").unwrap_or_default();
            if env.starts_with("fr") {
                Lang::Fr
            } else {
                Lang::En
            }
        }
    };
    let human_side = match args.side.as_str() {
        "south" | "sud" | "S" => Side::South,
        "north" | "nord" | "N" => Side::North,
        other => anyhow::bail!("--side: unknown side `{other}` (expected south or north)"),
    };
    let computer = match (args.opponent.as_str(), args.computer.as_str()) {
        ("human", _) => None,
        ("computer", "engine") => Some(Computer::Engine(match &args.level {
            Some(level) => level
                .parse::<Level>()
                .map_err(|e| anyhow::anyhow!("--level: {e}"))?,
            None => Level::DEFAULT,
        })),
        ("computer", "random") => Some(Computer::Random),
        ("computer", "greedy") => Some(Computer::Greedy),
        ("computer", other) => {
            anyhow::bail!(
                "--computer: unknown player `{other}` (expected engine, random or greedy)"
            )
        }
        (other, _) => {
            anyhow::bail!("--opponent: unknown opponent `{other}` (expected computer or human)")
        }
    };
    let mut game = match &args.position {
        Some(d) => Game::from_position(rules, d.parse::<Position>().context("--position")?),
        None => Game::new(rules),
    };
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x2545_F491_4F6C_DD1D, |d| d.as_nanos() as u64)
        | 1;
    let mut engine = Engine::new(EngineOptions::default());
    // The Perfect level uses the endgame database of `awale db build`, when
    // there is one for these rules (its moves at the root, its values in the
    // search).
    if let Some(Computer::Engine(Level::Perfect)) = computer {
        engine.set_oracle(crate::db::perfect_oracle(&rules));
    }
    if let Some(Computer::Engine(level)) = computer {
        let name = level.name(match lang {
            Lang::Fr => EngineLang::Fr,
            Lang::En => EngineLang::En,
        });
        println!(
            "{} {} ({name}).",
            t(lang, "Niveau de l'ordinateur :", "Computer level:"),
            level.number()
        );
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut last: Option<usize> = None;
    println!(
        "{}",
        t(
            lang,
            "Awalé : tapez la lettre d'un trou (A-F pour Sud, a-f pour Nord), ou « aide ».",
            "Awalé: type a hole's letter (A-F for South, a-f for North), or \"help\"."
        )
    );
    loop {
        let position = game.position();
        print!("\n{}", board_text::draw(&position, rules.direction, last));
        if let Some(outcome) = game.outcome() {
            let reason = match outcome.reason.name() {
                "starvation" => t(lang, "un joueur ne peut plus jouer", "a player cannot move"),
                "repetition" => t(
                    lang,
                    "la même situation s'est reproduite",
                    "the position repeated",
                ),
                "target" => t(lang, "l'objectif est atteint", "the target was reached"),
                "resignation" => t(lang, "abandon", "resignation"),
                _ => t(
                    lang,
                    "plus de graines sur le plateau",
                    "no seeds left on the board",
                ),
            };
            let [s, n] = outcome.stores;
            match outcome.winner {
                Some(side) => println!(
                    "{} ({reason}){} {} {} {s}-{n}.",
                    t(lang, "Fin de la partie", "Game over"),
                    t(lang, " :", ":"),
                    side_name(lang, side),
                    t(lang, "gagne", "wins"),
                ),
                None => println!(
                    "{} ({reason}){} {} {s}-{n}.",
                    t(lang, "Fin de la partie", "Game over"),
                    t(lang, " :", ":"),
                    t(lang, "égalité", "draw")
                ),
            }
            return Ok(ExitCode::SUCCESS);
        }
        let to_move = position.to_move();
        if let Some(c) = computer.filter(|_| to_move != human_side) {
            let m = c
                .choose(&game, &mut seed, &mut engine)
                .context("no legal move")?;
            let captured = game.play(m)?;
            last = Some(m.hole());
            print!("{} {m}", t(lang, "L'ordinateur joue", "The computer plays"));
            if captured > 0 {
                print!(" {} {captured}", t(lang, "et prend", "and captures"));
            }
            println!(".");
            continue;
        }
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        print!("{} ({}) > ", side_name(lang, to_move), legal.join(" "));
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            println!();
            return Ok(ExitCode::SUCCESS);
        };
        let line = line?;
        let input = line.trim();
        match input.to_lowercase().as_str() {
            "" => continue,
            "quit" | "quitter" | "q" => return Ok(ExitCode::SUCCESS),
            "help" | "aide" | "?" => {
                println!(
                    "{}",
                    t(
                        lang,
                        "Commandes : une lettre de trou, annuler, refaire, indice, abandon, coups, quitter.",
                        "Commands: a hole letter, undo, redo, hint, resign, moves, quit."
                    )
                );
                continue;
            }
            "undo" | "annuler" => {
                // Against the computer, take back its answer and your move.
                let mut undone = game.undo().is_some();
                if computer.is_some() && game.position().to_move() != human_side {
                    undone |= game.undo().is_some();
                }
                if !undone {
                    println!("{}", t(lang, "Rien à annuler.", "Nothing to undo."));
                }
                last = None;
                continue;
            }
            "redo" | "refaire" => {
                if game.redo().is_none() {
                    println!("{}", t(lang, "Rien à refaire.", "Nothing to redo."));
                } else if computer.is_some() && game.position().to_move() != human_side {
                    game.redo();
                }
                last = None;
                continue;
            }
            "hint" | "indice" => {
                // Half a second of search: a good move, quickly.
                let limits = Limits::movetime(Duration::from_millis(500));
                let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
                if let Some(m) = result.best {
                    println!("{} {m} ({})", t(lang, "Essayez", "Try"), result.score);
                }
                continue;
            }
            "resign" | "abandon" => {
                game.resign(to_move)?;
                continue;
            }
            "moves" | "coups" => {
                let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
                println!("{}", moves.join(" "));
                continue;
            }
            _ => {}
        }
        let m = match input.parse::<Move>() {
            Ok(m) => m,
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        match game.play(m) {
            Ok(captured) => {
                last = Some(m.hole());
                if captured > 0 {
                    println!("{} {captured}.", t(lang, "Vous prenez", "You capture"));
                }
            }
            Err(e) => println!("{e}"),
        }
    }
}
