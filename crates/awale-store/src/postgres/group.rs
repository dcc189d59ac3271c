//! Group commit of the games' changes: the saves waiting at one moment
//! (moves or seats of different games: the service saves one change of a
//! game at a time) share one transaction, one `BEGIN` ... `COMMIT` on one connection,
//! where each was a transaction of its own. Each change keeps its own
//! answer: its fenced update finds the revision it was made from or writes
//! nothing ([`StoreError::Stale`], which aborts nothing), and only the
//! changes written send their notices, with the `COMMIT`. Any other
//! failure rolls the group back, and each of its changes is then saved
//! alone, as a lone save always is. The changes are sent in the order of
//! their games' ids, so two groups (of this process or of another) lock
//! the rows they share in the same order and never wait on each other in
//! a circle.

use std::sync::{Arc, Weak};

use tokio::sync::{mpsc, oneshot, Semaphore};

use super::{Inner, PgStore, PgTx};
use crate::games::{save_alone, write_change, Change};
use crate::StoreError;
use awale_model::game::WebGame;

/// The most changes in one transaction.
const MOST_IN_A_GROUP: usize = 64;

/// Groups being written at once (each on a connection of the pool): while
/// they are, the next saves wait together.
const GROUPS_AT_ONCE: usize = 4;

/// A change waiting to be saved.
pub(super) struct Pending {
    pub(super) game: WebGame,
    pub(super) change: Change,
    pub(super) answer: oneshot::Sender<Result<(), StoreError>>,
}

/// Takes the saves waiting, in groups, until the store is gone.
pub(super) async fn gather(store: Weak<Inner>, mut waiting: mpsc::UnboundedReceiver<Pending>) {
    let turns = Arc::new(Semaphore::new(GROUPS_AT_ONCE));
    loop {
        let Ok(turn) = Arc::clone(&turns).acquire_owned().await else {
            return;
        };
        let Some(first) = waiting.recv().await else {
            return;
        };
        let mut group = vec![first];
        while group.len() < MOST_IN_A_GROUP {
            match waiting.try_recv() {
                Ok(next) => group.push(next),
                Err(_) => break,
            }
        }
        let Some(inner) = store.upgrade() else {
            return;
        };
        tokio::spawn(async move {
            PgStore { inner }.save_group(group).await;
            drop(turn);
        });
    }
}

impl PgStore {
    /// Saves `group`'s changes in one transaction, each answered.
    async fn save_group(&self, mut group: Vec<Pending>) {
        if group.len() == 1 {
            let Pending {
                game,
                change,
                answer,
            } = group.remove(0);
            let _ = answer.send(save_alone(self, game, change).await);
            return;
        }
        group.sort_by_key(|p| p.game.id);
        let client = match self.client().await {
            Ok(client) => client,
            Err(e) => {
                let said = e.to_string();
                for p in group {
                    let _ = p.answer.send(Err(failed(&said)));
                }
                return;
            }
        };
        let counts = Some(Arc::clone(&self.inner.counts));
        let mut tx = PgTx::deferred(client, self.inner.origin, counts);
        let written = futures_util::future::join_all(
            group.iter().map(|p| write_change(&tx, &p.game, &p.change)),
        )
        .await;
        let spoilt = written
            .iter()
            .any(|w| matches!(w, Err(e) if !matches!(e, StoreError::Stale { .. })));
        if spoilt {
            // The transaction is aborted: each change saved alone, its
            // own answer given.
            let _ = tx.end("ROLLBACK").await;
            tracing::warn!(
                changes = group.len(),
                "a group of changes failed: each is saved alone"
            );
            let alone = group.into_iter().map(|p| async move {
                let _ = p.answer.send(save_alone(self, p.game, p.change).await);
            });
            futures_util::future::join_all(alone).await;
            return;
        }
        let committed = tx.commit().await.map_err(|e| e.to_string());
        for (p, w) in group.into_iter().zip(written) {
            let answer = match (&committed, w) {
                (_, Err(stale)) => Err(stale),
                (Ok(()), Ok(())) => Ok(()),
                (Err(said), Ok(())) => Err(failed(said)),
            };
            let _ = p.answer.send(answer);
        }
    }
}

/// The error each change of a group is answered when the group failed as
/// a whole (`said`: why; a [`StoreError`] is not `Clone`).
fn failed(said: &str) -> StoreError {
    StoreError::Backend(said.into())
}
