//! The search: negamax alpha-beta with principal-variation search, late move
//! reductions, iterative deepening with aspiration windows, a shared
//! transposition table and lazy SMP over several threads.
//!
//! Every end rule is scored exactly as `awale-core` defines it: starvation,
//! the target (and 24-24), an empty board, and repetition of a position of
//! the game or of the search path. A side holding more than half the seeds
//! has won. Scores of decided games carry their distance in plies.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use awale_core::{EndReason, Game, Move, Moves, Position, Repetition, Rules};

use crate::clock::Instant;
use crate::eval::{Evaluation, Evaluations, Weights};
use crate::limits::Limits;
use crate::oracle::{move_value_in_game, Oracle};
use crate::score::{Score, MAX_HEURISTIC};
use crate::tt::{Bound, Entry, Table, TableTooBig};

/// Deepest iteration the search runs.
pub const MAX_DEPTH: u32 = 100;
/// Plies of search path kept (iterations plus a margin).
const MAX_PLY: usize = MAX_DEPTH as usize + 8;
const WIN: i32 = 30_000;
const INF: i32 = WIN + 1;

/// Knobs of the search itself, for experiments (matches between variants).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Quiet moves from this index in the move order on are reduced.
    pub lmr_first: usize,
    /// Reduce more at high depth and late moves.
    pub lmr_deep: bool,
    /// Futility margin at frontier nodes (0: off), per ply of depth.
    pub futility: i32,
    /// Deepest node where futility pruning applies.
    pub futility_depth: i32,
    /// Search captures below the horizon.
    pub qsearch: bool,
    /// Static pruning near the leaves (non-PV nodes of depth up to
    /// `static_depth`): a node whose evaluation is `static_margin` × depth
    /// or more above beta returns it without searching (0: off).
    pub static_margin: i32,
    /// Deepest node where static pruning applies.
    pub static_depth: i32,
    /// When a quiet move cuts off, the quiet moves tried before it lose
    /// from their history what it gains.
    pub history_malus: bool,
    /// Half-width of the first aspiration window, in hundredths of a seed.
    pub aspiration: i32,
    /// Late move reductions from a table, `ln(depth) × ln(move index) ×
    /// 100 / lmr_divisor` plies, instead of the steps above (0: the steps).
    pub lmr_divisor: i32,
    /// A node of this depth or more without a move from the table is
    /// searched one ply shallower (0: off).
    pub iir_depth: i32,
    /// Null move: at a non-PV node of depth 3 or more whose evaluation is
    /// at least beta, the opponent moves twice, searched this many plies
    /// shallower; a score still at least beta cuts off (0: off).
    pub null_reduction: i32,
    /// Seeds on the board needed for the null move (with few seeds, having
    /// to move is often what loses).
    pub null_seeds: i32,
    /// The oracle's bounds that settle nothing still bound the node's
    /// score: they cut beyond the window, and a heuristic score outside
    /// them is brought within.
    pub oracle_window: bool,
    /// Under a game clock, start new iterations for longer when the best
    /// move changes or the score drops, for less when neither does.
    pub time_manager: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            lmr_first: 2,
            lmr_deep: true,
            futility: 60,
            futility_depth: 1,
            qsearch: false,
            static_margin: 0,
            static_depth: 3,
            history_malus: false,
            aspiration: 40,
            lmr_divisor: 80,
            iir_depth: 0,
            null_reduction: 0,
            null_seeds: 0,
            oracle_window: true,
            time_manager: true,
        }
    }
}

/// Settings of an [`Engine`] that last between searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Size of the transposition table in MiB.
    pub hash_mb: usize,
    /// Search threads (lazy SMP); 1 searches on the calling thread only.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
        }
    }
}

/// What the search reports after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth just completed.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    /// Permille of the transposition table filled in this search.
    pub hashfull: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// The reply expected (to ponder on).
    pub ponder: Option<Move>,
    /// The score of `best`.
    pub score: Score,
    /// The last depth completed.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The score and best line of one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move.
    pub mv: Move,
    /// Its score, from the view of the side that plays it.
    pub score: Score,
    /// The line expected, starting with `mv`.
    pub pv: Vec<Move>,
}

/// The engine: a transposition table kept between searches, the thread
/// count and an optional endgame oracle.
pub struct Engine {
    options: EngineOptions,
    table: Table,
    oracle: Option<Arc<dyn Oracle>>,
    evaluations: Arc<Evaluations>,
    /// The same without their network: the evaluation where the oracle
    /// knows the position.
    endgame: Arc<Evaluations>,
    params: SearchParams,
}

impl Engine {
    /// An engine with these options.
    ///
    /// # Panics
    ///
    /// When the memory for the table cannot be had: use
    /// [`Engine::try_new`] for a size given by a user.
    pub fn new(options: EngineOptions) -> Engine {
        match Engine::try_new(options) {
            Ok(engine) => engine,
            Err(e) => panic!("{e}"),
        }
    }

    /// An engine with these options, or an error when the system has not
    /// the memory for the table.
    pub fn try_new(options: EngineOptions) -> Result<Engine, TableTooBig> {
        Ok(Engine {
            options,
            table: Table::try_new(options.hash_mb)?,
            oracle: None,
            evaluations: Arc::new(crate::eval::trained().clone()),
            endgame: Arc::new(crate::eval::tables().clone()),
            params: SearchParams::default(),
        })
    }

    /// The options in force.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Changes the options; a new hash size clears the table.
    ///
    /// # Errors
    ///
    /// When the memory for a new table cannot be had: the engine then keeps
    /// its old table and options.
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), TableTooBig> {
        if options.hash_mb != self.options.hash_mb {
            self.table = Table::try_new(options.hash_mb)?;
        }
        self.options = options;
        Ok(())
    }

    /// Puts in a table already made (by the protocol, while this engine
    /// was searching) of `hash_mb` MiB.
    pub(crate) fn install_table(&mut self, table: Table, hash_mb: usize) {
        self.table = table;
        self.options.hash_mb = hash_mb;
    }

    /// Sets (or removes) the endgame oracle. It is probed only in games
    /// under the rules it was built for.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle>>) {
        self.oracle = oracle;
    }

    /// Removes the oracle and returns it.
    pub(crate) fn take_oracle(&mut self) -> Option<Arc<dyn Oracle>> {
        self.oracle.take()
    }

    /// Whether an oracle is set.
    pub fn has_oracle(&self) -> bool {
        self.oracle.is_some()
    }

    /// The oracle, if one is set and answers for games under `rules`.
    pub fn oracle_for(&self, rules: &Rules) -> Option<&dyn Oracle> {
        self.oracle
            .as_deref()
            .filter(|o| o.rules().same_values(rules))
    }

    /// Plays with other evaluation weights (for tuning and for matches
    /// between evaluations).
    pub fn set_weights(&mut self, weights: Weights) {
        self.set_evaluations(Arc::new(Evaluations::from_weights(&weights)));
    }

    /// Plays with other evaluation tables (for tuning and for matches
    /// between evaluations).
    pub fn set_evaluations(&mut self, evaluations: Arc<Evaluations>) {
        self.endgame = Arc::new((*evaluations).clone().with_net(None));
        self.evaluations = evaluations;
        self.table.clear();
    }

    /// Sets the evaluation's network aside (the table keeps what it
    /// learnt: its scores are heuristics either way); returns the
    /// evaluations to put back with [`Engine::put_back_evaluations`], or
    /// `None` when there is no network.
    pub(crate) fn set_net_aside(&mut self) -> Option<Arc<Evaluations>> {
        let e = &self.evaluations;
        if e.nobody.correction.is_none() && e.own_row.correction.is_none() {
            return None;
        }
        let tables = Arc::new((**e).clone().with_net(None));
        Some(std::mem::replace(&mut self.evaluations, tables))
    }

    /// Puts back what [`Engine::set_net_aside`] set aside.
    pub(crate) fn put_back_evaluations(&mut self, evaluations: Arc<Evaluations>) {
        self.evaluations = evaluations;
    }

    /// The evaluation used in games under `rules`.
    pub fn evaluation(&self, rules: &Rules) -> &Evaluation {
        self.evaluations.for_rules(rules)
    }

    /// Changes the search's knobs (for experiments).
    #[doc(hidden)]
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.table.clear();
    }

    /// Forgets what earlier searches learnt (call between games).
    pub fn new_game(&mut self) {
        self.table.clear();
    }

    /// Searches the current position of `game` (its rules and its history,
    /// for repetitions) within `limits`. Returns when the limits are reached
    /// or `stop` becomes true, always with the best move found so far
    /// (`None` only when the game is over). `on_info` is called after each
    /// depth.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_for(game, limits, stop, on_info, Purpose::Play)
    }

    /// [`Engine::search`], for a move to play or for the score alone.
    fn search_for(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
        purpose: Purpose,
    ) -> SearchResult {
        let root = game.position();
        if game.end().is_some() || root.legal_moves(game.rules()).is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: game_over_score(game),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        self.table.new_search();
        let rules = *game.rules();
        let oracle = self
            .oracle
            .as_deref()
            .filter(|o| o.rules().same_values(&rules));
        let shared = Shared {
            table: &self.table,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            rules,
            oracle,
            oracle_seeds: oracle.map_or(0, |o| o.max_seeds()),
            proven: proven_root_moves(oracle, game),
            history: history_keys(game),
            limits,
            start: Instant::now(),
            eval: self.evaluations.for_rules(&rules),
            endgame_eval: self.endgame.for_rules(&rules),
            params: self.params,
            purpose,
        };
        let threads = self.options.threads.max(1);
        std::thread::scope(|scope| {
            for id in 1..threads {
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(shared, id, root);
                    worker.iterate(&mut |_| {});
                });
            }
            let mut worker = Worker::new(&shared, 0, root);
            let result = worker.iterate(on_info);
            shared.abort.store(true, Ordering::Relaxed);
            result
        })
    }

    /// Scores every legal move (for hints, `awale analyze`, game review),
    /// best first. The limits are shared out among the moves: a depth
    /// applies to each (counted from the root), times and nodes are divided.
    /// An infinite analysis deepens all the moves together, one depth at a
    /// time, until `stop`, and returns the last depth every move completed.
    pub fn analyze(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<MoveAnalysis> {
        let moves = game.legal_moves();
        if limits.infinite {
            let mut last = Vec::new();
            for depth in 1..=MAX_DEPTH {
                let analyses = self.analyze_each(game, &moves, &Limits::depth(depth), stop);
                if stop.load(Ordering::Relaxed) && !last.is_empty() {
                    break;
                }
                last = analyses;
                if stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            return last;
        }
        let n = moves.len().max(1) as u32;
        let budget = limits.time_budget().map(|(start, _)| start / n);
        let child_limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes.map(|x| (x / u64::from(n)).max(1)),
            movetime: budget,
            clock: None,
            infinite: false,
            ponderhit: None,
        };
        self.analyze_each(game, &moves, &child_limits, stop)
    }

    /// Searches each of `moves` within `limits` (a depth counted from the
    /// root), best first.
    fn analyze_each(
        &mut self,
        game: &Game,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<MoveAnalysis> {
        let child_limits = Limits {
            depth: limits.depth.map(|d| d.saturating_sub(1)),
            ..limits.clone()
        };
        let mut analyses = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = game.clone();
            if child.play(m).is_err() {
                continue;
            }
            let (score, pv) = if child.end().is_some() {
                (-game_over_score(&child), vec![m])
            } else if child_limits.depth == Some(0) {
                (
                    -static_score(&child.position(), self.evaluation(game.rules())),
                    vec![m],
                )
            } else {
                let result =
                    self.search_for(&child, &child_limits, stop, &mut |_| {}, Purpose::Score);
                let mut pv = vec![m];
                pv.extend(result.pv);
                (-result.score, pv)
            };
            // What the oracle proves of the move inside the game outranks
            // the child's search, which sees from the child only bounds.
            let score = proven_move_score(self.oracle_for(game.rules()), game, m).unwrap_or(score);
            analyses.push(MoveAnalysis { mv: m, score, pv });
        }
        analyses.sort_by_key(|a| std::cmp::Reverse(a.score));
        analyses
    }
}

/// The score of the move `mv` of `game`, from its mover's view, where the
/// oracle knows it exactly inside the game ([`move_value_in_game`]): a
/// capture into a position it knows exactly, or the move it plays in a
/// position whose value it knows exactly. The search below such a move
/// sees only widened bounds (each position since the last capture may come
/// back) and would take the best result it can prove for the score.
fn proven_move_score(oracle: Option<&dyn Oracle>, game: &Game, mv: Move) -> Option<Score> {
    let (wide, _) = move_value_in_game(oracle?, game, mv)?;
    if !wide.is_exact() {
        return None;
    }
    let pos = game.position();
    let me = pos.to_move();
    let diff = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
    Some(Score::proven(diff + i32::from(wide.lower)))
}

/// [`proven_move_score`] of each legal move of `game`, by index in the row.
fn proven_root_moves(oracle: Option<&dyn Oracle>, game: &Game) -> [Option<i32>; 6] {
    let mut proven = [None; 6];
    if oracle.is_some() {
        for m in game.legal_moves() {
            proven[m.index_in_row()] = proven_move_score(oracle, game, m).map(|s| s.0);
        }
    }
    proven
}

/// The static score of a position: won or lost when a side holds more than
/// half the seeds, else the evaluation.
fn static_score(pos: &Position, eval: &Evaluation) -> Score {
    let me = pos.to_move();
    let mine = i32::from(pos.store(me));
    let theirs = i32::from(pos.store(me.opponent()));
    let total = mine + theirs + i32::from(pos.seeds_on_board());
    if 2 * mine > total {
        Score::win_in(0)
    } else if 2 * theirs > total {
        Score::loss_in(0)
    } else {
        Score::cp(eval.evaluate(pos))
    }
}

/// The score of a finished game for the side to move.
fn game_over_score(game: &Game) -> Score {
    match game.outcome() {
        Some(outcome) => {
            let me = game.position().to_move();
            match outcome.winner {
                Some(w) if w == me => Score::win_in(0),
                Some(_) => Score::loss_in(0),
                None => Score::DRAW,
            }
        }
        None => Score::DRAW,
    }
}

/// Repetition keys and board seeds of the game's positions since the last
/// capture, oldest first, the current position last.
fn history_keys(game: &Game) -> Vec<(u128, u8)> {
    let seeds = game.position().seeds_on_board();
    let mut keys: Vec<(u128, u8)> = game
        .since_capture()
        .map(|p| (p.repetition_key(), seeds))
        .collect();
    keys.reverse();
    keys
}

/// What all threads of one search share.
struct Shared<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    /// Set when the main thread is done or a limit is reached.
    abort: AtomicBool,
    nodes: AtomicU64,
    rules: Rules,
    oracle: Option<&'a dyn Oracle>,
    oracle_seeds: u8,
    /// The root moves whose score the oracle knows exactly inside the game
    /// (by index in the row): [`proven_root_moves`].
    proven: [Option<i32>; 6],
    history: Vec<(u128, u8)>,
    limits: &'a Limits,
    start: Instant,
    eval: &'a Evaluation,
    /// The evaluation of positions the oracle knows: `eval` without its
    /// network, as the databases' tests played it.
    endgame_eval: &'a Evaluation,
    params: SearchParams,
    purpose: Purpose,
}

/// What a search is for: a move to play, or the score of its root (each
/// move's child in [`Engine::analyze`]). A root with one legal move is
/// answered at once only in the first case: there is nothing to choose, but
/// there is still a score to find.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Play,
    Score,
}

/// A move at the root with what the last iteration found.
#[derive(Clone, Copy)]
struct RootMove {
    index: u8,
    child: Position,
    score: i32,
}

/// One search thread.
struct Worker<'a, 'b> {
    shared: &'b Shared<'a>,
    id: usize,
    root: Position,
    rules: Rules,
    eval: &'a Evaluation,
    params: SearchParams,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    /// Whether this thread may stop (depth 1 always completes).
    may_stop: bool,
    /// Repetition keys: the game history, then the search path.
    keys: Vec<u128>,
    seeds: Vec<u8>,
    /// Index in `keys` of the root.
    base: usize,
    /// Lowest index in `keys` of a position whose repetition decided a
    /// score in the current subtree (or bounded the oracle's).
    rep_floor: usize,
    killers: [[u8; 2]; MAX_PLY + 1],
    history: [[i32; 6]; 2],
    /// Late move reductions by depth and move index, when they come from
    /// `lmr_divisor` (worked out once: a logarithm per node costs).
    lmr: [[u8; 6]; MAX_PLY + 1],
    /// Whether the move into the node at each ply was a null move.
    null_path: [bool; MAX_PLY + 1],
    pv: Vec<[u8; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    seldepth: usize,
    /// Main thread: when the clock started (None while pondering).
    clock_start: Option<Instant>,
    budget: Option<(Duration, Duration)>,
    /// Whether the time comes from a game clock (not a fixed move time):
    /// then the time manager may spend more or less of it.
    clocked: bool,
    /// Percent of the clock's share after which no new iteration starts:
    /// more when the best move changes or the score drops, less when the
    /// search agrees with itself.
    time_scale: u32,
}

const NO_MOVE: u8 = 255;

/// What the oracle says of a node.
enum Probe {
    /// Nothing: no oracle, too many seeds, other rules.
    Unknown,
    /// The node's score, settled (exact, or a bound beyond the window).
    Settled(i32),
    /// Bounds that settle nothing in this window.
    Between(Known),
}

/// The scores a node's true result lies between, from the oracle's bounds
/// on its final margin; `depends` is the lowest path index of a position
/// whose repetition payoff widened them (`usize::MAX`: none).
#[derive(Clone, Copy)]
struct Known {
    floor: i32,
    ceiling: i32,
    depends: usize,
}

impl Known {
    /// From bounds `lo..=hi` on the final margin (the stores' difference
    /// included): a margin above 0 is a win, below 0 a loss; between, a
    /// heuristic score of that many seeds.
    fn of_margins(lo: i32, hi: i32, depends: usize) -> Known {
        let decided = lo > 0 || hi < 0;
        let score = |m: i32| if decided { Score::proven(m).0 } else { m * 100 };
        let (floor, ceiling) = (score(lo), score(hi));
        Known {
            floor,
            ceiling,
            depends,
        }
    }
}

impl<'a, 'b> Worker<'a, 'b> {
    fn new(shared: &'b Shared<'a>, id: usize, root: Position) -> Worker<'a, 'b> {
        let mut keys: Vec<u128> = shared.history.iter().map(|k| k.0).collect();
        let mut seeds: Vec<u8> = shared.history.iter().map(|k| k.1).collect();
        let base = keys.len() - 1;
        keys.resize(base + MAX_PLY + 2, 0);
        seeds.resize(base + MAX_PLY + 2, 0);
        let pondering = shared
            .limits
            .ponderhit
            .as_ref()
            .is_some_and(|f| !f.load(Ordering::Relaxed));
        Worker {
            shared,
            id,
            root,
            rules: shared.rules,
            eval: shared.eval,
            params: shared.params,
            nodes: 0,
            flushed: 0,
            stopped: false,
            may_stop: false,
            keys,
            seeds,
            base,
            rep_floor: usize::MAX,
            killers: [[NO_MOVE; 2]; MAX_PLY + 1],
            history: [[0; 6]; 2],
            lmr: lmr_table(shared.params.lmr_divisor),
            null_path: [false; MAX_PLY + 1],
            pv: vec![[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            seldepth: 0,
            clock_start: if pondering { None } else { Some(shared.start) },
            budget: if shared.limits.infinite {
                None
            } else {
                shared.limits.time_budget()
            },
            clocked: shared.params.time_manager
                && shared.limits.clock.is_some()
                && shared.limits.movetime.is_none(),
            time_scale: 100,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// Called every 1024 nodes: flushes the node count, looks at the stop
    /// flags and, on the main thread, at the limits.
    fn checkup(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if !self.may_stop {
            return;
        }
        if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id == 0 && self.limit_reached(true) {
            self.shared.abort.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    /// Whether the search runs until stopped: infinite, or pondering.
    fn until_stopped(&self) -> bool {
        let limits = self.shared.limits;
        limits.infinite
            || limits
                .ponderhit
                .as_ref()
                .is_some_and(|f| !f.load(Ordering::Relaxed))
    }

    /// Whether the nodes or the time are used up (`hard`) or too far gone to
    /// start a new iteration (`!hard`).
    fn limit_reached(&mut self, hard: bool) -> bool {
        let limits = self.shared.limits;
        if limits.infinite {
            return false;
        }
        if self.clock_start.is_none() {
            match &limits.ponderhit {
                Some(flag) if flag.load(Ordering::Relaxed) => {
                    self.clock_start = Some(Instant::now());
                }
                _ => return false,
            }
        }
        if let Some(max) = limits.nodes {
            if self.shared.nodes.load(Ordering::Relaxed) >= max {
                return true;
            }
        }
        if let (Some((soft, hard_time)), Some(start)) = (self.budget, self.clock_start) {
            let elapsed = start.elapsed();
            if hard {
                return elapsed >= hard_time;
            }
            return elapsed >= (soft * self.time_scale / 100).min(hard_time);
        }
        false
    }

    /// Iterative deepening; returns the result of the last iteration.
    fn iterate(&mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let side = self.root.to_move();
        let mut root_moves: Vec<RootMove> = self
            .root
            .legal_moves(&self.rules)
            .map(|m| RootMove {
                index: m.index_in_row() as u8,
                child: self.root.play_unchecked(m),
                score: -INF,
            })
            .collect();
        // Captures first until the first iteration has scored the moves.
        root_moves.sort_by_key(|r| std::cmp::Reverse(r.child.store(side)));
        let max_depth = if self.shared.limits.infinite {
            MAX_DEPTH
        } else {
            self.shared
                .limits
                .depth
                .unwrap_or(MAX_DEPTH)
                .clamp(1, MAX_DEPTH)
        };
        let mut best = root_moves[0].index;
        let mut best_score: i32 = 0;
        let mut best_pv = vec![best];
        let mut completed = 0;
        let mut depth = 1;
        // Best-move changes, recent ones weighing most (percent).
        let mut changes: u32 = 0;
        while depth <= max_depth {
            // Helpers spread over depths so that the threads do not all
            // search the same tree in lockstep.
            if self.id > 0
                && depth > 1
                && depth < max_depth
                && (self.id + depth as usize).is_multiple_of(3)
            {
                depth += 1;
            }
            let mut delta = self.params.aspiration;
            let (mut alpha, mut beta) = if depth >= 5 && best_score.abs() < MAX_HEURISTIC {
                (best_score - delta, best_score + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                self.seldepth = 0;
                let s = self.root_search(&mut root_moves, depth as i32, alpha, beta);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INF);
                } else if s >= beta {
                    beta = (s + delta).min(INF);
                } else {
                    break s;
                }
                delta *= 2;
                if delta > 1000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            // A move fully searched in an unfinished iteration is still
            // better than the last iteration's best.
            if self.stopped {
                let top = root_moves[0];
                if top.score > -INF && top.index != best && top.score > best_score {
                    best = top.index;
                    best_score = top.score;
                    best_pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                break;
            }
            completed = depth;
            if self.clocked && depth >= 4 {
                changes = changes / 2 + if root_moves[0].index == best { 0 } else { 100 };
                self.time_scale = time_scale(changes, best_score, score);
            }
            best = root_moves[0].index;
            best_score = score;
            best_pv = self.pv[0][..self.pv_len[0]].to_vec();
            self.may_stop = true;
            if self.id == 0 {
                let info = SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: Score(score),
                    nodes: self.total_nodes(),
                    time: self.shared.start.elapsed(),
                    pv: self.moves_of(&best_pv),
                    hashfull: self.shared.table.hashfull(),
                };
                on_info(&info);
                if self.limit_reached(false) {
                    break;
                }
                if root_moves.len() == 1
                    && self.budget.is_some()
                    && self.shared.purpose == Purpose::Play
                {
                    break;
                }
                if self.shared.stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            if self.shared.abort.load(Ordering::Relaxed) {
                break;
            }
            // A win or loss found within the horizon stays what it is.
            if let Some(forced) = Score(score).forced() {
                if forced.plies < depth && !self.until_stopped() {
                    break;
                }
            }
            depth += 1;
        }
        // An infinite or pondering search answers only when told to, even
        // when there is nothing left to search.
        if self.id == 0 && !self.stopped {
            while self.until_stopped() && !self.shared.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        let pv = self.moves_of(&best_pv);
        SearchResult {
            best: Some(Move::new(side, best as usize)),
            ponder: pv.get(1).copied(),
            score: Score(best_score),
            depth: completed,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            pv,
        }
    }

    /// Turns move indices of a line from the root into moves.
    fn moves_of(&self, line: &[u8]) -> Vec<Move> {
        let mut side = self.root.to_move();
        line.iter()
            .map(|&i| {
                let m = Move::new(side, i as usize);
                side = side.opponent();
                m
            })
            .collect()
    }

    /// Searches the root moves; keeps them sorted best first.
    fn root_search(
        &mut self,
        root_moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        for r in root_moves.iter_mut() {
            r.score = -INF;
        }
        for k in 0..root_moves.len() {
            let child = root_moves[k].child;
            // A move the oracle proves is still searched, in full, for its
            // line; its score is the proof.
            let proven = self.shared.proven[usize::from(root_moves[k].index)];
            let score = if k == 0 || proven.is_some() {
                -self.node(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut s = -self.node(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(&child, depth - 1, -beta, -alpha, 1);
                }
                s
            };
            if self.stopped {
                break;
            }
            let score = proven.unwrap_or(score);
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                root_moves[k].score = score;
                self.set_pv(0, root_moves[k].index);
                // Move it to the front, keeping the others in order.
                root_moves[..=k].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    fn set_pv(&mut self, ply: usize, m: u8) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = m;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Starts loading the table buckets of the children that will probe
    /// the table, all at once: the memory accesses overlap, and each child
    /// finds its bucket in the cache.
    #[inline]
    fn prefetch_children(&self, children: &[(u8, Position, i32)], depth: i32) {
        if depth > 2 {
            for (_, child, _) in children {
                self.shared.table.prefetch(child.hash());
            }
        }
    }

    /// A node below the root: keeps track of the repetitions its score
    /// depends on.
    fn node(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let outer = self.rep_floor;
        self.rep_floor = usize::MAX;
        let score = self.search(pos, depth, alpha, beta, ply);
        self.rep_floor = self.rep_floor.min(outer);
        score
    }

    /// The alpha-beta search of a node below the root.
    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.checkup();
        }
        if self.stopped {
            return 0;
        }
        // Nodes just above the leaves are too many and too cheap to be
        // worth a memory access each. The others start loading their
        // table bucket now: the end-of-game and repetition checks run
        // while it comes from memory.
        let use_table = depth >= 2;
        let hash = if use_table { pos.hash() } else { 0 };
        if use_table {
            self.shared.table.prefetch(hash);
        }
        self.pv_len[ply] = 0;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let legal = pos.legal_moves(&self.rules);
        if let Some(score) = self.game_over(pos, legal.is_empty(), ply) {
            return score;
        }
        // No line from here can do better than winning at the next ply.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let known = match self.probe_oracle(pos, ply, alpha, beta) {
            Probe::Settled(score) => return score,
            Probe::Between(known) => {
                // The oracle's bounds, beyond the window, cut as a result
                // would.
                if known.floor >= beta {
                    self.rep_floor = self.rep_floor.min(known.depends);
                    return known.floor;
                }
                if known.ceiling <= alpha {
                    self.rep_floor = self.rep_floor.min(known.depends);
                    return known.ceiling;
                }
                Some(known)
            }
            Probe::Unknown => None,
        };
        if depth <= 0 || ply >= MAX_PLY {
            let score = self.leaf(pos, legal, alpha, beta, ply);
            return self.within_known(score, known);
        }

        let pv_node = beta - alpha > 1;
        let entry = if use_table {
            self.shared.table.probe(hash)
        } else {
            None
        };
        let tt_move = entry.and_then(|e| e.best).unwrap_or(NO_MOVE);
        if let Some(e) = entry.filter(|e| !pv_node && i32::from(e.depth) >= depth) {
            if let Some(score) = cutoff(e, alpha, beta, ply) {
                return score;
            }
        }
        if !pv_node && self.statically_pruned(pos, depth, beta) {
            return self.evaluate(pos);
        }
        if !pv_node && self.null_move_cuts(pos, depth, beta, ply) {
            return beta;
        }
        let mut depth = depth;
        if self.params.iir_depth > 0 && depth >= self.params.iir_depth && tt_move == NO_MOVE {
            depth -= 1;
        }
        let (best, best_move) = self.search_moves(pos, legal, tt_move, depth, alpha, beta, ply);
        if self.stopped {
            return 0;
        }
        let best = self.within_known(best, known);
        if use_table {
            self.store(hash, best, best_move, depth, alpha, beta, ply);
        }
        best
    }

    /// The score of `pos` when the game is over there (no seed on the
    /// board, the target, no legal move, a repetition), or decided (a side
    /// holds more than half the seeds). Also records the position on the
    /// path for the repetition checks below it.
    #[inline(always)]
    fn game_over(&mut self, pos: &Position, no_move: bool, ply: usize) -> Option<i32> {
        let rules = self.rules;
        let stores = pos.stores();
        let me = pos.to_move();
        let on_board = pos.seeds_on_board();
        // The end rules of awale-core, in its order.
        if on_board == 0 {
            return Some(end_score(pos, EndReason::EmptyBoard, &rules, ply));
        }
        if rules.target_reached(stores) {
            return Some(end_score(pos, EndReason::Target, &rules, ply));
        }
        if no_move {
            return Some(end_score(pos, EndReason::Starvation, &rules, ply));
        }
        let idx = self.base + ply;
        let key = pos.repetition_key();
        self.keys[idx] = key;
        self.seeds[idx] = on_board;
        let mut j = idx;
        while j >= 2 {
            j -= 2;
            if self.seeds[j] != on_board {
                break;
            }
            if self.keys[j] == key {
                self.rep_floor = self.rep_floor.min(j);
                return Some(end_score(pos, EndReason::Repetition, &rules, ply));
            }
        }
        // More than half the seeds: the game is decided.
        let mine = i32::from(stores[me.index()]);
        let theirs = i32::from(stores[me.opponent().index()]);
        let total = mine + theirs + i32::from(on_board);
        if 2 * mine > total {
            return Some(WIN - ply as i32);
        }
        if 2 * theirs > total {
            return Some(-WIN + ply as i32);
        }
        None
    }

    /// The static evaluation of `pos`: where the oracle knows the position
    /// (its bounds carry the search there), without the network, which
    /// learnt from positions labelled without the databases.
    #[inline(always)]
    fn evaluate(&self, pos: &Position) -> i32 {
        if pos.seeds_on_board() <= self.shared.oracle_seeds {
            self.shared.endgame_eval.evaluate(pos)
        } else {
            self.eval.evaluate(pos)
        }
    }

    /// What the endgame oracle settles: an exact result, or a bound beyond
    /// the window.
    ///
    /// The oracle's bounds are those of a position reached by a capture.
    /// With positions since the last capture (in the game or on the
    /// path), a move back to one of them ends the game and pays what the
    /// repetition rule gives: the bounds are widened by those payoffs
    /// ([`crate::oracle::Bounds::in_game`]), and a score that depends on
    /// one of them is not stored in the table below it (docs/DATABASES.md).
    #[inline(always)]
    fn probe_oracle(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> Probe {
        let Some(oracle) = self.shared.oracle else {
            return Probe::Unknown;
        };
        let on_board = pos.seeds_on_board();
        if on_board > self.shared.oracle_seeds {
            return Probe::Unknown;
        }
        let Some(mut b) = oracle.probe(pos) else {
            return Probe::Unknown;
        };
        let me = pos.to_move();
        let repetition = self.rules.repetition;
        let mut depends = usize::MAX;
        let mut j = self.base + ply;
        while j >= 1 && self.seeds[j - 1] == on_board {
            j -= 1;
            let wider = b.in_game([Position::repetition_payoff(self.keys[j], me, repetition)]);
            if wider != b {
                b = wider;
                depends = j;
            }
            if repetition == Repetition::Nobody {
                // Every repetition pays the same: nothing.
                break;
            }
        }
        let (lower, upper) = (i32::from(b.lower), i32::from(b.upper));
        let diff = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        let (lo, hi) = (diff + lower, diff + upper);
        let settled = if lo == hi || (lo >= 0 && Score::proven(lo).0 >= beta) {
            Score::proven(lo).0
        } else if hi <= 0 && Score::proven(hi).0 <= alpha {
            Score::proven(hi).0
        } else if self.params.oracle_window {
            return Probe::Between(Known::of_margins(lo, hi, depends));
        } else {
            return Probe::Unknown;
        };
        self.rep_floor = self.rep_floor.min(depends);
        Probe::Settled(settled)
    }

    /// A heuristic score brought within what the oracle proved of the
    /// node: its final margin lies between the bounds, so an evaluation
    /// (or a search resting on evaluations) that says more or less is
    /// wrong by at least the difference. Decided scores stand.
    #[inline(always)]
    fn within_known(&mut self, score: i32, known: Option<Known>) -> i32 {
        let Some(known) = known else {
            return score;
        };
        if score.abs() >= MAX_HEURISTIC {
            return score;
        }
        let clamped = score.clamp(known.floor, known.ceiling);
        if clamped != score {
            self.rep_floor = self.rep_floor.min(known.depends);
        }
        clamped
    }

    /// A node at the horizon: the evaluation, or (when asked for) a search
    /// of the captures until the position is quiet.
    fn leaf(&mut self, pos: &Position, legal: Moves, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.evaluate(pos);
        if !self.params.qsearch || ply >= MAX_PLY || stand >= beta {
            return stand;
        }
        let me = pos.to_move();
        let mine = pos.store(me);
        let mut best = stand;
        alpha = alpha.max(stand);
        for m in legal {
            let child = pos.play_unchecked(m);
            if child.store(me) == mine {
                continue;
            }
            let s = -self.node(&child, 0, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Whether a node near the leaves stands so far above beta that the
    /// opponent will not allow it (off unless `static_margin` is set).
    /// Never when the side to move's row is empty: its next move may end
    /// the game by starvation.
    #[inline(always)]
    fn statically_pruned(&self, pos: &Position, depth: i32, beta: i32) -> bool {
        let p = self.params;
        p.static_margin > 0
            && depth <= p.static_depth
            && beta.abs() < MAX_HEURISTIC
            && pos.seeds_in_row(pos.to_move()) > 0
            && self.evaluate(pos) - p.static_margin * depth >= beta
    }

    /// Whether the side to move, were it to pass, would still stand at
    /// beta or above (off unless `null_reduction` is set). Not twice in a
    /// row, not with few seeds, and not when the opponent's row is empty
    /// (it could not move).
    fn null_move_cuts(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize) -> bool {
        let p = self.params;
        if p.null_reduction == 0
            || depth < 3
            || self.null_path[ply]
            || beta.abs() >= MAX_HEURISTIC
            || i32::from(pos.seeds_on_board()) < p.null_seeds
            || pos.seeds_in_row(pos.to_move().opponent()) == 0
            || self.evaluate(pos) < beta
        {
            return false;
        }
        let passed = pos.with_side_to_move(pos.to_move().opponent());
        self.null_path[ply + 1] = true;
        let s = -self.node(
            &passed,
            depth - 1 - p.null_reduction,
            -beta,
            -beta + 1,
            ply + 1,
        );
        self.null_path[ply + 1] = false;
        !self.stopped && s >= beta
    }

    /// Searches the moves of a node, best-looking first; returns the best
    /// score and move (`NO_MOVE` when every move was pruned).
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &Position,
        legal: Moves,
        tt_move: u8,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> (i32, u8) {
        let pv_node = beta - alpha > 1;
        let me = pos.to_move();
        // Moves with their children, best-looking first.
        let mut list = [(0u8, Position::START, 0i32); 6];
        let mut n = 0;
        let side = me.index();
        let killers = self.killers[ply];
        // The table's move first, alone: when it cuts off, the other
        // children are never made.
        let mut generated = false;
        if tt_move != NO_MOVE && legal.bits() & (1 << tt_move) != 0 {
            list[0] = (
                tt_move,
                pos.play_unchecked(Move::new(me, tt_move as usize)),
                1 << 30,
            );
            n = 1;
        } else {
            order_moves(
                pos,
                legal.bits(),
                killers,
                &self.history[side],
                &mut list,
                &mut n,
            );
            self.prefetch_children(&list[..n], depth);
            generated = true;
        }

        // At the frontier, a quiet move cannot lift a position far below
        // alpha: only captures are searched.
        // Worked out only when a second move is reached (most nodes that
        // cut off do it with the first).
        let may_be_futile = self.params.futility > 0
            && depth <= self.params.futility_depth
            && !pv_node
            && alpha.abs() < MAX_HEURISTIC;
        let mut futile: Option<bool> = None;
        let alpha_start = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut k = 0;
        loop {
            if k == n {
                if generated {
                    break;
                }
                let rest = legal.bits() & !(1 << tt_move);
                let first = n;
                order_moves(pos, rest, killers, &self.history[side], &mut list, &mut n);
                self.prefetch_children(&list[first..n], depth);
                generated = true;
                if k == n {
                    break;
                }
            }
            let (i, child, order) = list[k];
            let quiet = order < 1 << 22;
            // A move that leaves the opponent no seeds may end the game:
            // never pruned.
            if may_be_futile && quiet && k > 0 && child.seeds_in_row(child.to_move()) > 0 && {
                *futile.get_or_insert_with(|| {
                    self.evaluate(pos) + self.params.futility * depth <= alpha_start
                })
            } {
                k += 1;
                continue;
            }
            let score = if k == 0 {
                -self.node(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let reduction = self.reduction(depth, k, quiet);
                let mut s = -self.node(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.node(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if self.stopped {
                return (0, NO_MOVE);
            }
            if score > best {
                best = score;
                best_move = i;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.set_pv(ply, i);
                    }
                    if score >= beta {
                        if quiet {
                            self.quiet_cutoff(ply, side, i, &list[..k], depth);
                        }
                        break;
                    }
                }
            }
            k += 1;
        }
        (best, best_move)
    }

    /// Late move reductions: the plies a quiet move late in the order is
    /// searched short of the full depth (searched again in full when it
    /// beats alpha).
    #[inline(always)]
    fn reduction(&self, depth: i32, k: usize, quiet: bool) -> i32 {
        let p = self.params;
        if p.lmr_divisor > 0 {
            if depth < 3 || !quiet || k < p.lmr_first {
                return 0;
            }
            return i32::from(self.lmr[(depth as usize).min(MAX_PLY)][k]);
        }
        if depth >= 3 && quiet && k >= p.lmr_first {
            let mut r = 1 + i32::from(k >= p.lmr_first + 2 && depth >= 6);
            if p.lmr_deep {
                r += i32::from(depth >= 10 && k > p.lmr_first);
            }
            r.min(depth - 2)
        } else {
            0
        }
    }

    /// A quiet move `i` cut off at `ply`: it becomes a killer and gains
    /// history (and the quiet moves tried before it lose some, with
    /// `history_malus`).
    fn quiet_cutoff(
        &mut self,
        ply: usize,
        side: usize,
        i: u8,
        tried: &[(u8, Position, i32)],
        depth: i32,
    ) {
        let killers = self.killers[ply];
        if killers[0] != i {
            self.killers[ply] = [i, killers[0]];
        }
        if self.params.history_malus {
            for &(j, _, order) in tried {
                if order < 1 << 22 {
                    let h = &mut self.history[side][j as usize];
                    *h = (*h - depth * depth).max(-(1 << 20));
                }
            }
        }
        let h = &mut self.history[side][i as usize];
        *h += depth * depth;
        if *h > 1 << 20 {
            for row in &mut self.history {
                for v in row {
                    *v /= 2;
                }
            }
        }
    }

    /// Stores a node's result in the table. A score that rests on a
    /// repetition of a position above the node holds only on this path:
    /// then only the move is kept.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store(
        &self,
        hash: u64,
        best: i32,
        best_move: u8,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let path_dependent = self.rep_floor < self.base + ply;
        self.shared.table.store(
            hash,
            Entry {
                score: Score(best).to_tt(ply as u32),
                depth: depth.clamp(0, 255) as u8,
                bound: (!path_dependent).then_some(bound),
                best: (best_move != NO_MOVE).then_some(best_move),
            },
        );
    }
}

/// The share of the clock's time an undisturbed search uses, in percent:
/// 70% when the best move has not changed lately, up to 230% when it keeps
/// changing (`changes`: 100 for a change in the last iteration, halved at
/// each one after), and up to twice that when the score has just dropped
/// (by 1.5 seeds or more). Decided scores are not a drop.
fn time_scale(changes: u32, previous: i32, score: i32) -> u32 {
    let base = 70 + changes * 4 / 5;
    let drop = if previous.abs() < MAX_HEURISTIC && score.abs() < MAX_HEURISTIC {
        (previous - score).clamp(0, 150) as u32
    } else {
        0
    };
    (base * (150 + drop) / 150).clamp(50, 460)
}

/// Late move reductions `ln(depth) × ln(k) × 100 / divisor` (rounded, at
/// least 1, at most depth - 2) by depth and move index `k`.
fn lmr_table(divisor: i32) -> [[u8; 6]; MAX_PLY + 1] {
    let mut table = [[0; 6]; MAX_PLY + 1];
    if divisor <= 0 {
        return table;
    }
    for (depth, row) in table.iter_mut().enumerate().skip(3) {
        for (k, r) in row.iter_mut().enumerate().skip(1) {
            let x = (depth as f64).ln() * (k as f64).ln() * 100.0 / f64::from(divisor) + 0.5;
            *r = (x as i32).clamp(1, depth as i32 - 2) as u8;
        }
    }
    table
}

/// The score a table entry settles for a window, if it does.
#[inline(always)]
fn cutoff(e: Entry, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let s = Score::from_tt(e.score, ply as u32).0;
    let cut = match e.bound {
        Some(Bound::Exact) => true,
        Some(Bound::Lower) => s >= beta,
        Some(Bound::Upper) => s <= alpha,
        None => false,
    };
    cut.then_some(s)
}

/// Adds the moves of `bits` with their children to `list[*n..]`, best
/// looking first: captures (biggest first), killers, then by history.
#[inline(always)]
fn order_moves(
    pos: &Position,
    mut bits: u8,
    killers: [u8; 2],
    history: &[i32; 6],
    list: &mut [(u8, Position, i32); 6],
    n: &mut usize,
) {
    let me = pos.to_move();
    let mine = pos.store(me);
    let first = *n;
    while bits != 0 {
        let i = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let child = pos.play_unchecked(Move::new(me, i as usize));
        let captured = i32::from(child.store(me) - mine);
        let order = if captured > 0 {
            (1 << 24) + captured
        } else if i == killers[0] {
            1 << 23
        } else if i == killers[1] {
            1 << 22
        } else {
            history[i as usize]
        };
        // Insertion sort, descending.
        let mut k = *n;
        while k > first && list[k - 1].2 < order {
            list[k] = list[k - 1];
            k -= 1;
        }
        list[k] = (i, child, order);
        *n += 1;
    }
}

/// The score of a game that ended for `reason` in `pos`, `ply` plies from
/// the root, for the side to move: won, lost or drawn on the final stores.
fn end_score(pos: &Position, reason: EndReason, rules: &Rules, ply: usize) -> i32 {
    let stores = pos.final_stores(reason, rules);
    let me = pos.to_move();
    let mine = stores[me.index()];
    let theirs = stores[me.opponent().index()];
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => WIN - ply as i32,
        std::cmp::Ordering::Less => -WIN + ply as i32,
        std::cmp::Ordering::Equal => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_scale_spends_more_when_the_search_is_unsure() {
        let steady = time_scale(0, 50, 50);
        assert!(steady < 100, "{steady}");
        assert!(time_scale(100, 50, 50) > 100);
        assert!(time_scale(150, 50, 50) > time_scale(100, 50, 50));
        assert!(time_scale(0, 50, -100) >= 2 * steady - 1);
        // A rise is no reason to think longer, nor a win found.
        assert_eq!(time_scale(0, 50, 300), steady);
        assert_eq!(time_scale(0, 50, -Score::win_in(5).0), steady);
        assert!(time_scale(200, 0, -150) <= 460);
    }

    #[test]
    fn the_engine_can_move_to_another_thread() {
        fn is_send<T: Send>() {}
        is_send::<Engine>();
    }
}
