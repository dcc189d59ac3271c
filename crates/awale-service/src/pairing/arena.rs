//! An arena tournament, as lichess runs them: for a fixed time, whoever is
//! free is paired at once with another free player close in score and
//! rating (not the one just played); a win is 2 points, a draw 1; after two
//! wins in a row each further win counts double until a game that is not a
//! win (the streak, shown as a flame); a player who berserks (halves their
//! own clock at the start of a game) wins one point more. Pure (the time
//! given to each pairing): the service keeps it, starts the games and
//! tells the watchers.

use serde::{Deserialize, Serialize};

use super::matching;

/// How long two players who just met wait, when nobody else is free and
/// games are in play, before they meet again (ms). Lichess never pairs
/// last opponents again while more than two play; in a small arena that
/// left a pair waiting for the other game to end, a minute or more with
/// nothing to do (issue 42): here they wait a few seconds for someone
/// else to come free, then meet again.
pub const REMATCH_WAIT_MS: i64 = 5_000;

/// Where an arena player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Waiting for an opponent: paired at the next pairing.
    Free,
    /// In a game of the arena.
    Playing,
    /// Keeps their score but is not paired until they come back.
    Paused,
    /// Left the arena: keeps their score, not paired again unless they
    /// join again.
    Withdrawn,
}

/// A finished arena game as one of its players saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// The opponent's number.
    pub opponent: usize,
    /// 2 for a win, 1 for a draw, 0 for a loss.
    pub result: u8,
    /// Whether this player berserked.
    pub berserk: bool,
    /// The points the game gave (doubled on a streak, plus the berserk point).
    pub points: u32,
    /// Whether the game was won on a streak (the flame).
    pub on_fire: bool,
}

/// One player of an arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaPlayer {
    /// Their rating when they joined (pairing and ties).
    pub rating: i32,
    /// Where they are now.
    pub presence: Presence,
    /// Their finished games, in order.
    pub sheet: Vec<Sheet>,
    /// How many of their games they sowed first.
    pub firsts: u32,
    /// When they last came free, counted in [`Arena::freed`]: the lower,
    /// the longer they have waited. Not stored: after a restart all wait
    /// alike.
    #[serde(default)]
    pub free_since: u64,
    /// Since when (ms) they have waited for an opponent, free and not
    /// paired at a pairing; None when not waiting. Not stored.
    #[serde(default)]
    pub waiting_ms: Option<i64>,
}

impl ArenaPlayer {
    /// The points so far.
    #[must_use]
    pub fn score(&self) -> u32 {
        self.sheet.iter().map(|s| s.points).sum()
    }

    /// Whether the last two games were wins: the next win counts double.
    #[must_use]
    pub fn on_fire(&self) -> bool {
        self.sheet.len() >= 2 && self.sheet.iter().rev().take(2).all(|s| s.result == 2)
    }

    fn last_opponent(&self) -> Option<usize> {
        self.sheet.last().map(|s| s.opponent)
    }
}

/// Why an arena refused a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// No player has that number.
    NoSuchPlayer(usize),
    /// The two named are not playing each other.
    NotPlaying(usize, usize),
    /// A player in a game cannot pause or leave until it ends.
    InGame(usize),
}

impl std::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArenaError::NoSuchPlayer(p) => write!(f, "no player {p} in this arena"),
            ArenaError::NotPlaying(a, b) => write!(
                f,
                "players {a} and {b} are not playing each other in this arena"
            ),
            ArenaError::InGame(p) => write!(
                f,
                "player {p} is in a game: they can pause or leave once it ends"
            ),
        }
    }
}

impl std::error::Error for ArenaError {}

/// An arena: its players by number, and the games in play.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    /// The players, by number (the order they joined).
    pub players: Vec<ArenaPlayer>,
    /// The games in play: (first, second).
    pub playing: Vec<(usize, usize)>,
    /// How many times a player has come free (joined, a game ended, came
    /// back): the clock of who has waited longest.
    #[serde(default)]
    pub freed: u64,
}

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    /// The player's number.
    pub player: usize,
    /// Their points.
    pub score: u32,
    /// Whether they are on a streak now.
    pub on_fire: bool,
}

impl Arena {
    /// Adds a free player; returns their number.
    pub fn join(&mut self, rating: i32) -> usize {
        self.freed += 1;
        self.players.push(ArenaPlayer {
            rating,
            presence: Presence::Free,
            sheet: Vec::new(),
            firsts: 0,
            free_since: self.freed,
            waiting_ms: None,
        });
        self.players.len() - 1
    }

    /// `players` come free now, together.
    fn come_free(&mut self, players: &[usize]) {
        self.freed += 1;
        for &p in players {
            self.players[p].presence = Presence::Free;
            self.players[p].free_since = self.freed;
            self.players[p].waiting_ms = None;
        }
    }

    fn player_mut(&mut self, p: usize) -> Result<&mut ArenaPlayer, ArenaError> {
        self.players.get_mut(p).ok_or(ArenaError::NoSuchPlayer(p))
    }

    /// Sets `p` paused, withdrawn or free again (a comeback or a re-join).
    ///
    /// # Errors
    ///
    /// [`ArenaError::NoSuchPlayer`], or [`ArenaError::InGame`] while `p`
    /// plays (their game ends first).
    pub fn set_presence(&mut self, p: usize, presence: Presence) -> Result<(), ArenaError> {
        let player = self.player_mut(p)?;
        if player.presence == Presence::Playing || presence == Presence::Playing {
            return Err(ArenaError::InGame(p));
        }
        if presence == Presence::Free && player.presence != Presence::Free {
            self.come_free(&[p]);
        } else {
            player.presence = presence;
            if presence != Presence::Free {
                player.waiting_ms = None;
            }
        }
        Ok(())
    }

    /// Pairs the free players at `now` (ms) and returns the new games as
    /// (first, second).
    ///
    /// As lichess's arena: the free players are ranked by score, then
    /// rating, and a pair is *fresh* when neither was the other's last
    /// opponent. First, who plays: as many fresh pairs as can be made, and
    /// of those who could play, whoever has waited longest is never left
    /// out for someone who came free after.
    /// Then, among those, from the top of the ranking each meets the
    /// nearest one below with whom the pair is fresh. Those no fresh pair
    /// could take meet again one they just met when no game is in play,
    /// or once both have waited [`REMATCH_WAIT_MS`] (until then someone
    /// else may come free). Whoever is left waiting is noted as waiting
    /// since `now` (see [`Arena::rematch_due`]).
    pub fn pair(&mut self, now: i64) -> Vec<(usize, usize)> {
        let mut free: Vec<usize> = (0..self.players.len())
            .filter(|&p| self.players[p].presence == Presence::Free)
            .collect();
        free.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            pb.score()
                .cmp(&pa.score())
                .then(pb.rating.cmp(&pa.rating))
                .then(a.cmp(&b))
        });
        let n = free.len();
        let fresh = |i: usize, j: usize| {
            let (a, b) = (free[i], free[j]);
            i != j
                && self.players[a].last_opponent() != Some(b)
                && self.players[b].last_opponent() != Some(a)
        };
        // Who plays: the players brought in one at a time in the order they
        // came free, each time the most pairs among those in. When one
        // more pair can be made, it takes the newcomer and whoever came
        // free earliest among those still left out.
        let mut by_wait: Vec<usize> = (0..n).collect();
        by_wait.sort_by_key(|&i| (self.players[free[i]].free_since, i));
        let mut allowed: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut chosen = vec![None; n];
        for (k, &v) in by_wait.iter().enumerate() {
            for &u in &by_wait[..k] {
                if fresh(u, v) {
                    allowed[u].push(v);
                    allowed[v].push(u);
                }
            }
            for &u in &by_wait[..k] {
                if chosen[u].is_none() && matching::augment(&allowed, &mut chosen, u) {
                    break;
                }
            }
        }
        // The same players paired again by rank: from the top, the nearest
        // fresh one below; whoever that leaves out is paired back in.
        let plays: Vec<bool> = chosen.iter().map(Option::is_some).collect();
        let among: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| plays[i] && plays[j] && fresh(i, j))
                    .collect()
            })
            .collect();
        let mut mate = vec![None; n];
        for i in 0..n {
            if plays[i] && mate[i].is_none() {
                if let Some(j) = (i + 1..n).find(|&j| plays[j] && mate[j].is_none() && fresh(i, j))
                {
                    mate[i] = Some(j);
                    mate[j] = Some(i);
                }
            }
        }
        for i in 0..n {
            if plays[i] && mate[i].is_none() {
                matching::augment(&among, &mut mate, i);
            }
        }
        if mate.iter().map(Option::is_some).ne(plays.iter().copied()) {
            mate = chosen;
        }
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| (i, j)))
            .collect();
        {
            // Those no fresh pair could take meet one they just met, by
            // rank, the one who came free last sitting out an odd number:
            // at once when no game is in play (nobody to wait for), else
            // those who have waited long enough.
            let waited = |i: usize| {
                self.playing.is_empty()
                    || self.players[free[i]]
                        .waiting_ms
                        .is_some_and(|since| now - since >= REMATCH_WAIT_MS)
            };
            let mut left: Vec<usize> = (0..n).filter(|&i| mate[i].is_none() && waited(i)).collect();
            left.sort_by_key(|&i| (self.players[free[i]].free_since, i));
            left.truncate(left.len() - left.len() % 2);
            left.sort_unstable();
            pairs.extend(left.chunks(2).map(|c| (c[0], c[1])));
        }
        let mut games = Vec::new();
        for (i, j) in pairs {
            let (a, b) = (free[i], free[j]);
            // Whoever has sown first less often sows first; ties go to the
            // lower in the ranking.
            let (first, second) = if self.players[a].firsts < self.players[b].firsts {
                (a, b)
            } else {
                (b, a)
            };
            games.push((first, second));
        }
        for &(first, second) in &games {
            self.players[first].presence = Presence::Playing;
            self.players[first].firsts += 1;
            self.players[second].presence = Presence::Playing;
            self.players[first].waiting_ms = None;
            self.players[second].waiting_ms = None;
            self.playing.push((first, second));
        }
        for p in &mut self.players {
            if p.presence == Presence::Free && p.waiting_ms.is_none() {
                p.waiting_ms = Some(now);
            }
        }
        games
    }

    /// When a pairing may pair someone left waiting: the soonest a pair
    /// of players who just met may meet again ([`REMATCH_WAIT_MS`]), when
    /// two or more wait while games are in play. None: the next end or
    /// arrival will pair them.
    #[must_use]
    pub fn rematch_due(&self) -> Option<i64> {
        let waiting: Vec<i64> = self
            .players
            .iter()
            .filter(|p| p.presence == Presence::Free)
            .filter_map(|p| p.waiting_ms)
            .collect();
        if waiting.len() < 2 || self.playing.is_empty() {
            return None;
        }
        // Both of a pair must have waited: the second longest wait decides.
        let mut waiting = waiting;
        waiting.sort_unstable();
        Some(waiting[1] + REMATCH_WAIT_MS)
    }

    /// Records the end of the game between `first` and `second`: `result`
    /// is the first player's (2 win, 1 draw, 0 loss), with who berserked.
    /// Both come free (a player who paused or left meanwhile stays so).
    ///
    /// # Errors
    ///
    /// [`ArenaError::NotPlaying`] when the two are not in a game together.
    pub fn finish(
        &mut self,
        first: usize,
        second: usize,
        result: u8,
        berserk: [bool; 2],
    ) -> Result<(), ArenaError> {
        self.leave_playing(first, second)?;
        let result = result.min(2);
        for (me, them, mine, berserked) in [
            (first, second, result, berserk[0]),
            (second, first, 2 - result, berserk[1]),
        ] {
            let player = &mut self.players[me];
            let on_fire = mine == 2 && player.on_fire();
            let base = u32::from(mine) * if on_fire { 2 } else { 1 };
            let bonus = u32::from(mine == 2 && berserked);
            player.sheet.push(Sheet {
                opponent: them,
                result: mine,
                berserk: berserked,
                points: base + bonus,
                on_fire,
            });
        }
        let back: Vec<usize> = [first, second]
            .into_iter()
            .filter(|&p| self.players[p].presence == Presence::Playing)
            .collect();
        self.come_free(&back);
        Ok(())
    }

    /// The game between `first` and `second` is no longer in play.
    fn leave_playing(&mut self, first: usize, second: usize) -> Result<(), ArenaError> {
        let at = self
            .playing
            .iter()
            .position(|&g| g == (first, second))
            .ok_or(ArenaError::NotPlaying(first, second))?;
        self.playing.swap_remove(at);
        Ok(())
    }

    /// Takes back the game between `first` and `second`, aborted before it
    /// began: no points, nothing on their sheets; both come free (a player
    /// who paused or left meanwhile stays so).
    ///
    /// # Errors
    ///
    /// [`ArenaError::NotPlaying`] when the two are not in a game together.
    pub fn cancel(&mut self, first: usize, second: usize) -> Result<(), ArenaError> {
        self.leave_playing(first, second)?;
        // They keep the time they had waited: the game never began.
        for p in [first, second] {
            let player = &mut self.players[p];
            if player.presence == Presence::Playing {
                player.presence = Presence::Free;
            }
        }
        Ok(())
    }

    /// Whether `p` is in a game now (a pause or a withdrawal waits for its end).
    #[must_use]
    pub fn is_playing(&self, p: usize) -> bool {
        self.players
            .get(p)
            .is_some_and(|pl| pl.presence == Presence::Playing)
    }

    /// The standings: score, then rating, then who joined first.
    #[must_use]
    pub fn standings(&self) -> Vec<ArenaStanding> {
        let mut lines: Vec<ArenaStanding> = self
            .players
            .iter()
            .enumerate()
            .map(|(player, p)| ArenaStanding {
                player,
                score: p.score(),
                on_fire: p.on_fire(),
            })
            .collect();
        lines.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(
                    self.players[b.player]
                        .rating
                        .cmp(&self.players[a.player].rating),
                )
                .then(a.player.cmp(&b.player))
        });
        lines
    }

    /// The podium once the arena is over: the first three of the standings.
    #[must_use]
    pub fn podium(&self) -> Vec<ArenaStanding> {
        self.standings().into_iter().take(3).collect()
    }

    /// The game in play of the highest-ranked pair (the one to watch).
    #[must_use]
    pub fn top_game(&self) -> Option<(usize, usize)> {
        let rank: Vec<usize> = {
            let mut r = vec![0; self.players.len()];
            for (i, s) in self.standings().iter().enumerate() {
                r[s.player] = i;
            }
            r
        };
        self.playing
            .iter()
            .copied()
            .min_by_key(|&(a, b)| rank[a].min(rank[b]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_players_are_paired_by_score_and_rating() {
        let mut arena = arena_of(&[1500, 1900, 1700, 1300]);
        let mut games = arena.pair(0);
        for g in &mut games {
            *g = (g.0.min(g.1), g.0.max(g.1));
        }
        games.sort_unstable();
        // Ranked 1 (1900), 2 (1700), 0 (1500), 3 (1300): 1-2 and 0-3.
        assert_eq!(games, vec![(0, 3), (1, 2)]);
        assert!(arena.pair(0).is_empty(), "nobody is free");
    }

    #[test]
    fn the_opponent_just_played_is_avoided_while_others_play() {
        let (mut arena, _, _) = first_game_drawn();
        // 0 and 1 are free, the other game goes on: they wait.
        assert!(arena.pair(0).is_empty());
        let (c, d) = arena.playing[0];
        arena.finish(c, d, 2, [false, false]).unwrap();
        // Now all four are free: nobody meets the last opponent.
        for (x, y) in arena.pair(0) {
            assert_ne!(arena.players[x].last_opponent(), Some(y));
        }
    }

    #[test]
    fn two_who_just_met_meet_again_after_a_short_wait_while_others_play() {
        let (mut arena, a, b) = first_game_drawn();
        // The other game goes on: nobody else is free, they wait...
        assert!(arena.pair(1_000).is_empty());
        assert_eq!(arena.players[a].waiting_ms, Some(1_000));
        assert_eq!(arena.rematch_due(), Some(1_000 + REMATCH_WAIT_MS));
        assert!(arena.pair(1_000 + REMATCH_WAIT_MS - 1).is_empty());
        // ...a few seconds, then meet again.
        let again = arena.pair(1_000 + REMATCH_WAIT_MS);
        assert_eq!(again.len(), 1);
        assert!(played(&again, a) && played(&again, b), "{again:?}");
        assert_eq!(arena.players[a].waiting_ms, None);
        assert_eq!(arena.rematch_due(), None);
    }

    #[test]
    fn someone_come_free_meanwhile_is_met_rather_than_the_last_opponent() {
        let mut arena = arena_of(&[2000, 1900, 1800, 1700]);
        arena.pair(0);
        let (a, b) = arena.playing[0];
        arena.finish(a, b, 2, [false, false]).unwrap();
        assert!(arena.pair(1_000).is_empty());
        let (c, d) = arena.playing[0];
        arena.finish(c, d, 2, [false, false]).unwrap();
        for (x, y) in arena.pair(2_000) {
            assert_ne!(arena.players[x].last_opponent(), Some(y));
        }
    }

    /// An arena of players of these ratings, none paired yet.
    fn arena_of(ratings: &[i32]) -> Arena {
        let mut arena = Arena::default();
        for &r in ratings {
            arena.join(r);
        }
        arena
    }

    /// Four players paired at 0, the game of player 0 drawn (the other
    /// going on): the arena and the two who drew.
    fn first_game_drawn() -> (Arena, usize, usize) {
        let mut arena = arena_of(&[2000, 1900, 1800, 1700]);
        let games = arena.pair(0);
        let (a, b) = games.iter().copied().find(|&(a, b)| a.min(b) == 0).unwrap();
        arena.finish(a, b, 1, [false, false]).unwrap();
        (arena, a, b)
    }

    /// Finishes every game in play, the first player winning.
    fn finish_all(arena: &mut Arena) {
        for (a, b) in arena.playing.clone() {
            arena.finish(a, b, 2, [false, false]).unwrap();
        }
    }

    fn played(games: &[(usize, usize)], p: usize) -> bool {
        games.iter().any(|&(a, b)| a == p || b == p)
    }

    #[test]
    fn of_three_players_nobody_is_left_out_for_good() {
        // As on the site: A and B paired at once, Z joins during their
        // game; each game finished at once.
        let mut arena = Arena::default();
        let a = arena.join(1500);
        let b = arena.join(1500);
        assert_eq!(arena.pair(0).len(), 1);
        let z = arena.join(1500);
        assert!(arena.pair(0).is_empty(), "Z waits for the game");
        let mut out = Vec::new();
        for _ in 0..12 {
            finish_all(&mut arena);
            let games = arena.pair(0);
            assert_eq!(games.len(), 1, "{arena:?}");
            out.push([a, b, z].into_iter().find(|&p| !played(&games, p)).unwrap());
        }
        // Whoever sat out a game plays the next one.
        for w in out.windows(2) {
            assert_ne!(w[0], w[1], "sat out twice in a row: {out:?}");
        }
        for p in [a, b, z] {
            assert!(arena.players[p].sheet.len() >= 7, "{p}: {arena:?}");
        }
    }

    #[test]
    fn a_fresh_pair_below_comes_before_a_rematch_at_the_top() {
        let mut arena = Arena::default();
        let a = arena.join(1900);
        let b = arena.join(1800);
        let z = arena.join(1700);
        arena.playing.push((a, b));
        arena.finish(a, b, 2, [false, false]).unwrap();
        arena.playing.push((a, z));
        arena.finish(a, z, 2, [false, false]).unwrap();
        // A, the leader, just met Z, and B's last was A: only B-Z is fresh.
        let games = arena.pair(0);
        assert_eq!(games.len(), 1);
        assert!(!played(&games, a), "{games:?}");
    }

    #[test]
    fn whoever_has_waited_longest_is_not_left_out() {
        let mut arena = arena_of(&[2000, 1900, 1800, 1700, 1600]);
        // 0-1 and 2-3; 4, the lowest, waits.
        let games = arena.pair(0);
        assert_eq!(games.len(), 2);
        assert!(!played(&games, 4));
        // 0-1 ends, then 2-3: the higher rated win.
        for pair in [(0, 1), (2, 3)] {
            let (x, y) = arena
                .playing
                .iter()
                .copied()
                .find(|&(x, y)| x.min(y) == pair.0)
                .unwrap();
            arena
                .finish(x, y, if x < y { 2 } else { 0 }, [false, false])
                .unwrap();
        }
        // By rank alone 0-2 and 1-3 would leave 4 out again: 4 plays, and
        // the one left out came free last (from 2-3), the lower of them.
        let games = arena.pair(0);
        assert_eq!(games.len(), 2);
        assert!(played(&games, 4), "{games:?}");
        assert!(!played(&games, 3), "{games:?}");
    }

    #[test]
    fn two_players_alone_meet_again() {
        let mut arena = Arena::default();
        arena.join(1500);
        arena.join(1500);
        let (a, b) = arena.pair(0)[0];
        arena.finish(a, b, 0, [false, false]).unwrap();
        assert_eq!(arena.pair(0).len(), 1);
    }

    #[test]
    fn streaks_double_wins_until_a_game_that_is_not_a_win() {
        let mut arena = Arena::default();
        let hero = arena.join(2000);
        let others: Vec<usize> = (0..6).map(|_| arena.join(1000)).collect();
        let mut points = Vec::new();
        for (k, &o) in others.iter().enumerate() {
            // Force the game: hero first against o.
            arena.playing.push((hero, o));
            let result = if k == 3 { 1 } else { 2 };
            arena.finish(hero, o, result, [false, false]).unwrap();
            points.push(arena.players[hero].sheet.last().unwrap().points);
        }
        // win 2, win 2, win on fire 4, draw 1 (ends the streak), win 2, win 2.
        assert_eq!(points, vec![2, 2, 4, 1, 2, 2]);
        assert!(arena.players[hero].on_fire());
        assert_eq!(arena.players[hero].score(), 13);
    }

    #[test]
    fn berserk_adds_a_point_to_a_win_only() {
        let mut arena = Arena::default();
        let a = arena.join(1500);
        let b = arena.join(1500);
        arena.playing.push((a, b));
        arena.finish(a, b, 2, [true, true]).unwrap();
        assert_eq!(arena.players[a].score(), 3);
        assert_eq!(arena.players[b].score(), 0);
        arena.playing.push((a, b));
        arena.finish(a, b, 1, [true, false]).unwrap();
        assert_eq!(arena.players[a].score(), 4, "a berserk draw is 1");
    }

    #[test]
    fn a_paused_player_keeps_the_score_and_is_not_paired() {
        let mut arena = Arena::default();
        let a = arena.join(1500);
        let b = arena.join(1500);
        let c = arena.join(1500);
        arena.set_presence(c, Presence::Paused).unwrap();
        let games = arena.pair(0);
        assert_eq!(games.len(), 1);
        assert!(!games.iter().any(|&(x, y)| x == c || y == c));
        assert_eq!(
            arena.set_presence(a, Presence::Withdrawn),
            Err(ArenaError::InGame(a))
        );
        let (x, y) = games[0];
        arena.finish(x, y, 2, [false, false]).unwrap();
        arena.set_presence(x, Presence::Withdrawn).unwrap();
        arena.set_presence(c, Presence::Free).unwrap();
        let games = arena.pair(0);
        assert_eq!(games.len(), 1);
        assert!(games[0] == (y, c) || games[0] == (c, y));
        assert_eq!(
            arena.players[x].score(),
            2,
            "a withdrawn player keeps the score"
        );
        assert!(matches!(
            arena.finish(a, b, 2, [false, false]),
            Err(ArenaError::NotPlaying(..))
        ));
    }

    #[test]
    fn an_aborted_game_gives_nothing_and_frees_both() {
        let mut arena = Arena::default();
        let a = arena.join(1500);
        let b = arena.join(1500);
        let (x, y) = arena.pair(0)[0];
        arena.cancel(x, y).unwrap();
        assert!(arena.players.iter().all(|p| p.sheet.is_empty()));
        assert!(!arena.is_playing(a) && !arena.is_playing(b));
        assert_eq!(arena.cancel(x, y), Err(ArenaError::NotPlaying(x, y)));
    }

    #[test]
    fn first_moves_are_shared() {
        let mut arena = Arena::default();
        for _ in 0..4 {
            arena.join(1500);
        }
        for _ in 0..20 {
            for (a, b) in arena.pair(0) {
                arena.finish(a, b, 1, [false, false]).unwrap();
            }
        }
        for p in &arena.players {
            let games = p.sheet.len() as i64;
            assert!((2 * i64::from(p.firsts) - games).abs() <= 2, "{p:?}");
        }
    }

    #[test]
    fn the_top_game_is_the_leaders_one() {
        let mut arena = Arena::default();
        let players: Vec<usize> = (0..4).map(|_| arena.join(1500)).collect();
        arena.playing.push((players[0], players[1]));
        arena
            .finish(players[0], players[1], 2, [false, false])
            .unwrap();
        let games = arena.pair(0);
        assert_eq!(games.len(), 2);
        let top = arena.top_game().unwrap();
        assert!(top.0 == players[0] || top.1 == players[0]);
        assert_eq!(arena.podium()[0].player, players[0]);
    }
}
