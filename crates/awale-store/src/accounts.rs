//! Accounts as the store keeps them, behind their own interface
//! ([`AccountStore`], beside [`crate::GameStore`]; no SQLite type in it, so
//! a PostgreSQL store fills it too): accounts, their sessions and recovery
//! codes (digests only), the guest a new account takes over, blocks,
//! reports and the moderators' actions. Each change is one transaction.
//! The rules (what a username may be, hashing, limits) are the service's.

use rusqlite::{params, Connection};

use awale_model::account::{Account, Challenge, Report, Role};
use awale_model::game::PlayerId;

use crate::cells::Cells;
use crate::rows::{query_all, query_opt};
use crate::{Store, StoreError, StoreFuture};

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
     a.role, a.kid, a.muted, a.deleted_ms, a.closed_ms";

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
    })
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

/// Challenge `?1` settled as `?2` (with game `?3`) at `?4`, if still open.
pub(crate) const SETTLE_CHALLENGE: &str = "UPDATE challenges SET state = ?2, game = ?3,
     settled_ms = ?4 WHERE id = ?1 AND state = 'open'";

/// The names account `?1` blocks.
pub(crate) const BLOCKED_BY: &str = "SELECT a.username FROM blocks b
     JOIN accounts a ON a.id = b.blocked WHERE b.blocker = ?1 ORDER BY a.username_key";

/// Whether players `?1` and `?2` block each other, either way.
pub(crate) const BLOCKS: &str = "SELECT EXISTS (SELECT 1 FROM blocks k
       JOIN accounts x ON x.id = k.blocker JOIN accounts y ON y.id = k.blocked
       WHERE (x.player = ?1 AND y.player = ?2) OR (x.player = ?2 AND y.player = ?1))";

/// Stores a report (reporter, reported, the game if it still exists,
/// reason, text, time): its id.
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
pub(crate) const REPORTS: &str = "SELECT r.id, a.username, b.username, r.game_id, r.reason,
        r.text, r.created_ms, r.resolved_ms, m.username
     FROM reports r JOIN accounts a ON a.id = r.reporter
     JOIN accounts b ON b.id = r.reported
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

fn find(
    conn: &Connection,
    filter: &str,
    value: &dyn rusqlite::ToSql,
) -> Result<Option<Account>, StoreError> {
    let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE {filter}");
    query_opt(conn, &sql, [value], |r| account_row(r))
}

/// Moves `guest`'s games (its seats in them, with `name`), uploads and
/// nickname to `player`, and links the guest to account `id`.
fn take_over_guest(
    conn: &Connection,
    guest: &PlayerId,
    player: &PlayerId,
    name: &str,
    id: i64,
    now: i64,
) -> Result<(), StoreError> {
    for side in ["south", "north"] {
        conn.execute(
            &format!(
                "UPDATE games SET {side}_player = ?2, {side}_name = ?3 WHERE {side}_player = ?1"
            ),
            params![guest.0, player.0, name],
        )?;
    }
    conn.execute(
        "UPDATE uploads SET player = ?2 WHERE player = ?1",
        params![guest.0, player.0],
    )?;
    conn.execute(
        "INSERT INTO players (id, name, created_ms, account_id) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET account_id = ?4",
        params![guest.0, name, now, id],
    )?;
    Ok(())
}

impl Store {
    async fn create_account_(&self, new: NewAccount) -> Result<Option<Account>, StoreError> {
        self.write(move |conn| {
            let taken: bool = conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE username_key = ?1)",
                [&new.key],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(None);
            }
            conn.execute(
                "INSERT INTO accounts (username, username_key, player, password_hash, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    new.username,
                    new.key,
                    new.player.0,
                    new.password_hash,
                    new.created_ms
                ],
            )?;
            let id = conn.last_insert_rowid();
            for digest in &new.recovery {
                conn.execute(
                    "INSERT INTO recovery_codes (account_id, digest) VALUES (?1, ?2)",
                    params![id, digest],
                )?;
            }
            conn.execute(
                "INSERT INTO sessions (digest, account_id, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![new.session.0, id, new.created_ms, new.session.1],
            )?;
            conn.execute(
                "INSERT INTO players (id, name, created_ms, account_id) VALUES (?1, ?2, ?3, ?4)",
                params![new.player.0, new.username, new.created_ms, id],
            )?;
            if let Some(guest) = &new.guest {
                take_over_guest(conn, guest, &new.player, &new.username, id, new.created_ms)?;
            }
            find(conn, "a.id = ?1", &id)
        })
        .await
    }

    async fn find_(
        &self,
        filter: &'static str,
        value: impl rusqlite::ToSql + Send + 'static,
    ) -> Result<Option<Account>, StoreError> {
        self.read(move |conn| find(conn, filter, &value)).await
    }

    /// [`Store::exec`], for a change that answers nothing.
    fn change(
        &self,
        sql: &'static [&'static str],
        values: Vec<rusqlite::types::Value>,
    ) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.exec(sql, values).await.map(drop) })
    }

    async fn exec(
        &self,
        sql: &'static [&'static str],
        values: Vec<rusqlite::types::Value>,
    ) -> Result<usize, StoreError> {
        self.write(move |conn| {
            let mut changed = 0;
            for statement in sql {
                let mut stmt = conn.prepare_cached(statement)?;
                let wanted = stmt.parameter_count();
                changed += stmt.execute(rusqlite::params_from_iter(&values[..wanted]))?;
            }
            Ok(changed)
        })
        .await
    }
}

use rusqlite::types::Value;

fn int(v: i64) -> Value {
    Value::Integer(v)
}

fn text(v: String) -> Value {
    Value::Text(v)
}

fn opt_text(v: Option<String>) -> Value {
    v.map_or(Value::Null, Value::Text)
}

impl AccountStore for Store {
    fn create_account(&self, account: NewAccount) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.create_account_(account))
    }

    fn account_by_key(&self, key: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.find_("a.username_key = ?1", key))
    }

    fn account(&self, id: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.find_("a.id = ?1", id))
    }

    fn account_of(&self, player: PlayerId) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.find_("a.player = ?1", player.0))
    }

    fn add_session(
        &self,
        id: i64,
        digest: String,
        created_ms: i64,
        expires_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.change(
            &[
                "INSERT INTO sessions (digest, account_id, created_ms, expires_ms)
                   VALUES (?1, ?2, ?3, ?4)",
            ],
            vec![text(digest), int(id), int(created_ms), int(expires_ms)],
        )
    }

    fn session(&self, digest: String, now: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.read(move |conn| {
            query_opt(conn, &session_query(), params![digest, now], |r| {
                account_row(r)
            })
        }))
    }

    fn end_session(&self, digest: String) -> StoreFuture<'_, ()> {
        self.change(
            &["DELETE FROM sessions WHERE digest = ?1"],
            vec![text(digest)],
        )
    }

    fn end_sessions(&self, id: i64, keep: Option<String>) -> StoreFuture<'_, usize> {
        Box::pin(self.exec(
            &["DELETE FROM sessions WHERE account_id = ?1 AND digest IS NOT ?2"],
            vec![int(id), opt_text(keep)],
        ))
    }

    fn set_password(&self, id: i64, hash: String, keep: Option<String>) -> StoreFuture<'_, ()> {
        self.change(
            &[
                "DELETE FROM sessions WHERE account_id = ?1 AND digest IS NOT ?2",
                "UPDATE accounts SET password_hash = ?3 WHERE id = ?1",
            ],
            vec![int(id), opt_text(keep), text(hash)],
        )
    }

    fn use_recovery_code(&self, id: i64, digest: String, now: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let used = self
                .exec(
                    &["UPDATE recovery_codes SET used_ms = ?3
                       WHERE account_id = ?1 AND digest = ?2 AND used_ms IS NULL"],
                    vec![int(id), text(digest), int(now)],
                )
                .await?;
            Ok(used == 1)
        })
    }

    fn set_recovery_codes(&self, id: i64, digests: Vec<String>) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            conn.execute("DELETE FROM recovery_codes WHERE account_id = ?1", [id])?;
            for digest in &digests {
                conn.execute(
                    "INSERT INTO recovery_codes (account_id, digest) VALUES (?1, ?2)",
                    params![id, digest],
                )?;
            }
            Ok(())
        }))
    }

    fn recovery_codes_left(&self, id: i64) -> StoreFuture<'_, usize> {
        Box::pin(self.read(move |conn| {
            let n: i64 = conn.query_row(
                "SELECT COUNT(*) FROM recovery_codes WHERE account_id = ?1 AND used_ms IS NULL",
                [id],
                |r| r.get(0),
            )?;
            Ok(n as usize)
        }))
    }

    fn delete_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| {
            let Some(account) = find(conn, "a.id = ?1", &id)? else {
                return Ok(());
            };
            conn.execute(
                "UPDATE accounts SET deleted_ms = ?2, password_hash = '', kid = 0, muted = 0
                 WHERE id = ?1",
                params![id, now],
            )?;
            conn.execute("DELETE FROM sessions WHERE account_id = ?1", [id])?;
            conn.execute("DELETE FROM recovery_codes WHERE account_id = ?1", [id])?;
            conn.execute(
                "DELETE FROM blocks WHERE blocker = ?1 OR blocked = ?1",
                [id],
            )?;
            for side in ["south", "north"] {
                conn.execute(
                    &format!("UPDATE games SET {side}_name = '' WHERE {side}_player = ?1"),
                    [&account.player.0],
                )?;
            }
            conn.execute(
                "UPDATE players SET name = '' WHERE id = ?1",
                [&account.player.0],
            )?;
            Ok(())
        }))
    }

    fn close_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        self.change(
            &[
                "UPDATE accounts SET closed_ms = ?2 WHERE id = ?1 AND closed_ms IS NULL",
                "DELETE FROM sessions WHERE account_id = ?1",
            ],
            vec![int(id), int(now)],
        )
    }

    fn set_kid(&self, id: i64, kid: bool) -> StoreFuture<'_, ()> {
        self.change(
            &["UPDATE accounts SET kid = ?2 WHERE id = ?1"],
            vec![int(id), int(i64::from(kid))],
        )
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, ()> {
        self.change(
            &["UPDATE accounts SET role = ?2 WHERE id = ?1"],
            vec![int(id), text(role.name().to_string())],
        )
    }

    fn set_muted(&self, id: i64, muted: bool) -> StoreFuture<'_, ()> {
        self.change(
            &["UPDATE accounts SET muted = ?2 WHERE id = ?1"],
            vec![int(id), int(i64::from(muted))],
        )
    }

    fn block(&self, blocker: i64, blocked: i64, now: i64) -> StoreFuture<'_, ()> {
        self.change(
            &[
                "INSERT INTO blocks (blocker, blocked, created_ms) VALUES (?1, ?2, ?3)
                   ON CONFLICT DO NOTHING",
            ],
            vec![int(blocker), int(blocked), int(now)],
        )
    }

    fn unblock(&self, blocker: i64, blocked: i64) -> StoreFuture<'_, ()> {
        self.change(
            &["DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2"],
            vec![int(blocker), int(blocked)],
        )
    }

    fn blocked_by(&self, id: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.read(move |conn| query_all(conn, BLOCKED_BY, [id], |r| r.get(0))))
    }

    fn blocks(&self, a: PlayerId, b: PlayerId) -> StoreFuture<'_, bool> {
        Box::pin(self.read(move |conn| {
            Ok(conn
                .prepare_cached(BLOCKS)?
                .query_row(params![a.0, b.0], |r| r.get(0))?)
        }))
    }

    fn add_report(&self, r: NewReport) -> StoreFuture<'_, i64> {
        Box::pin(self.write(move |conn| {
            Ok(conn.prepare_cached(ADD_REPORT)?.query_row(
                params![
                    r.reporter,
                    r.reported,
                    r.game,
                    r.reason,
                    r.text,
                    r.created_ms
                ],
                |row| row.get(0),
            )?)
        }))
    }

    fn reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>> {
        Box::pin(self.read(move |conn| query_all(conn, REPORTS, [limit as i64], |r| report_row(r))))
    }

    fn resolve_report(&self, id: i64, by: i64, now: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let n = self
                .exec(
                    &["UPDATE reports SET resolved_ms = ?3, resolved_by = ?2
                       WHERE id = ?1 AND resolved_ms IS NULL"],
                    vec![int(id), int(by), int(now)],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn remove_chat_line(&self, game: i64, line: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let n = self
                .exec(
                    &["DELETE FROM chat WHERE game_id = ?1 AND id = ?2"],
                    vec![int(game), int(line)],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn add_challenge(&self, c: Challenge) -> StoreFuture<'_, i64> {
        Box::pin(self.write(move |conn| {
            Ok(conn.prepare_cached(ADD_CHALLENGE)?.query_row(
                params![
                    c.from.0,
                    c.from_name,
                    c.to.0,
                    c.to_name,
                    c.clock.map(|c| c.0),
                    c.clock.map(|c| c.1),
                    c.rated,
                    c.colour.to_string(),
                    c.created_ms
                ],
                |r| r.get(0),
            )?)
        }))
    }

    fn challenge(&self, id: i64) -> StoreFuture<'_, Option<Challenge>> {
        Box::pin(self.read(move |conn| {
            let sql = format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?1");
            query_opt(conn, &sql, [id], |r| challenge_row(r))
        }))
    }

    fn challenges(
        &self,
        player: PlayerId,
        since_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Challenge>> {
        Box::pin(self.read(move |conn| {
            let values = params![player.0, since_ms, limit as i64];
            query_all(conn, &challenges_query(), values, |r| challenge_row(r))
        }))
    }

    fn settle_challenge(
        &self,
        id: i64,
        state: &'static str,
        game: Option<String>,
        now: i64,
    ) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let n = self
                .exec(
                    &[SETTLE_CHALLENGE],
                    vec![int(id), text(state.to_string()), opt_text(game), int(now)],
                )
                .await?;
            Ok(n == 1)
        })
    }
}
