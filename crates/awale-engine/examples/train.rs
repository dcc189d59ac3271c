//! Trains the evaluation's network (`awale_engine::net`) on positions
//! labelled by a deeper search (`examples/evaldata.rs`), and writes it in
//! the format the engine reads (`Net::to_bytes`):
//!
//! `cargo run --profile fast -p awale-engine --example train -- OUT EPOCHS DATA...`
//!
//! The network learns what the tables in force leave over: the label (what
//! the search expects to be captured from here on) minus the tables' score
//! without the stores, in seeds, clipped to ±10. Plain floats, mini-batches
//! with Adam, one position in ten held out to see whether what is learnt
//! holds on positions it has not seen; then the weights are rounded to the
//! network's integers and the held-out error is measured again with the
//! engine's own integer code.

use awale_core::Repetition;
use awale_engine::eval::{captures_at_hand, labelled_positions, store_difference, tables};
use awale_engine::net::{
    active_inputs, Net, ACTIVATION, ACTIVE, HIDDEN, INPUTS, MAX_HIDDEN_WEIGHT, OUTPUT_SCALE,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// One labelled position: its inputs, its rule, what the tables miss (seeds).
struct Sample {
    active: [u16; ACTIVE],
    own_row: bool,
    target: f32,
}

/// The float network being trained, laid out as `Net`.
#[derive(Clone)]
struct Model {
    bias: [[f32; HIDDEN]; 2],
    weights: Vec<[f32; HIDDEN]>,
    output: [f32; HIDDEN],
    output_bias: f32,
}

impl Model {
    fn new(rng: &mut StdRng) -> Model {
        let mut small = |scale: f32| (rng.random::<f32>() - 0.5) * 2.0 * scale;
        Model {
            bias: [[0.5; HIDDEN]; 2],
            weights: (0..INPUTS)
                .map(|_| std::array::from_fn(|_| small(0.05)))
                .collect(),
            output: std::array::from_fn(|_| small(0.3)),
            output_bias: 0.0,
        }
    }

    fn zeroed(&self) -> Model {
        Model {
            bias: [[0.0; HIDDEN]; 2],
            weights: vec![[0.0; HIDDEN]; INPUTS],
            output: [0.0; HIDDEN],
            output_bias: 0.0,
        }
    }

    /// The hidden layer before clipping, and the output (seeds).
    fn forward(&self, s: &Sample) -> ([f32; HIDDEN], f32) {
        let mut hidden = self.bias[usize::from(s.own_row)];
        for &a in &s.active {
            for (h, w) in hidden.iter_mut().zip(&self.weights[usize::from(a)]) {
                *h += w;
            }
        }
        let out = self.output_bias
            + hidden
                .iter()
                .zip(&self.output)
                .map(|(h, w)| h.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        (hidden, out)
    }

    /// Adds the gradient of the squared error on `s` to `grad`.
    fn backward(&self, s: &Sample, grad: &mut Model) -> f32 {
        let (hidden, out) = self.forward(s);
        let err = out - s.target;
        let d = 2.0 * err;
        grad.output_bias += d;
        let mut dh = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            grad.output[j] += d * hidden[j].clamp(0.0, 1.0);
            if hidden[j] > 0.0 && hidden[j] < 1.0 {
                dh[j] = d * self.output[j];
            }
        }
        for (g, x) in grad.bias[usize::from(s.own_row)].iter_mut().zip(&dh) {
            *g += x;
        }
        for &a in &s.active {
            for (g, x) in grad.weights[usize::from(a)].iter_mut().zip(&dh) {
                *g += x;
            }
        }
        err * err
    }

    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.bias
            .iter_mut()
            .flatten()
            .chain(self.weights.iter_mut().flatten())
            .chain(self.output.iter_mut())
            .chain(std::iter::once(&mut self.output_bias))
    }

    /// The network's integers (see `awale_engine::net`).
    fn quantized(&self) -> Net {
        let limit = f32::from(MAX_HIDDEN_WEIGHT);
        let hidden = |w: f32| (w * f32::from(ACTIVATION)).round().clamp(-limit, limit) as i16;
        let scale = 100.0 * OUTPUT_SCALE as f32 / f32::from(ACTIVATION);
        Net {
            bias: self.bias.map(|row| row.map(hidden)),
            weights: self.weights.iter().map(|row| row.map(hidden)).collect(),
            output: self
                .output
                .map(|w| (w * scale).round().clamp(-32767.0, 32767.0) as i16),
            output_bias: (self.output_bias * 100.0).round() as i32,
        }
    }
}

/// Adam's moments, one per value of the model.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, model: &mut Model, grad: &mut Model, rate: f32, batch: usize) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let limit = f32::from(MAX_HIDDEN_WEIGHT) / f32::from(ACTIVATION);
        let hidden_values = 2 * HIDDEN + INPUTS * HIDDEN;
        for (k, (w, g)) in model.values_mut().zip(grad.values_mut()).enumerate() {
            let gk = *g / batch as f32;
            *g = 0.0;
            self.m[k] = B1 * self.m[k] + (1.0 - B1) * gk;
            self.v[k] = B2 * self.v[k] + (1.0 - B2) * gk * gk;
            *w -= rate * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + 1e-8);
            if k < hidden_values {
                *w = w.clamp(-limit, limit);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(epochs), files) = (args.first(), args.get(1), args.get(2..)) else {
        eprintln!("usage: train OUT EPOCHS DATA...");
        std::process::exit(2);
    };
    let epochs: usize = epochs.parse().expect("EPOCHS: a number");
    let tables = tables();
    let mut samples = Vec::new();
    for file in files.unwrap_or_default() {
        let text = std::fs::read_to_string(file).expect("data file");
        for (pos, rules, label) in labelled_positions(&text) {
            let eval = tables.for_rules(&rules);
            let left = label - (eval.evaluate(&pos) - store_difference(&pos));
            samples.push(Sample {
                active: active_inputs(&pos, captures_at_hand(&pos.relative_holes())),
                own_row: rules.repetition == Repetition::OwnRow,
                target: (left as f32 / 100.0).clamp(-10.0, 10.0),
            });
        }
    }
    let held: Vec<Sample> = (0..samples.len())
        .rev()
        .filter(|k| k % 10 == 0)
        .map(|k| samples.swap_remove(k))
        .collect();
    eprintln!(
        "{} positions to learn from, {} held out",
        samples.len(),
        held.len()
    );
    let tables_only = held.iter().map(|s| s.target * s.target).sum::<f32>() / held.len() as f32;
    eprintln!("held out, the tables alone: mean squared error {tables_only:.3} seeds²");
    let mut rng = StdRng::seed_from_u64(26);
    let mut model = Model::new(&mut rng);
    let mut grad = model.zeroed();
    let values = model.values_mut().count();
    let mut adam = Adam {
        m: vec![0.0; values],
        v: vec![0.0; values],
        t: 0,
    };
    const BATCH: usize = 1024;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    for epoch in 0..epochs {
        order.shuffle(&mut rng);
        // The rate falls from 2e-3 to a tenth of it over the epochs.
        let rate = 2e-3 * 0.1f32.powf(epoch as f32 / epochs.max(2) as f32);
        let mut loss = 0.0;
        for batch in order.chunks(BATCH) {
            for &k in batch {
                loss += model.backward(&samples[k], &mut grad);
            }
            adam.step(&mut model, &mut grad, rate, batch.len());
        }
        let held_loss = held
            .iter()
            .map(|s| (model.forward(s).1 - s.target).powi(2))
            .sum::<f32>()
            / held.len() as f32;
        eprintln!(
            "epoch {epoch}: learnt {:.3}, held out {held_loss:.3} seeds²",
            loss / samples.len() as f32
        );
    }
    let net = model.quantized();
    let quantized = held
        .iter()
        .map(|s| {
            let c = net.correction(&s.active, s.own_row) as f32 / 100.0;
            (c - s.target).powi(2)
        })
        .sum::<f32>()
        / held.len() as f32;
    eprintln!(
        "held out, the network in integers: {quantized:.3} seeds² (tables alone {tables_only:.3})"
    );
    std::fs::write(out, net.to_bytes()).expect("write the network");
}
