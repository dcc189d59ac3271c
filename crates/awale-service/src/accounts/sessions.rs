//! Sessions and devices: a log-in's session (its secret in the browser's
//! cookie, its digest in the store, looked up through a short cache), the
//! device cookies that let a device's own tries count apart.

use super::*;

/// How long a looked-up session is trusted before the store is asked
/// again (another server process may have ended it). In this process a
/// log-out, a password change or a closed account takes effect at once.
const SESSION_CACHE_MS: i64 = 10_000;

/// Sessions kept looked-up at most.
const SESSION_CACHE_SIZE: usize = 50_000;

impl Accounts {
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
    pub(super) fn trusts(&self, id: i64, device: &str) -> bool {
        device.len() == 64
            && device.is_ascii()
            && crate::secret::same_secret(&self.device_secret(id, &device[..32]), device)
    }

    pub(super) fn new_session(&self) -> Result<(String, String, i64), Error> {
        let secret = new_secret().map_err(|_| no_randomness())?;
        let digest = digest(&secret);
        Ok((secret, digest, self.now_ms() + SESSION_MS))
    }

    pub(super) async fn open_session(&self, account: Account) -> Result<LoggedIn, Error> {
        let (secret, session, expires) = self.new_session()?;
        self.store
            .add_session(account.id, session, self.now_ms(), expires)
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
        let now = self.now_ms();
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
    pub(super) fn forget(&self, id: i64) {
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
}
