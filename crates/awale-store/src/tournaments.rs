//! Tournaments as the store keeps them, behind their own interface
//! ([`TournamentStore`], beside [`crate::GameStore`]; no SQLite type in it,
//! so the PostgreSQL store fills it too): a tournament's row (kind, clock,
//! length, state), its players by number (score, sheet, presence) and its
//! games (each a link to a stored game). The service holds a tournament
//! going on in memory and writes what changed in one transaction; a server
//! that starts again reads the unfinished ones back.

use awale_model::game::PlayerId;

use crate::cells::Cells;
use crate::error::StoreError;
use crate::error::StoreFuture;

/// A tournament's own row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its number (0 before it is stored).
    pub id: i64,
    /// `arena` (or `swiss`).
    pub kind: String,
    /// Its name as its creator gave it.
    pub name: String,
    /// The clock of its games: time each side starts with, and the
    /// increment (ms).
    pub clock: (i64, i64),
    /// Whether its games are rated.
    pub rated: bool,
    /// Its length (minutes).
    pub minutes: i64,
    /// When it starts and ends (ms since 1970).
    pub starts_ms: i64,
    /// See `starts_ms`.
    pub ends_ms: i64,
    /// Who made it (the server's own schedule has its own name).
    pub creator: PlayerId,
    /// `created` (waiting for its start), `started`, `finished`.
    pub state: String,
    /// When it was made.
    pub created_ms: i64,
    /// A Swiss's number of rounds (0 for an arena).
    pub rounds: i64,
    /// A Swiss's round paired last, from 1 (0 before the first).
    pub current_round: i64,
    /// A Swiss whose organiser starts each round by hand (else each round
    /// is paired as the last ends).
    pub manual_rounds: bool,
    /// Bots may join it (else it is people's only), as its organiser
    /// chose.
    pub bots_allowed: bool,
}

/// One player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// Their number in the tournament (the order they joined, from 0).
    pub number: i64,
    /// Who they are.
    pub player: PlayerId,
    /// The name shown.
    pub name: String,
    /// Their rating when they joined.
    pub rating: i64,
    /// `free`, `playing`, `paused`, `withdrawn`.
    pub presence: String,
    /// Their points.
    pub score: i64,
    /// Their finished games as they saw them (JSON, the service's).
    pub sheet: String,
    /// How many of their games they sowed first.
    pub firsts: i64,
}

/// One game of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingRow {
    /// The stored game.
    pub game_id: i64,
    /// The players' numbers: who sows first, and the other.
    pub players: (i64, i64),
    /// Who berserked (first, second).
    pub berserk: [bool; 2],
    /// The first player's result once it ended: 2 win, 1 draw, 0 loss,
    /// -1 aborted; None while it is played.
    pub result: Option<i64>,
    /// A Swiss game's round, from 1 (0 in an arena).
    pub round: i64,
}

/// A Swiss round's bye: the player who sat it out (and scored a win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByeRow {
    /// The round, from 1.
    pub round: i64,
    /// The player's number.
    pub number: i64,
}

/// A tournament with its players and games (all, when read; those that
/// changed, when written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    /// The tournament.
    pub tournament: TournamentRow,
    /// Its players.
    pub entrants: Vec<EntrantRow>,
    /// Its games.
    pub games: Vec<PairingRow>,
    /// A Swiss's byes.
    pub byes: Vec<ByeRow>,
}

/// Where the service keeps tournaments.
pub trait TournamentStore: Send + Sync {
    /// Stores a new tournament; it with its number.
    fn create_tournament(&self, tournament: TournamentRow) -> StoreFuture<'_, TournamentRow>;

    /// Writes `record` in one transaction: the tournament's row (its
    /// state), and each player and game given (new ones added, others
    /// written over).
    fn save_tournament(&self, record: TournamentRecord) -> StoreFuture<'_, ()>;

    /// Tournament `id` with all its players and games, or None.
    fn load_tournament(&self, id: i64) -> StoreFuture<'_, Option<TournamentRecord>>;

    /// The tournaments not finished, and those finished after `since_ms`,
    /// the soonest to start first, `limit` at most.
    fn tournaments(&self, since_ms: i64, limit: usize) -> StoreFuture<'_, Vec<TournamentRow>>;

    /// How many tournaments `creator` made since `since_ms`.
    fn tournaments_made(&self, creator: PlayerId, since_ms: i64) -> StoreFuture<'_, i64>;

    /// At start: the tournaments not finished (the service takes them
    /// back). Blocks.
    ///
    /// # Errors
    ///
    /// When reading fails.
    fn unfinished_tournaments_blocking(&self) -> Result<Vec<i64>, StoreError>;

    /// Holds tournament `id` for this process until the hold is dropped,
    /// waiting while another process holds it: where several processes
    /// share the store, each change of a tournament is made under its hold,
    /// on the tournament as stored. None where one process is all there is
    /// (the games file: the service's own lock is enough).
    fn hold_tournament(&self, id: i64) -> StoreFuture<'_, Option<TournamentHold>> {
        let _ = id;
        Box::pin(async { Ok(None) })
    }
}

/// A tournament held by this process ([`TournamentStore::hold_tournament`]);
/// dropped, it is free again.
pub struct TournamentHold(
    /// Whatever keeps the hold (in PostgreSQL, the connection that holds
    /// the tournament's advisory lock).
    pub Box<dyn Send + Sync>,
);

/// The columns of a tournament's row, as [`tournament_row`] reads them.
pub(crate) const TOURNAMENT_COLUMNS: &str =
    "id, kind, name, clock_initial_ms, clock_increment_ms, rated, \
     minutes, starts_ms, ends_ms, creator, state, created_ms, rounds, current_round, manual_rounds, \
     bots_allowed";

/// A tournament from a row of [`TOURNAMENT_COLUMNS`], in either store.
pub(crate) fn tournament_row<R: Cells>(r: &R) -> Result<TournamentRow, R::Error> {
    Ok(TournamentRow {
        id: r.cell(0)?,
        kind: r.cell(1)?,
        name: r.cell(2)?,
        clock: (r.cell(3)?, r.cell(4)?),
        rated: r.cell(5)?,
        minutes: r.cell(6)?,
        starts_ms: r.cell(7)?,
        ends_ms: r.cell(8)?,
        creator: PlayerId(r.cell(9)?),
        state: r.cell(10)?,
        created_ms: r.cell(11)?,
        rounds: r.cell(12)?,
        current_round: r.cell(13)?,
        manual_rounds: r.cell(14)?,
        bots_allowed: r.cell(15)?,
    })
}

/// Tournament `?1`'s players by number, as [`entrant_row`] reads them.
pub(crate) const ENTRANTS: &str = "SELECT number, player, name, rating, presence, score,
     sheet, firsts FROM tournament_players WHERE tournament_id = ?1 ORDER BY number";

/// A tournament's player from a row of [`ENTRANT_COLUMNS`], in either store.
pub(crate) fn entrant_row<R: Cells>(r: &R) -> Result<EntrantRow, R::Error> {
    Ok(EntrantRow {
        number: r.cell(0)?,
        player: PlayerId(r.cell(1)?),
        name: r.cell(2)?,
        rating: r.cell(3)?,
        presence: r.cell(4)?,
        score: r.cell(5)?,
        sheet: r.cell(6)?,
        firsts: r.cell(7)?,
    })
}

/// Tournament `?1`'s games, as [`pairing_row`] reads them.
pub(crate) const PAIRINGS: &str = "SELECT game_id, first, second, berserk_first,
     berserk_second, result, round FROM tournament_games WHERE tournament_id = ?1
     ORDER BY game_id";

/// A tournament's game from a row of [`PAIRING_COLUMNS`], in either store.
pub(crate) fn pairing_row<R: Cells>(r: &R) -> Result<PairingRow, R::Error> {
    Ok(PairingRow {
        game_id: r.cell(0)?,
        players: (r.cell(1)?, r.cell(2)?),
        berserk: [r.cell(3)?, r.cell(4)?],
        result: r.cell(5)?,
        round: r.cell(6)?,
    })
}

/// Tournament `?1`'s byes, as [`bye_row`] reads them.
pub(crate) const BYES: &str =
    "SELECT round, number FROM tournament_byes WHERE tournament_id = ?1 ORDER BY round";

/// A bye from a row of [`BYES`], in either store.
pub(crate) fn bye_row<R: Cells>(r: &R) -> Result<ByeRow, R::Error> {
    Ok(ByeRow {
        round: r.cell(0)?,
        number: r.cell(1)?,
    })
}

/// Tournament `?1`'s state, end, name, rounds and current round.
/// Stores a new tournament (kind, name, clock, rated, length, start, end,
/// creator, state, making, rounds, current round, rounds started by
/// hand, bots allowed): its id.
pub(crate) const ADD_TOURNAMENT: &str = "INSERT INTO tournaments (kind, name, clock_initial_ms,
        clock_increment_ms, rated, minutes, starts_ms, ends_ms, creator, state, created_ms,
        rounds, current_round, manual_rounds, bots_allowed)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) RETURNING id";

pub(crate) const UPDATE_TOURNAMENT: &str = "UPDATE tournaments SET state = ?2, ends_ms = ?3,
     name = ?4, rounds = ?5, current_round = ?6 WHERE id = ?1";

/// A player of tournament `?1`, added or changed.
pub(crate) const PUT_ENTRANT: &str = "INSERT INTO tournament_players
        (tournament_id, number, player, name, rating, presence, score, sheet, firsts)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
     ON CONFLICT (tournament_id, number) DO UPDATE SET name = ?4, presence = ?6,
        score = ?7, sheet = ?8, firsts = ?9";

/// A game of tournament `?2`, added or changed.
pub(crate) const PUT_PAIRING: &str = "INSERT INTO tournament_games
        (game_id, tournament_id, first, second, berserk_first, berserk_second, result, round)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
     ON CONFLICT (game_id) DO UPDATE SET berserk_first = ?5, berserk_second = ?6,
        result = ?7";

/// Tournament `?1`'s bye of a round, added or changed.
pub(crate) const PUT_BYE: &str = "INSERT INTO tournament_byes (tournament_id, round, number)
     VALUES (?1, ?2, ?3) ON CONFLICT (tournament_id, round) DO UPDATE SET number = ?3";
