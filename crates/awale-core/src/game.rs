//! A game: the rules, the moves played, undo and redo, and how it ended.
//!
//! The position alone knows starvation, the target and an empty board; the
//! game adds what needs the history (repetition) or a player (resignation).

use std::fmt;

use crate::{EndReason, FirstPlayer, Move, MoveError, Position, Rules, Side};

/// How a finished game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Why it ended.
    pub reason: EndReason,
    /// The stores once the seeds left on the board were given out.
    pub stores: [u8; 2],
    /// The side with more seeds, or `None` for a draw.
    pub winner: Option<Side>,
}

impl Outcome {
    /// The result as written in records: `1-0` (South wins), `0-1` (North
    /// wins) or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

/// A result as written in records: `1-0` when South wins, `0-1` when North
/// wins, `1/2-1/2` for a draw (`winner` is `None`).
pub fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::South) => "1-0",
        Some(Side::North) => "0-1",
        None => "1/2-1/2",
    }
}

/// The winner a result text names: `Some(Some(side))` for `1-0` or `0-1`,
/// `Some(None)` for a draw, `None` for `*` or anything else.
///
/// ```
/// use awale_core::{result_text, result_winner, Side};
/// for winner in [Some(Side::South), Some(Side::North), None] {
///     assert_eq!(result_winner(result_text(winner)), Some(winner));
/// }
/// assert_eq!(result_winner("*"), None);
/// ```
pub fn result_winner(text: &str) -> Option<Option<Side>> {
    [Some(Side::South), Some(Side::North), None]
        .into_iter()
        .find(|&w| result_text(w) == text.trim())
}

/// The side with more seeds in `stores` (South's, North's), or `None` when
/// they hold as many.
pub fn leader(stores: [u8; 2]) -> Option<Side> {
    match stores[0].cmp(&stores[1]) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// Why a game refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    Over(EndReason),
    /// The move is not legal in the current position.
    Illegal(MoveError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(reason) => write!(f, "the game is over ({reason})"),
            GameError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// One move of a game, with what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// Seeds it captured.
    pub captured: u8,
    /// The position it was played in.
    pub before: Position,
}

/// A game under a set of rules, from a start position.
///
/// ```
/// use awale_core::{Game, Move, Rules};
/// let mut game = Game::new(Rules::AWALE);
/// for letter in "FfAa".chars() {
///     game.play(Move::from_letter(letter).unwrap()).unwrap();
/// }
/// assert_eq!(game.plies().len(), 4);
/// game.undo();
/// assert_eq!(game.plies().len(), 3);
/// game.redo();
/// assert_eq!(game.position().to_string(), "0-6-6-6-5-1-0-6-6-6-5-1-0-0-S");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Position,
    position: Position,
    plies: Vec<Ply>,
    /// Moves taken back by `undo`, most recent last, for `redo`.
    undone: Vec<Move>,
    repeated: bool,
    resigned: Option<Side>,
}

impl Game {
    /// A new game from the start position. When the rules draw the first
    /// player at random, the draw is made here.
    pub fn new(rules: Rules) -> Game {
        let first = match rules.first {
            FirstPlayer::Side(side) => side,
            FirstPlayer::Random => random_side(),
        };
        Game::from_position(rules, Position::start(first))
    }

    /// A game that starts from `start`.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            start,
            position: start,
            plies: Vec::new(),
            undone: Vec::new(),
            repeated: false,
            resigned: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The moves played, in order.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves in record notation, `1. F f 2. A a+2` (a capture's seeds
    /// after a `+`), numbered from South's moves: a game North starts
    /// begins `1. ... f`.
    ///
    /// ```
    /// use awale_core::{Game, Move, Position, Rules, Side};
    /// let mut g = Game::from_position(Rules::AWALE, Position::start(Side::North));
    /// for c in ['f', 'F', 'a'] {
    ///     g.play(Move::from_letter(c).unwrap()).unwrap();
    /// }
    /// assert_eq!(g.notation(), "1. ... f 2. F a");
    /// ```
    pub fn notation(&self) -> String {
        let mut out = String::new();
        let mut number = 1;
        for (i, p) in self.plies.iter().enumerate() {
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

    /// The moves played, in order, without their captures.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.end().is_some() {
            Vec::new()
        } else {
            self.position.legal_moves(&self.rules).collect()
        }
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<EndReason> {
        if self.resigned.is_some() {
            Some(EndReason::Resignation)
        } else if self.repeated {
            Some(EndReason::Repetition)
        } else {
            self.position.end(&self.rules)
        }
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let reason = self.end()?;
        let stores = match self.resigned {
            Some(side) => self
                .position
                .with_side_to_move(side)
                .final_stores(reason, &self.rules),
            None => self.position.final_stores(reason, &self.rules),
        };
        Some(Outcome {
            reason,
            stores,
            winner: leader(stores),
        })
    }

    /// The side that resigned, if one did.
    pub fn resigned(&self) -> Option<Side> {
        self.resigned
    }

    /// Plays `m` and returns the seeds it captured. Clears what `undo` had
    /// taken back, unless `m` is the move `redo` would play.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] after the end, [`GameError::Illegal`] for a move
    /// the rules do not allow; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<u8, GameError> {
        if let Some(reason) = self.end() {
            return Err(GameError::Over(reason));
        }
        let next = self
            .position
            .try_play(m, &self.rules)
            .map_err(GameError::Illegal)?;
        let captured =
            next.store(self.position.to_move()) - self.position.store(self.position.to_move());
        if self.undone.last() == Some(&m) {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        self.plies.push(Ply {
            mv: m,
            captured,
            before: self.position,
        });
        self.position = next;
        self.repeated = self.occurred_before(&next);
        Ok(captured)
    }

    /// Whether `position` stood earlier in the game. Only positions since
    /// the last capture can match: a capture lowers the seeds on the board.
    fn occurred_before(&self, position: &Position) -> bool {
        let key = position.repetition_key();
        self.since_capture()
            .skip(1)
            .any(|p| p.repetition_key() == key)
    }

    /// The positions since the last capture (or the start), newest first:
    /// the current one, then those before it back to the one the capture
    /// left. Only these can repeat: a capture lowers the seeds on the board.
    ///
    /// ```
    /// use awale_core::{Game, Move, Rules};
    /// let mut game = Game::new(Rules::AWALE);
    /// game.play(Move::from_letter('F').unwrap()).unwrap();
    /// assert_eq!(game.since_capture().count(), 2);
    /// assert_eq!(game.since_capture().next(), Some(game.position()));
    /// ```
    pub fn since_capture(&self) -> impl Iterator<Item = Position> + '_ {
        std::iter::once(self.position).chain(
            self.plies
                .iter()
                .rev()
                .take_while(|p| p.captured == 0)
                .map(|p| p.before),
        )
    }

    /// Takes back the last move (or a resignation), and returns the move.
    pub fn undo(&mut self) -> Option<Move> {
        if self.resigned.take().is_some() {
            return None;
        }
        let ply = self.plies.pop()?;
        self.position = ply.before;
        // Play went on after every earlier position, so none of them ended
        // the game.
        self.repeated = false;
        self.undone.push(ply.mv);
        Some(ply.mv)
    }

    /// Plays again the last move taken back, and returns it.
    pub fn redo(&mut self) -> Option<Move> {
        let m = *self.undone.last()?;
        self.play(m).ok()?;
        Some(m)
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The moves taken back by `undo` that `redo` would play again, the
    /// next one last: what to save with the game.
    pub fn redo_list(&self) -> &[Move] {
        &self.undone
    }

    /// Restores a saved [`Game::redo_list`].
    ///
    /// # Errors
    ///
    /// [`GameError`] when the moves, next one first, cannot all be played
    /// from the current position; the list is then left unchanged.
    pub fn set_redo_list(&mut self, moves: Vec<Move>) -> Result<(), GameError> {
        let mut check = self.clone();
        check.undone.clear();
        for &m in moves.iter().rev() {
            check.play(m)?;
        }
        self.undone = moves;
        Ok(())
    }

    /// `side` resigns: the opponent takes the seeds left. What `undo` had
    /// taken back is cleared, as a move other than the one `redo` would
    /// play clears it: nothing is played after the end.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] if the game had already ended.
    pub fn resign(&mut self, side: Side) -> Result<(), GameError> {
        if let Some(reason) = self.end() {
            return Err(GameError::Over(reason));
        }
        self.resigned = Some(side);
        self.undone.clear();
        Ok(())
    }
}

/// A fair coin.
fn random_side() -> Side {
    if rand::random::<bool>() {
        Side::South
    } else {
        Side::North
    }
}
