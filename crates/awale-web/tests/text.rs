//! The page's two catalogs of words (`page/js/text-fr.json`,
//! `text-en.json`) say the same things: the same keys, each a text or the
//! same kind of plural forms, with the same {0}, {1}, {name}… to fill. And
//! they word everything the server sends as data: every error code, every
//! level, every reason of a hint.

use std::collections::BTreeSet;

use awale_model::Code;
use serde_json::{Map, Value};

fn catalog(lang: &str, text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        other => panic!("text-{lang}.json is not a JSON object: {other:?}"),
    }
}

/// The texts of an entry: itself, or each of its plural forms.
fn texts<'a>(lang: &str, key: &str, entry: &'a Value) -> Vec<&'a str> {
    let text = |v: &'a Value| {
        v.as_str()
            .unwrap_or_else(|| panic!("{lang} {key}: {v} is not a text"))
    };
    match entry {
        Value::Object(forms) => {
            assert!(
                forms.contains_key("other"),
                "{lang} {key}: no plural form `other`"
            );
            for form in forms.keys() {
                assert!(
                    ["zero", "one", "two", "few", "many", "other"].contains(&form.as_str()),
                    "{lang} {key}: `{form}` is no plural form"
                );
            }
            forms.values().map(text).collect()
        }
        v => vec![text(v)],
    }
}

/// The numbers and names of the {0}, {1}, {name}… in `texts`.
fn placeholders(texts: &[&str]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for text in texts {
        let mut rest = *text;
        while let Some(at) = rest.find('{') {
            rest = &rest[at + 1..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !word.is_empty() && rest[word.len()..].starts_with('}') {
                found.insert(word);
            }
        }
    }
    found
}

#[test]
fn french_and_english_have_the_same_keys_and_placeholders() {
    let fr = catalog("fr", include_str!("../page/js/text-fr.json"));
    let en = catalog("en", include_str!("../page/js/text-en.json"));
    let only = |a: &Map<String, Value>, b: &Map<String, Value>| {
        a.keys()
            .filter(|k| !b.contains_key(*k))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(only(&fr, &en), Vec::<String>::new(), "keys only in French");
    assert_eq!(only(&en, &fr), Vec::<String>::new(), "keys only in English");
    for (key, fr_entry) in &fr {
        let en_entry = &en[key];
        assert_eq!(
            fr_entry.is_object(),
            en_entry.is_object(),
            "{key}: plural forms in one language only"
        );
        let (fr_texts, en_texts) = (texts("fr", key, fr_entry), texts("en", key, en_entry));
        for t in fr_texts.iter().chain(&en_texts) {
            assert!(!t.trim().is_empty(), "{key}: an empty text");
        }
        assert_eq!(
            placeholders(&fr_texts),
            placeholders(&en_texts),
            "{key}: other placeholders in French ({fr_texts:?}) and English ({en_texts:?})"
        );
    }
}

/// Each key once in each catalog: a key written twice gives the last of its
/// texts only (two refusals once shared a code that way).
#[test]
fn each_catalog_names_each_key_once() {
    for (lang, text) in [
        ("fr", include_str!("../page/js/text-fr.json")),
        ("en", include_str!("../page/js/text-en.json")),
    ] {
        let mut seen = BTreeSet::new();
        for line in text.lines() {
            // One entry a line, its key at the object's first level.
            let Some(key) = line
                .strip_prefix("  \"")
                .and_then(|rest| rest.split_once("\":"))
                .map(|(key, _)| key)
            else {
                continue;
            };
            assert!(seen.insert(key), "text-{lang}.json: `{key}` twice");
        }
        assert_eq!(seen.len(), catalog(lang, text).len(), "text-{lang}.json");
    }
}

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The first string literal of `text` after skipping spaces.
fn first_literal(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(&rest[..end])
}

fn is_code(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// Every reason the server's sources give an error: the first string of
/// each `.because(..)`, when it is a code (`snake_case`).
fn server_reasons() -> BTreeSet<String> {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap().flatten() {
        let src = krate.path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    let mut reasons = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices(".because(") {
            if let Some(reason) =
                first_literal(&text[at + ".because(".len()..]).filter(|c| is_code(c))
            {
                reasons.insert(reason.to_string());
            }
        }
    }
    reasons
}

/// The keys among `keys` that catalog `lang` has no words for.
fn unworded(lang: &Map<String, Value>, keys: impl Iterator<Item = String>) -> Vec<String> {
    keys.filter(|key| !lang.contains_key(key)).collect()
}

/// Every code of the closed list the server answers with has its words,
/// `err_CODE`, in both catalogs (French and English have the same keys).
#[test]
fn every_error_code_has_words() {
    let fr = catalog("fr", include_str!("../page/js/text-fr.json"));
    let en = catalog("en", include_str!("../page/js/text-en.json"));
    assert!(Code::ALL.len() > 100, "too few codes: {}", Code::ALL.len());
    // Worded by words.js from their reason and fields, not `err_CODE`'s
    // own text alone.
    for lang in [&fr, &en] {
        let missing = unworded(
            lang,
            Code::ALL.iter().map(|c| format!("err_{}", c.as_str())),
        );
        assert!(missing.is_empty(), "codes without words: {missing:?}");
    }
}

/// Every limit's refusal (`too_many` because the limit's name) has its
/// words, `err_too_many_NAME`, in both catalogs: a loop over the closed
/// list of limits.
#[test]
fn every_limit_has_words() {
    use awale_service::limiter::Limit;
    let fr = catalog("fr", include_str!("../page/js/text-fr.json"));
    let en = catalog("en", include_str!("../page/js/text-en.json"));
    for lang in [&fr, &en] {
        let keys = Limit::ALL
            .iter()
            .map(|l| format!("err_too_many_{}", l.name()));
        let missing = unworded(lang, keys);
        assert!(missing.is_empty(), "limits without words: {missing:?}");
    }
}

#[test]
fn every_error_reason_the_server_sends_has_words() {
    let en = catalog("en", include_str!("../page/js/text-en.json"));
    let reasons = server_reasons();
    assert!(reasons.len() > 20, "too few reasons found: {reasons:?}");
    // A reason is worded by some key of its family: `err_CODE_REASON`,
    // `record_REASON` (records), `why_…` (a move's rule).
    let missing: Vec<&String> = reasons
        .iter()
        .filter(|r| !en.keys().any(|k| k.ends_with(&format!("_{r}"))))
        .collect();
    assert!(missing.is_empty(), "reasons without words: {missing:?}");
}

#[test]
fn every_level_and_every_reason_of_a_hint_has_words() {
    let en = catalog("en", include_str!("../page/js/text-en.json"));
    for level in awale_engine::Level::ALL {
        for key in [
            format!("level_{}", level.key()),
            format!("level_{}_about", level.key()),
        ] {
            assert!(en.contains_key(&key), "no words for {key}");
        }
    }
    use awale_engine::Reason as R;
    let m = awale_core::Move::from_letter('A').unwrap();
    let reasons = [
        R::WinsByForce { plies: 3 },
        R::DatabaseResult { margin: 2 },
        R::Captures { seeds: 2, holes: 1 },
        R::ThreatensCapture { seeds: 2 },
        R::AvoidsGivingChain {
            seeds: 4,
            instead: m,
        },
        R::SavesSeeds { seeds: 2 },
        R::BuildsKrou { hole: m, seeds: 12 },
        R::FeedsOpponent,
        R::OnlyMove,
    ];
    for r in reasons {
        let key = match r.name() {
            "database_result" => "hint_why_database_result_win".to_string(),
            name => format!("hint_why_{name}"),
        };
        assert!(en.contains_key(&key), "no words for {key}");
    }
}

#[test]
fn a_rating_change_is_written_one_way_on_every_page() {
    // The game page wrote "-242" (a hyphen), the player's page "−242" (a
    // true minus): both write it with `words.js`'s `ratingChange`, and
    // neither signs a number its own way.
    let words = include_str!("../page/js/words.js");
    assert!(
        words.contains("export function ratingChange(n)") && words.contains("\\u2212"),
        "words.js writes a change with a true minus"
    );
    for (file, text) in [
        ("online.js", include_str!("../page/js/online.js")),
        ("players.js", include_str!("../page/js/players.js")),
    ] {
        assert!(text.contains("ratingChange("), "{file} writes no change");
        for own in ["\"+\" +", "`+${", "\\u2212", "\u{2212}$"] {
            assert!(!text.contains(own), "{file} signs a number itself: {own}");
        }
    }
}

#[test]
fn lessons_and_puzzles_say_tu_in_french() {
    // Lessons said "tu", puzzles "vous" (issue 42): the learning pages
    // speak to the learner one way, "tu", in their catalog words and in
    // the lessons' own; the board's and the spoken words they use too
    // (`KEY_tu`, beside the game view's `KEY`: "ton grenier", "tu prends
    // 2", where the game view says "votre grenier", "vous prenez 2").
    let fr = catalog("fr", include_str!("../page/js/text-fr.json"));
    let vous = |text: &str| {
        text.split(|c: char| !c.is_alphabetic()).any(|w| {
            ["vous", "Vous", "votre", "Votre", "vos", "Vos"].contains(&w)
                || (w.len() > 4
                    && w.ends_with("ez")
                    && w.chars().next().is_some_and(char::is_uppercase))
        })
    };
    for (key, entry) in &fr {
        if !["lesson_", "study_", "puzzle_", "mistake_"]
            .iter()
            .any(|p| key.starts_with(p))
            && !key.ends_with("_tu")
        {
            continue;
        }
        for text in texts("fr", key, entry) {
            assert!(!vous(text), "fr {key} says vous: {text}");
        }
    }
    // Each "you" of the board and the spoken moves has its "tu" form.
    for key in [
        "hole_yours",
        "hole_yours_nocount",
        "store_yours",
        "store_yours_nocount",
        "said_you_play",
        "said_take_you",
        "said_your_hole",
    ] {
        assert!(fr.contains_key(&format!("{key}_tu")), "no {key}_tu");
        let said = texts("fr", key, &fr[key]);
        assert!(said.iter().any(|t| vous(t)), "fr {key} is the vous form");
    }
    let lessons = include_str!("../page/lessons.json");
    let lessons: Value = serde_json::from_str(lessons).expect("lessons.json");
    fn french<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("fr", Value::String(s)) => out.push(s),
                        _ => french(v, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|v| french(v, out)),
            _ => {}
        }
    }
    let mut said = Vec::new();
    french(&lessons, &mut said);
    assert!(said.len() > 20, "the lessons' French words: {}", said.len());
    for text in said {
        assert!(!vous(text), "a lesson says vous: {text}");
    }
}
