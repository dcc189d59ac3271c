//! Invariants on random games and random positions: seeds are conserved,
//! the origin is empty after a move, play then undo restores, the opponent is
//! never left without seeds, and parse of print is identity for diagrams and
//! records.

use awale_core::{
    parse_moves, perft, Direction, Game, GrandSlam, Position, Record, Repetition, Rules, Side,
    TOTAL_SEEDS,
};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(None), Just(Some(25)), (1u8..=48).prop_map(Some)],
    )
        .prop_map(|(slam, rep, target)| Rules {
            grand_slam: if slam {
                GrandSlam::Forbidden
            } else {
                GrandSlam::NoCapture
            },
            repetition: if rep {
                Repetition::Nobody
            } else {
                Repetition::OwnRow
            },
            target,
            ..Rules::AWALE
        })
}

/// A game reached from the start by `choices` (each picks among the legal
/// moves), stopping at the end.
fn random_game(rules: Rules, choices: &[u8]) -> Game {
    let mut game = Game::new(rules);
    for &c in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[c as usize % moves.len()]).unwrap();
    }
    game
}

/// Any position with at most 48 seeds, reachable or not.
fn any_position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..=12, 14), any::<bool>()).prop_map(|(mut seeds, north)| {
        // Scale down until the total fits.
        while seeds.iter().map(|&s| u32::from(s)).sum::<u32>() > u32::from(TOTAL_SEEDS) {
            for s in seeds.iter_mut() {
                *s /= 2;
            }
        }
        let mut holes = [0; 12];
        holes.copy_from_slice(&seeds[..12]);
        let side = if north { Side::North } else { Side::South };
        Position::new(holes, [seeds[12], seeds[13]], side).unwrap()
    })
}

fn total(p: &Position) -> u32 {
    p.holes()
        .iter()
        .chain(&p.stores())
        .map(|&s| u32::from(s))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn seeds_are_conserved(rules in rules(), choices in prop::collection::vec(any::<u8>(), 0..200)) {
        let game = random_game(rules, &choices);
        for ply in game.plies() {
            prop_assert_eq!(total(&ply.before), 48);
        }
        prop_assert_eq!(total(&game.position()), 48);
        if let Some(o) = game.outcome() {
            let given: u32 = o.stores.iter().map(|&s| u32::from(s)).sum();
            let left = u32::from(game.position().seeds_on_board());
            prop_assert!(given == 48 || given + left == 48, "{:?} with {} left", o, left);
        }
    }

    #[test]
    fn the_origin_is_empty_after_a_move(p in any_position(), rules in rules()) {
        for m in p.legal_moves(&rules) {
            let after = p.play(m, &rules);
            prop_assert_eq!(after.hole(m.hole()), 0);
            prop_assert_eq!(total(&after), total(&p));
            prop_assert_eq!(after.to_move(), p.to_move().opponent());
        }
    }

    #[test]
    fn a_legal_move_never_leaves_the_opponent_without_seeds(p in any_position(), rules in rules()) {
        let mover_has_seeds = p.seeds_in_row(p.to_move()) > 0;
        for m in p.legal_moves(&rules) {
            let after = p.play(m, &rules);
            prop_assert!(mover_has_seeds);
            prop_assert!(after.seeds_in_row(after.to_move()) > 0, "{} {} -> {}", p, m, after);
        }
    }

    #[test]
    fn legal_moves_agree_with_check(p in any_position(), rules in rules()) {
        let legal = p.legal_moves(&rules);
        for hole in 0..12 {
            let m = awale_core::Move::from_hole(hole).unwrap();
            prop_assert_eq!(legal.contains(m), p.check(m, &rules).is_ok());
        }
    }

    #[test]
    fn play_then_undo_restores(rules in rules(), choices in prop::collection::vec(any::<u8>(), 1..120)) {
        let mut game = random_game(rules, &choices);
        let positions: Vec<Position> = game.plies().iter().map(|p| p.before).collect();
        for before in positions.iter().rev() {
            game.undo().unwrap();
            prop_assert_eq!(game.position(), *before);
            prop_assert!(game.end().is_none());
        }
        prop_assert_eq!(game.position(), game.start());
    }

    #[test]
    fn parse_of_print_is_identity_for_diagrams(p in any_position()) {
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), p);
        prop_assert_eq!(Position::new(p.holes(), p.stores(), p.to_move()).unwrap(), p);
    }

    #[test]
    fn parse_of_print_is_identity_for_records(rules in rules(), choices in prop::collection::vec(any::<u8>(), 0..150), first_north in any::<bool>()) {
        let start = if first_north { Position::start(Side::North) } else { Position::START };
        let mut game = Game::from_position(rules, start);
        for &c in &choices {
            let moves = game.legal_moves();
            if moves.is_empty() { break; }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let record = Record::from_game(&game, &[("Event", "Test \"quoted\""), ("South", "A"), ("North", "B")]);
        let text = record.to_string();
        let parsed: Record = text.parse().unwrap();
        prop_assert_eq!(&parsed, &record);
        let replayed = parsed.to_game().unwrap();
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.outcome(), game.outcome());
    }

    #[test]
    fn hash_and_key_tell_positions_apart(a in any_position(), b in any_position()) {
        if a == b {
            prop_assert_eq!(a.hash(), b.hash());
        } else {
            prop_assert_ne!(a.hash(), b.hash());
        }
        let same_holes = a.holes() == b.holes() && a.to_move() == b.to_move();
        prop_assert_eq!(same_holes, a.repetition_key() == b.repetition_key());
    }
}

#[test]
fn clockwise_and_counter_clockwise_games_are_mirror_images() {
    // The direction only changes the drawing: the same letters make the same
    // game, and each row is drawn in the reverse order.
    let ccw = Rules::AWALE;
    let cw = Rules {
        direction: Direction::Clockwise,
        ..Rules::AWALE
    };
    for depth in 1..=6 {
        assert_eq!(
            perft(&Position::START, depth, &ccw),
            perft(&Position::START, depth, &cw)
        );
    }
    let mut a = Game::new(ccw);
    let mut b = Game::new(cw);
    for m in parse_moves("FfAaBbCcDd").unwrap() {
        assert_eq!(a.play(m), b.play(m));
        assert_eq!(a.position(), b.position());
    }
    for side in Side::BOTH {
        let mut reversed = Direction::CounterClockwise.columns(side);
        reversed.reverse();
        assert_eq!(reversed, Direction::Clockwise.columns(side));
    }
    // Seen from above, sowing goes on to the next column drawn: from the
    // right end of South's row counter-clockwise (F then f... up and left),
    // from the left end clockwise.
    assert_eq!(Direction::CounterClockwise.columns(Side::South)[5], 5);
    assert_eq!(Direction::CounterClockwise.columns(Side::North)[5], 6);
    assert_eq!(Direction::Clockwise.columns(Side::South)[0], 5);
    assert_eq!(Direction::Clockwise.columns(Side::North)[0], 6);
}
