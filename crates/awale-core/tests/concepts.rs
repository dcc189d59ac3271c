//! The game's vocabulary, owned here for every crate: sides, rule options,
//! results, the redo list and the positions since the last capture.

use awale_core::{
    leader, result_text, Direction, FirstPlayer, Game, GrandSlam, Move, Preset, Repetition,
    RuleOption, Rules, Side, Variant,
};

#[test]
fn side_words_and_letters_read_back() {
    for side in Side::BOTH {
        assert_eq!(side.name().parse(), Ok(side));
        assert_eq!(side.letter().to_string().parse(), Ok(side));
        assert_eq!(Side::from_letter(side.letter()), Some(side));
    }
    assert_eq!("Sud".parse(), Ok(Side::South));
    assert_eq!(" NORD ".parse(), Ok(Side::North));
    let e = "west".parse::<Side>().unwrap_err();
    assert!(e.to_string().contains("west"), "{e}");
    assert_eq!(Side::from_letter('s'), None);
}

#[test]
fn every_option_value_reads_back_through_the_table() {
    for option in RuleOption::ALL {
        assert_eq!(option.name().parse(), Ok(option));
        assert_eq!(option.name().replace('_', "-").parse(), Ok(option));
    }
    let mut rules = Rules::AWALE;
    for gs in GrandSlam::ALL {
        assert_eq!(gs.name().parse(), Ok(gs));
        rules.set("grand-slam", gs.name()).unwrap();
        assert_eq!(rules.value(RuleOption::GrandSlam), gs.name());
    }
    for r in Repetition::ALL {
        assert_eq!(r.name().parse(), Ok(r));
    }
    for d in Direction::ALL {
        assert_eq!(d.name().parse(), Ok(d));
    }
    for f in FirstPlayer::ALL {
        assert_eq!(f.name().parse(), Ok(f));
    }
    assert_eq!("ccw".parse(), Ok(Direction::CounterClockwise));
    // Every value the help text lists is accepted.
    for option in RuleOption::ALL {
        for value in option.values().split('|') {
            let value = if value == "N" { "20" } else { value };
            let mut rules = Rules::AWALE;
            rules.set(option.name(), value).unwrap();
        }
    }
    let e = "maybe".parse::<GrandSlam>().unwrap_err().to_string();
    assert!(e.contains("forbidden, no_capture"), "{e}");
}

#[test]
fn the_value_key_ignores_direction_and_first_player() {
    let mirrored = Rules {
        direction: Direction::Clockwise,
        first: FirstPlayer::Random,
        ..Rules::ABAPA
    };
    assert!(mirrored.same_values(&Rules::ABAPA));
    assert!(!Rules::AWALE.same_values(&Rules::ABAPA));
    let no_target = Rules {
        target: None,
        ..Rules::ABAPA
    };
    assert!(!no_target.same_values(&Rules::ABAPA));
    assert_eq!(no_target.variant(), Rules::ABAPA.variant());
    assert_eq!(Rules::AWALE.variant().name(), "forbidden-nobody");
    assert_eq!(Rules::ABAPA.variant().name(), "no_capture-own_row");
    for preset in Preset::ALL {
        assert_eq!(preset.rules().variant().preset(), Some(preset));
    }
    let mixed = Variant {
        grand_slam: GrandSlam::NoCapture,
        repetition: Repetition::Nobody,
    };
    assert_eq!(mixed.preset(), None);
    assert!(mixed.is_exact());
}

#[test]
fn results_are_written_from_the_winner() {
    assert_eq!(result_text(leader([25, 10])), "1-0");
    assert_eq!(result_text(leader([10, 25])), "0-1");
    assert_eq!(result_text(leader([24, 24])), "1/2-1/2");
}

fn play(game: &mut Game, letters: &str) {
    for c in letters.chars() {
        game.play(Move::from_letter(c).unwrap()).unwrap();
    }
}

#[test]
fn a_saved_redo_list_restores_what_redo_plays() {
    let mut game = Game::new(Rules::AWALE);
    play(&mut game, "FfAaBb");
    let end = game.position();
    for _ in 0..3 {
        game.undo();
    }
    let saved = game.redo_list().to_vec();
    assert_eq!(saved.len(), 3);
    // A game rebuilt from its moves, with the saved list, redoes the same.
    let mut restored = Game::new(Rules::AWALE);
    play(&mut restored, "FfA");
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
    play(&mut game, "FfAa");
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
