//! Distances to capture against their definition, computed independently of
//! the database's solver: boards in a hash map (no ranking), forward moves
//! from the rules crate (no un-sowing), distances layer by layer.
//!
//! The definition (exact databases, `awale`): a board whose side to move has
//! no move is at distance 0. A capture that keeps the board's value counts
//! as a move to distance 0. Otherwise, among the moves that keep the value
//! (the value is that of the database, itself checked in `independent.rs`),
//! a winner is one more than its nearest, a loser one more than its
//! farthest; a board of value 0 has none.

use std::collections::HashMap;

use awale_core::{Position, Rules, Side};
use awale_db::Database;

mod common;
use common::boards;

/// What a board's distance depends on: its value, whether it has no move,
/// whether a capture keeps its value, and the boards of its value-keeping
/// moves that capture nothing.
struct Node {
    value: i8,
    over: bool,
    capture_keeps: bool,
    keeping: Vec<[u8; 12]>,
}

/// The distances of every board of `seeds` seeds by the definition, layer
/// by layer: layer k holds the boards of distance k; and how many losers
/// have a capture and other moves that keep their value (the case a solver
/// may get wrong).
fn distances_by_definition(db: &Database, seeds: u8) -> (HashMap<[u8; 12], u8>, usize) {
    let rules = Rules::AWALE;
    let value_of = |board: &[u8; 12], n: u8| db.probe_board(board, n).unwrap().lower;
    let mut nodes = HashMap::new();
    for board in boards(seeds) {
        let value = value_of(&board, seeds);
        if value == 0 {
            continue;
        }
        let position = Position::new(board, [0, 0], Side::South).unwrap();
        let mut node = Node {
            value,
            over: true,
            capture_keeps: false,
            keeping: Vec::new(),
        };
        for m in position.legal_moves(&rules) {
            node.over = false;
            let child = position.try_play(m, &rules).unwrap();
            let left = child.seeds_on_board();
            let child_board = child.relative_holes();
            let after = (seeds - left) as i8 - value_of(&child_board, left);
            if after != value {
                continue;
            }
            if left < seeds {
                node.capture_keeps = true;
            } else {
                node.keeping.push(child_board);
            }
        }
        nodes.insert(board, node);
    }
    let mut known: HashMap<[u8; 12], u8> = nodes
        .iter()
        .filter(|(_, n)| n.over)
        .map(|(b, _)| (*b, 0))
        .collect();
    for k in 1..=u8::MAX {
        let mut layer = Vec::new();
        for (board, node) in &nodes {
            if known.contains_key(board) {
                continue;
            }
            let below = |b: &[u8; 12]| known.get(b).is_some_and(|&d| d < k);
            let set = if node.value > 0 {
                node.capture_keeps || node.keeping.iter().any(below)
            } else {
                node.keeping.iter().all(below)
            };
            if set {
                layer.push(*board);
            }
        }
        if layer.is_empty() {
            break;
        }
        for board in layer {
            known.insert(board, k);
        }
    }
    let tricky = nodes
        .values()
        .filter(|n| n.value < 0 && n.capture_keeps && !n.keeping.is_empty())
        .count();
    (known, tricky)
}

#[test]
fn distances_are_those_of_their_definition_up_to_9_seeds() {
    let (db, _dir) = common::database(&Rules::AWALE, 9);
    let mut tricky = 0;
    for seeds in 1..=9 {
        let (expected, losers) = distances_by_definition(&db, seeds);
        tricky += losers;
        for board in boards(seeds) {
            let entry = db.probe_board(&board, seeds).unwrap();
            // Every board with something to win or lose has a distance.
            assert!(
                entry.lower == 0 || entry.distance.is_some(),
                "{seeds} seeds, board {board:?}: value {} but no distance",
                entry.lower
            );
            assert_eq!(
                entry.distance,
                expected.get(&board).copied(),
                "{seeds} seeds, board {board:?}, value {}",
                entry.lower
            );
        }
    }
    assert!(
        tricky > 0,
        "no loser with a capture and other moves keeping its value"
    );
}
