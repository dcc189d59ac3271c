//! `awale show DIAGRAM`: draws a position.

use std::process::ExitCode;

use crate::words::Lang;
use awale_core::Position;

use crate::board_text;
use crate::rules_args::RulesArgs;

/// Arguments of `awale show`.
#[derive(clap::Args)]
pub struct Args {
    /// The position, e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S.
    #[arg(value_name = "DIAGRAM")]
    position: Position,
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let position = args.position;
    out!(
        "{}",
        board_text::draw(&position, rules.direction, None, Lang::En)
    );
    match position.end(&rules) {
        Some(reason) => outln!("Game over: {reason}."),
        None => {
            let moves: Vec<String> = position
                .legal_moves(&rules)
                .map(|m| m.to_string())
                .collect();
            outln!(
                "{} to move; legal moves: {}",
                position.to_move(),
                moves.join(" ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
