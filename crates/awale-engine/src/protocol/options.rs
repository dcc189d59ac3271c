//! The engine's name and options: `uci` answered, `setoption` read and
//! applied (at once, or before the next search while the engine thinks).

use super::*;

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("Awale ", env!("CARGO_PKG_VERSION"));

/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "the Awale project";

/// Largest transposition table accepted by `setoption name Hash`, in MiB.
pub const MAX_HASH_MB: usize = 65_536;

/// Most search threads accepted by `setoption name Threads`.
pub const MAX_THREADS: usize = 256;

impl Protocol {
    pub(super) fn identify(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        // A GUI that never sets `Rules` plays what this line says.
        self.info_string(&format!(
            "rules {}: {}; `setoption name Rules value awale` or `abapa` changes them",
            self.rules,
            match Preset::ALL
                .iter()
                .find(|p| p.rules().same_values(&self.rules))
            {
                Some(Preset::Abapa) => "tournament Oware (Abapa)",
                Some(Preset::Awale) => "Awale, grand slam forbidden",
                None => "a preset with options changed",
            }
        ));
        // The defaults are the settings in force: `awale uci --hash` changes
        // them.
        let defaults = self.options;
        let levels = Level::ALL.len();
        // The rules in force (`awale uci --rules`) are the defaults too.
        let rules = self.rules.to_string();
        let rules_combo = if Preset::ALL.iter().any(|p| p.name() == rules) {
            format!("option name Rules type combo default {rules} var awale var abapa")
        } else {
            format!("option name Rules type combo default {rules} var awale var abapa var {rules}")
        };
        let grand_slam = match self.rules.grand_slam {
            GrandSlam::Forbidden => "forbidden",
            GrandSlam::NoCapture => "no_capture",
        };
        let repetition = match self.rules.repetition {
            Repetition::Nobody => "nobody",
            Repetition::OwnRow => "own_row",
        };
        for line in [
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                defaults.hash_mb
            ),
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                defaults.threads
            ),
            "option name Clear Hash type button".to_string(),
            "option name Ponder type check default false".to_string(),
            format!("option name OwnBook type check default {}", self.own_book),
            format!("option name Level type spin default 0 min 0 max {levels}"),
            "option name Greedy type check default false".to_string(),
            format!(
                "option name MateScores type check default {}",
                self.decided == DecidedScores::Mate
            ),
            rules_combo,
            format!(
                "option name GrandSlam type combo default {} var forbidden var no_capture",
                grand_slam
            ),
            format!(
                "option name Repetition type combo default {} var nobody var own_row",
                repetition
            ),
            format!(
                "option name Target type spin default {} min 0 max 48",
                self.rules.target.unwrap_or(0)
            ),
        ] {
            self.say(&line);
        }
        self.say("uciok");
    }

    pub(super) fn set_option<'a>(&mut self, words: impl Iterator<Item = &'a str>) {
        let words: Vec<&str> = words.collect();
        if !words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("name"))
        {
            self.info_string("`setoption` expects `setoption name NAME [value VALUE]`");
            return;
        }
        let value_at = words
            .iter()
            .position(|w| w.eq_ignore_ascii_case("value"))
            .unwrap_or(words.len());
        let name = words[1..value_at].join(" ");
        let value = words.get(value_at + 1..).unwrap_or(&[]).join(" ");
        if let Err(e) = self.apply_option(&name, &value) {
            self.info_string(&e);
        }
    }

    fn apply_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |min: usize, max: usize| -> Result<usize, String> {
            match value.trim().parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option {name}: `{value}` is not a number from {min} to {max}"
                )),
            }
        };
        let check = |value: &str| match value.trim().to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("option {name}: `{value}` is not true or false")),
        };
        let key = name
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '_', '-'], "");
        match key.as_str() {
            "hash" => self.set_hash(number(1, MAX_HASH_MB)?)?,
            "threads" => {
                self.options.threads = number(1, MAX_THREADS)?;
                self.options_changed = true;
            }
            "clearhash" => self.clear_pending = true,
            "ponder" => {}
            "ownbook" => self.own_book = check(value)?,
            "greedy" => self.greedy = check(value)?,
            "matescores" => {
                self.decided = if check(value)? {
                    DecidedScores::Mate
                } else {
                    DecidedScores::Margin
                }
            }
            "level" => {
                let n = number(0, Level::ALL.len())?;
                self.level = u8::try_from(n).ok().and_then(Level::from_number);
            }
            "rules" => {
                self.rules = value
                    .trim()
                    .parse::<Rules>()
                    .or_else(|_| value.trim().parse::<Preset>().map(Preset::rules))
                    .map_err(|e| format!("option Rules: {e}"))?;
            }
            "grandslam" | "repetition" | "target" | "direction" | "first" => {
                let option = match key.as_str() {
                    "grandslam" => "grand_slam",
                    other => other,
                };
                let mut rules = self.rules;
                rules
                    .set(option, value)
                    .map_err(|e| format!("option {name}: {e}"))?;
                self.rules = rules;
            }
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }

    /// A new table of `mib` MiB, made now so that a size the memory cannot
    /// hold is refused at once, the old table kept. While a search runs,
    /// the new table waits for the next search.
    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        let old = self.options.hash_mb;
        let refused =
            |e: crate::tt::TableTooBig| format!("option Hash: {e}; the table stays at {old} MiB");
        let wanted = EngineOptions {
            hash_mb: mib,
            ..self.options
        };
        match self.reclaim_engine() {
            Some(engine) => engine
                .set_options(EngineOptions {
                    threads: engine.options().threads,
                    ..wanted
                })
                .map(|()| self.pending_table = None),
            None => {
                // Drop a table waiting from before first.
                self.pending_table = None;
                Table::try_new(mib).map(|table| self.pending_table = Some(table))
            }
        }
        .map_err(refused)?;
        self.options.hash_mb = mib;
        Ok(())
    }
}
