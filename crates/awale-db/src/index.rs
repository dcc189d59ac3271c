//! The index of a level: a one-to-one numbering of the ways to place `n`
//! seeds in the 12 holes (C(n+11, 11) of them), in lexicographic order of the
//! holes read from the side to move's row (hole 0 first).
//!
//! Ranking is eleven table lookups; walking a level in order is
//! [`next_board`], which touches only the last few holes on average.

/// Holes on the board.
const HOLES: usize = 12;
/// Most seeds in a level the tables cover.
pub const MAX_SEEDS: usize = 48;

/// `WAYS[k][m]` = C(m + k, k): the ways to place `m` seeds in `k + 1` holes.
const WAYS: [[u64; MAX_SEEDS + 2]; HOLES] = {
    let mut t = [[0u64; MAX_SEEDS + 2]; HOLES];
    let mut k = 0;
    while k < HOLES {
        let mut m = 0;
        while m < MAX_SEEDS + 2 {
            t[k][m] = if k == 0 || m == 0 {
                1
            } else {
                t[k - 1][m] + t[k][m - 1]
            };
            m += 1;
        }
        k += 1;
    }
    t
};

/// How many boards hold exactly `seeds` seeds: C(seeds + 11, 11).
///
/// ```
/// assert_eq!(awale_db::level_size(4), 1_365);
/// assert_eq!(awale_db::level_size(25), 1_852_482_996 - 1_251_677_700);
/// ```
pub fn level_size(seeds: u8) -> u64 {
    WAYS[HOLES - 1][usize::from(seeds)]
}

/// `DROP[i][r]`: what a board whose holes after `i` hold `r` seeds takes
/// off the rank (see [`rank`]).
/// 64 wide so that an index masked with 63 needs no bounds check.
const DROP: [[u64; 64]; HOLES - 1] = {
    let mut t = [[0u64; 64]; HOLES - 1];
    let mut i = 0;
    while i < HOLES - 1 {
        let mut r = 0;
        while r < MAX_SEEDS + 2 {
            t[i][r] = if i == HOLES - 2 {
                r as u64 + 1
            } else if r == 0 {
                0
            } else {
                WAYS[HOLES - 1 - i][r - 1]
            };
            r += 1;
        }
        i += 1;
    }
    t
};

/// The rank of `board` (holes from the side to move's view) among the boards
/// with the same number of seeds, `seeds` being that number.
///
/// Boards with fewer seeds in hole 0 come first, then by hole 1, and so on.
#[inline(always)]
pub fn rank(board: &[u8; 12], seeds: u8) -> u64 {
    // The sum below telescopes (see `rank_by_holes`) into one lookup per
    // hole, indexed by the seeds after it: C(seeds+11, 11) minus the boards
    // that come after. The prefix sums come from one multiplication: no
    // byte can carry, a level holding at most 48 seeds.
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(board);
    let prefix = u128::from_le_bytes(bytes).wrapping_mul(0x0101_0101_0101_0101_0101_0101);
    let prefix = prefix.to_le_bytes();
    let mut index = WAYS[HOLES - 1][usize::from(seeds)];
    for (i, row) in DROP.iter().enumerate() {
        // `seeds - prefix[i]` is at most 48: the mask only spares the check.
        index -= row[usize::from(seeds.wrapping_sub(prefix[i])) & 63];
    }
    index
}

/// [`rank`] as first written: the boards before, hole by hole. Kept to
/// check the fast one against.
pub fn rank_by_holes(board: &[u8; 12], seeds: u8) -> u64 {
    // Boards that agree with `board` before hole i and have fewer seeds in
    // hole i: with r seeds left for holes i..11 and v in hole i, there are
    // C(r - v + 10 - i, 10 - i) of them; summed over v < board[i] this
    // telescopes to WAYS[11-i][r] - WAYS[11-i][r - board[i]].
    let mut left = usize::from(seeds);
    let mut index = 0;
    for (i, &h) in board.iter().enumerate().take(HOLES - 1) {
        let k = HOLES - 1 - i;
        let after = left - usize::from(h);
        index += WAYS[k][left] - WAYS[k][after];
        left = after;
    }
    index
}

/// The board of rank `index` among those with `seeds` seeds: the inverse of
/// [`rank`]. `index` must be below [`level_size`]`(seeds)`.
pub fn unrank(mut index: u64, seeds: u8) -> [u8; 12] {
    let mut board = [0u8; 12];
    let mut left = usize::from(seeds);
    for (i, hole) in board.iter_mut().enumerate().take(HOLES - 1) {
        let k = HOLES - 1 - i;
        // Boards with v seeds in hole i: C(left - v + k - 1, k - 1).
        let mut v = 0;
        while v < left {
            let with_v = WAYS[k - 1][left - v];
            if index < with_v {
                break;
            }
            index -= with_v;
            v += 1;
        }
        *hole = v as u8;
        left -= v;
    }
    board[HOLES - 1] = left as u8;
    board
}

/// Steps `board` to the next board of its level in rank order. Returns false
/// (leaving the board unspecified) after the last one.
#[inline]
pub fn next_board(board: &mut [u8; 12]) -> bool {
    // Move one seed from the holes after j into hole j, for the last j that
    // has any after it, and put the rest of those seeds in the last hole.
    let mut after = u32::from(board[HOLES - 1]);
    let mut j = HOLES - 1;
    while j > 0 {
        j -= 1;
        if after > 0 {
            board[j] += 1;
            for h in &mut board[j + 1..HOLES - 1] {
                *h = 0;
            }
            board[HOLES - 1] = (after - 1) as u8;
            return true;
        }
        after += u32::from(board[j]);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sizes_are_binomials() {
        assert_eq!(level_size(0), 1);
        assert_eq!(level_size(1), 12);
        assert_eq!(level_size(2), 78);
        // C(n+12, 12) boards with at most n seeds (docs/RULES.md).
        let total: u64 = (0..=25).map(level_size).sum();
        assert_eq!(total, 1_852_482_996);
    }

    #[test]
    fn walking_a_level_visits_every_rank_once_in_order() {
        for seeds in 0..=7u8 {
            let mut board = [0u8; 12];
            board[11] = seeds;
            let mut count = 0u64;
            loop {
                assert_eq!(
                    board.iter().map(|&h| u32::from(h)).sum::<u32>(),
                    u32::from(seeds)
                );
                assert_eq!(rank(&board, seeds), count);
                assert_eq!(rank_by_holes(&board, seeds), count);
                assert_eq!(unrank(count, seeds), board);
                count += 1;
                if !next_board(&mut board) {
                    break;
                }
            }
            assert_eq!(count, level_size(seeds));
        }
    }

    #[test]
    fn rank_and_unrank_agree_on_big_levels() {
        for seeds in [24u8, 36, 48] {
            let size = level_size(seeds);
            for index in [0, 1, size / 3, size / 2 + 7, size - 2, size - 1] {
                let board = unrank(index, seeds);
                assert_eq!(rank(&board, seeds), index);
                assert_eq!(rank_by_holes(&board, seeds), index);
                let mut next = board;
                if next_board(&mut next) {
                    assert_eq!(rank(&next, seeds), index + 1);
                } else {
                    assert_eq!(index, size - 1);
                }
            }
        }
    }
}
