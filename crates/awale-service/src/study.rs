//! The study pages' model: puzzles from the exact endgame database of the
//! `awale` rules (crate `awale-puzzles`), a position's moves as the page
//! draws them (what each hole does, or why it cannot be played), and the
//! analysis of a position (the engine's lines, the database's value of
//! each move). Nothing is stored: every answer comes from its request.
//! `http::study` serves it; the work waits for the computer's pool.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use awale_core::{Game, Move, Position, Rules, Side};
use awale_db::Database;
use awale_puzzles::PuzzleError;
use serde::Serialize;
use serde_with::skip_serializing_none;

use crate::computer::{Computer, OracleValue, Score};
use crate::error::{Error, Kind};
use crate::view::{BoardView, RulesView};
use awale_model::Code;

/// Puzzles a request for a difficulty or a theme looks at, at most (each
/// is a few database probes: a fraction of a millisecond).
pub const MAX_PUZZLES: usize = 1_000;

/// Most engine lines an analysis gives.
pub const MAX_LINES: usize = 6;

/// Most moves of the history an analysis replays.
pub const MAX_HISTORY: usize = 2_000;

/// What the background build of the databases (`databases.rs`) has made
/// ready, for the study pages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Readiness {
    /// Every level up to this many seeds is built and used (None: not
    /// even level 0 yet).
    pub ready: Option<u8>,
    /// The level the build goes up to (or the highest found, if more).
    pub target: u8,
    /// Whether a level is being built now.
    pub building: bool,
    /// Why the build stopped short of the target (a damaged file, a full
    /// disk). A damaged file is never read: then no level is used.
    pub stopped: Option<String>,
}

/// What the study pages need that the games do not: the exact database of
/// the `awale` rules, for puzzles.
#[derive(Default)]
pub struct Study {
    puzzles: RwLock<Option<Arc<Database>>>,
    /// How far the server's own build of the databases is (None: it
    /// builds none).
    readiness: RwLock<Option<Readiness>>,
}

impl Study {
    /// The database puzzles come from.
    ///
    /// # Errors
    ///
    /// `no_database` (not found) when the server has none, saying how to
    /// build it.
    pub fn database(&self) -> Result<Arc<Database>, Error> {
        self.puzzles
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .ok_or_else(|| {
                Error::new(
                    Kind::NotFound,
                    Code::NoDatabase,
                    "puzzles come from the endgame database, and this server has none for the \
                     awale rules yet: it builds it at start unless told not to (`--db none`), \
                     or build it with `awale db build --max-seeds 16`, then restart the server",
                )
            })
    }

    /// Sets (or takes away) the puzzles' database.
    pub fn set_database(&self, db: Option<Arc<Database>>) {
        *self
            .puzzles
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = db;
    }

    /// How far the server's background build of the databases is; None
    /// when it builds none (`--db none`, or a folder of the owner's).
    pub fn readiness(&self) -> Option<Readiness> {
        self.readiness
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Sets how far the build is.
    pub fn set_readiness(&self, readiness: Option<Readiness>) {
        *self
            .readiness
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = readiness;
    }

    /// Changes how far the build is, if one runs.
    pub fn update_readiness(&self, change: impl FnOnce(&mut Readiness)) {
        let mut readiness = self
            .readiness
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(r) = readiness.as_mut() {
            change(r);
        }
    }
}

/// A puzzle library error as the server's.
pub fn puzzle_error(e: PuzzleError) -> Error {
    match e {
        PuzzleError::Illegal(e) => Error::illegal_move(awale_core::GameError::Illegal(e), None),
        PuzzleError::NotCovered(..) => Error::invalid(Code::NotCovered, e.to_string()),
        other => Error::internal(other.to_string()),
    }
}

/// No puzzle of the kind asked for was found.
pub fn no_puzzle() -> Error {
    Error::new(
        Kind::NotFound,
        Code::NoPuzzle,
        "no puzzle of this kind near this seed: try another seed (a bigger database has more)",
    )
}

/// Rules from their name (`awale` when absent).
///
/// # Errors
///
/// `bad_rules` naming what is wrong.
pub fn parse_rules(text: Option<&str>) -> Result<Rules, Error> {
    match text {
        None => Ok(Rules::AWALE),
        Some(t) => t
            .parse()
            .map_err(|e| Error::invalid(Code::BadRules, format!("{e}"))),
    }
}

/// The game of `start` with the `moves` (letters) played from it.
///
/// # Errors
///
/// `bad_moves` for text that is not moves or too many of them,
/// `illegal_move` naming the first move that cannot be played.
pub fn replay(start: Position, rules: Rules, moves: Option<&str>) -> Result<Game, Error> {
    let mut game = Game::from_position(rules, start);
    let Some(text) = moves else {
        return Ok(game);
    };
    let moves = awale_core::parse_moves(text).map_err(|e| {
        Error::new(Kind::Malformed, Code::BadMoves, e.to_string()).with("text", text)
    })?;
    if moves.len() > MAX_HISTORY {
        return Err(Error::invalid(
            Code::BadMoves,
            format!("{} moves: at most {MAX_HISTORY}", moves.len()),
        )
        .because("too_many")
        .with("count", moves.len())
        .with("max", MAX_HISTORY));
    }
    for (ply, m) in moves.into_iter().enumerate() {
        game.play(m).map_err(|e| {
            let mut error = Error::illegal_move(e, Some(m)).with("ply", ply + 1);
            error.message = format!("move {} ({m}): {e}", ply + 1);
            error
        })?;
    }
    Ok(game)
}

/// How a game ended, in a study (no clock, no resignation).
#[derive(Clone, Debug, Serialize)]
pub struct StudyEnd {
    /// `starvation`, `repetition`, `target` or `empty_board`.
    pub reason: &'static str,
    /// The stores once the seeds left are given out.
    pub stores: [u8; 2],
    /// `S`, `N`, or null for a draw.
    pub winner: Option<char>,
}

/// What one hole of the mover's row does.
#[skip_serializing_none]
#[derive(Clone, Debug, Serialize)]
pub struct HoleMove {
    /// Its letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether it can be played.
    pub legal: bool,
    /// Where its seeds fall, in order (board indices); legal moves only.
    pub sown: Option<Vec<u8>>,
    /// The holes its capture empties; legal moves only.
    pub captures: Option<Vec<u8>>,
    /// Seeds captured; legal moves only.
    pub captured: Option<u8>,
    /// Whether it takes every seed of the opponent (capturing nothing);
    /// legal moves only.
    pub grand_slam: Option<bool>,
    /// The position after it; legal moves only.
    pub after: Option<String>,
    /// Why it cannot be played: `empty_hole`, `does_not_feed`,
    /// `grand_slam` or `game_over`.
    pub reason: Option<&'static str>,
    /// The same in English words.
    pub message: Option<String>,
}

/// A position and what each hole of the mover's row does, as the page
/// draws it.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    /// The position.
    #[serde(flatten)]
    pub position: BoardView,
    /// The rules.
    pub rules: RulesView,
    /// Seeds in all, holes and stores (48 in a game, fewer in a study).
    pub seeds: u8,
    /// How the game ended, if it did here.
    pub end: Option<StudyEnd>,
    /// The mover's six holes, `A`-`F` or `a`-`f`.
    pub moves: Vec<HoleMove>,
}

fn study_end(reason: awale_core::EndReason, stores: [u8; 2]) -> StudyEnd {
    let winner = match stores[0].cmp(&stores[1]) {
        std::cmp::Ordering::Greater => Some(Side::South.letter()),
        std::cmp::Ordering::Less => Some(Side::North.letter()),
        std::cmp::Ordering::Equal => None,
    };
    StudyEnd {
        reason: reason.name(),
        stores,
        winner,
    }
}

impl PositionView {
    /// The view of `position` under `rules`, from a fresh start (no
    /// history: a repetition cannot be seen).
    pub fn of(position: &Position, rules: &Rules) -> PositionView {
        let end = position
            .end(rules)
            .map(|reason| study_end(reason, position.final_stores(reason, rules)));
        let mover = position.to_move();
        let moves = mover
            .row()
            .filter_map(Move::from_hole)
            .map(|m| match position.check(m, rules) {
                Ok(()) => {
                    let sowing = position.sowing(m);
                    HoleMove {
                        mv: m.to_string(),
                        legal: true,
                        sown: Some(sowing.sown),
                        captures: Some(sowing.captures),
                        captured: Some(position.captures(m)),
                        grand_slam: Some(position.is_grand_slam(m)),
                        after: Some(position.play_unchecked(m).to_string()),
                        reason: None,
                        message: None,
                    }
                }
                Err(e) => HoleMove {
                    mv: m.to_string(),
                    legal: false,
                    sown: None,
                    captures: None,
                    captured: None,
                    grand_slam: None,
                    after: None,
                    reason: Some(e.name()),
                    message: Some(e.to_string()),
                },
            })
            .collect();
        PositionView {
            position: BoardView::of(position),
            rules: RulesView::of(rules),
            seeds: position.seeds_on_board() + position.stores().iter().sum::<u8>(),
            end,
            moves,
        }
    }
}

/// One of the engine's best lines.
#[derive(Clone, Debug, Serialize)]
pub struct EngineLine {
    /// Its first move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score, the mover's view (the databases' result where they
    /// decide the move).
    pub score: Score,
    /// The line, as letters: the databases' where they decide the move.
    pub pv: Vec<String>,
}

/// A legal move: the engine's score, its capture, the database's value.
#[derive(Clone, Debug, Serialize)]
pub struct MoveValue {
    /// Its letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// The engine's score, the mover's view; the databases' result (the
    /// final margin, decided) where they decide the move.
    pub score: Option<Score>,
    /// Seeds it captures.
    pub captured: u8,
    /// The database's bounds on its value inside the game (captures
    /// included), the mover's view; equal when exact; null when not
    /// covered.
    pub db: Option<OracleValue>,
}

/// A position analysed.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The position and its moves.
    #[serde(flatten)]
    pub position: PositionView,
    /// The engine's best lines, best first.
    pub lines: Vec<EngineLine>,
    /// Every legal move.
    pub scores: Vec<MoveValue>,
    /// The database's value of the position inside the game, when it
    /// covers it.
    pub db: Option<OracleValue>,
}

/// Moves of a database's line shown, at most.
pub const DATABASE_LINE: usize = 20;

/// Analyses the position of `game` (its history counts for repetitions):
/// `lines` of the engine's best lines within `budget`, every move's score
/// and database value. Where the databases decide a move (its value exact
/// inside the game), its score is their result and its line theirs.
pub fn analyse(
    computer: &Computer,
    game: &Game,
    lines: usize,
    budget: Duration,
    stop: &AtomicBool,
) -> Analysis {
    let position = game.position();
    let mut view = PositionView::of(&position, game.rules());
    if let Some(outcome) = game.outcome() {
        view.end = Some(study_end(outcome.reason, outcome.stores));
        return Analysis {
            position: view,
            lines: Vec::new(),
            scores: Vec::new(),
            db: None,
        };
    }
    let analyses = computer.analyze_lines(game, budget, stop);
    let moves: Vec<(Move, MoveValue)> = game
        .legal_moves()
        .into_iter()
        .map(|m| {
            let engine = analyses.iter().find(|a| a.mv == m);
            let value = MoveValue {
                mv: m.to_string(),
                score: computer.followed(game, m, engine.map(|a| Score::from(a.score))),
                captured: position.captures(m),
                db: computer.move_value(game, m),
            };
            (m, value)
        })
        .collect();
    // The lines, best first (of moves scored alike, one the databases
    // decide): the engine's, or the databases' where they decide the move.
    let decided = |v: &MoveValue| v.db.as_ref().is_some_and(OracleValue::is_exact);
    let mut ranked: Vec<&(Move, MoveValue)> =
        moves.iter().filter(|(_, v)| v.score.is_some()).collect();
    ranked.sort_by_key(|(_, v)| {
        let cp = v.score.as_ref().map_or(i32::MIN, |s| s.cp);
        (std::cmp::Reverse(cp), !decided(v))
    });
    let engine_lines = ranked
        .into_iter()
        .filter_map(|(m, v)| {
            let pv = if decided(v) {
                let mut after = game.clone();
                after.play(*m).ok()?;
                std::iter::once(*m)
                    .chain(computer.oracle_line(&after, DATABASE_LINE - 1))
                    .collect()
            } else {
                analyses.iter().find(|a| a.mv == *m)?.pv.clone()
            };
            Some(EngineLine {
                mv: v.mv.clone(),
                score: v.score.clone()?,
                pv: pv.iter().map(Move::to_string).collect(),
            })
        })
        .take(lines)
        .collect();
    let scores = moves.into_iter().map(|(_, v)| v).collect();
    Analysis {
        lines: engine_lines,
        scores,
        db: computer.oracle_value(game),
        position: view,
    }
}
