//! The records the stores give and the page sees, as JSON: a line of a
//! player's list of games, a page of it, a game of the lobby, a chat
//! line, a player's results, rating history and played games, a
//! leaderboard's line. The stores fill them (`awale-store`, either store);
//! their JSON shape is decided here, beside the game's views.

use serde::Serialize;

use crate::view;

/// One line of the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The game's id in the store (not shown).
    #[serde(skip)]
    pub id: i64,
    /// The game's public id.
    #[serde(rename = "id")]
    pub public_id: String,
    /// When it was created (milliseconds since 1970).
    pub created_ms: i64,
    /// Its date: when it ended, or while it goes on when it last changed,
    /// to the minute.
    pub updated_ms: i64,
    /// `computer`, `humans` or `online`.
    pub mode: String,
    /// The person's side against the computer (`S` or `N`).
    pub human: Option<String>,
    /// The computer's level.
    pub level: Option<u8>,
    /// The rules.
    #[serde(flatten)]
    pub rules: StoredRules,
    /// Moves played.
    pub plies: i64,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on (or aborted).
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// The nicknames of an online game's players (South, North).
    pub names: [Option<String>; 2],
    /// Which seats are bot accounts' (South, North): the page marks their
    /// names BOT.
    pub bots: [bool; 2],
    /// A game over days (its clock a time per move).
    pub per_move: bool,
    /// The tournament it was played in (its number), if any.
    pub tournament: Option<i64>,
    /// The side of the player whose list it is (`S` or `N`; South when
    /// they hold both seats, as on one screen).
    pub you: Option<String>,
}

/// Rules as stored, with their options (read once from their column).
#[derive(Clone, Debug, Serialize)]
pub struct StoredRules {
    /// The rules, as `awale,target=20`.
    pub rules: String,
    /// The same, option by option (None if the stored text is unreadable).
    pub rules_view: Option<view::RulesView>,
}

impl StoredRules {
    /// The rules as stored, read option by option.
    pub fn from_text(rules: String) -> StoredRules {
        let rules_view = rules
            .parse::<awale_core::Rules>()
            .ok()
            .map(|r| view::RulesView::of(&r));
        StoredRules { rules, rules_view }
    }
}

/// A page of the list of games, newest first.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The games.
    pub games: Vec<Summary>,
    /// Where the next page starts, if there is one (give it as `before`).
    pub next: Option<String>,
}

/// An online game as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct LobbyGame {
    /// The game's id in the store (not shown).
    #[serde(skip)]
    pub id: i64,
    /// The game's public id.
    #[serde(rename = "id")]
    pub public_id: String,
    /// The rules.
    #[serde(flatten)]
    pub rules: StoredRules,
    /// Initial time and increment, when the game has a clock.
    pub clock: Option<[i64; 2]>,
    /// A game over days: the clock's time is given again at each move.
    pub per_move: bool,
    /// The nicknames (South, North); None for a free seat.
    pub names: [Option<String>; 2],
    /// Moves played.
    pub plies: i64,
    /// When it was offered.
    pub created_ms: i64,
    /// The start diagram, when it is not the rules' own start (a study
    /// position: the one who accepts sees what they accept).
    pub start: Option<String>,
    /// Rated (between two accounts: its names are usernames) or casual.
    pub rated: bool,
    /// A rated game's players' ratings now in its speed (South, North),
    /// rounded; None for a casual game or a player not rated yet.
    pub ratings: [Option<i32>; 2],
    /// A seek's rating range (± around its maker's rating), if it has one.
    pub rating_range: Option<i64>,
    /// Which seats are open accounts' (South, North): their names link
    /// to their pages; a guest's does not.
    pub accounts: [bool; 2],
    /// Which seats are bot accounts' (South, North): the page marks their
    /// names BOT.
    pub bots: [bool; 2],
}

/// A chat message.
#[derive(Clone, Debug, Serialize)]
pub struct ChatLine {
    /// Its number, increasing.
    pub id: i64,
    /// `players` or `public`.
    pub room: &'static str,
    /// When it was sent.
    pub at_ms: i64,
    /// The sender's side, for a player; None for a spectator.
    pub side: Option<char>,
    /// The sender's nickname (empty for a guest without one).
    pub name: String,
    /// The text, as typed (shown as text, never as HTML).
    pub text: String,
    /// The guest number of a sender without a nickname, which the page
    /// words in its language ("Invité 4821", "Guest 4821").
    pub guest: Option<u32>,
}

/// A player's results in finished online games (aborted ones left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Results {
    /// Games won.
    pub wins: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games lost.
    pub losses: i64,
    /// Of these, rated.
    pub rated: i64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leader {
    /// The account's username.
    pub username: String,
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Rated games in this speed in all.
    pub games: i64,
}

/// A rated game of a bots' pool, as the engine ladder lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolGame {
    /// The game's public id.
    pub id: String,
    /// South's and North's usernames.
    pub names: [String; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended (`starvation`, `time`...), when known.
    pub reason: Option<String>,
    /// When it was rated (ms since 1970).
    pub at_ms: i64,
    /// South's and North's rating change, rounded (`+12`).
    pub changes: [i64; 2],
}

/// One point of a rating graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When the game ended (ms since 1970).
    pub at_ms: i64,
    /// The rating after it, rounded.
    pub rating: i64,
    /// The game's public id.
    pub game: String,
}

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Outcome {
    /// `win`, `draw`, `loss`.
    pub fn from_name(name: &str) -> Option<Outcome> {
        match name {
            "win" => Some(Outcome::Win),
            "draw" => Some(Outcome::Draw),
            "loss" => Some(Outcome::Loss),
            _ => None,
        }
    }

    /// `win`, `draw`, `loss`: the name [`Outcome::from_name`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// One finished online game in a player's list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedGame {
    /// The game's public id.
    pub id: String,
    /// When it ended.
    pub updated_ms: i64,
    /// The player's side, `S` or `N`.
    pub side: char,
    /// The nicknames (South, North).
    pub names: [Option<String>; 2],
    /// The opponent's username, when they play with an open account (a
    /// closed or deleted account's page is gone: its name is no link).
    pub opponent: Option<String>,
    /// The opponent's account is a bot's: the page marks the name BOT.
    pub opponent_bot: bool,
    /// Its result from the player's side.
    pub outcome: Outcome,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// Rated or casual.
    pub rated: bool,
    /// Its speed.
    pub speed: Option<String>,
    /// Moves played.
    pub plies: i64,
    /// The player's rating change, when rated.
    pub change: Option<i64>,
    /// Its clock: `clock` (minutes and increment), `per_move` (days per
    /// move) or `none` (no clock: a game without a time limit, of the
    /// correspondence speed for ratings but not over days).
    pub clock: &'static str,
}
