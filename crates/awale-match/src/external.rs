//! An engine in a child process that speaks the protocol (ours, through
//! `awale uci`, or any other Oware engine), driven over its standard input
//! and output. Every wait has a time-out, and an engine that crashes, closes
//! its output or stops answering is reported with a clear error naming it
//! and, when it wrote any, the last lines of its standard error.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use awale_core::{Game, Move, Rules};

use awale_engine::protocol::{Go, PositionCommand};

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `bestmove` after `stop`.
pub const STOP_GRACE: Duration = Duration::from_secs(1);
/// Lines of standard error kept for error messages.
const STDERR_LINES: usize = 8;

/// What went wrong with an external engine.
#[derive(Debug)]
pub enum ExternalError {
    /// The command could not be started.
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        error: io::Error,
    },
    /// The engine's output ended: it exited or crashed.
    Exited {
        /// The engine's name.
        name: String,
        /// Its exit status, if it was collected.
        status: Option<ExitStatus>,
        /// The last lines of its standard error.
        stderr: String,
    },
    /// The engine did not answer in time.
    Timeout {
        /// The engine's name.
        name: String,
        /// The answer awaited (`uciok`, `readyok`, `bestmove`).
        awaited: &'static str,
        /// How long it was given.
        after: Duration,
    },
    /// The engine answered something that is not the protocol.
    Protocol {
        /// The engine's name.
        name: String,
        /// What was wrong.
        message: String,
    },
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExternalError::Spawn { command, error } => {
                write!(f, "cannot start engine `{command}`: {error}")
            }
            ExternalError::Exited {
                name,
                status,
                stderr,
            } => {
                write!(f, "engine {name} stopped answering: ")?;
                match status {
                    Some(s) => write!(f, "it exited ({s})")?,
                    None => write!(f, "its output closed")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; its last error output: {stderr}")?;
                }
                Ok(())
            }
            ExternalError::Timeout {
                name,
                awaited,
                after,
            } => write!(
                f,
                "engine {name} did not answer `{awaited}` within {:.1} s",
                after.as_secs_f64()
            ),
            ExternalError::Protocol { name, message } => write!(f, "engine {name}: {message}"),
        }
    }
}

impl std::error::Error for ExternalError {}

/// Whether an engine without a `Rules` option can play `rules`: such an
/// engine is taken to play tournament Oware, `abapa` (who moves first does
/// not matter: a match's openings start with South).
pub fn plays_without_rules_option(rules: &Rules) -> bool {
    Rules {
        first: Rules::ABAPA.first,
        ..*rules
    } == Rules::ABAPA
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, `None` for `bestmove 0000`.
    pub best: Option<Move>,
    /// The last `info ... score ...` it gave, e.g. `cp 35` or `mate 4`.
    pub score: Option<String>,
    /// The last depth it reported.
    pub depth: Option<u32>,
}

/// An engine running in a child process.
pub struct ExternalEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Option names it listed after `uci`, lowercased.
    options: Vec<String>,
    /// How long `uciok` and `readyok` may take.
    handshake: Duration,
}

impl ExternalEngine {
    /// Starts `command` (the program, then its arguments), runs the `uci`
    /// handshake, sets `options` and waits for `readyok`, giving each
    /// answer `handshake` (e.g. [`HANDSHAKE_TIMEOUT`]); later `isready`s get
    /// the same.
    ///
    /// # Errors
    ///
    /// [`ExternalError`] if it cannot start, exits, or does not answer.
    pub fn start(
        command: &[String],
        options: &[(String, String)],
        handshake: Duration,
    ) -> Result<ExternalEngine, ExternalError> {
        let shown = command.join(" ");
        let (program, args) = command.split_first().ok_or_else(|| ExternalError::Spawn {
            command: shown.clone(),
            error: io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| ExternalError::Spawn {
                command: shown.clone(),
                error,
            })?;
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(ExternalError::Spawn {
                command: shown,
                error: io::Error::other("no pipes to the child process"),
            });
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut buffer = Vec::new();
            while matches!(reader.read_until(b'\n', &mut buffer), Ok(n) if n > 0) {
                let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                buffer.clear();
                if let Ok(mut tail) = tail.lock() {
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            }
        });
        let mut engine = ExternalEngine {
            name: program_name(program),
            child,
            stdin,
            lines,
            stderr,
            options: Vec::new(),
            handshake,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + handshake;
        loop {
            let line = engine.receive(deadline, "uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => break,
                (Some("id"), Some("name")) => {
                    let name = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        engine.name = name;
                    }
                }
                (Some("option"), Some("name")) => {
                    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    engine.options.push(name.join(" ").to_ascii_lowercase());
                }
                _ => {}
            }
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.sync()?;
        Ok(engine)
    }

    /// The engine's name: its `id name`, or the program's file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the engine listed an option of this name after `uci`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains(&name.to_ascii_lowercase())
    }

    /// Starts a new game under `rules`: sets its `Rules` option when it has
    /// one, sends `ucinewgame` and waits for `readyok`. An engine without
    /// the option is taken to play tournament Oware (`abapa`), as such
    /// engines do.
    ///
    /// # Errors
    ///
    /// [`ExternalError::Protocol`] when the engine has no `Rules` option
    /// and the rules are not `abapa`; otherwise as
    /// [`ExternalEngine::start`].
    pub fn new_game(&mut self, rules: &Rules) -> Result<(), ExternalError> {
        if self.has_option("Rules") {
            self.send(&format!("setoption name Rules value {rules}"))?;
        } else if !plays_without_rules_option(rules) {
            return Err(ExternalError::Protocol {
                name: self.name.clone(),
                message: format!(
                    "it has no `Rules` option: it plays abapa and cannot be told to play {rules}"
                ),
            });
        }
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `isready`, then waits for `readyok`.
    fn sync(&mut self) -> Result<(), ExternalError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.handshake;
        while self.receive(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// Sends the game's position and `go`, and waits for `bestmove`. After
    /// `timeout` it sends `stop` and gives the engine [`STOP_GRACE`] more.
    ///
    /// # Errors
    ///
    /// [`ExternalError::Timeout`] if no `bestmove` came even after `stop`,
    /// [`ExternalError::Protocol`] for a `bestmove` that is not a move,
    /// otherwise as [`ExternalEngine::start`].
    pub fn go(&mut self, game: &Game, go: &Go, timeout: Duration) -> Result<Answer, ExternalError> {
        self.send(&PositionCommand::of_game(game).to_string())?;
        self.send(&go.to_string())?;
        let mut deadline = Instant::now() + timeout;
        let mut stopped = false;
        let mut answer = Answer {
            best: None,
            score: None,
            depth: None,
        };
        loop {
            let line = match self.receive(deadline, "bestmove") {
                Err(ExternalError::Timeout { .. }) if !stopped => {
                    self.send("stop")?;
                    stopped = true;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                Err(ExternalError::Timeout { name, awaited, .. }) => {
                    return Err(ExternalError::Timeout {
                        name,
                        awaited,
                        after: timeout + STOP_GRACE,
                    })
                }
                other => other?,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => read_info(&words, &mut answer),
                Some(&"bestmove") => {
                    let Some(text) = words.get(1) else {
                        return Err(self.protocol_error("`bestmove` without a move"));
                    };
                    answer.best = match *text {
                        "0000" | "(none)" | "none" => None,
                        t => Some(t.parse::<Move>().map_err(|_| {
                            self.protocol_error(&format!("`bestmove {t}` is not a move"))
                        })?),
                    };
                    return Ok(answer);
                }
                _ => {}
            }
        }
    }

    fn protocol_error(&self, message: &str) -> ExternalError {
        ExternalError::Protocol {
            name: self.name.clone(),
            message: message.to_string(),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited()),
        }
    }

    /// The next line, waiting until `deadline`.
    fn receive(
        &mut self,
        deadline: Instant,
        awaited: &'static str,
    ) -> Result<String, ExternalError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ExternalError::Timeout {
                name: self.name.clone(),
                awaited,
                after: left,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// The error for an engine whose pipes closed, with its exit status
    /// when it comes within a moment.
    fn exited(&mut self) -> ExternalError {
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        // The stderr reader may still be draining the last lines.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self
            .stderr
            .lock()
            .map(|tail| tail.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default();
        ExternalError::Exited {
            name: self.name.clone(),
            status,
            stderr,
        }
    }
}

impl Drop for ExternalEngine {
    /// Asks the engine to quit, and kills it if it has not within a moment.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The file name of a program path, as a name for messages.
fn program_name(program: &str) -> String {
    std::path::Path::new(program)
        .file_name()
        .map_or_else(|| program.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Keeps the score and depth of an `info` line.
fn read_info(words: &[&str], answer: &mut Answer) {
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    answer.depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                if let (Some(kind), Some(value)) = (words.get(i + 1), words.get(i + 2)) {
                    answer.score = Some(format!("{kind} {value}"));
                }
                i += 3;
            }
            "string" | "pv" => break,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn a_missing_program_is_named_in_the_error() {
        let e = ExternalEngine::start(&["/nonexistent/engine".to_string()], &[], HANDSHAKE_TIMEOUT)
            .err()
            .expect("cannot start");
        assert!(e.to_string().contains("/nonexistent/engine"), "{e}");
    }

    #[test]
    fn an_engine_that_exits_at_once_is_reported_with_its_stderr() {
        let e = ExternalEngine::start(
            &shell("echo 'out of memory' >&2; exit 3"),
            &[],
            HANDSHAKE_TIMEOUT,
        )
        .err()
        .expect("it exits");
        let text = e.to_string();
        assert!(text.contains("exit status: 3"), "{text}");
        assert!(text.contains("out of memory"), "{text}");
    }

    #[test]
    fn an_engine_that_never_answers_uci_times_out() {
        // `sleep` reads nothing and answers nothing.
        let started = Instant::now();
        let e = ExternalEngine::start(&shell("exec sleep 30"), &[], Duration::from_millis(300))
            .err()
            .expect("times out");
        assert!(
            matches!(
                e,
                ExternalError::Timeout {
                    awaited: "uciok",
                    ..
                }
            ),
            "{e}"
        );
        // Dropping the engine killed the child, without waiting 30 s.
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_scripted_engine_plays_its_move() {
        // A tiny engine in shell: answers the handshake, then always plays F.
        let script = r#"
            while read line; do
              case "$line" in
                uci) echo "id name Scripted"; echo "option name Hash type spin default 1 min 1 max 1"; echo uciok;;
                isready) echo readyok;;
                go*) echo "info depth 3 score cp -20 pv F"; echo "bestmove F";;
                quit) exit 0;;
              esac
            done"#;
        let mut engine = ExternalEngine::start(&shell(script), &[], HANDSHAKE_TIMEOUT).unwrap();
        assert_eq!(engine.name(), "Scripted");
        assert!(engine.has_option("hash"));
        // It has no Rules option: it plays abapa, and cannot be told awale.
        assert!(engine.new_game(&Rules::AWALE).is_err());
        engine.new_game(&Rules::ABAPA).unwrap();
        let answer = engine
            .go(
                &Game::new(Rules::ABAPA),
                &"go depth 3".parse().unwrap(),
                Duration::from_secs(5),
            )
            .unwrap();
        assert_eq!(answer.best, Move::from_letter('F'));
        assert_eq!(answer.score.as_deref(), Some("cp -20"));
        assert_eq!(answer.depth, Some(3));
    }

    /// Starts an engine in shell that answers the handshake and does
    /// `on_go` when asked to move, then asks it `go` for the start position.
    fn go_with(on_go: &str, go: &str, timeout: Duration) -> Result<Answer, ExternalError> {
        let script = format!(
            "while read line; do case \"$line\" in uci) echo uciok;; \
             isready) echo readyok;; go*) {on_go};; esac; done"
        );
        let mut engine = ExternalEngine::start(&shell(&script), &[], HANDSHAKE_TIMEOUT)?;
        engine.go(&Game::new(Rules::AWALE), &go.parse().unwrap(), timeout)
    }

    #[test]
    fn an_engine_that_ignores_stop_times_out_after_the_grace() {
        let e = go_with(":", "go movetime 10", Duration::from_millis(100)).unwrap_err();
        assert!(
            matches!(
                e,
                ExternalError::Timeout {
                    awaited: "bestmove",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_garbled_bestmove_is_a_protocol_error() {
        let e = go_with("echo bestmove e2e4", "go depth 1", Duration::from_secs(5)).unwrap_err();
        assert!(e.to_string().contains("e2e4"), "{e}");
    }

    #[test]
    fn an_engine_crashing_mid_search_is_reported() {
        let on_go = "echo segfault >&2; exit 139";
        let e = go_with(on_go, "go depth 1", Duration::from_secs(5)).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("139") && text.contains("segfault"), "{text}");
    }
}
