//! Builds the opening book, `crates/awale-engine/data/book.txt`: every
//! position of the first `PLIES` plies (South or North starting) under
//! `awale` and `abapa`, searched to `DEPTH` plies, with the move found.
//!
//! `cargo run --release -p awale-engine --example book -- [PLIES] [DEPTH] > crates/awale-engine/data/book.txt`

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use awale_core::{Game, Position, Rules, Side};
use awale_engine::{Engine, EngineOptions, Limits};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let plies = args.first().copied().unwrap_or(3) as usize;
    let depth = args.get(1).copied().unwrap_or(18);
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 64,
        threads: 1,
    });
    println!("# The opening book (crates/awale-engine/src/book.rs): RULES DIAGRAM MOVE # score.");
    println!("# Made by: cargo run --release -p awale-engine --example book -- {plies} {depth}");
    println!("# Every position of the first {plies} plies, searched to depth {depth}.");
    for (name, rules) in [("awale", Rules::AWALE), ("abapa", Rules::ABAPA)] {
        let mut seen = HashSet::new();
        let mut layer: Vec<Game> = Side::BOTH
            .iter()
            .map(|&side| Game::from_position(rules, Position::start(side)))
            .collect();
        for ply in 0..=plies {
            let mut next = Vec::new();
            for game in layer {
                let position = game.position();
                if game.end().is_some() || !seen.insert(position) {
                    continue;
                }
                engine.new_game();
                let result = engine.search(&game, &Limits::depth(depth), &stop, &mut |_| {});
                if let Some(mv) = result.best {
                    println!("{name} {position} {mv}  # {}", result.score);
                }
                if ply < plies {
                    for m in game.legal_moves() {
                        let mut child = game.clone();
                        if child.play(m).is_ok() {
                            next.push(child);
                        }
                    }
                }
            }
            eprintln!("{name}: ply {ply} done, {} positions", seen.len());
            layer = next;
        }
    }
}
