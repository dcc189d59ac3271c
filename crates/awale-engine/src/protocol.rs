//! The engine's side of the text protocol of Oware engines and GUIs, a
//! dialect of UCI: lines in, lines out. [`Protocol`] is a state machine fed
//! one line at a time; it writes its replies through an output function, so
//! it runs the same under `awale uci` (stdin and stdout) and in tests.
//!
//! The search runs on its own thread: `stop`, `isready` and `ponderhit` are
//! answered while it thinks. `docs/PROTOCOL.md` describes every command.

use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

use awale_core::{parse_moves, Game, GrandSlam, Move, Position, Preset, Repetition, Rules, Side};

use crate::level::{choose_move, greedy_move, Level};
use crate::limits::{Clock, Limits};
use crate::oracle::Oracle;
use crate::score::Score;
use crate::search::{Engine, EngineOptions, SearchInfo};
use crate::tt::Table;

/// Where the protocol writes its lines (without the newline). Called from
/// the protocol's thread and from the search thread.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Gives the endgame oracle for a rule set, if there is one (e.g. from the
/// endgame databases on disk). Called again whenever the rules change.
pub type OracleSource = Box<dyn FnMut(&Rules) -> Option<Arc<dyn Oracle>> + Send>;

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("Awale ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "the Awale project";

/// Largest transposition table accepted by `setoption name Hash`, in MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads accepted by `setoption name Threads`.
pub const MAX_THREADS: usize = 256;
/// Longest line read, in bytes: a `position` with thousands of moves fits
/// many times over; a longer line is skipped without being kept in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line (without its newline) is in the buffer.
    Line,
    /// A line longer than [`MAX_LINE_BYTES`] was skipped: this many bytes.
    TooLong(usize),
    /// The input has ended.
    End,
}

/// Reads one line from `input` into `buffer` (cleared first), keeping at
/// most [`MAX_LINE_BYTES`] of it in memory: a longer line is read to its
/// end and dropped. Bytes, not text: a line that is not UTF-8 is still a
/// line.
///
/// # Errors
///
/// The input's own read errors.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<LineRead> {
    buffer.clear();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (part, newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        length = length.saturating_add(part.len());
        if length <= MAX_LINE_BYTES {
            buffer.extend_from_slice(part);
        } else {
            buffer.clear();
        }
        let used = part.len() + usize::from(newline);
        input.consume(used);
        if newline {
            break;
        }
    }
    Ok(if !any {
        LineRead::End
    } else if length > MAX_LINE_BYTES {
        LineRead::TooLong(length)
    } else {
        LineRead::Line
    })
}

/// Whether the protocol goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: the search is stopped, the program may end.
    Quit,
}

/// The parameters of a `go` command. It prints back as the command
/// (`go depth 8 movetime 100`), which is how `awale match` drives
/// external engines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth D`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes N`: search about this many nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: search this long.
    pub movetime: Option<Duration>,
    /// `wtime MS`: South's clock.
    pub wtime: Option<Duration>,
    /// `btime MS`: North's clock.
    pub btime: Option<Duration>,
    /// `winc MS`: South's increment per move.
    pub winc: Option<Duration>,
    /// `binc MS`: North's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search the position (the expected reply already played)
    /// until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Go {
    /// Reads the words after `go`. Words it does not understand are
    /// reported in the second value and skipped, so that a partly
    /// understood `go` still searches and answers `bestmove`.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> (Go, Vec<String>) {
        let mut go = Go::default();
        let mut problems = Vec::new();
        let mut words = words.into_iter().peekable();
        while let Some(word) = words.next() {
            let key = word.to_ascii_lowercase();
            match key.as_str() {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc"
                | "movestogo" | "mate" => {
                    let Some(value) = words.next() else {
                        problems.push(format!("`go {key}` needs a number"));
                        break;
                    };
                    let number = match value.parse::<i64>() {
                        Ok(n) => n,
                        Err(_) => {
                            problems.push(format!("`go {key} {value}`: not a whole number"));
                            continue;
                        }
                    };
                    // A clock already run out is sent as 0 or below: treat
                    // it as no time left rather than as an error.
                    let millis = Duration::from_millis(number.max(0) as u64);
                    let count = u32::try_from(number.max(0)).unwrap_or(u32::MAX);
                    match key.as_str() {
                        "depth" => go.depth = Some(count),
                        "nodes" => go.nodes = Some(number.max(0) as u64),
                        "movetime" => go.movetime = Some(millis),
                        "wtime" => go.wtime = Some(millis),
                        "btime" => go.btime = Some(millis),
                        "winc" => go.winc = Some(millis),
                        "binc" => go.binc = Some(millis),
                        "movestogo" => go.movestogo = Some(count),
                        _ => problems.push(format!(
                            "`go mate {value}` is not supported; searching without it"
                        )),
                    }
                }
                "searchmoves" => {
                    // Consume the move list: it is not supported.
                    while words.peek().is_some_and(|w| w.parse::<Move>().is_ok()) {
                        words.next();
                    }
                    problems.push("`go searchmoves` is not supported; searching every move".into());
                }
                _ => problems.push(format!("`go`: unknown word `{word}`")),
            }
        }
        (go, problems)
    }

    /// The search limits for `side` to move: South's clock is `wtime`/`winc`
    /// ("white"), North's `btime`/`binc`. A `go` with no limit at all
    /// searches until `stop`, as `infinite` does. Pondering is not set here:
    /// the protocol adds its `ponderhit` flag.
    pub fn limits(&self, side: Side) -> Limits {
        let (time, increment) = match side {
            Side::South => (self.wtime, self.winc),
            Side::North => (self.btime, self.binc),
        };
        let clock = time.map(|remaining| Clock {
            remaining,
            increment: increment.unwrap_or_default(),
            moves_to_go: self.movestogo,
        });
        let unlimited = self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && clock.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
            infinite: self.infinite || unlimited,
            ..Limits::default()
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let millis = |d: Option<Duration>| d.map(|d| d.as_millis());
        for (name, value) in [
            ("wtime", millis(self.wtime)),
            ("btime", millis(self.btime)),
            ("winc", millis(self.winc)),
            ("binc", millis(self.binc)),
            ("movestogo", self.movestogo.map(u128::from)),
            ("depth", self.depth.map(u128::from)),
            ("nodes", self.nodes.map(u128::from)),
            ("movetime", millis(self.movetime)),
        ] {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

/// A `position` command: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start: `startpos` or a diagram.
    pub start: Position,
    /// Whether it was written `startpos`.
    pub startpos: bool,
    /// The moves played since.
    pub moves: Vec<Move>,
}

impl PositionCommand {
    /// The command for `game`: `startpos` when it started from the start
    /// position with South to move, its diagram otherwise, then its moves
    /// as one word.
    pub fn of_game(game: &Game) -> PositionCommand {
        let start = game.start();
        PositionCommand {
            start,
            startpos: start == Position::START,
            moves: game.moves().collect(),
        }
    }

    /// Reads the words after `position`: `startpos` or `fen DIAGRAM`, then
    /// optionally `moves` and the moves, as one word (`FfAa`) or several
    /// (`F f A a`). After `startpos`, North starts when the first move is
    /// one of North's.
    ///
    /// # Errors
    ///
    /// A message naming what is wrong.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<PositionCommand, String> {
        let words: Vec<&str> = words.into_iter().collect();
        let (start, startpos, rest) = match words.first().map(|w| w.to_ascii_lowercase()) {
            Some(w) if w == "startpos" => (Position::START, true, &words[1..]),
            Some(w) if w == "fen" => {
                let Some(diagram) = words.get(1) else {
                    return Err("`position fen` needs a diagram such as \
                                4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
                        .into());
                };
                let start = diagram
                    .parse::<Position>()
                    .map_err(|e| format!("`position fen {diagram}`: {e}"))?;
                (start, false, &words[2..])
            }
            Some(_) => {
                // A bare diagram is accepted too.
                match words[0].parse::<Position>() {
                    Ok(start) => (start, false, &words[1..]),
                    Err(_) => {
                        return Err(format!(
                            "`position {}`: expected `startpos` or `fen DIAGRAM`",
                            words[0]
                        ))
                    }
                }
            }
            None => return Err("`position` needs `startpos` or `fen DIAGRAM`".into()),
        };
        let moves = match rest.split_first() {
            None => Vec::new(),
            Some((keyword, letters)) if keyword.eq_ignore_ascii_case("moves") => {
                parse_moves(&letters.join(" ")).map_err(|e| format!("`moves`: {e}"))?
            }
            Some((word, _)) => {
                return Err(format!(
                    "`position`: expected `moves` after the position, found `{word}`"
                ))
            }
        };
        let start = match moves.first() {
            Some(m) if startpos => Position::start(m.side()),
            _ => start,
        };
        Ok(PositionCommand {
            start,
            startpos,
            moves,
        })
    }

    /// The game these moves make under `rules`.
    ///
    /// # Errors
    ///
    /// A message naming the first move that cannot be played.
    pub fn game(&self, rules: Rules) -> Result<Game, String> {
        let mut game = Game::from_position(rules, self.start);
        for (i, &m) in self.moves.iter().enumerate() {
            game.play(m)
                .map_err(|e| format!("move {} ({m}) cannot be played: {e}", i + 1))?;
        }
        Ok(game)
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.startpos && self.start == Position::START {
            f.write_str("position startpos")?;
        } else {
            write!(f, "position fen {}", self.start)?;
        }
        if !self.moves.is_empty() {
            f.write_str(" moves ")?;
            for m in &self.moves {
                write!(f, "{m}")?;
            }
        }
        Ok(())
    }
}

/// How decided scores are written: the GUIs of the dialect read only `cp`,
/// so by default a decided game is its final margin in seeds (`cp 600`: won
/// by 6 seeds), which they show as the lead it is; `MateScores` gives the
/// distance as `mate M` to the GUIs that read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DecidedScores {
    /// `cp` with the final margin × 100 (the default).
    #[default]
    Margin,
    /// `mate M`, `M` the side to move's moves to the end (negative when it
    /// loses), when the distance is known and not 0; `cp` margin otherwise.
    Mate,
}

/// The final margin, in seeds, of a game that `score` says is decided, from
/// the side to move's view at `game`: the oracle's margin when it proved
/// it, else that of the principal variation `pv` played out from `game`
/// (the final stores when it ends the game; when it stops at a store
/// holding more than half the seeds, the lead no play can take away).
/// `None` for a score that is not decided.
pub fn decided_margin(score: Score, game: &Game, pv: &[Move]) -> Option<i32> {
    if let Some(margin) = score.proven_margin() {
        return Some(margin);
    }
    let wins = score.forced()?.wins;
    let me = game.position().to_move();
    let mut line = game.clone();
    for &m in pv {
        if line.end().is_some() || line.play(m).is_err() {
            break;
        }
    }
    let margin = match line.outcome() {
        Some(outcome) => {
            i32::from(outcome.stores[me.index()]) - i32::from(outcome.stores[me.opponent().index()])
        }
        None => {
            let position = line.position();
            let mine = i32::from(position.store(me));
            let theirs = i32::from(position.store(me.opponent()));
            let board = i32::from(position.seeds_on_board());
            if wins {
                mine - theirs - board
            } else {
                mine + board - theirs
            }
        }
    };
    // The sign is the score's: a line cut short may not show all the lead.
    Some(if wins { margin.max(1) } else { margin.min(-1) })
}

/// The `score ...` part of an info line, from the side to move's view at
/// `game`, in hundredths of a seed: a heuristic score as it is, a decided
/// game as its final margin (see [`decided_margin`]) or, with
/// [`DecidedScores::Mate`] and a known distance, `mate M`.
pub fn score_words(score: Score, game: &Game, pv: &[Move], decided: DecidedScores) -> String {
    // A game already over (never the root of a search, which has a move to
    // play) has no moves to the end: `mate 0` would not say who won.
    if let (DecidedScores::Mate, Some(forced)) = (decided, score.forced().filter(|f| f.plies > 0)) {
        // The side to move's own moves, won or lost: in 1 or 2 plies, its
        // next move (a loss in 1 is its own move ending the game).
        let moves = forced.plies.div_ceil(2);
        let sign = if forced.wins { "" } else { "-" };
        return format!("mate {sign}{moves}");
    }
    match decided_margin(score, game, pv) {
        Some(margin) => format!("cp {}", margin * 100),
        None => format!("cp {}", score.cp_value()),
    }
}

/// The info line of one finished depth of a search of `game`.
pub fn info_line(info: &SearchInfo, game: &Game, decided: DecidedScores) -> String {
    let millis = info.time.as_millis();
    // From microseconds: a depth done in under a millisecond still gets a
    // true rate.
    let nps = u128::from(info.nodes) * 1_000_000 / info.time.as_micros().max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} time {millis}",
        info.depth,
        info.seldepth,
        score_words(info.score, game, &info.pv, decided),
        info.nodes,
    );
    // One word, as the dialect's GUIs read it: `pv eFcAbA`.
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.extend(info.pv.iter().map(|m| m.letter()));
    }
    line
}

/// The `bestmove` line: `bestmove 0000` when there is no move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// A search running on its thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// Lets out a `bestmove` held back by `go infinite` or `go ponder`.
    release: mpsc::Sender<()>,
    thread: JoinHandle<Engine>,
    /// Set once the `bestmove` is out: a new `go` may come.
    answered: Arc<AtomicBool>,
    /// While pondering: the flag `ponderhit` sets.
    ponderhit: Option<Arc<AtomicBool>>,
}

/// The protocol's state: options, rules, the position, the engine and the
/// search running, if any.
pub struct Protocol {
    /// The engine, `None` while a search thread has it.
    engine: Option<Engine>,
    options: EngineOptions,
    /// Options set while the engine was busy, applied before the next search.
    options_changed: bool,
    /// `ucinewgame` or `Clear Hash` seen: clear the tables before the next
    /// search.
    clear_pending: bool,
    rules: Rules,
    level: Option<Level>,
    /// The position to search, or why the last `position` was refused:
    /// then `go` answers `bestmove 0000` rather than a move of another
    /// position.
    position: Result<PositionCommand, String>,
    /// A table made for a `Hash` set while the engine was searching,
    /// given to it before the next search.
    pending_table: Option<Table>,
    /// `OwnBook`: play from the opening book where it has the position.
    own_book: bool,
    /// `Greedy`: play the biggest capture now, as the yardstick of the
    /// weakest levels.
    greedy: bool,
    /// `MateScores`: how decided scores are written.
    decided: DecidedScores,
    running: Option<Running>,
    /// Counts searches, so that levels vary their choices between games.
    searches: u64,
    output: Output,
    oracle_source: Option<OracleSource>,
    /// The rules the engine's oracle was last chosen for.
    oracle_rules: Option<Rules>,
}

impl Protocol {
    /// A protocol with a new engine of default options, writing to `output`,
    /// playing tournament Oware (`abapa`) until told otherwise.
    pub fn new(output: Output) -> Protocol {
        let options = EngineOptions::default();
        Protocol::with_engine(Engine::new(options), options, output)
    }

    /// A protocol around an engine already set up (e.g. with an endgame
    /// oracle), whose options are `options`.
    pub fn with_engine(engine: Engine, options: EngineOptions, output: Output) -> Protocol {
        Protocol {
            engine: Some(engine),
            options,
            options_changed: false,
            clear_pending: false,
            // What every engine of the dialect plays, for GUIs that never
            // set `Rules` (Aualé among them).
            rules: Rules::ABAPA,
            level: None,
            position: Ok(PositionCommand {
                start: Position::START,
                startpos: true,
                moves: Vec::new(),
            }),
            pending_table: None,
            own_book: true,
            greedy: false,
            decided: DecidedScores::Margin,
            running: None,
            searches: 0,
            output,
            oracle_source: None,
            oracle_rules: None,
        }
    }

    /// Sets the rules in force, as `setoption name Rules` does (`awale uci
    /// --rules abapa`, for GUIs that do not know the `Rules` option). The
    /// `uci` answer gives them as the options' defaults.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Where the engine's endgame oracle comes from: asked before the first
    /// search and whenever the rules have changed since.
    pub fn set_oracle_source(&mut self, source: OracleSource) {
        self.oracle_source = Some(source);
        self.oracle_rules = None;
    }

    fn say(&self, line: &str) {
        (self.output)(line);
    }

    fn info_string(&self, message: &str) {
        // An info string runs to the end of the line: keep it on one.
        let one_line: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.say(&format!("info string {one_line}"));
    }

    /// Handles one line from the GUI. Never panics on any input: what it
    /// does not understand is answered with `info string`.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "debug" | "register" => {}
            "setoption" => self.set_option(words),
            "ucinewgame" => self.clear_pending = true,
            "position" => {
                self.position = PositionCommand::parse(words)
                    .and_then(|p| self.game_of(&p).map(|_| p))
                    .map_err(|e| {
                        self.info_string(&format!("position not set: {e}"));
                        e
                    });
            }
            "go" => {
                let (go, problems) = Go::parse(words);
                for p in problems {
                    self.info_string(&p);
                }
                self.go(go);
            }
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "quit" => {
                self.shutdown();
                return Flow::Quit;
            }
            _ => {
                let shown: String = line.trim().chars().take(60).collect();
                self.info_string(&format!("unknown command `{shown}`"));
            }
        }
        Flow::Continue
    }

    /// The game of a `position` under the rules in force; when one of its
    /// moves is illegal there but legal under other rules (a grand slam sent
    /// by a GUI that plays `abapa` and never said so), the game under those,
    /// with a note saying what was refused: the GUI gets a move for the
    /// position it has on its board, never `bestmove 0000` while the game
    /// goes on.
    ///
    /// # Errors
    ///
    /// Why the position was refused, when no rules allow its moves.
    fn game_of(&self, position: &PositionCommand) -> Result<(Game, Option<String>), String> {
        let refused = match position.game(self.rules) {
            Ok(game) => return Ok((game, None)),
            Err(e) => e,
        };
        // The presets first, tournament Oware (what GUIs that never say
        // their rules play) ahead; then the rules in force with the other
        // grand slam rule.
        let mut other_slam = self.rules;
        other_slam.grand_slam = match self.rules.grand_slam {
            GrandSlam::Forbidden => GrandSlam::NoCapture,
            GrandSlam::NoCapture => GrandSlam::Forbidden,
        };
        let mut tried = vec![self.rules];
        for rules in [Rules::ABAPA, Rules::AWALE, other_slam] {
            if tried.iter().any(|t| t.same_values(&rules)) {
                continue;
            }
            tried.push(rules);
            if let Ok(game) = position.game(rules) {
                let note = format!(
                    "position refused under {}: {refused}; answered under {rules}, \
                     where it can be played",
                    self.rules
                );
                return Ok((game, Some(note)));
            }
        }
        Err(refused)
    }

    fn identify(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        // A GUI that never sets `Rules` plays what this line says.
        self.info_string(&format!(
            "rules {}: {}; `setoption name Rules value awale` or `abapa` changes them",
            self.rules,
            match Preset::ALL
                .iter()
                .find(|p| p.rules().same_values(&self.rules))
            {
                Some(Preset::Abapa) => "tournament Oware (Abapa)",
                Some(Preset::Awale) => "Awale, grand slam forbidden",
                None => "a preset with options changed",
            }
        ));
        // The defaults are the settings in force: `awale uci --hash` changes
        // them.
        let defaults = self.options;
        let levels = Level::ALL.len();
        // The rules in force (`awale uci --rules`) are the defaults too.
        let rules = self.rules.to_string();
        let rules_combo = if Preset::ALL.iter().any(|p| p.name() == rules) {
            format!("option name Rules type combo default {rules} var awale var abapa")
        } else {
            format!("option name Rules type combo default {rules} var awale var abapa var {rules}")
        };
        let grand_slam = match self.rules.grand_slam {
            GrandSlam::Forbidden => "forbidden",
            GrandSlam::NoCapture => "no_capture",
        };
        let repetition = match self.rules.repetition {
            Repetition::Nobody => "nobody",
            Repetition::OwnRow => "own_row",
        };
        for line in [
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                defaults.hash_mb
            ),
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                defaults.threads
            ),
            "option name Clear Hash type button".to_string(),
            "option name Ponder type check default false".to_string(),
            format!("option name OwnBook type check default {}", self.own_book),
            format!("option name Level type spin default 0 min 0 max {levels}"),
            "option name Greedy type check default false".to_string(),
            format!(
                "option name MateScores type check default {}",
                self.decided == DecidedScores::Mate
            ),
            rules_combo,
            format!(
                "option name GrandSlam type combo default {} var forbidden var no_capture",
                grand_slam
            ),
            format!(
                "option name Repetition type combo default {} var nobody var own_row",
                repetition
            ),
            format!(
                "option name Target type spin default {} min 0 max 48",
                self.rules.target.unwrap_or(0)
            ),
        ] {
            self.say(&line);
        }
        self.say("uciok");
    }

    fn set_option<'a>(&mut self, words: impl Iterator<Item = &'a str>) {
        let words: Vec<&str> = words.collect();
        if !words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("name"))
        {
            self.info_string("`setoption` expects `setoption name NAME [value VALUE]`");
            return;
        }
        let value_at = words
            .iter()
            .position(|w| w.eq_ignore_ascii_case("value"))
            .unwrap_or(words.len());
        let name = words[1..value_at].join(" ");
        let value = words.get(value_at + 1..).unwrap_or(&[]).join(" ");
        if let Err(e) = self.apply_option(&name, &value) {
            self.info_string(&e);
        }
    }

    fn apply_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |min: usize, max: usize| -> Result<usize, String> {
            match value.trim().parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option {name}: `{value}` is not a number from {min} to {max}"
                )),
            }
        };
        let check = |value: &str| match value.trim().to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("option {name}: `{value}` is not true or false")),
        };
        let key = name
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '_', '-'], "");
        match key.as_str() {
            "hash" => self.set_hash(number(1, MAX_HASH_MB)?)?,
            "threads" => {
                self.options.threads = number(1, MAX_THREADS)?;
                self.options_changed = true;
            }
            "clearhash" => self.clear_pending = true,
            "ponder" => {}
            "ownbook" => self.own_book = check(value)?,
            "greedy" => self.greedy = check(value)?,
            "matescores" => {
                self.decided = if check(value)? {
                    DecidedScores::Mate
                } else {
                    DecidedScores::Margin
                }
            }
            "level" => {
                let n = number(0, Level::ALL.len())?;
                self.level = u8::try_from(n).ok().and_then(Level::from_number);
            }
            "rules" => {
                self.rules = value
                    .trim()
                    .parse::<Rules>()
                    .or_else(|_| value.trim().parse::<Preset>().map(Preset::rules))
                    .map_err(|e| format!("option Rules: {e}"))?;
            }
            "grandslam" | "repetition" | "target" | "direction" | "first" => {
                let option = match key.as_str() {
                    "grandslam" => "grand_slam",
                    other => other,
                };
                let mut rules = self.rules;
                rules
                    .set(option, value)
                    .map_err(|e| format!("option {name}: {e}"))?;
                self.rules = rules;
            }
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }

    /// A new table of `mib` MiB, made now so that a size the memory cannot
    /// hold is refused at once, the old table kept. While a search runs,
    /// the new table waits for the next search.
    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        let old = self.options.hash_mb;
        let refused =
            |e: crate::tt::TableTooBig| format!("option Hash: {e}; the table stays at {old} MiB");
        let wanted = EngineOptions {
            hash_mb: mib,
            ..self.options
        };
        match self.reclaim_engine() {
            Some(engine) => engine
                .set_options(EngineOptions {
                    threads: engine.options().threads,
                    ..wanted
                })
                .map(|()| self.pending_table = None),
            None => {
                // Drop a table waiting from before first.
                self.pending_table = None;
                Table::try_new(mib).map(|table| self.pending_table = Some(table))
            }
        }
        .map_err(refused)?;
        self.options.hash_mb = mib;
        Ok(())
    }

    /// Whether a search is running that has not yet given its `bestmove`.
    fn busy(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.answered.load(Ordering::SeqCst))
    }

    /// The engine back from a search that has given its `bestmove` (its
    /// thread is then about to end, so the wait is short).
    fn reclaim_engine(&mut self) -> Option<&mut Engine> {
        if self.engine.is_none() {
            if self.busy() {
                return None;
            }
            let running = self.running.take()?;
            self.engine = running.thread.join().ok();
            if self.engine.is_none() {
                // The search thread panicked: start afresh rather than stop
                // answering.
                self.engine = Some(Engine::new(self.options));
                self.info_string("the search failed; the engine was restarted");
            }
        }
        self.engine.as_mut()
    }

    fn go(&mut self, go: Go) {
        if self.busy() {
            self.info_string("already searching: send `stop` first");
            return;
        }
        let game = match &self.position {
            Ok(p) => self.game_of(p),
            Err(e) => Err(format!(
                "no position to search: the last `position` was refused ({e})"
            )),
        };
        let game = match game {
            Ok((game, note)) => {
                if let Some(note) = note {
                    self.info_string(&note);
                }
                game
            }
            Err(e) => {
                // A refused position, or rules changed since `position`:
                // say why, and answer for no position rather than for
                // another one.
                self.info_string(&e);
                self.say(&bestmove_line(None, None));
                return;
            }
        };
        let (options, options_changed, clear) =
            (self.options, self.options_changed, self.clear_pending);
        let Some(engine) = self.reclaim_engine() else {
            self.info_string("already searching: send `stop` first");
            return;
        };
        if options_changed {
            // The hash size is already in force (see `set_hash`): only the
            // threads change here, which cannot fail.
            let _ = engine.set_options(options);
        }
        if clear {
            engine.new_game();
        }
        if let Some(table) = self.pending_table.take() {
            if let Some(engine) = self.engine.as_mut() {
                engine.install_table(table, options.hash_mb);
            }
        }
        self.options_changed = false;
        self.clear_pending = false;
        if game.legal_moves().is_empty() {
            self.say(&bestmove_line(None, None));
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        // The oracle of the rules the game is played under: those in force,
        // or those a refused position was answered under.
        let rules = *game.rules();
        if let Some(source) = &mut self.oracle_source {
            if self.oracle_rules != Some(rules) {
                engine.set_oracle(source(&rules));
                self.oracle_rules = Some(rules);
            }
        }
        self.searches += 1;
        let seed = game.position().hash() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut limits = go.limits(game.position().to_move());
        let ponderhit = go.ponder.then(|| Arc::new(AtomicBool::new(false)));
        limits.ponderhit = ponderhit.clone();
        let infinite = limits.infinite;
        let level = self.level;
        let greedy = self.greedy;
        let decided = self.decided;
        // Full strength with `OwnBook`: the book's move where it has one.
        let book_move = (self.own_book && level.is_none() && !greedy)
            .then(|| crate::book::Book::builtin().probe(&game))
            .flatten();
        let stop = Arc::new(AtomicBool::new(false));
        let (release, released) = mpsc::channel();
        let output = Arc::clone(&self.output);
        let thread_stop = Arc::clone(&stop);
        let thread_ponderhit = ponderhit.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let thread = std::thread::spawn(move || {
            let (best, ponder) = match level {
                _ if book_move.is_some() => {
                    output("info string book move");
                    (book_move, None)
                }
                _ if greedy => (greedy_move(&game, seed), None),
                Some(level) => (
                    choose_move(&mut engine, &game, level, seed, &thread_stop),
                    None,
                ),
                None => {
                    let result =
                        engine.search(&game, &limits, &thread_stop, &mut |info: &SearchInfo| {
                            output(&info_line(info, &game, decided))
                        });
                    (result.best, result.ponder)
                }
            };
            // An infinite search, or pondering before `ponderhit`, answers
            // only once let out (`stop`, `ponderhit`, or the protocol gone).
            // `ponderhit` sets its flag before letting out, so no wake-up is
            // missed.
            let pondering = thread_ponderhit
                .as_ref()
                .is_some_and(|hit| !hit.load(Ordering::SeqCst));
            if infinite || pondering {
                let _ = released.recv();
            }
            // A search always has a move while the game goes on.
            let best = best.or_else(|| game.legal_moves().first().copied());
            // Set before the line goes out: whoever reads `bestmove` and
            // sends `go` at once finds the search answered.
            thread_answered.store(true, Ordering::SeqCst);
            output(&bestmove_line(best, ponder));
            engine
        });
        self.running = Some(Running {
            stop,
            release,
            thread,
            answered,
            ponderhit,
        });
    }

    /// Stops the search, waits for its `bestmove`, and takes the engine back.
    fn stop(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        running.stop.store(true, Ordering::Relaxed);
        let _ = running.release.send(());
        match running.thread.join() {
            Ok(engine) => self.engine = Some(engine),
            Err(_) => {
                self.engine = Some(Engine::new(self.options));
                self.info_string("the search failed; the engine was restarted");
            }
        }
    }

    /// The move expected was played: the pondering search goes on as a
    /// normal one, its time limits counted from now.
    fn ponderhit(&mut self) {
        let Some(running) = &self.running else {
            self.info_string("`ponderhit` while not pondering: ignored");
            return;
        };
        match &running.ponderhit {
            Some(hit) if !hit.load(Ordering::SeqCst) => {
                hit.store(true, Ordering::SeqCst);
                let _ = running.release.send(());
            }
            _ => self.info_string("`ponderhit` while not pondering: ignored"),
        }
    }

    /// Stops any search (printing its `bestmove`) and waits for its thread:
    /// what `quit` and the end of the input do.
    pub fn shutdown(&mut self) {
        self.stop();
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.busy()
    }
}

impl Drop for Protocol {
    fn drop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl FromStr for Go {
    type Err = String;

    /// Reads a whole `go ...` line, refusing any word it does not know.
    fn from_str(s: &str) -> Result<Go, String> {
        let mut words = s.split_whitespace();
        if words.next() != Some("go") {
            return Err(format!("not a `go` command: `{s}`"));
        }
        let (go, problems) = Go::parse(words);
        match problems.into_iter().next() {
            Some(p) => Err(p),
            None => Ok(go),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use std::sync::Mutex;
    use std::time::Instant;

    /// A protocol whose output lines are collected for the test to read.
    struct Harness {
        protocol: Protocol,
        lines: Arc<Mutex<Vec<String>>>,
        read: usize,
    }

    impl Harness {
        fn new() -> Harness {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&lines);
            let output: Output = Arc::new(move |line: &str| {
                sink.lock().unwrap().push(line.to_string());
            });
            Harness {
                protocol: Protocol::new(output),
                lines,
                read: 0,
            }
        }

        fn send(&mut self, line: &str) -> Flow {
            self.protocol.handle_line(line)
        }

        /// Sends `position` and `go`, and returns every line up to
        /// `bestmove`.
        fn search(&mut self, position: &str, go: &str) -> Vec<String> {
            self.send(position);
            self.send(go);
            self.wait_for("bestmove")
        }

        /// Sends `position` and `go`, and checks that no `bestmove` comes
        /// within `wait`.
        fn search_holds(&mut self, position: &str, go: &str, wait: Duration) {
            self.send(position);
            self.send(go);
            std::thread::sleep(wait);
            let lines = self.take();
            assert!(
                !lines.iter().any(|l| l.starts_with("bestmove")),
                "{lines:?}"
            );
        }

        /// Lines written since the last call.
        fn take(&mut self) -> Vec<String> {
            let lines = self.lines.lock().unwrap();
            let new = lines[self.read..].to_vec();
            self.read = lines.len();
            new
        }

        /// Waits (up to 20 s) for a line starting with `prefix`, and returns
        /// every line up to it.
        fn wait_for(&mut self, prefix: &str) -> Vec<String> {
            let deadline = Instant::now() + Duration::from_secs(20);
            let mut seen = Vec::new();
            loop {
                for line in self.take() {
                    let found = line.starts_with(prefix);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                assert!(Instant::now() < deadline, "no `{prefix}` in {seen:?}");
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }

    #[test]
    fn uci_lists_id_options_then_uciok() {
        let mut h = Harness::new();
        h.send("uci");
        let lines = h.take();
        assert!(lines[0].starts_with("id name Awale"));
        assert!(lines[1].starts_with("id author"));
        for option in [
            "Hash",
            "Threads",
            "Level",
            "Rules",
            "GrandSlam",
            "Repetition",
            "Target",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type"))),
                "{option} missing from {lines:?}"
            );
        }
        assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    }

    #[test]
    fn isready_answers_readyok() {
        let mut h = Harness::new();
        h.send("isready");
        assert_eq!(h.take(), ["readyok"]);
    }

    #[test]
    fn go_depth_reports_info_then_a_legal_bestmove() {
        let mut h = Harness::new();
        let lines = h.search("position startpos moves FfAa", "go depth 3");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 3 "))
            .expect("an info line for depth 3");
        for word in [
            " seldepth ",
            " score cp ",
            " nodes ",
            " nps ",
            " time ",
            " pv ",
        ] {
            assert!(info.contains(word), "{info}");
        }
        let best = lines.last().unwrap();
        let letter = best.split_whitespace().nth(1).unwrap();
        let game = PositionCommand::parse("startpos moves FfAa".split_whitespace())
            .unwrap()
            .game(Rules::AWALE)
            .unwrap();
        let m: Move = letter.parse().unwrap();
        assert!(game.legal_moves().contains(&m), "{best}");
    }

    #[test]
    fn moves_with_spaces_and_without_give_the_same_position() {
        let joined = PositionCommand::parse("startpos moves FfAa".split_whitespace()).unwrap();
        let spaced = PositionCommand::parse("startpos moves F f A a".split_whitespace()).unwrap();
        assert_eq!(joined, spaced);
        let fen = PositionCommand::parse(
            "fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves F f A a".split_whitespace(),
        )
        .unwrap();
        assert_eq!(
            fen.game(Rules::AWALE).unwrap().position(),
            joined.game(Rules::AWALE).unwrap().position()
        );
    }

    #[test]
    fn startpos_with_north_first_lets_north_start() {
        let p = PositionCommand::parse("startpos moves fF".split_whitespace()).unwrap();
        assert_eq!(p.start.to_move(), Side::North);
        assert_eq!(p.game(Rules::AWALE).unwrap().plies().len(), 2);
    }

    #[test]
    fn position_command_prints_back_as_it_reads() {
        for text in [
            "position startpos",
            "position startpos moves FfAa",
            "position fen 0-0-0-0-1-1-1-0-0-0-0-0-20-25-S",
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves fA",
        ] {
            let words = text.split_whitespace().skip(1);
            assert_eq!(PositionCommand::parse(words).unwrap().to_string(), text);
        }
    }

    #[test]
    fn go_prints_back_as_it_reads() {
        for text in [
            "go depth 7",
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            "go ponder wtime 1000 btime 900",
            "go nodes 5000 movetime 100",
            "go infinite",
        ] {
            assert_eq!(text.parse::<Go>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn south_plays_with_white_clock() {
        let go: Go = "go wtime 1000 btime 2000 winc 10 binc 20".parse().unwrap();
        let south = go.limits(Side::South).clock.unwrap();
        assert_eq!(south.remaining, Duration::from_millis(1000));
        assert_eq!(south.increment, Duration::from_millis(10));
        let north = go.limits(Side::North).clock.unwrap();
        assert_eq!(north.remaining, Duration::from_millis(2000));
        assert_eq!(north.increment, Duration::from_millis(20));
        assert!(!go.limits(Side::South).infinite);
    }

    #[test]
    fn game_over_answers_bestmove_0000() {
        let mut h = Harness::new();
        // North's row is empty and no South move can feed it.
        let lines = h.search("position fen 1-0-0-0-0-0-0-0-0-0-0-0-23-24-S", "go depth 5");
        assert_eq!(lines, ["bestmove 0000"]);
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_bestmove() {
        let mut h = Harness::new();
        h.search_holds(
            "position startpos",
            "go infinite",
            Duration::from_millis(50),
        );
        h.send("isready");
        let before = h.take();
        assert!(before.contains(&"readyok".to_string()), "{before:?}");
        assert!(!before.iter().any(|l| l.starts_with("bestmove")));
        h.send("stop");
        // `stop` waits for the search: the bestmove is out when it returns.
        let after = h.take();
        assert!(
            after.last().is_some_and(|l| l.starts_with("bestmove ")),
            "{after:?}"
        );
        assert!(!h.protocol.is_searching());
    }

    #[test]
    fn infinite_search_holds_bestmove_until_stop_even_when_decided() {
        let mut h = Harness::new();
        // One legal move: the search ends at once, yet must wait for `stop`.
        let position = "position fen 0-0-0-0-0-1-0-0-0-0-0-0-23-24-S";
        h.search_holds(position, "go infinite", Duration::from_millis(100));
        h.send("stop");
        assert_eq!(h.take().last().map(String::as_str), Some("bestmove F"));
    }

    #[test]
    fn ponderhit_turns_pondering_into_a_timed_search() {
        let mut h = Harness::new();
        let wait = Duration::from_millis(100);
        h.search_holds("position startpos moves Ff", "go ponder movetime 50", wait);
        h.send("ponderhit");
        assert_one_bestmove(&h.wait_for("bestmove"));
    }

    #[test]
    fn stop_while_pondering_answers_once() {
        let mut h = Harness::new();
        h.send("position startpos moves F");
        h.send("go ponder wtime 1000 btime 1000");
        h.send("stop");
        assert_one_bestmove(&h.take());
    }

    fn assert_one_bestmove(lines: &[String]) {
        let count = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(count, 1, "{lines:?}");
    }

    #[test]
    fn setoption_changes_the_rules() {
        let mut h = Harness::new();
        h.send("setoption name Rules value abapa");
        assert_eq!(h.protocol.rules, Rules::ABAPA);
        h.send("setoption name GrandSlam value forbidden");
        h.send("setoption name Target value 0");
        h.send("setoption name Repetition value nobody");
        assert_eq!(h.protocol.rules, Rules::AWALE);
        h.send("setoption name Target value 20");
        assert_eq!(h.protocol.rules.target, Some(20));
        h.send("setoption name rules value awale,target=30");
        assert_eq!(h.protocol.rules.target, Some(30));
        assert!(h.take().is_empty());
    }

    #[test]
    fn rules_decide_which_moves_are_legal() {
        // South to play: E or the grand slam F, which captures North's only
        // seeds; forbidden under awale, legal and capturing nothing in abapa.
        let p = PositionCommand::parse(
            "fen 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S moves F".split_whitespace(),
        )
        .unwrap();
        assert!(p.game(Rules::AWALE).is_err());
        assert!(p.game(Rules::ABAPA).is_ok());
    }

    #[test]
    fn level_option_plays_a_legal_move() {
        let mut h = Harness::new();
        h.send("setoption name Level value 1");
        assert!(h.protocol.level.is_some());
        let lines = h.search("position startpos moves F", "go movetime 100");
        let letter = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(
            letter.chars().all(|c| ('a'..='f').contains(&c)),
            "{lines:?}"
        );
        h.send("setoption name Level value 0");
        assert!(h.protocol.level.is_none());
    }

    #[test]
    fn bad_input_is_answered_with_info_string() {
        let mut h = Harness::new();
        for line in [
            "hello",
            "position",
            "position fen",
            "position fen 4-4-4",
            "position fen 9-9-9",
            "position startpos moves FxA",
            "position startpos moves FQ",
            "position startpos moves FF",
            "position startpos FfAa",
            "setoption",
            "setoption name Hash value lots",
            "setoption name Hash value 0",
            "setoption name Threads value 100000",
            "setoption name Level value 99",
            "setoption name Level value -3",
            "setoption name Rules value chess",
            "setoption name Target value 49",
            "setoption name Nonsense value 1",
            "ponderhit",
        ] {
            assert_eq!(h.send(line), Flow::Continue);
            let lines = h.take();
            assert!(
                lines.len() == 1 && lines[0].starts_with("info string "),
                "{line}: {lines:?}"
            );
        }
        // The last `position` was refused: no move is given for another
        // position.
        assert!(h.protocol.position.is_err());
        h.send("go depth 3");
        let lines = h.wait_for("bestmove");
        assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
        assert!(lines[0].starts_with("info string no position"), "{lines:?}");
    }

    #[test]
    fn a_grand_slam_refused_by_the_rules_set_is_answered_under_the_rules_that_allow_it() {
        // Aualé's sequence after a human grand slam, the engine told to play
        // `awale` where the slam is illegal: the position is answered under
        // `abapa`, with North's move (never `bestmove 0000`, which Aualé
        // cannot read, nor a South move of the position before).
        let mut h = Harness::new();
        h.send("setoption name Rules value awale");
        h.search("position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S", "go depth 4");
        h.send("position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S moves F");
        assert!(h.take().is_empty());
        h.send("go depth 4");
        let lines = h.wait_for("bestmove");
        assert!(
            lines[0].starts_with("info string position refused under awale: move 1 (F)")
                && lines[0].ends_with("answered under abapa, where it can be played"),
            "{lines:?}"
        );
        let letter = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(('a'..='f').any(|c| letter.starts_with(c)), "{lines:?}");
        // The rules in force are unchanged.
        assert_eq!(h.protocol.rules, Rules::AWALE);
    }

    #[test]
    fn a_move_no_rules_allow_is_refused_and_answered_without_a_move() {
        let mut h = Harness::new();
        h.search("position startpos", "go depth 2");
        // South plays twice in a row: no rules allow it.
        h.send("position startpos moves FF");
        assert!(h.take()[0].starts_with("info string position not set"));
        h.send("go depth 2");
        assert_eq!(
            h.wait_for("bestmove").last().map(String::as_str),
            Some("bestmove 0000")
        );
    }

    #[test]
    fn the_rules_without_setoption_are_abapa_and_uci_says_so() {
        let mut h = Harness::new();
        assert_eq!(h.protocol.rules, Rules::ABAPA);
        h.send("uci");
        let lines = h.take();
        assert_eq!(
            lines[2],
            "info string rules abapa: tournament Oware (Abapa); \
             `setoption name Rules value awale` or `abapa` changes them"
        );
        assert!(lines
            .iter()
            .any(|l| l == "option name Rules type combo default abapa var awale var abapa"));
        // The grand slam is legal, capturing nothing.
        let lines = h.search(
            "position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S moves F",
            "go depth 4",
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
    }

    #[test]
    fn set_rules_are_the_defaults_uci_lists() {
        let mut h = Harness::new();
        h.protocol.set_rules(Rules::AWALE);
        h.send("uci");
        let lines = h.take();
        for expected in [
            "info string rules awale: Awale, grand slam forbidden; \
             `setoption name Rules value awale` or `abapa` changes them",
            "option name Rules type combo default awale var awale var abapa",
            "option name GrandSlam type combo default forbidden var forbidden var no_capture",
            "option name Repetition type combo default nobody var nobody var own_row",
            "option name Target type spin default 0 min 0 max 48",
            "option name OwnBook type check default true",
            "option name MateScores type check default false",
        ] {
            assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
        }
    }

    #[test]
    fn own_book_takes_true_or_false() {
        let mut h = Harness::new();
        h.send("setoption name OwnBook value false");
        assert!(!h.protocol.own_book);
        h.send("setoption name OwnBook value true");
        assert!(h.protocol.own_book);
        assert!(h.take().is_empty());
        h.send("setoption name OwnBook value maybe");
        assert!(h.take()[0].starts_with("info string"));
    }

    fn moves(letters: &str) -> Vec<Move> {
        parse_moves(letters).unwrap()
    }

    #[test]
    fn the_pv_is_one_word_and_heuristic_scores_are_cp() {
        let game = Game::new(Rules::ABAPA);
        let info = SearchInfo {
            depth: 3,
            seldepth: 5,
            score: Score::cp(-45),
            nodes: 100,
            time: Duration::from_millis(2),
            pv: moves("FfA"),
            hashfull: 0,
        };
        let line = info_line(&info, &game, DecidedScores::Margin);
        assert!(
            line.ends_with(" score cp -45 nodes 100 nps 50000 time 2 pv FfA"),
            "{line}"
        );
    }

    #[test]
    fn a_decided_score_is_the_final_margin_in_cp_or_mate_when_asked() {
        // North plays its last seed into South's row; South cannot feed
        // North back: the game ends, South takes its seed, 23 to 25.
        let start: Position = "0-0-0-0-0-0-0-0-0-0-0-1-22-25-N".parse().unwrap();
        let game = Game::from_position(Rules::AWALE, start);
        assert_eq!(
            score_words(Score::win_in(1), &game, &moves("f"), DecidedScores::Margin),
            "cp 200"
        );
        // A line cut short: the lead no play can take away.
        let won: Position = "0-0-0-0-0-0-1-0-0-0-0-0-30-17-N".parse().unwrap();
        let game = Game::from_position(Rules::AWALE, won);
        for (score, asked, words) in [
            // North to move, 17 + 1 against 30: lost by at least 12 seeds.
            (Score::loss_in(2), DecidedScores::Margin, "cp -1200"),
            (Score::loss_in(0), DecidedScores::Margin, "cp -1200"),
            // An oracle's proof carries its margin.
            (Score::proven(-3), DecidedScores::Margin, "cp -300"),
            (Score::proven(6), DecidedScores::Mate, "cp 600"),
            // `MateScores`: the side to move's moves to the end.
            (Score::win_in(7), DecidedScores::Mate, "mate 4"),
            (Score::loss_in(4), DecidedScores::Mate, "mate -2"),
            // A loss in an odd number of plies ends on the side's own move.
            (Score::loss_in(3), DecidedScores::Mate, "mate -2"),
            (Score::loss_in(1), DecidedScores::Mate, "mate -1"),
            (Score::win_in(1), DecidedScores::Mate, "mate 1"),
            // Over already: no `mate 0`, which would not say who won.
            (Score::loss_in(0), DecidedScores::Mate, "cp -1200"),
        ] {
            assert_eq!(score_words(score, &game, &[], asked), words, "{score:?}");
        }
    }

    #[test]
    fn mate_scores_is_an_option() {
        let mut h = Harness::new();
        h.send("setoption name MateScores value true");
        assert_eq!(h.protocol.decided, DecidedScores::Mate);
        h.send("setoption name MateScores value false");
        assert_eq!(h.protocol.decided, DecidedScores::Margin);
        assert!(h.take().is_empty());
        h.send("setoption name MateScores value 1");
        assert!(h.take()[0].starts_with("info string option MateScores"));
    }

    #[test]
    fn a_line_too_long_is_skipped_without_being_kept() {
        let long = vec![b'x'; 3 * MAX_LINE_BYTES];
        let mut input = Vec::new();
        input.extend_from_slice(b"isready\n");
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\nuci\nlast");
        let mut reader = io::BufReader::with_capacity(4096, &input[..]);
        let mut buffer = Vec::new();
        assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
        assert_eq!(buffer, b"isready");
        assert_eq!(
            read_line(&mut reader, &mut buffer).unwrap(),
            LineRead::TooLong(3 * MAX_LINE_BYTES)
        );
        // What a vector that doubles may hold: not the line.
        assert!(buffer.capacity() <= 2 * MAX_LINE_BYTES);
        assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
        assert_eq!(buffer, b"uci");
        assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
        assert_eq!(buffer, b"last");
        assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::End);
    }

    #[test]
    fn a_malformed_go_still_answers() {
        let mut h = Harness::new();
        h.send("go depth x movetime 30 frobnicate searchmoves F");
        let lines = h.wait_for("bestmove");
        assert!(
            lines
                .iter()
                .filter(|l| l.starts_with("info string"))
                .count()
                >= 3
        );
    }

    #[test]
    fn garbage_never_panics() {
        let mut h = Harness::new();
        let mut rng = StdRng::seed_from_u64(0x1234_5678_9abc_def0);
        let words = [
            "go",
            "position",
            "setoption",
            "name",
            "value",
            "moves",
            "fen",
            "startpos",
            "depth",
            "movetime",
            "1",
            "-5",
            "F",
            "a",
            "FfAa",
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "stop",
            "isready",
            "ponderhit",
            "ucinewgame",
            "Hash",
            "Level",
            "\u{0}",
            "é",
            "999999999999",
        ];
        for _ in 0..2000 {
            let n = rng.random_range(0..6);
            let line: Vec<&str> = (0..n)
                .map(|_| words[rng.random_range(0..words.len())])
                .collect();
            let line = line.join(" ").replace("go", "go depth 2");
            h.send(&line);
        }
        h.send("stop");
        assert_eq!(h.send("quit"), Flow::Quit);
    }

    #[test]
    fn go_right_after_bestmove_is_searched() {
        // A match program sends the next `go` the moment it reads
        // `bestmove`, before the search thread has quite ended.
        let mut h = Harness::new();
        for i in 0..50 {
            h.search("position startpos", "go depth 1");
            let lines = h.search("position startpos moves F", "go depth 1");
            assert!(
                !lines.iter().any(|l| l.contains("already searching")),
                "round {i}: {lines:?}"
            );
        }
    }

    #[test]
    fn the_oracle_is_chosen_again_when_the_rules_change() {
        let mut h = Harness::new();
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = Arc::clone(&asked);
        h.protocol.set_oracle_source(Box::new(move |rules: &Rules| {
            log.lock().unwrap().push(*rules);
            None
        }));
        for line in [
            "go depth 1",
            "go depth 1",
            "setoption name Rules value awale",
            "go depth 1",
        ] {
            h.send(line);
            if line.starts_with("go") {
                h.wait_for("bestmove");
            }
        }
        assert_eq!(*asked.lock().unwrap(), [Rules::ABAPA, Rules::AWALE]);
    }

    #[test]
    fn quit_stops_a_running_search() {
        let mut h = Harness::new();
        h.send("go infinite");
        assert_eq!(h.send("quit"), Flow::Quit);
        assert!(h.take().iter().any(|l| l.starts_with("bestmove")));
    }
}
