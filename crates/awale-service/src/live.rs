//! Live updates: each game has a broadcast channel of events (`state`,
//! `move`, `thinking`, `chat`, `reaction`, `presence`), the lobby has
//! one (`lobby`), and each player listening has one of their own (their
//! direct challenges: `challenge`), which reaches them wherever they are
//! on the site. An event is serialised once and shared by every
//! listener. The hub also knows who watches each game: which seats are
//! connected, since when a seat has been gone, how many spectators.
//!
//! The events of a game's history (`state`, `move`, `chat`) carry a
//! [`Version`]; the last ones are kept, so that a listener that comes back
//! gets what it missed (as lila's rounds do). Events of the moment
//! (`presence`, `thinking`, `reaction`, `clock`) carry none and are never
//! sent again.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use awale_core::Side;
use serde::Serialize;
use tokio::sync::broadcast;

use crate::clock::Clock;
pub use crate::game::Version;
use crate::lock;

/// Who may receive an event of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every listener: the players and the spectators.
    All,
    /// The game's two players (the players' chat room), and the
    /// moderators watching it when a report names it.
    Players,
    /// The moderators watching a game a report names, only.
    Moderators,
}

/// One event for the listeners of a game or of the lobby.
#[derive(Clone, Debug)]
pub struct Event {
    /// The event's name, as the stream sends it.
    pub name: &'static str,
    /// Its JSON data.
    pub data: Arc<str>,
    /// Its number in the game's history (None: an event of the moment).
    pub version: Option<Version>,
    /// Who may receive it.
    pub audience: Audience,
    /// Whether it is chat (a line, a line's removal): no kid-mode account
    /// receives it.
    pub chat: bool,
}

/// One listener of a game's stream, as the events' audiences ask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Listener {
    /// Whether they play the game.
    pub seated: bool,
    /// Whether they are a kid-mode account.
    pub kid: bool,
    /// Whether they are a moderator and a report names the game: they
    /// read its players' room (`crate::chat::Chat::listener`).
    pub moderator: bool,
}

impl Event {
    /// An event of the moment for every listener.
    fn now(name: &'static str, data: Arc<str>) -> Event {
        Event {
            name,
            data,
            version: None,
            audience: Audience::All,
            chat: false,
        }
    }

    /// Whether `listener` may receive this event.
    pub fn reaches(&self, listener: Listener) -> bool {
        if self.chat && listener.kid {
            return false;
        }
        match self.audience {
            Audience::All => true,
            Audience::Players => listener.seated || listener.moderator,
            Audience::Moderators => listener.moderator,
        }
    }
}

/// A game's last versioned events.
struct History {
    epoch: u32,
    /// The number of the last event.
    number: u64,
    /// The events kept, oldest first, and the bytes of their data.
    kept: VecDeque<Event>,
    bytes: usize,
}

/// What a history keeps at most: events, and bytes of their data (a
/// `state` holds the whole game).
const HISTORY_EVENTS: usize = 64;
const HISTORY_BYTES: usize = 64 * 1024;

impl History {
    fn new() -> History {
        History {
            epoch: crate::game::random_seed() as u32,
            number: 0,
            kept: VecDeque::new(),
            bytes: 0,
        }
    }

    fn version(&self) -> Version {
        Version {
            epoch: self.epoch,
            number: self.number,
        }
    }

    fn push(&mut self, event: Event) {
        self.bytes += event.data.len();
        self.kept.push_back(event);
        while self.kept.len() > HISTORY_EVENTS
            || (self.bytes > HISTORY_BYTES && self.kept.len() > 1)
        {
            if let Some(old) = self.kept.pop_front() {
                self.bytes -= old.data.len();
            }
        }
    }

    /// The events after `since`, when this history has them all.
    fn since(&self, since: Version) -> Option<Vec<Event>> {
        if since.epoch != self.epoch || since.number > self.number {
            return None;
        }
        let oldest = self
            .kept
            .front()
            .and_then(|e| e.version)
            .map_or(self.number + 1, |v| v.number);
        if since.number + 1 < oldest {
            return None;
        }
        Some(
            self.kept
                .iter()
                .filter(|e| e.version.is_some_and(|v| v.number > since.number))
                .cloned()
                .collect(),
        )
    }
}

/// Who watches a game right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Presence {
    /// Whether South's and North's players are connected.
    pub connected: [bool; 2],
    /// How many others watch.
    pub spectators: usize,
    /// For how long each seat has had no connection (0 while connected;
    /// since the server started, when nobody came back yet), in ms: the
    /// page says a player has left only after a few seconds.
    pub away_ms: [i64; 2],
    /// Whether South's and North's players play from another client,
    /// through the board API (a person's token: shown as such).
    pub api: [bool; 2],
}

/// Events a game's channel keeps for listeners that fall behind; beyond
/// that they get the whole state again.
const CHANNEL_CAPACITY: usize = 64;

struct Channel {
    sender: broadcast::Sender<Event>,
    /// Connections per seat, and of spectators.
    seats: [usize; 2],
    spectators: usize,
    /// When each seat's last connection closed (or the channel opened).
    gone_since: [i64; 2],
}

/// The channels of the games that have listeners, the histories of the
/// games in memory, and the lobby's channel.
pub struct Hub {
    rooms: Mutex<Rooms>,
    lobby: broadcast::Sender<Event>,
    /// The channels of the players who listen (by player id).
    players: Mutex<HashMap<String, broadcast::Sender<Event>>>,
    next_watcher: AtomicU64,
    /// The time presences are counted by.
    clock: Clock,
}

/// The games' channels and histories, under one lock: a listener that
/// comes back reads what it missed and subscribes to what follows at once.
#[derive(Default)]
struct Rooms {
    channels: HashMap<i64, Channel>,
    histories: HashMap<i64, History>,
    /// The seats of each game played through the board API, as this
    /// process heard it ([`Hub::note_board_api`]).
    board_api: HashMap<i64, [bool; 2]>,
}

/// The most games whose seats played through the board API are kept.
const BOARD_API_KEPT: usize = 100_000;

impl Default for Hub {
    fn default() -> Self {
        Hub::new(Clock::system())
    }
}

/// A connection watching a game; dropping it says the viewer left.
pub struct Watch {
    hub: Arc<Hub>,
    game: i64,
    seat: Option<Side>,
    /// Told when the presence changes.
    on_change: Option<Box<dyn FnOnce(Presence) + Send>>,
    /// A number for logs.
    pub number: u64,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let presence = self.hub.leave(self.game, self.seat);
        if let (Some(p), Some(f)) = (presence, self.on_change.take()) {
            f(p);
        }
    }
}

impl Watch {
    /// Calls `f` with the new presence once this connection closes.
    pub fn on_leave(&mut self, f: impl FnOnce(Presence) + Send + 'static) {
        self.on_change = Some(Box::new(f));
    }
}

impl Hub {
    /// A hub whose presences are timed by `clock` (the games' own).
    pub fn new(clock: Clock) -> Hub {
        Hub {
            rooms: Mutex::new(Rooms::default()),
            lobby: broadcast::channel(CHANNEL_CAPACITY).0,
            players: Mutex::new(HashMap::new()),
            next_watcher: AtomicU64::new(1),
            clock,
        }
    }

    /// Adds an event to game `id`'s history and sends it to its listeners,
    /// if any: `make` writes its data, given its version. Returns the
    /// version (the same when `make` fails to write anything).
    pub fn publish_versioned(
        &self,
        id: i64,
        name: &'static str,
        make: impl FnOnce(Version) -> Option<String>,
    ) -> Version {
        self.publish_for(id, name, Audience::All, false, make)
    }

    /// [`Hub::publish_versioned`] for `audience` (and chat when `chat`).
    fn publish_for(
        &self,
        id: i64,
        name: &'static str,
        audience: Audience,
        chat: bool,
        make: impl FnOnce(Version) -> Option<String>,
    ) -> Version {
        let mut rooms = lock(&self.rooms);
        let Rooms {
            channels,
            histories,
            ..
        } = &mut *rooms;
        let history = histories.entry(id).or_insert_with(History::new);
        let version = Version {
            epoch: history.epoch,
            number: history.number + 1,
        };
        let Some(text) = make(version) else {
            return history.version();
        };
        history.number = version.number;
        let event = Event {
            name,
            data: text.into(),
            version: Some(version),
            audience,
            chat,
        };
        history.push(event.clone());
        if let Some(channel) = channels.get(&id) {
            // An error only means that nobody listens now.
            let _ = channel.sender.send(event);
        }
        version
    }

    /// Adds `data` to game `id`'s history as event `name` and sends it.
    pub fn publish(&self, id: i64, name: &'static str, data: impl Serialize) -> Version {
        self.publish_versioned(id, name, |_| serde_json::to_string(&data).ok())
    }

    /// Adds `data` to game `id`'s history as event `name` for `audience`
    /// only (the moderators watching a reported game: a report's news),
    /// and sends it.
    pub fn publish_to(
        &self,
        id: i64,
        name: &'static str,
        audience: Audience,
        data: impl Serialize,
    ) -> Version {
        self.publish_for(id, name, audience, false, |_| {
            serde_json::to_string(&data).ok()
        })
    }

    /// Adds a chat line (`data`) to game `id`'s history as `chat`, for
    /// `audience` (never a kid-mode account), and sends it.
    pub fn publish_chat(&self, id: i64, audience: Audience, data: impl Serialize) -> Version {
        self.publish_for(id, "chat", audience, true, |_| {
            serde_json::to_string(&data).ok()
        })
    }

    /// Sends an event of the moment (not kept, no version) to the
    /// listeners of game `id`, if any.
    pub fn publish_now(&self, id: i64, name: &'static str, data: impl Serialize) {
        self.send_now(id, name, false, data);
    }

    /// Sends chat of the moment (a line's removal) to the listeners of
    /// game `id` but kid-mode accounts.
    pub fn publish_chat_now(&self, id: i64, name: &'static str, data: impl Serialize) {
        self.send_now(id, name, true, data);
    }

    fn send_now(&self, id: i64, name: &'static str, chat: bool, data: impl Serialize) {
        let rooms = lock(&self.rooms);
        if let Some(channel) = rooms.channels.get(&id) {
            if let Ok(text) = serde_json::to_string(&data) {
                let _ = channel.sender.send(Event {
                    chat,
                    ..Event::now(name, text.into())
                });
            }
        }
    }

    /// The version of game `id`'s last event (a history begins if it has
    /// none).
    pub fn version(&self, id: i64) -> Version {
        let mut rooms = lock(&self.rooms);
        rooms
            .histories
            .entry(id)
            .or_insert_with(History::new)
            .version()
    }

    /// Forgets game `id`'s history (the game leaves memory).
    pub fn forget(&self, id: i64) {
        lock(&self.rooms).histories.remove(&id);
    }

    /// Whether anyone listens to game `id`.
    pub fn has_listeners(&self, id: i64) -> bool {
        lock(&self.rooms).channels.contains_key(&id)
    }

    /// Starts watching game `id` (from `seat` when the viewer plays it) at
    /// time `now`. Returns the events to come, those after `since` when the
    /// history still has them all (None: the listener needs the whole
    /// game), the presence now, and the handle whose drop ends the watch.
    pub fn watch(
        self: &Arc<Self>,
        id: i64,
        seat: Option<Side>,
        now: i64,
        since: Option<Version>,
    ) -> (
        broadcast::Receiver<Event>,
        Option<Vec<Event>>,
        Presence,
        Watch,
    ) {
        let mut rooms = lock(&self.rooms);
        let missed = since.and_then(|v| rooms.histories.get(&id)?.since(v));
        let api = rooms.board_api.get(&id).copied().unwrap_or_default();
        let channel = rooms.channels.entry(id).or_insert_with(|| Channel {
            sender: broadcast::channel(CHANNEL_CAPACITY).0,
            seats: [0, 0],
            spectators: 0,
            gone_since: [now, now],
        });
        match seat {
            Some(side) => channel.seats[side.index()] += 1,
            None => channel.spectators += 1,
        }
        let receiver = channel.sender.subscribe();
        let presence = presence_of(channel, self.clock.now_ms(), api);
        let _ = channel.sender.send(Event::now(
            "presence",
            serde_json::to_string(&presence).unwrap_or_default().into(),
        ));
        drop(rooms);
        let watch = Watch {
            hub: Arc::clone(self),
            game: id,
            seat,
            on_change: None,
            number: self.next_watcher.fetch_add(1, Ordering::Relaxed),
        };
        (receiver, missed, presence, watch)
    }

    fn leave(&self, id: i64, seat: Option<Side>) -> Option<Presence> {
        let mut rooms = lock(&self.rooms);
        let api = rooms.board_api.get(&id).copied().unwrap_or_default();
        let channels = &mut rooms.channels;
        let channel = channels.get_mut(&id)?;
        match seat {
            Some(side) => {
                channel.seats[side.index()] = channel.seats[side.index()].saturating_sub(1);
                if channel.seats[side.index()] == 0 {
                    channel.gone_since[side.index()] = self.clock.now_ms();
                }
            }
            None => channel.spectators = channel.spectators.saturating_sub(1),
        }
        let presence = presence_of(channel, self.clock.now_ms(), api);
        if channel.seats == [0, 0] && channel.spectators == 0 {
            channels.remove(&id);
        } else {
            let _ = channel.sender.send(Event::now(
                "presence",
                serde_json::to_string(&presence).unwrap_or_default().into(),
            ));
        }
        Some(presence)
    }

    /// Who watches game `id`.
    pub fn presence(&self, id: i64) -> Presence {
        let now = self.clock.now_ms();
        let rooms = lock(&self.rooms);
        let api = rooms.board_api.get(&id).copied().unwrap_or_default();
        rooms.channels.get(&id).map_or(
            Presence {
                api,
                ..Presence::default()
            },
            |c| presence_of(c, now, api),
        )
    }

    /// `side`'s player of game `id` plays it through the board API (a
    /// call of theirs on it with a board token): told to its watchers,
    /// with the presence, the first time.
    pub fn note_board_api(&self, id: i64, side: Side) {
        let now = self.clock.now_ms();
        let mut rooms = lock(&self.rooms);
        if rooms.board_api.get(&id).is_some_and(|a| a[side.index()]) {
            return;
        }
        if rooms.board_api.len() >= BOARD_API_KEPT {
            rooms.board_api.clear();
        }
        let api = {
            let seats = rooms.board_api.entry(id).or_default();
            seats[side.index()] = true;
            *seats
        };
        if let Some(channel) = rooms.channels.get(&id) {
            let presence = presence_of(channel, now, api);
            let _ = channel.sender.send(Event::now(
                "presence",
                serde_json::to_string(&presence).unwrap_or_default().into(),
            ));
        }
    }

    /// Which seats of game `id` play through the board API (South, North).
    pub fn board_api(&self, id: i64) -> [bool; 2] {
        lock(&self.rooms)
            .board_api
            .get(&id)
            .copied()
            .unwrap_or_default()
    }

    /// Since when `side`'s player of game `id` has had no connection:
    /// None while connected, or when nobody has watched the game since the
    /// server started (then `default`).
    pub fn gone_since(&self, id: i64, side: Side, default: i64) -> Option<i64> {
        match lock(&self.rooms).channels.get(&id) {
            Some(c) if c.seats[side.index()] > 0 => None,
            Some(c) => Some(c.gone_since[side.index()]),
            None => Some(default),
        }
    }

    /// Sends an event to the lobby's listeners.
    pub fn publish_lobby(&self, name: &'static str, data: impl Serialize) {
        if self.lobby.receiver_count() == 0 {
            return;
        }
        if let Ok(text) = serde_json::to_string(&data) {
            let _ = self.lobby.send(Event::now(name, text.into()));
        }
    }

    /// Listens to the lobby.
    pub fn watch_lobby(&self) -> broadcast::Receiver<Event> {
        self.lobby.subscribe()
    }

    /// How many listen to the lobby.
    pub fn lobby_listeners(&self) -> usize {
        self.lobby.receiver_count()
    }
}

/// A player listening to their own channel; dropping it ends the
/// listening (the channel goes with its last listener).
pub struct PlayerWatch {
    hub: Arc<Hub>,
    player: String,
    /// The events to come.
    pub events: broadcast::Receiver<Event>,
}

impl Drop for PlayerWatch {
    fn drop(&mut self) {
        let mut players = lock(&self.hub.players);
        // This watch's own receiver still counts here.
        if players
            .get(&self.player)
            .is_some_and(|s| s.receiver_count() <= 1)
        {
            players.remove(&self.player);
        }
    }
}

impl Hub {
    /// Sends an event of the moment to `player`'s listeners (each page of
    /// theirs that listens), if any.
    pub fn publish_player(
        &self,
        player: &crate::game::PlayerId,
        name: &'static str,
        data: impl Serialize,
    ) {
        let players = lock(&self.players);
        let Some(sender) = players.get(&player.0) else {
            return;
        };
        if let Ok(text) = serde_json::to_string(&data) {
            let _ = sender.send(Event::now(name, text.into()));
        }
    }

    /// Listens to `player`'s own channel.
    pub fn watch_player(self: &Arc<Self>, player: &crate::game::PlayerId) -> PlayerWatch {
        let events = lock(&self.players)
            .entry(player.0.clone())
            .or_insert_with(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe();
        PlayerWatch {
            hub: Arc::clone(self),
            player: player.0.clone(),
            events,
        }
    }

    /// Whether `player` listens now (a page of theirs is open).
    pub fn player_listens(&self, player: &crate::game::PlayerId) -> bool {
        lock(&self.players).contains_key(&player.0)
    }
}

fn presence_of(c: &Channel, now: i64, api: [bool; 2]) -> Presence {
    let away = |i: usize| {
        if c.seats[i] > 0 {
            0
        } else {
            (now - c.gone_since[i]).max(0)
        }
    };
    Presence {
        connected: [c.seats[0] > 0, c.seats[1] > 0],
        spectators: c.spectators,
        away_ms: [away(0), away(1)],
        api,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchers_are_counted_by_seat_and_forgotten_when_they_leave() {
        let hub = Arc::new(Hub::default());
        let (_rx1, _, p, south) = hub.watch(7, Some(Side::South), 100, None);
        assert_eq!(p.connected, [true, false]);
        let (_rx2, _, _, fan) = hub.watch(7, None, 100, None);
        assert_eq!(hub.presence(7).spectators, 1);
        assert_eq!(hub.gone_since(7, Side::North, 0), Some(100));
        assert_eq!(hub.gone_since(7, Side::South, 0), None);
        drop(south);
        assert!(hub.gone_since(7, Side::South, 0).is_some());
        drop(fan);
        assert!(!hub.has_listeners(7));
    }

    #[test]
    fn each_event_reaches_its_audience_and_no_chat_a_kid() {
        let hub = Arc::new(Hub::default());
        let (mut rx, _, _, _w) = hub.watch(9, None, 0, None);
        let _ = rx.try_recv(); // the presence
        hub.publish(9, "move", 1);
        hub.publish_chat(9, Audience::Players, "to the players");
        hub.publish_chat(9, Audience::All, "to everyone");
        hub.publish_chat_now(9, "chat_removed", 2);
        hub.publish(9, "notice", 3);
        hub.publish_to(9, "report", Audience::Moderators, 4);
        let events: Vec<Event> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
        let names = |l: Listener| -> Vec<&str> {
            events
                .iter()
                .filter(|e| e.reaches(l))
                .map(|e| match e.audience {
                    Audience::Players => "players",
                    Audience::Moderators => "moderators",
                    Audience::All => e.name,
                })
                .collect()
        };
        let player = Listener {
            seated: true,
            ..Listener::default()
        };
        assert_eq!(
            names(player),
            ["move", "players", "chat", "chat_removed", "notice"]
        );
        assert_eq!(
            names(Listener::default()),
            ["move", "chat", "chat_removed", "notice"]
        );
        // A moderator watching a reported game: the players' room too, and
        // what is for moderators only.
        let moderator = Listener {
            moderator: true,
            ..Listener::default()
        };
        assert_eq!(
            names(moderator),
            [
                "move",
                "players",
                "chat",
                "chat_removed",
                "notice",
                "moderators"
            ]
        );
        for seated in [true, false] {
            let kid = Listener {
                seated,
                kid: true,
                ..Listener::default()
            };
            assert_eq!(names(kid), ["move", "notice"]);
        }
    }

    #[test]
    fn a_player_hears_their_own_events_and_their_channel_goes_with_them() {
        let hub = Arc::new(Hub::default());
        let ama = crate::game::PlayerId("ama".into());
        let kofi = crate::game::PlayerId("kofi".into());
        hub.publish_player(&ama, "challenge", 1);
        let mut first = hub.watch_player(&ama);
        let second = hub.watch_player(&ama);
        assert!(hub.player_listens(&ama) && !hub.player_listens(&kofi));
        hub.publish_player(&kofi, "challenge", 2);
        hub.publish_player(&ama, "challenge", 3);
        let event = first.events.try_recv().unwrap();
        assert_eq!((event.name, &*event.data), ("challenge", "3"));
        assert!(first.events.try_recv().is_err(), "not kofi's, nor before");
        drop(first);
        assert!(hub.player_listens(&ama), "another page still listens");
        drop(second);
        assert!(!hub.player_listens(&ama));
    }

    #[test]
    fn a_listener_that_comes_back_gets_the_events_it_missed_or_none_when_too_old() {
        let hub = Arc::new(Hub::default());
        let start = hub.version(3);
        assert_eq!(start.number, 0);
        let first = hub.publish(3, "chat", "one");
        assert_eq!(first.number, 1);
        hub.publish_now(3, "thinking", 5);
        let names = |events: Option<Vec<Event>>| {
            events.map(|e| e.iter().map(|e| e.data.to_string()).collect::<Vec<_>>())
        };
        for n in 2..=4 {
            hub.publish(3, "chat", n);
        }
        let (_rx, missed, _, _w) = hub.watch(3, None, 0, Some(first));
        assert_eq!(
            names(missed),
            Some(vec!["2".into(), "3".into(), "4".into()])
        );
        let (_rx, missed, _, _w) = hub.watch(3, None, 0, Some(hub.version(3)));
        assert_eq!(names(missed), Some(vec![]), "nothing missed");
        let other_epoch = Version {
            epoch: start.epoch.wrapping_add(1),
            number: 1,
        };
        let (_rx, missed, _, _w) = hub.watch(3, None, 0, Some(other_epoch));
        assert!(missed.is_none(), "another history: the whole game");
        let ahead = Version {
            number: 99,
            ..start
        };
        assert!(hub.watch(3, None, 0, Some(ahead)).1.is_none());
        // Beyond what is kept: the whole game.
        for n in 0..HISTORY_EVENTS {
            hub.publish(3, "chat", n);
        }
        assert!(hub.watch(3, None, 0, Some(first)).1.is_none());
        let recent = Version {
            number: hub.version(3).number - 2,
            ..start
        };
        assert_eq!(
            hub.watch(3, None, 0, Some(recent)).1.map(|e| e.len()),
            Some(2)
        );
        // A history begins again, under another name, once forgotten.
        hub.forget(3);
        assert_ne!(hub.version(3).epoch, start.epoch);
        assert_eq!(
            "12.5".parse::<Version>(),
            Ok(Version {
                epoch: 12,
                number: 5
            })
        );
        assert!("12".parse::<Version>().is_err() && "a.5".parse::<Version>().is_err());
    }
}
