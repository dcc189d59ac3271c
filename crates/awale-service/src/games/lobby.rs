//! The lobby: the open challenges and the games being played, sent to
//! its watchers when it changed, and the featured game (a running
//! tournament's top game first, then the highest rated players', else the
//! most watched).

use std::sync::atomic::Ordering;

use awale_model::error::Error;
use awale_model::lists::LobbyGame;
use serde::Serialize;

use super::Games;
use crate::lock;

/// The lobby: open challenges and games being played.
#[derive(Clone, Debug, Serialize)]
pub struct Lobby {
    /// Games waiting for a second player.
    pub challenges: Vec<LobbyGame>,
    /// Games being played, with how many watch.
    pub live: Vec<LiveGame>,
    /// The game worth watching now, with its board: see [`featured`].
    pub featured: Option<Featured>,
}

/// The game the home page shows, live.
#[derive(Clone, Debug, Serialize)]
pub struct Featured {
    /// The game.
    #[serde(flatten)]
    pub game: LiveGame,
    /// Its position now.
    pub board: crate::view::BoardView,
    /// The last move's letter, if any.
    pub last: Option<char>,
}

/// Which of the games being played is worth watching: the rated game of
/// the highest rated players (the sum of their ratings), else the most
/// watched, else the newest.
pub fn featured(live: &[LiveGame]) -> Option<&LiveGame> {
    featured_among(live, &[])
}

/// [`featured`], but a tournament's top game (one of `tops`, the game of
/// its highest-placed players) comes before any other; among several
/// tournaments', the same order again (rating, watchers, newest).
pub fn featured_among<'a>(live: &'a [LiveGame], tops: &[i64]) -> Option<&'a LiveGame> {
    live.iter().max_by_key(|g| {
        let rating = match g.game.ratings {
            [Some(s), Some(n)] => i64::from(s) + i64::from(n),
            _ => 0,
        };
        (tops.contains(&g.game.id), rating, g.spectators, g.game.id)
    })
}

/// A game being played, in the lobby.
#[derive(Clone, Debug, Serialize)]
pub struct LiveGame {
    /// The game.
    #[serde(flatten)]
    pub game: LobbyGame,
    /// How many watch it.
    pub spectators: usize,
}

impl Games {
    /// Tournament `tournament`'s top game is now `game` (none: no game in
    /// play, or it is over): the lobby's featured game prefers it.
    pub fn set_tournament_top(&self, tournament: i64, game: Option<i64>) {
        let changed = {
            let mut tops = lock(&self.tournament_tops);
            match game {
                Some(g) => tops.insert(tournament, g) != Some(g),
                None => tops.remove(&tournament).is_some(),
            }
        };
        if changed {
            self.lobby_changed();
        }
    }

    /// The lobby now: open public challenges and games being played.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn lobby(&self) -> Result<Lobby, Error> {
        let games = self.store.lobby(200).await?;
        let mut lobby = Lobby {
            challenges: Vec::new(),
            live: Vec::new(),
            featured: None,
        };
        for game in games {
            if game.names.iter().any(Option::is_none) {
                lobby.challenges.push(game);
            } else {
                let spectators = self.hub.presence(game.id).spectators;
                lobby.live.push(LiveGame { game, spectators });
            }
        }
        lobby.live.sort_by(|a, b| {
            b.spectators
                .cmp(&a.spectators)
                .then(b.game.id.cmp(&a.game.id))
        });
        let tops: Vec<i64> = lock(&self.tournament_tops).values().copied().collect();
        if let Some(best) = featured_among(&lobby.live, &tops).cloned() {
            // The copy in memory if it is there and free, else the store's.
            let held = lock(&self.entries).get(&best.game.id).cloned();
            let game = match held.as_ref().and_then(|e| e.game.try_lock().ok()) {
                Some(slot) if slot.is_some() => slot.clone(),
                _ => self.store.load(best.game.id).await?,
            };
            lobby.featured = game.map(|g| Featured {
                board: crate::view::BoardView::of(&g.game.position()),
                last: g.game.plies().last().map(|p| p.mv.letter()),
                game: best,
            });
        }
        Ok(lobby)
    }

    /// Marks the lobby as changed (it is sent to its watchers soon).
    pub fn lobby_changed(&self) {
        self.lobby_changed.store(true, Ordering::Relaxed);
    }

    pub(super) async fn send_lobby(&self) {
        if self.hub.lobby_listeners() == 0 || !self.lobby_changed.swap(false, Ordering::Relaxed) {
            return;
        }
        match self.lobby().await {
            Ok(lobby) => self.hub.publish_lobby("lobby", lobby),
            Err(e) => tracing::warn!(error = %e, "lobby not sent"),
        }
    }
}
