//! Positions labelled by a deeper search, for fitting the evaluation:
//!
//! `cargo run --profile fast -p awale-engine --example evaldata -- GAMES DEPTH OUT [FIRST_GAME]`
//!
//! Plays `GAMES` games (half `awale`, half `abapa`) with moves chosen by a
//! shallow search with a temperature (varied but sensible play, as
//! people's), keeps every third position from ply 4, searches each to
//! `DEPTH` plies (4 more when 16 seeds or fewer are on the board, where the
//! search is cheap) and writes one line per position: the diagram, the
//! rules, and the label, what the search expects to be captured from here
//! on (its score minus the store difference, hundredths of a seed).
//! Decided positions are left out. Two threads. The labeller searches with
//! the evaluation in force (the tables and the network, `trained()`).
//!
//! `data/evaldata.txt.xz` holds the positions the network in force was
//! trained on (`evaldata 24000 11 OUT 1000`, stopped after games 1000 to
//! about 13000, labelled before the network existed: by the tables alone);
//! `xz -dk` it to train again (`examples/train.rs`).

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use awale_core::{Game, Rules};
use awale_engine::eval::store_difference;
use awale_engine::{choose_move, Engine, EngineOptions, Level, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let depth: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let out = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "evaldata.txt".into());
    let first: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let file = Mutex::new(std::io::BufWriter::new(
        std::fs::File::create(&out).expect("output file"),
    ));
    let next = AtomicU64::new(first);
    let written = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let stop = AtomicBool::new(false);
                let mut player = Engine::new(EngineOptions {
                    hash_mb: 8,
                    threads: 1,
                });
                let mut labeller = Engine::new(EngineOptions {
                    hash_mb: 32,
                    threads: 1,
                });
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= first + games {
                        break;
                    }
                    let rules = if g.is_multiple_of(2) {
                        Rules::AWALE
                    } else {
                        Rules::ABAPA
                    };
                    let positions = self_play(&mut player, rules, g, &stop);
                    let mut lines = Vec::new();
                    for game in positions {
                        let pos = game.position();
                        let d = if pos.seeds_on_board() <= 16 {
                            depth + 4
                        } else {
                            depth
                        };
                        labeller.new_game();
                        let r = labeller.search(&game, &Limits::depth(d), &stop, &mut |_| {});
                        if r.score.is_decided() {
                            continue;
                        }
                        let label = r.score.cp_value() - store_difference(&pos);
                        lines.push(format!("{pos} {rules} {label}"));
                    }
                    let mut f = file.lock().expect("file");
                    for l in &lines {
                        writeln!(f, "{l}").expect("write");
                    }
                    f.flush().expect("flush");
                    let n = written.fetch_add(lines.len() as u64, Ordering::SeqCst);
                    if g.is_multiple_of(20) {
                        eprintln!("game {g}: {} positions", n + lines.len() as u64);
                    }
                }
            });
        }
    });
}

/// One game of varied play; the games (with their histories, for
/// repetitions) at every third ply from ply 4.
fn self_play(engine: &mut Engine, rules: Rules, g: u64, stop: &AtomicBool) -> Vec<Game> {
    let mut game = Game::new(rules);
    let mut kept = Vec::new();
    let mut seed = g.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xABCD;
    while game.end().is_none() && game.plies().len() < 300 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // Mostly good play, some weaker, so that both balanced and lopsided
        // positions are seen.
        let level = match (seed >> 33) % 8 {
            0 => Level::Player,
            1 | 2 => Level::Skilled,
            3..=5 => Level::Strong,
            _ => Level::Expert,
        };
        let Some(m) = choose_move(engine, &game, level, seed, stop) else {
            break;
        };
        let plies = game.plies().len() as u64;
        if plies >= 4 && plies % 3 == g % 3 {
            kept.push(game.clone());
        }
        if game.play(m).is_err() {
            break;
        }
    }
    kept
}
