//! The study pages' API: puzzles from the exact endgame database (of the
//! day, one after another, an answer checked with the database's line), the
//! moves of any position (what each does, or why it cannot be played: for
//! lessons and the analysis board) and the analysis of a position (the
//! engine's best lines, the database's value of each move).
//!
//! Nothing is stored: every answer comes from the request alone. Work is
//! bounded: searches and puzzle hunts wait for the server's search pool,
//! a hunt looks at [`MAX_PUZZLES`] puzzles at most, an analysis thinks for
//! the hint time.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use awale_core::{Game, Move, MoveError, Position, Rules};
use awale_db::Database;
use awale_puzzles::{PuzzleError, Theme};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{with_search, JsonBody};
use crate::computer::OracleValue;
use crate::error::ApiError;
use crate::game::{now_ms, parse_move, parse_position, rules_view, side_letter};
use crate::AppState;

/// Puzzles a request for a difficulty or a theme looks at, at most.
pub const MAX_PUZZLES: usize = 1_000;

/// Most engine lines an analysis gives.
pub const MAX_LINES: usize = 6;

/// What the study pages need that the games do not: the exact database of
/// the `awale` rules, for puzzles.
#[derive(Default)]
pub struct Study {
    puzzles: RwLock<Option<Arc<Database>>>,
}

impl Study {
    /// The database puzzles come from, if the server has one.
    fn database(&self) -> Result<Arc<Database>, ApiError> {
        self.puzzles
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "no_database",
                    "puzzles come from the endgame database, and this server has none for the \
                     awale rules: build it with `awale db build --max-seeds 16`, then restart \
                     the server",
                )
            })
    }

    /// Sets (or takes away) the puzzles' database.
    pub fn set_database(&self, db: Option<Arc<Database>>) {
        *self
            .puzzles
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = db;
    }
}

fn bad_query(e: QueryRejection) -> ApiError {
    ApiError::bad_request("bad_query", e.body_text())
}

fn puzzle_error(e: PuzzleError) -> ApiError {
    match e {
        PuzzleError::Illegal(e) => ApiError::unprocessable("illegal_move", e.to_string()),
        PuzzleError::NotCovered(..) => ApiError::unprocessable("not_covered", e.to_string()),
        other => ApiError::internal(other.to_string()),
    }
}

/// GET /api/study: whether puzzles can be had, and their themes.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    let db = state.shared.study.database().ok();
    Json(json!({
        "puzzles": db.is_some(),
        "max_seeds": db.map(|d| d.max_seeds()),
        "themes": Theme::ALL.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "difficulties": [1, 2, 3, 4, 5],
        "build": "awale db build --max-seeds 16",
    }))
}

/// The query of GET /api/study/puzzles/daily.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyQuery {
    /// Days since 1970-01-01 (UTC); today when absent.
    day: Option<u32>,
}

/// GET /api/study/puzzles/daily[?day=N]: the puzzle of the day,
/// `{"day": N, "puzzle": PUZZLE}`.
pub async fn daily(
    State(state): State<AppState>,
    query: Result<Query<DailyQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(bad_query)?;
    let db = state.shared.study.database()?;
    let day = q.day.map_or(now_ms() / 86_400_000, i64::from);
    let found = with_search(&state, move |_| {
        awale_puzzles::daily(&db, day.max(0) as u64)
    })
    .await?
    .map_err(puzzle_error)?;
    let puzzle = found.ok_or_else(no_puzzle)?;
    Ok(Json(json!({ "day": day, "puzzle": puzzle })))
}

fn no_puzzle() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_puzzle",
        "no puzzle of this kind near this seed: try another seed (a bigger database has more)",
    )
}

/// The query of GET /api/study/puzzles/next.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// The same seed gives the same puzzle; random when absent.
    seed: Option<u64>,
    /// 1 to 5.
    difficulty: Option<u8>,
    /// A theme's name.
    theme: Option<String>,
}

/// GET /api/study/puzzles/next?seed=S&difficulty=D&theme=T: the first
/// puzzle from seed S of this difficulty and theme, `{"seed": S,
/// "puzzle": PUZZLE}`; 404 `no_puzzle` when none is found within
/// [`MAX_PUZZLES`].
pub async fn next(
    State(state): State<AppState>,
    query: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(bad_query)?;
    if let Some(d) = q.difficulty.filter(|d| !(1..=5).contains(d)) {
        return Err(ApiError::unprocessable(
            "bad_difficulty",
            format!("difficulty {d}: from 1 to 5"),
        ));
    }
    let theme = match &q.theme {
        None => None,
        Some(name) => Some(Theme::from_name(name).ok_or_else(|| {
            ApiError::unprocessable("bad_theme", format!("`{name}` is not a theme"))
        })?),
    };
    let db = state.shared.study.database()?;
    let seed = q.seed.unwrap_or_else(crate::api::random_bits);
    let difficulty = q.difficulty;
    let found = with_search(&state, move |_| {
        awale_puzzles::find(&db, seed, difficulty, theme, MAX_PUZZLES)
    })
    .await?
    .map_err(puzzle_error)?;
    let puzzle = found.ok_or_else(no_puzzle)?;
    Ok(Json(json!({ "seed": seed, "puzzle": puzzle })))
}

/// The body of POST /api/study/puzzles/check.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The position, a diagram.
    position: String,
    /// The move tried, a letter.
    #[serde(rename = "move")]
    mv: String,
}

/// POST /api/study/puzzles/check `{"position", "move"}`: whether the move
/// keeps the database value, with every move's value, the database's line
/// and, for a wrong move, its refutation (see `awale_puzzles::Judgement`).
pub async fn check(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<CheckRequest>,
) -> Result<Json<Value>, ApiError> {
    let position = parse_position(&req.position)?;
    let mv = parse_move(&req.mv)?;
    let db = state.shared.study.database()?;
    let judged = with_search(&state, move |_| awale_puzzles::judge(&db, &position, mv))
        .await?
        .map_err(puzzle_error)?;
    Ok(Json(json!(judged)))
}

/// The query of GET /api/study/position.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    /// The position, a diagram.
    position: String,
    /// The rules (default `awale`).
    rules: Option<String>,
}

fn parse_rules(text: Option<&str>) -> Result<Rules, ApiError> {
    match text {
        None => Ok(Rules::AWALE),
        Some(t) => t
            .parse()
            .map_err(|e| ApiError::unprocessable("bad_rules", format!("{e}"))),
    }
}

/// The stable code of why a move cannot be played.
fn illegal_code(e: MoveError) -> &'static str {
    match e {
        MoveError::NotYourHole(_) => "not_your_hole",
        MoveError::EmptyHole(_) => "empty_hole",
        MoveError::DoesNotFeed(_) => "does_not_feed",
        MoveError::GrandSlam(_) => "grand_slam",
        MoveError::GameOver => "game_over",
    }
}

/// A position and its moves as the page draws them, from a fresh start
/// (no history: a repetition cannot be seen).
pub fn position_view(position: &Position, rules: &Rules) -> Value {
    let end = position.end(rules).map(|reason| {
        let stores = position.final_stores(reason, rules);
        let winner = match stores[0].cmp(&stores[1]) {
            std::cmp::Ordering::Greater => Some("S"),
            std::cmp::Ordering::Less => Some("N"),
            std::cmp::Ordering::Equal => None,
        };
        json!({ "reason": reason.name(), "stores": stores, "winner": winner })
    });
    let mover = position.to_move();
    let moves: Vec<Value> = mover
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
                "reason": illegal_code(e),
                "message": e.to_string(),
            }),
        })
        .collect();
    json!({
        "position": position.to_string(),
        "rules": rules_view(rules),
        "board": position.holes(),
        "stores": position.stores(),
        "to_move": side_letter(mover),
        "seeds": position.seeds_on_board() + position.stores().iter().sum::<u8>(),
        "end": end,
        "moves": moves,
    })
}

/// GET /api/study/position?position=DIAGRAM&rules=R: the position and what
/// each of the mover's six holes would do (`sown`, `captures` as holes,
/// `captured`, the position `after`), or why it cannot be played
/// (`reason`: `empty_hole`, `does_not_feed`, `grand_slam`, `game_over`).
pub async fn position(
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(bad_query)?;
    let position = parse_position(&q.position)?;
    let rules = parse_rules(q.rules.as_deref())?;
    Ok(Json(position_view(&position, &rules)))
}

/// Most moves of the history an analysis replays.
pub const MAX_HISTORY: usize = 2_000;

/// The body of POST /api/study/analysis.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The position, a diagram; with `moves`, the start they are played
    /// from.
    position: String,
    /// Moves played from `position` (letters, e.g. `FfAa`): the position
    /// analysed is the one after them, and the engine knows the positions
    /// since the last capture (a repetition ends the game).
    #[serde(default)]
    moves: Option<String>,
    /// The rules (default `awale`).
    #[serde(default)]
    rules: Option<String>,
    /// How many of the engine's best lines (1 to [`MAX_LINES`], default 3).
    #[serde(default)]
    lines: Option<usize>,
}

/// The database's bounds on a move's value, from the mover's view: its
/// capture minus what the position after it is worth to the other side.
fn move_value(captured: u8, after: Option<OracleValue>) -> Option<OracleValue> {
    let after = after?;
    let c = captured as i8;
    Some(OracleValue {
        lower: c - after.upper,
        upper: c - after.lower,
    })
}

/// The game of `start` and the `moves` played from it.
fn replay(start: Position, rules: Rules, moves: Option<&str>) -> Result<Game, ApiError> {
    let mut game = Game::from_position(rules, start);
    let Some(text) = moves else {
        return Ok(game);
    };
    let moves = awale_core::parse_moves(text)
        .map_err(|e| ApiError::bad_request("bad_moves", e.to_string()))?;
    if moves.len() > MAX_HISTORY {
        return Err(ApiError::unprocessable(
            "bad_moves",
            format!("{} moves: at most {MAX_HISTORY}", moves.len()),
        ));
    }
    for (ply, m) in moves.into_iter().enumerate() {
        game.play(m).map_err(|e| {
            ApiError::unprocessable("illegal_move", format!("move {} ({m}): {e}", ply + 1))
        })?;
    }
    Ok(game)
}

/// POST /api/study/analysis `{"position", "moves", "rules", "lines"}`: the
/// engine's best lines (`lines`: move, score, the line as letters), every
/// legal move with its score, its capture and the database's value where
/// the database covers it (`db`: lower and upper bounds, equal when exact;
/// the database's values hold from a fresh start), and the position's own
/// database value; with the position's view (see [`position_view`]).
/// Within the server's hint time.
pub async fn analysis(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<AnalysisRequest>,
) -> Result<Json<Value>, ApiError> {
    let start = parse_position(&req.position)?;
    let rules = parse_rules(req.rules.as_deref())?;
    let game = replay(start, rules, req.moves.as_deref())?;
    let position = game.position();
    let lines = req.lines.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(ApiError::unprocessable(
            "bad_lines",
            format!("lines {lines}: from 1 to {MAX_LINES}"),
        ));
    }
    let mut view = position_view(&position, &rules);
    if let Some(outcome) = game.outcome() {
        // A repetition is seen only with the history.
        view["end"] = json!({
            "reason": outcome.reason.name(),
            "stores": outcome.stores,
            "winner": outcome.winner.map(side_letter),
        });
        view["lines"] = json!([]);
        view["scores"] = json!([]);
        view["db"] = Value::Null;
        return Ok(Json(view));
    }
    let budget = state.shared.config.hint_time;
    let (analyses, db, db_moves) = with_search(&state, move |s| {
        let stop = AtomicBool::new(false);
        let computer = &s.shared.computer;
        let analyses = computer.analyze_lines(&game, budget, &stop);
        let db = computer.oracle_value(&game, &position);
        let db_moves: Vec<(Move, Option<OracleValue>)> = game
            .legal_moves()
            .into_iter()
            .map(|m| {
                let after = position.play_unchecked(m);
                let value = move_value(position.captures(m), computer.oracle_value(&game, &after));
                (m, value)
            })
            .collect();
        (analyses, db, db_moves)
    })
    .await?;
    let letters = |pv: &[Move]| -> Vec<String> { pv.iter().map(Move::to_string).collect() };
    view["lines"] = analyses
        .iter()
        .take(lines)
        .map(|a| {
            json!({
                "move": a.mv.to_string(),
                "score": crate::computer::Score::from(a.score),
                "pv": letters(&a.pv),
            })
        })
        .collect();
    let scored: Vec<Value> = db_moves
        .iter()
        .map(|(m, value)| {
            let score = analyses
                .iter()
                .find(|a| a.mv == *m)
                .map(|a| crate::computer::Score::from(a.score));
            json!({
                "move": m.to_string(),
                "score": score,
                "captured": position.captures(*m),
                "db": value,
            })
        })
        .collect();
    view["scores"] = json!(scored);
    view["db"] = json!(db);
    Ok(Json(view))
}
