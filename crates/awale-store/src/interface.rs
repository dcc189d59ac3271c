//! The store as the game service sees it: one interface, filled by
//! SQLite ([`Store`]) and by PostgreSQL ([`crate::PgStore`], for several
//! server processes sharing one database) without a change above it. No SQLite type
//! appears in it. Every call is async and does its work off the async
//! threads, but the two made once at start, before anything is served;
//! each change of a game (a move, a resignation, a new seat) is written
//! whole or not at all (one transaction, which PostgreSQL's store shares
//! among the games' changes saved at one moment), answered once durable.

use std::sync::Arc;

use awale_model::game::{PlayerId, WebGame};

use crate::change::{GameChange, MAX_NOTICE_BYTES};
use crate::error::{StoreError, StoreFuture};
use awale_model::lists::{ChatLine, LobbyGame, Page, Summary};

/// A change another process made, heard from a shared store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` was stored at `revision`, its first `kept` plies as they
    /// were at the revision before; `ended` when the game is over now. A
    /// process holding that revision applies `change` (what the change
    /// wrote: [`GameChange::apply`]) without a read, or, without it, reads
    /// only the rows after them ([`GameStore::load_newer`]). A process that
    /// holds no copy of the game has nothing to do with it (its flag is
    /// armed by the process holding it).
    Game {
        /// The game.
        id: i64,
        /// Its stored revision now.
        revision: i64,
        /// The plies this change left as they were.
        kept: i64,
        /// Whether the game is over.
        ended: bool,
        /// What the change wrote (None: read it; a notice too long for
        /// the database's payload goes without it).
        change: Option<Arc<GameChange>>,
    },
    /// A chat line was added to game `game`.
    Chat {
        /// The game.
        game: i64,
        /// The line's id.
        line: i64,
    },
    /// Seek `seek` of the pools was paired (its news is in the store:
    /// [`crate::seeks::SeekStore::take_paired`]).
    Paired {
        /// The seek's number.
        seek: i64,
    },
    /// Tournament `id` was made or changed (read it again).
    Tournament {
        /// The tournament.
        id: i64,
    },
    /// Line `line` was said in tournament `tournament`'s chat room, or
    /// `removed` by a moderator.
    TournamentChat {
        /// The tournament.
        tournament: i64,
        /// The line's number.
        line: i64,
        /// Whether it was taken away (else said).
        removed: bool,
    },
    /// Direct challenge `id` was made or settled (read it again, tell its
    /// two players).
    Challenge {
        /// The challenge.
        id: i64,
    },
    /// Notices may have been lost (the connection was lost, or this
    /// reader fell behind): whatever is held in memory must be read again.
    Resync,
}

impl Notice {
    /// The notice of `game`'s change, as just stored at `revision`, its
    /// first `kept` plies left as they were.
    pub fn of(game: &WebGame, revision: i64, kept: usize) -> Notice {
        Notice::Game {
            id: game.id,
            revision,
            kept: kept as i64,
            ended: game.end().is_some(),
            change: None,
        }
    }

    /// [`Notice::of`], carrying what the change wrote ([`GameChange`]):
    /// the processes holding the revision before need no read.
    pub fn with_change(game: &WebGame, revision: i64, kept: usize) -> Notice {
        Notice::Game {
            id: game.id,
            revision,
            kept: kept as i64,
            ended: game.end().is_some(),
            change: Some(Arc::new(GameChange::of(game, kept))),
        }
    }

    /// As sent between processes: `g ID REVISION ENDED KEPT [CHANGE...]`
    /// (the change's words, [`GameChange`], when the whole text stays
    /// within [`MAX_NOTICE_BYTES`]), `c GAME LINE`, `p SEEK`,
    /// `t TOURNAMENT`, `k TOURNAMENT LINE REMOVED` or `h CHALLENGE`.
    pub fn to_text(&self) -> String {
        match self {
            Notice::Game {
                id,
                revision,
                kept,
                ended,
                change,
            } => {
                let head = format!("g {id} {revision} {} {kept}", u8::from(*ended));
                match change {
                    Some(change) => {
                        let text = format!("{head} {}", change.to_words());
                        if text.len() <= MAX_NOTICE_BYTES {
                            text
                        } else {
                            head
                        }
                    }
                    None => head,
                }
            }
            Notice::Chat { game, line } => format!("c {game} {line}"),
            Notice::Paired { seek } => format!("p {seek}"),
            Notice::Tournament { id } => format!("t {id}"),
            Notice::TournamentChat {
                tournament,
                line,
                removed,
            } => format!("k {tournament} {line} {}", u8::from(*removed)),
            Notice::Challenge { id } => format!("h {id}"),
            Notice::Resync => "r".into(),
        }
    }

    /// Reads [`Notice::to_text`] back (None for anything else).
    pub fn from_text(text: &str) -> Option<Notice> {
        let mut words = text.split(' ');
        let notice = match words.next()? {
            "g" => {
                let id = words.next()?.parse().ok()?;
                let revision = words.next()?.parse().ok()?;
                let ended = words.next()? == "1";
                let kept = words.next()?.parse().ok().filter(|k: &i64| *k >= 0)?;
                // A change that does not read back is left out: the
                // notice still tells the game changed (it is read).
                let rest: Vec<&str> = words.collect();
                let change = match rest.is_empty() {
                    true => None,
                    false => GameChange::from_words(rest.into_iter()).map(Arc::new),
                };
                return Some(Notice::Game {
                    id,
                    revision,
                    kept,
                    ended,
                    change,
                });
            }
            "c" => Notice::Chat {
                game: words.next()?.parse().ok()?,
                line: words.next()?.parse().ok()?,
            },
            "p" => Notice::Paired {
                seek: words.next()?.parse().ok()?,
            },
            "t" => Notice::Tournament {
                id: words.next()?.parse().ok()?,
            },
            "k" => Notice::TournamentChat {
                tournament: words.next()?.parse().ok()?,
                line: words.next()?.parse().ok()?,
                removed: words.next()? == "1",
            },
            "h" => Notice::Challenge {
                id: words.next()?.parse().ok()?,
            },
            "r" => Notice::Resync,
            _ => return None,
        };
        words.next().is_none().then_some(notice)
    }
}

/// A guest's nickname, written with the change that seats them (a game
/// made or joined), in its transaction: as [`GameStore::set_player_name`]
/// writes it (the player's, and their seats' in their games going on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nickname {
    /// Whose.
    pub player: PlayerId,
    /// The name (checked by the service).
    pub name: String,
    /// Now, ms since 1970 (the games' clock): when a new player's row is
    /// made.
    pub now: i64,
}

/// Where the game service keeps games, reviews, chat and nicknames.
pub trait GameStore: Send + Sync {
    /// Stores new games, all or none (one transaction), and gives them back
    /// with their ids.
    fn create(&self, games: Vec<WebGame>) -> StoreFuture<'_, Vec<WebGame>>;

    /// As [`GameStore::create`], with `nickname` written in the same
    /// transaction (before the games: a guest's game made under a new
    /// name): one commit where a name and a game took two.
    fn create_named(
        &self,
        games: Vec<WebGame>,
        nickname: Option<Nickname>,
    ) -> StoreFuture<'_, Vec<WebGame>>;

    /// Stores `game`, played in `player`'s browser without a network, under
    /// the browser's `key`, once (one transaction): the new game, or the id
    /// of the one that player already uploaded with this key.
    fn upload(
        &self,
        player: PlayerId,
        key: String,
        game: WebGame,
    ) -> StoreFuture<'_, Result<WebGame, i64>>;

    /// Writes `game` over its stored version, whole or not at all: its moves
    /// from ply `from` on, and its state (seats, clock, redo list, end). A
    /// store shared by several processes writes it only over the stored
    /// revision `game.revision` (which is then one more), and answers
    /// [`StoreError::Stale`] when another process changed the game since.
    fn save(&self, game: WebGame, from: usize) -> StoreFuture<'_, ()>;

    /// Writes `game`'s state (its seats: a player seated) over its stored
    /// version, its moves left as stored (none is added or taken back:
    /// nothing is written to them), with `nickname` in the same
    /// transaction (the seated guest's name): as [`GameStore::save`],
    /// fenced by `game.revision` in a store several processes share, and
    /// one transaction, one commit, where a seat and a name took two.
    fn save_seats(&self, game: WebGame, nickname: Option<Nickname>) -> StoreFuture<'_, ()>;

    /// Game `id`, or None when there is none.
    fn load(&self, id: i64) -> StoreFuture<'_, Option<WebGame>>;

    /// The game whose public id is `public_id`, or None: as
    /// [`GameStore::find`] then [`GameStore::load`], in one statement.
    fn load_public(&self, public_id: String) -> StoreFuture<'_, Option<WebGame>>;

    /// The id of the game whose public id is `public_id`, or None.
    fn find(&self, public_id: String) -> StoreFuture<'_, Option<i64>>;

    /// The games `player` plays in (and those made without a player),
    /// newest first by date (a game going on is dated by its last change
    /// to the minute, an ended one by its end), `limit` at most, from
    /// `before` (a [`Page::next`]).
    fn list(
        &self,
        player: Option<PlayerId>,
        before: Option<(i64, i64)>,
        limit: usize,
    ) -> StoreFuture<'_, Page>;

    /// Of the games going on where `player` holds a seat, the one with
    /// the latest move (or making).
    fn current(&self, player: Option<PlayerId>) -> StoreFuture<'_, Option<i64>>;

    /// Online games going on: the newest `limit` public challenges, then
    /// the newest `limit` games being played (each counted apart, so games
    /// in play never hide a challenge).
    fn lobby(&self, limit: usize) -> StoreFuture<'_, Vec<LobbyGame>>;

    /// At start: the unfinished games with a clock, or online ones (their
    /// flags are armed then). Blocks.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn timed_games_blocking(&self) -> Result<Vec<i64>, StoreError>;

    /// Notes that the server is alive at `now` (for clocks across a
    /// restart).
    fn alive(&self, now: i64) -> StoreFuture<'_, ()>;

    /// At start: gives the running clocks back the time the server was
    /// down (from its last [`GameStore::alive`] to `now`), and says how long
    /// that was (ms). Blocks.
    ///
    /// # Errors
    ///
    /// When the write fails.
    fn resume_clocks_blocking(&self, now: i64) -> Result<i64, StoreError>;

    /// Stores the review of game `id`'s first `plies` moves.
    fn save_review(&self, id: i64, plies: usize, body: String) -> StoreFuture<'_, ()>;

    /// Game `id`'s stored review and the moves it covers.
    fn review(&self, id: i64) -> StoreFuture<'_, Option<(usize, String)>>;

    /// Adds a chat line to game `game`; the line with its id.
    fn add_chat(&self, game: i64, line: ChatLine) -> StoreFuture<'_, ChatLine>;

    /// Game `id`'s last `limit` chat lines, oldest first.
    fn chat(&self, id: i64, limit: usize) -> StoreFuture<'_, Vec<ChatLine>>;

    /// `player`'s nickname, if they chose one.
    fn player_name(&self, player: PlayerId) -> StoreFuture<'_, Option<String>>;

    /// How many online games `player` made wait for an opponent now.
    fn open_challenges(&self, player: PlayerId) -> StoreFuture<'_, i64>;

    /// The online games going on where it is `player`'s move, the longest
    /// waiting first, `limit` at most (a player of games over days comes
    /// back to these).
    fn turns(&self, player: PlayerId, limit: usize) -> StoreFuture<'_, Vec<Summary>>;

    /// Sets `player`'s nickname, in their games going on too.
    fn set_player_name(&self, player: PlayerId, name: String, now: i64) -> StoreFuture<'_, ()>;

    /// Game `id`'s stored revision, for a store several processes share
    /// (a copy held in memory older than it is read again before a
    /// change); None for a store only this process writes (its copies are
    /// always the last), or when there is no such game.
    fn revision(&self, id: i64) -> StoreFuture<'_, Option<i64>>;

    /// Game `held.id` as stored at `revision`, read from a copy `held` at
    /// the revision before, the change having left its first `kept` plies:
    /// only the game's row and its moves from ply `kept` on are read (the
    /// first `kept` are `held`'s), and its rating changes only when it is
    /// over. The whole game when it is no longer at `revision`, and from a
    /// store only this process writes.
    fn load_newer(
        &self,
        held: WebGame,
        revision: i64,
        kept: usize,
    ) -> StoreFuture<'_, Option<WebGame>>;

    /// The games going on with a clock whose side to move ran out of time
    /// before `before_ms` (ms since the epoch), at most `limit`: the flags
    /// the process holding them did not drop (it is gone), for a store
    /// several processes share; none for one only this process writes
    /// (it arms every flag itself).
    fn overdue_flags(&self, before_ms: i64, limit: usize) -> StoreFuture<'_, Vec<i64>>;

    /// The pools' seeks, for a store that several processes share (each
    /// pairs over all of them); None for one only this process writes
    /// (its pools stay in memory).
    fn seek_store(&self) -> Option<std::sync::Arc<dyn crate::seeks::SeekStore>>;

    /// The changes other processes make to this store, for a store that
    /// several processes share; None for one only this process writes.
    fn notices(&self) -> Option<tokio::sync::broadcast::Receiver<Notice>>;
}

#[cfg(test)]
mod tests {
    use super::Notice;

    /// Each notice reads back as itself (parse of print is identity), and
    /// a text of another shape or with words over is none.
    #[test]
    fn a_notice_read_back_from_its_text_is_itself() {
        let mut moved = awale_model::game::WebGame::new(
            awale_model::game::Mode::Online,
            awale_core::Game::new(awale_core::Rules::AWALE),
            1_000,
            3,
        );
        moved.id = 9;
        for letter in ['F', 'f'] {
            let mv = awale_core::Move::from_letter(letter).unwrap();
            moved.game.play(mv).unwrap();
        }
        let all = [
            Notice::Game {
                id: 7,
                revision: 12,
                kept: 31,
                ended: true,
                change: None,
            },
            Notice::Game {
                id: 1,
                revision: 0,
                kept: 0,
                ended: false,
                change: None,
            },
            Notice::with_change(&moved, 5, 1),
            Notice::Chat { game: 3, line: 41 },
            Notice::Paired { seek: 9 },
            Notice::Tournament { id: 5 },
            Notice::TournamentChat {
                tournament: 5,
                line: 77,
                removed: false,
            },
            Notice::TournamentChat {
                tournament: 5,
                line: 78,
                removed: true,
            },
            Notice::Challenge { id: 11 },
            Notice::Resync,
        ];
        for notice in all {
            let text = notice.to_text();
            assert_eq!(Notice::from_text(&text), Some(notice), "{text}");
        }
        for odd in [
            "",
            "x 1",
            "g 1 2",
            "g 1 2 0",
            "g 1 2 0 -1",
            "t",
            "t x",
            "h 1 2",
            "k 1 2",
            "r 1",
        ] {
            assert_eq!(Notice::from_text(odd), None, "{odd}");
        }
        // A change that does not read back is left out, the notice kept.
        assert_eq!(
            Notice::from_text("g 1 2 0 3 =F junk"),
            Some(Notice::Game {
                id: 1,
                revision: 2,
                kept: 3,
                ended: false,
                change: None
            })
        );
        // A change too long for the database's payload is left out.
        moved.seats[0] = Some(awale_model::game::Seat {
            player: awale_model::game::PlayerId("p".repeat(8_000)),
            name: "Ama".into(),
        });
        assert_eq!(Notice::with_change(&moved, 5, 1).to_text(), "g 9 5 0 1");
    }
}
