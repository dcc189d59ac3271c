//! A tournament's chat room: its players and watchers talk on its page.
//! Each line is stored before it is told, then sent live to whoever
//! follows the tournament (`chat`, and `chat_removed` when a moderator
//! takes one away). What may be said, and who reads what (length, rate,
//! mutes, kid mode, blocks), is checked by the caller as for a game's
//! chat. No HTTP, no SQL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::accounts::{Account, Role};
use crate::error::{Error, Kind};
use crate::lock;
use crate::store::tournament_chat::{TournamentChatLine, TournamentChatStore};
use crate::store::Notice;
use awale_model::Code;

/// How many of a room's last lines are read to find one said elsewhere.
const CHAT_READ: usize = 50;

/// What the followers of a tournament's room hear.
#[derive(Clone, Debug)]
pub enum ChatNews {
    /// A line was said.
    Said(TournamentChatLine),
    /// A moderator removed line number `0`.
    Removed(i64),
}

/// The tournaments' chat rooms.
pub struct TournamentChat {
    store: Arc<dyn TournamentChatStore>,
    rooms: Mutex<HashMap<i64, broadcast::Sender<Arc<ChatNews>>>>,
}

impl TournamentChat {
    /// The rooms kept in `store`.
    pub fn new(store: Arc<dyn TournamentChatStore>) -> TournamentChat {
        TournamentChat {
            store,
            rooms: Mutex::new(HashMap::new()),
        }
    }

    /// Listens to the other processes' news of the rooms (`notices`, from
    /// a store that several share): a line said or removed on another
    /// process is told to the followers here. Needs a Tokio runtime.
    pub fn start(self: &Arc<Self>, notices: Option<broadcast::Receiver<Notice>>) {
        let Some(notices) = notices else { return };
        // A line missed shows when the page reads the room again (at each
        // opening of the tournament's page).
        crate::notices::listen(notices, Arc::downgrade(self), |me, notice| async move {
            if let Notice::TournamentChat {
                tournament,
                line,
                removed,
            } = notice
            {
                me.heard(tournament, line, removed).await;
            }
        });
    }

    /// Tells this process's followers of `tournament`'s room what another
    /// process said (line `line`) or `removed`.
    async fn heard(&self, tournament: i64, line: i64, removed: bool) {
        let room = self.room(tournament);
        if room.receiver_count() == 0 {
            return;
        }
        if removed {
            let _ = room.send(Arc::new(ChatNews::Removed(line)));
            return;
        }
        match self.store.tournament_chat(tournament, CHAT_READ).await {
            Ok(lines) => {
                if let Some(said) = lines.into_iter().find(|l| l.line.id == line) {
                    let _ = room.send(Arc::new(ChatNews::Said(said)));
                }
            }
            Err(e) => tracing::warn!(tournament, error = %e, "a tournament's chat line not read"),
        }
    }

    fn room(&self, tournament: i64) -> broadcast::Sender<Arc<ChatNews>> {
        lock(&self.rooms)
            .entry(tournament)
            .or_insert_with(|| broadcast::channel(64).0)
            .clone()
    }

    /// What tournament `tournament`'s room says from now on.
    pub fn follow(&self, tournament: i64) -> broadcast::Receiver<Arc<ChatNews>> {
        self.room(tournament).subscribe()
    }

    /// Stores `line` in tournament `tournament`'s room and tells its
    /// followers; the line with its number.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn say(
        &self,
        tournament: i64,
        line: TournamentChatLine,
    ) -> Result<TournamentChatLine, Error> {
        let line = self.store.add_tournament_chat(tournament, line).await?;
        // An error only means that nobody follows now.
        let _ = self
            .room(tournament)
            .send(Arc::new(ChatNews::Said(line.clone())));
        Ok(line)
    }

    /// The last `limit` lines of tournament `tournament`'s room, oldest
    /// first.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn lines(
        &self,
        tournament: i64,
        limit: usize,
    ) -> Result<Vec<TournamentChatLine>, Error> {
        Ok(self.store.tournament_chat(tournament, limit).await?)
    }

    /// A moderator removes line `line` of tournament `tournament`'s room;
    /// its followers are told.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_line`, a storage failure.
    pub async fn remove(
        &self,
        moderator: &Account,
        tournament: i64,
        line: i64,
    ) -> Result<(), Error> {
        if moderator.role != Role::Moderator {
            return Err(Error::forbidden(
                Code::NotModerator,
                "this is for moderators",
            ));
        }
        if !self
            .store
            .remove_tournament_chat_line(tournament, line)
            .await?
        {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchLine,
                format!("no chat line {line} in tournament {tournament}"),
            ));
        }
        let _ = self
            .room(tournament)
            .send(Arc::new(ChatNews::Removed(line)));
        Ok(())
    }
}
