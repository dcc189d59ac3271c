//! The static evaluation: the store difference plus what a player of Awalé
//! looks at on the board (seeds on each side, empty and vulnerable holes,
//! krous, holes that reach the other row, captures at hand). Scores are from
//! the side to move's view, in hundredths of a seed.
//!
//! The weights were fitted by least squares to deeper searches' scores of
//! positions from self-play (`cargo run --release -p awale-match --example
//! tune`; see docs/ENGINE.md).

use std::sync::Arc;

use awale_core::Position;

use crate::net::{active_inputs, Net};

/// Number of board features.
pub const FEATURES: usize = 7;

/// Names of the features, for the tuner's report.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "row seeds",
    "empty holes",
    "holes with 1-2 seeds",
    "krous (12+ seeds)",
    "holes reaching the other row",
    "capture at hand (mover)",
    "capture at hand (opponent)",
];

/// Weights of the features, in hundredths of a seed per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The tuned weights the engine plays with.
    pub const TUNED: Weights = Weights([-8, -188, -48, 162, -36, 78, -23]);
    /// All zero: the store difference alone.
    pub const STORES_ONLY: Weights = Weights([0; FEATURES]);
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

/// The best capture the owner of `row` has at hand against `other` (grand
/// slams and krou laps not looked at: an estimate). `other_weak` has the
/// high bit set in the lanes of `other` holding 1 or 2 seeds.
///
/// First the seeds a sowing would capture when its last seed lands in each
/// hole of the other row (the run of weak holes ending there, each with one
/// seed more), then, for each hole of `row`, where its last seed lands: two
/// passes of six holes.
#[inline(always)]
fn capture_at_hand(row: u64, other: u64, other_weak: u64) -> i32 {
    if other_weak == 0 {
        return 0;
    }
    // Byte `j`: the capture of a sowing ending in hole `j` of the other row
    // (at most 6 × 3 seeds, so a byte holds it).
    let mut landing = 0u64;
    let mut run = 0u64;
    for j in 0..6 {
        let weak = other_weak >> (8 * j + 7) & 1;
        let take = (other >> (8 * j) & 0xFF) + 1;
        run = if weak != 0 { run + take } else { 0 };
        landing |= run << (8 * j);
    }
    // Lane `i`: `i` + the seeds of hole `i`, where its last seed lands
    // counting from this row's hole 0 (at most 53: no carry).
    let last = row + 0x0504_0302_0100;
    let mut best = 0;
    for i in 0..6 {
        let j = (last >> (8 * i) & 0xFF).wrapping_sub(6);
        if j < 6 {
            best = best.max((landing >> (8 * j)) as u8);
        }
    }
    i32::from(best)
}

const LANES: u64 = 0x0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080;

/// Lanes (bytes) of a row holding at least `k` seeds, as a count. Holes
/// hold at most 48 seeds, so adding `128 - k` never carries between lanes.
#[inline(always)]
fn at_least(row: u64, k: u64) -> i32 {
    ((row + (128 - k) * LANES) & HIGH).count_ones() as i32
}

/// Holes whose seeds reach the other row: hole `i` needs `6 - i` seeds.
#[inline(always)]
fn reaching(row: u64) -> i32 {
    // Lane i gets 128 - (6 - i) = 122 + i.
    const REACH: u64 = 0x7F7E_7D7C_7B7A;
    ((row + REACH) & HIGH).count_ones() as i32
}

#[inline(always)]
fn row_seeds(row: u64) -> i32 {
    (row.wrapping_mul(LANES) >> 40 & 0xFF) as i32
}

/// Lanes of a row holding at least `k` seeds, as high bits.
#[inline(always)]
fn at_least_mask(row: u64, k: u64) -> u64 {
    (row + (128 - k) * LANES) & HIGH
}

/// The two rows of a board word (the holes seen from the side to move, a
/// byte each, as `Position::repetition_key` gives them), with the high bit
/// set in the lanes of each row holding 1 or 2 seeds (weak holes).
struct Rows {
    mine: u64,
    theirs: u64,
    weak: [u64; 2],
}

impl Rows {
    #[inline(always)]
    fn of(board: u128) -> Rows {
        const ROW: u64 = 0xFFFF_FFFF_FFFF;
        let mine = board as u64 & ROW;
        let theirs = (board >> 48) as u64 & ROW;
        let weak = |row| at_least_mask(row, 1) & !at_least_mask(row, 3);
        Rows {
            mine,
            theirs,
            weak: [weak(mine), weak(theirs)],
        }
    }

    /// The best capture at hand for the side to move, and for the
    /// opponent were it to move.
    #[inline(always)]
    fn captures_at_hand(&self) -> [i32; 2] {
        [
            capture_at_hand(self.mine, self.theirs, self.weak[1]),
            capture_at_hand(self.theirs, self.mine, self.weak[0]),
        ]
    }
}

/// The features of `position`, side to move minus opponent where it has
/// two sides.
#[inline(always)]
pub fn features(position: &Position) -> [i32; FEATURES] {
    let rows = Rows::of(position.repetition_key());
    let (mine, theirs) = (rows.mine, rows.theirs);
    let [mover, opponent] = rows.captures_at_hand();
    [
        row_seeds(mine) - row_seeds(theirs),
        at_least(theirs, 1) - at_least(mine, 1),
        rows.weak[0].count_ones() as i32 - rows.weak[1].count_ones() as i32,
        at_least(mine, 12) - at_least(theirs, 12),
        reaching(mine) - reaching(theirs),
        mover,
        opponent,
    ]
}

/// 100 × the store difference, side to move first.
#[inline(always)]
pub fn store_difference(position: &Position) -> i32 {
    let stores = position.stores();
    let me = position.to_move().index();
    100 * (i32::from(stores[me]) - i32::from(stores[1 - me]))
}

/// Phases of the game by the seeds on the board: up to 12, 13-24, 25-36,
/// 37-48. Seeds leave the board only by captures, so the phase changes only
/// at a capture.
pub const PHASES: usize = 4;

/// The phase of a position with `seeds` on the board.
#[inline(always)]
pub fn phase(seeds: u8) -> usize {
    (usize::from(seeds.max(1)) - 1) / 12
}

/// One phase of an [`Evaluation`]: a value for every hole and seed count,
/// and the weights of the captures at hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseTable {
    /// `holes[h][s]`: what `s` seeds in hole `h` are worth, the holes seen
    /// from the side to move (0-5 its row from its left, 6-11 the
    /// opponent's), in hundredths of a seed.
    pub holes: [[i16; 49]; 12],
    /// Worth of a seed of the best capture at hand for the side to move,
    /// and for the opponent were it to move.
    pub capture: [i16; 2],
}

/// A static evaluation as tables: the store difference plus a value for
/// each hole's seed count, plus the captures at hand, by phase. The linear
/// [`Weights`] are one such table ([`Evaluation::from_weights`]); fitted
/// tables know more (which holes matter, how that changes as seeds leave).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The tables of each phase (see [`phase`]).
    pub phases: [PhaseTable; PHASES],
    /// A learned correction added to the tables' score, if any.
    pub correction: Option<Correction>,
}

/// A network ([`Net`]) that corrects the tables, with the repetition rule
/// it is asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    /// The network.
    pub net: Arc<Net>,
    /// Whether positions are played under the `own_row` repetition rule.
    pub own_row: bool,
}

impl Evaluation {
    /// The linear evaluation of `weights`, the same in every phase.
    pub fn from_weights(weights: &Weights) -> Evaluation {
        let [row, empty, weak, krou, reach, capture_mover, capture_opponent] = weights.0;
        let mut holes = [[0i16; 49]; 12];
        for (h, values) in holes.iter_mut().enumerate() {
            // Features are the side to move's minus the opponent's.
            let sign = if h < 6 { 1 } else { -1 };
            let i = h % 6;
            for (seeds, v) in values.iter_mut().enumerate() {
                let mut x = row * seeds as i32;
                if seeds == 0 {
                    x += empty;
                }
                if seeds == 1 || seeds == 2 {
                    x += weak;
                }
                if seeds >= 12 {
                    x += krou;
                }
                if seeds + i >= 6 {
                    x += reach;
                }
                *v = (sign * x) as i16;
            }
        }
        let table = PhaseTable {
            holes,
            capture: [capture_mover as i16, capture_opponent as i16],
        };
        Evaluation {
            phases: std::array::from_fn(|_| table.clone()),
            correction: None,
        }
    }

    /// The evaluation of `position` for the side to move, in hundredths of
    /// a seed.
    #[inline]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let board = position.repetition_key();
        let table = &self.phases[phase(position.seeds_on_board())];
        let mut score = store_difference(position);
        for (h, values) in table.holes.iter().enumerate() {
            let seeds = (board >> (8 * h)) as u8;
            score += i32::from(values[usize::from(seeds).min(48)]);
        }
        let [mover, opponent] = Rows::of(board).captures_at_hand();
        score += i32::from(table.capture[0]) * mover + i32::from(table.capture[1]) * opponent;
        if let Some(c) = &self.correction {
            score += c
                .net
                .correction(&active_inputs(position, [mover, opponent]), c.own_row);
        }
        score
    }
}

/// The evaluations the engine plays with, one for each repetition rule:
/// under `own_row` the seeds left in a row go to its owner when a position
/// repeats, which changes what a row is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluations {
    /// For games where nobody takes the seeds left after a repetition.
    pub nobody: Evaluation,
    /// For games where each side takes its row after a repetition.
    pub own_row: Evaluation,
}

impl Evaluations {
    /// The same linear weights under both rules.
    pub fn from_weights(weights: &Weights) -> Evaluations {
        let e = Evaluation::from_weights(weights);
        Evaluations {
            nobody: e.clone(),
            own_row: e,
        }
    }

    /// The evaluation for games under `rules`.
    #[inline]
    pub fn for_rules(&self, rules: &awale_core::Rules) -> &Evaluation {
        match rules.repetition {
            awale_core::Repetition::Nobody => &self.nobody,
            awale_core::Repetition::OwnRow => &self.own_row,
        }
    }

    /// The same tables corrected by `net` (or no longer corrected).
    pub fn with_net(mut self, net: Option<Arc<Net>>) -> Evaluations {
        for (e, own_row) in [(&mut self.nobody, false), (&mut self.own_row, true)] {
            e.correction = net.clone().map(|net| Correction { net, own_row });
        }
        self
    }
}

/// The positions of a file of `examples/evaldata.rs`, one a line
/// (`DIAGRAM RULES LABEL`, the label what a deeper search expects to be
/// captured from there, in hundredths of a seed), for fitting the tables
/// and training the network. Lines that are not one are passed over, and
/// so are labels beyond ±15 seeds (games all but decided).
pub fn labelled_positions(
    text: &str,
) -> impl Iterator<Item = (Position, awale_core::Rules, i32)> + '_ {
    text.lines().filter_map(|line| {
        let mut words = line.split_whitespace();
        let position = words.next()?.parse().ok()?;
        let rules = words.next()?.parse().ok()?;
        let label: i32 = words.next()?.parse().ok()?;
        (label.abs() <= 1500).then_some((position, rules, label))
    })
}

/// The tables the engine's evaluation starts from,
/// `crates/awale-engine/data/eval.txt` (fitted by `examples/fit.rs`), read
/// once.
pub fn tables() -> &'static Evaluations {
    static TABLES: std::sync::OnceLock<Evaluations> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| match parse_tables(include_str!("../data/eval.txt")) {
        Ok(e) => e,
        // The file is part of the source, checked by a test.
        Err(e) => panic!("data/eval.txt: {e}"),
    })
}

/// What the engine plays with: the [`tables`] corrected by the network of
/// `crates/awale-engine/data/eval.net` (trained by `examples/train.rs`).
pub fn trained() -> &'static Evaluations {
    static TRAINED: std::sync::OnceLock<Evaluations> = std::sync::OnceLock::new();
    TRAINED.get_or_init(
        || match Net::from_bytes(include_bytes!("../data/eval.net")) {
            Ok(net) => tables().clone().with_net(Some(Arc::new(net))),
            // The file is part of the source, checked by a test.
            Err(e) => panic!("data/eval.net: {e}"),
        },
    )
}

/// The tables as text: for each rule (`nobody`, `own_row`) and phase, a
/// line `RULE PHASE capture MOVER OPPONENT`, then one line per hole
/// `RULE PHASE hole H V0 V1 ... V48`.
pub fn tables_text(evaluations: &Evaluations) -> String {
    let mut text = String::from(
        "# Evaluation tables (crates/awale-engine/src/eval.rs), fitted by\n\
         # examples/fit.rs: RULE PHASE capture MOVER OPPONENT, then\n\
         # RULE PHASE hole H and the worth of 0..=48 seeds in hole H\n\
         # (0-5 the side to move's row, 6-11 the opponent's).\n",
    );
    for (name, e) in [
        ("nobody", &evaluations.nobody),
        ("own_row", &evaluations.own_row),
    ] {
        for (ph, table) in e.phases.iter().enumerate() {
            let [a, b] = table.capture;
            text.push_str(&format!("{name} {ph} capture {a} {b}\n"));
            for (h, values) in table.holes.iter().enumerate() {
                text.push_str(&format!("{name} {ph} hole {h}"));
                for v in values {
                    text.push_str(&format!(" {v}"));
                }
                text.push('\n');
            }
        }
    }
    text
}

/// Reads tables written by [`tables_text`]; every table must be given.
///
/// # Errors
///
/// A message naming the line that is wrong or the table missing.
pub fn parse_tables(text: &str) -> Result<Evaluations, String> {
    let empty = PhaseTable {
        holes: [[0; 49]; 12],
        capture: [0; 2],
    };
    let mut e = Evaluations {
        nobody: Evaluation {
            phases: std::array::from_fn(|_| empty.clone()),
            correction: None,
        },
        own_row: Evaluation {
            phases: std::array::from_fn(|_| empty.clone()),
            correction: None,
        },
    };
    let mut seen = [[0u32; PHASES]; 2];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("line {}: `{line}`", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let g = match words.first() {
            Some(&"nobody") => 0,
            Some(&"own_row") => 1,
            _ => return Err(bad()),
        };
        let ph: usize = words.get(1).and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        if ph >= PHASES {
            return Err(bad());
        }
        let numbers = |from: usize| -> Result<Vec<i16>, String> {
            words[from..]
                .iter()
                .map(|w| w.parse().map_err(|_| bad()))
                .collect()
        };
        let table = &mut if g == 0 {
            &mut e.nobody
        } else {
            &mut e.own_row
        }
        .phases[ph];
        match words.get(2) {
            Some(&"capture") => {
                let v = numbers(3)?;
                table.capture = v.try_into().map_err(|_| bad())?;
                seen[g][ph] |= 1 << 12;
            }
            Some(&"hole") => {
                let h: usize = words.get(3).and_then(|w| w.parse().ok()).ok_or_else(bad)?;
                if h >= 12 {
                    return Err(bad());
                }
                table.holes[h] = numbers(4)?.try_into().map_err(|_| bad())?;
                seen[g][ph] |= 1 << h;
            }
            _ => return Err(bad()),
        }
    }
    if seen.iter().flatten().any(|&s| s != (1 << 13) - 1) {
        return Err("a table is missing".into());
    }
    Ok(e)
}

/// The best capture at hand for the side to move, and for the opponent
/// were it to move, in seeds (estimates: see [`features`]).
#[inline(always)]
pub fn captures_at_hand(relative_holes: &[u8; 12]) -> [i32; 2] {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(relative_holes);
    Rows::of(u128::from_le_bytes(bytes)).captures_at_hand()
}

/// The evaluation of `position` for the side to move with `weights`.
#[inline]
pub fn evaluate_with(position: &Position, weights: &Weights) -> i32 {
    let f = features(position);
    let mut score = store_difference(position);
    for (w, x) in weights.0.iter().zip(f) {
        score += w * x;
    }
    score
}

/// The evaluation of `position` for the side to move with the tuned weights.
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(position, &Weights::TUNED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::Side;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_start_position_is_even() {
        assert_eq!(evaluate(&Position::START), 0);
        assert_eq!(features(&Position::START)[..5], [0, 0, 0, 0, 0]);
    }

    /// The features computed hole by hole, the plain way.
    fn features_by_hand(p: &Position) -> [i32; FEATURES] {
        let h = p.relative_holes();
        let count = |side: usize, f: &dyn Fn(usize, u8) -> bool| {
            (0..6).filter(|&i| f(i, h[6 * side + i])).count() as i32
        };
        let diff = |f: &dyn Fn(usize, u8) -> bool| count(0, f) - count(1, f);
        let seeds = |side: usize| {
            h[6 * side..6 * side + 6]
                .iter()
                .map(|&s| i32::from(s))
                .sum::<i32>()
        };
        let f = features(p);
        [
            seeds(0) - seeds(1),
            diff(&|_, s| s == 0),
            diff(&|_, s| s == 1 || s == 2),
            diff(&|_, s| s >= 12),
            diff(&|i, s| usize::from(s) + i >= 6),
            f[5],
            f[6],
        ]
    }

    /// `count` rows of holes drawn from `seed`, each of up to 47 seeds
    /// dropped in random holes; with `small`, a hole of 2 or more takes
    /// one only a time in five.
    fn random_holes(seed: u64, count: usize, small: bool) -> Vec<[u8; 12]> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let mut holes = [0u8; 12];
                for _ in 0..rng.random_range(0..48) {
                    let h = rng.random_range(0..12);
                    if !small || holes[h] < 2 || rng.random_range(0..5) == 0 {
                        holes[h] += 1;
                    }
                }
                holes
            })
            .collect()
    }

    #[test]
    fn features_match_a_hole_by_hole_count() {
        for holes in random_holes(7, 2000, false) {
            for side in Side::BOTH {
                let p = Position::new(holes, [0, 0], side).unwrap();
                assert_eq!(features(&p), features_by_hand(&p), "{p}");
            }
        }
    }

    /// The best capture at hand, sowing by sowing, the plain way.
    fn capture_at_hand_by_hand(h: &[u8; 12], mover: usize) -> i32 {
        let (row, other) = if mover == 0 {
            (&h[..6], &h[6..])
        } else {
            (&h[6..], &h[..6])
        };
        let mut best = 0;
        for (i, &s) in row.iter().enumerate() {
            let last = i + usize::from(s);
            if s == 0 || !(6..12).contains(&last) {
                continue;
            }
            let mut sum = 0;
            for j in (0..=last - 6).rev() {
                let after = other[j] + 1;
                if after != 2 && after != 3 {
                    break;
                }
                sum += i32::from(after);
            }
            best = best.max(sum);
        }
        best
    }

    #[test]
    fn captures_at_hand_match_a_sowing_by_sowing_count() {
        // Small holes more often: that is where captures are.
        for holes in random_holes(11, 5000, true) {
            let p = Position::new(holes, [0, 0], Side::South).unwrap();
            let h = p.relative_holes();
            let f = features(&p);
            assert_eq!(f[5], capture_at_hand_by_hand(&h, 0), "{p}");
            assert_eq!(f[6], capture_at_hand_by_hand(&h, 1), "{p}");
        }
    }

    #[test]
    fn a_capture_at_hand_is_seen() {
        // docs/RULES.md: hole 5 with 2 seeds captures 5 (1 2 4 0 0 0 opposite).
        let p = Position::new([0, 0, 0, 0, 0, 2, 1, 2, 4, 0, 0, 0], [0, 0], Side::South).unwrap();
        assert_eq!(features(&p)[5], 5);
        // docs/RULES.md: hole 5 with 6 seeds captures 7 (1 1 5 1 2 1 opposite),
        // and the opponent, to move, would capture nothing.
        let p = Position::new([0, 0, 0, 0, 1, 6, 1, 1, 5, 1, 2, 1], [0, 0], Side::South).unwrap();
        assert_eq!(features(&p)[5], 7);
        assert_eq!(features(&p)[6], 0);
    }

    #[test]
    fn the_evaluation_is_symmetric() {
        // The same board seen from the other side scores the opposite.
        let p = Position::new([3, 0, 5, 1, 2, 0, 0, 7, 1, 2, 0, 4], [10, 13], Side::South).unwrap();
        let mut mirror_holes = [0; 12];
        mirror_holes[..6].copy_from_slice(&p.holes()[6..]);
        mirror_holes[6..].copy_from_slice(&p.holes()[..6]);
        let mirror = Position::new(mirror_holes, [13, 10], Side::North).unwrap();
        assert_eq!(evaluate(&p), evaluate(&mirror));
        let w = Weights([3, -5, 7, 11, -13, 17, -19]);
        assert_eq!(evaluate_with(&p, &w), evaluate_with(&mirror, &w));
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;
    use awale_core::Side;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Holes of 0 to 48 seeds in all, sown one by one at random.
    fn random_holes(rng: &mut StdRng) -> [u8; 12] {
        let mut holes = [0u8; 12];
        for _ in 0..rng.random_range(0..49) {
            holes[rng.random_range(0..12)] += 1;
        }
        holes
    }

    #[test]
    fn the_table_of_weights_evaluates_as_the_weights() {
        let w = Weights([3, -5, 7, 11, -13, 17, -19]);
        let table = Evaluation::from_weights(&w);
        let tuned = Evaluation::from_weights(&Weights::TUNED);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..3000 {
            let holes = random_holes(&mut rng);
            let on_board: u8 = holes.iter().sum();
            let stores = [(48 - on_board) / 2, 48 - on_board - (48 - on_board) / 2];
            for side in Side::BOTH {
                let p = Position::new(holes, stores, side).unwrap();
                assert_eq!(table.evaluate(&p), evaluate_with(&p, &w), "{p}");
                assert_eq!(tuned.evaluate(&p), evaluate(&p), "{p}");
            }
        }
    }

    #[test]
    fn labelled_positions_pass_over_bad_lines_and_decided_labels() {
        let text = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S awale 35\n\
                    not a line\n\
                    4-4-4-4-4-4-4-4-4-4-4-4-0-0-N abapa -1600\n\
                    4-4-4-4-4-4-4-4-4-4-4-4-0-0-N abapa -1500\n";
        let read: Vec<_> = labelled_positions(text).collect();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0], (Position::START, awale_core::Rules::AWALE, 35));
        assert_eq!(read[1].2, -1500);
    }

    #[test]
    fn the_tables_in_force_read_and_print_back() {
        let text = tables_text(tables());
        assert_eq!(parse_tables(&text).as_ref(), Ok(tables()));
        assert!(parse_tables(&text.replace("own_row 3 hole 11", "# gone")).is_err());
        assert!(parse_tables("nobody 9 capture 1 2").is_err());
    }

    fn of(e: &Evaluations, own_row: bool) -> &Evaluation {
        if own_row {
            &e.own_row
        } else {
            &e.nobody
        }
    }

    #[test]
    fn the_network_in_force_reads_back_and_corrects_both_rules() {
        let bytes = include_bytes!("../data/eval.net");
        let net = Net::from_bytes(bytes).expect("data/eval.net");
        assert_eq!(net.to_bytes(), bytes);
        let e = trained();
        for (evaluation, own_row) in [(&e.nobody, false), (&e.own_row, true)] {
            let c = evaluation.correction.as_ref().expect("a network");
            assert_eq!((*c.net == net, c.own_row), (true, own_row));
            assert_eq!(evaluation.phases, of(tables(), own_row).phases);
        }
    }

    /// The evaluation with the network is the tables' plus the network's
    /// correction of the same inputs.
    #[test]
    fn the_network_adds_its_correction_to_the_tables() {
        let mut rng = StdRng::seed_from_u64(26);
        for k in 0..300 {
            let holes = random_holes(&mut rng);
            let on_board: u8 = holes.iter().sum();
            let south = (48 - on_board) / 3;
            let stores = [south, 48 - on_board - south];
            let p = Position::new(holes, stores, Side::BOTH[k % 2]).unwrap();
            let captures = captures_at_hand(&p.relative_holes());
            for own_row in [false, true] {
                let with = of(trained(), own_row);
                let without = of(tables(), own_row);
                let c = with.correction.as_ref().unwrap();
                assert_eq!(
                    with.evaluate(&p),
                    without.evaluate(&p) + c.net.correction(&active_inputs(&p, captures), own_row),
                    "{p}"
                );
            }
        }
    }

    #[test]
    fn phases_change_every_twelve_seeds() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(12), 0);
        assert_eq!(phase(13), 1);
        assert_eq!(phase(36), 2);
        assert_eq!(phase(48), 3);
    }
}
