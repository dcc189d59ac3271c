//! How games end, for every reason of docs/RULES.md under each preset, and undo
//! and redo around the end.

use awale_core::{parse_moves, EndReason, Game, GameError, Outcome, Position, Rules, Side};

fn game(diagram: &str, rules: Rules) -> Game {
    Game::from_position(rules, diagram.parse().unwrap())
}

/// The outcome of the game at `diagram`, which the rules have ended for
/// `reason`.
fn ended(diagram: &str, rules: Rules, reason: EndReason) -> Outcome {
    let g = game(diagram, rules);
    assert_eq!(g.end(), Some(reason), "{diagram} under {rules}");
    g.outcome().unwrap()
}

/// The outcomes under each preset of the game at `diagram`, which the rules
/// end for `reason`.
fn ended_under_each_preset(diagram: &str, reason: EndReason) -> [Outcome; 2] {
    [Rules::AWALE, Rules::ABAPA].map(|rules| ended(diagram, rules, reason))
}

fn play_all(game: &mut Game, moves: &str) {
    for m in parse_moves(moves).unwrap() {
        game.play(m).unwrap();
    }
}

/// A game of awale from the start, after `moves`.
fn played(moves: &str) -> Game {
    let mut game = Game::new(Rules::AWALE);
    play_all(&mut game, moves);
    game
}

/// Two single seeds chasing each other round the board come back to where
/// they started after twelve moves.
const CIRCLING: (&str, &str) = ("0-0-0-0-0-1-0-0-0-0-0-1-10-5-S", "FfAaBbCcDdEe");

/// The game of [`CIRCLING`] under `rules`, ended by the repetition.
fn circled(rules: Rules) -> Game {
    let mut g = game(CIRCLING.0, rules);
    play_all(&mut g, CIRCLING.1);
    assert_eq!(g.end(), Some(EndReason::Repetition));
    g
}

#[test]
fn repetition_gives_the_seeds_left_to_nobody_under_awale() {
    let o = circled(Rules::AWALE).outcome().unwrap();
    assert_eq!(o.stores, [10, 5]);
    assert_eq!(o.winner, Some(Side::South));
}

#[test]
fn repetition_gives_each_player_their_own_row_under_abapa() {
    assert_eq!(circled(Rules::ABAPA).outcome().unwrap().stores, [11, 6]);
}

#[test]
fn a_position_only_repeats_with_the_same_side_to_move() {
    let mut g = game(CIRCLING.0, Rules::AWALE);
    play_all(&mut g, &CIRCLING.1[..11]);
    assert_eq!(g.end(), None, "one move short of the repetition");
}

#[test]
fn no_move_after_the_end_and_undo_reopens_the_game() {
    let mut g = circled(Rules::AWALE);
    let next = g.position().legal_moves(g.rules()).next().unwrap();
    assert_eq!(g.play(next), Err(GameError::Over(EndReason::Repetition)));
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.undo().map(|m| m.letter()), Some('e'));
    assert_eq!(g.end(), None);
    assert_eq!(g.redo().map(|m| m.letter()), Some('e'));
    assert_eq!(g.end(), Some(EndReason::Repetition));
}

#[test]
fn abapa_ends_when_a_store_reaches_25() {
    // South has 24 and captures 2 with F.
    let mut g = game("0-0-0-0-0-1-1-3-0-0-0-0-24-19-S", Rules::ABAPA);
    assert_eq!(g.play("F".parse().unwrap()), Ok(2));
    assert_eq!(g.end(), Some(EndReason::Target));
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::South));
    assert_eq!(o.stores, [26, 19]);
    // The same move under awale does not end the game.
    let mut g = game("1-0-0-0-0-1-1-3-0-0-0-0-24-18-S", Rules::AWALE);
    g.play("F".parse().unwrap()).unwrap();
    assert_eq!(g.position().stores(), [26, 18]);
    assert_eq!(g.end(), None);
}

#[test]
fn abapa_ends_at_24_all() {
    // With 48 seeds, 24-24 leaves none on the board: the target rule names
    // the end under abapa, the empty board under awale.
    let g = game("0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", Rules::ABAPA);
    assert_eq!(g.end(), Some(EndReason::Target));
    assert_eq!(g.outcome().unwrap().winner, None);
    let g = game("0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", Rules::AWALE);
    assert_eq!(g.end(), Some(EndReason::EmptyBoard));
    let mut g = game("1-0-0-0-0-1-2-0-0-0-0-4-21-19-S", Rules::ABAPA);
    g.play("F".parse().unwrap()).unwrap();
    assert_eq!(g.position().stores(), [24, 19]);
    assert_eq!(g.end(), None);
    let g = game("0-0-0-0-0-1-0-0-0-0-0-0-24-23-S", Rules::ABAPA);
    assert_eq!(g.end(), None);
}

#[test]
fn a_target_can_be_set_on_its_own() {
    let rules: Rules = "awale,target=20".parse().unwrap();
    let o = ended("4-4-4-4-0-0-0-0-0-0-0-0-20-8-N", rules, EndReason::Target);
    assert_eq!(o.winner, Some(Side::South));
}

#[test]
fn resignation_gives_the_seeds_left_to_the_opponent() {
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let mut g = Game::new(rules);
        play_all(&mut g, "Ff");
        g.resign(Side::North).unwrap();
        assert_eq!(g.end(), Some(EndReason::Resignation));
        let o = g.outcome().unwrap();
        assert_eq!(o.stores, [48, 0]);
        assert_eq!(o.winner, Some(Side::South));
        // Undo takes back the resignation only.
        assert_eq!(g.undo(), None);
        assert_eq!(g.end(), None);
        assert_eq!(g.plies().len(), 2);
        // The side not to move may resign too.
        g.resign(Side::South).unwrap();
        assert_eq!(g.outcome().unwrap().stores, [0, 48]);
    }
}

#[test]
fn a_resignation_clears_the_moves_taken_back() {
    let mut g = Game::new(Rules::AWALE);
    play_all(&mut g, "Ff");
    assert!(g.undo().is_some());
    assert!(g.can_redo());
    g.resign(Side::South).unwrap();
    assert!(!g.can_redo(), "nothing is played after the end");
    assert_eq!(g.redo(), None);
    // Taking the resignation back gives no redo either.
    assert_eq!(g.undo(), None);
    assert!(!g.can_redo());
    assert_eq!(g.plies().len(), 1);
}

#[test]
fn an_empty_board_ends_the_game() {
    let diagram = "0-0-0-0-0-0-0-0-0-0-0-0-20-16-N";
    for o in ended_under_each_preset(diagram, EndReason::EmptyBoard) {
        assert_eq!(o.winner, Some(Side::South));
    }
}

#[test]
fn a_side_with_an_empty_row_to_move_is_starved_and_the_other_takes_its_row() {
    let diagram = "0-0-0-0-0-0-0-3-0-0-0-0-20-20-S";
    for o in ended_under_each_preset(diagram, EndReason::Starvation) {
        assert_eq!(o.stores, [20, 23]);
    }
}

#[test]
fn starvation_in_play_after_the_last_feeding_chance() {
    // North has one seed in f and plays it; South, empty before, is fed.
    // Then South must feed North, which is impossible from A with 1 seed.
    let mut g = game("0-0-0-0-0-0-0-0-0-0-0-1-20-20-N", Rules::AWALE);
    play_all(&mut g, "f");
    assert_eq!(
        g.position(),
        "1-0-0-0-0-0-0-0-0-0-0-0-20-20-S"
            .parse::<Position>()
            .unwrap()
    );
    assert_eq!(g.end(), Some(EndReason::Starvation));
    assert_eq!(g.outcome().unwrap().stores, [21, 20]);
}

#[test]
fn undo_and_redo_walk_the_history() {
    let mut g = played("FfAaBb");
    let after = g.position();
    for _ in 0..6 {
        g.undo().unwrap();
    }
    assert_eq!(g.position(), Position::START);
    assert_eq!(g.undo(), None);
    for _ in 0..6 {
        g.redo().unwrap();
    }
    assert_eq!(g.position(), after);
    assert!(!g.can_redo());
    // A new move after undo forgets the moves taken back.
    g.undo();
    g.undo();
    play_all(&mut g, "C");
    assert!(!g.can_redo());
}

#[test]
fn a_saved_redo_list_restores_what_redo_plays() {
    let mut game = played("FfAaBb");
    let end = game.position();
    for _ in 0..3 {
        game.undo();
    }
    let saved = game.redo_list().to_vec();
    assert_eq!(saved.len(), 3);
    // A game rebuilt from its moves, with the saved list, redoes the same.
    let mut restored = played("FfA");
    restored.set_redo_list(saved.clone()).unwrap();
    while restored.redo().is_some() {}
    assert_eq!(restored.position(), end);
    // A list that does not fit the position is refused and changes nothing.
    let mut other = Game::new(Rules::AWALE);
    assert!(other.set_redo_list(saved).is_err());
    assert!(!other.can_redo());
}

#[test]
fn positions_since_capture_stop_at_the_last_capture() {
    let mut game = Game::new(Rules::AWALE);
    assert_eq!(game.since_capture().count(), 1);
    play_all(&mut game, "FfAa");
    assert_eq!(game.since_capture().count(), 5);
    // Play on until a capture: then only the position it left counts.
    while game.end().is_none() {
        let m = game.legal_moves()[0];
        if game.play(m).unwrap() > 0 {
            break;
        }
    }
    assert_eq!(game.plies().last().map(|p| p.captured > 0), Some(true));
    assert_eq!(game.since_capture().collect::<Vec<_>>(), [game.position()]);
}

#[test]
fn random_first_player_draws_both_sides() {
    let rules: Rules = "awale,first=random".parse().unwrap();
    let sides: std::collections::HashSet<Side> = (0..64)
        .map(|_| Game::new(rules).position().to_move())
        .collect();
    assert_eq!(sides.len(), 2);
}
