//! The commands read: a line of bounded length, `position` and `go` with
//! their words, and the game a `position` names under the rules in force.

use super::*;

/// Longest line read, in bytes: a `position` with thousands of moves fits
/// many times over; a longer line is skipped without being kept in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line (without its newline) is in the buffer.
    Line,
    /// A line longer than [`MAX_LINE_BYTES`] was skipped: this many bytes.
    TooLong(usize),
    /// The input has ended.
    End,
}

/// Reads one line from `input` into `buffer` (cleared first), keeping at
/// most [`MAX_LINE_BYTES`] of it in memory: a longer line is read to its
/// end and dropped. Bytes, not text: a line that is not UTF-8 is still a
/// line.
///
/// # Errors
///
/// The input's own read errors.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<LineRead> {
    buffer.clear();
    let mut length = 0usize;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (part, newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        length = length.saturating_add(part.len());
        if length <= MAX_LINE_BYTES {
            buffer.extend_from_slice(part);
        } else {
            buffer.clear();
        }
        let used = part.len() + usize::from(newline);
        input.consume(used);
        if newline {
            break;
        }
    }
    Ok(if !any {
        LineRead::End
    } else if length > MAX_LINE_BYTES {
        LineRead::TooLong(length)
    } else {
        LineRead::Line
    })
}

/// The parameters of a `go` command. It prints back as the command
/// (`go depth 8 movetime 100`), which is how `awale match` drives
/// external engines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth D`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes N`: search about this many nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: search this long.
    pub movetime: Option<Duration>,
    /// `wtime MS`: South's clock.
    pub wtime: Option<Duration>,
    /// `btime MS`: North's clock.
    pub btime: Option<Duration>,
    /// `winc MS`: South's increment per move.
    pub winc: Option<Duration>,
    /// `binc MS`: North's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search the position (the expected reply already played)
    /// until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Go {
    /// Reads the words after `go`. Words it does not understand are
    /// reported in the second value and skipped, so that a partly
    /// understood `go` still searches and answers `bestmove`.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> (Go, Vec<String>) {
        let mut go = Go::default();
        let mut problems = Vec::new();
        let mut words = words.into_iter().peekable();
        while let Some(word) = words.next() {
            let key = word.to_ascii_lowercase();
            match key.as_str() {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc"
                | "movestogo" | "mate" => {
                    let Some(value) = words.next() else {
                        problems.push(format!("`go {key}` needs a number"));
                        break;
                    };
                    let number = match value.parse::<i64>() {
                        Ok(n) => n,
                        Err(_) => {
                            problems.push(format!("`go {key} {value}`: not a whole number"));
                            continue;
                        }
                    };
                    // A clock already run out is sent as 0 or below: treat
                    // it as no time left rather than as an error.
                    let millis = Duration::from_millis(number.max(0) as u64);
                    let count = u32::try_from(number.max(0)).unwrap_or(u32::MAX);
                    match key.as_str() {
                        "depth" => go.depth = Some(count),
                        "nodes" => go.nodes = Some(number.max(0) as u64),
                        "movetime" => go.movetime = Some(millis),
                        "wtime" => go.wtime = Some(millis),
                        "btime" => go.btime = Some(millis),
                        "winc" => go.winc = Some(millis),
                        "binc" => go.binc = Some(millis),
                        "movestogo" => go.movestogo = Some(count),
                        _ => problems.push(format!(
                            "`go mate {value}` is not supported; searching without it"
                        )),
                    }
                }
                "searchmoves" => {
                    // Consume the move list: it is not supported.
                    while words.peek().is_some_and(|w| w.parse::<Move>().is_ok()) {
                        words.next();
                    }
                    problems.push("`go searchmoves` is not supported; searching every move".into());
                }
                _ => problems.push(format!("`go`: unknown word `{word}`")),
            }
        }
        (go, problems)
    }

    /// The search limits for `side` to move: South's clock is `wtime`/`winc`
    /// ("white"), North's `btime`/`binc`. A `go` with no limit at all
    /// searches until `stop`, as `infinite` does. Pondering is not set here:
    /// the protocol adds its `ponderhit` flag.
    pub fn limits(&self, side: Side) -> Limits {
        let (time, increment) = match side {
            Side::South => (self.wtime, self.winc),
            Side::North => (self.btime, self.binc),
        };
        let clock = time.map(|remaining| Clock {
            remaining,
            increment: increment.unwrap_or_default(),
            moves_to_go: self.movestogo,
        });
        let unlimited = self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && clock.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
            infinite: self.infinite || unlimited,
            ..Limits::default()
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let millis = |d: Option<Duration>| d.map(|d| d.as_millis());
        for (name, value) in [
            ("wtime", millis(self.wtime)),
            ("btime", millis(self.btime)),
            ("winc", millis(self.winc)),
            ("binc", millis(self.binc)),
            ("movestogo", self.movestogo.map(u128::from)),
            ("depth", self.depth.map(u128::from)),
            ("nodes", self.nodes.map(u128::from)),
            ("movetime", millis(self.movetime)),
        ] {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl FromStr for Go {
    type Err = String;

    /// Reads a whole `go ...` line, refusing any word it does not know.
    fn from_str(s: &str) -> Result<Go, String> {
        let mut words = s.split_whitespace();
        if words.next() != Some("go") {
            return Err(format!("not a `go` command: `{s}`"));
        }
        let (go, problems) = Go::parse(words);
        match problems.into_iter().next() {
            Some(p) => Err(p),
            None => Ok(go),
        }
    }
}

/// A `position` command: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start: `startpos` or a diagram.
    pub start: Position,
    /// Whether it was written `startpos`.
    pub startpos: bool,
    /// The moves played since.
    pub moves: Vec<Move>,
}

impl PositionCommand {
    /// The command for `game`: `startpos` when it started from the start
    /// position with South to move, its diagram otherwise, then its moves
    /// as one word.
    pub fn of_game(game: &Game) -> PositionCommand {
        let start = game.start();
        PositionCommand {
            start,
            startpos: start == Position::START,
            moves: game.moves().collect(),
        }
    }

    /// Reads the words after `position`: `startpos` or `fen DIAGRAM`, then
    /// optionally `moves` and the moves, as one word (`FfAa`) or several
    /// (`F f A a`). After `startpos`, North starts when the first move is
    /// one of North's.
    ///
    /// # Errors
    ///
    /// A message naming what is wrong.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<PositionCommand, String> {
        let words: Vec<&str> = words.into_iter().collect();
        let (start, startpos, rest) = match words.first().map(|w| w.to_ascii_lowercase()) {
            Some(w) if w == "startpos" => (Position::START, true, &words[1..]),
            Some(w) if w == "fen" => {
                let Some(diagram) = words.get(1) else {
                    return Err("`position fen` needs a diagram such as \
                                4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
                        .into());
                };
                let start = diagram
                    .parse::<Position>()
                    .map_err(|e| format!("`position fen {diagram}`: {e}"))?;
                (start, false, &words[2..])
            }
            Some(_) => {
                // A bare diagram is accepted too.
                match words[0].parse::<Position>() {
                    Ok(start) => (start, false, &words[1..]),
                    Err(_) => {
                        return Err(format!(
                            "`position {}`: expected `startpos` or `fen DIAGRAM`",
                            words[0]
                        ))
                    }
                }
            }
            None => return Err("`position` needs `startpos` or `fen DIAGRAM`".into()),
        };
        let moves = match rest.split_first() {
            None => Vec::new(),
            Some((keyword, letters)) if keyword.eq_ignore_ascii_case("moves") => {
                parse_moves(&letters.join(" ")).map_err(|e| format!("`moves`: {e}"))?
            }
            Some((word, _)) => {
                return Err(format!(
                    "`position`: expected `moves` after the position, found `{word}`"
                ))
            }
        };
        let start = match moves.first() {
            Some(m) if startpos => Position::start(m.side()),
            _ => start,
        };
        Ok(PositionCommand {
            start,
            startpos,
            moves,
        })
    }

    /// The game these moves make under `rules`.
    ///
    /// # Errors
    ///
    /// A message naming the first move that cannot be played.
    pub fn game(&self, rules: Rules) -> Result<Game, String> {
        let mut game = Game::from_position(rules, self.start);
        for (i, &m) in self.moves.iter().enumerate() {
            game.play(m)
                .map_err(|e| format!("move {} ({m}) cannot be played: {e}", i + 1))?;
        }
        Ok(game)
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.startpos && self.start == Position::START {
            f.write_str("position startpos")?;
        } else {
            write!(f, "position fen {}", self.start)?;
        }
        if !self.moves.is_empty() {
            f.write_str(" moves ")?;
            for m in &self.moves {
                write!(f, "{m}")?;
            }
        }
        Ok(())
    }
}

impl Protocol {
    /// The game of a `position` under the rules in force; when one of its
    /// moves is illegal there but legal under other rules (a grand slam sent
    /// by a GUI that plays `abapa` and never said so), the game under those,
    /// with a note saying what was refused: the GUI gets a move for the
    /// position it has on its board, never `bestmove 0000` while the game
    /// goes on.
    ///
    /// # Errors
    ///
    /// Why the position was refused, when no rules allow its moves.
    pub(super) fn game_of(
        &self,
        position: &PositionCommand,
    ) -> Result<(Game, Option<String>), String> {
        let refused = match position.game(self.rules) {
            Ok(game) => return Ok((game, None)),
            Err(e) => e,
        };
        // The presets first, tournament Oware (what GUIs that never say
        // their rules play) ahead; then the rules in force with the other
        // grand slam rule.
        let mut other_slam = self.rules;
        other_slam.grand_slam = match self.rules.grand_slam {
            GrandSlam::Forbidden => GrandSlam::NoCapture,
            GrandSlam::NoCapture => GrandSlam::Forbidden,
        };
        let mut tried = vec![self.rules];
        for rules in [Rules::ABAPA, Rules::AWALE, other_slam] {
            if tried.iter().any(|t| t.same_values(&rules)) {
                continue;
            }
            tried.push(rules);
            if let Ok(game) = position.game(rules) {
                let note = format!(
                    "position refused under {}: {refused}; answered under {rules}, \
                     where it can be played",
                    self.rules
                );
                return Ok((game, Some(note)));
            }
        }
        Err(refused)
    }
}
