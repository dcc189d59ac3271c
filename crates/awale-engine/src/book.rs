//! The opening book: for every position of the first plies of a game under
//! `awale` and under `abapa`, the move a deep search chose. Built by
//! `cargo run --release -p awale-engine --example book` into
//! `crates/awale-engine/data/book.txt` and stored in the binary; played by
//! the strong levels and by the protocol (`OwnBook`).

use std::collections::HashMap;
use std::sync::OnceLock;

use awale_core::{Game, Move, Position, Rules, Variant};

/// The rules that change a position's value, as the book keys them.
type RulesKey = (Variant, Option<u8>);

/// The book: positions of a rule set and their moves.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<(RulesKey, Position), Move>,
}

impl Book {
    /// The book stored in the binary.
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| match Book::parse(include_str!("../data/book.txt")) {
            Ok(book) => book,
            // The file is part of the source, checked by a test.
            Err(e) => panic!("data/book.txt: {e}"),
        })
    }

    /// Reads a book: one line per position, `RULES DIAGRAM MOVE` and
    /// optionally a comment after `#`; blank and `#` lines are skipped.
    ///
    /// # Errors
    ///
    /// A message naming the first line that is wrong (a bad diagram, rules
    /// or move, or a move that is not legal there).
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut entries = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}: `{line}`", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [rules, diagram, mv] = words[..] else {
                return Err(bad("expected RULES DIAGRAM MOVE"));
            };
            let rules: Rules = rules.parse().map_err(|_| bad("bad rules"))?;
            let position: Position = diagram.parse().map_err(|_| bad("bad diagram"))?;
            let mv: Move = mv.parse().map_err(|_| bad("bad move"))?;
            if !position.legal_moves(&rules).into_iter().any(|m| m == mv) {
                return Err(bad("the move is not legal there"));
            }
            entries.insert((rules.value_key(), position), mv);
        }
        Ok(Book { entries })
    }

    /// Adds a position's move (for building a book).
    pub fn insert(&mut self, rules: &Rules, position: Position, mv: Move) {
        self.entries.insert((rules.value_key(), position), mv);
    }

    /// How many positions the book knows.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's move for the current position of `game`, if it has one
    /// and the game is not over.
    pub fn probe(&self, game: &Game) -> Option<Move> {
        if game.end().is_some() {
            return None;
        }
        let mv = *self
            .entries
            .get(&(game.rules().value_key(), game.position()))?;
        game.legal_moves().contains(&mv).then_some(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_reads_and_knows_the_start_under_both_presets() {
        let book = Book::builtin();
        for rules in [Rules::AWALE, Rules::ABAPA] {
            let game = Game::new(rules);
            let mv = book.probe(&game).expect("the start is in the book");
            assert!(game.legal_moves().contains(&mv));
        }
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = Book::parse("awale 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S a").unwrap_err();
        assert!(
            err.starts_with("line 1: the move is not legal there"),
            "{err}"
        );
        assert!(Book::parse("chess 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S A").is_err());
        assert!(Book::parse("awale nonsense A").is_err());
        assert!(Book::parse("awale").is_err());
    }

    #[test]
    fn a_position_is_found_only_under_its_rules() {
        let book =
            Book::parse("# a comment\nabapa 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S C  # +0.10\n").unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(
            book.probe(&Game::new(Rules::ABAPA)),
            Some("C".parse().unwrap())
        );
        assert_eq!(book.probe(&Game::new(Rules::AWALE)), None);
        // The direction and who starts do not change the game.
        let mirrored: Rules = "abapa,direction=clockwise".parse().unwrap();
        assert!(book.probe(&Game::new(mirrored)).is_some());
    }
}
