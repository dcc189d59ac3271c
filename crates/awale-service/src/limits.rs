//! The limits of what a caller makes: games (made, imported, uploaded),
//! online games offered, pool seeks, direct challenges and rematches,
//! nicknames, hand-over links and reactions. They are rules like any
//! other: each operation that makes something takes its tokens here, from
//! the caller's identity ([`Caller`]: the player and the client address)
//! that the front end passes in, before anything is made. The buckets
//! themselves are [`crate::limiter`]'s.
//!
//! A game made for someone else's seat counts as made for its caller: an
//! online game offered, a pool seek, a direct challenge and a rematch all
//! take a token of the address's games ([`Limit::Games`]) and one of the
//! player's offers ([`Limit::Offers`], per player and per address), so
//! made-up player cookies from one address share its allowance.

use std::net::IpAddr;

use crate::error::Error;
use crate::game::PlayerId;
use crate::limiter::{Limit, Limiter, PerPlayerAndClient, Rate};

/// Who asks: the player (the browser's, or an account's) and the client
/// address it asks from (an IPv6 address by its /64; None when unknown, as
/// in tests calling the service directly: all such callers share one
/// address's allowance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    /// The player.
    pub player: PlayerId,
    /// The client address.
    pub client: Option<IpAddr>,
}

impl Caller {
    /// `player` asking from `client`.
    pub fn new(player: PlayerId, client: Option<IpAddr>) -> Caller {
        Caller { player, client }
    }
}

/// A caller whose address is unknown (tests, the command line): every
/// such caller shares one address's allowance.
impl From<PlayerId> for Caller {
    fn from(player: PlayerId) -> Caller {
        Caller::new(player, None)
    }
}

impl From<&PlayerId> for Caller {
    fn from(player: &PlayerId) -> Caller {
        Caller::new(player.clone(), None)
    }
}

impl From<&Caller> for Caller {
    fn from(caller: &Caller) -> Caller {
        caller.clone()
    }
}

/// The rates of the limits [`Limits`] keeps.
#[derive(Clone, Copy, Debug)]
pub struct Rates {
    /// Games made per client address (an import of ten games is one).
    pub games: Rate,
    /// Online games offered, seeks, challenges and rematches per player
    /// (and [`crate::limiter::CLIENT_SHARE`] players' worth per address).
    pub offers: Rate,
    /// Nicknames chosen per player (and per address).
    pub renames: Rate,
    /// Hand-over links per player (and per address).
    pub handoff_links: Rate,
    /// Reactions per player (and per address).
    pub reactions: Rate,
}

/// Games made per client address: 60 at once, then one a second.
pub const GAMES_PER_CLIENT: Rate = Rate::new(60, 1_000);
/// Online games a player may offer: 10 at once, then one every 20 s (and
/// four players' worth per address).
pub const OFFERS_PER_PLAYER: Rate = Rate::new(10, 20_000);
/// Nicknames a player may choose: 5 at once, then one every 10 s.
pub const RENAMES_PER_PLAYER: Rate = Rate::new(5, 10_000);
/// "Continue on another device" links a player may ask for: 5 at once,
/// then one a minute.
pub const HANDOFF_LINKS_PER_PLAYER: Rate = Rate::new(5, 60_000);
/// Reactions: 8 at once, then one a second.
pub const REACTIONS_PER_PLAYER: Rate = Rate::new(8, 1_000);

impl Default for Rates {
    fn default() -> Rates {
        Rates {
            games: GAMES_PER_CLIENT,
            offers: OFFERS_PER_PLAYER,
            renames: RENAMES_PER_PLAYER,
            handoff_links: HANDOFF_LINKS_PER_PLAYER,
            reactions: REACTIONS_PER_PLAYER,
        }
    }
}

/// The buckets of the limits on what callers make.
pub struct Limits {
    games: Limiter<Option<IpAddr>>,
    offers: PerPlayerAndClient<PlayerId>,
    renames: PerPlayerAndClient<PlayerId>,
    handoff_links: PerPlayerAndClient<PlayerId>,
    reactions: PerPlayerAndClient<PlayerId>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new(Rates::default())
    }
}

impl Limits {
    /// Limits at `rates`.
    pub fn new(rates: Rates) -> Limits {
        Limits {
            games: Limiter::new(Limit::Games, rates.games),
            offers: PerPlayerAndClient::new(Limit::Offers, rates.offers),
            renames: PerPlayerAndClient::new(Limit::Renames, rates.renames),
            handoff_links: PerPlayerAndClient::new(Limit::HandoffLinks, rates.handoff_links),
            reactions: PerPlayerAndClient::new(Limit::Reactions, rates.reactions),
        }
    }

    /// Takes `cost` of `caller`'s allowance of `limit` at `now` (ms): the
    /// address's alone for [`Limit::Games`], the player's and the
    /// address's for the others.
    ///
    /// # Errors
    ///
    /// `too_many` (429) because `limit` (its name, the page's key), with
    /// `wait_s`; `limit` kept elsewhere (chat, log-ins...) is not taken
    /// here: `too_many` because it, at once, which is a caller's mistake.
    pub fn take(&self, limit: Limit, caller: &Caller, cost: u32, now: i64) -> Result<(), Error> {
        let per_player = match limit {
            Limit::Games => return self.games.take(&caller.client, cost, now),
            Limit::Offers => &self.offers,
            Limit::Renames => &self.renames,
            Limit::HandoffLinks => &self.handoff_links,
            Limit::Reactions => &self.reactions,
            other => {
                return Err(Error::internal(format!(
                    "the limit of {} is not kept with the games'",
                    other.name()
                )))
            }
        };
        for _ in 0..cost {
            per_player.take(&caller.player, caller.client, now)?;
        }
        Ok(())
    }

    /// Takes what a game made for `caller` with someone else (an online
    /// game offered, a pool seek, a direct challenge, a rematch) costs:
    /// one of the address's games and one of the player's offers.
    ///
    /// # Errors
    ///
    /// `too_many` because `games` or `offers`.
    pub fn game_offered(&self, caller: &Caller, now: i64) -> Result<(), Error> {
        self.take(Limit::Games, caller, 1, now)?;
        self.take(Limit::Offers, caller, 1, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_costs_the_address_a_game_and_the_player_an_offer() {
        let limits = Limits::new(Rates {
            games: Rate::new(3, 60_000),
            ..Rates::default()
        });
        let ip = Some(IpAddr::from([192, 0, 2, 1]));
        for n in 0..3 {
            let caller = Caller::new(PlayerId(format!("p{n}")), ip);
            limits.game_offered(&caller, 0).unwrap();
        }
        let late = Caller::new(PlayerId("late".into()), ip);
        let refused = limits.game_offered(&late, 0).unwrap_err();
        assert_eq!(refused.reason, Some("games"));
        let other = Caller::new(PlayerId("late".into()), Some(IpAddr::from([192, 0, 2, 2])));
        limits.game_offered(&other, 0).unwrap();
        let chat = limits.take(Limit::Chat, &other, 1, 0).unwrap_err();
        assert_eq!(chat.kind, crate::error::Kind::Internal);
    }
}
