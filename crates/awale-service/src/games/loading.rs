//! Games found and read: by public id (an old link's number for its own
//! players only), loaded from the store into memory (a flag that ran out
//! falls on the way), and read again when another process sharing the
//! store changed them (its notices heard here), or when the process that
//! held a game's flag is gone.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

use awale_model::error::{Error, Kind};
use awale_model::game::WebGame;
use awale_store::Notice;

use super::{Change, Entry, Games, FLAG_TAKEN_OVER_MS};
use crate::lock;
use awale_model::Code;

impl Games {
    /// The store's id of the game an address names by `text`: its public
    /// id, or, for the links made before games had one, its number in the
    /// store, which opens the game for its own players only (`viewer`
    /// holds a seat): numbers are easy to guess.
    ///
    /// # Errors
    ///
    /// `no_such_game` (not found) for any other text, a public id of no
    /// game, or a number of a game the viewer does not play (the reason
    /// `numbered` then: the page asks for the game's new link); a storage
    /// failure.
    pub async fn find(
        self: &Arc<Self>,
        text: &str,
        viewer: Option<&crate::game::PlayerId>,
    ) -> Result<i64, Error> {
        let not_found = || {
            Error::new(
                Kind::NotFound,
                Code::NoSuchGame,
                format!("no game with id `{}`", crate::error::shown(text)),
            )
        };
        if crate::secret::is_numbered(text) {
            let numbered = || {
                Error::new(
                    Kind::NotFound,
                    Code::NoSuchGame,
                    "games are no longer found by number: ask a player of the game for its link",
                )
                .because("numbered")
            };
            let id = text.parse::<i64>().ok().filter(|&id| id > 0);
            let Some(id) = id else { return Err(numbered()) };
            // From the store, not into memory: strangers walking numbers
            // load nothing for long.
            let seated = match self.store.load(id).await? {
                Some(game) => viewer
                    .is_some_and(|v| game.seats.iter().flatten().any(|seat| seat.player == *v)),
                None => false,
            };
            return if seated { Ok(id) } else { Err(numbered()) };
        }
        if !crate::secret::is_game_id(text) {
            return Err(not_found());
        }
        if let Some(&id) = lock(&self.public_ids.known).get(text) {
            return Ok(id);
        }
        // The requests naming it at once share one read, and its failure
        // (a store stalled: each waiter trying again in turn would hold
        // them all the longer); the next request reads again.
        let reading = self.public_ids.reading(text);
        let found = reading.cell.get_or_init(|| self.read_public(text)).await;
        found.clone()?.ok_or_else(not_found)
    }

    /// Reads the game whose public id is `text` from the store, keeps it
    /// here and notes its id: its id, or None. One read where its id then
    /// the game took two (a game is asked for by public id where it is
    /// not known yet, then read).
    async fn read_public(self: &Arc<Self>, text: &str) -> Result<Option<i64>, Error> {
        let since = self.noticed.now();
        let Some(game) = self.store.load_public(text.to_string()).await? else {
            return Ok(None);
        };
        let id = game.id;
        self.keep_read(game, since).await;
        self.public_ids.know(text, id);
        Ok(Some(id))
    }

    /// Keeps `game`, read from the store when [`Noticed::now`] was
    /// `since` before its entry here was made, as the copy held here,
    /// unless one is held already or a change of its game may have been
    /// heard since (perhaps not kept: nothing of the game was known here,
    /// or nothing held): a copy that may be old is not kept, the next
    /// request reads the game.
    async fn keep_read(self: &Arc<Self>, game: WebGame, since: u64) {
        let entry = self.entry(game.id);
        let mut slot = entry.game.lock().await;
        if slot.is_none() && !self.noticed.since(game.id, since) {
            self.hold(&entry, &mut slot, game).await;
        }
    }

    /// Game `id` as it is now; its flag falls first if its time ran out.
    ///
    /// # Errors
    ///
    /// `no_such_game`, or a storage failure.
    pub async fn load(self: &Arc<Self>, id: i64) -> Result<WebGame, Error> {
        let read = || self.apply(id, true, |_| Ok(((), false)));
        match read().await {
            // The flag fell on the way (its timer had not run yet, or ran
            // in a process that is gone): the fall is stored now, and a
            // reader gets the game as it now is, not an error. Or another
            // process stored the fall (or a move) first: the copy here was
            // dropped, and reading again gives the stored game. A reader
            // never gets `stale` (CI's run of processes.rs saw a GET
            // answered 409 as two processes stored one flag's fall).
            Err(e) if e.code == Code::GameOver || e.code == Code::Stale => read().await,
            answer => answer,
        }
        .map(|(game, ())| game)
    }

    /// Game `id` for a watcher already listening to it here (its events'
    /// stream registered): as [`Games::load`], but the copy held here is
    /// not checked against the store's revision (a round trip saved per
    /// stream opened: 5,000 spectators opening theirs at once made
    /// thousands). While the game has watchers here, every change another
    /// process makes is applied to the copy as its notice is heard
    /// ([`Games::heard`]) and sent to them: a change whose notice is still
    /// on its way reaches the watcher as an event right after. Without
    /// watchers here, [`Games::load`].
    ///
    /// # Errors
    ///
    /// `no_such_game`, or a storage failure.
    pub async fn load_watched(self: &Arc<Self>, id: i64) -> Result<WebGame, Error> {
        if !self.hub.has_listeners(id) {
            return self.load(id).await;
        }
        let read = || self.apply(id, false, |_| Ok(((), false)));
        match read().await {
            // As in `load`: the flag fell on the way, or another process
            // stored first.
            Err(e) if e.code == Code::GameOver || e.code == Code::Stale => read().await,
            answer => answer,
        }
        .map(|(game, ())| game)
    }

    /// Reads the stored revision of game `id` and, when the copy of `slot`
    /// is older, brings it up to it (see [`Games::catch_up`]). Whether it
    /// was older.
    pub(super) async fn check_revision(
        self: &Arc<Self>,
        id: i64,
        entry: &Entry,
        slot: &mut Option<WebGame>,
    ) -> Result<bool, Error> {
        if let (Some(stored), Some(held)) = (self.store.revision(id).await?, slot.as_ref()) {
            if held.revision < stored {
                self.catch_up(id, entry, slot, Some(stored)).await?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// What another process changed, told to this one. A game is followed
    /// only where one of this process's clients plays or watches it (and
    /// its end where a copy is held, for whoever follows the ends): a
    /// process pays nothing for the moves of a game it does not serve.
    /// Where it is followed, the change is applied to the copy from what
    /// the notice carries, without a read. A copy held here without
    /// watchers is dropped (read again when next asked for), unless a
    /// request asked for it lately ([`SERVED_LATELY_MS`]: a page about to
    /// listen, a player between two streams) and the notice carries the
    /// change that follows it: applied then, as for a watcher. The
    /// process that made the change holds the game and arms its flag.
    pub(super) fn heard(self: &Arc<Self>, notice: Notice) {
        match notice {
            Notice::Game {
                id,
                revision,
                kept,
                ended,
                change,
            } => {
                self.lobby_changed.store(true, Ordering::Relaxed);
                // Noted before anything of the game is looked at: a read
                // by public id keeping its copy meanwhile sees it.
                self.noticed.note(id);
                let entry = lock(&self.entries).get(&id).cloned();
                let kept = usize::try_from(kept).unwrap_or(0);
                let followed = self.hub.has_listeners(id) || (ended && entry.is_some());
                let entry = match (entry, followed) {
                    (Some(entry), _) => entry,
                    (None, true) => self.entry(id),
                    (None, false) => return,
                };
                // Kept for whoever applies it, in the order of revisions
                // (notices of one game may be taken up in another order).
                lock(&entry.heard).insert(revision, (kept, change));
                let me = Arc::clone(self);
                if followed {
                    tokio::spawn(async move { me.refresh(id, Some(revision)).await });
                    return;
                }
                tokio::spawn(async move {
                    let mut slot = entry.game.lock().await;
                    if slot.as_ref().is_some_and(|held| held.revision < revision) {
                        let served = me.now_ms() - entry.touched_ms.load(Ordering::Relaxed)
                            < SERVED_LATELY_MS;
                        let next = slot
                            .as_ref()
                            .is_some_and(|held| held.revision + 1 == revision);
                        let carried = || {
                            lock(&entry.heard)
                                .get(&revision)
                                .is_some_and(|(_, change)| change.is_some())
                        };
                        if me.hub.has_listeners(id) || (served && next && carried()) {
                            // A watcher came meanwhile (and may have
                            // read this copy), or may come: it is told
                            // the change.
                            drop(slot);
                            me.refresh(id, Some(revision)).await;
                            return;
                        }
                        drop_copy(&entry, &mut slot);
                    }
                    // Nothing heard is kept for a copy no longer held.
                    let held = slot.as_ref().map(|g| g.revision);
                    lock(&entry.heard).retain(|&r, _| held.is_some_and(|h| r > h));
                });
            }
            // The pools', the tournaments', the chat rooms' and the
            // challenges' news (`pools.rs`, `tournaments.rs`, `chat.rs`,
            // `challenges.rs` hear it).
            Notice::Chat { .. }
            | Notice::Paired { .. }
            | Notice::Tournament { .. }
            | Notice::TournamentChat { .. }
            | Notice::Challenge { .. } => {}
            Notice::Resync => {
                self.lobby_changed.store(true, Ordering::Relaxed);
                // Any game's change may be lost: no read begun before
                // keeps its copy.
                self.noticed.note_all();
                let held: Vec<i64> = lock(&self.entries).keys().copied().collect();
                for id in held {
                    let me = Arc::clone(self);
                    tokio::spawn(async move { me.refresh(id, None).await });
                }
            }
        }
    }

    /// Brings the copy of game `id` held here up to `revision` (another
    /// process changed it), or, without one, up to the stored game, and
    /// tells this process's watchers what changed (see
    /// [`Games::catch_up`]).
    ///
    /// A notice for a copy no longer held here, of a game nobody watches
    /// here (an end heard after the copy was dropped), reads nothing: the
    /// process that made the change tells its own watchers and the ends.
    /// A copy nobody watches that could not be brought up to date is
    /// dropped.
    pub(super) async fn refresh(self: &Arc<Self>, id: i64, revision: Option<i64>) {
        let entry = self.entry(id);
        let mut slot = entry.game.lock().await;
        if revision.is_some() && slot.is_none() && !self.hub.has_listeners(id) {
            return;
        }
        if let Err(e) = self.catch_up(id, &entry, &mut slot, revision).await {
            tracing::warn!(game = id, error = %e, "a game changed elsewhere not read");
            // A copy left behind, its notice used up: dropped where nobody
            // watches it (read again when next asked for).
            if !self.hub.has_listeners(id) {
                drop_copy(&entry, &mut slot);
            }
        }
    }

    /// Brings the game of `slot` up to date and tells this process's
    /// watchers each change: the new move, or the whole game. Under the
    /// game's lock.
    ///
    /// With `upto` (the revision another process's notice announced), the
    /// notices heard are applied one revision after the other, each from
    /// what it carries ([`awale_store::GameChange`]: no read), else by
    /// reading its new rows only; the whole game is read only when the
    /// copy missed a revision (or there is none). The process that made
    /// the change holds the flag: a timer armed here is dropped (one
    /// taken over once overdue, [`Games::take_over_flags`]).
    ///
    /// Without `upto` (notices were lost, or this process's change was
    /// refused on a copy it had checked), the whole game is read and its
    /// flag armed here.
    pub(super) async fn catch_up(
        self: &Arc<Self>,
        id: i64,
        entry: &Entry,
        slot: &mut Option<WebGame>,
        upto: Option<i64>,
    ) -> Result<(), Error> {
        loop {
            let held = slot.as_ref().map(|g| g.revision);
            if upto.is_some_and(|upto| held.is_some_and(|r| r >= upto)) {
                return Ok(());
            }
            // The notices of revisions the copy has are done with.
            let next = held.and_then(|r| {
                let mut heard = lock(&entry.heard);
                heard.retain(|&revision, _| revision > r);
                heard.remove(&(r + 1))
            });
            let (loaded, whole) = match (slot.as_ref(), next, upto) {
                (Some(held), Some((kept, change)), Some(_)) => {
                    let revision = held.revision + 1;
                    match change.and_then(|c| c.apply(held, revision, kept)) {
                        Some(game) => (Some(game), false),
                        None => (
                            self.store.load_newer(held.clone(), revision, kept).await?,
                            false,
                        ),
                    }
                }
                _ => (self.store.load(id).await?, true),
            };
            let Some(game) = loaded else {
                return Ok(());
            };
            let newer = self.take_over_copy(id, entry, slot, game, upto.is_none());
            if whole || !newer {
                if let Some(r) = slot.as_ref().map(|g| g.revision) {
                    lock(&entry.heard).retain(|&revision, _| revision > r);
                }
                return Ok(());
            }
        }
    }

    /// Makes `game` (read or applied, newer than the copy of `slot` or the
    /// first) the copy held here and tells this process's watchers; with
    /// `arm`, its flag is armed here, else a timer armed here is dropped
    /// (the process that changed it holds it). Whether it was newer.
    fn take_over_copy(
        self: &Arc<Self>,
        id: i64,
        entry: &Entry,
        slot: &mut Option<WebGame>,
        mut game: WebGame,
        arm: bool,
    ) -> bool {
        if slot
            .as_ref()
            .is_some_and(|held| held.revision >= game.revision)
        {
            return false;
        }
        let kind = match slot.as_ref() {
            Some(held) => {
                let (old, new) = (held.game.plies(), game.game.plies());
                if new.len() == old.len() + 1 && new[..old.len()] == *old {
                    Some(Change::Move)
                } else {
                    Some(Change::State)
                }
            }
            None if self.hub.has_listeners(id) => Some(Change::State),
            None => None,
        };
        game.version = self.hub.version(id);
        if arm {
            self.arm_flag(entry, &game);
        } else if let Some(timer) = lock(&entry.timer).take() {
            timer.abort();
        }
        if let Some(kind) = kind {
            self.publish(&mut game, kind);
        }
        // An end made in another process is told here too (the process
        // that holds the game's tournament records it).
        if slot.as_ref().is_some_and(|held| held.end().is_none()) && game.end().is_some() {
            let _ = self.endings.send(game.clone());
        }
        *slot = Some(game);
        true
    }

    /// Drops the flags the processes holding their games did not drop in
    /// time (such a process is gone): the games whose side to move ran out
    /// of time [`FLAG_TAKEN_OVER_MS`] ago and are not held here are read
    /// (reading drops the flag; of several processes doing so, the store's
    /// fence lets one store the fall). One read of the store each
    /// [`FLAGS_OVERDUE_EVERY`], whatever the number of games and moves.
    pub(super) async fn take_over_flags(self: &Arc<Self>) {
        let before = self.now_ms() - FLAG_TAKEN_OVER_MS;
        let ids = match self.store.overdue_flags(before, 100).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "overdue flags not read");
                return;
            }
        };
        for id in ids {
            let held = lock(&self.entries).get(&id).cloned();
            // A copy held here with its timer armed: its own flag (a copy
            // kept from other processes' notices has none).
            if held.is_some_and(|e| lock(&e.timer).is_some()) {
                continue;
            }
            let me = Arc::clone(self);
            tokio::spawn(async move {
                match me.load(id).await {
                    Err(e) if e.code == Code::GameOver => {}
                    Err(e) => tracing::warn!(game = id, error = %e, "overdue flag not dropped"),
                    Ok(_) => {}
                }
            });
        }
    }
}

/// How long after a request asked for a game a copy held without
/// watchers is still brought up to date by the changes the notices carry
/// (see [`Games::heard`]): the first moves of a game just joined reach a
/// page opening its stream without a second read of the game.
const SERVED_LATELY_MS: i64 = 5_000;

/// The public ids asked lately (see [`Games::find`]).
#[derive(Default)]
pub(super) struct PublicIds {
    /// The store's id of each.
    pub(super) known: Mutex<HashMap<String, i64>>,
    /// Those being read from the store, each read shared by the requests
    /// that name it meanwhile.
    reading: Mutex<HashMap<String, Arc<OnceCell<PublicRead>>>>,
}

/// What a read of a public id found: the game's id, or none.
type PublicRead = Result<Option<i64>, Error>;

/// A request's share of the read of a public id ([`PublicIds::reading`]),
/// let go when the request is done or gone.
struct Reading<'a> {
    ids: &'a PublicIds,
    text: &'a str,
    cell: Arc<OnceCell<PublicRead>>,
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        let mut all = lock(&self.ids.reading);
        // Taken away once read (the id is known then, or the read failed:
        // the next request reads again), or by the last one done with it
        // (the map's and this: a read left).
        let done = |r: &Arc<OnceCell<PublicRead>>| {
            Arc::ptr_eq(r, &self.cell) && (r.initialized() || Arc::strong_count(r) <= 2)
        };
        if all.get(self.text).is_some_and(done) {
            all.remove(self.text);
        }
    }
}

/// How many public ids [`PublicIds`] keeps: bounded between sweeps,
/// whatever strangers ask.
const PUBLIC_IDS_KEPT: usize = 100_000;

impl PublicIds {
    /// Notes `text` as the public id of game `id`.
    pub(super) fn know(&self, text: &str, id: i64) {
        let mut known = lock(&self.known);
        if known.len() >= PUBLIC_IDS_KEPT {
            known.clear();
        }
        known.insert(text.to_string(), id);
    }

    /// A share of the read of `text` going on, or of a new one.
    fn reading<'a>(&'a self, text: &'a str) -> Reading<'a> {
        let mut reading = lock(&self.reading);
        // Bounded whatever happens to the requests.
        if reading.len() >= PUBLIC_IDS_KEPT {
            reading.clear();
        }
        let cell = Arc::clone(reading.entry(text.to_string()).or_default());
        Reading {
            ids: self,
            text,
            cell,
        }
    }
}

/// The other processes' changes of games heard here, for a copy read
/// before its game's entry was made (a notice of a game with no entry is
/// not kept): whether a change of its game may have been heard since its
/// read began.
pub(super) struct Noticed {
    /// How many were heard.
    heard: AtomicU64,
    /// By bucket of game ids ([`NOTICED_BUCKETS`]): [`Noticed::heard`]
    /// when the bucket's last was heard.
    last: [AtomicU64; NOTICED_BUCKETS],
}

/// The buckets of [`Noticed`] (32 KiB): a game read by its public id
/// while other games' changes are heard is taken as maybe missing one of
/// its own for one bucket in this many (it is then read again when asked
/// for). With 256, a thousand games made at once on another process had
/// 3 in 10 of their first reads elsewhere made again.
const NOTICED_BUCKETS: usize = 4096;

impl Default for Noticed {
    fn default() -> Noticed {
        Noticed {
            heard: AtomicU64::new(0),
            last: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl Noticed {
    /// Where the count is: a read begun now misses only changes heard
    /// after.
    fn now(&self) -> u64 {
        self.heard.load(Ordering::SeqCst)
    }

    /// A change of game `id` heard.
    fn note(&self, id: i64) {
        let heard = self.heard.fetch_add(1, Ordering::SeqCst) + 1;
        self.last[Self::bucket(id)].store(heard, Ordering::SeqCst);
    }

    /// Any game's change may have been missed (notices lost).
    fn note_all(&self) {
        let heard = self.heard.fetch_add(1, Ordering::SeqCst) + 1;
        for last in &self.last {
            last.store(heard, Ordering::SeqCst);
        }
    }

    /// Whether a change of game `id` may have been heard since
    /// [`Noticed::now`] was `since`.
    fn since(&self, id: i64, since: u64) -> bool {
        self.last[Self::bucket(id)].load(Ordering::SeqCst) > since
    }

    fn bucket(id: i64) -> usize {
        id.rem_euclid(NOTICED_BUCKETS as i64) as usize
    }
}

/// Drops the copy of `slot` (of `entry`), and its flag's timer.
fn drop_copy(entry: &Entry, slot: &mut Option<WebGame>) {
    *slot = None;
    if let Some(timer) = lock(&entry.timer).take() {
        timer.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::NewGame;
    use crate::live::Hub;
    use awale_core::{Game, Rules, Side};
    use awale_model::game::{Mode, PlayerId};
    use awale_store::Store;

    /// Whether `games` holds a copy of game `id`.
    async fn holds(games: &Games, id: i64) -> bool {
        let entry = lock(&games.entries).get(&id).cloned();
        match entry {
            Some(entry) => entry.game.lock().await.is_some(),
            None => false,
        }
    }

    /// What another process's notice says while a game is read here.
    #[derive(Debug, Clone, Copy)]
    enum Meanwhile {
        /// Another game (of another bucket) changed.
        OtherGame,
        /// This game changed, nobody here watching it.
        Changed,
        /// This game changed, a watcher here (its page's stream) already
        /// listening: the notice is followed, the copy read then kept old.
        ChangedWatched,
        /// Notices were lost: any game may have changed.
        Resync,
    }

    /// A game read by its public id where it was not known, and something
    /// heard from another process between the read and its keeping: a
    /// change of it (followed or not) or notices lost, and the copy,
    /// maybe old, is not kept; another game's change does not stop it.
    #[tokio::test]
    async fn a_copy_read_before_a_change_of_its_game_was_heard_is_not_kept() {
        let store = Store::in_memory().unwrap();
        let maker = Arc::new(Games::new(
            Arc::new(store.clone()),
            Arc::new(Hub::default()),
        ));
        let made = maker
            .new_game(NewGame {
                maker: PlayerId(format!("{:064x}", 1)),
                name: "South".into(),
                account: false,
                mode: Mode::Online,
                game: Game::new(Rules::AWALE),
                seed: 1,
                clock: None,
                side: Side::South,
                public: false,
                rated: false,
                rating_range: None,
                client: None,
            })
            .await
            .unwrap();
        let changed = |id: i64| Notice::Game {
            id,
            revision: made.revision + 1,
            kept: 0,
            ended: false,
            change: None,
        };
        for (meanwhile, kept) in [
            (Meanwhile::OtherGame, true),
            (Meanwhile::Changed, false),
            (Meanwhile::ChangedWatched, false),
            (Meanwhile::Resync, false),
        ] {
            let games = Arc::new(Games::new(
                Arc::new(store.clone()),
                Arc::new(Hub::default()),
            ));
            let since = games.noticed.now();
            let read = games.store.load_public(made.public_id.clone());
            let read = read.await.unwrap().unwrap();
            let (_, _, _, watch) = games.hub.watch(made.id, None, games.now_ms(), None);
            if !matches!(meanwhile, Meanwhile::ChangedWatched) {
                drop(watch);
            }
            games.heard(match meanwhile {
                Meanwhile::OtherGame => changed(made.id + 1),
                Meanwhile::Changed | Meanwhile::ChangedWatched => changed(made.id),
                Meanwhile::Resync => Notice::Resync,
            });
            games.keep_read(read, since).await;
            assert_eq!(holds(&games, made.id).await, kept, "{meanwhile:?}");
        }
    }
}
