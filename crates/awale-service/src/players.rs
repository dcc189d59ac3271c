//! Players as others see them: a player's page (ratings per speed with
//! their graphs, wins, draws and losses, the games list with its filters,
//! whether they play now), the leaderboards, and who a seeker in the pools
//! is (an account with its rating, or a guest). Accounts are named by
//! their username; a guest has no page.

use std::sync::Arc;

use serde::Serialize;

use crate::clock::Clock;
use crate::error::{Error, Kind};
use crate::game::PlayerId;
use crate::pools::{Pool, Seeker};
use crate::rating::{Speed, START};
use crate::store::ratings::{BoardRule, GameFilter};
use crate::store::{AccountStore, GameStore, RatingStore};
use awale_model::lists::{Leader, PlayedGame, RatingPoint, Results};
use awale_model::Code;

/// How many points each rating graph shows at most.
pub const GRAPH_POINTS: usize = 200;
/// How many players a leaderboard shows.
pub const BOARD_SIZE: usize = 100;
/// How many games a page of a player's list holds at most.
pub const MAX_LIST: usize = 100;
/// The widest rating range a lobby seek may set (± around its maker's).
pub const MAX_RATING_RANGE: i64 = 1000;

/// A lobby seek's rating range as asked for: None (anyone), or 1 to
/// [`MAX_RATING_RANGE`] around its maker's rating, for a public online
/// game (a seek in the lobby) made by an account.
///
/// # Errors
///
/// `bad_range` (out of bounds, or not a lobby seek), `range_needs_account`.
pub fn parse_rating_range(
    range: Option<i64>,
    public: bool,
    account: bool,
) -> Result<Option<i64>, Error> {
    let Some(range) = range else { return Ok(None) };
    if !(1..=MAX_RATING_RANGE).contains(&range) {
        return Err(Error::invalid(
            Code::BadRange,
            format!("a rating range is 1 to {MAX_RATING_RANGE} points around yours"),
        )
        .with("max", MAX_RATING_RANGE));
    }
    if !public {
        return Err(Error::invalid(
            Code::BadRange,
            "a rating range is for a seek in the lobby, not an invitation",
        )
        .because("private")
        .with("max", MAX_RATING_RANGE));
    }
    if !account {
        return Err(Error::forbidden(
            Code::RangeNeedsAccount,
            "a rating range is set by an account (a guest has no rating): log in",
        ));
    }
    Ok(Some(range))
}

/// One speed of a player's page.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedRating {
    /// `blitz`...
    pub speed: &'static str,
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation now (grown while idle), rounded.
    pub deviation: i64,
    /// Provisional ("?").
    pub provisional: bool,
    /// Rated games in this speed.
    pub games: i64,
    /// The rating after each rated game, oldest first.
    pub graph: Vec<RatingPoint>,
}

/// A player's page.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerPage {
    /// The username.
    pub username: String,
    /// A bot account (its name marked BOT).
    pub bot: bool,
    /// When the account was made.
    pub created_ms: i64,
    /// Ratings, for each speed they played rated.
    pub ratings: Vec<SpeedRating>,
    /// A bot's ratings in the bots' pools, for each speed it played rated
    /// against bots (the engine ladder ranks them).
    pub bot_ratings: Vec<SpeedRating>,
    /// Wins, draws, losses.
    pub results: Results,
    /// The game they play now (its public id), if any.
    pub playing: Option<String>,
    /// Whether a page of theirs is open now (their own stream listens on
    /// this server).
    pub online: bool,
}

/// A leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// Its speed.
    pub speed: &'static str,
    /// Rated games needed in the window to appear.
    pub min_games: i64,
    /// The window, in weeks.
    pub weeks: i64,
    /// Best first.
    pub players: Vec<Leader>,
}

/// Which of a player's games to list, as the page asks: the opponent by
/// username.
#[derive(Clone, Debug, Default)]
pub struct ListFilter {
    /// Rated only (true) or casual only (false).
    pub rated: Option<bool>,
    /// Of this speed only.
    pub speed: Option<Speed>,
    /// Won, drawn or lost only.
    pub result: Option<awale_model::lists::Outcome>,
    /// Against this username only.
    pub opponent: Option<String>,
}

/// The seats of a game as the page shows their names (GET
/// /api/games/{id}/accounts).
#[derive(Clone, Copy, Debug, Default, serde::Serialize, PartialEq, Eq)]
pub struct SeatAccounts {
    /// Whether each seat (South, North) is an open account's: its name
    /// links to its page.
    pub accounts: [bool; 2],
    /// Whether each seat is a bot account's: its name is marked BOT.
    pub bots: [bool; 2],
    /// Whether each seat's player plays from another client through the
    /// board API (docs/BOTS.md): shown as such.
    pub api: [bool; 2],
}

/// Players' pages, leaderboards and seekers, from the stores.
pub struct Players {
    games: Arc<dyn GameStore>,
    accounts: Arc<dyn AccountStore>,
    ratings: Arc<dyn RatingStore>,
    rule: BoardRule,
    /// Who listens to their own stream now (online), when known.
    hub: Option<Arc<crate::live::Hub>>,
    /// The time deviations grow by.
    clock: Clock,
}

/// No account is named `name`.
pub(crate) fn no_player(name: &str) -> Error {
    Error::new(
        Kind::NotFound,
        Code::NoSuchPlayer,
        format!("no player is named `{}`", crate::error::shown(name)),
    )
    .with("name", name)
}

impl Players {
    /// Players kept in these stores, the leaderboards under `rule`.
    pub fn new(
        games: Arc<dyn GameStore>,
        accounts: Arc<dyn AccountStore>,
        ratings: Arc<dyn RatingStore>,
        rule: BoardRule,
    ) -> Players {
        Players {
            games,
            accounts,
            ratings,
            rule,
            hub: None,
            clock: Clock::system(),
        }
    }

    /// The same, reading the time on `clock` (the games').
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Players {
        self.clock = clock;
        self
    }

    /// The same, saying who is online by `hub` (their own stream open).
    #[must_use]
    pub fn with_presence(mut self, hub: Arc<crate::live::Hub>) -> Players {
        self.hub = Some(hub);
        self
    }

    /// The open account named `name` (any case).
    async fn account(&self, name: &str) -> Result<awale_model::account::Account, Error> {
        let key = name.trim().to_ascii_lowercase();
        match self.accounts.account_by_key(key).await? {
            Some(account) if account.is_open() => Ok(account),
            _ => Err(no_player(name)),
        }
    }

    /// The page of the player named `name`.
    ///
    /// # Errors
    ///
    /// `no_such_player` (not found) when no open account has that name.
    pub async fn page(&self, name: &str) -> Result<PlayerPage, Error> {
        let account = self.account(name).await?;
        let player = account.player.clone();
        let now = self.clock.now_ms();
        let (mut ratings, mut bot_ratings) = (Vec::new(), Vec::new());
        for r in self.ratings.ratings(player.clone()).await? {
            let shown = match r.pool {
                crate::rating::Pool::People(_) => &mut ratings,
                crate::rating::Pool::Bots(_) => &mut bot_ratings,
            };
            let idle = r.last_ms.map_or(0, |t| now - t);
            let deviation = r.glicko.deviation_after(idle);
            shown.push(SpeedRating {
                speed: r.speed.name(),
                rating: r.glicko.rating.round() as i64,
                deviation: deviation.round() as i64,
                provisional: deviation > crate::rating::PROVISIONAL_DEVIATION,
                games: r.games,
                graph: self
                    .ratings
                    .rating_history_in(player.clone(), r.pool, GRAPH_POINTS)
                    .await?,
            });
        }
        let online = self.hub.as_ref().is_some_and(|h| h.player_listens(&player));
        Ok(PlayerPage {
            online,
            bot: account.bot,
            username: account.username,
            created_ms: account.created_ms,
            ratings,
            bot_ratings,
            results: self.ratings.results(player.clone()).await?,
            playing: match self.games.current(Some(player)).await? {
                Some(id) => self.games.load(id).await?.map(|g| g.public_id),
                None => None,
            },
        })
    }

    /// The games of the player named `name`, under `filter` (its opponent
    /// named by username), newest first.
    ///
    /// # Errors
    ///
    /// `no_such_player` for the player or the opponent.
    pub async fn games(
        &self,
        name: &str,
        filter: ListFilter,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> Result<Vec<PlayedGame>, Error> {
        let account = self.account(name).await?;
        let opponent = match filter.opponent.as_deref() {
            Some(o) => Some(self.account(o).await?.player),
            None => None,
        };
        let filter = GameFilter {
            rated: filter.rated,
            speed: filter.speed,
            result: filter.result,
            opponent,
        };
        Ok(self
            .ratings
            .played_games(account.player, filter, before, limit.clamp(1, MAX_LIST))
            .await?)
    }

    /// The leaderboard of `speed`.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn board(&self, speed: Speed) -> Result<Board, Error> {
        Ok(Board {
            speed: speed.name(),
            min_games: self.rule.min_games,
            weeks: self.rule.weeks,
            players: self
                .ratings
                .leaderboard(speed, self.rule, self.clock.now_ms(), BOARD_SIZE)
                .await?,
        })
    }

    /// `player`'s rating in `speed` (1500 when they have none yet), if
    /// they play as an open account.
    async fn rating_of(&self, player: &PlayerId, speed: Speed) -> Result<Option<f64>, Error> {
        let account = self
            .accounts
            .account_of(player.clone())
            .await?
            .filter(|a| a.is_open());
        if account.is_none() {
            return Ok(None);
        }
        Ok(Some(
            self.ratings
                .ratings(player.clone())
                .await?
                .into_iter()
                .find(|r| r.pool == crate::rating::Pool::People(speed))
                .map_or(START.rating, |r| r.glicko.rating),
        ))
    }

    /// Whether `player` may take the free seat of lobby seek `game`, by
    /// its rating range: their rating in the game's speed within the
    /// range around its maker's.
    ///
    /// # Errors
    ///
    /// `out_of_range` (with the lowest and highest ratings it takes, and
    /// the player's; reason `guest` for a player without an account), or
    /// a storage failure.
    pub async fn check_rating_range(
        &self,
        game: &crate::game::WebGame,
        player: &PlayerId,
    ) -> Result<(), Error> {
        let Some(range) = game.rating_range else {
            return Ok(());
        };
        let Some(maker) = game.seats.iter().flatten().next() else {
            return Ok(());
        };
        if maker.player == *player {
            return Ok(());
        }
        let speed = game.speed();
        let centre = self
            .rating_of(&maker.player, speed)
            .await?
            .unwrap_or(START.rating);
        let (low, high) = (centre.round() as i64 - range, centre.round() as i64 + range);
        let Some(mine) = self.rating_of(player, speed).await? else {
            return Err(Error::forbidden(
                Code::OutOfRange,
                "this seek is for accounts rated within its range: log in",
            )
            .because("guest")
            .with("low", low)
            .with("high", high));
        };
        let mine = mine.round() as i64;
        if !(low..=high).contains(&mine) {
            return Err(Error::forbidden(
                Code::OutOfRange,
                format!("this seek takes ratings from {low} to {high}; yours is {mine}"),
            )
            .with("low", low)
            .with("high", high)
            .with("rating", mine));
        }
        Ok(())
    }

    /// Which of `game`'s seats are open accounts' (South, North): their
    /// names link to their pages; a guest's does not.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn seat_accounts(&self, game: &crate::game::WebGame) -> Result<SeatAccounts, Error> {
        let mut seats = SeatAccounts::default();
        for (i, seat) in game.seats.iter().enumerate() {
            if let Some(seat) = seat {
                let account = self.accounts.account_of(seat.player.clone()).await?;
                seats.accounts[i] = account.as_ref().is_some_and(|a| a.is_open());
                seats.bots[i] = account.is_some_and(|a| a.bot);
            }
        }
        if let Some(hub) = &self.hub {
            seats.api = hub.board_api(game.id);
        }
        Ok(seats)
    }

    /// Who `player` is when they seek in `pool`: their account (its
    /// username, its rating in the pool's speed) or a guest (`name`, 1500).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn seeker(
        &self,
        player: PlayerId,
        name: String,
        pool: Pool,
    ) -> Result<Seeker, Error> {
        let account = self
            .accounts
            .account_of(player.clone())
            .await?
            .filter(|a| a.is_open());
        let Some(account) = account else {
            return Ok(Seeker {
                player,
                name,
                account: false,
                rating: START.rating,
                balance: 0,
                limits: None,
            });
        };
        let speed = pool.speed();
        let rating = self
            .ratings
            .ratings(player.clone())
            .await?
            .into_iter()
            .find(|r| r.pool == crate::rating::Pool::People(speed))
            .map_or(START.rating, |r| r.glicko.rating);
        Ok(Seeker {
            player,
            name: account.username,
            account: true,
            rating,
            balance: 0,
            limits: None,
        })
    }
}
