//! Fair play as the store keeps it, behind its own interface
//! ([`FairPlayStore`], which the PostgreSQL store fills too), so that
//! every process sharing the store and the next start know what one saw:
//! where each account was seen lately (its places), the pairs flagged for
//! a rated game played casual because the two were seen at one place, and
//! the rated games each pair began (the limit of rated games a pair plays
//! a day, taken in one transaction under the pair's lock). The rules (what
//! a place is, the window, the limit) are the service's
//! (`awale-service/src/fairplay.rs`); schema 18, `fair_play.sql`.

use awale_model::account::FlaggedPair;
use awale_model::game::PlayerId;

use crate::cells::{Cells, Value};
use crate::error::{StoreError, StoreFuture};
use crate::tx::{Backend, Tx};

/// The space of the locks of a pair's rated games (see [`Tx::lock`]).
const PAIR_LOCK_SPACE: i64 = 5;

/// Where the service keeps what fair play saw.
pub trait FairPlayStore: Send + Sync {
    /// Account `player` was seen at each of `places` (the service's keys)
    /// at `at_ms`: kept with that time, its `keep` newest places only;
    /// every place seen no later than `forget_ms` (anyone's) forgotten.
    fn note_places(
        &self,
        player: PlayerId,
        places: Vec<String>,
        at_ms: i64,
        forget_ms: i64,
        keep: usize,
    ) -> StoreFuture<'_, ()>;

    /// The places account `player` was seen at after `since_ms`.
    fn places(&self, player: PlayerId, since_ms: i64) -> StoreFuture<'_, Vec<String>>;

    /// Flags a pair (its `players` in any order; `times` ignored): a new
    /// pair's record, or the pair's record updated (names and time the
    /// newest, an address or a device once shared stays so, one more
    /// game).
    fn flag_pair(&self, flag: FlaggedPair) -> StoreFuture<'_, ()>;

    /// The `limit` pairs flagged last, newest first.
    fn flagged_pairs(&self, limit: usize) -> StoreFuture<'_, Vec<FlaggedPair>>;

    /// Counts rated games begun at `at_ms` by `pairs` (each pair once per
    /// game; the two of a pair in any order) against the limit of `limit`
    /// per pair since `since_ms`, all or none, under each pair's lock:
    /// None when taken, else the games the first pair over the limit had
    /// begun (nothing taken then). The games begun no later than
    /// `since_ms` are forgotten.
    fn take_rated_pairs(
        &self,
        pairs: Vec<[PlayerId; 2]>,
        since_ms: i64,
        at_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Option<usize>>;
}

/// The two players of a pair in the one order the store keeps.
fn ordered([a, b]: [PlayerId; 2]) -> [PlayerId; 2] {
    if a.0 <= b.0 {
        [a, b]
    } else {
        [b, a]
    }
}

async fn note_places<X: Tx>(
    tx: &X,
    player: PlayerId,
    places: Vec<String>,
    at_ms: i64,
    forget_ms: i64,
    keep: usize,
) -> Result<(), StoreError> {
    for place in &places {
        let values: [&dyn Value; 3] = [&player.0, place, &at_ms];
        tx.execute(
            "INSERT INTO sightings (player, place, seen_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (player, place) DO UPDATE SET seen_ms = excluded.seen_ms",
            &values,
        )
        .await?;
    }
    tx.execute("DELETE FROM sightings WHERE seen_ms <= ?1", &[&forget_ms])
        .await?;
    let keep = keep as i64;
    let values: [&dyn Value; 2] = [&player.0, &keep];
    tx.execute(
        "DELETE FROM sightings WHERE player = ?1 AND place NOT IN
             (SELECT place FROM sightings WHERE player = ?1
              ORDER BY seen_ms DESC, place LIMIT ?2)",
        &values,
    )
    .await?;
    Ok(())
}

async fn flag_pair<X: Tx>(tx: &X, flag: FlaggedPair) -> Result<(), StoreError> {
    let FlaggedPair {
        names,
        players,
        at_ms,
        address,
        device,
        ..
    } = flag;
    let [a, b] = ordered(players.clone());
    let names = if a == players[0] {
        names
    } else {
        [names[1].clone(), names[0].clone()]
    };
    let (address, device) = (i64::from(address), i64::from(device));
    let values: [&dyn Value; 7] = [&a.0, &b.0, &names[0], &names[1], &at_ms, &address, &device];
    tx.execute(
        "INSERT INTO flagged_pairs
             (player_a, player_b, name_a, name_b, at_ms, address, device, times)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1)
         ON CONFLICT (player_a, player_b) DO UPDATE SET
             name_a = excluded.name_a, name_b = excluded.name_b, at_ms = excluded.at_ms,
             address = CASE WHEN excluded.address = 1 THEN 1 ELSE flagged_pairs.address END,
             device = CASE WHEN excluded.device = 1 THEN 1 ELSE flagged_pairs.device END,
             times = flagged_pairs.times + 1",
        &values,
    )
    .await?;
    Ok(())
}

/// A flagged pair from a row of the columns `flagged_pairs` lists.
fn flagged<R: Cells>(r: &R) -> Result<FlaggedPair, R::Error> {
    Ok(FlaggedPair {
        players: [PlayerId(r.cell(0)?), PlayerId(r.cell(1)?)],
        names: [r.cell(2)?, r.cell(3)?],
        at_ms: r.cell(4)?,
        address: r.cell::<i64>(5)? != 0,
        device: r.cell::<i64>(6)? != 0,
        times: r.cell(7)?,
    })
}

async fn take_rated_pairs<X: Tx>(
    tx: &X,
    pairs: Vec<[PlayerId; 2]>,
    since_ms: i64,
    at_ms: i64,
    limit: usize,
) -> Result<Option<usize>, StoreError> {
    let pairs: Vec<[PlayerId; 2]> = pairs.into_iter().map(ordered).collect();
    let mut distinct = pairs.clone();
    distinct.sort_by(|x, y| (&x[0].0, &x[1].0).cmp(&(&y[0].0, &y[1].0)));
    distinct.dedup();
    for [a, b] in &distinct {
        tx.lock(PAIR_LOCK_SPACE, &format!("{} {}", a.0, b.0))
            .await?;
    }
    tx.execute("DELETE FROM rated_pairs WHERE at_ms <= ?1", &[&since_ms])
        .await?;
    for pair in &distinct {
        let values: [&dyn Value; 3] = [&pair[0].0, &pair[1].0, &since_ms];
        let before: i64 = tx
            .value(
                "SELECT COUNT(*) FROM rated_pairs
                 WHERE player_a = ?1 AND player_b = ?2 AND at_ms > ?3",
                &values,
            )
            .await?;
        let before = usize::try_from(before).unwrap_or(0);
        let here = pairs.iter().filter(|p| *p == pair).count();
        if before + here > limit {
            return Ok(Some(before));
        }
    }
    for [a, b] in &pairs {
        let values: [&dyn Value; 3] = [&a.0, &b.0, &at_ms];
        tx.execute(
            "INSERT INTO rated_pairs (player_a, player_b, at_ms) VALUES (?1, ?2, ?3)",
            &values,
        )
        .await?;
    }
    Ok(None)
}

impl<S: Backend> FairPlayStore for S {
    fn note_places(
        &self,
        player: PlayerId,
        places: Vec<String>,
        at_ms: i64,
        forget_ms: i64,
        keep: usize,
    ) -> StoreFuture<'_, ()> {
        self.write(move |tx| Box::pin(note_places(tx, player, places, at_ms, forget_ms, keep)))
    }

    fn places(&self, player: PlayerId, since_ms: i64) -> StoreFuture<'_, Vec<String>> {
        self.read(move |tx| {
            Box::pin(async move {
                let values: [&dyn Value; 2] = [&player.0, &since_ms];
                tx.query(
                    "SELECT place FROM sightings WHERE player = ?1 AND seen_ms > ?2
                     ORDER BY place",
                    &values,
                    |r| r.cell(0),
                )
                .await
            })
        })
    }

    fn flag_pair(&self, flag: FlaggedPair) -> StoreFuture<'_, ()> {
        self.write(move |tx| Box::pin(flag_pair(tx, flag)))
    }

    fn flagged_pairs(&self, limit: usize) -> StoreFuture<'_, Vec<FlaggedPair>> {
        self.read(move |tx| {
            Box::pin(async move {
                tx.query(
                    "SELECT player_a, player_b, name_a, name_b, at_ms, address, device, times
                     FROM flagged_pairs ORDER BY at_ms DESC, player_a, player_b LIMIT ?1",
                    &[&(limit as i64)],
                    |r| flagged(r),
                )
                .await
            })
        })
    }

    fn take_rated_pairs(
        &self,
        pairs: Vec<[PlayerId; 2]>,
        since_ms: i64,
        at_ms: i64,
        limit: usize,
    ) -> StoreFuture<'_, Option<usize>> {
        self.write(move |tx| Box::pin(take_rated_pairs(tx, pairs, since_ms, at_ms, limit)))
    }
}
