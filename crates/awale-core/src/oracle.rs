//! Endgame knowledge from outside the search: the trait that endgame
//! databases (crate `awale-db`) implement, probed by the search (crate
//! `awale-engine`) at nodes with few enough seeds on the board. Here, below
//! both, so that the databases need not the engine.

use crate::{Game, Move, Position, Rules};

/// What is known of a position's value: the seeds the side to move will
/// still capture minus those the opponent will, under perfect play, from a
/// fresh start (no history). `lower == upper` means exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i8,
    /// The value is at most this.
    pub upper: i8,
}

impl Bounds {
    /// Bounds that say the value is exactly `value`.
    pub fn exact(value: i8) -> Bounds {
        Bounds {
            lower: value,
            upper: value,
        }
    }

    /// Whether the value is known exactly.
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// The bounds inside a game, where positions were played since the
    /// last capture: a move back to one of them ends the game and pays what
    /// the repetition rule gives the side to move (`payoffs`, one for each
    /// of them, as [`Position::repetition_payoff`] counts). The value then
    /// lies between the fresh bounds widened by those payoffs: let the side
    /// play the fixed strategy behind its bound; the game either leaves the
    /// level as the bound says, or closes a cycle of that strategy (worth
    /// the bound), or repeats one of those positions first (worth its
    /// payoff). The same for the opponent and the upper bound
    /// (docs/DATABASES.md, "What a program may rely on").
    pub fn in_game(self, payoffs: impl IntoIterator<Item = i32>) -> Bounds {
        let (mut lower, mut upper) = (i32::from(self.lower), i32::from(self.upper));
        for pay in payoffs {
            lower = lower.min(pay);
            upper = upper.max(pay);
        }
        // Payoffs are seed counts of one level: at most 48 either way.
        Bounds {
            lower: lower as i8,
            upper: upper as i8,
        }
    }
}

/// Endgame knowledge: exact values or bounds for positions with few seeds.
pub trait Oracle: Send + Sync {
    /// Bounds for `position` under the rules this oracle was built for, or
    /// None when it does not cover the position (too many seeds, other rules).
    fn probe(&self, position: &Position) -> Option<Bounds>;
    /// Most seeds on the board that it covers.
    fn max_seeds(&self) -> u8;
    /// The rules it was built for (only grand_slam/repetition/target matter).
    fn rules(&self) -> Rules;
    /// At the root, for perfect play: a move that keeps the best value the
    /// oracle knows *and makes progress* towards it (values alone do not:
    /// docs/RULES.md, "Facts for endgame databases"), given the game's history
    /// for repetitions; `None` when it has no such advice (not covered,
    /// only bounds, game over). `choose_move` plays it at `Level::Perfect`.
    fn root_move(&self, game: &Game) -> Option<Move> {
        let _ = game;
        None
    }
}

/// What `oracle` knows of the position of `game` inside the game, and from
/// a fresh start: its bounds widened by what repeating each position since
/// the last capture pays the side to move (a move back to one of them ends
/// the game: [`Bounds::in_game`]), then its own. None when it does not
/// cover the position, its rules are not the game's, or the game is over.
pub fn value_in_game(oracle: &dyn Oracle, game: &Game) -> Option<(Bounds, Bounds)> {
    let position = game.position();
    if game.end().is_some()
        || !oracle.rules().same_values(game.rules())
        || position.seeds_on_board() > oracle.max_seeds()
    {
        return None;
    }
    let fresh = oracle.probe(&position)?;
    let me = position.to_move();
    let repetition = game.rules().repetition;
    let wide = fresh.in_game(
        game.since_capture()
            .skip(1)
            .map(|p| Position::repetition_payoff(p.repetition_key(), me, repetition)),
    );
    Some((wide, fresh))
}

/// What `oracle` knows of the move `mv` of `game`, from the mover's view
/// (its capture, and what the position after it is worth), inside the game
/// and from a fresh start. The position before the move is then among
/// those that may come back; but where that position's own value is exact
/// in the game, the move the oracle plays there ([`Oracle::root_move`]: it
/// keeps the value, makes progress, repeats nothing) is worth exactly it.
pub fn move_value_in_game(oracle: &dyn Oracle, game: &Game, mv: Move) -> Option<(Bounds, Bounds)> {
    let mut after = game.clone();
    after.play(mv).ok()?;
    let (wide, fresh) = value_in_game(oracle, &after)?;
    let c = game.position().captures(mv) as i8;
    let mine = |b: Bounds| Bounds {
        lower: c - b.upper,
        upper: c - b.lower,
    };
    let (wide, fresh) = (mine(wide), mine(fresh));
    if !wide.is_exact() && oracle.root_move(game) == Some(mv) {
        if let Some((root, _)) = value_in_game(oracle, game).filter(|(b, _)| b.is_exact()) {
            return Some((root, fresh));
        }
    }
    Some((wide, fresh))
}
