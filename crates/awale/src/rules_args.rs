//! The rule flags shared by every subcommand where rules matter:
//! `--rules PRESET` and one flag per option of RULES.md.

use anyhow::Context;
use awale_core::Rules;

/// `--rules` and the per-option flags; options override the preset.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RulesArgs {
    /// Rules preset: `awale` (default) or `abapa`; options may follow, as in
    /// `awale,target=20`.
    #[arg(long = "rules", value_name = "PRESET", default_value = "awale")]
    pub preset: String,
    /// Grand slam: `forbidden` or `no_capture`.
    #[arg(long, value_name = "forbidden|no_capture")]
    pub grand_slam: Option<String>,
    /// Who takes the seeds left after a repetition: `nobody` or `own_row`.
    #[arg(long, value_name = "nobody|own_row")]
    pub repetition: Option<String>,
    /// Seeds that end the game when a store reaches them, or `off`.
    #[arg(long, value_name = "N|off")]
    pub target: Option<String>,
    /// Which way the seeds go: `counter_clockwise` or `clockwise`.
    #[arg(long, value_name = "counter_clockwise|clockwise")]
    pub direction: Option<String>,
    /// Who moves first: `south`, `north` or `random`.
    #[arg(long, value_name = "south|north|random")]
    pub first: Option<String>,
}

impl RulesArgs {
    /// The rules these flags describe.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let mut rules: Rules = self.preset.parse().context("--rules")?;
        for (name, value) in [
            ("grand_slam", &self.grand_slam),
            ("repetition", &self.repetition),
            ("target", &self.target),
            ("direction", &self.direction),
            ("first", &self.first),
        ] {
            if let Some(v) = value {
                rules
                    .set(name, v)
                    .with_context(|| format!("--{}", name.replace('_', "-")))?;
            }
        }
        Ok(rules)
    }
}
