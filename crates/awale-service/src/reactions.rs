//! Reactions: applause, "oh!", a drum or a song, seen and heard by every
//! viewer of a game (not stored), limited per player and per address
//! ([`crate::limits`]).

use std::sync::Arc;

use awale_core::Side;
use serde::Serialize;

use crate::error::Error;
use crate::games::Games;
use crate::limiter::Limit;
use crate::limits::Caller;
use awale_model::Code;

/// The reactions the public can send.
pub const REACTIONS: [&str; 4] = ["applause", "oh", "drum", "song"];

/// A reaction as every viewer sees and hears it.
#[derive(Clone, Debug, Serialize)]
pub struct Reaction {
    /// `applause`, `oh`, `drum` or `song`.
    pub kind: &'static str,
    /// The sender's side, when a player sent it.
    pub side: Option<char>,
}

impl Games {
    /// `caller` sends reaction `kind` to the viewers of game `id`
    /// (`reaction` on its stream).
    ///
    /// # Errors
    ///
    /// `bad_reaction` (not one of [`REACTIONS`]), `too_many` (because
    /// `reactions`), `no_such_game`, a storage failure.
    pub async fn react(
        self: &Arc<Self>,
        id: i64,
        caller: &Caller,
        kind: &str,
    ) -> Result<(), Error> {
        let Some(kind) = REACTIONS.iter().copied().find(|k| *k == kind) else {
            return Err(Error::invalid(
                Code::BadReaction,
                format!(
                    "`{}` is not a reaction ({})",
                    crate::error::shown(kind),
                    REACTIONS.join(", ")
                ),
            ));
        };
        self.limits()
            .take(Limit::Reactions, caller, 1, self.now_ms())?;
        let game = self.load(id).await?;
        let side = game.online_seat(Some(&caller.player)).map(Side::letter);
        self.hub()
            .publish_now(id, "reaction", Reaction { kind, side });
        Ok(())
    }
}
