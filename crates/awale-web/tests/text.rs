//! The page's two catalogs of words (`page/js/text-fr.json`,
//! `text-en.json`) say the same things: the same keys, each a text or the
//! same kind of plural forms, with the same {0}, {1}… to fill.

use std::collections::BTreeSet;

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

/// The numbers of the {0}, {1}… in `texts`.
fn placeholders(texts: &[&str]) -> BTreeSet<char> {
    let mut found = BTreeSet::new();
    for text in texts {
        let mut rest = *text;
        while let Some(at) = rest.find('{') {
            rest = &rest[at + 1..];
            let mut chars = rest.chars();
            if let (Some(d), Some('}')) = (chars.next(), chars.next()) {
                if d.is_ascii_digit() {
                    found.insert(d);
                }
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
