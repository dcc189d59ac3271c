//! The handlers of a tournament's chat room: say something, read the last
//! lines, and a moderator's removal. The same protections as a game's
//! chat: the length, the rate per player and address (the same limiter),
//! mutes, no chat in kid mode, and the lines of a player the reader blocks
//! (or who blocks them) are not shown. The lines come live with the
//! standings (`chat`, `chat_removed` on `/api/tournaments/{id}/events`).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;

use super::error::ApiError;
use super::extract::{account_acts, ClientIp, JsonBody, Player, Session, TournamentId, Viewer};
use super::online::{chat_text, guest_number};
use crate::game::{now_ms, PlayerId};
use crate::store::tournament_chat::TournamentChatLine;
use crate::store::ChatLine;
use crate::AppState;

type ApiResult<T> = Result<T, ApiError>;

/// The lines a tournament's page shows.
const CHAT_SHOWN: usize = 200;

/// The body of POST /api/tournaments/{id}/chat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SayRequest {
    /// The message: text, 1 to 280 characters.
    text: String,
}

/// POST /api/tournaments/{id}/chat: says something in the tournament's
/// room (anyone on its page: its players and its watchers).
pub async fn say(
    State(state): State<AppState>,
    Player(me): Player,
    ClientIp(ip): ClientIp,
    Session(session): Session,
    TournamentId(id): TournamentId,
    JsonBody(req): JsonBody<SayRequest>,
) -> ApiResult<(StatusCode, Json<ChatLine>)> {
    let account = session.as_ref().map(|s| &s.account);
    let text = chat_text(account, &req.text)?;
    let shared = &state.shared;
    shared.chats.take(&me, ip, now_ms())?;
    // The tournament must be there (404 otherwise).
    shared.tournaments.watch(id).await?;
    // Who speaks is the server's record of them: the account's username,
    // else the nickname they chose, else a guest number the page words.
    let name = match account {
        Some(a) => Some(a.username.clone()),
        None => shared.games.player_name(&me).await?,
    };
    let guest = name.is_none().then(|| guest_number(&me));
    let line = TournamentChatLine {
        line: ChatLine {
            id: 0,
            room: "public",
            at_ms: now_ms(),
            side: None,
            name: name.unwrap_or_default(),
            text,
            guest,
        },
        player: me,
    };
    let said = shared.tournament_chat.say(id, line).await?;
    Ok((StatusCode::CREATED, Json(said.line)))
}

/// Whether `reader` may read what `speaker` says: not in kid mode, and
/// neither blocks the other (asked once a speaker, kept in `seen`).
pub(crate) async fn may_read(
    state: &AppState,
    reader: Option<&PlayerId>,
    speaker: &PlayerId,
    seen: &mut HashMap<PlayerId, bool>,
) -> bool {
    let Some(reader) = reader else { return true };
    if let Some(&known) = seen.get(speaker) {
        return known;
    }
    let may = !state
        .shared
        .accounts
        .blocks(reader, speaker)
        .await
        .unwrap_or(false);
    seen.insert(speaker.clone(), may);
    may
}

/// GET /api/tournaments/{id}/chat: the last lines the viewer may read.
pub async fn lines(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Session(session): Session,
    TournamentId(id): TournamentId,
) -> ApiResult<Json<Vec<ChatLine>>> {
    state.shared.tournaments.watch(id).await?;
    if session.is_some_and(|s| s.account.kid) {
        // Kid mode: no chat to read.
        return Ok(Json(Vec::new()));
    }
    let mut seen = HashMap::new();
    let mut shown = Vec::new();
    for l in state.shared.tournament_chat.lines(id, CHAT_SHOWN).await? {
        if may_read(&state, viewer.as_ref(), &l.player, &mut seen).await {
            shown.push(l.line);
        }
    }
    Ok(Json(shown))
}

/// The body of POST /api/moderation/tournament-chat-remove.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveLine {
    tournament: i64,
    line: i64,
}

account_acts! {
    /// POST /api/moderation/tournament-chat-remove: a moderator removes one
    /// line of a tournament's room.
    remove(RemoveLine):
        |shared, me, req| shared.tournament_chat.remove(&me.account, req.tournament, req.line);
}
