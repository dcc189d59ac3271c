//! The opening explorer end to end (issue 40): the real `awale serve`
//! with a few finished games imported, a real headless Chromium. Their
//! moves counted at the start, a move chosen in the table, another played
//! by its key on the board (said in words), one back; then reached from a
//! game's review, at that game's line. Each legal move's evaluation in
//! its column, said to a screen reader. Shown again after a game ended
//! elsewhere, the counts are asked again; the speed and rating-band
//! filters change them as the games played say.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as
//! ignored.

mod webdriver;

use serde_json::json;
use webdriver::{ama_and_kofi, rated_game, Browser, Site};

/// A finished game of the standard rules: `moves` (numbered record
/// text), `result` reached when the loser's flag fell.
fn game(site: &Site, moves: &str, result: &str) -> String {
    let record =
        format!("[Event \"Explorer\"]\n[Termination \"time forfeit\"]\n\n{moves} {result}");
    site.import(json!({ "record": record }))
}

/// The rows of the explorer's table: move, games.
fn rows(b: &Browser) -> Vec<String> {
    b.strings(
        "return [...document.querySelectorAll('#explorer-moves tbody tr')]\
           .map(r => r.cells[0].textContent + ' ' + r.cells[1].textContent)",
    )
}

fn wait(b: &Browser, what: &str, script: &str) {
    b.wait_for(what, &format!("return {script}"), 30);
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_explorer_counts_the_sites_games_and_walks_a_line_by_table_and_keyboard() {
    let site = Site::start("explorer");
    game(&site, "1. F f 2. A a", "0-1");
    game(&site, "1. F f 2. B b", "1-0");
    let c = game(&site, "1. C d", "1-0");
    let b = Browser::start("explorer", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#explorer"));
    wait(
        &b,
        "the start's moves",
        "document.querySelectorAll('#explorer-moves tbody tr').length === 6",
    );
    assert_eq!(
        rows(&b),
        ["F 2", "C 1", "A 0", "B 0", "D 0", "E 0"],
        "the most played first, then every other legal move"
    );
    assert_eq!(b.text("#explorer-line"), "Start position.");
    assert!(
        b.text("#explorer-status")
            .starts_with("3 finished games went on from here."),
        "{}",
        b.text("#explorer-status")
    );
    // South's wins of F: one of two.
    assert_eq!(
        b.string("return document.querySelector('#explorer-moves tbody tr').cells[2].textContent"),
        "50 %"
    );
    // A move chosen in the table: its button says what it leads to.
    assert_eq!(
        b.string("return document.querySelector('#explorer-moves tbody tr button').getAttribute('aria-label')"),
        "Play F (2 games)"
    );
    // Each move's evaluation (no databases here: the engine's estimate),
    // its column named, in full for a screen reader.
    assert_eq!(
        b.string(
            "return document.querySelector('#explorer-moves thead').rows[0].cells[6].textContent"
        ),
        "Evaluation"
    );
    let evals = b.strings(
        "return [...document.querySelectorAll('#explorer-moves tbody tr')]\
           .map(r => r.cells[6].querySelector('.unseen').textContent)",
    );
    assert_eq!(evals.len(), 6);
    for e in &evals {
        assert!(e.ends_with(": the engine's estimate."), "{e}");
    }
    b.click("#explorer-moves tbody tr button");
    wait(&b, "the line F", "location.hash === '#explorer&play=F'");
    wait(
        &b,
        "North's moves after F",
        "document.querySelector('#explorer-line').textContent === 'After F.' \
         && document.querySelector('#explorer-moves tbody tr').cells[0].textContent === 'f'",
    );
    assert_eq!(rows(&b)[0], "f 2");
    // North's f, then South's A, by the keyboard: the letter keys play the
    // mover's holes; each move said in words.
    b.keys("f");
    wait(&b, "the line Ff", "location.hash === '#explorer&play=Ff'");
    wait(
        &b,
        "South's moves after Ff",
        "document.querySelector('#explorer-line').textContent === 'After F f.'",
    );
    assert_eq!(&rows(&b)[..2], ["A 1", "B 1"]);
    wait(
        &b,
        "the move said",
        "document.querySelector('#explorer-said').textContent.includes('North plays f')",
    );
    b.keys("A");
    wait(&b, "the line FfA", "location.hash === '#explorer&play=FfA'");
    wait(
        &b,
        "the position after FfA",
        "document.querySelector('#explorer-line').textContent === 'After F f A.'",
    );
    assert_eq!(rows(&b)[0], "a 1");
    // One move back.
    b.click("#explorer-back");
    wait(&b, "back at Ff", "location.hash === '#explorer&play=Ff'");
    // From a game's review: the explorer at that game's line.
    b.goto(&site.page(&format!("#game={c}&review")));
    b.wait_shown("#btn-explore-opening", 30);
    b.click("#btn-explore-opening");
    wait(
        &b,
        "the game's line",
        "location.hash === '#explorer&play=Cd'",
    );
    wait(
        &b,
        "the position after C d",
        "document.querySelector('#explorer-line').textContent === 'After C d.'",
    );
    assert_eq!(
        b.text("#explorer-status"),
        "No finished game went on from here yet."
    );
}

/// The count of `letter`'s row in the table, once shown ("-1" if none).
fn count_of(b: &Browser, letter: &str) -> String {
    b.string(&format!(
        "const r = [...document.querySelectorAll('#explorer-moves tbody tr')]\
           .find(r => r.cells[0].textContent === {letter:?});\
         return r ? r.cells[1].textContent : '-1'"
    ))
}

/// Waits until `letter`'s row counts `games`.
fn wait_count(b: &Browser, what: &str, letter: &str, games: u32) {
    wait(
        b,
        what,
        &format!(
            "(() => {{ const r = [...document.querySelectorAll('#explorer-moves tbody tr')]\
               .find(r => r.cells[0].textContent === {letter:?});\
               return !!r && r.cells[1].textContent === '{games}'; }})()"
        ),
    );
}

/// Chooses `value` in the select `css`, as a person would.
fn choose(b: &Browser, css: &str, value: &str) {
    b.eval(&format!(
        "const s = document.querySelector({css:?}); s.value = {value:?}; \
         s.dispatchEvent(new Event('change'))"
    ));
}

/// The explorer's counts follow the games: a rated blitz game between
/// two new accounts (both rated 1500 before it) and an imported casual
/// game, both opening with C. Filtered by speed, only the blitz game;
/// by the band 1500 to 1800, only the rated one; by the band below 1200,
/// none. Then Ama leaves the explorer for another rated game, and back on
/// its tab the count has moved (asked again, not the answer kept).
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_explorer_counts_again_when_shown_again_and_follows_its_filters() {
    let (site, ama, kofi) = ama_and_kofi("explorer-filters");
    rated_game(&ama, &kofi, &kofi);
    game(&site, "1. C d", "1-0");
    // Ama's page speaks French.
    let b = &ama;
    b.eval("location.hash = '#explorer'");
    wait_count(b, "both games' C", "C", 2);
    // By speed: the blitz game only (the imported game has no clock).
    choose(b, "#explorer-speed", "blitz");
    wait_count(b, "the blitz game's C", "C", 1);
    assert_eq!(count_of(b, "D"), "0");
    choose(b, "#explorer-speed", "");
    wait_count(b, "any speed again", "C", 2);
    // By the band of the players' mean rating before the game: rated
    // games of that band only (the band 1500 to 1800 is the third).
    choose(b, "#explorer-band", "2");
    wait_count(b, "the rated game in its band", "C", 1);
    choose(b, "#explorer-band", "0");
    wait_count(b, "no game below 1200", "C", 0);
    wait(
        b,
        "none counted",
        "document.querySelector('#explorer-status').textContent\
           .startsWith(\"Aucune partie terminée n'a encore continué d'ici.\")",
    );
    choose(b, "#explorer-band", "");
    wait_count(b, "any rating again", "C", 2);
    // Away: another rated game, finished while the explorer is not shown.
    rated_game(&ama, &kofi, &ama);
    assert!(!b.string("return location.hash").starts_with("#explorer"));
    // Back on the explorer's tab, at the same line: counted again.
    b.eval("location.hash = '#learn'");
    b.wait_shown("#tab-explorer", 10);
    b.click("#tab-explorer");
    wait_count(b, "the game finished while away counted", "C", 3);
    assert_eq!(b.string("return location.hash"), "#explorer");
}
