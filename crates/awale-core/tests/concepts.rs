//! The game's vocabulary, owned here for every crate: sides, rule options,
//! the rules that share values, results. (The redo list and the positions
//! since the last capture are in `game_end.rs`, with undo and redo.)

use awale_core::{
    leader, result_text, Direction, FirstPlayer, GrandSlam, Preset, Repetition, RuleOption, Rules,
    Side, Variant,
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
