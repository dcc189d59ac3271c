//! Accounts ([`AccountStore`]) in the games file.

use rusqlite::{params, params_from_iter, Connection};

use super::rows::{query_all, query_opt};
use super::Store;
use crate::accounts::*;
use crate::error::StoreError;
use crate::interface::StoreFuture;
use awale_model::account::{Account, ApiToken, Challenge, Report, Role};
use awale_model::game::PlayerId;

/// Makes `change` in the games file: how many rows it changed.
fn apply(conn: &Connection, change: &Change) -> Result<usize, StoreError> {
    let mut changed = 0;
    for (sql, values) in change.statements() {
        changed += conn
            .prepare_cached(sql)?
            .execute(params_from_iter(values))?;
    }
    Ok(changed)
}

fn find(
    conn: &Connection,
    filter: &str,
    value: &dyn rusqlite::ToSql,
) -> Result<Option<Account>, StoreError> {
    let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE {filter}");
    query_opt(conn, &sql, [value], |r| account_row(r))
}

/// Gives `guest`'s seats in its games to `player`, named `name`.
fn take_over_seats(
    conn: &Connection,
    guest: &PlayerId,
    player: &PlayerId,
    name: &str,
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
        "UPDATE mistakes SET player = ?2 WHERE player = ?1",
        params![guest.0, player.0],
    )?;
    Ok(())
}

impl Store {
    async fn create_account_(&self, new: NewAccount) -> Result<Option<Account>, StoreError> {
        self.write(move |conn| {
            let taken: bool = conn.query_row(NAME_TAKEN, [&new.key], |r| r.get(0))?;
            if taken {
                return Ok(None);
            }
            let id: i64 = conn
                .prepare_cached(ADD_ACCOUNT)?
                .query_row(params_from_iter(new.values()), |r| r.get(0))?;
            apply(conn, &Change::new_account(id, &new))?;
            if let Some(guest) = &new.guest {
                take_over_seats(conn, guest, &new.player, &new.username)?;
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

    /// Makes `change`, which answers nothing.
    fn change(&self, change: Change) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.exec(change).await.map(drop) })
    }

    /// Makes `change`: how many rows it changed.
    async fn exec(&self, change: Change) -> Result<usize, StoreError> {
        self.write(move |conn| apply(conn, &change)).await
    }
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
        self.change(Change::add_session(id, digest, created_ms, expires_ms))
    }

    fn session(&self, digest: String, now: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.read(move |conn| {
            query_opt(conn, &session_query(), params![digest, now], |r| {
                account_row(r)
            })
        }))
    }

    fn end_session(&self, digest: String) -> StoreFuture<'_, ()> {
        self.change(Change::end_session(digest))
    }

    fn end_sessions(&self, id: i64, keep: Option<String>) -> StoreFuture<'_, usize> {
        Box::pin(self.exec(Change::end_sessions(id, keep)))
    }

    fn set_password(&self, id: i64, hash: String, keep: Option<String>) -> StoreFuture<'_, ()> {
        self.change(Change::set_password(id, hash, keep))
    }

    fn use_recovery_code(&self, id: i64, digest: String, now: i64) -> StoreFuture<'_, bool> {
        let used = self.exec(Change::use_recovery_code(id, digest, now));
        Box::pin(async move { Ok(used.await? == 1) })
    }

    fn set_recovery_codes(&self, id: i64, digests: Vec<String>) -> StoreFuture<'_, ()> {
        self.change(Change::set_recovery_codes(id, &digests))
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
        self.change(Change::close_account(id, now))
    }

    fn set_kid(&self, id: i64, kid: bool) -> StoreFuture<'_, ()> {
        self.change(Change::set_kid(id, kid))
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, ()> {
        self.change(Change::set_role(id, role))
    }

    fn set_muted(&self, id: i64, muted: bool) -> StoreFuture<'_, ()> {
        self.change(Change::set_muted(id, muted))
    }

    fn block(&self, blocker: i64, blocked: i64, now: i64) -> StoreFuture<'_, ()> {
        self.change(Change::block(blocker, blocked, now))
    }

    fn unblock(&self, blocker: i64, blocked: i64) -> StoreFuture<'_, ()> {
        self.change(Change::unblock(blocker, blocked))
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
        let n = self.exec(Change::resolve_report(id, by, now));
        Box::pin(async move { Ok(n.await? == 1) })
    }

    fn remove_chat_line(&self, game: i64, line: i64) -> StoreFuture<'_, bool> {
        let n = self.exec(Change::remove_chat_line(game, line));
        Box::pin(async move { Ok(n.await? == 1) })
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
        let n = self.exec(Change::settle_challenge(id, state, game, now));
        Box::pin(async move { Ok(n.await? == 1) })
    }

    fn set_bot(&self, id: i64) -> StoreFuture<'_, ()> {
        self.change(Change::set_bot(id))
    }

    fn add_token(&self, token: ApiToken) -> StoreFuture<'_, ()> {
        self.change(Change::add_token(token))
    }

    fn tokens(&self, id: i64) -> StoreFuture<'_, Vec<ApiToken>> {
        Box::pin(self.read(move |conn| query_all(conn, &tokens_query(), [id], |r| token_row(r))))
    }

    fn token(&self, digest: String) -> StoreFuture<'_, Option<(ApiToken, Account)>> {
        Box::pin(
            self.read(move |conn| {
                query_opt(conn, &token_query(), [digest], |r| token_and_account(r))
            }),
        )
    }

    fn revoke_token(&self, id: i64, public_id: String, now: i64) -> StoreFuture<'_, bool> {
        let n = self.exec(Change::revoke_token(id, public_id, now));
        Box::pin(async move { Ok(n.await? == 1) })
    }
}
