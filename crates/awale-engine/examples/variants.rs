//! Matches between search variants at equal time per move, for deciding
//! search features: `cargo run --release -p awale-engine --example variants -- MS`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side};
use awale_engine::{Engine, EngineOptions, Limits, SearchParams};

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let base = SearchParams::default();
    let variants = [
        (
            "qsearch",
            SearchParams {
                qsearch: true,
                ..base
            },
        ),
        (
            "no_lmr_deep",
            SearchParams {
                lmr_deep: false,
                ..base
            },
        ),
        (
            "lmr_first1",
            SearchParams {
                lmr_first: 1,
                ..base
            },
        ),
        (
            "futility60",
            SearchParams {
                futility: 60,
                ..base
            },
        ),
    ];
    let which: Option<String> = std::env::args().nth(2);
    for (name, params) in variants {
        if which.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let (w, d, l) = play(params, base, Duration::from_millis(ms));
        println!(
            "{name} vs default at {ms} ms: +{w} ={d} -{l} ({:.1}%)",
            100.0 * (f64::from(w) + f64::from(d) / 2.0) / f64::from(w + d + l)
        );
    }
}

fn play(a: SearchParams, b: SearchParams, time: Duration) -> (u32, u32, u32) {
    let stop = AtomicBool::new(false);
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
    engines[0].set_params(a);
    engines[1].set_params(b);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for opening in 0..36 {
        for a_south in [true, false] {
            let mut game = Game::new(Rules::AWALE);
            game.play(Move::from_hole(opening / 6).expect("hole"))
                .expect("opening");
            game.play(Move::from_hole(6 + opening % 6).expect("hole"))
                .expect("opening");
            for e in &mut engines {
                e.new_game();
            }
            while game.end().is_none() && game.plies().len() < 300 {
                let south = game.position().to_move() == Side::South;
                let e = &mut engines[usize::from(south != a_south)];
                let r = e.search(&game, &Limits::movetime(time), &stop, &mut |_| {});
                let Some(m) = r.best else { break };
                game.play(m).expect("legal");
            }
            let a_side = if a_south { Side::South } else { Side::North };
            match game.outcome().and_then(|o| o.winner) {
                Some(x) if x == a_side => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
    }
    (w, d, l)
}
