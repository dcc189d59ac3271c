//! `awale play`: a game in the terminal, two people or against the computer,
//! with the board redrawn after every move. Everything a player reads is in
//! French or English, with the page's words for the commands. Optionally
//! without counting (seeds as dots, no number until the end) and on a
//! clock (`--fast`: a short one).

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use awale_core::{EndReason, Game, GameError, Move, MoveError, Outcome, Position, Side};
use awale_engine::protocol::{read_line, LineRead};
use awale_engine::{choose_move, greedy_move, Engine, EngineOptions, Level, Limits};

use crate::words::{level_words, parse_level, search_score_text, Lang};
use rand::seq::IndexedRandom;
use rand::RngExt;

use crate::board_text::{self, Seeds};
use crate::rules_args::RulesArgs;

/// The clock of fast play (`--fast`): minutes each, seconds added a move
/// (one of the web server's usual clocks).
const FAST_CLOCK: &str = "3+2";

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
    /// The engine's strength: 1 (Graine/Seed, a child's first day) to 18
    /// (Parfait/Perfect), or the level's name (default: the engine's
    /// default level, as on the page).
    #[arg(long, value_name = "1-18|NAME", value_parser = parse_level)]
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
    #[arg(long, value_name = "MIN+SEC", value_parser = Clock::parse)]
    clock: Option<Clock>,
    /// Play one of your online games on this site (`http://HOST:PORT`)
    /// instead, through its board API, with --token (docs/BOTS.md).
    #[arg(long, value_name = "URL", requires = "token")]
    online: Option<String>,
    /// Your personal API token, of scope `board:play` (made on the site's
    /// account page), with --online.
    #[arg(long, requires = "online")]
    token: Option<String>,
    /// With --online, the game to play (its id); by default the one going
    /// on, else the next that starts.
    #[arg(long, value_name = "ID", requires = "online")]
    game: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Each side's time left and what a move adds.
#[derive(Clone, Debug)]
struct Clock {
    left: [Duration; 2],
    increment: Duration,
}

impl Clock {
    /// A clock from `MIN+SEC`, e.g. `5+3` (or `5`: no increment).
    fn parse(text: &str) -> Result<Clock, String> {
        let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = minutes
            .trim()
            .parse()
            .ok()
            .filter(|m: &f64| *m > 0.0 && *m <= 600.0)
            .ok_or_else(|| {
                format!(
                    "`{text}`: minutes from more than 0 to 600, then + seconds a move, e.g. 5+3"
                )
            })?;
        let seconds: u64 = seconds
            .trim()
            .parse()
            .ok()
            .filter(|s| *s <= 600)
            .ok_or_else(|| format!("`{text}`: seconds a move from 0 to 600, e.g. 5+3"))?;
        Ok(Clock {
            left: [Duration::from_secs_f64(minutes * 60.0); 2],
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
        clock_text(lang, self.left.map(|d| d.as_millis() as i64))
    }
}

/// Both sides' time left (South's, North's, in ms) in words: "Clock: South
/// 2:05 · North 1:59".
pub(crate) fn clock_text(lang: Lang, left_ms: [i64; 2]) -> String {
    let show = |ms: i64| {
        let s = ms.max(0) / 1000;
        format!("{}:{:02}", s / 60, s % 60)
    };
    format!(
        "{}{} {} {} · {} {}",
        t(lang, "Pendule", "Clock"),
        colon(lang),
        side_name(lang, Side::South),
        show(left_ms[0]),
        side_name(lang, Side::North),
        show(left_ms[1])
    )
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
pub(crate) fn t(lang: Lang, fr: &'static str, en: &'static str) -> &'static str {
    match lang {
        Lang::Fr => fr,
        Lang::En => en,
    }
}

/// French puts a no-break space before `:` `;` `!` `?`, English nothing.
pub(crate) fn colon(lang: Lang) -> &'static str {
    t(lang, "\u{a0}:", ":")
}

pub(crate) fn side_name(lang: Lang, side: Side) -> &'static str {
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

/// The stores as a score, the winner's first (`48-0` when North wins
/// with 48), South's first in a draw.
fn score_text(stores: [u8; 2], winner: Option<Side>) -> String {
    let [s, n] = stores;
    match winner {
        Some(Side::North) => format!("{n}-{s}"),
        _ => format!("{s}-{n}"),
    }
}

/// `Fin de la partie (abandon) : Nord gagne 48-0.`: the winner's score
/// first.
fn outcome_text(lang: Lang, outcome: &Outcome) -> String {
    let reason = end_reason_text(lang, outcome.reason);
    let score = score_text(outcome.stores, outcome.winner);
    let result = match outcome.winner {
        Some(side) => format!("{} {}", side_name(lang, side), t(lang, "gagne", "wins")),
        None => t(lang, "égalité", "draw").to_string(),
    };
    format!(
        "{} ({reason}){} {result} {score}.",
        t(lang, "Fin de la partie", "Game over"),
        colon(lang)
    )
}

/// `Fin de la partie (temps écoulé) : Nord gagne 0-0.`: `side` ran out of
/// time and the other side wins, whatever the stores (its score first).
fn lost_on_time_text(lang: Lang, side: Side, stores: [u8; 2]) -> String {
    let score = score_text(stores, Some(side.opponent()));
    format!(
        "{} ({}){} {} {} {score}.",
        t(lang, "Fin de la partie", "Game over"),
        t(lang, "temps écoulé", "out of time"),
        colon(lang),
        side_name(lang, side.opponent()),
        t(lang, "gagne", "wins"),
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
pub(crate) enum Command {
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
pub(crate) fn read_command(line: &str) -> Command {
    // A byte order mark (from a file of moves) is no part of a word.
    let word = line.trim().trim_start_matches('\u{feff}');
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
    fn choose(self, game: &Game, engine: &mut Engine, stop: &AtomicBool) -> Option<Move> {
        let moves = game.legal_moves();
        let mut rng = rand::rng();
        match self {
            Computer::Engine(level) => choose_move(engine, game, level, rng.random(), stop),
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
    /// Numbers on the board, or seeds only (until the end).
    seeds: Seeds,
    /// The clock, if the game has one.
    clock: Option<Clock>,
    /// When the side to move began its turn.
    turn_started: Instant,
    /// The side whose time ran out.
    flagged: Option<Side>,
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
        let clock = match (args.clock, args.fast) {
            (Some(clock), _) => Some(clock),
            (None, true) => Some(Clock::parse(FAST_CLOCK).map_err(anyhow::Error::msg)?),
            (None, false) => None,
        };
        Ok(Session {
            lang,
            game,
            computer: computer.map(|c| (c, args.side)),
            engine,
            last: None,
            seeds: if args.no_count {
                Seeds::Uncounted
            } else {
                Seeds::Counted
            },
            clock,
            turn_started: Instant::now(),
            flagged: None,
        })
    }

    fn say(&self, fr: &'static str, en: &'static str) {
        outln!("{}", t(self.lang, fr, en));
    }

    fn greet(&self) {
        let lang = self.lang;
        if let Some((Computer::Engine(level), _)) = self.computer {
            let (name, about) = level_words(level, lang);
            outln!(
                "{}{} {} ({name}, {} Elo). {about}",
                t(lang, "Niveau de l'ordinateur", "Computer level"),
                colon(lang),
                level.number(),
                level.elo(),
            );
        }
        self.say(
            "Awalé\u{a0}: tapez la lettre d'un trou (A-F pour Sud, a-f pour Nord), ou «\u{a0}aide\u{a0}».",
            "Awalé: type a hole's letter (A-F for South, a-f for North), or \"help\".",
        );
        if self.seeds == Seeds::Uncounted {
            self.say(
                "Sans compter\u{a0}: les graines sont des points, aucun nombre avant la fin. Estimez et jouez vite\u{a0}!",
                "Without counting: seeds are dots, no number until the end. Estimate and play fast!",
            );
        }
    }

    /// Charges the side to move for its turn; false when its time ran out
    /// (the game is then over).
    fn charge_clock(&mut self) -> bool {
        let side = self.game.position().to_move();
        let used = self.turn_started.elapsed();
        let in_time = self.clock.as_mut().is_none_or(|c| c.charge(side, used));
        if !in_time {
            self.flagged = Some(side);
        }
        in_time
    }

    /// A move made: the capture in words, `fr` or `en` (`et prend`, `and
    /// captures`) followed by the seeds (their number only when counting).
    fn captured_text(&self, captured: u8, fr: &'static str, en: &'static str) -> String {
        let verb = t(self.lang, fr, en);
        match self.seeds {
            Seeds::Counted => format!("{verb} {captured}"),
            Seeds::Uncounted => format!("{verb} {}", t(self.lang, "des graines", "seeds")),
        }
    }

    /// Whether the computer is to move now.
    fn computer_to_move(&self) -> Option<Computer> {
        let (computer, human) = self.computer?;
        (self.game.position().to_move() != human).then_some(computer)
    }

    fn computer_turn(&mut self, computer: Computer) -> anyhow::Result<()> {
        let side = self.game.position().to_move();
        // On a clock, the computer stops thinking in time.
        let limit = self.clock.as_ref().map(|c| c.thinking(side));
        let stop = AtomicBool::new(false);
        let (game, engine) = (&self.game, &mut self.engine);
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
            let m = computer.choose(game, engine, &stop);
            drop(done);
            m
        });
        let m = m
            .or_else(|| self.game.legal_moves().first().copied())
            .ok_or_else(|| anyhow::anyhow!("no legal move"))?;
        if !self.charge_clock() {
            return Ok(());
        }
        let captured = self.game.play(m)?;
        self.turn_started = Instant::now();
        self.last = Some(m.hole());
        out!(
            "{} {m}",
            t(self.lang, "L'ordinateur joue", "The computer plays")
        );
        if captured > 0 {
            out!(
                " {}",
                self.captured_text(captured, "et prend", "and captures")
            );
        }
        outln!(".");
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
            Command::Undo | Command::Redo if self.clock.is_some() => self.say(
                "Avec une pendule, on ne reprend pas les coups.",
                "With a clock, moves cannot be taken back.",
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
                match (result.best, self.seeds) {
                    (Some(m), Seeds::Counted) => {
                        let score = search_score_text(result.score, lang);
                        outln!("{} {m} ({score})", t(lang, "Essayez", "Try"))
                    }
                    (Some(m), Seeds::Uncounted) => outln!("{} {m}.", t(lang, "Essayez", "Try")),
                    (None, _) => {}
                }
            }
            Command::Resign => {
                let side = self.game.position().to_move();
                self.game.resign(side)?;
            }
            Command::Moves => {
                let moves: Vec<String> = self.game.moves().map(|m| m.to_string()).collect();
                outln!("{}", moves.join(" "));
            }
            Command::Play(m) => {
                if let Err(e) = self.game.position().check(m, self.game.rules()) {
                    outln!("{}", refusal_text(lang, &GameError::Illegal(e)));
                    return Ok(true);
                }
                // The time since the turn began: thinking, asking for a
                // hint and mistyping included.
                if !self.charge_clock() {
                    return Ok(true);
                }
                match self.game.play(m) {
                    Ok(captured) => {
                        self.turn_started = Instant::now();
                        self.last = Some(m.hole());
                        if captured > 0 {
                            let text = self.captured_text(captured, "Vous prenez", "You capture");
                            outln!("{text}.");
                        }
                    }
                    Err(e) => outln!("{}", refusal_text(lang, &e)),
                }
            }
            Command::Unknown => self.say(
                "Ce n'est pas un coup\u{a0}: tapez une lettre de A à F ou de a à f, ou «\u{a0}aide\u{a0}».",
                "That is not a move: type a letter from A to F or a to f, or \"help\".",
            ),
        }
        Ok(true)
    }
}

impl Args {
    /// With --online and --token: the site, the token, the game asked for
    /// and the language (`awale play --online`, in `play_online.rs`).
    pub(crate) fn online(&mut self) -> Option<(String, String, Option<String>, Lang)> {
        let (server, token) = (self.online.take()?, self.token.take()?);
        let lang = self.lang.unwrap_or_else(lang_from_env);
        Some((server, token, self.game.take(), lang))
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut session = Session::new(args)?;
    session.greet();
    // Bytes, not `lines()`: a typed byte that is not UTF-8 is a line the
    // game does not understand, not the end of the game.
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        let position = session.game.position();
        let direction = session.game.rules().direction;
        let over = session.game.end().is_some() || session.flagged.is_some();
        // The result screen shows the numbers, even without counting.
        let seeds = if over { Seeds::Counted } else { session.seeds };
        out!(
            "\n{}",
            board_text::draw_seeds(&position, direction, session.last, session.lang, seeds)
        );
        if let Some(side) = session.flagged {
            outln!(
                "{}",
                lost_on_time_text(session.lang, side, position.stores())
            );
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(outcome) = session.game.outcome() {
            outln!("{}", outcome_text(session.lang, &outcome));
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(clock) = &session.clock {
            outln!("{}", clock.text(session.lang));
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
        out!(
            "{} ({}) > ",
            side_name(session.lang, position.to_move()),
            legal.join(" ")
        );
        std::io::stdout().flush()?;
        let command = match read_line(&mut input, &mut line)? {
            LineRead::End => {
                outln!();
                return Ok(ExitCode::SUCCESS);
            }
            LineRead::TooLong(_) => Command::Unknown,
            LineRead::Line => read_command(&String::from_utf8_lossy(&line)),
        };
        if !session.command(command)? {
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
        assert_eq!(
            read_command("\u{feff}F"),
            Command::Play(Move::from_letter('F').unwrap())
        );
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
