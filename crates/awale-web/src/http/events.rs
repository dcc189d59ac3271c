//! Live events as server-sent events: one stream per game, one for the
//! lobby. Why SSE and not WebSocket: the page only listens on these
//! streams (its actions are plain POSTs, which get the same checks, status
//! codes and rate limits as any request); SSE goes through reverse proxies
//! and HTTP/2 unchanged, reconnects by itself, and costs one task per
//! listener here. Docs: docs/DEPLOY.md.
//!
//! A game's stream starts with the whole game as its viewer sees it, then
//! sends `move` (one more move and what changed), `state` (anything else),
//! `thinking`, `chat`, `reaction` and `presence`. A listener that falls
//! behind gets the whole game again. The players' chat room reaches the
//! players only.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::Stream;
use tokio::sync::broadcast::error::RecvError;

use super::error::ApiError;
use super::extract::{OnGame, Viewer};
use crate::game::now_ms;
use crate::live::{Event, Watch};
use crate::AppState;

struct Listener {
    id: i64,
    rx: tokio::sync::broadcast::Receiver<Event>,
    state: AppState,
    viewer: Viewer,
    seated: bool,
    first: Option<String>,
    stopping: tokio::sync::watch::Receiver<bool>,
    _watch: Watch,
}

/// GET /api/games/{id}/events.
pub async fn game_events(
    on: OnGame,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let game = on.load().await?;
    let OnGame { state, id, viewer } = on;
    let seat = game.online_seat(viewer.player());
    let hub = Arc::clone(state.shared.games.hub());
    let (rx, _, mut watch) = hub.watch(id, seat, now_ms());
    if let Some(side) = seat {
        let games = Arc::clone(&state.shared.games);
        watch.on_leave(move |presence| {
            if !presence.connected[side.index()] {
                games.withdraw_when_gone(id, side);
            }
        });
    }
    let first = serde_json::to_string(&game.view(now_ms(), Some(viewer.player())))
        .map_err(|e| crate::Error::internal(format!("view not written: {e}")))?;
    let listener = Listener {
        id,
        rx,
        stopping: state.shared.stopping.subscribe(),
        state,
        seated: seat.is_some(),
        viewer,
        first: Some(first),
        _watch: watch,
    };
    let stream = futures_util::stream::unfold(listener, |mut l| async move {
        if let Some(first) = l.first.take() {
            return Some((Ok(SseEvent::default().event("state").data(first)), l));
        }
        loop {
            let received = tokio::select! {
                r = l.rx.recv() => r,
                _ = async { l.stopping.wait_for(|s| *s).await.map(|_| ()) } => return None,
            };
            match received {
                Ok(event) if event.name == "chat_players" && !l.seated => continue,
                Ok(event) => {
                    let name = if event.name == "chat_players" {
                        "chat"
                    } else {
                        event.name
                    };
                    let sse = SseEvent::default().event(name).data(&*event.data);
                    return Some((Ok(sse), l));
                }
                Err(RecvError::Lagged(_)) => {
                    // Fell behind: the whole game again.
                    let Ok(game) = l.state.shared.games.load(l.id).await else {
                        return None;
                    };
                    let view = game.view(now_ms(), Some(l.viewer.player()));
                    let data = serde_json::to_string(&view).unwrap_or_default();
                    return Some((Ok(SseEvent::default().event("state").data(data)), l));
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
