//! Accounts in PostgreSQL: [`AccountStore`] as the games file's
//! (`../accounts.rs`), statement for statement. The games whose seats a
//! change renames (a guest taken over, a deleted account) go one revision
//! up and are announced, so the processes holding them read them again.

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::rows::{query_all, value_one};
use super::PgStore;
use crate::accounts::{
    account_row, challenge_row, challenges_query, report_row, session_query, token_and_account,
    token_query, token_row, tokens_query, Change, ACCOUNT_COLUMNS, ADD_ACCOUNT, ADD_CHALLENGE,
    ADD_REPORT, BLOCKED_BY, BLOCKS, CHALLENGE_COLUMNS, NAME_TAKEN, REPORTS,
};
use crate::cells::{dollar_params, pg_values};
use crate::interface::Notice;
use crate::{AccountStore, NewAccount, NewReport, StoreError, StoreFuture};
use awale_model::account::{Account, ApiToken, Challenge, Report, Role};
use awale_model::game::PlayerId;

async fn find(
    client: &impl GenericClient,
    filter: &str,
    value: &(dyn ToSql + Sync),
) -> Result<Option<Account>, StoreError> {
    let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE {filter}");
    Ok(client
        .query_opt(&sql, &[value])
        .await?
        .map(|r| account_row(&r))
        .transpose()?)
}

impl PgStore {
    /// Renames the seats of `player` to `name` in its games (and gives
    /// them to `to`, when given), one revision up, each announced.
    async fn reseat(
        &self,
        tx: &impl GenericClient,
        player: &PlayerId,
        to: &PlayerId,
        name: &str,
    ) -> Result<(), StoreError> {
        let changed = tx
            .query(
                "UPDATE games SET
                    south_name = CASE WHEN south_player = $1 THEN $3 ELSE south_name END,
                    north_name = CASE WHEN north_player = $1 THEN $3 ELSE north_name END,
                    south_player = CASE WHEN south_player = $1 THEN $2 ELSE south_player END,
                    north_player = CASE WHEN north_player = $1 THEN $2 ELSE north_player END,
                    revision = revision + 1
                 WHERE south_player = $1 OR north_player = $1
                 RETURNING id, revision, result <> '*' OR stop IS NOT NULL, plies",
                &[&player.0, &to.0, &name],
            )
            .await?;
        for row in changed {
            self.announce(
                tx,
                Notice::Game {
                    id: row.try_get(0)?,
                    revision: row.try_get(1)?,
                    ended: row.try_get(2)?,
                    kept: row.try_get(3)?,
                },
            )
            .await?;
        }
        Ok(())
    }

    /// Makes `change` in one transaction: the rows it changed.
    fn exec(&self, change: Change) -> StoreFuture<'_, u64> {
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            let changed = apply(&tx, &change).await?;
            tx.commit().await?;
            Ok(changed)
        })
    }

    fn find_(
        &self,
        filter: &'static str,
        value: Box<dyn ToSql + Sync + Send>,
    ) -> StoreFuture<'_, Option<Account>> {
        self.with_client(move |client| async move { find(&client, filter, &*value).await })
    }
}

/// Makes `change` on `client`: the rows it changed.
async fn apply(client: &impl GenericClient, change: &Change) -> Result<u64, StoreError> {
    let mut changed = 0;
    for (sql, values) in change.statements() {
        let stmt = client.prepare_cached(&dollar_params(sql)).await?;
        changed += client.execute(&stmt, &pg_values(values)).await?;
    }
    Ok(changed)
}

fn drop_count(f: StoreFuture<'_, u64>) -> StoreFuture<'_, ()> {
    Box::pin(async move { f.await.map(drop) })
}

impl AccountStore for PgStore {
    fn create_account(&self, new: NewAccount) -> StoreFuture<'_, Option<Account>> {
        let me = self.clone();
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            // Two processes given one new name at once: one makes it.
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 1))",
                &[&new.key],
            )
            .await?;
            let taken: bool = tx
                .query_one(&dollar_params(NAME_TAKEN), &[&new.key])
                .await?
                .try_get(0)?;
            if taken {
                return Ok(None);
            }
            let id: i64 = tx
                .query_one(&dollar_params(ADD_ACCOUNT), &pg_values(new.values()))
                .await?
                .try_get(0)?;
            apply(&tx, &Change::new_account(id, &new)).await?;
            if let Some(guest) = &new.guest {
                me.reseat(&tx, guest, &new.player, &new.username).await?;
                tx.execute(
                    "UPDATE mistakes SET player = $2 WHERE player = $1",
                    &[&guest.0, &new.player.0],
                )
                .await?;
            }
            let account = find(&tx, "a.id = $1", &id).await?;
            tx.commit().await?;
            Ok(account)
        })
    }

    fn account_by_key(&self, key: String) -> StoreFuture<'_, Option<Account>> {
        self.find_("a.username_key = $1", Box::new(key))
    }

    fn account(&self, id: i64) -> StoreFuture<'_, Option<Account>> {
        self.find_("a.id = $1", Box::new(id))
    }

    fn account_of(&self, player: PlayerId) -> StoreFuture<'_, Option<Account>> {
        self.find_("a.player = $1", Box::new(player.0))
    }

    fn add_session(
        &self,
        id: i64,
        digest: String,
        created_ms: i64,
        expires_ms: i64,
    ) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::add_session(id, digest, created_ms, expires_ms)))
    }

    fn session(&self, digest: String, now: i64) -> StoreFuture<'_, Option<Account>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(&session_query());
            Ok(client
                .query_opt(&sql, &[&digest, &now])
                .await?
                .map(|r| account_row(&r))
                .transpose()?)
        })
    }

    fn end_session(&self, digest: String) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::end_session(digest)))
    }

    fn end_sessions(&self, id: i64, keep: Option<String>) -> StoreFuture<'_, usize> {
        let done = self.exec(Change::end_sessions(id, keep));
        Box::pin(async move { done.await.map(|n| n as usize) })
    }

    fn set_password(&self, id: i64, hash: String, keep: Option<String>) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_password(id, hash, keep)))
    }

    fn use_recovery_code(&self, id: i64, digest: String, now: i64) -> StoreFuture<'_, bool> {
        let done = self.exec(Change::use_recovery_code(id, digest, now));
        Box::pin(async move { done.await.map(|n| n == 1) })
    }

    fn set_recovery_codes(&self, id: i64, digests: Vec<String>) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_recovery_codes(id, &digests)))
    }

    fn recovery_codes_left(&self, id: i64) -> StoreFuture<'_, usize> {
        self.with_client(move |client| async move {
            let n: i64 = value_one(
                &client,
                "SELECT COUNT(*) FROM recovery_codes WHERE account_id = $1 AND used_ms IS NULL",
                &[&id],
            )
            .await?;
            Ok(n as usize)
        })
    }

    fn delete_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        let me = self.clone();
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            let Some(account) = find(&tx, "a.id = $1", &id).await? else {
                return Ok(());
            };
            tx.execute(
                "UPDATE accounts SET deleted_ms = $2, password_hash = '', kid = FALSE,
                    muted = FALSE
                 WHERE id = $1",
                &[&id, &now],
            )
            .await?;
            tx.execute("DELETE FROM sessions WHERE account_id = $1", &[&id])
                .await?;
            tx.execute("DELETE FROM recovery_codes WHERE account_id = $1", &[&id])
                .await?;
            tx.execute(
                "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
                &[&id],
            )
            .await?;
            me.reseat(&tx, &account.player, &account.player, "").await?;
            tx.execute(
                "UPDATE players SET name = '' WHERE id = $1",
                &[&account.player.0],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn close_account(&self, id: i64, now: i64) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::close_account(id, now)))
    }

    fn set_kid(&self, id: i64, kid: bool) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_kid(id, kid)))
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_role(id, role)))
    }

    fn set_muted(&self, id: i64, muted: bool) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_muted(id, muted)))
    }

    fn block(&self, blocker: i64, blocked: i64, now: i64) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::block(blocker, blocked, now)))
    }

    fn unblock(&self, blocker: i64, blocked: i64) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::unblock(blocker, blocked)))
    }

    fn blocked_by(&self, id: i64) -> StoreFuture<'_, Vec<String>> {
        self.with_client(move |client| async move {
            query_all(&client, &dollar_params(BLOCKED_BY), &[&id], |r| {
                r.try_get(0)
            })
            .await
        })
    }

    fn blocks(&self, a: PlayerId, b: PlayerId) -> StoreFuture<'_, bool> {
        self.with_client(move |client| async move {
            value_one(&client, &dollar_params(BLOCKS), &[&a.0, &b.0]).await
        })
    }

    fn add_report(&self, r: NewReport) -> StoreFuture<'_, i64> {
        self.with_client(move |client| async move {
            let values: [&(dyn ToSql + Sync); 6] = [
                &r.reporter,
                &r.reported,
                &r.game,
                &r.reason,
                &r.text,
                &r.created_ms,
            ];
            value_one(&client, &dollar_params(ADD_REPORT), &values).await
        })
    }

    fn reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(REPORTS);
            query_all(&client, &sql, &[&(limit as i64)], report_row).await
        })
    }

    fn resolve_report(&self, id: i64, by: i64, now: i64) -> StoreFuture<'_, bool> {
        let done = self.exec(Change::resolve_report(id, by, now));
        Box::pin(async move { done.await.map(|n| n == 1) })
    }

    fn remove_chat_line(&self, game: i64, line: i64) -> StoreFuture<'_, bool> {
        let done = self.exec(Change::remove_chat_line(game, line));
        Box::pin(async move { done.await.map(|n| n == 1) })
    }

    fn add_challenge(&self, c: Challenge) -> StoreFuture<'_, i64> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let colour = c.colour.to_string();
            let values: [&(dyn ToSql + Sync); 9] = [
                &c.from.0,
                &c.from_name,
                &c.to.0,
                &c.to_name,
                &c.clock.map(|c| c.0),
                &c.clock.map(|c| c.1),
                &c.rated,
                &colour,
                &c.created_ms,
            ];
            let id: i64 = value_one(&client, &dollar_params(ADD_CHALLENGE), &values).await?;
            me.announce(&client, Notice::Challenge { id }).await?;
            Ok(id)
        })
    }

    fn challenge(&self, id: i64) -> StoreFuture<'_, Option<Challenge>> {
        self.with_client(move |client| async move {
            let sql = format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1");
            Ok(client
                .query_opt(&sql, &[&id])
                .await?
                .map(|r| challenge_row(&r))
                .transpose()?)
        })
    }

    fn challenges(
        &self,
        player: PlayerId,
        since_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Vec<Challenge>> {
        self.with_client(move |client| async move {
            let sql = dollar_params(&challenges_query());
            query_all(
                &client,
                &sql,
                &[&player.0, &since_ms, &(limit as i64)],
                challenge_row,
            )
            .await
        })
    }

    fn settle_challenge(
        &self,
        id: i64,
        state: &'static str,
        game: Option<String>,
        now: i64,
    ) -> StoreFuture<'_, bool> {
        let me = self.clone();
        self.run(async move {
            let client = me.client().await?;
            let n = apply(&client, &Change::settle_challenge(id, state, game, now)).await?;
            if n == 1 {
                me.announce(&client, Notice::Challenge { id }).await?;
            }
            Ok(n == 1)
        })
    }

    fn set_bot(&self, id: i64) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::set_bot(id)))
    }

    fn add_token(&self, token: ApiToken) -> StoreFuture<'_, ()> {
        drop_count(self.exec(Change::add_token(token)))
    }

    fn tokens(&self, id: i64) -> StoreFuture<'_, Vec<ApiToken>> {
        self.with_client(move |client| async move {
            query_all(&client, &dollar_params(&tokens_query()), &[&id], token_row).await
        })
    }

    fn token(&self, digest: String) -> StoreFuture<'_, Option<(ApiToken, Account)>> {
        self.with_client(move |client| async move {
            Ok(client
                .query_opt(&dollar_params(&token_query()), &[&digest])
                .await?
                .map(|r| token_and_account(&r))
                .transpose()?)
        })
    }

    fn revoke_token(&self, id: i64, public_id: String, now: i64) -> StoreFuture<'_, bool> {
        let done = self.exec(Change::revoke_token(id, public_id, now));
        Box::pin(async move { done.await.map(|n| n == 1) })
    }
}
