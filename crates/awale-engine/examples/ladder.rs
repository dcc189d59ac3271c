//! A quick in-process check of the distance between two levels (or a level
//! and the greedy player), for tuning the ladder before `awale match`
//! measures it (docs/BENCHMARKS.md):
//!
//! `cargo run --profile fast -p awale-engine --example ladder -- A B [GAMES]`
//!
//! `A` and `B` are level numbers, or 0 for the greedy player. The 36 two-ply
//! openings are played with both colours under `awale` and `abapa`, two
//! games at a time; the result is `A`'s.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use awale_core::{Game, Move, Rules, Side};
use awale_engine::{choose_move, greedy_move, Engine, EngineOptions, Level};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (Some(&a), Some(&b)) = (args.first(), args.get(1)) else {
        eprintln!("usage: ladder A B [GAMES] (levels, 0 for greedy)");
        std::process::exit(2);
    };
    let games = args.get(2).copied().unwrap_or(144);
    let player = |n: usize| (n > 0).then(|| Level::from_number(n as u8).expect("a level"));
    let (pa, pb) = (player(a), player(b));
    let tally = Mutex::new([0u32; 3]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::SeqCst);
                if g >= games {
                    break;
                }
                let r = play(g, pa, pb);
                tally.lock().expect("tally")[r] += 1;
            });
        }
    });
    let [w, d, l] = *tally.lock().expect("tally");
    let n = f64::from(w + d + l);
    let s = (f64::from(w) + f64::from(d) / 2.0) / n;
    let elo = -400.0 * (1.0 / s.clamp(0.001, 0.999) - 1.0).log10();
    println!(
        "{a} vs {b}: +{w} ={d} -{l}, {:.1}%, {elo:+.0} Elo",
        100.0 * s
    );
}

/// Game `g` between `a` and `b` (None: greedy): 0 when `a` wins, 1 a
/// draw, 2 a loss.
fn play(g: usize, a: Option<Level>, b: Option<Level>) -> usize {
    let stop = AtomicBool::new(false);
    let a_south = g.is_multiple_of(2);
    let rules = if (g / 2).is_multiple_of(2) {
        Rules::AWALE
    } else {
        Rules::ABAPA
    };
    let opening = (g / 4) % 36;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let mut game = Game::new(rules);
    game.play(Move::from_hole(opening / 6).expect("hole"))
        .expect("opening");
    game.play(Move::from_hole(6 + opening % 6).expect("hole"))
        .expect("opening");
    let mut seed = g as u64 * 7919;
    while game.end().is_none() && game.plies().len() < 400 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let south = game.position().to_move() == Side::South;
        let player = if south == a_south { a } else { b };
        let m = match player {
            Some(level) => choose_move(&mut engine, &game, level, seed, &stop),
            None => greedy_move(&game, seed),
        };
        let Some(m) = m else { break };
        game.play(m).expect("legal");
    }
    let a_side = if a_south { Side::South } else { Side::North };
    let winner = match game.outcome() {
        Some(o) => o.winner,
        None => {
            let s = game.position().stores();
            match s[0].cmp(&s[1]) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            }
        }
    };
    match winner {
        Some(x) if x == a_side => 0,
        Some(_) => 2,
        None => 1,
    }
}
