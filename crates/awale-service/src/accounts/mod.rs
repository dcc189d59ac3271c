//! Accounts: a username and a password, optional (a guest plays as
//! before). Signing up takes over the browser's guest (its games, seats
//! and name); a log-in opens a session whose secret the browser keeps in
//! a cookie and the store keeps only as a digest. Passwords are hashed
//! with argon2id off the async threads, a few at a time ([`HASHING`]), so
//! a flood of log-ins does not slow the games; log-ins are limited per
//! account and per address, with the wait told. Also here: recovery
//! codes, blocks, reports and the moderators' actions, kid mode.
//!
//! [`Accounts`] is one type; its operations live by what they are about:
//! `names` (usernames, reserved names, guests' names), `passwords`
//! (hashing, recovery codes, changing and resetting), `log_in` (signing up
//! and logging in, their limits), `sessions` (sessions and devices),
//! `blocks` (blocks and reports) and `moderation`. Every time is read from
//! the games' clock.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use argon2::password_hash::{PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};

use crate::error::{Error, Kind};
use crate::game::{clean_text, PlayerId};
use crate::games::Games;
use crate::limiter::{Limit, Limiter, Rate};
use crate::lock;
use crate::secret::{digest, new_secret, random_bytes};
use crate::store::{AccountStore, NewAccount, NewReport};
use awale_model::account::{Account, Report, Role};

mod blocks;
mod log_in;
mod moderation;
mod names;
mod passwords;
mod rename;
mod sessions;

pub use crate::game::{look_alike, name_skeletons};
use awale_model::Code;
use log_in::account_key;
pub use log_in::{LoggedIn, SignedUp};
use moderation::closed;
pub use names::{check_single_script, looks_reserved, parse_username};
pub use passwords::{
    check_password, ARGON2_LANES, ARGON2_MEMORY_KIB, ARGON2_PASSES, HASHING, MAX_WAITING_HASHES,
};
use passwords::{new_recovery_code, normal_code};

/// Shortest and longest username, in characters.
pub const USERNAME_CHARS: (usize, usize) = (3, 20);

/// Shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Longest password, in bytes (hashing a megabyte is a way to tire the
/// server, not a password).
pub const MAX_PASSWORD_BYTES: usize = 256;

/// Recovery codes given at sign-up.
pub const RECOVERY_CODES: usize = 10;

/// How long a session lasts (30 days), from its log-in.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// Longest report text, in characters.
pub const MAX_REPORT_CHARS: usize = 500;

/// Why a player may be reported.
pub const REPORT_REASONS: [&str; 5] = ["cheating", "insults", "spam", "name", "other"];

/// Log-ins (and password resets) per account: 5 at once, then one every
/// 30 s.
pub const LOGINS_PER_ACCOUNT: Rate = Rate {
    burst: 5,
    every_ms: 30_000,
};

/// Log-ins per client address: 20 at once, then one every 3 s.
pub const LOGINS_PER_CLIENT: Rate = Rate {
    burst: 20,
    every_ms: 3_000,
};

/// Sign-ups per client address: 5 at once, then one every minute.
pub const SIGNUPS_PER_CLIENT: Rate = Rate {
    burst: 5,
    every_ms: 60_000,
};

/// Reports per account: 5 at once, then one a minute.
const REPORTS_PER_ACCOUNT: Rate = Rate {
    burst: 5,
    every_ms: 60_000,
};

fn no_randomness() -> Error {
    Error::internal("the system gave no random bytes")
}

fn no_account(name: &str) -> Error {
    Error::new(
        Kind::NotFound,
        Code::NoSuchAccount,
        format!("no account `{}`", crate::error::shown(name)),
    )
}

/// The folded key of `account`'s username, as log-ins count it.
fn key_of(account: &Account) -> String {
    account_key(&account.username)
}

/// The accounts of the server.
pub struct Accounts {
    store: Arc<dyn AccountStore>,
    games: Arc<Games>,
    argon: Argon2<'static>,
    /// Turns to hash (see [`HASHING`]).
    hashing: tokio::sync::Semaphore,
    waiting: AtomicUsize,
    logins: Limiter<String>,
    login_clients: Limiter<Option<IpAddr>>,
    signups: Limiter<Option<IpAddr>>,
    reports: Limiter<i64>,
    /// Sessions looked up lately: digest -> (account, when looked up).
    sessions: Mutex<HashMap<String, (Option<Account>, i64)>>,
    /// A hash to verify against when the username is unknown, so that the
    /// answer takes as long as for a known one.
    decoy: String,
    /// The key that tags device cookies.
    device_key: [u8; 32],
}

impl Accounts {
    /// The accounts kept in `store`, whose guests' games are `games`, with
    /// argon2id's cost of [`ARGON2_MEMORY_KIB`], [`ARGON2_PASSES`],
    /// [`ARGON2_LANES`].
    ///
    /// # Errors
    ///
    /// When the system gives no random bytes.
    pub fn new(store: Arc<dyn AccountStore>, games: Arc<Games>) -> Result<Accounts, Error> {
        Accounts::with_cost(store, games, ARGON2_MEMORY_KIB, ARGON2_PASSES)
    }

    /// The same with another cost for new hashes (tests: a cheaper one).
    ///
    /// # Errors
    ///
    /// When the cost is not argon2's, or the system gives no random bytes.
    pub fn with_cost(
        store: Arc<dyn AccountStore>,
        games: Arc<Games>,
        memory_kib: u32,
        passes: u32,
    ) -> Result<Accounts, Error> {
        let params = Params::new(memory_kib, passes, ARGON2_LANES, None)
            .map_err(|e| Error::internal(format!("argon2's parameters: {e}")))?;
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let salt = SaltString::encode_b64(&random_bytes::<16>().map_err(|_| no_randomness())?)
            .map_err(|e| Error::internal(format!("salt: {e}")))?;
        let decoy = argon
            .hash_password(b"not a password of anyone", &salt)
            .map_err(|e| Error::internal(format!("argon2: {e}")))?
            .to_string();
        Ok(Accounts {
            store,
            games,
            argon,
            hashing: tokio::sync::Semaphore::new(*HASHING),
            waiting: AtomicUsize::new(0),
            logins: Limiter::new(Limit::Logins, LOGINS_PER_ACCOUNT),
            login_clients: Limiter::new(Limit::Logins, LOGINS_PER_CLIENT),
            signups: Limiter::new(Limit::SignUps, SIGNUPS_PER_CLIENT),
            reports: Limiter::new(Limit::Reports, REPORTS_PER_ACCOUNT),
            sessions: Mutex::new(HashMap::new()),
            decoy,
            device_key: random_bytes().map_err(|_| no_randomness())?,
        })
    }

    /// The same with other limits: log-ins (and resets, password checks)
    /// per account and per client address, sign-ups per address.
    pub fn with_limits(mut self, per_account: Rate, per_client: Rate, sign_ups: Rate) -> Accounts {
        self.logins = Limiter::new(Limit::Logins, per_account);
        self.login_clients = Limiter::new(Limit::Logins, per_client);
        self.signups = Limiter::new(Limit::SignUps, sign_ups);
        self
    }

    /// The store.
    pub fn store(&self) -> &dyn AccountStore {
        &*self.store
    }

    /// Now, on the games' clock (the one every time here is read from).
    fn now_ms(&self) -> i64 {
        self.games.now_ms()
    }

    /// The account named `username` (folded), open or not.
    ///
    /// # Errors
    ///
    /// `no_such_account`.
    pub async fn find(&self, username: &str) -> Result<Account, Error> {
        let key = account_key(username);
        self.store
            .account_by_key(key)
            .await?
            .filter(|a| a.deleted_ms.is_none())
            .ok_or_else(|| no_account(username))
    }

    /// The account that plays as `player`, if one does.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn of_player(&self, player: &PlayerId) -> Result<Option<Account>, Error> {
        Ok(self.store.account_of(player.clone()).await?)
    }

    /// Deletes `account` (its password asked again): it can no longer log
    /// in, its games stay, shown as played by a deleted player, its name
    /// stays taken.
    ///
    /// # Errors
    ///
    /// `bad_password`, `too_many`, `busy`.
    pub async fn delete(
        &self,
        account: &Account,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<(), Error> {
        self.check_own_password(account, password, client).await?;
        self.store.delete_account(account.id, self.now_ms()).await?;
        self.forget(account.id);
        self.games
            .reseat(&account.player, &account.player, "")
            .await;
        Ok(())
    }

    /// Sets `account`'s kid mode.
    ///
    /// # Errors
    ///
    /// When the store cannot be written.
    pub async fn set_kid(&self, account: &Account, kid: bool) -> Result<(), Error> {
        self.store.set_kid(account.id, kid).await?;
        self.forget(account.id);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
