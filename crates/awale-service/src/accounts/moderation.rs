//! The accounts' side of the moderators' work: reports read, the
//! server's own grant of a moderator's rank, who may chat (not a muted
//! account). The actions themselves, with their ranks and their log, are
//! `crate::moderation`'s.

use super::*;
use awale_model::Code;

fn not_moderator() -> Error {
    Error::forbidden(Code::NotModerator, "this is for moderators")
}

pub(super) fn closed() -> Error {
    Error::forbidden(Code::AccountClosed, "a moderator closed this account")
}

impl Accounts {
    fn moderator(account: &Account) -> Result<(), Error> {
        if account.role.moderates() {
            Ok(())
        } else {
            Err(not_moderator())
        }
    }

    /// Forgets what was looked up of account `id`'s sessions, so that a
    /// change of it (closed, muted, a rank) holds at the next request.
    pub fn forget_account(&self, id: i64) {
        self.forget(id);
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

    /// Makes `username` a moderator (the server's own command, `awale
    /// admin grant-moderator`: whoever runs it holds the games file).
    ///
    /// # Errors
    ///
    /// `no_such_account`.
    pub async fn grant_moderator(&self, username: &str) -> Result<Account, Error> {
        self.grant_role(username, Role::Moderator).await
    }

    /// Gives `username` the rank `role` (the server's own command, as
    /// [`Accounts::grant_moderator`]; `awale admin grant-admin` makes the
    /// first administrator).
    ///
    /// # Errors
    ///
    /// `no_such_account`.
    pub async fn grant_role(&self, username: &str, role: Role) -> Result<Account, Error> {
        let account = self.find(username).await?;
        self.store.set_role(account.id, role).await?;
        self.forget(account.id);
        Ok(Account { role, ..account })
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
