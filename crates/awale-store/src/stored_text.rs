//! How the stores write a side and a game's stop in their rows and
//! notices: words every store and the notices' text share.

use awale_core::Side;
use awale_model::game::Stop;

/// A side as the store writes it: its letter.
pub(crate) fn side_to_text(side: Side) -> String {
    side.letter().to_string()
}

pub(crate) fn side_from_text(text: &str) -> Option<Side> {
    let mut letters = text.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Side::from_letter(letter),
        _ => None,
    }
}

pub(crate) fn stop_to_text(stop: Stop) -> String {
    match stop {
        Stop::Time(side) => format!("time {}", side_to_text(side)),
        Stop::Abandoned(side) => format!("abandoned {}", side_to_text(side)),
        Stop::Aborted => "aborted".to_string(),
        Stop::Agreed => "agreed".to_string(),
    }
}

pub(crate) fn stop_from_text(text: &str) -> Option<Stop> {
    match text.split_once(' ') {
        Some(("time", s)) => side_from_text(s).map(Stop::Time),
        Some(("abandoned", s)) => side_from_text(s).map(Stop::Abandoned),
        None if text == "aborted" => Some(Stop::Aborted),
        None if text == "agreed" => Some(Stop::Agreed),
        _ => None,
    }
}
