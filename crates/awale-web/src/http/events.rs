//! Live events as server-sent events: one stream per game, one for the
//! lobby. Why SSE and not WebSocket: the page only listens on these
//! streams (its actions are plain POSTs, which get the same checks, status
//! codes and rate limits as any request); SSE goes through reverse proxies
//! and HTTP/2 unchanged, reconnects by itself, and costs one task per
//! listener here. Docs: docs/DEPLOY.md.
//!
//! A game's stream starts with the whole game as its viewer sees it, then
//! sends `move` (one more move and what changed), `state` (anything else),
//! `thinking`, `chat`, `reaction` and `presence`. The events of the game's
//! history (`state`, `move`, `chat`) have their version as their id: a
//! listener that comes back (`Last-Event-ID`, or `?since=EPOCH.NUMBER`)
//! gets the events it missed, then `clock` (the clocks now), or the whole
//! game when they are no longer kept. A listener that falls behind gets
//! the whole game again. Each event reaches only its audience
//! (`awale_service::live::Event::reaches`, for the listener the chat
//! service names, `awale_service::chat::Chat::listener`): the players'
//! chat room the players only, and the moderators watching a game a report
//! names; no chat line (either room) nor its removal a kid-mode account; both rooms' lines are sent as `chat` (the line's `room` says
//! which).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::error::ApiError;
use serde::{Deserialize, Serialize};

use super::extract::{OnGame, Session, UrlQuery, Viewer};
use crate::AppState;
use awale_model::game::WebGame;
use awale_model::Code;
use awale_service::live::{Event, Listener, Version, Watch};

struct Follower {
    id: i64,
    rx: tokio::sync::broadcast::Receiver<Event>,
    state: AppState,
    viewer: Viewer,
    /// Who listens, as the events' audiences ask.
    listener: Listener,
    /// What to send before the live events: the whole game, or what the
    /// listener missed (then the clocks now).
    first: std::collections::VecDeque<SseEvent>,
    /// Live events up to this version are in the whole game sent first.
    seen: Option<Version>,
    stopping: tokio::sync::watch::Receiver<bool>,
    _watch: Watch,
}

/// How soon a browser tries again when the stream breaks (a server
/// restart, a network change).
const RETRY: Duration = Duration::from_secs(1);

/// The query of GET /api/games/{id}/events.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// The version of the last event the listener has (`EPOCH.NUMBER`).
    since: Option<String>,
}

/// The version a listener coming back has: `?since=` (a page opening the
/// stream again), else the `Last-Event-ID` its browser sends when it
/// reconnects by itself.
fn since(query: &EventsQuery, headers: &HeaderMap) -> Result<Option<Version>, ApiError> {
    if let Some(text) = &query.since {
        return text.parse().map(Some).map_err(|()| {
            ApiError::bad_request(
                Code::BadQuery,
                format!("`since={text}` is not an event's version (EPOCH.NUMBER)"),
            )
        });
    }
    // A header of another server's making is no version: the whole game.
    Ok(headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok()))
}

/// An event as the stream sends it, with its version as its id.
fn sse(event: &Event) -> SseEvent {
    let sse = SseEvent::default().event(event.name).data(&*event.data);
    match event.version {
        Some(v) => sse.id(v.to_string()),
        None => sse,
    }
}

/// The whole game for `viewer`, as a `state` event with its version.
fn whole(game: &WebGame, viewer: &Viewer, now: i64) -> Result<SseEvent, crate::Error> {
    let data = serde_json::to_string(&game.view(now, Some(viewer.player())))
        .map_err(|e| crate::Error::internal(format!("view not written: {e}")))?;
    Ok(SseEvent::default()
        .event("state")
        .id(game.version.to_string())
        .data(data))
}

/// The clocks now, after the events a listener missed (theirs were those
/// of their moment).
#[derive(Serialize)]
struct ClockNow {
    id: String,
    clock: Option<crate::view::ClockView>,
}

/// GET /api/games/{id}/events[?since=EPOCH.NUMBER].
pub async fn game_events(
    on: OnGame,
    Session(session): Session,
    headers: HeaderMap,
    UrlQuery(query): UrlQuery<EventsQuery>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let since = since(&query, &headers)?;
    // The copy held here, its stored revision not asked: 5,000 spectators
    // and 2,000 players opening their streams at the start made a round
    // trip each. A copy older than the store is one whose notice is on
    // its way (a copy without watchers is dropped when a notice says it
    // is old): once listening, the stream is told the change as the
    // notice comes. Only the viewer's seat is read from this copy; a game
    // waiting for its second player where the viewer has no seat is read
    // from the store, its seat may have just been taken by the viewer in
    // another process (a seat held in the copy is held in the store: its
    // maker's stream, opened as the game is made, costs no round trip).
    let games = &on.state.shared.games;
    let game = match games.load_held(on.id).await? {
        game if game.waiting() && game.online_seat(on.viewer.player()).is_none() => {
            on.load().await?
        }
        game => game,
    };
    let OnGame { state, id, viewer } = on;
    let seat = game.online_seat(viewer.player());
    let account = session.as_ref().map(|s| &s.account);
    let listener = state
        .shared
        .chat
        .listener(account, &game, viewer.player())
        .await?;
    let hub = Arc::clone(state.shared.games.hub());
    let (rx, missed, _, mut watch) = hub.watch(id, seat, state.shared.games.now_ms(), since);
    if let Some(side) = seat {
        let games = Arc::clone(&state.shared.games);
        watch.on_leave(move |presence| {
            if !presence.connected[side.index()] {
                games.withdraw_when_gone(id, side);
            }
        });
    }
    // Loaded again once listening: nothing falls between the two (the
    // copy held here, kept up to date while it has watchers).
    let game = state.shared.games.load_watched(id).await?;
    let mut first = std::collections::VecDeque::new();
    let mut seen = None;
    match missed {
        Some(events) => {
            for event in events.iter().filter(|e| e.reaches(listener)) {
                first.push_back(sse(event));
            }
            let now = ClockNow {
                id: game.public_id.clone(),
                clock: game.head(state.shared.games.now_ms()).clock,
            };
            let data = serde_json::to_string(&now).unwrap_or_default();
            first.push_back(SseEvent::default().event("clock").data(data));
        }
        None => {
            first.push_back(whole(&game, &viewer, state.shared.games.now_ms())?);
            seen = Some(game.version);
        }
    }
    if let Some(head) = first.pop_front() {
        first.push_front(head.retry(RETRY));
    }
    let follower = Follower {
        id,
        rx,
        stopping: state.shared.stopping.subscribe(),
        state,
        listener,
        viewer,
        first,
        seen,
        _watch: watch,
    };
    let stream = futures_util::stream::unfold(follower, |mut l| async move {
        if let Some(event) = l.first.pop_front() {
            return Some((Ok(event), l));
        }
        loop {
            let received = tokio::select! {
                r = l.rx.recv() => r,
                _ = async { l.stopping.wait_for(|s| *s).await.map(|_| ()) } => return None,
            };
            match received {
                Ok(event) if !event.reaches(l.listener) => continue,
                Ok(event) => {
                    let sent = matches!((event.version, l.seen), (Some(v), Some(seen))
                        if v.epoch == seen.epoch && v.number <= seen.number);
                    if sent {
                        continue;
                    }
                    return Some((Ok(sse(&event)), l));
                }
                Err(RecvError::Lagged(_)) => {
                    // Fell behind: the whole game again.
                    let Ok(game) = l.state.shared.games.load_watched(l.id).await else {
                        return None;
                    };
                    let Ok(event) = whole(&game, &l.viewer, l.state.shared.games.now_ms()) else {
                        return None;
                    };
                    l.seen = Some(game.version);
                    return Some((Ok(event), l));
                }
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// GET /api/lobby/events: the lobby now, then each time it changes.
pub async fn lobby_events(
    State(state): State<AppState>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let lobby = state.shared.games.lobby().await?;
    let first = serde_json::to_string(&lobby)
        .map_err(|e| crate::Error::internal(format!("lobby not written: {e}")))?;
    let rx = state.shared.games.hub().watch_lobby();
    let stopping = state.shared.stopping.subscribe();
    let stream = futures_util::stream::unfold(
        (rx, Some(first), stopping),
        |(mut rx, first, mut stopping)| async move {
            if let Some(first) = first {
                let sse = SseEvent::default().event("lobby").data(first);
                return Some((Ok(sse), (rx, None, stopping)));
            }
            loop {
                let received = tokio::select! {
                    r = rx.recv() => r,
                    _ = async { stopping.wait_for(|s| *s).await.map(|_| ()) } => return None,
                };
                match received {
                    Ok(event) => {
                        let sse = SseEvent::default().event(event.name).data(&*event.data);
                        return Some((Ok(sse), (rx, None, stopping)));
                    }
                    // The next lobby event carries the whole lobby.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
