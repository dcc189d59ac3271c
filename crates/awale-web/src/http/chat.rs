//! The handlers of every chat room ([`awale_service::chat`]): a game's two
//! rooms, a tournament's room, and the moderators' removals and reading.
//! Each reads the request and calls one operation of the chat service,
//! which holds every rule (length, the flood limit, mutes, kid mode,
//! blocks, the speaker's name). The lines come live on the game's stream
//! (`chat`, `chat_removed` on `/api/games/{id}/events`) and the
//! tournament's (`/api/tournaments/{id}/events`).

use std::net::IpAddr;

use awale_model::lists::ChatLine;
use awale_service::bots::Door;
use awale_service::chat::{GameChat, Room, Speaker};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::{
    account_acts, ClientIp, JsonBody, OnGame, Player, Session, SignedIn, TournamentId, Viewer,
};
use crate::game::PlayerId;
use crate::AppState;

type ApiResult<T> = Result<T, ApiError>;

/// Who speaks in a request: its player, its account when it is logged
/// in, its client's address (for the flood limit and the moderators).
fn speaker<'a>(
    player: &'a PlayerId,
    session: &'a Option<SignedIn>,
    client: Option<IpAddr>,
) -> Speaker<'a> {
    Speaker {
        player,
        account: session.as_ref().map(|s| &s.account),
        client,
        door: Door::Page,
    }
}

/// The body of POST /api/games/{id}/chat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSay {
    /// `players` or `public`.
    room: String,
    /// The message: text, 1 to 280 characters.
    text: String,
    /// Ignored (older pages sent the sender's nickname): the name shown
    /// is the server's record of the sender, never the message's.
    #[serde(default)]
    #[allow(dead_code)]
    name: Option<serde::de::IgnoredAny>,
}

/// POST /api/games/{id}/chat: says something in a room of the game.
pub async fn say_in_game(
    on: OnGame,
    Player(me): Player,
    ClientIp(client): ClientIp,
    Session(session): Session,
    JsonBody(req): JsonBody<GameSay>,
) -> ApiResult<(StatusCode, Json<ChatLine>)> {
    let room = Room::parse(&req.room)?;
    let who = speaker(&me, &session, client);
    let line = on
        .state
        .shared
        .chat
        .say_in_game(who, on.id, room, &req.text)
        .await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// GET /api/games/{id}/chat: the last messages the viewer may read.
pub async fn game_lines(on: OnGame, Session(session): Session) -> ApiResult<Json<Vec<ChatLine>>> {
    let account = session.as_ref().map(|s| &s.account);
    let lines = on
        .state
        .shared
        .chat
        .game_lines(on.viewer.player(), account, on.id)
        .await?;
    Ok(Json(lines))
}

/// The body of POST /api/tournaments/{id}/chat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSay {
    /// The message: text, 1 to 280 characters.
    text: String,
}

/// POST /api/tournaments/{id}/chat: says something in the tournament's
/// room (anyone on its page: its players and its watchers).
pub async fn say_in_tournament(
    State(state): State<AppState>,
    Player(me): Player,
    ClientIp(client): ClientIp,
    Session(session): Session,
    TournamentId(id): TournamentId,
    JsonBody(req): JsonBody<TournamentSay>,
) -> ApiResult<(StatusCode, Json<ChatLine>)> {
    let who = speaker(&me, &session, client);
    let line = state
        .shared
        .chat
        .say_in_tournament(who, id, &req.text)
        .await?;
    Ok((StatusCode::CREATED, Json(line)))
}

/// GET /api/tournaments/{id}/chat: the last lines the viewer may read.
pub async fn tournament_lines(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Session(session): Session,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Vec<ChatLine>>> {
    let account = session.as_ref().map(|s| &s.account);
    let lines = state
        .shared
        .chat
        .tournament_lines(viewer.as_ref(), account, id)
        .await?;
    Ok(Json(lines))
}

/// The body of POST /api/moderation/chat-remove.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveGameLine {
    /// The game's public id (as in its address and in reports).
    game: String,
    line: i64,
}

/// The body of POST /api/moderation/tournament-chat-remove.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveTournamentLine {
    tournament: i64,
    line: i64,
}

account_acts! {
    /// POST /api/moderation/chat-remove: a moderator removes one line of a
    /// game's room.
    remove_game_line(RemoveGameLine):
        |shared, me, req| shared.chat.remove_game_line(&me.account, &req.game, req.line);
    /// POST /api/moderation/tournament-chat-remove: a moderator removes one
    /// line of a tournament's room.
    remove_tournament_line(RemoveTournamentLine):
        |shared, me, req| shared.chat.remove_tournament_line(&me.account, req.tournament, req.line);
}

/// GET /api/moderation/games/{id}/chat: both rooms of a game a report
/// names, for a moderator (403 `not_moderator` for anyone else).
pub async fn reported_game(
    State(state): State<AppState>,
    me: SignedIn,
    Path(game): Path<String>,
) -> ApiResult<Json<GameChat>> {
    let chat = state.shared.chat.reported_game(&me.account, &game).await?;
    Ok(Json(chat))
}
