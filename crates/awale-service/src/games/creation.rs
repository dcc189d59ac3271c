//! A game made by a player: offered online (rated or casual, in the lobby
//! or by invitation), against the computer, on one screen, or uploaded
//! after offline play. Every rule of who may make what is here, typed
//! requests in and the game out; the rated terms themselves are
//! [`crate::fairplay`]'s, checked by [`Games::create`] for every way a
//! game is made.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use awale_core::{Game, Side};
use awale_model::error::Error;
use awale_model::game::{Clock, Mode, PlayerId, Seat, WebGame};
use awale_store::Nickname;

use super::Games;
use crate::limiter::Limit;
use crate::limits::Caller;
use awale_model::Code;

/// Online games waiting for an opponent one player may have.
pub const MAX_OPEN_CHALLENGES: i64 = 3;

/// A game a player asks for (read from a request by the web crate).
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Who makes it (and plays it: both sides on one screen, their side
    /// against the computer, one seat online).
    pub maker: PlayerId,
    /// The client address it is asked from (the limits': see
    /// [`crate::limits`]).
    pub client: Option<std::net::IpAddr>,
    /// The maker's name online (their username, or their nickname checked).
    pub name: String,
    /// Whether the maker is logged in to an account.
    pub account: bool,
    /// Against the computer, on one screen, or online.
    pub mode: Mode,
    /// The game as it starts (a preset's start, or a study position).
    pub game: Game,
    /// The game's random seed.
    pub seed: u64,
    /// Its clock, if any.
    pub clock: Option<Clock>,
    /// The maker's side online.
    pub side: Side,
    /// Online: listed in the lobby rather than by invitation only.
    pub public: bool,
    /// Rated (online, between accounts, on the rated terms).
    pub rated: bool,
    /// Online, in the lobby: the ratings that may take the free seat
    /// (± this many points around the maker's); none: anyone.
    pub rating_range: Option<i64>,
}

/// A game the page played without a network, to store.
#[derive(Clone, Debug)]
pub struct Upload {
    /// Whose (the browser's player).
    pub player: PlayerId,
    /// The client address it is sent from (the limit of games made).
    pub client: Option<std::net::IpAddr>,
    /// The browser's key for it (8 to 64 letters, digits, `-`, `_`): the
    /// same key twice stores the game once.
    pub key: String,
    /// The game as played (replayed from its start and moves).
    pub game: Game,
    /// Against the computer or on one screen.
    pub mode: Mode,
    /// The game's random seed.
    pub seed: u64,
    /// When it was started in the browser (never in the future).
    pub created_ms: Option<i64>,
}

/// How long a player found to be no bot is taken for one without reading
/// their account again (an account becomes a bot only while it has played
/// no online game: see [`crate::bots::Api::upgrade`]).
pub const PERSON_KEPT_MS: i64 = 60_000;

/// A rated game is between two accounts: refused to a guest, to make or
/// to join.
pub fn rated_needs_account() -> Error {
    Error::forbidden(
        Code::RatedNeedsAccount,
        "a rated game is between two accounts: log in, or play a casual game",
    )
}

impl Games {
    /// Whether `player` is a bot's account (false without accounts): the
    /// people's doors (the pages' games, seats, moves and challenges)
    /// refuse a bot, which plays only through the bot API. A person found
    /// so is not read again for [`PERSON_KEPT_MS`].
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub(crate) async fn is_bot(&self, player: &PlayerId) -> Result<bool, Error> {
        let Some(accounts) = &self.bots else {
            return Ok(false);
        };
        let now = self.now_ms();
        if crate::lock(&self.people)
            .get(player)
            .is_some_and(|&seen| now - seen < PERSON_KEPT_MS)
        {
            return Ok(false);
        }
        let bot = accounts
            .account_of(player.clone())
            .await?
            .is_some_and(|a| a.bot);
        if !bot {
            let mut people = crate::lock(&self.people);
            if people.len() >= 100_000 {
                people.retain(|_, seen| now - *seen < PERSON_KEPT_MS);
            }
            people.insert(player.clone(), now);
        }
        Ok(bot)
    }

    /// Refuses `player` at a people's door when their account is a bot.
    ///
    /// # Errors
    ///
    /// `bot_api_only`, or a storage failure.
    pub(crate) async fn check_not_bot(&self, player: &PlayerId) -> Result<(), Error> {
        if self.is_bot(player).await? {
            return Err(crate::bots::bot_api_only());
        }
        Ok(())
    }

    /// `player`'s account has just become a bot: no longer taken for a
    /// person.
    pub(crate) fn forget_person(&self, player: &PlayerId) {
        crate::lock(&self.people).remove(player);
    }

    /// Makes the game `new` asks for and makes it live: an online game
    /// waits for its second player (withdrawn unless its maker comes to
    /// play it). The rules: an online game starts from a position that
    /// goes on; a game over days is online; a rating range is a lobby
    /// seek's; rated is between accounts, on a server that keeps ratings,
    /// and on the rated terms ([`Games::create`]); a player has at most
    /// [`MAX_OPEN_CHALLENGES`] games waiting. Each game costs its address
    /// one of its games; an online game costs its maker an offer too
    /// ([`crate::limits`]).
    ///
    /// # Errors
    ///
    /// `too_many` (because `games` or `offers`), `finished_position`,
    /// `days_need_online`, `bad_range`, `range_needs_account`,
    /// `rated_needs_account`, `no_ratings`, `too_many_challenges`, the
    /// rated terms' and [`Games::create`]'s; `bot_api_only` (a bot's
    /// account offering an online game: it is challenged, or challenges,
    /// through the bot API).
    pub async fn new_game(self: &Arc<Self>, new: NewGame) -> Result<WebGame, Error> {
        let online = new.mode == Mode::Online;
        if online {
            self.check_not_bot(&new.maker).await?;
        }
        let caller = Caller::new(new.maker.clone(), new.client);
        if online {
            self.limits.game_offered(&caller, self.now_ms())?;
        } else {
            self.limits.take(Limit::Games, &caller, 1, self.now_ms())?;
        }
        if online && new.game.outcome().is_some() {
            return Err(Error::invalid(
                Code::FinishedPosition,
                "the game is already over in this position: give one where it goes on",
            ));
        }
        if new.clock.is_some_and(|c| c.per_move) && !online {
            return Err(Error::invalid(
                Code::DaysNeedOnline,
                "a game over days is played online, a move when each can",
            ));
        }
        let now = self.now_ms();
        let mut web = WebGame::new(new.mode, new.game, now, new.seed);
        web.clock = new.clock;
        // Refused by the rated terms when not online (`rated_needs_online`).
        web.rated = new.rated;
        if online {
            if new.rated {
                if !new.account {
                    return Err(rated_needs_account());
                }
                if self.ratings.is_none() {
                    return Err(Error::conflict(
                        Code::NoRatings,
                        "this server keeps no ratings: play a casual game",
                    ));
                }
            }
            web.rating_range =
                crate::players::parse_rating_range(new.rating_range, new.public, new.account)?;
            let open = self.store.open_challenges(new.maker.clone()).await?;
            if open >= MAX_OPEN_CHALLENGES {
                return Err(Error::conflict(
                    Code::TooManyChallenges,
                    format!("you have {open} games waiting for an opponent: withdraw one first"),
                ));
            }
            web.seats[new.side.index()] = Some(Seat {
                player: new.maker.clone(),
                name: new.name.clone(),
            });
            web.public = new.public;
        } else {
            crate::players::parse_rating_range(new.rating_range, false, false)?;
            web.seat_maker(&new.maker);
        }
        crate::fairplay::check_rated_terms(&web)?;
        // A guest's name online is stored as theirs with the game, in its
        // transaction (one commit).
        let nickname = (online && !new.account).then(|| Nickname {
            player: new.maker.clone(),
            name: new.name.clone(),
            now,
        });
        let web = self
            .create_checked(vec![web], true, nickname)
            .await?
            .remove(0);
        if let Some(side) = web
            .seats
            .iter()
            .position(Option::is_some)
            .filter(|_| web.waiting())
        {
            // Withdrawn unless its maker comes to play it.
            self.withdraw_when_gone(web.id, Side::BOTH[side]);
        }
        Ok(web)
    }

    /// Stores a game played offline, for its player, once per key:
    /// whether this call stored it (false: it was stored before under
    /// that key) and the game as stored. The same rules as any game made
    /// here ([`Games::create`]'s terms): never online, never rated. It
    /// costs its address one of its games, stored or not.
    ///
    /// # Errors
    ///
    /// `too_many` (because `games`), `bad_key`, `bad_mode` (an online
    /// game), a storage failure.
    pub async fn upload(self: &Arc<Self>, up: Upload) -> Result<(bool, WebGame), Error> {
        let caller = Caller::new(up.player.clone(), up.client);
        self.limits.take(Limit::Games, &caller, 1, self.now_ms())?;
        let key_ok = (8..=64).contains(&up.key.len())
            && up
                .key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !key_ok {
            return Err(Error::invalid(
                Code::BadKey,
                "an upload's key is 8 to 64 letters, digits, `-` or `_`",
            ));
        }
        if up.mode == Mode::Online {
            return Err(Error::invalid(
                Code::BadMode,
                "an online game is played online, not uploaded",
            ));
        }
        let now = self.now_ms();
        let mut web = WebGame::new(up.mode, up.game, now, up.seed);
        // Its own time, not the upload's (never in the future).
        web.created_ms = up.created_ms.map_or(now, |t| t.clamp(0, now));
        web.seat_maker(&up.player);
        crate::fairplay::check_rated_terms(&web)?;
        let (created, id) = match self.store.upload(up.player, up.key, web).await? {
            Ok(stored) => (true, stored.id),
            Err(id) => (false, id),
        };
        Ok((created, self.load(id).await?))
    }

    /// Stores new games and makes them live. Rated games are checked here,
    /// whichever way they are made (`crate::fairplay`): their terms; two
    /// accounts seen at one place play casual (flagged); the limit on rated
    /// games between the same two players.
    ///
    /// # Errors
    ///
    /// The rated terms' refusals (`rated_needs_clock`,
    /// `rated_needs_standard_rules`, `rated_from_position`,
    /// `rated_needs_online`), `too_many_rated_together`, a storage
    /// failure; nothing is stored then.
    pub async fn create(self: &Arc<Self>, games: Vec<WebGame>) -> Result<Vec<WebGame>, Error> {
        self.create_checked(games, true, None).await
    }

    /// Stores new games the server paired itself (the engine ladder's,
    /// between bots that chose no opponent): as [`Games::create`], but
    /// without the limit of rated games per pair, which stops players who
    /// choose each other from farming points; a ladder of a few bots
    /// pairs the same ones all day.
    ///
    /// # Errors
    ///
    /// As [`Games::create`], but `too_many_rated_together`.
    pub async fn create_server_paired(
        self: &Arc<Self>,
        games: Vec<WebGame>,
    ) -> Result<Vec<WebGame>, Error> {
        self.create_checked(games, false, None).await
    }

    /// As [`Games::create`], the pair's limit of rated games taken when
    /// `pair_limit`, `nickname` (a guest's name) stored in the same
    /// transaction.
    async fn create_checked(
        self: &Arc<Self>,
        mut games: Vec<WebGame>,
        pair_limit: bool,
        nickname: Option<Nickname>,
    ) -> Result<Vec<WebGame>, Error> {
        for game in &games {
            crate::fairplay::check_rated_terms(game)?;
        }
        let now = self.now_ms();
        let flags = self.sightings.demote(&mut games, now).await?;
        if pair_limit {
            self.pairs.take(&games, now).await?;
        }
        let mut games = self.store.create_named(games, nickname).await?;
        self.sightings.keep(flags).await;
        for game in &mut games {
            // Its maker's next requests name it by its public id: found
            // here without asking the store.
            self.public_ids.know(&game.public_id, game.id);
            self.note_presence(game);
            if game.clock.is_some() || game.mode == Mode::Online || game.computer_to_move() {
                game.version = self.hub.version(game.id);
                let entry = self.entry(game.id);
                let mut slot = entry.game.lock().await;
                self.arm_flag(&entry, game);
                self.arm_computer(&entry, game);
                *slot = Some(game.clone());
            }
            if game.mode == Mode::Online {
                self.lobby_changed.store(true, Ordering::Relaxed);
                // Each seated player hears of it on their own channel (a
                // bot's event stream: `gameStart`).
                if !game.waiting() {
                    for seat in game.seats.iter().flatten() {
                        self.hub
                            .publish_player(&seat.player, "game_start", &game.public_id);
                    }
                }
            }
        }
        Ok(games)
    }

    /// `seat` takes the free seat of online game `id` (a private game's
    /// with its invitation's `key`). When a rated game is full, the rules
    /// [`Games::create`] checks for a game made full hold: two accounts
    /// seen at one place play casual (flagged), and the pair's limit of
    /// rated games.
    ///
    /// # Errors
    ///
    /// The model's seating rules (`seat_taken`, `bad_key`, ...),
    /// `too_many_rated_together`, `bot_api_only` (a bot's account: it
    /// never takes people's offers), a storage failure.
    pub async fn sit(
        self: &Arc<Self>,
        id: i64,
        seat: crate::game::Seat,
        key: Option<&str>,
    ) -> Result<WebGame, Error> {
        self.sit_named(id, seat, key, false).await
    }

    /// [`Games::sit`], and when `guest`, the seat's name stored as the
    /// player's nickname (as [`Games::set_player_name`]) in the same
    /// transaction: a join is one write, one commit, its seat given over
    /// the stored revision in one statement (no read before it when the
    /// copy held here is the stored game; a copy found older is read
    /// again and the seat given on it, or refused `seat_taken`, never
    /// `stale`).
    ///
    /// # Errors
    ///
    /// As [`Games::sit`].
    pub async fn sit_named(
        self: &Arc<Self>,
        id: i64,
        seat: crate::game::Seat,
        key: Option<&str>,
        guest: bool,
    ) -> Result<WebGame, Error> {
        self.check_not_bot(&seat.player).await?;
        let now = self.now_ms();
        // The game as it will be once full, checked before the change
        // (the store is asked, which a change's closure cannot): a rated
        // seat never changes hands, so the pair is the one found here (the
        // copy held here will do: no read before a join).
        let mut flag = None;
        if let Ok(mut full) = self.load_held(id).await {
            if full.rated && full.waiting() && full.sit(seat.clone(), key, now).is_ok() {
                flag = self.sightings.flag_of(&full, now).await?;
                if flag.is_none() {
                    self.pairs.take(std::slice::from_ref(&full), now).await?;
                }
            }
        }
        let nickname = guest.then(|| Nickname {
            player: seat.player.clone(),
            name: seat.name.clone(),
            now,
        });
        let (game, ()) = self
            .apply_with(id, false, nickname, |g| {
                g.sit(seat.clone(), key, now)?;
                if g.rated && !g.waiting() && flag.is_some() {
                    g.rated = false;
                }
                Ok(((), true))
            })
            .await?;
        if !game.rated {
            self.sightings.keep(flag.into_iter().collect()).await;
        }
        Ok(game)
    }

    /// Game `id` as held here, its stored revision not asked (else read
    /// from the store). A copy held here is the stored game but for a
    /// change whose notice is on its way (a copy without watchers is
    /// dropped when a notice says it is old, one with watchers brought up
    /// to date): for what may be a moment late without harm, the checks
    /// a join makes before it (who may sit: not blocked, within the
    /// rating range; the seat is then given over the stored revision, and
    /// a refusal is checked again on the stored game, [`Games::load`],
    /// before it is answered), an invitation's links, the first read of
    /// an events stream (told the change once listening).
    ///
    /// # Errors
    ///
    /// As [`Games::load`].
    pub async fn load_held(self: &Arc<Self>, id: i64) -> Result<WebGame, Error> {
        let read = || self.apply(id, false, |_| Ok(((), false)));
        match read().await {
            // As in `load`: the flag fell on the way, or another process
            // stored first.
            Err(e) if e.code == Code::GameOver || e.code == Code::Stale => read().await,
            answer => answer,
        }
        .map(|(game, ())| game)
    }

    /// What `viewer` may pass on to bring others to online game `id`: its
    /// public id (to watch), and for its players only the query of its
    /// invitation (`join=ID`, with a private game's key: `&k=KEY`). Read
    /// from the copy held here (its maker's process holds a new game): no
    /// round trip to the store.
    ///
    /// # Errors
    ///
    /// `not_online` for a game played elsewhere than online; as
    /// [`Games::load`].
    pub async fn invitation(
        self: &Arc<Self>,
        id: i64,
        viewer: Option<&PlayerId>,
    ) -> Result<Invitation, Error> {
        let game = self.load_held(id).await?;
        if game.mode != Mode::Online {
            return Err(Error::conflict(
                Code::NotOnline,
                "this game is not played online",
            ));
        }
        let id = &game.public_id;
        let join = game.online_seat(viewer).map(|_| match &game.invite {
            Some(key) if !game.public => format!("join={id}&k={key}"),
            _ => format!("join={id}"),
        });
        Ok(Invitation {
            public_id: game.public_id,
            join,
        })
    }
}

/// What a viewer may pass on to bring others to an online game
/// ([`Games::invitation`]).
pub struct Invitation {
    /// The game's public id.
    pub public_id: String,
    /// The query of its invitation, for its players only.
    pub join: Option<String>,
}
