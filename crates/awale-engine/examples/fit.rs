//! Fits the evaluation tables to positions labelled by a deeper search
//! (`examples/evaldata.rs`), and writes them in the format of
//! `crates/awale-engine/data/eval.txt`:
//!
//! `cargo run --profile fast -p awale-engine --example fit -- OUT DATA...`
//!
//! For each repetition rule (`nobody`, `own_row`) and each phase (seeds on
//! the board, see `eval::phase`), ridge regression of the label (what the
//! search expects to be captured from here on) on one value per hole and
//! seed count and the two captures at hand. The regression fits what the
//! tables in force leave over (the label minus their evaluation), shrunk
//! towards no change where a cell has few positions; so a rare seed count
//! keeps the value it had.

use std::io::Write;

use awale_core::{Position, Repetition};
use awale_engine::eval::{
    captures_at_hand, labelled_positions, phase, store_difference, Evaluation, PHASES,
};

/// Unknowns of one phase: 12 holes × 49 seed counts, then the two captures.
const N: usize = 12 * 49 + 2;
/// Ridge: as many positions' worth of pull towards no change.
const RIDGE: f64 = 30.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, files)) = args.split_first() else {
        eprintln!("usage: fit OUT DATA...");
        std::process::exit(2);
    };
    let base = awale_engine::eval::tables().clone();
    let mut rows: [Vec<Vec<(Position, f64)>>; 2] = Default::default();
    for group in &mut rows {
        *group = vec![Vec::new(); PHASES];
    }
    let mut count = 0usize;
    for file in files {
        let text = std::fs::read_to_string(file).expect("data file");
        for (pos, rules, label) in labelled_positions(&text) {
            let label = f64::from(label);
            let g = usize::from(rules.repetition == Repetition::OwnRow);
            rows[g][phase(pos.seeds_on_board())].push((pos, label));
            count += 1;
        }
    }
    let mut fitted = base.clone();
    for (g, name) in ["nobody", "own_row"].iter().enumerate() {
        let old = if g == 0 { &base.nobody } else { &base.own_row };
        let new = if g == 0 {
            &mut fitted.nobody
        } else {
            &mut fitted.own_row
        };
        for (ph, data) in rows[g].iter().enumerate() {
            // One position in five is held out, to see whether the fit
            // holds on positions it has not seen.
            let (fit_rows, held): (Vec<_>, Vec<_>) =
                data.iter().enumerate().partition(|(k, _)| k % 5 != 0);
            let fit_rows: Vec<(Position, f64)> = fit_rows.into_iter().map(|(_, r)| *r).collect();
            let held: Vec<(Position, f64)> = held.into_iter().map(|(_, r)| *r).collect();
            let (_, _, delta_check) = fit_phase(old, &fit_rows);
            let (held_before, held_after) = (
                mse(old, &held, &vec![0.0; N]),
                mse(old, &held, &delta_check),
            );
            let (before, after, delta) = fit_phase(old, data);
            let table = &mut new.phases[ph];
            for h in 0..12 {
                for s in 0..49 {
                    let v = f64::from(table.holes[h][s]) + delta[h * 49 + s];
                    table.holes[h][s] = v.round().clamp(-3000.0, 3000.0) as i16;
                }
            }
            for c in 0..2 {
                let v = f64::from(table.capture[c]) + delta[12 * 49 + c];
                table.capture[c] = v.round().clamp(-1000.0, 1000.0) as i16;
            }
            eprintln!(
                "{name} phase {ph}: {} positions, mean squared error {before:.0} -> {after:.0} \
                 (held out: {held_before:.0} -> {held_after:.0})",
                data.len()
            );
        }
    }
    eprintln!("{count} positions");
    let mut f = std::io::BufWriter::new(std::fs::File::create(out).expect("output"));
    write!(f, "{}", awale_engine::eval::tables_text(&fitted)).expect("write");
}

/// The active unknowns of a position: its 12 (hole, seeds) cells with value
/// 1, and the two captures at hand with their seeds.
fn active(pos: &Position) -> [(usize, f64); 14] {
    let holes = pos.relative_holes();
    let mut a = [(0, 0.0); 14];
    for (h, &s) in holes.iter().enumerate() {
        a[h] = (h * 49 + usize::from(s).min(48), 1.0);
    }
    let [mover, opponent] = captures_at_hand(&holes);
    a[12] = (12 * 49, f64::from(mover));
    a[13] = (12 * 49 + 1, f64::from(opponent));
    a
}

/// Fits the change of one phase's table; returns the mean squared errors
/// before and after, and the change.
fn fit_phase(old: &Evaluation, data: &[(Position, f64)]) -> (f64, f64, Vec<f64>) {
    let mut a = vec![vec![0f64; N + 1]; N];
    for (pos, label) in data {
        let r = residual(old, pos, *label);
        let act = active(pos);
        for &(i, xi) in &act {
            for &(j, xj) in &act {
                a[i][j] += xi * xj;
            }
            a[i][N] += xi * r;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        // The captures' weights are shared by every position: pull them less.
        row[i] += if i >= 12 * 49 { 1.0 } else { RIDGE };
    }
    let delta = solve(a);
    (mse(old, data, &vec![0.0; N]), mse(old, data, &delta), delta)
}

/// What the label leaves over after the tables in force.
fn residual(old: &Evaluation, pos: &Position, label: f64) -> f64 {
    label - f64::from(old.evaluate(pos) - store_difference(pos))
}

/// The mean squared error of the tables in force changed by `delta`.
fn mse(old: &Evaluation, data: &[(Position, f64)], delta: &[f64]) -> f64 {
    data.iter()
        .map(|(pos, label)| {
            let p: f64 = active(pos).iter().map(|&(i, x)| delta[i] * x).sum();
            (residual(old, pos, *label) - p).powi(2)
        })
        .sum::<f64>()
        / data.len().max(1) as f64
}

/// Gaussian elimination with partial pivoting on an augmented matrix.
fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        if pivot_row[col] == 0.0 {
            continue;
        }
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && row[col] != 0.0 {
                let factor = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i] == 0.0 {
                0.0
            } else {
                a[i][n] / a[i][i]
            }
        })
        .collect()
}
