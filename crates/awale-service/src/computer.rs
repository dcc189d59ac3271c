//! The computer player, hints and game review, seen from the web server: a
//! thin layer over `awale-engine` (its levels, search and analysis) and the
//! endgame oracle when one is loaded.
//!
//! Searches run on blocking threads, at most `max_searches` at once: a
//! search holds its permit until it really ends, and a search whose asker
//! went away is told to stop ([`Computer::run_stoppable`]), so abandoned
//! requests cost nothing. Engines are pooled (one per permit at most), so memory stays
//! bounded by the number of permits.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side, Variant};
use awale_engine::{Engine, EngineOptions, Level, Limits, Oracle};
use serde::Serialize;
use serde_with::skip_serializing_none;

use crate::error::{Error, Kind};
use crate::lock;
use awale_model::Code;

/// A level offered to players.
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    /// Its number, 1 the weakest.
    pub number: u8,
    /// Its key (`seed` .. `perfect`): the page words it from its
    /// catalogs (`level_KEY`, `level_KEY_about`).
    pub key: &'static str,
    /// Whether it plays with the endgame databases (when they are built).
    pub uses_databases: bool,
    /// Its strength in Elo points (measured between levels).
    pub elo: u32,
}

/// The engine's levels, weakest first.
pub fn levels() -> Vec<LevelInfo> {
    Level::ALL
        .iter()
        .map(|&l| LevelInfo {
            number: l.number(),
            key: l.key(),
            uses_databases: l == Level::Perfect,
            elo: l.elo(),
        })
        .collect()
}

/// The level a game starts with when none is asked for (the engine's).
pub const DEFAULT_LEVEL: u8 = Level::DEFAULT as u8 + 1;

/// Whether `level` names a level.
pub fn is_level(level: u8) -> bool {
    Level::from_number(level).is_some()
}

/// A score from the side to move's view, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// Hundredths of a seed, side to move's view; a decided game counts as
    /// its final margin (or ±50 seeds when only the distance is known), so
    /// plots and differences stay readable.
    pub cp: i32,
    /// Whether the result is known (a forced win or loss, or an oracle's).
    pub decided: bool,
    /// For a result forced in a known number of plies: who wins, when.
    pub forced: Option<Forced>,
    /// The engine's own wording, e.g. "+1.50 seeds" or "win in 7".
    pub text: String,
}

/// A result forced in a known number of plies, side to move's view:
/// `{"wins": false, "plies": 0}` is a game the side has already lost (a
/// signed count of plies could not tell it from one it has won).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Forced {
    /// Whether the side to move wins (else it loses).
    pub wins: bool,
    /// Plies to the end, both sides' moves counted.
    pub plies: u32,
}

impl From<awale_engine::Forced> for Forced {
    fn from(f: awale_engine::Forced) -> Forced {
        Forced {
            wins: f.wins,
            plies: f.plies,
        }
    }
}

impl From<awale_engine::Score> for Score {
    fn from(s: awale_engine::Score) -> Score {
        Score {
            cp: s.hundredths(),
            decided: s.is_decided(),
            forced: s.forced().map(Forced::from),
            text: s.to_string(),
        }
    }
}

/// What the computer is thinking, sent to the page while it searches. Its
/// line is not sent: in a game, it would be a free hint.
#[derive(Clone, Debug, Serialize)]
pub struct Thinking {
    /// The game's public id.
    pub game: String,
    /// Depth reached.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
}

/// One legal move with its score.
#[derive(Clone, Debug, Serialize)]
pub struct MoveScore {
    /// The move's letter.
    #[serde(rename = "mv", serialize_with = "ser_move")]
    pub mv: Move,
    /// Its score from the mover's view.
    pub score: Score,
}

fn ser_move<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_char(m.letter())
}

/// What the endgame databases know of a position inside its game (side
/// to move's view: seeds it will still capture minus the opponent's).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OracleValue {
    /// Lowest value.
    pub lower: i8,
    /// Highest value.
    pub upper: i8,
    /// The databases' own bounds (from a fresh start) when the game's
    /// history widens them: a move back to a position seen since the last
    /// capture would end the game first, and pay what the repetition rule
    /// gives (docs/DATABASES.md, "What a program may rely on"). Absent when
    /// the history changes nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fresh: Option<[i8; 2]>,
}

impl OracleValue {
    /// Whether the value is known exactly, in the game.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// Bounds inside the game and from a fresh start.
    fn of((wide, fresh): (awale_engine::Bounds, awale_engine::Bounds)) -> OracleValue {
        OracleValue {
            lower: wide.lower,
            upper: wide.upper,
            fresh: (wide != fresh).then_some([fresh.lower, fresh.upper]),
        }
    }
}

/// The score of a move as the endgame databases decide it, where they do:
/// `value` is the move's value in the game (mover's view, its capture
/// included) and `lead` the mover's store minus the opponent's before it.
/// An exact value is the final margin, proven (a forced result the search
/// found keeps its distance when it agrees); otherwise the engine's score
/// stands.
pub fn follow_database(
    engine: Option<Score>,
    value: Option<&OracleValue>,
    lead: i32,
) -> Option<Score> {
    let Some(value) = value.filter(|v| v.is_exact()) else {
        return engine;
    };
    let margin = lead + i32::from(value.lower);
    let forced = engine
        .as_ref()
        .and_then(|s| s.forced)
        .filter(|f| margin != 0 && f.wins == (margin > 0));
    // A proven draw is the engine's even score; here it is decided.
    let text = if margin == 0 {
        "draw".to_string()
    } else {
        awale_engine::Score::proven(margin).to_string()
    };
    Some(Score {
        cp: margin * 100,
        decided: true,
        forced,
        text,
    })
}

/// A hint: the best move for the side to move, every move's score, and
/// the database's value where it has one.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The number of moves played when it was given.
    pub ply: usize,
    /// The best move.
    pub best: Option<MoveScore>,
    /// Every legal move, best first.
    pub moves: Vec<MoveScore>,
    /// The database's value of the position.
    pub oracle: Option<OracleValue>,
    /// Why the best move is good, in words, most telling first.
    pub why: Vec<Why>,
}

/// One reason a move is good, as data the page words (`why_KIND` in its
/// catalogs, with the numbers): `{"kind": "captures", "seeds": 5,
/// "holes": 2}`. Fields a kind has not are left out.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Why {
    /// The reason ([`awale_engine::Reason::name`]).
    pub kind: &'static str,
    /// Seeds it captures, threatens, saves, or the krou holds.
    pub seeds: Option<u8>,
    /// Holes of a chain capture.
    pub holes: Option<u8>,
    /// The mover's own moves to a forced win.
    pub moves: Option<u32>,
    /// The final margin the databases prove (above 0 a win).
    pub margin: Option<i32>,
    /// The hole (a krou's), or the other move that would give seeds away.
    #[serde(rename = "move")]
    pub mv: Option<String>,
}

impl Why {
    /// The wire form of the engine's reason.
    pub fn of(reason: &awale_engine::Reason) -> Why {
        let f = reason.fields();
        Why {
            kind: reason.name(),
            seeds: f.seeds,
            holes: f.holes,
            moves: f.moves,
            margin: f.margin,
            mv: f.mv.map(|m| m.to_string()),
        }
    }
}

/// A move that loses this much (hundredths of a seed) against the best
/// one, in the same kind of value, is a mistake.
pub const MISTAKE_LOSS: i32 = 200;

/// The version of a review's form ([`ReviewRow`]): 2 since a cost compares
/// like with like (before, a forced result counted as ±50 seeds against
/// real margins); 3 since each row says whether its loss is exact. A
/// stored review of an older form is made again.
pub const REVIEW_VERSION: u32 = 3;

/// Nodes searched for each move of a review: a fixed budget, so the same
/// game gets the same review on any machine (with the same databases).
pub const REVIEW_NODES_PER_MOVE: u64 = 300_000;

/// One reviewed move.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewRow {
    /// Its index in the game.
    pub ply: usize,
    /// Who played it.
    pub side: char,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score (mover's view).
    pub played: Option<Score>,
    /// The best move and its score.
    pub best: Option<BestMove>,
    /// The best score from South's view, for the plot.
    pub eval_south: Option<i32>,
    /// The seeds (hundredths) the move played lost against the best, where
    /// both are in seeds ([`Cost::seeds`]); null where one is a result
    /// forced in a known number of moves whose margin is unknown.
    pub loss: Option<i32>,
    /// Whether `loss` is exact: both the move played and the best one
    /// decided (by the endgame databases, or a result forced in a known
    /// number of moves); else it is the engine's estimate.
    pub exact: bool,
    /// The result it gave up, where it changed it ([`GaveUp`]).
    pub gave_up: Option<GaveUp>,
    /// Whether it is a mistake ([`Cost::is_mistake`]).
    pub mistake: bool,
    /// The database's value before the move.
    pub oracle: Option<OracleValue>,
}

/// A game's result from one side's view, where a score knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Score {
    /// The result, where the score is decided: a forced result, or the
    /// databases' final margin (0 a draw).
    fn outcome(&self) -> Option<Outcome> {
        if !self.decided {
            return None;
        }
        Some(match self.forced {
            Some(f) if f.wins => Outcome::Win,
            Some(_) => Outcome::Loss,
            None => match self.cp.signum() {
                1 => Outcome::Win,
                -1 => Outcome::Loss,
                _ => Outcome::Draw,
            },
        })
    }

    /// The score in seeds (hundredths): an estimate, or a decided game's
    /// final margin. None for a result forced in a known number of moves
    /// whose margin is unknown: its `cp` (±50 seeds) only keeps plots
    /// readable, no seed can be counted from it.
    fn seeds(&self) -> Option<i32> {
        (!self.decided || self.cp.abs() < 5_000).then_some(self.cp)
    }
}

/// What a move changed in the result, against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GaveUp {
    /// A win (forced, or proven by the databases) became a draw or a loss,
    /// or a game no longer seen won.
    Win,
    /// A proven draw became a loss.
    Draw,
    /// A game not decided became a loss.
    Game,
}

/// What a move cost against the best one, measured in the same kind of
/// value: results against results, seeds against seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Seeds lost (hundredths), where both scores are in seeds (two
    /// estimates, two final margins, or a margin and an estimate).
    pub seeds: Option<i32>,
    /// The result given up, where the move changed it.
    pub gave_up: Option<GaveUp>,
}

impl Cost {
    /// What `played` cost against `best` (both the mover's view). Two
    /// decided scores are compared by their results, and by their margins
    /// where both are known: a move that keeps a win, or keeps a lost game
    /// lost, costs no seeds against a result whose margin is unknown. A
    /// decided score against an estimate counts seeds where it has a
    /// margin; a forced result without one gives up a win (the best wins
    /// by force) or the game (the move played loses by force).
    pub fn of(best: &Score, played: &Score) -> Cost {
        let seeds = match (best.seeds(), played.seeds()) {
            (Some(b), Some(p)) => Some((b - p).max(0)),
            _ => None,
        };
        let gave_up = match (best.outcome(), played.outcome()) {
            (Some(b), Some(p)) if p < b => Some(if b == Outcome::Win {
                GaveUp::Win
            } else {
                GaveUp::Draw
            }),
            (Some(Outcome::Win), None) if seeds.is_none() => Some(GaveUp::Win),
            (None, Some(Outcome::Loss)) if seeds.is_none() => Some(GaveUp::Game),
            _ => None,
        };
        Cost { seeds, gave_up }
    }

    /// Whether the move is a mistake: it changed the result, or lost
    /// [`MISTAKE_LOSS`] or more.
    pub fn is_mistake(&self) -> bool {
        self.gave_up.is_some() || self.seeds.is_some_and(|s| s >= MISTAKE_LOSS)
    }
}

/// The best move of a position.
#[derive(Clone, Debug, Serialize)]
pub struct BestMove {
    /// Its letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score (mover's view).
    pub score: Score,
}

/// Moves of a line shown after a judged answer, at most.
pub const LINE_SHOWN: usize = 20;

/// An answer judged as a review judges a move ([`Computer::judge`]).
#[derive(Clone, Debug)]
pub struct Judged {
    /// The best move and its score.
    pub best: MoveScore,
    /// The answer and its score.
    pub answered: MoveScore,
    /// Every move good enough: none of them a mistake against the best.
    pub good: Vec<Move>,
    /// Whether the answer's result and the best's are known (the
    /// databases decide them, or the game ends within the search): the
    /// values compared are exact.
    pub exact: bool,
    /// The best move's line.
    pub best_line: Vec<Move>,
    /// The answer's line.
    pub answer_line: Vec<Move>,
}

/// Hash table size of each engine of the pool.
const HASH_MB: usize = 32;

/// Finds the endgame oracle for a rule set (endgame databases are built per
/// rule variant), or None when there is none.
pub type OracleSource = Box<dyn Fn(&Rules) -> Option<Arc<dyn Oracle>> + Send + Sync>;

/// Rules with the same values share their databases.
type ValueKey = (Variant, Option<u8>);

/// Tells a search to stop when dropped: held by whoever waits for the
/// search, so a request that goes away stops its search.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a search is for: a computer's move in a game goes before any
/// analysis (hints, reviews, the analysis board, puzzles), whoever asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// The computer's move in a game: a player waits at the board.
    Game,
    /// Hints, reviews, analyses, puzzle hunts.
    Analysis,
}

/// Who asks for a search, for sharing the slots between clients: their
/// address as limits count it (an IPv6 /64), None when unknown (a test
/// calling the router).
pub type Asker = Option<std::net::IpAddr>;

/// The search slots: how many are free, who runs, who waits. A slot that
/// frees goes to the waiting search of the highest priority whose client
/// runs the fewest searches and was served longest ago, oldest first; so
/// one client's flood waits behind everyone else's requests instead of
/// before them.
#[derive(Default)]
struct Slots {
    free: usize,
    running: HashMap<Asker, usize>,
    /// Waiting searches, oldest first.
    waiting: Vec<Waiter>,
    /// Searches given a slot that have not yet taken it.
    granted: HashMap<u64, Asker>,
    /// When each client running or waiting was last given a slot.
    served: HashMap<Asker, u64>,
    next_id: u64,
    grants: u64,
}

struct Waiter {
    id: u64,
    asker: Asker,
    priority: Priority,
    wake: tokio::sync::oneshot::Sender<Wake>,
}

/// What a waiting search is told.
enum Wake {
    /// A slot is its.
    Granted,
    /// Its place went to another client's search (the queue was full and
    /// its client held the most places): it is refused as busy.
    Bumped,
}

impl Slots {
    /// Gives free slots to the waiting searches that come first.
    fn dispatch(&mut self) {
        while self.free > 0 && !self.waiting.is_empty() {
            let (running, served) = (&self.running, &self.served);
            let Some(best) = (0..self.waiting.len()).min_by_key(|&i| {
                let w = &self.waiting[i];
                (
                    w.priority,
                    running.get(&w.asker).copied().unwrap_or(0),
                    served.get(&w.asker).copied().unwrap_or(0),
                    w.id,
                )
            }) else {
                return;
            };
            let waiter = self.waiting.remove(best);
            self.grants += 1;
            self.served.insert(waiter.asker, self.grants);
            self.free -= 1;
            *self.running.entry(waiter.asker).or_insert(0) += 1;
            self.granted.insert(waiter.id, waiter.asker);
            // A waiter gone meanwhile gives its slot back through its
            // guard (it finds its id among the granted).
            let _ = waiter.wake.send(Wake::Granted);
        }
    }

    /// Makes room in a full queue of `priority` for `asker`, holding
    /// `mine` places there: the newest place of the client holding the
    /// most goes, if that client holds at least two more than `asker`.
    /// So the queue is shared between clients however many addresses a
    /// flood comes from: a few addresses together cannot fill it against a
    /// newcomer.
    fn bump_for(&mut self, asker: Asker, priority: Priority, mine: usize) -> bool {
        let mut held: HashMap<Asker, usize> = HashMap::new();
        for w in self.waiting.iter().filter(|w| w.priority == priority) {
            *held.entry(w.asker).or_insert(0) += 1;
        }
        let Some((&most, &count)) = held
            .iter()
            .filter(|(a, _)| **a != asker)
            .max_by_key(|(_, n)| **n)
        else {
            return false;
        };
        if count < mine + 2 {
            return false;
        }
        let Some(i) = self
            .waiting
            .iter()
            .rposition(|w| w.priority == priority && w.asker == most)
        else {
            return false;
        };
        let bumped = self.waiting.remove(i);
        let _ = bumped.wake.send(Wake::Bumped);
        true
    }

    fn release(&mut self, asker: &Asker) {
        if let Some(n) = self.running.get_mut(asker) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(asker);
            }
        }
        self.free += 1;
        self.dispatch();
        if self.served.len() > 2 * (self.running.len() + self.waiting.len()) + 64 {
            let (running, waiting) = (&self.running, &self.waiting);
            self.served
                .retain(|a, _| running.contains_key(a) || waiting.iter().any(|w| w.asker == *a));
        }
    }
}

/// A search slot held: given back when dropped, however the search ends.
struct Permit {
    slots: Arc<Mutex<Slots>>,
    asker: Asker,
}

impl Drop for Permit {
    fn drop(&mut self) {
        lock(&self.slots).release(&self.asker);
    }
}

/// A place in the queue: given back when dropped (a request that goes
/// away while it waits), with the slot if one was given to it meanwhile.
struct Place {
    slots: Arc<Mutex<Slots>>,
    id: u64,
    /// The slot given was taken as a [`Permit`].
    taken: bool,
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.taken {
            return;
        }
        let mut slots = lock(&self.slots);
        if let Some(i) = slots.waiting.iter().position(|w| w.id == self.id) {
            slots.waiting.remove(i);
        } else if let Some(asker) = slots.granted.remove(&self.id) {
            slots.release(&asker);
        }
    }
}

/// The computer: a pool of engines, the slots to search, and the oracles
/// found so far.
pub struct Computer {
    engines: Mutex<Vec<Engine>>,
    source: Option<OracleSource>,
    /// The oracle of each set of rules with the same values.
    oracles: Mutex<HashMap<ValueKey, Option<Arc<dyn Oracle>>>>,
    slots: Arc<Mutex<Slots>>,
    max_queued: usize,
    running: AtomicUsize,
}

/// How much nicer than the server an analysis's thread is (Linux nice
/// values: at 10 more, a busy thread gets about a tenth of the share of
/// one at the server's).
#[cfg(target_os = "linux")]
const ANALYSIS_NICENESS: i32 = 10;

/// Lowers the calling thread's CPU priority by [`ANALYSIS_NICENESS`] (on
/// Linux, where a nice value is a thread's; elsewhere, nothing). A failure
/// only leaves the thread as it was.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    lower_this_threads_priority_by(ANALYSIS_NICENESS);
}

/// Lowers the calling thread's CPU priority by `niceness` (Linux nice
/// values, at most 19 in all); the threads it starts afterwards inherit
/// it. Elsewhere, nothing; a failure only leaves the thread as it was.
pub(crate) fn lower_this_threads_priority_by(niceness: i32) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpriority_process, setpriority_process};
        if let Ok(now) = getpriority_process(None) {
            let _ = setpriority_process(None, (now + niceness).min(19));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = niceness;
}

/// The most places in the queue one client may hold, of `max_queued`: a
/// quarter (at least one), so a flood from one address leaves room.
fn share_of(max_queued: usize) -> usize {
    (max_queued / 4).max(1)
}

impl Computer {
    /// A computer running at most `max_searches` searches at once, with at
    /// most `max_queued` more waiting for each priority (a client at most
    /// a quarter of the analyses), with endgame knowledge from `source`
    /// when given.
    pub fn new(source: Option<OracleSource>, max_searches: usize, max_queued: usize) -> Computer {
        Computer {
            engines: Mutex::new(Vec::new()),
            source,
            oracles: Mutex::new(HashMap::new()),
            slots: Arc::new(Mutex::new(Slots {
                free: max_searches.max(1),
                ..Slots::default()
            })),
            max_queued,
            running: AtomicUsize::new(0),
        }
    }

    /// How many searches run now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// How many searches wait for a slot now.
    pub fn queued(&self) -> usize {
        lock(&self.slots).waiting.len()
    }

    /// How many engines the pool holds (each with its hash table).
    pub fn engines(&self) -> usize {
        lock(&self.engines).len()
    }

    /// Waits for a search slot for `asker` at `priority`.
    async fn acquire(&self, asker: Asker, priority: Priority) -> Result<Permit, Error> {
        let busy = || {
            Error::new(
                Kind::Busy,
                Code::Busy,
                "the computer is busy with other searches: try again in a moment",
            )
        };
        let (place, woken) = {
            let mut slots = lock(&self.slots);
            if slots.free > 0 && slots.waiting.is_empty() {
                slots.free -= 1;
                slots.grants += 1;
                let grant = slots.grants;
                slots.served.insert(asker, grant);
                *slots.running.entry(asker).or_insert(0) += 1;
                return Ok(Permit {
                    slots: Arc::clone(&self.slots),
                    asker,
                });
            }
            let same = |w: &&Waiter| w.priority == priority;
            let queued = slots.waiting.iter().filter(same).count();
            let mine = slots
                .waiting
                .iter()
                .filter(same)
                .filter(|w| w.asker == asker)
                .count();
            // The share per client is for analysis: the computer's moves
            // are asked by the server itself, one per game at most.
            let over_share = priority == Priority::Analysis && mine >= share_of(self.max_queued);
            if over_share
                || (queued >= self.max_queued
                    && (priority != Priority::Analysis || !slots.bump_for(asker, priority, mine)))
            {
                return Err(busy());
            }
            let id = slots.next_id;
            slots.next_id += 1;
            let (wake, woken) = tokio::sync::oneshot::channel();
            slots.waiting.push(Waiter {
                id,
                asker,
                priority,
                wake,
            });
            (
                Place {
                    slots: Arc::clone(&self.slots),
                    id,
                    taken: false,
                },
                woken,
            )
        };
        match woken.await {
            Ok(Wake::Granted) => {}
            Ok(Wake::Bumped) => return Err(busy()),
            Err(_) => return Err(Error::internal("the server is stopping")),
        }
        let mut place = place;
        let granted = lock(&place.slots).granted.remove(&place.id);
        let asker = granted.ok_or_else(|| Error::internal("a search slot went missing"))?;
        // The slot is the permit's now: the place has nothing to give back.
        place.taken = true;
        Ok(Permit {
            slots: Arc::clone(&place.slots),
            asker,
        })
    }

    /// Runs `work` for `asker` on a blocking thread once a slot is free
    /// (see [`Slots`]: games first, then the client with the fewest
    /// searches), holding the slot until `work` ends (even if the caller
    /// stops waiting). A caller that goes away while it waits gives its
    /// place back.
    ///
    /// # Errors
    ///
    /// `busy` when too many searches of this priority wait already, or
    /// too many of this client's; `internal` when the search panicked.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        asker: Asker,
        priority: Priority,
        work: impl FnOnce(&Computer) -> T + Send + 'static,
    ) -> Result<T, Error> {
        let permit = self.acquire(asker, priority).await?;
        let me = Arc::clone(self);
        let (done, result) = tokio::sync::oneshot::channel();
        // Each search on a thread of its own: an analysis lowers that
        // thread's CPU priority, so that however many clients keep the
        // slots busy, the server's own threads (moves, pages, events) and
        // the computer's moves in games come first on the cores.
        std::thread::Builder::new()
            .name("awale-search".into())
            .spawn(move || {
                if priority == Priority::Analysis {
                    lower_this_threads_priority();
                }
                me.running.fetch_add(1, Ordering::Relaxed);
                let result = work(&me);
                me.running.fetch_sub(1, Ordering::Relaxed);
                drop(permit);
                let _ = done.send(result);
            })
            .map_err(|e| Error::internal(format!("cannot start a search: {e}")))?;
        result.await.map_err(|_| Error::internal("search failed"))
    }

    /// Runs `work` as [`Computer::run`] does at analysis priority, with a
    /// flag raised when the caller stops waiting (a request that goes away), so that its search
    /// stops.
    ///
    /// # Errors
    ///
    /// As [`Computer::run`].
    pub async fn run_stoppable<T: Send + 'static>(
        self: &Arc<Self>,
        asker: Asker,
        work: impl FnOnce(&Computer, &AtomicBool) -> T + Send + 'static,
    ) -> Result<T, Error> {
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let flag = Arc::clone(&stop.0);
        let result = self
            .run(asker, Priority::Analysis, move |c| work(c, &flag))
            .await;
        drop(stop);
        result
    }

    /// The oracle for `rules`, asked of the source once per variant.
    fn oracle_for(&self, rules: &Rules) -> Option<Arc<dyn Oracle>> {
        let source = self.source.as_ref()?;
        let mut oracles = lock(&self.oracles);
        oracles
            .entry(rules.value_key())
            .or_insert_with(|| source(rules))
            .clone()
    }

    /// Forgets the oracles found so far: the next game that needs one asks
    /// the source again (a level of the databases was just built).
    pub fn forget_oracles(&self) {
        lock(&self.oracles).clear();
    }

    /// Runs `work` with an engine of the pool, which has the oracle for
    /// `rules` when `oracle` is true.
    fn with_engine<R>(
        &self,
        rules: &Rules,
        oracle: bool,
        work: impl FnOnce(&mut Engine) -> R,
    ) -> R {
        let pooled = lock(&self.engines).pop();
        let mut engine = pooled.unwrap_or_else(|| {
            Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                threads: 1,
            })
        });
        engine.set_oracle(if oracle { self.oracle_for(rules) } else { None });
        let result = work(&mut engine);
        lock(&self.engines).push(engine);
        result
    }

    /// Whether an endgame oracle is there for either preset's rules.
    pub fn has_oracle(&self) -> bool {
        self.oracle_for(&Rules::AWALE).is_some() || self.oracle_for(&Rules::ABAPA).is_some()
    }

    /// The oracle's value for the position of `game`, inside the game: its
    /// bounds widened by what repeating each position since the last
    /// capture pays (a move back to one of them ends the game;
    /// [`awale_engine::value_in_game`]). None when it does not cover the
    /// position, or the game is over.
    pub fn oracle_value(&self, game: &Game) -> Option<OracleValue> {
        let oracle = self.oracle_for(game.rules())?;
        awale_engine::value_in_game(oracle.as_ref(), game).map(OracleValue::of)
    }

    /// The oracle's value of `mv` in `game`, from the mover's view: its
    /// capture and what the position after it is worth inside the game
    /// ([`awale_engine::move_value_in_game`]).
    pub fn move_value(&self, game: &Game, mv: Move) -> Option<OracleValue> {
        let oracle = self.oracle_for(game.rules())?;
        awale_engine::move_value_in_game(oracle.as_ref(), game, mv).map(OracleValue::of)
    }

    /// `score` of `mv` in `game`, or the endgame databases' result where
    /// they decide the move ([`follow_database`]).
    pub fn followed(&self, game: &Game, mv: Move, score: Option<Score>) -> Option<Score> {
        let position = game.position();
        let me = position.to_move();
        let lead = i32::from(position.store(me)) - i32::from(position.store(me.opponent()));
        follow_database(score, self.move_value(game, mv).as_ref(), lead)
    }

    /// The line the databases play from `game`: each move keeps the best
    /// value and makes progress, and repeats no position of the game
    /// ([`Oracle::root_move`]); at most `max` moves, empty when they have
    /// no advice.
    pub fn oracle_line(&self, game: &Game, max: usize) -> Vec<Move> {
        let Some(oracle) = self.oracle_for(game.rules()) else {
            return Vec::new();
        };
        let mut game = game.clone();
        let mut line = Vec::new();
        while line.len() < max {
            let Some(mv) = oracle.root_move(&game) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
            line.push(mv);
        }
        line
    }

    /// Chooses a move for the side to move at `level`, thinking at most
    /// `budget`, less when `clock` (the side to move's game clock) runs low:
    /// the engine's time manager shares it out (weak levels answer at
    /// once). Reports its depth through `on_info`. None only when the game
    /// is over or the level unknown.
    #[allow(clippy::too_many_arguments)]
    pub fn choose_move(
        &self,
        game: &Game,
        level: u8,
        seed: u64,
        budget: Duration,
        clock: Option<awale_engine::Clock>,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(u32, u64),
    ) -> Option<Move> {
        let level = Level::from_number(level)?;
        // Only the strongest level knows the endgame databases: the others
        // should lose endgames the way people do (the engine sets the
        // oracle aside for them).
        let cap = Limits {
            movetime: Some(budget),
            clock,
            ..Limits::default()
        };
        self.with_engine(game.rules(), true, |e| {
            awale_engine::choose_move_within(e, game, level, seed, &cap, stop, &mut |info| {
                on_info(info.depth, info.nodes)
            })
        })
    }

    /// Every legal move of `game`'s position with its score and the line
    /// expected, best first, within `budget` (for the analysis board).
    pub fn analyze_lines(
        &self,
        game: &Game,
        budget: Duration,
        stop: &AtomicBool,
    ) -> Vec<awale_engine::MoveAnalysis> {
        let limits = Limits::movetime(budget);
        self.with_engine(game.rules(), true, |e| e.analyze(game, &limits, stop))
    }

    /// Scores every legal move of `game`'s position within `limits`, best
    /// first. With `fresh`, the engine forgets earlier searches first, so
    /// a node budget gives the same answer every time.
    pub fn analyze(
        &self,
        game: &Game,
        limits: &Limits,
        fresh: bool,
        stop: &AtomicBool,
    ) -> Vec<MoveScore> {
        self.with_engine(game.rules(), true, |e| {
            if fresh {
                e.new_game();
            }
            e.analyze(game, limits, stop)
        })
        .into_iter()
        .map(|a| MoveScore {
            mv: a.mv,
            score: a.score.into(),
        })
        .collect()
    }

    /// A hint for the side to move of `game`, within `budget`: the best
    /// move, every move's score, and why the best move is good.
    pub fn hint(&self, game: &Game, budget: Duration, stop: &AtomicBool) -> Hint {
        let analyses = self.with_engine(game.rules(), true, |e| {
            e.analyze(game, &Limits::movetime(budget), stop)
        });
        let oracle = self.oracle_for(game.rules());
        // Where the databases decide a move, its score is theirs.
        let mut moves: Vec<MoveScore> = analyses
            .iter()
            .filter_map(|a| {
                Some(MoveScore {
                    mv: a.mv,
                    score: self.followed(game, a.mv, Some(a.score.into()))?,
                })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score.cp));
        let best = moves.first().cloned();
        let why = best
            .as_ref()
            .map(|b| {
                let score = analyses.iter().find(|a| a.mv == b.mv).map(|a| a.score);
                awale_engine::explain(game, b.mv, score, oracle.as_deref())
            })
            .unwrap_or_default()
            .iter()
            .map(Why::of)
            .collect();
        Hint {
            ply: game.plies().len(),
            best,
            oracle: self.oracle_value(game),
            moves,
            why,
        }
    }

    /// Every legal move of `game`'s position scored as a review scores it
    /// (a fresh engine within `limits`), with the line expected. Where the
    /// databases decide a move, its score is theirs (a forced result then
    /// has its margin too) and its line the one they play.
    fn review_scores(
        &self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<(MoveScore, Vec<Move>)> {
        let decided = |mv: Move| self.move_value(game, mv).is_some_and(|v| v.is_exact());
        self.with_engine(game.rules(), true, |e| {
            e.new_game();
            e.analyze(game, limits, stop)
        })
        .into_iter()
        .filter_map(|m| {
            let score = self.followed(game, m.mv, Some(m.score.into()))?;
            let line = if decided(m.mv) {
                let mut after = game.clone();
                after.play(m.mv).ok()?;
                std::iter::once(m.mv)
                    .chain(self.oracle_line(&after, LINE_SHOWN - 1))
                    .collect()
            } else {
                m.pv
            };
            Some((MoveScore { mv: m.mv, score }, line))
        })
        .collect()
    }

    /// Judges `answer` in `game`'s position as a review would judge it:
    /// every move scored with the review's budget, the best of them, and
    /// whether `answer` is good enough (no mistake against the best:
    /// [`Cost::is_mistake`]). The rule of what is right in "learn from
    /// your mistakes".
    pub fn judge(&self, game: &Game, answer: Move, stop: &AtomicBool) -> Option<Judged> {
        let limits = Limits::nodes(REVIEW_NODES_PER_MOVE);
        let scored = self.review_scores(game, &limits, stop);
        let moves: Vec<MoveScore> = scored.iter().map(|(m, _)| m.clone()).collect();
        let best = best_of(&moves)?.clone();
        let line_of = |mv: Move| {
            scored
                .iter()
                .find(|(m, _)| m.mv == mv)
                .map(|(_, l)| l.clone())
                .unwrap_or_default()
        };
        let good: Vec<Move> = moves
            .iter()
            .filter(|m| !Cost::of(&best.score, &m.score).is_mistake())
            .map(|m| m.mv)
            .collect();
        let answered = moves.iter().find(|m| m.mv == answer)?.clone();
        // Exact where the answer's result and the best's are known (the
        // databases decide them, or the game ends within the search).
        let exact = answered.score.decided && best.score.decided;
        Some(Judged {
            good,
            exact,
            best_line: line_of(best.mv),
            answer_line: line_of(answer),
            best,
            answered,
        })
    }

    /// Reviews every move of `game` with a fixed number of nodes each: its
    /// score, the best move, what it lost, whether that makes a mistake.
    /// Stops early (returning the moves reviewed so far) once `stop` is set.
    pub fn review(&self, game: &Game, stop: &AtomicBool) -> Vec<ReviewRow> {
        let mut replay = Game::from_position(*game.rules(), game.start());
        let mut rows = Vec::with_capacity(game.plies().len());
        let limits = Limits::nodes(REVIEW_NODES_PER_MOVE);
        for (i, mv) in game.moves().enumerate() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mover = replay.position().to_move();
            let scores: Vec<MoveScore> = self
                .review_scores(&replay, &limits, stop)
                .into_iter()
                .map(|(m, _)| m)
                .collect();
            let best = best_of(&scores).cloned();
            let played = scores.iter().find(|m| m.mv == mv).cloned();
            let cost = match (&best, &played) {
                (Some(b), Some(p)) => Cost::of(&b.score, &p.score),
                _ => Cost {
                    seeds: Some(0),
                    gave_up: None,
                },
            };
            let exact = match (&best, &played) {
                (Some(b), Some(p)) => b.score.decided && p.score.decided,
                // The only move, or none scored: nothing to lose.
                _ => true,
            };
            let south_view = |cp: i32| if mover == Side::South { cp } else { -cp };
            rows.push(ReviewRow {
                ply: i,
                side: mover.letter(),
                mv: mv.letter().to_string(),
                played: played.map(|p| p.score),
                eval_south: best.as_ref().map(|b| south_view(b.score.cp)),
                best: best.map(|b| BestMove {
                    mv: b.mv.letter().to_string(),
                    score: b.score,
                }),
                loss: cost.seeds,
                exact,
                gave_up: cost.gave_up,
                mistake: cost.is_mistake(),
                oracle: self.oracle_value(&replay),
            });
            if replay.play(mv).is_err() {
                break;
            }
        }
        rows
    }
}

/// The best of `scores`: any win above any estimate, any estimate above
/// any loss (as the engine orders them), then by seeds.
fn best_of(scores: &[MoveScore]) -> Option<&MoveScore> {
    scores.iter().max_by_key(|s| {
        let class = match s.score.outcome() {
            Some(Outcome::Win) => 2,
            Some(Outcome::Loss) => 0,
            _ => 1,
        };
        (class, s.score.cp)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::{Position, Rules};

    #[test]
    fn every_level_has_a_number_and_a_key() {
        let levels = levels();
        assert!(levels.len() >= 5);
        for (i, l) in levels.iter().enumerate() {
            assert_eq!(usize::from(l.number), i + 1);
            assert!(!l.key.is_empty());
        }
        assert!(is_level(DEFAULT_LEVEL));
        assert!(!is_level(0));
    }

    #[test]
    fn a_reason_leaves_out_the_fields_its_kind_has_not() {
        let why = Why::of(&awale_engine::Reason::Captures { seeds: 5, holes: 2 });
        let json = serde_json::to_value(&why).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "captures", "seeds": 5, "holes": 2})
        );
    }

    #[test]
    fn the_computer_takes_a_free_capture() {
        // South's F (2 seeds) ends in b, which then holds 3, and a holds
        // 2: +5 at once (f keeps a seed: no grand slam); D captures nothing.
        let position: Position = "0-0-0-1-0-2-1-2-0-0-0-1-20-21-S".parse().unwrap();
        let game = Game::from_position(Rules::AWALE, position);
        let stop = AtomicBool::new(false);
        let computer = Computer::new(None, 1, 1);
        let mv = computer.choose_move(
            &game,
            6,
            1,
            Duration::from_millis(200),
            None,
            &stop,
            &mut |_, _| {},
        );
        assert_eq!(mv, Move::from_letter('F'));
        let hint = computer.hint(&game, Duration::from_millis(200), &stop);
        assert_eq!(hint.best.unwrap().mv, Move::from_letter('F').unwrap());
        // And says why, as data.
        assert!(
            hint.why
                .iter()
                .any(|w| w.kind == "captures" && w.seeds == Some(5)),
            "{:?}",
            hint.why
        );
    }

    #[test]
    fn a_review_is_the_same_every_time() {
        let mut game = Game::new(Rules::AWALE);
        for c in "FfAaBbCc".chars() {
            game.play(Move::from_letter(c).unwrap()).unwrap();
        }
        let computer = Computer::new(None, 1, 1);
        let stop = AtomicBool::new(false);
        let first = serde_json::to_string(&computer.review(&game, &stop)).unwrap();
        // Other searches in between must not change it.
        let _ = computer.hint(&game, Duration::from_millis(50), &stop);
        let second = serde_json::to_string(&computer.review(&game, &stop)).unwrap();
        assert_eq!(first, second);
    }

    fn forced(wins: bool, plies: u32) -> Score {
        if wins {
            awale_engine::Score::win_in(plies).into()
        } else {
            awale_engine::Score::loss_in(plies).into()
        }
    }

    /// A final margin the databases prove (mover's view), as the review
    /// has it where they decide a move.
    fn margin(seeds: i32) -> Score {
        let value = OracleValue {
            lower: seeds as i8,
            upper: seeds as i8,
            fresh: None,
        };
        follow_database(None, Some(&value), 0).unwrap()
    }

    fn estimate(cp: i32) -> Score {
        awale_engine::Score::cp(cp).into()
    }

    #[test]
    fn a_forced_result_against_a_margin_is_judged_by_the_result_alone() {
        // Issue: "f — North wins by 16 | e — North wins in 10 | 34 seeds":
        // the computer's winning move called a mistake.
        let keeps_the_win = Cost::of(&forced(true, 10), &margin(16));
        assert_eq!(keeps_the_win, Cost::default());
        assert!(!keeps_the_win.is_mistake());
        // "C — North wins in 3 | D — North wins by 16 | 34 seeds": a lost
        // game kept lost is no 34-seed mistake, either way round.
        let still_lost = Cost::of(&margin(-16), &forced(false, 3));
        assert_eq!(still_lost, Cost::default());
        assert!(!Cost::of(&forced(false, 9), &margin(-10)).is_mistake());
        // A result thrown away is a mistake, with no seeds made up.
        let thrown = Cost::of(&forced(true, 5), &margin(-4));
        assert_eq!((thrown.seeds, thrown.gave_up), (None, Some(GaveUp::Win)));
        assert!(thrown.is_mistake());
        let draw_lost = Cost::of(&margin(0), &forced(false, 7));
        assert_eq!(draw_lost.gave_up, Some(GaveUp::Draw));
    }

    #[test]
    fn forced_results_on_both_sides_are_compared_by_their_results() {
        assert!(!Cost::of(&forced(true, 3), &forced(true, 21)).is_mistake());
        assert!(!Cost::of(&forced(false, 30), &forced(false, 1)).is_mistake());
        let thrown = Cost::of(&forced(true, 3), &forced(false, 8));
        assert_eq!(
            thrown,
            Cost {
                seeds: None,
                gave_up: Some(GaveUp::Win)
            }
        );
    }

    #[test]
    fn margins_and_estimates_are_compared_in_seeds() {
        // Two margins: the seeds a won game gives away count.
        let fewer = Cost::of(&margin(16), &margin(10));
        assert_eq!((fewer.seeds, fewer.gave_up), (Some(600), None));
        assert!(fewer.is_mistake());
        let lost = Cost::of(&margin(2), &margin(-4));
        assert_eq!((lost.seeds, lost.gave_up), (Some(600), Some(GaveUp::Win)));
        // Two estimates, as before.
        assert_eq!(Cost::of(&estimate(150), &estimate(0)).seeds, Some(150));
        assert!(!Cost::of(&estimate(150), &estimate(0)).is_mistake());
        assert!(Cost::of(&estimate(150), &estimate(-100)).is_mistake());
        // A margin against an estimate: both seeds.
        assert_eq!(Cost::of(&margin(5), &estimate(200)).seeds, Some(300));
        // A forced result against an estimate: by the result.
        let missed = Cost::of(&forced(true, 9), &estimate(300));
        assert_eq!((missed.seeds, missed.gave_up), (None, Some(GaveUp::Win)));
        let into_a_loss = Cost::of(&estimate(-100), &forced(false, 6));
        assert_eq!(into_a_loss.gave_up, Some(GaveUp::Game));
    }

    #[test]
    fn the_best_move_is_a_win_before_any_estimate_and_an_estimate_before_any_loss() {
        let scores = |list: Vec<(char, Score)>| -> Vec<MoveScore> {
            list.into_iter()
                .map(|(c, score)| MoveScore {
                    mv: Move::from_letter(c).unwrap(),
                    score,
                })
                .collect()
        };
        let won = scores(vec![('A', estimate(6_000)), ('B', margin(2))]);
        assert_eq!(best_of(&won).unwrap().mv, Move::from_letter('B').unwrap());
        let lost = scores(vec![('A', margin(-30)), ('B', forced(false, 2))]);
        assert_eq!(best_of(&lost).unwrap().mv, Move::from_letter('A').unwrap());
        let open = scores(vec![('A', forced(false, 40)), ('B', estimate(-4_000))]);
        assert_eq!(best_of(&open).unwrap().mv, Move::from_letter('B').unwrap());
    }

    #[test]
    fn decided_scores_stay_readable_in_seeds() {
        let s: Score = awale_engine::Score::win_in(5).into();
        let wins = Forced {
            wins: true,
            plies: 5,
        };
        assert_eq!((s.cp, s.decided, s.forced), (5_000, true, Some(wins)));
        let s: Score = awale_engine::Score::proven(-3).into();
        assert_eq!((s.cp, s.decided), (-300, true));
        let s: Score = awale_engine::Score::cp(150).into();
        assert_eq!(
            (s.cp, s.decided, s.text.as_str()),
            (150, false, "+1.50 seeds")
        );
    }

    /// A search started on `computer` that holds its one permit until the
    /// gate given back is passed (`gate.wait()`); returned once it runs.
    async fn hold_the_permit(
        computer: &Arc<Computer>,
    ) -> (
        Arc<std::sync::Barrier>,
        tokio::task::JoinHandle<Result<(), Error>>,
    ) {
        let gate = Arc::new(std::sync::Barrier::new(2));
        let g = Arc::clone(&gate);
        let c = Arc::clone(computer);
        let search = tokio::spawn(async move {
            c.run(None, Priority::Analysis, move |_| {
                g.wait();
            })
            .await
        });
        while computer.running() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        (gate, search)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_beyond_the_queue_are_refused_as_busy() {
        let computer = Arc::new(Computer::new(None, 1, 1));
        let (gate, first) = hold_the_permit(&computer).await;
        // One waits for the permit; a third is refused.
        let second = {
            let c = Arc::clone(&computer);
            tokio::spawn(async move { c.run(None, Priority::Analysis, |_| ()).await })
        };
        while computer.queued() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let third = computer.run(None, Priority::Analysis, |_| ()).await;
        assert_eq!(third.unwrap_err().kind, Kind::Busy);
        gate.wait();
        first.await.unwrap().unwrap();
        second.await.unwrap().unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_few_addresses_together_cannot_fill_the_queue_against_another() {
        // Issue 20, finding 1 again: with a quarter of the queue each,
        // four addresses filled it, and every other client's hint was
        // refused as busy.
        let computer = Arc::new(Computer::new(None, 1, 8));
        let (gate, running) = hold_the_permit(&computer).await;
        let ip = |n: u8| Some(std::net::IpAddr::from([10, 0, 0, n]));
        let mut flood = Vec::new();
        for n in 1..=4 {
            for _ in 0..2 {
                let c = Arc::clone(&computer);
                flood.push(tokio::spawn(async move {
                    c.run(ip(n), Priority::Analysis, |_| ()).await
                }));
            }
        }
        while computer.queued() < 8 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let other = {
            let c = Arc::clone(&computer);
            tokio::spawn(async move { c.run(ip(9), Priority::Analysis, |_| "mine").await })
        };
        // One of the flood's places goes, the newcomer waits instead.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while flood.iter().all(|t| !t.is_finished()) {
            assert!(std::time::Instant::now() < deadline, "nobody was bumped");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(computer.queued(), 8);
        gate.wait();
        running.await.unwrap().unwrap();
        assert_eq!(other.await.unwrap().unwrap(), "mine");
        let mut busy = 0;
        for t in flood {
            if let Err(e) = t.await.unwrap() {
                assert_eq!(e.kind, Kind::Busy);
                busy += 1;
            }
        }
        assert_eq!(busy, 1);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn analyses_search_at_a_lower_cpu_priority_than_games() {
        // `awale loadtest --abuse`: a stranger's analyses kept both search
        // slots busy at the server's priority, and the honest players'
        // moves waited for the cores (p99 1.7 s).
        use rustix::process::getpriority_process;
        let computer = Arc::new(Computer::new(None, 1, 4));
        let server = getpriority_process(None).unwrap();
        let nice = || getpriority_process(None).unwrap();
        let game = computer.run(None, Priority::Game, move |_| nice()).await;
        let analysis = computer
            .run(None, Priority::Analysis, move |_| nice())
            .await;
        assert_eq!(game.unwrap(), server);
        let analysis = analysis.unwrap();
        assert!(
            analysis > server || server == 19,
            "analysis at {analysis}, server at {server}"
        );
    }
}
