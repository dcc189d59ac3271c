//! Why a move is good, as data a front end words for a player: what it
//! captures, what it threatens, the chain it does not give, the krou it
//! builds, what the search or the endgame databases prove. For hints and
//! `awale analyze`; cheap (no search of its own).

use awale_core::{Game, Move, Position, Side};

use crate::oracle::Oracle;
use crate::score::Score;

/// A hole holding this many seeds or more is a krou: its sowing goes round
/// the board.
pub const KROU: u8 = 12;

/// One reason a move is good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The search proves a win in this many plies.
    WinsByForce {
        /// Plies to the end of the game.
        plies: u32,
    },
    /// The endgame databases know the result of the game after the move
    /// (exactly, with perfect play on both sides).
    DatabaseResult {
        /// The final difference of the stores, the mover's minus the
        /// opponent's: above 0 a win, 0 a draw.
        margin: i32,
    },
    /// It captures seeds now.
    Captures {
        /// Seeds captured.
        seeds: u8,
        /// Holes captured (more than one: a chain).
        holes: u8,
    },
    /// It threatens a capture on the next move, bigger than any at hand
    /// before.
    ThreatensCapture {
        /// Seeds the best capture would take.
        seeds: u8,
    },
    /// Another move would let the opponent capture a chain (or many
    /// seeds) at once; this one does not.
    AvoidsGivingChain {
        /// What the opponent could take after the worst other move.
        seeds: u8,
        /// The other move that would give it.
        instead: Move,
    },
    /// It takes the seeds out of a hole the opponent could capture now.
    SavesSeeds {
        /// Seeds the opponent would capture were the move not played.
        seeds: u8,
    },
    /// One of the mover's holes reaches a krou (12 seeds or more).
    BuildsKrou {
        /// The hole.
        hole: Move,
        /// Its seeds after the move.
        seeds: u8,
    },
    /// The opponent's row is empty: the move gives it seeds, as the rules
    /// require.
    FeedsOpponent,
    /// It is the only legal move.
    OnlyMove,
}

impl Reason {
    /// The reason's name in JSON and in front ends' words:
    /// `wins_by_force`, `database_result`, `captures`,
    /// `threatens_capture`, `avoids_giving_chain`, `saves_seeds`,
    /// `builds_krou`, `feeds_opponent`, `only_move`.
    pub fn name(&self) -> &'static str {
        match self {
            Reason::WinsByForce { .. } => "wins_by_force",
            Reason::DatabaseResult { .. } => "database_result",
            Reason::Captures { .. } => "captures",
            Reason::ThreatensCapture { .. } => "threatens_capture",
            Reason::AvoidsGivingChain { .. } => "avoids_giving_chain",
            Reason::SavesSeeds { .. } => "saves_seeds",
            Reason::BuildsKrou { .. } => "builds_krou",
            Reason::FeedsOpponent => "feeds_opponent",
            Reason::OnlyMove => "only_move",
        }
    }

    /// Its numbers as front ends show them, each field `None` where the
    /// reason has none.
    pub fn fields(&self) -> ReasonFields {
        let none = ReasonFields::default();
        match *self {
            Reason::WinsByForce { plies } => ReasonFields {
                moves: Some(plies.div_ceil(2)),
                ..none
            },
            Reason::DatabaseResult { margin } => ReasonFields {
                margin: Some(margin),
                ..none
            },
            Reason::Captures { seeds, holes } => ReasonFields {
                seeds: Some(seeds),
                holes: Some(holes),
                ..none
            },
            Reason::ThreatensCapture { seeds } | Reason::SavesSeeds { seeds } => ReasonFields {
                seeds: Some(seeds),
                ..none
            },
            Reason::AvoidsGivingChain { seeds, instead } => ReasonFields {
                seeds: Some(seeds),
                mv: Some(instead),
                ..none
            },
            Reason::BuildsKrou { hole, seeds } => ReasonFields {
                seeds: Some(seeds),
                mv: Some(hole),
                ..none
            },
            Reason::FeedsOpponent | Reason::OnlyMove => none,
        }
    }
}

/// A reason's numbers as front ends show them ([`Reason::fields`]): the
/// fields of a hint's reason on the wire, the same for the server and the
/// page's engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReasonFields {
    /// Seeds it captures, threatens, saves, or the krou holds.
    pub seeds: Option<u8>,
    /// Holes of a chain capture.
    pub holes: Option<u8>,
    /// The mover's own moves to a forced win.
    pub moves: Option<u32>,
    /// The final margin the databases prove (above 0 a win).
    pub margin: Option<i32>,
    /// The hole (a krou's), or the other move that would give seeds away.
    pub mv: Option<Move>,
}

/// The best capture of `side`'s moves, were it to move in `position`,
/// and its move.
fn best_capture(position: &Position, side: Side) -> (u8, Option<Move>) {
    let as_mover = position.with_side_to_move(side);
    (0..6)
        .map(|i| Move::new(side, i))
        .filter(|&m| as_mover.hole(m.hole()) > 0)
        .map(|m| (as_mover.captures(m), Some(m)))
        .max_by_key(|&(seeds, _)| seeds)
        .unwrap_or((0, None))
}

/// The holes of the opponent's row that `mv` captures (more than one: a
/// chain). Sowing never empties a hole of the other row, so a hole empty
/// after the move that held seeds, or was sown into, was captured.
fn holes_captured(position: &Position, mv: Move) -> u8 {
    let after = position.play_unchecked(mv);
    (0..6)
        .map(|i| Move::new(mv.side().opponent(), i).hole())
        .filter(|&h| after.hole(h) == 0 && position.hole(h) + position.sown_into(mv, h) > 0)
        .count() as u8
}

/// The reasons `mv` is good in `game`, most telling first (empty when
/// nothing simple explains it). `score` is the search's score of the move,
/// from the mover's view, when known; `oracle` the endgame databases.
pub fn explain(
    game: &Game,
    mv: Move,
    score: Option<Score>,
    oracle: Option<&dyn Oracle>,
) -> Vec<Reason> {
    let position = game.position();
    let legal = game.legal_moves();
    let mut reasons = Vec::new();
    if !legal.contains(&mv) {
        return reasons;
    }
    let me = position.to_move();
    let opponent = me.opponent();
    let after = position.play_unchecked(mv);
    if let Some(forced) = score
        .and_then(Score::forced)
        .filter(|f| f.wins && f.plies > 0)
    {
        reasons.push(Reason::WinsByForce {
            plies: forced.plies,
        });
    }
    // The databases' result, where the game keeps their value (a move
    // back to a position since the last capture may end it first).
    if let Some((value, _)) = oracle.and_then(|o| crate::oracle::move_value_in_game(o, game, mv)) {
        if value.is_exact() {
            let stores = i32::from(position.store(me)) - i32::from(position.store(opponent));
            reasons.push(Reason::DatabaseResult {
                margin: stores + i32::from(value.lower),
            });
        }
    }
    let captured = position.captures(mv);
    if captured > 0 {
        reasons.push(Reason::Captures {
            seeds: captured,
            holes: holes_captured(&position, mv).max(1),
        });
    }
    // What the opponent could take now, were it to move, and after the
    // move (its answer).
    let (threat_before, _) = best_capture(&position, opponent);
    let (threat_after, _) = best_capture(&after, opponent);
    // The worst other move: the biggest capture it would give.
    let worst_other = legal
        .iter()
        .filter(|&&m| m != mv)
        .map(|&m| (best_capture(&position.play_unchecked(m), opponent).0, m))
        .max_by_key(|&(seeds, _)| seeds);
    if let Some((given, instead)) = worst_other {
        if given >= 4 && threat_after + 2 <= given {
            reasons.push(Reason::AvoidsGivingChain {
                seeds: given,
                instead,
            });
        }
    }
    if threat_before >= 2 && threat_after < threat_before && captured < threat_before {
        reasons.push(Reason::SavesSeeds {
            seeds: threat_before,
        });
    }
    let (mine_before, _) = best_capture(&position, me);
    let (mine_after, _) = best_capture(&after, me);
    if mine_after >= 2 && mine_after > mine_before {
        reasons.push(Reason::ThreatensCapture { seeds: mine_after });
    }
    // A krou of the mover's that the move made (not the hole it sowed
    // from, now empty).
    for i in 0..6 {
        let hole = Move::new(me, i);
        let (was, now) = (position.hole(hole.hole()), after.hole(hole.hole()));
        if now >= KROU && was < KROU {
            reasons.push(Reason::BuildsKrou { hole, seeds: now });
        }
    }
    if position.seeds_in_row(opponent) == 0 {
        reasons.push(Reason::FeedsOpponent);
    }
    if legal.len() == 1 {
        reasons.push(Reason::OnlyMove);
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::Rules;

    fn game(diagram: &str) -> Game {
        Game::from_position(Rules::AWALE, diagram.parse().unwrap())
    }

    fn m(letter: &str) -> Move {
        letter.parse().unwrap()
    }

    /// The reasons for the move `letter` in the position `diagram`, with
    /// nothing known of the search.
    fn reasons_for(diagram: &str, letter: &str) -> Vec<Reason> {
        explain(&game(diagram), m(letter), None, None)
    }

    #[test]
    fn a_chain_capture_is_named_with_its_holes() {
        // RULES.md: hole F with 2 seeds captures 5 (1 2 4 0 0 0 opposite):
        // a and b, 2 + 3.
        let reasons = reasons_for("0-0-0-0-0-2-1-2-4-0-0-0-18-19-S", "F");
        assert!(
            reasons.contains(&Reason::Captures { seeds: 5, holes: 2 }),
            "{reasons:?}"
        );
        assert_eq!(reasons[0].name(), "captures");
    }

    #[test]
    fn a_threat_is_seen() {
        // E sows one seed into F, which then holds 2: F would reach a (1
        // seed) and b (1 seed), taking 2 + 2.
        let reasons = reasons_for("0-0-0-0-1-1-1-1-5-5-5-5-12-11-S", "E");
        assert!(
            reasons
                .iter()
                .any(|r| matches!(r, Reason::ThreatensCapture { seeds } if *seeds >= 2)),
            "{reasons:?}"
        );
    }

    #[test]
    fn a_krou_being_built_is_named() {
        // F holds 11: E sows one more into it.
        let reasons = reasons_for("2-2-2-2-1-11-2-2-2-2-2-2-8-8-S", "E");
        assert!(
            reasons.contains(&Reason::BuildsKrou {
                hole: m("F"),
                seeds: 12
            }),
            "{reasons:?}"
        );
    }

    #[test]
    fn the_only_move_and_feeding_are_said() {
        // North's row is empty; only F reaches it.
        let reasons = reasons_for("0-0-0-0-0-3-0-0-0-0-0-0-22-23-S", "F");
        assert!(reasons.contains(&Reason::OnlyMove), "{reasons:?}");
        assert!(reasons.contains(&Reason::FeedsOpponent), "{reasons:?}");
    }

    #[test]
    fn a_forced_win_comes_first() {
        let g = game("0-0-0-0-0-2-1-2-4-0-0-0-18-19-S");
        let reasons = explain(&g, m("F"), Some(Score::win_in(3)), None);
        assert_eq!(reasons[0], Reason::WinsByForce { plies: 3 });
    }

    /// An oracle that gives every position the same exact value.
    struct Constant(i8);

    impl Oracle for Constant {
        fn probe(&self, _: &Position) -> Option<crate::oracle::Bounds> {
            Some(crate::oracle::Bounds::exact(self.0))
        }
        fn max_seeds(&self) -> u8 {
            48
        }
        fn rules(&self) -> Rules {
            Rules::AWALE
        }
    }

    #[test]
    fn the_databases_result_is_said_only_where_the_game_keeps_it() {
        // Each side to move takes 3 more than the other, says the oracle.
        let oracle = Constant(3);
        let said = |g: &Game, letter: &str| {
            explain(g, m(letter), None, Some(&oracle))
                .into_iter()
                .find(|r| r.name() == "database_result")
        };
        // F captures 5 (a and b): nothing before can come back, and North,
        // to move then, takes 3 more: South wins 23-19 + 3 more for North,
        // by 1.
        let g = game("0-0-0-0-0-2-1-2-4-0-0-0-18-19-S");
        assert_eq!(said(&g, "F"), Some(Reason::DatabaseResult { margin: 1 }));
        // A move without a capture: the position before it may come back
        // and end the game first (with the seeds left to nobody), so the
        // oracle's value is not the result.
        let g = game("1-0-2-0-1-0-0-1-0-2-0-1-18-20-S");
        assert_eq!(g.position().captures(m("E")), 0);
        assert_eq!(said(&g, "E"), None);
    }

    #[test]
    fn an_illegal_move_has_no_reason() {
        let g = Game::new(Rules::AWALE);
        assert!(explain(&g, m("a"), None, None).is_empty());
    }
}
