//! A small learned correction to the evaluation tables: a network of one
//! hidden layer that reads the board, the captures at hand and the stores,
//! and adds to the tables' score what they miss (how the holes go together,
//! how near each player is to winning).
//!
//! Inputs are one-hot: a seed count for each of the 12 holes (seen from the
//! side to move), the best capture at hand of each side, and each store, so
//! a position has [`ACTIVE`] inputs on and the hidden layer is the sum of
//! their rows of weights. Weights are small integers (the hidden layer in
//! `i16`, its activation clipped to `0..=ACTIVATION`), so the network
//! evaluates alike on every machine and in the page's WebAssembly.
//!
//! The network is trained by `examples/train.rs` on positions labelled by
//! a deeper search (`examples/evaldata.rs`); see docs/ENGINE.md.

use awale_core::Position;

/// Units of the hidden layer.
pub const HIDDEN: usize = 32;
/// Seed counts told apart in a hole (more seeds count as the last).
const HOLE_COUNTS: usize = 49;
/// Captures at hand told apart (at most 6 holes × 3 seeds).
const CAPTURE_COUNTS: usize = 19;
/// Store sizes told apart (25 and more: the game is won).
const STORE_COUNTS: usize = 26;
const CAPTURES: usize = 12 * HOLE_COUNTS;
const STORES: usize = CAPTURES + 2 * CAPTURE_COUNTS;
/// Number of inputs.
pub const INPUTS: usize = STORES + 2 * STORE_COUNTS;
/// Inputs on in every position: 12 holes, 2 captures at hand, 2 stores.
pub const ACTIVE: usize = 16;
/// The activation that stands for 1: the hidden layer's weights are in
/// 1/`ACTIVATION`ths.
pub const ACTIVATION: i16 = 127;
/// The output layer's weights are in 1/`OUTPUT_SCALE`ths of a hundredth of
/// a seed per unit of activation.
pub const OUTPUT_SCALE: i32 = 64;
/// The largest weight of the hidden layer: [`ACTIVE`] + 1 of them never
/// overflow an `i16`.
pub const MAX_HIDDEN_WEIGHT: i16 = i16::MAX / (ACTIVE as i16 + 1);

const MAGIC: &[u8; 8] = b"AWNET1\0\0";

/// The inputs on in `position`, given its captures at hand (the side to
/// move's, then the opponent's).
#[inline(always)]
pub fn active_inputs(position: &Position, captures: [i32; 2]) -> [u16; ACTIVE] {
    let holes = position.relative_holes();
    let stores = position.stores();
    let me = position.to_move().index();
    let mut active = [0u16; ACTIVE];
    for (h, &s) in holes.iter().enumerate() {
        active[h] = (h * HOLE_COUNTS + usize::from(s).min(HOLE_COUNTS - 1)) as u16;
    }
    for (k, c) in captures.iter().enumerate() {
        let c = (*c).clamp(0, CAPTURE_COUNTS as i32 - 1) as usize;
        active[12 + k] = (CAPTURES + k * CAPTURE_COUNTS + c) as u16;
    }
    for (k, side) in [me, 1 - me].into_iter().enumerate() {
        let s = usize::from(stores[side]).min(STORE_COUNTS - 1);
        active[14 + k] = (STORES + k * STORE_COUNTS + s) as u16;
    }
    active
}

/// A trained network (see the module's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// The hidden layer's biases, under each repetition rule (`nobody`,
    /// `own_row`).
    pub bias: [[i16; HIDDEN]; 2],
    /// The hidden layer's weights, a row for each input.
    pub weights: Vec<[i16; HIDDEN]>,
    /// The output layer's weights.
    pub output: [i16; HIDDEN],
    /// The output's bias, in hundredths of a seed.
    pub output_bias: i32,
}

impl Net {
    /// A network that adds nothing.
    pub fn zero() -> Net {
        Net {
            bias: [[0; HIDDEN]; 2],
            weights: vec![[0; HIDDEN]; INPUTS],
            output: [0; HIDDEN],
            output_bias: 0,
        }
    }

    /// What the network adds to the tables' score of the position whose
    /// inputs are `active`, in hundredths of a seed.
    #[inline]
    pub fn correction(&self, active: &[u16; ACTIVE], own_row: bool) -> i32 {
        let mut hidden = self.bias[usize::from(own_row)];
        for &input in active {
            let row = &self.weights[usize::from(input)];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h = h.wrapping_add(*w);
            }
        }
        let mut sum = 0i32;
        for (h, w) in hidden.iter().zip(&self.output) {
            sum += i32::from((*h).clamp(0, ACTIVATION)) * i32::from(*w);
        }
        self.output_bias + sum.div_euclid(OUTPUT_SCALE)
    }

    /// The network as bytes: a magic word, the sizes, then every weight
    /// little-endian (biases, hidden rows, output, output bias).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((INPUTS as u16).to_le_bytes());
        bytes.extend((HIDDEN as u16).to_le_bytes());
        let rows = self.bias.iter().chain(&self.weights).chain([&self.output]);
        for row in rows {
            for w in row {
                bytes.extend(w.to_le_bytes());
            }
        }
        bytes.extend(self.output_bias.to_le_bytes());
        bytes
    }

    /// Reads [`Net::to_bytes`]; says what is wrong with bytes that are not
    /// a network of these sizes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("not an evaluation network (no AWNET1 header)")?;
        let sizes = [INPUTS as u16, HIDDEN as u16];
        let mut words = rest
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let found: Vec<u16> = words.by_ref().take(2).map(|w| w as u16).collect();
        if found != sizes {
            return Err(format!(
                "a network of {found:?} inputs and hidden units; this engine reads {sizes:?}"
            ));
        }
        let expected = MAGIC.len() + 4 + 2 * HIDDEN * (INPUTS + 3) + 4;
        if bytes.len() != expected {
            return Err(format!(
                "a network of {} bytes; one of these sizes has {expected}",
                bytes.len()
            ));
        }
        let mut row = || -> [i16; HIDDEN] { std::array::from_fn(|_| words.next().unwrap_or(0)) };
        let bias = [row(), row()];
        let weights: Vec<[i16; HIDDEN]> = (0..INPUTS).map(|_| row()).collect();
        let output = row();
        if let Some(w) = bias
            .iter()
            .chain(&weights)
            .flatten()
            .find(|w| w.abs() > MAX_HIDDEN_WEIGHT)
        {
            return Err(format!(
                "a hidden weight of {w}, beyond {MAX_HIDDEN_WEIGHT}: the sum could overflow"
            ));
        }
        let tail = &bytes[bytes.len() - 4..];
        Ok(Net {
            bias,
            weights,
            output,
            output_bias: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Net {
        let mut net = Net::zero();
        let mut x: i32 = 7;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            ((x >> 16) % 200) as i16
        };
        for row in net.bias.iter_mut().chain(&mut net.weights) {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.output.iter_mut().for_each(|w| *w = next());
        net.output_bias = -37;
        net
    }

    #[test]
    fn bytes_read_back_as_the_same_network() {
        let net = sample();
        assert_eq!(Net::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn bad_bytes_are_named() {
        let bytes = sample().to_bytes();
        assert!(Net::from_bytes(&bytes[1..]).unwrap_err().contains("header"));
        assert!(Net::from_bytes(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("bytes"));
        let mut big = sample();
        big.weights[3][5] = MAX_HIDDEN_WEIGHT + 1;
        assert!(Net::from_bytes(&big.to_bytes())
            .unwrap_err()
            .contains("overflow"));
    }

    #[test]
    fn the_start_has_one_input_in_each_group() {
        let active = active_inputs(&Position::START, [0, 0]);
        for (h, &a) in active[..12].iter().enumerate() {
            assert_eq!(usize::from(a), h * HOLE_COUNTS + 4);
        }
        assert_eq!(usize::from(active[12]), CAPTURES);
        assert_eq!(usize::from(active[13]), CAPTURES + CAPTURE_COUNTS);
        assert_eq!(usize::from(active[14]), STORES);
        assert_eq!(usize::from(active[15]), STORES + STORE_COUNTS);
        assert!(active.iter().all(|&a| usize::from(a) < INPUTS));
    }

    #[test]
    fn the_correction_is_the_sum_of_rows_clipped_then_weighed() {
        let net = sample();
        let active = active_inputs(&Position::START, [2, 3]);
        for own_row in [false, true] {
            let mut expected = 0i32;
            for j in 0..HIDDEN {
                let mut h = i32::from(net.bias[usize::from(own_row)][j]);
                for &a in &active {
                    h += i32::from(net.weights[usize::from(a)][j]);
                }
                expected += h.clamp(0, 127) * i32::from(net.output[j]);
            }
            let expected = net.output_bias + expected.div_euclid(OUTPUT_SCALE);
            assert_eq!(net.correction(&active, own_row), expected);
        }
    }
}
