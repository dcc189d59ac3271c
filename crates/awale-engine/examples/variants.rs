//! Matches between search or evaluation variants and the default, in one
//! process, for deciding engine features cheaply (the final word is `awale
//! match` against the binary before):
//!
//! `cargo run --profile fast -p awale-engine --example variants -- NAME LIMIT [MAX_GAMES]`
//!
//! `LIMIT` is `nodes=N`, `depth=D` or `ms=T` a move. The 36 two-ply openings
//! are played with both colours under `awale` and `abapa` (144 games a
//! round), two games at a time, until an SPRT of H0 = 0 Elo against H1 = 10
//! Elo (alpha = beta = 0.05) decides or `MAX_GAMES` (default 1440) are
//! played. `VARIANTS_BASE=FILE` gives the default other tables to play
//! with. Fixed nodes or depth make the result independent of the load of
//! the machine, but ignore speed: a variant that is slower per node must
//! also win at fixed time.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use awale_core::{Game, Move, Rules, Side};
use std::sync::Arc;

use awale_engine::eval::{parse_tables, trained, Evaluations};
use awale_engine::{Engine, EngineOptions, Limits, SearchParams};

/// The variants: a name, its parameters and evaluation tables.
/// `tables=FILE` plays the default search with the tables of `FILE`.
fn variant(name: &str) -> Option<(SearchParams, Arc<Evaluations>)> {
    let base = SearchParams::default();
    if let Some(file) = name.strip_prefix("tables=") {
        let text = std::fs::read_to_string(file).ok()?;
        return Some((base, Arc::new(parse_tables(&text).ok()?)));
    }
    let params = match name {
        "default" => base,
        "static100" => SearchParams {
            static_margin: 100,
            ..base
        },
        "static60" => SearchParams {
            static_margin: 60,
            ..base
        },
        "static150" => SearchParams {
            static_margin: 150,
            ..base
        },
        "lmr200" => SearchParams {
            lmr_divisor: 200,
            ..base
        },
        "lmr150" => SearchParams {
            lmr_divisor: 150,
            ..base
        },
        "lmr150f1" => SearchParams {
            lmr_divisor: 150,
            lmr_first: 1,
            ..base
        },
        "lmr100" => SearchParams {
            lmr_divisor: 100,
            ..base
        },
        "lmr80" => SearchParams {
            lmr_divisor: 80,
            ..base
        },
        "lmr100f1" => SearchParams {
            lmr_divisor: 100,
            lmr_first: 1,
            ..base
        },
        "futility2" => SearchParams {
            futility_depth: 2,
            ..base
        },
        "lmr250" => SearchParams {
            lmr_divisor: 250,
            ..base
        },
        "malus" => SearchParams {
            history_malus: true,
            ..base
        },
        "aspiration25" => SearchParams {
            aspiration: 25,
            ..base
        },
        "qsearch" => SearchParams {
            qsearch: true,
            ..base
        },
        "no_futility" => SearchParams {
            futility: 0,
            ..base
        },
        _ => return None,
    };
    Some((params, Arc::new(trained().clone())))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(limit)) = (args.first(), args.get(1)) else {
        eprintln!("usage: variants NAME nodes=N|depth=D|ms=T [MAX_GAMES]");
        std::process::exit(2);
    };
    let Some(a) = variant(name) else {
        eprintln!("unknown variant {name}");
        std::process::exit(2);
    };
    // The opponent: the default, or the tables of VARIANTS_BASE.
    let b = match std::env::var("VARIANTS_BASE") {
        Ok(file) => variant(&format!("tables={file}")).expect("VARIANTS_BASE tables"),
        Err(_) => variant("default").expect("default"),
    };
    if let Some(depth) = limit.strip_prefix("startdepth=") {
        // Nodes to complete a depth from the start, under both presets.
        let depth: u32 = depth.parse().expect("depth");
        for rules in [Rules::AWALE, Rules::ABAPA] {
            let mut e = Engine::new(EngineOptions {
                hash_mb: 64,
                threads: 1,
            });
            e.set_params(a.0);
            e.set_evaluations(Arc::clone(&a.1));
            let stop = AtomicBool::new(false);
            let r = e.search(&Game::new(rules), &Limits::depth(depth), &stop, &mut |_| {});
            println!("{name} {rules} depth {depth}: {} nodes", r.nodes);
        }
        return;
    }
    let limits = match limit.split_once('=') {
        Some(("nodes", n)) => Limits {
            nodes: n.parse().ok(),
            ..Limits::default()
        },
        Some(("depth", d)) => Limits::depth(d.parse().expect("depth")),
        Some(("ms", t)) => Limits::movetime(Duration::from_millis(t.parse().expect("ms"))),
        _ => panic!("limit: nodes=N, depth=D or ms=T"),
    };
    let max_games: usize = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(1440);
    let tally = Mutex::new([0u32; 3]);
    let next = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::SeqCst);
                if g >= max_games || done.load(Ordering::SeqCst) {
                    break;
                }
                let result = play(g, &a, &b, &limits);
                let mut t = tally.lock().expect("tally");
                t[result] += 1;
                let (w, d, l) = (t[0], t[1], t[2]);
                let n = w + d + l;
                let llr = llr(w, d, l, 0.0, 10.0);
                if n % 24 == 0 || llr.abs() > 2.94 {
                    let (elo, margin) = elo(w, d, l);
                    println!(
                        "{name} vs default, {limit}: {n} games +{w} ={d} -{l} \
                         {elo:+.1} ± {margin:.1} Elo, LLR {llr:.2} (±2.94)"
                    );
                }
                if llr.abs() > 2.94 {
                    done.store(true, Ordering::SeqCst);
                }
            });
        }
    });
    let t = tally.lock().expect("tally");
    let (elo, margin) = elo(t[0], t[1], t[2]);
    let llr = llr(t[0], t[1], t[2], 0.0, 10.0);
    let verdict = if llr > 2.94 {
        "H1 accepted (a gain)"
    } else if llr < -2.94 {
        "H0 accepted (no gain)"
    } else {
        "undecided"
    };
    println!(
        "final: {name} vs default, {limit}: +{} ={} -{} {elo:+.1} ± {margin:.1} Elo, LLR {llr:.2}: {verdict}",
        t[0], t[1], t[2]
    );
}

/// Game `g`: opening `g / 4 % 36`, the variant South on even `g`, `abapa`
/// when `g / 2` is odd. Returns 0 for a win of the variant, 1 a draw, 2 a
/// loss.
fn play(
    g: usize,
    a: &(SearchParams, Arc<Evaluations>),
    b: &(SearchParams, Arc<Evaluations>),
    limits: &Limits,
) -> usize {
    let stop = AtomicBool::new(false);
    let a_south = g.is_multiple_of(2);
    let rules = if (g / 2).is_multiple_of(2) {
        Rules::AWALE
    } else {
        Rules::ABAPA
    };
    let opening = (g / 4) % 36;
    let mut engines = [a, b].map(|(params, evaluations)| {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 16,
            threads: 1,
        });
        e.set_params(*params);
        e.set_evaluations(Arc::clone(evaluations));
        e
    });
    let mut game = Game::new(rules);
    game.play(Move::from_hole(opening / 6).expect("hole"))
        .expect("opening");
    game.play(Move::from_hole(6 + opening % 6).expect("hole"))
        .expect("opening");
    while game.end().is_none() && game.plies().len() < 400 {
        let south = game.position().to_move() == Side::South;
        let e = &mut engines[usize::from(south != a_south)];
        let r = e.search(&game, limits, &stop, &mut |_| {});
        let Some(m) = r.best else { break };
        game.play(m).expect("legal");
    }
    let a_side = if a_south { Side::South } else { Side::North };
    let winner = match game.outcome() {
        Some(o) => o.winner,
        // Adjudicated by the stores after 400 plies.
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

fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference and its 95% margin (normal approximation).
fn elo(w: u32, d: u32, l: u32) -> (f64, f64) {
    let n = f64::from(w + d + l).max(1.0);
    let s = (f64::from(w) + f64::from(d) / 2.0) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    let to_elo = |x: f64| -400.0 * (1.0 / x.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    let margin = 1.96 * (var / n).sqrt();
    (to_elo(s), (to_elo(s + margin) - to_elo(s - margin)) / 2.0)
}

/// The log-likelihood ratio of H1 (elo1) against H0 (elo0), in the normal
/// approximation of the trinomial model.
fn llr(w: u32, d: u32, l: u32, elo0: f64, elo1: f64) -> f64 {
    let n = f64::from(w + d + l);
    if n == 0.0 || w + d == 0 || d + l == 0 {
        return 0.0;
    }
    let s = (f64::from(w) + f64::from(d) / 2.0) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected(elo0), expected(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}
