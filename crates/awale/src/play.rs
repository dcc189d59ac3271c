//! `awale play`: a game in the terminal, two people or against the computer,
//! with the board redrawn after every move. Messages in French or English.
//! Optionally without counting (seeds as dots, no number until the end) and
//! with a clock (`--fast`: a short one).

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;

use awale_core::{Game, Move, Position, Side};
use awale_engine::{choose_move, Engine, EngineOptions, Lang as EngineLang, Level, Limits};

use crate::board_text::{self, Seeds};
use crate::rules_args::RulesArgs;

/// The clock of fast play (`--fast`): minutes each, seconds added a move
/// (one of the web server's usual clocks).
const FAST_CLOCK: &str = "3+2";

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
    /// The engine's strength: 1 (Graine/Seed, a child's first game) to 7
    /// (Parfait/Perfect), or the level's name.
    #[arg(long, default_value = "4", value_name = "1-7|NAME")]
    level: String,
    /// Your side against the computer: `south` or `north`.
    #[arg(long, default_value = "south", value_name = "south|north")]
    side: String,
    /// Start from this diagram.
    #[arg(long, value_name = "DIAGRAM")]
    position: Option<String>,
    /// Language: `fr` or `en` (default: from LANG, French if it starts with fr).
    #[arg(long, value_name = "fr|en")]
    lang: Option<String>,
    /// Play without counting: the seeds are drawn as dots and no number is
    /// shown, on the board or in the messages, until the game is over.
    #[arg(long)]
    no_count: bool,
    /// Fast play: a short clock for each side (3 minutes and 2 seconds a
    /// move, unless --clock says otherwise).
    #[arg(long)]
    fast: bool,
    /// A clock for each side: minutes, then seconds added after each move,
    /// e.g. `5+3`. Whoever runs out of time loses; no taking back.
    #[arg(long, value_name = "MIN+SEC")]
    clock: Option<String>,
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
    fn choose(
        self,
        game: &Game,
        seed: &mut u64,
        engine: &mut Engine,
        stop: &AtomicBool,
    ) -> Option<Move> {
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
            Computer::Engine(level) => choose_move(engine, game, level, *seed, stop),
            Computer::Random => Some(moves[pick]),
            Computer::Greedy => {
                let position = game.position();
                let best = moves
                    .iter()
                    .map(|&m| position.captures(m))
                    .max()
                    .unwrap_or(0);
                let best_moves: Vec<Move> = moves
                    .into_iter()
                    .filter(|&m| position.captures(m) == best)
                    .collect();
                Some(best_moves[pick % best_moves.len()])
            }
        }
    }
}

/// Each side's time left and what a move adds.
struct Clock {
    left: [Duration; 2],
    increment: Duration,
}

impl Clock {
    /// A clock from `MIN+SEC`, e.g. `5+3` (or `5`: no increment).
    fn parse(text: &str) -> anyhow::Result<Clock> {
        let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = minutes.trim().parse().ok().filter(|m: &f64| *m > 0.0 && *m <= 600.0).with_context(|| {
            format!("--clock `{text}`: minutes from more than 0 to 600, then + seconds a move, e.g. 5+3")
        })?;
        let seconds: u64 = seconds
            .trim()
            .parse()
            .ok()
            .filter(|s| *s <= 600)
            .with_context(|| format!("--clock `{text}`: seconds a move from 0 to 600, e.g. 5+3"))?;
        let start = Duration::from_secs_f64(minutes * 60.0);
        Ok(Clock {
            left: [start; 2],
            increment: Duration::from_secs(seconds),
        })
    }

    /// Charges `side` for `used`; false when its time ran out.
    fn charge(&mut self, side: Side, used: Duration) -> bool {
        let left = &mut self.left[side.index()];
        if used > *left {
            *left = Duration::ZERO;
            return false;
        }
        *left = *left - used + self.increment;
        true
    }

    /// How long the computer may think on this move: a tenth of its time
    /// and half its increment, so that it never loses on time.
    fn thinking(&self, side: Side) -> Duration {
        self.left[side.index()] / 10 + self.increment / 2
    }

    fn text(&self, lang: Lang) -> String {
        let show = |d: Duration| {
            let s = d.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        };
        format!(
            "{} {} {} · {} {}",
            t(lang, "Pendule :", "Clock:"),
            side_name(lang, Side::South),
            show(self.left[0]),
            side_name(lang, Side::North),
            show(self.left[1])
        )
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let mut clock = match (&args.clock, args.fast) {
        (Some(text), _) => Some(Clock::parse(text)?),
        (None, true) => Some(Clock::parse(FAST_CLOCK)?),
        (None, false) => None,
    };
    let seeds = if args.no_count {
        Seeds::Uncounted
    } else {
        Seeds::Counted
    };
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
        ("computer", "engine") => Some(Computer::Engine(
            args.level
                .parse::<Level>()
                .map_err(|e| anyhow::anyhow!("--level: {e}"))?,
        )),
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
    if seeds == Seeds::Uncounted {
        println!(
            "{}",
            t(
                lang,
                "Sans compter : les graines sont des points, aucun nombre avant la fin. Estimez et jouez vite !",
                "Without counting: seeds are dots, no number until the end. Estimate and play fast!"
            )
        );
    }
    let mut turn_started = Instant::now();
    loop {
        let position = game.position();
        // The result screen shows the numbers, even without counting.
        let shown = if game.end().is_some() {
            Seeds::Counted
        } else {
            seeds
        };
        print!(
            "\n{}",
            board_text::draw_seeds(&position, rules.direction, last, shown)
        );
        if let Some(c) = clock.as_ref().filter(|_| game.end().is_none()) {
            println!("{}", c.text(lang));
        }
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
            let stop = AtomicBool::new(false);
            let limit = clock.as_ref().map(|c| c.thinking(to_move));
            let m = std::thread::scope(|s| {
                let (done, wait) = mpsc::channel::<()>();
                if let Some(limit) = limit {
                    let stop = &stop;
                    s.spawn(move || {
                        if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    });
                }
                let m = c.choose(&game, &mut seed, &mut engine, &stop);
                drop(done);
                m
            });
            let m = m
                .or_else(|| game.legal_moves().first().copied())
                .context("no legal move")?;
            if let Some(clock) = &mut clock {
                if !clock.charge(to_move, turn_started.elapsed()) {
                    return lost_on_time(&game, to_move, lang, rules.direction);
                }
            }
            let captured = game.play(m)?;
            turn_started = Instant::now();
            last = Some(m.hole());
            print!("{} {m}", t(lang, "L'ordinateur joue", "The computer plays"));
            if captured > 0 {
                match seeds {
                    Seeds::Counted => print!(" {} {captured}", t(lang, "et prend", "and captures")),
                    Seeds::Uncounted => {
                        print!(" {}", t(lang, "et prend des graines", "and captures seeds"))
                    }
                }
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
            "undo" | "annuler" | "redo" | "refaire" if clock.is_some() => {
                println!(
                    "{}",
                    t(
                        lang,
                        "Avec une pendule, on ne reprend pas les coups.",
                        "With a clock, moves cannot be taken back."
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
                match (result.best, seeds) {
                    (Some(m), Seeds::Counted) => {
                        println!("{} {m} ({})", t(lang, "Essayez", "Try"), result.score)
                    }
                    (Some(m), Seeds::Uncounted) => println!("{} {m}.", t(lang, "Essayez", "Try")),
                    (None, _) => {}
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
        if let Err(e) = game.position().check(m, &rules) {
            println!("{e}");
            continue;
        }
        if let Some(clock) = &mut clock {
            // The time since the turn began: thinking, asking for a hint
            // and mistyping included.
            if !clock.charge(to_move, turn_started.elapsed()) {
                return lost_on_time(&game, to_move, lang, rules.direction);
            }
        }
        match game.play(m) {
            Ok(captured) => {
                turn_started = Instant::now();
                last = Some(m.hole());
                if captured > 0 {
                    match seeds {
                        Seeds::Counted => {
                            println!("{} {captured}.", t(lang, "Vous prenez", "You capture"))
                        }
                        Seeds::Uncounted => {
                            println!(
                                "{}",
                                t(lang, "Vous prenez des graines !", "You capture seeds!")
                            )
                        }
                    }
                }
            }
            Err(e) => println!("{e}"),
        }
    }
}

/// The result screen when `side`'s time ran out: the board with its
/// numbers, and the other side wins.
fn lost_on_time(
    game: &Game,
    side: Side,
    lang: Lang,
    direction: awale_core::Direction,
) -> anyhow::Result<ExitCode> {
    let position = game.position();
    print!("\n{}", board_text::draw(&position, direction, None));
    let [s, n] = position.stores();
    println!(
        "{} ({}){} {} {} {s}-{n}.",
        t(lang, "Fin de la partie", "Game over"),
        t(lang, "temps écoulé", "out of time"),
        t(lang, " :", ":"),
        side_name(lang, side.opponent()),
        t(lang, "gagne", "wins"),
    );
    Ok(ExitCode::SUCCESS)
}
