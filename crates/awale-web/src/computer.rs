//! The computer player, hints and game review, seen from the web server: a
//! thin layer over `awale-engine` (its levels, search and analysis) and the
//! endgame oracle when one is loaded. Engines are kept in a small pool so
//! their transposition tables are reused; how many searches run at once is
//! bounded by the caller (a semaphore in the server state).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_core::{Game, GrandSlam, Move, Position, Repetition, Rules};
use awale_engine::{Engine, EngineOptions, Lang, Level, Limits, Oracle};

/// A level offered to players.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LevelInfo {
    /// Its number, 1 the weakest.
    pub number: u8,
    /// Its name in French.
    pub name_fr: &'static str,
    /// Its name in English.
    pub name_en: &'static str,
    /// Who it is for, in French.
    pub description_fr: &'static str,
    /// Who it is for, in English.
    pub description_en: &'static str,
}

/// The engine's levels, weakest first.
pub fn levels() -> Vec<LevelInfo> {
    Level::ALL
        .iter()
        .map(|&l| LevelInfo {
            number: l.number(),
            name_fr: l.name(Lang::Fr),
            name_en: l.name(Lang::En),
            description_fr: l.description(Lang::Fr),
            description_en: l.description(Lang::En),
        })
        .collect()
}

/// The level a game starts with when none is asked for.
pub const DEFAULT_LEVEL: u8 = 3;

/// Whether `level` names a level.
pub fn is_level(level: u8) -> bool {
    Level::from_number(level).is_some()
}

/// A score from the side to move's view, as the page shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Score {
    /// Hundredths of a seed, side to move's view; a decided game counts as
    /// its final margin (or ±50 seeds when only the distance is known), so
    /// plots and differences stay readable.
    pub cp: i32,
    /// Whether the result is known (a forced win or loss, or an oracle's).
    pub decided: bool,
    /// For a forced result: plies to the end, positive when the side to
    /// move wins.
    pub plies_to_end: Option<i32>,
    /// The engine's own wording, e.g. "+1.50 seeds" or "win in 7".
    pub text: String,
}

impl From<awale_engine::Score> for Score {
    fn from(s: awale_engine::Score) -> Score {
        let cp = if let Some(m) = s.proven_margin() {
            m * 100
        } else if s.is_win() {
            5_000
        } else if s.is_loss() {
            -5_000
        } else {
            s.cp_value()
        };
        Score {
            cp,
            decided: s.is_decided(),
            plies_to_end: s.plies_to_end(),
            text: s.to_string(),
        }
    }
}

/// What the computer is thinking, sent to the page while it searches.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Thinking {
    /// Depth reached.
    pub depth: u32,
    /// Best score so far.
    pub score: Score,
    /// Best line so far, its first moves as letters separated by spaces.
    pub pv: String,
    /// Positions searched.
    pub nodes: u64,
}

/// One legal move with its score.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MoveScore {
    /// The move's letter.
    #[serde(serialize_with = "ser_move")]
    pub mv: Move,
    /// Its score from the mover's view.
    pub score: Score,
}

fn ser_move<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_char(m.letter())
}

/// What the endgame databases know of a position (side to move's view:
/// seeds it will still capture minus the opponent's, from a fresh start).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct OracleValue {
    /// Lowest value.
    pub lower: i8,
    /// Highest value.
    pub upper: i8,
}

/// Hash table size of each engine of the pool.
const HASH_MB: usize = 32;

/// Finds the endgame oracle for a rule set (endgame databases are built per
/// rule variant), or None when there is none.
pub type OracleSource = Box<dyn Fn(&Rules) -> Option<Arc<dyn Oracle>> + Send + Sync>;

/// The rule options an oracle depends on.
type Variant = (GrandSlam, Repetition, Option<u8>);

/// The computer: a pool of engines and the oracles found so far.
pub struct Computer {
    engines: Mutex<Vec<Engine>>,
    source: Option<OracleSource>,
    oracles: Mutex<HashMap<Variant, Option<Arc<dyn Oracle>>>>,
}

impl Default for Computer {
    fn default() -> Self {
        Computer::new(None)
    }
}

impl Computer {
    /// A computer player, with endgame knowledge from `source` when given.
    pub fn new(source: Option<OracleSource>) -> Computer {
        Computer {
            engines: Mutex::new(Vec::new()),
            source,
            oracles: Mutex::new(HashMap::new()),
        }
    }

    /// The oracle for `rules`, asked of the source once per variant.
    fn oracle_for(&self, rules: &Rules) -> Option<Arc<dyn Oracle>> {
        let source = self.source.as_ref()?;
        let key = (rules.grand_slam, rules.repetition, rules.target);
        let mut oracles = self
            .oracles
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        oracles.entry(key).or_insert_with(|| source(rules)).clone()
    }

    /// Runs `work` with an engine of the pool, which has the oracle for
    /// `rules` when `oracle` is true.
    fn with_engine<R>(
        &self,
        rules: &Rules,
        oracle: bool,
        work: impl FnOnce(&mut Engine) -> R,
    ) -> R {
        let pooled = self
            .engines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop();
        let mut engine = pooled.unwrap_or_else(|| {
            Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                threads: 1,
            })
        });
        engine.set_oracle(if oracle { self.oracle_for(rules) } else { None });
        let result = work(&mut engine);
        self.engines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(engine);
        result
    }

    /// Whether an endgame oracle is there for either preset's rules.
    pub fn has_oracle(&self) -> bool {
        self.oracle_for(&Rules::AWALE).is_some() || self.oracle_for(&Rules::ABAPA).is_some()
    }

    /// The oracle's value for `position` under `game`'s rules, if it covers
    /// it.
    pub fn oracle_value(&self, game: &Game, position: &Position) -> Option<OracleValue> {
        let oracle = self.oracle_for(game.rules())?;
        let built = oracle.rules();
        let rules = game.rules();
        let same = built.grand_slam == rules.grand_slam
            && built.repetition == rules.repetition
            && built.target == rules.target;
        if !same || position.seeds_on_board() > oracle.max_seeds() {
            return None;
        }
        oracle.probe(position).map(|b| OracleValue {
            lower: b.lower,
            upper: b.upper,
        })
    }

    /// Chooses a move for the side to move at `level`, thinking at most
    /// `budget` (weak levels answer at once), reporting progress through
    /// `on_info`. None only when the game is over or the level unknown.
    pub fn choose_move(
        &self,
        game: &Game,
        level: u8,
        seed: u64,
        budget: Duration,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Thinking),
    ) -> Option<Move> {
        let level = Level::from_number(level)?;
        // Only the strongest level knows the endgame databases: the others
        // should lose endgames the way people do.
        let oracle = level == Level::Perfect;
        let mut limits = level.limits();
        if limits.movetime.is_none() && limits.depth.is_some_and(|d| d <= 8) {
            // A weak level: it scores the moves at a small depth and picks
            // one like a person would.
            return self.with_engine(game.rules(), oracle, |e| {
                awale_engine::choose_move(e, game, level, seed, stop)
            });
        }
        limits.movetime = Some(limits.movetime.map_or(budget, |t| t.min(budget)));
        self.with_engine(game.rules(), oracle, |e| {
            e.search(game, &limits, stop, &mut |info| {
                on_info(&Thinking {
                    depth: info.depth,
                    score: info.score.into(),
                    pv: info
                        .pv
                        .iter()
                        .take(12)
                        .map(|m| m.letter().to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    nodes: info.nodes,
                })
            })
            .best
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

    /// Scores every legal move of `game`'s position within `budget`, best
    /// first.
    pub fn analyze(&self, game: &Game, budget: Duration, stop: &AtomicBool) -> Vec<MoveScore> {
        let limits = Limits::movetime(budget);
        self.with_engine(game.rules(), true, |e| e.analyze(game, &limits, stop))
            .into_iter()
            .map(|a| MoveScore {
                mv: a.mv,
                score: a.score.into(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::Rules;

    #[test]
    fn every_level_has_a_name_in_both_languages() {
        let levels = levels();
        assert!(levels.len() >= 5);
        for (i, l) in levels.iter().enumerate() {
            assert_eq!(usize::from(l.number), i + 1);
            assert!(!l.name_fr.is_empty() && !l.name_en.is_empty());
            assert!(!l.description_fr.is_empty() && !l.description_en.is_empty());
        }
        assert!(is_level(DEFAULT_LEVEL));
        assert!(!is_level(0));
    }

    #[test]
    fn the_computer_takes_a_free_capture() {
        // South's F (2 seeds) ends in b, which then holds 3, and a holds
        // 2: +5 at once (f keeps a seed: no grand slam); D captures nothing.
        let position: Position = "0-0-0-1-0-2-1-2-0-0-0-1-20-21-S".parse().unwrap();
        let game = Game::from_position(Rules::AWALE, position);
        let stop = AtomicBool::new(false);
        let computer = Computer::default();
        let mv = computer.choose_move(&game, 6, 1, Duration::from_millis(200), &stop, &mut |_| {});
        assert_eq!(mv, Move::from_letter('F'));
        let scores = computer.analyze(&game, Duration::from_millis(200), &stop);
        assert_eq!(scores[0].mv, Move::from_letter('F').unwrap());
    }

    #[test]
    fn decided_scores_stay_readable_in_seeds() {
        let s: Score = awale_engine::Score::win_in(5).into();
        assert_eq!((s.cp, s.decided, s.plies_to_end), (5_000, true, Some(5)));
        let s: Score = awale_engine::Score::proven(-3).into();
        assert_eq!((s.cp, s.decided), (-300, true));
        let s: Score = awale_engine::Score::cp(150).into();
        assert_eq!(
            (s.cp, s.decided, s.text.as_str()),
            (150, false, "+1.50 seeds")
        );
    }
}
