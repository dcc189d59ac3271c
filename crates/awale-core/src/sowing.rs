//! The geometry of sowing, in one place: where each seed of a hole goes
//! ([`last_hole`], [`seeds_into`]: the tables of [`Position::play`], the
//! engine's levels and the database's un-sowing are built from them), and
//! the path of one move, seed by seed, with the holes its capture empties,
//! for showing a move (the page's sowing animation, lessons). A test checks
//! the geometry against a walk round the board, and the path against play.

use crate::{Move, Position, HOLES};

/// The board hole where the last of `seeds` seeds sown from board hole
/// `origin` lands: the origin is skipped on each lap, so 11 seeds make a
/// lap; `origin` itself when `seeds` is 0.
///
/// ```
/// use awale_core::last_hole;
/// assert_eq!(last_hole(5, 2), 7); // F with 2 seeds ends in b
/// assert_eq!(last_hole(0, 12), 1); // a krou of 12 from A ends in B
/// ```
pub const fn last_hole(origin: usize, seeds: usize) -> usize {
    if seeds == 0 {
        return origin;
    }
    (origin + (seeds - 1) % 11 + 1) % HOLES
}

/// How many of `seeds` seeds sown from board hole `origin` fall into board
/// hole `hole`: 0 for the origin, which a krou skips.
///
/// ```
/// use awale_core::seeds_into;
/// // A krou of 12 from A: one lap of 11, then B again.
/// assert_eq!((seeds_into(0, 12, 0), seeds_into(0, 12, 1), seeds_into(0, 12, 2)), (0, 2, 1));
/// ```
pub const fn seeds_into(origin: usize, seeds: usize, hole: usize) -> u8 {
    // Holes after the origin, the origin skipped: 11 a lap.
    let distance = (hole + HOLES - origin) % HOLES;
    if distance == 0 {
        return 0;
    }
    (seeds / 11 + (distance <= seeds % 11) as usize) as u8
}

/// What a move does to the board, hole by hole. Holes are board indices
/// (`A..F` = 0..5, `a..f` = 6..11).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sowing {
    /// Where each seed falls, in order: one entry per seed, so a krou (12
    /// seeds or more) names holes twice; the origin hole is never named.
    pub sown: Vec<u8>,
    /// The holes the capture empties, from the last seed's hole backwards;
    /// empty when nothing is captured, grand slams under `abapa` included.
    pub captures: Vec<u8>,
}

impl Position {
    /// How many seeds `m` drops into board hole `h` (0 for its own hole,
    /// which a krou skips), without making the path: for evaluations that
    /// ask it of every hole.
    ///
    /// ```
    /// use awale_core::{Move, Position};
    /// // A krou of 12 from A: one lap of 11, then B again.
    /// let p: Position = "12-4-4-4-4-0-4-4-4-4-4-0-0-0-S".parse().unwrap();
    /// let a = Move::from_letter('A').unwrap();
    /// assert_eq!((p.sown_into(a, 0), p.sown_into(a, 1), p.sown_into(a, 2)), (0, 2, 1));
    /// ```
    pub fn sown_into(&self, m: Move, h: usize) -> u8 {
        seeds_into(m.hole(), usize::from(self.hole(m.hole())), h)
    }

    /// The path of `m` from this position: its seeds one by one, then the
    /// holes it captures. A move that cannot be played (an empty hole, the
    /// other side's hole) sows nothing.
    ///
    /// ```
    /// use awale_core::{Move, Position};
    /// // F with 2 seeds: the last falls in b (now 3) after a (now 2): +5.
    /// let p: Position = "0-0-0-1-0-2-1-2-0-0-0-1-20-21-S".parse().unwrap();
    /// let s = p.sowing(Move::from_letter('F').unwrap());
    /// assert_eq!(s.sown, vec![6, 7]);
    /// assert_eq!(s.captures, vec![7, 6]);
    /// ```
    pub fn sowing(&self, m: Move) -> Sowing {
        let origin = m.hole();
        if m.side() != self.to_move() || self.hole(origin) == 0 {
            return Sowing::default();
        }
        let mut holes = self.holes();
        let seeds = usize::from(holes[origin]);
        let sown: Vec<u8> = (1..=seeds).map(|k| last_hole(origin, k) as u8).collect();
        for &h in &sown {
            holes[usize::from(h)] += 1;
        }
        holes[origin] = 0;
        let mut hole = last_hole(origin, seeds);
        if self.captures(m) == 0 {
            return Sowing {
                sown,
                captures: Vec::new(),
            };
        }
        let theirs = self.to_move().opponent().row();
        let mut captures = Vec::new();
        while theirs.contains(&hole) && matches!(holes[hole], 2 | 3) {
            captures.push(hole as u8);
            if hole == theirs.start {
                break;
            }
            hole -= 1;
        }
        Sowing { sown, captures }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// The geometry against a walk round the board, seed by seed, for every
    /// hole and every count of seeds a game can hold.
    #[test]
    fn the_geometry_is_a_walk_that_skips_the_origin() {
        for origin in 0..HOLES {
            let mut into = [0u8; HOLES];
            let mut hole = origin;
            for seeds in 1..=48 {
                hole = (hole + 1) % HOLES;
                if hole == origin {
                    hole = (hole + 1) % HOLES;
                }
                into[hole] += 1;
                assert_eq!(last_hole(origin, seeds), hole, "{origin} {seeds}");
                for (h, &n) in into.iter().enumerate() {
                    assert_eq!(seeds_into(origin, seeds, h), n, "{origin} {seeds} {h}");
                }
            }
            assert_eq!(last_hole(origin, 0), origin);
        }
    }

    #[test]
    fn a_krou_goes_round_and_skips_its_hole() {
        let p: Position = "12-4-4-4-4-0-4-4-4-4-4-0-0-0-S".parse().unwrap();
        let s = p.sowing(Move::from_letter('A').unwrap());
        assert_eq!(s.sown.len(), 12);
        assert!(!s.sown.contains(&0));
        assert_eq!(s.sown[10..], [11, 1]);
    }

    #[test]
    fn an_empty_or_foreign_hole_sows_nothing() {
        let p = Position::START;
        assert_eq!(p.sowing(Move::from_letter('a').unwrap()), Sowing::default());
        let q: Position = "0-4-4-4-4-4-4-4-4-4-4-4-0-4-S".parse().unwrap();
        assert_eq!(q.sowing(Move::from_letter('A').unwrap()), Sowing::default());
    }

    proptest::proptest! {
        /// Along any game, the path leaves the holes the played position
        /// has, and its captures add up to the seeds captured.
        #[test]
        fn the_path_agrees_with_play(choices in proptest::collection::vec(0usize..6, 0..200)) {
            let mut p = Position::START;
            for choice in choices {
                let moves: Vec<Move> = p.legal_moves(&Rules::ABAPA).collect();
                if moves.is_empty() {
                    break;
                }
                let m = moves[choice % moves.len()];
                let s = p.sowing(m);
                for h in 0..HOLES {
                    let times = s.sown.iter().filter(|&&x| usize::from(x) == h).count();
                    proptest::prop_assert_eq!(usize::from(p.sown_into(m, h)), times);
                }
                let mut holes = p.holes();
                holes[m.hole()] = 0;
                for &h in &s.sown {
                    holes[usize::from(h)] += 1;
                }
                let mut captured = 0;
                for &h in &s.captures {
                    captured += holes[usize::from(h)];
                    holes[usize::from(h)] = 0;
                }
                let next = p.play(m, &Rules::ABAPA);
                proptest::prop_assert_eq!(holes, next.holes(), "{} then {}", p, m);
                proptest::prop_assert_eq!(captured, p.captures(m), "{} then {}", p, m);
                p = next;
            }
        }
    }
}
