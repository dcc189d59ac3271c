//! Rated means earned: the terms a rated game is played on, whichever way
//! it is made (a game offered, a direct challenge, a pool, a rematch, a
//! tournament), and the limit on rated games between the same two
//! players. [`Games::create`](crate::games::Games::create) checks both for
//! every game it makes, so no path can skip them. `docs/SECURITY.md`
//! ("Rated means earned") says the rules and their tests.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use awale_core::{Game, Rules};

use crate::error::Error;
use crate::game::{Clock, Mode, PlayerId, WebGame};
use awale_model::account::FlaggedPair;
use awale_model::Code;
use awale_store::FairPlayStore;

/// The fastest clock a rated game is played on: 15 s (lichess's fastest
/// rated clock, ¼+0; the tournaments' too). A faster game measures the
/// network more than the play.
pub const RATED_MIN_INITIAL_MS: i64 = 15_000;
/// The slowest: 180 minutes (the longest clock a game may have).
pub const RATED_MAX_INITIAL_MS: i64 = 180 * 60_000;
/// The most a move adds on a rated clock: 60 s.
pub const RATED_MAX_INCREMENT_MS: i64 = 60_000;

/// Rated games two players may begin together within [`PAIR_WINDOW_MS`]:
/// the same limit for rematches, direct challenges, pools and games
/// offered (friends who play on, play casual).
pub const PAIR_RATED_LIMIT: usize = 10;
/// The window of [`PAIR_RATED_LIMIT`]: a day.
pub const PAIR_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// Checks the terms of `game` if it is rated: online, on a rated clock
/// (minutes within the speeds' range, or days per move) and a preset's
/// rules (`awale` or `abapa`, whatever the direction drawn or who sows
/// first; no option changed), from the start position.
///
/// # Errors
///
/// `rated_needs_online`, `rated_from_position`, `rated_needs_clock`,
/// `rated_needs_standard_rules`.
pub fn check_rated_terms(game: &WebGame) -> Result<(), Error> {
    if !game.rated {
        return Ok(());
    }
    if game.mode != Mode::Online {
        return Err(Error::invalid(
            Code::RatedNeedsOnline,
            "only an online game may be rated",
        ));
    }
    if game.game.start() != Game::new(*game.game.rules()).start() {
        return Err(Error::invalid(
            Code::RatedFromPosition,
            "a game from a study position is casual",
        ));
    }
    check_rated_clock(game.clock)?;
    let rules = *game.game.rules();
    let standard = [Rules::AWALE, Rules::ABAPA].into_iter().any(|preset| {
        Rules {
            direction: preset.direction,
            first: preset.first,
            ..rules
        } == preset
    });
    if !standard {
        return Err(Error::invalid(
            Code::RatedNeedsStandardRules,
            "a rated game is played on a preset's rules (awale or abapa), no option changed",
        ));
    }
    Ok(())
}

/// Checks that `clock` is one a rated game may be played on: minutes
/// within the speeds' range ([`RATED_MIN_INITIAL_MS`] to
/// [`RATED_MAX_INITIAL_MS`], up to [`RATED_MAX_INCREMENT_MS`] a move), or
/// days per move.
///
/// # Errors
///
/// `rated_needs_clock`.
pub fn check_rated_clock(clock: Option<Clock>) -> Result<(), Error> {
    let fair = clock.is_some_and(|c| {
        c.per_move
            || ((RATED_MIN_INITIAL_MS..=RATED_MAX_INITIAL_MS).contains(&c.initial_ms)
                && (0..=RATED_MAX_INCREMENT_MS).contains(&c.increment_ms))
    });
    if fair {
        Ok(())
    } else {
        Err(Error::invalid(
            Code::RatedNeedsClock,
            "a rated game is played with a clock of 15 s to 180 min (0 to 60 s a move), or days per move",
        ))
    }
}

/// The rated games each pair of players began, within the window, kept
/// in the store (every process sharing it counts them all; a restart
/// forgets none). Without a store (a server that rates no game) nothing
/// is counted.
#[derive(Default)]
pub struct PairLimit {
    store: Option<Arc<dyn FairPlayStore>>,
}

impl PairLimit {
    /// The limit of the pairs whose games `store` keeps.
    pub fn new(store: Arc<dyn FairPlayStore>) -> PairLimit {
        PairLimit { store: Some(store) }
    }

    /// Counts the rated games among `games` (all or none: the batch is
    /// refused whole) against their pairs' limits at `now`.
    ///
    /// # Errors
    ///
    /// `too_many_rated_together` when a pair has begun
    /// [`PAIR_RATED_LIMIT`] rated games within [`PAIR_WINDOW_MS`]; a
    /// storage failure.
    pub async fn take(&self, games: &[WebGame], now: i64) -> Result<(), Error> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let pairs: Vec<[PlayerId; 2]> = games
            .iter()
            .filter(|g| g.rated)
            .filter_map(|g| match &g.seats {
                [Some(a), Some(b)] => Some([a.player.clone(), b.player.clone()]),
                _ => None,
            })
            .collect();
        if pairs.is_empty() {
            return Ok(());
        }
        match store
            .take_rated_pairs(pairs, now - PAIR_WINDOW_MS, now, PAIR_RATED_LIMIT)
            .await?
        {
            None => Ok(()),
            Some(before) => Err(Error::conflict(
                Code::TooManyRatedTogether,
                format!("you have played {before} rated games together today: play on casual"),
            )
            .with("max", PAIR_RATED_LIMIT)),
        }
    }
}

/// How long an account is remembered at an address or on a device: two
/// accounts seen at the same place within this window play casual.
pub const SAME_PLACE_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// How often one account's being at one place is written again: the
/// window is read as starting up to this much earlier.
pub const SIGHTING_REFRESH_MS: i64 = 10 * 60 * 1000;
/// Places remembered per account (the newest).
const PLACES_PER_ACCOUNT: usize = 16;
/// Sightings whose last writing this process remembers at once: past it,
/// those older than [`SIGHTING_REFRESH_MS`] are forgotten.
const WRITTEN_KEPT: usize = 200_000;

/// Where an account was seen: an address (IPv6 by /64, as the limits
/// count it) or a device (the browser's own player cookie, whoever is
/// logged in on it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A client address.
    Address(std::net::IpAddr),
    /// A browser, by its player cookie's digest.
    Device(PlayerId),
}

impl Place {
    /// The place as the store keeps it: `address:IP`, `device:PLAYER`.
    pub fn key(&self) -> String {
        match self {
            Place::Address(ip) => format!("address:{ip}"),
            Place::Device(p) => format!("device:{}", p.0),
        }
    }

    /// The place a stored key names (None for a key of no kind known).
    pub fn from_key(key: &str) -> Option<Place> {
        if let Some(ip) = key.strip_prefix("address:") {
            return ip.parse().ok().map(Place::Address);
        }
        key.strip_prefix("device:")
            .map(|p| Place::Device(PlayerId(p.to_string())))
    }
}

/// Where each account was seen lately and the pairs flagged for playing
/// rated from one place, kept in the store (every process sharing it
/// sees them; a restart forgets none). A process writes one account's
/// being at one place at most every [`SIGHTING_REFRESH_MS`]. Without a
/// store (a server that rates no game) nothing is noted.
#[derive(Default)]
pub struct Sightings {
    store: Option<Arc<dyn FairPlayStore>>,
    /// When this process last wrote each account's being at each place.
    written: Mutex<HashMap<(PlayerId, Place), i64>>,
}

impl Sightings {
    /// The sightings and flags `store` keeps.
    pub fn new(store: Arc<dyn FairPlayStore>) -> Sightings {
        Sightings {
            store: Some(store),
            written: Mutex::default(),
        }
    }

    /// `account` was seen at `address` on `device` at `now` (the guard
    /// tells each request of a logged-in browser). 127.0.0.1 and ::1 are
    /// no place (see below). A storage failure is logged.
    pub async fn note(
        &self,
        account: &PlayerId,
        address: Option<std::net::IpAddr>,
        device: Option<&PlayerId>,
        now: i64,
    ) {
        let Some(store) = &self.store else {
            return;
        };
        // The machine's own address is everyone's on a server that is not
        // told its clients' (no `--trust-proxy` behind a proxy, tests'
        // browsers): it tells no two players apart, so it is not a place.
        let own = |ip: &std::net::IpAddr| {
            *ip == std::net::IpAddr::from([127, 0, 0, 1])
                || *ip == std::net::IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
        };
        let places: Vec<Place> = address
            .filter(|ip| !own(ip))
            .map(Place::Address)
            .into_iter()
            .chain(device.filter(|d| *d != account).cloned().map(Place::Device))
            .collect();
        let due: Vec<Place> = {
            let mut written = crate::lock(&self.written);
            if written.len() >= WRITTEN_KEPT {
                written.retain(|_, t| *t > now - SIGHTING_REFRESH_MS);
            }
            places
                .into_iter()
                .filter(|place| {
                    let key = (account.clone(), place.clone());
                    match written.get(&key) {
                        Some(&t) if now - t < SIGHTING_REFRESH_MS && t <= now => false,
                        _ => {
                            written.insert(key, now);
                            true
                        }
                    }
                })
                .collect()
        };
        if due.is_empty() {
            return;
        }
        let keys = due.iter().map(Place::key).collect();
        if let Err(e) = store
            .note_places(
                account.clone(),
                keys,
                now,
                now - SAME_PLACE_WINDOW_MS,
                PLACES_PER_ACCOUNT,
            )
            .await
        {
            tracing::warn!(error = %e, "where an account was seen is not kept");
            // Written again at the next request.
            let mut written = crate::lock(&self.written);
            for place in due {
                written.remove(&(account.clone(), place));
            }
        }
    }

    /// Whether `a` and `b` were seen at one address, and on one device,
    /// within the window before `now`.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn shared(
        &self,
        a: &PlayerId,
        b: &PlayerId,
        now: i64,
    ) -> Result<(bool, bool), Error> {
        let Some(store) = &self.store else {
            return Ok((false, false));
        };
        let since = now - SAME_PLACE_WINDOW_MS;
        let recent = |keys: Vec<String>| -> Vec<Place> {
            keys.iter().filter_map(|k| Place::from_key(k)).collect()
        };
        let of_a = recent(store.places(a.clone(), since).await?);
        let of_b = recent(store.places(b.clone(), since).await?);
        let common = |device: bool| {
            of_a.iter()
                .filter(|p| matches!(p, Place::Device(_)) == device)
                .any(|p| of_b.contains(p))
        };
        // A device that is the other account's own browser counts too.
        let device = common(true)
            || of_a.contains(&Place::Device(b.clone()))
            || of_b.contains(&Place::Device(a.clone()));
        Ok((common(false), device))
    }

    /// The flag of `game` if it is rated, full, and its two players were
    /// seen at one place: it is to be played casual then.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn flag_of(&self, game: &WebGame, now: i64) -> Result<Option<FlaggedPair>, Error> {
        if !game.rated {
            return Ok(None);
        }
        let [Some(south), Some(north)] = &game.seats else {
            return Ok(None);
        };
        let (address, device) = self.shared(&south.player, &north.player, now).await?;
        if !(address || device) {
            return Ok(None);
        }
        Ok(Some(FlaggedPair {
            names: [south.name.clone(), north.name.clone()],
            players: [south.player.clone(), north.player.clone()],
            at_ms: now,
            address,
            device,
            times: 1,
        }))
    }

    /// Plays casual each rated game of `games` whose two players were seen
    /// at one place: the flags to keep once the games are made
    /// ([`Sightings::keep`]).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn demote(&self, games: &mut [WebGame], now: i64) -> Result<Vec<FlaggedPair>, Error> {
        let mut flags = Vec::new();
        for game in games.iter_mut() {
            if let Some(flag) = self.flag_of(game, now).await? {
                game.rated = false;
                flags.push(flag);
            }
        }
        Ok(flags)
    }

    /// Keeps `flags` for the moderators (logged too). A storage failure
    /// is logged.
    pub async fn keep(&self, flags: Vec<FlaggedPair>) {
        let Some(store) = &self.store else {
            return;
        };
        for flag in flags {
            tracing::info!(
                south = %flag.names[0],
                north = %flag.names[1],
                address = flag.address,
                device = flag.device,
                "a rated game between accounts seen at one place is played casual"
            );
            if let Err(e) = store.flag_pair(flag).await {
                tracing::warn!(error = %e, "a flagged pair is not kept");
            }
        }
    }

    /// The `limit` pairs flagged last, newest first.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn flagged(&self, limit: usize) -> Result<Vec<FlaggedPair>, Error> {
        match &self.store {
            Some(store) => Ok(store.flagged_pairs(limit).await?),
            None => Ok(Vec::new()),
        }
    }
}
