//! The databases against solvers written independently of them, for both
//! presets:
//!
//! - an attractor solver: boards in a hash map (no ranking), predecessors
//!   from lists of forward moves (no un-sowing), one reachability game per
//!   threshold solved with move counters (no value iteration) for `awale`;
//!   for `abapa`, one co-Büchi game per threshold (a repetition pays each
//!   side its own row) solved by the classic algorithm by complements, with
//!   attractors and move counters (not the build's rounds of passes);
//! - a search of the real game, where a repetition ends the game as the
//!   rules say (history and all): for `awale` a plain minimax up to 2 seeds
//!   (at 3 it takes minutes), for `abapa` also a search of its own that
//!   keeps what does not depend on the history (after a capture, or on
//!   leaving a strongly connected part of the level) and the answers for a
//!   set of positions seen, up to 3 seeds and on part of 4;
//! - local checks on a random sample of bigger boards: each value is the
//!   best over the moves, and distances go down along value-keeping moves.
//!
//! The whole of levels 9 to 12 against the attractor solver takes minutes:
//! `cargo test -p awale-db --profile fast -- --ignored`.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use awale_core::oracle::Bounds;
use awale_core::{Game, Position, Repetition, Rules, Side};
use awale_db::Variant;
use awale_engine::{Engine, EngineOptions, Limits};
use rand::RngExt;

mod common;
use common::boards;

fn position(board: &[u8; 12]) -> Position {
    Position::new(*board, [0, 0], Side::South).unwrap()
}

/// Lower and upper bounds (equal when exact) per board, level by level.
type Known = Vec<HashMap<[u8; 12], (i8, i8)>>;

/// One level solved by attractors. Nodes 0..n are the boards with the
/// maximising player ("Max") to move, n..2n the same boards with "Min" to
/// move; exits carry values from Max's view.
/// `coarse` (`own_row` only): count endless play at -n for Max instead of
/// paying repetitions their row split (the bounds the files held before).
fn solve_level_by_attractors(
    rules: &Rules,
    seeds: u8,
    known: &Known,
    coarse: bool,
) -> HashMap<[u8; 12], (i8, i8)> {
    let all = boards(seeds);
    let n = all.len();
    let index: HashMap<[u8; 12], usize> = all.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    // Per board: children inside the level, and exits as (pessimistic,
    // optimistic) values from the mover's view; or a final value.
    let mut children = vec![Vec::new(); n];
    let mut exits = vec![Vec::new(); n];
    let mut over = vec![None; n];
    for (i, b) in all.iter().enumerate() {
        let p = position(b);
        let moves = p.legal_moves(rules);
        if moves.is_empty() {
            let own: i32 = b[..6].iter().map(|&h| i32::from(h)).sum();
            let other: i32 = b[6..].iter().map(|&h| i32::from(h)).sum();
            over[i] = Some((own - other) as i8);
            continue;
        }
        for m in moves {
            let c = p.play_unchecked(m);
            let left = c.seeds_on_board();
            if left == seeds {
                children[i].push(index[&c.relative_holes()]);
            } else {
                let (lo, hi) = known[usize::from(left)][&c.relative_holes()];
                let captured = (seeds - left) as i8;
                exits[i].push((captured - hi, captured - lo));
            }
        }
    }
    let mut predecessors = vec![Vec::new(); n];
    for (i, cs) in children.iter().enumerate() {
        for &c in cs {
            predecessors[c].push(i);
        }
    }
    // Nodes Max can force into a good exit (`max_player`) or Min can (not).
    // `good(v)` on Max-view values; exits seen from Max: at a Max node the
    // pessimistic value of the mover, at a Min node minus Min's optimistic
    // one (the worst for Max: this solves the game in which Max gets the
    // bad side of every bound).
    let attractor = |max_player: bool, good: &dyn Fn(i8) -> bool| -> Vec<bool> {
        let mut win = vec![false; 2 * n];
        let mut counter = vec![0usize; 2 * n];
        let mut queue = Vec::new();
        for node in 0..2 * n {
            let b = node % n;
            let is_max = node < n;
            let mover_is_player = is_max == max_player;
            let exit_values: Vec<i8> = match over[b] {
                Some(v) => vec![if is_max { v } else { -v }],
                None => exits[b]
                    .iter()
                    .map(|&(pess, opt)| if is_max { pess } else { -opt })
                    .collect(),
            };
            let any_good = exit_values.iter().any(|&v| good(v));
            let all_good = exit_values.iter().all(|&v| good(v));
            let wins_now = if over[b].is_some() {
                all_good
            } else if mover_is_player {
                any_good
            } else {
                all_good && children[b].is_empty()
            };
            if wins_now {
                win[node] = true;
                queue.push(node);
            } else if !mover_is_player && all_good {
                counter[node] = children[b].len();
            } else {
                // A bad exit for the player: the opponent never needs the
                // children. Mark with a counter that cannot reach 0.
                counter[node] = usize::MAX;
            }
        }
        while let Some(node) = queue.pop() {
            let b = node % n;
            // Predecessors are of the other role.
            let other = if node < n { n } else { 0 };
            for &pb in &predecessors[b] {
                let pred = other + pb;
                if win[pred] {
                    continue;
                }
                let pred_is_max = pred < n;
                if pred_is_max == max_player {
                    win[pred] = true;
                    queue.push(pred);
                } else if counter[pred] != usize::MAX {
                    // One count per move (a board may reach a child twice).
                    counter[pred] -= 1;
                    if counter[pred] == 0 {
                        win[pred] = true;
                        queue.push(pred);
                    }
                }
            }
        }
        win
    };
    let s = seeds as i8;
    let exact = rules.repetition == Repetition::Nobody;
    // Max's value at every node: the largest t that Max can force.
    let mut max_value = vec![i8::MIN; 2 * n];
    if exact {
        // Endless play is worth 0: above 0 Max needs an exit, below 0 Min.
        for v in max_value.iter_mut() {
            *v = 0;
        }
        for t in 1..=s {
            for (node, w) in attractor(true, &|v| v >= t).into_iter().enumerate() {
                if w {
                    max_value[node] = t;
                }
            }
        }
        for t in (-s..=-1).rev() {
            for (node, w) in attractor(false, &|v| v <= t).into_iter().enumerate() {
                if w {
                    max_value[node] = t;
                }
            }
        }
    } else {
        // A repetition pays each player their own row. Max can force at
        // least t when it wins the co-Büchi game of t: from some point on,
        // every position is one where Max's row minus Min's is at least t,
        // or play leaves the level with at least t for Max. At most -n
        // everywhere (t = -n is always won).
        for v in max_value.iter_mut() {
            *v = -s;
        }
        for t in (-s + 1)..=s {
            let wins = if coarse {
                attractor(true, &|v| v >= t)
            } else {
                co_buchi_of_threshold(t, &all, &children, &exits, &over)
            };
            for (node, w) in wins.into_iter().take(2 * n).enumerate() {
                if w {
                    max_value[node] = t;
                }
            }
        }
    }
    all.iter()
        .enumerate()
        .map(|(i, b)| {
            let lower = max_value[i];
            // With Min to move, Max's worst is minus Min's best.
            let upper = -max_value[n + i];
            (*b, (lower, if exact { lower } else { upper }))
        })
        .collect()
}

/// The nodes (Max's boards 0..n, then Min's n..2n) from which Max wins the
/// game "at least `t`" of an `own_row` level: Max wins a play that leaves
/// the level (or ends) with at least `t` for it, by the pessimistic bounds
/// below, or that goes on forever and from some point on only visits
/// positions where Max's row minus Min's row is at least `t`.
fn co_buchi_of_threshold(
    t: i8,
    all: &[[u8; 12]],
    children: &[Vec<usize>],
    exits: &[Vec<(i8, i8)>],
    over: &[Option<i8>],
) -> Vec<bool> {
    let n = all.len();
    // Two sinks: Max has won, Max has lost.
    let (won, lost) = (2 * n, 2 * n + 1);
    let mut successors = vec![Vec::new(); 2 * n + 2];
    let mut good = vec![false; 2 * n + 2];
    let mut max_moves = vec![false; 2 * n + 2];
    let sink = |v: i8| if v >= t { won } else { lost };
    for (b, board) in all.iter().enumerate() {
        let own: i32 = board[..6].iter().map(|&h| i32::from(h)).sum();
        let other: i32 = board[6..].iter().map(|&h| i32::from(h)).sum();
        let split = (own - other) as i8;
        // Max to move at b, then Min to move at b.
        good[b] = split >= t;
        good[n + b] = -split >= t;
        max_moves[b] = true;
        if let Some(v) = over[b] {
            successors[b].push(sink(v));
            successors[n + b].push(sink(-v));
            continue;
        }
        for &c in &children[b] {
            successors[b].push(n + c);
            successors[n + b].push(c);
        }
        for &(pessimistic, optimistic) in &exits[b] {
            successors[b].push(sink(pessimistic));
            successors[n + b].push(sink(-optimistic));
        }
    }
    successors[won].push(won);
    successors[lost].push(lost);
    good[won] = true;
    co_buchi(&successors, &max_moves, &good)
}

/// The nodes from which the player who moves at the nodes of `max_moves`
/// can make every infinite play stay in `good` from some point on: the
/// classic algorithm, by complements. In the game left, the nodes from
/// which the opponent cannot force a visit to a bad node are won (Max stays
/// in good nodes there forever), and so is their attractor for Max; remove
/// those and repeat, until the opponent can force a bad node from
/// everywhere left (then it does so forever: Max has lost there).
fn co_buchi(successors: &[Vec<usize>], max_moves: &[bool], good: &[bool]) -> Vec<bool> {
    let size = successors.len();
    let mut predecessors = vec![Vec::new(); size];
    for (u, vs) in successors.iter().enumerate() {
        for &v in vs {
            predecessors[v].push(u);
        }
    }
    let mut left = vec![true; size];
    let mut win = vec![false; size];
    // The nodes of `left` from which `for_max` (or its opponent) can force
    // reaching `target`, moving only inside `left` (one count per move).
    let attractor = |left: &[bool], target: &[bool], for_max: bool| -> Vec<bool> {
        let mut inside = vec![false; size];
        let mut counter = vec![0usize; size];
        let mut queue = Vec::new();
        for u in 0..size {
            if !left[u] {
                continue;
            }
            counter[u] = successors[u].iter().filter(|&&v| left[v]).count();
            if target[u] {
                inside[u] = true;
                queue.push(u);
            }
        }
        while let Some(v) = queue.pop() {
            for &u in &predecessors[v] {
                if !left[u] || inside[u] {
                    continue;
                }
                if max_moves[u] == for_max {
                    inside[u] = true;
                    queue.push(u);
                } else {
                    counter[u] -= 1;
                    if counter[u] == 0 {
                        inside[u] = true;
                        queue.push(u);
                    }
                }
            }
        }
        inside
    };
    loop {
        let bad: Vec<bool> = (0..size).map(|u| left[u] && !good[u]).collect();
        let forced = attractor(&left, &bad, false);
        let safe: Vec<bool> = (0..size).map(|u| left[u] && !forced[u]).collect();
        if !safe.contains(&true) {
            return win;
        }
        let taken = attractor(&left, &safe, true);
        for u in 0..size {
            if taken[u] {
                win[u] = true;
                left[u] = false;
            }
        }
    }
}

fn solve_by_attractors(rules: &Rules, max: u8, coarse: bool) -> Known {
    let mut known: Known = Vec::new();
    for seeds in 0..=max {
        let level = solve_level_by_attractors(rules, seeds, &known, coarse);
        known.push(level);
    }
    known
}

fn compare_with_attractors(rules: &Rules, max: u8) {
    let (db, _dir) = common::database(rules, max);
    let known = solve_by_attractors(rules, max, false);
    for (seeds, level) in known.iter().enumerate() {
        for (board, &(lo, hi)) in level {
            let e = db.probe_board(board, seeds as u8).unwrap();
            assert_eq!(
                (e.lower, e.upper),
                (lo, hi),
                "board {board:?} ({seeds} seeds) under {rules}"
            );
        }
    }
}

/// The bounds from the repetition's row split are never wider than those
/// that count endless play at -n and +n (what the files held before), and
/// tighter on many boards.
#[test]
fn abapa_bounds_are_within_the_coarse_bounds_up_to_8_seeds() {
    let tight = solve_by_attractors(&Rules::ABAPA, 8, false);
    let coarse = solve_by_attractors(&Rules::ABAPA, 8, true);
    let mut tighter = 0;
    for (seeds, level) in tight.iter().enumerate() {
        for (board, &(lo, hi)) in level {
            let (coarse_lo, coarse_hi) = coarse[seeds][board];
            assert!(
                coarse_lo <= lo && lo <= hi && hi <= coarse_hi,
                "board {board:?}: [{lo}, {hi}] not within [{coarse_lo}, {coarse_hi}]"
            );
            tighter += u32::from((lo, hi) != (coarse_lo, coarse_hi));
        }
    }
    // 34,685 of the 125,970 boards of up to 8 seeds.
    assert!(tighter > 10_000, "only {tighter} boards tighter");
}

#[test]
fn awale_values_match_the_attractor_solver_up_to_8_seeds() {
    compare_with_attractors(&Rules::AWALE, 8);
}

#[test]
fn abapa_bounds_match_the_attractor_solver_up_to_8_seeds() {
    compare_with_attractors(&Rules::ABAPA, 8);
}

#[test]
#[ignore = "minutes: the whole of levels 9 to 12 in a hash map"]
fn awale_values_match_the_attractor_solver_up_to_12_seeds() {
    compare_with_attractors(&Rules::AWALE, 12);
}

#[test]
#[ignore = "minutes: the whole of levels 9 to 12 in a hash map"]
fn abapa_bounds_match_the_attractor_solver_up_to_12_seeds() {
    compare_with_attractors(&Rules::ABAPA, 12);
}

/// The real game from `game`'s position to its end, both sides playing for
/// seeds, a repetition ending it as the rules say: the seeds the side to
/// move at the root captures from now on minus the opponent's.
fn real_value(game: &mut Game, root: Side) -> i32 {
    if game.end().is_some() {
        let p = game.position();
        let reason = game.end().unwrap();
        let stores = p.final_stores(reason, game.rules());
        return i32::from(stores[root.index()]) - i32::from(stores[root.opponent().index()]);
    }
    let maximise = game.position().to_move() == root;
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for m in game.legal_moves() {
        game.play(m).unwrap();
        let v = real_value(game, root);
        game.undo();
        best = if maximise { best.max(v) } else { best.min(v) };
    }
    best
}

fn compare_with_real_games(rules: &Rules, max: u8) {
    let (db, _dir) = common::database(rules, max);
    for seeds in 0..=max {
        for board in boards(seeds) {
            let mut game = Game::from_position(
                Rules {
                    target: None,
                    ..*rules
                },
                position(&board),
            );
            let v = real_value(&mut game, Side::South) as i8;
            let e = db.probe_board(&board, seeds).unwrap();
            assert!(
                e.lower <= v && v <= e.upper,
                "board {board:?}: real game {v}, database {e:?} under {rules}"
            );
            if rules.repetition == Repetition::Nobody {
                assert_eq!(e.lower, v, "board {board:?}");
            }
        }
    }
    if rules.target.is_some() {
        // With the stores of a real game (48 seeds in all), what the probe
        // claims under the target rule holds in the real game with it.
        for seeds in 0..=max {
            for board in boards(seeds) {
                for south in [0, 10, 20, 22, 23, 24, 25, 30] {
                    let Some(north) = (48 - seeds).checked_sub(south) else {
                        continue;
                    };
                    let start = Position::new(board, [south, north], Side::South).unwrap();
                    if start.end(rules).is_some() {
                        continue;
                    }
                    let Some(e) = db.probe(&start) else {
                        continue;
                    };
                    let mut game = Game::from_position(*rules, start);
                    let v =
                        real_value(&mut game, Side::South) - (i32::from(south) - i32::from(north));
                    assert!(
                        i32::from(e.lower) <= v && v <= i32::from(e.upper),
                        "{start}: real game {v}, probe {e:?} under {rules}"
                    );
                }
            }
        }
    }
}

#[test]
fn databases_hold_the_value_of_the_real_game_up_to_2_seeds_with_and_without_the_target() {
    // The awale values are the real game's; the abapa bounds hold it.
    for rules in [Rules::AWALE, Rules::ABAPA] {
        compare_with_real_games(&rules, 2);
    }
}

/// The real game under `own_row` with no target, by a search of its own:
/// whether the side to move can make its gain from here (seeds it captures
/// minus the opponent's, rows taken at the end included) at least `t`.
/// `seen` holds the positions since the last capture, this one included; a
/// move back to one of them ends the game, each side taking its own row.
/// After a capture the history cannot matter any more (fewer seeds), so
/// those answers are kept in `fresh`.
///
/// Likewise when a move that captures nothing leaves the strongly connected
/// part of the level's graph (moves that capture nothing, boards seen from
/// the mover) it is in: no position seen before can come back.
struct RealGame {
    rules: Rules,
    fresh: HashMap<([u8; 12], i32), bool>,
    /// Answers inside a part: the position, the positions seen (a hash of
    /// the set: the order they came in does not matter), the threshold.
    inside: HashMap<(u128, u128, i32), bool>,
    /// Positions the search may still look at for the current board.
    budget: u64,
    /// The strongly connected part of each board of the levels met so far.
    part: HashMap<[u8; 12], usize>,
}

impl RealGame {
    fn new() -> RealGame {
        RealGame {
            rules: Rules {
                target: None,
                ..Rules::ABAPA
            },
            fresh: HashMap::new(),
            inside: HashMap::new(),
            budget: 0,
            part: HashMap::new(),
        }
    }

    /// Numbers the strongly connected parts of the level of `seeds` seeds
    /// (Kosaraju: finishing order, then the reversed graph).
    fn number_parts(&mut self, seeds: u8) {
        let all = boards(seeds);
        let index: HashMap<[u8; 12], usize> =
            all.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
        let mut before: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
        for (i, b) in all.iter().enumerate() {
            let p = position(b);
            for m in p.legal_moves(&self.rules) {
                let c = p.play_unchecked(m);
                if c.seeds_on_board() == seeds {
                    let j = index[&c.relative_holes()];
                    next[i].push(j);
                    before[j].push(i);
                }
            }
        }
        let mut done = vec![false; all.len()];
        let mut order = Vec::new();
        for root in 0..all.len() {
            if done[root] {
                continue;
            }
            done[root] = true;
            let mut stack = vec![(root, 0)];
            while let Some((u, k)) = stack.pop() {
                if let Some(&v) = next[u].get(k) {
                    stack.push((u, k + 1));
                    if !done[v] {
                        done[v] = true;
                        stack.push((v, 0));
                    }
                } else {
                    order.push(u);
                }
            }
        }
        let base = self.part.len();
        let mut part = vec![usize::MAX; all.len()];
        for &root in order.iter().rev() {
            if part[root] != usize::MAX {
                continue;
            }
            part[root] = base + root;
            let mut stack = vec![root];
            while let Some(u) = stack.pop() {
                for &v in &before[u] {
                    if part[v] == usize::MAX {
                        part[v] = base + root;
                        stack.push(v);
                    }
                }
            }
        }
        for (i, b) in all.iter().enumerate() {
            self.part.insert(*b, part[i]);
        }
    }

    fn part_of(&mut self, board: &[u8; 12]) -> usize {
        if !self.part.contains_key(board) {
            self.number_parts(board.iter().sum());
        }
        self.part[board]
    }

    /// The game from `board` (mover's row first), nothing played before;
    /// `None` when the search ran out of its budget of positions.
    fn fresh_at_least(&mut self, board: &[u8; 12], t: i32) -> Option<bool> {
        if let Some(&known) = self.fresh.get(&(*board, t)) {
            return Some(known);
        }
        let p = position(board);
        let key = p.repetition_key();
        let answer = self.at_least(&p, &mut vec![key], mix(key), t)?;
        self.fresh.insert((*board, t), answer);
        Some(answer)
    }

    /// The mover's own row minus the other's.
    fn split(p: &Position) -> i32 {
        let mover = p.to_move();
        i32::from(p.seeds_in_row(mover)) - i32::from(p.seeds_in_row(mover.opponent()))
    }

    fn at_least(&mut self, p: &Position, seen: &mut Vec<u128>, set: u128, t: i32) -> Option<bool> {
        let n = i32::from(p.seeds_on_board());
        if t <= -n {
            return Some(true);
        }
        if t > n {
            return Some(false);
        }
        let memo = (p.repetition_key(), set, t);
        if let Some(&known) = self.inside.get(&memo) {
            return Some(known);
        }
        self.budget = self.budget.checked_sub(1)?;
        let answer = self.search(p, seen, set, t)?;
        self.inside.insert(memo, answer);
        Some(answer)
    }

    fn search(&mut self, p: &Position, seen: &mut Vec<u128>, set: u128, t: i32) -> Option<bool> {
        let n = i32::from(p.seeds_on_board());
        let moves = p.legal_moves(&self.rules);
        if moves.is_empty() {
            // Starvation or an empty board: each side takes its own row.
            return Some(Self::split(p) >= t);
        }
        for m in moves {
            let child = p.play_unchecked(m);
            let left = i32::from(child.seeds_on_board());
            // The opponent moves in `child`: the mover gets at least t when
            // the opponent cannot get more than -t there.
            let wins = if left < n {
                let captured = n - left;
                !self.fresh_at_least(&child.relative_holes(), captured - t + 1)?
            } else if seen.contains(&child.repetition_key()) {
                -Self::split(&child) >= t
            } else if self.part_of(&child.relative_holes()) != self.part_of(&p.relative_holes()) {
                !self.fresh_at_least(&child.relative_holes(), 1 - t)?
            } else {
                let key = child.repetition_key();
                seen.push(key);
                let opponent = self.at_least(&child, seen, set ^ mix(key), 1 - t);
                seen.pop();
                !opponent?
            };
            if wins {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// A position's repetition key scrambled (splitmix64 on each half), so that
/// the exclusive or of a set of them identifies the set.
fn mix(key: u128) -> u128 {
    let half = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let (a, b) = (half(key as u64), half((key >> 64) as u64 ^ 0x5555));
    (u128::from(a) << 64) | u128::from(half(b ^ a))
}

/// What the search of the real game found on the boards of one level.
#[derive(Debug, Default)]
struct RealCheck {
    /// Boards whose real value was found within the bounds.
    checked: u64,
    /// Of those, boards whose bounds are equal.
    exact: u64,
    /// Boards whose real value was computed (up to 3 seeds): equal to the
    /// lower bound, to the upper bound (both when exact).
    at_lower: u64,
    at_upper: u64,
    /// Boards the search gave up on (too many positions).
    given_up: u64,
}

/// Every board of up to `max` seeds: the real game's value from a fresh
/// start lies within the bounds, where a search of at most `budget`
/// positions per board finds it.
fn abapa_bounds_hold_the_real_game(max: u8, budget: u64) -> Vec<RealCheck> {
    let (db, _dir) = common::database(&Rules::ABAPA, max);
    let mut real = RealGame::new();
    let mut levels = Vec::new();
    for seeds in 0..=max {
        let mut level = RealCheck::default();
        for board in boards(seeds) {
            let e = db.probe_board(&board, seeds).unwrap();
            let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
            real.budget = budget;
            real.inside.clear();
            let (Some(at_least_lo), Some(above_hi)) = (
                real.fresh_at_least(&board, lo),
                real.fresh_at_least(&board, hi + 1),
            ) else {
                level.given_up += 1;
                continue;
            };
            assert!(
                at_least_lo,
                "board {board:?}: the real game is below the lower bound {lo}"
            );
            assert!(
                !above_hi,
                "board {board:?}: the real game is above the upper bound {hi}"
            );
            level.checked += 1;
            level.exact += u64::from(lo == hi);
            if seeds <= 3 {
                // The real value: the largest t the mover can get.
                let mut v = lo;
                while v < hi && real.fresh_at_least(&board, v + 1) == Some(true) {
                    v += 1;
                }
                level.at_lower += u64::from(v == lo);
                level.at_upper += u64::from(v == hi);
            }
        }
        eprintln!("{seeds} seeds: {level:?}");
        levels.push(level);
    }
    levels
}

/// Every board of up to 3 seeds, and the boards of 4 seeds that a search of
/// 20,000 positions settles (498 of 1,365: the others are out of reach of
/// a search that must follow every order of play inside the level).
#[test]
fn abapa_bounds_hold_the_value_of_the_real_game_up_to_3_seeds_and_on_4_where_searched() {
    let levels = abapa_bounds_hold_the_real_game(4, 20_000);
    for level in &levels[..=3] {
        assert_eq!(level.given_up, 0, "{level:?}");
    }
    assert!(levels[4].checked >= 400, "{:?}", levels[4]);
}

/// Games from every board of up to 3 seeds (`abapa`), after every line of
/// up to 4 moves that capture nothing (none back to a position of the game),
/// with the repetition keys since the start and their set's hash.
fn abapa_games_without_capture() -> Vec<(Game, Vec<u128>, u128)> {
    let mut games = Vec::new();
    for seeds in 0..=3 {
        for board in boards(seeds) {
            let start = Game::from_position(Rules::ABAPA, position(&board));
            let key = start.position().repetition_key();
            let mut lines = vec![(start, vec![key], mix(key))];
            while let Some((game, seen, set)) = lines.pop() {
                if seen.len() <= 4 {
                    for m in game.legal_moves() {
                        let mut next = game.clone();
                        next.play(m).unwrap();
                        let key = next.position().repetition_key();
                        if next.position().seeds_on_board() == seeds && !seen.contains(&key) {
                            let mut keys = seen.clone();
                            keys.push(key);
                            lines.push((next, keys, set ^ mix(key)));
                        }
                    }
                }
                games.push((game, seen, set));
            }
        }
    }
    games
}

/// Inside a game, after moves that capture nothing, the real game's value
/// (a move back to any position since the capture ends it, each side taking
/// its row) lies within the fresh bounds widened by what repeating each of
/// those positions pays (`Bounds::in_game`, what the engine's search uses).
#[test]
fn abapa_bounds_widened_by_the_positions_since_the_capture_hold_inside_a_game_up_to_3_seeds() {
    let (db, _dir) = common::database(&Rules::ABAPA, 3);
    let mut real = RealGame::new();
    let games = abapa_games_without_capture();
    let mut widened = 0;
    for (game, seen, set) in &games {
        let p = game.position();
        let e = db
            .probe_board(&p.relative_holes(), p.seeds_on_board())
            .unwrap();
        let fresh = Bounds {
            lower: e.lower,
            upper: e.upper,
        };
        let before = &seen[..seen.len() - 1];
        let b = fresh.in_game(
            before
                .iter()
                .map(|&k| Position::repetition_payoff(k, p.to_move(), Repetition::OwnRow)),
        );
        real.budget = 1_000_000;
        real.inside.clear();
        let (lo, hi) = (i32::from(b.lower), i32::from(b.upper));
        let mut history = seen.clone();
        assert_eq!(
            real.at_least(&p, &mut history, *set, lo),
            Some(true),
            "{p} after {} moves: the real game is below {lo}",
            before.len()
        );
        assert_eq!(
            real.at_least(&p, &mut history, *set, hi + 1),
            Some(false),
            "{p} after {} moves: the real game is above {hi}",
            before.len()
        );
        widened += u32::from(b != fresh);
    }
    eprintln!(
        "{} positions inside games, {widened} with wider bounds",
        games.len()
    );
    assert!(widened > 0, "no line tried the widening");
}

/// The engine's search with the database, inside those games: every result
/// it calls won or lost is the real game's (the search widens the bounds
/// as above, and finds the repetitions itself).
#[test]
fn the_engine_with_the_abapa_database_calls_results_of_the_real_game_inside_a_game() {
    let (db, _dir) = common::database(&Rules::ABAPA, 3);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        threads: 1,
    });
    engine.set_oracle(Some(Arc::new(db)));
    let stop = AtomicBool::new(false);
    let mut real = RealGame::new();
    let mut decided = 0;
    for (game, seen, set) in &abapa_games_without_capture() {
        if game.end().is_some() {
            continue;
        }
        engine.new_game();
        let score = engine
            .search(game, &Limits::depth(16), &stop, &mut |_| {})
            .score;
        if !score.is_win() && !score.is_loss() {
            continue;
        }
        real.budget = 1_000_000;
        real.inside.clear();
        // The stores are empty: the side to move wins when it gets at least 1.
        let wins = real.at_least(&game.position(), &mut seen.clone(), *set, 1);
        let loses = real.at_least(&game.position(), &mut seen.clone(), *set, 0) == Some(false);
        assert!(
            if score.is_win() {
                wins == Some(true)
            } else {
                loses
            },
            "{}: the engine says {score}, the real game does not",
            game.position()
        );
        decided += 1;
    }
    eprintln!("{decided} results called by the engine, all right");
    assert!(decided > 0);
}

fn check_sample(rules: &Rules) {
    let (db, _dir) = common::database(rules, 12);
    let mut rng = common::rng(0x5EED_CAFE_F00D_1234);
    for seeds in 9..=12u8 {
        let size = awale_db::level_size(seeds);
        for _ in 0..2_000 {
            let board = awale_db::unrank(rng.random_range(0..size), seeds);
            let p = position(&board);
            let e = db.probe_board(&board, seeds).unwrap();
            let Some(moves) = db.move_entries_ignoring_target(&p) else {
                // The game is over: each player takes their own row.
                let own: i32 = board[..6].iter().map(|&h| i32::from(h)).sum();
                let v = (own - (i32::from(seeds) - own)) as i8;
                assert_eq!((e.lower, e.upper), (v, v), "{board:?}");
                continue;
            };
            // The bounds are the best over the moves (both bounds are
            // fixed points of that equation).
            let lo = moves.iter().map(|m| m.lower).max().unwrap();
            let hi = moves.iter().map(|m| m.upper).max().unwrap();
            assert_eq!((e.lower, e.upper), (lo, hi), "{board:?} ({seeds} seeds)");
            assert!(e.lower <= e.upper);
            if Variant::of(rules).is_exact() && e.lower != 0 {
                let d = e.distance.expect("a nonzero value has a distance");
                let keeping: Vec<_> = moves.iter().filter(|m| m.lower == e.lower).collect();
                let ds: Vec<u8> = keeping.iter().map(|m| m.distance.unwrap()).collect();
                if e.lower > 0 {
                    // A winner's distance is set from the first child known
                    // (not always the nearest): the best move is no farther.
                    assert!(ds.iter().min().is_some_and(|&m| m <= d), "{board:?}");
                } else {
                    assert_eq!(ds.iter().max(), Some(&d), "{board:?}");
                }
            }
        }
    }
}

#[test]
fn awale_sample_of_9_to_12_seeds_is_consistent_with_its_moves() {
    check_sample(&Rules::AWALE);
}

#[test]
fn abapa_sample_of_9_to_12_seeds_is_consistent_with_its_moves() {
    check_sample(&Rules::ABAPA);
}
