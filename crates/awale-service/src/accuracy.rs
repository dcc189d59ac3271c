//! Accuracy: how close a side's moves came to the best ones, from 0 to
//! 100, from the seeds each move lost against the best move of its
//! position (a review's [`ReviewRow::loss`], exact where the databases or
//! a forced result decide both moves, estimated by the engine elsewhere).
//! The formula, and why, in docs/ACCURACY.md.

use awale_model::rating::Speed;
use awale_store::reviewed::PlayerReview;
use serde::{Deserialize, Serialize};

use crate::computer::ReviewRow;

/// Seeds lost at which a move's accuracy falls to 1/e (about 37): one
/// mistake ([`crate::computer::MISTAKE_LOSS`], two seeds).
pub const SCALE_SEEDS: f64 = 2.0;

/// Seeds counted for a move that gave up a result (a win, a draw, the
/// game) where the seeds it cost are not known (a result forced in a known
/// number of moves has no margin): twice a mistake.
pub const GAVE_UP_SEEDS: f64 = 4.0;

/// A move's accuracy, from 0 to 100, from the seeds it lost against the
/// best move: `100 × e^(−lost / 2)`. 100 for the best move (or one as
/// good), about 61 for a seed lost, 37 for two (a mistake), 14 for four;
/// a negative or unknown loss counts as none.
pub fn move_accuracy(lost_seeds: f64) -> f64 {
    if lost_seeds.is_nan() || lost_seeds <= 0.0 {
        return 100.0;
    }
    100.0 * (-lost_seeds / SCALE_SEEDS).exp()
}

/// The seeds a reviewed move lost against the best: its loss in seeds
/// where known, [`GAVE_UP_SEEDS`] at least where it gave up a result, 0
/// otherwise (a position with one move, or a result kept).
pub fn lost_seeds(row: &ReviewRow) -> f64 {
    let seeds = row
        .loss
        .map_or(0.0, |hundredths| f64::from(hundredths.max(0)) / 100.0);
    if row.gave_up.is_some() {
        seeds.max(GAVE_UP_SEEDS)
    } else {
        seeds
    }
}

/// One side's accuracy over a game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Accuracy {
    /// `S` or `N`.
    pub side: char,
    /// From 0 to 100, one decimal: the mean of its moves' accuracies.
    pub accuracy: f64,
    /// Its moves reviewed.
    pub moves: usize,
    /// How many of them had their loss decided exactly (both the move and
    /// the best one decided by the databases or a forced result); the rest
    /// are the engine's estimates.
    pub exact: usize,
}

/// The accuracy of `side` (`S` or `N`) over the reviewed `rows`: the mean
/// of [`move_accuracy`] over its moves, rounded to a tenth; None when it
/// played no move.
pub fn accuracy(rows: &[ReviewRow], side: char) -> Option<Accuracy> {
    let mine: Vec<&ReviewRow> = rows.iter().filter(|r| r.side == side).collect();
    if mine.is_empty() {
        return None;
    }
    let sum: f64 = mine.iter().map(|r| move_accuracy(lost_seeds(r))).sum();
    let mean = sum / mine.len() as f64;
    Some(Accuracy {
        side,
        accuracy: (mean * 10.0).round() / 10.0,
        moves: mine.len(),
        exact: mine.iter().filter(|r| r.exact).count(),
    })
}

/// Both sides' accuracies, South first (those that played).
pub fn accuracies(rows: &[ReviewRow]) -> Vec<Accuracy> {
    ['S', 'N']
        .into_iter()
        .filter_map(|side| accuracy(rows, side))
        .collect()
}

/// A player's mean accuracy in one speed, over their reviewed games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpeedAccuracy {
    /// The speed's name.
    pub speed: &'static str,
    /// The mean of the player's accuracy in those games, one decimal.
    pub accuracy: f64,
    /// Reviewed games counted.
    pub games: usize,
}

/// The part of a stored review this reads: each side's accuracy.
#[derive(Deserialize)]
struct StoredAccuracies {
    #[serde(default)]
    accuracy: Vec<StoredAccuracy>,
}

#[derive(Deserialize)]
struct StoredAccuracy {
    side: char,
    accuracy: f64,
}

/// A player's mean accuracy by speed over `reviews` (each of their games,
/// the side they played): in the order of [`Speed::ALL`], only the speeds
/// with a review that has their side's accuracy (a review of before
/// accuracies, or unreadable, is left out).
pub fn by_speed(reviews: &[PlayerReview]) -> Vec<SpeedAccuracy> {
    Speed::ALL
        .into_iter()
        .filter_map(|speed| {
            let found: Vec<f64> = reviews
                .iter()
                .filter(|r| r.speed == speed.name())
                .filter_map(|r| {
                    let stored: StoredAccuracies = serde_json::from_str(&r.body).ok()?;
                    let mine = stored.accuracy.iter().find(|a| a.side == r.side)?;
                    mine.accuracy.is_finite().then_some(mine.accuracy)
                })
                .collect();
            if found.is_empty() {
                return None;
            }
            let mean = found.iter().sum::<f64>() / found.len() as f64;
            Some(SpeedAccuracy {
                speed: speed.name(),
                accuracy: (mean * 10.0).round() / 10.0,
                games: found.len(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::GaveUp;

    fn row(side: char, loss: Option<i32>, gave_up: Option<GaveUp>) -> ReviewRow {
        ReviewRow {
            ply: 0,
            side,
            mv: "A".into(),
            played: None,
            best: None,
            eval_south: None,
            loss,
            exact: false,
            gave_up,
            mistake: false,
            oracle: None,
        }
    }

    #[test]
    fn a_move_as_good_as_the_best_is_100_and_losses_lower_it_smoothly() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(-3.0), 100.0, "never above 100");
        assert_eq!(move_accuracy(f64::NAN), 100.0);
        assert!((move_accuracy(1.0) - 60.65).abs() < 0.01);
        assert!((move_accuracy(2.0) - 36.79).abs() < 0.01, "a mistake");
        assert!((move_accuracy(4.0) - 13.53).abs() < 0.01);
        assert!(move_accuracy(48.0) > 0.0, "never below 0");
        assert!(move_accuracy(48.0) < 1e-6);
        // Every seed more lost costs: strictly down.
        let mut last = 101.0;
        for tenth in 0..200 {
            let a = move_accuracy(f64::from(tenth) / 10.0);
            assert!(a < last);
            last = a;
        }
    }

    #[test]
    fn a_result_given_up_counts_at_least_twice_a_mistake() {
        let thrown = row('S', None, Some(GaveUp::Win));
        assert_eq!(lost_seeds(&thrown), GAVE_UP_SEEDS);
        let thrown_far = row('S', Some(900), Some(GaveUp::Draw));
        assert_eq!(lost_seeds(&thrown_far), 9.0);
        assert_eq!(lost_seeds(&row('S', Some(150), None)), 1.5);
        assert_eq!(lost_seeds(&row('S', None, None)), 0.0);
        assert_eq!(lost_seeds(&row('S', Some(-20), None)), 0.0);
    }

    #[test]
    fn a_game_is_the_mean_of_its_moves_per_side_and_a_side_without_moves_has_none() {
        let rows = vec![
            row('S', Some(0), None),
            row('N', Some(200), None),
            row('S', Some(200), None),
            row('N', Some(0), None),
        ];
        let south = accuracy(&rows, 'S').unwrap();
        assert_eq!(south.moves, 2);
        assert_eq!(south.accuracy, 68.4, "(100 + 36.79) / 2");
        assert_eq!(accuracies(&rows).len(), 2);
        assert_eq!(accuracy(&rows[..1], 'N'), None);
        assert!(accuracies(&[]).is_empty());
    }

    fn reviewed(speed: &str, side: char, body: &str) -> PlayerReview {
        PlayerReview {
            speed: speed.into(),
            side,
            body: body.into(),
        }
    }

    #[test]
    fn a_players_accuracy_by_speed_is_the_mean_of_their_sides_in_their_reviewed_games() {
        let two =
            r#"{"accuracy": [{"side": "S", "accuracy": 90.0}, {"side": "N", "accuracy": 50.0}]}"#;
        let reviews = [
            reviewed("blitz", 'S', two),
            reviewed("blitz", 'N', two),
            reviewed("rapid", 'N', two),
            // Of before accuracies, or not a review: left out.
            reviewed("rapid", 'S', r#"{"plies": []}"#),
            reviewed("bullet", 'S', "not json"),
        ];
        let speeds = by_speed(&reviews);
        assert_eq!(
            speeds,
            [
                SpeedAccuracy {
                    speed: "blitz",
                    accuracy: 70.0,
                    games: 2
                },
                SpeedAccuracy {
                    speed: "rapid",
                    accuracy: 50.0,
                    games: 1
                },
            ]
        );
        assert!(by_speed(&[]).is_empty());
    }
}
