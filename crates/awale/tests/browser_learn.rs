//! The Learn pages end to end, as browser.rs tests the game: the real `awale
//! serve` with an endgame database built here by `awale db build`, a real
//! headless Chromium driven through chromedriver. A lesson done wrong then
//! right, a puzzle failed then solved, a game played without counting, the
//! analysis board opened from a stored game and shared as an address.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as
//! ignored. With `AWALE_SCREENSHOTS=1` their screenshots go to `docs/`
//! (those of the README).

mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};

use serde_json::{json, Value};
use webdriver::{browser_installed, http, start_server_with, temp_dir, Browser};

/// One browser at a time: the machine has two cores.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    assert!(
        browser_installed(),
        "the browser tests need /usr/bin/chromium and chromedriver: run `bash scripts/test.sh`, \
         which installs them, or build the tests with AWALE_SKIP_BROWSER=1 to skip them"
    );
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An endgame database up to 8 seeds, built once by `awale db build`.
fn database() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("learn-db");
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

fn screenshot(b: &Browser, name: &str) {
    let path = if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name)
    } else {
        temp_dir("learn-shots").join(name)
    };
    b.screenshot(&path);
}

/// A server with the database; its address.
fn server(name: &str) -> (webdriver::Process, String) {
    let data = temp_dir(name);
    let db = database().to_str().unwrap().to_string();
    start_server_with(&data, &["--db", &db])
}

/// Opens `url` with quick animations, no sound, and the page's stored
/// choices as `storage` says.
fn open(b: &Browser, url: &str, storage: &str) {
    b.goto(url);
    b.exec(
        &format!(
            "localStorage.clear(); localStorage.setItem('awale.speed', '20'); \
             localStorage.setItem('awale.sound', 'off'); {storage}"
        ),
        json!([]),
    );
    b.goto(url);
}

fn call(url: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let addr = url.trim_start_matches("http://");
    let (status, bytes) = http(addr, method, path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Clicks hole `letter` of the board `svg`.
fn tap(b: &Browser, svg: &str, letter: &str) {
    b.click(&format!("{svg} .hole-hit[data-letter='{letter}']"));
}

fn text(b: &Browser, css: &str) -> String {
    b.exec(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''",
        json!([css]),
    )
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Waits until the text of `css` holds `needle`; returns the text.
fn wait_text(b: &Browser, css: &str, needle: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let t = text(b, css);
        if t.contains(needle) {
            return t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for `{needle}` in {css} (last: `{t}`; at {})",
            b.exec("return location.hash", json!([]))
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Waits until `script` is true, the script getting `args`.
fn wait(b: &Browser, what: &str, script: &str) {
    b.wait_for(what, script, 20);
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_lesson_done_wrong_then_right_is_kept_as_done() {
    let _serial = serial();
    let (_server, url) = server("lesson");
    let b = Browser::start("lesson", "en-US,en", 1200, 900);
    open(&b, &format!("{url}/#learn"), "");
    b.find(".lesson-card[data-lesson='capture']");
    assert_eq!(
        b.exec(
            "return document.querySelectorAll('.lesson-card').length",
            json!([])
        ),
        9
    );
    b.click(".lesson-card[data-lesson='capture']");
    wait_text(&b, "#lesson-step", "Step 1 of 2");
    b.click("#lesson-board .hole-hit.legal");
    // Step 2: take 3, where F makes 4 (no capture).
    b.goto(&format!("{url}/#lesson=capture&step=2"));
    wait_text(&b, "#lesson-task", "Now take 3 seeds");
    b.find("#lesson-board .hole-hit.legal[data-letter='F']");
    tap(&b, "#lesson-board", "F");
    let said = wait_text(&b, "#lesson-feedback", "Try again");
    assert!(said.contains("made 4 in c"), "{said}");
    // A hint after a wrong try; the position comes back.
    wait(
        &b,
        "the hint",
        "return !document.querySelector('#lesson-hint-text').hidden",
    );
    assert!(text(&b, "#lesson-hint-text").contains("Hole a has 2 seeds"));
    wait(
        &b,
        "the board back",
        "return !!document.querySelector(\"#lesson-board .hole-hit.legal[data-letter='E']\")",
    );
    screenshot(&b, "screenshot-lesson.png");
    tap(&b, "#lesson-board", "E");
    let said = wait_text(&b, "#lesson-feedback", "Well done!");
    assert!(
        said.contains("You take 3 seeds!") || said.contains("You took 3 seeds"),
        "{said}"
    );
    wait(
        &b,
        "the next button",
        "return !document.querySelector('#lesson-next').hidden",
    );
    assert_eq!(text(&b, "#lesson-next"), "Next lesson");
    let progress = b.exec(
        "return JSON.parse(localStorage.getItem('awale.lessons'))",
        json!([]),
    );
    assert_eq!(progress["capture"], 2);
    // An illegal try is explained: North starving, A does not feed.
    b.goto(&format!("{url}/#lesson=feed"));
    wait_text(&b, "#lesson-task", "no seeds at all");
    tap(&b, "#lesson-board", "A");
    let said = wait_text(&b, "#lesson-feedback", "not allowed");
    assert!(said.contains("The seeds of A stay on your side"), "{said}");
    // The list shows the lesson done, in French too.
    b.click("#lesson-back");
    wait(
        &b,
        "the list",
        "return !document.querySelector('#lesson-list').hidden",
    );
    assert!(text(&b, ".lesson-card[data-lesson='capture'] .state").contains("Done"));
    b.click("#btn-lang");
    wait_text(&b, ".lesson-card[data-lesson='capture'] .state", "Finie");
    assert_eq!(text(&b, ".lesson-card[data-lesson='sow'] .title"), "Semer");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_puzzle_failed_then_solved_plays_the_database_line() {
    let _serial = serial();
    let (_server, url) = server("puzzle");
    // The puzzle the page will show, asked of the server: its answer.
    let (status, next) = call(
        &url,
        "GET",
        "/api/study/puzzles/next?seed=3&difficulty=3",
        None,
    );
    assert_eq!(status, 200, "{next}");
    let p = &next["puzzle"];
    let answer = p["answer"].as_str().unwrap().to_string();
    let b = Browser::start("puzzle", "en-US,en", 1200, 900);
    open(&b, &format!("{url}/#puzzles&seed=3&difficulty=3"), "");
    wait_text(&b, "#puzzle-goal", "to play and");
    let goal = text(&b, "#puzzle-goal");
    let side = if p["position"].as_str().unwrap().ends_with('S') {
        "South"
    } else {
        "North"
    };
    assert!(goal.starts_with(side), "{goal}");
    // The solver plays from the bottom of the board.
    let bottom = b.exec(
        "const a = document.querySelector(\"#puzzle-board .hole-hit[data-letter='A']\"); \
         const f = document.querySelector(\"#puzzle-board .hole-hit[data-letter='f']\"); \
         return +a.getAttribute('cy') > +f.getAttribute('cy') ? 'South' : 'North'",
        json!([]),
    );
    assert_eq!(bottom, side);
    let wrong = b
        .exec(
            "return [...document.querySelectorAll('#puzzle-board .hole-hit.legal')] \
             .map(h => h.dataset.letter).find(l => l !== arguments[0])",
            json!([answer]),
        )
        .as_str()
        .expect("a wrong move to try")
        .to_string();
    tap(&b, "#puzzle-board", &wrong);
    let said = wait_text(&b, "#puzzle-feedback", "Try another move.");
    assert!(said.starts_with(&format!("Not {wrong}:")), "{said}");
    wait(
        &b,
        "the puzzle back",
        "return document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 1",
    );
    assert!(
        b.exec(
            "return !document.querySelector('#puzzle-solution').hidden",
            json!([])
        ) == true
    );
    tap(&b, "#puzzle-board", &answer);
    let said = wait_text(&b, "#puzzle-feedback", "The perfect line:");
    assert!(
        said.starts_with(&format!("Well done! {answer} is the only move")),
        "{said}"
    );
    let line: Vec<&str> = p["line"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(said.contains(&line.join(" ")), "{said}");
    screenshot(&b, "screenshot-puzzle.png");
    // Failed once: solved, but not in a row.
    assert_eq!(
        text(&b, "#puzzle-stats"),
        "Solved: 1 · in a row: 0 · best: 0"
    );
    b.click("#puzzle-next");
    wait(
        &b,
        "a new seed",
        "return /seed=\\d+/.test(location.hash) && !location.hash.includes('seed=3&')",
    );
    wait_text(&b, "#puzzle-goal", "to play and");
    // The puzzle of the day, in French.
    b.click("#puzzle-daily");
    wait_text(&b, "#puzzle-title", "Puzzle of the day");
    b.click("#btn-lang");
    wait_text(&b, "#puzzle-title", "Problème du jour");
    wait_text(&b, "#puzzle-goal", "joue et");
}
