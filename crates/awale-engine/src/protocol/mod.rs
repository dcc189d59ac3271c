//! The engine's side of the text protocol of Oware engines and GUIs, a
//! dialect of UCI: lines in, lines out. [`Protocol`] is a state machine fed
//! one line at a time; it writes its replies through an output function, so
//! it runs the same under `awale uci` (stdin and stdout) and in tests.
//!
//! The search runs on its own thread: `stop`, `isready` and `ponderhit` are
//! answered while it thinks. `docs/PROTOCOL.md` describes every command.
//!
//! Here the protocol's state and the search it runs; `commands` reads the
//! lines (`position`, `go`), `output` writes what the engine says (`info`,
//! `bestmove`, scores in words), `options` identifies the engine and sets
//! its options.

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

mod commands;
mod options;
mod output;

pub use commands::{read_line, Go, LineRead, PositionCommand, MAX_LINE_BYTES};
pub use options::{ENGINE_AUTHOR, ENGINE_NAME, MAX_HASH_MB, MAX_THREADS};
pub use output::{bestmove_line, decided_margin, info_line, score_words, DecidedScores, Output};

/// Gives the endgame oracle for a rule set, if there is one (e.g. from the
/// endgame databases on disk). Called again whenever the rules change.
pub type OracleSource = Box<dyn FnMut(&Rules) -> Option<Arc<dyn Oracle>> + Send>;

/// Whether the protocol goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: the search is stopped, the program may end.
    Quit,
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

impl Drop for Protocol {
    fn drop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }
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

#[cfg(test)]
mod tests;
