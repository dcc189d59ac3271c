//! The handlers of online play: the player's nickname, joining a game by
//! its invite link, the lobby, takebacks, abort, claims, rematches, moving
//! a seat to another device, chat and the public's reactions. Who may do
//! what is the model's ([`crate::game`]); here requests are read, limited
//! and answered.

use awale_core::Side;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::ApiError;
use super::events::online_seat;
use super::extract::{ClientIp, JsonBody, OnGame, Player};
use super::guard::{hex, new_secret};
use crate::error::{Error, Kind};
use crate::game::{clean_text, now_ms, parse_name, Mode, PlayerId, Seat, WebGame};
use crate::games::Lobby;
use crate::store::ChatLine;
use crate::view::GameView;
use crate::AppState;

type ApiResult<T> = Result<T, ApiError>;

/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 280;
/// Chat messages a game keeps showing.
const CHAT_SHOWN: usize = 200;
/// "Continue on another device" links waiting per player.
const HANDOFFS_PER_PLAYER: usize = 3;
/// How long a "continue on another device" link works.
const HANDOFF_MS: i64 = 10 * 60 * 1000;

/// A seat waiting to move to another device.
pub struct Handoff {
    game: i64,
    player: PlayerId,
    expires_ms: i64,
}

/// Who the viewer is.
#[derive(Serialize)]
pub struct Me {
    /// Their nickname, if they chose one.
    pub name: Option<String>,
    /// A number for a default nickname ("Guest 4821", "Invité 4821").
    pub guest: u32,
}

/// A number from 1000 to 9999 for a player's default nickname.
fn guest_number(player: &PlayerId) -> u32 {
    let n = u32::from_str_radix(player.0.get(..8).unwrap_or("0"), 16).unwrap_or(0);
    1000 + n % 9000
}

/// GET /api/me.
pub async fn me(State(state): State<AppState>, Player(player): Player) -> ApiResult<Json<Me>> {
    let name = state
        .shared
        .games
        .store()
        .player_name(player.clone())
        .await?;
    Ok(Json(Me {
        name,
        guest: guest_number(&player),
    }))
}

/// The body of POST /api/me.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    name: Option<String>,
}

/// POST /api/me: sets the viewer's nickname (and in their games going on).
pub async fn rename(
    State(state): State<AppState>,
    Player(player): Player,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<NameRequest>,
) -> ApiResult<Json<Me>> {
    let name = parse_name(req.name.as_deref())?;
    state.shared.renames.take(&player, ip, now_ms())?;
    state
        .shared
        .games
        .store()
        .set_player_name(player.clone(), name.clone(), now_ms())
        .await?;
    Ok(Json(Me {
        name: Some(name),
        guest: guest_number(&player),
    }))
}

/// GET /api/lobby: open challenges and games being played.
pub async fn lobby(State(state): State<AppState>) -> ApiResult<Json<Lobby>> {
    Ok(Json(state.shared.games.lobby().await?))
}

/// The base of the links the server gives: the public URL, or the address
/// the browser used.
fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.shared.config.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1");
    format!("http://{host}")
}

/// The links of an online game.
#[derive(Serialize)]
pub struct Links {
    /// Whoever opens it first takes the free seat; later visitors watch.
    pub invite: String,
    /// To watch.
    pub watch: String,
}

/// GET /api/games/{id}/links.
pub async fn links(on: OnGame, headers: HeaderMap) -> ApiResult<Json<Links>> {
    let game = on.load().await?;
    if game.mode != Mode::Online {
        return Err(Error::conflict("not_online", "this game is not played online").into());
    }
    let base = base_url(&on.state, &headers);
    let id = on.id;
    Ok(Json(Links {
        invite: format!("{base}/?join={id}"),
        watch: format!("{base}/?game={id}"),
    }))
}

/// Applies `change` to an online game for the player of one of its seats
/// (`change` is given their side).
async fn online_change(
    on: &OnGame,
    me: &PlayerId,
    change: impl FnOnce(&mut WebGame, Side) -> Result<(), Error>,
) -> ApiResult<Json<GameView>> {
    on.change(|g| {
        if g.mode != Mode::Online {
            return Err(Error::conflict(
                "not_online",
                "this game is not played online",
            ));
        }
        let side = online_seat(g, Some(me)).ok_or_else(|| {
            Error::forbidden(
                "not_your_seat",
                "you are watching this game: only its players can do that",
            )
        })?;
        change(g, side)
    })
    .await
}

/// POST /api/games/{id}/join: takes the free seat of an online game.
pub async fn join(
    on: OnGame,
    Player(me): Player,
    JsonBody(req): JsonBody<NameRequest>,
) -> ApiResult<Json<GameView>> {
    let name = parse_name(req.name.as_deref())?;
    let seat = Seat {
        player: me.clone(),
        name: name.clone(),
    };
    let view = on.change(|g| g.sit(seat, now_ms())).await?;
    let store = on.state.shared.games.store();
    store.set_player_name(me, name, now_ms()).await?;
    Ok(view)
}

/// The body of POST /api/games/{id}/takeback.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TakebackRequest {
    /// Absent: ask; true or false: answer the other's request.
    #[serde(default)]
    accept: Option<bool>,
}

/// POST /api/games/{id}/takeback: asks for a takeback, or answers one.
pub async fn takeback(
    on: OnGame,
    Player(me): Player,
    JsonBody(req): JsonBody<TakebackRequest>,
) -> ApiResult<Json<GameView>> {
    online_change(&on, &me, |g, side| match req.accept {
        None => g.ask_takeback(side),
        Some(yes) => g.answer_takeback(side, yes, now_ms()),
    })
    .await
}

/// POST /api/games/{id}/abort: aborts a game that has not really begun,
/// or withdraws a challenge nobody took.
pub async fn abort(on: OnGame, Player(me): Player) -> ApiResult<Json<GameView>> {
    online_change(&on, &me, |g, side| {
        if g.waiting() && g.end().is_none() {
            g.stop = Some(crate::game::Stop::Aborted);
            return Ok(());
        }
        g.abort(side, now_ms())
    })
    .await
}

/// POST /api/games/{id}/claim: claims the win when the other player, to
/// move, has been gone for two minutes (games without a clock).
pub async fn claim(on: OnGame, Player(me): Player) -> ApiResult<Json<GameView>> {
    let hub = on.state.shared.games.hub();
    online_change(&on, &me, |g, side| {
        let gone = hub.gone_since(on.id, side.opponent(), g.turn_started_ms);
        g.claim(side, gone, now_ms())
    })
    .await
}

/// The body of POST /api/games/{id}/rematch.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    /// Absent or true: offer, or accept the other's offer; false: decline it.
    #[serde(default)]
    accept: Option<bool>,
}

/// POST /api/games/{id}/rematch: offers a rematch, or accepts the other's:
/// then a new game starts with the colours swapped, and both are sent to it
/// (`offers.rematch_id`); `{"accept": false}` declines the other's offer.
pub async fn rematch(
    on: OnGame,
    Player(me): Player,
    JsonBody(req): JsonBody<RematchRequest>,
) -> ApiResult<Json<GameView>> {
    if req.accept == Some(false) {
        return online_change(&on, &me, |g, side| g.decline_rematch(side)).await;
    }
    let (games, id) = (&on.state.shared.games, on.id);
    let seat = |g: &WebGame| {
        online_seat(g, Some(&me)).ok_or_else(|| {
            Error::forbidden("not_your_seat", "only the players can ask for a rematch")
        })
    };
    let game = games.load(id).await?;
    let side = seat(&game)?;
    let accepting = game.offers.rematch == Some(side.opponent());
    if !accepting {
        return on
            .change(|g| {
                if g.offer_rematch(seat(g)?)? {
                    // The other's offer came meanwhile: accept it again.
                    return Err(Error::conflict(
                        "stale",
                        "the other player has just offered",
                    ));
                }
                Ok(())
            })
            .await;
    }
    // The new game is made first, then linked: a failure in between leaves
    // the offer open (accepting again makes another), never a game stuck.
    let mut next = WebGame::new(
        Mode::Online,
        awale_core::Game::new(*game.game.rules()),
        now_ms(),
        game.seed.wrapping_add(1),
    );
    next.seats = [game.seats[1].clone(), game.seats[0].clone()];
    next.clock = game.clock.map(|mut c| {
        c.remaining_ms = [c.initial_ms; 2];
        c
    });
    let next = games.create(vec![next]).await?.remove(0);
    let linked = on
        .change(|g| {
            if !g.offer_rematch(seat(g)?)? {
                return Err(Error::conflict(
                    "no_rematch",
                    "the rematch offer was withdrawn",
                ));
            }
            g.offers.rematch = None;
            g.offers.rematch_id = Some(next.id);
            Ok(())
        })
        .await;
    match linked {
        Ok(view) => Ok(view),
        Err(e) => {
            // Another acceptance won: this game is not needed.
            let _ = games
                .change(next.id, |g| {
                    g.stop = Some(crate::game::Stop::Aborted);
                    Ok(())
                })
                .await;
            Err(e)
        }
    }
}

/// A private link that moves the viewer's seat to another device.
#[derive(Serialize)]
pub struct HandoffLink {
    /// Open it on the other device (within ten minutes, once).
    pub link: String,
}

/// POST /api/games/{id}/handoff: a link to continue on another device.
pub async fn handoff(
    on: OnGame,
    Player(me): Player,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> ApiResult<Json<HandoffLink>> {
    let game = on.load().await?;
    let (state, id) = (&on.state, on.id);
    if online_seat(&game, Some(&me)).is_none() {
        return Err(Error::forbidden("not_your_seat", "you hold no seat in this game").into());
    }
    state.shared.handoff_links.take(&me, ip, now_ms())?;
    let token = new_secret().map_err(|e| Error::internal(format!("no random bytes: {e}")))?;
    let now = now_ms();
    {
        let mut handoffs = state
            .shared
            .handoffs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        handoffs.retain(|_, h| h.expires_ms > now);
        // A player's own links waiting: past a few, the oldest goes, so
        // one player's requests only ever replace their own.
        let mut mine: Vec<(i64, String)> = handoffs
            .iter()
            .filter(|(_, h)| h.player == me)
            .map(|(k, h)| (h.expires_ms, k.clone()))
            .collect();
        mine.sort();
        while mine.len() >= HANDOFFS_PER_PLAYER {
            handoffs.remove(&mine.remove(0).1);
        }
        if handoffs.len() > 10_000 {
            return Err(Error::new(Kind::Busy, "busy", "too many links waiting: try later").into());
        }
        handoffs.insert(
            hex(&Sha256::digest(token.as_bytes())),
            Handoff {
                game: id,
                player: me,
                expires_ms: now + HANDOFF_MS,
            },
        );
    }
    let base = base_url(state, &headers);
    Ok(Json(HandoffLink {
        link: format!("{base}/?continue={token}"),
    }))
}

/// The body of POST /api/handoff.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandoffRequest {
    token: String,
}

/// POST /api/handoff: this browser takes the seat the link was made for.
pub async fn take_handoff(
    State(state): State<AppState>,
    Player(me): Player,
    JsonBody(req): JsonBody<HandoffRequest>,
) -> ApiResult<Json<GameView>> {
    let key = hex(&Sha256::digest(req.token.as_bytes()));
    let handoff = state
        .shared
        .handoffs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&key)
        .filter(|h| h.expires_ms > now_ms())
        .ok_or_else(|| {
            Error::new(
                Kind::NotFound,
                "no_such_link",
                "this link is unknown, used or expired: make a new one on the other device",
            )
        })?;
    let (game, _) = state
        .shared
        .games
        .change(handoff.game, |g| g.hand_over(&handoff.player, me.clone()))
        .await?;
    Ok(Json(game.view(now_ms(), Some(Some(&me)))))
}

/// The body of POST /api/games/{id}/chat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
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
pub async fn chat(
    on: OnGame,
    Player(me): Player,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<ChatRequest>,
) -> ApiResult<(StatusCode, Json<ChatLine>)> {
    let text = clean_text(&req.text);
    let length = text.chars().count();
    if length == 0 || length > MAX_CHAT_CHARS {
        return Err(Error::invalid(
            "bad_message",
            format!("a message takes 1 to {MAX_CHAT_CHARS} characters (this one has {length})"),
        )
        .into());
    }
    let room = match req.room.as_str() {
        "players" => "players",
        "public" => "public",
        other => {
            return Err(Error::invalid(
                "bad_room",
                format!(
                    "`{}` is not a room (players or public)",
                    crate::error::shown(other)
                ),
            )
            .into())
        }
    };
    let (state, id) = (&on.state, on.id);
    state.shared.chats.take(&me, ip, now_ms())?;
    let game = on.load().await?;
    if game.mode != Mode::Online {
        return Err(Error::conflict("not_online", "chat is for online games").into());
    }
    let seat = online_seat(&game, Some(&me));
    if room == "players" && seat.is_none() {
        return Err(Error::forbidden(
            "not_your_seat",
            "the players' room is for the two players: write in the public's room",
        )
        .into());
    }
    // Who speaks is the server's record of them: their seat's name, or
    // the nickname they chose (a guest number before they chose one).
    let name = match seat.and_then(|side| game.seats[side.index()].as_ref()) {
        Some(s) => s.name.clone(),
        None => state
            .shared
            .games
            .store()
            .player_name(me.clone())
            .await?
            .unwrap_or_else(|| format!("#{}", guest_number(&me))),
    };
    let line = ChatLine {
        id: 0,
        room,
        at_ms: now_ms(),
        side: seat.map(Side::letter),
        name,
        text,
    };
    let line = state.shared.games.store().add_chat(id, line).await?;
    let event = if room == "players" {
        "chat_players"
    } else {
        "chat"
    };
    state.shared.games.hub().publish(id, event, &line);
    Ok((StatusCode::CREATED, Json(line)))
}

/// GET /api/games/{id}/chat: the last messages the viewer may read.
pub async fn chat_lines(on: OnGame) -> ApiResult<Json<Vec<ChatLine>>> {
    let game = on.load().await?;
    let seated = online_seat(&game, on.viewer.player()).is_some();
    let store = on.state.shared.games.store();
    let mut lines = store.chat(on.id, CHAT_SHOWN).await?;
    lines.retain(|l| l.room == "public" || seated);
    Ok(Json(lines))
}

/// The reactions the public can send.
pub const REACTIONS: [&str; 4] = ["applause", "oh", "drum", "song"];

/// The body of POST /api/games/{id}/react.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactRequest {
    kind: String,
}

/// A reaction as every viewer sees and hears it.
#[derive(Clone, Serialize)]
pub struct Reaction {
    /// `applause`, `oh`, `drum` or `song`.
    pub kind: &'static str,
    /// The sender's side, when a player sent it.
    pub side: Option<char>,
}

/// POST /api/games/{id}/react: applause, "oh!", a drum or a song, seen
/// and heard by every viewer (not stored).
pub async fn react(
    on: OnGame,
    Player(me): Player,
    ClientIp(ip): ClientIp,
    JsonBody(req): JsonBody<ReactRequest>,
) -> ApiResult<StatusCode> {
    let Some(kind) = REACTIONS.iter().copied().find(|k| *k == req.kind) else {
        return Err(Error::invalid(
            "bad_reaction",
            format!(
                "`{}` is not a reaction ({})",
                crate::error::shown(&req.kind),
                REACTIONS.join(", ")
            ),
        )
        .into());
    };
    on.state.shared.reactions.take(&me, ip, now_ms())?;
    let game = on.load().await?;
    let side = online_seat(&game, Some(&me)).map(Side::letter);
    let hub = on.state.shared.games.hub();
    hub.publish_now(on.id, "reaction", Reaction { kind, side });
    Ok(StatusCode::NO_CONTENT)
}

/// The presence of a game, for the page at load.
pub async fn presence(on: OnGame) -> Json<crate::live::Presence> {
    Json(on.state.shared.games.hub().presence(on.id))
}
