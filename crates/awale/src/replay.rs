//! `awale replay [--json]`: reads games from standard input, either one per
//! line as move letters or as game records, and prints every ply.
//!
//! JSON output, one object per line: before each move
//! `{"game":G,"ply":P,"to_move":"S","board":[..12],"stores":[s,n],"legal":[..],"move":"F"}`,
//! after the last move `{"game":G,"end":REASON|null,"board":..,"stores":..,"winner":"S"|"N"|"draw"|null}`,
//! or for a move that cannot be played `{"game":G,"ply":P,"error":".."}`.
//! `game` counts games from 0 in input order, `ply` the moves played before.
//! `board` and `stores` are always the position itself; at the end, the seeds
//! left on the board are counted by the rules for `winner`.

use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use awale_core::{
    parse_moves, parse_records, result_winner, EndReason, Game, Move, Position, Record, Side,
};
use serde_json::json;

use crate::board_text;
use crate::rules_args::RulesArgs;
use crate::words::Lang;

/// Arguments of `awale replay`.
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    /// Start games given as letters from this diagram.
    #[arg(long, value_name = "DIAGRAM")]
    position: Option<String>,
    /// Rules for games given as letters (records name their own in `Variant`).
    #[command(flatten)]
    rules: RulesArgs,
}

/// Longest input read: a record collection of a million games fits.
const MAX_INPUT: u64 = 256 << 20;

/// A game to replay: where it starts and its moves, or why it can't be read.
struct Input {
    game: Result<Game, String>,
    moves: Vec<Move>,
    /// The captures a record writes after its moves (`a+2`), to check.
    written: Vec<Option<u8>>,
    /// A record's `Termination "resignation"`: who resigned once the moves
    /// are played (`None`: the side to move then, as for a drawn result).
    resigns: Option<Option<Side>>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let start = match &args.position {
        Some(d) => Some(d.parse::<Position>().context("--position")?),
        None => None,
    };
    let mut text = String::new();
    std::io::stdin()
        .take(MAX_INPUT + 1)
        .read_to_string(&mut text)
        .context("standard input is not UTF-8 text")?;
    if text.len() as u64 > MAX_INPUT {
        anyhow::bail!(
            "standard input is larger than {} MiB: split it",
            MAX_INPUT >> 20
        );
    }
    // A byte order mark some editors write first is no move.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let inputs: Vec<Input> = if looks_like_records(text) {
        match parse_records(text) {
            Ok(records) => records.iter().map(record_input).collect(),
            Err(e) => vec![Input {
                game: Err(format!("bad game record: {e}")),
                moves: Vec::new(),
                written: Vec::new(),
                resigns: None,
            }],
        }
    } else {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|line| match parse_moves(line) {
                Ok(moves) => Input {
                    game: Ok(match start {
                        Some(p) => Game::from_position(rules, p),
                        None => Game::new(rules),
                    }),
                    moves,
                    written: Vec::new(),
                    resigns: None,
                },
                Err(e) => Input {
                    game: Err(e.to_string()),
                    moves: Vec::new(),
                    written: Vec::new(),
                    resigns: None,
                },
            })
            .collect()
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = false;
    for (index, input) in inputs.into_iter().enumerate() {
        failed |= !replay(index, input, args.json, &mut out)?;
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Records start with a tag, a comment or a move number; letter lines never
/// hold brackets, braces or digits (outside their `#` comment lines).
fn looks_like_records(text: &str) -> bool {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::chars)
        .any(|c| matches!(c, '[' | '{' | '0'..='9' | '*'))
}

fn record_input(record: &Record) -> Input {
    // Rules and start come from the record; the moves are checked one by
    // one as they are replayed, so the error names the ply.
    let game = record
        .rules()
        .and_then(|rules| Ok(Game::from_position(rules, record.start()?)))
        .map_err(|e| format!("bad game record: {e}"));
    Input {
        game,
        moves: record.moves.iter().map(|m| m.mv).collect(),
        written: record.moves.iter().map(|m| m.captured).collect(),
        resigns: (record.termination() == Some(EndReason::Resignation))
            .then_some(result_winner(&record.result).flatten().map(Side::opponent)),
    }
}

fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

/// Replays one game; false if it had an error.
fn replay(index: usize, input: Input, json: bool, out: &mut impl Write) -> anyhow::Result<bool> {
    let mut game = match input.game {
        Ok(g) => g,
        Err(e) => {
            if json {
                writeln!(out, "{}", json!({"game": index, "ply": 0, "error": e}))?;
            } else {
                writeln!(out, "game {}: error: {e}", index + 1)?;
            }
            return Ok(false);
        }
    };
    if !json {
        writeln!(out, "game {} under {}", index + 1, game.rules())?;
    }
    for (ply, &m) in input.moves.iter().enumerate() {
        let position = game.position();
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        let played = game
            .play(m)
            .map_err(|e| e.to_string())
            .and_then(|captured| match input.written.get(ply).copied().flatten() {
                Some(written) if written != captured => Err(format!(
                    "the record says {m}+{written}, but {m} captures {captured}"
                )),
                _ => Ok(captured),
            });
        match played {
            Ok(captured) => {
                if json {
                    let line = json!({
                        "game": index,
                        "ply": ply,
                        "to_move": side_letter(position.to_move()),
                        "board": position.holes(),
                        "stores": position.stores(),
                        "legal": legal,
                        "move": m.to_string(),
                    });
                    writeln!(out, "{line}")?;
                } else {
                    let capture = if captured > 0 {
                        format!(" captures {captured}")
                    } else {
                        String::new()
                    };
                    writeln!(
                        out,
                        "{:>4}. {} plays {m}{capture}  ->  {}",
                        ply + 1,
                        position.to_move(),
                        game.position()
                    )?;
                }
            }
            Err(e) => {
                if json {
                    writeln!(out, "{}", json!({"game": index, "ply": ply, "error": e}))?;
                } else {
                    writeln!(out, "{:>4}. error: {e}", ply + 1)?;
                }
                return Ok(false);
            }
        }
    }
    if let (Some(loser), None) = (input.resigns, game.end()) {
        let loser = loser.unwrap_or(game.position().to_move());
        game.resign(loser).context("resigning as the record says")?;
    }
    let position = game.position();
    let outcome = game.outcome();
    if json {
        let winner = outcome.map(|o| match o.winner {
            Some(side) => side_letter(side),
            None => "draw",
        });
        let line = json!({
            "game": index,
            "end": outcome.map(|o| o.reason.name()),
            "board": position.holes(),
            "stores": position.stores(),
            "winner": winner,
        });
        writeln!(out, "{line}")?;
    } else {
        write!(
            out,
            "{}",
            board_text::draw(&position, game.rules().direction, None, Lang::En)
        )?;
        match outcome {
            Some(o) => {
                let who = match o.winner {
                    Some(side) => format!("{side} wins"),
                    None => "draw".to_string(),
                };
                writeln!(
                    out,
                    "end: {}, {who} {}-{}",
                    o.reason, o.stores[0], o.stores[1]
                )?;
            }
            None => writeln!(out, "not finished, {} to move", position.to_move())?,
        }
    }
    Ok(true)
}
