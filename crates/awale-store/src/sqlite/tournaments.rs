//! Tournaments ([`TournamentStore`]) in the games file.

use rusqlite::{params, Connection};

use super::rows::{query_all, query_opt};
use super::Store;
use crate::error::StoreError;
use crate::error::StoreFuture;
use crate::tournaments::*;
use awale_model::game::PlayerId;

fn save(conn: &Connection, record: &TournamentRecord) -> Result<(), StoreError> {
    let t = &record.tournament;
    let changed = conn.prepare_cached(UPDATE_TOURNAMENT)?.execute(params![
        t.id,
        t.state,
        t.ends_ms,
        t.name,
        t.rounds,
        t.current_round
    ])?;
    if changed == 0 {
        return Err(StoreError::Refused(format!("no tournament {}", t.id)));
    }
    for e in &record.entrants {
        conn.prepare_cached(PUT_ENTRANT)?.execute(params![
            t.id, e.number, e.player.0, e.name, e.rating, e.presence, e.score, e.sheet, e.firsts
        ])?;
    }
    for g in &record.games {
        conn.prepare_cached(PUT_PAIRING)?.execute(params![
            g.game_id,
            t.id,
            g.players.0,
            g.players.1,
            g.berserk[0],
            g.berserk[1],
            g.result,
            g.round
        ])?;
    }
    for b in &record.byes {
        conn.prepare_cached(PUT_BYE)?
            .execute(params![t.id, b.round, b.number])?;
    }
    Ok(())
}

fn load(conn: &Connection, id: i64) -> Result<Option<TournamentRecord>, StoreError> {
    let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?1");
    let Some(tournament) = query_opt(conn, &sql, [id], |r| tournament_row(r))? else {
        return Ok(None);
    };
    let entrants = query_all(conn, ENTRANTS, [id], |r| entrant_row(r))?;
    let games = query_all(conn, PAIRINGS, [id], |r| pairing_row(r))?;
    let byes = query_all(conn, BYES, [id], |r| bye_row(r))?;
    Ok(Some(TournamentRecord {
        tournament,
        entrants,
        games,
        byes,
    }))
}

impl TournamentStore for Store {
    fn create_tournament(&self, tournament: TournamentRow) -> StoreFuture<'_, TournamentRow> {
        Box::pin(self.write(move |conn| {
            let t = &tournament;
            let id = conn.prepare_cached(ADD_TOURNAMENT)?.query_row(
                params![
                    t.kind,
                    t.name,
                    t.clock.0,
                    t.clock.1,
                    t.rated,
                    t.minutes,
                    t.starts_ms,
                    t.ends_ms,
                    t.creator.0,
                    t.state,
                    t.created_ms,
                    t.rounds,
                    t.current_round,
                    t.manual_rounds,
                    t.bots_allowed
                ],
                |r| r.get(0),
            )?;
            Ok(TournamentRow { id, ..tournament })
        }))
    }

    fn save_tournament(&self, record: TournamentRecord) -> StoreFuture<'_, ()> {
        Box::pin(self.write(move |conn| save(conn, &record)))
    }

    fn load_tournament(&self, id: i64) -> StoreFuture<'_, Option<TournamentRecord>> {
        Box::pin(self.read(move |conn| load(conn, id)))
    }

    fn tournaments(&self, since_ms: i64, limit: usize) -> StoreFuture<'_, Vec<TournamentRow>> {
        Box::pin(self.read(move |conn| {
            let sql = format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments
                 WHERE state <> 'finished' OR ends_ms >= ?1
                 ORDER BY state = 'finished', starts_ms, id LIMIT ?2"
            );
            let values = params![since_ms, limit as i64];
            query_all(conn, &sql, values, |r| tournament_row(r))
        }))
    }

    fn tournaments_made(&self, creator: PlayerId, since_ms: i64) -> StoreFuture<'_, i64> {
        Box::pin(self.read(move |conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT COUNT(*) FROM tournaments WHERE creator = ?1 AND created_ms >= ?2",
                )?
                .query_row(params![creator.0, since_ms], |r| r.get(0))?)
        }))
    }

    fn unfinished_tournaments_blocking(&self) -> Result<Vec<i64>, StoreError> {
        self.read_blocking(|conn| {
            let sql = "SELECT id FROM tournaments WHERE state <> 'finished' ORDER BY id";
            query_all(conn, sql, [], |r| r.get(0))
        })
    }
}
