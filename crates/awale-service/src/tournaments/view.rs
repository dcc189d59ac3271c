//! What watchers see of a tournament (lila's `JsonView`): its facts,
//! the standings' lines, the view a page reads and the item of the list;
//! made from a held tournament ([`Running`]) or a stored row.

use std::collections::HashMap;

use serde::Serialize;

use super::{Room, Running, SwissView, TournamentKind, TournamentState, STANDINGS_SHOWN};
use crate::error::Error;
use crate::game::PlayerId;
use crate::pairing::arena::Presence;
use crate::store::tournaments::TournamentRow;

/// One line of the standings as watchers see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StandingLine {
    /// The rank, from 1.
    pub rank: usize,
    /// The player's number in the tournament.
    pub number: usize,
    /// The name shown.
    pub name: String,
    /// A bot account's: the page marks the name BOT.
    pub bot: bool,
    /// Their rating now (read again after each of their games).
    pub rating: i32,
    /// Their points.
    pub score: u32,
    /// On a streak (the flame): the next win counts double.
    pub on_fire: bool,
    /// `free`, `playing`, `paused`, `withdrawn`.
    pub presence: Presence,
    /// Their last results, oldest first: 2 win, 1 draw, 0 loss (the
    /// points of each beside).
    pub sheet: Vec<[u32; 2]>,
    /// The public id of their game in play.
    pub game: Option<String>,
    /// Since when (ms, the server's clock) they have been looking for an
    /// opponent in an arena going on; None: not waiting.
    pub waiting_ms: Option<i64>,
}

/// What the list and the page both say of a tournament (its row's
/// settings and state), first in the JSON of each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentFacts {
    /// Its number.
    pub id: i64,
    /// `arena` or `swiss`.
    pub kind: TournamentKind,
    /// Its name.
    pub name: String,
    /// Each side's time (ms).
    pub initial_ms: i64,
    /// The increment (ms).
    pub increment_ms: i64,
    /// Rated or casual.
    pub rated: bool,
    /// Bots may join it (else it is people's only).
    pub bots_allowed: bool,
    /// Its length (minutes).
    pub minutes: i64,
    /// When it starts and ends.
    pub starts_ms: i64,
    /// See `starts_ms`.
    pub ends_ms: i64,
    /// `created`, `started`, `finished`.
    pub state: TournamentState,
}

impl TournamentFacts {
    /// The facts of row `t`, of `kind` and in `state` (read from it).
    pub(super) fn of(t: &TournamentRow, kind: TournamentKind, state: TournamentState) -> Self {
        TournamentFacts {
            id: t.id,
            kind,
            name: t.name.clone(),
            initial_ms: t.clock.0,
            increment_ms: t.clock.1,
            rated: t.rated,
            bots_allowed: t.bots_allowed,
            minutes: t.minutes,
            starts_ms: t.starts_ms,
            ends_ms: t.ends_ms,
            state,
        }
    }
}

impl TryFrom<&TournamentRow> for TournamentFacts {
    type Error = Error;

    /// # Errors
    ///
    /// A stored kind or state that names none.
    fn try_from(t: &TournamentRow) -> Result<TournamentFacts, Error> {
        let kind = TournamentKind::parse(&t.kind)?;
        let state = TournamentState::parse(&t.state)?;
        Ok(TournamentFacts::of(t, kind, state))
    }
}

/// A tournament as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentView {
    /// Its settings and state.
    #[serde(flatten)]
    pub facts: TournamentFacts,
    /// How many players joined.
    pub players: usize,
    /// The standings (the first [`STANDINGS_SHOWN`]).
    pub standings: Vec<StandingLine>,
    /// The top game to watch (its public id).
    pub top_game: Option<String>,
    /// The first three, once finished (then final: no game is left to
    /// change them).
    pub podium: Vec<StandingLine>,
    /// An arena's time is up but games are still in play: the standings
    /// are provisional, the results pending until the last game ends.
    pub results_pending: bool,
    /// The server's time when the view was made (ms): how long a player
    /// has waited is counted from it.
    pub now_ms: i64,
    /// The viewer's own number, when they joined.
    pub you: Option<usize>,
    /// The viewer may berserk now (in a game where they have not moved).
    pub can_berserk: bool,
    /// The viewer made it (and may end it).
    pub yours: bool,
    /// A Swiss's rounds, games, standings with tie-breaks and crosstable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swiss: Option<SwissView>,
    /// The public id of the viewer's game in play (null: none), when they
    /// joined: their line may be below the standings shown. The stream
    /// of the standings gives each viewer theirs too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub your_game: Option<Option<String>>,
}

/// A tournament in the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentItem {
    /// Its settings and state.
    #[serde(flatten)]
    pub facts: TournamentFacts,
    /// A Swiss's number of rounds (0 for an arena).
    pub rounds: i64,
}

impl TryFrom<&TournamentRow> for TournamentItem {
    type Error = Error;

    /// # Errors
    ///
    /// A stored kind or state that names none.
    fn try_from(t: &TournamentRow) -> Result<TournamentItem, Error> {
        Ok(TournamentItem {
            facts: TournamentFacts::try_from(t)?,
            rounds: t.rounds,
        })
    }
}

impl Running {
    pub(super) fn line(
        &self,
        (rank, number, score, on_fire): (usize, usize, u32, bool),
        in_play: &HashMap<usize, &str>,
    ) -> StandingLine {
        let p = &self.arena.players[number];
        StandingLine {
            rank,
            number,
            name: self.entrants[number].name.clone(),
            bot: self.entrants[number].bot,
            rating: p.rating,
            score,
            on_fire,
            presence: p.presence,
            sheet: p
                .sheet
                .iter()
                .rev()
                .take(12)
                .rev()
                .map(|s| [u32::from(s.result), s.points])
                .collect(),
            game: in_play.get(&number).map(|g| (*g).to_string()),
            waiting_ms: if self.is_swiss()
                || self.state != TournamentState::Started
                || self.clock.now_ms() >= self.row.ends_ms
                || p.presence != Presence::Free
            {
                None
            } else {
                p.waiting_ms
            },
        }
    }

    /// An arena whose time is up, with games still in play: it finishes
    /// when the last ends.
    pub(super) fn results_pending(&self) -> bool {
        !self.is_swiss()
            && self.state == TournamentState::Started
            && self.clock.now_ms() >= self.row.ends_ms
            && !self.arena.playing.is_empty()
    }

    pub(super) fn view(&self, viewer: Option<&PlayerId>) -> TournamentView {
        let in_play = self.in_play();
        let swiss = self.is_swiss().then(|| self.swiss_view());
        let standings: Vec<StandingLine> = match &swiss {
            Some(swiss) => swiss
                .standings
                .iter()
                .take(STANDINGS_SHOWN)
                .map(|l| self.line((l.rank, l.number, l.points, false), &in_play))
                .collect(),
            None => self
                .arena
                .standings()
                .iter()
                .enumerate()
                .take(STANDINGS_SHOWN)
                .map(|(i, s)| self.line((i + 1, s.player, s.score, s.on_fire), &in_play))
                .collect(),
        };
        let finished = self.state == TournamentState::Finished;
        let podium = if finished {
            standings.iter().take(3).cloned().collect()
        } else {
            Vec::new()
        };
        let top_game = self
            .arena
            .top_game()
            .and_then(|(a, _)| self.game_of(a).map(|h| h.public_id.clone()));
        let you = viewer.and_then(|v| self.number_of(v));
        TournamentView {
            facts: TournamentFacts::of(&self.row, self.kind, self.state),
            players: self.entrants.len(),
            standings,
            top_game,
            podium,
            results_pending: self.results_pending(),
            now_ms: self.clock.now_ms(),
            you,
            can_berserk: false,
            yours: viewer.is_some_and(|v| *v == self.row.creator),
            swiss,
            your_game: you.map(|n| self.game_of(n).map(|h| h.public_id.clone())),
        }
    }
}

/// Sends `running`'s standings to `room`'s watchers.
pub(super) fn send_standings(room: &Room, running: &Running) {
    if let Ok(text) = serde_json::to_string(&running.view(None)) {
        // An error only means that nobody watches now.
        let _ = room.news.send(text.into());
    }
}
