//! A quick in-process check that each level beats the one below it: plays
//! every two-ply opening with both colours between adjacent levels.
//!
//! `cargo run --release -p awale-engine --example ladder -- [FIRST_LEVEL] [LAST_LEVEL] [OPENINGS]`
//!
//! The formal ladder with Elo figures is `awale match` (docs/BENCHMARKS.md).

use std::sync::atomic::AtomicBool;

use awale_core::{Game, Move, Rules, Side};
use awale_engine::{choose_move, Engine, EngineOptions, Level};

fn main() {
    let args: Vec<u8> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let first = args.first().copied().unwrap_or(1);
    let last = args.get(1).copied().unwrap_or(5);
    let openings = usize::from(args.get(2).copied().unwrap_or(36));
    let stop = AtomicBool::new(false);
    for n in first..last {
        let (Some(weak), Some(strong)) = (Level::from_number(n), Level::from_number(n + 1)) else {
            continue;
        };
        let mut engines = [
            Engine::new(EngineOptions {
                hash_mb: 16,
                threads: 1,
            }),
            Engine::new(EngineOptions {
                hash_mb: 16,
                threads: 1,
            }),
        ];
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for opening in 0..openings {
            for strong_is_south in [true, false] {
                let mut game = Game::new(Rules::AWALE);
                game.play(Move::from_hole(opening / 6 % 6).expect("hole"))
                    .expect("opening");
                game.play(Move::from_hole(6 + opening % 6).expect("hole"))
                    .expect("opening");
                for e in &mut engines {
                    e.new_game();
                }
                let mut seed = opening as u64 * 31 + u64::from(strong_is_south);
                while game.end().is_none() && game.plies().len() < 400 {
                    seed += 1;
                    let south = game.position().to_move() == Side::South;
                    let strong_to_move = south == strong_is_south;
                    let (engine, level) = if strong_to_move {
                        (&mut engines[0], strong)
                    } else {
                        (&mut engines[1], weak)
                    };
                    let Some(m) = choose_move(engine, &game, level, seed, &stop) else {
                        break;
                    };
                    game.play(m).expect("legal");
                }
                let strong_side = if strong_is_south {
                    Side::South
                } else {
                    Side::North
                };
                match game.outcome().and_then(|o| o.winner) {
                    Some(w) if w == strong_side => wins += 1,
                    Some(_) => losses += 1,
                    None => draws += 1,
                }
            }
        }
        let games = wins + draws + losses;
        println!(
            "level {} ({}) vs level {} ({}): +{wins} ={draws} -{losses}, score {:.1}%",
            n + 1,
            strong.name(awale_engine::Lang::En),
            n,
            weak.name(awale_engine::Lang::En),
            100.0 * (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(games.max(1))
        );
    }
}
