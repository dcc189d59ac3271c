//! Openings for matches: short move sequences from the start position whose
//! positions a deep search scores near 0, so that neither side starts ahead.
//! Each is played twice in a match, once with each engine as South.
//!
//! The built-in list is `crates/awale-match/data/openings.txt`, made by
//! [`generate`] (`awale openings`). The file format is one opening a line,
//! its moves as letters (`FfAa`), then optionally `#` and a comment; blank
//! lines and lines starting with `#` are skipped.

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::AtomicBool;

use awale_core::{parse_moves, Game, Move, Position, Rules, Side};

use awale_engine::Engine;
use awale_engine::Limits;
use awale_engine::Score;

/// The built-in openings file.
pub const BUILTIN: &str = include_str!("../data/openings.txt");

/// One opening: the moves played before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves, from the start position with South to move (North's
    /// start plays them turned round: [`Opening::moves_from`]).
    pub moves: Vec<Move>,
    /// What the file says about it (e.g. the score it was chosen with).
    pub comment: String,
}

impl Opening {
    /// The moves as one word, `FfAa` (empty for no moves).
    pub fn letters(&self) -> String {
        self.moves.iter().map(|m| m.letter()).collect()
    }

    /// The moves as played when `first` starts: the opening's own, or
    /// with North first each from the hole facing it in the other row
    /// (`fFaA` for `FfAa`): the same game, the board turned round.
    pub fn moves_from(&self, first: Side) -> Vec<Move> {
        self.moves
            .iter()
            .map(|&m| match first {
                Side::South => m,
                Side::North => Move::new(m.side().opponent(), m.index_in_row()),
            })
            .collect()
    }

    /// The game after the opening under `rules` when `first` starts (its
    /// moves as [`Opening::moves_from`] plays them); the game keeps the
    /// rules as given, who starts included.
    ///
    /// # Errors
    ///
    /// A message when a move cannot be played or the game is already over.
    pub fn game(&self, rules: Rules, first: Side) -> Result<Game, String> {
        let moves = self.moves_from(first);
        let letters: String = moves.iter().map(|m| m.letter()).collect();
        let mut game = Game::from_position(rules, Position::start(first));
        for (i, &m) in moves.iter().enumerate() {
            game.play(m)
                .map_err(|e| format!("opening {letters}: move {} ({m}): {e}", i + 1))?;
        }
        if let Some(reason) = game.end() {
            return Err(format!(
                "opening {letters}: the game is already over ({reason})"
            ));
        }
        Ok(game)
    }
}

/// An openings file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError {
    /// 1-based line; 0 when the fault is the whole file's (no opening in it).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return f.write_str(&self.message);
        }
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningsError {}

/// Reads an openings file and checks that each opening can be played under
/// `rules`.
///
/// # Errors
///
/// [`OpeningsError`] for the first line that is not an opening, or for an
/// empty list.
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    // A byte order mark some editors write first is no move.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (moves, comment) = line.split_once('#').unwrap_or((line, ""));
        if moves.trim().is_empty() {
            continue;
        }
        let error = |message: String| OpeningsError {
            line: i + 1,
            message,
        };
        let moves = parse_moves(moves).map_err(|e| error(e.to_string()))?;
        let opening = Opening {
            moves,
            comment: comment.trim().to_string(),
        };
        // Written from South's start; North's start plays the same game
        // turned round.
        opening.game(rules, Side::South).map_err(error)?;
        openings.push(opening);
    }
    if openings.is_empty() {
        let message = if text.trim().is_empty() {
            "the file is empty: no opening in it"
        } else {
            "no opening in the file: only comments and blank lines"
        };
        return Err(OpeningsError {
            line: 0,
            message: message.into(),
        });
    }
    Ok(openings)
}

/// The built-in openings, checked under `rules`.
///
/// # Errors
///
/// As [`parse_openings`], should a rule option make one unplayable.
pub fn builtin(rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    parse_openings(BUILTIN, rules)
}

/// Finds balanced openings: every sequence of `plies` moves from the start
/// (one per position reached), searched within `limits`, kept when the
/// score lies within `max_cp` of 0 (from the side to move's view), most
/// balanced first; equal scores in an order scrambled by the position's
/// hash, so that the first openings of the list are varied rather than all
/// starting with `A`. `progress` is told how many positions are done and how
/// many there are.
pub fn generate(
    engine: &mut Engine,
    rules: Rules,
    plies: usize,
    limits: &Limits,
    max_cp: i32,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<(Opening, Score)> {
    let games = every_game(rules, plies);
    let total = games.len();
    let mut found = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        engine.new_game();
        let result = engine.search(&game, limits, stop, &mut |_| {});
        progress(i + 1, total);
        if !result.score.is_decided() && result.score.cp_value().abs() <= max_cp {
            found.push((opening_of(&game), result.score, game.position().hash()));
        }
    }
    found.sort_by_key(|(_, s, hash)| (s.cp_value().abs(), *hash));
    found.into_iter().map(|(o, s, _)| (o, s)).collect()
}

/// Every opening of `plies` moves from the start under `rules` (South
/// first) that leaves the game going on, one per position: the 36 two-ply
/// openings for `plies` 2.
pub fn every(rules: Rules, plies: usize) -> Vec<Opening> {
    every_game(rules, plies).iter().map(opening_of).collect()
}

/// The games of [`every`].
fn every_game(rules: Rules, plies: usize) -> Vec<Game> {
    let mut games = Vec::new();
    let start = Game::new(Rules {
        first: awale_core::FirstPlayer::Side(awale_core::Side::South),
        ..rules
    });
    collect(&start, plies, &mut HashSet::new(), &mut games);
    games
}

/// The moves of `game` as an opening.
fn opening_of(game: &Game) -> Opening {
    Opening {
        moves: game.moves().collect(),
        comment: String::new(),
    }
}

/// Every game `plies` moves on from `game` that is still going on, one per
/// position (holes, stores and side to move).
fn collect(game: &Game, plies: usize, seen: &mut HashSet<(u128, [u8; 2])>, out: &mut Vec<Game>) {
    if game.end().is_some() {
        return;
    }
    if plies == 0 {
        let p = game.position();
        if seen.insert((p.repetition_key(), p.stores())) {
            out.push(game.clone());
        }
        return;
    }
    for m in game.legal_moves() {
        let mut next = game.clone();
        if next.play(m).is_ok() {
            collect(&next, plies - 1, seen, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_playable_under_both_presets() {
        for rules in [Rules::AWALE, Rules::ABAPA] {
            let openings = builtin(rules).unwrap();
            assert!(openings.len() >= 20, "{}", openings.len());
        }
    }

    #[test]
    fn builtin_openings_are_distinct_positions() {
        let openings = builtin(Rules::AWALE).unwrap();
        let positions: HashSet<_> = openings
            .iter()
            .map(|o| o.game(Rules::AWALE, Side::South).unwrap().position())
            .collect();
        assert_eq!(positions.len(), openings.len());
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = "# openings\n\nFfAa  # +0.10\nF f\n";
        let openings = parse_openings(text, Rules::AWALE).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].letters(), "FfAa");
        assert_eq!(openings[0].comment, "+0.10");
        assert_eq!(openings[1].letters(), "Ff");
    }

    #[test]
    fn a_byte_order_mark_before_the_first_opening_is_skipped() {
        let openings = parse_openings("\u{feff}FfAa\n", Rules::AWALE).unwrap();
        assert_eq!(openings[0].letters(), "FfAa");
    }

    #[test]
    fn bad_lines_are_located() {
        let e = parse_openings("Ff\nFx\n", Rules::AWALE).unwrap_err();
        assert_eq!(e.line, 2);
        // F then F again: South cannot play twice in a row.
        let e = parse_openings("FF\n", Rules::AWALE).unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_openings("# nothing\n", Rules::AWALE).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no opening in the file: only comments and blank lines"
        );
        let e = parse_openings("", Rules::AWALE).unwrap_err();
        assert_eq!(e.to_string(), "the file is empty: no opening in it");
    }

    #[test]
    fn generate_finds_balanced_two_ply_openings() {
        let mut engine = Engine::new(awale_engine::EngineOptions::default());
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut calls = 0;
        let found = generate(
            &mut engine,
            Rules::AWALE,
            2,
            &limits,
            100,
            &AtomicBool::new(false),
            &mut |_, total| {
                calls += 1;
                assert_eq!(total, 36);
            },
        );
        assert_eq!(calls, 36);
        assert!(!found.is_empty());
        for (opening, score) in &found {
            assert_eq!(opening.moves.len(), 2);
            assert!(score.cp_value().abs() <= 100);
        }
        assert!(found
            .windows(2)
            .all(|w| w[0].1.cp_value().abs() <= w[1].1.cp_value().abs()));
    }
}
