//! The browser game end to end: the real `awale serve` process, a real
//! headless Chromium driven through chromedriver, a person's clicks and
//! keys. Chromium and chromedriver are installed by `scripts/test.sh`.
//!
//! With `AWALE_SCREENSHOTS=1` the screenshots go to `docs/` (those shown in
//! the README); otherwise to a temporary directory.

mod webdriver;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use serde_json::{json, Value};
use webdriver::{browser_installed, start_server, temp_dir, Browser};

/// One browser at a time: the machine has two cores.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> Option<MutexGuard<'static, ()>> {
    if std::env::var_os("AWALE_SKIP_BROWSER").is_some() {
        eprintln!("AWALE_SKIP_BROWSER is set: browser test skipped");
        return None;
    }
    assert!(
        browser_installed(),
        "the browser tests need /usr/bin/chromium and chromedriver: run `bash scripts/test.sh`, which installs them"
    );
    Some(
        SERIAL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

fn screenshot_path(name: &str) -> PathBuf {
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name)
    } else {
        temp_dir("shots").join(name)
    }
}

/// Opens the page with quick animations and no sound.
fn open(b: &Browser, url: &str) {
    b.goto(url);
    b.exec(
        "localStorage.setItem('awale.speed', '40'); localStorage.setItem('awale.sound', 'off');",
        json!([]),
    );
    b.goto(url);
}

fn moves(b: &Browser) -> Vec<String> {
    let v = b.exec(
        "return [...document.querySelectorAll('#move-list .mv')].map(e => e.firstChild.textContent)",
        json!([]),
    );
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn wait_moves(b: &Browser, n: usize) {
    b.wait_for(
        &format!("{n} moves in the list"),
        &format!("return document.querySelectorAll('#move-list .mv').length === {n}"),
        30,
    );
}

/// Waits until the person can play (legal holes lit) or the game is over.
fn wait_for_person(b: &Browser) {
    b.wait_for(
        "the person's turn",
        "return document.querySelectorAll('.hole-hit.legal').length > 0 || !!document.querySelector('#result')",
        30,
    );
}

fn first_legal(b: &Browser) -> Option<String> {
    b.exec(
        "const h = document.querySelector('.hole-hit.legal'); return h ? h.dataset.letter : null",
        json!([]),
    )
    .as_str()
    .map(str::to_string)
}

fn count(b: &Browser, letter: char) -> String {
    b.text(&format!("[data-count='{letter}']"))
}

#[test]
fn a_game_against_the_computer_played_by_clicking() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("play");
    let (_server, url) = start_server(&data);
    let b = Browser::start("play", "en-US,en", 1280, 1500);
    open(&b, &url);

    // No stored game yet: the new game dialog opens by itself.
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    assert_eq!(b.text("#dlg-new h2"), "New game");
    b.click("#sel-level option[value='2']");
    b.resize(1280, 800);
    b.screenshot(&screenshot_path("screenshot-new-game.png"));
    b.click("#btn-start");
    wait_for_person(&b);

    // A click on hole C plays it, and the computer answers.
    b.click(".hole-hit.legal[data-letter='C']");
    wait_moves(&b, 2);
    wait_for_person(&b);
    let played = moves(&b);
    assert_eq!(played[0], "C");
    assert!(
        played[1].chars().all(|c| c.is_ascii_lowercase()),
        "{played:?}"
    );
    assert_eq!(b.text("#status"), "Your move");

    // The keyboard plays too: the letter of a legal hole.
    let letter = first_legal(&b).expect("a legal hole");
    b.keys(&letter.to_lowercase());
    wait_moves(&b, 4);
    wait_for_person(&b);

    // Undo takes back the person's move and the computer's answer.
    b.click("#btn-undo");
    wait_moves(&b, 2);
    assert_eq!(moves(&b), played);

    // A hint names a legal move.
    b.click("#btn-hint");
    b.wait_for(
        "the hint",
        "return !document.querySelector('#hint-box').hidden",
        20,
    );
    let hint = b.text("#hint-box");
    let legal = b.exec(
        "return [...document.querySelectorAll('.hole-hit.legal')].map(h => h.dataset.letter).join('')",
        json!([]),
    );
    let named = hint
        .strip_prefix("Hint: play ")
        .and_then(|h| h.chars().next());
    assert!(
        named.is_some_and(|c| legal.as_str().unwrap_or("").contains(c)),
        "{hint} / {legal}"
    );

    // The language switch, kept across a reload, which finds the game.
    b.click("#btn-lang");
    b.wait_for("French", "return document.documentElement.lang === 'fr'", 5);
    assert_eq!(b.text("#btn-new"), "Nouvelle partie");
    assert_eq!(b.text("#status"), "À vous de jouer");
    b.goto(&url);
    wait_moves(&b, 2);
    assert_eq!(moves(&b), played);
    assert_eq!(b.text("#btn-new"), "Nouvelle partie");
    b.click("#btn-lang");
    b.wait_for(
        "English",
        "return document.documentElement.lang === 'en'",
        5,
    );

    // A few more moves, then the board and the review.
    for _ in 0..5 {
        wait_for_person(&b);
        let Some(letter) = first_legal(&b) else { break };
        let before = moves(&b).len();
        b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
        b.wait_for(
            "the computer's answer",
            &format!(
                "return document.querySelectorAll('#move-list .mv').length >= {} || !!document.querySelector('#result')",
                before + 2
            ),
            30,
        );
    }
    wait_for_person(&b);
    b.resize(1280, 760);
    b.exec(
        "window.scrollTo(0, 0); document.activeElement.blur()",
        json!([]),
    );
    b.screenshot(&screenshot_path("screenshot-board.png"));
    b.resize(1280, 1500);
    let total = moves(&b).len();
    b.click("#btn-review");
    b.wait_for(
        "the evaluation plot",
        &format!("return document.querySelectorAll('#plot .plot-dot').length === {total}"),
        60,
    );
    assert!(b
        .text("#review-status")
        .contains(&format!("{total} moves reviewed")));
    b.exec(
        "document.querySelector('#review').scrollIntoView({block: 'start'})",
        json!([]),
    );
    b.screenshot(&screenshot_path("screenshot-review.png"));
}

#[test]
fn french_by_default_for_a_french_browser_and_two_people_on_a_phone() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("phone");
    let (_server, url) = start_server(&data);
    let b = Browser::start("phone", "fr-FR,fr", 400, 860);
    open(&b, &url);
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    assert_eq!(b.text("#btn-start"), "Commencer");
    b.click("input[name=mode][value=humans] + span");
    b.click("#btn-start");
    wait_for_person(&b);
    assert_eq!(b.text("#status"), "Au tour de Sud");
    // The board fits the phone's width: nothing to scroll sideways.
    let fits = b.exec(
        "return [document.querySelector('#board').getBoundingClientRect().right, window.innerWidth, document.documentElement.scrollWidth]",
        json!([]),
    );
    let [right, inner, scroll] = [0, 1, 2].map(|i| fits[i].as_f64().unwrap_or(f64::MAX));
    assert!(right <= inner && scroll <= inner, "{fits}");
    b.click(".hole-hit.legal[data-letter='F']");
    wait_moves(&b, 1);
    wait_for_person(&b);
    assert_eq!(b.text("#status"), "Au tour de Nord");
    // North's holes are the ones lit now.
    let lit = b.exec(
        "return [...document.querySelectorAll('.hole-hit.legal')].map(h => h.dataset.letter).join('')",
        json!([]),
    );
    assert_eq!(lit, "abcdef");
    b.click(".hole-hit.legal[data-letter='b']");
    wait_moves(&b, 2);
    b.screenshot(&screenshot_path("screenshot-phone.png"));
    // The rules page, in French, with its pictures.
    b.click("#btn-rules");
    assert_eq!(b.text("#rules-text h2"), "Les règles de l'awalé");
    let figures = b.exec(
        "return document.querySelectorAll('#rules-text figure svg').length",
        json!([]),
    );
    assert_eq!(figures, json!(4));
    b.click("#btn-lang");
    assert_eq!(b.text("#rules-text h2"), "The rules of Awalé");
}

#[test]
fn a_game_loaded_from_a_record_is_finished_and_its_result_shown() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("finish");
    let (_server, url) = start_server(&data);
    let b = Browser::start("finish", "en-US,en", 1280, 900);
    open(&b, &url);
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    b.click("#dlg-new button[value=cancel]");
    b.click("#btn-games");

    // A bad file gets a clear error.
    b.click("#view-games summary");
    b.exec(
        "document.querySelector('#import-text').value = arguments[0]",
        json!(["1. F f 2. F"]),
    );
    b.click("#import-go");
    b.wait_for(
        "the import error",
        "return !document.querySelector('#import-error').hidden",
        10,
    );
    let error = b.text("#import-error");
    assert!(error.contains("ply 3"), "{error}");

    // South's last seed feeds North, who cannot feed back: the game ends.
    let record = "[Event \"Endgame\"]\n[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-20-27-S\"]\n\n*\n";
    b.exec(
        "document.querySelector('#import-text').value = arguments[0]",
        json!([record]),
    );
    b.click("#import-go");
    wait_for_person(&b);
    assert_eq!(count(&b, 'F'), "1");
    b.click(".hole-hit.legal[data-letter='F']");
    b.wait_for(
        "the result",
        "return !!document.querySelector('#result')",
        20,
    );
    assert_eq!(b.text("#result"), "North wins!");
    let status = b.text("#status");
    assert!(status.contains("20 – 28"), "{status}");
    assert!(status.contains("could not be fed"), "{status}");
    // The seed left went to North's store, as the rules give it.
    b.wait_for(
        "North's store to hold 28",
        "return document.querySelector(\"[data-store='N']\").textContent === '28'",
        10,
    );
    assert_eq!(count(&b, 'a'), "0");
    assert_eq!(
        b.exec(
            "return document.querySelectorAll('.hole-hit.legal').length",
            json!([])
        ),
        json!(0)
    );
}

#[test]
fn a_stored_game_is_replayed_move_by_move() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("replay");
    let (_server, url) = start_server(&data);
    let b = Browser::start("replay", "en-US,en", 1280, 900);
    open(&b, &url);
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    b.click("#dlg-new button[value=cancel]");
    b.click("#btn-games");
    b.click("#view-games summary");
    b.exec(
        "document.querySelector('#import-text').value = arguments[0]",
        json!(["[Event \"Replay\"]\n\n1. F f 2. A a 3. C *\n"]),
    );
    b.click("#import-go");
    wait_moves(&b, 5);

    // From the list of games, replay it.
    b.click("#btn-games");
    b.click("#games-table tbody tr .watch");
    b.wait_for(
        "the replay bar",
        "return !document.querySelector('#replay-bar').hidden",
        10,
    );
    assert_eq!(b.text("#replay-label"), "start position");
    assert_eq!(count(&b, 'F'), "4");
    b.click("#rp-next");
    assert_eq!(b.text("#replay-label"), "Replay: move 1 of 5");
    assert_eq!(count(&b, 'F'), "0");
    assert_eq!(count(&b, 'a'), "5");
    b.click("#rp-next");
    assert_eq!(count(&b, 'f'), "0");
    assert_eq!(count(&b, 'A'), "5");
    b.click("#rp-last");
    assert_eq!(b.text("#replay-label"), "Replay: move 5 of 5");
    assert_eq!(count(&b, 'C'), "0");
    b.click("#rp-prev");
    assert_eq!(count(&b, 'C'), "6"); // 4, +1 from f, +1 from A

    // No move can be played while replaying.
    assert_eq!(
        b.exec(
            "return document.querySelectorAll('.hole-hit.legal').length",
            json!([])
        ),
        json!(0)
    );
    b.click("#rp-exit");
    wait_for_person(&b);
    assert_eq!(count(&b, 'C'), "0");
}

#[test]
fn a_killed_server_restarts_and_the_game_goes_on_with_every_move() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("restart");
    let (server, url) = start_server(&data);
    let b = Browser::start("restart", "en-US,en", 1280, 900);
    open(&b, &url);
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    b.click("#sel-level option[value='1']");
    b.click("#btn-start");
    wait_for_person(&b);
    for letter in ["A", "B"] {
        let before = moves(&b).len();
        wait_for_person(&b);
        let target = if b
            .exec(
                &format!(
                    "return !!document.querySelector(\".hole-hit.legal[data-letter='{letter}']\")"
                ),
                json!([]),
            )
            .as_bool()
            == Some(true)
        {
            letter.to_string()
        } else {
            first_legal(&b).expect("a legal hole")
        };
        b.click(&format!(".hole-hit.legal[data-letter='{target}']"));
        wait_moves(&b, before + 2);
    }
    wait_for_person(&b);
    let played = moves(&b);
    assert_eq!(played.len(), 4);

    // Kill the server mid-game (no clean shutdown), start it again.
    drop(server);
    let (_server, url) = start_server(&data);
    b.goto(&url);
    wait_moves(&b, 4);
    assert_eq!(moves(&b), played);
    wait_for_person(&b);
    let letter = first_legal(&b).expect("a legal hole");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    wait_moves(&b, 6);
}

#[test]
fn a_clockwise_board_is_drawn_as_the_mirror_image_and_can_be_turned() {
    let Some(_serial) = serial() else { return };
    let data = temp_dir("mirror");
    let (_server, url) = start_server(&data);
    let b = Browser::start("mirror", "en-US,en", 1280, 900);
    open(&b, &url);
    b.wait_for(
        "the new game dialog",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    b.click("input[name=mode][value=humans] + span");
    b.click("#form-new details summary");
    b.click("select[name=direction] option[value=clockwise]");
    b.click("#btn-start");
    wait_for_person(&b);
    let centre = |letter: char| -> (f64, f64) {
        let v = b.exec(
            "const c = document.querySelector(`.hole-hit[data-letter='${arguments[0]}']`); \
             return [+c.getAttribute('cx'), +c.getAttribute('cy')]",
            json!([letter.to_string()]),
        );
        (
            v[0].as_f64().unwrap_or(f64::NAN),
            v[1].as_f64().unwrap_or(f64::NAN),
        )
    };
    // Clockwise: South's A on the right, North's a on its left, above.
    let (a_south, f_south, a_north) = (centre('A'), centre('F'), centre('a'));
    assert!(a_south.0 > f_south.0, "{a_south:?} {f_south:?}");
    assert!(
        a_north.1 < a_south.1 && a_north.0 < a_south.0,
        "{a_north:?} {a_south:?}"
    );
    // Sowing from F goes on into a: F's seeds land on the left then up.
    b.click(".hole-hit.legal[data-letter='F']");
    wait_moves(&b, 1);
    assert_eq!(count(&b, 'a'), "5");
    // Turned half a turn: North at the bottom, South's A on the left.
    b.click("#btn-flip");
    let (a_south, a_north) = (centre('A'), centre('a'));
    assert!(a_south.1 < a_north.1, "{a_south:?} {a_north:?}");
    assert!(a_south.0 < centre('F').0);
    assert_eq!(b.text("#player-bottom .who"), "North");
}
