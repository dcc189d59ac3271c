//! Tournaments in PostgreSQL: [`TournamentStore`] as the games file's
//! (`../tournaments.rs`), query for query.

use deadpool_postgres::GenericClient;

use super::PgStore;
use crate::cells::dollar_params;
use crate::tournaments::{
    bye_row, entrant_row, pairing_row, tournament_row, TournamentHold, TournamentRecord,
    TournamentRow, TournamentStore, ADD_TOURNAMENT, BYES, ENTRANTS, PAIRINGS, PUT_BYE, PUT_ENTRANT,
    PUT_PAIRING, TOURNAMENT_COLUMNS, UPDATE_TOURNAMENT,
};
use crate::{Notice, StoreError, StoreFuture};
use awale_model::game::PlayerId;

/// The advisory lock of tournament `id`: this prefix and its number.
const HOLD_PREFIX: i64 = 0x4177_7400_0000_0000;

/// A tournament's advisory lock, held by one connection of the pool: given
/// back on drop (or the connection closed, which frees it too).
struct PgHold {
    client: Option<deadpool_postgres::Object>,
    key: i64,
    handle: tokio::runtime::Handle,
}

impl Drop for PgHold {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        let key = self.key;
        self.handle.spawn(async move {
            if client
                .execute("SELECT pg_advisory_unlock($1)", &[&key])
                .await
                .is_err()
            {
                // Not freed: the connection is closed, which frees it.
                drop(deadpool_postgres::Object::take(client));
            }
        });
    }
}

async fn save(tx: &impl GenericClient, record: &TournamentRecord) -> Result<(), StoreError> {
    let t = &record.tournament;
    let changed = tx
        .execute(
            &dollar_params(UPDATE_TOURNAMENT),
            &[
                &t.id,
                &t.state,
                &t.ends_ms,
                &t.name,
                &t.rounds,
                &t.current_round,
            ],
        )
        .await?;
    if changed == 0 {
        return Err(StoreError::Refused(format!("no tournament {}", t.id)));
    }
    for e in &record.entrants {
        tx.execute(
            &dollar_params(PUT_ENTRANT),
            &[
                &t.id,
                &e.number,
                &e.player.0,
                &e.name,
                &e.rating,
                &e.presence,
                &e.score,
                &e.sheet,
                &e.firsts,
            ],
        )
        .await?;
    }
    for g in &record.games {
        tx.execute(
            &dollar_params(PUT_PAIRING),
            &[
                &g.game_id,
                &t.id,
                &g.players.0,
                &g.players.1,
                &g.berserk[0],
                &g.berserk[1],
                &g.result,
                &g.round,
            ],
        )
        .await?;
    }
    for b in &record.byes {
        tx.execute(&dollar_params(PUT_BYE), &[&t.id, &b.round, &b.number])
            .await?;
    }
    Ok(())
}

impl TournamentStore for PgStore {
    fn create_tournament(&self, tournament: TournamentRow) -> StoreFuture<'_, TournamentRow> {
        let me = self.clone();
        self.with_client(move |client| async move {
            let t = &tournament;
            let row = client
                .query_one(
                    &dollar_params(ADD_TOURNAMENT),
                    &[
                        &t.kind,
                        &t.name,
                        &t.clock.0,
                        &t.clock.1,
                        &t.rated,
                        &t.minutes,
                        &t.starts_ms,
                        &t.ends_ms,
                        &t.creator.0,
                        &t.state,
                        &t.created_ms,
                        &t.rounds,
                        &t.current_round,
                        &t.manual_rounds,
                        &t.bots_allowed,
                    ],
                )
                .await?;
            let id = row.try_get(0)?;
            me.announce(&client, Notice::Tournament { id }).await?;
            Ok(TournamentRow { id, ..tournament })
        })
    }

    fn save_tournament(&self, record: TournamentRecord) -> StoreFuture<'_, ()> {
        let me = self.clone();
        self.with_client(move |mut client| async move {
            let tx = client.transaction().await?;
            save(&tx, &record).await?;
            me.announce(
                &tx,
                Notice::Tournament {
                    id: record.tournament.id,
                },
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn load_tournament(&self, id: i64) -> StoreFuture<'_, Option<TournamentRecord>> {
        self.with_client(move |mut client| async move {
            // One snapshot: the players and games of the row read.
            let tx = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let Some(row) = tx
                .query_opt(
                    &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"),
                    &[&id],
                )
                .await?
            else {
                return Ok(None);
            };
            let tournament = tournament_row(&row)?;
            let entrants = tx.query(&dollar_params(ENTRANTS), &[&id]).await?;
            let games = tx.query(&dollar_params(PAIRINGS), &[&id]).await?;
            let byes = tx.query(&dollar_params(BYES), &[&id]).await?;
            let record = TournamentRecord {
                tournament,
                entrants: entrants.iter().map(entrant_row).collect::<Result<_, _>>()?,
                games: games.iter().map(pairing_row).collect::<Result<_, _>>()?,
                byes: byes.iter().map(bye_row).collect::<Result<_, _>>()?,
            };
            tx.commit().await?;
            Ok(Some(record))
        })
    }
    fn tournaments(&self, since_ms: i64, limit: usize) -> StoreFuture<'_, Vec<TournamentRow>> {
        self.with_client(move |client| async move {
            let rows = client
                .query(
                    &format!(
                        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
                         WHERE state <> 'finished' OR ends_ms >= $1
                         ORDER BY state = 'finished', starts_ms, id LIMIT $2"
                    ),
                    &[&since_ms, &(limit as i64)],
                )
                .await?;
            Ok(rows.iter().map(tournament_row).collect::<Result<_, _>>()?)
        })
    }

    fn tournaments_made(&self, creator: PlayerId, since_ms: i64) -> StoreFuture<'_, i64> {
        self.with_client(move |client| async move {
            let row = client
                .query_one(
                    "SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND created_ms >= $2",
                    &[&creator.0, &since_ms],
                )
                .await?;
            Ok(row.try_get(0)?)
        })
    }

    fn unfinished_tournaments_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.ids_blocking("SELECT id FROM tournaments WHERE state <> 'finished' ORDER BY id")
    }

    fn hold_tournament(&self, id: i64) -> StoreFuture<'_, Option<TournamentHold>> {
        let me = self.clone();
        self.with_client(move |client| async move {
            let key = HOLD_PREFIX | id;
            client
                .execute("SELECT pg_advisory_lock($1)", &[&key])
                .await?;
            let hold: Box<dyn Send + Sync> = Box::new(PgHold {
                client: Some(client),
                key,
                handle: me.inner.handle.clone(),
            });
            Ok(Some(TournamentHold(hold)))
        })
    }
}
