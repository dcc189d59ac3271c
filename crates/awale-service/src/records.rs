//! Game records in and out: a stored game written as a record file with
//! its tags (the notation other Oware programs read), and a record file
//! read into new games, all of them stored or, with a clear error, none.

use std::sync::Arc;

use awale_core::{parse_records, Game, Record, Side};

use crate::error::Error;
use crate::game::{random_seed, Mode, Stop, WebGame};
use crate::games::Games;
use awale_model::Code;

/// Games one import may hold.
pub const MAX_IMPORTED_GAMES: usize = 200;
/// What one imported game costs of the client's allowance of new games
/// (an import of 200 games costs 20): with the allowance's refill of one a
/// second, a client imports at most 10 games a second, 36,000 an hour,
/// each a few hundred bytes.
const GAMES_PER_CREATION: usize = 10;

/// The record of `game` with its tags, as exported.
pub fn export(game: &WebGame) -> String {
    export_as(game, "Awalé", &game.public_id)
}

/// The record of `game` with its tags, its `Event` and `Round` those
/// given (a tournament's name, its round and board).
pub fn export_as(game: &WebGame, event: &str, round: &str) -> String {
    let name = |side: Side| -> String {
        match game.mode {
            Mode::Computer { human, level } if human != side => {
                format!("Computer (level {level})")
            }
            Mode::Computer { .. } => "Player".to_string(),
            Mode::Humans => side.to_string(),
            Mode::Online => game.seats[side.index()]
                .as_ref()
                .map_or_else(|| side.to_string(), |s| s.name.clone()),
        }
    };
    let (south, north) = (name(Side::South), name(Side::North));
    let date = awale_core::record_date(game.created_ms.div_euclid(1000));
    let mut record = Record::from_game(
        &game.game,
        &[
            ("Event", event),
            ("Site", "awale serve"),
            ("Date", &date),
            ("Round", round),
            ("South", &south),
            ("North", &north),
        ],
    );
    if let (Some(stop), Some(end)) = (game.stop, game.end()) {
        let result = end.result_text();
        record.result = result.to_string();
        record.set_tag("Result", result);
        let termination = match stop {
            Stop::Time(_) => "time forfeit",
            Stop::Abandoned(_) => "abandoned",
            Stop::Aborted => "aborted",
            Stop::Agreed => "agreement",
        };
        record.set_tag("Termination", termination);
    }
    record.to_string()
}

/// How imported games go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportAs {
    /// Between two people on one screen.
    Humans,
    /// Against the computer at this level; the person takes the side to
    /// move of the first game.
    Computer {
        /// The computer's level.
        level: u8,
    },
}

impl Games {
    /// Stores the games of record file `text` as new games going on `as_`,
    /// seated for `maker` (the person's seats are theirs). The import
    /// costs the maker's address one of its games per ten games
    /// ([`crate::limits`]), before anything is stored. Either every game
    /// is stored (in one transaction) or none.
    ///
    /// # Errors
    ///
    /// `bad_record` naming the game and the problem; `too_many` (because
    /// `games`); a storage failure.
    pub async fn import(
        self: &Arc<Self>,
        text: &str,
        as_: ImportAs,
        maker: &crate::limits::Caller,
    ) -> Result<Vec<WebGame>, Error> {
        let records = parse_records(text).map_err(|e| Error::bad_record(&e, None))?;
        if records.is_empty() {
            return Err(
                Error::invalid(Code::BadRecord, "the file holds no game record").because("empty"),
            );
        }
        if records.len() > MAX_IMPORTED_GAMES {
            return Err(Error::invalid(
                Code::BadRecord,
                format!(
                    "the file holds {} games; at most {MAX_IMPORTED_GAMES} are imported at once",
                    records.len()
                ),
            )
            .because("too_many_games")
            .with("count", records.len())
            .with("max", MAX_IMPORTED_GAMES));
        }
        let cost = records.len().div_ceil(GAMES_PER_CREATION) as u32;
        self.limits()
            .take(crate::limiter::Limit::Games, maker, cost, self.now_ms())?;
        let maker = &maker.player;
        let mut games = Vec::with_capacity(records.len());
        for (i, record) in records.iter().enumerate() {
            let game = record
                .to_game()
                .map_err(|e| Error::bad_record(&e, Some(i + 1)))?;
            games.push(game);
        }
        let mode = match as_ {
            ImportAs::Humans => Mode::Humans,
            ImportAs::Computer { level } => Mode::Computer {
                human: games[0].position().to_move(),
                level,
            },
        };
        let now = self.now_ms();
        let webs: Vec<WebGame> = games
            .into_iter()
            .zip(&records)
            .map(|(game, record)| {
                let mut web = WebGame::new(mode, game, now, random_seed());
                web.stop = lost_on_time(record, &web.game).map(Stop::Time);
                web.seat_maker(maker);
                web
            })
            .collect();
        self.create(webs).await
    }
}

/// The side that lost on time in an imported record: the loser of a
/// decided result with `[Termination "time forfeit"]` (as exports write it),
/// when the moves alone do not end the game.
fn lost_on_time(record: &Record, game: &Game) -> Option<Side> {
    if record.tag("Termination") != Some("time forfeit") || game.end().is_some() {
        return None;
    }
    // The loser is the side that did not win a decided result.
    awale_core::result_winner(&record.result)
        .flatten()
        .map(Side::opponent)
}
