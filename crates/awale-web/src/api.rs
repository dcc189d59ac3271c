//! The JSON API's handlers. Every input is checked here or in
//! [`crate::game`] before anything is stored; every change is committed to
//! the store before the answer is sent.

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use awale_core::{parse_records, FirstPlayer, Game, Move, Rules, Side};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream::Stream;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::computer::{self, MoveScore};
use crate::error::ApiError;
use crate::game::{now_ms, parse_move, parse_position, side_letter, Clock, Mode, WebGame};
use crate::AppState;

/// A JSON request body, read with the API's own errors: 413 when too large,
/// 400 when not JSON, 422 when a field has the wrong type. An empty body
/// reads as `{}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status();
            let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
                "too_large"
            } else {
                "bad_body"
            };
            ApiError::new(status, code, e.body_text())
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(text).map(JsonBody).map_err(|e| {
            if e.is_data() {
                ApiError::unprocessable("bad_field", e.to_string())
            } else {
                ApiError::bad_request("bad_json", format!("malformed JSON: {e}"))
            }
        })
    }
}

/// The `{id}` of a game's path, read with the API's own error (a path
/// that is not even text names no game either).
pub struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| GameId(id))
            .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, "no_such_game", e.body_text()))
    }
}

fn game_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .ok()
        .filter(|&id| id > 0)
        .ok_or_else(|| ApiError::no_game(text))
}

/// Loads game `id`, ending it on time first if its clock ran out.
fn load(state: &AppState, id: &str) -> Result<WebGame, ApiError> {
    let id_number = game_id(id)?;
    let mut store = state.store();
    let mut game = store
        .load(id_number)?
        .ok_or_else(|| ApiError::no_game(id))?;
    if game.check_flag(now_ms()) {
        let plies = game.game.plies().len();
        store.save(&game, plies)?;
        drop(store);
        publish_state(state, &game);
    }
    Ok(game)
}

fn publish_state(state: &AppState, game: &WebGame) {
    let view = game.view(now_ms());
    state.shared.hub.publish(game.id, "state", view.to_string());
}

/// Checks that `expected` (the number of moves the page has seen) matches
/// the game, so a double click or a stale page cannot play twice.
fn check_ply(game: &WebGame, expected: Option<usize>) -> Result<(), ApiError> {
    let plies = game.game.plies().len();
    match expected {
        Some(e) if e != plies => Err(ApiError::conflict(
            "stale",
            format!("the game has {plies} moves, the request expected {e}: reload the game"),
        )),
        _ => Ok(()),
    }
}

/// Applies `change` to game `id` and stores the result, all under the
/// store's lock; answers with the new view.
fn change(
    state: &AppState,
    id: &str,
    change: impl FnOnce(&mut WebGame) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    let id_number = game_id(id)?;
    let now = now_ms();
    let mut store = state.store();
    let mut game = store
        .load(id_number)?
        .ok_or_else(|| ApiError::no_game(id))?;
    let before = game.game.plies().len();
    let flag_fell = game.check_flag(now);
    let result = if flag_fell { Ok(()) } else { change(&mut game) };
    let kept = game.game.plies().len().min(before);
    if flag_fell || result.is_ok() {
        store.save(&game, kept)?;
    }
    drop(store);
    if flag_fell || result.is_ok() {
        publish_state(state, &game);
    }
    result?;
    if flag_fell {
        return Err(ApiError::conflict("game_over", "the game is over (time)"));
    }
    Ok(Json(game.view(now)))
}

/// Runs `work` on a blocking thread: storing waits for the disk, which the
/// async threads must not do.
async fn off_thread<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = state.clone();
    tokio::task::spawn_blocking(move || work(&state))
        .await
        .map_err(|e| ApiError::internal(format!("storing failed: {e}")))?
}

/// [`change`] on a blocking thread: storing waits for the disk, which the
/// async threads must not do.
async fn change_off_thread(
    state: &AppState,
    id: String,
    work: impl FnOnce(&mut WebGame) -> Result<(), ApiError> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    off_thread(state, move |s| change(s, &id, work)).await
}

/// GET /api/info: the levels, the presets, whether an oracle is loaded.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "levels": computer::levels(),
        "default_level": computer::DEFAULT_LEVEL,
        "presets": ["awale", "abapa"],
        "oracle": state.shared.computer.has_oracle(),
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

/// The body of POST /api/games.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `computer` (default) or `humans`.
    #[serde(default)]
    mode: Option<String>,
    /// The computer's level.
    #[serde(default)]
    level: Option<u8>,
    /// The person's side against the computer: `S`, `N` or `random`.
    #[serde(default)]
    human: Option<String>,
    /// The rules, as `awale`, `abapa,first=north`, `awale,target=20`.
    #[serde(default)]
    rules: Option<String>,
    /// The clock: minutes each and seconds added per move.
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// A start diagram, for studies.
    #[serde(default)]
    position: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    minutes: f64,
    #[serde(default)]
    increment_seconds: f64,
}

pub(crate) fn random_bits() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_i64(now_ms());
    h.finish()
}

/// POST /api/games: starts a game.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let rules: Rules = match &req.rules {
        None => Rules::AWALE,
        Some(text) => text
            .parse()
            .map_err(|e| ApiError::unprocessable("bad_rules", format!("{e}")))?,
    };
    let seed = random_bits();
    let mode = match req.mode.as_deref().unwrap_or("computer") {
        "computer" => {
            let level = req.level.unwrap_or(computer::DEFAULT_LEVEL);
            if !computer::is_level(level) {
                return Err(ApiError::unprocessable(
                    "bad_level",
                    format!("there is no level {level}"),
                ));
            }
            let human = match req.human.as_deref().unwrap_or("S") {
                "S" | "south" => Side::South,
                "N" | "north" => Side::North,
                "random" => {
                    if seed & 2 == 0 {
                        Side::South
                    } else {
                        Side::North
                    }
                }
                other => {
                    return Err(ApiError::unprocessable(
                        "bad_side",
                        format!("`{other}` is not a side (S, N or random)"),
                    ))
                }
            };
            Mode::Computer { human, level }
        }
        "humans" => Mode::Humans,
        other => {
            return Err(ApiError::unprocessable(
                "bad_mode",
                format!("`{other}` is not a mode (computer or humans)"),
            ))
        }
    };
    let game = match &req.position {
        None => Game::new(rules),
        Some(diagram) => {
            let mut start = parse_position(diagram)?;
            if let FirstPlayer::Side(side) = rules.first {
                start = start.with_side_to_move(side);
            }
            Game::from_position(rules, start)
        }
    };
    let now = now_ms();
    let clock = match req.clock {
        None => None,
        Some(c) => {
            let ok = c.minutes.is_finite()
                && c.increment_seconds.is_finite()
                && (0.1..=180.0).contains(&c.minutes)
                && (0.0..=60.0).contains(&c.increment_seconds);
            if !ok {
                return Err(ApiError::unprocessable(
                    "bad_clock",
                    "the clock takes 0.1 to 180 minutes and 0 to 60 seconds per move",
                ));
            }
            let initial_ms = (c.minutes * 60_000.0) as i64;
            Some(Clock {
                initial_ms,
                increment_ms: (c.increment_seconds * 1000.0) as i64,
                remaining_ms: [initial_ms; 2],
                turn_started_ms: now,
            })
        }
    };
    let mut web = WebGame {
        id: 0,
        created_ms: now,
        mode,
        seed,
        clock,
        flagged: None,
        redo: Vec::new(),
        game,
    };
    let web = off_thread(&state, move |s| {
        s.store().create(&mut web)?;
        Ok(web)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(web.view(now))))
}

/// GET /api/games: the stored games, newest first.
pub async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let games = state.store().list(500)?;
    Ok(Json(json!({ "games": games })))
}

/// GET /api/games/current: the game changed last that is still going on.
pub async fn current(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let id = state.store().current()?;
    match id {
        None => Ok(Json(json!({ "game": null }))),
        Some(id) => {
            let game = load(&state, &id.to_string())?;
            Ok(Json(json!({ "game": game.view(now_ms()) })))
        }
    }
}

/// GET /api/games/{id}.
pub async fn show(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(load(&state, &id)?.view(now_ms())))
}

/// The body of POST /api/games/{id}/moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The hole letter.
    #[serde(rename = "move")]
    mv: String,
    /// The number of moves the page has seen.
    #[serde(default)]
    ply: Option<usize>,
}

/// POST /api/games/{id}/moves: a person plays.
pub async fn play(
    State(state): State<AppState>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<MoveRequest>,
) -> Result<Json<Value>, ApiError> {
    let mv = parse_move(&req.mv)?;
    change_off_thread(&state, id, move |game| {
        check_ply(game, req.ply)?;
        if game.computer_to_move() {
            return Err(ApiError::conflict(
                "not_your_turn",
                "it is the computer's turn",
            ));
        }
        game.play(mv, now_ms()).map(|_| ())
    })
    .await
}

/// The body of requests that name the position they act on.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlyRequest {
    #[serde(default)]
    ply: Option<usize>,
}

/// Removes a game from the set of games the computer is thinking about,
/// however the search ends.
struct ThinkingGuard {
    state: AppState,
    id: i64,
}

impl Drop for ThinkingGuard {
    fn drop(&mut self) {
        self.state
            .shared
            .thinking
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// POST /api/games/{id}/computer: the computer plays its move. When the
/// game already has more moves than `ply`, the move was made: the answer is
/// the game as it is.
pub async fn computer_move(
    State(state): State<AppState>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<PlyRequest>,
) -> Result<Json<Value>, ApiError> {
    let game = load(&state, &id)?;
    let plies = game.game.plies().len();
    if req.ply.is_some_and(|p| p < plies) {
        return Ok(Json(game.view(now_ms())));
    }
    check_ply(&game, req.ply)?;
    if !game.computer_to_move() {
        return Err(ApiError::conflict(
            "not_computer_turn",
            "the computer does not move now",
        ));
    }
    let newly = state
        .shared
        .thinking
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(game.id);
    if !newly {
        return Err(ApiError::conflict(
            "computer_thinking",
            "the computer is already thinking about this game",
        ));
    }
    let guard = ThinkingGuard {
        state: state.clone(),
        id: game.id,
    };
    // The search and the storing of its move run in their own task, so a
    // page that goes away mid-search does not lose the computer's move.
    let task = tokio::spawn(async move {
        let state = guard.state.clone();
        let permit = state
            .shared
            .searches
            .acquire()
            .await
            .map_err(|_| ApiError::internal("the server is stopping"))?;
        let Mode::Computer { level, .. } = game.mode else {
            return Err(ApiError::internal("not a game against the computer"));
        };
        let mut budget = state.shared.config.move_time;
        if let (Some(clock), Some(left)) = (game.clock, game.time_left(now_ms())) {
            let mine = left[game.game.position().to_move().index()];
            let share = mine / 25 + clock.increment_ms / 2;
            budget = budget.min(Duration::from_millis(share.max(50) as u64));
        }
        let search_state = state.clone();
        let search_game = game.game.clone();
        let id = game.id;
        let seed = game.seed ^ (plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let chosen = tokio::task::spawn_blocking(move || {
            let stop = AtomicBool::new(false);
            search_state.shared.computer.choose_move(
                &search_game,
                level,
                seed,
                budget,
                &stop,
                &mut |info| {
                    if let Ok(data) = serde_json::to_string(info) {
                        search_state.shared.hub.publish(id, "thinking", data);
                    }
                },
            )
        })
        .await
        .map_err(|e| ApiError::internal(format!("search failed: {e}")))?;
        drop(permit);
        let mv = chosen.ok_or_else(|| ApiError::internal("no move found"))?;
        let result = change_off_thread(&state, id.to_string(), move |g| {
            if g.game.plies().len() != plies || !g.computer_to_move() {
                // Undone or changed meanwhile: the move is for a position
                // that is gone.
                return Err(ApiError::conflict(
                    "stale",
                    "the game changed during the search",
                ));
            }
            g.play(mv, now_ms()).map(|_| ())
        })
        .await;
        drop(guard);
        result
    });
    task.await
        .map_err(|e| ApiError::internal(format!("search task failed: {e}")))?
}

/// POST /api/games/{id}/undo.
pub async fn undo(
    State(state): State<AppState>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<PlyRequest>,
) -> Result<Json<Value>, ApiError> {
    change_off_thread(&state, id, move |game| {
        check_ply(game, req.ply)?;
        game.undo()
    })
    .await
}

/// POST /api/games/{id}/redo.
pub async fn redo(
    State(state): State<AppState>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<PlyRequest>,
) -> Result<Json<Value>, ApiError> {
    change_off_thread(&state, id, move |game| {
        check_ply(game, req.ply)?;
        game.redo()
    })
    .await
}

/// The body of POST /api/games/{id}/resign.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// Who resigns: `S` or `N`; by default the person against the computer,
    /// the side to move between two people.
    #[serde(default)]
    side: Option<String>,
}

/// POST /api/games/{id}/resign.
pub async fn resign(
    State(state): State<AppState>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<ResignRequest>,
) -> Result<Json<Value>, ApiError> {
    let side = match req.side.as_deref() {
        None => None,
        Some("S") => Some(Side::South),
        Some("N") => Some(Side::North),
        Some(other) => {
            return Err(ApiError::unprocessable(
                "bad_side",
                format!("`{other}` is not a side (S or N)"),
            ))
        }
    };
    change_off_thread(&state, id, move |game| {
        let side = match (game.mode, side) {
            (Mode::Computer { human, .. }, None) => human,
            (Mode::Computer { human, .. }, Some(s)) if s != human => {
                return Err(ApiError::conflict(
                    "not_your_side",
                    "only the person can resign for their side",
                ))
            }
            (_, Some(s)) => s,
            (Mode::Humans, None) => game.game.position().to_move(),
        };
        game.resign(side)
    })
    .await
}

pub(crate) async fn with_search<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&AppState) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = state
        .shared
        .searches
        .acquire()
        .await
        .map_err(|_| ApiError::internal("the server is stopping"))?;
    let s = state.clone();
    tokio::task::spawn_blocking(move || work(&s))
        .await
        .map_err(|e| ApiError::internal(format!("search failed: {e}")))
}

fn best_of(scores: &[MoveScore]) -> Option<&MoveScore> {
    scores.iter().max_by_key(|s| s.score.cp)
}

/// POST /api/games/{id}/hint: the engine's best move for the side to move,
/// every move's score, and the database's value where it has one.
pub async fn hint(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Json<Value>, ApiError> {
    let game = load(&state, &id)?;
    if let Some(end) = game.end() {
        return Err(ApiError::conflict(
            "game_over",
            format!("the game is over ({})", end.reason),
        ));
    }
    let budget = state.shared.config.hint_time;
    let core = game.game.clone();
    let (scores, oracle) = with_search(&state, move |s| {
        let stop = AtomicBool::new(false);
        let scores = s.shared.computer.analyze(&core, budget, &stop);
        let oracle = s.shared.computer.oracle_value(&core, &core.position());
        (scores, oracle)
    })
    .await?;
    let best = best_of(&scores).cloned();
    Ok(Json(json!({
        "ply": game.game.plies().len(),
        "best": best,
        "moves": scores,
        "oracle": oracle,
    })))
}

/// POST /api/games/{id}/review: every move of the game scored, the
/// evaluation after each (South's view), mistakes with the better move.
pub async fn review(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Json<Value>, ApiError> {
    let game = load(&state, &id)?;
    let plies: Vec<Move> = game.game.moves().collect();
    let total = state.shared.config.review_time;
    let per_ply = if plies.is_empty() {
        total
    } else {
        (total / plies.len() as u32).min(Duration::from_millis(400))
    };
    let rules = *game.game.rules();
    let start = game.game.start();
    let rows = with_search(&state, move |s| {
        let stop = Arc::new(AtomicBool::new(false));
        let mut replay = Game::from_position(rules, start);
        let mut rows = Vec::with_capacity(plies.len());
        for (i, &mv) in plies.iter().enumerate() {
            let mover = replay.position().to_move();
            let scores = s.shared.computer.analyze(&replay, per_ply, &stop);
            let best = best_of(&scores).cloned();
            let played = scores.iter().find(|m| m.mv == mv).cloned();
            let south_view = |cp: i32| if mover == Side::South { cp } else { -cp };
            let loss = match (&best, &played) {
                (Some(b), Some(p)) => b.score.cp - p.score.cp,
                _ => 0,
            };
            rows.push(json!({
                "ply": i,
                "side": side_letter(mover),
                "move": mv.letter().to_string(),
                "played": played.as_ref().map(|p| &p.score),
                "best": best.as_ref().map(|b| json!({"move": b.mv.letter().to_string(), "score": b.score})),
                "eval_south": best.as_ref().map(|b| south_view(b.score.cp)),
                "loss": loss,
                "mistake": loss >= 200,
                "oracle": s.shared.computer.oracle_value(&replay, &replay.position()),
            }));
            if replay.play(mv).is_err() {
                break;
            }
        }
        rows
    })
    .await?;
    let end = game.end().map(|e| {
        json!({
            "reason": e.reason,
            "stores": e.stores,
            "winner": e.winner.map(side_letter),
        })
    });
    Ok(Json(json!({ "id": game.id, "plies": rows, "end": end })))
}

/// The record of a game with its tags, as exported.
fn record_text(game: &WebGame) -> String {
    let (south, north) = match game.mode {
        Mode::Computer { human, level } => {
            let computer = format!("Computer (level {level})");
            if human == Side::South {
                ("Player".to_string(), computer)
            } else {
                (computer, "Player".to_string())
            }
        }
        Mode::Humans => ("South".to_string(), "North".to_string()),
    };
    let date = awale_core::record_date(game.created_ms.div_euclid(1000));
    let id = game.id.to_string();
    let mut record = awale_core::Record::from_game(
        &game.game,
        &[
            ("Event", "Awalé"),
            ("Site", "awale serve"),
            ("Date", &date),
            ("Round", &id),
            ("South", &south),
            ("North", &north),
        ],
    );
    if game.flagged.is_some() {
        if let Some(end) = game.end() {
            let result = match end.winner {
                Some(Side::South) => "1-0",
                Some(Side::North) => "0-1",
                None => "1/2-1/2",
            };
            record.result = result.to_string();
            record.set_tag("Result", result);
            record.set_tag("Termination", "time forfeit");
        }
    }
    record.to_string()
}

/// GET /api/games/{id}/record: the game record, to save as a file.
pub async fn record(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let game = load(&state, &id)?;
    let disposition = format!("attachment; filename=\"awale-{}.ogn\"", game.id);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        record_text(&game),
    )
        .into_response())
}

/// The body of POST /api/import.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The text of a record file (one or more games).
    record: String,
    /// `humans` (default) or `computer`, for going on with the games.
    #[serde(default)]
    mode: Option<String>,
    /// The computer's level.
    #[serde(default)]
    level: Option<u8>,
}

const MAX_IMPORTED_GAMES: usize = 200;

/// POST /api/import: stores the games of a record file. Either every game
/// is stored (in one transaction) or, with a clear error, none.
pub async fn import(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<ImportRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let records = parse_records(&req.record)
        .map_err(|e| ApiError::unprocessable("bad_record", e.to_string()))?;
    if records.is_empty() {
        return Err(ApiError::unprocessable(
            "bad_record",
            "the file holds no game record",
        ));
    }
    if records.len() > MAX_IMPORTED_GAMES {
        return Err(ApiError::unprocessable(
            "bad_record",
            format!(
                "the file holds {} games; at most {MAX_IMPORTED_GAMES} are imported at once",
                records.len()
            ),
        ));
    }
    let mut games = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        let game = record
            .to_game()
            .map_err(|e| ApiError::unprocessable("bad_record", format!("game {}: {e}", i + 1)))?;
        games.push(game);
    }
    let mode = match req.mode.as_deref().unwrap_or("humans") {
        "humans" => Mode::Humans,
        "computer" => {
            let level = req.level.unwrap_or(computer::DEFAULT_LEVEL);
            if !computer::is_level(level) {
                return Err(ApiError::unprocessable(
                    "bad_level",
                    format!("there is no level {level}"),
                ));
            }
            // The person takes the side to move of the first game.
            let human = games[0].position().to_move();
            Mode::Computer { human, level }
        }
        other => {
            return Err(ApiError::unprocessable(
                "bad_mode",
                format!("`{other}` is not a mode (computer or humans)"),
            ))
        }
    };
    let now = now_ms();
    let mut webs: Vec<WebGame> = games
        .into_iter()
        .zip(&records)
        .map(|(game, record)| WebGame {
            id: 0,
            created_ms: now,
            mode,
            seed: random_bits(),
            clock: None,
            flagged: lost_on_time(record, &game),
            redo: Vec::new(),
            game,
        })
        .collect();
    let webs = off_thread(&state, move |s| {
        s.store().create_all(&mut webs)?;
        Ok(webs)
    })
    .await?;
    let ids: Vec<i64> = webs.iter().map(|w| w.id).collect();
    Ok((
        StatusCode::CREATED,
        Json(json!({ "ids": ids, "game": webs[0].view(now) })),
    ))
}

/// The side that lost on time in an imported record: the loser of a
/// decided result with `[Termination "time forfeit"]` (as exports write it),
/// when the moves alone do not end the game.
fn lost_on_time(record: &awale_core::Record, game: &Game) -> Option<Side> {
    if record.tag("Termination") != Some("time forfeit") || game.end().is_some() {
        return None;
    }
    match record.result.as_str() {
        "1-0" => Some(Side::North),
        "0-1" => Some(Side::South),
        _ => None,
    }
}

/// GET /api/games/{id}/events: server-sent events for one game: `state`
/// whenever it changes, `thinking` during the computer's search, `clock`
/// every second while a clock runs.
pub async fn events(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let game = load(&state, &id)?;
    let id = game.id;
    let has_clock = game.clock.is_some();
    let rx = state.shared.hub.subscribe(id);
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let stream = futures_util::stream::unfold(
        (rx, ticks, state, true),
        move |(mut rx, mut ticks, state, first)| async move {
            if first {
                // The state as it is now, so a page that connects late is
                // not behind.
                let data = load(&state, &id.to_string())
                    .map(|g| g.view(now_ms()).to_string())
                    .unwrap_or_else(|e| json!({"error": e.code, "message": e.message}).to_string());
                let event = SseEvent::default().event("state").data(data);
                return Some((Ok(event), (rx, ticks, state, false)));
            }
            loop {
                tokio::select! {
                    received = rx.recv() => match received {
                        Ok(event) => {
                            let sse = SseEvent::default().event(event.name).data(event.data);
                            return Some((Ok(sse), (rx, ticks, state, false)));
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    },
                    _ = ticks.tick(), if has_clock => {
                        let Ok(game) = load(&state, &id.to_string()) else { return None };
                        let now = now_ms();
                        let data = json!({
                            "left_ms": game.time_left(now),
                            "running": if game.end().is_none() { Some(side_letter(game.game.position().to_move())) } else { None },
                        });
                        let sse = SseEvent::default().event("clock").data(data.to_string());
                        return Some((Ok(sse), (rx, ticks, state, false)));
                    }
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// Any other path: a JSON 404.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("nothing at `{}`", uri.path()),
    )
}

/// A known path with the wrong method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this path does not take this method",
    )
}
