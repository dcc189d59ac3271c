//! Accounts: a lasting identity a player may take (a username and a
//! password), beside the guest identity of a browser cookie. An account
//! plays as a [`PlayerId`] of its own, so the games' seats and every check
//! of who may do what stay as they are for guests and accounts alike.
//! What the store keeps and what the service and the page see of one.

use serde::Serialize;

use crate::game::PlayerId;

/// What an account may do beyond playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A player.
    Player,
    /// A moderator: reads the reports, mutes, removes chat lines, closes
    /// accounts.
    Moderator,
}

impl Role {
    /// Its name, as stored and sent.
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
        }
    }

    /// The role of a stored name (a name this program never wrote reads
    /// as a player: no rights by mistake).
    pub fn from_name(name: &str) -> Role {
        match name {
            "moderator" => Role::Moderator,
            _ => Role::Player,
        }
    }
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its number.
    pub id: i64,
    /// The username as chosen (its case kept).
    pub username: String,
    /// The player it plays as (seats, lists of games).
    pub player: PlayerId,
    /// The password's argon2id hash, as a PHC string (empty once deleted).
    pub password_hash: String,
    /// When it was made (ms since 1970).
    pub created_ms: i64,
    /// Its role.
    pub role: Role,
    /// Kid mode: no chat, no free-text names shown.
    pub kid: bool,
    /// Muted by a moderator: it may not chat.
    pub muted: bool,
    /// A bot: it plays only through the API, with a token of the `bot:play`
    /// scope, never in people's quick pairing (an upgrade for good).
    pub bot: bool,
    /// When its owner deleted it, if they did.
    pub deleted_ms: Option<i64>,
    /// When a moderator closed it, if one did.
    pub closed_ms: Option<i64>,
}

impl Account {
    /// Whether it may still log in (not deleted, not closed).
    pub fn is_open(&self) -> bool {
        self.deleted_ms.is_none() && self.closed_ms.is_none()
    }

    /// What its owner (and the page) sees of it.
    pub fn view(&self) -> AccountView {
        AccountView {
            username: self.username.clone(),
            role: self.role,
            kid: self.kid,
            muted: self.muted,
            bot: self.bot,
            created_ms: self.created_ms,
        }
    }
}

/// What the page sees of the account it is logged in to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccountView {
    /// The username.
    pub username: String,
    /// `player` or `moderator`.
    pub role: Role,
    /// Kid mode.
    pub kid: bool,
    /// Muted from chat.
    pub muted: bool,
    /// A bot account.
    pub bot: bool,
    /// When it was made.
    pub created_ms: i64,
}

/// A personal API token as stored: only its digest is kept (the token is
/// shown once, when made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiToken {
    /// The id its owner names it by (to revoke it), never the secret.
    pub public_id: String,
    /// Its owner's account.
    pub account_id: i64,
    /// The secret's digest.
    pub digest: String,
    /// The name its owner gave it.
    pub name: String,
    /// Its scopes, space-separated (`bot:play`, `board:play`, `read`).
    pub scopes: String,
    /// When it was made.
    pub created_ms: i64,
    /// When it was revoked, if it was.
    pub revoked_ms: Option<i64>,
}

/// A report of a player by another, for the moderators.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Its number.
    pub id: i64,
    /// Who reported (a username).
    pub reporter: String,
    /// Who is reported (a username).
    pub reported: String,
    /// The game it is about, if any: its public id (the store's number of
    /// a game is never shown).
    pub game: Option<String>,
    /// Why, as a code (`cheating`, `insults`, `spam`, `name`, `other`).
    pub reason: String,
    /// The reporter's words, if any.
    pub text: String,
    /// When it was made.
    pub created_ms: i64,
    /// When a moderator dealt with it.
    pub resolved_ms: Option<i64>,
    /// Who did (a username).
    pub resolved_by: Option<String>,
}

/// A direct challenge: one player asks another (by their page) for a game
/// that only the other may accept or decline; its maker may withdraw it
/// while it waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its number (0 before it is stored).
    pub id: i64,
    /// Who challenges.
    pub from: PlayerId,
    /// Their name as the game will show it.
    pub from_name: String,
    /// Who is challenged (an account's player).
    pub to: PlayerId,
    /// Their username.
    pub to_name: String,
    /// The clock: initial time and increment (ms); None: no clock.
    pub clock: Option<(i64, i64)>,
    /// Rated (between two accounts) or casual.
    pub rated: bool,
    /// The challenger's side: `S`, `N`, or `R` (drawn when accepted).
    pub colour: char,
    /// When it was made.
    pub created_ms: i64,
    /// `open`, `accepted`, `declined` or `withdrawn`.
    pub state: String,
    /// The game made when it was accepted (its public id).
    pub game: Option<String>,
    /// When it was accepted, declined or withdrawn.
    pub settled_ms: Option<i64>,
}
