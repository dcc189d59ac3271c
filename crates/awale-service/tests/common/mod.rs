//! What the service tests share: players by number, the tournaments on
//! a store, a wait for a tournament's view, the check of a refusal. Each test
//! program uses its part (`mod common;`).
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use awale_model::game::PlayerId;
use awale_service::clock::Clock;
use awale_service::games::Games;
use awale_service::live::Hub;
use awale_service::tournaments::{TournamentView, Tournaments};
use awale_store::Store;

/// The player numbered `n`.
pub fn player(n: u8) -> PlayerId {
    PlayerId(format!("{n:064x}"))
}

/// What player `maker` asks for: a game in `mode`, casual, no clock
/// (from no known address).
pub fn ask(maker: &PlayerId, mode: awale_model::game::Mode) -> awale_service::games::NewGame {
    awale_service::games::NewGame {
        maker: maker.clone(),
        client: None,
        name: "Ama".to_string(),
        account: false,
        mode,
        game: awale_core::Game::new(awale_core::Rules::AWALE),
        seed: 7,
        clock: None,
        side: awale_core::Side::South,
        public: false,
        rated: false,
        rating_range: None,
    }
}

/// Plays `mv` in game `id` as the player seated on its side (through the
/// service's `play`, as a page's move goes), having seen `ply` moves.
pub async fn play_seated(
    games: &Arc<Games>,
    id: i64,
    ply: Option<usize>,
    mv: awale_core::Move,
) -> Result<awale_model::game::WebGame, awale_model::Error> {
    let game = games.load(id).await?;
    let player = game.seats[mv.side().index()]
        .as_ref()
        .map(|s| s.player.clone());
    games.play(id, player.as_ref(), ply, mv).await
}

/// The player seated on `side` of game `id` resigns it.
pub async fn resign_seated(
    games: &Arc<Games>,
    id: i64,
    side: awale_core::Side,
) -> Result<awale_model::game::WebGame, awale_model::Error> {
    let game = games.load(id).await?;
    let player = game.seats[side.index()].as_ref().map(|s| s.player.clone());
    games.resign(id, player.as_ref(), Some(side)).await
}

/// A scratch games file's path, in a directory that lasts as long as
/// the first value kept.
pub fn games_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db");
    (dir, path)
}

/// The games and the tournaments on `store`, the tournaments' timers
/// started, on a clock the test moves forward at will (`games.clock()`).
pub fn service(store: Store) -> (Arc<Games>, Arc<Tournaments>) {
    let store = Arc::new(store);
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default())).with_clock(Clock::adjustable()),
    );
    let tournaments = Tournaments::new(Arc::clone(&games), store, None);
    tournaments.start().unwrap();
    (games, tournaments)
}

/// [`service`], its games rated and on `clock` (a test's, moved forward
/// at will).
pub fn rated_service_on(store: Store, clock: Clock) -> (Arc<Games>, Arc<Tournaments>) {
    let store = Arc::new(store);
    let games = Arc::new(
        Games::new(store.clone(), Arc::new(Hub::default()))
            .with_ratings(store.clone())
            .with_clock(clock),
    );
    let tournaments = Tournaments::new(Arc::clone(&games), store, None);
    tournaments.start().unwrap();
    (games, tournaments)
}

/// Waits until `check` holds of tournament `id`'s view as player 1 sees
/// it: read again at each change the tournament tells its watchers (its
/// standings, a player's game), not polled; a minute without it fails.
pub async fn until(
    t: &Tournaments,
    id: i64,
    check: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    let (mut standings, _) = t.watch(id).await.unwrap();
    let mut games = t.follow_games(id).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let view = t.get(id, Some(&player(1))).await.unwrap();
        if check(&view) {
            return view;
        }
        tokio::select! {
            _ = standings.recv() => {}
            _ = games.recv() => {}
            () = tokio::time::sleep_until(deadline) => {
                panic!("never happened: {:?}", t.get(id, None).await.unwrap())
            }
        }
    }
}

/// Checks that `answer` is the refusal `code`.
pub fn refused_as<T: std::fmt::Debug>(answer: Result<T, awale_model::Error>, code: &str) {
    assert_eq!(answer.unwrap_err().code, code);
}

/// The password of every test account.
pub const PASSWORD: &str = "seeds in the fourth hole";

/// Client address `n` (10.0.0.n).
pub fn ip(n: u8) -> Option<std::net::IpAddr> {
    Some(std::net::IpAddr::from([10, 0, 0, n]))
}

/// Whether a [`World`]'s games are rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ratings {
    /// Not rated, on the system's clock (the accounts' tests).
    Off,
    /// Rated (fair play kept in the store too), on a clock the test moves
    /// forward at will (the moderators' and fair play's tests).
    On,
}

/// The games, accounts and moderators over one store.
pub struct World {
    /// The store (a clone shares it).
    pub store: Store,
    /// The games.
    pub games: Arc<Games>,
    /// The accounts, with a cheaper argon2id than the server's (the rules
    /// are the same).
    pub accounts: Arc<awale_service::accounts::Accounts>,
    /// The moderators' work.
    pub moderation: awale_service::moderation::Moderation,
}

/// A [`World`] over a scratch store.
pub fn world(ratings: Ratings) -> World {
    world_on(Store::in_memory().unwrap(), ratings)
}

/// A [`World`] over `store` (another world over the same store is
/// another process sharing it; one over the store opened again, a
/// restart).
pub fn world_on(store: Store, ratings: Ratings) -> World {
    let games = Games::new(Arc::new(store.clone()), Arc::new(Hub::default()));
    let games = Arc::new(match ratings {
        Ratings::Off => games,
        Ratings::On => games
            .with_ratings(Arc::new(store.clone()))
            .with_clock(Clock::adjustable()),
    });
    let accounts = Arc::new(
        awale_service::accounts::Accounts::with_cost(
            Arc::new(store.clone()),
            Arc::clone(&games),
            1024,
            1,
        )
        .unwrap(),
    );
    let moderation = awale_service::moderation::Moderation::new(
        Arc::new(store.clone()),
        Arc::clone(&accounts),
        Arc::clone(&games),
    );
    World {
        store,
        games,
        accounts,
        moderation,
    }
}

impl World {
    /// A new account of `name` with [`PASSWORD`], made from address `n`.
    pub async fn sign_up(&self, name: &str, n: u8) -> awale_service::accounts::SignedUp {
        self.accounts
            .sign_up(name, PASSWORD, None, ip(n))
            .await
            .unwrap()
    }
}

/// The bot API over a test's games, through which its bots move (a bot's
/// account is refused at the people's door), each bot's token made at its
/// first move.
pub struct Bots {
    api: awale_service::bots::Api,
    store: Arc<Store>,
    tokens: Mutex<HashMap<i64, String>>,
}

impl Bots {
    /// The bot API over `games`, its accounts `accounts` on `store`.
    pub fn new(
        games: &Arc<Games>,
        accounts: &Arc<awale_service::accounts::Accounts>,
        store: &Arc<Store>,
    ) -> Bots {
        let chat = awale_service::chat::Chat::new(
            Arc::clone(games),
            Arc::clone(accounts),
            Tournaments::new(Arc::clone(games), store.clone(), None),
            store.clone(),
            awale_service::limiter::Rate {
                burst: 5,
                every_ms: 2_000,
            },
        );
        let challenges =
            awale_service::challenges::Challenges::new(Arc::clone(games), store.clone());
        Bots {
            api: awale_service::bots::Api::new(
                Arc::clone(games),
                Arc::clone(accounts),
                Arc::new(challenges),
                Arc::new(chat),
            ),
            store: store.clone(),
            tokens: Mutex::new(HashMap::new()),
        }
    }

    /// Plays `mv` in game `id` as whoever sits on its side, having seen
    /// `ply` moves: a bot through the bot API, a person through the
    /// service's `play` (as [`play_seated`]).
    pub async fn play_seated(
        &self,
        games: &Arc<Games>,
        id: i64,
        ply: usize,
        mv: awale_core::Move,
    ) -> Result<(), awale_model::Error> {
        let game = games.load(id).await?;
        let Some(caller) = self.bot_on(&game, mv.side()).await? else {
            return play_seated(games, id, Some(ply), mv).await.map(|_| ());
        };
        let letter = mv.letter().to_string();
        self.api
            .play(&caller, &game.public_id, &letter)
            .await
            .map(|_| ())
    }

    /// Resigns game `id` as whoever sits on `side`: a bot through the bot
    /// API, a person through the service's `resign` (as
    /// [`resign_seated`]).
    pub async fn resign_seated(
        &self,
        games: &Arc<Games>,
        id: i64,
        side: awale_core::Side,
    ) -> Result<(), awale_model::Error> {
        let game = games.load(id).await?;
        let Some(caller) = self.bot_on(&game, side).await? else {
            return resign_seated(games, id, side).await.map(|_| ());
        };
        self.api.resign(&caller, &game.public_id).await.map(|_| ())
    }

    /// The bot API's caller for the bot seated on `side` of `game` (its
    /// token made once), or None when a person sits there.
    async fn bot_on(
        &self,
        game: &awale_model::game::WebGame,
        side: awale_core::Side,
    ) -> Result<Option<awale_service::bots::Caller>, awale_model::Error> {
        use awale_store::AccountStore;
        let bot = match game.seats[side.index()].as_ref() {
            Some(seat) => self
                .store
                .account_of(seat.player.clone())
                .await?
                .filter(|a| a.bot),
            None => None,
        };
        let Some(bot) = bot else {
            return Ok(None);
        };
        let known = self.tokens.lock().unwrap().get(&bot.id).cloned();
        let token = match known {
            Some(token) => token,
            None => {
                let made = self
                    .api
                    .make_token(&bot, "engine", &["bot:play".to_string()])
                    .await?;
                self.tokens
                    .lock()
                    .unwrap()
                    .insert(bot.id, made.token.clone());
                made.token
            }
        };
        let bearer = format!("Bearer {token}");
        self.api
            .caller(Some(&bearer), awale_service::bots::Scope::BotPlay)
            .await
            .map(Some)
    }
}
