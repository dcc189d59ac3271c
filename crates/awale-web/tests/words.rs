//! The page's words (`page/js/words.js`) as the page says them, in French
//! and in English: the module run by Node.js with its catalogs, and a
//! stand-in for the few browser objects it reads (storage, languages).
//! Node.js comes with npm, which `scripts/test.sh` installs.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `calls` (JavaScript, `words` the module, `spoken` and `board`
/// those of the moves said and the board's names, `i18n` the catalogs'
/// `t`) in each language and
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
const spoken = await import(pathToFileURL(dir + "/spoken.js"));
const board = await import(pathToFileURL(dir + "/board.js"));
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

/// The texts `out[lang]`, plain (see [`plain`]).
fn plains(out: &Value, lang: &str) -> Vec<String> {
    out[lang].as_array().unwrap().iter().map(plain).collect()
}

#[test]
fn each_moves_cost_says_whether_it_is_exact_or_estimated() {
    // Issue 40: "the seeds lost against the best move, exact where the
    // databases decide, estimated elsewhere, the page says which": the
    // review's table said only the seeds, whatever the row's `exact`.
    let out = said(
        r#"words.costWords({"loss": 600, "gave_up": "draw", "exact": true}), words.costWords({"loss": 250, "gave_up": null, "exact": false}), words.costWords({"loss": null, "gave_up": "win", "exact": true}), words.costWords({"loss": 340, "gave_up": null}), words.costWords({"loss": 0, "gave_up": "game", "exact": false})"#,
    );
    assert_eq!(
        plains(&out, "fr"),
        [
            "nulle perdue, 6 graines (exact)",
            "2,5 graines (estimé)",
            "gain perdu (exact)",
            // A review stored before losses were told exact: nothing said.
            "3,4 graines",
            "partie perdue (estimé)",
        ]
    );
    assert_eq!(
        plains(&out, "en"),
        [
            "draw thrown away, 6 seeds (exact)",
            "2.5 seeds (estimated)",
            "win thrown away (exact)",
            "3.4 seeds",
            "game lost (estimated)",
        ]
    );
}

/// South's F from 0-0-0-0-1-2-1-1-0-0-0-3-20-20-S: two seeds sown, into
/// a and b, both taken (the server's `captures`, the last hole first).
const F_TAKES_TWO_HOLES: &str = r#"{"move": "F", "side": "S", "before": [0,0,0,0,1,2,1,1,0,0,0,3], "stores_before": [20, 20], "sown": [6, 7], "captures": [7, 6]}"#;

#[test]
fn a_move_is_said_as_what_happened_and_a_learner_is_told_tu() {
    // Issue 42 (commit 5f2a150): "Vous jouez E : ..., prenez 2" read as
    // an order; now "vous prenez 2", what happened. And the learning
    // views (lessons, puzzles, mistakes), which say "tu", say the moves
    // and the board with "tu" too: "Tu joues F", "tu prends", "ton
    // grenier"; the game view keeps "vous".
    let ply = F_TAKES_TWO_HOLES;
    let out = said(&format!(
        "spoken.moveWords({ply}, \"S\"), spoken.moveWords({ply}, \"N\"), spoken.moveWords({ply}, \"S\", false, true), spoken.moveWords({ply}, \"N\", false, true), \
         i18n.t(\"store_label\", words.sideName(\"N\"), 3), i18n.t(\"store_label_nocount\", words.sideName(\"N\")), \
         board.holeName(5, 2, \"S\", false), board.holeName(5, 2, \"S\", false, true), board.holeName(7, 2, \"S\", false, true), board.holeName(5, 2, \"S\", true, true)"
    ));
    assert_eq!(
        plains(&out, "fr"),
        [
            "Vous jouez F : 2 graines semées, vous prenez 2 dans le b de Nord et 2 dans le a de Nord ; 24 à 20.",
            "Sud joue F : 2 graines semées, prend 2 dans votre b et 2 dans votre a ; 24 à 20.",
            "Tu joues F : 2 graines semées, tu prends 2 dans le b de Nord et 2 dans le a de Nord ; 24 à 20.",
            "Sud joue F : 2 graines semées, prend 2 dans ton b et 2 dans ton a ; 24 à 20.",
            // "grenier de Nord", lower case as "votre grenier" is.
            "grenier de Nord : 3 graines",
            "grenier de Nord",
            "votre trou F, 2 graines",
            "ton trou F, 2 graines",
            "trou b de Nord, 2 graines",
            "ton trou F",
        ]
    );
    let en = plains(&out, "en");
    assert!(
        en[0].starts_with("You play F: 2 seeds sown, you take 2 from North"),
        "{en:?}"
    );
    assert_eq!(en[0], en[2], "English has one you: {en:?}");
    assert_eq!(en[1], en[3], "{en:?}");
    assert_eq!(en[6], en[7], "{en:?}");
}
