//! The terminal's own words, in French and English: the levels' names and
//! who they are for, a search's score, and why a move is good (the engine
//! gives them as data: a level's key, a score, a reason with its numbers). The page has its own,
//! in its catalogs (`text-fr.json`, `text-en.json`).

use awale_engine::{Level, Reason, Score};

/// A language of the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Français.
    Fr,
    /// English.
    En,
}

/// The level's name and one sentence on who it is for, in `lang`.
pub fn level_words(level: Level, lang: Lang) -> (&'static str, &'static str) {
    let (name_fr, name_en, about_fr, about_en) = match level {
        Level::Seed => (
            "Graine",
            "Seed",
            "Premier jour : prend ce qu'il voit, oublie souvent la suite d'une prise.",
            "First day: takes what it sees, often misses the rest of a chain.",
        ),
        Level::Sprout => (
            "Pousse",
            "Sprout",
            "Voit les prises, pense rarement à la réponse de l'adversaire.",
            "Sees the captures, seldom thinks of the opponent's answer.",
        ),
        Level::Apprentice => (
            "Apprenti",
            "Apprentice",
            "Pense souvent à la réponse de l'adversaire, pas toujours.",
            "Often thinks of the opponent's answer, not always.",
        ),
        Level::Pupil => (
            "Élève",
            "Pupil",
            "Regarde toujours la réponse à son coup, mais pas plus loin.",
            "Always looks at the answer to its move, but no further.",
        ),
        Level::Player => (
            "Joueur",
            "Player",
            "Un joueur du dimanche : des coups sensés, quelques oublis.",
            "A casual player: sensible moves, a few slips.",
        ),
        Level::Skilled => (
            "Habile",
            "Skilled",
            "Un joueur régulier, qui calcule quelques coups à l'avance.",
            "A regular player who reads a few moves ahead.",
        ),
        Level::Strong => (
            "Fort",
            "Strong",
            "Un bon joueur de club : se trompe rarement.",
            "A good club player: seldom goes wrong.",
        ),
        Level::Seasoned => (
            "Confirmé",
            "Seasoned",
            "Un joueur de club confirmé, solide en fin de partie.",
            "A seasoned club player, solid in the endgame.",
        ),
        Level::Expert => (
            "Expert",
            "Expert",
            "Calcule loin et ne laisse presque rien passer.",
            "Reads far ahead and lets almost nothing through.",
        ),
        Level::Master => (
            "Maître",
            "Master",
            "Très peu de joueurs le battent.",
            "Very few players beat it.",
        ),
        Level::Champion => (
            "Champion",
            "Champion",
            "Un champion : une recherche profonde, sans pitié.",
            "A champion: a deep search, without mercy.",
        ),
        Level::Virtuoso => (
            "Virtuose",
            "Virtuoso",
            "Calcule plus loin encore et joue presque toujours le meilleur coup.",
            "Reads further still and nearly always plays the best move.",
        ),
        Level::InternationalMaster => (
            "Maître international",
            "International master",
            "Le meilleur coup, ou un coup qui le vaut presque.",
            "The best move, or one nearly as good.",
        ),
        Level::Grandmaster => (
            "Grand maître",
            "Grandmaster",
            "Un grand maître : s'écarte rarement du meilleur coup, même loin devant.",
            "A grandmaster: seldom strays from the best move, even far ahead.",
        ),
        Level::Titan => (
            "Titan",
            "Titan",
            "Cherche comme Parfait, moins loin, sans les tables de finales.",
            "Searches as Perfect does, less far, without the endgame tables.",
        ),
        Level::Colossus => (
            "Colosse",
            "Colossus",
            "Cherche comme Parfait, plus loin que Titan, sans les tables de finales.",
            "Searches as Perfect does, further than Titan, without the endgame tables.",
        ),
        Level::Legend => (
            "Légende",
            "Legend",
            "Presque Parfait : cherche plus loin encore, sans les tables de finales.",
            "Nearly Perfect: searches further still, without the endgame tables.",
        ),
        Level::Perfect => (
            "Parfait",
            "Perfect",
            "Le plus fort : recherche longue, bibliothèque d'ouvertures et tables de finales.",
            "The strongest: a long search, the opening book and endgame tables.",
        ),
    };
    match lang {
        Lang::Fr => (name_fr, about_fr),
        Lang::En => (name_en, about_en),
    }
}

/// A level from its number (`1`..), its key, or its name in either
/// language, in any case, with or without accents (`graine`, `Seed`,
/// `maitre` or `maître`).
///
/// # Errors
///
/// The engine's [`awale_engine::UnknownLevel`] message when none matches.
pub fn parse_level(text: &str) -> Result<Level, String> {
    let plain = |t: &str| {
        t.trim()
            .to_lowercase()
            .replace('î', "i")
            .replace(['é', 'è', 'ê'], "e")
    };
    let wanted = plain(text);
    if let Ok(level) = wanted.parse::<Level>() {
        return Ok(level);
    }
    Level::ALL
        .iter()
        .copied()
        .find(|&level| {
            [Lang::Fr, Lang::En]
                .iter()
                .any(|&lang| plain(level_words(level, lang).0) == wanted)
        })
        .ok_or_else(|| {
            format!(
                "unknown level `{text}` (expected 1 to {} or a level's name)",
                Level::ALL.len()
            )
        })
}

/// A search's score, from the side to move's view, in `lang`: the seeds
/// it is ahead by (`+1.50 seeds`, `-0,03 graine`: the language's decimal
/// mark, French's singular below 2), or the result of a decided game
/// (`wins in 3 moves`, `perd de 4 graines`). The engine's `Display` is
/// English, for logs and protocols.
pub fn search_score_text(score: Score, lang: Lang) -> String {
    let fr = lang == Lang::Fr;
    let word = |fr_word: &'static str, en_word: &'static str| if fr { fr_word } else { en_word };
    let count = |n: u32, word: &str| {
        let s = if n > 1 { "s" } else { "" };
        format!("{n} {word}{s}")
    };
    if score.is_decided() {
        // Who wins is asked of the score itself: a loss already there (0
        // plies) has no sign to tell it by.
        let won = score.is_win();
        let verb = if won {
            word("gagne", "wins")
        } else {
            word("perd", "loses")
        };
        return match score.forced().map(|forced| forced.plies.div_ceil(2)) {
            Some(0) if won => word("gagné", "won").to_string(),
            Some(0) => word("perdu", "lost").to_string(),
            Some(moves) => format!(
                "{verb} {} {}",
                word("en", "in"),
                count(moves, word("coup", "move"))
            ),
            None => {
                let seeds = score.proven_margin().unwrap_or(0).unsigned_abs();
                format!(
                    "{verb} {} {}",
                    word("de", "by"),
                    count(seeds, word("graine", "seed"))
                )
            }
        };
    }
    let cp = score.cp_value();
    let sign = if cp < 0 { '-' } else { '+' };
    let (whole, hundredths) = (cp.unsigned_abs() / 100, cp.unsigned_abs() % 100);
    if fr {
        // French counts in the singular below 2: "1,50 graine".
        let seeds = if whole >= 2 { "graines" } else { "graine" };
        format!("{sign}{whole},{hundredths:02} {seeds}")
    } else {
        format!("{sign}{whole}.{hundredths:02} seeds")
    }
}

/// Why a move is good (the engine's reason) as a sentence for a player.
pub fn reason_text(reason: &Reason, lang: Lang) -> String {
    let fr = lang == Lang::Fr;
    let plural = |n: u32, fr_word: &str, en_word: &str| {
        let word = if fr { fr_word } else { en_word };
        if n > 1 {
            format!("{n} {word}s")
        } else {
            format!("{n} {word}")
        }
    };
    let seeds = |n: u8| plural(u32::from(n), "graine", "seed");
    match *reason {
        Reason::WinsByForce { plies } => {
            let moves = plies.div_ceil(2);
            if fr {
                format!("Gagne à coup sûr, en {}.", plural(moves, "coup", "move"))
            } else {
                format!("Wins by force, in {}.", plural(moves, "coup", "move"))
            }
        }
        Reason::DatabaseResult { margin } => match (margin.signum(), fr) {
            (1, true) => format!(
                "Les tables de finales disent que ce coup gagne, de {}.",
                seeds(margin.unsigned_abs() as u8)
            ),
            (1, false) => format!(
                "The endgame databases say this move wins, by {}.",
                seeds(margin.unsigned_abs() as u8)
            ),
            (0, true) => "Les tables de finales disent que ce coup tient la nulle.".into(),
            (0, false) => "The endgame databases say this move holds the draw.".into(),
            (_, true) => format!(
                "Les tables de finales disent que ce coup perd de {} : c'est le moins mauvais.",
                seeds(margin.unsigned_abs() as u8)
            ),
            (_, false) => format!(
                "The endgame databases say this move loses by {}: the least bad.",
                seeds(margin.unsigned_abs() as u8)
            ),
        },
        Reason::Captures { seeds: n, holes } => match (holes > 1, fr) {
            (true, true) => format!("Prend {} dans {holes} trous à la suite.", seeds(n)),
            (true, false) => format!("Captures {} from {holes} holes in a row.", seeds(n)),
            (false, true) => format!("Prend {}.", seeds(n)),
            (false, false) => format!("Captures {}.", seeds(n)),
        },
        Reason::ThreatensCapture { seeds: n } => {
            if fr {
                format!("Menace de prendre {} au coup suivant.", seeds(n))
            } else {
                format!("Threatens to capture {} next move.", seeds(n))
            }
        }
        Reason::AvoidsGivingChain { seeds: n, instead } => {
            if fr {
                format!(
                    "Ne donne pas de prise : après {instead}, l'adversaire pourrait prendre {}.",
                    seeds(n)
                )
            } else {
                format!(
                    "Gives nothing away: after {instead}, the opponent could capture {}.",
                    seeds(n)
                )
            }
        }
        Reason::SavesSeeds { seeds: n } => {
            if fr {
                format!(
                    "Met à l'abri {} que l'adversaire pouvait prendre.",
                    seeds(n)
                )
            } else {
                format!("Saves {} the opponent could capture.", seeds(n))
            }
        }
        Reason::BuildsKrou { hole, seeds: n } => {
            if fr {
                format!(
                    "Construit un krou en {hole} ({}) : de quoi faire le tour du plateau.",
                    seeds(n)
                )
            } else {
                format!(
                    "Builds a krou in {hole} ({}): enough to go round the board.",
                    seeds(n)
                )
            }
        }
        Reason::FeedsOpponent => if fr {
            "L'adversaire n'a plus de graines : il faut le nourrir."
        } else {
            "The opponent has no seeds left: it must be fed."
        }
        .into(),
        Reason::OnlyMove => if fr {
            "C'est le seul coup possible."
        } else {
            "It is the only legal move."
        }
        .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awale_core::{Game, Move, Rules};

    #[test]
    fn every_level_has_a_name_and_a_sentence_in_both_languages() {
        for &level in Level::ALL {
            for lang in [Lang::Fr, Lang::En] {
                let (name, about) = level_words(level, lang);
                assert!(!name.is_empty() && !about.is_empty(), "{level:?}");
            }
        }
        assert_eq!(level_words(Level::Seed, Lang::Fr).0, "Graine");
    }

    #[test]
    fn levels_parse_from_numbers_keys_and_names_in_both_languages() {
        assert_eq!(parse_level("1"), Ok(Level::Seed));
        assert_eq!(parse_level("maitre"), Ok(Level::Master));
        assert_eq!(parse_level("Maître"), Ok(Level::Master));
        assert_eq!(parse_level("perfect"), Ok(Level::Perfect));
        assert_eq!(parse_level("grand maitre"), Ok(Level::Grandmaster));
        assert_eq!(parse_level("Colosse"), Ok(Level::Colossus));
        assert_eq!(
            parse_level("maitre international"),
            Ok(Level::InternationalMaster)
        );
        assert_eq!(parse_level("Légende"), Ok(Level::Legend));
        assert_eq!(parse_level("eleve"), Ok(Level::Pupil));
        assert_eq!(parse_level("Élève"), Ok(Level::Pupil));
        assert!(parse_level("0").is_err());
        assert!(parse_level(&(Level::ALL.len() + 1).to_string()).is_err());
        assert!(parse_level("nobody").is_err());
        assert_eq!(parse_level("légende"), Ok(Level::Legend));
    }

    #[test]
    fn scores_are_worded_in_the_terminals_language() {
        let cases = [
            (Score::cp(-3), "-0,03 graine", "-0.03 seeds"),
            (Score::cp(250), "+2,50 graines", "+2.50 seeds"),
            (Score::win_in(5), "gagne en 3 coups", "wins in 3 moves"),
            (Score::loss_in(2), "perd en 1 coup", "loses in 1 move"),
            (Score::loss_in(0), "perdu", "lost"),
            (Score::proven(4), "gagne de 4 graines", "wins by 4 seeds"),
            (Score::proven(-1), "perd de 1 graine", "loses by 1 seed"),
        ];
        for (score, fr, en) in cases {
            assert_eq!(search_score_text(score, Lang::Fr), fr, "{score:?}");
            assert_eq!(search_score_text(score, Lang::En), en, "{score:?}");
        }
    }

    #[test]
    fn reasons_read_as_sentences_in_both_languages() {
        // RULES.md: hole F with 2 seeds captures 5 (1 2 4 0 0 0 opposite).
        let game = Game::from_position(
            Rules::AWALE,
            "0-0-0-0-0-2-1-2-4-0-0-0-18-19-S".parse().unwrap(),
        );
        let f: Move = "F".parse().unwrap();
        let reasons = awale_engine::explain(&game, f, None, None);
        assert_eq!(
            reason_text(&reasons[0], Lang::Fr),
            "Prend 5 graines dans 2 trous à la suite."
        );
        assert_eq!(
            reason_text(&reasons[0], Lang::En),
            "Captures 5 seeds from 2 holes in a row."
        );
        assert_eq!(
            reason_text(&Reason::WinsByForce { plies: 3 }, Lang::En),
            "Wins by force, in 2 moves."
        );
    }
}
