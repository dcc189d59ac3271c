//! Live updates: each game has a broadcast channel of events (`state` when
//! the game changed, `thinking` while the computer searches), which the
//! page reads as server-sent events.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

/// One event for a game's listeners: its name and its JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    /// `state`, `thinking` or `clock`.
    pub name: &'static str,
    /// The JSON payload.
    pub data: String,
}

/// The channels of all games that have listeners.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<i64, broadcast::Sender<Event>>>,
}

impl Hub {
    fn sender(&self, id: i64) -> broadcast::Sender<Event> {
        let mut channels = self
            .channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Drop the channels nobody listens to any more.
        channels.retain(|_, s| s.receiver_count() > 0);
        channels
            .entry(id)
            .or_insert_with(|| broadcast::channel(64).0)
            .clone()
    }

    /// Sends an event to the listeners of game `id`, if any.
    pub fn publish(&self, id: i64, name: &'static str, data: String) {
        let channels = self
            .channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(sender) = channels.get(&id) {
            // An error only means that nobody listens now.
            let _ = sender.send(Event { name, data });
        }
    }

    /// Listens to game `id`.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<Event> {
        self.sender(id).subscribe()
    }
}
