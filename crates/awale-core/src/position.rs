//! Positions and moves: sowing, capture, the grand slam and feeding rules.
//!
//! The board is kept from the point of view of the side to move, one byte a
//! hole in a `u128`: bytes 0-5 are the mover's row, 6-11 the opponent's. A
//! move is then a table lookup and one addition (no byte can carry: there are
//! only 48 seeds), and switching sides is a rotation by six bytes.

use std::fmt;

use crate::{last_hole, seeds_into, GrandSlam, Repetition, Rules, Side};

/// Seeds in a full game.
pub const TOTAL_SEEDS: u8 = 48;
/// Holes on the board.
pub const HOLES: usize = 12;

const BOARD_MASK: u128 = (1 << 96) - 1;

/// A move: the hole whose seeds are sown, `A`-`F` for South, `a`-`f` for
/// North.
///
/// ```
/// use awale_core::{Move, Side};
/// let m = Move::from_letter('f').unwrap();
/// assert_eq!(m.side(), Side::North);
/// assert_eq!(m.hole(), 11);
/// assert_eq!(m.to_string(), "f");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move of `side` from the hole `index` of its row, counted from the
    /// owner's left (0 = `A` or `a`).
    ///
    /// # Panics
    ///
    /// If `index` is 6 or more.
    #[inline]
    pub fn new(side: Side, index: usize) -> Move {
        assert!(index < 6, "a row has six holes");
        Move((6 * side.index() + index) as u8)
    }

    /// The move of the hole `hole` of the board (0..12).
    pub fn from_hole(hole: usize) -> Option<Move> {
        (hole < HOLES).then_some(Move(hole as u8))
    }

    /// The move named by a letter, `A`-`F` or `a`-`f`.
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'A'..='F' => Some(Move(letter as u8 - b'A')),
            'a'..='f' => Some(Move(letter as u8 - b'a' + 6)),
            _ => None,
        }
    }

    /// The hole sown, as a board index (`A..F` = 0..5, `a..f` = 6..11).
    #[inline]
    pub fn hole(self) -> usize {
        self.0 as usize
    }

    /// The hole sown, counted in the mover's row from the mover's left.
    #[inline]
    pub fn index_in_row(self) -> usize {
        self.0 as usize % 6
    }

    /// The side that plays this move.
    #[inline]
    pub fn side(self) -> Side {
        if self.0 < 6 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The move's letter.
    pub fn letter(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The set of legal moves of a position: at most six, kept as a bit set.
///
/// It is `Copy` and iterates without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    bits: u8,
    side: Side,
}

impl Moves {
    /// How many moves there are.
    #[inline]
    pub fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether there is no move at all: the game is over.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// Whether `m` is one of the moves.
    #[inline]
    pub fn contains(self, m: Move) -> bool {
        m.side() == self.side && self.bits & (1 << m.index_in_row()) != 0
    }

    /// The moves as a bit set over the mover's row (bit 0 = `A` or `a`).
    #[inline]
    pub fn bits(self) -> u8 {
        self.bits
    }
}

impl Iterator for Moves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.bits == 0 {
            return None;
        }
        let index = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Move::new(self.side, index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no legal move: its row is empty, or the
    /// opponent's row is and no move feeds it. Each player takes the seeds
    /// left in their own row (all of them are on the survivor's side).
    Starvation,
    /// A position (the holes and the side to move) came back.
    Repetition,
    /// A store reached the target, or both stores hold 24.
    Target,
    /// A player resigned: the opponent takes the seeds left.
    Resignation,
    /// No seed is left on the board.
    EmptyBoard,
}

impl EndReason {
    /// The reason's name in records and JSON: `starvation`, `repetition`,
    /// `target`, `resignation`, `empty_board`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Starvation => "starvation",
            EndReason::Repetition => "repetition",
            EndReason::Target => "target",
            EndReason::Resignation => "resignation",
            EndReason::EmptyBoard => "empty_board",
        }
    }

    /// The reason named by [`EndReason::name`].
    pub fn from_name(name: &str) -> Option<EndReason> {
        [
            EndReason::Starvation,
            EndReason::Repetition,
            EndReason::Target,
            EndReason::Resignation,
            EndReason::EmptyBoard,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The hole belongs to the other player.
    NotYourHole(Move),
    /// The hole is empty.
    EmptyHole(Move),
    /// The opponent's row is empty and this move does not feed it.
    DoesNotFeed(Move),
    /// The move would capture every seed of the opponent, and the rules
    /// forbid it while another move exists.
    GrandSlam(Move),
    /// The game is over: there is no move at all.
    GameOver,
}

impl MoveError {
    /// The rule the move breaks, as named in JSON: `not_your_hole`,
    /// `empty_hole`, `does_not_feed`, `grand_slam`, `game_over`.
    pub fn name(self) -> &'static str {
        match self {
            MoveError::NotYourHole(_) => "not_your_hole",
            MoveError::EmptyHole(_) => "empty_hole",
            MoveError::DoesNotFeed(_) => "does_not_feed",
            MoveError::GrandSlam(_) => "grand_slam",
            MoveError::GameOver => "game_over",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotYourHole(m) => {
                write!(f, "illegal move {m}: that hole belongs to {}", m.side())
            }
            MoveError::EmptyHole(m) => write!(f, "illegal move {m}: the hole is empty"),
            MoveError::DoesNotFeed(m) => write!(
                f,
                "illegal move {m}: the opponent has no seeds and this move does not feed them"
            ),
            MoveError::GrandSlam(m) => write!(
                f,
                "illegal move {m}: it would capture all the opponent's seeds (grand slam)"
            ),
            MoveError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A position that cannot exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// More than 48 seeds in holes and stores together.
    TooManySeeds(u32),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::TooManySeeds(n) => {
                write!(f, "{n} seeds in all, but a game has only {TOTAL_SEEDS}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Sowing tables: `SOW[i][n]` is what sowing `n` seeds from the mover's hole
/// `i` adds to each hole, `LAST[i][n]` the hole the last seed lands in.
struct SowTables {
    add: [[u128; 49]; 6],
    last: [[u8; 49]; 6],
}

const SOW: SowTables = {
    let mut add = [[0u128; 49]; 6];
    let mut last = [[0u8; 49]; 6];
    let mut origin = 0;
    while origin < 6 {
        let mut seeds = 1;
        while seeds <= 48 {
            let mut hole = 0;
            while hole < HOLES {
                add[origin][seeds] += (seeds_into(origin, seeds, hole) as u128) << (8 * hole);
                hole += 1;
            }
            last[origin][seeds] = last_hole(origin, seeds) as u8;
            seeds += 1;
        }
        origin += 1;
    }
    SowTables { add, last }
};

#[inline(always)]
fn byte(board: u128, hole: usize) -> u8 {
    (board >> (8 * hole)) as u8
}

/// Gathers bit 0 of each of six bytes into a 6-bit set. Each bit of the
/// product lands in its own place (no carries), bits 40-45 being the set.
#[inline(always)]
fn gather_bytes(lsbs: u64) -> u8 {
    (lsbs.wrapping_mul(0x0102_0408_1020) >> 40) as u8 & 0x3F
}

/// The bit set of the holes of a row (six bytes of at most 48) that are not
/// empty: adding 127 sets bit 7 of a byte exactly when it is not 0.
#[inline(always)]
fn non_empty_holes(row: u64) -> u8 {
    gather_bytes(((row + 0x7F7F_7F7F_7F7F) & 0x8080_8080_8080) >> 7)
}

/// The bit set of the holes of a row whose seeds reach the opponent's row:
/// hole i needs 6 - i seeds or more; adding 58 + i to its byte sets bit 6
/// exactly then (the sum stays below 128).
#[inline(always)]
fn feeding_holes(row: u64) -> u8 {
    gather_bytes(((row + 0x3F3E_3D3C_3B3A) & 0x4040_4040_4040) >> 6)
}

#[inline(always)]
fn swap_rows(board: u128) -> u128 {
    ((board >> 48) | (board << 48)) & BOARD_MASK
}

/// Sows from the mover's hole `origin` and applies the capture, a grand
/// slam capturing nothing. Returns the board (still from the mover's view)
/// and the seeds captured.
#[inline(always)]
fn sow_and_capture(board: u128, origin: usize) -> (u128, u8, bool) {
    let seeds = byte(board, origin) as usize;
    let sown = (board & !(0xFF << (8 * origin))) + SOW.add[origin][seeds];
    let last = SOW.last[origin][seeds] as usize;
    if last < 6 {
        return (sown, 0, false);
    }
    let mut captured = 0u8;
    let mut after = sown;
    let mut hole = last;
    while hole >= 6 {
        let c = byte(after, hole);
        if c != 2 && c != 3 {
            break;
        }
        captured += c;
        after &= !(0xFF << (8 * hole));
        hole -= 1;
    }
    if captured > 0 && after >> 48 == 0 {
        // A grand slam: legal ones capture nothing.
        return (sown, 0, true);
    }
    (after, captured, false)
}

/// A position: the twelve holes, the two stores and the side to move.
///
/// ```
/// use awale_core::{Move, Position, Rules};
/// let start = Position::START;
/// assert_eq!(start.legal_moves(&Rules::AWALE).len(), 6);
/// let next = start.play(Move::from_letter('F').unwrap(), &Rules::AWALE);
/// assert_eq!(next.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Holes seen from the side to move: bytes 0-5 its row, 6-11 the other.
    board: u128,
    stores: [u8; 2],
    to_move: Side,
}

impl Position {
    /// The start position, South to move.
    pub const START: Position = Position {
        board: 0x0404_0404_0404_0404_0404_0404,
        stores: [0, 0],
        to_move: Side::South,
    };

    /// The start position with `side` to move.
    pub fn start(side: Side) -> Position {
        Position {
            to_move: side,
            ..Position::START
        }
    }

    /// A position from its holes (`A..F` then `a..f`), stores (South,
    /// North) and side to move.
    ///
    /// # Errors
    ///
    /// [`PositionError::TooManySeeds`] when holes and stores hold more than
    /// 48 seeds together. Fewer is allowed, for studies and endgames.
    pub fn new(holes: [u8; 12], stores: [u8; 2], to_move: Side) -> Result<Position, PositionError> {
        let total: u32 = holes.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        if total > u32::from(TOTAL_SEEDS) {
            return Err(PositionError::TooManySeeds(total));
        }
        let mut board = 0u128;
        for (i, &h) in holes.iter().enumerate() {
            board |= u128::from(h) << (8 * i);
        }
        if to_move == Side::North {
            board = swap_rows(board);
        }
        Ok(Position {
            board,
            stores,
            to_move,
        })
    }

    /// The seeds in each hole, `A..F` then `a..f`.
    pub fn holes(&self) -> [u8; 12] {
        let board = match self.to_move {
            Side::South => self.board,
            Side::North => swap_rows(self.board),
        };
        let bytes = board.to_le_bytes();
        let mut holes = [0; 12];
        holes.copy_from_slice(&bytes[..12]);
        holes
    }

    /// The seeds in one hole (`A..F` = 0..5, `a..f` = 6..11).
    ///
    /// # Panics
    ///
    /// If `hole` is 12 or more.
    #[inline]
    pub fn hole(&self, hole: usize) -> u8 {
        assert!(hole < HOLES);
        let relative = if self.to_move == Side::South {
            hole
        } else {
            (hole + 6) % HOLES
        };
        byte(self.board, relative)
    }

    /// The holes seen from the side to move: its row, then the opponent's,
    /// each from its owner's left. This is the form endgame databases index.
    pub fn relative_holes(&self) -> [u8; 12] {
        let bytes = self.board.to_le_bytes();
        let mut holes = [0; 12];
        holes.copy_from_slice(&bytes[..12]);
        holes
    }

    /// The stores, South's then North's.
    #[inline]
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// The store of `side`.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The seeds still on the board.
    #[inline]
    pub fn seeds_on_board(&self) -> u8 {
        // Bytes are at most 48 each and 48 together: summing by multiplying
        // with a vector of ones never carries past the top byte.
        let lo = (self.board as u64) & 0xFFFF_FFFF_FFFF;
        let hi = (self.board >> 48) as u64;
        let sum = lo + hi;
        (sum.wrapping_mul(0x0101_0101_0101) >> 40) as u8
    }

    /// The seeds in `side`'s row.
    #[inline]
    pub fn seeds_in_row(&self, side: Side) -> u8 {
        let row = if side == self.to_move {
            self.board as u64
        } else {
            (self.board >> 48) as u64
        };
        row_sum(row)
    }

    /// The legal moves under `rules`. Empty when the game is over by
    /// starvation; the target rule is not looked at here (see
    /// [`Position::end`]).
    #[inline]
    pub fn legal_moves(&self, rules: &Rules) -> Moves {
        Moves {
            bits: self.legal_bits(rules.grand_slam),
            side: self.to_move,
        }
    }

    #[inline]
    fn legal_bits(&self, grand_slam: GrandSlam) -> u8 {
        let board = self.board;
        let row = board as u64 & 0xFFFF_FFFF_FFFF;
        // When the opponent is empty, only moves that reach its row.
        let mut bits = if board >> 48 == 0 {
            feeding_holes(row)
        } else {
            non_empty_holes(row)
        };
        if grand_slam == GrandSlam::Forbidden && bits != 0 && self.grand_slam_possible() {
            let mut slams = 0u8;
            let mut rest = bits;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if sow_and_capture(board, i).2 {
                    slams |= 1 << i;
                }
            }
            if slams != bits {
                bits &= !slams;
            }
        }
        bits
    }

    /// A cheap test: a grand slam needs every seed of the opponent's row in
    /// a hole that ends with 2 or 3, so none may start with 3 or more.
    #[inline(always)]
    fn grand_slam_possible(&self) -> bool {
        let opponent = (self.board >> 48) as u64;
        (opponent + 0x7D7D_7D7D_7D7D) & 0x8080_8080_8080 == 0
    }

    /// Whether `m` is a grand slam here: its capture would take every seed
    /// in the opponent's row.
    pub fn is_grand_slam(&self, m: Move) -> bool {
        m.side() == self.to_move
            && byte(self.board, m.index_in_row()) != 0
            && sow_and_capture(self.board, m.index_in_row()).2
    }

    /// Whether `m` is legal under `rules`.
    #[inline]
    pub fn is_legal(&self, m: Move, rules: &Rules) -> bool {
        self.legal_moves(rules).contains(m)
    }

    /// Why `m` is not legal, or `Ok` if it is.
    ///
    /// # Errors
    ///
    /// The [`MoveError`] that applies first: wrong side, empty hole, no
    /// feeding, grand slam, or no move at all.
    pub fn check(&self, m: Move, rules: &Rules) -> Result<(), MoveError> {
        let legal = self.legal_moves(rules);
        if legal.contains(m) {
            return Ok(());
        }
        if legal.is_empty() {
            return Err(MoveError::GameOver);
        }
        if m.side() != self.to_move {
            return Err(MoveError::NotYourHole(m));
        }
        if byte(self.board, m.index_in_row()) == 0 {
            return Err(MoveError::EmptyHole(m));
        }
        if self.board >> 48 == 0 {
            return Err(MoveError::DoesNotFeed(m));
        }
        Err(MoveError::GrandSlam(m))
    }

    /// The seeds that `m` captures (0 for a grand slam, and 0 for a move
    /// of the side not to move or from an empty hole, which capture nothing
    /// because they cannot be played).
    pub fn captures(&self, m: Move) -> u8 {
        if m.side() != self.to_move || byte(self.board, m.index_in_row()) == 0 {
            return 0;
        }
        sow_and_capture(self.board, m.index_in_row()).1
    }

    /// Plays `m`.
    ///
    /// # Panics
    ///
    /// If `m` is not legal under `rules`.
    pub fn play(&self, m: Move, rules: &Rules) -> Position {
        match self.try_play(m, rules) {
            Ok(p) => p,
            Err(e) => panic!("{e} in {self}"),
        }
    }

    /// Plays `m` if it is legal.
    ///
    /// # Errors
    ///
    /// The [`MoveError`] saying why `m` is not legal.
    pub fn try_play(&self, m: Move, rules: &Rules) -> Result<Position, MoveError> {
        self.check(m, rules)?;
        Ok(self.play_unchecked(m))
    }

    /// Plays `m` without checking that it is legal: for search, where moves
    /// come from [`Position::legal_moves`]. An illegal move gives a
    /// meaningless (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Position {
        let (board, captured, _) = sow_and_capture(self.board, m.index_in_row());
        let mut stores = self.stores;
        stores[self.to_move.index()] += captured;
        Position {
            board: swap_rows(board),
            stores,
            to_move: self.to_move.opponent(),
        }
    }

    /// Why the game is over in this position, if it is, looking at the
    /// position alone (a repetition needs the history: see [`crate::Game`]).
    pub fn end(&self, rules: &Rules) -> Option<EndReason> {
        if rules.target_reached(self.stores) {
            Some(EndReason::Target)
        } else if self.board == 0 {
            Some(EndReason::EmptyBoard)
        } else if self.legal_bits(rules.grand_slam) == 0 {
            Some(EndReason::Starvation)
        } else {
            None
        }
    }

    /// The stores once the game has ended for `reason`, with the seeds left
    /// on the board given out as the rules say. For a resignation, the side
    /// to move is the one that resigns.
    pub fn final_stores(&self, reason: EndReason, rules: &Rules) -> [u8; 2] {
        let [south, north] = self.stores;
        let rows = [
            self.seeds_in_row(Side::South),
            self.seeds_in_row(Side::North),
        ];
        match reason {
            EndReason::Starvation => [south + rows[0], north + rows[1]],
            EndReason::Repetition => match rules.repetition {
                crate::Repetition::Nobody => self.stores,
                crate::Repetition::OwnRow => [south + rows[0], north + rows[1]],
            },
            EndReason::Target | EndReason::EmptyBoard => self.stores,
            EndReason::Resignation => {
                let mut stores = self.stores;
                stores[self.to_move.opponent().index()] += self.seeds_on_board();
                stores
            }
        }
    }

    /// A 64-bit hash of the whole position (holes, stores, side to move),
    /// for transposition tables.
    #[inline]
    pub fn hash(&self) -> u64 {
        let lo = self.board as u64;
        let hi = (self.board >> 64) as u64
            | u64::from(self.stores[0]) << 32
            | u64::from(self.stores[1]) << 40
            | (self.to_move as u64) << 48;
        let mut h = lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        // The finaliser of MurmurHash3: every input bit affects every output bit.
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }

    /// The holes and the side to move, exactly, in one number: two positions
    /// are "the same situation" for the repetition rule when these are equal.
    #[inline]
    pub fn repetition_key(&self) -> u128 {
        self.board | (self.to_move as u128) << 127
    }

    /// What a repetition of the position whose [`Position::repetition_key`]
    /// is `key` pays `side` beyond the stores under `repetition`: nothing
    /// under `nobody`; under `own_row`, the seeds of `side`'s row minus
    /// those of the other row (docs/RULES.md, repetition).
    pub fn repetition_payoff(key: u128, side: Side, repetition: Repetition) -> i32 {
        if repetition == Repetition::Nobody {
            return 0;
        }
        let mover_minus_other =
            i32::from(row_sum(key as u64)) - i32::from(row_sum((key >> 48) as u64));
        let mover = if key >> 127 == 0 {
            Side::South
        } else {
            Side::North
        };
        if side == mover {
            mover_minus_other
        } else {
            -mover_minus_other
        }
    }

    /// The same position with the other side to move: for studies and for
    /// setting up positions, not a move.
    pub fn with_side_to_move(&self, side: Side) -> Position {
        if side == self.to_move {
            *self
        } else {
            Position {
                board: swap_rows(self.board),
                stores: self.stores,
                to_move: side,
            }
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl fmt::Display for Position {
    /// The diagram: `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for h in self.holes() {
            write!(f, "{h}-")?;
        }
        write!(
            f,
            "{}-{}-{}",
            self.stores[0],
            self.stores[1],
            self.to_move.letter()
        )
    }
}

/// Counts the leaves of the move tree `depth` plies deep (perft), with bulk
/// counting at the last ply. A game that ends (no move, or the target
/// reached) before `depth` adds no leaf. Repetitions are not looked at, as in
/// other programs' perft.
///
/// ```
/// use awale_core::{perft, Position, Rules};
/// assert_eq!(perft(&Position::START, 4, &Rules::AWALE), 1_014);
/// ```
pub fn perft(position: &Position, depth: u32, rules: &Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    if rules.target.is_some() {
        return perft_inner::<true>(position, depth, rules);
    }
    perft_inner::<false>(position, depth, rules)
}

fn perft_inner<const TARGET: bool>(position: &Position, depth: u32, rules: &Rules) -> u64 {
    if TARGET && rules.target_reached(position.stores) {
        return 0;
    }
    let bits = position.legal_bits(rules.grand_slam);
    if depth == 1 {
        return u64::from(bits.count_ones());
    }
    let mut total = 0;
    let mut rest = bits;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let child = position.play_unchecked(Move::new(position.to_move, i));
        total += perft_inner::<TARGET>(&child, depth - 1, rules);
    }
    total
}

/// The seeds of the row in the low six bytes of `row` (a board word's
/// mover's row, or the word shifted by six bytes for the other row).
#[inline(always)]
fn row_sum(row: u64) -> u8 {
    // Six bytes of at most 48 each, summed into the sixth by one product.
    ((row & 0xFFFF_FFFF_FFFF).wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_sets_of_a_row_match_hole_by_hole_tests() {
        // Every count in every hole, the other holes empty or full.
        for other in [0u64, 8] {
            for hole in 0..6 {
                for seeds in 0..=40u64 {
                    let mut row = 0u64;
                    for h in 0..6 {
                        row |= if h == hole { seeds } else { other } << (8 * h);
                    }
                    let mut non_empty = 0u8;
                    let mut feeding = 0u8;
                    for h in 0..6 {
                        let s = (row >> (8 * h)) & 0xFF;
                        if s > 0 {
                            non_empty |= 1 << h;
                        }
                        if s as usize + h >= 6 {
                            feeding |= 1 << h;
                        }
                    }
                    assert_eq!(non_empty_holes(row), non_empty, "{row:x}");
                    assert_eq!(feeding_holes(row), feeding, "{row:x}");
                }
            }
        }
    }

    #[test]
    fn a_repetition_pays_each_side_its_row_under_own_row_and_nothing_under_nobody() {
        let p = Position::new([1, 2, 3, 4, 5, 6, 0, 0, 7, 0, 0, 8], [3, 4], Side::North).unwrap();
        for q in [p, p.with_side_to_move(Side::South)] {
            let key = q.repetition_key();
            for side in [Side::South, Side::North] {
                let own = i32::from(q.seeds_in_row(side));
                let other = i32::from(q.seeds_in_row(side.opponent()));
                assert_eq!(
                    Position::repetition_payoff(key, side, Repetition::OwnRow),
                    own - other
                );
                assert_eq!(
                    Position::repetition_payoff(key, side, Repetition::Nobody),
                    0
                );
            }
        }
    }

    #[test]
    fn seeds_in_row_counts_each_side() {
        let p = Position::new([1, 2, 3, 4, 5, 6, 0, 0, 7, 0, 0, 8], [0, 0], Side::North).unwrap();
        assert_eq!(p.seeds_in_row(Side::South), 21);
        assert_eq!(p.seeds_in_row(Side::North), 15);
    }
}
