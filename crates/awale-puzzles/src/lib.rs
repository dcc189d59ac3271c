//! Puzzles found in the exact endgame databases (rules `awale`): positions
//! where exactly one move keeps the database value, every other move giving
//! strictly less, with a goal the stores make real (the only move that wins,
//! or the only one that saves a draw), a theme and a difficulty.
//!
//! A puzzle is always judged from a fresh start (no position played since
//! the last capture), as the database values are: see `docs/DATABASES.md`.
//!
//! ```no_run
//! use awale_core::Rules;
//! use awale_db::Database;
//!
//! let db = Database::open(std::path::Path::new("/tmp/awale-db"), &Rules::AWALE).unwrap();
//! for puzzle in awale_puzzles::generator(&db, 7).unwrap().take(3) {
//!     println!("{} {} {}", puzzle.position, puzzle.answer, puzzle.theme.name());
//! }
//! ```
#![deny(missing_docs)]

use std::fmt;

use awale_core::{EndReason, Move, MoveError, Position, Side, TOTAL_SEEDS};
use awale_db::{level_size, unrank, Database, MoveEntry};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

/// Longest line (plies, the answer included) that a puzzle may need to win
/// its value: longer ones are not shown to a learner.
pub const MAX_LINE: usize = 24;

/// Fewest seeds on the board of a generated puzzle (when the database goes
/// that far): below this, positions are too bare to teach much.
pub const MIN_SEEDS: u8 = 5;

/// Most seeds on the board of a generated puzzle: the levels above are
/// large and their lines long.
pub const MAX_SEEDS: u8 = 24;

/// How many boards [`Generator`] looks at, in a row without finding a
/// puzzle, before it gives up (each look is a few probes).
pub const MAX_ATTEMPTS: u32 = 20_000;

/// Why puzzles cannot be made from a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// The database holds bounds, not values (`repetition = own_row`).
    NotExact,
    /// The rules have a target: then the value depends on the stores.
    Target(u8),
    /// The database has too few levels to hold a puzzle.
    TooSmall(u8),
    /// More seeds on the board (first) than the database covers (second).
    NotCovered(u8, u8),
    /// The move cannot be played here (the game being over included).
    Illegal(MoveError),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::NotExact => write!(
                f,
                "puzzles need exact values: use the `awale` rules (under `repetition = own_row` \
                 the database holds only bounds)"
            ),
            PuzzleError::Target(t) => write!(
                f,
                "puzzles need rules without a target (here {t}): the value would depend on \
                 the stores"
            ),
            PuzzleError::TooSmall(n) => write!(
                f,
                "the database goes up to {n} seeds: puzzles need at least 4 \
                 (`awale db build --max-seeds 16`)"
            ),
            PuzzleError::NotCovered(seeds, max) => write!(
                f,
                "{seeds} seeds on the board: the database covers up to {max}"
            ),
            PuzzleError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// What the solver plays for: the stores make the one right move the only
/// one that wins the game, or the only one that does not lose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The answer wins the game; every other move draws or loses.
    Win,
    /// The answer draws the game; every other move loses.
    Draw,
}

impl Goal {
    /// The stable name: `win` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Draw => "draw",
        }
    }
}

/// What a puzzle is about, the first that applies in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The answer captures from two holes or more, and another move
    /// captures too: the only capture chain that works.
    CaptureChain,
    /// Along the database's line the game ends by starvation: the opponent
    /// has no seeds, nobody can feed them, and the solver takes the rest.
    Starvation,
    /// The answer sows a krou (12 seeds or more, round the board).
    Krou,
    /// Another move captures at once, the answer captures nothing: the
    /// capture is the trap.
    QuietMove,
    /// The goal is a draw: every other move loses the game.
    SaveDraw,
    /// The goal is a win: seeds to win with the only move that wins.
    WinSeeds,
}

impl Theme {
    /// Every theme, in the order they are tried.
    pub const ALL: [Theme; 6] = [
        Theme::CaptureChain,
        Theme::Starvation,
        Theme::Krou,
        Theme::QuietMove,
        Theme::SaveDraw,
        Theme::WinSeeds,
    ];

    /// The stable name, e.g. `capture_chain`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::CaptureChain => "capture_chain",
            Theme::Starvation => "starvation",
            Theme::Krou => "krou",
            Theme::QuietMove => "quiet_move",
            Theme::SaveDraw => "save_draw",
            Theme::WinSeeds => "win_seeds",
        }
    }

    /// The theme named `name` (see [`Theme::name`]).
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// A title in English, for the terminal.
    pub fn title(self) -> &'static str {
        match self {
            Theme::CaptureChain => "the only capture chain that works",
            Theme::Starvation => "starve them out",
            Theme::Krou => "the krou",
            Theme::QuietMove => "don't take the bait",
            Theme::SaveDraw => "save a draw",
            Theme::WinSeeds => "win seeds",
        }
    }
}

/// A puzzle: a position (stores included) where one move alone keeps the
/// database value, and what the database says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, the solver to move.
    pub position: Position,
    /// The one move that keeps the value.
    pub answer: Move,
    /// The database value of the position: seeds the solver will still
    /// capture minus the opponent's, from a fresh start.
    pub value: i8,
    /// The best value of any other move (strictly less than `value`).
    pub second: i8,
    /// What the answer achieves with these stores.
    pub goal: Goal,
    /// What the puzzle is about.
    pub theme: Theme,
    /// 1 (a first puzzle) to 5 (hard): see [`difficulty()`].
    pub difficulty: u8,
    /// The database's line, the answer first, until the value is won (or
    /// the game ends): both sides keep the value, the winner hurrying.
    pub line: Vec<Move>,
}

impl Puzzle {
    /// The position as a puzzle, if it is one: covered by `db` (exact, no
    /// target), at least two legal moves, one alone keeping the value, a
    /// value that is not 0, a line of at most [`MAX_LINE`] plies, and stores
    /// that make the answer the only move that wins (others draw or lose)
    /// or the only one that draws (others lose).
    pub fn from_position(db: &Database, position: Position) -> Option<Puzzle> {
        let solved = Solved::of(db, &position)?;
        if solved.value == 0 {
            return None;
        }
        let d = store_difference(&position);
        let goal = if d + solved.value > 0 && d + solved.second <= 0 {
            Goal::Win
        } else if d + solved.value == 0 {
            Goal::Draw
        } else {
            return None;
        };
        let line = db_line(db, &position, MAX_LINE + 1).filter(|l| l.len() <= MAX_LINE)?;
        let theme = theme(&position, &solved, goal, &line);
        let difficulty = difficulty(&position, solved.answer, line.len());
        Some(Puzzle {
            position,
            answer: solved.answer,
            value: solved.value,
            second: solved.second,
            goal,
            theme,
            difficulty,
            line,
        })
    }

    /// Seeds on the board.
    pub fn seeds(&self) -> u8 {
        self.position.seeds_on_board()
    }
}

impl Serialize for Puzzle {
    /// `{"position": DIAGRAM, "answer": LETTER, "theme", "difficulty",
    /// "goal", "value", "second", "seeds", "line": [LETTERS]}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut o = s.serialize_struct("Puzzle", 9)?;
        o.serialize_field("position", &self.position.to_string())?;
        o.serialize_field("answer", &self.answer.to_string())?;
        o.serialize_field("theme", self.theme.name())?;
        o.serialize_field("difficulty", &self.difficulty)?;
        o.serialize_field("goal", self.goal.name())?;
        o.serialize_field("value", &self.value)?;
        o.serialize_field("second", &self.second)?;
        o.serialize_field("seeds", &self.seeds())?;
        let line: Vec<String> = self.line.iter().map(Move::to_string).collect();
        o.serialize_field("line", &line)?;
        o.end()
    }
}

/// The database's verdict on a position with one best move.
struct Solved {
    value: i8,
    second: i8,
    answer: Move,
    entries: Vec<MoveEntry>,
}

impl Solved {
    /// The values of the moves of `position`, when they are exact and one
    /// move alone keeps the position's value.
    fn of(db: &Database, position: &Position) -> Option<Solved> {
        if !db.is_exact() || db.rules().target.is_some() || position.end(&db.rules()).is_some() {
            return None;
        }
        let value = db.probe(position).filter(|e| e.is_exact())?.lower;
        let entries = db.move_entries(position)?;
        if entries.len() < 2 || entries.iter().any(|e| e.lower != e.upper) {
            return None;
        }
        let mut keeping = entries.iter().filter(|e| e.lower == value);
        let answer = keeping.next()?.mv;
        if keeping.next().is_some() {
            return None;
        }
        let second = entries
            .iter()
            .filter(|e| e.mv != answer)
            .map(|e| e.lower)
            .max()?;
        Some(Solved {
            value,
            second,
            answer,
            entries,
        })
    }
}

/// The mover's store minus the opponent's.
fn store_difference(position: &Position) -> i8 {
    let mover = position.to_move();
    position.store(mover) as i8 - position.store(mover.opponent()) as i8
}

/// The database's line from `position`: each side plays
/// [`Database::best_move`] (the value kept, the winner hurrying to its
/// captures, the loser delaying them) until the value is won (a position
/// worth 0 is reached), the game ends, or `max_plies` are played. `None`
/// when the position is not covered.
pub fn db_line(db: &Database, position: &Position, max_plies: usize) -> Option<Vec<Move>> {
    let rules = db.rules();
    let mut line = Vec::new();
    let mut p = *position;
    loop {
        if p.end(&rules).is_some()
            || (!line.is_empty() && db.probe(&p)?.lower == 0)
            || line.len() == max_plies
        {
            return Some(line);
        }
        let mv = db.best_move(&p)?;
        line.push(mv);
        p = p.play_unchecked(mv);
    }
}

fn theme(position: &Position, solved: &Solved, goal: Goal, line: &[Move]) -> Theme {
    let answer = solved.answer;
    let others_capture = solved
        .entries
        .iter()
        .any(|e| e.mv != answer && e.captures > 0);
    if position.sowing(answer).captures.len() >= 2 && others_capture {
        return Theme::CaptureChain;
    }
    if starves_the_opponent(position, line) {
        return Theme::Starvation;
    }
    if position.hole(answer.hole()) >= 12 {
        return Theme::Krou;
    }
    if position.captures(answer) == 0 && others_capture {
        return Theme::QuietMove;
    }
    match goal {
        Goal::Draw => Theme::SaveDraw,
        Goal::Win => Theme::WinSeeds,
    }
}

/// Whether the line ends the game by starvation with seeds left for the
/// solver (the survivor takes the seeds of its row, all there are).
pub fn starves_the_opponent(position: &Position, line: &[Move]) -> bool {
    let solver = position.to_move();
    let end = line.iter().fold(*position, |p, &m| p.play_unchecked(m));
    let rules = awale_core::Rules::AWALE;
    end.end(&rules) == Some(EndReason::Starvation) && end.seeds_in_row(solver) > 0
}

/// 1 to 5: one more than the points for how long the line is (plies until
/// the value is won: 1 ply 0 points, 2-4 plies 1, 5-11 2, 12 or more 3) and
/// for how tempting the wrong moves are (one captures more seeds than the
/// answer: 2; one captures as many, not none: 1), at most 5.
pub fn difficulty(position: &Position, answer: Move, line_len: usize) -> u8 {
    let length = match line_len {
        0..=1 => 0,
        2..=4 => 1,
        5..=11 => 2,
        _ => 3,
    };
    let rules = awale_core::Rules::AWALE;
    let answer_captures = position.captures(answer);
    let wrong = position.legal_moves(&rules).filter(|&m| m != answer);
    let best_wrong = wrong.map(|m| position.captures(m)).max().unwrap_or(0);
    let bait = if best_wrong > answer_captures {
        2
    } else if best_wrong > 0 && best_wrong == answer_captures {
        1
    } else {
        0
    };
    (1 + length + bait).min(5)
}

/// The database's verdict on a move: whether it keeps the value, and the
/// lines that show why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The position judged.
    pub position: Position,
    /// The move played.
    pub played: Move,
    /// Whether it keeps the position's value.
    pub correct: bool,
    /// The position's value (side to move's view).
    pub value: i8,
    /// The moves that keep it (one, in a puzzle).
    pub best: Vec<Move>,
    /// Every legal move with its value, capture and distance.
    pub moves: Vec<MoveEntry>,
    /// The database's line from the position (see [`db_line`]).
    pub line: Vec<Move>,
    /// When the move is wrong: the move, then the database's line after it,
    /// which shows what it loses. Empty when it is right.
    pub refutation: Vec<Move>,
}

/// Judges `played` in `position` with the exact database `db`, from a
/// fresh start. Lines are at most [`MAX_LINE`] plies.
///
/// # Errors
///
/// The database holds bounds or the rules have a target; the position has
/// more seeds than the database covers; the move cannot be played.
pub fn judge(db: &Database, position: &Position, played: Move) -> Result<Judgement, PuzzleError> {
    if !db.is_exact() {
        return Err(PuzzleError::NotExact);
    }
    if let Some(t) = db.rules().target {
        return Err(PuzzleError::Target(t));
    }
    position
        .check(played, &db.rules())
        .map_err(PuzzleError::Illegal)?;
    let seeds = position.seeds_on_board();
    let not_covered = PuzzleError::NotCovered(seeds, db.max_seeds());
    let value = db.probe(position).ok_or(not_covered.clone())?.lower;
    let moves = db.move_entries(position).ok_or(not_covered.clone())?;
    let best: Vec<Move> = moves
        .iter()
        .filter(|e| e.lower == value)
        .map(|e| e.mv)
        .collect();
    let correct = best.contains(&played);
    let line = db_line(db, position, MAX_LINE).ok_or(not_covered.clone())?;
    let refutation = if correct {
        Vec::new()
    } else {
        let after = position.play_unchecked(played);
        let mut line = vec![played];
        line.extend(db_line(db, &after, MAX_LINE - 1).ok_or(not_covered)?);
        line
    };
    Ok(Judgement {
        position: *position,
        played,
        correct,
        value,
        best,
        moves,
        line,
        refutation,
    })
}

impl Serialize for Judgement {
    /// `{"position", "move", "correct", "value", "best": [LETTERS],
    /// "moves": [{"move", "value", "captures", "distance"}], "line",
    /// "refutation"}`; `distance` (plies to the next capture along the
    /// database's play) is null for a value of 0.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Entry<'a>(&'a MoveEntry);
        impl Serialize for Entry<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut o = s.serialize_struct("Move", 4)?;
                o.serialize_field("move", &self.0.mv.to_string())?;
                o.serialize_field("value", &self.0.lower)?;
                o.serialize_field("captures", &self.0.captures)?;
                o.serialize_field("distance", &self.0.distance)?;
                o.end()
            }
        }
        let letters =
            |moves: &[Move]| -> Vec<String> { moves.iter().map(Move::to_string).collect() };
        let mut o = s.serialize_struct("Judgement", 8)?;
        o.serialize_field("position", &self.position.to_string())?;
        o.serialize_field("move", &self.played.to_string())?;
        o.serialize_field("correct", &self.correct)?;
        o.serialize_field("value", &self.value)?;
        o.serialize_field("best", &letters(&self.best))?;
        let moves: Vec<Entry<'_>> = self.moves.iter().map(Entry).collect();
        o.serialize_field("moves", &moves)?;
        o.serialize_field("line", &letters(&self.line))?;
        o.serialize_field("refutation", &letters(&self.refutation))?;
        o.end()
    }
}

/// The first puzzle from `seed` (see [`generator`]) of this difficulty and
/// theme, looking at `max_puzzles` puzzles at most: bounded work for a
/// server. `Ok(None)` when none of them fits.
///
/// # Errors
///
/// As [`generator`].
pub fn find(
    db: &Database,
    seed: u64,
    difficulty: Option<u8>,
    theme: Option<Theme>,
    max_puzzles: usize,
) -> Result<Option<Puzzle>, PuzzleError> {
    Ok(generator(db, seed)?.take(max_puzzles).find(|p| {
        difficulty.is_none_or(|d| p.difficulty == d) && theme.is_none_or(|t| p.theme == t)
    }))
}

/// The puzzle of the day `day` (days since 1970-01-01, UTC): the same for
/// everyone with the same database that day, neither a first puzzle nor
/// the hardest (difficulty 2 to 4).
///
/// # Errors
///
/// As [`generator`].
pub fn daily(db: &Database, day: u64) -> Result<Option<Puzzle>, PuzzleError> {
    Ok(generator(db, daily_seed(day))?
        .take(200)
        .find(|p| (2..=4).contains(&p.difficulty)))
}

/// A small random number generator (SplitMix64): the same seed gives the
/// same puzzles on every machine.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Puzzles drawn from a database, for ever (see [`generator`]).
pub struct Generator<'a> {
    db: &'a Database,
    rng: Rng,
    min_seeds: u8,
    max_seeds: u8,
}

/// Puzzles from `db`, in an order fixed by `seed`: boards drawn at random
/// (a number of seeds between [`MIN_SEEDS`] and [`MAX_SEEDS`] as far as the
/// database goes, then a board of that level; now and then one with a
/// krou), a side to move, and stores
/// adding up to 48 that give the puzzle its goal. The iterator ends only if
/// [`MAX_ATTEMPTS`] boards in a row are not puzzles.
///
/// # Errors
///
/// The database holds bounds, the rules have a target, or it goes up to
/// fewer than 4 seeds.
pub fn generator(db: &Database, seed: u64) -> Result<Generator<'_>, PuzzleError> {
    if !db.is_exact() {
        return Err(PuzzleError::NotExact);
    }
    if let Some(t) = db.rules().target {
        return Err(PuzzleError::Target(t));
    }
    if db.max_seeds() < 4 {
        return Err(PuzzleError::TooSmall(db.max_seeds()));
    }
    let max_seeds = db.max_seeds().min(MAX_SEEDS);
    Ok(Generator {
        db,
        rng: Rng(seed),
        min_seeds: MIN_SEEDS.min(max_seeds),
        max_seeds,
    })
}

impl Generator<'_> {
    /// A board drawn at random (side to move's row first) and its seeds:
    /// once in eight, when the database goes to 12 seeds or more, one with
    /// a krou in the mover's row (boards drawn evenly almost never have
    /// one).
    fn board(&mut self) -> ([u8; 12], u8) {
        if self.max_seeds >= 12 && self.rng.below(8) == 0 {
            let low = self.min_seeds.max(12);
            let seeds = low + self.rng.below(u64::from(self.max_seeds - low) + 1) as u8;
            let krou = 12 + self.rng.below(u64::from(seeds - 12) + 1) as u8;
            let rest = seeds - krou;
            let mut board = unrank(self.rng.below(level_size(rest)), rest);
            board[self.rng.below(6) as usize] += krou;
            return (board, seeds);
        }
        let span = u64::from(self.max_seeds - self.min_seeds) + 1;
        let seeds = self.min_seeds + self.rng.below(span) as u8;
        (unrank(self.rng.below(level_size(seeds)), seeds), seeds)
    }

    /// One board drawn at random, made a puzzle if it can be.
    fn attempt(&mut self) -> Option<Puzzle> {
        let (board, seeds) = self.board();
        let side = if self.rng.next() & 1 == 0 {
            Side::South
        } else {
            Side::North
        };
        // `board` is from the side to move's view: its row first.
        let mut holes = [0u8; 12];
        for i in 0..6 {
            holes[side.row().start + i] = board[i];
            holes[side.opponent().row().start + i] = board[6 + i];
        }
        let bare = Position::new(holes, [0, TOTAL_SEEDS - seeds], side).ok()?;
        let solved = Solved::of(self.db, &bare)?;
        if solved.value == 0 {
            return None;
        }
        let d = self.stores_difference(seeds, &solved)?;
        let rest = i16::from(TOTAL_SEEDS - seeds);
        let mover = ((rest + i16::from(d)) / 2) as u8;
        let mut stores = [0u8; 2];
        stores[side.index()] = mover;
        stores[side.opponent().index()] = TOTAL_SEEDS - seeds - mover;
        let position = Position::new(holes, stores, side).ok()?;
        Puzzle::from_position(self.db, position)
    }

    /// A difference of stores (mover's minus opponent's) that gives the
    /// puzzle a goal: two times in three the only move that wins (when the
    /// value is won seeds), else the only move that draws. Both stores stay
    /// at most 24 (nobody has won already) and add up to the seeds off the
    /// board.
    fn stores_difference(&mut self, seeds: u8, solved: &Solved) -> Option<i8> {
        let rest = i16::from(TOTAL_SEEDS - seeds);
        let fits = |d: i16| (rest + d) % 2 == 0 && (rest + d.abs()) / 2 <= 24;
        let (v, second) = (i16::from(solved.value), i16::from(solved.second));
        let wins: Vec<i16> = (1 - v..=-second).filter(|&d| fits(d)).collect();
        let draw = Some(-v).filter(|&d| fits(d));
        let pick_win = v > 0 && !wins.is_empty() && (self.rng.below(3) != 0 || draw.is_none());
        let d = if pick_win {
            wins[self.rng.below(wins.len() as u64) as usize]
        } else {
            draw?
        };
        Some(d as i8)
    }
}

impl Iterator for Generator<'_> {
    type Item = Puzzle;

    fn next(&mut self) -> Option<Puzzle> {
        (0..MAX_ATTEMPTS).find_map(|_| self.attempt())
    }
}

/// The seed of the puzzle of the day `day` (days since 1970-01-01, UTC).
fn daily_seed(day: u64) -> u64 {
    day.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x0A3A_1E00_0000_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theme_names_read_back() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_name(t.name()), Some(t));
        }
        assert_eq!(Theme::from_name("nothing"), None);
    }

    #[test]
    fn daily_seeds_differ_from_day_to_day() {
        assert_ne!(daily_seed(20_000), daily_seed(20_001));
    }
}
