//! The computer player, hints and game review, seen from the web server.
//!
//! PLACEHOLDER until `awale-engine` lands on main: a plain alpha-beta on the
//! store difference with made-up level names. Everything else in the crate
//! calls only this module's functions, so switching to the real engine and
//! its levels changes this file alone.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use awale_core::{Game, Move, Position, Rules};

/// A level offered to players.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LevelInfo {
    /// Its number, 1 the weakest.
    pub number: u8,
    /// Its name in French.
    pub name_fr: String,
    /// Its name in English.
    pub name_en: String,
    /// One line on how it plays, in French.
    pub description_fr: String,
    /// One line on how it plays, in English.
    pub description_en: String,
}

/// The levels, weakest first.
pub fn levels() -> Vec<LevelInfo> {
    (1..=6)
        .map(|n| LevelInfo {
            number: n,
            name_fr: format!("Niveau {n}"),
            name_en: format!("Level {n}"),
            description_fr: format!("Calcule {} coups (provisoire)", depth_of(n)),
            description_en: format!("Looks {} moves ahead (placeholder)", depth_of(n)),
        })
        .collect()
}

/// The level a game starts with when none is asked for.
pub const DEFAULT_LEVEL: u8 = 3;

/// Whether `level` names a level.
pub fn is_level(level: u8) -> bool {
    (1..=6).contains(&level)
}

fn depth_of(level: u8) -> u32 {
    u32::from(level) * 2
}

/// A score from the side to move's view, in hundredths of a seed, with how
/// people read it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Score {
    /// Hundredths of a seed, side to move's view; decided games are large.
    pub cp: i32,
    /// Whether the game's result is known (a forced win or loss).
    pub decided: bool,
    /// As written for people: "+1.00", "win in 7".
    pub text: String,
}

impl Score {
    fn from_seeds(seeds: i32) -> Score {
        Score {
            cp: seeds * 100,
            decided: false,
            text: format!("{:+.2}", f64::from(seeds)),
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
    /// Best line so far, as move letters.
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

/// What is known of a position from the endgame databases, when present.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct OracleValue {
    /// Lowest value (seeds the side to move still wins minus the opponent's).
    pub lower: i8,
    /// Highest value.
    pub upper: i8,
}

/// The computer: owns the engine.
pub struct Computer {
    _private: (),
}

impl Default for Computer {
    fn default() -> Self {
        Computer::new()
    }
}

impl Computer {
    /// A computer player.
    pub fn new() -> Computer {
        Computer { _private: () }
    }

    /// Whether an endgame oracle is loaded.
    pub fn has_oracle(&self) -> bool {
        false
    }

    /// The oracle's value for `position`, if it covers it.
    pub fn oracle_value(&self, _position: &Position) -> Option<OracleValue> {
        None
    }

    /// Chooses a move for the side to move at `level` within `budget`,
    /// reporting progress through `on_info`. None only when the game is over.
    pub fn choose_move(
        &self,
        game: &Game,
        level: u8,
        seed: u64,
        budget: Duration,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Thinking),
    ) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let deadline = Instant::now() + budget;
        let mut search = Search {
            rules: *game.rules(),
            deadline,
            stop,
            nodes: 0,
        };
        let mut best = moves[(seed as usize) % moves.len()];
        for depth in 1..=depth_of(level) {
            let Some((m, seeds, pv)) = search.root(&game.position(), depth) else {
                break;
            };
            best = m;
            on_info(&Thinking {
                depth,
                score: Score::from_seeds(seeds),
                pv,
                nodes: search.nodes,
            });
        }
        Some(best)
    }

    /// Scores every legal move of `game`'s position within `budget`.
    pub fn analyze(&self, game: &Game, budget: Duration, stop: &AtomicBool) -> Vec<MoveScore> {
        let position = game.position();
        let rules = *game.rules();
        let moves = game.legal_moves();
        let deadline = Instant::now() + budget;
        let mut search = Search {
            rules,
            deadline,
            stop,
            nodes: 0,
        };
        let mut scores: Vec<MoveScore> = moves
            .iter()
            .map(|&m| MoveScore {
                mv: m,
                score: Score::from_seeds(i32::from(position.captures_with(m, &rules))),
            })
            .collect();
        for depth in 1..=8 {
            let mut next = Vec::with_capacity(moves.len());
            for &m in &moves {
                let after = position.play(m, &rules);
                let gained = after.store(position.to_move()) as i32
                    - position.store(position.to_move()) as i32;
                match search.negamax(&after, depth - 1, -1000, 1000) {
                    Some(v) => next.push(MoveScore {
                        mv: m,
                        score: Score::from_seeds(gained - v),
                    }),
                    None => return scores,
                }
            }
            scores = next;
        }
        scores
    }
}

trait CapturesWith {
    fn captures_with(&self, m: Move, rules: &Rules) -> u8;
}

impl CapturesWith for Position {
    fn captures_with(&self, m: Move, rules: &Rules) -> u8 {
        let after = self.play(m, rules);
        after.store(self.to_move()) - self.store(self.to_move())
    }
}

struct Search<'a> {
    rules: Rules,
    deadline: Instant,
    stop: &'a AtomicBool,
    nodes: u64,
}

impl Search<'_> {
    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        self.nodes % 1024 == 0
            && (Instant::now() >= self.deadline || self.stop.load(Ordering::Relaxed))
            || self.stop.load(Ordering::Relaxed)
    }

    fn root(&mut self, position: &Position, depth: u32) -> Option<(Move, i32, String)> {
        let mut best: Option<(Move, i32, String)> = None;
        let mut alpha = -1000;
        for m in position.legal_moves(&self.rules) {
            let after = position.play(m, &self.rules);
            let gained = i32::from(after.store(position.to_move()))
                - i32::from(position.store(position.to_move()));
            let v = gained - self.negamax(&after, depth - 1, -1000, -alpha + gained)?;
            if best.as_ref().is_none_or(|b| v > b.1) {
                best = Some((m, v, m.letter().to_string()));
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// The store difference the side to move can still make, or None when
    /// time is up.
    fn negamax(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if self.out_of_time() {
            return None;
        }
        if let Some(reason) = position.end(&self.rules) {
            let stores = position.final_stores(reason, &self.rules);
            let me = position.to_move().index();
            let now = position.stores();
            let final_lead = i32::from(stores[me]) - i32::from(stores[1 - me]);
            let lead = i32::from(now[me]) - i32::from(now[1 - me]);
            return Some(final_lead - lead);
        }
        if depth == 0 {
            return Some(0);
        }
        let mut best = -1000;
        for m in position.legal_moves(&self.rules) {
            let after = position.play(m, &self.rules);
            let gained = i32::from(after.store(position.to_move()))
                - i32::from(position.store(position.to_move()));
            let v = gained - self.negamax(&after, depth - 1, -beta + gained, -alpha + gained)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}
