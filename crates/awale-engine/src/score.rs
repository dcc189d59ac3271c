//! Search scores: a heuristic estimate in hundredths of a seed, or a decided
//! game (won or lost in a known number of plies, or proven by an endgame
//! oracle with its final margin).

use std::fmt;

/// The score of a won game at the root: a win in `n` plies is `WIN - n`.
const WIN: i32 = 30_000;
/// Decided games are reported with their distance up to this many plies.
pub(crate) const MAX_PLY: i32 = 1_000;
/// A game proven won by an oracle (distance unknown) with a final margin of
/// `m` seeds scores `PROVEN + m`: below every win with a known distance.
const PROVEN: i32 = 28_000;
/// Heuristic scores are kept inside this bound.
pub(crate) const MAX_HEURISTIC: i32 = 20_000;

/// A search score from the side to move's view, in seeds × 100 ("cp"), or a
/// decided game: [`Score::win_in`], [`Score::loss_in`], or an oracle's
/// proven result with [`Score::proven`].
///
/// Scores are ordered: any win beats any heuristic score, a shorter win beats
/// a longer one, and a loss comes as late as possible.
///
/// ```
/// use awale_engine::Score;
/// assert!(Score::win_in(3) > Score::win_in(5));
/// assert!(Score::win_in(99) > Score::cp(4_000));
/// assert_eq!(Score::cp(150).to_string(), "+1.50 seeds");
/// assert_eq!(Score::win_in(7).to_string(), "win in 7");
/// assert_eq!(-Score::win_in(7), Score::loss_in(7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// A drawn game, or an even position.
    pub const DRAW: Score = Score(0);

    /// A heuristic score of `cp` hundredths of a seed, clamped to the
    /// heuristic range.
    pub fn cp(cp: i32) -> Score {
        Score(cp.clamp(-MAX_HEURISTIC, MAX_HEURISTIC))
    }

    /// The side to move wins in `plies` plies (0: it has already won).
    pub fn win_in(plies: u32) -> Score {
        Score(WIN - (plies as i32).min(MAX_PLY))
    }

    /// The side to move loses in `plies` plies (0: it has already lost).
    pub fn loss_in(plies: u32) -> Score {
        -Score::win_in(plies)
    }

    /// The game's result as proven by an oracle, whose final store
    /// difference (side to move's seeds minus the opponent's) is `margin`,
    /// in an unknown number of plies. A margin of 0 is a draw.
    pub fn proven(margin: i32) -> Score {
        match margin.signum() {
            1 => Score(PROVEN + margin.min(48)),
            -1 => Score(-PROVEN + margin.max(-48)),
            _ => Score::DRAW,
        }
    }

    /// Whether the score says who wins (a known distance or an oracle's
    /// proof). A decided draw is not told apart from an even position.
    pub fn is_decided(self) -> bool {
        self.0.abs() > PROVEN
    }

    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        self.0 > PROVEN
    }

    /// Whether the side to move loses.
    pub fn is_loss(self) -> bool {
        self.0 < -PROVEN
    }

    /// For a win or loss with a known distance: who wins, and in how many
    /// plies. A win and a loss at ply 0 (the game is over) differ here by
    /// [`Forced::wins`], where a signed count of plies could not tell them
    /// apart.
    pub fn forced(self) -> Option<Forced> {
        if self.0 >= WIN - MAX_PLY {
            Some(Forced {
                wins: true,
                plies: (WIN - self.0) as u32,
            })
        } else if self.0 <= -(WIN - MAX_PLY) {
            Some(Forced {
                wins: false,
                plies: (WIN + self.0) as u32,
            })
        } else {
            None
        }
    }

    /// For an oracle's proof: the final store difference.
    pub fn proven_margin(self) -> Option<i32> {
        if self.0 > PROVEN && self.0 <= PROVEN + 48 {
            Some(self.0 - PROVEN)
        } else if self.0 < -PROVEN && self.0 >= -PROVEN - 48 {
            Some(self.0 + PROVEN)
        } else {
            None
        }
    }

    /// The value in hundredths of a seed as the servers' APIs give it: a
    /// proven margin as its seeds, another decided score as ±50 seeds (the
    /// most a game can be won by is 48), else the search's value.
    pub fn hundredths(self) -> i32 {
        if let Some(m) = self.proven_margin() {
            m * 100
        } else if self.is_win() {
            5_000
        } else if self.is_loss() {
            -5_000
        } else {
            self.0
        }
    }

    /// The raw value in hundredths of a seed. For decided scores it is a
    /// large number (above 28,000 in absolute value) that still orders
    /// correctly; a protocol should report [`Score::forced`] instead.
    pub fn cp_value(self) -> i32 {
        self.0
    }

    /// A decided score found `ply` plies below the root, made relative to
    /// the node it is stored for (transposition table).
    pub(crate) fn to_tt(self, ply: u32) -> i16 {
        let v = if self.0 >= WIN - MAX_PLY {
            self.0 + ply as i32
        } else if self.0 <= -(WIN - MAX_PLY) {
            self.0 - ply as i32
        } else {
            self.0
        };
        v.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
    }

    /// The inverse of [`Score::to_tt`].
    pub(crate) fn from_tt(v: i16, ply: u32) -> Score {
        let v = i32::from(v);
        Score(if v >= WIN - MAX_PLY {
            v - ply as i32
        } else if v <= -(WIN - MAX_PLY) {
            v + ply as i32
        } else {
            v
        })
    }
}

/// A game decided in a known number of plies, from the side to move's view
/// ([`Score::forced`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Forced {
    /// Whether the side to move wins (else it loses).
    pub wins: bool,
    /// Plies to the end, both sides' moves counted; 0 when the game is
    /// already over.
    pub plies: u32,
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(Forced { wins, plies }) = self.forced() {
            let result = if wins { "win" } else { "loss" };
            write!(f, "{result} in {plies}")
        } else if let Some(m) = self.proven_margin() {
            if m > 0 {
                write!(f, "win by {m}")
            } else {
                write!(f, "loss by {}", -m)
            }
        } else {
            let sign = if self.0 < 0 { '-' } else { '+' };
            let a = self.0.abs();
            write!(f, "{sign}{}.{:02} seeds", a / 100, a % 100)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_at_ply_zero_is_a_loss_in_every_view() {
        let (won, lost) = (Score::win_in(0), Score::loss_in(0));
        assert!(won.is_win() && !won.is_loss());
        assert!(lost.is_loss() && !lost.is_win());
        assert_eq!(
            won.forced(),
            Some(Forced {
                wins: true,
                plies: 0
            })
        );
        assert_eq!(
            lost.forced(),
            Some(Forced {
                wins: false,
                plies: 0
            })
        );
        assert_eq!((won.hundredths(), lost.hundredths()), (5_000, -5_000));
        assert_eq!(won.to_string(), "win in 0");
        assert_eq!(lost.to_string(), "loss in 0");
        assert!(won > lost);
    }

    #[test]
    fn a_forced_result_keeps_its_side_and_distance() {
        for plies in [0, 1, 2, 7, MAX_PLY as u32] {
            let wins = Forced { wins: true, plies };
            let loses = Forced { wins: false, plies };
            assert_eq!(Score::win_in(plies).forced(), Some(wins));
            assert_eq!(Score::loss_in(plies).forced(), Some(loses));
            assert_eq!((-Score::win_in(plies)).forced(), Some(loses));
        }
        // Beyond the distances kept, the longest one stands.
        assert_eq!(
            Score::win_in(5_000).forced().map(|f| f.plies),
            Some(MAX_PLY as u32)
        );
        for score in [Score::DRAW, Score::cp(-MAX_HEURISTIC), Score::proven(-3)] {
            assert_eq!(score.forced(), None, "{score:?}");
        }
    }
}
