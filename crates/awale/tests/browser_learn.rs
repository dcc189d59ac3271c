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
use std::sync::OnceLock;

use serde_json::{json, Value};
use webdriver::{
    page_fetch, page_post_ok, request_as, sign_up, temp_dir, test_guest, Browser, Site,
};

fn screenshot(b: &Browser, name: &str) {
    let path = if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name)
    } else {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        DIR.get_or_init(|| temp_dir("learn-shots")).join(name)
    };
    b.screenshot(&path);
}

/// A server with the database, and a browser preferring `languages`.
fn start(name: &str, languages: &str, width: u32, height: u32) -> (Site, Browser) {
    let site = Site::with_database(name);
    (site, Browser::start(name, languages, width, height))
}

/// Opens the list of lessons; waits for it.
fn open_lessons(b: &Browser, site: &Site) {
    b.open_fresh(&site.page("#learn"));
    b.find(".lesson-card");
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
    let mut t = String::new();
    poll(
        100,
        || {
            t = text(b, css);
            t.contains(needle)
        },
        || {
            format!(
                "`{needle}` in {css} (last: `{}`; at {})",
                text(b, css),
                b.eval("return location.hash")
            )
        },
    );
    t
}

/// Calls `done` every `every_ms` until it returns true; fails after 30 s
/// saying what was awaited (`what()`).
fn poll(every_ms: u64, mut done: impl FnMut() -> bool, what: impl Fn() -> String) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {}",
            what()
        );
        std::thread::sleep(std::time::Duration::from_millis(every_ms));
    }
}

/// Waits until `script` returns true.
fn wait(b: &Browser, what: &str, script: &str) {
    poll(
        100,
        || b.eval(script) == json!(true),
        || {
            format!(
                "{what} (at {})",
                b.eval("return location.hash + ' ' + document.querySelector('main').innerText.slice(0, 600)")
            )
        },
    );
}

/// Issue 21: the sowing lesson answers a wrong try with where the last
/// seed fell, never with capture rules not yet taught; its success says
/// "Well done!" once. Issue 42: the task, shown above, is not said again,
/// and the right hole tapped at once after a wrong try is played.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_sowing_lesson_answers_with_the_task_and_praises_once() {
    let (site, b) = start("sowing", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#lesson=sow&step=1"));
    wait_text(&b, "#lesson-task", "Touch hole D");
    tap(&b, "#lesson-board", "D");
    let said = wait_text(&b, "#lesson-feedback", "Well done!");
    assert_eq!(said.matches("Well done!").count(), 1, "{said}");
    b.goto(&site.page("#lesson=sow&step=2"));
    wait_text(&b, "#lesson-task", "into hole b");
    // A (4 seeds) ends in E, on the learner's own side.
    tap(&b, "#lesson-board", "A");
    let said = wait_text(&b, "#lesson-feedback", "Try again");
    assert!(said.contains("Your last seed fell in E"), "{said}");
    assert!(
        !said.contains("into hole b"),
        "the task not said twice: {said}"
    );
    assert!(!said.contains("captur"), "no capture rule yet: {said}");
    // E tapped at once, while the wrong try still shows: played, without
    // "Start again".
    tap(&b, "#lesson-board", "E");
    let said = wait_text(&b, "#lesson-feedback", "Well done!");
    assert_eq!(said.matches("Well done!").count(), 1, "{said}");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_lesson_done_wrong_then_right_is_kept_as_done() {
    let (site, b) = start("lesson", "en-US,en", 1200, 900);
    open_lessons(&b, &site);
    assert_eq!(
        b.eval("return document.querySelectorAll('.lesson-card').length"),
        9
    );
    b.click(".lesson-card[data-lesson='capture']");
    wait_text(&b, "#lesson-step", "Step 1 of 2");
    b.click("#lesson-board .hole-hit.legal");
    // Step 2: take 3, where F makes 4 (no capture).
    b.goto(&site.page("#lesson=capture&step=2"));
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
    wait_legal(&b, "the board back", "#lesson-board", "E");
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
    let progress = b.eval("return JSON.parse(localStorage.getItem('awale.lessons'))");
    assert_eq!(progress["capture"], 2);
    // An illegal try is explained: North starving, A does not feed.
    b.goto(&site.page("#lesson=feed"));
    let said = refused_try(&b, "no seeds at all", "", "A");
    assert_eq!(
        said,
        "The seeds of A stay on your side: your opponent still has nothing. Not allowed! Try again!"
    );
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

/// The script that says whether hole `letter` of board `svg` may be
/// played now.
fn legal_hole(svg: &str, letter: &str) -> String {
    format!("return !!document.querySelector(\"{svg} .hole-hit.legal[data-letter='{letter}']\")")
}

/// Waits until hole `letter` of board `svg` may be played (`what`: the
/// board awaited, for the failure's words).
fn wait_legal(b: &Browser, what: &str, svg: &str, letter: &str) {
    wait(b, what, &legal_hole(svg, letter));
}

/// Taps `letter` on the lesson's board until the step is solved (taps
/// while the board is loading or sowing are not taken).
fn solve_step(b: &Browser, letter: &str) {
    let legal = legal_hole("#lesson-board", letter);
    poll(
        200,
        || {
            if b.eval("return !document.querySelector('#lesson-next').hidden") == json!(true) {
                return true;
            }
            if b.eval(&legal) == json!(true) {
                tap(b, "#lesson-board", letter);
            }
            false
        },
        || format!("{letter} to be taken: {}", text(b, "#lesson-feedback")),
    );
}

/// A step is kept as done once solved: a learner who goes on at once,
/// before the line that follows the move has played, keeps it. Meanwhile
/// the step's own praise shows, never words that read like a failure.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_lesson_step_solved_is_kept_when_the_learner_goes_on_at_once() {
    let (site, b) = start("lesson-early", "fr-FR,fr", 1200, 900);
    b.open_fresh(&site.page("#lesson=strategy"));
    wait_text(&b, "#lesson-step", "Étape 1 sur 2");
    solve_step(&b, "E");
    let said = text(&b, "#lesson-feedback");
    assert!(
        said.starts_with("Bravo") && said.contains("L'adversaire doit jouer sa seule graine"),
        "{said}"
    );
    assert!(!said.contains("on ne prend que"), "{said}");
    b.click("#lesson-next");
    wait_text(&b, "#lesson-step", "Étape 2 sur 2");
    solve_step(&b, "B");
    b.click("#lesson-back");
    wait(
        &b,
        "the list",
        "return !document.querySelector('#lesson-list').hidden",
    );
    wait_text(&b, ".lesson-card[data-lesson='strategy'] .state", "Finie");
    let progress = b.eval("return JSON.parse(localStorage.getItem('awale.lessons'))");
    assert_eq!(progress["strategy"], 2, "{progress}");
}

/// Waits for the lesson's task to say `task` and for its position on the
/// board (a legal hole, `legal` narrowing which: a tap before is not
/// taken), taps hole `letter`: the feedback, once it says "Try again".
fn refused_try(b: &Browser, task: &str, legal: &str, letter: &str) -> String {
    wait_text(b, "#lesson-task", task);
    b.find(&format!("#lesson-board .hole-hit.legal{legal}"));
    tap(b, "#lesson-board", letter);
    wait_text(b, "#lesson-feedback", "Try again")
}

/// A move the rules refuse, for which the step has its own words, is
/// answered with them alone: not the rules' reason then the same again.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_lesson_refusal_with_its_own_words_says_them_once() {
    let (site, b) = start("lesson-slam", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#lesson=grand_slam"));
    let said = refused_try(&b, "grand slam", "[data-letter='A']", "F");
    assert_eq!(
        said,
        "F would take a and b, all your opponent's seeds: a grand slam, forbidden! Try again!"
    );
}

/// Asks the server for the puzzle of seed 3 at difficulty 3, then opens the
/// page on it and waits for its goal: the puzzle the page shows, as the
/// server gave it (its answer, its line, its position).
fn open_puzzle(site: &Site, b: &Browser) -> Value {
    let (status, next) = site.call("GET", "/api/study/puzzles/next?seed=3&difficulty=3", None);
    assert_eq!(status, 200, "{next}");
    b.open_fresh(&site.page("#puzzles&seed=3&difficulty=3"));
    wait_text(b, "#puzzle-goal", "to play and");
    next["puzzle"].clone()
}

/// A legal move of the puzzle board that is not `answer`.
fn wrong_move(b: &Browser, answer: &str) -> String {
    b.exec(
        "return [...document.querySelectorAll('#puzzle-board .hole-hit.legal')] \
         .map(h => h.dataset.letter).find(l => l !== arguments[0])",
        json!([answer]),
    )
    .as_str()
    .expect("a wrong move to try")
    .to_string()
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_puzzle_failed_then_solved_plays_the_database_line() {
    let (site, b) = start("puzzle", "en-US,en", 1200, 900);
    let p = &open_puzzle(&site, &b);
    let answer = p["answer"].as_str().unwrap().to_string();
    let goal = text(&b, "#puzzle-goal");
    let side = if p["position"].as_str().unwrap().ends_with('S') {
        "South"
    } else {
        "North"
    };
    assert!(goal.starts_with(side), "{goal}");
    // The solver plays from the bottom of the board.
    let bottom = b.eval(
        "const a = document.querySelector(\"#puzzle-board .hole-hit[data-letter='A']\"); \
         const f = document.querySelector(\"#puzzle-board .hole-hit[data-letter='f']\"); \
         return +a.getAttribute('cy') > +f.getAttribute('cy') ? 'South' : 'North'",
    );
    assert_eq!(bottom, side);
    let wrong = wrong_move(&b, &answer);
    tap(&b, "#puzzle-board", &wrong);
    let said = wait_text(&b, "#puzzle-feedback", "Try another move.");
    assert!(said.starts_with(&format!("Not {wrong}:")), "{said}");
    wait(
        &b,
        "the puzzle back",
        "return document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 1",
    );
    assert!(b.eval("return !document.querySelector('#puzzle-solution').hidden") == true);
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
        "Solved: 1 · at the first try in a row: 0 · best run: 0"
    );
    b.click("#puzzle-next");
    wait(
        &b,
        "a new seed",
        "return /seed=\\d+/.test(location.hash) && !location.hash.includes('seed=3&')",
    );
    wait_text(&b, "#puzzle-goal", "to play and");
    // Puzzles of one theme.
    b.eval(
        "const s = document.querySelector('#puzzle-theme-choice'); s.value = 'save_draw'; \
         s.dispatchEvent(new Event('change'))",
    );
    wait(
        &b,
        "a theme in the address",
        "return location.hash.includes('theme=save_draw')",
    );
    wait_text(&b, "#puzzle-theme", "Save a draw");
    wait_text(&b, "#puzzle-goal", "to play and save a draw");
    // The puzzle of the day, in French.
    b.click("#puzzle-daily");
    wait_text(&b, "#puzzle-title", "Puzzle of the day");
    b.click("#btn-lang");
    wait_text(&b, "#puzzle-title", "Problème du jour");
    wait_text(&b, "#puzzle-goal", "joue et");
}

/// While a wrong move's answer is sown, "See the solution" is shown
/// disabled (a click then did nothing); once the answer has played, it
/// works.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_puzzle_solution_cannot_be_asked_for_nothing_while_an_answer_plays() {
    let (site, b) = start("puzzle-busy", "en-US,en", 1200, 900);
    let answer = open_puzzle(&site, &b)["answer"]
        .as_str()
        .unwrap()
        .to_string();
    let wrong = wrong_move(&b, &answer);
    // The button as it is each time the feedback changes.
    b.eval(
        "window.seen = []; \
         new MutationObserver(() => { \
           const s = document.querySelector('#puzzle-solution'); \
           window.seen.push([document.querySelector('#puzzle-feedback').textContent, s.hidden || s.disabled]); \
         }).observe(document.querySelector('#puzzle-feedback'), {childList: true, characterData: true, subtree: true});",
    );
    tap(&b, "#puzzle-board", &wrong);
    wait_text(&b, "#puzzle-feedback", "Try another move.");
    let seen = b.eval("return window.seen");
    let watching: Vec<&Value> = seen
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s[0].as_str().unwrap_or("").contains("Watch the answer."))
        .collect();
    assert!(!watching.is_empty(), "{seen}");
    assert!(
        watching.iter().all(|s| s[1] == json!(true)),
        "the button could be pressed while the answer played: {seen}"
    );
    wait(
        &b,
        "the button",
        "const s = document.querySelector('#puzzle-solution'); return !s.hidden && !s.disabled",
    );
    b.click("#puzzle-solution");
    wait_text(&b, "#puzzle-feedback", &format!("The solution: {answer}."));
}

/// The digits on the board: hole counts, store counts, what screen readers
/// are told of holes and stores.
fn board_digits(b: &Browser) -> String {
    b.string("const svg = document.querySelector('#board'); \
         const texts = [...svg.querySelectorAll('text')].map(e => e.textContent); \
         const labels = [...svg.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')); \
         return [...texts, ...labels].join(' ').replace(/[^0-9]/g, '')")
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_fast_game_without_counting_shows_numbers_only_at_the_end() {
    let (site, b) = start("nocount", "fr-FR,fr", 1200, 900);
    b.open_fresh(&site.page(""));
    b.wait_open("#dlg-new", 15);
    // Fast play: a short clock, one tap; without counting.
    b.eval("[...document.querySelectorAll('#clock-presets button')].find(b => b.textContent === '3 + 2').id = 'fast'");
    b.click("#fast");
    let clock = b.eval("const f = document.querySelector('#form-new'); return [f.clock.checked, f.minutes.value, f.increment.value]");
    assert_eq!(clock, json!([true, "3", "2"]));
    b.click("input[name=mode][value=humans] + span");
    b.click("#chk-nocount-new");
    b.click("#btn-start");
    wait(
        &b,
        "the game",
        "return document.querySelectorAll('#board .hole-hit.legal').length === 6",
    );
    assert_eq!(text(&b, "#player-bottom .clock"), "3:00");
    assert_eq!(board_digits(&b), "", "numbers on the board");
    // Seeds are still drawn: 4 in each hole.
    let seeds = b
        .eval("return document.querySelectorAll('#board .hole ellipse[rx=\"12\"][stroke]').length");
    assert_eq!(seeds, 48);
    tap(&b, "#board", "F");
    wait(&b, "North's turn", "return document.querySelectorAll(\"#board .hole-hit.legal[data-letter='a']\").length === 1");
    assert_eq!(board_digits(&b), "", "numbers on the board");
    screenshot(&b, "screenshot-no-count.png");
    tap(&b, "#board", "f");
    wait(&b, "South's turn", "return document.querySelectorAll(\"#board .hole-hit.legal[data-letter='A']\").length === 1");
    assert_eq!(board_digits(&b), "");
    // The result screen counts.
    b.click("#btn-resign");
    b.click("#resign-N");
    wait(
        &b,
        "the result",
        "return !!document.querySelector('#result')",
    );
    assert!(
        text(&b, "#status").contains("48"),
        "{}",
        text(&b, "#status")
    );
    assert_ne!(board_digits(&b), "");
    // The setting stays for the next game; the settings dialog shows it.
    b.click("#btn-settings");
    assert_eq!(
        b.eval("return document.querySelector('#chk-nocount').checked"),
        true
    );
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_analysis_board_opens_a_stored_game_position_and_shares_it() {
    let (site, b) = start("analysis", "en-US,en", 1200, 900);
    // A finished game: North plays its last seed, nobody can feed it.
    let record = "[Event \"Study\"]\n[FEN \"2-1-0-0-0-0-0-0-0-0-0-1-21-23-S\"]\n\n1. A f 1-0";
    let id = site.import(json!({ "record": record }));
    b.open_fresh(&site.page(&format!("#game={id}&ply=0")));
    wait(
        &b,
        "the replay",
        "return !document.querySelector('#replay-bar').hidden",
    );
    b.click("#btn-study");
    wait_text(&b, "#an-tree", "Start");
    assert!(b
        .string("return location.hash")
        .contains(&format!("game={id}")));
    // The game's moves are the main line; the board is at its start.
    let tree = b.eval(
        "return [...document.querySelectorAll('#an-tree .mv')].map(e => e.firstChild.textContent)",
    );
    assert_eq!(tree, json!(["Start", "A", "f"]));
    assert_eq!(text(&b, "#an-tree .mv.current"), "Start");
    // Engine lines and the database's value of every move (4 seeds: in it).
    wait(
        &b,
        "the analysis",
        "return document.querySelectorAll('#an-lines li').length > 0",
    );
    let db = b.eval("return [...document.querySelectorAll('#an-moves tr td:last-child')].map(e => e.textContent)");
    let db = db.as_array().unwrap();
    assert!(!db.is_empty());
    assert!(
        db.iter()
            .all(|v| v.as_str().is_some_and(|s| s != "—" && !s.is_empty())),
        "{db:?}"
    );
    assert!(
        text(&b, "#an-status").starts_with("Endgame database: with perfect play,"),
        "{}",
        text(&b, "#an-status")
    );
    // Nothing captured since the start: the database decides the position,
    // and the engine's first line is its move, with its result at the end
    // (issue 21.5: the engine and the database never disagree unsaid).
    let first = b.eval(
        "const l = document.querySelector('#an-lines li');          const row = [...document.querySelectorAll('#an-moves tr')].find(r => r.cells[0].textContent === l.querySelector('b').textContent);          return [l.querySelector('.score').textContent, row.cells[1].textContent, row.cells[2].textContent, row.cells[2].title]",
    );
    let [line, engine, db, db_words] =
        [0, 1, 2, 3].map(|i| first[i].as_str().unwrap_or("").to_string());
    // A result at the end, or a forced win the search found, which keeps
    // its distance.
    assert!(
        line.contains(" wins by ") || line.contains(" wins in ") || line == "a draw",
        "{first}"
    );
    assert_eq!(line, engine, "{first}");
    assert!(!db.contains(" to "), "{first}");
    let winner = line.split(" wins ").next().unwrap_or_default();
    assert!(
        db_words == format!("with perfect play, {line}")
            || db_words.starts_with(&format!("with perfect play, {winner} wins by ")),
        "{first}"
    );
    // A variation: another move than the game's.
    let other = b
        .eval("return [...document.querySelectorAll('#analysis-board .hole-hit.legal')].map(h => h.dataset.letter).find(l => l !== 'A')")
        .as_str()
        .expect("another move")
        .to_string();
    tap(&b, "#analysis-board", &other);
    wait(
        &b,
        "the variation",
        "return !!document.querySelector('#an-tree .variation .mv.current')",
    );
    let hash = b.string("return location.hash");
    assert!(hash.contains(&format!("moves={other}")), "{hash}");
    screenshot(&b, "screenshot-analysis.png");
    // Shared: the address opens the same position in another browser.
    b.click("#an-share");
    let link = b.string("return document.querySelector('#an-link').value");
    assert!(link.ends_with(&hash), "{link} {hash}");
    let c = Browser::start("analysis-shared", "fr-FR,fr", 1200, 900);
    c.open_fresh(&link);
    wait(
        &c,
        "the shared position",
        "return !!document.querySelector('#an-tree .mv.current')",
    );
    assert_eq!(text(&c, "#an-tree .mv.current"), other);
    assert_eq!(
        c.eval("return [...document.querySelectorAll('#an-tree .mv')].map(e => e.firstChild.textContent)"),
        json!(["Début", other])
    );
    // The editor: a position of one's own, its seed total shown.
    c.click("#an-edit");
    c.click("#an-empty");
    c.eval("const f = document.querySelector('#an-editor'); f.A.value = 1; f.f.value = 2; f.store_S.value = 20; \
         f.store_N.value = 26; f.to_move.value = 'S'; f.dispatchEvent(new Event('input'))");
    wait_text(&c, "#an-total", "1 de trop");
    assert_eq!(
        c.eval("return document.querySelector('#an-apply').disabled"),
        true
    );
    c.eval("const f = document.querySelector('#an-editor'); f.store_N.value = 25; f.dispatchEvent(new Event('input'))");
    wait_text(&c, "#an-total", "48 graines en tout");
    c.click("#an-apply");
    wait(
        &c,
        "the new position",
        "return location.hash.includes('position=1-0-0-0-0-0-0-0-0-0-0-2-20-25-S')",
    );
    wait_text(&c, "#an-status", "Base de finales");
}

/// Issue 40: a player loses a game to the computer after a known blunder
/// (E, where F wins by 8 seeds: the databases decide), opens "learn from
/// your mistakes" from the review, is shown the position before it,
/// plays the better move and is told it is right; the better line is
/// played out, and the mistake is in their list, solved once.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_blunder_against_the_computer_comes_back_as_a_puzzle_of_the_players_list() {
    let (site, b) = start("mistakes", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#rules"));
    let made = page_fetch(
        &b,
        "POST",
        "/api/games",
        json!({"mode": "computer", "level": 1, "human": "S",
               "position": "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"}),
    );
    assert_eq!(made["status"], 201, "{made}");
    let id = made["body"]["id"].as_str().expect("a game id").to_string();
    let played = page_fetch(
        &b,
        "POST",
        &format!("/api/games/{id}/moves"),
        json!({"move": "E", "ply": 0}),
    );
    assert_eq!(played["status"], 200, "{played}");
    // The computer answers; then the player gives up.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let game = page_fetch(&b, "GET", &format!("/api/games/{id}"), Value::Null);
        if game["body"]["plies"]
            .as_array()
            .is_some_and(|p| p.len() >= 2)
        {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no answer: {game}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let resigned = page_fetch(&b, "POST", &format!("/api/games/{id}/resign"), json!({}));
    assert_eq!(resigned["status"], 200, "{resigned}");
    // The review, from the game's page; its button for the player's own
    // mistakes.
    b.open_fresh(&site.page(&format!("#game={id}&review")));
    wait(
        &b,
        "the learn button",
        "return !document.querySelector('#btn-learn-mistakes').hidden",
    );
    // Issue 40: the review's table says of each move's cost whether it
    // is exact (the databases decide both moves) or estimated, as the
    // stored review says.
    let cost = wait_text(&b, "#mistakes tbody tr td:nth-child(4)", ")");
    let stored = page_fetch(&b, "GET", &format!("/api/games/{id}/review"), Value::Null);
    let row = stored["body"]["plies"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["ply"] == 0))
        .unwrap_or_else(|| panic!("the review's first move: {stored}"))
        .clone();
    let said = if row["exact"] == json!(true) {
        "(exact)"
    } else {
        "(estimated)"
    };
    assert!(cost.ends_with(said), "{cost} for {row}");
    b.click("#btn-learn-mistakes");
    let task = wait_text(&b, "#mistake-task", "you played E here");
    assert_eq!(
        task,
        "South to move. In your game you played E here. Find a better move."
    );
    assert!(b.string("return location.hash").starts_with("#mistakes"));
    // The position before the blunder, on the board.
    wait_legal(&b, "the position", "#mistake-board", "F");
    // The blunder again is not the answer.
    tap(&b, "#mistake-board", "E");
    // Its value here is the engine's estimate (the databases bound it
    // only): the margin is said.
    let said = wait_text(&b, "#mistake-feedback", "Not E");
    assert!(said.contains("a move within 2 seeds of the best"), "{said}");
    wait_legal(&b, "the board back", "#mistake-board", "F");
    tap(&b, "#mistake-board", "F");
    let said = wait_text(&b, "#mistake-feedback", "Right! F is a better move");
    assert!(said.contains("South wins by 8"), "{said}");
    assert!(said.contains("exact values"), "{said}");
    wait_text(&b, "#mistake-feedback", "The better line: F");
    // Said in words, move by move, as the game view says its moves.
    let said = wait_text(&b, "#mistake-said", "You play F");
    assert!(said.contains("North plays f"), "{said}");
    // In the player's list, solved once of twice; kept by the server.
    wait_text(&b, "#mistake-list", "Solved 1 time of 2");
    let list = page_fetch(&b, "GET", "/api/study/mistakes", Value::Null);
    let mistakes = list["body"]["mistakes"].as_array().expect("a list").clone();
    assert_eq!(mistakes.len(), 1, "{list}");
    assert_eq!(mistakes[0]["game"], json!(id));
    assert_eq!(mistakes[0]["played"], "E");
    assert_eq!(mistakes[0]["position"], "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S");
    assert_eq!(
        (mistakes[0]["solved"].clone(), mistakes[0]["tries"].clone()),
        (json!(1), json!(2))
    );
    // The view is accessible, and in French too.
    let violations = b.axe_violations();
    assert!(violations.is_empty(), "{violations:?}");
    b.click("#btn-lang");
    wait_text(&b, "#mistake-task", "Dans ta partie, tu as joué E ici");
}

/// A move that loses at once is the other side's win on the page: its
/// score (a forced result at ply 0) once said the mover won.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_move_that_loses_at_once_is_worded_the_other_sides_win() {
    // South's one move F leaves North its 27 seeds: North has won. No
    // database: the engine's score alone.
    let site = Site::start("lost-at-once");
    let b = Browser::start("lost-at-once", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#analysis&position=0-0-0-0-0-1-0-0-0-0-0-0-20-27-S&rules=awale"));
    let engine = "#an-moves tr:nth-child(2) td:nth-child(2)";
    assert_eq!(wait_text(&b, engine, " wins"), "North wins at once");
    assert_eq!(text(&b, "#an-lines li .score"), "North wins at once");
    b.click("#btn-lang");
    assert_eq!(wait_text(&b, engine, " gagne"), "Nord gagne aussitôt");
}

/// What a screen reader is told of the board `svg`'s holes and stores.
fn board_labels(b: &Browser, svg: &str) -> Vec<String> {
    b.exec(
        "return [...document.querySelectorAll(arguments[0] + ' [aria-label]')].map(e => e.getAttribute('aria-label'))",
        json!([svg]),
    )
    .as_array()
    .expect("the labels")
    .iter()
    .map(|l| l.as_str().unwrap_or("").replace(['\u{202f}', '\u{a0}'], " "))
    .collect()
}

/// Checks that nothing of `what` overflows a phone's screen, and that no
/// text is too small to read or breaks French typography.
fn fits_phone(b: &Browser, what: &str) {
    let problems = b.strings("const w = window.innerWidth;
         const bad = [];
         if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth);
         for (const e of document.querySelectorAll('main *')) {
           const r = e.getBoundingClientRect();
           if (r.width && e.offsetParent !== null && r.right > w + 1 && !e.closest('.edit-rows'))
             bad.push((e.id || e.className.baseVal || e.className || e.tagName) + ' ' + Math.round(r.right));
         }
         for (const e of document.querySelectorAll('main svg text')) {
           const r = e.getBoundingClientRect();
           if (r.height && r.height < 11) bad.push('small text ' + e.textContent + ' ' + r.height.toFixed(1));
         }
         const text = document.querySelector('main').innerText;
         for (const m of text.matchAll(/.{0,20} [:;!?].{0,10}/g)) bad.push('plain space: ' + m[0]);
         return bad;");
    assert!(problems.is_empty(), "{what}: {problems:?}");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_learn_pages_fit_a_phone_in_french() {
    let (site, b) = start("learn-phone", "fr-FR,fr", 390, 844);
    open_lessons(&b, &site);
    fits_phone(&b, "the list of lessons");
    b.click(".lesson-card[data-lesson='sow']");
    wait_text(&b, "#lesson-task", "Tu joues en bas");
    // A wrong try: the last seed stays at home.
    b.goto(&site.page("#lesson=sow&step=2"));
    wait_text(&b, "#lesson-task", "dernière graine");
    wait_legal(&b, "the step's position", "#lesson-board", "E");
    // The board speaks to the learner as the lesson does, with "tu"
    // (issue 42: "votre grenier" on a lesson saying "ton grenier").
    let labels = board_labels(&b, "#lesson-board");
    assert!(
        labels.iter().any(|l| l == "ton grenier : 6 graines"),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l == "ton trou E, 3 graines"),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l == "trou b de Nord, 4 graines"),
        "{labels:?}"
    );
    assert!(!labels.iter().any(|l| l.contains("votre")), "{labels:?}");
    tap(&b, "#lesson-board", "A");
    let said = wait_text(&b, "#lesson-feedback", "Essaie encore");
    // Issue 42: on a phone, the right hole tapped while the wrong try
    // still shows (its position, no hole lit to play) is played, without
    // "Recommencer".
    assert_eq!(
        b.eval(&legal_hole("#lesson-board", "E")),
        json!(false),
        "the wrong try is shown"
    );
    tap(&b, "#lesson-board", "E");
    let praised = wait_text(&b, "#lesson-feedback", "Bravo");
    assert_eq!(praised.matches("Bravo").count(), 1, "{praised}");
    assert!(said.contains("tombée en E"), "{said}");
    // The task stays above; the feedback does not say it again (issue 42).
    assert!(!said.contains("dans le trou b"), "the task again: {said}");
    fits_phone(&b, "a lesson");
    screenshot(&b, "screenshot-lesson-phone.png");
    b.click("#tab-puzzles");
    wait_text(&b, "#puzzle-goal", "joue et");
    fits_phone(&b, "a puzzle");
    // The puzzle's board too: the solver's holes are "ton trou".
    wait(
        &b,
        "the puzzle's board",
        "return document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0",
    );
    let labels = board_labels(&b, "#puzzle-board");
    assert!(
        labels.iter().any(|l| l.starts_with("ton grenier : ")),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l.starts_with("ton trou ")),
        "{labels:?}"
    );
    assert!(!labels.iter().any(|l| l.contains("votre")), "{labels:?}");
    b.click("#tab-analysis");
    wait(
        &b,
        "the analysis",
        "return document.querySelectorAll('#an-lines li').length > 0",
    );
    fits_phone(&b, "the analysis board");
    b.click("#an-edit");
    fits_phone(&b, "the editor");
}

/// Issue 40: a server still building its databases (a fresh folder) says
/// how far on the Learn page, in a polite live region (role status), and
/// the puzzle comes as soon as the first levels do; axe finds nothing
/// there.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_server_building_its_databases_says_how_far_and_the_puzzle_comes() {
    let folder = temp_dir("building-db-folder");
    let folder = folder.to_str().expect("a UTF-8 path");
    let site = Site::start_with("building-db", &["--db", folder, "--db-levels", "20"]);
    let b = Browser::start("building-db", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#puzzles"));
    let said = wait_text(&b, "#db-progress", "Perfect play and puzzles: levels up to");
    assert!(said.contains("of 20 ready"), "{said}");
    assert_eq!(
        b.eval("return document.querySelector('#db-progress').getAttribute('role')"),
        json!("status")
    );
    wait(
        &b,
        "the puzzle",
        "return !document.querySelector('#puzzle-main').hidden",
    );
    let violations = b.axe_violations();
    assert!(violations.is_empty(), "{violations:?}");
}

/// The puzzle of the streak the page shows, as the server chose it (the
/// same seed for the same player at the same step gives the same one).
fn streak_puzzle(b: &Browser) -> Value {
    wait(
        b,
        "a streak's puzzle",
        "return /streak=1/.test(location.hash) && /seed=\\d+/.test(location.hash) \
         && document.querySelector('#puzzle-title').textContent === 'Puzzle streak' \
         && document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 1",
    );
    let seed = b.string("return location.hash.match(/seed=(\\d+)/)[1]");
    let next = page_fetch(
        b,
        "GET",
        &format!("/api/study/puzzles/next?seed={seed}&streak=true"),
        Value::Null,
    );
    assert_eq!(next["status"], 200, "{next}");
    next["body"]["puzzle"].clone()
}

/// Issue 40: a streak of puzzles, by the page: solved at the first try it
/// goes on ("Streak: 1"), the first miss ends it and says the best; the
/// moves are said in words in the view's log; the best streak on the
/// player's page once they sign up (a guest's puzzles go with them).
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_puzzle_streak_goes_on_until_the_first_miss_and_its_best_is_on_the_players_page() {
    let (site, b) = start("streak", "en-US,en", 1200, 900);
    b.open_fresh(&site.page("#puzzles"));
    wait_text(&b, "#puzzle-goal", "to play and");
    b.click("#puzzle-streak");
    let p = streak_puzzle(&b);
    let answer = p["answer"].as_str().unwrap().to_string();
    tap(&b, "#puzzle-board", &answer);
    let said = wait_text(&b, "#puzzle-feedback", "Streak: 1");
    assert!(said.contains("Your puzzle rating:"), "{said}");
    // The line said in words, as the game view says its moves.
    let log = wait_text(&b, "#puzzle-said", &answer);
    assert!(!log.is_empty());
    assert_eq!(text(&b, "#puzzle-next"), "Next in the streak");
    let before = b.string("return location.hash");
    b.click("#puzzle-next");
    wait(
        &b,
        "the next of the streak",
        &format!("return location.hash !== {before:?}"),
    );
    let p = streak_puzzle(&b);
    let wrong = wrong_move(&b, p["answer"].as_str().unwrap());
    tap(&b, "#puzzle-board", &wrong);
    wait_text(
        &b,
        "#puzzle-feedback",
        "The streak is over. Your best streak: 1.",
    );
    wait_text(&b, "#puzzle-rating", "best streak: 1");
    sign_up(&b, "Abena");
    b.open_fresh(&site.page("#player=Abena"));
    wait_text(&b, "#player-puzzles", "best puzzle streak: 1");
    assert!(text(&b, "#player-puzzles").contains("2 puzzles tried"));
    wait_text(&b, "#player-accuracy", "No reviewed game yet");
    // Issue 40: her accuracy by speed, a number, once she has a reviewed
    // online game: a blitz game against a guest, her blunder E (F wins by
    // 8 seeds) then North's a, and she resigns.
    let made = page_fetch(
        &b,
        "POST",
        "/api/games",
        json!({"mode": "online", "human": "S", "public": true, "clock": {"minutes": 5},
               "position": "0-0-0-0-1-2-1-1-0-0-0-3-20-20-S"}),
    );
    assert_eq!(made["status"], 201, "{made}");
    let id = made["body"]["id"].as_str().expect("a game id").to_string();
    let kofi = format!("awale_player={}", test_guest(42));
    let join = format!("/api/games/{id}/join");
    let (status, joined, _) = request_as(&site, "POST", &join, &kofi, json!({"name": "Kofi"}));
    assert_eq!(status, 200, "{joined}");
    let moves = format!("/api/games/{id}/moves");
    let played = page_fetch(&b, "POST", &moves, json!({"move": "E", "ply": 0}));
    assert_eq!(played["status"], 200, "{played}");
    let (status, played, _) =
        request_as(&site, "POST", &moves, &kofi, json!({"move": "a", "ply": 1}));
    assert_eq!(status, 200, "{played}");
    page_post_ok(&b, &format!("/api/games/{id}/resign"));
    let review = page_fetch(&b, "POST", &format!("/api/games/{id}/review"), json!({}));
    assert_eq!(review["status"], 200, "{review}");
    let accuracy = review["body"]["accuracy"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["side"] == "S"))
        .and_then(|a| a["accuracy"].as_f64())
        .unwrap_or_else(|| panic!("South's accuracy: {review}"));
    assert!(accuracy < 100.0, "the blunder costs: {review}");
    b.open_fresh(&site.page("#player=Abena"));
    let said = wait_text(&b, "#player-accuracy", "Blitz: accuracy");
    assert_eq!(
        said,
        format!("Blitz: accuracy {accuracy} (over 1 reviewed game)")
    );
}

/// Issue 40: a finished game's end shows each side's accuracy once its
/// review is done, and again when the game is opened later (the stored
/// review).
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_end_of_a_reviewed_game_shows_each_sides_accuracy() {
    let (site, b) = start("end-accuracy", "en-US,en", 1200, 900);
    let record = "[Event \"Study\"]\n[FEN \"2-1-0-0-0-0-0-0-0-0-0-1-21-23-S\"]\n\n1. A f 1-0";
    let id = site.import(json!({ "record": record }));
    b.open_fresh(&site.page(&format!("#game={id}")));
    b.find("#result-review");
    assert_eq!(text(&b, "#result-accuracy"), "");
    b.click("#result-review");
    let said = wait_text(&b, "#result-accuracy", "Accuracy:");
    assert!(said.contains("South") && said.contains("of 100"), "{said}");
    b.open_fresh(&site.page(&format!("#game={id}")));
    wait_text(&b, "#result-accuracy", "Accuracy:");
}
