//! The arena side of [`Tournaments`], its rules those of
//! [`crate::pairing::arena`]: the free paired and their games started,
//! a timer for those left waiting, the first mover's time watched, each
//! end recorded (the ends that come together in one write), berserk.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use awale_core::Side;

use super::{
    berserk_allowed, seat_of, Held, Running, TournamentState, TournamentView, Tournaments,
};
use crate::error::Error;
use crate::game::{PlayerId, Stop, WebGame};
use crate::lock;
use crate::pairing::arena::Presence;
use crate::rating::Speed;
use crate::store::tournaments::PairingRow;
use awale_model::Code;

impl Tournaments {
    /// `player` halves their own clock in their game of tournament `id`,
    /// before their first move: a win gives one more point.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, `not_in_tournament`, `cannot_berserk` (not in
    /// a game, moved already, or berserked already), a storage failure.
    pub async fn berserk(&self, id: i64, player: &PlayerId) -> Result<TournamentView, Error> {
        let room = self.room(id).await?;
        let mut running = self.change(&room).await?;
        let number = running.number_of(player).ok_or_else(|| {
            Error::conflict(Code::NotInTournament, "you have not joined this tournament")
        })?;
        let cannot = || {
            Error::conflict(
                Code::CannotBerserk,
                "berserk is for a game of the arena, before your first move, once",
            )
        };
        if running.is_swiss()
            || running.state != TournamentState::Started
            || self.games.now_ms() >= running.row.ends_ms
        {
            return Err(cannot());
        }
        let held = running.game_of(number).cloned().ok_or_else(cannot)?;
        let side = usize::from(held.row.players.0 != number as i64);
        if held.row.berserk[side] {
            return Err(cannot());
        }
        self.games
            .change(held.row.game_id, |game| {
                if !berserk_allowed(game, player) {
                    return Err(cannot());
                }
                let seat = seat_of(game, player).ok_or_else(cannot)?;
                if let Some(clock) = game.clock.as_mut() {
                    clock.remaining_ms[seat.index()] = clock.initial_ms / 2;
                }
                Ok(())
            })
            .await?;
        let game_id = held.row.game_id;
        if let Some(h) = running.games.get_mut(&game_id) {
            h.row.berserk[side] = true;
        }
        self.save_and_tell(&room, &running, running.record(&[], &[game_id]))
            .await?;
        Ok(running.view(Some(player)))
    }

    /// `player`'s rating now at the speed of `clock` (the start's when
    /// they have none); None where ratings are not kept or not read.
    pub(super) async fn current_rating(&self, player: &PlayerId, clock: (i64, i64)) -> Option<i32> {
        let speed = Speed::of(Some(clock));
        let ratings = self.games.ratings()?;
        let list = ratings.ratings(player.clone()).await.ok()?;
        Some(
            list.iter()
                .find(|r| r.pool == crate::rating::Pool::People(speed))
                .map_or(crate::rating::START.rating, |r| r.glicko.rating)
                .round() as i32,
        )
    }

    /// Pairs the free players of a started arena and starts their games.
    pub(super) async fn pair(&self, running: &mut Running) {
        let now = self.games.now_ms();
        if running.is_swiss()
            || running.state != TournamentState::Started
            || now >= running.row.ends_ms
        {
            return;
        }
        let pairs = running.arena.pair(now);
        if let Some(at) = running.arena.rematch_due() {
            // Never sooner than a second from now: a wait that could not
            // be paired is not tried again at once.
            self.arm_pairing(running.row.id, at.max(now + 1_000));
        }
        if pairs.is_empty() {
            return;
        }
        let made: Vec<WebGame> = pairs
            .iter()
            .map(|&(first, second)| running.new_game(first, second))
            .collect();
        let numbers: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        match self.games.create(made).await {
            Ok(games) => {
                let mut ids = Vec::new();
                for (game, &players) in games.iter().zip(&pairs) {
                    self.hold(running, game, players, 0);
                    ids.push(game.id);
                }
                if let Err(e) = self
                    .store
                    .save_tournament(running.record(&numbers, &ids))
                    .await
                {
                    tracing::warn!(tournament = running.row.id, error = %e, "a pairing not stored");
                }
            }
            Err(e) => {
                tracing::warn!(tournament = running.row.id, error = %e, "arena games not made");
                for (first, second) in pairs {
                    let _ = running.arena.cancel(first, second);
                    if let Some(p) = running.arena.players.get_mut(first) {
                        p.firsts = p.firsts.saturating_sub(1);
                    }
                }
            }
        }
    }

    /// Pairs tournament `id` again at `at` (ms, the games' clock): players
    /// left waiting may then meet again ([`Arena::rematch_due`]). One timer
    /// a tournament, the soonest kept.
    pub(super) fn arm_pairing(&self, id: i64, at: i64) {
        let Some(room) = lock(&self.rooms).get(&id).cloned() else {
            return;
        };
        let armed = room.pairing_at.load(Ordering::Relaxed);
        if armed != 0 && armed <= at {
            return;
        }
        room.pairing_at.store(at, Ordering::Relaxed);
        let me = self.me.clone();
        let clock = self.games.clock().clone();
        tokio::spawn(async move {
            clock.sleep_until(at).await;
            let Some(tournaments) = me.upgrade() else {
                return;
            };
            // Another timer armed sooner may have taken its place.
            if room
                .pairing_at
                .compare_exchange(at, 0, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
            {
                return;
            }
            let mut running = match tournaments.change(&room).await {
                Ok(running) => running,
                Err(e) => {
                    tracing::warn!(tournament = id, error = %e, "waiting players not paired");
                    return;
                }
            };
            tournaments.pair(&mut running).await;
            tournaments.tell(&room, &running);
        });
    }

    /// Holds `game`, just made for the players numbered `players` in round
    /// `round` (0 in an arena), as one of `running`'s.
    pub(super) fn hold(
        &self,
        running: &mut Running,
        game: &WebGame,
        players: (usize, usize),
        round: i64,
    ) {
        let row = PairingRow {
            game_id: game.id,
            players: (players.0 as i64, players.1 as i64),
            berserk: [false, false],
            result: None,
            round,
        };
        running.games.insert(
            game.id,
            Held {
                row,
                public_id: game.public_id.clone(),
            },
        );
        lock(&self.by_game).insert(game.id, running.row.id);
        // No clock runs before a side's first move: one who does not
        // sow in time loses by forfeit, so the tournament cannot hang.
        self.arm_first_move(game);
    }

    /// Aborts `game` if its first mover has not sown in time (counted from
    /// when it was made).
    pub(super) fn arm_first_move(&self, game: &WebGame) {
        if game.end().is_some() || game.game.plies().len() >= 2 {
            return;
        }
        let id = game.id;
        let due = game.created_ms + self.first_move_ms.load(Ordering::Relaxed);
        let games = Arc::clone(&self.games);
        tokio::spawn(async move {
            games.clock().sleep_until(due).await;
            let aborted = games
                .change(id, |game| {
                    if game.end().is_some() || game.game.plies().len() >= 2 {
                        return Ok(false);
                    }
                    game.stop = Some(Stop::Aborted);
                    Ok(true)
                })
                .await;
            if let Err(e) = aborted {
                if e.code != Code::GameOver {
                    tracing::warn!(game = id, error = %e, "an arena game not aborted");
                }
            }
        });
    }

    /// Reads every game in play of the held tournaments again (an end may
    /// have been missed) and records those that ended.
    pub(super) async fn check_games(&self) {
        let ids: Vec<i64> = lock(&self.by_game).keys().copied().collect();
        let mut ended = Vec::new();
        for id in ids {
            if let Ok(game) = self.games.load(id).await {
                if game.end().is_some() {
                    ended.push(game);
                }
            }
        }
        self.games_ended(&ended).await;
    }

    /// Records the ends of `games` (those of arenas), frees their players
    /// and pairs again: each tournament's ends in one write, one pairing
    /// and one telling (a big arena's ends come faster than one write
    /// each).
    pub(super) async fn games_ended(&self, games: &[WebGame]) {
        let mut by_tournament: Vec<(i64, Vec<&WebGame>)> = Vec::new();
        for game in games.iter().filter(|g| g.end().is_some()) {
            let Some(tid) = lock(&self.by_game).get(&game.id).copied() else {
                continue;
            };
            match by_tournament.iter_mut().find(|(t, _)| *t == tid) {
                Some((_, list)) => list.push(game),
                None => by_tournament.push((tid, vec![game])),
            }
        }
        for (tid, games) in by_tournament {
            let Ok(room) = self.room(tid).await else {
                continue;
            };
            let mut running = match self.change(&room).await {
                Ok(running) => running,
                Err(e) => {
                    tracing::warn!(tournament = tid, error = %e, "game ends not recorded");
                    continue;
                }
            };
            // A Swiss's ends, one by one: each may end its round.
            if running.is_swiss() {
                for game in games {
                    let held = running.games.get(&game.id).cloned();
                    if let Some(held) = held.filter(|h| h.row.result.is_none()) {
                        self.swiss_game_ended(&room, &mut running, game, held).await;
                    }
                }
                continue;
            }
            let mut numbers = Vec::new();
            let mut ids = Vec::new();
            for game in games {
                if let Some((first, second)) = self.record_end(&mut running, game) {
                    numbers.extend([first, second]);
                    ids.push(game.id);
                }
            }
            if ids.is_empty() {
                continue;
            }
            // The standings show ratings as they are now, the game's change
            // counted (it is stored before its end is told).
            for &n in &numbers {
                let player = running.entrants[n].player.clone();
                if let Some(rating) = self.current_rating(&player, running.row.clock).await {
                    running.arena.players[n].rating = rating;
                }
            }
            // The arena's time was up and its last game has ended: it is
            // finished, its podium final.
            if running.state == TournamentState::Started
                && self.games.now_ms() >= running.row.ends_ms
                && running.arena.playing.is_empty()
            {
                running.set(TournamentState::Finished);
            }
            if let Err(e) = self
                .store
                .save_tournament(running.record(&numbers, &ids))
                .await
            {
                tracing::warn!(tournament = tid, error = %e, "arena results not stored");
            }
            self.pair(&mut running).await;
            self.tell(&room, &running);
        }
    }

    /// Records the end of `game` in `running` (not stored yet): its two
    /// players' numbers, or None when it was recorded already.
    fn record_end(&self, running: &mut Running, game: &WebGame) -> Option<(usize, usize)> {
        let end = game.end()?;
        let held = running.games.get(&game.id).cloned()?;
        if held.row.result.is_some() {
            return None;
        }
        let (first, second) = (held.row.players.0 as usize, held.row.players.1 as usize);
        let first_side = seat_of(game, &running.entrants[first].player).unwrap_or(Side::South);
        let result: i64 = if game.stop == Some(Stop::Aborted) {
            let _ = running.arena.cancel(first, second);
            // Who did not sow in time is paused until they come back.
            let late = game.game.position().to_move();
            let late_number = if late == first_side { first } else { second };
            let _ = running.arena.set_presence(late_number, Presence::Paused);
            -1
        } else {
            let result = match end.winner {
                None => 1,
                Some(w) if w == first_side => 2,
                Some(_) => 0,
            };
            let _ = running
                .arena
                .finish(first, second, result as u8, held.row.berserk);
            i64::from(result)
        };
        lock(&self.by_game).remove(&game.id);
        if let Some(h) = running.games.get_mut(&game.id) {
            h.row.result = Some(result);
        }
        for n in [first, second] {
            if let Some(wish) = running.entrants[n].after_game.take() {
                let _ = running.arena.set_presence(n, wish);
            }
        }
        Some((first, second))
    }
}
