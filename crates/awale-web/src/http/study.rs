//! The handlers of the study pages (see [`crate::study`]): puzzles of the
//! day and the next, an answer checked, a position's moves, an analysis.
//! Puzzle hunts and analyses wait for the computer's pool, and an analysis
//! stops when the asker goes away.

use awale_db::Database;
use awale_puzzles::{PuzzleError, Theme};
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use super::extract::{Caller, ClientIp, JsonBody, Player, UrlQuery, Viewer};
use crate::computer::{Asker, Priority};
use crate::error::Error;
use crate::game::{parse_move, parse_position, random_seed};
use crate::study::{self, Analysis, PositionView, MAX_LINES, MAX_PUZZLES};
use crate::AppState;
use awale_model::Code;
use awale_service::puzzles::{Answered, SolverView};

type ApiResult<T> = Result<T, ApiError>;

/// Runs `work` on the puzzles' database in the computer's pool (a hunt
/// for a puzzle may take a while), with the database's errors as the API's.
async fn on_puzzles<T: Send + 'static>(
    state: &AppState,
    asker: Asker,
    work: impl FnOnce(&Database) -> Result<T, PuzzleError> + Send + 'static,
) -> Result<T, Error> {
    let db = state.shared.study.database()?;
    let computer = &state.shared.computer;
    computer
        .run(asker, Priority::Analysis, move |_| work(&db))
        .await?
        .map_err(study::puzzle_error)
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
        // How far the server's own build is (null: it builds none).
        "databases": state.shared.study.readiness(),
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
    ClientIp(asker): ClientIp,
    UrlQuery(q): UrlQuery<DailyQuery>,
) -> ApiResult<Json<Value>> {
    let today = state.shared.games.now_ms().max(0) / 86_400_000;
    let day = q.day.map_or(today, i64::from);
    let found = on_puzzles(&state, asker, move |db| {
        awale_puzzles::daily(db, day as u64)
    })
    .await?;
    let puzzle = found.ok_or_else(study::no_puzzle)?;
    Ok(Json(json!({ "day": day, "puzzle": puzzle })))
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
    /// The next puzzle of the asker's streak.
    #[serde(default)]
    streak: bool,
}

/// GET /api/study/puzzles/next?seed=S&difficulty=D&theme=T: the first
/// puzzle from seed S of this difficulty and theme, `{"seed": S, "puzzle":
/// PUZZLE}`; `no_puzzle` when none is found within [`MAX_PUZZLES`].
/// Without a difficulty or a theme, the puzzle rated nearest the asker's
/// puzzle rating (`streak=true`: nearest their streak's next target),
/// with `puzzle_rating` and `target` ([`Chosen`]).
pub async fn next(
    State(state): State<AppState>,
    ClientIp(asker): ClientIp,
    Viewer(viewer): Viewer,
    UrlQuery(q): UrlQuery<NextQuery>,
) -> ApiResult<Json<Value>> {
    if q.difficulty.is_none() && q.theme.is_none() {
        let seed = q.seed.unwrap_or_else(random_seed);
        let chosen = state
            .shared
            .puzzles
            .next(viewer.as_ref(), seed, q.streak, asker)
            .await?;
        return Ok(Json(json!(chosen)));
    }
    if let Some(d) = q.difficulty.filter(|d| !(1..=5).contains(d)) {
        return Err(
            Error::invalid(Code::BadDifficulty, format!("difficulty {d}: from 1 to 5"))
                .with("difficulty", d)
                .into(),
        );
    }
    let theme = match &q.theme {
        None => None,
        Some(name) => Some(Theme::from_name(name).ok_or_else(|| {
            Error::invalid(Code::BadTheme, format!("`{name}` is not a theme"))
                .with("text", name.as_str())
        })?),
    };
    let seed = q.seed.unwrap_or_else(random_seed);
    let difficulty = q.difficulty;
    let found = on_puzzles(&state, asker, move |db| {
        awale_puzzles::find(db, seed, difficulty, theme, MAX_PUZZLES)
    })
    .await?;
    let puzzle = found.ok_or_else(study::no_puzzle)?;
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
    /// A try of the asker's streak (a miss ends it).
    #[serde(default)]
    streak: bool,
}

/// POST /api/study/puzzles/check `{"position", "move", "streak"}`: whether
/// the move keeps the database value, with every move's value, the
/// database's line and, for a wrong move, its refutation
/// (`awale_puzzles::Judgement`); for a player's try of a puzzle, `rating`:
/// their first try rated, theirs and the puzzle's ([`Answered`]).
pub async fn check(
    State(state): State<AppState>,
    ClientIp(asker): ClientIp,
    Viewer(viewer): Viewer,
    JsonBody(req): JsonBody<CheckRequest>,
) -> ApiResult<Json<Answered>> {
    let position = parse_position(&req.position)?;
    let mv = parse_move(&req.mv)?;
    let now = state.shared.games.now_ms();
    let answered = state
        .shared
        .puzzles
        .answer(viewer.as_ref(), position, mv, req.streak, asker, now)
        .await?;
    Ok(Json(answered))
}

/// GET /api/study/puzzles/rating: the asker's puzzle rating, counts and
/// streaks ([`SolverView`]).
pub async fn rating(
    State(state): State<AppState>,
    Player(player): Player,
) -> ApiResult<Json<SolverView>> {
    Ok(Json(state.shared.puzzles.solver(&player).await?))
}

/// POST /api/study/puzzles/streak: a new streak started (the one going on
/// ends), the asker's counts as they are now ([`SolverView`]).
pub async fn start_streak(
    State(state): State<AppState>,
    Caller(caller): Caller,
) -> ApiResult<Json<SolverView>> {
    let now = state.shared.games.now_ms();
    Ok(Json(state.shared.puzzles.start_streak(&caller, now).await?))
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

/// GET /api/study/position?position=DIAGRAM&rules=R: the position and what
/// each of the mover's six holes would do, or why it cannot be played
/// ([`PositionView`]).
pub async fn position(UrlQuery(q): UrlQuery<PositionQuery>) -> ApiResult<Json<PositionView>> {
    let position = parse_position(&q.position)?;
    let rules = study::parse_rules(q.rules.as_deref())?;
    Ok(Json(PositionView::of(&position, &rules)))
}

/// The body of POST /api/study/analysis.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The position, a diagram; with `moves`, the start they are played
    /// from.
    position: String,
    /// Moves played from `position` (letters, e.g. `FfAa`): the position
    /// analysed is the one after them, and the positions since the last
    /// capture count for repetitions.
    #[serde(default)]
    moves: Option<String>,
    /// The rules (default `awale`).
    #[serde(default)]
    rules: Option<String>,
    /// How many of the engine's best lines (1 to [`MAX_LINES`], default 3).
    #[serde(default)]
    lines: Option<usize>,
}

/// POST /api/study/analysis `{"position", "moves", "rules", "lines"}`: the
/// position reached ([`PositionView`]) with the engine's best lines, every
/// legal move's score and database value, and the position's own database
/// value ([`Analysis`]), within the server's hint time.
pub async fn analysis(
    State(state): State<AppState>,
    ClientIp(asker): ClientIp,
    JsonBody(req): JsonBody<AnalysisRequest>,
) -> ApiResult<Json<Analysis>> {
    let start = parse_position(&req.position)?;
    let rules = study::parse_rules(req.rules.as_deref())?;
    let game = study::replay(start, rules, req.moves.as_deref())?;
    let lines = req.lines.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(Error::invalid(
            Code::BadLines,
            format!("lines {lines}: from 1 to {MAX_LINES}"),
        )
        .with("lines", lines)
        .with("max", MAX_LINES)
        .into());
    }
    let budget = state.shared.config.hint_time;
    let analysis = state
        .shared
        .computer
        .run_stoppable(asker, move |c, stop| {
            study::analyse(c, &game, lines, budget, stop)
        })
        .await?;
    Ok(Json(analysis))
}
