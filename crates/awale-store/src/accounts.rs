//! Accounts as the store keeps them, behind their own interface
//! ([`AccountStore`], beside [`crate::GameStore`]; no SQLite type in it, so
//! a PostgreSQL store fills it too): accounts, their sessions and recovery
//! codes (digests only), the guest a new account takes over, blocks,
//! reports and the moderators' actions. Each change is one transaction.
//! The rules (what a username may be, hashing, limits) are the service's.

use awale_model::account::{Account, ApiToken, Challenge, Report, Role};
use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::interface::Notice;
use crate::tx::{Backend, Tx};

/// A new account, made in one transaction with its first session and its
/// recovery codes.
#[derive(Clone, Debug)]
pub struct NewAccount {
    /// The username as chosen.
    pub username: String,
    /// The username folded (unique).
    pub key: String,
    /// The player it plays as (new).
    pub player: PlayerId,
    /// The password's argon2id hash.
    pub password_hash: String,
    /// Now.
    pub created_ms: i64,
    /// The recovery codes' digests.
    pub recovery: Vec<String>,
    /// The first session: its secret's digest and when it ends.
    pub session: (String, i64),
    /// The guest whose games, seats and name the account takes over.
    pub guest: Option<PlayerId>,
    /// Its name's confusable skeletons (Unicode TS #39), kept to find
    /// look-alike names by one indexed lookup.
    pub skeletons: Vec<String>,
}

/// Where the service keeps accounts, sessions, blocks and reports.
pub trait AccountStore: Send + Sync {
    /// Makes `account` (with its session and codes; taking over its guest's
    /// games, seats in them and uploads): the account, or None when its
    /// username (folded) is taken.
    fn create_account(&self, account: NewAccount) -> StoreFuture<'_, Option<Account>>;

    /// The account of a folded username (deleted and closed ones too).
    fn account_by_key(&self, key: String) -> StoreFuture<'_, Option<Account>>;

    /// Account `id`.
    fn account(&self, id: i64) -> StoreFuture<'_, Option<Account>>;

    /// The account that plays as `player`, if one does.
    fn account_of(&self, player: PlayerId) -> StoreFuture<'_, Option<Account>>;

    /// Adds a session (its secret's digest) to account `id`, ending at
    /// `expires_ms`.
    fn add_session(
        &self,
        id: i64,
        digest: String,
        created_ms: i64,
        expires_ms: i64,
    ) -> StoreFuture<'_, ()>;

    /// The open account a session's digest stands for, if the session has
    /// not ended by `now`.
    fn session(&self, digest: String, now: i64) -> StoreFuture<'_, Option<Account>>;

    /// Ends one session.
    fn end_session(&self, digest: String) -> StoreFuture<'_, ()>;

    /// Ends account `id`'s sessions, but `keep` (a digest); how many ended.
    fn end_sessions(&self, id: i64, keep: Option<String>) -> StoreFuture<'_, usize>;

    /// Sets account `id`'s password hash and ends its sessions but `keep`.
    fn set_password(&self, id: i64, hash: String, keep: Option<String>) -> StoreFuture<'_, ()>;

    /// Marks recovery code `digest` of account `id` used at `now`: false
    /// when it is not one of its codes, or was used already.
    fn use_recovery_code(&self, id: i64, digest: String, now: i64) -> StoreFuture<'_, bool>;

    /// Replaces account `id`'s recovery codes by these digests.
    fn set_recovery_codes(&self, id: i64, digests: Vec<String>) -> StoreFuture<'_, ()>;

    /// How many of account `id`'s recovery codes are still unused.
    fn recovery_codes_left(&self, id: i64) -> StoreFuture<'_, usize>;

    /// Deletes account `id` at `now`: no password, sessions, codes or
    /// blocks any more; its games stay, their seats named "" (a deleted
    /// player); its username stays taken.
    fn delete_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()>;

    /// Closes account `id` (a moderator's decision) at `now`: no log-in,
    /// no session; its games and name stay.
    fn close_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()>;

    /// Sets account `id`'s kid mode.
    fn set_kid(&self, id: i64, kid: bool) -> StoreFuture<'_, ()>;

    /// Sets account `id`'s role.
    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, ()>;

    /// Mutes account `id` from chat, or lets it speak again.
    fn set_muted(&self, id: i64, muted: bool) -> StoreFuture<'_, ()>;

    /// Account `blocker` blocks account `blocked` (again: no change).
    fn block(&self, blocker: i64, blocked: i64, now: i64) -> StoreFuture<'_, ()>;

    /// Account `blocker` no longer blocks `blocked`.
    fn unblock(&self, blocker: i64, blocked: i64) -> StoreFuture<'_, ()>;

    /// The usernames account `id` blocks.
    fn blocked_by(&self, id: i64) -> StoreFuture<'_, Vec<String>>;

    /// Whether either of two players' accounts blocks the other (guests
    /// block no one).
    fn blocks(&self, a: PlayerId, b: PlayerId) -> StoreFuture<'_, bool>;

    /// Stores a report: its id.
    fn add_report(&self, report: NewReport) -> StoreFuture<'_, i64>;

    /// The last `limit` reports, open ones first, newest first.
    fn reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>>;

    /// Marks report `id` dealt with by account `by`: false when there is
    /// no such open report.
    fn resolve_report(&self, id: i64, by: i64, now: i64) -> StoreFuture<'_, bool>;

    /// Removes chat line `line` of game `game`: false when there is none.
    fn remove_chat_line(&self, game: i64, line: i64) -> StoreFuture<'_, bool>;

    /// Stores a new direct challenge (its `id`, state and settlement are
    /// ignored: it is open): its number.
    fn add_challenge(&self, challenge: Challenge) -> StoreFuture<'_, i64>;

    /// Direct challenge `id`, in whatever state.
    fn challenge(&self, id: i64) -> StoreFuture<'_, Option<Challenge>>;

    /// The direct challenges `player` made or was sent that are open, or
    /// were settled at `since_ms` or later: newest first, at most `limit`.
    fn challenges(
        &self,
        player: PlayerId,
        since_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Challenge>>;

    /// Settles open challenge `id` as `state` (`accepted`, with the game
    /// made, `declined`, `withdrawn`): false when it was not open (settled
    /// already, or none), and nothing changes.
    fn settle_challenge(
        &self,
        id: i64,
        state: &'static str,
        game: Option<String>,
        now: i64,
    ) -> StoreFuture<'_, bool>;

    /// Makes account `id` a bot, for good.
    fn set_bot(&self, id: i64) -> StoreFuture<'_, ()>;

    /// Stores a new API token (its `revoked_ms` ignored).
    fn add_token(&self, token: ApiToken) -> StoreFuture<'_, ()>;

    /// Account `id`'s tokens, revoked ones too, newest first.
    fn tokens(&self, id: i64) -> StoreFuture<'_, Vec<ApiToken>>;

    /// The token of `digest`, not revoked, and its account, open.
    fn token(&self, digest: String) -> StoreFuture<'_, Option<(ApiToken, Account)>>;

    /// Notes that token `public_id` was used at `now`, unless it was
    /// noted less than [`TOKEN_USE_KEPT_MS`] before: whether it was
    /// written.
    fn token_used(&self, public_id: String, now: i64) -> StoreFuture<'_, bool>;

    /// Revokes account `id`'s token `public_id` at `now`: false when it
    /// has none such not revoked yet.
    fn revoke_token(&self, id: i64, public_id: String, now: i64) -> StoreFuture<'_, bool>;

    /// Keeps `skeletons` as account `id`'s (replacing what it had).
    fn set_skeletons(&self, id: i64, skeletons: Vec<String>) -> StoreFuture<'_, ()>;

    /// The accounts (usernames) one of whose skeletons is among
    /// `skeletons`.
    fn accounts_by_skeleton(&self, skeletons: Vec<String>) -> StoreFuture<'_, Vec<String>>;

    /// The accounts that have no skeleton kept yet (made before they
    /// were): number and username, `limit` at most.
    fn accounts_without_skeletons(&self, limit: usize) -> StoreFuture<'_, Vec<(i64, String)>>;
}

/// The columns [`challenge_row`] reads, in both stores.
pub(crate) const CHALLENGE_COLUMNS: &str = "id, from_player, from_name, to_player, to_name, \
     clock_initial_ms, clock_increment_ms, rated, colour, created_ms, state, game, settled_ms";

/// A direct challenge from a row of [`CHALLENGE_COLUMNS`], in either store.
pub(crate) fn challenge_row<R: Cells>(r: &R) -> Result<Challenge, R::Error> {
    let initial: Option<i64> = r.cell(5)?;
    let increment: Option<i64> = r.cell(6)?;
    let colour: String = r.cell(8)?;
    Ok(Challenge {
        id: r.cell(0)?,
        from: PlayerId(r.cell(1)?),
        from_name: r.cell(2)?,
        to: PlayerId(r.cell(3)?),
        to_name: r.cell(4)?,
        clock: initial.zip(increment),
        rated: r.cell(7)?,
        colour: colour.chars().next().unwrap_or('R'),
        created_ms: r.cell(9)?,
        state: r.cell(10)?,
        game: r.cell(11)?,
        settled_ms: r.cell(12)?,
    })
}

/// The columns [`account_row`] reads, in both stores.
pub(crate) const ACCOUNT_COLUMNS: &str =
    "a.id, a.username, a.player, a.password_hash, a.created_ms, \
     a.role, a.kid, a.muted, a.deleted_ms, a.closed_ms, a.bot";

/// The account of a row of [`ACCOUNT_COLUMNS`], in either store.
pub(crate) fn account_row<R: Cells>(r: &R) -> Result<Account, R::Error> {
    Ok(Account {
        id: r.cell(0)?,
        username: r.cell(1)?,
        player: PlayerId(r.cell(2)?),
        password_hash: r.cell(3)?,
        created_ms: r.cell(4)?,
        role: Role::from_name(&r.cell::<String>(5)?),
        kid: r.cell(6)?,
        muted: r.cell(7)?,
        deleted_ms: r.cell(8)?,
        closed_ms: r.cell(9)?,
        bot: r.cell(10)?,
    })
}

/// The columns [`token_row`] reads, in both stores.
pub(crate) const TOKEN_COLUMNS: &str =
    "t.public_id, t.account_id, t.digest, t.name, t.scopes, t.created_ms, t.revoked_ms, t.used_ms";

/// How often a token's last use is written at most (ms): once a minute,
/// so that a bot calling ten times a second does not write each time.
pub const TOKEN_USE_KEPT_MS: i64 = 60_000;

/// An API token of a row of [`TOKEN_COLUMNS`], in either store.
pub(crate) fn token_row<R: Cells>(r: &R) -> Result<ApiToken, R::Error> {
    Ok(ApiToken {
        public_id: r.cell(0)?,
        account_id: r.cell(1)?,
        digest: r.cell(2)?,
        name: r.cell(3)?,
        scopes: r.cell(4)?,
        created_ms: r.cell(5)?,
        revoked_ms: r.cell(6)?,
        used_ms: r.cell(7)?,
    })
}

/// Account `?1`'s tokens, revoked ones too, newest first.
pub(crate) fn tokens_query() -> String {
    format!("SELECT {TOKEN_COLUMNS} FROM api_tokens t WHERE t.account_id = ?1 ORDER BY t.id DESC")
}

/// The token of digest `?1` not revoked, with its account, open.
pub(crate) fn token_query() -> String {
    format!(
        "SELECT {TOKEN_COLUMNS}, {ACCOUNT_COLUMNS} FROM api_tokens t
         JOIN accounts a ON a.id = t.account_id
         WHERE t.digest = ?1 AND t.revoked_ms IS NULL
         AND a.deleted_ms IS NULL AND a.closed_ms IS NULL"
    )
}

/// A row of [`token_query`]: the token and its account.
pub(crate) fn token_and_account<R: Cells>(r: &R) -> Result<(ApiToken, Account), R::Error> {
    Ok((token_row(r)?, account_row(&Shifted(r, 8))?))
}

/// A row's cells from the `n`-th on.
struct Shifted<'r, R>(&'r R, usize);

impl<R: Cells> Cells for Shifted<'_, R> {
    type Error = R::Error;

    fn cell<T: crate::cells::Cell>(&self, i: usize) -> Result<T, R::Error> {
        self.0.cell(i + self.1)
    }
}

/// The account of session `?1` still valid at `?2`, open.
pub(crate) fn session_query() -> String {
    format!(
        "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id
         WHERE s.digest = ?1 AND s.expires_ms > ?2
         AND a.deleted_ms IS NULL AND a.closed_ms IS NULL"
    )
}

/// Player `?1`'s challenges, made or received, open or settled since `?2`,
/// newest first, `?3` at most.
pub(crate) fn challenges_query() -> String {
    format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges
         WHERE (from_player = ?1 OR to_player = ?1)
           AND (state = 'open' OR settled_ms >= ?2)
         ORDER BY id DESC LIMIT ?3"
    )
}

/// The names account `?1` blocks.
pub(crate) const BLOCKED_BY: &str = "SELECT a.username FROM blocks b
     JOIN accounts a ON a.id = b.blocked WHERE b.blocker = ?1 ORDER BY a.username_key";

/// Whether players `?1` and `?2` block each other, either way.
pub(crate) const BLOCKS: &str = "SELECT EXISTS (SELECT 1 FROM blocks k
       JOIN accounts x ON x.id = k.blocker JOIN accounts y ON y.id = k.blocked
       WHERE (x.player = ?1 AND y.player = ?2) OR (x.player = ?2 AND y.player = ?1))";

/// A report about to be stored ([`AccountStore::add_report`]).
#[derive(Clone, Debug)]
pub struct NewReport {
    /// Who reports (an account's id).
    pub reporter: i64,
    /// Who is reported (an account's id).
    pub reported: i64,
    /// The game it is about, if any (a game since gone is left out).
    pub game: Option<i64>,
    /// Why, as a code (`cheating`, `insults`, `spam`, `name`, `other`).
    pub reason: String,
    /// The reporter's words.
    pub text: String,
    /// When (ms since 1970).
    pub created_ms: i64,
}

/// Stores a report (reporter, reported, the game if it still exists,
/// reason, text, time): its id.
pub(crate) const ADD_REPORT: &str =
    "INSERT INTO reports (reporter, reported, game_id, reason, text, created_ms)
     VALUES (?1, ?2, (SELECT id FROM games WHERE id = ?3), ?4, ?5, ?6) RETURNING id";

/// Stores a challenge (who asks whom, with the names shown, the clock,
/// rated, the challenger's side, the time): its id.
pub(crate) const ADD_CHALLENGE: &str =
    "INSERT INTO challenges (from_player, from_name, to_player, to_name, clock_initial_ms,
        clock_increment_ms, rated, colour, created_ms)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id";

/// The last `?1` reports, those to look at first.
pub(crate) const REPORTS: &str = "SELECT r.id, a.username, b.username, g.public_id, r.reason,
        r.text, r.created_ms, r.resolved_ms, m.username
     FROM reports r JOIN accounts a ON a.id = r.reporter
     JOIN accounts b ON b.id = r.reported
     LEFT JOIN games g ON g.id = r.game_id
     LEFT JOIN accounts m ON m.id = r.resolved_by
     ORDER BY r.resolved_ms IS NOT NULL, r.id DESC LIMIT ?1";

/// A report from a row of [`REPORTS`], in either store.
pub(crate) fn report_row<R: Cells>(r: &R) -> Result<Report, R::Error> {
    Ok(Report {
        id: r.cell(0)?,
        reporter: r.cell(1)?,
        reported: r.cell(2)?,
        game: r.cell(3)?,
        reason: r.cell(4)?,
        text: r.cell(5)?,
        created_ms: r.cell(6)?,
        resolved_ms: r.cell(7)?,
        resolved_by: r.cell(8)?,
    })
}

/// Whether username key `?1` is taken.
pub(crate) const NAME_TAKEN: &str =
    "SELECT EXISTS (SELECT 1 FROM accounts WHERE username_key = ?1)";

/// Stores a new account ([`NewAccount::values`]): its id.
pub(crate) const ADD_ACCOUNT: &str =
    "INSERT INTO accounts (username, username_key, player, password_hash, created_ms)
     VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id";

/// Stores a session (its digest, the account, when made, when it ends).
const ADD_SESSION: &str = "INSERT INTO sessions (digest, account_id, created_ms, expires_ms)
     VALUES (?1, ?2, ?3, ?4)";

impl NewAccount {
    /// The values of [`ADD_ACCOUNT`], in its order.
    pub(crate) fn values(&self) -> [&dyn Value; 5] {
        [
            &self.username,
            &self.key,
            &self.player.0,
            &self.password_hash,
            &self.created_ms,
        ]
    }
}

/// A change of accounts both stores make statement for statement, in one
/// transaction: its statements, written with SQLite's numbered parameters,
/// each with its values.
pub(crate) struct Change(Vec<(&'static str, Vec<Box<dyn Value>>)>);

impl Change {
    /// A change of one statement.
    fn one(sql: &'static str, values: Vec<Box<dyn Value>>) -> Change {
        Change(vec![(sql, values)])
    }

    /// Its statements, each with its values.
    pub(crate) fn statements(&self) -> impl Iterator<Item = (&'static str, Vec<&dyn Value>)> {
        self.0
            .iter()
            .map(|(sql, values)| (*sql, values.iter().map(|v| &**v).collect()))
    }

    /// [`AccountStore::add_session`].
    pub(crate) fn add_session(id: i64, digest: String, created_ms: i64, expires_ms: i64) -> Change {
        Change::one(
            ADD_SESSION,
            vec![
                Box::new(digest),
                Box::new(id),
                Box::new(created_ms),
                Box::new(expires_ms),
            ],
        )
    }

    /// Account `id`'s rows beside its own, made with it from `new`: its
    /// recovery codes, first session and player, and its guest's uploads
    /// and nickname taken over (the guest's seats are each store's own).
    pub(crate) fn new_account(id: i64, new: &NewAccount) -> Change {
        let mut change = Change::recovery_codes(id, &new.recovery);
        let (digest, expires_ms) = &new.session;
        change
            .0
            .extend(Change::add_session(id, digest.clone(), new.created_ms, *expires_ms).0);
        // The account's player, and its guest's (made if it is not stored
        // yet), both named by the account.
        let player = |sql, player: &PlayerId| -> (&'static str, Vec<Box<dyn Value>>) {
            (
                sql,
                vec![
                    Box::new(player.0.clone()),
                    Box::new(new.username.clone()),
                    Box::new(new.created_ms),
                    Box::new(id),
                ],
            )
        };
        change.0.push(player(
            "INSERT INTO players (id, name, created_ms, account_id) VALUES (?1, ?2, ?3, ?4)",
            &new.player,
        ));
        if let Some(guest) = &new.guest {
            change.0.push((
                "UPDATE uploads SET player = ?2 WHERE player = ?1",
                vec![Box::new(guest.0.clone()), Box::new(new.player.0.clone())],
            ));
            change.0.push(player(
                "INSERT INTO players (id, name, created_ms, account_id) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (id) DO UPDATE SET account_id = ?4",
                guest,
            ));
        }
        change
    }

    /// Account `id`'s recovery codes `digests`, added.
    fn recovery_codes(id: i64, digests: &[String]) -> Change {
        let add = |digest: &String| -> (&'static str, Vec<Box<dyn Value>>) {
            (
                "INSERT INTO recovery_codes (account_id, digest) VALUES (?1, ?2)",
                vec![Box::new(id), Box::new(digest.clone())],
            )
        };
        Change(digests.iter().map(add).collect())
    }

    /// [`AccountStore::set_recovery_codes`].
    pub(crate) fn set_recovery_codes(id: i64, digests: &[String]) -> Change {
        let mut change = Change::one(
            "DELETE FROM recovery_codes WHERE account_id = ?1",
            vec![Box::new(id)],
        );
        change.0.extend(Change::recovery_codes(id, digests).0);
        change
    }

    /// [`AccountStore::end_session`].
    pub(crate) fn end_session(digest: String) -> Change {
        Change::one(
            "DELETE FROM sessions WHERE digest = ?1",
            vec![Box::new(digest)],
        )
    }

    /// [`AccountStore::end_sessions`].
    pub(crate) fn end_sessions(id: i64, keep: Option<String>) -> Change {
        Change::one(
            "DELETE FROM sessions WHERE account_id = ?1 AND digest IS DISTINCT FROM ?2",
            vec![Box::new(id), Box::new(keep)],
        )
    }

    /// [`AccountStore::set_password`].
    pub(crate) fn set_password(id: i64, hash: String, keep: Option<String>) -> Change {
        let mut change = Change::end_sessions(id, keep);
        change.0.push((
            "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
            vec![Box::new(id), Box::new(hash)],
        ));
        change
    }

    /// [`AccountStore::use_recovery_code`].
    pub(crate) fn use_recovery_code(id: i64, digest: String, now: i64) -> Change {
        Change::one(
            "UPDATE recovery_codes SET used_ms = ?3
                 WHERE account_id = ?1 AND digest = ?2 AND used_ms IS NULL",
            vec![Box::new(id), Box::new(digest), Box::new(now)],
        )
    }

    /// [`AccountStore::close_account`].
    pub(crate) fn close_account(id: i64, now: i64) -> Change {
        Change(vec![
            (
                "UPDATE accounts SET closed_ms = ?2 WHERE id = ?1 AND closed_ms IS NULL",
                vec![Box::new(id), Box::new(now)],
            ),
            (
                "DELETE FROM sessions WHERE account_id = ?1",
                vec![Box::new(id)],
            ),
        ])
    }

    /// [`AccountStore::set_kid`].
    pub(crate) fn set_kid(id: i64, kid: bool) -> Change {
        Change::one(
            "UPDATE accounts SET kid = ?2 WHERE id = ?1",
            vec![Box::new(id), Box::new(kid)],
        )
    }

    /// [`AccountStore::set_role`].
    pub(crate) fn set_role(id: i64, role: Role) -> Change {
        Change::one(
            "UPDATE accounts SET role = ?2 WHERE id = ?1",
            vec![Box::new(id), Box::new(role.name())],
        )
    }

    /// [`AccountStore::set_muted`].
    pub(crate) fn set_muted(id: i64, muted: bool) -> Change {
        Change::one(
            "UPDATE accounts SET muted = ?2 WHERE id = ?1",
            vec![Box::new(id), Box::new(muted)],
        )
    }

    /// [`AccountStore::block`].
    pub(crate) fn block(blocker: i64, blocked: i64, now: i64) -> Change {
        Change::one(
            "INSERT INTO blocks (blocker, blocked, created_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            vec![Box::new(blocker), Box::new(blocked), Box::new(now)],
        )
    }

    /// [`AccountStore::unblock`].
    pub(crate) fn unblock(blocker: i64, blocked: i64) -> Change {
        Change::one(
            "DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2",
            vec![Box::new(blocker), Box::new(blocked)],
        )
    }

    /// [`AccountStore::resolve_report`].
    pub(crate) fn resolve_report(id: i64, by: i64, now: i64) -> Change {
        Change::one(
            "UPDATE reports SET resolved_ms = ?3, resolved_by = ?2
                 WHERE id = ?1 AND resolved_ms IS NULL",
            vec![Box::new(id), Box::new(by), Box::new(now)],
        )
    }

    /// [`AccountStore::remove_chat_line`].
    pub(crate) fn remove_chat_line(game: i64, line: i64) -> Change {
        Change::one(
            "DELETE FROM chat WHERE game_id = ?1 AND id = ?2",
            vec![Box::new(game), Box::new(line)],
        )
    }

    /// [`AccountStore::set_bot`].
    pub(crate) fn set_bot(id: i64) -> Change {
        Change::one(
            "UPDATE accounts SET bot = ?2 WHERE id = ?1",
            vec![Box::new(id), Box::new(true)],
        )
    }

    /// [`AccountStore::add_token`].
    pub(crate) fn add_token(t: ApiToken) -> Change {
        Change::one(
            "INSERT INTO api_tokens (public_id, account_id, digest, name, scopes, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            vec![
                Box::new(t.public_id),
                Box::new(t.account_id),
                Box::new(t.digest),
                Box::new(t.name),
                Box::new(t.scopes),
                Box::new(t.created_ms),
            ],
        )
    }

    /// [`AccountStore::token_used`].
    pub(crate) fn token_used(public_id: String, now: i64) -> Change {
        Change::one(
            "UPDATE api_tokens SET used_ms = ?2
                 WHERE public_id = ?1 AND (used_ms IS NULL OR used_ms <= ?3)",
            vec![
                Box::new(public_id),
                Box::new(now),
                Box::new(now - TOKEN_USE_KEPT_MS),
            ],
        )
    }

    /// [`AccountStore::revoke_token`].
    pub(crate) fn revoke_token(id: i64, public_id: String, now: i64) -> Change {
        Change::one(
            "UPDATE api_tokens SET revoked_ms = ?3
                 WHERE account_id = ?1 AND public_id = ?2 AND revoked_ms IS NULL",
            vec![Box::new(id), Box::new(public_id), Box::new(now)],
        )
    }

    /// [`AccountStore::settle_challenge`]: challenge `id` settled as
    /// `state` (with `game`) at `now`, if still open.
    pub(crate) fn settle_challenge(
        id: i64,
        state: &'static str,
        game: Option<String>,
        now: i64,
    ) -> Change {
        Change::one(
            "UPDATE challenges SET state = ?2, game = ?3,
                 settled_ms = ?4 WHERE id = ?1 AND state = 'open'",
            vec![Box::new(id), Box::new(state), Box::new(game), Box::new(now)],
        )
    }
}

/// Makes `change`: how many rows it changed.
async fn apply<X: Tx>(tx: &X, change: &Change) -> Result<u64, StoreError> {
    let mut changed = 0;
    for (sql, values) in change.statements() {
        changed += tx.execute(sql, &values).await?;
    }
    Ok(changed)
}

/// The account `filter` (of `?1`, `value`) finds.
async fn find<X: Tx>(
    tx: &X,
    filter: &str,
    value: &dyn Value,
) -> Result<Option<Account>, StoreError> {
    let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE {filter}");
    tx.query_opt(&sql, &[value], |r| account_row(r)).await
}

/// Gives the seats of `player` in its games to `to`, named `name` (the
/// revision one up where there is one, each change announced).
async fn reseat<X: Tx>(
    tx: &X,
    player: &PlayerId,
    to: &PlayerId,
    name: &str,
) -> Result<(), StoreError> {
    let (bump, revision) = if X::POSTGRES {
        (", revision = revision + 1", "revision")
    } else {
        ("", "0")
    };
    let sql = format!(
        "UPDATE games SET
            south_name = CASE WHEN south_player = ?1 THEN ?3 ELSE south_name END,
            north_name = CASE WHEN north_player = ?1 THEN ?3 ELSE north_name END,
            south_player = CASE WHEN south_player = ?1 THEN ?2 ELSE south_player END,
            north_player = CASE WHEN north_player = ?1 THEN ?2 ELSE north_player END{bump}
         WHERE south_player = ?1 OR north_player = ?1
         RETURNING id, {revision}, result <> '*' OR stop IS NOT NULL, plies"
    );
    let values: [&dyn Value; 3] = [&player.0, &to.0, &name];
    let changed = tx
        .query(&sql, &values, |r| {
            Ok(Notice::Game {
                id: r.cell(0)?,
                revision: r.cell(1)?,
                ended: r.cell(2)?,
                kept: r.cell(3)?,
                change: None,
            })
        })
        .await?;
    for notice in changed {
        tx.announce(notice).await?;
    }
    Ok(())
}

/// Keeps `skeletons` as account `id`'s (as
/// [`AccountStore::set_skeletons`]).
async fn keep_skeletons<X: Tx>(
    tx: &X,
    id: i64,
    mut skeletons: Vec<String>,
) -> Result<(), StoreError> {
    tx.execute("DELETE FROM name_skeletons WHERE account_id = ?1", &[&id])
        .await?;
    skeletons.sort_unstable();
    skeletons.dedup();
    for skeleton in &skeletons {
        let values: [&dyn Value; 2] = [skeleton, &id];
        tx.execute(
            "INSERT INTO name_skeletons (skeleton, account_id) VALUES (?1, ?2)",
            &values,
        )
        .await?;
    }
    Ok(())
}

/// Makes `new` (as [`AccountStore::create_account`]).
async fn create<X: Tx>(tx: &X, new: NewAccount) -> Result<Option<Account>, StoreError> {
    // Two processes given one new name at once: one makes it.
    tx.lock(1, &new.key).await?;
    if tx.value::<bool>(NAME_TAKEN, &[&new.key]).await? {
        return Ok(None);
    }
    let id: i64 = tx.value(ADD_ACCOUNT, &new.values()).await?;
    apply(tx, &Change::new_account(id, &new)).await?;
    keep_skeletons(tx, id, new.skeletons.clone()).await?;
    if let Some(guest) = &new.guest {
        reseat(tx, guest, &new.player, &new.username).await?;
        let values: [&dyn Value; 2] = [&guest.0, &new.player.0];
        tx.execute("UPDATE mistakes SET player = ?2 WHERE player = ?1", &values)
            .await?;
        // A guest's puzzle rating, streaks and first tries go with them.
        for table in ["puzzle_solvers", "puzzle_attempts"] {
            let sql = format!("UPDATE {table} SET player = ?2 WHERE player = ?1");
            tx.execute(&sql, &values).await?;
        }
    }
    find(tx, "a.id = ?1", &id).await
}

/// Deletes account `id` (as [`AccountStore::delete_account`]).
async fn delete<X: Tx>(tx: &X, id: i64, now: i64) -> Result<(), StoreError> {
    let Some(account) = find(tx, "a.id = ?1", &id).await? else {
        return Ok(());
    };
    tx.execute(
        "UPDATE accounts SET deleted_ms = ?2, password_hash = '', kid = FALSE, muted = FALSE
         WHERE id = ?1",
        &[&id, &now],
    )
    .await?;
    for sql in [
        "DELETE FROM sessions WHERE account_id = ?1",
        "DELETE FROM recovery_codes WHERE account_id = ?1",
        "DELETE FROM blocks WHERE blocker = ?1 OR blocked = ?1",
    ] {
        tx.execute(sql, &[&id]).await?;
    }
    reseat(tx, &account.player, &account.player, "").await?;
    tx.execute(
        "UPDATE players SET name = '' WHERE id = ?1",
        &[&account.player.0],
    )
    .await?;
    Ok(())
}

/// Makes `change` in one transaction: how many rows it changed.
fn exec<S: Backend>(store: &S, change: Change) -> StoreFuture<'_, u64> {
    store.write(move |tx| Box::pin(async move { apply(tx, &change).await }))
}

/// Makes `change`, which answers nothing.
fn change<S: Backend>(store: &S, change: Change) -> StoreFuture<'_, ()> {
    let done = exec(store, change);
    Box::pin(async move { done.await.map(drop) })
}

/// Makes `change`: whether it changed one row.
fn one<S: Backend>(store: &S, change: Change) -> StoreFuture<'_, bool> {
    let done = exec(store, change);
    Box::pin(async move { Ok(done.await? == 1) })
}

/// The account `filter` (of `?1`, `value`) finds.
fn find_in<'s, S: Backend>(
    store: &'s S,
    filter: &'static str,
    value: impl Value + 'static,
) -> StoreFuture<'s, Option<Account>> {
    store.read(move |tx| Box::pin(async move { find(tx, filter, &value).await }))
}

/// The rows `sql` finds with `values`, each read by `decode`.
fn rows<S, T, V, D>(store: &S, sql: String, values: V, decode: D) -> StoreFuture<'_, Vec<T>>
where
    S: Backend,
    T: Send + 'static,
    V: AsRef<[Box<dyn Value>]> + Send + 'static,
    D: FnMut(&crate::tx::Row<'_>) -> Result<T, StoreError> + Send + 'static,
{
    store.read(move |tx| {
        Box::pin(async move {
            let values: Vec<&dyn Value> = values.as_ref().iter().map(|v| &**v).collect();
            tx.query(&sql, &values, decode).await
        })
    })
}

impl<S: Backend> AccountStore for S {
    fn create_account(&self, account: NewAccount) -> StoreFuture<'_, Option<Account>> {
        self.write(move |tx| Box::pin(create(tx, account)))
    }

    fn account_by_key(&self, key: String) -> StoreFuture<'_, Option<Account>> {
        find_in(self, "a.username_key = ?1", key)
    }

    fn account(&self, id: i64) -> StoreFuture<'_, Option<Account>> {
        find_in(self, "a.id = ?1", id)
    }

    fn account_of(&self, player: PlayerId) -> StoreFuture<'_, Option<Account>> {
        find_in(self, "a.player = ?1", player.0)
    }

    fn add_session(
        &self,
        id: i64,
        digest: String,
        created_ms: i64,
        expires_ms: i64,
    ) -> StoreFuture<'_, ()> {
        change(
            self,
            Change::add_session(id, digest, created_ms, expires_ms),
        )
    }

    fn session(&self, digest: String, now: i64) -> StoreFuture<'_, Option<Account>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&digest, &now];
                tx.query_opt(&session_query(), &values, |r| account_row(r))
                    .await
            })
        })
    }

    fn end_session(&self, digest: String) -> StoreFuture<'_, ()> {
        change(self, Change::end_session(digest))
    }

    fn end_sessions(&self, id: i64, keep: Option<String>) -> StoreFuture<'_, usize> {
        let done = exec(self, Change::end_sessions(id, keep));
        Box::pin(async move { done.await.map(|n| n as usize) })
    }

    fn set_password(&self, id: i64, hash: String, keep: Option<String>) -> StoreFuture<'_, ()> {
        change(self, Change::set_password(id, hash, keep))
    }

    fn use_recovery_code(&self, id: i64, digest: String, now: i64) -> StoreFuture<'_, bool> {
        one(self, Change::use_recovery_code(id, digest, now))
    }

    fn set_recovery_codes(&self, id: i64, digests: Vec<String>) -> StoreFuture<'_, ()> {
        change(self, Change::set_recovery_codes(id, &digests))
    }

    fn recovery_codes_left(&self, id: i64) -> StoreFuture<'_, usize> {
        self.read(move |tx| {
            Box::pin(async move {
                let n: i64 = tx
                    .value(
                        "SELECT COUNT(*) FROM recovery_codes
                         WHERE account_id = ?1 AND used_ms IS NULL",
                        &[&id],
                    )
                    .await?;
                Ok(n as usize)
            })
        })
    }

    fn delete_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        self.write(move |tx| Box::pin(delete(tx, id, now)))
    }

    fn close_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        change(self, Change::close_account(id, now))
    }

    fn set_kid(&self, id: i64, kid: bool) -> StoreFuture<'_, ()> {
        change(self, Change::set_kid(id, kid))
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, ()> {
        change(self, Change::set_role(id, role))
    }

    fn set_muted(&self, id: i64, muted: bool) -> StoreFuture<'_, ()> {
        change(self, Change::set_muted(id, muted))
    }

    fn block(&self, blocker: i64, blocked: i64, now: i64) -> StoreFuture<'_, ()> {
        change(self, Change::block(blocker, blocked, now))
    }

    fn unblock(&self, blocker: i64, blocked: i64) -> StoreFuture<'_, ()> {
        change(self, Change::unblock(blocker, blocked))
    }

    fn blocked_by(&self, id: i64) -> StoreFuture<'_, Vec<String>> {
        rows(
            self,
            BLOCKED_BY.into(),
            [Box::new(id) as Box<dyn Value>],
            |r| r.cell(0),
        )
    }

    fn blocks(&self, a: PlayerId, b: PlayerId) -> StoreFuture<'_, bool> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&a.0, &b.0];
                tx.value(BLOCKS, &values).await
            })
        })
    }

    fn add_report(&self, r: NewReport) -> StoreFuture<'_, i64> {
        self.write(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 6] = [
                    &r.reporter,
                    &r.reported,
                    &r.game,
                    &r.reason,
                    &r.text,
                    &r.created_ms,
                ];
                tx.value(ADD_REPORT, &values).await
            })
        })
    }

    fn reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>> {
        let values = [Box::new(limit as i64) as Box<dyn Value>];
        rows(self, REPORTS.into(), values, |r| report_row(r))
    }

    fn resolve_report(&self, id: i64, by: i64, now: i64) -> StoreFuture<'_, bool> {
        one(self, Change::resolve_report(id, by, now))
    }

    fn remove_chat_line(&self, game: i64, line: i64) -> StoreFuture<'_, bool> {
        one(self, Change::remove_chat_line(game, line))
    }

    fn add_challenge(&self, c: Challenge) -> StoreFuture<'_, i64> {
        self.write(move |tx| {
            Box::pin(async move {
                let colour = c.colour.to_string();
                let (initial, increment) = (c.clock.map(|c| c.0), c.clock.map(|c| c.1));
                let values: [&dyn Value; 9] = [
                    &c.from.0,
                    &c.from_name,
                    &c.to.0,
                    &c.to_name,
                    &initial,
                    &increment,
                    &c.rated,
                    &colour,
                    &c.created_ms,
                ];
                let id: i64 = tx.value(ADD_CHALLENGE, &values).await?;
                tx.announce(Notice::Challenge { id }).await?;
                Ok(id)
            })
        })
    }

    fn challenge(&self, id: i64) -> StoreFuture<'_, Option<Challenge>> {
        self.read(move |tx| {
            Box::pin(async move {
                let sql = format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?1");
                tx.query_opt(&sql, &[&id], |r| challenge_row(r)).await
            })
        })
    }

    fn challenges(
        &self,
        player: PlayerId,
        since_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Challenge>> {
        let values: [Box<dyn Value>; 3] = [
            Box::new(player.0),
            Box::new(since_ms),
            Box::new(limit as i64),
        ];
        rows(self, challenges_query(), values, |r| challenge_row(r))
    }

    fn settle_challenge(
        &self,
        id: i64,
        state: &'static str,
        game: Option<String>,
        now: i64,
    ) -> StoreFuture<'_, bool> {
        self.write(move |tx| {
            Box::pin(async move {
                let settled =
                    apply(tx, &Change::settle_challenge(id, state, game, now)).await? == 1;
                if settled {
                    tx.announce(Notice::Challenge { id }).await?;
                }
                Ok(settled)
            })
        })
    }

    fn set_bot(&self, id: i64) -> StoreFuture<'_, ()> {
        change(self, Change::set_bot(id))
    }

    fn add_token(&self, token: ApiToken) -> StoreFuture<'_, ()> {
        change(self, Change::add_token(token))
    }

    fn tokens(&self, id: i64) -> StoreFuture<'_, Vec<ApiToken>> {
        let values = [Box::new(id) as Box<dyn Value>];
        rows(self, tokens_query(), values, |r| token_row(r))
    }

    fn token(&self, digest: String) -> StoreFuture<'_, Option<(ApiToken, Account)>> {
        self.read(move |tx| {
            Box::pin(async move {
                tx.query_opt(&token_query(), &[&digest], |r| token_and_account(r))
                    .await
            })
        })
    }

    fn token_used(&self, public_id: String, now: i64) -> StoreFuture<'_, bool> {
        one(self, Change::token_used(public_id, now))
    }

    fn revoke_token(&self, id: i64, public_id: String, now: i64) -> StoreFuture<'_, bool> {
        one(self, Change::revoke_token(id, public_id, now))
    }

    fn set_skeletons(&self, id: i64, skeletons: Vec<String>) -> StoreFuture<'_, ()> {
        self.write(move |tx| Box::pin(keep_skeletons(tx, id, skeletons)))
    }

    fn accounts_by_skeleton(&self, skeletons: Vec<String>) -> StoreFuture<'_, Vec<String>> {
        self.read(move |tx| {
            Box::pin(async move {
                let mut names = Vec::new();
                for skeleton in &skeletons {
                    let found: Vec<String> = tx
                        .query(
                            "SELECT a.username FROM name_skeletons k
                             JOIN accounts a ON a.id = k.account_id WHERE k.skeleton = ?1",
                            &[skeleton],
                            |r| r.cell(0),
                        )
                        .await?;
                    names.extend(found);
                }
                names.sort_unstable();
                names.dedup();
                Ok(names)
            })
        })
    }

    fn accounts_without_skeletons(&self, limit: usize) -> StoreFuture<'_, Vec<(i64, String)>> {
        self.read(move |tx| {
            Box::pin(async move {
                tx.query(
                    "SELECT a.id, a.username FROM accounts a
                     WHERE NOT EXISTS (SELECT 1 FROM name_skeletons k WHERE k.account_id = a.id)
                     ORDER BY a.id LIMIT ?1",
                    &[&(limit as i64)],
                    |r| Ok((r.cell(0)?, r.cell(1)?)),
                )
                .await
            })
        })
    }
}
