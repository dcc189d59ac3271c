//! The opening explorer end to end (issue 40): the real `awale serve`
//! with a few finished games imported, a real headless Chromium. Their
//! moves counted at the start, a move chosen in the table, another played
//! by its key on the board (said in words), one back; then reached from a
//! game's review, at that game's line.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as
//! ignored.

mod webdriver;

use serde_json::json;
use webdriver::{Browser, Site};

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
