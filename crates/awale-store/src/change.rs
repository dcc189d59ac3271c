//! What a change of a game wrote, carried by its notice ([`GameChange`]):
//! a process sharing the store that holds the game at the revision before
//! applies it to its copy without reading the database (the issue 39
//! rule: a process pays for a game only where one of its clients plays or
//! watches it, and then nothing but the notice when it misses none).

use awale_core::{Move, Side};
use awale_model::game::{Clock, Mode, Offers, PlayerId, Seat, Stop, WebGame};

use crate::stored_text::{side_from_text, side_to_text, stop_from_text, stop_to_text};

/// A notice's text longer than this goes without its change (PostgreSQL's
/// payloads hold 8,000 bytes, the sender's mark included): the processes
/// that follow the game then read the new rows.
pub(crate) const MAX_NOTICE_BYTES: usize = 7_000;

/// A game's stored state after a change, as the `games` row keeps it (what
/// [`crate::rows::State`] writes), and the moves after the plies the change
/// kept: with the copy of the revision before, the game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameChange {
    /// The moves from the first ply the change did not keep on.
    moves: Vec<Move>,
    clock: Option<Clock>,
    turn_started_ms: i64,
    resigned: Option<Side>,
    stop: Option<Stop>,
    /// The moves taken back, the next to redo last.
    redo: Vec<Move>,
    mode: Mode,
    public: bool,
    seats: [Option<Seat>; 2],
    takeback: Option<Side>,
    rematch: Option<Side>,
    rematch_id: Option<i64>,
    rematch_public_id: Option<String>,
    draw: Option<Side>,
    rated: bool,
}

impl GameChange {
    /// The change that made `game`, its first `kept` plies as they were.
    pub fn of(game: &WebGame, kept: usize) -> GameChange {
        GameChange {
            moves: game.game.moves().skip(kept).collect(),
            clock: game.clock,
            turn_started_ms: game.turn_started_ms,
            resigned: game.game.resigned(),
            stop: game.stop,
            redo: game.game.redo_list().to_vec(),
            mode: game.mode,
            public: game.public,
            seats: game.seats.clone(),
            takeback: game.offers.takeback,
            rematch: game.offers.rematch,
            rematch_id: game.offers.rematch_id,
            rematch_public_id: game.offers.rematch_public_id.clone(),
            draw: game.offers.draw,
            rated: game.rated,
        }
    }

    /// The game as stored at `revision`, from `held`, a copy at the
    /// revision before, the change having kept its first `kept` plies: the
    /// copy's identity (public id, rules, start, seed...) and this change's
    /// state, its moves replayed and checked as a read replays them. None
    /// when it cannot be made so (a copy of another revision or with fewer
    /// plies, a move the rules refuse) or when the game now needs what the
    /// notice does not carry (a rated game over: its rating changes): the
    /// game is read then.
    pub fn apply(&self, held: &WebGame, revision: i64, kept: usize) -> Option<WebGame> {
        if held.revision + 1 != revision || held.game.plies().len() < kept {
            return None;
        }
        let mut game = if held.game.plies().len() == kept && held.game.resigned().is_none() {
            // The usual move: the copy's game, the new plies played on.
            held.game.clone()
        } else {
            let mut game = awale_core::Game::from_position(*held.game.rules(), held.game.start());
            for ply in &held.game.plies()[..kept] {
                game.play(ply.mv).ok()?;
            }
            game
        };
        for &mv in &self.moves {
            game.play(mv).ok()?;
        }
        game.set_redo_list(self.redo.clone()).ok()?;
        if let Some(side) = self.resigned {
            game.resign(side).ok()?;
        }
        let mut next = WebGame {
            // Who and what the game is: never changed by a change.
            id: held.id,
            public_id: held.public_id.clone(),
            invite: held.invite.clone(),
            created_ms: held.created_ms,
            seed: held.seed,
            rating_range: held.rating_range,
            game,
            mode: self.mode,
            seats: self.seats.clone(),
            public: self.public,
            clock: self.clock,
            turn_started_ms: self.turn_started_ms,
            stop: self.stop,
            offers: Offers {
                takeback: self.takeback,
                rematch: self.rematch,
                rematch_id: self.rematch_id,
                rematch_public_id: self.rematch_public_id.clone(),
                draw: self.draw,
                // Declines are news of the moment, not stored.
                ..Offers::default()
            },
            rated: self.rated,
            rating_changes: None,
            version: Default::default(),
            revision,
            gone_since: [None, None],
        };
        if next.rated && next.end().is_some() {
            // Rated once: the changes a copy carries stay; else read.
            next.rating_changes = Some(held.rating_changes?);
        }
        Some(next)
    }

    /// As a notice carries it: words without spaces (see
    /// [`GameChange::from_words`]).
    pub(crate) fn to_words(&self) -> String {
        let side = |s: Option<Side>| s.map_or_else(|| "-".to_string(), side_to_text);
        let text =
            |t: Option<&str>| t.map_or_else(|| "-".to_string(), |t| format!("={}", escape(t)));
        let number = |n: Option<i64>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        let letters =
            |moves: &[Move]| format!("={}", moves.iter().map(|m| m.letter()).collect::<String>());
        let clock = self.clock.map_or_else(
            || "-".to_string(),
            |c| {
                format!(
                    "{},{},{},{},{}",
                    c.initial_ms,
                    c.increment_ms,
                    c.remaining_ms[0],
                    c.remaining_ms[1],
                    u8::from(c.per_move)
                )
            },
        );
        let mode = match self.mode {
            Mode::Humans => "h".to_string(),
            Mode::Online => "o".to_string(),
            Mode::Computer { human, level } => format!("c{}{level}", side_to_text(human)),
        };
        let [south, north] = &self.seats;
        let seat = |s: &Option<Seat>| {
            [
                text(s.as_ref().map(|s| s.player.0.as_str())),
                text(s.as_ref().map(|s| s.name.as_str())),
            ]
            .join(" ")
        };
        [
            letters(&self.moves),
            clock,
            self.turn_started_ms.to_string(),
            side(self.resigned),
            text(self.stop.map(stop_to_text).as_deref()),
            letters(&self.redo),
            mode,
            u8::from(self.public).to_string(),
            seat(south),
            seat(north),
            side(self.takeback),
            side(self.rematch),
            number(self.rematch_id),
            text(self.rematch_public_id.as_deref()),
            side(self.draw),
            u8::from(self.rated).to_string(),
        ]
        .join(" ")
    }

    /// Reads [`GameChange::to_words`] back from `words` (all of them): None
    /// for anything else.
    pub(crate) fn from_words<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<GameChange> {
        let mut next = || words.next();
        let side = |w: &str| match w {
            "-" => Some(None),
            w => side_from_text(w).map(Some),
        };
        let text = |w: &str| match w {
            "-" => Some(None),
            w => unescape(w.strip_prefix('=')?).map(Some),
        };
        let number = |w: &str| match w {
            "-" => Some(None),
            w => w.parse().ok().map(Some),
        };
        let flag = |w: &str| match w {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let letters = |w: &str| {
            w.strip_prefix('=')?
                .chars()
                .map(Move::from_letter)
                .collect::<Option<Vec<_>>>()
        };
        let moves = letters(next()?)?;
        let clock = match next()? {
            "-" => None,
            w => {
                let parts: Vec<&str> = w.split(',').collect();
                let [initial, increment, south, north, per_move] = parts[..] else {
                    return None;
                };
                Some(Clock {
                    initial_ms: initial.parse().ok()?,
                    increment_ms: increment.parse().ok()?,
                    remaining_ms: [south.parse().ok()?, north.parse().ok()?],
                    per_move: flag(per_move)?,
                })
            }
        };
        let turn_started_ms = next()?.parse().ok()?;
        let resigned = side(next()?)?;
        let stop = match text(next()?)? {
            None => None,
            Some(t) => Some(stop_from_text(&t)?),
        };
        let redo = letters(next()?)?;
        let mode = match next()? {
            "h" => Mode::Humans,
            "o" => Mode::Online,
            w => {
                let rest = w.strip_prefix('c')?;
                let mut chars = rest.chars();
                let human = side_from_text(&chars.next()?.to_string())?;
                Mode::Computer {
                    human,
                    level: chars.as_str().parse().ok()?,
                }
            }
        };
        let public = flag(next()?)?;
        let mut seat = || -> Option<Option<Seat>> {
            let player = text(next()?)?;
            let name = text(next()?)?;
            Some(match (player, name) {
                (Some(player), Some(name)) => Some(Seat {
                    player: PlayerId(player),
                    name,
                }),
                (None, None) => None,
                _ => return None,
            })
        };
        let seats = [seat()?, seat()?];
        let change = GameChange {
            moves,
            clock,
            turn_started_ms,
            resigned,
            stop,
            redo,
            mode,
            public,
            seats,
            takeback: side(next()?)?,
            rematch: side(next()?)?,
            rematch_id: number(next()?)?,
            rematch_public_id: text(next()?)?,
            draw: side(next()?)?,
            rated: flag(next()?)?,
        };
        next().is_none().then_some(change)
    }
}

/// `text` with the characters a notice's words cannot hold written `%XX`
/// (the space that parts them, `%` itself, and control characters).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' || c == '%' || (c.is_control() && c.is_ascii()) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`escape`] undone: None for a `%` not followed by two hex digits.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let hex = rest.get(at + 1..at + 3)?;
        let code = u8::from_str_radix(hex, 16).ok().filter(u8::is_ascii)?;
        out.push(char::from(code));
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::{Game, Rules};

    fn seat(player: &str, name: &str) -> Option<Seat> {
        Some(Seat {
            player: PlayerId(player.into()),
            name: name.into(),
        })
    }

    /// An online game with a clock, both seats taken, some moves.
    fn game(moves: &str) -> WebGame {
        let mut game = WebGame::new(Mode::Online, Game::new(Rules::AWALE), 1_000, 7);
        game.id = 3;
        game.public_id = "AbCdEfGh".into();
        game.seats = [seat("p1", "Ama Kofi"), seat("p2", "100% Kwame")];
        game.clock = Some(Clock {
            initial_ms: 180_000,
            increment_ms: 2_000,
            remaining_ms: [170_000, 175_500],
            per_move: false,
        });
        for c in moves.chars() {
            game.game.play(Move::from_letter(c).unwrap()).unwrap();
        }
        game
    }

    /// A change read back from its words is itself, whatever its names
    /// hold (spaces, `%`, a new line), and a copy of the revision before
    /// becomes the game as changed: the new ply, the clock, the offers.
    #[test]
    fn a_change_read_back_and_applied_is_the_game_as_changed() {
        let mut before = game("FfA");
        before.revision = 4;
        let mut after = before.clone();
        after.game.play(Move::from_letter('a').unwrap()).unwrap();
        after.turn_started_ms = 123_456;
        after.clock.as_mut().unwrap().remaining_ms = [168_000, 175_500];
        after.offers.draw = Some(Side::North);
        after.offers.rematch_public_id = Some("Zz%9 x".into());
        after.seats[1].as_mut().unwrap().name = "Kwame\nthe second".into();
        let change = GameChange::of(&after, 3);
        let words = change.to_words();
        assert!(!words.contains('\n'), "{words}");
        let back = GameChange::from_words(words.split(' ')).expect(&words);
        assert_eq!(back, change);
        let applied = back.apply(&before, 5, 3).unwrap();
        assert_eq!(applied.revision, 5);
        assert_eq!(
            applied.game.moves().collect::<Vec<_>>(),
            after.game.moves().collect::<Vec<_>>()
        );
        assert_eq!(applied.game.position(), after.game.position());
        assert_eq!(applied.clock, after.clock);
        assert_eq!(applied.turn_started_ms, 123_456);
        assert_eq!(applied.offers.draw, Some(Side::North));
        assert_eq!(applied.offers.rematch_public_id.as_deref(), Some("Zz%9 x"));
        assert_eq!(applied.seats, after.seats);
        assert_eq!(applied.public_id, "AbCdEfGh");
        // A copy of another revision, or with fewer plies than kept: read.
        assert!(back.apply(&before, 6, 3).is_none());
        assert!(back.apply(&game("F"), 5, 3).is_none());
        // Too few or too many words, or a word of another shape: none.
        let all: Vec<&str> = words.split(' ').collect();
        assert!(GameChange::from_words(all[..all.len() - 1].iter().copied()).is_none());
        assert!(GameChange::from_words(all.iter().copied().chain(["1"])).is_none());
        assert!(GameChange::from_words(words.replacen("=a", "=x", 1).split(' ')).is_none());
    }

    /// A takeback (plies not kept) and a resignation are applied as a read
    /// replays them; a rated game over needs its rating changes read.
    #[test]
    fn a_takeback_and_an_end_are_applied_or_read() {
        let mut before = game("FfAa");
        before.revision = 1;
        let mut after = before.clone();
        after.game.undo();
        after.game.undo();
        after.game.play(Move::from_letter('B').unwrap()).unwrap();
        let applied = GameChange::of(&after, 2).apply(&before, 2, 2).unwrap();
        assert_eq!(applied.game.position(), after.game.position());
        assert_eq!(applied.game.plies().len(), 3);
        let mut resigned = before.clone();
        resigned.game.resign(Side::South).unwrap();
        let applied = GameChange::of(&resigned, 4).apply(&before, 2, 4).unwrap();
        assert_eq!(applied.game.resigned(), Some(Side::South));
        resigned.rated = true;
        assert!(GameChange::of(&resigned, 4).apply(&before, 2, 4).is_none());
    }

    #[test]
    fn escaped_text_reads_back() {
        for text in ["", "a b", "100%", "%20", "x\ny\t", "Kwamé ✓"] {
            assert_eq!(unescape(&escape(text)).as_deref(), Some(text));
            assert!(!escape(text).contains(' '));
        }
        assert_eq!(unescape("%2"), None);
        assert_eq!(unescape("%zz"), None);
    }
}
