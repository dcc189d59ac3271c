//! The pools' seeks the processes of one site share (PostgreSQL, a
//! throwaway cluster): a renewal keeps the wait, a pairing is claimed by
//! one process only (both seeks or neither), its news is told once and
//! heard by the other processes, and what a lost process left is given
//! back.

mod common;
mod pg;

use common::{next_notice, postgres, two_processes};

use std::time::Duration;

use awale_store::seeks::{Paired, Renewed, SeekRow, SeekStore};
use awale_store::{GameStore, Notice, PgStore};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn seek(n: u8, pool: &str, since_ms: i64) -> SeekRow {
    SeekRow {
        id: 0,
        player: common::player(n),
        pool: pool.into(),
        name: format!("P{n}"),
        account: n.is_multiple_of(2),
        rating: 1400.0 + f64::from(n),
        balance: -1,
        limits: (n == 3).then_some((1300.0, 1600.0)),
        since_ms,
    }
}

/// The seek as stored.
async fn put(store: &PgStore, n: u8, pool: &str, now: i64) -> SeekRow {
    match store.renew_seek(seek(n, pool, now), now).await.unwrap() {
        Renewed::Seeking(row) => row,
        Renewed::Paired(p) => panic!("paired at once: {p:?}"),
    }
}

#[test]
fn a_renewed_seek_keeps_its_wait_and_a_pairing_is_claimed_once() {
    runtime().block_on(async {
        let store = postgres();
        let one = put(&store, 1, "3+2", 1_000).await;
        assert_eq!(one.since_ms, 1_000);
        // Renewed later in the same pool: the same seek, the same wait.
        let again = put(&store, 1, "3+2", 5_000).await;
        assert_eq!((again.id, again.since_ms), (one.id, 1_000));
        // In another pool: a new wait.
        let moved = put(&store, 1, "5+3", 6_000).await;
        assert_eq!(
            (moved.id, moved.pool.as_str(), moved.since_ms),
            (one.id, "5+3", 6_000)
        );
        let three = put(&store, 3, "5+3", 6_500).await;
        assert_eq!(three.limits, Some((1300.0, 1600.0)));
        assert_eq!(
            (three.account, three.rating, three.balance),
            (false, 1403.0, -1)
        );
        let two = put(&store, 2, "5+3", 7_000).await;
        let waiting = store.waiting_seeks(0).await.unwrap();
        assert_eq!(
            waiting.iter().map(|s| s.id).collect::<Vec<_>>(),
            [one.id, three.id, two.id],
            "oldest wait first"
        );

        // Two claims over one seek: the first takes both of its own, the
        // second neither of its own.
        assert!(store.claim_seeks(one.id, two.id, 8_000).await.unwrap());
        assert!(!store.claim_seeks(three.id, two.id, 8_000).await.unwrap());
        let waiting = store.waiting_seeks(0).await.unwrap();
        assert_eq!(waiting.iter().map(|s| s.id).collect::<Vec<_>>(), [three.id]);
        // A claimed seek is not cancelled under its pairing.
        assert!(!store.drop_seek(one.player.clone()).await.unwrap());
        // A renewal while being paired only says it still waits.
        assert!(matches!(
            store.renew_seek(seek(1, "1+0", 8_500), 8_500).await.unwrap(),
            Renewed::Seeking(row) if row.pool == "5+3"
        ));

        // The news: told once, by a renewal or taken.
        let game = |side| Paired {
            game: "abc".into(),
            side,
            rated: true,
        };
        store.tell_paired(one.id, game('S')).await.unwrap();
        store.tell_paired(two.id, game('N')).await.unwrap();
        assert_eq!(
            store
                .renew_seek(seek(1, "5+3", 9_000), 9_000)
                .await
                .unwrap(),
            Renewed::Paired(game('S'))
        );
        assert_eq!(store.take_paired(two.id).await.unwrap(), Some(game('N')));
        assert_eq!(store.take_paired(two.id).await.unwrap(), None);
        assert_eq!(store.take_paired(three.id).await.unwrap(), None);
        // Seeking again after a pairing is a new seek.
        let anew = put(&store, 1, "5+3", 9_500).await;
        assert_ne!(anew.id, one.id);

        // A game that could not be made gives its seeks back.
        assert!(store.claim_seeks(three.id, anew.id, 10_000).await.unwrap());
        store.release_seeks(vec![three.id, anew.id]).await.unwrap();
        assert_eq!(store.waiting_seeks(0).await.unwrap().len(), 2);
        assert!(store.drop_seek(anew.player.clone()).await.unwrap());
        assert!(!store.drop_seek(anew.player.clone()).await.unwrap());

        // A seek not renewed is dropped; a claim whose process was lost
        // (never told, never released) goes back to the pool.
        let four = put(&store, 4, "3+2", 20_000).await;
        assert!(store.claim_seeks(three.id, four.id, 20_000).await.unwrap());
        put(&store, 4, "3+2", 40_000).await;
        let waiting = store.waiting_seeks(30_000).await.unwrap();
        assert_eq!(waiting.iter().map(|s| s.id).collect::<Vec<_>>(), [four.id]);
    });
}

#[test]
fn of_two_processes_pairing_the_same_seekers_one_claims_them() {
    runtime().block_on(async {
        let (a, b) = two_processes();
        for round in 0..20u8 {
            let s = put(&a, 10 + 3 * round, "3+2", 1).await;
            let t = put(&b, 11 + 3 * round, "3+2", 1).await;
            let u = put(&b, 12 + 3 * round, "3+2", 1).await;
            // Each process found another pairing with `t` in it, at once.
            let (one, two) =
                tokio::join!(a.claim_seeks(s.id, t.id, 2), b.claim_seeks(t.id, u.id, 2));
            let (one, two) = (one.unwrap(), two.unwrap());
            assert!(one ^ two, "round {round}: claimed {one} and {two}");
            let left: Vec<i64> = a
                .waiting_seeks(0)
                .await
                .unwrap()
                .iter()
                .map(|r| r.id)
                .collect();
            assert_eq!(left, [if one { u.id } else { s.id }], "round {round}");
            for id in [s.id, t.id, u.id] {
                let _ = a.release_seeks(vec![id]).await;
            }
            for r in [&s, &t, &u] {
                let _ = a.drop_seek(r.player.clone()).await;
            }
        }
    });
}

#[test]
fn another_process_hears_a_pairing_told() {
    runtime().block_on(async {
        let (a, b) = two_processes();
        let mut heard = b.notices().unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let one = put(&b, 1, "1+0", 1).await;
        let two = put(&a, 2, "1+0", 1).await;
        assert!(a.claim_seeks(one.id, two.id, 2).await.unwrap());
        let paired = Paired {
            game: "xyz".into(),
            side: 'N',
            rated: false,
        };
        a.tell_paired(one.id, paired.clone()).await.unwrap();
        let notice = next_notice(&mut heard).await;
        assert_eq!(notice, Notice::Paired { seek: one.id });
        assert_eq!(notice, Notice::from_text(&notice.to_text()).unwrap());
        assert_eq!(b.take_paired(one.id).await.unwrap(), Some(paired));
    });
}
