//! Signing up and logging in: the account made (taking over the browser's
//! guest), the log-in limits per account, per address and per device.

use super::*;
use awale_model::Code;

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

fn bad_login() -> Error {
    // One answer for a wrong name and a wrong password: which names exist
    // is no stranger's business.
    Error::forbidden(Code::BadLogin, "wrong username or password")
}

fn taken(username: &str) -> Error {
    Error::conflict(
        Code::UsernameTaken,
        format!("the username `{username}` is taken"),
    )
}

/// The log-in bucket of a folded name: a name longer than any username is
/// kept short, so a flood of long made-up names does not fill the memory
/// with their buckets.
fn login_bucket(key: &str) -> String {
    key.chars().take(USERNAME_CHARS.1 + 1).collect()
}

/// The key an account is found by: its username without the spaces around
/// it, in lower case.
pub(super) fn account_key(username: &str) -> String {
    username.trim().to_ascii_lowercase()
}

impl Accounts {
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
        // One indexed lookup of the name's skeletons among the accounts'
        // (`mike` beside `rnike`, `aIice` beside `alice`, whichever came
        // first); the names whose skeletons are not indexed yet (accounts
        // made before they were, until `index_names` has run) by their key.
        let skeletons = name_skeletons(&username);
        if !self
            .store
            .accounts_by_skeleton(skeletons.clone())
            .await?
            .is_empty()
        {
            return Err(taken(&username));
        }
        for alike in &skeletons {
            if *alike != key
                && parse_username(alike).is_ok()
                && self.store.account_by_key(alike.clone()).await?.is_some()
            {
                return Err(taken(&username));
            }
        }
        self.signups.take(&client, 1, self.now_ms())?;
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
            created_ms: self.now_ms(),
            recovery: codes.iter().map(|c| digest(&normal_code(c))).collect(),
            session: (session, expires),
            guest: guest.clone(),
            skeletons,
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
        let now = self.now_ms();
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

    /// Counts a log-in (or password check) of `username` from `client`
    /// against their limits; the username's key (as accounts are found).
    /// Takes a try of the log-in limits (per address, per account) for
    /// `username`, at the start of the check, so tries in flight together
    /// count together: its folded key. A right password gives it back
    /// ([`Accounts::give_back_login`]): only failed checks count.
    pub(super) fn take_login(
        &self,
        username: &str,
        client: Option<IpAddr>,
    ) -> Result<String, Error> {
        let username = account_key(username);
        let now = self.now_ms();
        // A try refused (429) still costs the address its try: polling
        // from elsewhere cannot keep an account locked for free.
        self.login_clients.take(&client, 1, now)?;
        self.logins.take(&login_bucket(&username), 1, now)?;
        Ok(username)
    }

    /// Gives back the try [`Accounts::take_login`] took for `key`: the
    /// password (or recovery code) was right.
    pub(super) fn give_back_login(&self, key: &str, client: Option<IpAddr>) {
        self.login_clients.give_back(&client, 1);
        self.logins.give_back(&login_bucket(key), 1);
    }
}
