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
use super::extract::{not_a, ClientIp, JsonBody, OnGame, Player, UrlQuery, Viewer};
use crate::computer::{self, Hint, ReviewRow};
use crate::error::{shown, Error};
use crate::game::{now_ms, parse_move, parse_position, random_seed, Clock, Mode, Seat, WebGame};
use crate::records::{self, ImportAs};
use crate::store::{parse_cursor, Page};
use crate::view::{EndView, GameView};
use crate::AppState;
use awale_model::Code;

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

/// Online games waiting for an opponent one player may have.
const MAX_OPEN_CHALLENGES: i64 = 3;

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
/// against the computer (`computer`) or between humans (`humans`); for
/// anything else `bad_mode`, "... is not a `what` (computer or humans)".
fn against_computer(text: &str, what: &str) -> Result<bool, Error> {
    match text {
        "computer" => Ok(true),
        "humans" => Ok(false),
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
/// would be anyone's).
pub async fn create(
    State(state): State<AppState>,
    Player(player): Player,
    ClientIp(ip): ClientIp,
    session: super::extract::Session,
    JsonBody(req): JsonBody<NewGame>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    state.shared.creations.take(&ip, 1, now_ms())?;
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
    if mode == Mode::Online && game.outcome().is_some() {
        return Err(Error::invalid(
            Code::FinishedPosition,
            "the game is already over in this position: give one where it goes on",
        )
        .into());
    }
    let now = now_ms();
    let mut web = WebGame::new(mode, game, now, seed);
    web.clock = parse_clock(req.clock)?;
    if web.clock.is_some_and(|c| c.per_move) && mode != Mode::Online {
        return Err(Error::invalid(
            Code::DaysNeedOnline,
            "a game over days is played online, a move when each can",
        )
        .into());
    }
    if req.rating_range.is_some() && mode != Mode::Online {
        crate::players::parse_rating_range(req.rating_range, false, false)?;
    }
    if mode == Mode::Online {
        let (name, account) =
            super::online::seat_name(&state, &session, &player, req.name.as_deref()).await?;
        if req.rated {
            if !account {
                return Err(rated_needs_account().into());
            }
            if state.shared.games.ratings().is_none() {
                return Err(Error::conflict(
                    Code::NoRatings,
                    "this server keeps no ratings: play a casual game",
                )
                .into());
            }
            web.rated = true;
        }
        let side = parse_side(req.human.as_deref(), seed)?;
        let open = state
            .shared
            .games
            .store()
            .open_challenges(player.clone())
            .await?;
        if open >= MAX_OPEN_CHALLENGES {
            return Err(Error::conflict(
                Code::TooManyChallenges,
                format!("you have {open} games waiting for an opponent: withdraw one first"),
            )
            .into());
        }
        state.shared.challenges.take(&player, ip, now)?;
        web.seats[side.index()] = Some(Seat {
            player: player.clone(),
            name: name.clone(),
        });
        web.public = req.public;
        web.rating_range =
            crate::players::parse_rating_range(req.rating_range, req.public, account)?;
        if !account {
            state
                .shared
                .games
                .store()
                .set_player_name(player.clone(), name, now)
                .await?;
        }
    } else {
        // Refused by the service's rated terms (`rated_needs_online`).
        web.rated = req.rated;
        web.seat_maker(&player);
    }
    // The rated terms (clock, rules, start) are the service's.
    let web = state.shared.games.create(vec![web]).await?.remove(0);
    if let Some(side) = web
        .seats
        .iter()
        .position(Option::is_some)
        .filter(|_| web.waiting())
    {
        // Withdrawn unless its maker comes to play it.
        state
            .shared
            .games
            .withdraw_when_gone(web.id, Side::BOTH[side]);
    }
    Ok((
        StatusCode::CREATED,
        Json(web.view(now, Some(Some(&player)))),
    ))
}

/// A rated game is between two accounts: refused to a guest, to make or
/// to join.
pub(crate) fn rated_needs_account() -> Error {
    Error::forbidden(
        Code::RatedNeedsAccount,
        "a rated game is between two accounts: log in, or play a casual game",
    )
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
    let page = state
        .shared
        .games
        .store()
        .list(viewer.0, before, limit)
        .await?;
    Ok(Json(page))
}

/// GET /api/games/current: the viewer's game changed last that is still
/// going on.
pub async fn current(
    State(state): State<AppState>,
    viewer: Viewer,
) -> ApiResult<Json<serde_json::Value>> {
    let id = state.shared.games.store().current(viewer.0.clone()).await?;
    let game = match id {
        None => None,
        Some(id) => Some(state.shared.games.load(id).await?),
    };
    let view = game.map(|g| g.view(now_ms(), Some(viewer.player())));
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

/// Checks that `expected` (the number of moves the page has seen) matches
/// the game, so a double click or a stale page cannot play twice.
fn check_ply(game: &WebGame, expected: Option<usize>) -> Result<(), Error> {
    let plies = game.game.plies().len();
    match expected {
        Some(e) if e != plies => Err(Error::conflict(
            Code::Stale,
            format!("the game has {plies} moves, the request expected {e}: reload the game"),
        )
        .with("plies", plies)
        .with("expected", e)),
        _ => Ok(()),
    }
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
    let player = on.viewer.0.clone();
    let (game, ()) = on
        .state
        .shared
        .games
        .apply_move(on.id, req.ply, mv, move |game| {
            // A stranger is refused as one, whoever is to move.
            if game.sides_of(player.as_ref()).is_empty() {
                game.check_side(player.as_ref(), mv.side())?;
            }
            if game.computer_to_move() {
                return Err(
                    Error::conflict(Code::NotYourTurn, "it is the computer's turn")
                        .because("computer"),
                );
            }
            game.check_side(player.as_ref(), mv.side())?;
            Ok(())
        })
        .await?;
    if short {
        if let Some(mut event) = game.move_event(now_ms()) {
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
    take_back(&on, req.ply, WebGame::undo).await
}

/// POST /api/games/{id}/redo.
pub async fn redo(on: OnGame, JsonBody(req): JsonBody<PlyRequest>) -> ApiResult<Json<GameView>> {
    take_back(&on, req.ply, WebGame::redo).await
}

/// Undo or redo (`step`) for a player of the game who saw `ply` moves.
async fn take_back(
    on: &OnGame,
    ply: Option<usize>,
    step: fn(&mut WebGame, i64) -> Result<(), Error>,
) -> ApiResult<Json<GameView>> {
    on.change(|game| {
        check_ply(game, ply)?;
        game.side_for(on.viewer.player())?;
        step(game, now_ms())
    })
    .await
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
    let player = on.viewer.player();
    let games = &on.state.shared.games;
    on.change(|game| {
        let side = match side {
            Some(s) => {
                game.check_side(player, s)?;
                s
            }
            None => game.side_for(player)?,
        };
        // The games' clock, under the game's lock: the clocks kept are
        // those of this moment.
        game.resign(side, games.now_ms())
    })
    .await
}

/// Whether hints and reviews are fair in `game` now (the page follows the
/// same rule). A review comes once the game is over, whoever played it. A
/// hint is for a player of the game, on a game without a clock, never
/// online, and not while the computer is to move. Codes: `game_not_over`,
/// `no_hint`, `not_fair` (a spectator).
fn check_fair(game: &WebGame, viewer: &Viewer, review: bool) -> Result<(), Error> {
    let over = game.end().is_some();
    if review {
        return if over {
            Ok(())
        } else {
            Err(Error::forbidden(
                Code::GameNotOver,
                "the review comes once the game is over",
            ))
        };
    }
    if game.sides_of(viewer.player()).is_empty() {
        return Err(Error::forbidden(
            Code::NotFair,
            "only the players may ask for a hint",
        ));
    }
    let no_hint =
        |reason: &'static str, why: &str| Err(Error::forbidden(Code::NoHint, why).because(reason));
    if game.mode == Mode::Online {
        return no_hint("online", "no help from the computer in an online game");
    }
    if game.clock.is_some() {
        return no_hint("clock", "no hints in a game with a clock");
    }
    if game.computer_to_move() {
        return no_hint("computer", "it is the computer's turn");
    }
    Ok(())
}

/// POST /api/games/{id}/hint: the engine's best move for the side to move,
/// every move's score, and the database's value where it has one. Stops
/// when the asker goes away.
pub async fn hint(on: OnGame, ClientIp(asker): ClientIp) -> ApiResult<Json<Hint>> {
    let game = on.load().await?;
    if let Some(end) = game.end() {
        return Err(Error::game_over(end.reason.name()).into());
    }
    check_fair(&game, &on.viewer, false)?;
    let state = &on.state;
    let budget = state.shared.config.hint_time;
    let hint = state
        .shared
        .computer
        .run_stoppable(asker, move |c, stop| c.hint(&game.game, budget, stop))
        .await?;
    Ok(Json(hint))
}

/// A game's review.
#[derive(Serialize)]
pub struct Review {
    /// The form it is written in ([`computer::REVIEW_VERSION`]; absent
    /// before 2).
    pub version: u32,
    /// The game's public id.
    pub id: String,
    /// Each move, reviewed.
    pub plies: Vec<ReviewRow>,
    /// Each side's accuracy (docs/ACCURACY.md), South first.
    pub accuracy: Vec<awale_service::accuracy::Accuracy>,
    /// How the game ended.
    pub end: Option<EndView>,
}

/// Whether a stored review is of the form reviews are made in now: an
/// older one (its costs counted a forced result as ±50 seeds) is made
/// again.
fn current_form(body: &str) -> bool {
    #[derive(Deserialize)]
    struct Form {
        version: Option<u32>,
    }
    serde_json::from_str::<Form>(body).is_ok_and(|f| f.version == Some(computer::REVIEW_VERSION))
}

/// GET /api/games/{id}/review: the stored review, if the game has one of
/// all its moves in the current form.
pub async fn stored_review(on: OnGame) -> ApiResult<Response> {
    let game = on.load().await?;
    match on.state.shared.games.store().review(on.id).await? {
        Some((plies, body)) if plies == game.game.plies().len() && current_form(&body) => {
            Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
        }
        _ => Err(Error::new(
            crate::error::Kind::NotFound,
            Code::NoReview,
            "this game has not been reviewed yet (POST to review it)",
        )
        .into()),
    }
}

/// POST /api/games/{id}/review: every move of the game scored with the
/// same search budget (the same game always gets the same review), the
/// evaluation after each (South's view), mistakes with the better move.
/// The review is stored with the game and given again at once.
pub async fn review(on: OnGame, ClientIp(asker): ClientIp) -> ApiResult<Response> {
    let game = on.load().await?;
    check_fair(&game, &on.viewer, true)?;
    let (state, id) = (&on.state, on.id);
    let plies = game.game.plies().len();
    if let Some((stored, body)) = state.shared.games.store().review(id).await? {
        if stored == plies && current_form(&body) {
            return Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response());
        }
    }
    let core = game.game.clone();
    let rows = state
        .shared
        .computer
        .run_stoppable(asker, move |c, stop| c.review(&core, stop))
        .await?;
    if rows.len() < plies {
        return Err(Error::internal("the review was stopped").into());
    }
    let end = game.head(now_ms()).end;
    let body = serde_json::to_string(&Review {
        version: computer::REVIEW_VERSION,
        id: game.public_id.clone(),
        accuracy: awale_service::accuracy::accuracies(&rows),
        plies: rows,
        end,
    })
    .map_err(|e| Error::internal(format!("review not written: {e}")))?;
    state
        .shared
        .games
        .store()
        .save_review(id, plies, body.clone())
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
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
    Player(player): Player,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Imported>)> {
    let as_ = if against_computer(req.mode.as_deref().unwrap_or("humans"), "mode")? {
        ImportAs::Computer {
            level: parse_level(req.level)?,
        }
    } else {
        ImportAs::Humans
    };
    let shared = &state.shared;
    let pay = |cost| shared.creations.take(&ip, cost, now_ms());
    let webs = shared.games.import(&req.record, as_, &player, pay).await?;
    let ids: Vec<String> = webs.iter().map(|w| w.public_id.clone()).collect();
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            ids,
            game: webs[0].view(now_ms(), Some(Some(&player))),
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
    Player(player): Player,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<Upload>,
) -> ApiResult<(StatusCode, Json<Uploaded>)> {
    let key_ok = (8..=64).contains(&req.key.len())
        && req
            .key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !key_ok {
        return Err(Error::invalid(
            Code::BadKey,
            "an upload's key is 8 to 64 letters, digits, `-` or `_`",
        )
        .into());
    }
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
    let mode = if against_computer(&req.mode, "mode played offline")? {
        Mode::Computer {
            human: parse_side(req.human.as_deref(), seed)?,
            level: parse_level(req.level)?,
        }
    } else {
        Mode::Humans
    };
    state.shared.creations.take(&ip, 1, now_ms())?;
    let now = now_ms();
    let mut web = WebGame::new(mode, game, now, seed);
    // Its own time, not the upload's (never in the future).
    web.created_ms = req.created_ms.map_or(now, |t| t.clamp(0, now));
    web.seat_maker(&player);
    let store = state.shared.games.store();
    let (created, id) = match store.upload(player.clone(), req.key, web).await? {
        Ok(stored) => (true, stored.id),
        Err(id) => (false, id),
    };
    let game = state.shared.games.load(id).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(Uploaded {
            created,
            game: game.view(now, Some(Some(&player))),
        }),
    ))
}
