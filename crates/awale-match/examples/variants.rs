//! Matches between search or evaluation variants and the default, in one
//! process, for deciding engine features cheaply (the final word is `awale
//! match` against the binary before):
//!
//! `cargo run --profile fast -p awale-match --example variants -- NAME LIMIT [MAX_GAMES]`
//!
//! `LIMIT` is `nodes=N`, `depth=D` or `ms=T` a move, or a clock for the
//! game, `tc=BASE+INC` in seconds. Rounds of the 36
//! two-ply openings with both colours, under `awale` then `abapa` (144
//! games a round, two at a time), until an SPRT of H0 = 0 Elo against H1 =
//! 10 Elo (alpha = beta = 0.05) decides or `MAX_GAMES` (default 1440) are
//! played. `VARIANTS_BASE=VARIANT` plays the other side as that variant
//! instead of the default (`net=none`: the tables without the network).
//! Fixed nodes or depth make the result independent of the load of the
//! machine, but ignore speed: a variant slower per node must also win at
//! fixed time. `LIMIT` may also be `startdepth=D`: the nodes the variant
//! needs to complete depth `D` from the start, under both presets.
//!
//! `VARIANTS_DB=DIR` gives both sides the endgame databases of `DIR`;
//! `VARIANTS_OPENINGS=FILE` plays the openings of `FILE` (one line of moves
//! each, both colours) under `abapa` only (`VARIANTS_RULES=awale` for the
//! other preset), once, instead of the rounds: for few-seed endgames from
//! match records (`scripts/endgame-openings.py`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules};
use awale_engine::eval::{parse_tables, tables, trained, Evaluations};
use awale_engine::net::Net;
use awale_engine::{Clock, Engine, EngineOptions, Limits, SearchParams};
use awale_match::elo::{Sprt, SprtDecision, Tally};
use awale_match::{openings, run_match, MatchConfig, PlayerSpec};

/// The variants: `default`, or search settings as `KNOB=N,KNOB=N` (the
/// fields of `SearchParams`, 0 or 1 for a yes or no) changed from the
/// default; `tables=FILE` plays the default search with the tables of
/// `FILE`, `net=FILE` with the tables in force corrected by the network
/// of `FILE` (`examples/train.rs` in `awale-engine`), `net=none` with the
/// tables alone.
fn variant(name: &str) -> Option<(SearchParams, Arc<Evaluations>)> {
    let base = SearchParams::default();
    if let Some(file) = name.strip_prefix("tables=") {
        let text = std::fs::read_to_string(file).ok()?;
        return Some((base, Arc::new(parse_tables(&text).ok()?)));
    }
    if let Some(file) = name.strip_prefix("net=") {
        let net = match file {
            "none" => None,
            _ => Some(Arc::new(Net::from_bytes(&std::fs::read(file).ok()?).ok()?)),
        };
        return Some((base, Arc::new(tables().clone().with_net(net))));
    }
    let mut params = base;
    for setting in name.split(',').filter(|s| *s != "default") {
        let (key, value) = setting.split_once('=')?;
        let number: i32 = value.parse().ok()?;
        match key {
            "lmr_first" => params.lmr_first = usize::try_from(number).ok()?,
            "lmr_deep" => params.lmr_deep = number != 0,
            "futility" => params.futility = number,
            "futility_depth" => params.futility_depth = number,
            "qsearch" => params.qsearch = number != 0,
            "static_margin" => params.static_margin = number,
            "static_depth" => params.static_depth = number,
            "history_malus" => params.history_malus = number != 0,
            "aspiration" => params.aspiration = number,
            "lmr_divisor" => params.lmr_divisor = number,
            "iir_depth" => params.iir_depth = number,
            "null_reduction" => params.null_reduction = number,
            "null_seeds" => params.null_seeds = number,
            "oracle_window" => params.oracle_window = number != 0,
            "time_manager" => params.time_manager = number != 0,
            _ => return None,
        }
    }
    Some((params, Arc::new(trained().clone())))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(limit)) = (args.first(), args.get(1)) else {
        return Err("usage: variants NAME nodes=N|depth=D|ms=T|startdepth=D [MAX_GAMES]".into());
    };
    let a = variant(name).ok_or(format!("unknown variant {name}"))?;
    if let Some(depth) = limit.strip_prefix("startdepth=") {
        let depth: u32 = depth.parse()?;
        for rules in [Rules::AWALE, Rules::ABAPA] {
            let mut e = Engine::new(EngineOptions {
                hash_mb: 64,
                threads: 1,
            });
            e.set_params(a.0);
            e.set_evaluations(Arc::clone(&a.1));
            let r = e.search(
                &Game::new(rules),
                &Limits::depth(depth),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            println!("{name} {rules} depth {depth}: {} nodes", r.nodes);
        }
        return Ok(());
    }
    let b = match std::env::var("VARIANTS_BASE") {
        Ok(base) => variant(&base).ok_or(format!("VARIANTS_BASE: unknown variant {base}"))?,
        Err(_) => variant("default").ok_or("default")?,
    };
    let limits = match limit.split_once('=') {
        Some(("nodes", n)) => Limits {
            nodes: Some(n.parse()?),
            ..Limits::default()
        },
        Some(("depth", d)) => Limits::depth(d.parse()?),
        Some(("ms", t)) => Limits::movetime(Duration::from_millis(t.parse()?)),
        Some(("tc", t)) => {
            let (base, increment) = t.split_once('+').unwrap_or((t, "0"));
            Limits {
                clock: Some(Clock {
                    remaining: Duration::from_secs_f64(base.parse()?),
                    increment: Duration::from_secs_f64(increment.parse()?),
                    moves_to_go: None,
                }),
                ..Limits::default()
            }
        }
        _ => return Err("limit: nodes=N, depth=D, ms=T or tc=BASE+INC (seconds)".into()),
    };
    let max_games: u32 = args.get(2).map(|g| g.parse()).transpose()?.unwrap_or(1440);
    let db = std::env::var_os("VARIANTS_DB").map(std::path::PathBuf::from);
    let spec = |label: &str,
                (params, evaluations): &(SearchParams, Arc<Evaluations>),
                rules: &Rules|
     -> Result<PlayerSpec, Box<dyn std::error::Error>> {
        let mut spec = PlayerSpec::ours(label, limits.clone())
            .with_params(*params)
            .with_evaluations(Arc::clone(evaluations));
        if let Some(dir) = &db {
            let oracle = awale_db::oracle_for(rules, Some(dir))?
                .ok_or(format!("no {rules} databases in {}", dir.display()))?;
            spec = spec.with_oracle(oracle);
        }
        Ok(spec)
    };
    let fixed = match std::env::var("VARIANTS_OPENINGS") {
        Ok(file) => {
            let rules = match std::env::var("VARIANTS_RULES").as_deref() {
                Ok("awale") => Rules::AWALE,
                _ => Rules::ABAPA,
            };
            // Lines whose game is already over (a record's last moves) are
            // left out.
            let text = std::fs::read_to_string(&file)?;
            let openings: Vec<_> = text
                .lines()
                .filter_map(|line| openings::parse_openings(line, rules).ok())
                .flatten()
                .collect();
            println!("{} openings from {file}", openings.len());
            Some((rules, openings))
        }
        Err(_) => None,
    };
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)?;
    let mut tally = Tally::default();
    let mut decision = None;
    'rounds: while tally.games() < max_games {
        let rounds = match &fixed {
            Some((rules, openings)) => vec![(*rules, openings.clone())],
            None => [Rules::AWALE, Rules::ABAPA]
                .map(|rules| (rules, openings::every(rules, 2)))
                .to_vec(),
        };
        for (rules, openings) in rounds {
            let (pa, pb) = (spec(name, &a, &rules)?, spec("default", &b, &rules)?);
            let config = MatchConfig {
                rules,
                games: openings.len() * 2,
                openings,
                concurrency: 2,
                ..MatchConfig::default()
            };
            let t = run_match(&config, &pa, &pb, &mut |_, _| {})?.tally;
            tally.wins += t.wins;
            tally.draws += t.draws;
            tally.losses += t.losses;
            let elo = tally.elo().map_or(String::new(), |e| {
                format!("{:+.1} ± {:.1} Elo", e.elo, e.margin())
            });
            println!(
                "{name} vs default, {limit}: {} games +{} ={} -{} {elo}, LLR {:.2} ({:.2} .. {:.2})",
                tally.games(),
                tally.wins,
                tally.draws,
                tally.losses,
                sprt.llr(&tally),
                sprt.bounds().0,
                sprt.bounds().1,
            );
            decision = sprt.decision(&tally);
            if decision.is_some() {
                break 'rounds;
            }
        }
        if fixed.is_some() {
            break;
        }
    }
    let verdict = match decision {
        Some(SprtDecision::AcceptH1) => "H1 accepted (a gain)",
        Some(SprtDecision::AcceptH0) => "H0 accepted (no gain)",
        None => "undecided",
    };
    println!("final: {name} vs default, {limit}: {verdict}");
    Ok(())
}
