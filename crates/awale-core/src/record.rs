//! Game records in the PGN-like notation of Oware programs ("OGN"):
//!
//! ```text
//! [Event "Club evening"]
//! [South "Awa"]
//! [North "Kofi"]
//! [Result "1-0"]
//! [Variant "awale"]
//!
//! 1. F f 2. A a+2 {a first capture} 3. B ... 1-0
//! ```
//!
//! `FEN` holds a start diagram when the game does not start from the start
//! position. `1-0` means South won, `0-1` North, `1/2-1/2` a draw, `*` an
//! unfinished game.

use std::fmt;
use std::str::FromStr;

use crate::{
    result_winner, EndReason, Game, GameError, Move, NotationError, Position, Rules, RulesError,
    Side,
};

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// The capture written after it (`a+2`), if any was written.
    pub captured: Option<u8>,
    /// A comment written after the move.
    pub comment: Option<String>,
}

/// A game record: tags, moves and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tags in the order written, e.g. `("South", "Awa")`.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// What is wrong at one place of a record's text, as data: front ends
/// word it in their language ([`Syntax::name`] and the fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// A word that starts with a digit is neither `12.` nor a result.
    NotANumber {
        /// The word.
        word: String,
    },
    /// A move number that does not go up: the previous game's result is
    /// missing.
    NumberGoesBack {
        /// The number.
        number: u64,
        /// The number before it.
        after: u64,
    },
    /// `+N` after a move is not a number of seeds.
    BadCapture {
        /// What follows the `+`.
        written: String,
        /// The move.
        mv: Move,
    },
    /// A letter or digit right after a move.
    NoSpace {
        /// The character.
        found: char,
        /// The move.
        mv: Move,
    },
    /// A character that starts nothing here.
    Unexpected {
        /// The character.
        found: char,
    },
    /// A comment longer than the longest accepted.
    CommentTooLong,
    /// A `{` without its `}`.
    CommentNotClosed,
    /// A tag name longer than the longest accepted.
    TagNameTooLong,
    /// `[` not followed by a name.
    TagWithoutName,
    /// A tag's value without its double quotes.
    TagValueNotQuoted {
        /// The tag.
        tag: String,
    },
    /// The text ends inside a tag.
    TagNotFinished {
        /// The tag.
        tag: String,
    },
    /// A tag's value reaches the end of its line.
    TagValueNotClosed {
        /// The tag.
        tag: String,
    },
    /// A tag's value longer than the longest accepted.
    TagValueTooLong {
        /// The tag.
        tag: String,
    },
    /// Something else than `]` after a tag's value.
    TagNotClosed {
        /// The tag.
        tag: String,
        /// What came instead, if anything.
        found: Option<char>,
    },
    /// One record was expected.
    NotOneRecord {
        /// How many the text holds.
        found: usize,
    },
}

impl Syntax {
    /// The mistake's name in JSON: `not_a_number`, `number_goes_back`,
    /// `bad_capture`, `no_space`, `unexpected`, `comment_too_long`,
    /// `comment_not_closed`, `tag_name_too_long`, `tag_without_name`,
    /// `tag_value_not_quoted`, `tag_not_finished`, `tag_value_not_closed`,
    /// `tag_value_too_long`, `tag_not_closed`, `not_one_record`.
    pub fn name(&self) -> &'static str {
        match self {
            Syntax::NotANumber { .. } => "not_a_number",
            Syntax::NumberGoesBack { .. } => "number_goes_back",
            Syntax::BadCapture { .. } => "bad_capture",
            Syntax::NoSpace { .. } => "no_space",
            Syntax::Unexpected { .. } => "unexpected",
            Syntax::CommentTooLong => "comment_too_long",
            Syntax::CommentNotClosed => "comment_not_closed",
            Syntax::TagNameTooLong => "tag_name_too_long",
            Syntax::TagWithoutName => "tag_without_name",
            Syntax::TagValueNotQuoted { .. } => "tag_value_not_quoted",
            Syntax::TagNotFinished { .. } => "tag_not_finished",
            Syntax::TagValueNotClosed { .. } => "tag_value_not_closed",
            Syntax::TagValueTooLong { .. } => "tag_value_too_long",
            Syntax::TagNotClosed { .. } => "tag_not_closed",
            Syntax::NotOneRecord { .. } => "not_one_record",
        }
    }
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Syntax::NotANumber { word } => {
                write!(f, "`{word}` is neither a move number nor a result")
            }
            Syntax::NumberGoesBack { number, after } => write!(
                f,
                "move number {number} after {after}: end each game with its result \
                 (1-0, 0-1, 1/2-1/2 or *)"
            ),
            Syntax::BadCapture { written, mv } => {
                write!(
                    f,
                    "`+{written}` after {mv} is not a number of seeds captured"
                )
            }
            Syntax::NoSpace { found, mv } => {
                write!(
                    f,
                    "`{found}` after move {mv}: moves are separated by spaces"
                )
            }
            Syntax::Unexpected { found } => {
                write!(
                    f,
                    "unexpected `{found}` (moves are A-F for South, a-f for North)"
                )
            }
            Syntax::CommentTooLong => f.write_str("comment too long"),
            Syntax::CommentNotClosed => f.write_str("comment `{` is never closed by `}`"),
            Syntax::TagNameTooLong => f.write_str("tag name too long"),
            Syntax::TagWithoutName => f.write_str("a tag starts with its name: [Name \"value\"]"),
            Syntax::TagValueNotQuoted { tag } => {
                write!(f, "the value of tag {tag} must be in double quotes")
            }
            Syntax::TagNotFinished { tag } => write!(f, "tag {tag} is not finished"),
            Syntax::TagValueNotClosed { tag } => {
                write!(f, "the value of tag {tag} has no closing quote")
            }
            Syntax::TagValueTooLong { tag } => write!(f, "the value of tag {tag} is too long"),
            Syntax::TagNotClosed {
                tag,
                found: Some(c),
            } => write!(f, "expected `]` to close tag {tag}, found `{c}`"),
            Syntax::TagNotClosed { tag, found: None } => {
                write!(f, "tag {tag} is not closed by `]`")
            }
            Syntax::NotOneRecord { found } => write!(f, "expected one game record, found {found}"),
        }
    }
}

/// A record that could not be read or does not make a legal game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not in the record notation here.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong.
        error: Syntax,
    },
    /// The `Variant` tag names no rules.
    Variant(RulesError),
    /// The `FEN` tag is not a diagram.
    Fen(NotationError),
    /// Move number `ply` (1-based) cannot be played.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it cannot be played.
        error: GameError,
    },
    /// The capture written after a move is not what the move captures.
    WrongCapture {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
        /// What the record says.
        written: u8,
        /// What the move captures.
        actual: u8,
    },
    /// The `Result` tag and the result written after the moves differ.
    ResultTag {
        /// The tag's.
        tag: String,
        /// The one after the moves.
        written: String,
    },
    /// The result written is not where the moves lead: they end the game
    /// otherwise, or leave it going on (`*`) with no `Termination` tag to
    /// say how it ended.
    WrongResult {
        /// The record's result.
        written: String,
        /// The result of the moves (`*`: the game goes on).
        played: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax {
                line,
                column,
                error,
            } => write!(f, "line {line}, column {column}: {error}"),
            RecordError::Variant(e) => write!(f, "Variant tag: {e}"),
            RecordError::Fen(e) => write!(f, "FEN tag: {e}"),
            RecordError::Illegal { ply, mv, error } => write!(f, "ply {ply} ({mv}): {error}"),
            RecordError::WrongCapture {
                ply,
                mv,
                written,
                actual,
            } => write!(
                f,
                "ply {ply}: the record says {mv}+{written}, but {mv} captures {actual}"
            ),
            RecordError::ResultTag { tag, written } => write!(
                f,
                "the Result tag says {tag}, but the moves end with {written}"
            ),
            RecordError::WrongResult { written, played } if played == "*" => write!(
                f,
                "the record says {written}, but the game is not over after its moves \
                 (a Termination tag says how it ended otherwise)"
            ),
            RecordError::WrongResult { written, played } => write!(
                f,
                "the record says {written}, but its moves end the game {played}"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it was there already.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The rules named by the `Variant` tag (`awale` when there is none).
    ///
    /// # Errors
    ///
    /// [`RecordError::Variant`] when the tag names no rules.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        match self.tag("Variant") {
            None => Ok(Rules::AWALE),
            Some(v) => v.parse().map_err(RecordError::Variant),
        }
    }

    /// The start position: the `FEN` tag, or the start position with the
    /// side of the first move to move.
    ///
    /// # Errors
    ///
    /// [`RecordError::Fen`] when the tag is not a diagram.
    pub fn start(&self) -> Result<Position, RecordError> {
        match self.tag("FEN") {
            Some(fen) => fen.parse().map_err(RecordError::Fen),
            None => {
                let first = self.moves.first().map_or(Side::South, |m| m.mv.side());
                Ok(Position::start(first))
            }
        }
    }

    /// Why the game ended, as its `Termination` tag says, when that names
    /// one of the rules' reasons ([`EndReason::name`]).
    pub fn termination(&self) -> Option<EndReason> {
        self.tag("Termination").and_then(EndReason::from_name)
    }

    /// Replays the record as a game, checking every move and every capture
    /// written. A `Termination` tag of `resignation` makes the side to move
    /// at the end resign, so that the game ends as the record says.
    ///
    /// # Errors
    ///
    /// The first tag, move or capture that is wrong.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let mut game = Game::from_position(self.rules()?, self.start()?);
        for (i, rm) in self.moves.iter().enumerate() {
            let captured = game.play(rm.mv).map_err(|error| RecordError::Illegal {
                ply: i + 1,
                mv: rm.mv,
                error,
            })?;
            if let Some(written) = rm.captured {
                if written != captured {
                    return Err(RecordError::WrongCapture {
                        ply: i + 1,
                        mv: rm.mv,
                        written,
                        actual: captured,
                    });
                }
            }
        }
        if game.end().is_none() && self.termination() == Some(EndReason::Resignation) {
            let loser = result_winner(&self.result).flatten().map(Side::opponent);
            let _ = game.resign(loser.unwrap_or(game.position().to_move()));
        }
        self.check_result(&game)?;
        Ok(game)
    }

    /// Checks that the record's result is the one its moves reach: the
    /// `Result` tag agrees with the result after the moves, and a game the
    /// moves end ends as written. A game the moves leave going on may have
    /// a decided result only with a `Termination` tag (time, abandon,
    /// adjudication): otherwise the result would be silently lost.
    fn check_result(&self, game: &Game) -> Result<(), RecordError> {
        let written = if self.result.is_empty() {
            "*"
        } else {
            &self.result
        };
        if let Some(tag) = self.tag("Result").filter(|&t| t != written) {
            return Err(RecordError::ResultTag {
                tag: tag.to_string(),
                written: written.to_string(),
            });
        }
        let played = game.outcome().map_or("*", |o| o.result_text());
        let explained = played == "*" && self.tag("Termination").is_some();
        if written != played && written != "*" && !explained {
            return Err(RecordError::WrongResult {
                written: written.to_string(),
                played: played.to_string(),
            });
        }
        Ok(())
    }

    /// The record of a game, with the `Variant`, `FEN` (when not the start
    /// position), `Result` and `Termination` tags filled in, after `tags`.
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> Record {
        let mut record = Record {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Record::default()
        };
        let outcome = game.outcome();
        record.result = outcome.map_or("*", |o| o.result_text()).to_string();
        record.set_tag("Result", record.result.clone());
        record.set_tag("Variant", game.rules().to_string());
        let start = game.start();
        if start != Position::start(start.to_move()) {
            record.set_tag("FEN", start.to_string());
        } else if game.plies().is_empty() && start.to_move() == Side::North {
            // With no move to show who starts, the diagram says it.
            record.set_tag("FEN", start.to_string());
        }
        if let Some(o) = outcome {
            record.set_tag("Termination", o.reason.name());
        }
        record.moves = game
            .plies()
            .iter()
            .map(|p| RecordMove {
                mv: p.mv,
                captured: (p.captured > 0).then_some(p.captured),
                comment: None,
            })
            .collect();
        record
    }
}

/// The `Date` tag of a record for a time given in seconds since 1970-01-01
/// (UTC): `2026.11.29`.
///
/// ```
/// assert_eq!(awale_core::record_date(0), "1970.01.01");
/// assert_eq!(awale_core::record_date(1_796_083_200), "2026.12.01");
/// ```
pub fn record_date(unix_seconds: i64) -> String {
    // Days to the civil date (Howard Hinnant's algorithm).
    let z = unix_seconds.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn write_tag_value(f: &mut fmt::Formatter<'_>, value: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in value.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' | '\r' => f.write_str(" ")?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            write!(f, "[{k} ")?;
            write_tag_value(f, v)?;
            writeln!(f, "]")?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        let mut number = 1;
        let mut after_comment = false;
        for (i, rm) in self.moves.iter().enumerate() {
            // A move number and its move are one token: a line never
            // breaks between them.
            let mut token = String::new();
            if rm.mv.side() == Side::South {
                if i > 0 {
                    number += 1;
                }
                token = format!("{number}. ");
            } else if i == 0 || after_comment {
                token = format!("{number}... ");
            }
            token.push_str(&rm.mv.to_string());
            if let Some(c) = rm.captured {
                token.push_str(&format!("+{c}"));
            }
            tokens.push(token);
            after_comment = false;
            if let Some(c) = &rm.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
                after_comment = true;
            }
        }
        tokens.push(if self.result.is_empty() {
            "*".to_string()
        } else {
            self.result.clone()
        });
        let mut width = 0;
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                if width + 1 + t.len() > 79 {
                    writeln!(f)?;
                    width = 0;
                } else {
                    f.write_str(" ")?;
                    width += 1;
                }
            }
            f.write_str(t)?;
            width += t.len();
        }
        writeln!(f)
    }
}

/// A comment cannot hold `}`: it would end it.
fn clean_comment(c: &str) -> String {
    c.replace('}', ")")
}

impl FromStr for Record {
    type Err = RecordError;

    /// Reads exactly one record.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut records = parse_records(s)?;
        match records.len() {
            1 => Ok(records.remove(0)),
            n => Err(RecordError::Syntax {
                line: 1,
                column: 1,
                error: Syntax::NotOneRecord { found: n },
            }),
        }
    }
}

/// Reads every record in `text`: games follow each other, each starting with
/// its tags or ending with its result.
///
/// # Errors
///
/// [`RecordError::Syntax`] with the line and column of the first problem.
///
/// ```
/// use awale_core::parse_records;
/// let games = parse_records("[Result \"*\"]\n1. F f 2. A a *\n\n1. B b *").unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].moves.len(), 4);
/// ```
pub fn parse_records(text: &str) -> Result<Vec<Record>, RecordError> {
    Parser::new(text).records()
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
}

/// Longest tag name, tag value or comment accepted: records come from files
/// and the network.
const MAX_FIELD: usize = 10_000;

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            chars: text.char_indices().peekable(),
            text,
        }
    }

    fn error(&self, at: usize, error: Syntax) -> RecordError {
        // Errors are rare: count lines and columns from the start.
        let before = &self.text[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        RecordError::Syntax {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            error,
        }
    }

    fn peek(&mut self) -> Option<(usize, char)> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<(usize, char)> {
        self.chars.next()
    }

    fn skip_space(&mut self) {
        while let Some((_, c)) = self.peek() {
            if c == ';' {
                while let Some((_, c)) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn records(mut self) -> Result<Vec<Record>, RecordError> {
        let mut records = Vec::new();
        loop {
            self.skip_space();
            if self.peek().is_none() {
                return Ok(records);
            }
            records.push(self.record()?);
        }
    }

    fn record(&mut self) -> Result<Record, RecordError> {
        let mut record = Record::default();
        loop {
            self.skip_space();
            match self.peek() {
                Some((_, '[')) => {
                    let (k, v) = self.tag()?;
                    record.tags.push((k, v));
                }
                _ => break,
            }
        }
        let mut tag_result = record.tag("Result").map(str::to_string);
        // Move numbers go up: a `1.` after `1.` or `2.` starts the next
        // game, and the result that should end this one is missing. Only
        // `N...` (North's move, after a comment) may restate a number.
        let mut last_number = 0u64;
        loop {
            self.skip_space();
            let Some((at, c)) = self.peek() else {
                break;
            };
            match c {
                '[' => break,
                '{' => {
                    let comment = self.comment()?;
                    match record.moves.last_mut() {
                        Some(m) => m.comment = Some(comment),
                        None => record.intro = Some(comment),
                    }
                }
                '*' => {
                    self.bump();
                    record.result = "*".to_string();
                    break;
                }
                '0'..='9' => {
                    let word = self.word();
                    match word.as_str() {
                        "1-0" | "0-1" | "1/2-1/2" => {
                            record.result = word;
                            break;
                        }
                        _ => {
                            let digits = word.trim_end_matches('.');
                            if digits.is_empty()
                                || digits == word
                                || !digits.chars().all(|c| c.is_ascii_digit())
                            {
                                return Err(self.error(at, Syntax::NotANumber { word }));
                            }
                            // At most 20 digits: u64 holds them, or says so.
                            let number = digits.parse::<u64>().unwrap_or(u64::MAX);
                            let restated = word.ends_with("...");
                            if number < last_number || (number == last_number && !restated) {
                                return Err(self.error(
                                    at,
                                    Syntax::NumberGoesBack {
                                        number,
                                        after: last_number,
                                    },
                                ));
                            }
                            last_number = number;
                        }
                    }
                }
                'A'..='F' | 'a'..='f' => {
                    self.bump();
                    let mv = Move::from_letter(c).expect("matched a move letter");
                    let mut captured = None;
                    if let Some((plus_at, '+')) = self.peek() {
                        self.bump();
                        let digits = self.word();
                        match digits.parse::<u8>() {
                            Ok(n) if n <= 48 && !digits.is_empty() => captured = Some(n),
                            _ => {
                                return Err(self.error(
                                    plus_at,
                                    Syntax::BadCapture {
                                        written: digits,
                                        mv,
                                    },
                                ))
                            }
                        }
                    }
                    if let Some((next_at, next)) = self.peek() {
                        if next.is_alphanumeric() {
                            return Err(self.error(next_at, Syntax::NoSpace { found: next, mv }));
                        }
                    }
                    record.moves.push(RecordMove {
                        mv,
                        captured,
                        comment: None,
                    });
                }
                other => return Err(self.error(at, Syntax::Unexpected { found: other })),
            }
        }
        if record.result.is_empty() {
            record.result = tag_result.take().unwrap_or_else(|| "*".to_string());
        }
        Ok(record)
    }

    /// A run of characters that can make a move number, a result or a count.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some((_, c)) = self.peek() {
            if c.is_ascii_digit() || matches!(c, '.' | '-' | '/') {
                word.push(c);
                self.bump();
                if word.len() > 20 {
                    break;
                }
            } else {
                break;
            }
        }
        word
    }

    fn comment(&mut self) -> Result<String, RecordError> {
        let (start, _) = self.bump().expect("peeked an opening brace");
        let mut comment = String::new();
        loop {
            match self.bump() {
                Some((_, '}')) => return Ok(comment.trim().to_string()),
                Some((_, c)) => {
                    if comment.len() >= MAX_FIELD {
                        return Err(self.error(start, Syntax::CommentTooLong));
                    }
                    comment.push(c);
                }
                None => return Err(self.error(start, Syntax::CommentNotClosed)),
            }
        }
    }

    fn tag(&mut self) -> Result<(String, String), RecordError> {
        let (start, _) = self.bump().expect("peeked an opening bracket");
        let mut name = String::new();
        while let Some((_, c)) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
                if name.len() > 100 {
                    return Err(self.error(start, Syntax::TagNameTooLong));
                }
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.error(start, Syntax::TagWithoutName));
        }
        while let Some((_, ' ' | '\t')) = self.peek() {
            self.bump();
        }
        match self.bump() {
            Some((_, '"')) => {}
            Some((at, _)) => return Err(self.error(at, Syntax::TagValueNotQuoted { tag: name })),
            None => return Err(self.error(start, Syntax::TagNotFinished { tag: name })),
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some((_, '"')) => break,
                Some((_, '\\')) => match self.bump() {
                    Some((_, c)) => value.push(c),
                    None => return Err(self.error(start, Syntax::TagNotFinished { tag: name })),
                },
                Some((at, '\n')) => {
                    return Err(self.error(at, Syntax::TagValueNotClosed { tag: name }))
                }
                Some((_, c)) => {
                    if value.len() >= MAX_FIELD {
                        return Err(self.error(start, Syntax::TagValueTooLong { tag: name }));
                    }
                    value.push(c);
                }
                None => return Err(self.error(start, Syntax::TagNotFinished { tag: name })),
            }
        }
        while let Some((_, ' ' | '\t')) = self.peek() {
            self.bump();
        }
        match self.bump() {
            Some((_, ']')) => Ok((name, value)),
            Some((at, c)) => Err(self.error(
                at,
                Syntax::TagNotClosed {
                    tag: name,
                    found: Some(c),
                },
            )),
            None => Err(self.error(
                start,
                Syntax::TagNotClosed {
                    tag: name,
                    found: None,
                },
            )),
        }
    }
}

#[cfg(test)]
mod hostile_input_tests {
    use super::*;

    #[test]
    fn an_unclosed_tag_is_an_error_naming_its_line() {
        let e = parse_records("[Event \"x\"\n1. F").unwrap_err();
        assert!(matches!(e, RecordError::Syntax { line: 1 | 2, .. }), "{e}");
    }

    #[test]
    fn no_prefix_or_byte_change_of_a_record_panics() {
        let text = "[Event \"Club\"]\n[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]\n\n1. F f {a comment}\n2. A a+2 ; rest\n*\n";
        let cuts = text.char_indices().map(|(i, _)| i).chain([text.len()]);
        for cut in cuts {
            let _ = parse_records(&text[..cut]);
            for replacement in ["", "\n", "[", "]", "\"", "{", "}", "é", "+", "9"] {
                let mut changed = text.to_string();
                changed.insert_str(cut, replacement);
                let _ = parse_records(&changed);
            }
        }
    }
}
