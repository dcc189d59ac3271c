//! Live updates: each game has a broadcast channel of events (`state`,
//! `move`, `thinking`, `chat`, `reaction`, `presence`), and the lobby has
//! one (`lobby`). An event is serialised once and shared by every
//! listener. The hub also knows who watches each game: which seats are
//! connected, since when a seat has been gone, how many spectators.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use awale_core::Side;
use serde::Serialize;
use tokio::sync::broadcast;

/// One event for the listeners of a game or of the lobby.
#[derive(Clone, Debug)]
pub struct Event {
    /// The event's name.
    pub name: &'static str,
    /// Its JSON data.
    pub data: Arc<str>,
}

/// Who watches a game right now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Presence {
    /// Whether South's and North's players are connected.
    pub connected: [bool; 2],
    /// How many others watch.
    pub spectators: usize,
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

/// The channels of the games that have listeners, and the lobby's.
pub struct Hub {
    channels: Mutex<HashMap<i64, Channel>>,
    lobby: broadcast::Sender<Event>,
    next_watcher: AtomicU64,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            channels: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(CHANNEL_CAPACITY).0,
            next_watcher: AtomicU64::new(1),
        }
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// Sends an event to the listeners of game `id`, if any.
    pub fn publish(&self, id: i64, name: &'static str, data: impl Serialize) {
        let channels = lock(&self.channels);
        if let Some(channel) = channels.get(&id) {
            if let Ok(text) = serde_json::to_string(&data) {
                // An error only means that nobody listens now.
                let _ = channel.sender.send(Event {
                    name,
                    data: text.into(),
                });
            }
        }
    }

    /// Whether anyone listens to game `id`.
    pub fn has_listeners(&self, id: i64) -> bool {
        lock(&self.channels).contains_key(&id)
    }

    /// Starts watching game `id` (from `seat` when the viewer plays it) at
    /// time `now`. Returns the events to come, the presence now, and the
    /// handle whose drop ends the watch.
    pub fn watch(
        self: &Arc<Self>,
        id: i64,
        seat: Option<Side>,
        now: i64,
    ) -> (broadcast::Receiver<Event>, Presence, Watch) {
        let mut channels = lock(&self.channels);
        let channel = channels.entry(id).or_insert_with(|| Channel {
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
        let presence = presence_of(channel);
        let _ = channel.sender.send(Event {
            name: "presence",
            data: serde_json::to_string(&presence).unwrap_or_default().into(),
        });
        drop(channels);
        let watch = Watch {
            hub: Arc::clone(self),
            game: id,
            seat,
            on_change: None,
            number: self.next_watcher.fetch_add(1, Ordering::Relaxed),
        };
        (receiver, presence, watch)
    }

    fn leave(&self, id: i64, seat: Option<Side>) -> Option<Presence> {
        let mut channels = lock(&self.channels);
        let channel = channels.get_mut(&id)?;
        match seat {
            Some(side) => {
                channel.seats[side.index()] = channel.seats[side.index()].saturating_sub(1);
                if channel.seats[side.index()] == 0 {
                    channel.gone_since[side.index()] = crate::game::now_ms();
                }
            }
            None => channel.spectators = channel.spectators.saturating_sub(1),
        }
        let presence = presence_of(channel);
        if channel.seats == [0, 0] && channel.spectators == 0 {
            channels.remove(&id);
        } else {
            let _ = channel.sender.send(Event {
                name: "presence",
                data: serde_json::to_string(&presence).unwrap_or_default().into(),
            });
        }
        Some(presence)
    }

    /// Who watches game `id`.
    pub fn presence(&self, id: i64) -> Presence {
        lock(&self.channels)
            .get(&id)
            .map(presence_of)
            .unwrap_or_default()
    }

    /// Since when `side`'s player of game `id` has had no connection:
    /// None while connected, or when nobody has watched the game since the
    /// server started (then `default`).
    pub fn gone_since(&self, id: i64, side: Side, default: i64) -> Option<i64> {
        match lock(&self.channels).get(&id) {
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
            let _ = self.lobby.send(Event {
                name,
                data: text.into(),
            });
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

fn presence_of(c: &Channel) -> Presence {
    Presence {
        connected: [c.seats[0] > 0, c.seats[1] > 0],
        spectators: c.spectators,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchers_are_counted_by_seat_and_forgotten_when_they_leave() {
        let hub = Arc::new(Hub::default());
        let (_rx1, p, south) = hub.watch(7, Some(Side::South), 100);
        assert_eq!(p.connected, [true, false]);
        let (_rx2, _, fan) = hub.watch(7, None, 100);
        assert_eq!(hub.presence(7).spectators, 1);
        assert_eq!(hub.gone_since(7, Side::North, 0), Some(100));
        assert_eq!(hub.gone_since(7, Side::South, 0), None);
        drop(south);
        assert!(hub.gone_since(7, Side::South, 0).is_some());
        drop(fan);
        assert!(!hub.has_listeners(7));
    }
}
