//! `awale play`: a game in the terminal, two people or against the computer,
//! with the board redrawn after every move. Everything a player reads is in
//! French or English, with the page's words for the commands.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{EndReason, Game, GameError, Move, MoveError, Outcome, Position, Side};
use awale_engine::{choose_move, greedy_move, Engine, EngineOptions, Lang, Level, Limits};
use rand::seq::IndexedRandom;
use rand::RngExt;

use crate::board_text;
use crate::rules_args::RulesArgs;

/// Who plays against the person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// The computer.
    Computer,
    /// Another person, at the same keyboard.
    Human,
}

/// How the computer chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ComputerKind {
    /// Searches, at `--level`.
    Engine,
    /// Any legal move.
    Random,
    /// Takes the biggest capture now.
    Greedy,
}

/// Arguments of `awale play`.
#[derive(clap::Args)]
pub struct Args {
    /// Who plays against you: the computer, or a human (two people, one
    /// keyboard).
    #[arg(long, value_enum, default_value_t = Opponent::Computer)]
    opponent: Opponent,
    /// How the computer chooses: engine (searches, at `--level`), random
    /// or greedy (takes the biggest capture).
    #[arg(long, value_enum, default_value_t = ComputerKind::Engine)]
    computer: ComputerKind,
    /// The engine's strength: 1 (Graine/Seed, a child's first day) to 10
    /// (Parfait/Perfect), or the level's name (default: the engine's
    /// default level, as on the page).
    #[arg(long, value_name = "1-10|NAME")]
    level: Option<Level>,
    /// Your side against the computer: south or north (sud, nord).
    #[arg(long, default_value = "south", value_name = "south|north")]
    side: Side,
    /// Start from this diagram.
    #[arg(long, value_name = "DIAGRAM")]
    position: Option<Position>,
    /// Language: fr or en (default: from LANG, French if it starts with fr).
    #[arg(long, value_name = "fr|en", value_parser = parse_lang)]
    lang: Option<Lang>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// `fr` or `en` (also `français`, `english`).
fn parse_lang(text: &str) -> Result<Lang, String> {
    match text.trim().to_lowercase().as_str() {
        "fr" | "français" | "francais" | "french" => Ok(Lang::Fr),
        "en" | "english" | "anglais" => Ok(Lang::En),
        _ => Err(format!("unknown language `{text}` (expected fr or en)")),
    }
}

/// The language of the environment: French when `LANG` starts with `fr`.
fn lang_from_env() -> Lang {
    let env = std::env::var("LANG").unwrap_or_default();
    if env.starts_with("fr") {
        Lang::Fr
    } else {
        Lang::En
    }
}

/// One message in both languages.
fn t(lang: Lang, fr: &'static str, en: &'static str) -> &'static str {
    match lang {
        Lang::Fr => fr,
        Lang::En => en,
    }
}

/// French puts a no-break space before `:` `;` `!` `?`, English nothing.
fn colon(lang: Lang) -> &'static str {
    t(lang, "\u{a0}:", ":")
}

fn side_name(lang: Lang, side: Side) -> &'static str {
    match side {
        Side::South => t(lang, "Sud", "South"),
        Side::North => t(lang, "Nord", "North"),
    }
}

fn end_reason_text(lang: Lang, reason: EndReason) -> &'static str {
    match reason {
        EndReason::Starvation => t(lang, "un joueur ne peut plus jouer", "a player cannot move"),
        EndReason::Repetition => t(
            lang,
            "la même situation s'est reproduite",
            "the position repeated",
        ),
        EndReason::Target => t(lang, "l'objectif est atteint", "the target was reached"),
        EndReason::Resignation => t(lang, "abandon", "resignation"),
        EndReason::EmptyBoard => t(
            lang,
            "plus de graines sur le plateau",
            "no seeds left on the board",
        ),
    }
}

/// `Fin de la partie (abandon) : Nord gagne 0-48.`
fn outcome_text(lang: Lang, outcome: &Outcome) -> String {
    let reason = end_reason_text(lang, outcome.reason);
    let [s, n] = outcome.stores;
    let result = match outcome.winner {
        Some(side) => format!("{} {}", side_name(lang, side), t(lang, "gagne", "wins")),
        None => t(lang, "égalité", "draw").to_string(),
    };
    format!(
        "{} ({reason}){} {result} {s}-{n}.",
        t(lang, "Fin de la partie", "Game over"),
        colon(lang)
    )
}

/// Why a move was refused, in the player's language.
fn refusal_text(lang: Lang, error: &GameError) -> String {
    let illegal = |m: &Move, why_fr: &str, why_en: &str| match lang {
        Lang::Fr => format!("Coup {m} interdit\u{a0}: {why_fr}."),
        Lang::En => format!("Illegal move {m}: {why_en}."),
    };
    match error {
        GameError::Over(_) | GameError::Illegal(MoveError::GameOver) => {
            t(lang, "La partie est finie.", "The game is over.").to_string()
        }
        GameError::Illegal(MoveError::NotYourHole(m)) => {
            let owner = side_name(lang, m.side());
            illegal(
                m,
                &format!("ce trou est à {owner}"),
                &format!("that hole belongs to {owner}"),
            )
        }
        GameError::Illegal(MoveError::EmptyHole(m)) => {
            illegal(m, "le trou est vide", "the hole is empty")
        }
        GameError::Illegal(MoveError::DoesNotFeed(m)) => illegal(
            m,
            "l'adversaire n'a plus de graines et ce coup ne le nourrit pas",
            "the opponent has no seeds and this move does not feed them",
        ),
        GameError::Illegal(MoveError::GrandSlam(m)) => illegal(
            m,
            "il prendrait toutes les graines de l'adversaire (grand chelem)",
            "it would capture all the opponent's seeds (grand slam)",
        ),
    }
}

/// What a line typed at the prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Nothing,
    Quit,
    Help,
    Undo,
    Redo,
    Hint,
    Resign,
    Moves,
    Play(Move),
    Unknown,
}

/// Reads a line: a hole letter, or a command in either language. The
/// French words are the page's (Annuler, Rétablir, Conseil, Abandonner);
/// the older terminal words still work.
fn read_command(line: &str) -> Command {
    let word = line.trim();
    if let Ok(m) = word.parse::<Move>() {
        return Command::Play(m);
    }
    match word.to_lowercase().as_str() {
        "" => Command::Nothing,
        "quit" | "quitter" | "q" => Command::Quit,
        "help" | "aide" | "?" => Command::Help,
        "undo" | "annuler" => Command::Undo,
        "redo" | "rétablir" | "retablir" | "refaire" => Command::Redo,
        "hint" | "conseil" | "indice" => Command::Hint,
        "resign" | "abandonner" | "abandon" => Command::Resign,
        "moves" | "coups" => Command::Moves,
        _ => Command::Unknown,
    }
}

/// How the computer chooses its moves, once the flags are read.
#[derive(Clone, Copy)]
enum Computer {
    Engine(Level),
    Random,
    Greedy,
}

impl Computer {
    fn choose(self, game: &Game, engine: &mut Engine) -> Option<Move> {
        let moves = game.legal_moves();
        let mut rng = rand::rng();
        match self {
            Computer::Engine(level) => {
                choose_move(engine, game, level, rng.random(), &AtomicBool::new(false))
            }
            Computer::Random => moves.choose(&mut rng).copied(),
            Computer::Greedy => greedy_move(game, rng.random()),
        }
    }
}

/// A game in the terminal: who plays, in which language, and the board.
struct Session {
    lang: Lang,
    game: Game,
    /// The computer and the person's side, against the computer.
    computer: Option<(Computer, Side)>,
    engine: Engine,
    /// The hole just sown, marked on the board.
    last: Option<usize>,
}

impl Session {
    fn new(args: Args) -> anyhow::Result<Session> {
        let rules = args.rules.rules()?;
        let lang = args.lang.unwrap_or_else(lang_from_env);
        let computer = match (args.opponent, args.computer) {
            (Opponent::Human, _) => None,
            (Opponent::Computer, ComputerKind::Engine) => {
                Some(Computer::Engine(args.level.unwrap_or(Level::DEFAULT)))
            }
            (Opponent::Computer, ComputerKind::Random) => Some(Computer::Random),
            (Opponent::Computer, ComputerKind::Greedy) => Some(Computer::Greedy),
        };
        let game = match args.position {
            Some(p) => Game::from_position(rules, p),
            None => Game::new(rules),
        };
        let mut engine = Engine::new(EngineOptions::default());
        // The Perfect level uses the endgame database of `awale db build`,
        // when there is one for these rules (its moves at the root, its
        // values in the search).
        if let Some(Computer::Engine(Level::Perfect)) = computer {
            engine.set_oracle(crate::db::perfect_oracle(&rules));
        }
        Ok(Session {
            lang,
            game,
            computer: computer.map(|c| (c, args.side)),
            engine,
            last: None,
        })
    }

    fn say(&self, fr: &'static str, en: &'static str) {
        println!("{}", t(self.lang, fr, en));
    }

    fn greet(&self) {
        let lang = self.lang;
        if let Some((Computer::Engine(level), _)) = self.computer {
            println!(
                "{}{} {} ({}).",
                t(lang, "Niveau de l'ordinateur", "Computer level"),
                colon(lang),
                level.number(),
                level.name(lang)
            );
        }
        self.say(
            "Awalé\u{a0}: tapez la lettre d'un trou (A-F pour Sud, a-f pour Nord), ou «\u{a0}aide\u{a0}».",
            "Awalé: type a hole's letter (A-F for South, a-f for North), or \"help\".",
        );
    }

    /// Whether the computer is to move now.
    fn computer_to_move(&self) -> Option<Computer> {
        let (computer, human) = self.computer?;
        (self.game.position().to_move() != human).then_some(computer)
    }

    fn computer_turn(&mut self, computer: Computer) -> anyhow::Result<()> {
        let m = computer
            .choose(&self.game, &mut self.engine)
            .ok_or_else(|| anyhow::anyhow!("no legal move"))?;
        let captured = self.game.play(m)?;
        self.last = Some(m.hole());
        print!(
            "{} {m}",
            t(self.lang, "L'ordinateur joue", "The computer plays")
        );
        if captured > 0 {
            print!(" {} {captured}", t(self.lang, "et prend", "and captures"));
        }
        println!(".");
        Ok(())
    }

    /// Carries out one command of the person to move; `false` to stop.
    fn command(&mut self, command: Command) -> anyhow::Result<bool> {
        let lang = self.lang;
        match command {
            Command::Nothing => {}
            Command::Quit => return Ok(false),
            Command::Help => self.say(
                "Commandes\u{a0}: une lettre de trou, annuler, rétablir, conseil, abandonner, coups, quitter.",
                "Commands: a hole letter, undo, redo, hint, resign, moves, quit.",
            ),
            Command::Undo => {
                // Against the computer, take back its answer and your move.
                let mut undone = self.game.undo().is_some();
                if self.computer_to_move().is_some() {
                    undone |= self.game.undo().is_some();
                }
                if !undone {
                    self.say("Rien à annuler.", "Nothing to undo.");
                }
                self.last = None;
            }
            Command::Redo => {
                if self.game.redo().is_none() {
                    self.say("Rien à rétablir.", "Nothing to redo.");
                } else if self.computer_to_move().is_some() {
                    self.game.redo();
                }
                self.last = None;
            }
            Command::Hint => {
                // Half a second of search: a good move, quickly.
                let limits = Limits::movetime(Duration::from_millis(500));
                let stop = AtomicBool::new(false);
                let result = self.engine.search(&self.game, &limits, &stop, &mut |_| {});
                if let Some(m) = result.best {
                    println!("{} {m} ({})", t(lang, "Essayez", "Try"), result.score);
                }
            }
            Command::Resign => {
                let side = self.game.position().to_move();
                self.game.resign(side)?;
            }
            Command::Moves => {
                let moves: Vec<String> = self.game.moves().map(|m| m.to_string()).collect();
                println!("{}", moves.join(" "));
            }
            Command::Play(m) => match self.game.play(m) {
                Ok(captured) => {
                    self.last = Some(m.hole());
                    if captured > 0 {
                        println!("{} {captured}.", t(lang, "Vous prenez", "You capture"));
                    }
                }
                Err(e) => println!("{}", refusal_text(lang, &e)),
            },
            Command::Unknown => self.say(
                "Ce n'est pas un coup\u{a0}: tapez une lettre de A à F ou de a à f, ou «\u{a0}aide\u{a0}».",
                "That is not a move: type a letter from A to F or a to f, or \"help\".",
            ),
        }
        Ok(true)
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut session = Session::new(args)?;
    session.greet();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let position = session.game.position();
        let direction = session.game.rules().direction;
        print!(
            "\n{}",
            board_text::draw(&position, direction, session.last, session.lang)
        );
        if let Some(outcome) = session.game.outcome() {
            println!("{}", outcome_text(session.lang, &outcome));
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(computer) = session.computer_to_move() {
            session.computer_turn(computer)?;
            continue;
        }
        let legal: Vec<String> = session
            .game
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        print!(
            "{} ({}) > ",
            side_name(session.lang, position.to_move()),
            legal.join(" ")
        );
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            println!();
            return Ok(ExitCode::SUCCESS);
        };
        if !session.command(read_command(&line?))? {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_words_and_the_old_ones_are_commands() {
        assert_eq!(read_command("Rétablir"), Command::Redo);
        assert_eq!(read_command("retablir"), Command::Redo);
        assert_eq!(read_command("refaire"), Command::Redo);
        assert_eq!(read_command("Conseil"), Command::Hint);
        assert_eq!(read_command("Abandonner"), Command::Resign);
        assert_eq!(
            read_command(" F "),
            Command::Play(Move::from_letter('F').unwrap())
        );
        assert_eq!(read_command("zz"), Command::Unknown);
    }

    #[test]
    fn french_messages_put_a_no_break_space_before_colons() {
        let error = GameError::Illegal(MoveError::EmptyHole(Move::from_letter('a').unwrap()));
        let text = refusal_text(Lang::Fr, &error);
        assert!(text.contains("interdit\u{a0}: le trou est vide"), "{text}");
        let text = refusal_text(Lang::En, &error);
        assert_eq!(text, "Illegal move a: the hole is empty.");
        let error = GameError::Illegal(MoveError::NotYourHole(Move::from_letter('a').unwrap()));
        assert!(refusal_text(Lang::Fr, &error).contains("ce trou est à Nord"));
    }
}
