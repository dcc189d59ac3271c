//! Guests: a browser without an account plays as the player its cookie's
//! secret stands for, and only a secret the server issued stands for one
//! (tagged with the server's [`GuestKey`]). A made-up secret is no player,
//! so new guests are made only here, at the address's rate, and every limit
//! counted per player (games, pools, challenges, chat) binds.
//!
//! Guests made before secrets were tagged keep their cookies: an untagged
//! secret still stands for its player when the store knows that player (a
//! seat in a game, or a nickname), looked up once per process; a lookup
//! that finds nothing costs the address a new guest's token, so made-up
//! secrets cannot make the store search without end.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::Error;
use crate::game::PlayerId;
use crate::limiter::{Limiter, Rate};
use crate::secret::{player_id, GuestKey};
use crate::store::GameStore;

/// New guests per client address: 30 at once, then one every 2 s.
pub const NEW_GUESTS_PER_CLIENT: Rate = Rate {
    burst: 30,
    every_ms: 2_000,
};

/// Old guests remembered at most (beyond, they are looked up again).
const KNOWN_MAX: usize = 100_000;

/// The guests of a server: see the module's documentation.
pub struct Guests {
    key: GuestKey,
    new_guests: Limiter<Option<IpAddr>>,
    store: Option<Arc<dyn GameStore>>,
    /// Untagged secrets' players the store knew.
    known: Mutex<HashSet<PlayerId>>,
}

impl Guests {
    /// Guests whose secrets `key` tags, `rate` new ones per address;
    /// untagged (older) secrets are looked up in `store` when given.
    pub fn new(key: GuestKey, rate: Rate, store: Option<Arc<dyn GameStore>>) -> Guests {
        Guests {
            key,
            new_guests: Limiter::new(crate::limiter::Limit::Players, rate),
            store,
            known: Mutex::new(HashSet::new()),
        }
    }

    /// A new guest for a browser at `client`: its secret (the cookie's
    /// value).
    ///
    /// # Errors
    ///
    /// `too_many` when the address made its share of guests for now;
    /// `internal` without random bytes.
    pub fn admit(&self, client: Option<IpAddr>, now: i64) -> Result<String, Error> {
        self.new_guests.take(&client, 1, now)?;
        self.key
            .issue()
            .map_err(|e| Error::internal(format!("no random bytes for a guest: {e}")))
    }

    /// The player `secret` stands for, if it is a guest's: tagged by the
    /// key, or an older guest the store knows (see the module's
    /// documentation). None for a made-up secret.
    pub async fn player(&self, secret: &str, client: Option<IpAddr>, now: i64) -> Option<PlayerId> {
        let player = player_id(secret);
        if self.key.issued(secret) {
            return Some(player);
        }
        let store = self.store.as_ref()?;
        if crate::lock(&self.known).contains(&player) {
            return Some(player);
        }
        // A lookup costs what a new guest costs, found or not.
        self.new_guests.take(&client, 1, now).ok()?;
        let seated = store.list(Some(player.clone()), None, 1).await;
        let known = match seated {
            Ok(page) if !page.games.is_empty() => true,
            Ok(_) => matches!(store.player_name(player.clone()).await, Ok(Some(_))),
            Err(e) => {
                tracing::warn!(error = %e, "an old guest could not be looked up");
                false
            }
        };
        if !known {
            return None;
        }
        let mut set = crate::lock(&self.known);
        if set.len() >= KNOWN_MAX {
            set.clear();
        }
        set.insert(player.clone());
        Some(player)
    }

    /// The secret a guest made from `nonce` would hold (tests and tools
    /// that play as guests of a server whose key they were given).
    pub fn sign(&self, nonce: &str) -> String {
        self.key.sign(nonce)
    }
}
