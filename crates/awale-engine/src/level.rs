//! Strength levels for people, from a child's first game to the strongest
//! setting. Weak levels score every move with a shallow search and pick one
//! at random, better moves more often (a softmax with a temperature), so
//! they lose the way a beginner does: by overlooking, not by throwing
//! seeds away. Strong levels search deeper and longer.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Move};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::limits::Limits;
use crate::search::Engine;

/// A language for names shown to people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Français.
    Fr,
    /// English.
    En,
}

/// Strength levels for people, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Level 1: a child's first games.
    Seed,
    /// Level 2: knows the captures, misses much.
    Sprout,
    /// Level 3: a casual player.
    Apprentice,
    /// Level 4: a club player.
    Player,
    /// Level 5: a strong player.
    Expert,
    /// Level 6: the full search, a second a move.
    Master,
    /// Level 7: the strongest search, with the endgame oracle when one is set.
    Perfect,
}

/// How a level chooses its move.
enum Style {
    /// Scores every move at this depth, then a softmax with this
    /// temperature (in hundredths of a seed).
    Soft { depth: u32, temperature: f64 },
    /// A normal search within these limits.
    Search {
        depth: Option<u32>,
        time: Option<Duration>,
    },
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: &'static [Level] = &[
        Level::Seed,
        Level::Sprout,
        Level::Apprentice,
        Level::Player,
        Level::Expert,
        Level::Master,
        Level::Perfect,
    ];

    /// The level's number, 1 for the weakest: for the UI and `setoption
    /// name Level`.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The level with this number.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The level's name.
    pub fn name(self, lang: Lang) -> &'static str {
        let (fr, en) = match self {
            Level::Seed => ("Graine", "Seed"),
            Level::Sprout => ("Pousse", "Sprout"),
            Level::Apprentice => ("Apprenti", "Apprentice"),
            Level::Player => ("Joueur", "Player"),
            Level::Expert => ("Expert", "Expert"),
            Level::Master => ("Maître", "Master"),
            Level::Perfect => ("Parfait", "Perfect"),
        };
        match lang {
            Lang::Fr => fr,
            Lang::En => en,
        }
    }

    /// One sentence on who the level is for.
    pub fn description(self, lang: Lang) -> &'static str {
        let (fr, en) = match self {
            Level::Seed => (
                "Pour une première partie : joue vite et se trompe souvent.",
                "For a first game: plays fast and often goes wrong.",
            ),
            Level::Sprout => (
                "Voit les prises simples, oublie souvent de se protéger.",
                "Sees simple captures, often forgets to defend.",
            ),
            Level::Apprentice => (
                "Un joueur du dimanche : des coups sensés, quelques oublis.",
                "A casual player: sensible moves, a few slips.",
            ),
            Level::Player => (
                "Un bon joueur de club, qui calcule quelques coups à l'avance.",
                "A good club player who reads a few moves ahead.",
            ),
            Level::Expert => (
                "Calcule loin et se trompe rarement.",
                "Reads far ahead and seldom goes wrong.",
            ),
            Level::Master => (
                "La recherche complète, une seconde par coup.",
                "The full search, one second a move.",
            ),
            Level::Perfect => (
                "Le plus fort : recherche longue et tables de finales.",
                "The strongest: a long search and endgame tables.",
            ),
        };
        match lang {
            Lang::Fr => fr,
            Lang::En => en,
        }
    }

    fn style(self) -> Style {
        match self {
            Level::Seed => Style::Soft {
                depth: 1,
                temperature: 250.0,
            },
            Level::Sprout => Style::Soft {
                depth: 2,
                temperature: 120.0,
            },
            Level::Apprentice => Style::Soft {
                depth: 4,
                temperature: 60.0,
            },
            Level::Player => Style::Soft {
                depth: 7,
                temperature: 25.0,
            },
            Level::Expert => Style::Search {
                depth: Some(12),
                time: Some(Duration::from_millis(500)),
            },
            Level::Master => Style::Search {
                depth: None,
                time: Some(Duration::from_secs(1)),
            },
            Level::Perfect => Style::Search {
                depth: None,
                time: Some(Duration::from_secs(3)),
            },
        }
    }

    /// The limits of a search at this level (for protocol and matches).
    pub fn limits(self) -> Limits {
        match self.style() {
            Style::Soft { depth, .. } => Limits::depth(depth),
            Style::Search { depth, time } => Limits {
                depth,
                movetime: time,
                ..Limits::default()
            },
        }
    }
}

/// A level name or number that is not one of the levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl std::fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown level `{}` (expected 1 to {} or a level's name)",
            self.0,
            Level::ALL.len()
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl std::str::FromStr for Level {
    type Err = UnknownLevel;

    /// A level from its number (`1`..) or its name in either language,
    /// in any case (`graine`, `Seed`, `maitre` or `maître`).
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        let wanted = s.trim().to_lowercase().replace('î', "i");
        if let Ok(n) = wanted.parse::<u8>() {
            return Level::from_number(n).ok_or_else(|| UnknownLevel(s.to_string()));
        }
        Level::ALL
            .iter()
            .copied()
            .find(|level| {
                [Lang::Fr, Lang::En]
                    .iter()
                    .any(|&lang| level.name(lang).to_lowercase().replace('î', "i") == wanted)
            })
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Chooses a move for `game` at `level`: weak levels pick among good-to-bad
/// moves with a temperature (plausibly human), strong ones search. `seed`
/// makes it reproducible. Fast at low levels. `None` when the game is over.
pub fn choose_move(
    engine: &mut Engine,
    game: &Game,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Move> {
    if game.legal_moves().is_empty() {
        return None;
    }
    // Only the strongest level knows the endgame tables.
    if level != Level::Perfect {
        let oracle = engine.take_oracle();
        let m = choose_with(engine, game, level, seed, stop);
        engine.set_oracle(oracle);
        return m;
    }
    choose_with(engine, game, level, seed, stop)
}

fn choose_with(
    engine: &mut Engine,
    game: &Game,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Move> {
    match level.style() {
        Style::Soft { depth, temperature } => {
            let analyses = engine.analyze(game, &Limits::depth(depth), stop);
            // Decided scores count as a large but finite heuristic score, so
            // that a win is taken nearly always and a loss avoided.
            let values: Vec<f64> = analyses
                .iter()
                .map(|a| {
                    if a.score.is_win() {
                        5_000.0
                    } else if a.score.is_loss() {
                        -5_000.0
                    } else {
                        f64::from(a.score.cp_value())
                    }
                })
                .collect();
            let top = values.iter().cloned().fold(f64::MIN, f64::max);
            let weights: Vec<f64> = values
                .iter()
                .map(|v| ((v - top) / temperature).exp())
                .collect();
            let sum: f64 = weights.iter().sum();
            let mut pick = StdRng::seed_from_u64(seed).random::<f64>() * sum;
            for (a, w) in analyses.iter().zip(&weights) {
                if pick < *w {
                    return Some(a.mv);
                }
                pick -= w;
            }
            analyses.last().map(|a| a.mv)
        }
        Style::Search { .. } => {
            // Perfect play: where the endgame oracle covers the position, its
            // move keeps the value and makes progress.
            if level == Level::Perfect {
                let advice = engine
                    .oracle_for(game.rules())
                    .and_then(|o| o.root_move(game));
                if advice.is_some() {
                    return advice;
                }
            }
            let result = engine.search(game, &level.limits(), stop, &mut |_| {});
            result.best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_numbers_go_from_one_up_and_back() {
        for (i, &level) in Level::ALL.iter().enumerate() {
            assert_eq!(level.number() as usize, i + 1);
            assert_eq!(Level::from_number(level.number()), Some(level));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(Level::ALL.len() as u8 + 1), None);
    }

    #[test]
    fn every_level_has_a_name_in_both_languages() {
        for &level in Level::ALL {
            for lang in [Lang::Fr, Lang::En] {
                assert!(!level.name(lang).is_empty());
                assert!(!level.description(lang).is_empty());
            }
        }
        assert_eq!(Level::Seed.name(Lang::Fr), "Graine");
    }

    #[test]
    fn levels_parse_from_numbers_and_names_in_both_languages() {
        assert_eq!("1".parse(), Ok(Level::Seed));
        assert_eq!("maitre".parse(), Ok(Level::Master));
        assert_eq!("Maître".parse(), Ok(Level::Master));
        assert_eq!("perfect".parse(), Ok(Level::Perfect));
        assert!("0".parse::<Level>().is_err());
        assert!("grandmaster".parse::<Level>().is_err());
    }
}
