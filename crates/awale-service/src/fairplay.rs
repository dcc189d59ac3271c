//! Rated means earned: the terms a rated game is played on, whichever way
//! it is made (a game offered, a direct challenge, a pool, a rematch, a
//! tournament), and the limit on rated games between the same two
//! players. [`Games::create`](crate::games::Games::create) checks both for
//! every game it makes, so no path can skip them. `docs/SECURITY.md`
//! ("Rated means earned") says the rules and their tests.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use awale_core::{Game, Rules};

use crate::error::Error;
use crate::game::{Clock, Mode, PlayerId, WebGame};
use awale_model::Code;

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

/// The rated games each pair of players began, within the window: kept in
/// memory (a restart forgets them; several processes on one PostgreSQL
/// store each keep their own).
#[derive(Default)]
pub struct PairLimit {
    began: Mutex<HashMap<(PlayerId, PlayerId), VecDeque<i64>>>,
}

impl PairLimit {
    /// Counts the rated games among `games` (all or none: the batch is
    /// refused whole) against their pairs' limits at `now`.
    ///
    /// # Errors
    ///
    /// `too_many_rated_together` when a pair has begun
    /// [`PAIR_RATED_LIMIT`] rated games within [`PAIR_WINDOW_MS`].
    pub fn take(&self, games: &[WebGame], now: i64) -> Result<(), Error> {
        let pairs: Vec<(PlayerId, PlayerId)> = games
            .iter()
            .filter(|g| g.rated)
            .filter_map(|g| match &g.seats {
                [Some(a), Some(b)] => Some(Self::pair(&a.player, &b.player)),
                _ => None,
            })
            .collect();
        if pairs.is_empty() {
            return Ok(());
        }
        let mut began = crate::lock(&self.began);
        began.retain(|_, times| {
            while times.front().is_some_and(|&t| t <= now - PAIR_WINDOW_MS) {
                times.pop_front();
            }
            !times.is_empty()
        });
        for pair in &pairs {
            let before = began.get(pair).map_or(0, VecDeque::len);
            let here = pairs.iter().filter(|p| *p == pair).count();
            if before + here > PAIR_RATED_LIMIT {
                return Err(Error::conflict(
                    Code::TooManyRatedTogether,
                    format!("you have played {before} rated games together today: play on casual"),
                )
                .with("max", PAIR_RATED_LIMIT));
            }
        }
        for pair in pairs {
            began.entry(pair).or_default().push_back(now);
        }
        Ok(())
    }

    /// The two players in one order, whoever sits where.
    fn pair(a: &PlayerId, b: &PlayerId) -> (PlayerId, PlayerId) {
        if a.0 <= b.0 {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        }
    }
}

/// How long an account is remembered at an address or on a device: two
/// accounts seen at the same place within this window play casual.
pub const SAME_PLACE_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// Places remembered per account (the newest).
const PLACES_PER_ACCOUNT: usize = 16;
/// Accounts remembered at once: past it, those not seen within the window
/// are forgotten first.
const ACCOUNTS_KEPT: usize = 200_000;
/// Flagged pairs kept for the moderators (the newest).
const FLAGS_KEPT: usize = 1_000;

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

/// Two accounts seen at one place whose rated game was played casual.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FlaggedPair {
    /// The two players (South's, North's), by name as seated.
    pub names: [String; 2],
    /// Their player ids, for the service (never shown).
    #[serde(skip)]
    pub players: [PlayerId; 2],
    /// When (milliseconds since 1970).
    pub at_ms: i64,
    /// Whether they shared an address, a device, or both.
    pub address: bool,
    /// See [`FlaggedPair::address`].
    pub device: bool,
}

/// Where each account was seen lately (in memory: a restart forgets), and
/// the pairs flagged for it.
#[derive(Default)]
pub struct Sightings {
    seen: Mutex<HashMap<PlayerId, Vec<(Place, i64)>>>,
    flagged: Mutex<VecDeque<FlaggedPair>>,
}

impl Sightings {
    /// `account` was seen at `address` on `device` at `now` (the guard
    /// tells each request of a logged-in browser). 127.0.0.1 and ::1 are
    /// no place (see below).
    pub fn note(
        &self,
        account: &PlayerId,
        address: Option<std::net::IpAddr>,
        device: Option<&PlayerId>,
        now: i64,
    ) {
        // The machine's own address is everyone's on a server that is not
        // told its clients' (no `--trust-proxy` behind a proxy, tests'
        // browsers): it tells no two players apart, so it is not a place.
        let own = |ip: &std::net::IpAddr| {
            *ip == std::net::IpAddr::from([127, 0, 0, 1])
                || *ip == std::net::IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
        };
        let places = address
            .filter(|ip| !own(ip))
            .map(Place::Address)
            .into_iter()
            .chain(device.filter(|d| *d != account).cloned().map(Place::Device));
        let mut seen = crate::lock(&self.seen);
        if seen.len() >= ACCOUNTS_KEPT && !seen.contains_key(account) {
            seen.retain(|_, p| p.iter().any(|(_, t)| *t > now - SAME_PLACE_WINDOW_MS));
            if seen.len() >= ACCOUNTS_KEPT {
                return;
            }
        }
        let mine = seen.entry(account.clone()).or_default();
        for place in places {
            match mine.iter_mut().find(|(p, _)| *p == place) {
                Some((_, t)) => *t = now,
                None => mine.push((place, now)),
            }
        }
        mine.retain(|(_, t)| *t > now - SAME_PLACE_WINDOW_MS);
        if mine.len() > PLACES_PER_ACCOUNT {
            mine.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
            mine.truncate(PLACES_PER_ACCOUNT);
        }
    }

    /// Whether `a` and `b` were seen at one address, and on one device,
    /// within the window before `now`.
    pub fn shared(&self, a: &PlayerId, b: &PlayerId, now: i64) -> (bool, bool) {
        let seen = crate::lock(&self.seen);
        let recent = |p: &PlayerId| -> Vec<Place> {
            seen.get(p)
                .into_iter()
                .flatten()
                .filter(|(_, t)| *t > now - SAME_PLACE_WINDOW_MS)
                .map(|(place, _)| place.clone())
                .collect()
        };
        let (of_a, of_b) = (recent(a), recent(b));
        let common = |device: bool| {
            of_a.iter()
                .filter(|p| matches!(p, Place::Device(_)) == device)
                .any(|p| of_b.contains(p))
        };
        // A device that is the other account's own browser counts too.
        let device = common(true)
            || of_a.contains(&Place::Device(b.clone()))
            || of_b.contains(&Place::Device(a.clone()));
        (common(false), device)
    }

    /// Plays casual each rated game of `games` whose two players were seen
    /// at one place, and flags the pair for the moderators.
    pub fn demote(&self, games: &mut [WebGame], now: i64) {
        for game in games.iter_mut().filter(|g| g.rated) {
            let [Some(south), Some(north)] = &game.seats else {
                continue;
            };
            let (address, device) = self.shared(&south.player, &north.player, now);
            if !(address || device) {
                continue;
            }
            let flag = FlaggedPair {
                names: [south.name.clone(), north.name.clone()],
                players: [south.player.clone(), north.player.clone()],
                at_ms: now,
                address,
                device,
            };
            game.rated = false;
            tracing::info!(
                south = %flag.names[0],
                north = %flag.names[1],
                address,
                device,
                "a rated game between accounts seen at one place is played casual"
            );
            let mut flagged = crate::lock(&self.flagged);
            if flagged.len() >= FLAGS_KEPT {
                flagged.pop_front();
            }
            flagged.push_back(flag);
        }
    }

    /// The pairs flagged, newest first.
    pub fn flagged(&self) -> Vec<FlaggedPair> {
        crate::lock(&self.flagged).iter().rev().cloned().collect()
    }
}
