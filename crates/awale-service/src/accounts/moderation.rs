//! The moderators' work: reports read and resolved, mutes, closed
//! accounts, chat lines removed, the flagged pairs of fair play; who may
//! chat (not a kid, not a muted account).

use super::*;
use awale_model::Code;

fn not_moderator() -> Error {
    Error::forbidden(Code::NotModerator, "this is for moderators")
}

pub(super) fn closed() -> Error {
    Error::forbidden(Code::AccountClosed, "a moderator closed this account")
}

impl Accounts {
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
            .resolve_report(id, moderator.id, self.now_ms())
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
        self.store.close_account(other.id, self.now_ms()).await?;
        self.forget(other.id);
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
