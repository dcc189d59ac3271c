//! What the engine says: `info` lines with scores in words (decided
//! scores as the GUI asks), `bestmove`, `info string`.

use super::*;

/// Where the protocol writes its lines (without the newline). Called from
/// the protocol's thread and from the search thread.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// How decided scores are written: the GUIs of the dialect read only `cp`,
/// so by default a decided game is its final margin in seeds (`cp 600`: won
/// by 6 seeds), which they show as the lead it is; `MateScores` gives the
/// distance as `mate M` to the GUIs that read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DecidedScores {
    /// `cp` with the final margin × 100 (the default).
    #[default]
    Margin,
    /// `mate M`, `M` the side to move's moves to the end (negative when it
    /// loses), when the distance is known and not 0; `cp` margin otherwise.
    Mate,
}

/// The final margin, in seeds, of a game that `score` says is decided, from
/// the side to move's view at `game`: the oracle's margin when it proved
/// it, else that of the principal variation `pv` played out from `game`
/// (the final stores when it ends the game; when it stops at a store
/// holding more than half the seeds, the lead no play can take away).
/// `None` for a score that is not decided.
pub fn decided_margin(score: Score, game: &Game, pv: &[Move]) -> Option<i32> {
    if let Some(margin) = score.proven_margin() {
        return Some(margin);
    }
    let wins = score.forced()?.wins;
    let me = game.position().to_move();
    let mut line = game.clone();
    for &m in pv {
        if line.end().is_some() || line.play(m).is_err() {
            break;
        }
    }
    let margin = match line.outcome() {
        Some(outcome) => {
            i32::from(outcome.stores[me.index()]) - i32::from(outcome.stores[me.opponent().index()])
        }
        None => {
            let position = line.position();
            let mine = i32::from(position.store(me));
            let theirs = i32::from(position.store(me.opponent()));
            let board = i32::from(position.seeds_on_board());
            if wins {
                mine - theirs - board
            } else {
                mine + board - theirs
            }
        }
    };
    // The sign is the score's: a line cut short may not show all the lead.
    Some(if wins { margin.max(1) } else { margin.min(-1) })
}

/// The `score ...` part of an info line, from the side to move's view at
/// `game`, in hundredths of a seed: a heuristic score as it is, a decided
/// game as its final margin (see [`decided_margin`]) or, with
/// [`DecidedScores::Mate`] and a known distance, `mate M`.
pub fn score_words(score: Score, game: &Game, pv: &[Move], decided: DecidedScores) -> String {
    // A game already over (never the root of a search, which has a move to
    // play) has no moves to the end: `mate 0` would not say who won.
    if let (DecidedScores::Mate, Some(forced)) = (decided, score.forced().filter(|f| f.plies > 0)) {
        // The side to move's own moves, won or lost: in 1 or 2 plies, its
        // next move (a loss in 1 is its own move ending the game).
        let moves = forced.plies.div_ceil(2);
        let sign = if forced.wins { "" } else { "-" };
        return format!("mate {sign}{moves}");
    }
    match decided_margin(score, game, pv) {
        Some(margin) => format!("cp {}", margin * 100),
        None => format!("cp {}", score.cp_value()),
    }
}

/// The info line of one finished depth of a search of `game`.
pub fn info_line(info: &SearchInfo, game: &Game, decided: DecidedScores) -> String {
    let millis = info.time.as_millis();
    // From microseconds: a depth done in under a millisecond still gets a
    // true rate.
    let nps = u128::from(info.nodes) * 1_000_000 / info.time.as_micros().max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} time {millis}",
        info.depth,
        info.seldepth,
        score_words(info.score, game, &info.pv, decided),
        info.nodes,
    );
    // One word, as the dialect's GUIs read it: `pv eFcAbA`.
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.extend(info.pv.iter().map(|m| m.letter()));
    }
    line
}

/// The `bestmove` line: `bestmove 0000` when there is no move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

impl Protocol {
    pub(super) fn say(&self, line: &str) {
        (self.output)(line);
    }

    pub(super) fn info_string(&self, message: &str) {
        // An info string runs to the end of the line: keep it on one.
        let one_line: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.say(&format!("info string {one_line}"));
    }
}
