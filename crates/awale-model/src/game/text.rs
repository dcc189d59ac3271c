//! Text typed by a player, read and checked: moves, nicknames (and the
//! names that look alike), messages, positions.

use awale_core::{Move, Position};

use crate::error::Error;
use crate::Code;

/// Reads a move letter.
///
/// # Errors
///
/// `bad_move` naming the text when it is not one letter `A`-`F` or `a`-`f`.
pub fn parse_move(text: &str) -> Result<Move, Error> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Move::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| {
        Error::new(
            crate::error::Kind::Malformed,
            Code::BadMove,
            format!(
                "`{}` is not a move (holes are A-F for South, a-f for North)",
                crate::error::shown(text)
            ),
        )
        .with("text", text)
    })
}

/// Whether `c` may be hidden or turn text around: a control character
/// (NUL, a newline), an interlinear annotation mark, or one of Unicode's
/// Default_Ignorable_Code_Point set, those a font shows as nothing:
/// bidirectional embeddings, overrides, isolates and marks (U+202E would
/// show `evil` as `live`), characters of no width, Hangul fillers,
/// variation selectors, tags. (The set, not a list of ours: it names the
/// code points Unicode keeps for such uses, unassigned ones included.)
fn hidden(c: char) -> bool {
    use icu_properties::props::DefaultIgnorableCodePoint;
    use icu_properties::{CodePointSetData, CodePointSetDataBorrowed};
    const IGNORABLE: CodePointSetDataBorrowed<'static> =
        CodePointSetData::new::<DefaultIgnorableCodePoint>();
    c.is_control() || matches!(c, '\u{FFF9}'..='\u{FFFB}') || IGNORABLE.contains(c)
}

/// Text typed by a player, as others will see it: hidden and turning
/// characters dropped (a newline, a tab or the braille blank becomes a
/// space), trimmed.
pub fn clean_text(text: &str) -> String {
    let shown: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' | '\u{2800}' => Some(' '),
            c if hidden(c) => None,
            c => Some(c),
        })
        .collect();
    shown.trim().to_string()
}

/// Longest nickname, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A nickname, checked: hidden and turning characters dropped
/// ([`clean_text`]), then 1 to [`MAX_NAME_CHARS`] characters.
///
/// # Errors
///
/// `bad_name` when nothing is left, or too much.
pub fn parse_name(name: Option<&str>) -> Result<String, Error> {
    let name = clean_text(name.unwrap_or(""));
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME_CHARS {
        return Err(Error::invalid(
            Code::BadName,
            "a nickname takes 1 to 24 characters",
        ));
    }
    Ok(name)
}

/// The forms two names that look alike share: their confusable skeletons
/// (Unicode TS #39), in lower case, folded before and after (`I` and `l`
/// are one, and so are `A` and `a`): `аlice` in Cyrillic, `ａｌｉｃｅ` in
/// full width and `aIice` all give `alice`.
pub fn name_skeletons(name: &str) -> Vec<String> {
    use unicode_security::confusable_detection::skeleton;
    let name = name.trim();
    let mut keys = vec![
        skeleton(name).collect::<String>().to_lowercase(),
        skeleton(&name.to_lowercase()).collect::<String>(),
    ];
    keys.dedup();
    keys
}

/// Whether two names look alike: they share a skeleton.
pub fn look_alike(a: &str, b: &str) -> bool {
    let b = name_skeletons(b);
    name_skeletons(a).iter().any(|k| b.contains(k))
}

/// A position's diagram, checked.
///
/// # Errors
///
/// `bad_position` naming what is wrong in the diagram.
pub fn parse_position(text: &str) -> Result<Position, Error> {
    text.parse::<Position>()
        .map_err(|e| Error::invalid(Code::BadPosition, e.to_string()).with("text", text))
}
