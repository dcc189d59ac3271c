//! Awalé in the browser, over HTTP: the JSON API (axum), live updates as
//! server-sent events, the bot API, and the page itself, embedded in the
//! binary. It carries; it decides nothing: each handler reads a request,
//! calls one operation of the game service (`awale_service`: every rule,
//! every store access) and answers its view.
//!
//! The layers, from the outside in: [`server`] (sockets, limits,
//! shutdown), then `http` (routes, guard, extractors, handlers), over the
//! service, which keeps its games in `awale_store` (SQLite or PostgreSQL)
//! as `awale_model` describes them. [`app`] builds the router from an
//! [`AppState`]; tests call it directly (`oneshot`).
//!
//! ```
//! use awale_store::Store;
//! use awale_web::{app, AppState, Config};
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let state = AppState::new(Store::in_memory().unwrap(), Config::default()).unwrap();
//! let router = app(state);
//! # let _ = router;
//! # });
//! ```
#![deny(missing_docs)]

use std::sync::Arc;
use std::time::Duration;

mod http;
pub mod ndjson;
pub mod server;

// The lower crates' modules the handlers use (not re-exported: other
// crates name `awale_service`, `awale_model` and `awale_store` themselves).
use awale_model::{error, game, lock, rating, secret, view, Error};
use awale_service::{
    accounts, bots, challenges, clock, computer, games, guests, handoff, limiter, live, mistakes,
    players, pools, round, study, tournaments,
};
use awale_store as store;
pub use http::app;
pub use http::error::ApiError;
pub use http::guard::Policy;
// For `benches/qr.rs`: the drawing itself, not the codes kept.
#[doc(hidden)]
pub use http::qr::svg as qr_svg;

use awale_model::Code;
use limiter::Rate;

/// Limits of the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Longest time the computer thinks over one move.
    pub move_time: Duration,
    /// The time the games in use read (the system's; a test's to make a
    /// flag fall without waiting).
    pub clock: clock::Clock,
    /// Longest time for a hint.
    pub hint_time: Duration,
    /// How many searches may run at once.
    pub max_searches: usize,
    /// How many more may wait for their turn (beyond: 503).
    pub max_queued_searches: usize,
    /// Largest request body, in bytes (game records may be larger: see
    /// `max_record_bytes`).
    pub max_body_bytes: usize,
    /// Largest imported record file, in bytes.
    pub max_record_bytes: usize,
    /// Longest time a client may take to send a request's body.
    pub body_timeout: Duration,
    /// Who the server answers to and how its cookies are set.
    pub policy: Policy,
    /// The address players reach the server at (`https://awale.example.org`),
    /// for invite links; None: the address the browser used.
    pub public_url: Option<String>,
    /// Rate limits per client: games made (imports, uploads, and the
    /// online games offered, seeks, challenges and rematches too).
    pub create_rate: Rate,
    /// Rate limits per player (and four times as much per client
    /// address): chat messages.
    pub chat_rate: Rate,
    /// Rate limits per player (and per client address): reactions.
    pub reaction_rate: Rate,
    /// New players (the cookie given on a first visit) per client address.
    pub player_rate: Rate,
    /// The key that tags the guests' secrets the server issues (kept in
    /// the data folder by `awale serve`; None: a new one, for this state's
    /// life only).
    pub guest_key: Option<awale_model::secret::GuestKey>,
    /// Online games a player may offer, pool seeks, direct challenges and
    /// rematches asked (one limit; four times as many per client address).
    pub challenge_rate: Rate,
    /// Log-ins (and password checks) per account.
    pub login_rate: Rate,
    /// Log-ins per client address.
    pub login_client_rate: Rate,
    /// Sign-ups per client address.
    pub signup_rate: Rate,
    /// How long the maker of an online game waiting for its second player
    /// may be away (never connected yet, or gone: a reload, a network
    /// change) before it is withdrawn.
    pub challenge_grace: Duration,
    /// Who appears on the leaderboards.
    pub leaderboard: store::ratings::BoardRule,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            move_time: Duration::from_secs(3),
            clock: clock::Clock::system(),
            hint_time: Duration::from_millis(1500),
            max_searches: 2,
            max_queued_searches: 32,
            max_body_bytes: 16 * 1024,
            max_record_bytes: 1024 * 1024,
            body_timeout: Duration::from_secs(20),
            policy: Policy::default(),
            public_url: None,
            create_rate: awale_service::limits::GAMES_PER_CLIENT,
            chat_rate: Rate {
                burst: 5,
                every_ms: 2_000,
            },
            reaction_rate: awale_service::limits::REACTIONS_PER_PLAYER,
            player_rate: awale_service::guests::NEW_GUESTS_PER_CLIENT,
            guest_key: None,
            challenge_rate: awale_service::limits::OFFERS_PER_PLAYER,
            login_rate: accounts::LOGINS_PER_ACCOUNT,
            login_client_rate: accounts::LOGINS_PER_CLIENT,
            signup_rate: accounts::SIGNUPS_PER_CLIENT,
            challenge_grace: Duration::from_secs(20),
            leaderboard: store::ratings::BoardRule::default(),
        }
    }
}

/// What every request handler shares: the games, the computer, the limits.
#[derive(Clone)]
pub struct AppState {
    shared: Arc<Shared>,
}

struct Shared {
    games: Arc<games::Games>,
    accounts: Arc<accounts::Accounts>,
    moderation: awale_service::moderation::Moderation,
    computer: Arc<computer::Computer>,
    config: Config,
    policy: Policy,
    /// The public URL, read (its path ends with `/`): links start with it.
    public_url: Option<url::Url>,
    /// Guests: the secrets the server issued, new ones per client address.
    guests: guests::Guests,
    handoffs: handoff::Handoffs,
    /// Direct challenges, from players' pages.
    direct: Arc<challenges::Challenges>,
    /// The API for bots and other clients (tokens, bots).
    api: Arc<bots::Api>,
    /// Quick pairing.
    pools: Arc<pools::Pools>,
    /// Players' pages and leaderboards.
    player_pages: Arc<players::Players>,
    /// Arenas.
    tournaments: Arc<tournaments::Tournaments>,
    /// The engine ladder (bots paired continuously).
    ladder: Arc<awale_service::ladder::Ladder>,
    /// Every chat room: games' and tournaments'.
    chat: Arc<awale_service::chat::Chat>,
    /// Set when the server stops: live streams end.
    stopping: tokio::sync::watch::Sender<bool>,
    /// The study pages' puzzles' database.
    study: Arc<study::Study>,
    /// The players' mistakes as puzzles.
    mistakes: mistakes::Mistakes,
    /// The opening explorer.
    explorer: awale_service::explorer::Explorer,
    /// Puzzle ratings and streaks.
    puzzles: awale_service::puzzles::Puzzles,
    /// The learning parts of players' pages.
    learning: awale_service::learning::Learning,
}

/// Reads a public URL (`--public-url`): `http` or `https`, with a host,
/// and neither a query nor a fragment. Links are made from it: its path is
/// given a final `/` (`https://example.org/awale` serves at `/awale/`).
///
/// # Errors
///
/// What is wrong with it, in words.
pub fn parse_public_url(text: &str) -> Result<url::Url, String> {
    let mut url = url::Url::parse(text)
        .map_err(|e| format!("the public URL `{text}` cannot be read: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "the public URL `{text}` must start with http:// or https://"
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("the public URL `{text}` has no host"));
    }
    if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
        return Err(format!(
            "the public URL `{text}` is the server's address only (no user, query or `#` part)"
        ));
    }
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

/// What a server keeps its games, accounts, ratings, tournaments and
/// tournament chat in: the games file ([`Store`]) or PostgreSQL
/// ([`PgStore`]).
pub trait ServerStore: store::Stores + Clone + 'static {}

impl<T: store::Stores + Clone + 'static> ServerStore for T {}

impl AppState {
    /// The state of a server storing its games in `store` (the games file,
    /// [`Store`], or PostgreSQL, [`PgStore`]). Starts the
    /// clocks' keeper, so it needs a Tokio runtime.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub fn new(store: impl ServerStore, config: Config) -> Result<AppState, Error> {
        AppState::with_oracle(store, config, None)
    }

    /// The same, with endgame knowledge for the computer, hints and review:
    /// `oracles` finds the database for a game's rules (None when there is
    /// none).
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub fn with_oracle(
        store: impl ServerStore,
        config: Config,
        oracles: Option<computer::OracleSource>,
    ) -> Result<AppState, Error> {
        let computer = Arc::new(computer::Computer::new(
            oracles,
            config.max_searches,
            config.max_queued_searches,
        ));
        let store = Arc::new(store);
        let guest_key = match &config.guest_key {
            Some(key) => key.clone(),
            None => secret::GuestKey::new()
                .map_err(|e| Error::internal(format!("no random bytes for a key: {e}")))?,
        };
        let guests =
            guests::Guests::new(guest_key.clone(), config.player_rate, Some(store.clone()));
        let games = Arc::new(
            games::Games::new(
                store.clone(),
                Arc::new(live::Hub::new(config.clock.clone())),
            )
            .with_computer(Arc::clone(&computer), config.move_time)
            .with_ratings(store.clone())
            .with_bots(store.clone())
            .with_clock(config.clock.clone())
            .with_limits(awale_service::limits::Rates {
                games: config.create_rate,
                offers: config.challenge_rate,
                reactions: config.reaction_rate,
                ..awale_service::limits::Rates::default()
            }),
        );
        let accounts = Arc::new(
            accounts::Accounts::new(store.clone(), Arc::clone(&games))?
                .with_limits(
                    config.login_rate,
                    config.login_client_rate,
                    config.signup_rate,
                )
                // Device cookies outlive a restart with the guests' key.
                .with_device_key(secret::hmac_sha256(&guest_key.bytes(), b"awale device key")),
        );
        games.start()?;
        {
            // The name skeletons of accounts made before they were kept.
            let accounts = Arc::clone(&accounts);
            tokio::spawn(async move {
                match accounts.index_names().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(accounts = n, "name skeletons kept"),
                    Err(e) => tracing::warn!(error = %e, "name skeletons not kept"),
                }
            });
        }
        games.set_challenge_grace(config.challenge_grace);
        // Blocks are the accounts' (asked when a pairing is found).
        let pools = pools::Pools::with_accounts(
            Arc::clone(&games),
            Arc::new(|_: &_, _: &_| false),
            Some(store.clone()),
        );
        pools.start();
        let ladder =
            awale_service::ladder::Ladder::new(Arc::clone(&games), store.clone(), store.clone());
        ladder.start();
        let tournaments =
            tournaments::Tournaments::new(Arc::clone(&games), store.clone(), Some(store.clone()));
        tournaments.start()?;
        let chat = Arc::new(awale_service::chat::Chat::new(
            Arc::clone(&games),
            Arc::clone(&accounts),
            Arc::clone(&tournaments),
            store.clone(),
            config.chat_rate,
        ));
        chat.start(store.notices());
        let direct = Arc::new(challenges::Challenges::new(
            Arc::clone(&games),
            store.clone(),
        ));
        direct.start();
        let api = Arc::new(bots::Api::new(
            Arc::clone(&games),
            Arc::clone(&accounts),
            Arc::clone(&direct),
            Arc::clone(&chat),
        ));
        let moderation = awale_service::moderation::Moderation::new(
            store.clone(),
            Arc::clone(&accounts),
            Arc::clone(&games),
        );
        let mistakes = mistakes::Mistakes::new(store.clone(), store.clone(), Arc::clone(&computer));
        let explorer = awale_service::explorer::Explorer::new(store.clone(), Arc::clone(&computer));
        let study: Arc<study::Study> = Arc::default();
        let puzzles = awale_service::puzzles::Puzzles::new(
            store.clone(),
            Arc::clone(&study),
            Arc::clone(&computer),
        );
        let learning =
            awale_service::learning::Learning::new(store.clone(), store.clone(), store.clone());
        let player_pages = Arc::new(
            players::Players::new(store.clone(), store.clone(), store, config.leaderboard)
                .with_presence(Arc::clone(games.hub()))
                .with_clock(config.clock.clone()),
        );
        let mut policy = config.policy.clone();
        let public_url = match &config.public_url {
            Some(text) => Some(
                parse_public_url(text).map_err(|why| Error::invalid(Code::BadPublicUrl, why))?,
            ),
            None => None,
        };
        if let Some(url) = &public_url {
            if let Some(host) = url.host_str() {
                policy
                    .allowed_hosts
                    .push(host.trim_matches(['[', ']']).to_string());
            }
            policy.secure_cookies |= url.scheme() == "https";
            policy.public_origin = Some(url.origin().ascii_serialization());
        }
        Ok(AppState {
            shared: Arc::new(Shared {
                computer,
                games,
                accounts,
                guests,
                handoffs: handoff::Handoffs::default(),
                direct,
                api,
                pools,
                player_pages,
                tournaments,
                ladder,
                moderation,
                chat,
                stopping: tokio::sync::watch::channel(false).0,
                policy,
                public_url,
                config,
                study,
                puzzles,
                learning,
                mistakes,
                explorer,
            }),
        })
    }

    /// Gives the study pages the exact endgame database of the `awale`
    /// rules, which puzzles come from (None: no puzzles).
    pub fn set_puzzle_database(&self, db: Option<Arc<awale_db::Database>>) {
        self.shared.study.set_database(db);
    }

    /// Builds the levels of the `awale` rules missing in `root` up to
    /// `target` seeds, in the background at the lowest priority, each put
    /// in use (puzzles, the computer's oracle) as soon as it is written
    /// (`awale_service::databases`).
    ///
    /// # Errors
    ///
    /// When its thread cannot be started.
    pub fn build_databases(
        &self,
        root: std::path::PathBuf,
        target: u8,
        threads: usize,
    ) -> std::io::Result<()> {
        awale_service::databases::build_in_background(
            root,
            target,
            threads,
            Arc::clone(&self.shared.study),
            Arc::clone(&self.shared.computer),
        )
        .map(drop)
    }

    /// The games in use.
    pub fn games(&self) -> &Arc<games::Games> {
        &self.shared.games
    }

    /// The guests (the secrets the server issued).
    pub fn guests(&self) -> &guests::Guests {
        &self.shared.guests
    }

    /// The accounts.
    pub fn accounts(&self) -> &Arc<accounts::Accounts> {
        &self.shared.accounts
    }

    /// The engine ladder (`awale serve --house-bots` enters its house
    /// bots).
    pub fn ladder(&self) -> &Arc<awale_service::ladder::Ladder> {
        &self.shared.ladder
    }

    /// The tournaments.
    pub fn tournaments(&self) -> &Arc<tournaments::Tournaments> {
        &self.shared.tournaments
    }

    /// The computer.
    pub fn computer(&self) -> &Arc<computer::Computer> {
        &self.shared.computer
    }

    /// Ends the live streams (the server is stopping).
    pub fn stop(&self) {
        let _ = self.shared.stopping.send(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_is_an_http_address_and_nothing_more() {
        let url = parse_public_url("https://Awale.Example.org:443/awale").unwrap();
        assert_eq!(url.as_str(), "https://awale.example.org/awale/");
        assert_eq!(
            parse_public_url("http://10.0.0.5:8080").unwrap().as_str(),
            "http://10.0.0.5:8080/"
        );
        for (bad, why) in [
            ("awale.example.org", "cannot be read"),
            ("ftp://awale.example.org", "http:// or https://"),
            ("https://awale.example.org/?x=1", "no user, query"),
            ("https://awale.example.org/#top", "no user, query"),
            ("https://me@awale.example.org/", "no user, query"),
            ("https://", "cannot be read"),
        ] {
            let said = parse_public_url(bad).unwrap_err();
            assert!(said.contains(why), "{bad}: {said}");
        }
    }

    #[tokio::test]
    async fn the_public_origin_is_the_one_browsers_send() {
        let config = Config {
            public_url: Some("https://Awale.Example.org:443/awale".into()),
            ..Config::default()
        };
        let state = AppState::new(awale_store::Store::in_memory().unwrap(), config).unwrap();
        let policy = &state.shared.policy;
        // Browsers leave the default port out of `Origin`.
        assert_eq!(
            policy.public_origin.as_deref(),
            Some("https://awale.example.org")
        );
        assert!(policy
            .allowed_hosts
            .contains(&"awale.example.org".to_string()));
        assert!(policy.secure_cookies);
        let bad = Config {
            public_url: Some("awale.example.org".into()),
            ..Config::default()
        };
        let refused = AppState::new(awale_store::Store::in_memory().unwrap(), bad).err();
        assert_eq!(refused.map(|e| e.code.as_str()), Some("bad_public_url"));
    }
}
