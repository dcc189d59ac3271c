//! Tournaments in use: each arena going on held in memory behind its own
//! lock, its rules those of [`crate::pairing::arena`]; players join,
//! withdraw, pause, come back and berserk; whoever is free is paired at
//! once by starting an online game through the games service; each game's
//! end (by the rules, on time, abandoned, aborted) is recorded as it
//! comes ([`Games::endings`]); when its time is up no new game starts, the
//! games in play finish and count, and it is finished when the last of
//! them ends (as lichess: until then its standings are provisional, its
//! results pending). Every change is stored before it is told, and
//! the watchers of a tournament get its standings when they change. No
//! HTTP, no SQL. A Swiss (rounds, byes, tie-breaks) is held the same way:
//! [`swiss_run`]. Here: the rooms held, making, joining, leaving, ending;
//! the arena's pairings and ends in [`arena_run`], the schedule and each
//! start and end timed in [`schedule`], what watchers see in [`view`].
//! Every time read is the games' clock ([`Games::clock`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use awale_core::{Game, Rules, Side};
use tokio::sync::broadcast;

use crate::clock::Clock as TimeSource;
use crate::error::Error;
use crate::game::{clean_text, random_seed, Clock, Mode, PlayerId, Seat, WebGame};
use crate::games::Games;
use crate::lock;
use crate::pairing::arena::{Arena, ArenaPlayer, Presence, Sheet};
use crate::pairing::swiss::Swiss;
use crate::store::tournaments::{
    EntrantRow, PairingRow, TournamentHold, TournamentRecord, TournamentRow, TournamentStore,
};
use crate::store::AccountStore;
use crate::store::Notice;

mod arena_run;
mod schedule;
mod state;
mod swiss_run;
mod view;
use awale_model::Code;
pub use schedule::{Scheduled, SCHEDULE, SERVER};
pub use state::{TournamentKind, TournamentState};
pub use swiss_run::{SwissGame, SwissLine, SwissSettings, SwissView, MAX_ROUNDS};
use view::send_standings;
pub use view::{StandingLine, TournamentFacts, TournamentItem, TournamentView};

/// How many tournaments one player may make in a day.
pub const MADE_PER_DAY: i64 = 3;
/// The longest an arena lasts (minutes).
pub const MAX_MINUTES: i64 = 24 * 60;
/// The furthest ahead an arena may start (ms): a week.
pub const MAX_AHEAD_MS: i64 = 7 * 24 * 3_600_000;
/// The longest name.
pub const MAX_NAME: usize = 40;
/// The standings' lines sent to watchers (the page shows the top).
pub const STANDINGS_SHOWN: usize = 100;
/// Players whose game in play changed, each with their game now (its
/// public id; none: between games).
pub type GameMoves = Vec<(PlayerId, Option<String>)>;

/// The standings are sent to a tournament's watchers at most once in
/// this time (ms); each player's own game is told at once.
pub const STANDINGS_EVERY_MS: i64 = 500;
/// How long the player to sow first in an arena game may wait before it
/// (ms): then the game is aborted and that player paused.
pub const FIRST_MOVE_MS: i64 = 30_000;

/// Joins, pauses and withdrawals a player may make: 10 at once, then one
/// every 6 s (each is a stored change: issue 38 found 300 in 2.8 s).
pub const COMINGS: crate::limiter::Rate = crate::limiter::Rate {
    burst: 10,
    every_ms: 6_000,
};
/// The tournaments finished lately that the list shows (ms).
const LISTED_AFTER_END_MS: i64 = 24 * 3_600_000;

/// What a new arena is to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaSettings {
    /// Its name.
    pub name: String,
    /// Each side's time and the increment (ms).
    pub clock: (i64, i64),
    /// Rated or casual.
    pub rated: bool,
    /// Its length (minutes).
    pub minutes: i64,
    /// When it starts (ms since 1970); now or later.
    pub starts_ms: i64,
    /// Bots may join (else people only).
    pub bots_allowed: bool,
}

/// A new tournament refused: its `what` is out of bounds.
fn bad_tournament(what: &'static str, message: &str) -> Error {
    Error::invalid(Code::BadTournament, message.to_string()).because(what)
}

/// A player of a held tournament, beside their arena line.
#[derive(Clone, Debug)]
struct Entrant {
    player: PlayerId,
    name: String,
    /// A bot account's (its name marked BOT).
    bot: bool,
    /// Where they asked to be once their game ends (a pause or a
    /// withdrawal asked during a game).
    after_game: Option<Presence>,
}

/// One arena game held: the stored link and the game's public id.
#[derive(Clone, Debug)]
struct Held {
    row: PairingRow,
    public_id: String,
}

/// An arena going on, in memory.
struct Running {
    /// As stored; its `kind` and `state` those below, in words.
    row: TournamentRow,
    kind: TournamentKind,
    state: TournamentState,
    arena: Arena,
    entrants: Vec<Entrant>,
    games: HashMap<i64, Held>,
    /// A Swiss's rounds, once started.
    swiss: Option<Swiss>,
    /// The games' clock (the views' time).
    clock: TimeSource,
}

/// A held tournament to change: its room's lock and, where several
/// processes share the store, the store's hold on it, under which it was
/// read again (another process may have changed it). Dropped once the
/// change is stored.
struct Changing<'a> {
    running: tokio::sync::MutexGuard<'a, Running>,
    _hold: Option<TournamentHold>,
}

impl std::ops::Deref for Changing<'_> {
    type Target = Running;
    fn deref(&self) -> &Running {
        &self.running
    }
}

impl std::ops::DerefMut for Changing<'_> {
    fn deref_mut(&mut self) -> &mut Running {
        &mut self.running
    }
}

struct Room {
    running: tokio::sync::Mutex<Running>,
    /// The standings, sent to the watchers when they change.
    news: broadcast::Sender<Arc<str>>,
    /// Each player's game in play (its public id), as last told: read by
    /// each watcher's stream without waiting for the tournament's lock.
    players: Mutex<HashMap<PlayerId, Option<String>>>,
    /// The players whose game in play changed, with it, as they change
    /// (each watcher's stream tells its viewer at once).
    moves: broadcast::Sender<Arc<GameMoves>>,
    /// When the standings were last sent, and whether a send is due (at
    /// most one every [`STANDINGS_EVERY_MS`]: a big arena's results come
    /// faster than its watchers can read whole standings).
    sent_ms: AtomicI64,
    due: std::sync::atomic::AtomicBool,
    /// When the pairing timer armed for players left waiting fires (ms;
    /// 0: none armed).
    pairing_at: AtomicI64,
}

/// The tournaments in use.
pub struct Tournaments {
    games: Arc<Games>,
    store: Arc<dyn TournamentStore>,
    /// When set, only open accounts create and join, under their username.
    accounts: Option<Arc<dyn AccountStore>>,
    rooms: Mutex<HashMap<i64, Arc<Room>>>,
    /// The tournament of each game in play.
    by_game: Mutex<HashMap<i64, i64>>,
    first_move_ms: AtomicI64,
    me: Weak<Tournaments>,
    /// Joins, pauses and withdrawals per player (each a stored change).
    comings: crate::limiter::Limiter<PlayerId>,
}

fn presence_name(p: Presence) -> &'static str {
    match p {
        Presence::Free => "free",
        Presence::Playing => "playing",
        Presence::Paused => "paused",
        Presence::Withdrawn => "withdrawn",
    }
}

fn presence_of(name: &str) -> Result<Presence, Error> {
    match name {
        "free" => Ok(Presence::Free),
        "playing" => Ok(Presence::Playing),
        "paused" => Ok(Presence::Paused),
        "withdrawn" => Ok(Presence::Withdrawn),
        _ => Err(Error::internal(format!(
            "a tournament player of no known presence: {name:?}"
        ))),
    }
}

/// A player's presence as stored: theirs, and after `:` where they asked
/// to be once their game ends (`playing:paused`), so that whichever
/// process records the end knows it.
fn stored_presence(presence: Presence, after_game: Option<Presence>) -> String {
    match after_game {
        Some(wish) => format!("{}:{}", presence_name(presence), presence_name(wish)),
        None => presence_name(presence).into(),
    }
}

/// [`stored_presence`] read back.
fn presence_read(text: &str) -> Result<(Presence, Option<Presence>), Error> {
    Ok(match text.split_once(':') {
        Some((now, wish)) => (presence_of(now)?, Some(presence_of(wish)?)),
        None => (presence_of(text)?, None),
    })
}

fn no_tournament(id: i64) -> Error {
    Error::new(
        crate::Kind::NotFound,
        Code::NoSuchTournament,
        format!("no tournament {id}"),
    )
}

impl Running {
    fn entrant_row(&self, number: usize) -> EntrantRow {
        let p = &self.arena.players[number];
        let e = &self.entrants[number];
        EntrantRow {
            number: number as i64,
            player: e.player.clone(),
            name: e.name.clone(),
            rating: i64::from(p.rating),
            presence: stored_presence(p.presence, e.after_game),
            score: self
                .swiss_points(number)
                .map_or(i64::from(p.score()), i64::from),
            sheet: serde_json::to_string(&p.sheet).unwrap_or_else(|_| "[]".into()),
            firsts: i64::from(p.firsts),
        }
    }

    /// Moves it on to `state` (stored with the next record).
    fn set(&mut self, state: TournamentState) {
        self.state = state;
        self.row.state = state.as_str().into();
    }

    fn record(&self, entrants: &[usize], games: &[i64]) -> TournamentRecord {
        TournamentRecord {
            tournament: self.row.clone(),
            entrants: entrants.iter().map(|&n| self.entrant_row(n)).collect(),
            games: games
                .iter()
                .filter_map(|id| self.games.get(id).map(|h| h.row))
                .collect(),
            byes: Vec::new(),
        }
    }

    /// A new online game of this tournament between players `first` (who
    /// sows first) and `second`, on its clock.
    fn new_game(&self, first: usize, second: usize) -> WebGame {
        let mut game = WebGame::new(
            Mode::Online,
            Game::new(Rules::AWALE),
            self.clock.now_ms(),
            random_seed(),
        );
        game.clock = Some(Clock::new(self.row.clock.0, self.row.clock.1));
        game.rated = self.row.rated;
        let opener = game.game.position().to_move();
        let mut seats = [None, None];
        for (number, side) in [(first, opener), (second, opener.opponent())] {
            seats[side.index()] = Some(Seat {
                player: self.entrants[number].player.clone(),
                name: self.entrants[number].name.clone(),
            });
        }
        game.seats = seats;
        game
    }

    fn number_of(&self, player: &PlayerId) -> Option<usize> {
        self.entrants.iter().position(|e| e.player == *player)
    }

    fn game_of(&self, number: usize) -> Option<&Held> {
        self.games.values().find(|h| {
            h.row.result.is_none()
                && (h.row.players.0 == number as i64 || h.row.players.1 == number as i64)
        })
    }

    /// Each player's game in play (their number: its public id), read
    /// once for a whole view.
    fn in_play(&self) -> HashMap<usize, &str> {
        let mut playing = HashMap::new();
        for h in self.games.values().filter(|h| h.row.result.is_none()) {
            for n in [h.row.players.0, h.row.players.1] {
                playing.insert(n as usize, h.public_id.as_str());
            }
        }
        playing
    }
}

impl Tournaments {
    /// The tournaments kept in `store`, whose games `games` plays; with
    /// `accounts`, only open accounts create and join them, under their
    /// usernames (without, anyone, under the name they give).
    pub fn new(
        games: Arc<Games>,
        store: Arc<dyn TournamentStore>,
        accounts: Option<Arc<dyn AccountStore>>,
    ) -> Arc<Tournaments> {
        Arc::new_cyclic(|me| Tournaments {
            games,
            store,
            accounts,
            rooms: Mutex::new(HashMap::new()),
            by_game: Mutex::new(HashMap::new()),
            first_move_ms: AtomicI64::new(FIRST_MOVE_MS),
            me: me.clone(),
            comings: crate::limiter::Limiter::new(
                crate::limiter::Limit::TournamentComings,
                COMINGS,
            ),
        })
    }

    /// Sets how long the first to sow in an arena game may wait (tests).
    pub fn set_first_move_ms(&self, ms: i64) {
        self.first_move_ms.store(ms, Ordering::Relaxed);
    }

    /// Takes back the tournaments not finished (a restart keeps them going)
    /// and follows the games' ends. Needs a Tokio runtime.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub fn start(self: &Arc<Self>) -> Result<(), Error> {
        let mut endings = self.games.endings();
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            loop {
                let ended = match endings.recv().await {
                    Ok(game) => {
                        // Every end come meanwhile, recorded together.
                        let mut ended = vec![game];
                        while let Ok(more) = endings.try_recv() {
                            ended.push(more);
                        }
                        Some(ended)
                    }
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                };
                let Some(tournaments) = me.upgrade() else {
                    return;
                };
                match ended {
                    Some(games) => tournaments.games_ended(&games).await,
                    // Some ends were missed: every game in play is read again.
                    None => tournaments.check_games().await,
                }
            }
        });
        // What other processes sharing the store changed.
        if let Some(notices) = self.games.store().notices() {
            crate::notices::listen(
                notices,
                Arc::downgrade(self),
                |tournaments, notice| async move {
                    match notice {
                        Notice::Tournament { id } => tournaments.heard_tournament(id).await,
                        // Some news may be lost: each held one is read again.
                        Notice::Resync => {
                            let held: Vec<i64> = lock(&tournaments.rooms).keys().copied().collect();
                            for id in held {
                                tournaments.heard_tournament(id).await;
                            }
                        }
                        _ => {}
                    }
                },
            );
        }
        for id in self.store.unfinished_tournaments_blocking()? {
            let me = Arc::clone(self);
            tokio::spawn(async move {
                match me.room(id).await {
                    Ok(_) => {
                        me.check_games().await;
                        if let Err(e) = me.resume_swiss(id).await {
                            tracing::warn!(tournament = id, error = %e, "a Swiss not resumed");
                        }
                    }
                    Err(e) => {
                        tracing::warn!(tournament = id, error = %e, "a tournament not taken back")
                    }
                }
            });
        }
        Ok(())
    }

    /// Tournament `id` held in memory, read from the store if it is not.
    async fn room(&self, id: i64) -> Result<Arc<Room>, Error> {
        if let Some(room) = lock(&self.rooms).get(&id) {
            return Ok(Arc::clone(room));
        }
        let record = self
            .store
            .load_tournament(id)
            .await?
            .ok_or_else(|| no_tournament(id))?;
        let running = self.running_from(record, None).await?;
        let schedule = (running.state != TournamentState::Finished
            && running.kind == TournamentKind::Arena)
            .then_some((running.row.starts_ms, running.row.ends_ms));
        let room = Arc::new(Room {
            running: tokio::sync::Mutex::new(running),
            news: broadcast::channel(16).0,
            players: Mutex::new(HashMap::new()),
            moves: broadcast::channel(256).0,
            sent_ms: AtomicI64::new(0),
            due: std::sync::atomic::AtomicBool::new(false),
            pairing_at: AtomicI64::new(0),
        });
        let (room, new) = {
            let mut rooms = lock(&self.rooms);
            let new = !rooms.contains_key(&id);
            (Arc::clone(rooms.entry(id).or_insert(room)), new)
        };
        // A Swiss starts when its organiser says, and ends with its rounds.
        if let (true, Some((starts, ends))) = (new, schedule) {
            self.arm_schedule(id, starts, ends);
        }
        Ok(room)
    }

    /// The tournament stored in `record`, to hold; `known`, the same as
    /// held before (its games' public ids are not read again, nor their
    /// first-move timers armed again).
    async fn running_from(
        &self,
        record: TournamentRecord,
        known: Option<&Running>,
    ) -> Result<Running, Error> {
        let id = record.tournament.id;
        let mut arena = Arena::default();
        let mut entrants = Vec::new();
        // Who has waited longest is this process's memory, not the store's.
        let waited = |n: usize| known.and_then(|k| k.arena.players.get(n));
        arena.freed = known.map_or(0, |k| k.arena.freed);
        for e in &record.entrants {
            let sheet: Vec<Sheet> = serde_json::from_str(&e.sheet).map_err(|err| {
                Error::internal(format!("tournament {id}: a sheet unread: {err}"))
            })?;
            let (presence, after_game) = presence_read(&e.presence)?;
            arena.players.push(ArenaPlayer {
                rating: e.rating as i32,
                presence,
                sheet,
                firsts: e.firsts as u32,
                free_since: waited(arena.players.len()).map_or(arena.freed, |p| p.free_since),
                waiting_ms: waited(arena.players.len())
                    .filter(|p| p.presence == Presence::Free && presence == Presence::Free)
                    .and_then(|p| p.waiting_ms),
            });
            // Whether a bot plays: as held before, else the account's.
            let bot = match known.and_then(|k| k.entrants.get(entrants.len())) {
                Some(held) if held.player == e.player => held.bot,
                _ => self.is_bot(&e.player).await?,
            };
            entrants.push(Entrant {
                player: e.player.clone(),
                name: e.name.clone(),
                bot,
                after_game,
            });
        }
        let mut games = HashMap::new();
        for g in &record.games {
            // The public ids of the games in play only (the page links them).
            let mut public_id = String::new();
            if g.result.is_none() {
                arena
                    .playing
                    .push((g.players.0 as usize, g.players.1 as usize));
                lock(&self.by_game).insert(g.game_id, id);
                match known.and_then(|k| k.games.get(&g.game_id)) {
                    Some(held) => public_id.clone_from(&held.public_id),
                    None => {
                        if let Ok(game) = self.games.load(g.game_id).await {
                            // After a restart, or made by another process:
                            // its first mover's time is watched here too.
                            self.arm_first_move(&game);
                            public_id = game.public_id;
                        }
                    }
                }
            } else {
                lock(&self.by_game).remove(&g.game_id);
            }
            games.insert(g.game_id, Held { row: *g, public_id });
        }
        let swiss = swiss_run::swiss_of(&record);
        Ok(Running {
            kind: TournamentKind::parse(&record.tournament.kind)?,
            state: TournamentState::parse(&record.tournament.state)?,
            row: record.tournament,
            arena,
            entrants,
            games,
            swiss,
            clock: self.games.clock().clone(),
        })
    }

    /// `room`'s tournament to change: see [`Changing`].
    async fn change<'a>(&self, room: &'a Room) -> Result<Changing<'a>, Error> {
        let mut running = room.running.lock().await;
        let id = running.row.id;
        let hold = self.store.hold_tournament(id).await?;
        if hold.is_some() {
            let record = self
                .store
                .load_tournament(id)
                .await?
                .ok_or_else(|| no_tournament(id))?;
            let fresh = self.running_from(record, Some(&running)).await?;
            *running = fresh;
        }
        Ok(Changing {
            running,
            _hold: hold,
        })
    }

    /// Reads tournament `id` again (another process changed it) and tells
    /// this process's watchers; held from now on if it was not.
    async fn heard_tournament(&self, id: i64) {
        let held = lock(&self.rooms).get(&id).cloned();
        let Some(room) = held else {
            if let Err(e) = self.room(id).await {
                tracing::warn!(tournament = id, error = %e, "a tournament made elsewhere not read");
            }
            return;
        };
        let mut running = room.running.lock().await;
        match self.store.load_tournament(id).await {
            Ok(Some(record)) => match self.running_from(record, Some(&running)).await {
                Ok(fresh) => *running = fresh,
                Err(e) => {
                    tracing::warn!(tournament = id, error = %e, "a tournament not read again");
                    return;
                }
            },
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(tournament = id, error = %e, "a tournament not read again");
                return;
            }
        }
        self.tell(&room, &running);
    }

    /// Makes an arena for `creator`.
    ///
    /// # Errors
    ///
    /// `account_needed`, `bad_tournament` (a name empty or too long, a clock, length or
    /// start out of bounds), `tournament_limit` after [`MADE_PER_DAY`],
    /// a storage failure.
    pub async fn create(
        self: &Arc<Self>,
        creator: &PlayerId,
        settings: ArenaSettings,
    ) -> Result<TournamentItem, Error> {
        let now = self.games.now_ms();
        let row = self
            .new_row(
                creator,
                TournamentKind::Arena,
                &settings.name,
                settings.clock,
                now,
            )
            .await?;
        if !(1..=MAX_MINUTES).contains(&settings.minutes) {
            return Err(bad_tournament(
                "minutes",
                "an arena lasts 1 minute to 24 hours",
            ));
        }
        let starts_ms = settings.starts_ms.max(now);
        if starts_ms > now + MAX_AHEAD_MS {
            return Err(bad_tournament("starts", "an arena starts within a week"));
        }
        self.check_made(creator, now).await?;
        self.made(TournamentRow {
            rated: settings.rated,
            bots_allowed: settings.bots_allowed,
            minutes: settings.minutes,
            starts_ms,
            ends_ms: starts_ms + settings.minutes * 60_000,
            ..row
        })
        .await
    }

    /// What an arena and a Swiss check first, in this order: `creator`'s
    /// account, the name and the clock. Gives the row of the tournament
    /// (of `kind`) to make, casual, starting and ending `now`, no rounds.
    async fn new_row(
        &self,
        creator: &PlayerId,
        kind: TournamentKind,
        name: &str,
        clock: (i64, i64),
        now: i64,
    ) -> Result<TournamentRow, Error> {
        self.name_of(creator, "").await?;
        // Cleaned as nicknames and messages are: a bidi override or a
        // zero width would disguise it, and a name of them alone is blank.
        let name = clean_text(name);
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(bad_tournament(
                "name",
                "a tournament's name has 1 to 40 characters",
            ));
        }
        let (initial, increment) = clock;
        if !(15_000..=3_600_000).contains(&initial) || !(0..=60_000).contains(&increment) {
            return Err(bad_tournament(
                "clock",
                "a tournament's clock is 15 s to 60 min, with 0 to 60 s a move",
            ));
        }
        Ok(TournamentRow {
            id: 0,
            kind: kind.as_str().into(),
            name,
            clock,
            rated: false,
            minutes: 0,
            starts_ms: now,
            ends_ms: now,
            creator: creator.clone(),
            state: TournamentState::Created.as_str().into(),
            created_ms: now,
            rounds: 0,
            current_round: 0,
            manual_rounds: false,
            bots_allowed: false,
        })
    }

    /// Stores a new tournament (`row`, rated only where ratings are kept)
    /// and holds it at once: its start and end are timed from now.
    async fn made(self: &Arc<Self>, row: TournamentRow) -> Result<TournamentItem, Error> {
        let row = self
            .store
            .create_tournament(TournamentRow {
                rated: row.rated && self.games.ratings().is_some(),
                ..row
            })
            .await?;
        let item = TournamentItem::try_from(&row)?;
        self.room(row.id).await?;
        Ok(item)
    }

    /// Refuses a new tournament to `creator` who made [`MADE_PER_DAY`] in
    /// the last day.
    async fn check_made(&self, creator: &PlayerId, now: i64) -> Result<(), Error> {
        if self
            .store
            .tournaments_made(creator.clone(), now - 24 * 3_600_000)
            .await?
            >= MADE_PER_DAY
        {
            return Err(Error::too_many(
                Code::TournamentLimit,
                format!("{MADE_PER_DAY} tournaments a day at most"),
            ));
        }
        Ok(())
    }

    /// The tournaments going on or to come, and those finished lately.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn list(&self) -> Result<Vec<TournamentItem>, Error> {
        let rows = self
            .store
            .tournaments(self.games.now_ms() - LISTED_AFTER_END_MS, 50)
            .await?;
        rows.iter().map(TournamentItem::try_from).collect()
    }

    /// Tournament `id` as `viewer` sees it.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, a storage failure.
    pub async fn get(&self, id: i64, viewer: Option<&PlayerId>) -> Result<TournamentView, Error> {
        let room = self.room(id).await?;
        let running = room.running.lock().await;
        let mut view = running.view(viewer);
        let (Some(you), Some(viewer), false) = (view.you, viewer, running.is_swiss()) else {
            return Ok(view);
        };
        if running.state != TournamentState::Started || view.now_ms >= running.row.ends_ms {
            // The arena's time is up: a berserk point no longer counts.
            return Ok(view);
        }
        let Some(held) = running.game_of(you).cloned() else {
            return Ok(view);
        };
        drop(running);
        let side = usize::from(held.row.players.0 != you as i64);
        if !held.row.berserk[side] {
            if let Ok(game) = self.games.load(held.row.game_id).await {
                view.can_berserk = berserk_allowed(&game, viewer);
            }
        }
        Ok(view)
    }

    /// The standings of tournament `id` as they change (JSON of
    /// [`TournamentView`] without a viewer), and the view now.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, a storage failure.
    pub async fn watch(
        &self,
        id: i64,
    ) -> Result<(broadcast::Receiver<Arc<str>>, TournamentView), Error> {
        let room = self.room(id).await?;
        let receiver = room.news.subscribe();
        let view = room.running.lock().await.view(None);
        Ok((receiver, view))
    }

    /// The game `player` plays in tournament `id` now (its public id;
    /// `Some(None)`: none), as last told to its watchers; None when they
    /// have not joined it (or it is not held).
    pub fn game_of_player(&self, id: i64, player: &PlayerId) -> Option<Option<String>> {
        let room = lock(&self.rooms).get(&id).cloned()?;
        let game = lock(&room.players).get(player).cloned();
        game
    }

    /// `player` (named `name`) joins tournament `id`, or comes back to it
    /// (after a pause or a withdrawal); paired at once if someone is free.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `account_needed`, `tournament_over`,
    /// `bots_not_allowed` (a bot, in a tournament of people only), a
    /// storage failure.
    pub async fn join(
        &self,
        id: i64,
        player: &PlayerId,
        name: &str,
    ) -> Result<TournamentView, Error> {
        self.comings.take(player, 1, self.games.now_ms())?;
        let name = self.name_of(player, name).await?;
        let name = name.as_str();
        let bot = self.is_bot(player).await?;
        let room = self.room(id).await?;
        // A bot joins only where its organiser let bots in (as lichess's
        // "bots allowed"), rated or casual: the people who join such a
        // tournament chose to meet bots there.
        if bot && !room.running.lock().await.row.bots_allowed {
            return Err(Error::forbidden(
                Code::BotsNotAllowed,
                "this tournament is for people only: its organiser did not let bots join",
            ));
        }
        let rating = self.rating_of(player, &room).await;
        if room.running.lock().await.is_swiss() {
            return self.swiss_join(&room, player, (name, bot), rating).await;
        }
        let mut running = self.change(&room).await?;
        // Once its time is up (its last games finishing), nobody joins.
        if running.state == TournamentState::Finished
            || (running.state == TournamentState::Started
                && self.games.now_ms() >= running.row.ends_ms)
        {
            return Err(Error::conflict(
                Code::TournamentOver,
                "the tournament is over",
            ));
        }
        let number = match running.number_of(player) {
            Some(n) => {
                running.entrants[n].after_game = None;
                if !running.arena.is_playing(n) {
                    let _ = running.arena.set_presence(n, Presence::Free);
                }
                n
            }
            None => {
                let n = running.arena.join(rating);
                running.entrants.push(Entrant {
                    player: player.clone(),
                    name: name.to_string(),
                    bot,
                    after_game: None,
                });
                n
            }
        };
        self.store
            .save_tournament(running.record(&[number], &[]))
            .await?;
        if running.state == TournamentState::Started {
            self.pair(&mut running).await;
        }
        self.tell(&room, &running);
        Ok(running.view(Some(player)))
    }

    /// `player` pauses (kept, not paired until they come back with
    /// [`Tournaments::join`]) or withdraws; during a game, once it ends.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `not_in_tournament`, a storage failure.
    pub async fn leave(
        &self,
        id: i64,
        player: &PlayerId,
        presence: Presence,
    ) -> Result<TournamentView, Error> {
        self.comings.take(player, 1, self.games.now_ms())?;
        let presence = if presence == Presence::Paused {
            Presence::Paused
        } else {
            Presence::Withdrawn
        };
        let room = self.room(id).await?;
        if room.running.lock().await.is_swiss() {
            return self.swiss_leave(&room, player).await;
        }
        let mut running = self.change(&room).await?;
        let number = running.number_of(player).ok_or_else(|| {
            Error::conflict(Code::NotInTournament, "you have not joined this tournament")
        })?;
        if running.arena.is_playing(number) {
            // Stored: whichever process records the game's end does it.
            running.entrants[number].after_game = Some(presence);
            self.store
                .save_tournament(running.record(&[number], &[]))
                .await?;
        } else {
            let _ = running.arena.set_presence(number, presence);
            self.save_and_tell(&room, &running, running.record(&[number], &[]))
                .await?;
        }
        Ok(running.view(Some(player)))
    }

    /// Its creator ends tournament `id` now: no new game starts, the games
    /// in play finish and count.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `not_the_creator`, a storage failure.
    pub async fn close(&self, id: i64, player: &PlayerId) -> Result<TournamentView, Error> {
        let room = self.room(id).await?;
        if room.running.lock().await.row.creator != *player {
            return Err(Error::forbidden(
                Code::NotTheCreator,
                "only the tournament's creator may end it",
            ));
        }
        self.set_state(id, TournamentState::Finished).await?;
        let running = room.running.lock().await;
        Ok(running.view(Some(player)))
    }

    /// The name `player` plays under: their username when accounts are
    /// needed, else `name`.
    ///
    /// # Errors
    ///
    /// `account_needed` when `player` has no open account.
    async fn name_of(&self, player: &PlayerId, name: &str) -> Result<String, Error> {
        let Some(accounts) = &self.accounts else {
            return Ok(name.to_string());
        };
        match accounts.account_of(player.clone()).await? {
            Some(account) if account.is_open() => Ok(account.username),
            _ => Err(Error::forbidden(
                Code::AccountNeeded,
                "tournaments are for accounts: sign up or log in",
            )),
        }
    }

    /// Whether `player` plays with a bot account (its name marked BOT in
    /// the standings).
    ///
    /// # Errors
    ///
    /// A storage failure.
    async fn is_bot(&self, player: &PlayerId) -> Result<bool, Error> {
        let Some(accounts) = &self.accounts else {
            return Ok(false);
        };
        Ok(accounts
            .account_of(player.clone())
            .await?
            .is_some_and(|a| a.bot))
    }

    async fn rating_of(&self, player: &PlayerId, room: &Room) -> i32 {
        let clock = room.running.lock().await.row.clock;
        self.current_rating(player, clock)
            .await
            .unwrap_or(crate::rating::START.rating.round() as i32)
    }

    /// Stores `record`, the changes of `running`, and tells `room`.
    async fn save_and_tell(
        &self,
        room: &Arc<Room>,
        running: &Running,
        record: TournamentRecord,
    ) -> Result<(), Error> {
        self.store.save_tournament(record).await?;
        self.tell(room, running);
        Ok(())
    }

    /// Tells each player whose game changed (at once), the lobby's
    /// featured game its top game, and the watchers the standings (at most
    /// once every [`STANDINGS_EVERY_MS`]; a send due later reads them as
    /// they are then).
    fn tell(&self, room: &Arc<Room>, running: &Running) {
        let top = running
            .arena
            .top_game()
            .and_then(|(a, _)| running.game_of(a).map(|h| h.row.game_id));
        self.games.set_tournament_top(running.row.id, top);
        let changes: Vec<(PlayerId, Option<String>)> = {
            let in_play = running.in_play();
            let mut players = lock(&room.players);
            let mut changes = Vec::new();
            for (n, e) in running.entrants.iter().enumerate() {
                let game = in_play.get(&n).map(|g| (*g).to_string());
                if players.get(&e.player) != Some(&game) {
                    players.insert(e.player.clone(), game.clone());
                    changes.push((e.player.clone(), game));
                }
            }
            changes
        };
        if !changes.is_empty() {
            // An error only means that nobody watches now.
            let _ = room.moves.send(Arc::new(changes));
        }
        let clock = self.games.clock().clone();
        let now = clock.now_ms();
        let last = room.sent_ms.load(Ordering::Relaxed);
        if now - last >= STANDINGS_EVERY_MS && !room.due.load(Ordering::Relaxed) {
            room.sent_ms.store(now, Ordering::Relaxed);
            send_standings(room, running);
        } else if !room.due.swap(true, Ordering::Relaxed) {
            let wait = (last + STANDINGS_EVERY_MS - now).clamp(0, STANDINGS_EVERY_MS);
            let room = Arc::clone(room);
            tokio::spawn(async move {
                clock.sleep_until(now + wait).await;
                let running = room.running.lock().await;
                room.due.store(false, Ordering::Relaxed);
                room.sent_ms.store(clock.now_ms(), Ordering::Relaxed);
                send_standings(&room, &running);
            });
        }
    }

    /// The players of tournament `id` whose game in play changes, with it,
    /// from now on (see [`Tournaments::game_of_player`] for now).
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, a storage failure.
    pub async fn follow_games(
        &self,
        id: i64,
    ) -> Result<broadcast::Receiver<Arc<GameMoves>>, Error> {
        Ok(self.room(id).await?.moves.subscribe())
    }
}

/// The side `player` sits on in `game`.
fn seat_of(game: &WebGame, player: &PlayerId) -> Option<Side> {
    Side::BOTH.into_iter().find(|side| {
        game.seats[side.index()]
            .as_ref()
            .is_some_and(|s| s.player == *player)
    })
}

/// Whether `player` has not moved yet in `game`, going on with a clock.
fn berserk_allowed(game: &WebGame, player: &PlayerId) -> bool {
    seat_of(game, player)
        .is_some_and(|seat| game.end().is_none() && game.clock.is_some() && !game.has_moved(seat))
}
