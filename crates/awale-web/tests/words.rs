//! The page's words (`page/js/words.js`) as the page says them, in French
//! and in English: the module run by Node.js with its catalogs, and a
//! stand-in for the few browser objects it reads (storage, languages).
//! Node.js comes with npm, which `scripts/test.sh` installs.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `calls` (JavaScript, `words` the module) in each language and
/// gives back what each call returned, by language: `{"fr": [..], "en": [..]}`.
fn said(calls: &str) -> Value {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("page/js");
    let script = format!(
        r#"
import {{ readFileSync }} from "node:fs";
import {{ fileURLToPath, pathToFileURL }} from "node:url";
const kept = new Map();
globalThis.localStorage = {{ getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) }};
Object.defineProperty(globalThis, "navigator", {{ value: {{ languages: ["fr-FR"] }}, configurable: true }});
globalThis.document = {{ documentElement: {{}}, querySelectorAll: () => [] }};
globalThis.fetch = async (url) => ({{ ok: true, json: async () => JSON.parse(readFileSync(fileURLToPath(url), "utf8")) }});
const dir = process.argv[process.argv.length - 1];
const i18n = await import(pathToFileURL(dir + "/i18n.js"));
const words = await import(pathToFileURL(dir + "/words.js"));
const out = {{}};
for (const lang of ["fr", "en"]) {{
  i18n.setLang(lang);
  out[lang] = [{calls}];
}}
console.log(JSON.stringify(out));
"#
    );
    let run = Command::new("node")
        .args(["--input-type=module", "-e", &script, "--"])
        .arg(&js)
        .output()
        .expect("node runs the page's words: install Node.js (scripts/test.sh does)");
    assert!(
        run.status.success(),
        "node: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&run.stdout).expect("the words as JSON")
}

/// French puts a narrow no-break space before ; ! ? and a no-break space
/// before : (`typography` in `i18n.js`); read here as plain spaces.
fn plain(v: &Value) -> String {
    v.as_str()
        .expect("a text")
        .replace(['\u{202f}', '\u{a0}'], " ")
}

#[test]
fn each_count_of_a_review_takes_its_own_plural() {
    // Issue: "2 demi-coups analysés (1 coups)": the ply count chose the
    // plural of the move count too.
    let out = said(
        "words.reviewCounts(2, 1, 0), words.reviewCounts(1, 1, 1), words.reviewCounts(139, 70, 34), words.reviewCounts(3, 2, 1)",
    );
    let fr: Vec<String> = out["fr"].as_array().unwrap().iter().map(plain).collect();
    let en: Vec<String> = out["en"].as_array().unwrap().iter().map(plain).collect();
    assert_eq!(
        fr,
        [
            "2 demi-coups analysés (1 coup), 0 erreur.",
            "1 demi-coup analysé (1 coup), 1 erreur.",
            "139 demi-coups analysés (70 coups), 34 erreurs.",
            "3 demi-coups analysés (2 coups), 1 erreur.",
        ]
    );
    assert_eq!(
        en,
        [
            "2 plies reviewed (1 move), 0 mistakes.",
            "1 ply reviewed (1 move), 1 mistake.",
            "139 plies reviewed (70 moves), 34 mistakes.",
            "3 plies reviewed (2 moves), 1 mistake.",
        ]
    );
}

#[test]
fn the_review_plot_names_the_games_real_final_lead() {
    // Issue: "à la fin, -50 pour Sud" for a game that ended 16 to 32 (the
    // engine's forced loss, ±50 seeds, read as a lead).
    let out = said(
        r#"words.plotLabel({"reason": "starvation", "stores": [16, 32], "winner": "N"}), words.plotLabel({"stores": [25, 23]})"#,
    );
    assert_eq!(
        plain(&out["fr"][0]),
        "Avance en graines au fil de la partie ; à la fin, -16 pour Sud."
    );
    assert_eq!(
        plain(&out["en"][0]),
        "The lead in seeds over the game; at the end, -16 for South."
    );
    assert!(plain(&out["en"][1]).ends_with("at the end, 2 for South."));
}

#[test]
fn a_mistakes_cost_says_the_result_given_up_and_only_seeds_that_count() {
    let out = said(
        r#"words.costWords({"loss": null, "gave_up": "win"}), words.costWords({"loss": 600, "gave_up": "draw"}), words.costWords({"loss": 250, "gave_up": null}), words.costWords({"loss": 0, "gave_up": "game"}), words.costWords({"loss": 340, "mistake": true})"#,
    );
    let fr: Vec<String> = out["fr"].as_array().unwrap().iter().map(plain).collect();
    assert_eq!(
        fr,
        [
            "gain perdu",
            "nulle perdue, 6 graines",
            "2,5 graines",
            "partie perdue",
            // A review stored in the old form: its seeds.
            "3,4 graines",
        ]
    );
    let en: Vec<String> = out["en"].as_array().unwrap().iter().map(plain).collect();
    assert_eq!(en[0], "win thrown away");
    assert_eq!(en[3], "game lost");
}

#[test]
fn an_online_game_in_ones_own_list_is_won_or_lost_from_ones_side() {
    // Issue 42: My games said "Nord a gagné" to North; the list says which
    // seat is the viewer's (`you`), and the result is worded from it.
    let out = said(
        r#"words.shortResult({"mode": "online", "result": "0-1", "reason": "resign", "you": "N"}), words.shortResult({"mode": "online", "result": "0-1", "reason": "resign", "you": "S"}), words.shortResult({"mode": "online", "result": "0-1", "reason": "resign"})"#,
    );
    let fr: Vec<String> = out["fr"].as_array().unwrap().iter().map(plain).collect();
    assert!(fr[0].starts_with("vous avez gagné"), "{fr:?}");
    assert!(fr[1].starts_with("vous avez perdu"), "{fr:?}");
    assert!(fr[2].starts_with("Nord a gagné"), "{fr:?}");
    let en: Vec<String> = out["en"].as_array().unwrap().iter().map(plain).collect();
    assert!(en[0].starts_with("you won"), "{en:?}");
}
