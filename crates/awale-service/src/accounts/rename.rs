//! A guest chooses their nickname: checked as any guest's name, limited
//! per player and per address ([`crate::limits`]), then theirs in the
//! games they play.

use super::Accounts;
use crate::error::Error;
use crate::game::parse_name;
use crate::limiter::Limit;
use crate::limits::Caller;

impl Accounts {
    /// `caller`, a guest, takes the nickname `given` (the default one when
    /// None), in their games going on too: the name as kept.
    ///
    /// # Errors
    ///
    /// `bad_name`, `name_taken` (it would pass for an account or the
    /// server), `too_many` (because `renames`), a storage failure. Only a
    /// name that passes costs a token.
    pub async fn rename_guest(
        &self,
        caller: &Caller,
        given: Option<&str>,
    ) -> Result<String, Error> {
        let name = parse_name(given)?;
        let own = crate::chat::guest_number(&caller.player);
        self.check_guest_name(&name, Some(own)).await?;
        let games = &self.games;
        games
            .limits()
            .take(Limit::Renames, caller, 1, games.now_ms())?;
        games.set_player_name(&caller.player, name.clone()).await?;
        Ok(name)
    }
}
