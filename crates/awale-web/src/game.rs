//! A game as the server keeps it: the rules' [`Game`] plus what the browser
//! game adds (who plays, the computer's level, the clock, the redo list, a
//! fall of the flag), the operations on it, and its JSON view for the page.

use awale_core::{Game, Move, Position, Side};
use serde_json::{json, Value};

use crate::error::ApiError;

/// Who plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the computer.
    Computer {
        /// The person's side.
        human: Side,
        /// The computer's level number.
        level: u8,
    },
    /// Two people on one screen.
    Humans,
}

/// A game clock: each side's time left, counting down on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time each side starts with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Time left for South and North when their current turn began.
    pub remaining_ms: [i64; 2],
    /// When the side to move's turn began (milliseconds since 1970).
    pub turn_started_ms: i64,
}

/// The end of a game, including a fall of the flag (which the rules crate
/// does not know about).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// `starvation`, `repetition`, `target`, `resignation`, `empty_board`
    /// or `time`.
    pub reason: &'static str,
    /// Final stores, with the seeds left given out as the rules say.
    pub stores: [u8; 2],
    /// The winner, None for a draw.
    pub winner: Option<Side>,
}

/// One stored browser game.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// Its id in the store (0 before it is stored).
    pub id: i64,
    /// When it was created (milliseconds since 1970).
    pub created_ms: i64,
    /// Who plays.
    pub mode: Mode,
    /// Seed of the computer's choices, so a game can be reproduced.
    pub seed: u64,
    /// The clock, if the game is played with one.
    pub clock: Option<Clock>,
    /// The side whose time ran out.
    pub flagged: Option<Side>,
    /// Moves taken back, the next one to redo last.
    pub redo: Vec<Move>,
    /// The game itself: rules, start, moves, resignation.
    pub game: Game,
}

/// Milliseconds since 1970 now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A side as one letter in JSON.
pub fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

impl WebGame {
    /// The end of the game, if it is over, by the rules or by the clock.
    pub fn end(&self) -> Option<End> {
        if let Some(side) = self.flagged {
            return Some(End {
                reason: "time",
                stores: self.game.position().stores(),
                winner: Some(side.opponent()),
            });
        }
        self.game.outcome().map(|o| End {
            reason: o.reason.name(),
            stores: o.stores,
            winner: o.winner,
        })
    }

    /// Whether the computer plays the side to move now.
    pub fn computer_to_move(&self) -> bool {
        match self.mode {
            Mode::Computer { human, .. } => {
                self.end().is_none() && self.game.position().to_move() != human
            }
            Mode::Humans => false,
        }
    }

    /// Ends the game on time if the side to move's clock has run out at
    /// `now`. Returns whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        if self.end().is_some() {
            return false;
        }
        let Some(clock) = self.clock else {
            return false;
        };
        let mover = self.game.position().to_move();
        if clock.remaining_ms[mover.index()] - (now - clock.turn_started_ms) <= 0 {
            self.flagged = Some(mover);
            true
        } else {
            false
        }
    }

    /// Time left for each side at `now`.
    pub fn time_left(&self, now: i64) -> Option<[i64; 2]> {
        let clock = self.clock?;
        let mut left = clock.remaining_ms;
        if self.end().is_none() {
            let mover = self.game.position().to_move().index();
            left[mover] = (left[mover] - (now - clock.turn_started_ms)).max(0);
        }
        Some(left)
    }

    /// Plays `mv` for the side to move at time `now`, after checking that
    /// the game goes on, that it is that side's hole and that it is legal.
    /// The clock is charged and the redo list kept when `mv` is its next.
    ///
    /// # Errors
    ///
    /// 409 when the game is over or the hole is the other side's, 422 when
    /// the move breaks the rules.
    pub fn play(&mut self, mv: Move, now: i64) -> Result<u8, ApiError> {
        if let Some(end) = self.end() {
            return Err(ApiError::conflict(
                "game_over",
                format!("the game is over ({})", end.reason),
            ));
        }
        let mover = self.game.position().to_move();
        if mv.side() != mover {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("{mv} is a hole of {} but {mover} is to move", mv.side()),
            ));
        }
        let captured = self
            .game
            .play(mv)
            .map_err(|e| ApiError::unprocessable("illegal_move", e.to_string()))?;
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        if let Some(clock) = &mut self.clock {
            let used = now - clock.turn_started_ms;
            clock.remaining_ms[mover.index()] += clock.increment_ms - used;
            clock.turn_started_ms = now;
        }
        Ok(captured)
    }

    /// Takes back moves: against the computer, back to the person's
    /// previous turn; between two people, one move.
    ///
    /// # Errors
    ///
    /// 409 when there is nothing to take back, or the game is played with a
    /// clock, or it ended by resignation or time.
    pub fn undo(&mut self) -> Result<(), ApiError> {
        self.check_takeback()?;
        let human = match self.mode {
            Mode::Computer { human, .. } => Some(human),
            Mode::Humans => None,
        };
        if self.game.plies().is_empty() {
            return Err(ApiError::conflict(
                "nothing_to_undo",
                "no move to take back",
            ));
        }
        // Against the computer, take back the computer's answer and the
        // person's move, back to a position where the person moves.
        let before = self.game.plies().len();
        while let Some(mv) = self.game.undo() {
            self.redo.push(mv);
            if human.is_none_or(|h| self.game.position().to_move() == h) {
                break;
            }
        }
        if let Some(h) = human {
            if self.game.position().to_move() != h {
                // The computer moved first and nothing of the person's is
                // left to take back: put the moves back.
                while self.game.plies().len() < before {
                    let Some(mv) = self.redo.pop() else { break };
                    if self.game.play(mv).is_err() {
                        break;
                    }
                }
                return Err(ApiError::conflict(
                    "nothing_to_undo",
                    "no move of yours to take back",
                ));
            }
        }
        Ok(())
    }

    /// Plays again the moves taken back by the last [`WebGame::undo`]: up to
    /// the person's next turn against the computer, one move otherwise.
    ///
    /// # Errors
    ///
    /// 409 when there is nothing to redo or the game has a clock.
    pub fn redo(&mut self) -> Result<(), ApiError> {
        self.check_takeback()?;
        let human = match self.mode {
            Mode::Computer { human, .. } => Some(human),
            Mode::Humans => None,
        };
        if self.redo.is_empty() {
            return Err(ApiError::conflict(
                "nothing_to_redo",
                "no move to play again",
            ));
        }
        while let Some(&mv) = self.redo.last() {
            self.game
                .play(mv)
                .map_err(|e| ApiError::internal(format!("redo of {mv}: {e}")))?;
            self.redo.pop();
            let at_person = human.is_none_or(|h| self.game.position().to_move() == h);
            if at_person || self.game.end().is_some() {
                break;
            }
        }
        Ok(())
    }

    fn check_takeback(&self) -> Result<(), ApiError> {
        if self.clock.is_some() {
            return Err(ApiError::conflict(
                "clock_game",
                "moves cannot be taken back in a game with a clock",
            ));
        }
        if self.flagged.is_some() || self.game.resigned().is_some() {
            return Err(ApiError::conflict(
                "game_over",
                "the game ended by resignation or time",
            ));
        }
        Ok(())
    }

    /// `side` resigns (against the computer, only the person can).
    ///
    /// # Errors
    ///
    /// 409 when the game is already over.
    pub fn resign(&mut self, side: Side) -> Result<(), ApiError> {
        if let Some(end) = self.end() {
            return Err(ApiError::conflict(
                "game_over",
                format!("the game is over ({})", end.reason),
            ));
        }
        self.game
            .resign(side)
            .map_err(|e| ApiError::conflict("game_over", e.to_string()))
    }

    /// The game as the page draws it.
    pub fn view(&self, now: i64) -> Value {
        let position = self.game.position();
        let end = self.end();
        let legal: Vec<String> = if end.is_none() {
            self.game
                .legal_moves()
                .iter()
                .map(|m| m.letter().to_string())
                .collect()
        } else {
            Vec::new()
        };
        let rules = self.game.rules();
        let plies: Vec<Value> = self
            .game
            .plies()
            .iter()
            .map(|p| {
                json!({
                    "move": p.mv.letter().to_string(),
                    "captured": p.captured,
                    "side": side_letter(p.before.to_move()),
                    "before": p.before.holes(),
                    "stores_before": p.before.stores(),
                })
            })
            .collect();
        let (mode, human, level) = match self.mode {
            Mode::Computer { human, level } => ("computer", Some(side_letter(human)), Some(level)),
            Mode::Humans => ("humans", None, None),
        };
        json!({
            "id": self.id,
            "created_ms": self.created_ms,
            "mode": mode,
            "human": human,
            "level": level,
            "rules": rules_view(rules),
            "start": self.game.start().to_string(),
            "position": position.to_string(),
            "board": position.holes(),
            "stores": position.stores(),
            "to_move": side_letter(position.to_move()),
            "legal": legal,
            "plies": plies,
            "notation": notation(&self.game),
            "can_undo": self.check_takeback().is_ok() && !self.game.plies().is_empty(),
            "can_redo": self.check_takeback().is_ok() && !self.redo.is_empty(),
            "computer_to_move": self.computer_to_move(),
            "end": end.map(|e| json!({
                "reason": e.reason,
                "stores": e.stores,
                "winner": e.winner.map(side_letter),
            })),
            "clock": self.clock.map(|c| json!({
                "initial_ms": c.initial_ms,
                "increment_ms": c.increment_ms,
                "left_ms": self.time_left(now),
                "running": if end.is_none() { Some(side_letter(position.to_move())) } else { None },
            })),
        })
    }
}

/// The rule options as JSON, with the preset-based name.
pub fn rules_view(rules: &awale_core::Rules) -> Value {
    use awale_core::{Direction, FirstPlayer, GrandSlam, Repetition};
    json!({
        "name": rules.to_string(),
        "grand_slam": match rules.grand_slam { GrandSlam::Forbidden => "forbidden", GrandSlam::NoCapture => "no_capture" },
        "repetition": match rules.repetition { Repetition::Nobody => "nobody", Repetition::OwnRow => "own_row" },
        "target": rules.target,
        "direction": match rules.direction { Direction::CounterClockwise => "counter_clockwise", Direction::Clockwise => "clockwise" },
        "first": match rules.first { FirstPlayer::Side(Side::South) => "south", FirstPlayer::Side(Side::North) => "north", FirstPlayer::Random => "random" },
        "columns": {
            "S": rules.direction.columns(Side::South),
            "N": rules.direction.columns(Side::North),
        },
    })
}

/// The moves in record notation, `1. F f 2. A a+2`, numbered from South's
/// moves (a game North starts begins `1. ... f`).
pub fn notation(game: &Game) -> String {
    let mut out = String::new();
    let mut number = 1;
    for (i, p) in game.plies().iter().enumerate() {
        let side = p.before.to_move();
        if side == Side::South || i == 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("{number}."));
            if side == Side::North {
                out.push_str(" ...");
            }
        }
        out.push(' ');
        out.push(p.mv.letter());
        if p.captured > 0 {
            out.push_str(&format!("+{}", p.captured));
        }
        if side == Side::North {
            number += 1;
        }
    }
    out
}

/// Reads a move letter from the API.
///
/// # Errors
///
/// 400 naming the text when it is not one letter `A`-`F` or `a`-`f`.
pub fn parse_move(text: &str) -> Result<Move, ApiError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Move::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| {
        ApiError::bad_request(
            "bad_move",
            format!("`{text}` is not a move (holes are A-F for South, a-f for North)"),
        )
    })
}

/// A position's diagram, checked.
///
/// # Errors
///
/// 422 naming what is wrong in the diagram.
pub fn parse_position(text: &str) -> Result<Position, ApiError> {
    text.parse::<Position>()
        .map_err(|e| ApiError::unprocessable("bad_position", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::Rules;

    fn clocked(now: i64) -> WebGame {
        WebGame {
            id: 1,
            created_ms: now,
            mode: Mode::Humans,
            seed: 0,
            clock: Some(Clock {
                initial_ms: 60_000,
                increment_ms: 2_000,
                remaining_ms: [60_000; 2],
                turn_started_ms: now,
            }),
            flagged: None,
            redo: Vec::new(),
            game: Game::new(Rules::AWALE),
        }
    }

    fn letter(c: char) -> Move {
        Move::from_letter(c).unwrap()
    }

    #[test]
    fn a_move_charges_the_movers_clock_and_adds_the_increment() {
        let mut g = clocked(1_000);
        g.play(letter('F'), 11_000).unwrap();
        let clock = g.clock.unwrap();
        assert_eq!(clock.remaining_ms, [60_000 - 10_000 + 2_000, 60_000]);
        assert_eq!(clock.turn_started_ms, 11_000);
        assert_eq!(g.time_left(16_000), Some([52_000, 55_000]));
    }

    #[test]
    fn the_flag_falls_for_the_side_to_move_only() {
        let mut g = clocked(0);
        assert!(!g.check_flag(59_999));
        assert!(g.check_flag(60_000));
        assert_eq!(g.flagged, Some(Side::South));
        let end = g.end().unwrap();
        assert_eq!((end.reason, end.winner), ("time", Some(Side::North)));
        assert!(g.play(letter('F'), 60_001).is_err());
        assert!(!g.check_flag(1_000_000), "an ended game does not end twice");
    }

    #[test]
    fn takebacks_are_refused_in_clock_games() {
        let mut g = clocked(0);
        g.play(letter('F'), 10).unwrap();
        assert_eq!(g.undo().unwrap_err().code, "clock_game");
    }

    #[test]
    fn between_two_people_undo_and_redo_go_one_move() {
        let mut g = clocked(0);
        g.clock = None;
        for c in ['F', 'f', 'A'] {
            g.play(letter(c), 0).unwrap();
        }
        g.undo().unwrap();
        assert_eq!(g.game.plies().len(), 2);
        g.redo().unwrap();
        assert_eq!(notation(&g.game), "1. F f 2. A");
        assert!(g.redo.is_empty());
    }

    #[test]
    fn a_different_move_after_undo_clears_the_redo_list() {
        let mut g = clocked(0);
        g.clock = None;
        g.play(letter('F'), 0).unwrap();
        g.undo().unwrap();
        g.play(letter('E'), 0).unwrap();
        assert!(g.redo.is_empty());
        assert_eq!(g.redo().unwrap_err().code, "nothing_to_redo");
    }

    #[test]
    fn notation_numbers_from_souths_moves() {
        let mut north_first = Game::from_position(Rules::AWALE, Position::start(Side::North));
        for c in ['f', 'F', 'a'] {
            north_first.play(letter(c)).unwrap();
        }
        assert_eq!(notation(&north_first), "1. ... f 2. F a");
    }
}
