//! Direct challenges: one player asks another, from their page, for a game
//! (clock, rated or casual, the challenger's side); only the challenged
//! may accept (the online game is made, both seated) or decline, and the
//! challenger may withdraw it while it waits. A challenge left open for
//! [`EXPIRES_MS`] expires. Each change is told at once to both players on
//! their own live channel ([`crate::live::Hub::publish_player`]), so the
//! challenged sees it wherever they are on the site and the challenger
//! is sent into the game when it is accepted.

use std::sync::Arc;

use awale_core::{Game, Rules, Side};
use serde::Serialize;

use crate::bots::Door;
use crate::error::{Error, Kind};
use crate::game::{random_seed, Clock, Mode, PlayerId, Seat, WebGame};
use crate::games::Games;
use crate::players::no_player;
use crate::store::{AccountStore, Notice};
use awale_model::account::{Account, Challenge};
use awale_model::Code;

/// How many open challenges a player may have sent at once.
pub const MAX_OPEN: usize = 5;
/// How many open challenges from guests a player may receive at once:
/// guests cannot bury the challenges of accounts (issue 38).
pub const MAX_FROM_GUESTS: usize = 10;
/// How long a challenge waits for its answer before it expires.
pub const EXPIRES_MS: i64 = 10 * 60_000;
/// How long a settled challenge is still listed (the challenger who
/// missed the live event learns where the game is).
pub const SETTLED_SHOWN_MS: i64 = 60_000;
/// The most challenges listed for one player.
const LISTED: usize = 50;

/// How long news of a challenge accepted on another process waits for its
/// game to be stored there.
const GAME_WAIT_MS: i64 = 5_000;

/// Where a challenge is: open, or settled one way for good. Its word on
/// the wire and in the store is its name in lower case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeState {
    /// Waiting for its answer.
    Open,
    /// Accepted: its game made.
    Accepted,
    /// Declined by the challenged.
    Declined,
    /// Withdrawn by the challenger.
    Withdrawn,
    /// Left open for [`EXPIRES_MS`].
    Expired,
}

impl ChallengeState {
    /// Its word, on the wire and in the store.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Withdrawn => "withdrawn",
            ChallengeState::Expired => "expired",
        }
    }

    /// The state of stored challenge `c`.
    ///
    /// # Errors
    ///
    /// An internal error naming its word when it names no state.
    pub fn of(c: &Challenge) -> Result<ChallengeState, Error> {
        [
            ChallengeState::Open,
            ChallengeState::Accepted,
            ChallengeState::Declined,
            ChallengeState::Withdrawn,
            ChallengeState::Expired,
        ]
        .into_iter()
        .find(|s| s.as_str() == c.state)
        .ok_or_else(|| {
            Error::internal(format!(
                "challenge {} in no known state: {:?}",
                c.id, c.state
            ))
        })
    }
}

/// Whether stored challenge `c` is open (one in an unknown state is not).
fn is_open(c: &Challenge) -> bool {
    matches!(ChallengeState::of(c), Ok(ChallengeState::Open))
}

/// A challenge as its two players see it (player ids are never shown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    /// Its number.
    pub id: i64,
    /// The challenger's name.
    pub from: String,
    /// Whether the challenger plays as an account (their name links to
    /// their page).
    pub from_account: bool,
    /// Whether the challenger is a bot account (marked BOT).
    pub from_bot: bool,
    /// The challenged's username.
    pub to: String,
    /// Whether the challenged is a bot account (marked BOT).
    pub to_bot: bool,
    /// Initial time and increment (ms); None: no clock.
    pub clock: Option<[i64; 2]>,
    /// Its speed (`blitz`...).
    pub speed: &'static str,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's side: `S`, `N` or `R` (drawn when accepted).
    pub colour: String,
    /// When it was made, and when it expires if nobody answers.
    pub created_ms: i64,
    /// When it expires.
    pub expires_ms: i64,
    /// `open`, `accepted`, `declined`, `withdrawn` or `expired`.
    pub state: ChallengeState,
    /// The game made when it was accepted (its public id).
    pub game: Option<String>,
    /// True for the challenger's copy, false for the challenged's.
    pub sent: bool,
}

/// A player's challenges: those they sent and those they were sent.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MyChallenges {
    /// Sent, newest first.
    pub sent: Vec<ChallengeView>,
    /// Received, newest first.
    pub received: Vec<ChallengeView>,
}

/// What the challenged gets when they accept: the game and their side.
#[derive(Clone, Debug, Serialize)]
pub struct Accepted {
    /// The challenge, accepted.
    pub challenge: ChallengeView,
    /// The game's public id.
    pub game: String,
    /// The accepter's side, `S` or `N`.
    pub side: char,
}

/// A challenge as asked for.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The challenged's username.
    pub to: String,
    /// The clock, if any (minutes-and-increment: a game over days is made
    /// in the lobby).
    pub clock: Option<Clock>,
    /// Rated (between two accounts, with a clock) or casual.
    pub rated: bool,
    /// The challenger's side: `S`, `N` or `R`.
    pub colour: char,
}

/// The direct challenges of the server.
pub struct Challenges {
    games: Arc<Games>,
    accounts: Arc<dyn AccountStore>,
}

fn no_challenge(id: i64) -> Error {
    Error::new(
        Kind::NotFound,
        Code::NoSuchChallenge,
        format!("there is no challenge {id}"),
    )
    .with("id", id)
}

fn settled(c: &Challenge) -> Error {
    Error::conflict(
        Code::ChallengeSettled,
        format!("this challenge was {} already", c.state),
    )
    .with("state", c.state.as_str())
}

impl Challenges {
    /// The challenges of `games`' players, whose accounts are in
    /// `accounts`.
    pub fn new(games: Arc<Games>, accounts: Arc<dyn AccountStore>) -> Challenges {
        Challenges { games, accounts }
    }

    fn now(&self) -> i64 {
        self.games.now_ms()
    }

    /// Listens to the other processes' news of challenges, for a store
    /// that several share: a challenge made or settled on another process
    /// is told to its players connected here. Needs a Tokio runtime.
    pub fn start(self: &Arc<Self>) {
        let Some(notices) = self.games.store().notices() else {
            return;
        };
        // A challenge missed is listed when the page asks (at each
        // connection of the player's stream).
        crate::notices::listen(notices, Arc::downgrade(self), |me, notice| async move {
            let Notice::Challenge { id } = notice else {
                return;
            };
            match me.accounts.challenge(id).await {
                Ok(Some(c)) => {
                    // Accepted on another process, which stores the game
                    // just after: told once the game can be opened.
                    me.wait_for_game(&c).await;
                    me.tell(&c).await;
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(challenge = id, error = %e, "a challenge not read"),
            }
        });
    }

    async fn open_account(&self, player: &PlayerId) -> Result<Option<Account>, Error> {
        Ok(self
            .accounts
            .account_of(player.clone())
            .await?
            .filter(Account::is_open))
    }

    fn view(c: &Challenge, from_account: bool, sent: bool) -> Result<ChallengeView, Error> {
        Ok(ChallengeView {
            id: c.id,
            from: c.from_name.clone(),
            from_account,
            from_bot: false,
            to: c.to_name.clone(),
            to_bot: false,
            clock: c.clock.map(|(a, b)| [a, b]),
            speed: crate::rating::Speed::of(c.clock).name(),
            rated: c.rated,
            colour: c.colour.to_string(),
            created_ms: c.created_ms,
            expires_ms: c.created_ms + EXPIRES_MS,
            state: ChallengeState::of(c)?,
            game: c.game.clone(),
            sent,
        })
    }

    /// The view of `c` for its challenger (`sent`) or its challenged,
    /// each player's account read for the link to their page and the BOT
    /// mark.
    async fn view_of(&self, c: &Challenge, sent: bool) -> Result<ChallengeView, Error> {
        let from = self.open_account(&c.from).await?;
        let to_bot = self.open_account(&c.to).await?.is_some_and(|a| a.bot);
        let mut view = Self::view(c, from.is_some(), sent)?;
        view.from_bot = from.is_some_and(|a| a.bot);
        view.to_bot = to_bot;
        Ok(view)
    }

    /// Tells both players of `c` what it is now.
    async fn tell(&self, c: &Challenge) {
        let hub = self.games.hub();
        for (player, sent) in [(&c.from, true), (&c.to, false)] {
            match self.view_of(c, sent).await {
                Ok(view) => hub.publish_player(player, "challenge", view),
                Err(e) => tracing::warn!(challenge = c.id, error = %e, "a challenge not told"),
            }
        }
    }

    /// Until the game challenge `c` was accepted with can be found in the
    /// store (at most [`GAME_WAIT_MS`]): news of it must not send a page to a
    /// game not stored yet.
    async fn wait_for_game(&self, c: &Challenge) {
        let Some(game) = &c.game else { return };
        let clock = self.games.clock();
        let deadline = clock.now_ms() + GAME_WAIT_MS;
        while !matches!(self.games.store().find(game.clone()).await, Ok(Some(_)))
            && clock.now_ms() < deadline
        {
            clock.sleep_until(clock.now_ms() + 50).await;
        }
    }

    /// Stores `c` (open) settled as `state`, untold: false when it was
    /// settled meanwhile.
    async fn claim(
        &self,
        c: &mut Challenge,
        state: ChallengeState,
        game: Option<String>,
    ) -> Result<bool, Error> {
        let now = self.now();
        if !self
            .accounts
            .settle_challenge(c.id, state.as_str(), game.clone(), now)
            .await?
        {
            return Ok(false);
        }
        c.state = state.as_str().to_string();
        c.game = game;
        c.settled_ms = Some(now);
        Ok(true)
    }

    /// Settles `c` (open) as `state` and tells both players: false when it
    /// was settled meanwhile.
    async fn settle(&self, c: &mut Challenge, state: ChallengeState) -> Result<bool, Error> {
        let settled = self.claim(c, state, None).await?;
        if settled {
            self.tell(c).await;
        }
        Ok(settled)
    }

    /// Whether open challenge `c` has waited too long at `now`.
    fn expired(c: &Challenge, now: i64) -> bool {
        is_open(c) && now >= c.created_ms + EXPIRES_MS
    }

    /// `from` (named `guest_name` if they are a guest) challenges `new.to`.
    ///
    /// # Errors
    ///
    /// `no_such_player` (no open account of that name), `challenge_self`,
    /// `blocked` (either blocks the other), `kid_mode` (a guest
    /// challenging a kid-mode account: their name is free text),
    /// `rated_needs_account`, `rated_needs_clock`, `no_ratings`, `bad_side`,
    /// `too_many_challenges` (already [`MAX_OPEN`] open),
    /// `already_challenged` (an open one to the same player); first of
    /// all `too_many` (because `games` or `offers`): a challenge counts as
    /// a game made for the caller ([`crate::limits`]); `bot_api_only` (a
    /// bot's account: it challenges through the bot API).
    pub async fn make(
        &self,
        from: impl Into<crate::limits::Caller>,
        guest_name: &str,
        new: NewChallenge,
    ) -> Result<ChallengeView, Error> {
        self.make_through(from, guest_name, new, Door::Page).await
    }

    /// [`Challenges::make`] through `door`: a bot's account challenges
    /// only through the API.
    pub(crate) async fn make_through(
        &self,
        from: impl Into<crate::limits::Caller>,
        guest_name: &str,
        new: NewChallenge,
        door: Door,
    ) -> Result<ChallengeView, Error> {
        let caller = from.into();
        self.games
            .limits()
            .game_offered(&caller, self.games.now_ms())?;
        let from = &caller.player;
        let key = new.to.trim().to_ascii_lowercase();
        let to = self
            .accounts
            .account_by_key(key)
            .await?
            .filter(Account::is_open)
            .ok_or_else(|| no_player(&new.to))?;
        if to.player == *from {
            return Err(Error::invalid(
                Code::ChallengeSelf,
                "one cannot challenge oneself",
            ));
        }
        let me = self.open_account(from).await?;
        if door == Door::Page && me.as_ref().is_some_and(|a| a.bot) {
            return Err(crate::bots::bot_api_only());
        }
        if me.is_none() && to.kid {
            return Err(Error::forbidden(
                Code::KidMode,
                "this player is in kid mode: only accounts may challenge them",
            )
            .because("challenge"));
        }
        if self
            .accounts
            .blocks(from.clone(), to.player.clone())
            .await?
        {
            return Err(Error::forbidden(
                Code::Blocked,
                "one of these players blocks the other",
            ));
        }
        if new.rated {
            if me.is_none() {
                return Err(Error::forbidden(
                    Code::RatedNeedsAccount,
                    "a rated game is between two accounts: log in, or play a casual game",
                ));
            }
            // The rated terms every game has (`Games::create` checks them
            // again when the game is made).
            crate::fairplay::check_rated_clock(new.clock)?;
            if self.games.ratings().is_none() {
                return Err(Error::conflict(
                    Code::NoRatings,
                    "this server keeps no ratings: play a casual game",
                ));
            }
        }
        if new.clock.is_some_and(|c| c.per_move) {
            return Err(Error::invalid(
                Code::BadClock,
                "a challenge's clock is minutes and seconds per move",
            ));
        }
        if !matches!(new.colour, 'S' | 'N' | 'R') {
            return Err(Error::invalid(
                Code::BadSide,
                format!("`{}` is not a side (S, N or random)", new.colour),
            ));
        }
        let now = self.now();
        let mine = self.accounts.challenges(from.clone(), now, LISTED).await?;
        let open: Vec<&Challenge> = mine
            .iter()
            .filter(|c| c.from == *from && is_open(c) && !Self::expired(c, now))
            .collect();
        if open.iter().any(|c| c.to == to.player) {
            return Err(Error::conflict(
                Code::AlreadyChallenged,
                format!("your challenge to {} waits already", to.username),
            ));
        }
        if open.len() >= MAX_OPEN {
            return Err(Error::conflict(
                Code::TooManyChallenges,
                format!(
                    "you have {} challenges waiting for an answer: withdraw one first",
                    open.len()
                ),
            )
            .because("direct")
            .with("max", MAX_OPEN));
        }
        if me.is_none() {
            let theirs = self
                .accounts
                .challenges(to.player.clone(), now, LISTED)
                .await?;
            let mut from_guests = 0;
            for c in theirs
                .iter()
                .filter(|c| c.to == to.player && is_open(c) && !Self::expired(c, now))
            {
                if self.open_account(&c.from).await?.is_none() {
                    from_guests += 1;
                }
            }
            if from_guests >= MAX_FROM_GUESTS {
                return Err(Error::conflict(
                    Code::TooManyChallenges,
                    format!(
                        "{} has {from_guests} challenges from guests waiting already: \
                         log in, or try later",
                        to.username
                    ),
                )
                .because("guests")
                .with("max", MAX_FROM_GUESTS));
            }
        }
        let mut challenge = Challenge {
            id: 0,
            from: from.clone(),
            from_name: me
                .as_ref()
                .map_or_else(|| guest_name.to_string(), |a| a.username.clone()),
            to: to.player.clone(),
            to_name: to.username.clone(),
            clock: new.clock.map(|c| (c.initial_ms, c.increment_ms)),
            rated: new.rated,
            colour: new.colour,
            created_ms: now,
            state: ChallengeState::Open.as_str().into(),
            game: None,
            settled_ms: None,
        };
        challenge.id = self.accounts.add_challenge(challenge.clone()).await?;
        self.tell(&challenge).await;
        self.view_of(&challenge, true).await
    }

    /// Challenge `id`, open, for `player` (who must be its challenger, or
    /// its challenged: `challenged`); an expired one is settled so.
    async fn open_one(
        &self,
        id: i64,
        player: &PlayerId,
        challenged: bool,
    ) -> Result<Challenge, Error> {
        let mut c = self
            .accounts
            .challenge(id)
            .await?
            .filter(|c| c.from == *player || c.to == *player)
            .ok_or_else(|| no_challenge(id))?;
        let theirs = if challenged { &c.to } else { &c.from };
        if theirs != player {
            return Err(Error::forbidden(
                Code::NotYourChallenge,
                if challenged {
                    "only the challenged player may answer this challenge"
                } else {
                    "only the challenger may withdraw this challenge"
                },
            ));
        }
        if Self::expired(&c, self.now()) {
            self.settle(&mut c, ChallengeState::Expired).await?;
            return Err(Error::conflict(
                Code::ChallengeExpired,
                "this challenge waited too long and expired",
            ));
        }
        if ChallengeState::of(&c)? != ChallengeState::Open {
            return Err(settled(&c));
        }
        Ok(c)
    }

    /// `player` accepts challenge `id`: the online game is made, both
    /// seated (rated when asked, between two accounts).
    ///
    /// # Errors
    ///
    /// `no_such_challenge`, `not_your_challenge`, `challenge_settled`,
    /// `challenge_expired`, `blocked` (a block made since), `bot_api_only`
    /// (a bot's account: it accepts through the bot API), or a storage
    /// failure.
    pub async fn accept(&self, id: i64, player: &PlayerId) -> Result<Accepted, Error> {
        self.accept_through(id, player, Door::Page).await
    }

    /// [`Challenges::accept`] through `door`: a bot's account accepts only
    /// through the API.
    pub(crate) async fn accept_through(
        &self,
        id: i64,
        player: &PlayerId,
        door: Door,
    ) -> Result<Accepted, Error> {
        let mut c = self.open_one(id, player, true).await?;
        if door == Door::Page && self.open_account(player).await?.is_some_and(|a| a.bot) {
            return Err(crate::bots::bot_api_only());
        }
        if self.accounts.blocks(c.from.clone(), c.to.clone()).await? {
            return Err(Error::forbidden(
                Code::Blocked,
                "one of these players blocks the other",
            ));
        }
        let from_account = self.open_account(&c.from).await?;
        let now = self.now();
        let seed = random_seed();
        let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), now, seed);
        game.clock = c
            .clock
            .map(|(initial, increment)| Clock::new(initial, increment));
        let challenger_side = match c.colour {
            'S' => Side::South,
            'N' => Side::North,
            _ => Side::BOTH[usize::from(seed & 2 != 0)],
        };
        game.seats[challenger_side.index()] = Some(Seat {
            player: c.from.clone(),
            name: from_account
                .as_ref()
                .map_or_else(|| c.from_name.clone(), |a| a.username.clone()),
        });
        game.seats[challenger_side.opponent().index()] = Some(Seat {
            player: c.to.clone(),
            name: c.to_name.clone(),
        });
        // Rated only between two accounts (one may have closed since).
        game.rated = c.rated && from_account.is_some() && self.games.ratings().is_some();
        game.give_keys()?;
        let public_id = game.public_id.clone();
        // Settled first: of two answers at once, one only makes a game;
        // told once the game is stored, so that the challenger's page
        // finds it.
        if !self
            .claim(&mut c, ChallengeState::Accepted, Some(public_id.clone()))
            .await?
        {
            let now_state = self
                .accounts
                .challenge(id)
                .await?
                .ok_or_else(|| no_challenge(id))?;
            return Err(settled(&now_state));
        }
        self.games.create(vec![game]).await?;
        self.tell(&c).await;
        Ok(Accepted {
            challenge: self.view_of(&c, false).await?,
            game: public_id,
            side: challenger_side.opponent().letter(),
        })
    }

    /// `player` declines challenge `id`.
    ///
    /// # Errors
    ///
    /// `no_such_challenge`, `not_your_challenge`, `challenge_settled`,
    /// `challenge_expired`.
    pub async fn decline(&self, id: i64, player: &PlayerId) -> Result<ChallengeView, Error> {
        let c = self.open_one(id, player, true).await?;
        self.end(c, ChallengeState::Declined, false).await
    }

    /// `player` withdraws their challenge `id`.
    ///
    /// # Errors
    ///
    /// `no_such_challenge`, `not_your_challenge`, `challenge_settled`,
    /// `challenge_expired`.
    pub async fn cancel(&self, id: i64, player: &PlayerId) -> Result<ChallengeView, Error> {
        let c = self.open_one(id, player, false).await?;
        self.end(c, ChallengeState::Withdrawn, true).await
    }

    async fn end(
        &self,
        mut c: Challenge,
        state: ChallengeState,
        sent: bool,
    ) -> Result<ChallengeView, Error> {
        if !self.settle(&mut c, state).await? {
            let now = self
                .accounts
                .challenge(c.id)
                .await?
                .ok_or_else(|| no_challenge(c.id))?;
            return Err(settled(&now));
        }
        self.view_of(&c, sent).await
    }

    /// `blocker` blocks `blocked`: the open challenges between them end,
    /// as lichess does, the ones `blocked` sent declined, those `blocker`
    /// sent withdrawn (accepting one would be refused anyway, `blocked`).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn end_between(&self, blocker: &PlayerId, blocked: &PlayerId) -> Result<(), Error> {
        for mut c in self
            .accounts
            .challenges(blocker.clone(), self.now(), LISTED)
            .await?
        {
            if !is_open(&c) {
                continue;
            }
            let state = if c.from == *blocked && c.to == *blocker {
                ChallengeState::Declined
            } else if c.from == *blocker && c.to == *blocked {
                ChallengeState::Withdrawn
            } else {
                continue;
            };
            // Settled meanwhile by an answer: nothing left to end.
            self.settle(&mut c, state).await?;
        }
        Ok(())
    }

    /// `player`'s challenges: the open ones and those settled in the last
    /// [`SETTLED_SHOWN_MS`], newest first; those that waited too long are
    /// settled as expired here.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn mine(&self, player: &PlayerId) -> Result<MyChallenges, Error> {
        let now = self.now();
        let mut mine = MyChallenges::default();
        for mut c in self
            .accounts
            .challenges(player.clone(), now - SETTLED_SHOWN_MS, LISTED)
            .await?
        {
            if Self::expired(&c, now) {
                self.settle(&mut c, ChallengeState::Expired).await?;
            }
            let sent = c.from == *player;
            let view = self.view_of(&c, sent).await?;
            if sent {
                mine.sent.push(view);
            } else {
                mine.received.push(view);
            }
        }
        // Accounts' challenges first (a stable sort keeps the store's
        // order within each).
        mine.received.sort_by_key(|c| !c.from_account);
        Ok(mine)
    }
}
