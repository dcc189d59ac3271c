//! Matches between two engines: ours with chosen settings, or any program
//! that speaks the protocol. Each opening of a list is played twice, once
//! with each engine as South; one or two games run at a time; the result is
//! a tally, an Elo difference with its 95% interval, optionally an SPRT
//! decision, and every game as a record.
//!
//! `awale match` is the command-line face of this crate; the examples
//! (`examples/`: `ladder`, `tune`, `variants`) use it for quick in-process
//! matches.
//!
//! ```
//! use awale_core::Rules;
//! use awale_match::{openings, run_match, MatchConfig, PlayerSpec};
//!
//! let config = MatchConfig {
//!     openings: openings::parse_openings("FfAa\n", Rules::AWALE).unwrap(),
//!     games: 2,
//!     ..MatchConfig::default()
//! };
//! let deeper: PlayerSpec = "depth=3".parse().unwrap();
//! let shallow: PlayerSpec = "depth=1".parse().unwrap();
//! let summary = run_match(&config, &deeper, &shallow, &mut |_, _| {}).unwrap();
//! assert_eq!(summary.tally.games(), 2);
//! ```
#![deny(missing_docs)]

pub mod elo;
pub mod external;
pub mod openings;
mod spec;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use awale_core::{leader, result_text, EndReason, FirstPlayer, Game, Move, Record, Rules, Side};
use awale_engine::protocol::Go;
use awale_engine::{choose_move, Engine, Level, Limits};
use elo::{Sprt, SprtDecision, Tally};
pub use external::plays_without_rules_option;
use external::{ExternalEngine, ExternalError};
use openings::Opening;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
pub use spec::{PlayerKind, PlayerSpec, SharedOracle, SpecError};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The openings, each played with both colours, in order, again from
    /// the first when the games outnumber them.
    pub openings: Vec<Opening>,
    /// Games to play (rounded up to pairs).
    pub games: usize,
    /// Games played at a time: 1 or 2.
    pub concurrency: usize,
    /// A game still going after this many plies is adjudicated.
    pub max_plies: usize,
    /// End a game as soon as one store holds more than half the seeds (the
    /// result cannot change any more).
    pub adjudicate_decided: bool,
    /// Longest wait for a move when no clock or move time bounds it.
    pub move_timeout: Duration,
    /// How far past its clock a player may go before losing on time.
    pub time_margin: Duration,
    /// Stop early once this test decides.
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            rules: Rules::AWALE,
            openings: Vec::new(),
            games: 0,
            concurrency: 1,
            max_plies: 400,
            adjudicate_decided: true,
            move_timeout: Duration::from_secs(60),
            time_margin: Duration::from_millis(200),
            sprt: None,
        }
    }
}

/// How a game of a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (starvation, repetition, target, ...).
    Rules(EndReason),
    /// Stopped and scored by the match: a store holds more than half the
    /// seeds, or the ply limit was reached. The text says which.
    Adjudication(String),
    /// A player failed (crashed, overran its time, played an illegal move,
    /// answered no move); the text says who and how. It loses the game.
    Forfeit(String),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(reason) => f.write_str(reason.name()),
            Termination::Adjudication(why) => write!(f, "adjudication: {why}"),
            Termination::Forfeit(why) => write!(f, "forfeit: {why}"),
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based game number, in the order games were started.
    pub round: usize,
    /// Whether the first player (A) was South.
    pub a_is_south: bool,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub termination: Termination,
    /// The game as a record, with the players' names.
    pub record: Record,
}

impl GameReport {
    /// The first player's half-points: 2 for a win, 1 for a draw, 0.
    pub fn a_half_points(&self) -> u8 {
        let a_side = if self.a_is_south {
            Side::South
        } else {
            Side::North
        };
        match self.winner {
            None => 1,
            Some(side) if side == a_side => 2,
            Some(_) => 0,
        }
    }
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// The first player's wins, draws and losses.
    pub tally: Tally,
    /// The SPRT's decision, if it stopped the match.
    pub sprt: Option<SprtDecision>,
    /// The names of the two players.
    pub names: [String; 2],
}

/// Why a match could not go on.
#[derive(Debug)]
pub enum MatchError {
    /// The configuration cannot be played.
    Config(String),
    /// An external engine cannot be started (or restarted).
    Engine(ExternalError),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(m) => f.write_str(m),
            MatchError::Engine(e) => e.fmt(f),
        }
    }
}

// `Engine` shows its engine error as its own message, so its source is
// that error's source (it would be printed twice otherwise).
impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Config(_) => None,
            MatchError::Engine(e) => e.source(),
        }
    }
}

/// A player ready to play: our engine, or an external one running.
enum Player {
    Ours {
        engine: Box<Engine>,
        level: Option<Level>,
        /// Draws the seeds of a level's choices, reproducibly.
        rng: Box<StdRng>,
    },
    External(Box<ExternalEngine>),
}

impl Player {
    /// The player of `spec`, started: our engine with its table, or the
    /// external engine's process.
    fn start(spec: &PlayerSpec, seed: u64) -> Result<Player, MatchError> {
        Ok(match &spec.kind {
            PlayerKind::Ours {
                level,
                options,
                evaluations,
                params,
                oracle,
            } => {
                // A table the memory cannot hold (`hash=`) is the match's
                // configuration refused, not a panic of its thread.
                let mut engine = Box::new(Engine::try_new(*options).map_err(|e| {
                    MatchError::Config(format!("{}: hash={}: {e}", spec.name, options.hash_mb))
                })?);
                if let Some(oracle) = oracle {
                    engine.set_oracle(Some(Arc::clone(&oracle.0)));
                }
                if let Some(evaluations) = evaluations {
                    engine.set_evaluations(Arc::clone(evaluations));
                }
                if let Some(params) = params {
                    engine.set_params(*params);
                }
                Player::Ours {
                    engine,
                    level: *level,
                    rng: Box::new(StdRng::seed_from_u64(seed)),
                }
            }
            PlayerKind::External { command, options } => Player::External(Box::new(
                ExternalEngine::start(command, options, external::HANDSHAKE_TIMEOUT)
                    .map_err(MatchError::Engine)?,
            )),
        })
    }

    fn new_game(&mut self, rules: &Rules) -> Result<(), ExternalError> {
        match self {
            Player::Ours { engine, .. } => {
                engine.new_game();
                Ok(())
            }
            Player::External(engine) => engine.new_game(rules),
        }
    }

    /// The player's move, or `None` when it claims there is none. Our
    /// engine is stopped at `timeout`.
    fn choose(
        &mut self,
        game: &Game,
        go: &Go,
        timeout: Duration,
    ) -> Result<Option<Move>, ExternalError> {
        match self {
            Player::External(engine) => Ok(engine.go(game, go, timeout)?.best),
            Player::Ours { engine, level, rng } => {
                let stop = AtomicBool::new(false);
                let (done, finished) = mpsc::channel::<()>();
                std::thread::scope(|scope| {
                    // A watchdog: sets `stop` at the time-out unless the
                    // search ends first (dropping `done` wakes it).
                    let watched = &stop;
                    scope.spawn(move || {
                        if finished.recv_timeout(timeout) == Err(mpsc::RecvTimeoutError::Timeout) {
                            watched.store(true, Ordering::Relaxed);
                        }
                    });
                    let best = match level {
                        Some(level) => choose_move(engine, game, *level, rng.random(), &stop),
                        None => {
                            let limits = go.limits(game.position().to_move());
                            engine.search(game, &limits, &stop, &mut |_| {}).best
                        }
                    };
                    drop(done);
                    Ok(best)
                })
            }
        }
    }
}

/// Today's date as records write it, `2026.11.29` (UTC).
fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    awale_core::record_date(seconds)
}

/// Who starts the games of the `pair`-th opening played (both its games,
/// so that each player starts one): the side the rules name, or under
/// `first=random` one drawn for the pair, the same at every run.
fn first_side(rules: &Rules, pair: usize) -> Side {
    match rules.first {
        FirstPlayer::Side(side) => side,
        FirstPlayer::Random => {
            let mut rng = StdRng::seed_from_u64(0xF1257 ^ pair as u64);
            Side::BOTH[usize::from(rng.random::<bool>())]
        }
    }
}

/// Plays one game between `players` (South's, North's) from `opening`,
/// the `round`-th of the match (counted from 1).
fn play_game(
    config: &MatchConfig,
    players: [&mut Player; 2],
    names: [&str; 2],
    limits: [&Limits; 2],
    opening: &Opening,
    round: usize,
    a_is_south: bool,
) -> Result<GameReport, MatchError> {
    let first = first_side(&config.rules, (round - 1) / 2);
    let mut game = opening
        .game(config.rules, first)
        .map_err(MatchError::Config)?;
    let mut clocks = limits.map(|l| l.clock.map(|c| c.remaining));
    let mut adjudicated: Option<(Option<Side>, String)> = None;
    let mut forfeit: Option<(Side, String)> = None;
    let mut players = players;
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(e) = player.new_game(&config.rules) {
            forfeit = Some((Side::BOTH[i], format!("{}: {e}", names[i])));
            break;
        }
    }
    while forfeit.is_none() && game.end().is_none() {
        let stores = game.position().stores();
        if config.adjudicate_decided {
            if let Some(side) = Side::BOTH
                .into_iter()
                .find(|s| stores[s.index()] > awale_core::TOTAL_SEEDS / 2)
            {
                adjudicated = Some((Some(side), format!("{side} has more than half the seeds")));
                break;
            }
        }
        if game.plies().len() >= config.max_plies {
            adjudicated = Some((
                leader(stores),
                format!("{} plies played; scored by the stores", config.max_plies),
            ));
            break;
        }
        let side = game.position().to_move();
        let me = side.index();
        let mine = limits[me];
        let mut go = Go {
            depth: mine.depth,
            nodes: mine.nodes,
            movetime: mine.movetime,
            ..Go::default()
        };
        if let Some(clock) = mine.clock {
            // Both clocks, as a GUI sends them; an opponent without a clock
            // is shown a full one.
            let theirs = clocks[1 - me].unwrap_or(clock.remaining);
            let (south, north) = if me == 0 {
                (clocks[0], Some(theirs))
            } else {
                (Some(theirs), clocks[1])
            };
            go.wtime = south;
            go.btime = north;
            go.winc = Some(clock.increment);
            go.binc = Some(clock.increment);
        }
        let timeout = match (clocks[me], mine.movetime) {
            (Some(left), _) => left + config.time_margin,
            (None, Some(t)) => t * 2 + Duration::from_secs(1),
            (None, None) => config.move_timeout,
        };
        let started = Instant::now();
        let chosen = players[me].choose(&game, &go, timeout);
        let spent = started.elapsed();
        let m = match chosen {
            Err(e) => {
                forfeit = Some((side, format!("{}: {e}", names[me])));
                break;
            }
            Ok(None) => {
                forfeit = Some((
                    side,
                    format!("{} answered no move (bestmove 0000)", names[me]),
                ));
                break;
            }
            Ok(Some(m)) => m,
        };
        if let (Some(left), Some(clock)) = (clocks[me], mine.clock) {
            if spent > left + config.time_margin {
                forfeit = Some((
                    side,
                    format!(
                        "{} lost on time ({} ms used, {} ms left)",
                        names[me],
                        spent.as_millis(),
                        left.as_millis()
                    ),
                ));
                break;
            }
            clocks[me] = Some(left.saturating_sub(spent) + clock.increment);
        } else if spent > timeout {
            forfeit = Some((
                side,
                format!(
                    "{} took {} ms, more than the {} ms allowed",
                    names[me],
                    spent.as_millis(),
                    timeout.as_millis()
                ),
            ));
            break;
        }
        if let Err(e) = game.play(m) {
            forfeit = Some((
                side,
                format!("{} played the illegal move {m}: {e}", names[me]),
            ));
            break;
        }
    }
    if let Some((side, _)) = &forfeit {
        // The side at fault resigns: the game then ends as the rules say.
        let _ = game.resign(*side);
    }
    let round_text = round.to_string();
    let date = today();
    // The opening as played (turned round when North starts).
    let opening_text: String = opening
        .moves_from(first)
        .iter()
        .map(|m| m.letter())
        .collect();
    let mut record = Record::from_game(
        &game,
        &[
            ("Event", "awale match"),
            ("Date", &date),
            ("Round", &round_text),
            ("South", names[0]),
            ("North", names[1]),
            ("Opening", &opening_text),
        ],
    );
    let (winner, termination) = if let Some((side, reason)) = forfeit {
        record.set_tag("Forfeit", format!("{side}: {reason}"));
        (Some(side.opponent()), Termination::Forfeit(reason))
    } else if let Some((winner, reason)) = adjudicated {
        let result = result_text(winner);
        record.result = result.to_string();
        record.set_tag("Result", result);
        record.set_tag("Termination", "adjudication");
        record.set_tag("Adjudication", reason.clone());
        (winner, Termination::Adjudication(reason))
    } else {
        let outcome = game
            .outcome()
            .ok_or_else(|| MatchError::Config("a game stopped before its end".into()))?;
        (outcome.winner, Termination::Rules(outcome.reason))
    };
    Ok(GameReport {
        round,
        a_is_south,
        winner,
        termination,
        record,
    })
}

/// A match ready to play: its players checked, external engines started.
pub struct Match<'a> {
    config: &'a MatchConfig,
    specs: [&'a PlayerSpec; 2],
    /// The players started by the checks, handed to the first worker.
    started: [Option<Player>; 2],
    notes: Vec<String>,
}

impl<'a> Match<'a> {
    /// Checks the configuration and starts the players once, so that what
    /// cannot be played fails here, before any game: an external engine
    /// that cannot start, or that cannot be told the rules.
    ///
    /// # Errors
    ///
    /// [`MatchError::Config`] for a configuration that cannot be played
    /// (no openings, a bad concurrency, an opening the rules refuse, a
    /// `hash` the memory cannot hold, an external engine without a `Rules`
    /// option under rules other than `abapa`), [`MatchError::Engine`] when
    /// an external engine cannot be started.
    pub fn new(
        config: &'a MatchConfig,
        a: &'a PlayerSpec,
        b: &'a PlayerSpec,
    ) -> Result<Match<'a>, MatchError> {
        if config.openings.is_empty() {
            return Err(MatchError::Config("no openings to play".into()));
        }
        if !(1..=2).contains(&config.concurrency) {
            return Err(MatchError::Config(format!(
                "concurrency must be 1 or 2, not {}",
                config.concurrency
            )));
        }
        for opening in &config.openings {
            for first in Side::BOTH {
                opening
                    .game(config.rules, first)
                    .map_err(MatchError::Config)?;
            }
        }
        let mut notes = Vec::new();
        let mut started = [None, None];
        for (i, spec) in [a, b].into_iter().enumerate() {
            let player = Player::start(spec, player_seed(0, i))?;
            if let Player::External(engine) = &player {
                if !engine.has_option("Rules") {
                    if !plays_without_rules_option(&config.rules) {
                        return Err(MatchError::Config(format!(
                            "{} ({}) has no `Rules` option: it plays tournament Oware \
                             (abapa) and cannot be told to play {}; \
                             play it with --rules abapa",
                            spec.name,
                            engine.name(),
                            config.rules
                        )));
                    }
                    notes.push(format!(
                        "{} ({}) has no `Rules` option: taken to play abapa, \
                         as engines of tournament Oware do",
                        spec.name,
                        engine.name()
                    ));
                }
            }
            started[i] = Some(player);
        }
        Ok(Match {
            config,
            specs: [a, b],
            started,
            notes,
        })
    }

    /// What the checks found worth saying before the games (an engine taken
    /// to play `abapa` without being told).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Plays the match. `on_game` sees each game as it ends, with the tally
    /// so far; games run on `config.concurrency` threads.
    ///
    /// # Errors
    ///
    /// [`MatchError::Engine`] when an external engine cannot be restarted
    /// after it failed. Games finished before are reported.
    pub fn run(
        self,
        on_game: &mut dyn FnMut(&GameReport, &Tally),
    ) -> Result<MatchSummary, MatchError> {
        let Match {
            config,
            specs: [a, b],
            started,
            ..
        } = self;
        let total = config.games.div_ceil(2) * 2;
        let next = AtomicUsize::new(0);
        let halt = AtomicBool::new(false);
        let (sender, results) = mpsc::channel::<Result<GameReport, MatchError>>();
        let mut tally = Tally::default();
        let mut decision = None;
        let mut failure = None;
        let mut started = Some(started);
        std::thread::scope(|scope| {
            for worker in 0..config.concurrency.min(total) {
                let sender = sender.clone();
                let (next, halt) = (&next, &halt);
                let mut players: [Option<Player>; 2] = started.take().unwrap_or_default();
                scope.spawn(move || loop {
                    if halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= total {
                        break;
                    }
                    // (Re)start a player that is not running.
                    for (i, spec) in [a, b].into_iter().enumerate() {
                        if players[i].is_none() {
                            match Player::start(spec, player_seed(worker, i)) {
                                Ok(p) => players[i] = Some(p),
                                Err(e) => {
                                    let _ = sender.send(Err(e));
                                    return;
                                }
                            }
                        }
                    }
                    let [Some(pa), Some(pb)] = &mut players else {
                        return;
                    };
                    let opening = &config.openings[(job / 2) % config.openings.len()];
                    let a_is_south = job % 2 == 0;
                    let (south, north, names, limits) = if a_is_south {
                        (
                            pa,
                            pb,
                            [a.name.as_str(), b.name.as_str()],
                            [&a.limits, &b.limits],
                        )
                    } else {
                        (
                            pb,
                            pa,
                            [b.name.as_str(), a.name.as_str()],
                            [&b.limits, &a.limits],
                        )
                    };
                    let report = play_game(
                        config,
                        [south, north],
                        names,
                        limits,
                        opening,
                        job + 1,
                        a_is_south,
                    );
                    // An external engine that forfeited may be broken: start
                    // it afresh for the next game.
                    if let Ok(GameReport {
                        termination: Termination::Forfeit(why),
                        ..
                    }) = &report
                    {
                        tracing::warn!(round = job + 1, "forfeit: {why}");
                        for (i, spec) in [a, b].into_iter().enumerate() {
                            if matches!(spec.kind, PlayerKind::External { .. }) {
                                tracing::info!(engine = %spec.name, "restarting");
                                players[i] = None;
                            }
                        }
                    }
                    if sender.send(report).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            for report in results {
                match report {
                    Ok(report) => {
                        tally.add_half_points(report.a_half_points());
                        tracing::debug!(
                            round = report.round,
                            result = %report.record.result,
                            termination = %report.termination,
                            plies = report.record.moves.len(),
                            "game over"
                        );
                        on_game(&report, &tally);
                        if let Some(sprt) = &config.sprt {
                            if decision.is_none() {
                                decision = sprt.decision(&tally);
                                if decision.is_some() {
                                    halt.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                    Err(e) => {
                        halt.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                    }
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(MatchSummary {
            tally,
            sprt: decision,
            names: [a.name.clone(), b.name.clone()],
        })
    }
}

/// The seed of player `i`'s generator on `worker`.
fn player_seed(worker: usize, i: usize) -> u64 {
    0x5EED_u64 + worker as u64 + i as u64 * 7919
}

/// Plays a match between `a` and `b`: [`Match::new`], then [`Match::run`].
///
/// # Errors
///
/// As [`Match::new`] and [`Match::run`].
pub fn run_match(
    config: &MatchConfig,
    a: &PlayerSpec,
    b: &PlayerSpec,
    on_game: &mut dyn FnMut(&GameReport, &Tally),
) -> Result<MatchSummary, MatchError> {
    Match::new(config, a, b)?.run(on_game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_engine::Clock;

    #[test]
    fn today_is_a_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
        assert_eq!(&d[4..5], ".");
    }

    /// An engine in shell that answers the handshake (listing a `Rules`
    /// option when `rules_option`), and does `on_go` when asked to move.
    fn scripted(name: &str, on_go: &str, limits: Limits, rules_option: bool) -> PlayerSpec {
        let option = if rules_option {
            "echo option name Rules type string default awale; "
        } else {
            "echo id name plain; "
        };
        let script = format!(
            "while read l; do case \"$l\" in uci) {option}echo uciok;; \
             isready) echo readyok;; go*) {on_go};; esac; done"
        );
        PlayerSpec {
            name: name.into(),
            kind: PlayerKind::External {
                command: vec!["sh".into(), "-c".into(), script],
                options: Vec::new(),
            },
            limits,
        }
    }

    fn config(games: usize) -> MatchConfig {
        MatchConfig {
            openings: openings::parse_openings("FfAa\nBbCc\n", Rules::AWALE).unwrap(),
            games,
            ..MatchConfig::default()
        }
    }

    #[test]
    fn a_match_plays_every_opening_with_both_colours() {
        let a: PlayerSpec = "depth=2".parse().unwrap();
        let b: PlayerSpec = "depth=1".parse().unwrap();
        let mut seen = Vec::new();
        let summary = run_match(&config(4), &a, &b, &mut |r, _| {
            seen.push((
                r.round,
                r.a_is_south,
                r.record.tag("Opening").map(String::from),
            ));
            // Every record replays to the result it states.
            if r.record.tag("Termination") != Some("adjudication") {
                let game = r.record.to_game().unwrap();
                assert_eq!(game.outcome().unwrap().result_text(), r.record.result);
            }
        })
        .unwrap();
        assert_eq!(summary.tally.games(), 4);
        seen.sort();
        assert_eq!(
            seen,
            [
                (1, true, Some("FfAa".to_string())),
                (2, false, Some("FfAa".to_string())),
                (3, true, Some("BbCc".to_string())),
                (4, false, Some("BbCc".to_string())),
            ]
        );
    }

    #[test]
    fn two_games_at_a_time_give_every_game() {
        let a: PlayerSpec = "depth=1".parse().unwrap();
        let b: PlayerSpec = "depth=1".parse().unwrap();
        let mut rounds = Vec::new();
        let config = MatchConfig {
            concurrency: 2,
            ..config(6)
        };
        let summary = run_match(&config, &a, &b, &mut |r, _| rounds.push(r.round)).unwrap();
        rounds.sort();
        assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
        assert_eq!(summary.tally.games(), 6);
    }

    #[test]
    fn a_crashing_external_engine_forfeits_and_is_restarted() {
        // Answers the handshake, then dies when asked for a move.
        let crasher = scripted("crasher", "exit 7", Limits::depth(1), true);
        let ours: PlayerSpec = "depth=1".parse().unwrap();
        let mut terminations = Vec::new();
        let summary = run_match(&config(2), &ours, &crasher, &mut |r, _| {
            terminations.push(r.termination.to_string())
        })
        .unwrap();
        assert_eq!(summary.tally.wins, 2, "{terminations:?}");
        assert!(terminations
            .iter()
            .all(|t| t.contains("crasher") && t.contains("exit")));
    }

    #[test]
    fn games_past_the_ply_limit_are_adjudicated() {
        let a: PlayerSpec = "depth=1".parse().unwrap();
        let b: PlayerSpec = "depth=1".parse().unwrap();
        let config = MatchConfig {
            max_plies: 10,
            ..config(2)
        };
        let mut terminations = Vec::new();
        run_match(&config, &a, &b, &mut |r, _| {
            assert_eq!(r.record.tag("Termination"), Some("adjudication"));
            assert_eq!(r.record.moves.len(), 10);
            terminations.push(r.termination.to_string());
        })
        .unwrap();
        assert!(
            terminations.iter().all(|t| t.contains("10 plies")),
            "{terminations:?}"
        );
    }

    #[test]
    fn an_engine_overrunning_its_clock_loses_on_time() {
        // Thinks 0.6 s a move with a 0.3 s clock.
        let clock = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(300),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let slow = scripted("slow", "sleep 0.6; echo bestmove a", clock, true);
        let ours: PlayerSpec = "depth=1".parse().unwrap();
        // One opening, F: the slow engine is North and must answer.
        let config = MatchConfig {
            openings: openings::parse_openings("F\n", Rules::AWALE).unwrap(),
            ..config(2)
        };
        let mut terminations = Vec::new();
        let summary = run_match(&config, &ours, &slow, &mut |r, _| {
            terminations.push(r.termination.to_string());
            assert!(r.record.tag("Forfeit").is_some());
        })
        .unwrap();
        assert_eq!(summary.tally.wins, 2, "{terminations:?}");
        assert!(
            terminations.iter().all(|t| t.contains("lost on time")),
            "{terminations:?}"
        );
    }

    #[test]
    fn sprt_stops_a_lopsided_match_early() {
        let strong: PlayerSpec = "depth=4".parse().unwrap();
        // Claims every game is over: it forfeits every game.
        let weak = scripted("resigner", "echo bestmove 0000", Limits::depth(1), true);
        let config = MatchConfig {
            sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
            ..config(1000)
        };
        let summary = run_match(&config, &strong, &weak, &mut |_, _| {}).unwrap();
        assert!(summary.tally.games() < 1000);
    }

    /// The first move of each game's record, and its `Variant` and
    /// `Opening` tags, for a match of `games` under `rules`.
    fn starts(rules: Rules, games: usize) -> Vec<(Side, String, String)> {
        let a: PlayerSpec = "depth=1".parse().unwrap();
        let b: PlayerSpec = "depth=1".parse().unwrap();
        let config = MatchConfig {
            rules,
            openings: openings::parse_openings("FfAa\nBbCc\nAbCd\nEd\n", rules).unwrap(),
            max_plies: 6,
            ..config(games)
        };
        let mut seen = Vec::new();
        run_match(&config, &a, &b, &mut |r, _| {
            let tag = |name| r.record.tag(name).unwrap_or_default().to_string();
            seen.push((
                r.round,
                r.record.moves[0].mv.side(),
                tag("Variant"),
                tag("Opening"),
            ));
            r.record.to_game().unwrap();
        })
        .unwrap();
        seen.sort_by_key(|s| s.0);
        seen.into_iter()
            .map(|(_, side, v, o)| (side, v, o))
            .collect()
    }

    #[test]
    fn the_rules_first_player_starts_every_game_of_a_match() {
        let north = Rules {
            first: FirstPlayer::Side(Side::North),
            ..Rules::AWALE
        };
        let games = starts(north, 4);
        assert_eq!(games.len(), 4);
        for (side, variant, _) in &games {
            assert_eq!(
                (*side, variant.as_str()),
                (Side::North, "awale,first=north")
            );
        }
        // The opening turned round, as played.
        assert_eq!(games[0].2, "fFaA");
        // Random: drawn for each opening's pair of games, both sides seen.
        let random = Rules {
            first: FirstPlayer::Random,
            ..Rules::AWALE
        };
        let games = starts(random, 8);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].0, pair[1].0, "{games:?}");
            assert_eq!(pair[0].1, "awale,first=random");
        }
        assert!(games.iter().any(|g| g.0 == Side::North), "{games:?}");
        assert!(games.iter().any(|g| g.0 == Side::South), "{games:?}");
    }

    #[test]
    fn a_table_the_memory_cannot_hold_is_refused_before_any_game() {
        let mut big: PlayerSpec = "depth=1,name=big".parse().unwrap();
        if let PlayerKind::Ours { options, .. } = &mut big.kind {
            options.hash_mb = 99_999_999;
        }
        let small: PlayerSpec = "depth=1".parse().unwrap();
        let mut games = 0;
        let e = run_match(&config(2), &small, &big, &mut |_, _| games += 1).unwrap_err();
        assert_eq!(games, 0);
        let text = e.to_string();
        assert!(matches!(e, MatchError::Config(_)), "{text}");
        assert!(
            text.contains("big: hash=99999999") && text.contains("does not fit in memory"),
            "{text}"
        );
    }

    /// An engine without a `Rules` option that always answers `f`.
    fn optionless_engine() -> PlayerSpec {
        scripted("plain", "echo bestmove f", Limits::depth(1), false)
    }

    #[test]
    fn an_engine_without_a_rules_option_is_refused_at_start_under_awale() {
        let ours: PlayerSpec = "depth=1".parse().unwrap();
        let mut games = 0;
        let e = run_match(&config(2), &ours, &optionless_engine(), &mut |_, _| {
            games += 1
        })
        .unwrap_err();
        assert_eq!(games, 0);
        let text = e.to_string();
        assert!(matches!(e, MatchError::Config(_)), "{text}");
        assert!(
            text.contains("no `Rules` option") && text.contains("--rules abapa"),
            "{text}"
        );
    }

    #[test]
    fn an_engine_without_a_rules_option_plays_abapa_with_a_note() {
        let ours: PlayerSpec = "depth=1".parse().unwrap();
        let plain = optionless_engine();
        let config = MatchConfig {
            rules: Rules::ABAPA,
            openings: openings::parse_openings("F\n", Rules::ABAPA).unwrap(),
            games: 2,
            ..MatchConfig::default()
        };
        let prepared = Match::new(&config, &ours, &plain).unwrap();
        assert_eq!(prepared.notes().len(), 1);
        assert!(prepared.notes()[0].contains("taken to play abapa"));
        let mut terminations = Vec::new();
        prepared
            .run(&mut |r, _| terminations.push(r.termination.clone()))
            .unwrap();
        assert_eq!(terminations.len(), 2);
        // The games are played: none is lost for want of the option (this
        // engine always answers `f`, and loses by its moves; the CLI tests
        // play a real engine without the option).
        assert!(
            terminations
                .iter()
                .all(|t| !t.to_string().contains("Rules")),
            "{terminations:?}"
        );
    }
}
