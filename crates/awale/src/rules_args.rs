//! The rule flags shared by every subcommand where rules matter:
//! `--rules PRESET` and one flag per rule option (`docs/RULES.md`), each
//! read by clap into the core's own types.

use std::str::FromStr;

use awale_core::{Direction, FirstPlayer, GrandSlam, Repetition, Rules, RulesError};

/// A `--target` value: a number of seeds, or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target(pub Option<u8>);

impl FromStr for Target {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut rules = Rules::AWALE;
        rules.set("target", s)?;
        Ok(Target(rules.target))
    }
}

/// `--rules` and the per-option flags; options override the preset.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RulesArgs {
    /// Rules preset: `awale` (the default; `abapa` for `awale uci`) or
    /// `abapa`; options may follow, as in `awale,target=20`.
    #[arg(long = "rules", value_name = "PRESET")]
    pub preset: Option<Rules>,
    /// Grand slam: `forbidden` or `no_capture`.
    #[arg(long, value_name = "forbidden|no_capture")]
    pub grand_slam: Option<GrandSlam>,
    /// Who takes the seeds left after a repetition: `nobody` or `own_row`.
    #[arg(long, value_name = "nobody|own_row")]
    pub repetition: Option<Repetition>,
    /// Seeds that end the game when a store reaches them, or `off`.
    #[arg(long, value_name = "N|off")]
    pub target: Option<Target>,
    /// Which way the seeds go: `counter_clockwise` or `clockwise`.
    #[arg(long, value_name = "counter_clockwise|clockwise")]
    pub direction: Option<Direction>,
    /// Who moves first: `south`, `north` or `random`.
    #[arg(long, value_name = "south|north|random")]
    pub first: Option<FirstPlayer>,
}

impl RulesArgs {
    /// The rules these flags describe.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        self.rules_or(Rules::AWALE)
    }

    /// The rules these flags describe, on top of `base` when no `--rules`
    /// is given (`awale uci` plays `abapa`, as the engines of its GUIs do).
    pub fn rules_or(&self, base: Rules) -> anyhow::Result<Rules> {
        let mut rules = self.preset.unwrap_or(base);
        if let Some(v) = self.grand_slam {
            rules.grand_slam = v;
        }
        if let Some(v) = self.repetition {
            rules.repetition = v;
        }
        if let Some(Target(v)) = self.target {
            rules.target = v;
        }
        if let Some(v) = self.direction {
            rules.direction = v;
        }
        if let Some(v) = self.first {
            rules.first = v;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        rules: RulesArgs,
    }

    fn rules(args: &[&str]) -> Result<Rules, String> {
        let cli = Cli::try_parse_from(std::iter::once("awale").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        cli.rules.rules().map_err(|e| e.to_string())
    }

    #[test]
    fn option_flags_override_the_preset() {
        assert_eq!(rules(&[]), Ok(Rules::AWALE));
        assert_eq!(rules(&["--rules", "abapa"]), Ok(Rules::ABAPA));
        let r = rules(&["--rules", "abapa", "--target", "off", "--first", "north"]).unwrap();
        assert_eq!(r.target, None);
        assert_eq!(r.to_string(), "abapa,target=off,first=north");
        let r = rules(&["--rules", "awale,target=20", "--grand-slam", "no_capture"]).unwrap();
        assert_eq!(r.to_string(), "awale,grand_slam=no_capture,target=20");
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        for (args, expected) in [
            (&["--rules", "chess"][..], "chess"),
            (&["--target", "99"][..], "99"),
            (&["--repetition", "sometimes"][..], "nobody, own_row"),
            (&["--direction", "up"][..], "clockwise"),
        ] {
            let e = rules(args).unwrap_err();
            assert!(e.contains(expected), "{args:?}: {e}");
        }
    }
}
