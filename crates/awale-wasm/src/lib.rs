//! The rules and the engine in the page: one entry point, [`answer`], takes
//! a request as JSON and gives its answer as JSON, in the shapes of the
//! server's API, so that the page plays, sows, hints and analyses without
//! a network. Built for `wasm32-unknown-unknown` by `awale-web`'s build
//! script and run in a Web Worker (`page/js/engine-worker.js`); the
//! exports over bytes are in `host.rs`. Natively the same functions are
//! tested like any library.
//!
//! ```
//! let answer = awale_wasm::answer(r#"{"op": "position", "position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}"#);
//! assert!(answer.contains(r#""to_move":"S""#));
//! assert!(awale_wasm::answer("not json").contains(r#""error":"bad_json""#));
//! ```
#![deny(missing_docs)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use awale_core::{Game, Move, Outcome, Position, Rules, Side};
use awale_engine::{Engine, EngineOptions, Level, Limits, Reason};
use serde::Deserialize;
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
mod host;

/// The transposition table of the page's engine, in MiB (the server's
/// engines have the same).
const HASH_MB: usize = 16;

/// Moves one request may replay (the server's analysis board takes as many).
const MAX_MOVES: usize = 2_000;

/// The engine's lines an analysis may ask for (as the server).
const MAX_LINES: usize = 6;

/// The longest time a request may give the engine.
const MAX_TIME_MS: u64 = 60_000;

/// A request: its operation and what it is about.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// `new`, `position`, `game`, `record`, `level`, `computer`, `hint`,
    /// `analysis`, `bench` or `start_time`.
    op: String,
    /// The rules, as `awale` or `abapa,target=20` (default `awale`).
    rules: Option<String>,
    /// The start position, a diagram (default: the rules' start).
    #[serde(alias = "start")]
    position: Option<String>,
    /// Moves played from the start, as letters (`FfAa`).
    moves: Option<String>,
    /// The side that resigned (`S`, `N`).
    resigned: Option<String>,
    /// The computer's level (1-12).
    level: Option<u8>,
    /// Makes the weak levels' choices reproducible.
    seed: Option<u64>,
    /// The engine's thinking time.
    time_ms: Option<u64>,
    /// How many lines an analysis gives.
    lines: Option<usize>,
    /// The depth of `bench`.
    depth: Option<u32>,
    /// `record`: the person's side against the computer (none: two
    /// people on one screen).
    human: Option<String>,
    /// `record`: when the game was made (milliseconds since 1970).
    created_ms: Option<i64>,
    /// `record`: the game's id, its `Round` tag (the server writes its
    /// public id there).
    id: Option<String>,
}

/// A refused request: a stable code (those of the server's API) and a
/// message naming the rejected input.
#[derive(Debug)]
struct Refusal {
    code: &'static str,
    message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// The answer to `request`, a JSON object: the answer itself, or
/// `{"error": CODE, "message": TEXT}` (never a panic on bad input).
pub fn answer(request: &str) -> String {
    let result = serde_json::from_str::<Request>(request)
        .map_err(|e| refuse("bad_json", e.to_string()))
        .and_then(|r| handle(&r));
    match result {
        Ok(value) => value.to_string(),
        Err(r) => json!({ "error": r.code, "message": r.message }).to_string(),
    }
}

fn handle(r: &Request) -> Result<Value, Refusal> {
    match r.op.as_str() {
        "new" => {
            // The first player drawn here when the rules say `random`.
            let game = Game::new(rules(r)?);
            Ok(json!({ "start": game.start().to_string() }))
        }
        "position" => {
            let game = replay(r)?;
            Ok(position_view(&game))
        }
        "game" => game_view(r),
        "record" => record(r),
        "level" => Ok(json!({ "level": offline_level(r)?.number() })),
        "computer" => computer(r),
        "hint" => hint(r),
        "analysis" => analysis(r),
        "bench" => {
            let depth = r.depth.unwrap_or(18);
            if !(1..=30).contains(&depth) {
                return Err(refuse("bad_depth", format!("depth {depth}: from 1 to 30")));
            }
            let bench = awale_engine::bench::run(&mut engine(), depth, &mut |_, _, _| {});
            Ok(json!({
                "depth": depth,
                "positions": awale_engine::bench::POSITIONS.len(),
                "nodes": bench.nodes,
                "ms": bench.time.as_secs_f64() * 1000.0,
                "nps": bench.nodes_per_second(),
            }))
        }
        "start_time" => {
            let ms = time(r, 1_000)?;
            let mut engine = engine();
            let game = Game::new(Rules::AWALE);
            let result = engine.search(
                &game,
                &Limits::movetime(ms),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            Ok(json!({
                "ms": ms.as_millis() as u64,
                "depth": result.depth,
                "nodes": result.nodes,
                "best": result.best.map(|m| m.to_string()),
            }))
        }
        other => Err(refuse("bad_op", format!("`{other}` is not an operation"))),
    }
}

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: HASH_MB,
        threads: 1,
    })
}

fn rules(r: &Request) -> Result<Rules, Refusal> {
    match &r.rules {
        None => Ok(Rules::AWALE),
        Some(text) => text
            .parse()
            .map_err(|e| refuse("bad_rules", format!("{e}"))),
    }
}

fn time(r: &Request, default_ms: u64) -> Result<Duration, Refusal> {
    let ms = r.time_ms.unwrap_or(default_ms);
    if !(1..=MAX_TIME_MS).contains(&ms) {
        return Err(refuse(
            "bad_time",
            format!("{ms} ms: from 1 to {MAX_TIME_MS}"),
        ));
    }
    Ok(Duration::from_millis(ms))
}

/// The game of the request: its start, its moves played, its resignation.
fn replay(r: &Request) -> Result<Game, Refusal> {
    let rules = rules(r)?;
    let mut game = match &r.position {
        None => Game::new(rules),
        Some(text) => Game::from_position(
            rules,
            text.parse::<Position>()
                .map_err(|e| refuse("bad_position", e.to_string()))?,
        ),
    };
    if let Some(text) = &r.moves {
        let moves =
            awale_core::parse_moves(text).map_err(|e| refuse("bad_moves", e.to_string()))?;
        if moves.len() > MAX_MOVES {
            return Err(refuse(
                "bad_moves",
                format!("{} moves: at most {MAX_MOVES}", moves.len()),
            ));
        }
        for (ply, m) in moves.into_iter().enumerate() {
            game.play(m)
                .map_err(|e| refuse("illegal_move", format!("move {} ({m}): {e}", ply + 1)))?;
        }
    }
    if let Some(text) = &r.resigned {
        let side: Side = text
            .parse()
            .map_err(|e| refuse("bad_side", format!("{e}")))?;
        game.resign(side)
            .map_err(|e| refuse("game_over", e.to_string()))?;
    }
    Ok(game)
}

fn rules_view(rules: &Rules) -> Value {
    json!({
        "name": rules.to_string(),
        "grand_slam": rules.grand_slam.name(),
        "repetition": rules.repetition.name(),
        "target": rules.target,
        "direction": rules.direction.name(),
        "first": rules.first.name(),
        "columns": {
            "S": rules.direction.columns(Side::South),
            "N": rules.direction.columns(Side::North),
        },
    })
}

/// How a game ended: the reason, the stores, the winner's letter.
fn end_view(o: &Outcome) -> serde_json::Map<String, Value> {
    let mut end = serde_json::Map::new();
    end.insert("reason".into(), json!(o.reason.name()));
    end.insert("stores".into(), json!(o.stores));
    end.insert("winner".into(), json!(o.winner.map(Side::letter)));
    end
}

/// A position as the page draws it (the server's `BoardView`).
fn board_view(position: &Position) -> serde_json::Map<String, Value> {
    let mut map = serde_json::Map::new();
    map.insert("position".into(), json!(position.to_string()));
    map.insert("board".into(), json!(position.holes()));
    map.insert("stores".into(), json!(position.stores()));
    map.insert("to_move".into(), json!(position.to_move().letter()));
    map
}

/// The position reached and what each of the mover's holes does, as
/// `GET /api/study/position` answers (the end of the game as its rules
/// and history say: a repetition is seen).
fn position_view(game: &Game) -> Value {
    let position = game.position();
    let rules = game.rules();
    let moves: Vec<Value> = position
        .to_move()
        .row()
        .filter_map(Move::from_hole)
        .map(|m| match position.check(m, rules) {
            Ok(()) => {
                let sowing = position.sowing(m);
                json!({
                    "move": m.to_string(),
                    "legal": true,
                    "sown": sowing.sown,
                    "captures": sowing.captures,
                    "captured": position.captures(m),
                    "grand_slam": position.is_grand_slam(m),
                    "after": position.play_unchecked(m).to_string(),
                })
            }
            Err(e) => json!({
                "move": m.to_string(),
                "legal": false,
                "reason": e.name(),
                "message": e.to_string(),
            }),
        })
        .collect();
    let end = game.outcome().map(|o| Value::Object(end_view(&o)));
    let mut view = board_view(&position);
    view.insert("rules".into(), rules_view(rules));
    view.insert(
        "seeds".into(),
        json!(position.seeds_on_board() + position.stores().iter().sum::<u8>()),
    );
    view.insert("end".into(), json!(end));
    view.insert("moves".into(), json!(moves));
    Value::Object(view)
}

/// The record of a game played in the browser, with the tags the
/// server's export writes (`records::export` in the service: the notation
/// other Oware programs read), so that an offline game exports as an
/// online one does.
fn record(r: &Request) -> Result<Value, Refusal> {
    let game = replay(r)?;
    let human = match &r.human {
        None => None,
        Some(text) => Some(
            text.parse::<Side>()
                .map_err(|e| refuse("bad_side", format!("{e}")))?,
        ),
    };
    let name = |side: Side| match (human, r.level) {
        (Some(h), Some(level)) if h != side => format!("Computer (level {level})"),
        (Some(_), _) => "Player".to_string(),
        (None, _) => side.to_string(),
    };
    let (south, north) = (name(Side::South), name(Side::North));
    let date = awale_core::record_date(r.created_ms.unwrap_or(0).div_euclid(1000));
    let round = r.id.as_deref().unwrap_or("-");
    let record = awale_core::Record::from_game(
        &game,
        &[
            ("Event", "Awalé"),
            ("Site", "awale (offline)"),
            ("Date", &date),
            ("Round", round),
            ("South", &south),
            ("North", &north),
        ],
    );
    Ok(json!({ "record": record.to_string() }))
}

/// What a page needs of a game played in the browser: the position, the
/// legal moves, every move with its sowing, the end, the notation (the
/// parts of the server's `GameView` that the rules decide).
fn game_view(r: &Request) -> Result<Value, Refusal> {
    let game = replay(r)?;
    let position = game.position();
    let plies: Vec<Value> = game
        .plies()
        .iter()
        .map(|p| {
            let path = p.before.sowing(p.mv);
            json!({
                "move": p.mv.letter().to_string(),
                "captured": p.captured,
                "side": p.before.to_move().letter(),
                "before": p.before.holes(),
                "stores_before": p.before.stores(),
                "sown": path.sown,
                "captures": path.captures,
            })
        })
        .collect();
    let end = game.outcome().map(|o| {
        let mut end = end_view(&o);
        end.insert("loser_by".into(), json!(game.resigned().map(Side::letter)));
        end.insert("result".into(), json!(o.result_text()));
        Value::Object(end)
    });
    let legal: Vec<String> = if end.is_none() {
        game.legal_moves()
            .iter()
            .map(|m| m.letter().to_string())
            .collect()
    } else {
        Vec::new()
    };
    let mut view = board_view(&position);
    view.insert("legal".into(), json!(legal));
    view.insert("end".into(), json!(end));
    view.insert("rules".into(), rules_view(game.rules()));
    view.insert("start".into(), json!(game.start().to_string()));
    view.insert("plies".into(), json!(plies));
    view.insert("notation".into(), json!(game.notation()));
    Ok(Value::Object(view))
}

/// The level asked for (the default when none is), if it plays here:
/// every level but the strongest, which plays from the endgame databases.
fn offline_level(r: &Request) -> Result<Level, Refusal> {
    let number = r.level.unwrap_or(Level::DEFAULT.number());
    let level = Level::from_number(number)
        .ok_or_else(|| refuse("bad_level", format!("level {number} is not a level")))?;
    if level == Level::Perfect {
        return Err(refuse(
            "needs_server",
            "the Perfect level plays from the endgame databases, which only the server has",
        ));
    }
    Ok(level)
}

/// The computer's move at a level that needs no database. The strongest
/// level, which plays from the endgame databases, is the server's.
fn computer(r: &Request) -> Result<Value, Refusal> {
    let game = replay(r)?;
    let level = offline_level(r)?;
    if game.end().is_some() {
        return Err(refuse("game_over", "the game is over"));
    }
    let seed = r.seed.unwrap_or(0);
    let mv = awale_engine::choose_move(&mut engine(), &game, level, seed, &AtomicBool::new(false));
    Ok(json!({ "move": mv.map(|m| m.to_string()), "ply": game.plies().len() }))
}

/// A score as the server's API gives it: hundredths of a seed (a decided
/// game as its margin, or ±50 seeds), whether decided, a forced result
/// (who wins, in how many plies), the engine's words.
fn score_view(s: awale_engine::Score) -> Value {
    json!({
        "cp": s.hundredths(),
        "decided": s.is_decided(),
        "forced": s.forced().map(|f| json!({"wins": f.wins, "plies": f.plies})),
        "text": s.to_string(),
    })
}

/// A hint, as `POST /api/games/{id}/hint` answers (without a database).
fn hint(r: &Request) -> Result<Value, Refusal> {
    let game = replay(r)?;
    if game.end().is_some() {
        return Err(refuse("game_over", "the game is over"));
    }
    let budget = time(r, 1_000)?;
    let analyses = engine().analyze(&game, &Limits::movetime(budget), &AtomicBool::new(false));
    let moves: Vec<(Move, Value)> = analyses
        .iter()
        .map(|a| (a.mv, score_view(a.score)))
        .collect();
    let best = analyses
        .iter()
        .max_by_key(|a| score_view(a.score)["cp"].as_i64());
    let why: Vec<Value> = best
        .map(|b| awale_engine::explain(&game, b.mv, Some(b.score), None))
        .unwrap_or_default()
        .iter()
        .map(why_view)
        .collect();
    let entry = |(m, s): &(Move, Value)| json!({ "mv": m.to_string(), "score": s });
    Ok(json!({
        "ply": game.plies().len(),
        "best": best.and_then(|b| moves.iter().find(|(m, _)| *m == b.mv)).map(entry),
        "moves": moves.iter().map(entry).collect::<Vec<_>>(),
        "oracle": null,
        "why": why,
    }))
}

/// The analysis board's answer, as `POST /api/study/analysis` (without a
/// database: every `db` is null).
fn analysis(r: &Request) -> Result<Value, Refusal> {
    let game = replay(r)?;
    let lines = r.lines.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(refuse(
            "bad_lines",
            format!("lines {lines}: from 1 to {MAX_LINES}"),
        ));
    }
    let mut view = position_view(&game);
    let (lines, scores) = if game.end().is_some() {
        (Vec::new(), Vec::new())
    } else {
        let budget = time(r, 1_000)?;
        let analyses = engine().analyze(&game, &Limits::movetime(budget), &AtomicBool::new(false));
        let position = game.position();
        let scores: Vec<Value> = game
            .legal_moves()
            .into_iter()
            .map(|m| {
                json!({
                    "move": m.to_string(),
                    "score": analyses.iter().find(|a| a.mv == m).map(|a| score_view(a.score)),
                    "captured": position.captures(m),
                    "db": null,
                })
            })
            .collect();
        let lines: Vec<Value> = analyses
            .iter()
            .take(lines)
            .map(|a| {
                json!({
                    "move": a.mv.to_string(),
                    "score": score_view(a.score),
                    "pv": a.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
                })
            })
            .collect();
        (lines, scores)
    };
    if let Value::Object(map) = &mut view {
        map.insert("lines".into(), json!(lines));
        map.insert("scores".into(), json!(scores));
        map.insert("db".into(), Value::Null);
    }
    Ok(view)
}

/// A hint's reason as data the page words (`hint_why_KIND`), in the shape
/// the server sends (awale-service's `Why`).
fn why_view(reason: &Reason) -> Value {
    let f = reason.fields();
    let mut why = json!({ "kind": reason.name() });
    let fields = [
        ("seeds", f.seeds.map(Value::from)),
        ("holes", f.holes.map(Value::from)),
        ("moves", f.moves.map(Value::from)),
        ("margin", f.margin.map(Value::from)),
        ("move", f.mv.map(|m| m.to_string().into())),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            why[name] = value;
        }
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: Value) -> Value {
        serde_json::from_str(&answer(&request.to_string())).expect("JSON answers")
    }

    #[test]
    fn hostile_requests_get_the_apis_errors() {
        for (request, code) in [
            (json!("not an object"), "bad_json"),
            (json!({"op": "fly"}), "bad_op"),
            (
                json!({"op": "position", "position": "4-4-4"}),
                "bad_position",
            ),
            (json!({"op": "position", "rules": "chess"}), "bad_rules"),
            (json!({"op": "game", "moves": "Fz"}), "bad_moves"),
            (json!({"op": "game", "moves": "FF"}), "illegal_move"),
            (json!({"op": "game", "resigned": "X"}), "bad_side"),
            (
                json!({"op": "computer", "level": Level::Perfect.number()}),
                "needs_server",
            ),
            (json!({"op": "computer", "level": 99}), "bad_level"),
            (
                json!({"op": "level", "level": Level::Perfect.number()}),
                "needs_server",
            ),
            (json!({"op": "level", "level": 0}), "bad_level"),
            (json!({"op": "analysis", "lines": 0}), "bad_lines"),
            (json!({"op": "hint", "time_ms": 0}), "bad_time"),
            (json!({"op": "bench", "depth": 99}), "bad_depth"),
            (json!({"op": "game", "unknown": 1}), "bad_json"),
            (json!({"op": "record", "human": "West"}), "bad_side"),
            (json!({"op": "record", "moves": "FF"}), "illegal_move"),
        ] {
            assert_eq!(ask(request.clone())["error"], code, "{request}");
        }
        assert!(answer("\u{0}").contains("bad_json"));
    }

    #[test]
    fn an_offline_games_record_reads_back_as_the_server_exports_it() {
        let written = ask(json!({
            "op": "record", "moves": "FcAf", "resigned": "N", "human": "S",
            "level": 3, "created_ms": 1_780_000_000_000_i64, "id": "offline-x1",
        }));
        let text = written["record"].as_str().expect("a record");
        let records = awale_core::parse_records(text).expect("the notation reads back");
        assert_eq!(records.len(), 1, "{text}");
        let game = records[0].to_game().expect("a game");
        assert_eq!(game.notation(), "1. F c 2. A f", "{text}");
        assert_eq!(game.resigned(), Some(Side::North), "{text}");
        for tag in [
            "[Event \"Awalé\"]",
            "[South \"Player\"]",
            "[North \"Computer (level 3)\"]",
            "[Round \"offline-x1\"]",
            "[Result \"1-0\"]",
            "[Date \"2026.05.28\"]",
        ] {
            assert!(text.contains(tag), "{tag} in {text}");
        }
        let two = ask(json!({"op": "record", "moves": "F"}));
        assert!(
            two["record"]
                .as_str()
                .is_some_and(|t| t.contains("[South \"South\"]")),
            "{two}"
        );
    }

    #[test]
    fn the_level_op_fills_in_the_default_and_keeps_a_level_that_plays_here() {
        assert_eq!(
            ask(json!({"op": "level"}))["level"],
            Level::DEFAULT.number()
        );
        assert_eq!(ask(json!({"op": "level", "level": 1}))["level"], 1);
    }

    #[test]
    fn a_reason_has_the_fields_the_server_sends_and_no_others() {
        let krou = Reason::BuildsKrou {
            hole: Move::new(Side::South, 2),
            seeds: 12,
        };
        assert_eq!(
            why_view(&krou),
            json!({"kind": "builds_krou", "seeds": 12, "move": "C"})
        );
        let win = why_view(&Reason::WinsByForce { plies: 5 });
        assert_eq!(win, json!({"kind": "wins_by_force", "moves": 3}));
        assert_eq!(why_view(&Reason::OnlyMove), json!({"kind": "only_move"}));
    }

    #[test]
    fn a_game_view_has_its_sowings_end_and_notation() {
        let v = ask(json!({"op": "game", "start": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "moves": "Ff"}));
        assert_eq!(v["plies"][0]["sown"], json!([6, 7, 8, 9]));
        assert_eq!(v["notation"], "1. F f");
        assert_eq!(v["to_move"], "S");
        assert_eq!(v["legal"], json!(["A", "B", "C", "D", "E"]));
        assert!(v["end"].is_null());
        let resigned = ask(json!({"op": "game", "moves": "Ff", "resigned": "S"}));
        assert_eq!(resigned["end"]["reason"], "resignation");
        assert_eq!(resigned["end"]["result"], "0-1");
        assert_eq!(resigned["end"]["loser_by"], "S");
        assert_eq!(resigned["legal"], json!([]));
    }

    #[test]
    fn a_position_says_what_each_hole_does_or_why_not() {
        // North's row empty: South must feed it; A cannot.
        let v = ask(json!({"op": "position", "position": "1-0-0-0-0-5-0-0-0-0-0-0-20-22-S"}));
        assert_eq!(v["moves"][0]["legal"], false);
        assert_eq!(v["moves"][0]["reason"], "does_not_feed");
        assert_eq!(v["moves"][5]["legal"], true);
        assert_eq!(v["seeds"], 48);
    }

    #[test]
    fn the_computer_plays_a_legal_move_at_every_level_without_a_database() {
        for level in 1..Level::Perfect.number() {
            let v = ask(json!({"op": "computer", "moves": "Ff", "level": level, "seed": 7}));
            let mv = v["move"].as_str().expect("a move").to_string();
            assert!("ABCDEF".contains(&mv), "level {level}: {v}");
        }
    }

    #[test]
    fn an_analysis_gives_lines_and_every_moves_score() {
        let v = ask(json!({"op": "analysis", "moves": "F", "lines": 2, "time_ms": 50}));
        assert_eq!(v["to_move"], "N");
        assert_eq!(v["lines"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["scores"].as_array().map(Vec::len), Some(6));
        assert!(v["db"].is_null());
        let h = ask(json!({"op": "hint", "time_ms": 50}));
        assert!(h["best"]["mv"].is_string(), "{h}");
    }

    #[test]
    fn a_move_that_loses_at_once_is_scored_a_loss_as_the_server_does() {
        // F, South's one move, leaves North its 27 seeds: lost at ply 0.
        let diagram = "0-0-0-0-0-1-0-0-0-0-0-0-20-27-S";
        let lost = json!({"cp": -5_000, "decided": true,
            "forced": {"wins": false, "plies": 0}, "text": "loss in 0"});
        let v = ask(json!({"op": "analysis", "position": diagram, "time_ms": 50}));
        assert_eq!(v["scores"][0]["score"], lost, "{v}");
        let h = ask(json!({"op": "hint", "position": diagram, "time_ms": 50}));
        assert_eq!(h["best"]["score"], lost, "{h}");
    }
}
