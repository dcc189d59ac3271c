//! The games being played: each is kept in memory while in use, behind its
//! own lock, so changes to one game never wait for another's. A change is
//! made on a copy, stored (durably, group-committed with the others), and
//! only then becomes the game and is sent to its watchers. Clocks are kept
//! here: a flag falls on the server when a side's time runs out, whether
//! or not anyone is connected. So is the computer's turn: once a change
//! leaves a game against the computer with the computer to move, its
//! search starts here (as a flag is armed), and its move is stored and
//! sent like any other, whether or not the page that moved is still there.
//!
//! With a store several processes share (PostgreSQL), each process keeps
//! its own copies: the store writes a change only over the revision it was
//! made from (a race lost to another process is answered as a stale ply),
//! and the changes other processes make are heard ([`Notice`]): where one
//! of this process's clients plays or watches the game, applied to the
//! copy from what the notice carries (no read) and published to them;
//! elsewhere, nothing. The process that made a change holds the game's
//! flag; a flag falls even when that process is gone, once (taken over
//! from the store when overdue; the fence lets one process store it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_core::Side;
use tokio::task::AbortHandle;

use crate::clock::Clock;

mod acts;
mod creation;
mod listing;
mod loading;
mod lobby;

pub use acts::{check_ply, Review};
pub use creation::{rated_needs_account, Invitation, NewGame, Upload, MAX_OPEN_CHALLENGES};
pub use lobby::{featured, featured_among, Featured, LiveGame, Lobby};

use crate::computer::{Computer, Priority, Thinking};
use crate::error::{Error, Kind};
use crate::game::{Mode, PlayerId, WebGame};
use crate::live::Hub;
use crate::lock;
use crate::store::{AccountStore, GameStore, RatingStore, StoreError};
use awale_model::Code;

/// How often the server notes that it is alive (for clocks across a
/// restart).
const HEARTBEAT: Duration = Duration::from_secs(5);
/// A game nobody used for this long leaves memory (it stays stored).
const IDLE_MS: i64 = 10 * 60 * 1000;
/// How often the lobby is sent again when it changed.
const LOBBY_EVERY: Duration = Duration::from_millis(300);

/// How often a process sharing its store looks for flags that should
/// have fallen in games held by a process that is gone.
const FLAGS_OVERDUE_EVERY: Duration = Duration::from_secs(2);
/// How long after its time ran out a flag the holding process did not
/// drop is dropped by another.
const FLAG_TAKEN_OVER_MS: i64 = 2_000;

/// The games' ends kept for a follower that is slow to read them.
const ENDINGS_KEPT: usize = 1024;

struct Entry {
    game: tokio::sync::Mutex<Option<WebGame>>,
    touched_ms: AtomicI64,
    timer: Mutex<Option<AbortHandle>>,
    /// The number of moves of the position the computer is searching, while
    /// it searches.
    search: Mutex<Option<usize>>,
    /// Other processes' changes heard and not yet applied to the copy, by
    /// the revision they made: the plies each kept and what it wrote.
    heard: Mutex<Heard>,
}

/// Changes heard from other processes, by revision (see [`Entry::heard`]).
type Heard = std::collections::BTreeMap<i64, (usize, Option<Arc<awale_store::GameChange>>)>;

/// Who plays the computer's side of the games against it.
struct Player {
    computer: Arc<Computer>,
    /// The longest the computer thinks over one move.
    move_time: Duration,
}

/// How often the computer's search is tried again when the computer is
/// busy with other searches, and for how long.
const BUSY_RETRY: Duration = Duration::from_millis(250);
const BUSY_TRIES: u32 = 240;

/// How long the maker of an open challenge may be gone (a reload, a
/// network change) before the challenge is withdrawn.
pub const CHALLENGE_GRACE: Duration = Duration::from_secs(20);

/// The games in use, the store behind them and their watchers.
pub struct Games {
    store: Arc<dyn GameStore>,
    hub: Arc<Hub>,
    entries: Mutex<HashMap<i64, Arc<Entry>>>,
    /// The public ids asked lately (see [`Games::find`]).
    public_ids: loading::PublicIds,
    /// The other processes' changes heard (see [`Games::heard`]).
    noticed: loading::Noticed,
    lobby_changed: AtomicBool,
    /// How long a waiting game's maker may be away (ms): see
    /// [`Games::set_challenge_grace`].
    pub(crate) challenge_grace_ms: AtomicI64,
    player: Option<Player>,
    /// Where rated games change their players' ratings (none: no game is
    /// rated).
    ratings: Option<Arc<dyn RatingStore>>,
    /// Where the accounts are, to tell bots (a game between two bots is
    /// rated in the bots' pool of its speed); none: every game is rated in
    /// people's pools.
    bots: Option<Arc<dyn AccountStore>>,
    /// The players found lately to be no bot, and when (see
    /// [`Games::check_not_bot`]): a move through the page does not read
    /// the mover's account each time.
    people: Mutex<HashMap<PlayerId, i64>>,
    /// The house bots: players whose online games the computer plays, at
    /// their level (the engine ladder's, `crate::ladder`).
    house: Mutex<HashMap<PlayerId, u8>>,
    /// The time the clocks, flags and offers read.
    clock: Clock,
    /// Every game that ends here, as it ended (see [`Games::endings`]).
    endings: tokio::sync::broadcast::Sender<WebGame>,
    /// The top game of each tournament going on (tournament, game), told
    /// by the tournaments: the featured game is one of them first.
    tournament_tops: Mutex<HashMap<i64, i64>>,
    /// The rated games each pair of players began lately (the ratings'
    /// store keeps them).
    pairs: crate::fairplay::PairLimit,
    /// Where accounts were seen lately: two seen at one place play casual
    /// (the ratings' store keeps them, and the pairs flagged).
    sightings: crate::fairplay::Sightings,
    /// The limits of what callers make (games, offers, renames...).
    limits: crate::limits::Limits,
}

/// What a change did, for the watchers.
enum Change {
    /// One move was added.
    Move,
    /// Anything else.
    State,
}

impl Games {
    /// The games of `store`, watched through `hub`.
    pub fn new(store: Arc<dyn GameStore>, hub: Arc<Hub>) -> Games {
        Games {
            store,
            hub,
            entries: Mutex::new(HashMap::new()),
            public_ids: loading::PublicIds::default(),
            noticed: loading::Noticed::default(),
            lobby_changed: AtomicBool::new(true),
            challenge_grace_ms: AtomicI64::new(CHALLENGE_GRACE.as_millis() as i64),
            player: None,
            ratings: None,
            bots: None,
            people: Mutex::new(HashMap::new()),
            house: Mutex::new(HashMap::new()),
            clock: Clock::system(),
            endings: tokio::sync::broadcast::channel(ENDINGS_KEPT).0,
            tournament_tops: Mutex::new(HashMap::new()),
            pairs: crate::fairplay::PairLimit::default(),
            sightings: crate::fairplay::Sightings::default(),
            limits: crate::limits::Limits::default(),
        }
    }

    /// The same games, limiting what callers make at `rates`.
    pub fn with_limits(mut self, rates: crate::limits::Rates) -> Games {
        self.limits = crate::limits::Limits::new(rates);
        self
    }

    /// The limits of what callers make: every operation that makes
    /// something takes its tokens here.
    pub fn limits(&self) -> &crate::limits::Limits {
        &self.limits
    }

    /// The same games, reading the time from `clock` (a test's, which it
    /// moves forward to make a flag fall without waiting).
    pub fn with_clock(mut self, clock: Clock) -> Games {
        self.clock = clock;
        self
    }

    /// Milliseconds since 1970 on the games' clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The clock the games read (timers wait on it).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The games that end from now on (by the rules, on time, abandoned,
    /// aborted, resigned), each once as it ended, for whoever follows
    /// them (the tournaments). A receiver that falls behind hears
    /// `Lagged` and reads the games it follows again.
    pub fn endings(&self) -> tokio::sync::broadcast::Receiver<WebGame> {
        self.endings.subscribe()
    }

    /// The same games, where `computer` plays the computer's moves of the
    /// games against it, thinking at most `move_time` over one (less when
    /// its clock runs low).
    pub fn with_computer(mut self, computer: Arc<Computer>, move_time: Duration) -> Games {
        self.player = Some(Player {
            computer,
            move_time,
        });
        self
    }

    /// The same games, where a rated game that ends changes its players'
    /// ratings in `ratings`, which keeps what fair play sees too (where
    /// accounts were seen, the pairs flagged, the rated games of each
    /// pair: `crate::fairplay`), so every process sharing it knows.
    pub fn with_ratings<S>(mut self, ratings: Arc<S>) -> Games
    where
        S: RatingStore + awale_store::FairPlayStore + 'static,
    {
        self.pairs = crate::fairplay::PairLimit::new(ratings.clone());
        self.sightings = crate::fairplay::Sightings::new(ratings.clone());
        let ratings: Arc<dyn RatingStore> = ratings;
        self.ratings = Some(ratings);
        self
    }

    /// The same games, where a rated game between two accounts of
    /// `accounts` that are bots is rated in the bots' pool of its speed
    /// (`rating::Pool`), never in people's.
    pub fn with_bots(mut self, accounts: Arc<dyn AccountStore>) -> Games {
        self.bots = Some(accounts);
        self
    }

    /// From now on the computer plays `player`'s online games at `level`
    /// (a house bot of the engine ladder).
    pub fn set_house_bot(&self, player: PlayerId, level: u8) {
        lock(&self.house).insert(player, level);
    }

    /// The level the computer plays the side to move of `game` at, if it
    /// does: against the computer, its side; online, a house bot's seat.
    fn computer_level_to_move(&self, game: &WebGame) -> Option<u8> {
        match game.mode {
            Mode::Computer { level, .. } => game.computer_to_move().then_some(level),
            Mode::Online if game.end().is_none() && !game.waiting() => {
                let seat = game.seats[game.game.position().to_move().index()].as_ref()?;
                lock(&self.house).get(&seat.player).copied()
            }
            _ => None,
        }
    }

    /// Whether both `players` are bots' accounts.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn both_bots(&self, players: &[crate::game::PlayerId; 2]) -> Result<bool, Error> {
        let Some(accounts) = &self.bots else {
            return Ok(false);
        };
        for p in players {
            if !accounts.account_of(p.clone()).await?.is_some_and(|a| a.bot) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Where accounts were seen lately (the guard tells it), and the pairs
    /// flagged for playing each other from one place.
    pub fn sightings(&self) -> &crate::fairplay::Sightings {
        &self.sightings
    }

    /// The ratings' store, if games may be rated.
    pub fn ratings(&self) -> Option<&Arc<dyn RatingStore>> {
        self.ratings.as_ref()
    }

    /// Rates `game` if it has just ended rated and is not rated yet: both
    /// ratings change, and the game carries the changes for its views. A
    /// failure is logged; the game is rated again at the next start.
    async fn rate(&self, game: &mut WebGame) {
        let (Some(ratings), Some(end)) = (&self.ratings, game.end()) else {
            return;
        };
        if !game.rates() || game.rating_changes.is_some() {
            return;
        }
        let [Some(south), Some(north)] = &game.seats else {
            return;
        };
        let players = [south.player.clone(), north.player.clone()];
        // Two bots play in the bots' pool: never in people's.
        let pool = match self.both_bots(&players).await {
            Ok(bots) => crate::rating::Pool::of(game.speed(), bots),
            Err(e) => {
                tracing::warn!(game = game.id, error = %e, "a rated game's pool is not known");
                return;
            }
        };
        match ratings
            .rate_game_in(game.id, players, pool, end.winner, self.now_ms())
            .await
        {
            Ok(changes) => game.rating_changes = Some(changes),
            Err(e) => tracing::warn!(game = game.id, error = %e, "a rated game was not rated"),
        }
    }

    /// The store (the service's own: no door out of it).
    pub(crate) fn store(&self) -> &dyn GameStore {
        &*self.store
    }

    /// The watchers' hub.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Starts the clocks' keeper: gives back to running clocks the time the
    /// server was down, arms their flags, and notes every few seconds that
    /// the server is alive; and the housekeeping (idle games leave memory,
    /// the lobby is sent when it changed). Needs a Tokio runtime.
    ///
    /// # Errors
    ///
    /// When the store cannot be read or written.
    pub fn start(self: &Arc<Self>) -> Result<(), Error> {
        let now = self.now_ms();
        let down = self.store.resume_clocks_blocking(now)?;
        if down > 0 {
            tracing::info!(
                seconds = down / 1000,
                "clocks resumed: the server was down, nobody's time ran meanwhile"
            );
        }
        if let Some(notices) = self.store.notices() {
            crate::notices::listen(notices, Arc::downgrade(self), |games, notice| async move {
                games.heard(notice);
            });
        }
        if let Some(ratings) = &self.ratings {
            for id in ratings.unrated_games_blocking()? {
                let me = Arc::clone(self);
                tokio::spawn(async move {
                    // Loading rates a game that ended before its rating.
                    if let Err(e) = me.load(id).await {
                        tracing::warn!(game = id, error = %e, "an unrated game could not be loaded");
                    }
                });
            }
        }
        let shared = self.store.notices().is_some();
        // With a store several processes share and the site up, the games
        // going on are held by the processes serving them: their flags are
        // theirs (taken over below once overdue, when such a process is
        // gone). Alone, or on the games file, every flag is armed here.
        let timed = if !shared || down > 0 {
            self.store.timed_games_blocking()?
        } else {
            Vec::new()
        };
        for id in timed {
            let me = Arc::clone(self);
            tokio::spawn(async move {
                // Loading arms the game's flag.
                if let Err(e) = me.load(id).await {
                    tracing::warn!(game = id, error = %e, "a timed game could not be loaded");
                }
            });
        }
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(HEARTBEAT);
            let mut lobby = tokio::time::interval(LOBBY_EVERY);
            let mut sweep = tokio::time::interval(Duration::from_secs(60));
            let mut overdue = tokio::time::interval(FLAGS_OVERDUE_EVERY);
            loop {
                tokio::select! {
                    _ = overdue.tick(), if shared => {
                        let Some(games) = me.upgrade() else { return };
                        games.take_over_flags().await;
                    }
                    _ = beat.tick() => {
                        let Some(games) = me.upgrade() else { return };
                        if let Err(e) = games.store.alive(games.now_ms()).await {
                            tracing::warn!(error = %e, "heartbeat not stored");
                        }
                    }
                    _ = lobby.tick() => {
                        let Some(games) = me.upgrade() else { return };
                        games.send_lobby().await;
                    }
                    _ = sweep.tick() => {
                        let Some(games) = me.upgrade() else { return };
                        games.sweep(games.now_ms());
                    }
                }
            }
        });
        Ok(())
    }

    fn entry(&self, id: i64) -> Arc<Entry> {
        let mut entries = lock(&self.entries);
        Arc::clone(entries.entry(id).or_insert_with(|| {
            Arc::new(Entry {
                game: tokio::sync::Mutex::new(None),
                touched_ms: AtomicI64::new(self.now_ms()),
                timer: Mutex::new(None),
                search: Mutex::new(None),
                heard: Mutex::new(Heard::new()),
            })
        }))
    }

    /// Makes `game`, read from the store, the copy held in `slot` (of
    /// `entry`): its flag armed here.
    async fn hold(self: &Arc<Self>, entry: &Entry, slot: &mut Option<WebGame>, mut game: WebGame) {
        game.version = self.hub.version(game.id);
        self.rate(&mut game).await;
        self.arm_flag(entry, &game);
        *slot = Some(game);
    }

    /// Removes from memory the games nobody used lately, watches or times.
    fn sweep(&self, now: i64) {
        let mut entries = lock(&self.entries);
        let before = entries.len();
        entries.retain(|id, e| {
            let kept = now - e.touched_ms.load(Ordering::Relaxed) < IDLE_MS
                || self.hub.has_listeners(*id)
                || lock(&e.timer).is_some()
                || lock(&e.search).is_some()
                || Arc::strong_count(e) > 1;
            if !kept {
                // Its events' numbers go with it: a listener that comes
                // back later gets the whole game.
                self.hub.forget(*id);
            }
            kept
        });
        let gone = before - entries.len();
        lock(&self.public_ids.known).retain(|_, id| entries.contains_key(id));
        if gone > 0 {
            tracing::debug!(games = gone, "idle games left memory");
        }
    }

    /// Applies `change` to game `id` (after its flag falls, if its time ran
    /// out), stores the result and tells the watchers, all under the game's
    /// lock. An error leaves the game as it was. Returns the game after the
    /// change and what `change` returned.
    ///
    /// # Errors
    ///
    /// `no_such_game`, `game_over` when the flag fell, `change`'s error, or
    /// a storage failure (the game is then unchanged).
    /// With a store several processes share, `change` may be made twice:
    /// again on the stored game when the copy held here turns out older
    /// (its first result is then dropped).
    pub(crate) async fn change<T>(
        self: &Arc<Self>,
        id: i64,
        mut change: impl FnMut(&mut WebGame) -> Result<T, Error>,
    ) -> Result<(WebGame, T), Error> {
        self.apply(id, false, |g| change(g).map(|t| (t, true)))
            .await
    }

    /// Plays `mv` in game `id` for a request that saw `ply` moves, after
    /// `check` (who may play). The same move sent again for the same ply
    /// (a double click, a resent request) is played once: the second time
    /// the answer is the game as it is.
    ///
    /// # Errors
    ///
    /// `stale` when the game has moved on otherwise; `check`'s error; the
    /// move's (`not_your_turn`, `illegal_move`, `game_over`).
    pub(crate) async fn apply_move(
        self: &Arc<Self>,
        id: i64,
        ply: Option<usize>,
        mv: awale_core::Move,
        check: impl Fn(&WebGame) -> Result<(), Error>,
    ) -> Result<(WebGame, ()), Error> {
        self.apply(id, false, |game| {
            let plies = game.game.plies();
            match ply {
                Some(p) if p < plies.len() && plies[p].mv == mv => return Ok(((), false)),
                _ => acts::check_ply(game, ply)?,
            }
            check(game)?;
            game.play(mv, self.now_ms())?;
            Ok(((), true))
        })
        .await
    }

    /// Gives `from`'s seats in the games in memory to `to`, named `name`
    /// (a guest who signed up, a deleted account): the store has changed
    /// the stored games already; these are stored again with their new
    /// seats and their watchers see them.
    pub async fn reseat(self: &Arc<Self>, from: &PlayerId, to: &PlayerId, name: &str) {
        let ids: Vec<i64> = lock(&self.entries).keys().copied().collect();
        for id in ids {
            // A flag that falls on the way is stored first (with the seats
            // in memory): the second try gives the seats.
            for _ in 0..2 {
                let result = self
                    .apply(id, true, |game| {
                        let mut changed = false;
                        for seat in game.seats.iter_mut().flatten() {
                            if seat.player == *from {
                                seat.player = to.clone();
                                seat.name = name.to_string();
                                changed = true;
                            }
                        }
                        Ok(((), changed))
                    })
                    .await;
                match result {
                    Err(e) if e.code == Code::GameOver => continue,
                    Err(e) if e.code == Code::NoSuchGame => break,
                    Err(e) => {
                        tracing::warn!(game = id, error = %e, "seats not moved");
                        break;
                    }
                    Ok(_) => break,
                }
            }
        }
    }

    /// [`Games::change`], where `change` also says whether it changed
    /// anything (nothing is stored or sent otherwise). With a store several
    /// processes share, a copy held here may be older than the stored game
    /// (another process changed it, its notice not heard yet): a read
    /// (`fresh`) checks the stored revision first; a change does not (the
    /// store writes it only over the revision it was made from), and is
    /// made again on the stored game when its write was refused as stale
    /// or when it was refused while the copy had not been checked.
    async fn apply<T>(
        self: &Arc<Self>,
        id: i64,
        fresh: bool,
        change: impl FnMut(&mut WebGame) -> Result<(T, bool), Error>,
    ) -> Result<(WebGame, T), Error> {
        self.apply_with(id, fresh, None, change).await
    }

    /// [`Games::apply`], where a change that leaves the moves as they are
    /// (a seat taken) is stored with `nickname` (a guest's name) in its
    /// transaction ([`GameStore::save_seats`]).
    async fn apply_with<T>(
        self: &Arc<Self>,
        id: i64,
        fresh: bool,
        nickname: Option<awale_store::Nickname>,
        mut change: impl FnMut(&mut WebGame) -> Result<(T, bool), Error>,
    ) -> Result<(WebGame, T), Error> {
        if id <= 0 {
            return Err(Error::no_game(id));
        }
        let entry = self.entry(id);
        entry.touched_ms.store(self.now_ms(), Ordering::Relaxed);
        let mut slot = entry.game.lock().await;
        // Whether the copy is known to be the stored game.
        let mut checked = self.store.notices().is_none();
        if slot.is_none() {
            match self.store.load(id).await? {
                Some(game) => {
                    self.hold(&entry, &mut slot, game).await;
                    checked = true;
                }
                None => {
                    drop(slot);
                    lock(&self.entries).remove(&id);
                    return Err(Error::no_game(id));
                }
            }
        }
        if fresh && !checked {
            self.check_revision(id, &entry, &mut slot).await?;
            checked = true;
        }
        loop {
            let current = slot.as_ref().ok_or_else(|| Error::no_game(id))?;
            let mut game = current.clone();
            self.note_presence(&mut game);
            let ended_before = game.end().is_some();
            let plies_before = game.game.plies().len();
            let flag_fell = game.check_flag(self.now_ms());
            let outcome = if flag_fell {
                Err(Error::game_over("time"))
            } else {
                change(&mut game)
            };
            let changed = match &outcome {
                Ok((_, changed)) => *changed,
                Err(_) => flag_fell,
            };
            if changed && game.rated && game.end().is_some() && !game.real_start() {
                // Rated means earned: a game that ends before both sides made
                // a real start is played casual (stored so: nothing to rate
                // at the next start either).
                game.rated = false;
            }
            if !changed && outcome.is_err() && !checked {
                // Refused: perhaps only because the copy is old.
                checked = true;
                if self.check_revision(id, &entry, &mut slot).await? {
                    continue;
                }
            }
            if changed {
                let kept = game.game.plies().len().min(plies_before);
                let seats_only = !flag_fell && game.game.plies().len() == plies_before;
                let saved = match nickname.clone().filter(|_| seats_only) {
                    Some(nickname) => self.store.save_seats(game.clone(), Some(nickname)).await,
                    None => self.store.save(game.clone(), kept).await,
                };
                match saved {
                    Ok(()) => game.revision += 1,
                    Err(StoreError::Stale { stored, .. }) if !checked => {
                        // The copy was old: the change is made again on
                        // the stored game (the notices heard applied, or
                        // the game read).
                        checked = true;
                        self.catch_up(id, &entry, &mut slot, Some(stored)).await?;
                        continue;
                    }
                    Err(e @ StoreError::Stale { .. }) => {
                        // Another process changed the game: this copy is old.
                        // Read again, it is sent to this process's watchers.
                        *slot = None;
                        drop(slot);
                        let me = Arc::clone(self);
                        tokio::spawn(async move { me.refresh(id, None).await });
                        return Err(e.into());
                    }
                    Err(e) => return Err(e.into()),
                }
                self.rate(&mut game).await;
                let kind = if game.game.plies().len() == plies_before + 1 && kept == plies_before {
                    Change::Move
                } else {
                    Change::State
                };
                self.arm_flag(&entry, &game);
                self.publish(&mut game, kind);
                if !ended_before && game.end().is_some() {
                    // An error only means that nobody follows the ends now.
                    let _ = self.endings.send(game.clone());
                }
                if game.mode == Mode::Online {
                    self.lobby_changed.store(true, Ordering::Relaxed);
                }
                *slot = Some(game.clone());
            }
            if let Some(stored) = slot.as_ref() {
                self.arm_computer(&entry, stored);
            }
            drop(slot);
            // A flag that fell on a request's way is news to everyone but
            // the request: its answer is the game as it now is.
            return outcome.map(|(t, _)| (game, t));
        }
    }

    /// Notes on `game` since when each seated player has been away, as the
    /// watchers say (since the turn began when nobody has watched the game
    /// since the server started), for its views and claims.
    fn note_presence(&self, game: &mut WebGame) {
        game.gone_since =
            Side::BOTH.map(|side| self.hub.gone_since(game.id, side, game.turn_started_ms));
    }

    /// Tells game `game`'s watchers what changed, under the event's
    /// version, which becomes the game's.
    fn publish(&self, game: &mut WebGame, kind: Change) {
        self.note_presence(game);
        let now = self.now_ms();
        let id = game.id;
        let version = match kind {
            Change::Move => self.hub.publish_versioned(id, "move", |v| {
                game.version = v;
                let event = game.move_event(now)?;
                serde_json::to_string(&event).ok()
            }),
            Change::State => self.hub.publish_versioned(id, "state", |v| {
                game.version = v;
                serde_json::to_string(&game.view(now, None)).ok()
            }),
        };
        game.version = version;
    }

    /// Sets (or clears) the timer that drops the flag of the side to move
    /// when its time runs out.
    fn arm_flag(self: &Arc<Self>, entry: &Entry, game: &WebGame) {
        let mut timer = lock(&entry.timer);
        if let Some(old) = timer.take() {
            old.abort();
        }
        let Some(deadline) = game.flag_deadline() else {
            return;
        };
        let id = game.id;
        let me = Arc::downgrade(self);
        let clock = self.clock.clone();
        let task = tokio::spawn(async move {
            clock.sleep_until(deadline).await;
            let Some(games) = me.upgrade() else { return };
            // Loading drops the flag if the time is out (and arms the
            // timer again when a move came meanwhile).
            if let Some(entry) = lock(&games.entries).get(&id) {
                lock(&entry.timer).take();
            }
            match games.load(id).await {
                // The flag fell: the load ended the game, as it should.
                Err(e) if e.code == Code::GameOver => {}
                Err(e) => tracing::warn!(game = id, error = %e, "clock check failed"),
                Ok(_) => {}
            }
        });
        *timer = Some(task.abort_handle());
    }

    /// Starts the computer's search when `game` (as stored) is against the
    /// computer with the computer to move and no search of this position
    /// runs yet. Its move is stored and sent as any other.
    fn arm_computer(self: &Arc<Self>, entry: &Entry, game: &WebGame) {
        let Some(player) = &self.player else {
            return;
        };
        let Some(level) = self.computer_level_to_move(game) else {
            return;
        };
        let plies = game.game.plies().len();
        {
            let mut search = lock(&entry.search);
            if *search == Some(plies) {
                return;
            }
            *search = Some(plies);
        }
        let me = Arc::clone(self);
        let computer = Arc::clone(&player.computer);
        let budget = player.move_time;
        let game = game.clone();
        tokio::spawn(async move {
            let id = game.id;
            let result = me.computer_moves(&computer, game, level, budget).await;
            if let Some(entry) = lock(&me.entries).get(&id) {
                let mut search = lock(&entry.search);
                if *search == Some(plies) {
                    *search = None;
                }
            }
            match result {
                Ok(()) => {}
                // The game changed during the search (a resignation, a
                // takeback): its move is not needed.
                Err(e) if e.code == Code::Stale || e.code == Code::GameOver => {
                    tracing::debug!(game = id, error = %e, "the computer's move was not needed");
                }
                Err(e) => tracing::warn!(game = id, error = %e, "the computer did not move"),
            }
        });
    }

    /// Searches the computer's move in `game` at `level` and plays it, if
    /// the game has not changed meanwhile. The time for the move is the
    /// engine's share of the computer's clock, at most `budget`. A busy
    /// computer is asked again a little later.
    async fn computer_moves(
        self: &Arc<Self>,
        computer: &Arc<Computer>,
        game: WebGame,
        level: u8,
        budget: Duration,
    ) -> Result<(), Error> {
        let id = game.id;
        let public_id = game.public_id.clone();
        let plies = game.game.plies().len();
        let seed = game.seed ^ (plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let clock = match (game.clock, game.time_left(self.now_ms())) {
            (Some(clock), Some(left)) => Some(awale_engine::Clock {
                remaining: Duration::from_millis(
                    left[game.game.position().to_move().index()].max(0) as u64,
                ),
                increment: Duration::from_millis(clock.increment_ms.max(0) as u64),
                moves_to_go: None,
            }),
            _ => None,
        };
        let mut tries = 0;
        let chosen = loop {
            let hub = Arc::clone(&self.hub);
            let search = game.game.clone();
            let public_id = public_id.clone();
            let asked = computer
                .run(None, Priority::Game, move |computer| {
                    let stop = AtomicBool::new(false);
                    computer.choose_move(
                        &search,
                        level,
                        seed,
                        budget,
                        clock,
                        &stop,
                        &mut |depth, nodes| {
                            hub.publish_now(
                                id,
                                "thinking",
                                Thinking {
                                    game: public_id.clone(),
                                    depth,
                                    nodes,
                                },
                            );
                        },
                    )
                })
                .await;
            match asked {
                Err(e) if e.kind == Kind::Busy && tries < BUSY_TRIES => {
                    tries += 1;
                    tokio::time::sleep(BUSY_RETRY).await;
                }
                other => break other?,
            }
        };
        let mv = chosen.ok_or_else(|| Error::internal("no move found"))?;
        let me = Arc::clone(self);
        self.apply_move(id, Some(plies), mv, move |g| {
            if me.computer_level_to_move(g).is_none() {
                return Err(Error::conflict(
                    Code::Stale,
                    "the game changed during the search",
                ));
            }
            Ok(())
        })
        .await
        .map(|_| ())
    }
}
