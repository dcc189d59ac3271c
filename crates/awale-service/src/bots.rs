//! Engines online: personal API tokens (made and revoked by their owner,
//! kept as digests, shown once), bot accounts (an upgrade for good), and the
//! rules of the API that bots and other clients play through, in the shape
//! of lichess's Bot and Board APIs: who may do what with which token, each
//! call checked here and then made by the same operations the page uses
//! ([`Games`], [`Challenges`]). The HTTP side only reads the request and
//! writes the answer as newline-delimited JSON.

use std::net::IpAddr;
use std::sync::Arc;

use awale_core::Side;
use serde::Serialize;
use tokio::sync::broadcast;

use crate::accounts::Accounts;
use crate::challenges::{Accepted, ChallengeView, Challenges, NewChallenge};
use crate::chat::{Chat, Room, Speaker};
use crate::error::{Error, Kind};
use crate::game::{parse_move, Mode, PlayerId, WebGame};
use crate::games::Games;
use crate::limiter::{Limiter, Rate};
use crate::round::Offer;
use crate::secret::{digest, new_secret};
use crate::store::AccountStore;
use awale_model::account::{Account, AccountView, ApiToken};
use awale_model::lists::{ChatLine, Page};
use awale_model::Code;

/// Which way a player acts: through the site's pages (people's doors,
/// where a bot's account is refused) or through the API with a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Door {
    /// The pages, with the browser's cookies.
    Page,
    /// The bot or board API, with a token ([`Api::caller`]).
    Api,
}

/// What a token allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Play as a bot, through the bot API (a bot account only).
    BotPlay,
    /// Play as a person from another client, through the board API (a
    /// person's account only).
    BoardPlay,
    /// Read the account (`GET /api/account`) and its games (`GET
    /// /api/account/games`), nothing else.
    Read,
}

impl Scope {
    /// All of them.
    pub const ALL: [Scope; 3] = [Scope::BotPlay, Scope::BoardPlay, Scope::Read];

    /// Its name, as given and stored.
    pub fn name(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::BoardPlay => "board:play",
            Scope::Read => "read",
        }
    }

    /// The scope of a name.
    pub fn from_name(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The most tokens an account holds at once (revoked ones not counted).
pub const TOKENS_PER_ACCOUNT: usize = 20;
/// The longest name of a token, in characters.
pub const TOKEN_NAME_CHARS: usize = 60;
/// Calls per token: a burst, then one every 100 ms (ten a second, as a bot
/// of many games at once needs; a thousand a second is refused).
pub const CALLS_PER_TOKEN: Rate = Rate {
    burst: 40,
    every_ms: 100,
};
/// What a token starts with, so that a leaked one is recognised (by a
/// secret scanner, by its owner).
pub const TOKEN_PREFIX: &str = "awt_";

/// A token just made: the only time its secret is shown.
#[derive(Clone, Debug, Serialize)]
pub struct NewToken {
    /// Its id (to revoke it).
    pub id: String,
    /// The secret to send as `Authorization: Bearer`.
    pub token: String,
    /// Its name.
    pub name: String,
    /// Its scopes.
    pub scopes: Vec<&'static str>,
}

/// A token as its owner lists it (never its secret).
#[derive(Clone, Debug, Serialize)]
pub struct TokenView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// When it was made.
    pub created_ms: i64,
    /// When it was revoked, if it was.
    pub revoked_ms: Option<i64>,
    /// When it was last used, to the minute (see
    /// [`awale_store::TOKEN_USE_KEPT_MS`]); None: never.
    pub used_ms: Option<i64>,
}

impl TokenView {
    fn of(t: &ApiToken) -> TokenView {
        TokenView {
            id: t.public_id.clone(),
            name: t.name.clone(),
            scopes: t.scopes.split_whitespace().map(str::to_string).collect(),
            created_ms: t.created_ms,
            revoked_ms: t.revoked_ms,
            used_ms: t.used_ms,
        }
    }
}

/// Who calls the API: the token's account, checked for the scope asked.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The account.
    pub account: Account,
    /// The token's id.
    pub token: String,
    /// The scope it calls with: which API (a `read` caller plays nothing).
    pub scope: Scope,
    /// The token's digest (a stream checks it is still valid).
    digest: String,
}

impl Caller {
    /// The player the account plays as.
    pub fn player(&self) -> &PlayerId {
        &self.account.player
    }
}

/// An online game's state as the API streams it (lichess's `gameState`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameState {
    /// `gameState`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The moves so far, hole letters separated by spaces (`F c A`).
    pub moves: String,
    /// The side to move, `S` or `N`.
    pub to_move: char,
    /// Time left (ms) for South and North at this moment, with a clock.
    pub time_ms: Option<[i64; 2]>,
    /// `started`, or why it ended (`starvation`, `time`, `resign`...).
    pub status: &'static str,
    /// The winner's side, when there is one.
    pub winner: Option<char>,
    /// The side that offers a draw now, if one does.
    pub draw_offer: Option<char>,
}

/// A player of a game as the API shows them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ApiPlayer {
    /// Their name.
    pub name: String,
    /// A bot account.
    pub bot: bool,
}

/// The whole game as the API's game stream starts (lichess's `gameFull`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameFull {
    /// `gameFull`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game's public id.
    pub id: String,
    /// Rated or casual.
    pub rated: bool,
    /// Its speed (`blitz`...).
    pub speed: &'static str,
    /// Initial time and increment (ms), with a clock.
    pub clock: Option<[i64; 2]>,
    /// South's player.
    pub south: Option<ApiPlayer>,
    /// North's player.
    pub north: Option<ApiPlayer>,
    /// The rules' name (`awale`).
    pub rules: String,
    /// The caller's side, `S` or `N`.
    pub you: char,
    /// The state now.
    pub state: GameState,
}

/// The state of `game` at `now`, as the API streams it.
pub fn game_state(game: &WebGame, now: i64) -> GameState {
    let end = game.end();
    let moves: Vec<String> = game
        .game
        .plies()
        .iter()
        .map(|p| p.mv.letter().to_string())
        .collect();
    GameState {
        kind: "gameState",
        moves: moves.join(" "),
        to_move: game.game.position().to_move().letter(),
        time_ms: game.time_left(now),
        status: end.map_or("started", |e| e.reason.name()),
        winner: end.and_then(|e| e.winner).map(Side::letter),
        draw_offer: game.offers.draw.map(Side::letter),
    }
}

/// The API's news on an account's event stream (lichess's
/// `/api/stream/event`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum AccountEvent {
    /// A challenge made, or changed (accepted, declined, withdrawn).
    Challenge {
        /// The challenge ([`ChallengeView`]).
        challenge: serde_json::Value,
    },
    /// A game of the account's starts (or goes on, when the stream opens).
    GameStart {
        /// Its public id.
        game: String,
    },
    /// A game of the account's ended.
    GameFinish {
        /// Its public id.
        game: String,
    },
}

/// The API: tokens, bots, and the calls made with a token.
pub struct Api {
    games: Arc<Games>,
    people: Arc<Accounts>,
    challenges: Arc<Challenges>,
    chat: Arc<Chat>,
    calls: Limiter<String>,
    revoked: broadcast::Sender<String>,
}

fn bad_token() -> Error {
    Error::new(
        Kind::Unauthorized,
        Code::BadToken,
        "this token is not valid: it was revoked, or never made",
    )
}

impl Api {
    /// The API over `games`, whose accounts are in `accounts`, whose
    /// challenges are `challenges` and whose chat is `chat`.
    pub fn new(
        games: Arc<Games>,
        people: Arc<Accounts>,
        challenges: Arc<Challenges>,
        chat: Arc<Chat>,
    ) -> Api {
        Api {
            games,
            people,
            challenges,
            chat,
            calls: Limiter::new(crate::limiter::Limit::ApiCalls, CALLS_PER_TOKEN),
            revoked: broadcast::channel(64).0,
        }
    }

    fn accounts(&self) -> &dyn AccountStore {
        self.people.store()
    }

    /// With another rate of calls per token (tests).
    pub fn with_rate(mut self, rate: Rate) -> Api {
        self.calls = Limiter::new(crate::limiter::Limit::ApiCalls, rate);
        self
    }

    /// `account` makes a token named `name` with `scopes`.
    ///
    /// # Errors
    ///
    /// `bad_scope` (a name that is no scope, or none given), `bad_name`
    /// (empty or too long), `too_many_tokens`, or a storage failure.
    pub async fn make_token(
        &self,
        account: &Account,
        name: &str,
        scopes: &[String],
    ) -> Result<NewToken, Error> {
        let name = crate::game::clean_text(name);
        let name = name.trim();
        if name.is_empty() || name.chars().count() > TOKEN_NAME_CHARS {
            return Err(Error::invalid(
                Code::BadName,
                format!("a token's name is 1 to {TOKEN_NAME_CHARS} characters"),
            ));
        }
        let mut chosen = Vec::new();
        for s in scopes {
            let scope = Scope::from_name(s).ok_or_else(|| {
                Error::invalid(
                    Code::BadScope,
                    format!(
                        "`{}` is not a scope (bot:play, board:play, read)",
                        crate::error::shown(s)
                    ),
                )
            })?;
            if !chosen.contains(&scope.name()) {
                chosen.push(scope.name());
            }
        }
        if chosen.is_empty() {
            return Err(Error::invalid(
                Code::BadScope,
                "a token needs a scope at least (bot:play, board:play, read)",
            ));
        }
        let live = self
            .accounts()
            .tokens(account.id)
            .await?
            .iter()
            .filter(|t| t.revoked_ms.is_none())
            .count();
        if live >= TOKENS_PER_ACCOUNT {
            return Err(Error::conflict(
                Code::TooManyTokens,
                format!("an account holds {TOKENS_PER_ACCOUNT} tokens at most: revoke one first"),
            ));
        }
        let secret = format!("{TOKEN_PREFIX}{}", new_secret().map_err(|e| no_random(&e))?);
        let id = crate::secret::new_game_id().map_err(|e| no_random(&e))?;
        self.accounts()
            .add_token(ApiToken {
                public_id: id.clone(),
                account_id: account.id,
                digest: digest(&secret),
                name: name.to_string(),
                scopes: chosen.join(" "),
                created_ms: self.games.now_ms(),
                revoked_ms: None,
                used_ms: None,
            })
            .await?;
        Ok(NewToken {
            id,
            token: secret,
            name: name.to_string(),
            scopes: chosen,
        })
    }

    /// `account`'s tokens, newest first.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn tokens(&self, account: &Account) -> Result<Vec<TokenView>, Error> {
        Ok(self
            .accounts()
            .tokens(account.id)
            .await?
            .iter()
            .map(TokenView::of)
            .collect())
    }

    /// `account` revokes its token `id`: its calls are refused from now
    /// on, and its streams end.
    ///
    /// # Errors
    ///
    /// `no_such_token` (none of its own, or revoked already), or a storage
    /// failure.
    pub async fn revoke(&self, account: &Account, id: &str) -> Result<(), Error> {
        if !self
            .accounts()
            .revoke_token(account.id, id.to_string(), self.games.now_ms())
            .await?
        {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchToken,
                format!("you have no token `{}` in use", crate::error::shown(id)),
            ));
        }
        let _ = self.revoked.send(id.to_string());
        Ok(())
    }

    /// The ids of the tokens revoked from now on (a stream ends when its
    /// token's is heard).
    pub fn revocations(&self) -> broadcast::Receiver<String> {
        self.revoked.subscribe()
    }

    /// Whether `caller`'s token is still valid (a stream asks now and
    /// then: a revocation on another process is heard so).
    pub async fn still_valid(&self, caller: &Caller) -> bool {
        matches!(
            self.accounts().token(caller.digest.clone()).await,
            Ok(Some(_))
        )
    }

    /// The caller of a request bearing `bearer` (the `Authorization`
    /// header's value, if any), for `scope`; each call counts against the
    /// token's rate.
    ///
    /// # Errors
    ///
    /// `no_token` and `bad_token` (401); `missing_scope`, `not_a_bot` (the
    /// bot API with a person's account), `bot_on_board_api` (403);
    /// `too_many` (429) past [`CALLS_PER_TOKEN`].
    pub async fn caller(&self, bearer: Option<&str>, scope: Scope) -> Result<Caller, Error> {
        self.caller_for(bearer, Some(scope)).await
    }

    /// The caller of a request bearing `bearer` for the play scope of
    /// their account's kind: `bot:play` for a bot, `board:play` for a
    /// person (the event stream, challenges).
    ///
    /// # Errors
    ///
    /// As [`Api::caller`].
    pub async fn player(&self, bearer: Option<&str>) -> Result<Caller, Error> {
        self.caller_for(bearer, None).await
    }

    /// What a token of scope `read` reads of its account, as lichess's
    /// `GET /api/account`: its name, role, whether a bot, kid mode... (what
    /// its owner's page shows of it; never its secrets).
    ///
    /// # Errors
    ///
    /// As [`Api::caller`]: `missing_scope` for a token without `read`.
    pub async fn read_account(&self, bearer: Option<&str>) -> Result<AccountView, Error> {
        Ok(self.caller(bearer, Scope::Read).await?.account.view())
    }

    /// The games of a `read` token's account, newest first, `limit` (1 to
    /// 100) from `before` (a page's `next`), as the page's My games.
    ///
    /// # Errors
    ///
    /// As [`Api::caller`]: `missing_scope` for a token without `read`; a
    /// storage failure.
    pub async fn read_games(
        &self,
        bearer: Option<&str>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> Result<Page, Error> {
        let caller = self.caller(bearer, Scope::Read).await?;
        self.games
            .list(Some(caller.player().clone()), before, limit.clamp(1, 100))
            .await
    }

    /// `bearer`'s account becomes a bot (its token of scope `bot:play`).
    ///
    /// # Errors
    ///
    /// As [`Api::caller`] and [`Api::upgrade`].
    pub async fn upgrade_by_token(&self, bearer: Option<&str>) -> Result<Account, Error> {
        let (token, account, _) = self.token_of(bearer).await?;
        if !token
            .scopes
            .split_whitespace()
            .any(|s| s == Scope::BotPlay.name())
        {
            return Err(missing(Scope::BotPlay));
        }
        self.upgrade(&account).await
    }

    /// The token of `bearer`, its account and digest, its call counted.
    async fn token_of(&self, bearer: Option<&str>) -> Result<(ApiToken, Account, String), Error> {
        let Some(header) = bearer else {
            return Err(Error::new(
                Kind::Unauthorized,
                Code::NoToken,
                "this call needs a personal API token: `Authorization: Bearer TOKEN`",
            ));
        };
        let secret = header
            .strip_prefix("Bearer ")
            .map(str::trim)
            .filter(|s| s.starts_with(TOKEN_PREFIX) && s.len() < 200)
            .ok_or_else(bad_token)?;
        let digest = digest(secret);
        let (token, account) = self
            .accounts()
            .token(digest.clone())
            .await?
            .ok_or_else(bad_token)?;
        let now = self.games.now_ms();
        self.calls.take(&token.public_id, 1, now)?;
        // Its last use, noted at most once a minute: a bot calling ten
        // times a second writes once a minute, not at each call. A failure
        // to note it does not fail the call.
        if token
            .used_ms
            .is_none_or(|used| now - used >= awale_store::TOKEN_USE_KEPT_MS)
        {
            if let Err(e) = self
                .accounts()
                .token_used(token.public_id.clone(), now)
                .await
            {
                tracing::warn!(error = %e, "a token's last use not noted");
            }
        }
        Ok((token, account, digest))
    }

    async fn caller_for(
        &self,
        bearer: Option<&str>,
        scope: Option<Scope>,
    ) -> Result<Caller, Error> {
        let (token, account, digest) = self.token_of(bearer).await?;
        let scope = scope.unwrap_or(if account.bot {
            Scope::BotPlay
        } else {
            Scope::BoardPlay
        });
        // The account's kind first: a person on the bot API is told so,
        // whatever their token's scopes.
        if scope == Scope::BotPlay && !account.bot {
            return Err(Error::forbidden(
                Code::NotABot,
                "the bot API is for bot accounts: upgrade this account to a bot, \
                 or play through the board API",
            ));
        }
        if scope == Scope::BoardPlay && account.bot {
            return Err(Error::forbidden(
                Code::BotOnBoardApi,
                "a bot plays through the bot API, not the board API",
            ));
        }
        if !token.scopes.split_whitespace().any(|s| s == scope.name()) {
            return Err(missing(scope));
        }
        Ok(Caller {
            account,
            token: token.public_id,
            scope,
            digest,
        })
    }

    /// Whether `player` has an online game among all their games (every
    /// page of their list: the newest may be one against the computer).
    async fn has_played_online(&self, player: &PlayerId) -> Result<bool, Error> {
        let mut before = None;
        loop {
            let page = self
                .games
                .store()
                .list(Some(player.clone()), before, 100)
                .await?;
            if page.games.iter().any(|g| g.mode == "online") {
                return Ok(true);
            }
            match page.next.as_deref().and_then(awale_store::parse_cursor) {
                Some(next) => before = Some(next),
                None => return Ok(false),
            }
        }
    }

    /// `account` becomes a bot, for good: it plays only through the bot
    /// API from now on.
    ///
    /// # Errors
    ///
    /// `already_bot`; `has_games` (an account that has played online keeps
    /// its games and ratings as a person's); or a storage failure.
    pub async fn upgrade(&self, account: &Account) -> Result<Account, Error> {
        if account.bot {
            return Err(Error::conflict(
                Code::AlreadyBot,
                "this account is a bot already",
            ));
        }
        if self.has_played_online(&account.player).await? {
            return Err(Error::conflict(
                Code::HasGames,
                "an account that has played online games cannot become a bot: make a new one",
            ));
        }
        self.accounts().set_bot(account.id).await?;
        self.people.changed(account.id);
        self.games.forget_person(&account.player);
        Ok(Account {
            bot: true,
            ..account.clone()
        })
    }

    /// Game `text` (a public id) if `caller` plays it, with their side. A
    /// person calling through the board API is noted as playing so (their
    /// seat shows it: [`crate::live::Presence`]'s `api`).
    ///
    /// # Errors
    ///
    /// `no_such_game`, `not_your_game` (a game of others: nothing is said
    /// of it beyond), or a storage failure.
    pub async fn my_game(&self, caller: &Caller, text: &str) -> Result<(WebGame, Side), Error> {
        let id = self.games.find(text, Some(caller.player())).await?;
        let game = self.games.load(id).await?;
        let side = (game.mode == Mode::Online)
            .then(|| game.online_seat(Some(caller.player())))
            .flatten()
            .ok_or_else(|| {
                Error::forbidden(
                    Code::NotYourGame,
                    format!("you do not play game `{}`", crate::error::shown(text)),
                )
            })?;
        if caller.scope == Scope::BoardPlay {
            self.games.hub().note_board_api(game.id, side);
        }
        Ok((game, side))
    }

    /// The whole game `text` for its player `caller`.
    ///
    /// # Errors
    ///
    /// As [`Api::my_game`].
    pub async fn game_full(&self, caller: &Caller, text: &str) -> Result<GameFull, Error> {
        let (game, you) = self.my_game(caller, text).await?;
        let mut players = [None, None];
        for side in Side::BOTH {
            if let Some(seat) = &game.seats[side.index()] {
                let bot = self
                    .accounts()
                    .account_of(seat.player.clone())
                    .await?
                    .is_some_and(|a| a.bot);
                players[side.index()] = Some(ApiPlayer {
                    name: seat.name.clone(),
                    bot,
                });
            }
        }
        let [south, north] = players;
        Ok(GameFull {
            kind: "gameFull",
            id: game.public_id.clone(),
            rated: game.rated,
            speed: game.speed().name(),
            clock: game.clock.map(|c| [c.initial_ms, c.increment_ms]),
            south,
            north,
            rules: game.game.rules().to_string(),
            you: you.letter(),
            state: game_state(&game, self.games.now_ms()),
        })
    }

    /// `caller` plays `mv` (a hole letter) in their game `text`.
    ///
    /// # Errors
    ///
    /// As [`Api::my_game`]; `bad_move` (no hole letter), `not_your_turn`,
    /// `illegal_move`, `game_over`.
    pub async fn play(&self, caller: &Caller, text: &str, mv: &str) -> Result<GameState, Error> {
        let (game, side) = self.my_game(caller, text).await?;
        let mv = parse_move(mv)?;
        let player = caller.player().clone();
        let (game, ()) = self
            .games
            .apply_move(game.id, None, mv, move |g| {
                g.check_side(Some(&player), side)?;
                g.check_side(Some(&player), mv.side())
            })
            .await?;
        Ok(game_state(&game, self.games.now_ms()))
    }

    /// `caller` resigns their game `text`.
    ///
    /// # Errors
    ///
    /// As [`Api::my_game`]; `game_over`.
    pub async fn resign(&self, caller: &Caller, text: &str) -> Result<GameState, Error> {
        let (game, _) = self.my_game(caller, text).await?;
        let now = || self.games.now_ms();
        let game = self
            .games
            .online_change_through(game.id, caller.player(), Door::Api, |g, side| {
                g.resign(side, now())
            })
            .await?;
        Ok(game_state(&game, self.games.now_ms()))
    }

    /// `caller` says yes to a draw in game `text` (offers one, or accepts
    /// the other's offer) or no (declines the other's offer), as lichess's
    /// `draw/{yes|no}`.
    ///
    /// # Errors
    ///
    /// As [`Api::my_game`] and [`Games::offer`] (`no_draw` for a no when
    /// nothing is offered).
    pub async fn draw(&self, caller: &Caller, text: &str, yes: bool) -> Result<GameState, Error> {
        let (game, side) = self.my_game(caller, text).await?;
        let offered_to_me = game.offers.draw == Some(side.opponent());
        let answer = match (yes, offered_to_me) {
            (true, false) => None,
            (yes, _) => Some(yes),
        };
        let game = self
            .games
            .offer_through(game.id, caller.player(), Offer::Draw, answer, Door::Api)
            .await?;
        Ok(game_state(&game, self.games.now_ms()))
    }

    /// `caller` says `message` in `room` of their game `text`, as lichess's
    /// `POST /api/bot/game/{id}/chat`: `player` (the two players' room) or
    /// `spectator` (everyone's). Said through the one chat service, with
    /// its rules: mutes, blocks, the flood limit, kid mode.
    ///
    /// # Errors
    ///
    /// `bad_room`; as [`Api::my_game`] and [`Chat::say_in_game`].
    pub async fn chat(
        &self,
        caller: &Caller,
        text: &str,
        room: &str,
        message: &str,
        client: Option<IpAddr>,
    ) -> Result<ChatLine, Error> {
        let room = api_room(room)?;
        let (game, _) = self.my_game(caller, text).await?;
        let who = Speaker {
            player: caller.player(),
            account: Some(&caller.account),
            client,
            door: Door::Api,
        };
        self.chat.say_in_game(who, game.id, room, message).await
    }

    /// `caller` challenges `new.to`. A bot may challenge a person only to
    /// a casual game: a person plays a bot rated only when they asked.
    ///
    /// # Errors
    ///
    /// `bot_rated_vs_person`, and as [`Challenges::make`].
    pub async fn challenge(
        &self,
        caller: &Caller,
        new: NewChallenge,
    ) -> Result<ChallengeView, Error> {
        if caller.account.bot && new.rated {
            let to = self
                .accounts()
                .account_by_key(new.to.trim().to_ascii_lowercase())
                .await?;
            if to.is_some_and(|a| !a.bot) {
                return Err(Error::forbidden(
                    Code::BotRatedVsPerson,
                    "a bot challenges a person to a casual game only: \
                     a rated game against a bot is the person's choice",
                ));
            }
        }
        let name = caller.account.username.clone();
        self.challenges
            .make_through(caller.player(), &name, new, Door::Api)
            .await
    }

    /// `caller` accepts challenge `id`.
    ///
    /// # Errors
    ///
    /// As [`Challenges::accept`].
    pub async fn accept(&self, caller: &Caller, id: i64) -> Result<Accepted, Error> {
        self.challenges
            .accept_through(id, caller.player(), Door::Api)
            .await
    }

    /// `caller` declines challenge `id`.
    ///
    /// # Errors
    ///
    /// As [`Challenges::decline`].
    pub async fn decline(&self, caller: &Caller, id: i64) -> Result<ChallengeView, Error> {
        self.challenges.decline(id, caller.player()).await
    }

    /// What a new event stream of `caller` starts with: the challenges
    /// waiting for their answer, then their online games going on (a
    /// bridge that comes back goes on with them).
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn events_first(&self, caller: &Caller) -> Result<Vec<AccountEvent>, Error> {
        let mut first: Vec<AccountEvent> = self
            .challenges
            .mine(caller.player())
            .await?
            .received
            .into_iter()
            .filter(|c| c.state == crate::challenges::ChallengeState::Open)
            .filter_map(|c| serde_json::to_value(c).ok())
            .map(|challenge| AccountEvent::Challenge { challenge })
            .collect();
        let page = self
            .games
            .store()
            .list(Some(caller.player().clone()), None, 50)
            .await?;
        for g in page.games {
            if g.mode == "online" && g.result == "*" && g.reason.is_none() {
                first.push(AccountEvent::GameStart { game: g.public_id });
            }
        }
        Ok(first)
    }

    /// The news of game `game` (just ended) for `caller`, if they played
    /// it.
    pub fn finish_of(caller: &Caller, game: &WebGame) -> Option<AccountEvent> {
        game.seats
            .iter()
            .flatten()
            .any(|s| s.player == *caller.player())
            .then(|| AccountEvent::GameFinish {
                game: game.public_id.clone(),
            })
    }

    /// What an event of the player's own channel (`name`, its JSON `data`)
    /// says on their API event stream, if anything.
    pub fn account_event(name: &str, data: &str) -> Option<AccountEvent> {
        match name {
            "challenge" => serde_json::from_str(data)
                .ok()
                .map(|challenge| AccountEvent::Challenge { challenge }),
            "game_start" => serde_json::from_str(data)
                .ok()
                .map(|game| AccountEvent::GameStart { game }),
            _ => None,
        }
    }

    /// The games in use (streams listen to them).
    pub fn games(&self) -> &Arc<Games> {
        &self.games
    }
}

/// A game's room as the API names it: lichess's `player` and `spectator`
/// (this site's own `players` and `public` understood too).
fn api_room(name: &str) -> Result<Room, Error> {
    match name {
        "player" | "players" => Ok(Room::Players),
        "spectator" | "public" => Ok(Room::Public),
        other => Err(Error::invalid(
            Code::BadRoom,
            format!(
                "`{}` is not a room (player or spectator)",
                crate::error::shown(other)
            ),
        )
        .with("text", other)),
    }
}

fn missing(scope: Scope) -> Error {
    Error::forbidden(
        Code::MissingScope,
        format!("this token lacks the scope `{}`", scope.name()),
    )
    .with("scope", scope.name())
}

/// The refusal of a bot's account at a people's door (the pages' online
/// games, seats, moves, challenges): a bot plays only through the bot API.
pub fn bot_api_only() -> Error {
    Error::forbidden(
        Code::BotApiOnly,
        "a bot plays only through the bot API (docs/BOTS.md), not from the site's pages",
    )
}

/// Whether `account` may join people's quick pairing: a bot never does.
///
/// # Errors
///
/// `bot_in_pools`.
pub fn check_may_seek(account: Option<&Account>) -> Result<(), Error> {
    if account.is_some_and(|a| a.bot) {
        return Err(Error::forbidden(
            Code::BotInPools,
            "a bot never joins people's quick pairing: it is challenged, or plays in the bot arena",
        ));
    }
    Ok(())
}

fn no_random(e: &dyn std::fmt::Display) -> Error {
    Error::internal(format!("no random bytes for a token: {e}"))
}
