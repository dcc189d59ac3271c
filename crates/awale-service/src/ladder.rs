//! The engine ladder: a bot arena that never ends. Bots join a ladder of a
//! fixed clock (`bullet`, 1+0; `blitz`, 3+2) through the API and leave it;
//! the server pairs them as they come free, rated games in the bots' pool
//! of the ladder's speed (never people's), avoiding an immediate rematch
//! while another bot is free. House bots (the built-in levels, played by
//! the server's computer) keep it from being empty; two house bots never
//! meet. Its public view ranks the pool's bots with their results, a
//! cross-table and their games (`docs/BOTS.md`, "The engine ladder").

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use awale_core::{Game, Rules, Side};
use serde::Serialize;

use crate::error::Error;
use crate::game::{random_seed, Clock, EndReason, Mode, PlayerId, Seat, WebGame};
use crate::games::Games;
use crate::lock;
use crate::rating::{Pool, Speed, PROVISIONAL_DEVIATION};
use crate::store::{AccountStore, NewAccount, RatingStore};
use awale_model::account::Account;
use awale_model::lists::PoolGame;
use awale_model::Code;

/// How long two bots that just played wait for another opponent before
/// they meet again (the arena's `REMATCH_WAIT_MS`).
pub const REMATCH_WAIT_MS: i64 = 5_000;
/// How often the waiting bots are paired again (for the rematch wait).
const PAIR_EVERY: Duration = Duration::from_secs(1);
/// The games of a pool the view reads (results and cross-table count
/// these, the newest).
pub const GAMES_READ: usize = 1_000;
/// The bots a pool's view ranks at most.
pub const BOTS_LISTED: usize = 200;
/// The games a pool's view lists, newest first.
pub const GAMES_LISTED: usize = 50;

/// A ladder: its clock, fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rung {
    /// 1 minute, no increment.
    Bullet,
    /// 3 minutes, 2 seconds a move.
    Blitz,
}

impl Rung {
    /// Every ladder, fastest first.
    pub const ALL: [Rung; 2] = [Rung::Bullet, Rung::Blitz];

    /// Its name in the API (`bullet`, `blitz`).
    pub fn name(self) -> &'static str {
        match self {
            Rung::Bullet => "bullet",
            Rung::Blitz => "blitz",
        }
    }

    /// The ladder named `name`.
    ///
    /// # Errors
    ///
    /// `no_such_ladder`.
    pub fn from_name(name: &str) -> Result<Rung, Error> {
        Rung::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                Error::new(
                    crate::error::Kind::NotFound,
                    Code::NoSuchLadder,
                    format!(
                        "there is no ladder `{}`: bullet (1+0) or blitz (3+2)",
                        crate::error::shown(name)
                    ),
                )
            })
    }

    /// Its clock: initial time and increment (ms).
    pub fn clock(self) -> (i64, i64) {
        match self {
            Rung::Bullet => (60_000, 0),
            Rung::Blitz => (180_000, 2_000),
        }
    }

    /// The pool its games are rated in: the bots' pool of its speed.
    pub fn pool(self) -> Pool {
        Pool::Bots(Speed::of(Some(self.clock())))
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A bot on a ladder.
#[derive(Clone, Debug)]
struct Entrant {
    player: PlayerId,
    name: String,
    /// The level the server's computer plays it at (a house bot).
    house: Option<u8>,
    /// Since when it waits for a game; None while it plays one.
    free_since: Option<i64>,
    /// Whom it played last.
    last: Option<PlayerId>,
}

/// Pairs the free among `waiting` (each: waiting since, last opponent,
/// house bot) at `now`: whoever has waited longest first, each with the
/// first who waited before the others and is neither its last opponent
/// (unless both have waited [`REMATCH_WAIT_MS`] with nobody else free)
/// nor, for a house bot, another house bot. Pure: the pairs of indices,
/// the first of each the one who waited longer.
pub fn pair_free(waiting: &[(i64, Option<usize>, bool)], now: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| (waiting[i].0, i));
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    let waited = |i: usize| now - waiting[i].0 >= REMATCH_WAIT_MS;
    for (k, &a) in order.iter().enumerate() {
        if taken[a] {
            continue;
        }
        // Two house bots never meet.
        let both_house = |b: usize| waiting[a].2 && waiting[b].2;
        let fits = |b: usize| !taken[b] && !both_house(b);
        let rematch = |b: usize| waiting[a].1 == Some(b) || waiting[b].1 == Some(a);
        let fresh = order[k + 1..]
            .iter()
            .copied()
            .find(|&b| fits(b) && !rematch(b));
        let chosen = fresh.or_else(|| {
            order[k + 1..]
                .iter()
                .copied()
                .find(|&b| fits(b) && waited(a) && waited(b))
        });
        if let Some(b) = chosen {
            taken[a] = true;
            taken[b] = true;
            pairs.push((a, b));
        }
    }
    pairs
}

#[derive(Default)]
struct State {
    /// Each ladder's bots, in the order they joined.
    rungs: [Vec<Entrant>; 2],
    /// The ladders' games in play: their ladder and players.
    games: HashMap<i64, (Rung, [PlayerId; 2])>,
}

/// What joining or leaving answers.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Membership {
    /// The ladder.
    pub ladder: &'static str,
    /// Whether the bot is on it now.
    pub joined: bool,
    /// The bots on it now.
    pub bots: usize,
}

/// A bot on a ladder's view.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standing {
    /// Its rank (1 the best).
    pub rank: usize,
    /// Its username.
    pub name: String,
    /// Its rating in the ladder's pool, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Whether the rating is still provisional ("?").
    pub provisional: bool,
    /// Rated games in the pool in all.
    pub games: i64,
    /// Wins, draws, losses among the games read ([`GAMES_READ`]).
    pub wins: i64,
    /// See `wins`.
    pub draws: i64,
    /// See `wins`.
    pub losses: i64,
    /// On the ladder now.
    pub on_ladder: bool,
    /// A house bot (the server's computer at a level).
    pub house: bool,
}

/// Results between two bots: wins, draws and losses of the row's bot.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Score {
    /// The row's wins.
    pub wins: i64,
    /// Draws.
    pub draws: i64,
    /// The row's losses.
    pub losses: i64,
}

/// One ladder as the public page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RungView {
    /// Its name (`bullet`).
    pub name: &'static str,
    /// Initial time and increment (ms).
    pub clock: [i64; 2],
    /// The pool its games are rated in (`bot_bullet`).
    pub pool: &'static str,
    /// The bots on it now, by name.
    pub entrants: Vec<String>,
    /// Its games going on (public ids).
    pub playing: Vec<String>,
    /// The pool's bots, best first.
    pub standings: Vec<Standing>,
    /// `crosstable[i][j]`: the results of standing `i` against standing
    /// `j` (None when they never met, and on the diagonal).
    pub crosstable: Vec<Vec<Option<Score>>>,
    /// Its latest rated games, newest first.
    pub games: Vec<PoolGame>,
}

/// The ladders' view.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LadderView {
    /// Each ladder.
    pub ladders: Vec<RungView>,
}

/// The engine ladder.
pub struct Ladder {
    games: Arc<Games>,
    accounts: Arc<dyn AccountStore>,
    ratings: Arc<dyn RatingStore>,
    state: Mutex<State>,
    me: Weak<Ladder>,
}

impl Ladder {
    /// The ladder of `games`, its bots' accounts in `accounts`, ranked by
    /// `ratings`.
    pub fn new(
        games: Arc<Games>,
        accounts: Arc<dyn AccountStore>,
        ratings: Arc<dyn RatingStore>,
    ) -> Arc<Ladder> {
        Arc::new_cyclic(|me| Ladder {
            games,
            accounts,
            ratings,
            state: Mutex::new(State::default()),
            me: me.clone(),
        })
    }

    /// Follows the games' ends (each frees its two bots) and pairs the
    /// waiting every second. Needs a Tokio runtime.
    pub fn start(&self) {
        let mut endings = self.games.endings();
        let me = self.me.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(PAIR_EVERY);
            loop {
                tokio::select! {
                    ended = endings.recv() => match ended {
                        Ok(game) => {
                            let Some(ladder) = me.upgrade() else { return };
                            ladder.ended(&game);
                            ladder.pair().await;
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            let Some(ladder) = me.upgrade() else { return };
                            ladder.read_again().await;
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    },
                    _ = tick.tick() => {
                        let Some(ladder) = me.upgrade() else { return };
                        ladder.pair().await;
                    }
                }
            }
        });
    }

    /// Enters the built-in `levels` as house bots on every ladder, each an
    /// account of its own (`Awale-Level-N`, a bot that cannot log in)
    /// made at the first start; the server's computer plays their games.
    ///
    /// # Errors
    ///
    /// A storage failure; a level that names none (`bad_level`).
    pub async fn enter_house_bots(&self, levels: &[u8]) -> Result<Vec<String>, Error> {
        let mut names = Vec::new();
        for &level in levels {
            if !crate::computer::is_level(level) {
                return Err(Error::invalid(
                    Code::BadLevel,
                    format!("there is no level {level}"),
                ));
            }
            let name = format!("Awale-Level-{level}");
            let key = name.to_ascii_lowercase();
            let account = match self.accounts.account_by_key(key.clone()).await? {
                Some(a) if a.bot && a.password_hash.is_empty() => a,
                Some(_) => {
                    tracing::warn!(name, "a person holds a house bot's name: it stays out");
                    continue;
                }
                None => {
                    let now = self.games.now_ms();
                    let player = crate::secret::new_secret()
                        .map(|s| PlayerId(crate::secret::digest(&s)))
                        .map_err(|e| Error::internal(format!("no random bytes: {e}")))?;
                    let session = crate::secret::new_secret()
                        .map_err(|e| Error::internal(format!("no random bytes: {e}")))?;
                    let made = self
                        .accounts
                        .create_account(NewAccount {
                            username: name.clone(),
                            key,
                            player,
                            // No password: nobody logs in as a house bot.
                            password_hash: String::new(),
                            created_ms: now,
                            recovery: Vec::new(),
                            // A session ended at once.
                            session: (crate::secret::digest(&session), now),
                            guest: None,
                            skeletons: crate::accounts::name_skeletons(&name),
                        })
                        .await?;
                    let Some(made) = made else { continue };
                    self.accounts.set_bot(made.id).await?;
                    made
                }
            };
            self.games.set_house_bot(account.player.clone(), level);
            {
                let mut state = lock(&self.state);
                for rung in &mut state.rungs {
                    if !rung.iter().any(|e| e.player == account.player) {
                        rung.push(Entrant {
                            player: account.player.clone(),
                            name: account.username.clone(),
                            house: Some(level),
                            free_since: Some(self.games.now_ms()),
                            last: None,
                        });
                    }
                }
            }
            names.push(account.username);
        }
        Ok(names)
    }

    /// Bot `account` joins ladder `rung` (again: nothing changes); it is
    /// paired as soon as another bot is free.
    ///
    /// # Errors
    ///
    /// `not_a_bot` (a person's account: people play in people's pools).
    pub async fn join(&self, account: &Account, rung: Rung) -> Result<Membership, Error> {
        if !account.bot {
            return Err(Error::forbidden(
                Code::NotABot,
                "the engine ladder is for bot accounts",
            ));
        }
        {
            let mut state = lock(&self.state);
            let busy = state
                .games
                .values()
                .any(|(r, players)| *r == rung && players.contains(&account.player));
            let entrants = &mut state.rungs[rung.index()];
            if !entrants.iter().any(|e| e.player == account.player) {
                entrants.push(Entrant {
                    player: account.player.clone(),
                    name: account.username.clone(),
                    house: None,
                    free_since: (!busy).then(|| self.games.now_ms()),
                    last: None,
                });
            }
        }
        self.pair().await;
        Ok(self.membership(&account.player, rung))
    }

    /// Bot `account` leaves ladder `rung`: no new game (a game in play goes
    /// on to its end).
    pub fn leave(&self, account: &Account, rung: Rung) -> Membership {
        lock(&self.state).rungs[rung.index()].retain(|e| e.player != account.player);
        self.membership(&account.player, rung)
    }

    fn membership(&self, player: &PlayerId, rung: Rung) -> Membership {
        let state = lock(&self.state);
        let entrants = &state.rungs[rung.index()];
        Membership {
            ladder: rung.name(),
            joined: entrants.iter().any(|e| e.player == *player),
            bots: entrants.len(),
        }
    }

    /// Game `game` ended: if it was a ladder's, its bots are free again,
    /// each noting whom it played; a bot that never moved (its bridge is
    /// gone) leaves the ladder.
    fn ended(&self, game: &WebGame) {
        let mut state = lock(&self.state);
        let Some((rung, players)) = state.games.remove(&game.id) else {
            return;
        };
        let now = self.games.now_ms();
        let gone = |side: Side| {
            !game.has_moved(side)
                && game
                    .end()
                    .is_some_and(|e| matches!(e.reason, EndReason::Time | EndReason::Aborted))
        };
        let mut absent = Vec::new();
        for side in Side::BOTH {
            if let Some(seat) = &game.seats[side.index()] {
                if gone(side) {
                    absent.push(seat.player.clone());
                }
            }
        }
        let entrants = &mut state.rungs[rung.index()];
        entrants.retain(|e| e.house.is_some() || !absent.contains(&e.player));
        for e in entrants.iter_mut() {
            if let Some(i) = players.iter().position(|p| *p == e.player) {
                e.free_since = Some(now);
                e.last = Some(players[1 - i].clone());
            }
        }
    }

    /// After a lag in the games' ends: each game in play read again, the
    /// ended ones freeing their bots.
    async fn read_again(&self) {
        let ids: Vec<i64> = lock(&self.state).games.keys().copied().collect();
        for id in ids {
            if let Ok(game) = self.games.load(id).await {
                if game.end().is_some() {
                    self.ended(&game);
                }
            }
        }
    }

    /// Pairs the free bots of every ladder and starts their games.
    pub async fn pair(&self) {
        for rung in Rung::ALL {
            let made = self.pairs_of(rung);
            if made.is_empty() {
                continue;
            }
            let players: Vec<PlayerId> = made
                .iter()
                .flat_map(|g| g.seats.iter().flatten().map(|s| s.player.clone()))
                .collect();
            match self.games.create_server_paired(made).await {
                Ok(games) => {
                    let mut state = lock(&self.state);
                    for game in games {
                        if let [Some(south), Some(north)] = &game.seats {
                            let seated = [south.player.clone(), north.player.clone()];
                            state.games.insert(game.id, (rung, seated));
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(ladder = rung.name(), error = %e, "ladder games not made");
                    let now = self.games.now_ms();
                    let mut state = lock(&self.state);
                    for e in state.rungs[rung.index()].iter_mut() {
                        if players.contains(&e.player) {
                            e.free_since = Some(now);
                        }
                    }
                }
            }
        }
    }

    /// The games of the pairs of `rung`'s free bots now, their bots marked
    /// busy.
    fn pairs_of(&self, rung: Rung) -> Vec<WebGame> {
        let now = self.games.now_ms();
        let mut state = lock(&self.state);
        let entrants = &mut state.rungs[rung.index()];
        let free: Vec<usize> = (0..entrants.len())
            .filter(|&i| entrants[i].free_since.is_some())
            .collect();
        let waiting: Vec<(i64, Option<usize>, bool)> = free
            .iter()
            .map(|&i| {
                let e = &entrants[i];
                let last = e
                    .last
                    .as_ref()
                    .and_then(|l| free.iter().position(|&j| entrants[j].player == *l));
                (e.free_since.unwrap_or(now), last, e.house.is_some())
            })
            .collect();
        let mut made = Vec::new();
        for (a, b) in pair_free(&waiting, now) {
            let (a, b) = (free[a], free[b]);
            entrants[a].free_since = None;
            entrants[b].free_since = None;
            made.push(new_game(rung, &entrants[a], &entrants[b], now));
        }
        made
    }

    /// The ladders as the public page shows them.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn view(&self) -> Result<LadderView, Error> {
        let mut ladders = Vec::new();
        for rung in Rung::ALL {
            let pool = rung.pool();
            let board = self.ratings.pool_board(pool, BOTS_LISTED).await?;
            let games = self.ratings.pool_games(pool, GAMES_READ).await?;
            let (entrants, houses, playing) = {
                let state = lock(&self.state);
                let on = &state.rungs[rung.index()];
                let playing: Vec<i64> = state
                    .games
                    .iter()
                    .filter(|(_, (r, _))| *r == rung)
                    .map(|(id, _)| *id)
                    .collect();
                (
                    on.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
                    on.iter()
                        .filter(|e| e.house.is_some())
                        .map(|e| e.name.clone())
                        .collect::<Vec<_>>(),
                    playing,
                )
            };
            let index: HashMap<&str, usize> = board
                .iter()
                .enumerate()
                .map(|(i, l)| (l.username.as_str(), i))
                .collect();
            let mut cross: BTreeMap<(usize, usize), Score> = BTreeMap::new();
            let mut totals = vec![Score::default(); board.len()];
            for g in &games {
                let (Some(&s), Some(&n)) = (
                    index.get(g.names[0].as_str()),
                    index.get(g.names[1].as_str()),
                ) else {
                    continue;
                };
                let south_score = match g.result.as_str() {
                    "1-0" => 1,
                    "0-1" => -1,
                    _ => 0,
                };
                for (me, them, score) in [(s, n, south_score), (n, s, -south_score)] {
                    let cell = cross.entry((me, them)).or_default();
                    for target in [cell, &mut totals[me]] {
                        match score {
                            1 => target.wins += 1,
                            -1 => target.losses += 1,
                            _ => target.draws += 1,
                        }
                    }
                }
            }
            let standings = board
                .iter()
                .enumerate()
                .map(|(i, l)| Standing {
                    rank: i + 1,
                    name: l.username.clone(),
                    rating: l.rating,
                    deviation: l.deviation,
                    provisional: l.deviation as f64 > PROVISIONAL_DEVIATION,
                    games: l.games,
                    wins: totals[i].wins,
                    draws: totals[i].draws,
                    losses: totals[i].losses,
                    on_ladder: entrants.contains(&l.username),
                    house: houses.contains(&l.username),
                })
                .collect();
            let crosstable = (0..board.len())
                .map(|i| {
                    (0..board.len())
                        .map(|j| cross.get(&(i, j)).copied())
                        .collect()
                })
                .collect();
            let mut public = Vec::new();
            for id in playing {
                if let Ok(g) = self.games.load(id).await {
                    public.push(g.public_id);
                }
            }
            let (initial, increment) = rung.clock();
            ladders.push(RungView {
                name: rung.name(),
                clock: [initial, increment],
                pool: pool.name(),
                entrants,
                playing: public,
                standings,
                crosstable,
                games: games.into_iter().take(GAMES_LISTED).collect(),
            });
        }
        Ok(LadderView { ladders })
    }
}

/// A rated game of `rung` between `a` and `b`, sides drawn.
fn new_game(rung: Rung, a: &Entrant, b: &Entrant, now: i64) -> WebGame {
    let seed = random_seed();
    let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now, seed);
    let (initial, increment) = rung.clock();
    game.clock = Some(Clock::new(initial, increment));
    game.rated = true;
    let (south, north) = if seed & 1 == 0 { (a, b) } else { (b, a) };
    game.seats = [south, north].map(|e| {
        Some(Seat {
            player: e.player.clone(),
            name: e.name.clone(),
        })
    });
    game
}
