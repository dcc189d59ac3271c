//! Matches between search or evaluation variants and the default, in one
//! process, for deciding engine features cheaply (the final word is `awale
//! match` against the binary before):
//!
//! `cargo run --profile fast -p awale-match --example variants -- NAME LIMIT [MAX_GAMES]`
//!
//! `LIMIT` is `nodes=N`, `depth=D` or `ms=T` a move. Rounds of the 36
//! two-ply openings with both colours, under `awale` then `abapa` (144
//! games a round, two at a time), until an SPRT of H0 = 0 Elo against H1 =
//! 10 Elo (alpha = beta = 0.05) decides or `MAX_GAMES` (default 1440) are
//! played. `VARIANTS_BASE=FILE` gives the default other evaluation tables.
//! Fixed nodes or depth make the result independent of the load of the
//! machine, but ignore speed: a variant slower per node must also win at
//! fixed time. `LIMIT` may also be `startdepth=D`: the nodes the variant
//! needs to complete depth `D` from the start, under both presets.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{Game, Rules};
use awale_engine::eval::{parse_tables, trained, Evaluations};
use awale_engine::{Engine, EngineOptions, Limits, SearchParams};
use awale_match::elo::{Sprt, SprtDecision, Tally};
use awale_match::{openings, run_match, MatchConfig, PlayerSpec};

/// The variants: `default`, or search settings as `KNOB=N,KNOB=N` (the
/// fields of `SearchParams`, 0 or 1 for a yes or no) changed from the
/// default; `tables=FILE` plays the default search with the tables of
/// `FILE`.
fn variant(name: &str) -> Option<(SearchParams, Arc<Evaluations>)> {
    let base = SearchParams::default();
    if let Some(file) = name.strip_prefix("tables=") {
        let text = std::fs::read_to_string(file).ok()?;
        return Some((base, Arc::new(parse_tables(&text).ok()?)));
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
        Ok(file) => variant(&format!("tables={file}")).ok_or("VARIANTS_BASE tables")?,
        Err(_) => variant("default").ok_or("default")?,
    };
    let limits = match limit.split_once('=') {
        Some(("nodes", n)) => Limits {
            nodes: Some(n.parse()?),
            ..Limits::default()
        },
        Some(("depth", d)) => Limits::depth(d.parse()?),
        Some(("ms", t)) => Limits::movetime(Duration::from_millis(t.parse()?)),
        _ => return Err("limit: nodes=N, depth=D or ms=T".into()),
    };
    let max_games: u32 = args.get(2).map(|g| g.parse()).transpose()?.unwrap_or(1440);
    let spec = |label: &str, (params, evaluations): &(SearchParams, Arc<Evaluations>)| {
        PlayerSpec::ours(label, limits.clone())
            .with_params(*params)
            .with_evaluations(Arc::clone(evaluations))
    };
    let (pa, pb) = (spec(name, &a), spec("default", &b));
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)?;
    let mut tally = Tally::default();
    let mut decision = None;
    'rounds: while tally.games() < max_games {
        for rules in [Rules::AWALE, Rules::ABAPA] {
            let openings = openings::every(rules, 2);
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
    }
    let verdict = match decision {
        Some(SprtDecision::AcceptH1) => "H1 accepted (a gain)",
        Some(SprtDecision::AcceptH0) => "H0 accepted (no gain)",
        None => "undecided",
    };
    println!("final: {name} vs default, {limit}: {verdict}");
    Ok(())
}
