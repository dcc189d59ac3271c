//! Who plays in a match: a player's spec (`depth=6,threads=2`,
//! `tc=2+0.05`, `cmd=PROGRAM`), read from text, with its limits and name.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use awale_engine::eval::Evaluations;
use awale_engine::protocol::{MAX_HASH_MB, MAX_THREADS};
use awale_engine::{Clock, EngineOptions, Level, Limits, Oracle, SearchParams};

/// Whether `limits` sets none of depth, nodes, move time and clock.
fn unlimited(limits: &Limits) -> bool {
    limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.clock.is_none()
}

/// An endgame oracle given to our engine (shown by `Debug` only as being
/// there).
#[derive(Clone)]
pub struct SharedOracle(pub Arc<dyn Oracle>);

impl fmt::Debug for SharedOracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedOracle(up to {} seeds)", self.0.max_seeds())
    }
}

/// Which engine a player is.
#[derive(Clone, Debug)]
pub enum PlayerKind {
    /// Our engine, in this process.
    Ours {
        /// Play at this level (its own way of choosing) instead of searching
        /// within the limits.
        level: Option<Level>,
        /// Hash and threads.
        options: EngineOptions,
        /// Evaluation tables other than the built-in ones (for tuning).
        evaluations: Option<Arc<Evaluations>>,
        /// Search settings other than the defaults (for experiments).
        params: Option<SearchParams>,
        /// Endgame databases to search with.
        oracle: Option<SharedOracle>,
    },
    /// A program speaking the protocol.
    External {
        /// The program and its arguments.
        command: Vec<String>,
        /// `setoption` pairs sent after the handshake.
        options: Vec<(String, String)>,
    },
}

/// One side of a match, as written on the command line:
/// `level=3`, `depth=8,threads=1`, `tc=10+0.1,hash=64`,
/// `movetime=100,name=old,cmd=./old-awale uci`.
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    /// The name in results and records.
    pub name: String,
    /// Which engine.
    pub kind: PlayerKind,
    /// How long it thinks per move: any of depth, nodes and move time, and
    /// a clock (its time for the whole game, and its increment).
    pub limits: Limits,
}

impl PlayerSpec {
    /// Our engine, named `name`, searching within `limits` with default
    /// settings.
    pub fn ours(name: impl Into<String>, limits: Limits) -> PlayerSpec {
        PlayerSpec {
            name: name.into(),
            kind: PlayerKind::Ours {
                level: None,
                options: EngineOptions::default(),
                evaluations: None,
                params: None,
                oracle: None,
            },
            limits,
        }
    }

    /// The same player with other evaluation tables (our engine only: an
    /// external engine is left as it is).
    pub fn with_evaluations(mut self, new: Arc<Evaluations>) -> PlayerSpec {
        if let PlayerKind::Ours { evaluations, .. } = &mut self.kind {
            *evaluations = Some(new);
        }
        self
    }

    /// The same player with other search settings (our engine only).
    pub fn with_params(mut self, new: SearchParams) -> PlayerSpec {
        if let PlayerKind::Ours { params, .. } = &mut self.kind {
            *params = Some(new);
        }
        self
    }

    /// The same player searching with endgame databases (our engine only).
    pub fn with_oracle(mut self, new: Arc<dyn Oracle>) -> PlayerSpec {
        if let PlayerKind::Ours { oracle, .. } = &mut self.kind {
            *oracle = Some(SharedOracle(new));
        }
        self
    }
}

/// A player specification that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// Reads `10`, `0.5`, `10+0.1` (seconds) as a game clock.
fn parse_clock(text: &str) -> Option<Clock> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
    };
    Some(Clock {
        remaining: seconds(base).filter(|b| !b.is_zero())?,
        increment: seconds(increment)?,
        moves_to_go: None,
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// Comma-separated `key=value` pairs. Keys: `level`, `depth`, `nodes`,
    /// `movetime` (ms), `tc` (seconds, `base+increment`), `threads`,
    /// `hash` (MiB), `name`, `option.NAME` (external engines), and `cmd`,
    /// which must come last and takes the rest of the text: the command,
    /// split at spaces.
    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        let bad = |m: String| SpecError(format!("player `{s}`: {m}"));
        let (pairs, command) = match s.find("cmd=") {
            Some(at) if at == 0 || s[..at].ends_with(',') => {
                let words: Vec<String> = s[at + 4..].split_whitespace().map(String::from).collect();
                if words.is_empty() {
                    return Err(bad("`cmd=` needs a command".into()));
                }
                (s[..at].trim_end_matches(','), Some(words))
            }
            _ => (s, None),
        };
        let mut name = None;
        let mut level = None;
        let mut limits = Limits::default();
        let mut options = EngineOptions::default();
        let mut engine_options = Vec::new();
        let mut ours_only = Vec::new();
        for pair in pairs.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| bad(format!("`{pair}` is not key=value")))?;
            let (key, value) = (key.trim(), value.trim());
            let number = |max: u64| -> Result<u64, SpecError> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| bad(format!("{key}: `{value}` is not a number from 1 to {max}")))
            };
            match key {
                "name" => name = Some(value.to_string()),
                "level" => {
                    let found = value.parse::<u8>().ok().and_then(Level::from_number);
                    level = Some(found.ok_or_else(|| {
                        bad(format!(
                            "level: `{value}` is not a level (levels go from 1 to {})",
                            Level::ALL.len()
                        ))
                    })?);
                    ours_only.push(key);
                }
                "depth" => limits.depth = Some(number(1000)? as u32),
                "nodes" => limits.nodes = Some(number(u64::MAX)?),
                "movetime" => limits.movetime = Some(Duration::from_millis(number(1 << 40)?)),
                "tc" => {
                    limits.clock = Some(parse_clock(value).ok_or_else(|| {
                        bad(format!("tc: `{value}` is not seconds or seconds+increment"))
                    })?)
                }
                "threads" => {
                    options.threads = number(MAX_THREADS as u64)? as usize;
                    engine_options.push(("Threads".to_string(), value.to_string()));
                }
                "hash" => {
                    options.hash_mb = number(MAX_HASH_MB as u64)? as usize;
                    engine_options.push(("Hash".to_string(), value.to_string()));
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        engine_options.push((option.to_string(), value.to_string()));
                        ours_only.retain(|k| *k != "option");
                        if command.is_none() {
                            return Err(bad(format!(
                                "`{key}` is for external engines (with cmd=)"
                            )));
                        }
                    }
                    _ => return Err(bad(format!("unknown key `{key}`"))),
                },
            }
        }
        let kind = match command {
            Some(command) => {
                if let Some(key) = ours_only.first() {
                    return Err(bad(format!(
                        "`{key}` is for our engine; for an external one use option.NAME=VALUE"
                    )));
                }
                if unlimited(&limits) {
                    return Err(bad(
                        "an external engine needs depth=, nodes=, movetime= or tc=".into(),
                    ));
                }
                let program = command[0]
                    .rsplit('/')
                    .next()
                    .unwrap_or("engine")
                    .to_string();
                name.get_or_insert(program);
                PlayerKind::External {
                    command,
                    options: engine_options,
                }
            }
            None => {
                if level.is_some() && (limits.depth.is_some() || limits.nodes.is_some()) {
                    return Err(bad(
                        "a level chooses its own depth: give level= or depth=/nodes=, not both"
                            .into(),
                    ));
                }
                if level.is_none() && unlimited(&limits) {
                    return Err(bad(
                        "give level=, depth=, nodes=, movetime= or tc= for our engine".into(),
                    ));
                }
                name.get_or_insert_with(|| match level {
                    Some(l) => format!("level {}", l.number()),
                    None => describe_limits(&limits),
                });
                PlayerKind::Ours {
                    level,
                    options,
                    evaluations: None,
                    params: None,
                    oracle: None,
                }
            }
        };
        Ok(PlayerSpec {
            name: name.unwrap_or_default(),
            kind,
            limits,
        })
    }
}

/// `depth 8`, `movetime 100 ms`, `tc 10+0.1`, for default names.
fn describe_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(t) = limits.movetime {
        parts.push(format!("movetime {} ms", t.as_millis()));
    }
    if let Some(c) = limits.clock {
        parts.push(format!(
            "tc {}+{}",
            c.remaining.as_secs_f64(),
            c.increment.as_secs_f64()
        ));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_read() {
        let p: PlayerSpec = "level=2".parse().unwrap();
        assert_eq!(p.name, "level 2");
        assert!(matches!(p.kind, PlayerKind::Ours { level: Some(_), .. }));
        let p: PlayerSpec = "depth=6,threads=2,hash=32,name=deep".parse().unwrap();
        assert_eq!(p.name, "deep");
        assert_eq!(p.limits.depth, Some(6));
        match p.kind {
            PlayerKind::Ours { options, level, .. } => {
                assert_eq!(options.threads, 2);
                assert_eq!(options.hash_mb, 32);
                assert_eq!(level, None);
            }
            other => panic!("{other:?}"),
        }
        let p: PlayerSpec = "tc=2+0.05,option.Hash=8,cmd=/usr/bin/awale uci --flag"
            .parse()
            .unwrap();
        assert_eq!(p.name, "awale");
        assert_eq!(
            p.limits.clock,
            Some(Clock {
                remaining: Duration::from_secs(2),
                increment: Duration::from_millis(50),
                moves_to_go: None,
            })
        );
        match p.kind {
            PlayerKind::External { command, options } => {
                assert_eq!(command, ["/usr/bin/awale", "uci", "--flag"]);
                assert_eq!(options, [("Hash".to_string(), "8".to_string())]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_player_specs_say_why() {
        for (spec, expected) in [
            ("", "give level="),
            ("level=0", "`0` is not a level (levels go from 1 to"),
            ("level=99", "`99` is not a level"),
            ("level=x", "`x` is not a level"),
            ("depth=x", "depth"),
            ("speed=3", "unknown key"),
            ("depth", "not key=value"),
            ("level=2,depth=4", "not both"),
            ("cmd=", "needs a command"),
            ("cmd=./engine", "needs depth="),
            ("level=2,movetime=5,cmd=./engine", "for our engine"),
            ("option.Hash=4,depth=2", "external engines"),
            ("tc=fast", "tc"),
            ("tc=0", "tc"),
        ] {
            let e = spec.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(expected), "{spec}: {e}");
        }
        // The levels' range is the engine's ladder.
        let e = "level=0".parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(
            e.contains(&format!("from 1 to {})", Level::ALL.len())),
            "{e}"
        );
    }
}
