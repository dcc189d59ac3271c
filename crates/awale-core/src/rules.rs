//! The rule options of docs/RULES.md and the two presets, `awale` and `abapa`.
//!
//! A [`Rules`] value is small and `Copy`: it travels with every position query
//! that depends on the rules (legal moves, the end of the game).

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// The rule options, in the order they are listed: their names on the
/// command line (with `-` for `_`), in records' `Variant` tag, in the JSON
/// API and in `docs/RULES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleOption {
    /// `grand_slam`: [`GrandSlam`].
    GrandSlam,
    /// `repetition`: [`Repetition`].
    Repetition,
    /// `target`: a number of seeds, or `off`.
    Target,
    /// `direction`: [`Direction`].
    Direction,
    /// `first`: [`FirstPlayer`].
    First,
}

impl RuleOption {
    /// Every option, in the order they are listed.
    pub const ALL: [RuleOption; 5] = [
        RuleOption::GrandSlam,
        RuleOption::Repetition,
        RuleOption::Target,
        RuleOption::Direction,
        RuleOption::First,
    ];

    /// The option's name: `grand_slam`, `repetition`, `target`,
    /// `direction`, `first`.
    pub fn name(self) -> &'static str {
        match self {
            RuleOption::GrandSlam => "grand_slam",
            RuleOption::Repetition => "repetition",
            RuleOption::Target => "target",
            RuleOption::Direction => "direction",
            RuleOption::First => "first",
        }
    }

    /// The values it takes, as help text: `forbidden|no_capture`.
    pub fn values(self) -> &'static str {
        match self {
            RuleOption::GrandSlam => "forbidden|no_capture",
            RuleOption::Repetition => "nobody|own_row",
            RuleOption::Target => "N|off",
            RuleOption::Direction => "counter_clockwise|clockwise",
            RuleOption::First => "south|north|random",
        }
    }
}

impl FromStr for RuleOption {
    type Err = RulesError;

    /// An option's name, in any case, with `-` or `_`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace('-', "_");
        RuleOption::ALL
            .into_iter()
            .find(|o| o.name() == wanted)
            .ok_or_else(|| RulesError::UnknownOption(s.to_string()))
    }
}

/// The values of a rule option from one list: `ALL` (the `awale` preset's
/// value first), `name()` as rule strings write it, and `FromStr` (any
/// case, `-` for `_`, and the other spellings given last).
macro_rules! option_values {
    ($ty:ident, $option:ident, [$($value:ident = $name:literal),+] $(, [$($alias:literal = $other:ident),*])?) => {
        impl $ty {
            /// Every value, the `awale` preset's first.
            pub const ALL: [$ty; 0 $(+ { let _ = $name; 1 })+] = [$($ty::$value),+];

            /// The value's name, as rule strings write it.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$value => $name),+
                }
            }
        }

        impl FromStr for $ty {
            type Err = RulesError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let aliases: &[(&str, $ty)] = &[$($(($alias, $ty::$other)),*)?];
                parse_value(RuleOption::$option, s, &$ty::ALL, $ty::name, aliases)
            }
        }
    };
}

/// Reads an option value in any case, with `-` or `_`, as one of
/// `values` (by `name`) or one of the other spellings in `aliases`.
fn parse_value<T: Copy>(
    option: RuleOption,
    text: &str,
    values: &[T],
    name: impl Fn(T) -> &'static str,
    aliases: &[(&str, T)],
) -> Result<T, RulesError> {
    let wanted = text.trim().to_ascii_lowercase().replace('-', "_");
    values
        .iter()
        .copied()
        .find(|&v| name(v) == wanted)
        .or_else(|| aliases.iter().find(|(a, _)| *a == wanted).map(|&(_, v)| v))
        .ok_or_else(|| RulesError::BadValue {
            option: option.name().to_string(),
            value: text.to_string(),
        })
}

/// What happens to a move whose capture would take every seed in the
/// opponent's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// Such a move is illegal, unless every move the player has is one: then
    /// they are all legal and capture nothing.
    Forbidden,
    /// The move is legal and captures nothing.
    NoCapture,
}

option_values!(
    GrandSlam,
    GrandSlam,
    [Forbidden = "forbidden", NoCapture = "no_capture"]
);

/// Who gets the seeds left on the board when a position repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Nobody: the seeds on the board are not counted.
    Nobody,
    /// Each player takes the seeds in their own row.
    OwnRow,
}

option_values!(
    Repetition,
    Repetition,
    [Nobody = "nobody", OwnRow = "own_row"]
);

/// Which way the seeds travel, seen from above. A mirror: it changes how the
/// board is drawn and which physical hole a letter names, never the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Counter-clockwise (seeds 000 and 003): South's `A` is on the left.
    CounterClockwise,
    /// Clockwise (seed 001): South's `A` is on the right.
    Clockwise,
}

option_values!(
    Direction,
    Direction,
    [
        CounterClockwise = "counter_clockwise",
        Clockwise = "clockwise"
    ],
    [
        "ccw" = CounterClockwise,
        "anticlockwise" = CounterClockwise,
        "cw" = Clockwise
    ]
);

impl Direction {
    /// The board indices of `side`'s row as drawn from left to right, South's
    /// row at the bottom and North's at the top, seen by a South player.
    ///
    /// ```
    /// use awale_core::{Direction, Side};
    /// assert_eq!(Direction::CounterClockwise.columns(Side::South), [0, 1, 2, 3, 4, 5]);
    /// assert_eq!(Direction::CounterClockwise.columns(Side::North), [11, 10, 9, 8, 7, 6]);
    /// assert_eq!(Direction::Clockwise.columns(Side::South), [5, 4, 3, 2, 1, 0]);
    /// ```
    pub fn columns(self, side: Side) -> [usize; 6] {
        let first = 6 * side.index();
        let mut columns = [0; 6];
        for (i, c) in columns.iter_mut().enumerate() {
            // Counter-clockwise, South's row runs left to right and North's
            // right to left; clockwise is its mirror image.
            let left_to_right = (side == Side::South) == (self == Direction::CounterClockwise);
            *c = first + if left_to_right { i } else { 5 - i };
        }
        columns
    }
}

/// Who moves first in a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstPlayer {
    /// This side.
    Side(Side),
    /// Drawn at random when the game starts (seed 003: "tiré au hasard").
    Random,
}

impl FirstPlayer {
    /// Every value: South, North, random.
    pub const ALL: [FirstPlayer; 3] = [
        FirstPlayer::Side(Side::South),
        FirstPlayer::Side(Side::North),
        FirstPlayer::Random,
    ];

    /// `south`, `north` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            FirstPlayer::Side(side) => side.name(),
            FirstPlayer::Random => "random",
        }
    }
}

impl FromStr for FirstPlayer {
    type Err = RulesError;

    /// Also a side's other spellings (`S`, `sud`, ...).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<Side>() {
            Ok(side) => Ok(FirstPlayer::Side(side)),
            Err(_) => parse_value(
                RuleOption::First,
                s,
                &FirstPlayer::ALL,
                FirstPlayer::name,
                &[],
            ),
        }
    }
}

/// The two named rule sets of docs/RULES.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The seeds' "Awalé commun": grand slams forbidden, a repetition gives
    /// the seeds left to nobody, no target.
    Awale,
    /// Tournament Oware: grand slams capture nothing, a repetition gives each
    /// player their own row, the game ends at 25 seeds or at 24-24.
    Abapa,
}

impl Preset {
    /// Every preset, in the order they are listed to users.
    pub const ALL: [Preset; 2] = [Preset::Awale, Preset::Abapa];

    /// The preset's name, as written on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Awale => "awale",
            Preset::Abapa => "abapa",
        }
    }

    /// The rules of this preset.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Awale => Rules::AWALE,
            Preset::Abapa => Rules::ABAPA,
        }
    }
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "awale" | "awalé" => Ok(Preset::Awale),
            "abapa" | "oware" => Ok(Preset::Abapa),
            _ => Err(RulesError::UnknownPreset(s.to_string())),
        }
    }
}

/// A complete rule set: the options of docs/RULES.md.
///
/// ```
/// use awale_core::{GrandSlam, Rules};
/// let rules: Rules = "abapa".parse().unwrap();
/// assert_eq!(rules.grand_slam, GrandSlam::NoCapture);
/// assert_eq!(rules.target, Some(25));
/// let custom: Rules = "awale,target=20".parse().unwrap();
/// assert_eq!(custom.to_string(), "awale,target=20");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Whether a grand slam is legal.
    pub grand_slam: GrandSlam,
    /// Who gets the seeds on the board after a repetition.
    pub repetition: Repetition,
    /// When set, the game ends as soon as a store holds this many seeds, or
    /// when both stores hold 24 (neither can then get more than the other).
    pub target: Option<u8>,
    /// Display only: which way the seeds go round.
    pub direction: Direction,
    /// Who moves first in a new game.
    pub first: FirstPlayer,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::AWALE
    }
}

impl Rules {
    /// The default rules: the seeds' "Awalé commun".
    pub const AWALE: Rules = Rules {
        grand_slam: GrandSlam::Forbidden,
        repetition: Repetition::Nobody,
        target: None,
        direction: Direction::CounterClockwise,
        first: FirstPlayer::Side(Side::South),
    };

    /// Tournament Oware (Abapa).
    pub const ABAPA: Rules = Rules {
        grand_slam: GrandSlam::NoCapture,
        repetition: Repetition::OwnRow,
        target: Some(25),
        direction: Direction::CounterClockwise,
        first: FirstPlayer::Side(Side::South),
    };

    /// Whether a game with these stores is over by the target rule.
    #[inline]
    pub fn target_reached(&self, stores: [u8; 2]) -> bool {
        match self.target {
            None => false,
            Some(t) => stores[0] >= t || stores[1] >= t || (stores[0] == 24 && stores[1] == 24),
        }
    }

    /// The preset these rules start from when written down: the one that
    /// differs in the fewest options.
    fn closest_preset(&self) -> Preset {
        let differences = |p: Preset| {
            let r = p.rules();
            usize::from(r.grand_slam != self.grand_slam)
                + usize::from(r.repetition != self.repetition)
                + usize::from(r.target != self.target)
        };
        if differences(Preset::Abapa) < differences(Preset::Awale) {
            Preset::Abapa
        } else {
            Preset::Awale
        }
    }

    /// Sets one option from its name and value, as on the command line
    /// (`grand_slam=no_capture`, `target=25`, `target=off`, ...).
    ///
    /// # Errors
    ///
    /// [`RulesError`] names the unknown option or the bad value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        match name.parse::<RuleOption>()? {
            RuleOption::GrandSlam => self.grand_slam = value.parse()?,
            RuleOption::Repetition => self.repetition = value.parse()?,
            RuleOption::Target => self.target = parse_target(value)?,
            RuleOption::Direction => self.direction = value.parse()?,
            RuleOption::First => self.first = value.parse()?,
        }
        Ok(())
    }

    /// The value of `option` as text, as [`Rules::set`] reads it:
    /// `no_capture`, `25`, `off`, `clockwise`, `random`.
    pub fn value(&self, option: RuleOption) -> String {
        match option {
            RuleOption::GrandSlam => self.grand_slam.name().to_string(),
            RuleOption::Repetition => self.repetition.name().to_string(),
            RuleOption::Target => match self.target {
                Some(t) => t.to_string(),
                None => "off".to_string(),
            },
            RuleOption::Direction => self.direction.name().to_string(),
            RuleOption::First => self.first.name().to_string(),
        }
    }

    /// The rule options a board's value depends on, apart from the target.
    pub fn variant(&self) -> Variant {
        Variant::of(self)
    }

    /// Whether every position has the same value under `self` and `other`
    /// (same grand slam, repetition and target rules; the direction is a
    /// mirror and the first player only picks the start): an endgame
    /// database or a search result for one serves the other.
    pub fn same_values(&self, other: &Rules) -> bool {
        self.value_key() == other.value_key()
    }

    /// A key equal for rules with the [same values](Rules::same_values),
    /// for caches of databases or results per rule set.
    pub fn value_key(&self) -> (Variant, Option<u8>) {
        (self.variant(), self.target)
    }
}

/// `off` (or `none`, `0`) or a number of seeds from 1 to 48.
fn parse_target(value: &str) -> Result<Option<u8>, RulesError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "off" | "none" | "0" => Ok(None),
        n => match n.parse::<u8>() {
            Ok(t) if (1..=48).contains(&t) => Ok(Some(t)),
            _ => Err(RulesError::BadValue {
                option: RuleOption::Target.name().to_string(),
                value: value.to_string(),
            }),
        },
    }
}

/// The rule options a board's value depends on, apart from the target
/// (which needs the stores): the grand slam and repetition rules. Endgame
/// databases are built once per variant, and probed under any target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Whether a grand slam is legal.
    pub grand_slam: GrandSlam,
    /// Who takes the seeds left after a repetition.
    pub repetition: Repetition,
}

impl Variant {
    /// The options of `rules` that a board's value depends on.
    pub fn of(rules: &Rules) -> Variant {
        Variant {
            grand_slam: rules.grand_slam,
            repetition: rules.repetition,
        }
    }

    /// Rules with these options and no target.
    pub fn rules(self) -> Rules {
        Rules {
            grand_slam: self.grand_slam,
            repetition: self.repetition,
            target: None,
            ..Rules::AWALE
        }
    }

    /// Whether a board's value is exact (a repetition gives nothing to
    /// anyone) rather than known within bounds (each player's own row
    /// counts, and depends on when the repetition comes).
    pub fn is_exact(self) -> bool {
        self.repetition == Repetition::Nobody
    }

    /// `forbidden-nobody` (the `awale` preset), `no_capture-own_row`
    /// (`abapa`): the name of a database folder.
    pub fn name(self) -> String {
        format!("{}-{}", self.grand_slam.name(), self.repetition.name())
    }

    /// The preset of this variant, if one has it.
    pub fn preset(self) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| Variant::of(&p.rules()) == self)
    }
}

impl fmt::Display for Rules {
    /// The preset name, then every option that differs from it:
    /// `abapa`, `awale,target=20,direction=clockwise`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let preset = self.closest_preset();
        let base = preset.rules();
        f.write_str(preset.name())?;
        for option in RuleOption::ALL {
            let value = self.value(option);
            if value != base.value(option) {
                write!(f, ",{}={value}", option.name())?;
            }
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// A preset name optionally followed by `,option=value` pairs. A string
    /// that starts with an option uses the `awale` preset as its base.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.split(',').map(str::trim).filter(|p| !p.is_empty());
        let mut rules = Rules::AWALE;
        let mut first_part = parts.next();
        if let Some(p) = first_part {
            if !p.contains('=') {
                rules = p.parse::<Preset>()?.rules();
                first_part = None;
            }
        }
        for part in first_part.into_iter().chain(parts) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| RulesError::UnknownOption(part.to_string()))?;
            rules.set(name, value)?;
        }
        Ok(rules)
    }
}

/// A rule set or option that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Not `awale` or `abapa`.
    UnknownPreset(String),
    /// Not one of the [`RuleOption`]s.
    UnknownOption(String),
    /// The option exists but this value is not one of its values.
    BadValue {
        /// The option's name.
        option: String,
        /// The rejected value.
        value: String,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(p) => {
                write!(
                    f,
                    "unknown rules preset `{p}` (expected `awale` or `abapa`)"
                )
            }
            RulesError::UnknownOption(o) => {
                let names: Vec<&str> = RuleOption::ALL.iter().map(|o| o.name()).collect();
                write!(
                    f,
                    "unknown rule option `{o}` (expected one of {})",
                    names.join(", ")
                )
            }
            RulesError::BadValue { option, value } => {
                let expected = match option.parse::<RuleOption>() {
                    Ok(RuleOption::Target) => "off or a number from 1 to 48".to_string(),
                    Ok(o) => o.values().replace('|', ", "),
                    Err(_) => "another value".to_string(),
                };
                write!(
                    f,
                    "bad value `{value}` for rule option {option} (expected {expected})"
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table_of_rules_md() {
        assert_eq!(Rules::default(), Rules::AWALE);
        assert_eq!(Rules::AWALE.grand_slam, GrandSlam::Forbidden);
        assert_eq!(Rules::AWALE.repetition, Repetition::Nobody);
        assert_eq!(Rules::AWALE.target, None);
        assert_eq!(Rules::ABAPA.grand_slam, GrandSlam::NoCapture);
        assert_eq!(Rules::ABAPA.repetition, Repetition::OwnRow);
        assert_eq!(Rules::ABAPA.target, Some(25));
    }

    #[test]
    fn abapa_ends_at_25_and_at_24_all() {
        assert!(Rules::ABAPA.target_reached([25, 0]));
        assert!(Rules::ABAPA.target_reached([3, 25]));
        assert!(Rules::ABAPA.target_reached([24, 24]));
        assert!(!Rules::ABAPA.target_reached([24, 23]));
        assert!(!Rules::AWALE.target_reached([40, 0]));
    }

    #[test]
    fn parse_of_print_is_identity() {
        let mut all = Vec::new();
        for preset in Preset::ALL {
            for gs in [GrandSlam::Forbidden, GrandSlam::NoCapture] {
                for rep in [Repetition::Nobody, Repetition::OwnRow] {
                    for target in [None, Some(20), Some(25)] {
                        for direction in [Direction::CounterClockwise, Direction::Clockwise] {
                            for first in [
                                FirstPlayer::Side(Side::South),
                                FirstPlayer::Side(Side::North),
                                FirstPlayer::Random,
                            ] {
                                let mut r = preset.rules();
                                r.grand_slam = gs;
                                r.repetition = rep;
                                r.target = target;
                                r.direction = direction;
                                r.first = first;
                                all.push(r);
                            }
                        }
                    }
                }
            }
        }
        for r in all {
            let text = r.to_string();
            assert_eq!(text.parse::<Rules>(), Ok(r), "{text}");
        }
        assert_eq!(Rules::ABAPA.to_string(), "abapa");
        assert_eq!(Rules::AWALE.to_string(), "awale");
    }

    #[test]
    fn bad_options_are_named() {
        let e = "awale,target=99".parse::<Rules>().unwrap_err();
        assert!(e.to_string().contains("target"), "{e}");
        let e = "chess".parse::<Rules>().unwrap_err();
        assert!(e.to_string().contains("chess"), "{e}");
        let e = "awale,colour=red".parse::<Rules>().unwrap_err();
        assert!(e.to_string().contains("colour"), "{e}");
    }
}
