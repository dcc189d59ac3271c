//! A game as rows: the `games` row (who plays, rules, start, clock, seats,
//! offers, end) and its `moves`; reading a game back replays and checks
//! every move. Lists of games read the indexes a page at a time.

use std::sync::LazyLock;

use awale_core::{Game, Move, Position, Rules, Side};

use crate::cells::{Cells, Value};
use crate::error::StoreError;
use crate::interface::Notice;
use crate::stored_text::{side_from_text, side_to_text, stop_from_text, stop_to_text};
use crate::tx::Tx;
use awale_model::game::{Clock, Mode, Offers, PlayerId, Seat, WebGame};
use awale_model::lists::{ChatLine, LobbyGame, Page, StoredRules, Summary};

/// Chat messages a game keeps (the page shows the last 200).
pub const CHAT_KEPT: usize = 500;

/// Stores a new game (its making, rules, start, mode, computer's side and
/// level, seed, rated, public id, invitation's key, speed, clock of days
/// per move, rating range): its id.
pub(crate) const ADD_GAME: &str = "INSERT INTO games (created_ms, updated_ms, rules, start, mode,
        human, level, seed, rated, public_id, invite, speed, clock_per_move, rating_range)
     VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING id";

/// A new game's row as [`ADD_GAME`] writes it: the same for every store.
pub(crate) struct NewRow {
    created_ms: i64,
    rules: String,
    start: String,
    mode: &'static str,
    human: Option<String>,
    level: Option<i64>,
    seed: i64,
    rated: bool,
    public_id: String,
    invite: Option<String>,
    speed: Option<&'static str>,
    per_move: bool,
    rating_range: Option<i64>,
}

impl NewRow {
    /// `game`'s row, once its keys are given.
    pub(crate) fn of(game: &mut WebGame) -> Result<NewRow, StoreError> {
        game.give_keys()
            .map_err(|e| StoreError::Backend(e.message.into()))?;
        let (human, level) = computer_of(game.mode);
        Ok(NewRow {
            created_ms: game.created_ms,
            rules: game.game.rules().to_string(),
            start: game.game.start().to_string(),
            mode: game.mode.name(),
            human,
            level,
            seed: game.seed as i64,
            rated: game.rated,
            public_id: game.public_id.clone(),
            invite: game.invite.clone(),
            speed: (game.mode == Mode::Online).then(|| game.speed().name()),
            per_move: game.clock.is_some_and(|c| c.per_move),
            rating_range: game.rating_range,
        })
    }

    /// The values of [`ADD_GAME`], in its order.
    pub(crate) fn values(&self) -> [&dyn Value; 13] {
        [
            &self.created_ms,
            &self.rules,
            &self.start,
            &self.mode,
            &self.human,
            &self.level,
            &self.seed,
            &self.rated,
            &self.public_id,
            &self.invite,
            &self.speed,
            &self.per_move,
            &self.rating_range,
        ]
    }
}

/// The computer's side and level, in a game against it.
fn computer_of(mode: Mode) -> (Option<String>, Option<i64>) {
    match mode {
        Mode::Computer { human, level } => (Some(side_to_text(human)), Some(i64::from(level))),
        Mode::Humans | Mode::Online => (None, None),
    }
}

/// A game's state as the `games` row keeps it: the same for every store.
pub(crate) struct State {
    id: i64,
    updated_ms: i64,
    /// Initial time, increment, South's and North's time left.
    clock: [Option<i64>; 4],
    turn_started_ms: i64,
    resigned: Option<String>,
    stop: Option<String>,
    redo: String,
    result: &'static str,
    reason: Option<&'static str>,
    level: Option<i64>,
    human: Option<String>,
    public: bool,
    /// South's player and name, North's player and name.
    seats: [Option<String>; 4],
    takeback: Option<String>,
    rematch: Option<String>,
    rematch_id: Option<i64>,
    plies: i64,
    draw: Option<String>,
    rated: bool,
}

impl State {
    pub(crate) fn of(game: &WebGame) -> State {
        let end = game.end();
        let (human, level) = computer_of(game.mode);
        let c = game.clock;
        let [south, north] = &game.seats;
        State {
            id: game.id,
            updated_ms: awale_model::game::now_ms(),
            clock: [
                c.map(|c| c.initial_ms),
                c.map(|c| c.increment_ms),
                c.map(|c| c.remaining_ms[0]),
                c.map(|c| c.remaining_ms[1]),
            ],
            turn_started_ms: game.turn_started_ms,
            resigned: game.game.resigned().map(side_to_text),
            stop: game.stop.map(stop_to_text),
            redo: game.game.redo_list().iter().map(|m| m.letter()).collect(),
            result: end.map_or("*", |e| e.result_text()),
            reason: end.map(|e| e.reason.name()),
            level,
            human,
            public: game.public,
            seats: [
                south.as_ref().map(|s| s.player.0.clone()),
                south.as_ref().map(|s| s.name.clone()),
                north.as_ref().map(|s| s.player.0.clone()),
                north.as_ref().map(|s| s.name.clone()),
            ],
            takeback: game.offers.takeback.map(side_to_text),
            rematch: game.offers.rematch.map(side_to_text),
            rematch_id: game.offers.rematch_id,
            plies: game.game.plies().len() as i64,
            draw: game.offers.draw.map(side_to_text),
            // A rated game that ended before a real start is played casual.
            rated: game.rated,
        }
    }

    /// The values of [`SET_STATE`], in its order (the game's id first).
    pub(crate) fn values(&self) -> [&dyn Value; 25] {
        let [south, south_name, north, north_name] = &self.seats;
        [
            &self.id,
            &self.updated_ms,
            &self.clock[0],
            &self.clock[1],
            &self.clock[2],
            &self.clock[3],
            &self.turn_started_ms,
            &self.resigned,
            &self.stop,
            &self.redo,
            &self.result,
            &self.reason,
            &self.level,
            &self.human,
            &self.public,
            south,
            south_name,
            north,
            north_name,
            &self.takeback,
            &self.rematch,
            &self.rematch_id,
            &self.plies,
            &self.draw,
            &self.rated,
        ]
    }
}

/// The columns of a game's state set to [`State::values`] (of game `?1`),
/// in either store. A game's date (`updated_ms`, by which the lists of
/// games are ordered) is that of its last change to the minute while it
/// goes on: a change within a minute (60,000 ms) of the date keeps it, so a
/// move rewrites none of the five indexes that hold the date (PostgreSQL
/// then rewrites the row alone, in place: the statement took 0.18 ms a
/// move, 0.06 so). Its end (a result, or a stop: an aborted game has no
/// result) dates it exactly, and a game that had ended keeps that date: a
/// change after it (a deleted player's seat, a rematch offer) does not
/// move it in anyone's list of games. What must be exact while a game goes
/// on reads `turn_started_ms`, the time of its last move
/// ([`current_query`], [`TURNS_FILTER`]'s order).
pub(crate) const SET_STATE: &str =
    "updated_ms = CASE WHEN result = '*' AND stop IS NULL
                            AND (?11 <> '*' OR CAST(?9 AS TEXT) IS NOT NULL OR ?2 - updated_ms >= 60000)
                       THEN ?2 ELSE updated_ms END,
     clock_initial_ms = ?3, clock_increment_ms = ?4,
     south_ms = ?5, north_ms = ?6, turn_started_ms = ?7, resigned = ?8, stop = ?9,
     redo = ?10, result = ?11, reason = ?12, level = ?13, human = ?14,
     public = ?15, south_player = ?16, south_name = ?17, north_player = ?18,
     north_name = ?19, takeback = ?20, rematch = ?21, rematch_id = ?22, plies = ?23,
     draw = ?24, rated = ?25";

/// A game's row, its revision (PostgreSQL's; 0 in the games file), its
/// moves from ply `?2` on as one text ([`moves_of_text`]) and its id: one
/// statement, one snapshot. The game is the one whose id is `?1`, or with
/// `by_public_id`, whose public id is.
pub(crate) fn game_and_moves_query(postgres: bool, by_public_id: bool) -> &'static str {
    fn query(revision: &str, key: &str) -> String {
        format!(
            "SELECT {GAME_COLUMNS}, {revision},
                (SELECT string_agg(ply || ' ' || letter || ' ' || captured, ',' ORDER BY ply)
                 FROM moves WHERE game_id = games.id AND ply >= ?2),
                id
             FROM games WHERE {key} = ?1"
        )
    }
    static QUERIES: LazyLock<[String; 4]> = LazyLock::new(|| {
        [
            query("0", "id"),
            query("0", "public_id"),
            query("revision", "id"),
            query("revision", "public_id"),
        ]
    });
    &QUERIES[usize::from(postgres) * 2 + usize::from(by_public_id)]
}

/// The moves [`game_and_moves_query`] reads (`PLY LETTER CAPTURED`,
/// comma-separated; None: no moves) as (ply, letter, stones captured).
pub(crate) fn moves_of_text(
    id: i64,
    text: Option<&str>,
) -> Result<Vec<(i64, String, i64)>, StoreError> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    text.split(',')
        .map(|m| {
            let corrupt = || StoreError::Corrupt {
                id,
                message: format!("stored move `{m}`"),
            };
            let mut parts = m.split(' ');
            let (Some(ply), Some(letter), Some(captured), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(corrupt());
            };
            let number = |t: &str| t.parse::<i64>().map_err(|_| corrupt());
            Ok((number(ply)?, letter.to_string(), number(captured)?))
        })
        .collect()
}

/// The moves of `game` from ply `from` on: ply, letter, stones captured.
pub(crate) fn moves_from(game: &WebGame, from: usize) -> Vec<(i64, String, i64)> {
    game.game
        .plies()
        .iter()
        .enumerate()
        .skip(from)
        .map(|(ply, p)| (ply as i64, p.mv.letter().to_string(), i64::from(p.captured)))
        .collect()
}

pub(crate) const GAME_COLUMNS: &str =
    "created_ms, rules, start, mode, human, level, seed, clock_initial_ms,
    clock_increment_ms, south_ms, north_ms, turn_started_ms, resigned, stop, redo, public,
    south_player, south_name, north_player, north_name, takeback, rematch, rematch_id, rated, draw,
    public_id, invite, (SELECT r.public_id FROM games r WHERE r.id = games.rematch_id),
    clock_per_move, rating_range";

/// Rebuilds game `id` from its row and its moves (ply, letter, captured),
/// replaying and checking every move: the same for every store.
pub(crate) fn rebuild(
    id: i64,
    row: Row,
    moves: &[(i64, String, i64)],
    rating_changes: Option<[awale_model::rating::RatingChange; 2]>,
) -> Result<WebGame, StoreError> {
    let corrupt = |message: String| StoreError::Corrupt { id, message };
    let side = |text: &str| side_from_text(text).ok_or_else(|| corrupt(format!("side `{text}`")));
    let rules: Rules = row.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
    let start: Position = row.start.parse().map_err(|e| corrupt(format!("{e}")))?;
    let level = row
        .level
        .map(|l| u8::try_from(l).map_err(|_| corrupt(format!("level {l}"))))
        .transpose()?;
    let mode = match (row.mode.as_str(), row.human.as_deref(), level) {
        ("humans", _, _) => Mode::Humans,
        ("online", _, _) => Mode::Online,
        ("computer", Some(h), Some(level)) => Mode::Computer {
            human: side(h)?,
            level,
        },
        (m, _, _) => return Err(corrupt(format!("mode `{m}`"))),
    };
    let clock = match row.clock {
        [Some(initial_ms), Some(increment_ms), Some(s), Some(n)] => Some(Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [s, n],
            per_move: row.per_move,
        }),
        _ => None,
    };
    let mut game = Game::from_position(rules, start);
    for (expected, (ply, letter, captured)) in moves.iter().enumerate() {
        let mv = letter
            .chars()
            .next()
            .and_then(Move::from_letter)
            .ok_or_else(|| corrupt(format!("move `{letter}` at ply {ply}")))?;
        if *ply != expected as i64 {
            return Err(corrupt(format!("ply {ply} where {expected} was expected")));
        }
        let got = game
            .play(mv)
            .map_err(|e| corrupt(format!("ply {ply} ({mv}): {e}")))?;
        if i64::from(got) != *captured {
            return Err(corrupt(format!(
                "ply {ply} ({mv}) captures {got}, stored {captured}"
            )));
        }
    }
    // The moves taken back before the resignation: a file written before
    // a resignation cleared them holds both, so they are set first.
    let redo = row
        .redo
        .chars()
        .map(|c| Move::from_letter(c).ok_or_else(|| corrupt(format!("redo move `{c}`"))))
        .collect::<Result<Vec<_>, _>>()?;
    game.set_redo_list(redo)
        .map_err(|e| corrupt(format!("redo list: {e}")))?;
    if let Some(s) = row.resigned.as_deref() {
        game.resign(side(s)?)
            .map_err(|e| corrupt(format!("resignation: {e}")))?;
    }
    let stop = match row.stop.as_deref() {
        None => None,
        Some(s) => Some(stop_from_text(s).ok_or_else(|| corrupt(format!("end `{s}`")))?),
    };
    let seats = row.seats.map(|(player, name)| {
        player.map(|p| Seat {
            player: PlayerId(p),
            name: name.unwrap_or_default(),
        })
    });
    let optional_side = |t: Option<String>| t.as_deref().map(side).transpose();
    let public_id = row
        .public_id
        .ok_or_else(|| corrupt("no public id".to_string()))?;
    Ok(WebGame {
        id,
        public_id,
        invite: row.invite,
        created_ms: row.created_ms,
        mode,
        seats,
        public: row.public,
        seed: row.seed as u64,
        clock,
        turn_started_ms: row.turn_started_ms.unwrap_or(row.created_ms),
        stop,
        offers: Offers {
            takeback: optional_side(row.takeback)?,
            rematch: optional_side(row.rematch)?,
            rematch_id: row.rematch_id,
            rematch_public_id: row.rematch_public_id,
            draw: optional_side(row.draw)?,
            // Declines are news of the moment, not stored.
            ..Offers::default()
        },
        game,
        rated: row.rated,
        rating_range: row.rating_range,
        rating_changes,
        version: Default::default(),
        revision: row.revision,
        gone_since: [None, None],
    })
}

/// A `games` row as read back, before its moves are replayed.
pub(crate) struct Row {
    pub(crate) created_ms: i64,
    pub(crate) rules: String,
    pub(crate) start: String,
    pub(crate) mode: String,
    pub(crate) human: Option<String>,
    pub(crate) level: Option<i64>,
    pub(crate) seed: i64,
    /// Initial time, increment, South's and North's time left.
    pub(crate) clock: [Option<i64>; 4],
    /// Days per move: the clock gives its time again after each move.
    pub(crate) per_move: bool,
    pub(crate) turn_started_ms: Option<i64>,
    pub(crate) resigned: Option<String>,
    pub(crate) stop: Option<String>,
    pub(crate) redo: String,
    pub(crate) public: bool,
    pub(crate) seats: [(Option<String>, Option<String>); 2],
    pub(crate) takeback: Option<String>,
    pub(crate) rematch: Option<String>,
    pub(crate) rematch_id: Option<i64>,
    pub(crate) rated: bool,
    pub(crate) draw: Option<String>,
    pub(crate) public_id: Option<String>,
    pub(crate) invite: Option<String>,
    /// The public id of the rematch's game, if any.
    pub(crate) rematch_public_id: Option<String>,
    /// A lobby seek's rating range.
    pub(crate) rating_range: Option<i64>,
    /// The stored version (PostgreSQL's fencing token; 0 in SQLite).
    pub(crate) revision: i64,
}

/// A game's row from the columns of [`GAME_COLUMNS`], in either store (the
/// revision, which only PostgreSQL keeps, 0).
pub(crate) fn game_row<R: Cells>(r: &R) -> Result<Row, R::Error> {
    Ok(Row {
        created_ms: r.cell(0)?,
        rules: r.cell(1)?,
        start: r.cell(2)?,
        mode: r.cell(3)?,
        human: r.cell(4)?,
        level: r.cell(5)?,
        seed: r.cell(6)?,
        clock: [r.cell(7)?, r.cell(8)?, r.cell(9)?, r.cell(10)?],
        turn_started_ms: r.cell(11)?,
        resigned: r.cell(12)?,
        stop: r.cell(13)?,
        redo: r.cell(14)?,
        public: r.cell(15)?,
        seats: [(r.cell(16)?, r.cell(17)?), (r.cell(18)?, r.cell(19)?)],
        takeback: r.cell(20)?,
        rematch: r.cell(21)?,
        rematch_id: r.cell(22)?,
        rated: r.cell(23)?,
        draw: r.cell(24)?,
        public_id: r.cell(25)?,
        invite: r.cell(26)?,
        rematch_public_id: r.cell(27)?,
        per_move: r.cell(28)?,
        rating_range: r.cell(29)?,
        revision: 0,
    })
}

/// The SQL of [`SEATS_BOTS`], for the lists' columns written at once.
macro_rules! seats_bots {
    () => {
        "EXISTS (SELECT 1 FROM accounts a WHERE a.player = south_player AND a.bot) AS south_bot,
     EXISTS (SELECT 1 FROM accounts a WHERE a.player = north_player AND a.bot) AS north_bot"
    };
}

/// The columns of a line of a player's list; `?1` (`$1`) is the player,
/// whose seat is told (`you`).
pub(crate) const SUMMARY_COLUMNS: &str = concat!(
    "id, created_ms, updated_ms, mode, human, level, rules, plies,
    result, reason, south_name, north_name, public_id, clock_per_move,
    (SELECT tg.tournament_id FROM tournament_games tg WHERE tg.game_id = games.id) AS tournament,
    CASE WHEN south_player = ?1 THEN 'S' WHEN north_player = ?1 THEN 'N' END AS you, ",
    seats_bots!()
);

/// The query of [`list_games`] in either store (SQLite's numbering): the
/// games where `?1` holds a seat, before `(?2, id ?3)`, `?4` at most, as
/// [`SUMMARY_COLUMNS`]. Each seat's games come from an index scan of their
/// own, then merged.
pub(crate) fn list_games_query(postgres: bool) -> String {
    let page = "(updated_ms < ?2 OR (updated_ms = ?2 AND id < ?3))";
    let order = "ORDER BY updated_ms DESC, id DESC LIMIT ?4";
    seats_union(
        postgres,
        &format!("SELECT {SUMMARY_COLUMNS} FROM games WHERE {{seat}} AND {page} {order}"),
        order,
    )
}

/// The query of the current game of player `?1` in either store: of their
/// games going on (an online one with both seats taken), the one with the
/// latest move or making. A game's date lags its last move by less than a
/// minute ([`SET_STATE`]), so only the games dated within a minute of the
/// newest can have moved later: those are read by the indexes, then
/// ordered by the time of their last move.
pub(crate) fn current_query(postgres: bool) -> String {
    let open = "result = '*' AND stop IS NULL
        AND NOT (mode = 'online' AND (south_player IS NULL OR north_player IS NULL))";
    let latest = if postgres { "GREATEST" } else { "max" };
    let newest = seats_union(
        postgres,
        &format!(
            "SELECT updated_ms FROM games WHERE {{seat}} AND {open}
             ORDER BY updated_ms DESC, id DESC LIMIT 1"
        ),
        "ORDER BY updated_ms DESC LIMIT 1",
    );
    seats_union(
        postgres,
        &format!(
            "SELECT id, {latest}(updated_ms, turn_started_ms) AS latest FROM games
             WHERE {{seat}} AND {open}
             AND updated_ms > (SELECT updated_ms FROM ({newest}) AS newest) - 60000"
        ),
        "ORDER BY latest DESC, id DESC LIMIT 1",
    )
}

/// `member` (its `{seat}` the condition on a seat of player `?1`) for
/// each seat, merged and ordered by `order`; the two stores differ only in
/// how a member of a `UNION` takes its own order and limit (SQLite: a
/// subquery; PostgreSQL: in parentheses).
fn seats_union(postgres: bool, member: &str, order: &str) -> String {
    let branch = |seat: &str| {
        let member = member.replace("{seat}", seat);
        if postgres {
            format!("({member})")
        } else {
            format!("SELECT * FROM ({member})")
        }
    };
    let union = format!(
        "{} UNION {}",
        branch("south_player = ?1"),
        branch("north_player = ?1")
    );
    if postgres {
        format!("{union} {order}")
    } else {
        format!("SELECT * FROM ({union}) {order}")
    }
}

/// A page of the games read: one more than `limit` is read, to know
/// whether another page follows.
pub(crate) fn page_of(mut games: Vec<Summary>, limit: usize) -> Page {
    let next = if games.len() > limit {
        games.truncate(limit);
        games.last().map(|g| format!("{}.{}", g.updated_ms, g.id))
    } else {
        None
    };
    Page { games, next }
}

/// A line of the list from a row of [`SUMMARY_COLUMNS`], in either store.
pub(crate) fn summary<R: Cells>(r: &R) -> Result<Summary, StoreError>
where
    StoreError: From<R::Error>,
{
    let id: i64 = r.cell(0)?;
    let level: Option<i64> = r.cell(5)?;
    Ok(Summary {
        id,
        created_ms: r.cell(1)?,
        updated_ms: r.cell(2)?,
        mode: r.cell(3)?,
        human: r.cell(4)?,
        level: level
            .map(|l| {
                u8::try_from(l).map_err(|_| StoreError::Corrupt {
                    id,
                    message: format!("level {l}"),
                })
            })
            .transpose()?,
        rules: StoredRules::from_text(r.cell(6)?),
        plies: r.cell(7)?,
        result: r.cell(8)?,
        reason: r.cell(9)?,
        names: [r.cell(10)?, r.cell(11)?],
        public_id: r.cell(12)?,
        per_move: r.cell(13)?,
        tournament: r.cell(14)?,
        you: r.cell(15)?,
        bots: [r.cell(16)?, r.cell(17)?],
    })
}

/// Game `?1`'s last `?2` chat lines, newest first, as [`chat_line`] reads
/// them.
pub(crate) const CHAT_LINES: &str = "SELECT id, room, at_ms, side, name, text, guest FROM chat
     WHERE game_id = ?1 ORDER BY id DESC LIMIT ?2";

/// Adds a line to game `?1`'s chat (room, time, side, name, text, guest
/// number): its number.
pub(crate) const ADD_CHAT_LINE: &str =
    "INSERT INTO chat (game_id, room, at_ms, side, name, text, guest)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id";

/// Keeps game `?1`'s last `?2` + 1 chat lines only.
pub(crate) const KEEP_LAST_CHAT: &str =
    "DELETE FROM chat WHERE game_id = ?1 AND id < (SELECT id FROM chat
     WHERE game_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)";

/// A chat line from a row of [`CHAT_LINES`], in either store.
pub(crate) fn chat_line<R: Cells>(r: &R) -> Result<ChatLine, R::Error> {
    let room: String = r.cell(1)?;
    let side: Option<String> = r.cell(3)?;
    let guest: Option<i64> = r.cell(6)?;
    Ok(ChatLine {
        id: r.cell(0)?,
        room: if room == "players" {
            "players"
        } else {
            "public"
        },
        at_ms: r.cell(2)?,
        side: side.and_then(|s| side_from_text(&s)).map(Side::letter),
        name: r.cell(4)?,
        text: r.cell(5)?,
        guest: guest.and_then(|g| u32::try_from(g).ok()),
    })
}

/// The condition of [`Store::turns`]: an online game going on, both seats
/// taken, where `player` holds the seat of the side to move (moves
/// alternate: the side of the start diagram, its last letter, moves when
/// the count of moves is even). `{last}` is the SQL of the diagram's last
/// letter, `{p}` the player's parameter.
pub(crate) const TURNS_FILTER: &str = "mode = 'online' AND result = '*' AND stop IS NULL
    AND south_player IS NOT NULL AND north_player IS NOT NULL
    AND ((south_player = {p} AND ({last} = 'S') = (plies % 2 = 0))
      OR (north_player = {p} AND ({last} = 'N') = (plies % 2 = 0)))";

/// Reads a [`Page::next`] back.
pub fn parse_cursor(text: &str) -> Option<(i64, i64)> {
    let (t, i) = text.split_once('.')?;
    Some((t.parse().ok()?, i.parse().ok()?))
}

/// The lobby's columns of whether each seat is an open account's (the
/// same SQL for both stores).
pub(crate) const LOBBY_ACCOUNTS: &str =
    "EXISTS (SELECT 1 FROM accounts a WHERE a.player = south_player
             AND a.deleted_ms IS NULL AND a.closed_ms IS NULL),
     EXISTS (SELECT 1 FROM accounts a WHERE a.player = north_player
             AND a.deleted_ms IS NULL AND a.closed_ms IS NULL)";

/// The columns of whether each seat of a game is a bot account's (South,
/// North; the same SQL for both stores): the page marks their names BOT.
pub(crate) const SEATS_BOTS: &str = seats_bots!();

/// The lobby's columns of a rated game's two players' ratings now (the
/// same SQL for both stores).
pub(crate) const LOBBY_RATINGS: &str =
    "(SELECT r.rating FROM ratings r WHERE rated AND r.player = south_player AND r.speed = games.speed),
     (SELECT r.rating FROM ratings r WHERE rated AND r.player = north_player AND r.speed = games.speed)";

/// The lobby's two kinds of games, each counted apart (games in play never
/// hide a challenge): the public ones waiting for a second player (a
/// private invitation is nobody else's business until it is played), and
/// those being played.
pub(crate) const LOBBY_KINDS: [&str; 2] = [
    "public AND (south_player IS NULL OR north_player IS NULL)",
    "south_player IS NOT NULL AND north_player IS NOT NULL",
];

/// The newest `?1` online games going on of kind `which` (one of
/// [`LOBBY_KINDS`]), as [`lobby_game`] reads them.
pub(crate) fn lobby_query(which: &str) -> String {
    format!(
        "SELECT id, rules, clock_initial_ms, clock_increment_ms, south_name, north_name,
                plies, created_ms, start, public_id, rated, clock_per_move, {LOBBY_RATINGS},
                rating_range, {LOBBY_ACCOUNTS}, {SEATS_BOTS}
         FROM games WHERE mode = 'online' AND result = '*' AND stop IS NULL
         AND {which}
         ORDER BY updated_ms DESC, id DESC LIMIT ?1"
    )
}

/// A game of the lobby from a row of [`lobby_query`], in either store.
pub(crate) fn lobby_game<R: Cells>(r: &R) -> Result<LobbyGame, R::Error> {
    let clock = match (r.cell(2)?, r.cell(3)?) {
        (Some(i), Some(inc)) => Some([i, inc]),
        _ => None,
    };
    let rules = StoredRules::from_text(r.cell(1)?);
    let start: String = r.cell(8)?;
    let usual = rules
        .rules
        .parse::<awale_core::Rules>()
        .ok()
        .map(|r| awale_core::Game::new(r).start().to_string());
    Ok(LobbyGame {
        id: r.cell(0)?,
        public_id: r.cell(9)?,
        rules,
        clock,
        per_move: r.cell(11)?,
        names: [r.cell(4)?, r.cell(5)?],
        plies: r.cell(6)?,
        created_ms: r.cell(7)?,
        start: (usual.as_deref() != Some(start.as_str())).then_some(start),
        rated: r.cell(10)?,
        ratings: [rounded(r.cell(12)?), rounded(r.cell(13)?)],
        rating_range: r.cell(14)?,
        accounts: [r.cell(15)?, r.cell(16)?],
        bots: [r.cell(17)?, r.cell(18)?],
    })
}

/// A rating as the lobby shows it.
pub(crate) fn rounded(rating: Option<f64>) -> Option<i32> {
    rating.map(|r| r.round() as i32)
}

/// Adds a line to a chat room that keeps its last [`CHAT_KEPT`] lines,
/// telling `notice` of its number: `add` (which gives the number) with
/// `values`, then `keep_last` of room `room` (a game's chat,
/// [`ADD_CHAT_LINE`] and [`KEEP_LAST_CHAT`], or a tournament's). The
/// line's number.
pub(crate) async fn add_chat_line<X: Tx>(
    tx: &X,
    add: &str,
    values: &[&dyn Value],
    keep_last: &str,
    room: i64,
    notice: impl FnOnce(i64) -> Notice + Send,
) -> Result<i64, StoreError> {
    let id: i64 = tx.value(add, values).await?;
    tx.execute(keep_last, &[&room, &(CHAT_KEPT as i64 - 1)])
        .await?;
    tx.announce(notice(id)).await?;
    Ok(id)
}
