//! The Swiss side of [`Tournaments`]: a club's evening of rounds, its rules
//! those of [`crate::pairing::swiss`]. Its organiser makes it (name,
//! clock, rated or casual, rounds, each round started by hand or paired as
//! the last ends), players join or withdraw before it starts and between
//! rounds, the organiser starts it; each round's games are started through
//! the games service at once, their ends recorded as they come
//! ([`crate::games::Games::endings`], as the arena's); the last round, or a
//! round that cannot be paired without a repeat, ends it. The rounds, their
//! games and byes are in the store as they are paired, so a restart goes on
//! with the round in play.

use std::sync::Arc;

use awale_core::Side;
use serde::Serialize;

use super::{
    bad_tournament, seat_of, Entrant, Held, Room, Running, TournamentKind, TournamentState,
    Tournaments,
};
use crate::error::Error;
use crate::game::{PlayerId, Stop, WebGame};
use crate::lock;
use crate::pairing::arena::{ArenaPlayer, Presence};
use crate::pairing::swiss::{
    most_rounds, Cell, HalfPoints, Outcome, Pairing, Round, Swiss, SwissError,
};
use crate::store::tournaments::{ByeRow, PairingRow, TournamentRecord, TournamentRow};
use awale_model::Code;

/// The most rounds a Swiss may have.
pub const MAX_ROUNDS: i64 = 15;
/// The most games one tournament's record file holds (a Swiss of 15
/// rounds and 130 players; a long arena may have more: refused).
pub const MAX_FILE_GAMES: usize = 1_000;

/// What a new Swiss is to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissSettings {
    /// Its name.
    pub name: String,
    /// Each side's time and the increment (ms).
    pub clock: (i64, i64),
    /// Rated or casual.
    pub rated: bool,
    /// How many rounds (1 to [`MAX_ROUNDS`]; cut at the start to what the
    /// players present can play without meeting twice).
    pub rounds: i64,
    /// The organiser starts each round (else each is paired as the last
    /// ends).
    pub manual_rounds: bool,
    /// Bots may join (else people only).
    pub bots_allowed: bool,
}

/// One game of the round shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwissGame {
    /// The first to sow (their number) and their name.
    pub first: usize,
    /// See `first`.
    pub first_name: String,
    /// The other player.
    pub second: usize,
    /// See `second`.
    pub second_name: String,
    /// The game's public id (to watch or play it), while it is known.
    pub game: Option<String>,
    /// The first player's half points once it ended (2, 1, 0).
    pub result: Option<HalfPoints>,
}

/// One line of the standings, with its tie-breaks and its crosstable row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwissLine {
    /// The rank, from 1.
    pub rank: usize,
    /// The player's number.
    pub number: usize,
    /// The name shown.
    pub name: String,
    /// A bot account's: the page marks the name BOT.
    pub bot: bool,
    /// Their rating when they joined.
    pub rating: i32,
    /// Points, in half points.
    pub points: HalfPoints,
    /// Buchholz, in half points.
    pub buchholz: HalfPoints,
    /// Sonneborn-Berger, in quarter points.
    pub sonneborn_berger: u32,
    /// Withdrawn (not paired any more).
    pub withdrawn: bool,
    /// Their crosstable row: one cell a round.
    pub rounds: Vec<Cell>,
}

/// The Swiss parts of a tournament's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwissView {
    /// How many rounds.
    pub rounds: i64,
    /// The round paired last, from 1 (0 before the first).
    pub round: i64,
    /// The organiser starts each round.
    pub manual_rounds: bool,
    /// The round shown still has games in play.
    pub round_in_play: bool,
    /// The organiser may start the next round now.
    pub next_round_ready: bool,
    /// The games of the round shown (the last paired).
    pub games: Vec<SwissGame>,
    /// Who sits out the round shown (their number), if anyone.
    pub bye: Option<usize>,
    /// The standings (points, Buchholz, Sonneborn-Berger) with each
    /// player's crosstable row.
    pub standings: Vec<SwissLine>,
}

fn outcome_of(result: i64) -> Option<Outcome> {
    match result {
        2 => Some(Outcome::FirstWins),
        1 => Some(Outcome::Draw),
        0 => Some(Outcome::SecondWins),
        _ => None,
    }
}

fn round_in_play(running: &Running) -> bool {
    running
        .swiss
        .as_ref()
        .and_then(|s| s.rounds.last())
        .is_some_and(|r| !r.is_finished())
}

fn not_organiser() -> Error {
    Error::forbidden(
        Code::NotOrganiser,
        "only the tournament's organiser may start its rounds",
    )
}

impl Running {
    pub(super) fn is_swiss(&self) -> bool {
        self.kind == TournamentKind::Swiss
    }

    /// After a withdrawal or a late entry in a Swiss under way: the rounds
    /// cut to those the players in can still play without meeting twice
    /// (so the last ones are not found unpairable, ending it early).
    fn fit_rounds(&mut self) {
        if let Some(swiss) = self.swiss.as_mut() {
            self.row.rounds = swiss.fit_rounds() as i64;
        }
    }

    /// Player `number` comes back to the rounds to come (`Free`) or
    /// withdraws from them (`Withdrawn`), and the rounds are fitted again.
    fn set_in_rounds(&mut self, number: usize, presence: Presence) {
        self.arena.players[number].presence = presence;
        if let Some(swiss) = self.swiss.as_mut() {
            swiss.set_out(number, presence == Presence::Withdrawn);
        }
        self.fit_rounds();
    }

    /// The record of what changed in a Swiss: the tournament's row, the
    /// players `entrants`, the games `games` and the byes of round `round`.
    pub(super) fn swiss_record(
        &self,
        entrants: &[usize],
        games: &[i64],
        round: i64,
    ) -> TournamentRecord {
        let mut record = self.record(entrants, games);
        if let (Some(swiss), true) = (&self.swiss, round > 0) {
            if let Some(bye) = swiss.rounds.get(round as usize - 1).and_then(|r| r.bye) {
                record.byes.push(ByeRow {
                    round,
                    number: bye as i64,
                });
            }
        }
        record
    }

    /// A player's stored score in a Swiss: their points (half points).
    pub(super) fn swiss_points(&self, number: usize) -> Option<u32> {
        self.swiss
            .as_ref()
            .and_then(|s| s.points().get(number).copied())
    }

    pub(super) fn swiss_view(&self) -> SwissView {
        let name = |n: usize| {
            self.entrants
                .get(n)
                .map(|e| e.name.clone())
                .unwrap_or_default()
        };
        let bot = |n: usize| self.entrants.get(n).is_some_and(|e| e.bot);
        let withdrawn = |n: usize| {
            self.arena
                .players
                .get(n)
                .is_some_and(|p| p.presence == Presence::Withdrawn)
        };
        let finished = self.state == TournamentState::Finished;
        let in_play = round_in_play(self);
        let rounds_left = self.row.current_round < self.row.rounds;
        let Some(swiss) = &self.swiss else {
            // Before the start: the players by rating, nothing played.
            let mut order: Vec<usize> = (0..self.entrants.len()).collect();
            order.sort_by_key(|&n| (-self.arena.players[n].rating, n));
            return SwissView {
                rounds: self.row.rounds,
                round: 0,
                manual_rounds: self.row.manual_rounds,
                round_in_play: false,
                next_round_ready: !finished,
                games: Vec::new(),
                bye: None,
                standings: order
                    .into_iter()
                    .enumerate()
                    .map(|(i, n)| SwissLine {
                        rank: i + 1,
                        number: n,
                        name: name(n),
                        bot: bot(n),
                        rating: self.arena.players[n].rating,
                        points: 0,
                        buchholz: 0,
                        sonneborn_berger: 0,
                        withdrawn: withdrawn(n),
                        rounds: Vec::new(),
                    })
                    .collect(),
            };
        };
        let table = swiss.crosstable();
        let round = swiss.rounds.last().cloned().unwrap_or_default();
        let game_of = |p: &Pairing| {
            self.games
                .values()
                .find(|h| {
                    h.row.round == swiss.rounds.len() as i64
                        && h.row.players == (p.first as i64, p.second as i64)
                })
                .map(|h| h.public_id.clone())
                .filter(|id| !id.is_empty())
        };
        SwissView {
            rounds: self.row.rounds,
            round: self.row.current_round,
            manual_rounds: self.row.manual_rounds,
            round_in_play: in_play,
            next_round_ready: !finished && !in_play && rounds_left && self.row.manual_rounds,
            games: round
                .pairings
                .iter()
                .map(|p| SwissGame {
                    first: p.first,
                    first_name: name(p.first),
                    second: p.second,
                    second_name: name(p.second),
                    game: game_of(p),
                    result: p.outcome.map(|o| o.half_points().0),
                })
                .collect(),
            bye: round.bye,
            standings: swiss
                .standings()
                .iter()
                .enumerate()
                .map(|(i, s)| SwissLine {
                    rank: i + 1,
                    number: s.player,
                    name: name(s.player),
                    bot: bot(s.player),
                    rating: swiss.ratings[s.player],
                    points: s.points,
                    buchholz: s.buchholz,
                    sonneborn_berger: s.sonneborn_berger,
                    withdrawn: withdrawn(s.player),
                    rounds: table[s.player].clone(),
                })
                .collect(),
        }
    }
}

/// The Swiss of a stored tournament: its players' ratings, who withdrew,
/// and its rounds from the games and byes stored (None before its start).
pub(super) fn swiss_of(record: &TournamentRecord) -> Option<Swiss> {
    let t = &record.tournament;
    if t.kind != TournamentKind::Swiss.as_str() || t.current_round == 0 {
        return None;
    }
    let mut swiss = Swiss {
        ratings: record.entrants.iter().map(|e| e.rating as i32).collect(),
        rounds_total: t.rounds.max(0) as usize,
        rounds: vec![Round::default(); t.current_round as usize],
        out: record
            .entrants
            .iter()
            .map(|e| e.presence == "withdrawn")
            .collect(),
    };
    for g in &record.games {
        if let Some(round) = swiss.rounds.get_mut((g.round - 1).max(0) as usize) {
            round.pairings.push(Pairing {
                first: g.players.0 as usize,
                second: g.players.1 as usize,
                outcome: g.result.and_then(outcome_of),
            });
        }
    }
    for b in &record.byes {
        if let Some(round) = swiss.rounds.get_mut((b.round - 1).max(0) as usize) {
            round.bye = Some(b.number as usize);
        }
    }
    Some(swiss)
}

impl Tournaments {
    /// Makes a Swiss for `creator`, its organiser; it starts when they say.
    ///
    /// # Errors
    ///
    /// `account_needed`, `bad_tournament` (a name empty or too long, a
    /// clock or a number of rounds out of bounds), `tournament_limit`, a
    /// storage failure.
    pub async fn create_swiss(
        self: &Arc<Self>,
        creator: &PlayerId,
        settings: SwissSettings,
    ) -> Result<super::TournamentItem, Error> {
        let now = self.games.now_ms();
        let row = self
            .new_row(
                creator,
                TournamentKind::Swiss,
                &settings.name,
                settings.clock,
                now,
            )
            .await?;
        if !(1..=MAX_ROUNDS).contains(&settings.rounds) {
            return Err(bad_tournament("rounds", "a Swiss has 1 to 15 rounds"));
        }
        self.check_made(creator, now).await?;
        self.made(TournamentRow {
            rated: settings.rated,
            rounds: settings.rounds,
            manual_rounds: settings.manual_rounds,
            bots_allowed: settings.bots_allowed,
            ..row
        })
        .await
    }

    /// `player` (named `name`, a bot's account or not) joins Swiss
    /// `running`, or comes back after a withdrawal: before its start or
    /// between rounds.
    pub(super) async fn swiss_join(
        &self,
        room: &Arc<Room>,
        player: &PlayerId,
        (name, bot): (&str, bool),
        rating: i32,
    ) -> Result<super::TournamentView, Error> {
        let mut running = self.change(room).await?;
        if running.state == TournamentState::Finished {
            return Err(Error::conflict(
                Code::TournamentOver,
                "the tournament is over",
            ));
        }
        if round_in_play(&running) {
            return Err(Error::conflict(
                Code::RoundInPlay,
                "a round is in play: join once it ends",
            ));
        }
        let number = match running.number_of(player) {
            Some(n) => n,
            None => {
                let n = running.arena.players.len();
                running.arena.players.push(ArenaPlayer {
                    rating,
                    presence: Presence::Free,
                    sheet: Vec::new(),
                    firsts: 0,
                    free_since: 0,
                    waiting_ms: None,
                });
                running.entrants.push(Entrant {
                    player: player.clone(),
                    name: name.to_string(),
                    bot,
                    after_game: None,
                });
                if let Some(swiss) = running.swiss.as_mut() {
                    swiss.add_player(rating);
                }
                n
            }
        };
        running.entrants[number].after_game = None;
        running.set_in_rounds(number, Presence::Free);
        self.save_and_tell(room, &running, running.record(&[number], &[]))
            .await?;
        Ok(running.view(Some(player)))
    }

    /// `player` withdraws from Swiss `running`: at once between rounds,
    /// after their game in a round in play (the game counts).
    pub(super) async fn swiss_leave(
        &self,
        room: &Arc<Room>,
        player: &PlayerId,
    ) -> Result<super::TournamentView, Error> {
        let mut running = self.change(room).await?;
        let number = running.number_of(player).ok_or_else(|| {
            Error::conflict(Code::NotInTournament, "you have not joined this tournament")
        })?;
        if running.game_of(number).is_some() {
            running.entrants[number].after_game = Some(Presence::Withdrawn);
        } else {
            running.set_in_rounds(number, Presence::Withdrawn);
            self.save_and_tell(room, &running, running.record(&[number], &[]))
                .await?;
        }
        Ok(running.view(Some(player)))
    }

    /// The organiser of Swiss `id` starts it, or (rounds started by hand)
    /// its next round: the round is paired and its games started at once.
    /// A round that cannot be paired without a repeat ends the tournament.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `not_swiss`, `not_organiser`,
    /// `tournament_over`, `round_in_play`, `too_few_players` (fewer than
    /// two not withdrawn), a storage failure.
    pub async fn start_round(
        &self,
        id: i64,
        player: &PlayerId,
    ) -> Result<super::TournamentView, Error> {
        let room = self.room(id).await?;
        let mut running = self.change(&room).await?;
        if !running.is_swiss() {
            return Err(Error::conflict(
                Code::NotSwiss,
                "rounds are for a Swiss tournament",
            ));
        }
        if running.row.creator != *player {
            return Err(not_organiser());
        }
        if running.state == TournamentState::Finished {
            return Err(Error::conflict(
                Code::TournamentOver,
                "the tournament is over",
            ));
        }
        if round_in_play(&running) {
            return Err(Error::conflict(
                Code::RoundInPlay,
                "the round in play has games going on",
            ));
        }
        if running.swiss.is_none() {
            let ratings: Vec<i32> = running.arena.players.iter().map(|p| p.rating).collect();
            let present = running
                .arena
                .players
                .iter()
                .filter(|p| p.presence != Presence::Withdrawn)
                .count();
            if present < 2 {
                return Err(Error::conflict(
                    Code::TooFewPlayers,
                    format!("a Swiss needs two players at least, it has {present}"),
                ));
            }
            // The rounds those present can play without meeting twice.
            let rounds = running.row.rounds.min(most_rounds(present) as i64);
            let mut swiss = Swiss {
                ratings,
                rounds_total: rounds as usize,
                rounds: Vec::new(),
                out: Vec::new(),
            };
            for (n, p) in running.arena.players.iter().enumerate() {
                if p.presence == Presence::Withdrawn {
                    swiss.set_out(n, true);
                }
            }
            running.row.rounds = rounds;
            running.set(TournamentState::Started);
            running.row.starts_ms = running.clock.now_ms();
            running.swiss = Some(swiss);
        } else if running.swiss.as_ref().is_some_and(|s| s.active().len() < 2) {
            return Err(Error::conflict(
                Code::TooFewPlayers,
                "fewer than two players are left",
            ));
        }
        self.next_round(&room, &mut running).await?;
        Ok(running.view(Some(player)))
    }

    /// Pairs the next round of `running` and starts its games; ends the
    /// tournament when no round is left or none can be paired.
    async fn next_round(&self, room: &Arc<Room>, running: &mut Running) -> Result<(), Error> {
        let Some(swiss) = running.swiss.as_mut() else {
            return Ok(());
        };
        let paired = swiss.pair_next_round().cloned();
        let round = match paired {
            Ok(round) => round,
            Err(SwissError::AllRoundsPaired(_) | SwissError::NoPairing { .. }) => {
                return self.finish_swiss(room, running).await;
            }
            Err(e) => return Err(Error::conflict(Code::RoundInPlay, e.to_string())),
        };
        let made: Vec<WebGame> = round
            .pairings
            .iter()
            .map(|p| running.new_game(p.first, p.second))
            .collect();
        let games = match self.games.create(made).await {
            Ok(games) => games,
            Err(e) => {
                // The round is not paired after all: it may be started again.
                if let Some(swiss) = running.swiss.as_mut() {
                    swiss.rounds.pop();
                }
                return Err(e);
            }
        };
        running.row.current_round += 1;
        let number = running.row.current_round;
        let mut ids = Vec::new();
        let mut players = Vec::new();
        for (game, p) in games.iter().zip(&round.pairings) {
            self.hold(running, game, (p.first, p.second), number);
            ids.push(game.id);
            for n in [p.first, p.second] {
                running.arena.players[n].presence = Presence::Playing;
                players.push(n);
            }
        }
        if let Some(b) = round.bye {
            players.push(b);
        }
        self.save_and_tell(room, running, running.swiss_record(&players, &ids, number))
            .await?;
        Ok(())
    }

    async fn finish_swiss(&self, room: &Arc<Room>, running: &mut Running) -> Result<(), Error> {
        running.set(TournamentState::Finished);
        running.row.ends_ms = running.clock.now_ms();
        let all: Vec<usize> = (0..running.entrants.len()).collect();
        self.save_and_tell(room, running, running.record(&all, &[]))
            .await?;
        Ok(())
    }

    /// Records the end of Swiss game `held` (`game`): its result, the
    /// players free (or withdrawn, as they asked); the next round paired
    /// once this one is over (or the end), unless the organiser starts it.
    pub(super) async fn swiss_game_ended(
        &self,
        room: &Arc<Room>,
        running: &mut Running,
        game: &WebGame,
        held: Held,
    ) {
        let Some(end) = game.end() else { return };
        let (first, second) = (held.row.players.0 as usize, held.row.players.1 as usize);
        let first_side = seat_of(game, &running.entrants[first].player).unwrap_or(Side::South);
        // An aborted game (a first move not made in time): lost by the one
        // who was to sow.
        let winner = if game.stop == Some(Stop::Aborted) {
            Some(game.game.position().to_move().opponent())
        } else {
            end.winner
        };
        let result: i64 = match winner {
            None => 1,
            Some(w) if w == first_side => 2,
            Some(_) => 0,
        };
        lock(&self.by_game).remove(&game.id);
        if let Some(h) = running.games.get_mut(&game.id) {
            h.row.result = Some(result);
        }
        if let Some(swiss) = running.swiss.as_mut() {
            if let Some(outcome) = outcome_of(result) {
                if let Err(e) = swiss.record(first, second, outcome) {
                    tracing::warn!(game = game.id, error = %e, "a Swiss result not recorded");
                }
            }
        }
        for n in [first, second] {
            if running.entrants[n].after_game.take() == Some(Presence::Withdrawn) {
                running.set_in_rounds(n, Presence::Withdrawn);
            } else {
                running.arena.players[n].presence = Presence::Free;
            }
        }
        if let Err(e) = self
            .store
            .save_tournament(running.record(&[first, second], &[game.id]))
            .await
        {
            tracing::warn!(tournament = running.row.id, error = %e, "a Swiss result not stored");
        }
        self.after_result(room, running).await;
    }

    /// Once a round is over: the next one paired (rounds paired as the
    /// last ends), or the end when none is left.
    pub(super) async fn after_result(&self, room: &Arc<Room>, running: &mut Running) {
        let over = running.state == TournamentState::Started
            && running
                .swiss
                .as_ref()
                .and_then(|s| s.rounds.last())
                .is_some_and(Round::is_finished);
        if over {
            let last = running.row.current_round >= running.row.rounds;
            let next = if last {
                self.finish_swiss(room, running).await
            } else if !running.row.manual_rounds {
                self.next_round(room, running).await
            } else {
                Ok(())
            };
            if let Err(e) = next {
                tracing::warn!(tournament = running.row.id, error = %e, "a Swiss round not paired");
            }
        }
        self.tell(room, running);
    }

    /// Goes on with Swiss `id` after a restart: a round over whose next
    /// was not paired yet is paired now.
    pub(super) async fn resume_swiss(&self, id: i64) -> Result<(), Error> {
        let room = self.room(id).await?;
        let mut running = self.change(&room).await?;
        if running.is_swiss() {
            self.after_result(&room, &mut running).await;
        }
        Ok(())
    }

    /// Swiss `id`'s standings as CSV (rank, name, rating, points,
    /// Buchholz, Sonneborn-Berger).
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `not_swiss`, a storage failure.
    pub async fn standings_csv(&self, id: i64) -> Result<(String, String), Error> {
        let room = self.room(id).await?;
        let running = room.running.lock().await;
        if !running.is_swiss() {
            return Err(Error::conflict(
                Code::NotSwiss,
                "the standings as CSV are a Swiss tournament's",
            ));
        }
        let names: Vec<&str> = running.entrants.iter().map(|e| e.name.as_str()).collect();
        let csv = match &running.swiss {
            Some(swiss) => swiss.standings_csv(&names),
            None => {
                let ratings: Vec<i32> = running.arena.players.iter().map(|p| p.rating).collect();
                Swiss {
                    ratings,
                    rounds_total: 0,
                    rounds: Vec::new(),
                    out: Vec::new(),
                }
                .standings_csv(&names)
            }
        };
        Ok((running.row.name.clone(), csv))
    }

    /// Every game of tournament `id`, in the order played, as one record
    /// file (`Event` the tournament, `Round` the round and board).
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `too_many_for_file` (more than
    /// [`MAX_FILE_GAMES`]), a storage failure.
    pub async fn games_file(&self, id: i64) -> Result<(String, String), Error> {
        let room = self.room(id).await?;
        let (name, mut games) = {
            let running = room.running.lock().await;
            let games: Vec<PairingRow> = running.games.values().map(|h| h.row).collect();
            (running.row.name.clone(), games)
        };
        if games.len() > MAX_FILE_GAMES {
            return Err(Error::conflict(
                Code::TooManyForFile,
                format!("a tournament's record file holds {MAX_FILE_GAMES} games at most"),
            )
            .with("most", MAX_FILE_GAMES));
        }
        games.sort_by_key(|g| (g.round, g.game_id));
        let mut text = String::new();
        let mut board = 0;
        let mut last_round = -1;
        for g in games {
            if g.round != last_round {
                last_round = g.round;
                board = 0;
            }
            board += 1;
            let game = match self.games.load(g.game_id).await {
                Ok(game) => game,
                Err(e) if e.code == Code::NoSuchGame => continue,
                Err(e) => return Err(e),
            };
            let round = if g.round > 0 {
                format!("{}.{board}", g.round)
            } else {
                game.public_id.clone()
            };
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&crate::records::export_as(&game, &name, &round));
        }
        Ok((name, text))
    }
}
