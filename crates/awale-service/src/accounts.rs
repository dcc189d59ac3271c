//! Accounts: a username and a password, optional (a guest plays as
//! before). Signing up takes over the browser's guest (its games, seats
//! and name); a log-in opens a session whose secret the browser keeps in
//! a cookie and the store keeps only as a digest. Passwords are hashed
//! with argon2id off the async threads, a few at a time ([`HASHING`]), so
//! a flood of log-ins does not slow the games; log-ins are limited per
//! account and per address, with the wait told. Also here: recovery
//! codes, blocks, reports and the moderators' actions, kid mode.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use argon2::password_hash::{PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};

use crate::error::{Error, Kind};
use crate::game::{clean_text, now_ms, PlayerId};
use crate::games::Games;
use crate::limiter::{Limiter, Rate};
use crate::lock;
use crate::secret::{digest, new_secret, random_bytes};
use crate::store::{AccountStore, NewAccount, NewReport};
pub use awale_model::account::{Account, AccountView, Report, Role};
use awale_model::Code;

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

/// Argon2id's cost: 19 MiB of memory, 2 passes, 1 lane (the OWASP
/// password storage cheat sheet's first choice). Changing it keeps old
/// hashes valid: each hash carries its own parameters.
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// Passes over the memory.
pub const ARGON2_PASSES: u32 = 2;
/// Lanes.
pub const ARGON2_LANES: u32 = 1;

/// Hashes running at once (each on a thread of its own, off the async
/// threads): half the cores, at least one, so moves always find a core.
pub static HASHING: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
});
/// Hashes that may wait for their turn; beyond, `busy` (try again): with
/// one turn at about 25 ms a hash, a wait of a second at most.
pub const MAX_WAITING_HASHES: usize = 32;

/// Names nobody may take (compared folded, with `-` and `_` dropped).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "administrateur",
    "moderator",
    "moderateur",
    "mod",
    "modo",
    "root",
    "system",
    "systeme",
    "server",
    "serveur",
    "awale",
    "oware",
    "support",
    "help",
    "aide",
    "staff",
    "official",
    "officiel",
    "guest",
    "invite",
    "anonymous",
    "anonyme",
    "deleted",
    "supprime",
    "computer",
    "ordinateur",
    "null",
    "undefined",
    "none",
    "api",
    "me",
    "moi",
    "account",
    "compte",
    "login",
    "logout",
    "signup",
    "settings",
    "south",
    "north",
    "sud",
    "nord",
    // The page's own words, which a name must not pass for.
    "deletedplayer",
    "joueursupprime",
    "you",
    "vous",
    "toi",
    "opponent",
    "adversaire",
    "spectator",
    "spectateur",
    "moderation",
];

/// The most common passwords (8 characters or more), refused.
const COMMON_PASSWORDS: &str = include_str!("common-passwords.txt");

static COMMON: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
    std::sync::LazyLock::new(|| {
        COMMON_PASSWORDS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    });

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

/// How long a looked-up session is trusted before the store is asked
/// again (another server process may have ended it). In this process a
/// log-out, a password change or a closed account takes effect at once.
const SESSION_CACHE_MS: i64 = 10_000;
/// Sessions kept looked-up at most.
const SESSION_CACHE_SIZE: usize = 50_000;

/// A username checked: as chosen, and folded (the unique key).
///
/// # Errors
///
/// `bad_username`, with the reason: `length` (3 to 20), `characters`
/// (letters, digits, `_`, `-`), `reserved`.
pub fn parse_username(name: &str) -> Result<(String, String), Error> {
    let name = name.trim();
    let length = name.chars().count();
    let (min, max) = USERNAME_CHARS;
    if length < min || length > max {
        return Err(Error::invalid(
            Code::BadUsername,
            format!("a username takes {min} to {max} characters"),
        )
        .because("length")
        .with("min", min)
        .with("max", max));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::invalid(
            Code::BadUsername,
            "a username takes letters (a to z), digits, `_` and `-` only",
        )
        .because("characters"));
    }
    let key = name.to_ascii_lowercase();
    if is_reserved(&key) {
        return Err(Error::invalid(
            Code::BadUsername,
            format!("`{name}` is kept for the server"),
        )
        .because("reserved"));
    }
    Ok((name.to_string(), key))
}

/// Whether a folded name is kept for the server (compared with `-`, `_`,
/// spaces and accents dropped), or passes for the page's name of a guest
/// (`Guest 1234`, `Invité 1234`).
fn is_reserved(key: &str) -> bool {
    let bare = bare(key);
    let numbered = ["guest", "invite", "invité"].iter().any(|p| {
        bare.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    });
    numbered || RESERVED.contains(&bare.as_str())
}

/// Whether a folded name is the page's name of guest `number` (`Guest
/// 8694`, `Invité 8694`): a guest may sit under its own.
fn is_default_guest_name(key: &str, number: u32) -> bool {
    let bare = bare(key);
    ["guest", "invite", "invité"]
        .iter()
        .any(|p| bare.strip_prefix(p) == Some(number.to_string().as_str()))
}

/// A name without `-`, `_`, spaces and accents (combining marks).
fn bare(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '\u{300}'..='\u{36f}'))
        .collect()
}

/// The reserved names' skeletons, bare.
static RESERVED_SKELETONS: std::sync::LazyLock<std::collections::HashSet<String>> =
    std::sync::LazyLock::new(|| {
        // In lower and upper case: `I` passes for `l`, `i` does not.
        RESERVED
            .iter()
            .flat_map(|r| [r.to_string(), r.to_uppercase()])
            .flat_map(|r| name_skeletons(&r))
            .map(|k| bare(&k))
            .collect()
    });

/// Whether a name looks like a reserved one (`Аdmin`, `ADMlN`,
/// `Deleted player`): a skeleton of it is a reserved name's.
pub fn looks_reserved(name: &str) -> bool {
    name_skeletons(name)
        .iter()
        .any(|k| RESERVED_SKELETONS.contains(&bare(k)))
}

pub use crate::game::{look_alike, name_skeletons};

/// Refuses a name that mixes scripts (Latin letters with Cyrillic or
/// Greek ones: `аlice`, `Аdmin`), as UTS #39's single-script rule says;
/// digits and punctuation belong to every script.
///
/// # Errors
///
/// `bad_name`, the reason `mixed_scripts`.
pub fn check_single_script(name: &str) -> Result<(), Error> {
    use unicode_security::MixedScript;
    if name.is_single_script() {
        Ok(())
    } else {
        Err(Error::invalid(
            Code::BadName,
            "a name takes the letters of one script (not Latin and Cyrillic mixed, say)",
        )
        .because("mixed_scripts"))
    }
}

/// A new password checked against the rules.
///
/// # Errors
///
/// `weak_password`, with the reason: `short` (under 8 characters),
/// `long` (over 256 bytes), `common` (in the list of common passwords),
/// `username` (the username itself, in any case).
pub fn check_password(password: &str, username: &str) -> Result<(), Error> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(Error::invalid(
            Code::WeakPassword,
            format!("a password takes at least {MIN_PASSWORD_CHARS} characters"),
        )
        .because("short")
        .with("min", MIN_PASSWORD_CHARS));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(Error::invalid(
            Code::WeakPassword,
            format!("a password takes at most {MAX_PASSWORD_BYTES} bytes"),
        )
        .because("long")
        .with("max", MAX_PASSWORD_BYTES));
    }
    let folded = password.to_lowercase();
    if COMMON.contains(folded.as_str()) {
        return Err(Error::invalid(
            Code::WeakPassword,
            "this password is one of the most common: choose another",
        )
        .because("common"));
    }
    if folded == username.to_lowercase() {
        return Err(
            Error::invalid(Code::WeakPassword, "the password may not be the username")
                .because("username"),
        );
    }
    Ok(())
}

/// The letters of recovery codes (Crockford's base 32: no i, l, o, u).
const CODE_LETTERS: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A new recovery code: 12 letters (60 bits), shown as `xxxx-xxxx-xxxx`.
fn new_recovery_code() -> Result<String, Error> {
    let bytes = random_bytes::<12>().map_err(|_| no_randomness())?;
    let mut code = String::with_capacity(14);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            code.push('-');
        }
        code.push(char::from(CODE_LETTERS[usize::from(b & 31)]));
    }
    Ok(code)
}

/// A recovery code as typed, normalised: lower case, no dashes or spaces,
/// the letters read alike taken as one (`o` as 0, `i` and `l` as 1).
fn normal_code(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_lowercase() {
            'o' => '0',
            'i' | 'l' => '1',
            c => c,
        })
        .collect()
}

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

fn bad_login() -> Error {
    // One answer for a wrong name and a wrong password: which names exist
    // is no stranger's business.
    Error::forbidden(Code::BadLogin, "wrong username or password")
}

fn not_moderator() -> Error {
    Error::forbidden(Code::NotModerator, "this is for moderators")
}

/// A new account, logged in: its session's secret (for the cookie) and
/// its recovery codes, shown once.
#[derive(Clone, Debug)]
pub struct SignedUp {
    /// The account.
    pub account: Account,
    /// The session's secret.
    pub session: String,
    /// The recovery codes, in clear this once.
    pub recovery_codes: Vec<String>,
}

/// A log-in: the account and its new session's secret.
#[derive(Clone, Debug)]
pub struct LoggedIn {
    /// The account.
    pub account: Account,
    /// The session's secret.
    pub session: String,
    /// The device's secret for this account (the device cookie): a later
    /// log-in that shows it is counted against the device's own tries,
    /// not the account's (see [`Accounts::log_in_on`]).
    pub device: String,
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
            logins: Limiter::new("logins", LOGINS_PER_ACCOUNT),
            login_clients: Limiter::new("logins", LOGINS_PER_CLIENT),
            signups: Limiter::new("sign_ups", SIGNUPS_PER_CLIENT),
            reports: Limiter::new("reports", REPORTS_PER_ACCOUNT),
            sessions: Mutex::new(HashMap::new()),
            decoy,
            device_key: random_bytes().map_err(|_| no_randomness())?,
        })
    }

    /// The same, its device cookies tagged with `key` (the server's, kept
    /// across restarts) rather than a key of this process's life.
    pub fn with_device_key(mut self, key: [u8; 32]) -> Accounts {
        self.device_key = key;
        self
    }

    /// A new device secret for account `id`: 128 random bits and their
    /// tag, 64 hex digits.
    fn new_device(&self, id: i64) -> Result<String, Error> {
        let nonce = crate::secret::hex(&random_bytes::<16>().map_err(|_| no_randomness())?);
        Ok(self.device_secret(id, &nonce))
    }

    fn device_secret(&self, id: i64, nonce: &str) -> String {
        let tag = crate::secret::hmac_sha256(
            &self.device_key,
            format!("awale device {id} {nonce}").as_bytes(),
        );
        format!("{nonce}{}", &crate::secret::hex(&tag)[..32])
    }

    /// Whether `device` is a device secret this server gave on a log-in
    /// to account `id`.
    fn trusts(&self, id: i64, device: &str) -> bool {
        device.len() == 64
            && device.is_ascii()
            && crate::secret::same_secret(&self.device_secret(id, &device[..32]), device)
    }

    /// The same with other limits: log-ins (and resets, password checks)
    /// per account and per client address, sign-ups per address.
    pub fn with_limits(mut self, per_account: Rate, per_client: Rate, sign_ups: Rate) -> Accounts {
        self.logins = Limiter::new("logins", per_account);
        self.login_clients = Limiter::new("logins", per_client);
        self.signups = Limiter::new("sign_ups", sign_ups);
        self
    }

    /// The store.
    pub fn store(&self) -> &dyn AccountStore {
        &*self.store
    }

    /// Runs `work` (a hash or its check) on a blocking thread, when one of
    /// the [`HASHING`] turns is free; `busy` when too many wait already.
    async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Argon2<'static>) -> T + Send + 'static,
    ) -> Result<T, Error> {
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= MAX_WAITING_HASHES {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(Error::new(
                Kind::Busy,
                Code::Busy,
                "too many log-ins at once: try again in a moment",
            )
            .because("logins")
            .with("wait_s", 2));
        }
        let turn = self.hashing.acquire().await;
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        let _turn = turn.map_err(|_| Error::internal("the server is stopping"))?;
        let argon = self.argon.clone();
        tokio::task::spawn_blocking(move || work(&argon))
            .await
            .map_err(|e| Error::internal(format!("a hash failed: {e}")))
    }

    async fn hash(&self, password: String) -> Result<String, Error> {
        let salt = SaltString::encode_b64(&random_bytes::<16>().map_err(|_| no_randomness())?)
            .map_err(|e| Error::internal(format!("salt: {e}")))?;
        self.hashing(move |argon| {
            argon
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| Error::internal(format!("argon2: {e}")))
        })
        .await?
    }

    /// Whether `password` is the one `hash` was made of (an unreadable
    /// hash, a deleted account's empty one: no).
    async fn verify(&self, password: String, hash: String) -> Result<bool, Error> {
        self.hashing(move |argon| {
            PasswordHash::new(&hash)
                .is_ok_and(|parsed| argon.verify_password(password.as_bytes(), &parsed).is_ok())
        })
        .await
    }

    /// Counts a log-in (or password check) of `username` from `client`
    /// against their limits; the username's key (as accounts are found).
    /// Takes a try of the log-in limits (per address, per account) for
    /// `username`, at the start of the check, so tries in flight together
    /// count together: its folded key. A right password gives it back
    /// ([`Accounts::give_back_login`]): only failed checks count.
    fn take_login(&self, username: &str, client: Option<IpAddr>) -> Result<String, Error> {
        let username = account_key(username);
        let now = now_ms();
        // A try refused (429) still costs the address its try: polling
        // from elsewhere cannot keep an account locked for free.
        self.login_clients.take(&client, 1, now)?;
        self.logins.take(&login_bucket(&username), 1, now)?;
        Ok(username)
    }

    /// Gives back the try [`Accounts::take_login`] took for `key`: the
    /// password (or recovery code) was right.
    fn give_back_login(&self, key: &str, client: Option<IpAddr>) {
        self.login_clients.give_back(&client, 1);
        self.logins.give_back(&login_bucket(key), 1);
    }

    fn new_session(&self) -> Result<(String, String, i64), Error> {
        let secret = new_secret().map_err(|_| no_randomness())?;
        let digest = digest(&secret);
        Ok((secret, digest, now_ms() + SESSION_MS))
    }

    /// Signs up `username` with `password`; `guest` (the browser's player)
    /// gives the account its games, its seats in them and its uploads.
    ///
    /// # Errors
    ///
    /// `bad_username`, `weak_password`, `username_taken`, `too_many`
    /// (sign-ups from one address), `busy`.
    pub async fn sign_up(
        &self,
        username: &str,
        password: &str,
        guest: Option<PlayerId>,
        client: Option<IpAddr>,
    ) -> Result<SignedUp, Error> {
        let (username, key) = parse_username(username)?;
        check_password(password, &username)?;
        if self.store.account_by_key(key.clone()).await?.is_some() {
            return Err(taken(&username));
        }
        // A name that looks like a reserved one or an account's (`aIice`
        // beside `alice`) is refused too.
        if looks_reserved(&username) {
            return Err(Error::invalid(
                Code::BadUsername,
                format!("`{username}` looks like a name kept for the server"),
            )
            .because("reserved"));
        }
        for alike in name_skeletons(&username) {
            if alike != key
                && parse_username(&alike).is_ok()
                && self.store.account_by_key(alike).await?.is_some()
            {
                return Err(taken(&username));
            }
        }
        self.signups.take(&client, 1, now_ms())?;
        let hash = self.hash(password.to_string()).await?;
        let codes = (0..RECOVERY_CODES)
            .map(|_| new_recovery_code())
            .collect::<Result<Vec<_>, _>>()?;
        let (secret, session, expires) = self.new_session()?;
        let player = PlayerId(digest(&new_secret().map_err(|_| no_randomness())?));
        let new = NewAccount {
            username: username.clone(),
            key,
            player: player.clone(),
            password_hash: hash,
            created_ms: now_ms(),
            recovery: codes.iter().map(|c| digest(&normal_code(c))).collect(),
            session: (session, expires),
            guest: guest.clone(),
        };
        let account = self
            .store
            .create_account(new)
            .await?
            .ok_or_else(|| taken(&username))?;
        if let Some(guest) = guest {
            // The stored games have their new seats; the ones in memory
            // take them too (and their watchers see the new name).
            self.games.reseat(&guest, &player, &account.username).await;
        }
        Ok(SignedUp {
            account,
            session: secret,
            recovery_codes: codes,
        })
    }

    /// Logs `username` in with `password`: a new session.
    ///
    /// # Errors
    ///
    /// `bad_login` (wrong name or password: one answer), `closed` (a
    /// moderator closed the account), `too_many` with `wait_s` (too many
    /// attempts for this account or from this address), `busy`.
    pub async fn log_in(
        &self,
        username: &str,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<LoggedIn, Error> {
        self.log_in_on(username, password, client, None).await
    }

    /// Logs `username` in from a device that shows `device` (the secret
    /// a former log-in to this account gave it, OWASP's device cookie):
    /// such a device's tries are counted apart from the account's, so
    /// strangers' wrong passwords, which lock the account for strangers,
    /// never lock it for the devices it logged in on. Every try counts
    /// against the address too. A try the server could not check (`busy`)
    /// counts nowhere.
    ///
    /// # Errors
    ///
    /// As [`Accounts::log_in`].
    pub async fn log_in_on(
        &self,
        username: &str,
        password: &str,
        client: Option<IpAddr>,
        device: Option<&str>,
    ) -> Result<LoggedIn, Error> {
        let key = account_key(username);
        let now = now_ms();
        self.login_clients.take(&client, 1, now)?;
        if password.len() > MAX_PASSWORD_BYTES || key.len() > 64 {
            return Err(bad_login());
        }
        let account = self.store.account_by_key(key.clone()).await?;
        let trusted = match (&account, device) {
            (Some(a), Some(d)) => self.trusts(a.id, d),
            _ => false,
        };
        let bucket = match device {
            Some(d) if trusted => format!("device {}", &d[..32]),
            _ => login_bucket(&key),
        };
        self.logins.take(&bucket, 1, now)?;
        let give_back = || {
            self.login_clients.give_back(&client, 1);
            self.logins.give_back(&bucket, 1);
        };
        let hash = account
            .as_ref()
            .filter(|a| a.deleted_ms.is_none())
            .map_or_else(|| self.decoy.clone(), |a| a.password_hash.clone());
        let right = match self.verify(password.to_string(), hash).await {
            Ok(right) => right,
            Err(e) => {
                // Not checked (busy): not a failed try.
                give_back();
                return Err(e);
            }
        };
        let Some(account) = account.filter(|a| right && a.deleted_ms.is_none()) else {
            return Err(bad_login());
        };
        give_back();
        if account.closed_ms.is_some() {
            return Err(closed());
        }
        self.open_session(account).await
    }

    async fn open_session(&self, account: Account) -> Result<LoggedIn, Error> {
        let (secret, session, expires) = self.new_session()?;
        self.store
            .add_session(account.id, session, now_ms(), expires)
            .await?;
        let device = self.new_device(account.id)?;
        Ok(LoggedIn {
            account,
            session: secret,
            device,
        })
    }

    /// The open account a session's secret stands for, if any.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn session(&self, secret: &str) -> Result<Option<Account>, Error> {
        let digest = digest(secret);
        let now = now_ms();
        if let Some((account, at)) = lock(&self.sessions).get(&digest) {
            if now - at < SESSION_CACHE_MS {
                return Ok(account.clone());
            }
        }
        let account = self.store.session(digest.clone(), now).await?;
        let mut cache = lock(&self.sessions);
        if cache.len() >= SESSION_CACHE_SIZE {
            cache.retain(|_, (_, at)| now - *at < SESSION_CACHE_MS);
            if cache.len() >= SESSION_CACHE_SIZE {
                cache.clear();
            }
        }
        cache.insert(digest, (account.clone(), now));
        Ok(account)
    }

    /// Account `id` changed elsewhere (it became a bot): its sessions are
    /// looked up again.
    pub fn changed(&self, id: i64) {
        self.forget(id);
    }

    /// Forgets the looked-up sessions of account `id` (it changed).
    fn forget(&self, id: i64) {
        lock(&self.sessions).retain(|_, (a, _)| a.as_ref().is_none_or(|a| a.id != id));
    }

    /// Ends the session of `secret`.
    ///
    /// # Errors
    ///
    /// When the store cannot be written.
    pub async fn log_out(&self, secret: &str) -> Result<(), Error> {
        let digest = digest(secret);
        lock(&self.sessions).remove(&digest);
        self.store.end_session(digest).await?;
        Ok(())
    }

    /// Ends every session of `account` (this browser's too): how many.
    ///
    /// # Errors
    ///
    /// When the store cannot be written.
    pub async fn log_out_everywhere(&self, account: &Account) -> Result<usize, Error> {
        let ended = self.store.end_sessions(account.id, None).await?;
        self.forget(account.id);
        Ok(ended)
    }

    /// Changes `account`'s password (the current one asked again); the
    /// other sessions end, the one of `secret` goes on.
    ///
    /// # Errors
    ///
    /// `bad_password` (wrong current password), `weak_password`, `too_many`,
    /// `busy`.
    pub async fn change_password(
        &self,
        account: &Account,
        secret: &str,
        current: &str,
        new: &str,
        client: Option<IpAddr>,
    ) -> Result<(), Error> {
        check_password(new, &account.username)?;
        self.check_own_password(account, current, client).await?;
        let hash = self.hash(new.to_string()).await?;
        self.store
            .set_password(account.id, hash, Some(digest(secret)))
            .await?;
        self.forget(account.id);
        Ok(())
    }

    /// Sets a new password for `username` with one of its recovery codes
    /// (used up then); every session ends and a new one opens.
    ///
    /// # Errors
    ///
    /// `bad_recovery_code` (no such account or code, or used),
    /// `weak_password`, `closed`, `too_many`, `busy`.
    pub async fn reset_password(
        &self,
        username: &str,
        code: &str,
        new: &str,
        client: Option<IpAddr>,
    ) -> Result<LoggedIn, Error> {
        let key = self.take_login(username, client)?;
        let bad = || {
            Error::forbidden(
                Code::BadRecoveryCode,
                "wrong username or recovery code (or the code was used)",
            )
        };
        // The same answer, after the same work, for a name known or not:
        // the new password is checked against the name as typed, a hash
        // is made either way, and a closed account says so only to whoever
        // holds one of its codes.
        check_password(new, username.trim())?;
        let account = self
            .store
            .account_by_key(key.clone())
            .await?
            .filter(|a| a.deleted_ms.is_none());
        let hash = match self.hash(new.to_string()).await {
            Ok(hash) => hash,
            Err(e) => {
                // Not checked (busy): not a failed try.
                self.give_back_login(&key, client);
                return Err(e);
            }
        };
        let Some(account) = account else {
            return Err(bad());
        };
        if !self
            .store
            .use_recovery_code(account.id, digest(&normal_code(code)), now_ms())
            .await?
        {
            return Err(bad());
        }
        if account.closed_ms.is_some() {
            return Err(closed());
        }
        self.give_back_login(&key_of(&account), client);
        self.store.set_password(account.id, hash, None).await?;
        self.forget(account.id);
        self.open_session(account).await
    }

    /// New recovery codes for `account` (the old ones no longer work),
    /// the password asked again.
    ///
    /// # Errors
    ///
    /// `bad_password`, `too_many`, `busy`.
    pub async fn new_recovery_codes(
        &self,
        account: &Account,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<Vec<String>, Error> {
        self.check_own_password(account, password, client).await?;
        let codes = (0..RECOVERY_CODES)
            .map(|_| new_recovery_code())
            .collect::<Result<Vec<_>, _>>()?;
        self.store
            .set_recovery_codes(
                account.id,
                codes.iter().map(|c| digest(&normal_code(c))).collect(),
            )
            .await?;
        Ok(codes)
    }

    /// How many of `account`'s recovery codes are left.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn recovery_codes_left(&self, account: &Account) -> Result<usize, Error> {
        Ok(self.store.recovery_codes_left(account.id).await?)
    }

    async fn check_own_password(
        &self,
        account: &Account,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<(), Error> {
        self.take_login(&account.username, client)?;
        let fresh = self
            .store
            .account(account.id)
            .await?
            .ok_or_else(|| no_account(&account.username))?;
        if password.len() > MAX_PASSWORD_BYTES
            || !self
                .verify(password.to_string(), fresh.password_hash)
                .await?
        {
            // The account is known here: no name to keep secret.
            return Err(Error::forbidden(Code::BadPassword, "wrong password"));
        }
        self.give_back_login(&key_of(account), client);
        Ok(())
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
        self.store.delete_account(account.id, now_ms()).await?;
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

    // ------------------------------------------------ between players --

    /// `account` blocks `username`: no challenges, chat or pairing between
    /// them.
    ///
    /// # Errors
    ///
    /// `no_such_account`, `bad_block` (oneself).
    pub async fn block(&self, account: &Account, username: &str) -> Result<(), Error> {
        let other = self.find(username).await?;
        if other.id == account.id {
            return Err(Error::invalid(Code::BadBlock, "one cannot block oneself"));
        }
        self.store.block(account.id, other.id, now_ms()).await?;
        Ok(())
    }

    /// `account` no longer blocks `username`.
    ///
    /// # Errors
    ///
    /// `no_such_account`.
    pub async fn unblock(&self, account: &Account, username: &str) -> Result<(), Error> {
        let other = self.find(username).await?;
        self.store.unblock(account.id, other.id).await?;
        Ok(())
    }

    /// The usernames `account` blocks.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn blocked_by(&self, account: &Account) -> Result<Vec<String>, Error> {
        Ok(self.store.blocked_by(account.id).await?)
    }

    /// Whether one of two players blocks the other (a guest blocks no one
    /// and is blocked by no one): for challenges, chat and pairing.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn blocks(&self, a: &PlayerId, b: &PlayerId) -> Result<bool, Error> {
        if a == b {
            return Ok(false);
        }
        Ok(self.store.blocks(a.clone(), b.clone()).await?)
    }

    /// `Err(blocked)` when one of `a` and `b` blocks the other.
    ///
    /// # Errors
    ///
    /// `blocked`, or when the store cannot be read.
    pub async fn check_not_blocked(&self, a: &PlayerId, b: &PlayerId) -> Result<(), Error> {
        if self.blocks(a, b).await? {
            return Err(Error::forbidden(
                Code::Blocked,
                "one of these players blocks the other",
            ));
        }
        Ok(())
    }

    /// `account` reports `username` for `reason` (one of
    /// [`REPORT_REASONS`]), about `game` if given (its public id, as the
    /// page knows it; the report keeps the store's number), in `text`: the
    /// report's number.
    ///
    /// # Errors
    ///
    /// `bad_report` (reason, text too long, oneself), `no_such_account`,
    /// `no_such_game` (a public id of no game, or a number: games are
    /// never named by their number), `too_many`.
    pub async fn report(
        &self,
        account: &Account,
        username: &str,
        game: Option<&str>,
        reason: &str,
        text: &str,
    ) -> Result<i64, Error> {
        let Some(reason) = REPORT_REASONS.iter().find(|r| **r == reason) else {
            return Err(Error::invalid(
                Code::BadReport,
                format!(
                    "`{}` is not a reason ({})",
                    crate::error::shown(reason),
                    REPORT_REASONS.join(", ")
                ),
            )
            .because("reason"));
        };
        let text = clean_text(text);
        if text.chars().count() > MAX_REPORT_CHARS {
            return Err(Error::invalid(
                Code::BadReport,
                format!("a report takes at most {MAX_REPORT_CHARS} characters"),
            )
            .because("long")
            .with("max", MAX_REPORT_CHARS));
        }
        let other = self.find(username).await?;
        if other.id == account.id {
            return Err(
                Error::invalid(Code::BadReport, "one cannot report oneself").because("self")
            );
        }
        let game = match game {
            // No viewer: a number names no game here, whoever asks.
            Some(public_id) => Some(self.games.find(public_id, None).await?),
            None => None,
        };
        self.reports.take(&account.id, 1, now_ms())?;
        Ok(self
            .store
            .add_report(NewReport {
                reporter: account.id,
                reported: other.id,
                game,
                reason: (*reason).to_string(),
                text,
                created_ms: now_ms(),
            })
            .await?)
    }

    /// Refuses a moderator's action on a moderator or on themselves: the
    /// administrator (whoever runs `awale admin` on the server) is above
    /// the moderators, and acts on them from the command line.
    fn outranks(moderator: &Account, other: &Account) -> Result<(), Error> {
        if other.id == moderator.id || other.role != Role::Player {
            return Err(Error::forbidden(
                Code::ModeratorRank,
                "a moderator acts neither on a moderator nor on themselves \
                 (the administrator does, with `awale admin`)",
            ));
        }
        Ok(())
    }

    fn moderator(account: &Account) -> Result<(), Error> {
        if account.role == Role::Moderator {
            Ok(())
        } else {
            Err(not_moderator())
        }
    }

    /// The last reports, open ones first, for a moderator.
    ///
    /// # Errors
    ///
    /// `not_moderator`.
    pub async fn reports(&self, moderator: &Account) -> Result<Vec<Report>, Error> {
        Accounts::moderator(moderator)?;
        Ok(self.store.reports(200).await?)
    }

    /// The pairs of accounts whose rated game was played casual because
    /// they were seen at one address or device, newest first, for a
    /// moderator (`crate::fairplay`).
    ///
    /// # Errors
    ///
    /// `not_moderator`.
    pub fn flagged_pairs(
        &self,
        moderator: &Account,
    ) -> Result<Vec<crate::fairplay::FlaggedPair>, Error> {
        Accounts::moderator(moderator)?;
        Ok(self.games.sightings().flagged())
    }

    /// A moderator marks report `id` dealt with.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_report` (or already dealt with).
    pub async fn resolve_report(&self, moderator: &Account, id: i64) -> Result<(), Error> {
        Accounts::moderator(moderator)?;
        if !self
            .store
            .resolve_report(id, moderator.id, now_ms())
            .await?
        {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchReport,
                format!("no open report {id}"),
            ));
        }
        Ok(())
    }

    /// A moderator mutes `username` from chat (or lets it speak again).
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_account`.
    pub async fn mute(
        &self,
        moderator: &Account,
        username: &str,
        muted: bool,
    ) -> Result<(), Error> {
        Accounts::moderator(moderator)?;
        let other = self.find(username).await?;
        Accounts::outranks(moderator, &other)?;
        self.store.set_muted(other.id, muted).await?;
        self.forget(other.id);
        Ok(())
    }

    /// Refuses a guest's nickname (checked by `parse_name`) that would
    /// pass for an account or for the server: one that, folded as sign-up
    /// folds usernames, is a reserved name or the username of an account,
    /// open, closed or deleted (a deleted name is never given again).
    ///
    /// # Errors
    ///
    /// `name_taken` (conflict), the reason `reserved` or `account`; a
    /// storage failure.
    pub async fn check_guest_name(&self, name: &str, own: Option<u32>) -> Result<(), Error> {
        let key = account_key(name);
        if own.is_some_and(|n| is_default_guest_name(&key, n)) {
            // The page's own name for this guest (`Guest 8694`), which
            // passes for nobody else.
            return Ok(());
        }
        let refused = |reason| {
            Err(Error::conflict(
                Code::NameTaken,
                "this nickname is an account's or the server's: choose another",
            )
            .because(reason))
        };
        check_single_script(name)?;
        let alike = name_skeletons(name);
        if is_reserved(&key) || looks_reserved(name) {
            return refused("reserved");
        }
        // Only a name a username could be is looked up: the name, and
        // each of its skeletons (`ａｌｉｃｅ` is looked up as `alice`).
        let mut keys = vec![key];
        keys.extend(alike);
        keys.dedup();
        for key in keys {
            if parse_username(&key).is_ok() && self.store.account_by_key(key).await?.is_some() {
                return refused("account");
            }
        }
        Ok(())
    }

    /// A moderator closes `username`'s account: its sessions end and it
    /// can no longer log in.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_account`, `bad_close` (oneself).
    pub async fn close(&self, moderator: &Account, username: &str) -> Result<(), Error> {
        Accounts::moderator(moderator)?;
        let other = self.find(username).await?;
        if other.id == moderator.id {
            return Err(Error::invalid(
                Code::BadClose,
                "a moderator cannot close their own account",
            ));
        }
        Accounts::outranks(moderator, &other)?;
        self.store.close_account(other.id, now_ms()).await?;
        self.forget(other.id);
        Ok(())
    }

    /// A moderator removes chat line `line` of the game whose public id
    /// is `game` (the one in its address, as reports name it); the game's
    /// watchers are told (`chat_removed`).
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_game` (a number is no public id, whoever
    /// asks), `no_such_line`.
    pub async fn remove_chat_line(
        &self,
        moderator: &Account,
        game: &str,
        line: i64,
    ) -> Result<(), Error> {
        Accounts::moderator(moderator)?;
        // No viewer: a number names no game here, whoever asks.
        let id = self.games.find(game, None).await?;
        if !self.store.remove_chat_line(id, line).await? {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchLine,
                format!(
                    "no chat line {line} in game `{}`",
                    crate::error::shown(game)
                ),
            ));
        }
        self.games
            .hub()
            .publish_now(id, "chat_removed", serde_json::json!({ "id": line }));
        Ok(())
    }

    /// Makes `username` a moderator (the server's own command, `awale
    /// admin grant-moderator`: whoever runs it holds the games file).
    ///
    /// # Errors
    ///
    /// `no_such_account`.
    pub async fn grant_moderator(&self, username: &str) -> Result<Account, Error> {
        let account = self.find(username).await?;
        self.store.set_role(account.id, Role::Moderator).await?;
        self.forget(account.id);
        Ok(Account {
            role: Role::Moderator,
            ..account
        })
    }

    /// `Err(muted)` when `player`'s account is muted from chat.
    ///
    /// # Errors
    ///
    /// `muted`, or when the store cannot be read.
    pub fn check_may_chat(account: Option<&Account>) -> Result<(), Error> {
        if account.is_some_and(|a| a.muted) {
            return Err(Error::forbidden(
                Code::Muted,
                "a moderator muted this account from chat",
            ));
        }
        Ok(())
    }
}

fn taken(username: &str) -> Error {
    Error::conflict(
        Code::UsernameTaken,
        format!("the username `{username}` is taken"),
    )
}

fn closed() -> Error {
    Error::forbidden(Code::AccountClosed, "a moderator closed this account")
}

/// The log-in bucket of a folded name: a name longer than any username is
/// kept short, so a flood of long made-up names does not fill the memory
/// with their buckets.
fn login_bucket(key: &str) -> String {
    key.chars().take(USERNAME_CHARS.1 + 1).collect()
}

/// The key an account is found by: its username without the spaces around
/// it, in lower case.
fn account_key(username: &str) -> String {
    username.trim().to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_take_3_to_20_letters_digits_underscores_and_dashes() {
        for good in [
            "Ama",
            "kofi_99",
            "Yaw-Mensah",
            "abc",
            "a2345678901234567890",
        ] {
            assert!(parse_username(good).is_ok(), "{good}");
        }
        for (bad, reason) in [
            ("ab", "length"),
            ("a23456789012345678901", "length"),
            ("Ama Serwa", "characters"),
            ("Amé", "characters"),
            ("<b>", "characters"),
            ("Admin", "reserved"),
            ("mod_erator", "reserved"),
            ("GUEST", "reserved"),
        ] {
            let e = parse_username(bad).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.reason),
                ("bad_username", Some(reason)),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_username_is_one_name_in_any_case() {
        assert_eq!(
            parse_username("AmA").unwrap().1,
            parse_username("ama").unwrap().1
        );
        assert_eq!(parse_username("AmA").unwrap().0, "AmA");
    }

    #[test]
    fn short_common_and_username_passwords_are_refused() {
        for (bad, reason) in [
            ("short", "short"),
            ("Password1", "common"),
            ("AZERTYUIOP", "common"),
            ("motdepasse", "common"),
            ("kofi_2026", "username"),
        ] {
            let e = check_password(bad, "Kofi_2026").unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.reason),
                ("weak_password", Some(reason)),
                "{bad}"
            );
        }
        assert_eq!(
            check_password(&"x".repeat(300), "kofi").unwrap_err().reason,
            Some("long")
        );
        check_password("seeds in the fourth hole", "kofi").unwrap();
    }

    #[test]
    fn the_common_list_holds_only_passwords_the_length_rule_lets_pass() {
        assert!(COMMON.len() > 200);
        for p in COMMON.iter() {
            assert!(p.chars().count() >= MIN_PASSWORD_CHARS, "{p}");
            assert_eq!(p.to_lowercase(), *p, "{p}");
        }
    }

    #[test]
    fn recovery_codes_read_back_whatever_their_case_and_dashes() {
        let code = new_recovery_code().unwrap();
        assert_eq!(code.len(), 14);
        assert_eq!(code.matches('-').count(), 2);
        let typed = code.to_uppercase().replace('-', " ");
        assert_eq!(normal_code(&typed), normal_code(&code));
        assert_eq!(normal_code("O1IL"), "0111");
        assert_ne!(new_recovery_code().unwrap(), code);
    }
}
