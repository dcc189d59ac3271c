//! The small cases of docs/RULES.md ("Facts the tests check"), one test each, and
//! the rules each one illustrates.

use awale_core::{EndReason, Game, GrandSlam, Move, Position, Rules, Side};

/// A board written as docs/RULES.md writes it: the mover's holes 0-5, then the
/// opponent's 0-5; South is the mover.
fn board(mover: [u8; 6], opponent: [u8; 6]) -> Position {
    let mut holes = [0; 12];
    holes[..6].copy_from_slice(&mover);
    holes[6..].copy_from_slice(&opponent);
    Position::new(holes, [0, 0], Side::South).unwrap()
}

fn hole(i: usize) -> Move {
    Move::new(Side::South, i)
}

fn legal(p: &Position, rules: &Rules) -> Vec<usize> {
    p.legal_moves(rules).map(|m| m.index_in_row()).collect()
}

#[test]
fn capture_of_two_and_three_with_the_chain_backwards() {
    // 0 0 0 0 0 2 / 1 2 4 0 0 0, play hole 5: captures 5.
    let p = board([0, 0, 0, 0, 0, 2], [1, 2, 4, 0, 0, 0]);
    assert_eq!(p.captures(hole(5)), 5);
    let after = p.play(hole(5), &Rules::AWALE);
    assert_eq!(after.store(Side::South), 5);
    assert_eq!(after.holes(), [0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0]);
}

#[test]
fn capture_chain_stops_at_a_hole_not_two_or_three() {
    // 0 0 0 0 0 6 / 1 1 5 1 2 1, play hole 5: captures 7.
    let p = board([0, 0, 0, 0, 0, 6], [1, 1, 5, 1, 2, 1]);
    assert_eq!(p.captures(hole(5)), 7);
    let after = p.play(hole(5), &Rules::AWALE);
    // Sown into a..f: 2 2 6 2 3 2; the chain from f takes f e d, stops at c.
    assert_eq!(&after.holes()[6..], &[2, 2, 6, 0, 0, 0]);
}

#[test]
fn grand_slam_under_no_capture_is_legal_and_captures_nothing() {
    let p = board([0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0]);
    let rules = Rules {
        grand_slam: GrandSlam::NoCapture,
        ..Rules::AWALE
    };
    assert_eq!(legal(&p, &rules), vec![4, 5]);
    assert!(p.is_grand_slam(hole(5)));
    assert_eq!(p.captures(hole(5)), 0);
    let after = p.play(hole(5), &rules);
    assert_eq!(after.store(Side::South), 0);
    assert_eq!(after.hole(6), 2);
}

#[test]
fn grand_slam_under_forbidden_is_illegal() {
    let p = board([0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0]);
    assert_eq!(legal(&p, &Rules::AWALE), vec![4]);
    let e = p.try_play(hole(5), &Rules::AWALE).unwrap_err();
    assert!(e.to_string().contains("grand slam"), "{e}");
}

#[test]
fn when_every_move_is_a_grand_slam_they_are_legal_and_capture_nothing() {
    // Only hole 5 can move, and it takes both of the opponent's seeds.
    let p = board([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0]);
    assert!(p.is_grand_slam(hole(5)));
    assert_eq!(legal(&p, &Rules::AWALE), vec![5]);
    let after = p.play(hole(5), &Rules::AWALE);
    assert_eq!(after.store(Side::South), 0);
    assert_eq!(after.seeds_on_board(), 2);
}

#[test]
fn a_move_must_feed_an_empty_opponent() {
    let p = board([1, 0, 0, 0, 0, 1], [0; 6]);
    assert_eq!(legal(&p, &Rules::AWALE), vec![5]);
    let e = p.try_play(hole(0), &Rules::AWALE).unwrap_err();
    assert!(e.to_string().contains("feed"), "{e}");
}

#[test]
fn starvation_ends_the_game_and_the_survivor_takes_the_rest() {
    let p = board([1, 0, 0, 0, 0, 0], [0; 6]);
    for rules in [Rules::AWALE, Rules::ABAPA] {
        assert!(p.legal_moves(&rules).is_empty());
        assert_eq!(p.end(&rules), Some(EndReason::Starvation));
        let game = Game::from_position(rules, p);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.stores, [1, 0]);
        assert_eq!(outcome.winner, Some(Side::South));
    }
}

#[test]
fn sowing_skips_the_origin_hole() {
    // A krou of 12 seeds goes round: 11 holes get one, the origin is skipped
    // and the 12th seed lands in the hole after it.
    let p = board([12, 0, 0, 0, 0, 0], [4; 6]);
    let after = p.play(hole(0), &Rules::AWALE);
    let holes = after.holes();
    assert_eq!(holes[0], 0, "the origin stays empty");
    assert_eq!(holes[1], 2);
    assert_eq!(&holes[2..6], &[1, 1, 1, 1]);
    assert_eq!(&holes[6..], &[5; 6]);
}

#[test]
fn the_capture_chain_never_enters_the_movers_row() {
    // E sows into F (now 2) and a (now 2): a is captured, and the chain
    // stops there although F, the hole before a, holds 2: it is South's own.
    let p = board([0, 0, 0, 0, 2, 1], [1, 4, 4, 4, 4, 4]);
    assert_eq!(p.captures(hole(4)), 2);
    let after = p.play(hole(4), &Rules::AWALE);
    assert_eq!(after.hole(5), 2, "South's own F is not captured");
    assert_eq!(after.hole(6), 0);
}

#[test]
fn sowing_goes_from_f_to_a_and_from_f_to_a_round_the_board() {
    let p: Position = "0-0-0-0-0-3-0-0-0-0-0-1-0-0-S".parse().unwrap();
    let after = p.play(Move::from_letter('F').unwrap(), &Rules::AWALE);
    assert_eq!(after.holes(), [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1]);
    let q: Position = "1-0-0-0-0-0-0-0-0-0-0-2-0-0-N".parse().unwrap();
    let after = q.play(Move::from_letter('f').unwrap(), &Rules::AWALE);
    assert_eq!(after.holes(), [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        after.store(Side::North),
        0,
        "the last seed fell in B: 1 seed, no capture"
    );
}

#[test]
fn a_move_that_cannot_be_played_captures_nothing() {
    let p = board([0, 0, 0, 0, 0, 2], [1, 2, 4, 0, 0, 0]);
    assert_eq!(
        p.captures(Move::from_letter('b').unwrap()),
        0,
        "North's hole, South to move"
    );
    assert_eq!(p.captures(hole(0)), 0, "an empty hole");
}
