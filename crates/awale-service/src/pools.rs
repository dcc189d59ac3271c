//! Quick pairing: pools by clock (1+0 ... 15+10) where a player seeks with
//! one tap and is paired with the waiting player of the nearest rating,
//! within a range that widens as the wait grows; colours balanced over
//! each player's recent games; accounts with accounts (rated), guests
//! with guests (casual); never two players one of whom blocked the other.
//! [`Matchmaker`] is the pairing itself, pure, with the clock given to
//! each call; [`Pools`] runs it for the service: it makes the paired
//! games and tells each seeker.
//!
//! On a store several processes share, the seeks are the store's
//! ([`SeekStore`]): each process writes its own seekers' there and pairs
//! over all of them at each tick, claiming a pairing's two seeks in one
//! transaction before its game is made (of two processes that find the
//! same pair, one makes the game); the news reaches the seeker's process
//! as a notice. A seeker's colours are balanced over the games their own
//! process told them of.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use serde::Serialize;

use crate::error::Error;
use crate::game::{random_seed, Clock, Mode, PlayerId, Seat, WebGame};
use crate::games::Games;
use crate::lock;
use crate::store::seeks::{Paired, Renewed, SeekRow, SeekStore};
use crate::store::Notice;
use awale_model::Code;

/// A pool: a clock, initial time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Pool {
    /// Minutes each side starts with.
    pub minutes: u32,
    /// Seconds added after each move.
    pub increment_s: u32,
}

/// The pools, as lichess's (1+0, 1+1, 3+0, 3+2, 5+3, 10+5, 15+10).
pub const POOLS: [Pool; 7] = [
    Pool::new(1, 0),
    Pool::new(1, 1),
    Pool::new(3, 0),
    Pool::new(3, 2),
    Pool::new(5, 3),
    Pool::new(10, 5),
    Pool::new(15, 10),
];

impl Pool {
    const fn new(minutes: u32, increment_s: u32) -> Pool {
        Pool {
            minutes,
            increment_s,
        }
    }

    /// `3+2`: the pool's name in addresses and the API.
    pub fn name(self) -> String {
        format!("{}+{}", self.minutes, self.increment_s)
    }

    /// The pool named `text` (`3+2`).
    ///
    /// # Errors
    ///
    /// `no_such_pool` naming the text when it is none of [`POOLS`].
    pub fn parse(text: &str) -> Result<Pool, Error> {
        POOLS
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| {
                Error::new(
                    crate::Kind::NotFound,
                    Code::NoSuchPool,
                    format!(
                        "`{}` is not a pool (pools: 1+0, 1+1, 3+0, 3+2, 5+3, 10+5, 15+10)",
                        crate::error::shown(text)
                    ),
                )
                .with("text", text)
            })
    }

    /// The pool's clock, as a game's.
    pub fn clock(self) -> Clock {
        Clock::new(
            i64::from(self.minutes) * 60_000,
            i64::from(self.increment_s) * 1000,
        )
    }

    /// Its speed (for the ratings).
    pub fn speed(self) -> crate::rating::Speed {
        let c = self.clock();
        crate::rating::Speed::of(Some((c.initial_ms, c.increment_ms)))
    }
}

/// The rating difference a seeker accepts right away.
pub const RANGE_START: f64 = 100.0;
/// How much it widens per second of waiting.
pub const RANGE_PER_S: f64 = 50.0;
/// After this long a seeker accepts any rating (the nearest is still
/// chosen first).
pub const RANGE_OPEN_AFTER_MS: i64 = 20_000;
/// How many of a player's recent games the colours are balanced over.
pub const RECENT_GAMES: usize = 10;

/// The rating difference a seeker who has waited `waited_ms` accepts.
pub fn range(waited_ms: i64) -> f64 {
    if waited_ms >= RANGE_OPEN_AFTER_MS {
        f64::INFINITY
    } else {
        RANGE_START + RANGE_PER_S * waited_ms.max(0) as f64 / 1000.0
    }
}

/// One player seeking in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Seeker {
    /// Who seeks.
    pub player: PlayerId,
    /// Their name as the game shows it.
    pub name: String,
    /// True for an account (rated pools), false for a guest (casual, with
    /// guests only).
    pub account: bool,
    /// Their rating in the pool's speed (guests: 1500).
    pub rating: f64,
    /// Their recent games' colours: South counts +1, North -1 (over
    /// [`RECENT_GAMES`]); the one who played South more gets North.
    pub balance: i32,
    /// A range of their own (a custom seek), on top of the widening one:
    /// the lowest and highest opponent's rating accepted.
    pub limits: Option<(f64, f64)>,
}

/// Two seekers paired, with their sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The pool.
    pub pool: Pool,
    /// Who plays South.
    pub south: Seeker,
    /// Who plays North.
    pub north: Seeker,
    /// How long each had waited (South, North), in milliseconds.
    pub waited_ms: [i64; 2],
}

/// Whether two players may not meet (one blocked the other): filled by the
/// accounts part of the service.
pub type Blocked = Arc<dyn Fn(&PlayerId, &PlayerId) -> bool + Send + Sync>;

struct Waiting {
    seeker: Seeker,
    since_ms: i64,
}

/// The pairing, pure: who waits in which pool, and who is paired with
/// whom at a given time.
pub struct Matchmaker {
    waiting: HashMap<Pool, Vec<Waiting>>,
    blocked: Blocked,
}

impl Matchmaker {
    /// An empty matchmaker asking `blocked` about each possible pair.
    pub fn new(blocked: Blocked) -> Matchmaker {
        Matchmaker {
            waiting: HashMap::new(),
            blocked,
        }
    }

    /// Whether `a`, waiting since `a_since`, and `b` may be paired at `now`.
    fn fits(&self, a: &Waiting, b: &Waiting, now: i64) -> bool {
        let (x, y) = (&a.seeker, &b.seeker);
        let difference = (x.rating - y.rating).abs();
        let within = |w: &Waiting, other: &Seeker| {
            difference <= range(now - w.since_ms)
                && w.seeker
                    .limits
                    .is_none_or(|(low, high)| (low..=high).contains(&other.rating))
        };
        x.player != y.player
            && x.account == y.account
            && within(a, y)
            && within(b, x)
            && !(self.blocked)(&x.player, &y.player)
            && !(self.blocked)(&y.player, &x.player)
    }

    /// `seeker` seeks in `pool` at `now`: paired at once with the waiting
    /// player of the nearest rating who fits (the one who waited longest
    /// among equals), or left waiting. A player already seeking (in any
    /// pool) seeks here instead, keeping their wait when it is the same
    /// pool.
    pub fn seek(&mut self, pool: Pool, seeker: Seeker, now: i64) -> Option<Pairing> {
        let since_ms = self
            .waiting
            .get(&pool)
            .and_then(|w| w.iter().find(|w| w.seeker.player == seeker.player))
            .map_or(now, |w| w.since_ms);
        self.cancel(&seeker.player);
        let me = Waiting { seeker, since_ms };
        let best = self
            .waiting
            .get(&pool)
            .and_then(|queue| self.best_partner(queue, &me, now));
        let queue = self.waiting.entry(pool).or_default();
        match best {
            Some(i) => {
                let other = queue.remove(i);
                Some(pair(pool, me, other, now))
            }
            None => {
                queue.push(me);
                None
            }
        }
    }

    fn best_partner(&self, queue: &[Waiting], me: &Waiting, now: i64) -> Option<usize> {
        // Oldest first in the queue: `min_by` keeps the first of equals.
        queue
            .iter()
            .enumerate()
            .filter(|(_, w)| self.fits(me, w, now))
            .min_by(|(_, a), (_, b)| {
                let da = (a.seeker.rating - me.seeker.rating).abs();
                let db = (b.seeker.rating - me.seeker.rating).abs();
                da.total_cmp(&db)
            })
            .map(|(i, _)| i)
    }

    /// The pairings the wait has made possible by `now` (ranges widen):
    /// the longest waiter first, each with their nearest fitting partner.
    pub fn tick(&mut self, now: i64) -> Vec<Pairing> {
        let mut made = Vec::new();
        let pools: Vec<Pool> = self.waiting.keys().copied().collect();
        for pool in pools {
            let mut queue = self.waiting.remove(&pool).unwrap_or_default();
            let mut i = 0;
            while i < queue.len() {
                let me = &queue[i];
                let best = queue
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .filter(|(_, w)| self.fits(me, w, now))
                    .min_by(|(_, a), (_, b)| {
                        let da = (a.seeker.rating - me.seeker.rating).abs();
                        let db = (b.seeker.rating - me.seeker.rating).abs();
                        da.total_cmp(&db)
                    })
                    .map(|(j, _)| j);
                match best {
                    Some(j) => {
                        let other = queue.remove(j);
                        let me = queue.remove(i);
                        made.push(pair(pool, me, other, now));
                    }
                    None => i += 1,
                }
            }
            if !queue.is_empty() {
                self.waiting.insert(pool, queue);
            }
        }
        made
    }

    /// Puts `seeker` back in `pool`, waiting since `since_ms` (a pairing
    /// that could not be made).
    pub fn put_back(&mut self, pool: Pool, seeker: Seeker, since_ms: i64) {
        self.cancel(&seeker.player);
        self.waiting
            .entry(pool)
            .or_default()
            .push(Waiting { seeker, since_ms });
    }

    /// `player` stops seeking (in whichever pool). Whether they were.
    pub fn cancel(&mut self, player: &PlayerId) -> bool {
        let mut found = false;
        for queue in self.waiting.values_mut() {
            let before = queue.len();
            queue.retain(|w| w.seeker.player != *player);
            found |= queue.len() != before;
        }
        self.waiting.retain(|_, q| !q.is_empty());
        found
    }

    /// The pool `player` seeks in, and since when.
    pub fn seeking(&self, player: &PlayerId) -> Option<(Pool, i64)> {
        self.waiting.iter().find_map(|(pool, q)| {
            q.iter()
                .find(|w| w.seeker.player == *player)
                .map(|w| (*pool, w.since_ms))
        })
    }

    /// How many seek in each pool.
    pub fn counts(&self) -> Vec<(Pool, usize)> {
        POOLS
            .into_iter()
            .map(|p| (p, self.waiting.get(&p).map_or(0, Vec::len)))
            .collect()
    }
}

/// `a` (the newer seeker or the longer waiter) and `b` paired: the one
/// who played South more lately gets North; on equal balance, a coin.
fn pair(pool: Pool, a: Waiting, b: Waiting, now: i64) -> Pairing {
    let a_south = match a.seeker.balance.cmp(&b.seeker.balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => random_seed() & 1 == 0,
    };
    let (south, north) = if a_south { (a, b) } else { (b, a) };
    Pairing {
        pool,
        waited_ms: [now - south.since_ms, now - north.since_ms],
        south: south.seeker,
        north: north.seeker,
    }
}

/// How long a pair found blocking each other is not proposed again before
/// the accounts are asked again (so an unblock is heard within it).
pub const AVOID_RECHECK_MS: i64 = 30_000;

/// How long a seek lasts without its seeker coming back for news (a
/// closed page stops seeking).
pub const SEEK_EXPIRES_MS: i64 = 30_000;
/// How often the waiting seekers are paired again as their ranges widen
/// (ms).
const TICK_MS: i64 = 500;

/// What a seeker learns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeekNews {
    /// Still waiting, since this long (ms).
    Waiting {
        /// The pool.
        pool: String,
        /// How long they have waited.
        waited_ms: i64,
    },
    /// Paired: the game to go to, and one's side.
    Paired {
        /// The new game's public id.
        game: String,
        /// `S` or `N`.
        side: char,
        /// Whether it is rated.
        rated: bool,
    },
}

struct Seeking {
    last_seen_ms: i64,
    news: tokio::sync::watch::Sender<Option<SeekNews>>,
    /// The seek's number in the shared store (0: none).
    seek: i64,
}

/// The pools as the service runs them: seeks, the games made for each
/// pairing, and the news each seeker waits for.
pub struct Pools {
    games: Arc<Games>,
    /// Asked whether two accounts block each other before their game is
    /// made (none: nobody blocks).
    accounts: Option<Arc<dyn crate::store::AccountStore>>,
    /// Pairs found blocking each other, and when: not proposed again
    /// until [`AVOID_RECHECK_MS`] later, when the accounts are asked
    /// again (an unblock is heard).
    avoid: Arc<Mutex<HashMap<(PlayerId, PlayerId), i64>>>,
    /// Players whose paired game was aborted because they did not make
    /// their first move: their seeks are dropped at the next tick.
    no_shows: Arc<Mutex<Vec<PlayerId>>>,
    matchmaker: Mutex<Matchmaker>,
    /// Who may not meet, for the matchmaker of each shared round.
    blocked: Blocked,
    /// The seeks the processes of the site share (None: this process's
    /// own, in `matchmaker`).
    shared: Option<Arc<dyn SeekStore>>,
    /// With shared seeks: how many sought in each pool at the last round.
    counted: Mutex<Vec<(Pool, usize)>>,
    seekers: Mutex<HashMap<PlayerId, Seeking>>,
    /// Each player's sides in their recent pool games (+1 South, -1 North),
    /// newest last.
    recent: Mutex<HashMap<PlayerId, Vec<i32>>>,
}

impl Pools {
    /// The pools of `games`, never pairing two players `blocked` says may
    /// not meet.
    pub fn new(games: Arc<Games>, blocked: Blocked) -> Arc<Pools> {
        Pools::with_accounts(games, blocked, None)
    }

    /// The same, where `accounts` says which accounts block each other
    /// (asked when a pairing is found; a blocked pair is put back and
    /// never proposed again).
    pub fn with_accounts(
        games: Arc<Games>,
        blocked: Blocked,
        accounts: Option<Arc<dyn crate::store::AccountStore>>,
    ) -> Arc<Pools> {
        let avoid: Arc<Mutex<HashMap<(PlayerId, PlayerId), i64>>> = Arc::default();
        let known = Arc::clone(&avoid);
        let clock = games.clock().clone();
        let blocked: Blocked = Arc::new(move |a: &PlayerId, b: &PlayerId| {
            blocked(a, b)
                || lock(&known)
                    .get(&(a.clone(), b.clone()))
                    .is_some_and(|&found| clock.now_ms() - found < AVOID_RECHECK_MS)
        });
        let shared = games.store().seek_store();
        Arc::new(Pools {
            games,
            accounts,
            avoid,
            no_shows: Arc::default(),
            matchmaker: Mutex::new(Matchmaker::new(Arc::clone(&blocked))),
            blocked,
            shared,
            counted: Mutex::new(POOLS.into_iter().map(|p| (p, 0)).collect()),
            seekers: Mutex::new(HashMap::new()),
            recent: Mutex::new(HashMap::new()),
        })
    }

    /// Starts pairing the waiting seekers as their ranges widen, and
    /// dropping the seeks whose page left. Needs a Tokio runtime.
    pub fn start(self: &Arc<Self>) {
        let me = Arc::downgrade(self);
        let clock = self.games.clock().clone();
        tokio::spawn(async move {
            loop {
                let now = clock.now_ms();
                let Some(pools) = me.upgrade() else { return };
                pools.tick(now).await;
                drop(pools);
                clock.sleep_until(now + TICK_MS).await;
            }
        });
        if let (Some(_), Some(notices)) = (&self.shared, self.games.store().notices()) {
            crate::notices::listen(notices, Arc::downgrade(self), |pools, notice| async move {
                match notice {
                    Notice::Paired { seek } => pools.deliver(seek).await,
                    // Some news may be lost: each seeker's is read.
                    Notice::Resync => {
                        let seeks: Vec<i64> =
                            lock(&pools.seekers).values().map(|s| s.seek).collect();
                        for seek in seeks.into_iter().filter(|&s| s > 0) {
                            pools.deliver(seek).await;
                        }
                    }
                    _ => {}
                }
            });
        }
    }

    /// One tick at `now`: the seeks whose page left dropped, the no-shows'
    /// seeks dropped, the waiting paired as their ranges widen.
    async fn tick(&self, now: i64) {
        self.expire(now);
        let no_shows = std::mem::take(&mut *lock(&self.no_shows));
        for player in no_shows {
            if let Err(e) = self.cancel(&player).await {
                tracing::warn!(error = %e, "a no-show's seek not dropped");
            }
        }
        if let Some(shared) = &self.shared {
            if let Err(e) = self.shared_round(shared.as_ref()).await {
                tracing::warn!(error = %e, "the shared pools were not paired this time");
            }
            return;
        }
        let made = lock(&self.matchmaker).tick(now);
        for pairing in made {
            self.start_game(pairing, None).await;
        }
    }

    /// One round over the seeks every process shares: the pairings the
    /// waits allow, each claimed before its game is made.
    async fn shared_round(&self, shared: &dyn SeekStore) -> Result<(), Error> {
        let now = self.games.now_ms();
        let rows = shared.waiting_seeks(now - SEEK_EXPIRES_MS).await?;
        let mut matchmaker = Matchmaker::new(Arc::clone(&self.blocked));
        let mut seeks = HashMap::new();
        for row in rows {
            let Ok(pool) = Pool::parse(&row.pool) else {
                continue;
            };
            seeks.insert(row.player.clone(), row.id);
            let since = row.since_ms;
            matchmaker.put_back(pool, seeker_of(row), since);
        }
        let pairings = matchmaker.tick(now);
        // Who is left waiting once these are paired.
        *lock(&self.counted) = matchmaker.counts();
        for pairing in pairings {
            let (Some(&south), Some(&north)) = (
                seeks.get(&pairing.south.player),
                seeks.get(&pairing.north.player),
            ) else {
                continue;
            };
            // Another process paired one of them first: theirs.
            if shared.claim_seeks(south, north, now).await? {
                self.start_game(pairing, Some([south, north])).await;
            }
        }
        Ok(())
    }

    /// Tells the seeker of shared seek `seek` its pairing, when they seek
    /// through this process.
    async fn deliver(&self, seek: i64) {
        let Some(shared) = &self.shared else { return };
        let player = lock(&self.seekers)
            .iter()
            .find(|(_, s)| s.seek == seek)
            .map(|(p, _)| p.clone());
        let Some(player) = player else { return };
        match shared.take_paired(seek).await {
            Ok(Some(paired)) => self.tell(&player, &paired),
            Ok(None) => {}
            Err(e) => tracing::warn!(seek, error = %e, "a pairing's news not read"),
        }
    }

    /// Tells `player` they are paired, and notes their side.
    fn tell(&self, player: &PlayerId, paired: &Paired) {
        {
            let mut recent = lock(&self.recent);
            let sides = recent.entry(player.clone()).or_default();
            sides.push(if paired.side == 'S' { 1 } else { -1 });
            if sides.len() > RECENT_GAMES {
                sides.remove(0);
            }
        }
        if let Some(s) = lock(&self.seekers).get(player) {
            s.news.send_replace(Some(SeekNews::Paired {
                game: paired.game.clone(),
                side: paired.side,
                rated: paired.rated,
            }));
        }
    }

    /// Drops the seeks not renewed for [`SEEK_EXPIRES_MS`].
    fn expire(&self, now: i64) {
        let mut seekers = lock(&self.seekers);
        let gone: Vec<PlayerId> = seekers
            .iter()
            .filter(|(_, s)| now - s.last_seen_ms > SEEK_EXPIRES_MS)
            .map(|(p, _)| p.clone())
            .collect();
        let mut matchmaker = lock(&self.matchmaker);
        for player in gone {
            seekers.remove(&player);
            matchmaker.cancel(&player);
        }
    }

    fn balance(&self, player: &PlayerId) -> i32 {
        lock(&self.recent).get(player).map_or(0, |r| r.iter().sum())
    }

    /// `seeker`, at address `client`, seeks in `pool` (or renews their
    /// seek: a seek lasts [`SEEK_EXPIRES_MS`] after the last call), and
    /// waits up to `wait` for a pairing. The news: paired (the game), or
    /// still waiting.
    ///
    /// # Errors
    ///
    /// `too_many` when a new seek is past the limits of games made: each
    /// new seek (not a renewal) counts as a game made for the seeker and
    /// their address ([`crate::limits::Limits::game_offered`]); when the paired game cannot be made (the
    /// store).
    pub async fn seek(
        self: &Arc<Self>,
        pool: Pool,
        mut seeker: Seeker,
        client: Option<std::net::IpAddr>,
        wait: Duration,
    ) -> Result<SeekNews, Error> {
        let now = self.games.now_ms();
        let player = seeker.player.clone();
        seeker.balance = self.balance(&player);
        let renewal = lock(&self.seekers)
            .get(&player)
            .is_some_and(|s| !matches!(*s.news.borrow(), Some(SeekNews::Paired { .. })));
        if !renewal {
            let caller = crate::limits::Caller::new(player.clone(), client);
            self.games.limits().game_offered(&caller, now)?;
        }
        let mut news = {
            let mut seekers = lock(&self.seekers);
            let entry = seekers.entry(player.clone()).or_insert_with(|| Seeking {
                last_seen_ms: now,
                news: tokio::sync::watch::channel(None).0,
                seek: 0,
            });
            entry.last_seen_ms = now;
            // A seek after a pairing is a new seek.
            if matches!(*entry.news.borrow(), Some(SeekNews::Paired { .. })) {
                entry.news = tokio::sync::watch::channel(None).0;
            }
            entry.news.subscribe()
        };
        let mut since = None;
        if let Some(shared) = &self.shared {
            // Paired at the next round of whichever process.
            match shared.renew_seek(row_of(pool, seeker, now), now).await? {
                Renewed::Paired(paired) => {
                    self.tell(&player, &paired);
                }
                Renewed::Seeking(row) => {
                    since = Some(row.since_ms);
                    if let Some(s) = lock(&self.seekers).get_mut(&player) {
                        s.seek = row.id;
                    }
                }
            }
        } else {
            let paired = lock(&self.matchmaker).seek(pool, seeker, now);
            if let Some(pairing) = paired {
                self.start_game(pairing, None).await;
            }
        }
        // Waited on the games' clock: a test moving it on ends the wait.
        let clock = self.games.clock();
        let until = now + i64::try_from(wait.as_millis()).unwrap_or(i64::MAX / 2);
        tokio::select! {
            got = news.wait_for(Option::is_some) => {
                if let Ok(news) = got {
                    if let Some(news) = news.clone() {
                        return Ok(news);
                    }
                }
            }
            () = clock.sleep_until(until) => {}
        }
        let (pool, since) = match since {
            Some(since) => (pool, since),
            None => lock(&self.matchmaker)
                .seeking(&player)
                .unwrap_or((pool, now)),
        };
        Ok(SeekNews::Waiting {
            pool: pool.name(),
            waited_ms: self.games.now_ms() - since,
        })
    }

    /// `player` stops seeking. Whether they were seeking.
    ///
    /// # Errors
    ///
    /// When the shared seeks cannot be written.
    pub async fn cancel(&self, player: &PlayerId) -> Result<bool, Error> {
        lock(&self.seekers).remove(player);
        match &self.shared {
            Some(shared) => Ok(shared.drop_seek(player.clone()).await?),
            None => Ok(lock(&self.matchmaker).cancel(player)),
        }
    }

    /// How many seek in each pool now (shared seeks: at the last round).
    pub fn counts(&self) -> Vec<(Pool, usize)> {
        if self.shared.is_some() {
            return lock(&self.counted).clone();
        }
        lock(&self.matchmaker).counts()
    }

    /// Makes the game of `pairing` and tells both seekers; a game that
    /// cannot be made puts both back to seeking. `claimed`: the shared
    /// seeks (South's, North's) this process claimed for it.
    async fn start_game(&self, pairing: Pairing, claimed: Option<[i64; 2]>) {
        let now = self.games.now_ms();
        if let (Some(accounts), true) = (&self.accounts, pairing.south.account) {
            let (a, b) = (pairing.south.player.clone(), pairing.north.player.clone());
            let blocked = accounts.blocks(a.clone(), b.clone()).await;
            if !matches!(blocked, Ok(false)) {
                // Blocked: never again; the check failed: try again later.
                if matches!(blocked, Ok(true)) {
                    let found = self.games.now_ms();
                    let mut avoid = lock(&self.avoid);
                    avoid.retain(|_, at| found - *at < AVOID_RECHECK_MS);
                    avoid.insert((a.clone(), b.clone()), found);
                    avoid.insert((b, a), found);
                }
                if let (Some(shared), Some(seeks)) = (&self.shared, claimed) {
                    self.release(shared.as_ref(), seeks).await;
                    return;
                }
                let mut matchmaker = lock(&self.matchmaker);
                let [south_waited, north_waited] = pairing.waited_ms;
                matchmaker.put_back(pairing.pool, pairing.south, now - south_waited);
                matchmaker.put_back(pairing.pool, pairing.north, now - north_waited);
                return;
            }
        }
        let mut game = WebGame::new(
            Mode::Online,
            Game::new(Rules::AWALE),
            self.games.now_ms(),
            random_seed(),
        );
        game.clock = Some(pairing.pool.clock());
        game.seats = [
            Some(Seat {
                player: pairing.south.player.clone(),
                name: pairing.south.name.clone(),
            }),
            Some(Seat {
                player: pairing.north.player.clone(),
                name: pairing.north.name.clone(),
            }),
        ];
        // Rated between two accounts, when the server keeps ratings.
        let rated =
            pairing.south.account && pairing.north.account && self.games.ratings().is_some();
        game.rated = rated;
        match self.games.create(vec![game]).await {
            Ok(made) => {
                let id = made
                    .first()
                    .map(|g| g.public_id.clone())
                    .unwrap_or_default();
                for (i, (seeker, side)) in
                    [(&pairing.south, Side::South), (&pairing.north, Side::North)]
                        .into_iter()
                        .enumerate()
                {
                    let paired = Paired {
                        game: id.clone(),
                        side: side.letter(),
                        rated,
                    };
                    match (&self.shared, claimed) {
                        // Told through the store, to whichever process.
                        (Some(shared), Some(seeks)) => {
                            if let Err(e) = shared.tell_paired(seeks[i], paired).await {
                                tracing::warn!(error = %e, "a pairing's news not stored");
                            }
                            self.deliver(seeks[i]).await;
                        }
                        _ => self.tell(&seeker.player, &paired),
                    }
                }
                if let Some(made) = made.first() {
                    self.abort_if_unplayed(made.id);
                }
                tracing::debug!(game = %id, pool = %pairing.pool.name(), "pool pairing");
            }
            Err(e) => {
                tracing::warn!(error = %e, "a pool game could not be made: both seek again");
                if let (Some(shared), Some(seeks)) = (&self.shared, claimed) {
                    self.release(shared.as_ref(), seeks).await;
                    return;
                }
                let mut matchmaker = lock(&self.matchmaker);
                for seeker in [pairing.south, pairing.north] {
                    let _ = matchmaker.seek(pairing.pool, seeker, now);
                }
            }
        }
    }
}

impl Pools {
    /// Aborts pool game `id` when a side's first move does not come
    /// within [`crate::game::ABORT_AFTER_MS`] of its turn (South's from
    /// the pairing, North's from South's first move); the side that did
    /// not move loses its seek. A ghost's pairing ends in half a minute
    /// and leaves the honest player free.
    fn abort_if_unplayed(&self, id: i64) {
        let games = Arc::clone(&self.games);
        let no_shows = Arc::clone(&self.no_shows);
        tokio::spawn(async move {
            loop {
                let Ok(game) = games.load(id).await else {
                    return;
                };
                let begun = game.has_moved(Side::South) && game.has_moved(Side::North);
                if game.end().is_some() || begun {
                    return;
                }
                let deadline = game.turn_started_ms + crate::game::ABORT_AFTER_MS;
                if games.now_ms() < deadline {
                    games.clock().sleep_until(deadline).await;
                    continue;
                }
                let now = games.now_ms();
                match games.change(id, |g| Ok(g.abort_unstarted(now))).await {
                    Ok((game, Some(side))) => {
                        if let Some(seat) = &game.seats[side.index()] {
                            lock(&no_shows).push(seat.player.clone());
                        }
                        tracing::debug!(game = id, "pool game aborted: no first move");
                        return;
                    }
                    // A move came meanwhile: look again.
                    Ok((_, None)) => {}
                    Err(e) => {
                        tracing::debug!(game = id, error = %e, "pool game not aborted");
                        return;
                    }
                }
            }
        });
    }

    /// Gives claimed shared seeks back to the pool.
    async fn release(&self, shared: &dyn SeekStore, seeks: [i64; 2]) {
        if let Err(e) = shared.release_seeks(seeks.to_vec()).await {
            tracing::warn!(error = %e, "claimed seeks not given back: they wait till stale");
        }
    }
}

/// The shared seek of `seeker` in `pool`, seeking from `now`.
fn row_of(pool: Pool, seeker: Seeker, now: i64) -> SeekRow {
    SeekRow {
        id: 0,
        player: seeker.player,
        pool: pool.name(),
        name: seeker.name,
        account: seeker.account,
        rating: seeker.rating,
        balance: seeker.balance,
        limits: seeker.limits,
        since_ms: now,
    }
}

/// The seeker of a shared seek.
fn seeker_of(row: SeekRow) -> Seeker {
    Seeker {
        player: row.player,
        name: row.name,
        account: row.account,
        rating: row.rating,
        balance: row.balance,
        limits: row.limits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> Blocked {
        Arc::new(|_: &PlayerId, _: &PlayerId| false)
    }

    fn seeker(name: &str, rating: f64) -> Seeker {
        Seeker {
            player: PlayerId(name.to_string()),
            name: name.to_string(),
            account: true,
            rating,
            balance: 0,
            limits: None,
        }
    }

    const P32: Pool = Pool::new(3, 2);

    #[test]
    fn pools_are_named_and_read_back() {
        for pool in POOLS {
            assert_eq!(Pool::parse(&pool.name()).unwrap(), pool);
        }
        assert_eq!(Pool::parse("3+1").unwrap_err().code, "no_such_pool");
        assert_eq!(Pool::parse("").unwrap_err().code, "no_such_pool");
        assert_eq!(P32.clock().initial_ms, 180_000);
        assert_eq!(P32.clock().increment_ms, 2_000);
        assert_eq!(P32.speed(), crate::rating::Speed::Blitz);
    }

    #[test]
    fn the_nearest_rating_is_paired_first() {
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("far", 1400.0), 0).is_none());
        assert!(m.seek(P32, seeker("near", 1530.0), 0).is_none());
        let p = m.seek(P32, seeker("me", 1500.0), 0).unwrap();
        let names = [p.south.name.as_str(), p.north.name.as_str()];
        assert!(
            names.contains(&"me") && names.contains(&"near"),
            "{names:?}"
        );
    }

    #[test]
    fn among_equals_the_longest_waiter_is_paired() {
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("first", 1550.0), 0).is_none());
        // Two who accept only 1420 to 1500: neither takes the other, nor
        // "first".
        let picky = |name: &str, rating: f64| Seeker {
            limits: Some((1420.0, 1500.0)),
            ..seeker(name, rating)
        };
        assert!(m.seek(P32, picky("second", 1400.0), 1_000).is_none());
        assert!(m.seek(P32, picky("third", 1500.0), 2_000).is_none());
        // 1450 is 100 from "first" and 50 from the others: the nearest
        // wins, and of the two at 50 the one who came first.
        let p = m.seek(P32, seeker("me", 1450.0), 3_000).unwrap();
        let names = [p.south.name.clone(), p.north.name.clone()];
        assert!(names.contains(&"second".to_string()), "{names:?}");
    }

    #[test]
    fn the_range_widens_with_the_wait() {
        assert_eq!(range(0), RANGE_START);
        assert_eq!(range(4_000), RANGE_START + 4.0 * RANGE_PER_S);
        assert!(range(RANGE_OPEN_AFTER_MS).is_infinite());
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("low", 1300.0), 0).is_none());
        assert!(m.seek(P32, seeker("high", 1700.0), 0).is_none());
        // 400 apart: 100 + 50 per second reaches 400 after 6 s.
        assert!(m.tick(5_000).is_empty());
        let made = m.tick(6_000);
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].waited_ms, [6_000, 6_000]);
        assert!(m.counts().iter().all(|(_, n)| *n == 0));
        // After a while anyone will do.
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("weak", 800.0), 0).is_none());
        assert!(m.seek(P32, seeker("strong", 2600.0), 0).is_none());
        assert!(m.tick(RANGE_OPEN_AFTER_MS - 1).is_empty());
        assert_eq!(m.tick(RANGE_OPEN_AFTER_MS).len(), 1);
    }

    #[test]
    fn a_newcomer_waits_for_their_own_range_too() {
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("old", 1300.0), 0).is_none());
        // "old" would take 1700 after 8 s, but the newcomer's range is 100.
        assert!(m.seek(P32, seeker("new", 1700.0), 8_000).is_none());
        assert_eq!(m.tick(14_000).len(), 1, "both ranges reach 400");
    }

    #[test]
    fn colours_go_to_whoever_played_the_other_side_more() {
        let mut m = Matchmaker::new(never());
        let mut south_lately = seeker("ama", 1500.0);
        south_lately.balance = 3;
        let mut north_lately = seeker("kofi", 1500.0);
        north_lately.balance = -1;
        assert!(m.seek(P32, south_lately, 0).is_none());
        let p = m.seek(P32, north_lately, 0).unwrap();
        assert_eq!(
            (p.south.name.as_str(), p.north.name.as_str()),
            ("kofi", "ama")
        );
    }

    #[test]
    fn guests_pair_with_guests_and_accounts_with_accounts() {
        let mut m = Matchmaker::new(never());
        let mut guest = seeker("guest", 1500.0);
        guest.account = false;
        assert!(m.seek(P32, guest.clone(), 0).is_none());
        assert!(m.seek(P32, seeker("account", 1500.0), 0).is_none());
        assert!(m.tick(60_000).is_empty());
        let mut other = seeker("guest2", 1500.0);
        other.account = false;
        let p = m.seek(P32, other, 60_000).unwrap();
        assert!(!p.south.account && !p.north.account);
    }

    #[test]
    fn blocked_players_are_never_paired() {
        let blocked: Blocked = Arc::new(|a: &PlayerId, b: &PlayerId| a.0 == "ama" && b.0 == "kofi");
        let mut m = Matchmaker::new(blocked);
        assert!(m.seek(P32, seeker("kofi", 1500.0), 0).is_none());
        assert!(
            m.seek(P32, seeker("ama", 1500.0), 0).is_none(),
            "blocked one way"
        );
        assert!(m.tick(60_000).is_empty());
        let p = m.seek(P32, seeker("yaw", 1500.0), 60_000).unwrap();
        assert_eq!(p.waited_ms.iter().max(), Some(&60_000));
    }

    #[test]
    fn cancelling_or_seeking_elsewhere_leaves_the_pool() {
        let mut m = Matchmaker::new(never());
        assert!(m.seek(P32, seeker("ama", 1500.0), 0).is_none());
        assert_eq!(m.seeking(&PlayerId("ama".into())), Some((P32, 0)));
        // Seeking again in the same pool keeps the wait.
        assert!(m.seek(P32, seeker("ama", 1500.0), 5_000).is_none());
        assert_eq!(m.seeking(&PlayerId("ama".into())), Some((P32, 0)));
        let other = Pool::new(5, 3);
        assert!(m.seek(other, seeker("ama", 1500.0), 6_000).is_none());
        assert_eq!(m.seeking(&PlayerId("ama".into())), Some((other, 6_000)));
        assert!(
            m.seek(P32, seeker("kofi", 1500.0), 7_000).is_none(),
            "ama left 3+2"
        );
        assert!(m.cancel(&PlayerId("ama".into())));
        assert!(!m.cancel(&PlayerId("ama".into())));
        assert!(
            m.seek(other, seeker("yaw", 1500.0), 8_000).is_none(),
            "ama left 5+3"
        );
        // One cannot be paired with oneself.
        assert!(m.seek(P32, seeker("kofi", 1500.0), 9_000).is_none());
    }

    #[test]
    fn a_custom_range_is_kept_whatever_the_wait() {
        let mut m = Matchmaker::new(never());
        let mut picky = seeker("picky", 1500.0);
        picky.limits = Some((1600.0, 1800.0));
        assert!(m.seek(P32, picky, 0).is_none());
        assert!(m.seek(P32, seeker("weak", 1450.0), 0).is_none());
        assert!(m.tick(600_000).is_empty());
        let p = m.seek(P32, seeker("strong", 1600.0), 600_000).unwrap();
        assert_eq!(
            p.waited_ms.iter().max(),
            Some(&600_000),
            "paired with picky"
        );
    }
}
