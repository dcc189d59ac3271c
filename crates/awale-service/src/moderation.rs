//! Moderation with ranks: who may act on whom, every action logged with
//! who, when and why, each one reversible (a closed account reopened, a
//! muted one let chat again, a rank revoked), and the refund of rating
//! points a farmed game moved. `docs/SECURITY.md`, "Moderation", says the
//! rules and their tests.
//!
//! The ranks: a player; a moderator above players; an administrator above
//! moderators. One acts only on an account of a lower rank, never on
//! oneself: a moderator on players, an administrator on players and
//! moderators. Only an administrator makes a player a moderator or a
//! moderator a player again; the first administrator is made on the
//! server's command line (`awale admin grant-admin NAME`), which holds
//! the store and is above every rank.

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::error::{Error, Kind};
use crate::game::clean_text;
use crate::games::Games;
use awale_model::account::{Account, FlaggedPair, Report, Role};
use awale_model::account::{GainGame, LoggedAction, ModAction, NewModAction, RatingGain};
use awale_model::Code;
use awale_store::ModerationStore;
use serde::Serialize;

/// Longest reason, in characters.
pub const MAX_REASON_CHARS: usize = 300;

/// Actions the moderator page shows of the log (the newest).
pub const LOG_SHOWN: usize = 100;

/// The window of the unusual gains: a day.
pub const GAINS_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// The least gain over [`GAINS_WINDOW_MS`] the page lists: 100 points
/// (a farmed series; a new player's first wins alone stay below it only
/// over a few games, so the list is read, not obeyed).
pub const MIN_GAIN: f64 = 100.0;

/// Gains listed at most.
pub const GAINS_SHOWN: usize = 20;

/// How far back the rated games of a flagged pair are listed: a week.
pub const PAIR_GAMES_WINDOW_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Flagged pairs shown at most (the newest).
pub const FLAGS_SHOWN: usize = 50;

/// Games one refund gives back at most.
pub const MAX_REFUND_GAMES: usize = 100;

fn not_moderator() -> Error {
    Error::forbidden(Code::NotModerator, "this is for moderators")
}

fn not_admin() -> Error {
    Error::forbidden(Code::NotAdmin, "only an administrator does this")
}

fn outranked() -> Error {
    Error::forbidden(
        Code::ModeratorRank,
        "one acts only on an account of a lower rank (a moderator on players, \
         an administrator on moderators too), never on oneself",
    )
}

fn already() -> Error {
    Error::conflict(Code::AlreadyDone, "this is so already")
}

/// Refuses `actor` unless they moderate (a moderator or an
/// administrator).
///
/// # Errors
///
/// `not_moderator`.
pub fn check_moderates(actor: &Account) -> Result<(), Error> {
    if actor.role.moderates() && actor.is_open() {
        Ok(())
    } else {
        Err(not_moderator())
    }
}

/// Refuses an action of `actor` on `other` unless `actor` moderates and
/// outranks `other` (a moderator acts on players, an administrator on
/// players and moderators; nobody on themselves or their equal).
///
/// # Errors
///
/// `not_moderator`, `moderator_rank`.
pub fn check_may_act_on(actor: &Account, other: &Account) -> Result<(), Error> {
    check_moderates(actor)?;
    if other.id == actor.id || other.role >= actor.role {
        return Err(outranked());
    }
    Ok(())
}

/// A moderator's reason, cleaned (turning marks and controls dropped).
///
/// # Errors
///
/// `reason_needed` when it is empty or longer than
/// [`MAX_REASON_CHARS`].
pub fn parse_reason(text: &str) -> Result<String, Error> {
    let reason = clean_text(text);
    if reason.is_empty() {
        return Err(Error::invalid(
            Code::ReasonNeeded,
            "say why: a moderator's action needs a reason",
        ));
    }
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(Error::invalid(
            Code::ReasonNeeded,
            format!("a reason takes at most {MAX_REASON_CHARS} characters"),
        )
        .because("length")
        .with("max", MAX_REASON_CHARS));
    }
    Ok(reason)
}

/// An account as the moderator page shows it: its state and the actions
/// that apply to it for the moderator who reads (none when they may not
/// act on it).
#[derive(Clone, Debug, Serialize)]
pub struct ModAccount {
    /// The username.
    pub username: String,
    /// Its rank.
    pub role: Role,
    /// Muted from chat.
    pub muted: bool,
    /// Closed by a moderator (its name no longer links to a player page).
    pub closed: bool,
    /// What the reader may do to it now: mute or unmute, close or reopen,
    /// and for an administrator, grant or revoke the moderator's rank.
    pub actions: Vec<ModAction>,
}

/// A flagged pair with the rated games they played together lately.
#[derive(Clone, Debug, Serialize)]
pub struct FlagView {
    /// The flag.
    #[serde(flatten)]
    pub flag: FlaggedPair,
    /// Their rated games together within [`PAIR_GAMES_WINDOW_MS`], seen
    /// from the first's side, newest first.
    pub games: Vec<GainGame>,
}

/// The moderator page: reports, flagged pairs, unusual gains, the
/// accounts they name with their state, and the log.
#[derive(Clone, Debug, Serialize)]
pub struct Desk {
    /// The reader's rank.
    pub you: Role,
    /// The last reports, open ones first.
    pub reports: Vec<Report>,
    /// The pairs flagged for playing rated from one place, newest first.
    pub flags: Vec<FlagView>,
    /// The largest gains of the last day, with their games.
    pub gains: Vec<RatingGain>,
    /// Each account named above (and the moderators, for an
    /// administrator), with its state and the actions that apply.
    pub accounts: Vec<ModAccount>,
    /// The last actions, newest first.
    pub log: Vec<LoggedAction>,
}

/// The moderators' work, over the accounts and the games.
pub struct Moderation {
    store: Arc<dyn ModerationStore>,
    accounts: Arc<Accounts>,
    games: Arc<Games>,
}

impl Moderation {
    /// Moderation of `accounts`' accounts and `games`' games, logged in
    /// `store`.
    pub fn new(
        store: Arc<dyn ModerationStore>,
        accounts: Arc<Accounts>,
        games: Arc<Games>,
    ) -> Moderation {
        Moderation {
            store,
            accounts,
            games,
        }
    }

    fn action(&self, actor: &Account, action: ModAction, reason: String) -> NewModAction {
        NewModAction {
            by: Some(actor.id),
            action,
            target: None,
            game: None,
            report: None,
            reason,
            at_ms: self.games.now_ms(),
        }
    }

    /// Makes `action` on `username` for `actor` (the rank checked first,
    /// then the reason).
    async fn on_account(
        &self,
        actor: &Account,
        username: &str,
        action: ModAction,
        reason: &str,
    ) -> Result<(), Error> {
        check_moderates(actor)?;
        let other = self.accounts.find(username).await?;
        if matches!(
            action,
            ModAction::GrantModerator | ModAction::RevokeModerator
        ) && actor.role != Role::Admin
        {
            return Err(not_admin());
        }
        check_may_act_on(actor, &other)?;
        let reason = parse_reason(reason)?;
        let made = self.store.moderate(NewModAction {
            target: Some(other.id),
            ..self.action(actor, action, reason)
        });
        if !made.await? {
            return Err(already());
        }
        self.accounts.forget_account(other.id);
        Ok(())
    }

    /// `actor` closes `username`'s account, for `reason`: its sessions end
    /// and it can no longer log in (until reopened).
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_account`, `moderator_rank` (oneself, an
    /// equal or a higher rank), `reason_needed`, `already_done`.
    pub async fn close(&self, actor: &Account, username: &str, reason: &str) -> Result<(), Error> {
        self.on_account(actor, username, ModAction::Close, reason)
            .await
    }

    /// `actor` opens `username`'s closed account again, for `reason`.
    ///
    /// # Errors
    ///
    /// As [`Moderation::close`].
    pub async fn reopen(&self, actor: &Account, username: &str, reason: &str) -> Result<(), Error> {
        self.on_account(actor, username, ModAction::Reopen, reason)
            .await
    }

    /// `actor` mutes `username` from chat (`muted`), or lets it chat
    /// again, for `reason`.
    ///
    /// # Errors
    ///
    /// As [`Moderation::close`].
    pub async fn mute(
        &self,
        actor: &Account,
        username: &str,
        muted: bool,
        reason: &str,
    ) -> Result<(), Error> {
        let action = if muted {
            ModAction::Mute
        } else {
            ModAction::Unmute
        };
        self.on_account(actor, username, action, reason).await
    }

    /// An administrator makes the player `username` a moderator, for
    /// `reason`.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `not_admin`, `no_such_account`, `moderator_rank`,
    /// `reason_needed`, `already_done` (not a player).
    pub async fn grant_moderator(
        &self,
        actor: &Account,
        username: &str,
        reason: &str,
    ) -> Result<(), Error> {
        self.on_account(actor, username, ModAction::GrantModerator, reason)
            .await
    }

    /// An administrator makes the moderator `username` a player again,
    /// for `reason`.
    ///
    /// # Errors
    ///
    /// As [`Moderation::grant_moderator`] (`already_done`: not a
    /// moderator).
    pub async fn revoke_moderator(
        &self,
        actor: &Account,
        username: &str,
        reason: &str,
    ) -> Result<(), Error> {
        self.on_account(actor, username, ModAction::RevokeModerator, reason)
            .await
    }

    /// `actor` marks report `id` dealt with, for `reason`.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `reason_needed`, `no_such_report` (or dealt with
    /// already).
    pub async fn dismiss(&self, actor: &Account, id: i64, reason: &str) -> Result<(), Error> {
        check_moderates(actor)?;
        let reason = parse_reason(reason)?;
        let made = self.store.moderate(NewModAction {
            report: Some(id),
            ..self.action(actor, ModAction::Dismiss, reason)
        });
        if !made.await? {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchReport,
                format!("no open report {id}"),
            ));
        }
        Ok(())
    }

    /// `actor` gives back the rating points each game of `games` (public
    /// ids) moved, to both its players, for `reason`; each game marked
    /// and logged. Both players must be accounts `actor` may act on. All
    /// are checked before any is refunded; how many were.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `reason_needed`, `not_refundable` (no game, or one
    /// that moved no points or was refunded already; with its `game`),
    /// `moderator_rank` (a player `actor` may not act on).
    pub async fn refund(
        &self,
        actor: &Account,
        games: &[String],
        reason: &str,
    ) -> Result<usize, Error> {
        check_moderates(actor)?;
        let reason = parse_reason(reason)?;
        let not_refundable = |game: &str| {
            Error::conflict(
                Code::NotRefundable,
                "this game moved no rating points, or they were given back already",
            )
            .with("game", crate::error::shown(game))
        };
        if games.is_empty() || games.len() > MAX_REFUND_GAMES {
            return Err(not_refundable(""));
        }
        for game in games {
            let players = self.store.rated_players(game.clone()).await?;
            if players.len() != 2 {
                return Err(not_refundable(game));
            }
            for player in &players {
                match self.accounts.of_player(player).await? {
                    Some(other) => check_may_act_on(actor, &other)?,
                    None => return Err(not_refundable(game)),
                }
            }
        }
        let mut refunded = 0;
        for game in games {
            let action = self.action(actor, ModAction::Refund, reason.clone());
            if self.store.refund_game(game.clone(), action).await? {
                refunded += 1;
            }
        }
        if refunded == 0 {
            return Err(not_refundable(&games[0]));
        }
        Ok(refunded)
    }

    /// The log, newest first, for a moderator.
    ///
    /// # Errors
    ///
    /// `not_moderator`.
    pub async fn log(&self, actor: &Account) -> Result<Vec<LoggedAction>, Error> {
        check_moderates(actor)?;
        Ok(self.store.mod_log(LOG_SHOWN).await?)
    }

    /// The moderator page for `actor`.
    ///
    /// # Errors
    ///
    /// `not_moderator`, a storage failure.
    pub async fn desk(&self, actor: &Account) -> Result<Desk, Error> {
        check_moderates(actor)?;
        let now = self.games.now_ms();
        let reports = self.accounts.reports(actor).await?;
        let mut flags = Vec::new();
        for flag in self.games.sightings().flagged(FLAGS_SHOWN).await? {
            let [a, b] = flag.players.clone();
            let games = self
                .store
                .games_between(a, b, now - PAIR_GAMES_WINDOW_MS)
                .await?;
            flags.push(FlagView { flag, games });
        }
        let gains = self
            .store
            .rating_gains(now - GAINS_WINDOW_MS, MIN_GAIN, GAINS_SHOWN)
            .await?;
        let log = self.store.mod_log(LOG_SHOWN).await?;
        let mut names: Vec<String> = reports.iter().map(|r| r.reported.clone()).collect();
        for f in &flags {
            names.extend(f.flag.names.iter().cloned());
        }
        for g in &gains {
            names.push(g.username.clone());
            names.extend(g.games.iter().map(|x| x.opponent.clone()));
        }
        names.extend(log.iter().filter_map(|a| a.target.clone()));
        let mut keys = std::collections::HashSet::new();
        let mut accounts = Vec::new();
        for name in names {
            if name.is_empty() || !keys.insert(name.to_ascii_lowercase()) {
                continue;
            }
            if let Ok(account) = self.accounts.find(&name).await {
                accounts.push(mod_account(actor, &account));
            }
        }
        Ok(Desk {
            you: actor.role,
            reports,
            flags,
            gains,
            accounts,
            log,
        })
    }

    /// The state of `username` and what `actor` may do to it (the page's
    /// search box).
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_account`.
    pub async fn account(&self, actor: &Account, username: &str) -> Result<ModAccount, Error> {
        check_moderates(actor)?;
        let account = self.accounts.find(username).await?;
        Ok(mod_account(actor, &account))
    }
}

/// `account` as `actor` sees it on the moderator page: the actions that
/// apply now, none when `actor` may not act on it.
pub fn mod_account(actor: &Account, account: &Account) -> ModAccount {
    let mut actions = Vec::new();
    if check_may_act_on(actor, account).is_ok() {
        actions.push(if account.muted {
            ModAction::Unmute
        } else {
            ModAction::Mute
        });
        actions.push(if account.closed_ms.is_some() {
            ModAction::Reopen
        } else {
            ModAction::Close
        });
        if actor.role == Role::Admin {
            actions.push(if account.role == Role::Moderator {
                ModAction::RevokeModerator
            } else {
                ModAction::GrantModerator
            });
        }
    }
    ModAccount {
        username: account.username.clone(),
        role: account.role,
        muted: account.muted,
        closed: account.closed_ms.is_some(),
        actions,
    }
}
