//! Tunes the evaluation weights: plays self-play games, labels positions
//! with a deeper search, fits the weights by least squares, and checks the
//! new weights against the old ones in a match at fixed depth.
//!
//! `cargo run --release -p awale-match --example tune -- [GAMES] [LABEL_DEPTH] [MATCH_DEPTH]`
//!
//! The target of the fit is what the deeper search expects to be captured
//! from here on: its score minus the store difference. Each feature's
//! weight is then its worth in hundredths of a seed.

use std::sync::atomic::AtomicBool;

use awale_core::{Game, Position, Rules};
use awale_engine::eval::{features, store_difference, Weights, FEATURES, FEATURE_NAMES};
use awale_engine::{choose_move, Engine, EngineOptions, Level, Limits};
use awale_match::{openings, run_match, MatchConfig, PlayerSpec};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(300);
    let label_depth = args.get(1).copied().unwrap_or(10) as u32;
    let match_depth = args.get(2).copied().unwrap_or(8) as u32;
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 32,
        threads: 1,
    });

    // 1. Positions from self-play at a level that varies its moves.
    let mut positions: Vec<(Position, Rules)> = Vec::new();
    for g in 0..games {
        let rules = if g % 2 == 0 {
            Rules::AWALE
        } else {
            Rules::ABAPA
        };
        let mut game = Game::new(rules);
        let mut rng = StdRng::seed_from_u64(g);
        while game.end().is_none() && game.plies().len() < 200 {
            let level = if game.plies().len().is_multiple_of(3) {
                Level::Sprout
            } else {
                Level::Apprentice
            };
            let Some(m) = choose_move(&mut engine, &game, level, rng.random(), &stop) else {
                break;
            };
            if game.plies().len() >= 4 && game.plies().len() % 3 == (g % 3) as usize {
                positions.push((game.position(), rules));
            }
            game.play(m).expect("legal move");
        }
    }
    eprintln!("{} positions from {games} games", positions.len());

    // 2. Labels: the deeper search's expected captures from here on.
    let mut rows: Vec<([f64; FEATURES], f64)> = Vec::new();
    for (k, (position, rules)) in positions.iter().enumerate() {
        let game = Game::from_position(*rules, *position);
        if game.end().is_some() {
            continue;
        }
        let result = engine.search(&game, &Limits::depth(label_depth), &stop, &mut |_| {});
        if result.score.is_decided() {
            continue;
        }
        let y = f64::from(result.score.cp_value() - store_difference(position));
        if y.abs() > 1_500.0 {
            continue;
        }
        let f = features(position).map(f64::from);
        rows.push((f, y));
        if k % 2000 == 0 {
            eprintln!("labelled {k}");
        }
    }
    eprintln!("{} labelled positions", rows.len());

    // 3. Least squares with a little ridge, by the normal equations.
    let n = FEATURES;
    let mut a = vec![vec![0f64; n + 1]; n];
    for (f, y) in &rows {
        for (row, fi) in a.iter_mut().zip(f) {
            for (x, fj) in row.iter_mut().zip(f) {
                *x += fi * fj;
            }
            row[n] += fi * y;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1.0;
    }
    let w = solve(a);
    let sse = |w: &[f64]| -> f64 {
        rows.iter()
            .map(|(f, y)| {
                let p: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                (y - p) * (y - p)
            })
            .sum::<f64>()
            / rows.len().max(1) as f64
    };
    let old: Vec<f64> = Weights::TUNED.0.iter().map(|&x| f64::from(x)).collect();
    println!(
        "mean squared error: zero weights {:.0}, current {:.0}, fitted {:.0}",
        sse(&vec![0.0; n]),
        sse(&old),
        sse(&w)
    );
    let mut fitted = [0i32; FEATURES];
    for k in 0..n {
        fitted[k] = w[k].round() as i32;
        println!(
            "{:>32}: {:>5}  (was {})",
            FEATURE_NAMES[k],
            fitted[k],
            Weights::TUNED.0[k]
        );
    }
    println!("Weights({fitted:?})");

    // 4. The fitted weights against the current ones.
    let (wins, draws, losses) = weights_match(Weights(fitted), Weights::TUNED, match_depth);
    println!(
        "fitted vs current at depth {match_depth}: +{wins} ={draws} -{losses} (score {:.1}%)",
        100.0 * (wins as f64 + draws as f64 / 2.0) / (wins + draws + losses).max(1) as f64
    );
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
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    (0..n).map(|i| a[i][n] / a[i][i]).collect()
}

/// Plays both colours of every 2-ply opening under both presets, `a`
/// against `b` at a fixed depth; returns a's wins, draws, losses.
fn weights_match(a: Weights, b: Weights, depth: u32) -> (u32, u32, u32) {
    let fitted = PlayerSpec::ours("fitted", Limits::depth(depth)).with_weights(a);
    let current = PlayerSpec::ours("current", Limits::depth(depth)).with_weights(b);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let openings = openings::every(rules, 2);
        let config = MatchConfig {
            rules,
            games: openings.len() * 2,
            openings,
            max_plies: 300,
            ..MatchConfig::default()
        };
        match run_match(&config, &fitted, &current, &mut |_, _| {}) {
            Ok(summary) => {
                wins += summary.tally.wins;
                draws += summary.tally.draws;
                losses += summary.tally.losses;
            }
            Err(e) => eprintln!("match under {rules}: {e}"),
        }
    }
    (wins, draws, losses)
}
