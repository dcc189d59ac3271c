//! The two players, South and North, and the words and letters that name
//! them everywhere: diagrams, rule options, records, the JSON API.

use std::fmt;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Sud: the bottom row, holes `A`-`F`.
    South = 0,
    /// Nord: the top row, holes `a`-`f`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index of this side's store.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `S` or `N`, as in position diagrams.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// The side of a diagram's letter, `S` or `N` (upper case only).
    pub fn from_letter(letter: char) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| s.letter() == letter)
    }

    /// `south` or `north`: the side as a rule option value, in the JSON
    /// API and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// The holes of this side's row as board indices (`A..F` = 0..5,
    /// `a..f` = 6..11).
    pub fn row(self) -> std::ops::Range<usize> {
        let first = 6 * self.index();
        first..first + 6
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// A side that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideError(pub String);

impl fmt::Display for SideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown side `{}` (expected south or north)", self.0)
    }
}

impl std::error::Error for SideError {}

impl std::str::FromStr for Side {
    type Err = SideError;

    /// `S`, `south`, `sud` or `N`, `north`, `nord`, in any case.
    ///
    /// ```
    /// use awale_core::Side;
    /// assert_eq!("Nord".parse(), Ok(Side::North));
    /// assert_eq!("s".parse(), Ok(Side::South));
    /// assert!("east".parse::<Side>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "s" | "south" | "sud" => Ok(Side::South),
            "n" | "north" | "nord" => Ok(Side::North),
            _ => Err(SideError(s.to_string())),
        }
    }
}
