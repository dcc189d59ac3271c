//! Passwords and recovery codes: argon2id hashing off the async threads,
//! a few at a time ([`HASHING`]), the rules of a password, changing and
//! resetting one.

use super::*;
use awale_model::Code;

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

/// The most common passwords (8 characters or more), refused.
const COMMON_PASSWORDS: &str = include_str!("common-passwords.txt");

pub(super) static COMMON: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
    std::sync::LazyLock::new(|| {
        COMMON_PASSWORDS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    });

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
pub(super) fn new_recovery_code() -> Result<String, Error> {
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
pub(super) fn normal_code(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_lowercase() {
            'o' => '0',
            'i' | 'l' => '1',
            c => c,
        })
        .collect()
}

impl Accounts {
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

    pub(super) async fn hash(&self, password: String) -> Result<String, Error> {
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
    pub(super) async fn verify(&self, password: String, hash: String) -> Result<bool, Error> {
        self.hashing(move |argon| {
            PasswordHash::new(&hash)
                .is_ok_and(|parsed| argon.verify_password(password.as_bytes(), &parsed).is_ok())
        })
        .await
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
            .use_recovery_code(account.id, digest(&normal_code(code)), self.now_ms())
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

    pub(super) async fn check_own_password(
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
}
