//! The handlers of tournaments: the list, a new arena, one tournament with
//! its standings, join (or come back), withdraw, pause, berserk, the
//! creator's early end, and the standings as server-sent events; a
//! Swiss's organiser's "start the round", its standings as CSV and its
//! games as one record file. Each calls one operation of the service
//! (`awale_service::tournaments`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream::Stream;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::api::bearer;
use super::error::ApiError;
use super::extract::{player_acts, JsonBody, Player, Session, TournamentId, Viewer};
use crate::bots::Scope;
use crate::tournaments::{ArenaSettings, GameMoves, SwissSettings, TournamentItem, TournamentView};
use crate::{AppState, Error};
use awale_model::game::PlayerId;
use awale_model::Code;
use awale_service::chat::ChatNews;
use awale_service::pairing::arena::Presence;

type ApiResult<T> = Result<T, ApiError>;

/// The body of POST /api/tournaments: an arena (`minutes`,
/// `starts_in_minutes`), or with `kind` `swiss` a Swiss (`rounds`,
/// `manual_rounds`); a setting of the other kind is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewArena {
    /// `arena` (the default) or `swiss`.
    #[serde(default)]
    kind: Option<String>,
    /// Its name.
    name: String,
    /// Each side's minutes (may be 0.5) and the seconds added a move.
    minutes_each: f64,
    /// Seconds added after each move.
    increment_s: i64,
    /// Rated or casual.
    #[serde(default)]
    rated: bool,
    /// Bots may join (else people only, the default).
    #[serde(default)]
    bots_allowed: bool,
    /// An arena's length in minutes.
    #[serde(default)]
    minutes: Option<i64>,
    /// A Swiss's number of rounds.
    #[serde(default)]
    rounds: Option<i64>,
    /// A Swiss whose organiser starts each round.
    #[serde(default)]
    manual_rounds: Option<bool>,
    /// In how many minutes an arena starts (0: now; a Swiss starts when
    /// its organiser starts round 1).
    #[serde(default)]
    starts_in_minutes: Option<i64>,
}

/// A setting given for the other kind of tournament: refused, naming it,
/// rather than ignored.
fn not_of_this_kind(field: &str, kind: &str) -> Error {
    Error::invalid(
        Code::BadTournament,
        format!("`{field}` is not a setting of {kind}"),
    )
    .because("field")
    .with("field", field)
}

/// GET /api/tournaments: those going on or to come, then those finished
/// lately.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<TournamentItem>>> {
    Ok(Json(state.shared.tournaments.list().await?))
}

/// POST /api/tournaments: a new arena (an account only).
pub async fn create(
    State(state): State<AppState>,
    Player(me): Player,
    JsonBody(req): JsonBody<NewArena>,
) -> ApiResult<Json<TournamentItem>> {
    let initial_ms = if req.minutes_each.is_finite() {
        (req.minutes_each * 60_000.0).round() as i64
    } else {
        0
    };
    let clock = (initial_ms, req.increment_s.saturating_mul(1000));
    match req.kind.as_deref() {
        None | Some("arena") => {}
        Some("swiss") => {
            if req.minutes.is_some() {
                return Err(not_of_this_kind("minutes", "a Swiss (it has rounds)").into());
            }
            if req.starts_in_minutes.is_some() {
                return Err(not_of_this_kind(
                    "starts_in_minutes",
                    "a Swiss (its organiser starts it)",
                )
                .into());
            }
            let settings = SwissSettings {
                name: req.name,
                clock,
                rated: req.rated,
                rounds: req.rounds.unwrap_or(0),
                manual_rounds: req.manual_rounds.unwrap_or(false),
                bots_allowed: req.bots_allowed,
            };
            return Ok(Json(
                state.shared.tournaments.create_swiss(&me, settings).await?,
            ));
        }
        Some(_) => {
            return Err(Error::invalid(
                Code::BadTournament,
                "a tournament's kind is `arena` or `swiss`",
            )
            .because("kind")
            .into())
        }
    }
    if req.rounds.is_some() {
        return Err(not_of_this_kind("rounds", "an arena (it has a length in minutes)").into());
    }
    if req.manual_rounds.is_some() {
        return Err(not_of_this_kind("manual_rounds", "an arena (it has no rounds)").into());
    }
    let starts_in = req.starts_in_minutes.unwrap_or(0).clamp(0, 1 << 30);
    let settings = ArenaSettings {
        name: req.name,
        clock,
        rated: req.rated,
        minutes: req.minutes.unwrap_or(0),
        starts_ms: state
            .shared
            .games
            .now_ms()
            .saturating_add(starts_in * 60_000),
        bots_allowed: req.bots_allowed,
    };
    Ok(Json(state.shared.tournaments.create(&me, settings).await?))
}

/// GET /api/tournaments/{id}: the tournament, its standings, the viewer's
/// place.
pub async fn show(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(
        state.shared.tournaments.get(id, viewer.as_ref()).await?,
    ))
}

player_acts! { TournamentId {
    /// POST /api/tournaments/{id}/join: joins, or comes back after a pause.
    join -> TournamentView: tournaments.join("");
    /// POST /api/tournaments/{id}/withdraw: leaves (the score stays).
    withdraw -> TournamentView: tournaments.leave(Presence::Withdrawn);
    /// POST /api/tournaments/{id}/pause: not paired until back.
    pause -> TournamentView: tournaments.leave(Presence::Paused);
    /// POST /api/tournaments/{id}/berserk: halves the viewer's clock in
    /// their game, before their first move.
    berserk -> TournamentView: tournaments.berserk();
    /// POST /api/tournaments/{id}/close: its creator ends it now.
    close -> TournamentView: tournaments.close();
    /// POST /api/tournaments/{id}/round: a Swiss's organiser starts it, or
    /// its next round.
    start_round -> TournamentView: tournaments.start_round();
}}

/// POST /api/bot/tournament/{id}/join: the token's bot (scope
/// `bot:play`) joins tournament `id`, or comes back to it (lichess's
/// `/api/tournament/{id}/join`); a tournament of people only refuses it.
pub async fn bot_join(
    State(state): State<AppState>,
    headers: HeaderMap,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<TournamentView>> {
    let bot = bot_of(&state, &headers).await?;
    Ok(Json(state.shared.tournaments.join(id, &bot, "").await?))
}

/// POST /api/bot/tournament/{id}/withdraw: the token's bot leaves
/// tournament `id` (during a game, once it ends).
pub async fn bot_withdraw(
    State(state): State<AppState>,
    headers: HeaderMap,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<TournamentView>> {
    let bot = bot_of(&state, &headers).await?;
    Ok(Json(
        state
            .shared
            .tournaments
            .leave(id, &bot, Presence::Withdrawn)
            .await?,
    ))
}

/// The player of the request's token, of scope `bot:play` (a bot's).
async fn bot_of(state: &AppState, headers: &HeaderMap) -> ApiResult<PlayerId> {
    let caller = state
        .shared
        .api
        .caller(bearer(headers), Scope::BotPlay)
        .await?;
    Ok(caller.account.player)
}

/// GET /api/tournaments/{id}/events: `standings` now, then as they change
/// (at most twice a second; the tournament with the viewer's own game,
/// `your_game`, when they joined); `your_game` at once when it changes;
/// and the room's
/// `chat` lines and `chat_removed` as they come (not in kid mode, not a
/// blocked player's: see `awale_service::chat`).
pub async fn events(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Session(session): Session,
    TournamentId(id): TournamentId,
) -> ApiResult<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>> {
    let (rx, now) = state.shared.tournaments.watch(id).await?;
    let games = match &viewer {
        Some(_) => Some(state.shared.tournaments.follow_games(id).await?),
        None => None,
    };
    let first = serde_json::to_string(&now)
        .map_err(|e| Error::internal(format!("standings not written: {e}")))?;
    let chat = state
        .shared
        .chat
        .follow_tournament(session.as_ref().map(|s| &s.account), id);
    let follow = Follow {
        id,
        stopping: state.shared.stopping.subscribe(),
        state,
        viewer,
        rx,
        games,
        chat,
        first: Some(first),
        seen: HashMap::new(),
    };
    let stream = futures_util::stream::unfold(follow, |mut f| async move {
        if let Some(first) = f.first.take() {
            let sse = SseEvent::default()
                .event("standings")
                .data(f.with_your_game(&first));
            return Some((Ok(sse), f));
        }
        loop {
            let heard = tokio::select! {
                r = f.rx.recv() => Heard::Standings(r),
                r = async {
                    match f.games.as_mut() {
                        Some(games) => games.recv().await,
                        None => std::future::pending().await,
                    }
                } => Heard::Games(r),
                r = async {
                    match f.chat.as_mut() {
                        Some(chat) => chat.recv().await,
                        None => std::future::pending().await,
                    }
                } => Heard::Chat(r),
                _ = async { f.stopping.wait_for(|s| *s).await.map(|_| ()) } => return None,
            };
            match heard {
                Heard::Standings(Ok(text)) => {
                    let sse = SseEvent::default()
                        .event("standings")
                        .data(f.with_your_game(&text));
                    return Some((Ok(sse), f));
                }
                // The next event carries the whole standings.
                Heard::Standings(Err(RecvError::Lagged(_))) => continue,
                Heard::Standings(Err(RecvError::Closed)) => return None,
                Heard::Games(Ok(changes)) => {
                    let Some(viewer) = &f.viewer else { continue };
                    let Some((_, game)) = changes.iter().find(|(p, _)| p == viewer) else {
                        continue;
                    };
                    let text = serde_json::json!({ "your_game": game }).to_string();
                    let sse = SseEvent::default().event("your_game").data(text);
                    return Some((Ok(sse), f));
                }
                // The next standings name the viewer's game.
                Heard::Games(Err(RecvError::Lagged(_))) => continue,
                Heard::Games(Err(RecvError::Closed)) => f.games = None,
                Heard::Chat(Ok(news)) => match &*news {
                    ChatNews::Said(l) => {
                        let chat = &f.state.shared.chat;
                        if !chat
                            .may_read(f.viewer.as_ref(), &l.player, &mut f.seen)
                            .await
                        {
                            continue;
                        }
                        let Ok(text) = serde_json::to_string(&l.line) else {
                            continue;
                        };
                        return Some((Ok(SseEvent::default().event("chat").data(text)), f));
                    }
                    ChatNews::Removed(line) => {
                        let text = serde_json::json!({ "id": line }).to_string();
                        let sse = SseEvent::default().event("chat_removed").data(text);
                        return Some((Ok(sse), f));
                    }
                },
                // Lines missed: the page reads the room again when it
                // comes back.
                Heard::Chat(Err(RecvError::Lagged(_))) => continue,
                Heard::Chat(Err(RecvError::Closed)) => f.chat = None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// A tournament's file to download.
#[derive(Clone, Copy)]
pub enum TournamentFile {
    /// GET /api/tournaments/{id}/standings.csv: a Swiss's standings (rank,
    /// name, rating, points, Buchholz, Sonneborn-Berger), a file to keep.
    StandingsCsv,
    /// GET /api/tournaments/{id}/games.txt: every game of the tournament
    /// as one record file (the notation `awale` exports and imports).
    GamesTxt,
}

/// GET /api/tournaments/{id}/standings.csv or games.txt: the file `which`,
/// named `awale-tournament-{id}-standings.csv` (or `-games.txt`).
pub async fn download(
    which: TournamentFile,
    State(state): State<AppState>,
    TournamentId(id): TournamentId,
) -> ApiResult<Response> {
    let tournaments = &state.shared.tournaments;
    let (kind, file, (_, text)) = match which {
        TournamentFile::StandingsCsv => (
            "text/csv",
            "standings.csv",
            tournaments.standings_csv(id).await?,
        ),
        TournamentFile::GamesTxt => ("text/plain", "games.txt", tournaments.games_file(id).await?),
    };
    Ok((
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"awale-tournament-{id}-{file}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// What a tournament's follower has heard so far.
struct Follow {
    id: i64,
    state: AppState,
    viewer: Option<crate::game::PlayerId>,
    rx: tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
    chat: Option<tokio::sync::broadcast::Receiver<std::sync::Arc<ChatNews>>>,
    /// The players whose game changed (for a viewer only).
    games: Option<tokio::sync::broadcast::Receiver<std::sync::Arc<GameMoves>>>,
    first: Option<String>,
    stopping: tokio::sync::watch::Receiver<bool>,
    /// Whether the viewer reads each speaker (blocks asked once).
    seen: HashMap<crate::game::PlayerId, bool>,
}

impl Follow {
    /// The standings `text` (a JSON object) with the viewer's own game in
    /// play (`your_game`) when they joined: the standings shown may not
    /// reach their line.
    fn with_your_game(&self, text: &str) -> String {
        let game = self
            .viewer
            .as_ref()
            .and_then(|v| self.state.shared.tournaments.game_of_player(self.id, v));
        match (game, text.strip_suffix('}')) {
            (Some(game), Some(open)) => {
                let game = serde_json::to_string(&game).unwrap_or_else(|_| "null".into());
                format!("{open},\"your_game\":{game}}}")
            }
            _ => text.to_string(),
        }
    }
}

enum Heard {
    Standings(Result<std::sync::Arc<str>, RecvError>),
    Games(Result<std::sync::Arc<GameMoves>, RecvError>),
    Chat(Result<std::sync::Arc<ChatNews>, RecvError>),
}
