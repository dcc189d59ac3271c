//! Blocks and reports: what a player does about another.

use super::*;
use awale_model::Code;

impl Accounts {
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
        self.store
            .block(account.id, other.id, self.now_ms())
            .await?;
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
        self.reports.take(&account.id, 1, self.now_ms())?;
        Ok(self
            .store
            .add_report(NewReport {
                reporter: account.id,
                reported: other.id,
                game,
                reason: (*reason).to_string(),
                text,
                created_ms: self.now_ms(),
            })
            .await?)
    }
}
