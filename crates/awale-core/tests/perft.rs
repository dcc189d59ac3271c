//! Perft counts from `perft.txt` (docs/RULES.md's table), and a check that the
//! bulk-counting perft agrees with plain play through `Game`.

use awale_core::{perft, Game, Position, Rules};

struct Case {
    rules: Rules,
    position: Position,
    depth: u32,
    leaves: u64,
    deep: bool,
}

fn cases() -> Vec<Case> {
    include_str!("perft.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut words: Vec<&str> = line.split_whitespace().collect();
            let deep = words[0] == "deep";
            if deep {
                words.remove(0);
            }
            let position = match words[1] {
                "startpos" => Position::START,
                diagram => diagram.parse().expect("diagram in perft.txt"),
            };
            Case {
                rules: words[0].parse().expect("rules in perft.txt"),
                position,
                depth: words[2].parse().expect("depth"),
                leaves: words[3].parse().expect("leaves"),
                deep,
            }
        })
        .collect()
}

fn check(deep: bool) {
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.deep == deep).collect();
    assert!(!cases.is_empty());
    for c in cases {
        assert_eq!(
            perft(&c.position, c.depth, &c.rules),
            c.leaves,
            "perft {} at depth {} under {}",
            c.position,
            c.depth,
            c.rules
        );
    }
}

#[test]
fn perft_matches_the_published_counts() {
    check(false);
}

/// Depth 12 is the only line where the grand-slam option changes the
/// count: it runs in the test suite's optimised profile (`--profile fast`,
/// as scripts/test.sh and CI run it), and is left out only of unoptimised
/// builds, where it takes minutes.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "deep perft: seconds optimised, minutes in debug"
)]
fn deep_perft_matches_the_published_counts() {
    check(true);
}

/// Counts leaves by playing through `Game`, the slow and obvious way.
fn slow_perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for m in game.position().legal_moves(game.rules()) {
        if game.rules().target_reached(game.position().stores()) {
            break;
        }
        let mut child = game.clone();
        child.play(m).expect("legal move");
        total += slow_perft(&mut child, depth - 1);
    }
    total
}

#[test]
fn bulk_counting_agrees_with_playing_every_move() {
    for rules in [Rules::AWALE, Rules::ABAPA] {
        let mut game = Game::new(rules);
        for depth in 1..=5 {
            assert_eq!(
                slow_perft(&mut game, depth),
                perft(&Position::START, depth, &rules)
            );
        }
    }
}
