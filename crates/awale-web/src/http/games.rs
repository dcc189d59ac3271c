//! The handlers of games against the computer and on one screen (and what
//! every game shares: showing, moves, resigning, hints, review, records,
//! import). Each reads its input, asks the model ([`crate::game`]) through
//! the games in use ([`crate::games`]), and answers with a typed view;
//! every change is stored before the answer.

use awale_core::{Game, Rules, Side};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::{not_a, Caller, ClientIp, JsonBody, OnGame, UrlQuery, Viewer};
use crate::AppState;
use awale_model::error::{shown, Error};
use awale_model::game::{parse_move, parse_position, random_seed, Clock, Mode};
use awale_model::lists::Page;
use awale_model::view::GameView;
use awale_model::Code;
use awale_service::computer::{self, Hint};
use awale_service::records::{self, ImportAs};
use awale_store::parse_cursor;

type ApiResult<T> = Result<T, ApiError>;

/// GET /api/info: the levels, the presets, whether an oracle is loaded.
pub async fn info(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "levels": computer::levels(),
        "default_level": computer::DEFAULT_LEVEL,
        "presets": ["awale", "abapa"],
        "preset_rules": {
            "awale": crate::view::RulesView::of(&Rules::AWALE),
            "abapa": crate::view::RulesView::of(&Rules::ABAPA),
        },
        "oracle": state.shared.computer.has_oracle(),
        "clock_presets": CLOCK_PRESETS,
        "public_url": state.shared.config.public_url,
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

/// The clock presets offered (minutes, seconds added per move).
pub const CLOCK_PRESETS: [[u32; 2]; 5] = [[1, 1], [3, 2], [5, 3], [10, 5], [15, 10]];

/// The body of POST /api/games.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `computer` (default), `humans` or `online`.
    #[serde(default)]
    mode: Option<String>,
    /// The computer's level.
    #[serde(default)]
    level: Option<u8>,
    /// The person's side against the computer, or the maker's side online:
    /// `S`, `N` or `random`.
    #[serde(default)]
    human: Option<String>,
    /// The rules, as `awale`, `abapa,first=north`, `awale,target=20`.
    #[serde(default)]
    rules: Option<String>,
    /// The clock: minutes each and seconds added per move, or days per
    /// move (online games over days).
    #[serde(default)]
    clock: Option<ClockRequest>,
    /// A start diagram, for studies; its side to move moves first.
    #[serde(default)]
    position: Option<String>,
    /// Online: listed in the lobby (an open challenge) rather than by
    /// invitation only.
    #[serde(default)]
    public: bool,
    /// Online: the maker's nickname.
    #[serde(default)]
    name: Option<String>,
    /// Online: rated (changes both players' ratings; only between two
    /// accounts) rather than casual.
    #[serde(default)]
    rated: bool,
    /// Online, in the lobby: the rating range of who may take the free
    /// seat (± this many points around the maker's rating in the game's
    /// speed); absent: anyone.
    #[serde(default)]
    rating_range: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    #[serde(default)]
    minutes: Option<f64>,
    #[serde(default)]
    increment_seconds: f64,
    #[serde(default)]
    days: Option<u32>,
}

fn parse_side(text: Option<&str>, seed: u64) -> Result<Side, Error> {
    match text.unwrap_or("S") {
        "random" => Ok(Side::BOTH[usize::from(seed & 2 != 0)]),
        other => other
            .parse()
            .map_err(|_| not_a(Code::BadSide, other, "side (S, N or random)")),
    }
}

fn parse_level(level: Option<u8>) -> Result<u8, Error> {
    let level = level.unwrap_or(computer::DEFAULT_LEVEL);
    if computer::is_level(level) {
        Ok(level)
    } else {
        Err(
            Error::invalid(Code::BadLevel, format!("there is no level {level}"))
                .with("level", level),
        )
    }
}

/// Whether a game stored without playing it here (imported, uploaded) is
/// against the computer (`computer`: the computer's `level`, checked) or
/// between humans (`humans`: None); for anything else `bad_mode`, "... is
/// not a `what` (computer or humans)".
fn computer_level(text: &str, what: &str, level: Option<u8>) -> Result<Option<u8>, Error> {
    match text {
        "computer" => parse_level(level).map(Some),
        "humans" => Ok(None),
        other => Err(Error::invalid(
            Code::BadMode,
            format!("`{}` is not a {what} (computer or humans)", shown(other)),
        )),
    }
}

pub(crate) fn parse_clock(clock: Option<ClockRequest>) -> Result<Option<Clock>, Error> {
    let Some(c) = clock else { return Ok(None) };
    let minutes = match (c.minutes, c.days) {
        (None, Some(days)) if c.increment_seconds == 0.0 => return Clock::days(days).map(Some),
        (Some(minutes), None) => minutes,
        _ => {
            return Err(Error::invalid(
                Code::BadClock,
                "a clock is minutes (and seconds per move) or days per move, one of the two",
            ))
        }
    };
    let ok = minutes.is_finite()
        && c.increment_seconds.is_finite()
        && (0.1..=180.0).contains(&minutes)
        && (0.0..=60.0).contains(&c.increment_seconds);
    if !ok {
        return Err(Error::invalid(
            Code::BadClock,
            "the clock takes 0.1 to 180 minutes and 0 to 60 seconds per move",
        ));
    }
    Ok(Some(Clock::new(
        (minutes * 60_000.0) as i64,
        (c.increment_seconds * 1000.0) as i64,
    )))
}

/// POST /api/games: starts a game, which belongs to the browser that made
/// it (a request without a player cookie is refused: a game without seats
/// would be anyone's). Who may make what is the service's
/// ([`awale_service::games::Games::new_game`]).
pub async fn create(
    State(state): State<AppState>,
    Caller(caller): Caller,
    session: super::extract::Session,
    JsonBody(req): JsonBody<NewGame>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let games = &state.shared.games;
    let player = &caller.player;
    let rules: Rules = match &req.rules {
        None => Rules::AWALE,
        Some(text) => text.parse().map_err(|e| {
            Error::invalid(Code::BadRules, format!("{e}")).with("text", text.as_str())
        })?,
    };
    let seed = random_seed();
    let mode = match req.mode.as_deref().unwrap_or("computer") {
        "computer" => Mode::Computer {
            human: parse_side(req.human.as_deref(), seed)?,
            level: parse_level(req.level)?,
        },
        "humans" => Mode::Humans,
        "online" => Mode::Online,
        other => {
            return Err(not_a(Code::BadMode, other, "mode (computer, humans or online)").into())
        }
    };
    let game = match &req.position {
        None => Game::new(rules),
        // A study position is played from its diagram, side to move
        // included, whatever the preset says of who starts.
        Some(diagram) => Game::from_position(rules, parse_position(diagram)?),
    };
    let clock = parse_clock(req.clock)?;
    let (name, account) = if mode == Mode::Online {
        super::online::seat_name(&state, &session, player, req.name.as_deref()).await?
    } else {
        (String::new(), session.0.is_some())
    };
    let web = games
        .new_game(awale_service::games::NewGame {
            maker: player.clone(),
            client: caller.client,
            name,
            account,
            mode,
            game,
            seed,
            clock,
            side: if mode == Mode::Online {
                parse_side(req.human.as_deref(), seed)?
            } else {
                Side::South
            },
            public: req.public,
            rated: req.rated,
            rating_range: req.rating_range,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(web.view(games.now_ms(), Some(Some(player)))),
    ))
}

/// The query of GET /api/games.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Where to go on from (a page's `next`).
    #[serde(default)]
    before: Option<String>,
    /// How many (at most 100; 50 by default).
    #[serde(default)]
    limit: Option<usize>,
}

/// GET /api/games: the viewer's games, newest first, a page at a time.
pub async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    UrlQuery(q): UrlQuery<ListQuery>,
) -> ApiResult<Json<Page>> {
    let before = match q.before.as_deref() {
        None | Some("") => None,
        Some(text) => Some(parse_cursor(text).ok_or_else(|| {
            Error::invalid(
                Code::BadCursor,
                format!("`{}` is not a page's `next`", shown(text)),
            )
        })?),
    };
    let limit = q.limit.unwrap_or(50).clamp(1, 100);
    let page = state.shared.games.list(viewer.0, before, limit).await?;
    Ok(Json(page))
}

/// GET /api/games/current: the viewer's game going on with the latest
/// move (or making).
pub async fn current(
    State(state): State<AppState>,
    viewer: Viewer,
) -> ApiResult<Json<serde_json::Value>> {
    let games = &state.shared.games;
    let game = games.current(viewer.player()).await?;
    let view = game.map(|g| g.view(games.now_ms(), Some(viewer.player())));
    Ok(Json(serde_json::json!({ "game": view })))
}

/// GET /api/turns: the online games going on where it is the viewer's
/// move, the one whose flag falls first first (games over days).
pub async fn turns(
    State(state): State<AppState>,
    viewer: Viewer,
) -> ApiResult<Json<serde_json::Value>> {
    let turns = match viewer.player() {
        Some(player) => state.shared.games.turns(player).await?,
        None => Vec::new(),
    };
    Ok(Json(serde_json::json!({ "games": turns })))
}

/// GET /api/games/{id}.
pub async fn show(on: OnGame) -> ApiResult<Json<GameView>> {
    Ok(on.view(&on.load().await?))
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

/// The query of POST /api/games/{id}/moves.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct MoveQuery {
    /// `move`: answer with the move and what changed (as the `move`
    /// event), not the whole game.
    #[serde(default)]
    answer: Option<String>,
}

/// POST /api/games/{id}/moves: a person plays. The same move sent twice
/// for the same ply is played once: the second answer is the game as it is.
/// With `?answer=move`, the answer is the move and what it changed (as
/// the `move` event, plus `you`): what a page that has the game needs.
pub async fn play(
    on: OnGame,
    UrlQuery(query): UrlQuery<MoveQuery>,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<Response> {
    let short = match query.answer.as_deref() {
        None | Some("game") => false,
        Some("move") => true,
        Some(other) => {
            return Err(Error::invalid(
                Code::BadQuery,
                format!("`{}` is not an answer (game or move)", shown(other)),
            )
            .into())
        }
    };
    let mv = parse_move(&req.mv)?;
    let games = &on.state.shared.games;
    let game = games.play(on.id, on.viewer.player(), req.ply, mv).await?;
    if short {
        if let Some(mut event) = game.move_event(games.now_ms()) {
            event.you = Some(
                game.sides_of(on.viewer.player())
                    .into_iter()
                    .map(Side::letter)
                    .collect(),
            );
            return Ok(Json(event).into_response());
        }
    }
    Ok(on.view(&game).into_response())
}

/// The body of requests that name the position they act on.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlyRequest {
    #[serde(default)]
    ply: Option<usize>,
}

/// POST /api/games/{id}/undo.
pub async fn undo(on: OnGame, JsonBody(req): JsonBody<PlyRequest>) -> ApiResult<Json<GameView>> {
    let games = &on.state.shared.games;
    let game = games
        .undo(on.id, on.viewer.player(), req.ply, false)
        .await?;
    Ok(on.view(&game))
}

/// POST /api/games/{id}/redo.
pub async fn redo(on: OnGame, JsonBody(req): JsonBody<PlyRequest>) -> ApiResult<Json<GameView>> {
    let games = &on.state.shared.games;
    let game = games.undo(on.id, on.viewer.player(), req.ply, true).await?;
    Ok(on.view(&game))
}

/// The body of POST /api/games/{id}/resign.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// Who resigns: `S` or `N`; by default the viewer's side (the side to
    /// move on one screen).
    #[serde(default)]
    side: Option<String>,
}

/// POST /api/games/{id}/resign.
pub async fn resign(
    on: OnGame,
    JsonBody(req): JsonBody<ResignRequest>,
) -> ApiResult<Json<GameView>> {
    let side = match req.side.as_deref() {
        None => None,
        Some("S") => Some(Side::South),
        Some("N") => Some(Side::North),
        Some(other) => {
            return Err(Error::invalid(
                Code::BadSide,
                format!("`{}` is not a side (S or N)", shown(other)),
            )
            .into())
        }
    };
    let games = &on.state.shared.games;
    let game = games.resign(on.id, on.viewer.player(), side).await?;
    Ok(on.view(&game))
}

/// POST /api/games/{id}/hint: the engine's best move for the side to move,
/// every move's score, and the database's value where it has one. Stops
/// when the asker goes away. Refused as the view's `can_hint` says.
pub async fn hint(on: OnGame, ClientIp(asker): ClientIp) -> ApiResult<Json<Hint>> {
    let budget = on.state.shared.config.hint_time;
    let games = &on.state.shared.games;
    let hint = games.hint(on.id, on.viewer.player(), asker, budget).await?;
    Ok(Json(hint))
}

/// A review's JSON, as stored.
fn json(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// GET /api/games/{id}/review: the stored review, if the game has one of
/// all its moves in the current form.
pub async fn stored_review(on: OnGame) -> ApiResult<Response> {
    Ok(json(on.state.shared.games.stored_review(on.id).await?))
}

/// POST /api/games/{id}/review: every move of the game scored with the
/// same search budget, stored with the game and given again at once
/// (`awale_service::games::Games::review`).
pub async fn review(on: OnGame, ClientIp(asker): ClientIp) -> ApiResult<Response> {
    Ok(json(on.state.shared.games.review(on.id, asker).await?))
}

/// GET /api/games/{id}/record: the game record, to save as a file.
pub async fn record(on: OnGame) -> ApiResult<Response> {
    let game = on.load().await?;
    let disposition = format!("attachment; filename=\"awale-{}.ogn\"", game.public_id);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        records::export(&game),
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

/// The answer of POST /api/import.
#[derive(Serialize)]
pub struct Imported {
    /// The new games' public ids.
    pub ids: Vec<String>,
    /// The first game.
    pub game: GameView,
}

/// POST /api/import: stores the games of a record file. Either every game
/// is stored (in one transaction) or, with a clear error, none.
pub async fn import(
    State(state): State<AppState>,
    Caller(caller): Caller,
    JsonBody(req): JsonBody<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Imported>)> {
    let mode = req.mode.as_deref().unwrap_or("humans");
    let as_ = computer_level(mode, "mode", req.level)?
        .map_or(ImportAs::Humans, |level| ImportAs::Computer { level });
    let shared = &state.shared;
    let webs = shared.games.import(&req.record, as_, &caller).await?;
    let ids: Vec<String> = webs.iter().map(|w| w.public_id.clone()).collect();
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            ids,
            game: webs[0].view(shared.games.now_ms(), Some(Some(&caller.player))),
        }),
    ))
}

/// The body of POST /api/uploads: a game played in this browser without a
/// network.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    /// The browser's key for the game (8 to 64 letters, digits, `-`, `_`):
    /// the same key twice stores the game once.
    key: String,
    /// The rules (default `awale`).
    #[serde(default)]
    rules: Option<String>,
    /// The start position, a diagram.
    start: String,
    /// The moves played, as letters (`FfAa`).
    #[serde(default)]
    moves: String,
    /// `computer` or `humans`.
    mode: String,
    /// The person's side against the computer.
    #[serde(default)]
    human: Option<String>,
    /// The computer's level.
    #[serde(default)]
    level: Option<u8>,
    /// The side that resigned, if one did.
    #[serde(default)]
    resigned: Option<String>,
    /// When the game was started in the browser (milliseconds since 1970).
    #[serde(default)]
    created_ms: Option<i64>,
}

/// The answer of POST /api/uploads.
#[derive(Serialize)]
pub struct Uploaded {
    /// Whether this request stored it (false: it was stored before).
    pub created: bool,
    /// The game as stored.
    pub game: GameView,
}

/// POST /api/uploads: stores a game the page played without a network
/// (kept in the browser meanwhile), for this browser's player, once per
/// key: 201 when stored now, 200 with the game already stored under that
/// key (an upload repeated after a lost answer).
pub async fn upload(
    State(state): State<AppState>,
    Caller(caller): Caller,
    JsonBody(req): JsonBody<Upload>,
) -> ApiResult<(StatusCode, Json<Uploaded>)> {
    let rules = crate::study::parse_rules(req.rules.as_deref())?;
    let mut game =
        crate::study::replay(parse_position(&req.start)?, rules, Some(req.moves.as_str()))?;
    if let Some(text) = req.resigned.as_deref() {
        let side: Side = text
            .parse()
            .map_err(|_| not_a(Code::BadSide, text, "side (S or N)"))?;
        // `end` is the reason's code (`empty_board`), as for any game over.
        game.resign(side).map_err(|e| match e {
            awale_core::GameError::Over(end) => Error::game_over(end.name()),
            illegal @ awale_core::GameError::Illegal(_) => Error::illegal_move(illegal, None),
        })?;
    }
    let seed = random_seed();
    let mode = match computer_level(&req.mode, "mode played offline", req.level)? {
        Some(level) => Mode::Computer {
            human: parse_side(req.human.as_deref(), seed)?,
            level,
        },
        None => Mode::Humans,
    };
    let games = &state.shared.games;
    let (created, game) = games
        .upload(awale_service::games::Upload {
            player: caller.player.clone(),
            client: caller.client,
            key: req.key,
            game,
            mode,
            seed,
            created_ms: req.created_ms,
        })
        .await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(Uploaded {
            created,
            game: game.view(games.now_ms(), Some(Some(&caller.player))),
        }),
    ))
}
