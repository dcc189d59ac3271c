//! Accounts: a lasting identity a player may take (a username and a
//! password), beside the guest identity of a browser cookie. An account
//! plays as a [`PlayerId`] of its own, so the games' seats and every check
//! of who may do what stay as they are for guests and accounts alike.
//! What the store keeps and what the service and the page see of one.

use serde::Serialize;

use crate::game::PlayerId;

/// What an account may do beyond playing, by rank: a player, a moderator
/// above players, an administrator above moderators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A player.
    Player,
    /// A moderator: reads the reports, mutes, removes chat lines, closes
    /// accounts, gives farmed rating points back; acts on players only.
    Moderator,
    /// An administrator: a moderator who also acts on moderators, and
    /// makes players moderators (or moderators players again).
    Admin,
}

impl Role {
    /// Its name, as stored and sent.
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// The role of a stored name (a name this program never wrote reads
    /// as a player: no rights by mistake).
    pub fn from_name(name: &str) -> Role {
        match name {
            "moderator" => Role::Moderator,
            "admin" => Role::Admin,
            _ => Role::Player,
        }
    }

    /// Whether it moderates (a moderator or an administrator).
    pub fn moderates(self) -> bool {
        self >= Role::Moderator
    }
}

/// A moderator's action, as the log keeps it: each one has its reverse
/// (close and reopen, mute and unmute, grant and revoke), a refund is
/// final (its game marked), a report dismissed is dealt with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModAction {
    /// An account closed: it no longer logs in, its sessions end.
    Close,
    /// A closed account opened again.
    Reopen,
    /// An account muted from chat.
    Mute,
    /// A muted account let chat again.
    Unmute,
    /// A rated game's points given back to both players, the game marked.
    Refund,
    /// A report dealt with.
    Dismiss,
    /// A player made a moderator (by an administrator).
    GrantModerator,
    /// A moderator made a player again (by an administrator).
    RevokeModerator,
    /// An account made an administrator (the command line only).
    GrantAdmin,
    /// An administrator made a player again (the command line only).
    RevokeAdmin,
}

impl ModAction {
    /// Every action.
    pub const ALL: [ModAction; 10] = [
        ModAction::Close,
        ModAction::Reopen,
        ModAction::Mute,
        ModAction::Unmute,
        ModAction::Refund,
        ModAction::Dismiss,
        ModAction::GrantModerator,
        ModAction::RevokeModerator,
        ModAction::GrantAdmin,
        ModAction::RevokeAdmin,
    ];

    /// Its name, as stored and sent.
    pub fn name(self) -> &'static str {
        match self {
            ModAction::Close => "close",
            ModAction::Reopen => "reopen",
            ModAction::Mute => "mute",
            ModAction::Unmute => "unmute",
            ModAction::Refund => "refund",
            ModAction::Dismiss => "dismiss",
            ModAction::GrantModerator => "grant_moderator",
            ModAction::RevokeModerator => "revoke_moderator",
            ModAction::GrantAdmin => "grant_admin",
            ModAction::RevokeAdmin => "revoke_admin",
        }
    }

    /// The action of a stored name, if it is one.
    pub fn from_name(name: &str) -> Option<ModAction> {
        ModAction::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// An action to log (and make, in the same transaction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewModAction {
    /// Who acts: an account's number, None for the server's command line.
    pub by: Option<i64>,
    /// What.
    pub action: ModAction,
    /// On which account, if any.
    pub target: Option<i64>,
    /// About which game (the store's number), if any.
    pub game: Option<i64>,
    /// About which report, if any.
    pub report: Option<i64>,
    /// Why, in the moderator's words (required).
    pub reason: String,
    /// When.
    pub at_ms: i64,
}

/// A moderator's action as the moderators read it in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoggedAction {
    /// Its number.
    pub id: i64,
    /// When.
    pub at_ms: i64,
    /// Who (a username; None: the server's command line).
    pub by: Option<String>,
    /// What.
    pub action: ModAction,
    /// On whom (a username), if anyone.
    pub target: Option<String>,
    /// About which game (its public id), if any.
    pub game: Option<String>,
    /// About which report, if any.
    pub report: Option<i64>,
    /// Why.
    pub reason: String,
}

/// One rated game's change of a player's rating, as the moderators see
/// it beside an unusual gain or a flagged pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GainGame {
    /// The game's public id.
    pub game: String,
    /// The player whose change this is (a username).
    pub player: String,
    /// The opponent (a username; empty when it is no account).
    pub opponent: String,
    /// The points it moved for `player` (rounded).
    pub points: i64,
    /// When it was rated.
    pub at_ms: i64,
    /// When a moderator gave its points back, if one did.
    pub refunded_ms: Option<i64>,
}

/// A player's gain over a window, with the games that made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingGain {
    /// The player (a username).
    pub username: String,
    /// The points gained over the window (rounded; refunded games aside).
    pub gain: i64,
    /// Its games in the window, newest first.
    pub games: Vec<GainGame>,
}

/// Two accounts seen at one place (an address, a device) whose rated
/// game was played casual: one record a pair, the two in one order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlaggedPair {
    /// The two players' names, as seated in the last game flagged.
    pub names: [String; 2],
    /// Their player ids, for the service (never shown).
    #[serde(skip)]
    pub players: [PlayerId; 2],
    /// When last flagged (milliseconds since 1970).
    pub at_ms: i64,
    /// Whether they shared an address (in any game flagged).
    pub address: bool,
    /// Whether they shared a device (in any game flagged).
    pub device: bool,
    /// The rated games between them played casual for it.
    pub times: i64,
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
    /// `player`, `moderator` or `admin`.
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
    /// When it was last used (kept to the minute: written at most once a
    /// minute), if ever.
    pub used_ms: Option<i64>,
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
