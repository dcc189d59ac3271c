//! The pools' seeks in PostgreSQL ([`SeekStore`]): one row a seeker, a
//! pairing claimed under the rows' locks in one transaction.

use tokio_postgres::types::ToSql;

use super::PgStore;
use crate::interface::Notice;
use crate::seeks::{Paired, Renewed, SeekRow, SeekStore};
use crate::StoreFuture;
use awale_model::game::PlayerId;

/// The table, made at start (see `seeks.sql`).
pub(crate) const SEEKS_TABLE: &str = include_str!("seeks.sql");

const SEEK_COLUMNS: &str = "id, player, pool, name, account, rating, balance, low, high, since_ms";

fn seek_row(r: &tokio_postgres::Row) -> Result<SeekRow, crate::StoreError> {
    let low: Option<f64> = r.try_get(7)?;
    let high: Option<f64> = r.try_get(8)?;
    Ok(SeekRow {
        id: r.try_get(0)?,
        player: PlayerId(r.try_get(1)?),
        pool: r.try_get(2)?,
        name: r.try_get(3)?,
        account: r.try_get(4)?,
        rating: r.try_get(5)?,
        balance: r.try_get(6)?,
        limits: low.zip(high),
        since_ms: r.try_get(9)?,
    })
}

fn paired(game: String, side: &str, rated: bool) -> Paired {
    Paired {
        game,
        side: if side == "N" { 'N' } else { 'S' },
        rated,
    }
}

/// The values of a seek written, in the order of its columns (player, pool,
/// name, account, rating, balance, low, high, since_ms, seen_ms): the new
/// seek's, or the one renewed.
fn seek_values<'a>(
    seek: &'a SeekRow,
    (low, high): &'a (Option<f64>, Option<f64>),
    since_ms: &'a Option<i64>,
    now: &'a i64,
) -> [&'a (dyn ToSql + Sync); 10] {
    [
        &seek.player.0,
        &seek.pool,
        &seek.name,
        &seek.account,
        &seek.rating,
        &seek.balance,
        low,
        high,
        since_ms,
        now,
    ]
}

impl SeekStore for PgStore {
    fn renew_seek(&self, seek: SeekRow, now: i64) -> StoreFuture<'_, Renewed> {
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            let limits = (seek.limits.map(|l| l.0), seek.limits.map(|l| l.1));
            let made = tx
                .query_opt(
                    &format!(
                        "INSERT INTO seeks (player, pool, name, account, rating, balance, low, \
                         high, since_ms, seen_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                         ON CONFLICT (player) DO NOTHING RETURNING {SEEK_COLUMNS}"
                    ),
                    &seek_values(&seek, &limits, &Some(seek.since_ms), &now),
                )
                .await?;
            if let Some(row) = made {
                let row = seek_row(&row)?;
                tx.commit().await?;
                return Ok(Renewed::Seeking(row));
            }
            let old = tx
                .query_one(
                    "SELECT pool, claimed_ms, game, side, rated FROM seeks WHERE player = $1
                     FOR UPDATE",
                    &[&seek.player.0],
                )
                .await?;
            let (pool, claimed): (String, Option<i64>) = (old.try_get(0)?, old.try_get(1)?);
            if let Some(game) = old.try_get::<_, Option<String>>(2)? {
                let side: Option<String> = old.try_get(3)?;
                let rated: Option<bool> = old.try_get(4)?;
                tx.execute("DELETE FROM seeks WHERE player = $1", &[&seek.player.0])
                    .await?;
                tx.commit().await?;
                return Ok(Renewed::Paired(paired(
                    game,
                    side.as_deref().unwrap_or("S"),
                    rated.unwrap_or(false),
                )));
            }
            // Being paired: only seen again; otherwise the seek as asked,
            // keeping its wait in the same pool.
            let row = if claimed.is_some() {
                tx.query_one(
                    &format!(
                        "UPDATE seeks SET seen_ms = $2 WHERE player = $1 RETURNING {SEEK_COLUMNS}"
                    ),
                    &[&seek.player.0, &now],
                )
                .await?
            } else {
                let since = if pool == seek.pool {
                    None
                } else {
                    Some(seek.since_ms)
                };
                tx.query_one(
                    &format!(
                        "UPDATE seeks SET pool = $2, name = $3, account = $4, rating = $5,
                            balance = $6, low = $7, high = $8,
                            since_ms = COALESCE($9, since_ms), seen_ms = $10
                         WHERE player = $1 RETURNING {SEEK_COLUMNS}"
                    ),
                    &seek_values(&seek, &limits, &since, &now),
                )
                .await?
            };
            let row = seek_row(&row)?;
            tx.commit().await?;
            Ok(Renewed::Seeking(row))
        })
    }

    fn drop_seek(&self, player: PlayerId) -> StoreFuture<'_, bool> {
        self.with_client(move |client| async move {
            let gone = client
                .execute(
                    "DELETE FROM seeks WHERE player = $1 AND claimed_ms IS NULL",
                    &[&player.0],
                )
                .await?;
            Ok(gone > 0)
        })
    }

    fn waiting_seeks(&self, stale_ms: i64) -> StoreFuture<'_, Vec<SeekRow>> {
        self.with_client(move |client| async move {
            // One statement (one round trip, one transaction) each tick
            // of each process, whoever seeks: the seeks whose page left
            // dropped, the claims a gone process left given back, the
            // waiting listed. Its parts see the table as it was: the
            // list leaves out the dropped and takes in the given back.
            let sql = format!(
                "WITH gone AS (DELETE FROM seeks WHERE seen_ms < $1),
                      freed AS (UPDATE seeks SET claimed_ms = NULL
                                WHERE claimed_ms < $1 AND game IS NULL AND seen_ms >= $1)
                 SELECT {SEEK_COLUMNS} FROM seeks
                 WHERE seen_ms >= $1
                   AND (claimed_ms IS NULL OR (claimed_ms < $1 AND game IS NULL))
                 ORDER BY since_ms, id"
            );
            let statement = super::tx::cached(&client, &sql).await?;
            let rows = client.query(&statement, &[&stale_ms]).await?;
            rows.iter().map(seek_row).collect()
        })
    }

    fn claim_seeks(&self, a: i64, b: i64, now: i64) -> StoreFuture<'_, bool> {
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            // Row locks: of two processes claiming one seek, the second
            // waits for the first and then finds it claimed.
            let claimed = tx
                .execute(
                    "UPDATE seeks SET claimed_ms = $3
                     WHERE id IN ($1, $2) AND claimed_ms IS NULL",
                    &[&a, &b, &now],
                )
                .await?;
            if claimed == 2 && a != b {
                tx.commit().await?;
                Ok(true)
            } else {
                tx.rollback().await?;
                Ok(false)
            }
        })
    }

    fn release_seeks(&self, seeks: Vec<i64>) -> StoreFuture<'_, ()> {
        self.with_client(move |client| async move {
            client
                .execute(
                    "UPDATE seeks SET claimed_ms = NULL WHERE id = ANY($1) AND game IS NULL",
                    &[&seeks],
                )
                .await?;
            Ok(())
        })
    }

    fn tell_paired(&self, seek: i64, paired: Paired) -> StoreFuture<'_, ()> {
        let me = self.clone();
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            tx.execute(
                "UPDATE seeks SET game = $2, side = $3, rated = $4 WHERE id = $1",
                &[&seek, &paired.game, &paired.side.to_string(), &paired.rated],
            )
            .await?;
            me.announce(&tx, Notice::Paired { seek }).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn take_paired(&self, seek: i64) -> StoreFuture<'_, Option<Paired>> {
        self.with_client(move |client| async move {
            let row = client
                .query_opt(
                    "DELETE FROM seeks WHERE id = $1 AND game IS NOT NULL
                     RETURNING game, side, rated",
                    &[&seek],
                )
                .await?;
            row.map(|r| -> Result<Paired, crate::StoreError> {
                let side: Option<String> = r.try_get(1)?;
                let rated: Option<bool> = r.try_get(2)?;
                Ok(paired(
                    r.try_get(0)?,
                    side.as_deref().unwrap_or("S"),
                    rated.unwrap_or(false),
                ))
            })
            .transpose()
        })
    }
}
