//! Reading position diagrams and move lists written by people and programs.
//!
//! Printing is `Display` on [`Position`] and [`Move`]; this module is the
//! other direction, with errors that say what is wrong and where.

use std::fmt;
use std::str::FromStr;

use crate::{Move, Position, Side, TOTAL_SEEDS};

/// A diagram or move list that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The diagram does not have 15 fields separated by `-`.
    FieldCount(usize),
    /// Field `index` (1-based) is empty: two `-` in a row, as a negative
    /// number of seeds gives.
    EmptyField(usize),
    /// Field `index` (1-based) is not a number of seeds.
    NotANumber {
        /// 1-based field number.
        index: usize,
        /// The field as written.
        text: String,
    },
    /// The last field is not `S` or `N`.
    UnknownSide(String),
    /// More than 48 seeds in all.
    TooManySeeds(u32),
    /// A character that names no hole, at this 1-based column.
    UnknownMove {
        /// 1-based column in the text.
        column: usize,
        /// The character.
        found: char,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::FieldCount(n) => write!(
                f,
                "a diagram has 15 fields separated by '-' (12 holes, 2 stores, side to move), found {n}"
            ),
            NotationError::EmptyField(index) => write!(
                f,
                "field {index} is empty: two '-' in a row (a number of seeds cannot be negative)"
            ),
            NotationError::NotANumber { index, text } => {
                let name = field_name(*index);
                write!(f, "field {index} ({name}) is `{text}`, not a number of seeds from 0 to 48")
            }
            NotationError::UnknownSide(s) => {
                write!(f, "field 15 (side to move) is `{s}`, expected S or N")
            }
            NotationError::TooManySeeds(n) => {
                write!(f, "the diagram holds {n} seeds, but a game has only {TOTAL_SEEDS}")
            }
            NotationError::UnknownMove { column, found } => write!(
                f,
                "`{found}` at column {column} is not a move (holes are A-F for South, a-f for North)"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

fn field_name(index: usize) -> String {
    match index {
        1..=6 => format!("hole {}", (b'A' + index as u8 - 1) as char),
        7..=12 => format!("hole {}", (b'a' + index as u8 - 7) as char),
        13 => "South's store".to_string(),
        14 => "North's store".to_string(),
        _ => "side to move".to_string(),
    }
}

impl FromStr for Position {
    type Err = NotationError;

    /// Reads a diagram such as `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.trim().split('-').collect();
        if fields.len() > 15 {
            // A negative number adds a field: say where it is.
            let inner = &fields[..fields.len() - 1];
            if let Some(i) = inner.iter().position(|f| f.trim().is_empty()) {
                return Err(NotationError::EmptyField(i + 1));
            }
        }
        if fields.len() != 15 {
            return Err(NotationError::FieldCount(fields.len()));
        }
        let mut numbers = [0u8; 14];
        for (i, field) in fields[..14].iter().enumerate() {
            let text = field.trim();
            numbers[i] = match text.parse::<u8>() {
                Ok(n) if n <= TOTAL_SEEDS && !text.starts_with('+') => n,
                _ => {
                    return Err(NotationError::NotANumber {
                        index: i + 1,
                        text: text.to_string(),
                    })
                }
            };
        }
        let letter = fields[14].trim();
        let side = match letter.parse::<Side>() {
            Ok(side) if letter.len() == 1 => side,
            _ => return Err(NotationError::UnknownSide(letter.to_string())),
        };
        let total: u32 = numbers.iter().map(|&n| u32::from(n)).sum();
        if total > u32::from(TOTAL_SEEDS) {
            return Err(NotationError::TooManySeeds(total));
        }
        let mut holes = [0u8; 12];
        holes.copy_from_slice(&numbers[..12]);
        Position::new(holes, [numbers[12], numbers[13]], side)
            .map_err(|_| NotationError::TooManySeeds(total))
    }
}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Move::from_letter(c).ok_or(NotationError::UnknownMove {
                column: 1,
                found: c,
            }),
            (Some(_), Some(c)) => Err(NotationError::UnknownMove {
                column: 2,
                found: c,
            }),
            (None, _) => Err(NotationError::UnknownMove {
                column: 1,
                found: ' ',
            }),
        }
    }
}

/// Reads a list of move letters such as `FfAa` or `F f A a` (spaces and
/// commas between moves are allowed).
///
/// # Errors
///
/// [`NotationError::UnknownMove`] with the column of the first character
/// that is not a move.
///
/// ```
/// use awale_core::parse_moves;
/// assert_eq!(parse_moves("Ff a").unwrap().len(), 3);
/// assert!(parse_moves("FfG").unwrap_err().to_string().contains("column 3"));
/// ```
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let mut moves = Vec::new();
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        let m = Move::from_letter(c).ok_or(NotationError::UnknownMove {
            column: i + 1,
            found: c,
        })?;
        moves.push(m);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_diagram_reads_and_prints() {
        let p: Position = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".parse().unwrap();
        assert_eq!(p, Position::START);
        assert_eq!(p.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    }

    #[test]
    fn malformed_diagrams_say_what_is_wrong() {
        let cases = [
            ("4-4-4", "found 3"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "`X`"),
            ("4-4-x-4-4-4-4-4-4-4-4-4-0-0-S", "hole C"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0--1-S", "field 14 is empty"),
            ("4-4-4-4-4-4-4-4-4-4-4--4-0-0-S", "negative"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-1", "found 16"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-", "found 16"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-99-S", "North's store"),
            ("4-4-4-4-4-4-4-4-4-4-4-4-1-0-S", "49 seeds"),
            ("4-4-4-4-4-4-4-4-4-4-4-+4-0-0-S", "hole f"),
            ("", "found 1"),
        ];
        for (text, expected) in cases {
            let e = text.parse::<Position>().unwrap_err().to_string();
            assert!(e.contains(expected), "{text}: {e}");
        }
    }

    #[test]
    fn unknown_move_letters_are_located() {
        let e = parse_moves("F f x").unwrap_err();
        assert_eq!(
            e,
            NotationError::UnknownMove {
                column: 5,
                found: 'x'
            }
        );
        assert!("G".parse::<Move>().is_err());
        assert_eq!("c".parse::<Move>(), Ok(Move::from_letter('c').unwrap()));
    }
}
