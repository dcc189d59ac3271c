//! Strength levels for people, from a child's first day to perfect play,
//! each about 200 Elo above the one below. The
//! four weakest see captures as a beginner does (often not the chain
//! behind the first hole, not always the opponent's answer); the next
//! score every move with a shallow search and pick one at random, better
//! moves more often (a softmax with a temperature): they lose by
//! overlooking, not by throwing seeds away. Above them, searches of a
//! fixed depth or number of nodes; the strongest searches for its time,
//! with the opening book and the endgame oracle.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Move, Position};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::limits::Limits;
use crate::search::Engine;

/// Strength levels for people, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Level 1: a child's first day.
    Seed,
    /// Level 2: takes what it sees, rarely thinks of the answer.
    Sprout,
    /// Level 3: often thinks of the answer.
    Apprentice,
    /// Level 4: always looks at the answer to its move.
    Pupil,
    /// Level 5: a casual player.
    Player,
    /// Level 6: a regular player.
    Skilled,
    /// Level 7: a good club player.
    Strong,
    /// Level 8: a seasoned club player.
    Seasoned,
    /// Level 9: reads far ahead.
    Expert,
    /// Level 10: few people beat it.
    Master,
    /// Level 11: a deep search.
    Champion,
    /// Level 12: a deeper search, nearly always the best move.
    Virtuoso,
    /// Level 13: a deeper search still, the best move or one close to it.
    InternationalMaster,
    /// Level 14: the deepest of the choosing levels, seldom off the best
    /// move.
    Grandmaster,
    /// Level 15: the search of Perfect, 16 plies deep, without the
    /// endgame oracle.
    Titan,
    /// Level 16: the search of Perfect for a number of nodes, without the
    /// endgame oracle.
    Colossus,
    /// Level 17: the same, four times the nodes.
    Legend,
    /// Level 18: the strongest search, with the opening book and the
    /// endgame oracle when one is set.
    Perfect,
}

/// Colossus's search, in nodes a move: about four times what Titan's 16
/// plies take in a game, on the average (docs/BENCHMARKS.md).
const COLOSSUS_NODES: u64 = 120_000;

/// Legend's, about four times Colossus's and a twentieth of what Perfect
/// searches in its 3 seconds here.
const LEGEND_NODES: u64 = 500_000;

/// How a level chooses its move.
enum Style {
    /// A beginner's way: every capture is seen, but often only the seeds of
    /// the hole where the last seed lands, not the chain behind it (each
    /// move seen whole with probability `chain`, the opponent's answers
    /// too); the opponent's best capture in answer is looked at with
    /// probability `reply`. Moves are picked with a softmax at
    /// `temperature`.
    Beginner {
        chain: f64,
        reply: f64,
        temperature: f64,
    },
    /// Scores every move at this depth, then a softmax with this
    /// temperature (in hundredths of a seed).
    Soft { depth: u32, temperature: f64 },
    /// A normal search within these limits.
    Search {
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<Duration>,
    },
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: &'static [Level] = &[
        Level::Seed,
        Level::Sprout,
        Level::Apprentice,
        Level::Pupil,
        Level::Player,
        Level::Skilled,
        Level::Strong,
        Level::Seasoned,
        Level::Expert,
        Level::Master,
        Level::Champion,
        Level::Virtuoso,
        Level::InternationalMaster,
        Level::Grandmaster,
        Level::Titan,
        Level::Colossus,
        Level::Legend,
        Level::Perfect,
    ];

    /// The level a new game starts with, on the page and in the terminal,
    /// when none is asked for: a player who has learnt the rules.
    pub const DEFAULT: Level = Level::Apprentice;

    /// The level's number, 1 for the weakest: for the UI and `setoption
    /// name Level`.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The level with this number.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The level's key: a stable English word (`seed` .. `perfect`) that
    /// front ends word in their language (the page's catalogs,
    /// `level_KEY` and `level_KEY_about`; the terminal's words), and that
    /// [`Level::from_str`](std::str::FromStr) reads back.
    pub fn key(self) -> &'static str {
        match self {
            Level::Seed => "seed",
            Level::Sprout => "sprout",
            Level::Apprentice => "apprentice",
            Level::Pupil => "pupil",
            Level::Player => "player",
            Level::Skilled => "skilled",
            Level::Strong => "strong",
            Level::Seasoned => "seasoned",
            Level::Expert => "expert",
            Level::Master => "master",
            Level::InternationalMaster => "international_master",
            Level::Grandmaster => "grandmaster",
            Level::Virtuoso => "virtuoso",
            Level::Champion => "champion",
            Level::Legend => "legend",
            Level::Titan => "titan",
            Level::Colossus => "colossus",
            Level::Perfect => "perfect",
        }
    }

    /// The level's strength in Elo points, measured with `awale match`
    /// between adjacent levels (docs/BENCHMARKS.md, `awale` rules: 200 to
    /// 400 games a pair up to Colossus, 100 for Legend, 38 for Perfect,
    /// whose 3 s a move make a game last minutes), the greedy player
    /// ([`greedy_move`]) set at 1000.
    pub fn elo(self) -> u32 {
        match self {
            Level::Seed => 860,
            Level::Sprout => 1085,
            Level::Apprentice => 1310,
            Level::Pupil => 1545,
            Level::Player => 1770,
            Level::Skilled => 1970,
            Level::Strong => 2180,
            Level::Seasoned => 2380,
            Level::Expert => 2575,
            Level::Master => 2810,
            Level::Champion => 2985,
            Level::Virtuoso => 3205,
            Level::InternationalMaster => 3387,
            Level::Grandmaster => 3609,
            Level::Titan => 3839,
            Level::Colossus => 4019,
            Level::Legend => 4210,
            Level::Perfect => 4454,
        }
    }

    fn style(self) -> Style {
        // (chance to see a chain, chance to think of the answer, temperature)
        let beginner = |chain, reply, temperature| Style::Beginner {
            chain,
            reply,
            temperature,
        };
        let soft = |depth, temperature| Style::Soft { depth, temperature };
        match self {
            Level::Seed => beginner(0.3, 0.15, 150.0),
            Level::Sprout => beginner(0.7, 0.35, 75.0),
            Level::Apprentice => beginner(1.0, 0.65, 60.0),
            Level::Pupil => beginner(1.0, 0.9, 55.0),
            Level::Player => soft(2, 130.0),
            Level::Skilled => soft(3, 110.0),
            Level::Strong => soft(4, 100.0),
            Level::Seasoned => soft(5, 90.0),
            Level::Expert => soft(6, 75.0),
            Level::Master => soft(7, 60.0),
            Level::Champion => soft(8, 55.0),
            Level::Virtuoso => soft(10, 50.0),
            Level::InternationalMaster => soft(11, 40.0),
            Level::Grandmaster => soft(13, 20.0),
            Level::Titan => Style::Search {
                depth: Some(16),
                nodes: None,
                time: None,
            },
            Level::Colossus => Style::Search {
                depth: None,
                nodes: Some(COLOSSUS_NODES),
                time: None,
            },
            Level::Legend => Style::Search {
                depth: None,
                nodes: Some(LEGEND_NODES),
                time: None,
            },
            Level::Perfect => Style::Search {
                depth: None,
                nodes: None,
                time: Some(Duration::from_secs(3)),
            },
        }
    }

    /// Whether the level plays a normal search within [`Level::limits`]
    /// (which a server may cap in time, showing the search's progress);
    /// the others choose at once with [`choose_move`].
    pub fn searches(self) -> bool {
        matches!(self.style(), Style::Search { .. })
    }

    /// The limits of a search at this level (for protocol and matches).
    pub fn limits(self) -> Limits {
        match self.style() {
            Style::Beginner { .. } => Limits::depth(1),
            Style::Soft { depth, .. } => Limits::depth(depth),
            Style::Search { depth, nodes, time } => Limits {
                depth,
                nodes,
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
            "unknown level `{}` (expected 1 to {} or a level's key)",
            self.0,
            Level::ALL.len()
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl std::str::FromStr for Level {
    type Err = UnknownLevel;

    /// A level from its number (`1`..) or its key ([`Level::key`]), in
    /// any case. (Names in people's languages are the front ends' to read.)
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        let wanted = s.trim().to_lowercase();
        if let Ok(n) = wanted.parse::<u8>() {
            return Level::from_number(n).ok_or_else(|| UnknownLevel(s.to_string()));
        }
        Level::ALL
            .iter()
            .copied()
            .find(|level| level.key() == wanted)
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
    choose_move_within(
        engine,
        game,
        level,
        seed,
        &Limits::default(),
        stop,
        &mut |_| {},
    )
}

/// [`choose_move`], the one entry point for a level's move (the command
/// line's and the server's), within `cap` too: a searching level thinks at
/// most `cap.movetime` and shares out `cap.clock` (the side to move's game
/// clock) with the time manager; `on_info` hears each iteration.
pub fn choose_move_within(
    engine: &mut Engine,
    game: &Game,
    level: Level,
    seed: u64,
    cap: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&crate::SearchInfo),
) -> Option<Move> {
    if game.legal_moves().is_empty() {
        return None;
    }
    // Only the strongest level knows the endgame tables: the others play
    // with the oracle set aside.
    let set_aside = (level != Level::Perfect).then(|| engine.take_oracle());
    // Every level plays with the evaluation tables its Elo figure was
    // measured with: the network (`crate::net`) set aside.
    let with_net = engine.set_net_aside();
    let chosen = match level.style() {
        Style::Beginner {
            chain,
            reply,
            temperature,
        } => {
            let mut rng = StdRng::seed_from_u64(seed);
            let values = beginner_values(game, chain, reply, &mut rng);
            softmax_pick(&values, temperature, &mut rng)
        }
        Style::Soft { depth, temperature } => {
            let analyses = engine.analyze(game, &Limits::depth(depth), stop);
            // Decided scores count as a large but finite heuristic score, so
            // that a win is taken nearly always and a loss avoided.
            let values: Vec<(Move, f64)> = analyses
                .iter()
                .map(|a| {
                    let v = if a.score.is_win() {
                        5_000.0
                    } else if a.score.is_loss() {
                        -5_000.0
                    } else {
                        f64::from(a.score.cp_value())
                    };
                    (a.mv, v)
                })
                .collect();
            softmax_pick(&values, temperature, &mut StdRng::seed_from_u64(seed))
        }
        // The strong levels know the opening book. Perfect play: where the
        // endgame oracle covers the position, its move keeps the value and
        // makes progress.
        Style::Search { .. } => crate::book::Book::builtin()
            .probe(game)
            .or_else(|| engine.oracle_for(game.rules())?.root_move(game))
            .or_else(|| {
                let mut limits = level.limits();
                if let Some(cap) = cap.movetime {
                    limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
                }
                limits.clock = cap.clock;
                engine.search(game, &limits, stop, on_info).best
            }),
    };
    if let Some(oracle) = set_aside {
        engine.set_oracle(oracle);
    }
    if let Some(evaluations) = with_net {
        engine.put_back_evaluations(evaluations);
    }
    chosen
}

/// Picks a move with probability proportional to `exp((value - best) /
/// temperature)`.
fn softmax_pick(values: &[(Move, f64)], temperature: f64, rng: &mut StdRng) -> Option<Move> {
    let top = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
    let weights: Vec<f64> = values
        .iter()
        .map(|(_, v)| ((v - top) / temperature).exp())
        .collect();
    let sum: f64 = weights.iter().sum();
    let mut pick = rng.random::<f64>() * sum;
    for ((m, _), w) in values.iter().zip(&weights) {
        if pick < *w {
            return Some(*m);
        }
        pick -= w;
    }
    values.last().map(|v| v.0)
}

/// The seeds a beginner sees a move capture: all of them when it sees the
/// chain, else only those of the hole where the last seed lands.
fn seen_capture(position: &Position, m: Move, whole_chain: bool) -> u8 {
    let all = position.captures(m);
    if all == 0 || whole_chain {
        return all;
    }
    let landing = awale_core::last_hole(m.hole(), usize::from(position.hole(m.hole())));
    position.hole(landing) + position.sown_into(m, landing)
}

/// How a beginner values each move, in hundredths of a seed: what it sees
/// the move capture (a capture that wins the game above all), less, when
/// it thinks of the answer, the biggest capture it sees the opponent get.
fn beginner_values(game: &Game, chain: f64, reply: f64, rng: &mut StdRng) -> Vec<(Move, f64)> {
    let position = game.position();
    let rules = game.rules();
    let me = position.to_move();
    let total = u32::from(position.seeds_on_board())
        + u32::from(position.store(me))
        + u32::from(position.store(me.opponent()));
    let thinks_of_reply = rng.random::<f64>() < reply;
    game.legal_moves()
        .into_iter()
        .map(|m| {
            let seen = seen_capture(&position, m, rng.random::<f64>() < chain);
            let mut value = 100.0 * f64::from(seen);
            if 2 * (u32::from(position.store(me)) + u32::from(position.captures(m))) > total {
                value += 5_000.0;
            }
            if thinks_of_reply {
                let after = position.play_unchecked(m);
                let answer = after
                    .legal_moves(rules)
                    .into_iter()
                    .map(|r| seen_capture(&after, r, rng.random::<f64>() < chain))
                    .max()
                    .unwrap_or(0);
                value -= 100.0 * f64::from(answer);
            }
            (m, value)
        })
        .collect()
}

/// The greedy player, a yardstick for the weakest levels: the move that
/// captures the most seeds now, ties broken at random by `seed`. `None`
/// when the game is over.
pub fn greedy_move(game: &Game, seed: u64) -> Option<Move> {
    let position = game.position();
    let moves = game.legal_moves();
    let best = moves.iter().map(|&m| position.captures(m)).max()?;
    let best_moves: Vec<Move> = moves
        .into_iter()
        .filter(|&m| position.captures(m) == best)
        .collect();
    let pick = StdRng::seed_from_u64(seed).random::<u64>() as usize % best_moves.len();
    Some(best_moves[pick])
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
    fn each_step_is_150_to_250_elo() {
        for pair in Level::ALL.windows(2) {
            let step = pair[1].elo() - pair[0].elo();
            assert!((150..=250).contains(&step), "{pair:?}: {step}");
        }
    }

    #[test]
    fn every_level_has_its_own_key_and_reads_back_from_it() {
        for &level in Level::ALL {
            assert_eq!(level.key().parse(), Ok(level));
            assert_eq!(level.key().to_uppercase().parse(), Ok(level));
        }
        let mut keys: Vec<&str> = Level::ALL.iter().map(|l| l.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Level::ALL.len());
    }

    #[test]
    fn levels_parse_from_numbers_and_keys() {
        assert_eq!("1".parse(), Ok(Level::Seed));
        assert_eq!("perfect".parse(), Ok(Level::Perfect));
        assert_eq!("Grandmaster".parse(), Ok(Level::Grandmaster));
        assert!("0".parse::<Level>().is_err());
        assert_eq!(Level::ALL.len().to_string().parse(), Ok(Level::Perfect));
        assert!((Level::ALL.len() + 1).to_string().parse::<Level>().is_err());
        assert!("nobody".parse::<Level>().is_err());
        assert_eq!("12".parse(), Ok(Level::Virtuoso));
        assert_eq!("13".parse(), Ok(Level::InternationalMaster));
        assert_eq!("14".parse(), Ok(Level::Grandmaster));
        assert_eq!("Champion".parse(), Ok(Level::Champion));
        assert_eq!("legend".parse(), Ok(Level::Legend));
        assert_eq!(
            "International_Master".parse(),
            Ok(Level::InternationalMaster)
        );
        assert_eq!("titan".parse(), Ok(Level::Titan));
        assert_eq!("16".parse(), Ok(Level::Colossus));
        assert_eq!("17".parse(), Ok(Level::Legend));
        assert_eq!("18".parse(), Ok(Level::Perfect));
    }
}
