//! Rate limits: a bucket of tokens per key (a player, a client address),
//! refilled at a steady rate; an action takes a token or is refused with
//! how long to wait. Buckets left full are forgotten, so memory stays small.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use crate::error::Error;
use awale_model::Code;

/// One kind of limit: `burst` actions at once, then one every `every_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Actions allowed at once.
    pub burst: u32,
    /// Milliseconds to earn one more.
    pub every_ms: u32,
}

impl Rate {
    /// `burst` actions at once, then one every `every_ms`.
    pub const fn new(burst: u32, every_ms: u32) -> Rate {
        Rate { burst, every_ms }
    }
}

/// What a limit counts: each limiter's kind of action. Its
/// [`name`](Limit::name) is a refusal's reason (`too_many` because
/// `games`), which the page words (`err_too_many_games`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Games made (and imported, and uploaded), per client address.
    Games,
    /// Online games offered, pool seeks, direct challenges and rematches,
    /// per player and per client address.
    Offers,
    /// Nicknames chosen.
    Renames,
    /// "Continue on another device" links asked for.
    HandoffLinks,
    /// Chat lines.
    Chat,
    /// Reactions (applause, drums).
    Reactions,
    /// New guests (players) per client address.
    Players,
    /// Log-ins (and password checks).
    Logins,
    /// Sign-ups per client address.
    SignUps,
    /// Reports of players.
    Reports,
    /// Joins and withdrawals of tournaments.
    TournamentComings,
    /// Calls of the bots' API per token.
    ApiCalls,
    /// Puzzle streaks started (each a stored change).
    Streaks,
}

impl Limit {
    /// Every limit.
    pub const ALL: [Limit; 13] = [
        Limit::Games,
        Limit::Offers,
        Limit::Renames,
        Limit::HandoffLinks,
        Limit::Chat,
        Limit::Reactions,
        Limit::Players,
        Limit::Logins,
        Limit::SignUps,
        Limit::Reports,
        Limit::TournamentComings,
        Limit::ApiCalls,
        Limit::Streaks,
    ];

    /// Its name, the refusal's reason (`handoff_links`).
    pub fn name(self) -> &'static str {
        match self {
            Limit::Games => "games",
            Limit::Offers => "offers",
            Limit::Renames => "renames",
            Limit::HandoffLinks => "handoff_links",
            Limit::Chat => "chat",
            Limit::Reactions => "reactions",
            Limit::Players => "players",
            Limit::Logins => "logins",
            Limit::SignUps => "sign_ups",
            Limit::Reports => "reports",
            Limit::TournamentComings => "tournament_comings",
            Limit::ApiCalls => "api_calls",
            Limit::Streaks => "streaks",
        }
    }
}

/// Buckets of one kind of action.
pub struct Limiter<K> {
    rate: Rate,
    /// What the action is, the refusal's reason.
    what: Limit,
    buckets: Mutex<HashMap<K, (f64, i64)>>,
}

/// How many players' allowance one client address has: a household, a
/// school or a mobile network's users may share one.
pub const CLIENT_SHARE: u32 = 4;

/// A limit counted twice, per player and per client address (an IPv6
/// address by its /64), so that player cookies made up by the thousand do
/// not multiply it: an address has [`CLIENT_SHARE`] players' allowance.
pub struct PerPlayerAndClient<P> {
    players: Limiter<P>,
    clients: Limiter<Option<std::net::IpAddr>>,
}

impl<P: Hash + Eq + Clone> PerPlayerAndClient<P> {
    /// A limit of `what` at `rate` per player.
    pub fn new(what: Limit, rate: Rate) -> PerPlayerAndClient<P> {
        let client = Rate {
            burst: rate.burst.saturating_mul(CLIENT_SHARE),
            every_ms: (rate.every_ms / CLIENT_SHARE).max(1),
        };
        PerPlayerAndClient {
            players: Limiter::new(what, rate),
            clients: Limiter::new(what, client),
        }
    }

    /// Takes one token of `player`'s bucket and one of `client`'s.
    ///
    /// # Errors
    ///
    /// `too_many` (429) when either is short.
    pub fn take(
        &self,
        player: &P,
        client: Option<std::net::IpAddr>,
        now: i64,
    ) -> Result<(), Error> {
        self.players.take(player, 1, now)?;
        self.clients.take(&client, 1, now)
    }
}

/// Buckets kept at most; beyond, full ones are forgotten first.
const MAX_BUCKETS: usize = 100_000;

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// A limiter of `what` at `rate`.
    pub fn new(what: Limit, rate: Rate) -> Limiter<K> {
        Limiter {
            rate,
            what,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes `cost` tokens of `key`'s bucket at time `now` (ms).
    ///
    /// # Errors
    ///
    /// `too_many` (429), saying how long to wait, when the bucket is short.
    pub fn take(&self, key: &K, cost: u32, now: i64) -> Result<(), Error> {
        let burst = f64::from(self.rate.burst);
        let per_ms = 1.0 / f64::from(self.rate.every_ms.max(1));
        let mut buckets = crate::lock(&self.buckets);
        if buckets.len() >= MAX_BUCKETS {
            buckets.retain(|_, (tokens, at)| *tokens + (now - *at) as f64 * per_ms < burst);
        }
        let (tokens, at) = buckets.entry(key.clone()).or_insert((burst, now));
        *tokens = (*tokens + (now - *at).max(0) as f64 * per_ms).min(burst);
        *at = now;
        let cost = f64::from(cost);
        if *tokens >= cost {
            *tokens -= cost;
            return Ok(());
        }
        let wait_s = ((cost - *tokens) / per_ms / 1000.0).ceil().max(1.0);
        Err(Error::too_many(
            Code::TooMany,
            // `what` is also the reason, an identifier: in words, spaced.
            format!(
                "too many {} for now: wait {wait_s} s",
                self.what.name().replace('_', " ")
            ),
        )
        .because(self.what.name())
        .with("wait_s", wait_s as i64))
    }
    /// Gives `cost` tokens back to `key`'s bucket (a try taken at its
    /// start that turned out not to count, as a right password).
    pub fn give_back(&self, key: &K, cost: u32) {
        let burst = f64::from(self.rate.burst);
        if let Some((tokens, _)) = crate::lock(&self.buckets).get_mut(key) {
            *tokens = (*tokens + f64::from(cost)).min(burst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rate_holds() {
        let l = Limiter::new(
            Limit::Chat,
            Rate {
                burst: 3,
                every_ms: 1000,
            },
        );
        for _ in 0..3 {
            l.take(&1, 1, 0).unwrap();
        }
        let e = l.take(&1, 1, 10).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::TooMany);
        assert!(e.message.contains("chat"), "{}", e.message);
        l.take(&2, 1, 10).unwrap();
        l.take(&1, 1, 1_100).unwrap();
        assert!(l.take(&1, 1, 1_200).is_err());
    }

    #[test]
    fn a_limits_message_words_its_reason_and_keeps_the_identifier_for_the_page() {
        let l = Limiter::new(
            Limit::SignUps,
            Rate {
                burst: 1,
                every_ms: 60_000,
            },
        );
        l.take(&1, 1, 0).unwrap();
        let e = l.take(&1, 1, 10).unwrap_err();
        assert_eq!(e.reason, Some("sign_ups"), "the page's key");
        assert!(
            e.message.starts_with("too many sign ups for now"),
            "{}",
            e.message
        );
    }
}
