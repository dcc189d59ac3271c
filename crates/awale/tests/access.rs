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

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::{json, Value};
use webdriver::{game_id, keys, ladder_game, temp_dir, Browser, Site, DESKTOP};

/// Where a screenshot to look at by eye goes (a temporary directory).
fn shot(name: &str) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| temp_dir("access-shots")).join(name)
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

/// Waits until the dialog `#dlg-{name}` is open.
fn wait_dialog(b: &Browser, name: &str) {
    b.wait_open(&format!("#dlg-{name}"), 30);
}

/// A view of the page reached by its address: its name, and the script
/// that is true once it is drawn.
struct View {
    hash: &'static str,
    name: &'static str,
    ready: &'static str,
}

const GAMES: View = View {
    hash: "#games",
    name: "games",
    ready: "document.querySelectorAll('.game-card').length > 0",
};
const RULES: View = View {
    hash: "#rules",
    name: "rules",
    ready: "!!document.querySelector('#rules-text figure svg')",
};
const LESSONS: View = View {
    hash: "#learn",
    name: "lessons",
    ready: "document.querySelectorAll('.lesson-card').length > 0",
};

/// Goes to `view` and waits until it is drawn.
fn visit(b: &Browser, view: &View) {
    go(b, view.hash);
    wait(b, view.name, &format!("return {}", view.ready));
}

/// What axe-core finds on the page now, each line headed by `view`.
fn check(b: &Browser, view: &str, found: &mut Vec<String>) {
    for v in b.axe_violations() {
        found.push(format!("[{view}] {v}"));
    }
    // Each view is headed by one h1 (a screen reader's first landmark),
    // and no timer is left empty (a game without a clock has none).
    let h1 = b.strings(
        "return [...document.querySelectorAll('main h1')].filter((h) => !h.closest('[hidden]')).map((h) => h.textContent)",
    );
    if h1.len() != 1 || h1[0].trim().is_empty() {
        found.push(format!("[{view}] headings h1: {h1:?}, not one"));
    }
    let timers = b.eval(
        "return [...document.querySelectorAll('[role=timer]')].filter((e) => !e.closest('[hidden]') && !e.closest('[aria-hidden=true]') && !e.textContent.trim()).length",
    );
    if timers != json!(0) {
        found.push(format!("[{view}] {timers} empty timers"));
    }
}

/// Every view of the page, one after the other, in `lang`: what axe-core
/// finds on each.
fn tour(site: &Site, b: &Browser, bob: &Browser, lang: &str) -> Vec<String> {
    let mut found = Vec::new();
    let v = |name: &str| format!("{lang} {name}");
    open(b, &site.url, lang);
    // The first visit: the new game dialog opens by itself (or the lobby
    // when others play online, or a game going on).
    wait(
        b,
        "the new game dialog, the lobby or a game",
        "return document.querySelector('#dlg-new').open || !document.querySelector('#view-lobby').hidden \
         || location.hash.startsWith('#game=')",
    );
    if b.eval("return document.querySelector('#dlg-new').open") != json!(true) {
        b.click("#btn-new");
        wait_dialog(b, "new");
    }
    check(b, &v("new game dialog"), &mut found);
    b.click("#btn-start");
    wait(
        b,
        "a game",
        "return document.querySelectorAll('.hole-hit.legal').length > 0",
    );
    let letter = b.string("return document.querySelector('.hole-hit.legal').dataset.letter");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    wait(b, "the computer's answer", "return document.querySelectorAll('#move-list .mv').length >= 2 && document.querySelectorAll('.hole-hit.legal').length > 0");
    check(b, &v("play"), &mut found);
    b.click("#btn-settings");
    wait_dialog(b, "settings");
    check(b, &v("settings"), &mut found);
    // The high-contrast theme, chosen in the settings.
    b.click("#chk-contrast");
    b.eval("document.querySelector('#dlg-settings').close()");
    wait(
        b,
        "the high-contrast theme",
        "return document.documentElement.classList.contains('contrast')",
    );
    check(b, &v("play, high contrast"), &mut found);
    b.screenshot(&shot(&format!("play-contrast-{lang}.png")));
    b.click("#btn-settings");
    b.click("#chk-contrast");
    b.eval("document.querySelector('#dlg-settings').close()");
    b.screenshot(&shot(&format!("play-{lang}.png")));
    b.click("#btn-resign");
    wait_dialog(b, "resign");
    check(b, &v("resign dialog"), &mut found);
    b.eval("document.querySelector('#dlg-resign').close()");
    // A finished game, replayed and reviewed.
    let done = site.import(json!({
        "record": "[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-27-20-S\"]\n\n1. F *\n",
        "mode": "computer",
        "level": 1,
    }));
    go(b, &format!("#game={done}&review"));
    wait(
        b,
        "the review",
        "return !document.querySelector('#review').hidden && !!document.querySelector('#result')",
    );
    wait(b, "the review's plot", "return document.querySelector('#review-status').textContent !== '' && !!document.querySelector('#plot *')");
    check(b, &v("review"), &mut found);
    go(b, &format!("#game={done}&ply=0"));
    wait(
        b,
        "the replay",
        "return !document.querySelector('#replay-bar').hidden",
    );
    check(b, &v("replay"), &mut found);
    for view in [GAMES, RULES, LESSONS] {
        visit(b, &view);
        check(b, &v(view.name), &mut found);
    }
    b.click(".lesson-card");
    wait(b, "a lesson", "return !document.querySelector('#lesson').hidden && document.querySelectorAll('#lesson-board .hole-hit').length === 12");
    check(b, &v("lesson"), &mut found);
    for view in [
        View {
            hash: "#puzzles&seed=3&difficulty=3",
            name: "puzzles",
            ready: "document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0",
        },
        // A streak's puzzle, with the player's puzzle rating shown.
        View {
            hash: "#puzzles&streak=1&seed=5",
            name: "puzzle streak",
            ready: "document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0 \
                    && !document.querySelector('#puzzle-rating').hidden",
        },
        View {
            hash: "#analysis",
            name: "analysis",
            ready: "document.querySelectorAll('#analysis-board .hole-hit').length === 12 \
                    && document.querySelector('#an-lines').children.length > 0",
        },
    ] {
        visit(b, &view);
        check(b, &v(view.name), &mut found);
    }
    b.click("#an-edit");
    wait(
        b,
        "the position editor",
        "return !document.querySelector('#an-editor').hidden",
    );
    check(b, &v("analysis editor"), &mut found);
    // Learn from your mistakes, its list still empty (the view with a
    // mistake on its board: browser_learn.rs).
    let mistakes = View {
        hash: "#mistakes",
        name: "mistakes",
        ready: "document.querySelectorAll('#mistake-list li').length > 0",
    };
    visit(b, &mistakes);
    check(b, &v(mistakes.name), &mut found);
    // The opening explorer at the start (the game resigned above counted
    // if it had moves).
    let explorer = View {
        hash: "#explorer",
        name: "explorer",
        ready: "document.querySelectorAll('#explorer-moves tbody tr').length > 0 \
                && document.querySelectorAll('#explorer-board .hole-hit').length === 12",
    };
    visit(b, &explorer);
    check(b, &v(explorer.name), &mut found);
    // The lobby, with an open challenge of Bob's (called off after: a
    // first visit with challenges waiting opens the lobby).
    bob.goto(&site.page("#rules"));
    let bob_fetch = |path: &str, body: Value| {
        bob.exec_async(&format!(
            "const done = arguments[arguments.length - 1]; \
             fetch({}, {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: {} }}) \
             .then((r) => r.json(), (e) => String(e)).then(done)",
            json!(path),
            json!(body.to_string())
        ))
    };
    let challenge = bob_fetch(
        "/api/games",
        json!({"mode": "online", "public": true, "name": "Bob"}),
    )["id"]
        .as_str()
        .map(String::from)
        .expect("Bob's challenge");
    go(b, "#lobby");
    wait(
        b,
        "the lobby's challenge",
        "return document.querySelector('#lobby-challenges').textContent.includes('Bob')",
    );
    check(b, &v("lobby"), &mut found);
    bob_fetch(&format!("/api/games/{challenge}/abort"), json!({}));
    // An online game waiting for a friend, with its invite and chat.
    b.click("#btn-new");
    wait_dialog(b, "new");
    b.click("#dlg-new input[name=mode][value=online]");
    b.exec(
        "document.querySelector('#new-nickname').value = arguments[0]",
        json!(["Awa"]),
    );
    check(b, &v("new online game dialog"), &mut found);
    b.click("#btn-start");
    wait(
        b,
        "the invite",
        "return document.querySelector('#invite-link').value.includes('?join=')",
    );
    check(b, &v("online game"), &mut found);
    let _ = game_id(b);
    // A player's page (Bob's account, no rated game yet) and a
    // leaderboard.
    for view in [
        View {
            hash: "#player=Bob_B",
            name: "player's page",
            ready: "!document.querySelector('#player-body').hidden && !!document.querySelector('#player-ratings li')",
        },
        View {
            hash: "#leaderboard=blitz",
            name: "leaderboard",
            ready: "!document.querySelector('#leaderboard').hidden && !!document.querySelector('#board-list li')",
        },
    ] {
        visit(b, &view);
        check(b, &v(view.name), &mut found);
    }
    found
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn every_view_passes_axe_at_wcag_21_aa_in_french_and_english() {
    let site = Site::with_database("axe");
    // Another player, whose open challenge the lobby shows.
    let bob = Browser::start("axe-bob", "en-GB,en", 800, 600);
    // With an account, whose page is one of the views.
    bob.goto(&site.page("#rules"));
    webdriver::sign_up(&bob, "Bob_B");
    // Each language in its own browser: a player of its own, whose first
    // visit opens the new game dialog.
    let mut found = tour(
        &site,
        &Browser::start("axe-fr", "fr-FR,fr", 1280, 900),
        &bob,
        "fr",
    );
    found.extend(tour(
        &site,
        &Browser::start("axe-en", "en-GB,en", 1280, 900),
        &bob,
        "en",
    ));
    assert!(found.is_empty(), "axe-core found:\n{}", found.join("\n"));
}

/// The page's accessibility tree as Chromium builds it for screen readers
/// (DevTools `Accessibility.getFullAXTree`): the nodes not ignored.
fn ax_tree(b: &Browser) -> Vec<Value> {
    let tree = b.cdp("Accessibility.getFullAXTree", json!({}));
    tree["nodes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n["ignored"] != json!(true))
        .collect()
}

fn ax_name(node: &Value) -> &str {
    node["name"]["value"].as_str().unwrap_or("")
}

fn ax_role(node: &Value) -> &str {
    node["role"]["value"].as_str().unwrap_or("")
}

/// What the log of the play view (role `log`, a live region) has said,
/// line by line, as a screen reader reads it from the tree.
fn ax_said(nodes: &[Value]) -> Vec<String> {
    let by_id: HashMap<&str, &Value> = nodes
        .iter()
        .filter_map(|n| n["nodeId"].as_str().map(|id| (id, n)))
        .collect();
    fn text(node: &Value, by_id: &HashMap<&str, &Value>, out: &mut String) {
        if ax_role(node) == "StaticText" {
            out.push_str(ax_name(node));
        }
        for child in node["childIds"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if let Some(c) = child.as_str().and_then(|id| by_id.get(id)) {
                text(c, by_id, out);
            }
        }
    }
    let mut lines = Vec::new();
    for log in nodes.iter().filter(|n| ax_role(n) == "log") {
        for child in log["childIds"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if let Some(c) = child.as_str().and_then(|id| by_id.get(id)) {
                let mut line = String::new();
                text(c, &by_id, &mut line);
                lines.push(line.trim().to_string());
            }
        }
    }
    lines
}

/// The holes as the accessibility tree names them (buttons named "…hole
/// X, N seeds"), each with whether it is unavailable.
fn ax_holes(nodes: &[Value]) -> Vec<(String, bool)> {
    nodes
        .iter()
        .filter(|n| ax_role(n) == "button" && ax_name(n).contains("hole "))
        .map(|n| {
            let disabled = n["properties"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .any(|p| p["name"] == json!("disabled") && p["value"]["value"] == json!(true));
            (ax_name(n).to_string(), disabled)
        })
        .collect()
}

/// What the page should name each hole of `board` (South's, the person's,
/// "your hole A, 4 seeds"; North's "North's hole a, 4 seeds").
fn hole_names(board: &[Value]) -> Vec<String> {
    board
        .iter()
        .enumerate()
        .map(|(hole, n)| {
            let n = n.as_u64().expect("seeds");
            let seeds = if n == 1 {
                "1 seed".to_string()
            } else {
                format!("{n} seeds")
            };
            let krou = if n >= 12 { " (krou)" } else { "" };
            if hole < 6 {
                format!("your hole {}, {seeds}{krou}", (b'A' + hole as u8) as char)
            } else {
                format!(
                    "North's hole {}, {seeds}{krou}",
                    (b'a' + hole as u8 - 6) as char
                )
            }
        })
        .collect()
}

/// Presses Tab until the focus is on `css`, as a person would to reach it
/// (at most `max` times).
fn tab_to(b: &Browser, css: &str, max: usize) {
    for _ in 0..max {
        if b.exec(
            "return document.activeElement.matches(arguments[0])",
            json!([css]),
        ) == json!(true)
        {
            return;
        }
        b.keys(keys::TAB);
    }
    panic!(
        "`{css}` not reached with {max} presses of Tab (focus on {})",
        b.string("const e = document.activeElement; return e.outerHTML.slice(0, 200)")
    );
}

/// Tabs to `css` (at most `max` presses) and presses Enter there.
fn press(b: &Browser, css: &str, max: usize) {
    tab_to(b, css, max);
    b.keys(keys::ENTER);
}

/// Tabs to the board `svg`, goes with the arrows to a hole that can be
/// played and plays it with Enter: its letter.
fn play_by_arrows(b: &Browser, svg: &str) -> String {
    tab_to(b, &format!("{svg} .hole-hit"), 30);
    let letter = arrow_to_playable(b, svg);
    b.keys(keys::ENTER);
    letter
}

/// Types `text` then Enter in the command field, which has the focus.
fn command(b: &Browser, text: &str) {
    assert_eq!(
        b.string("return document.activeElement.id"),
        "command",
        "the focus left the command field"
    );
    b.keys(text);
    b.keys(keys::ENTER);
}

/// Waits until the log, read in the accessibility tree, has said what
/// `done` accepts in its last `lines` lines (joined by a space); returns
/// them.
fn wait_log(b: &Browser, what: &str, lines: usize, done: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(40);
    loop {
        let said = ax_said(&ax_tree(b));
        let last = said[said.len().saturating_sub(lines)..].join(" ");
        if done(&last) {
            return last;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what} in the log (last: `{last}`)"
        );
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
}

/// Waits until the log's last two lines are what `done` accepts.
fn wait_said(b: &Browser, what: &str, done: impl Fn(&str) -> bool) -> String {
    wait_log(b, what, 2, done)
}

/// Waits until the last line of the log is what `done` accepts.
fn wait_last(b: &Browser, what: &str, done: impl Fn(&str) -> bool) -> String {
    wait_log(b, what, 1, done)
}

/// Whether the log's words say the game is over.
fn over(said: &str) -> bool {
    said.contains("You won!") || said.contains("You lost.") || said.contains("Draw.")
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_game_against_the_computer_played_by_keyboard_and_followed_by_the_accessibility_tree() {
    let (site, b) =
        Site::start("keyboard").visited("en-GB,en", DESKTOP, |b, url| open(b, url, "en"));
    b.cdp("Accessibility.enable", json!({}));
    // The new game dialog opens by itself on a first visit: level 1, and
    // a target of 2 seeds (the first capture ends the game), by keyboard.
    wait_dialog(&b, "new");
    tab_to(&b, "#sel-level", 20);
    b.keys(keys::HOME);
    press(&b, "details.options summary", 20);
    tab_to(&b, "#sel-target", 20);
    b.keys("2");
    assert_eq!(
        b.eval(
            "const f = document.querySelector('#form-new'); return [f.level.value, f.target.value]"
        ),
        json!(["1", "2"])
    );
    press(&b, "#btn-start", 40);
    wait(
        &b,
        "the game",
        "return location.hash.startsWith('#game=') && !document.querySelector('#dlg-new').open",
    );
    let id = game_id(&b);
    let (_, g) = site.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(g["rules"]["target"], json!(2), "{g}");
    assert_eq!(g["level"], json!(1), "{g}");

    // The first move on the board itself: Tab reaches it, the arrows go
    // from hole to hole, Enter plays; the focus stays on that hole.
    tab_to(&b, "#board .hole-hit", 60);
    let first = b.string("return document.activeElement.dataset.letter");
    b.keys(keys::RIGHT);
    let second = b.string("return document.activeElement.dataset.letter");
    assert_ne!(first, second, "the arrow moved to another hole");
    b.keys(keys::LEFT);
    assert_eq!(
        b.string("return document.activeElement.dataset.letter"),
        first
    );
    b.keys(keys::ENTER);
    let said = wait_said(&b, "the first moves", |s| {
        s.starts_with(&format!("You play {first}: 4 seeds sown; 0 to 0."))
            && (s.contains("North plays") && s.ends_with("Your move.") || over(s))
    });
    assert!(said.contains("The computer is thinking"), "{said}");
    assert_eq!(
        b.string("return document.activeElement.dataset.letter"),
        first,
        "the focus stayed on the hole played"
    );

    // A hint, asked for with its button, is said too.
    if !over(&said) {
        press(&b, "#btn-hint", 40);
        let hint = wait_last(&b, "the hint", |s| s.starts_with("Hint: play "));
        // Its reasons are sentences of their own, never run together
        // ("seeds.Captures").
        let runs = hint
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'.' && w[1].is_ascii_uppercase());
        assert!(!runs, "{hint}");
    }

    // Then the command field, as lichess's blind mode has: the legal holes
    // heard, one played, until the end. The game is followed by the
    // accessibility tree alone; the server's view checks it.
    tab_to(&b, "#command", 30);
    let mut plies = 2;
    let mut said = said;
    for _ in 0..60 {
        let (_, g) = site.call("GET", &format!("/api/games/{id}"), None);
        let nodes = ax_tree(&b);
        let holes = ax_holes(&nodes);
        let names: Vec<String> = holes.iter().map(|(n, _)| n.clone()).collect();
        let mut expected = hole_names(g["board"].as_array().expect("a board"));
        let mut sorted = names.clone();
        sorted.sort();
        expected.sort();
        assert_eq!(sorted, expected, "the holes as the tree names them");
        let seeds = |n: &Value| {
            if n == &json!(1) {
                "1 seed".to_string()
            } else {
                format!("{n} seeds")
            }
        };
        for store in [
            format!("your store: {}", seeds(&g["stores"][0])),
            format!("North's store: {}", seeds(&g["stores"][1])),
        ] {
            assert!(
                nodes
                    .iter()
                    .any(|n| ax_role(n) == "image" && ax_name(n) == store),
                "no `{store}` in the tree"
            );
        }
        if !g["end"].is_null() {
            break;
        }
        assert_eq!(g["plies"].as_array().map(Vec::len), Some(plies), "{g}");
        // The holes that can be played: the person's not unavailable.
        let playable: Vec<String> = holes
            .iter()
            .filter(|(n, disabled)| n.starts_with("your hole") && !disabled)
            .map(|(n, _)| n[10..11].to_string())
            .collect();
        let legal: Vec<String> = g["legal"]
            .as_array()
            .expect("legal moves")
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        let mut sorted = playable.clone();
        sorted.sort();
        assert_eq!(sorted, legal, "the holes that can be played");
        command(&b, "m");
        let heard = format!("You can play {}.", legal.join(", "));
        wait_last(&b, "the legal holes", |s| s == heard);
        let letter = playable[0].clone();
        command(&b, &letter.to_lowercase());
        said = wait_said(&b, "the computer's answer", |s| {
            s.contains(&format!("You play {letter}:"))
                && (s.contains("North plays") && s.ends_with("Your move.") || over(s))
        });
        plies += 2;
    }
    let (_, g) = site.call("GET", &format!("/api/games/{id}"), None);
    assert!(!g["end"].is_null(), "the game ended: {g}");
    assert!(
        said.contains("The target was reached.") || said.contains("No move was left"),
        "{said}"
    );
    // The commands: the scores and the board, then in French.
    command(&b, "s");
    let stores = &g["end"]["stores"];
    let heard = format!("South {} seeds – North {} seeds.", stores[0], stores[1]);
    wait_last(&b, "the scores", |s| s == heard);
    command(&b, "l");
    wait_last(&b, "the last move", |s| {
        s.contains(" plays ") || s.starts_with("You play ")
    });
    command(&b, "zzz");
    wait_last(&b, "an unknown command", |s| {
        s.starts_with("Unknown command “zzz”")
    });
    // The game replayed from its start, a move at a time, is said too.
    press(&b, "#btn-replay", 40);
    wait_last(&b, "the start position", |s| s == "Start position");
    press(&b, "#rp-next", 80);
    wait_last(&b, "the first move replayed", |s| {
        s.starts_with(&format!("You play {first}: 4 seeds sown; 0 to 0."))
    });
    b.keys(keys::ESCAPE);
    wait(
        &b,
        "the game again",
        "return document.querySelector('#replay-bar').hidden",
    );
    assert_eq!(
        b.string("return document.activeElement.id"),
        "btn-replay",
        "the focus back on Replay"
    );
    press(&b, "#btn-lang", 80);
    wait(
        &b,
        "French",
        "return document.documentElement.lang === 'fr'",
    );
    tab_to(&b, "#command", 80);
    command(&b, "l");
    wait_last(&b, "the last move in French", |s| {
        s.contains(" joue ") || s.starts_with("Vous jouez ")
    });
}

/// What does not survive the zoom: the page wider than the window, an
/// element past its right edge, text cut off in its box.
const ZOOM_CHECK: &str = "
    const w = window.innerWidth;
    const bad = [];
    if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
    const name = (e) => e.id || (e.className && (e.className.baseVal ?? e.className)) || e.tagName;
    for (const e of document.querySelectorAll('header *, main *, dialog[open] *')) {
      if (e.offsetParent === null && !(e instanceof SVGElement)) continue;
      // Words for screen readers only (`.unseen`) are clipped by design.
      if (e.closest('.unseen')) continue;
      const r = e.getBoundingClientRect();
      if (!r.width) continue;
      if (r.right > w + 1) bad.push(name(e) + ' ends at ' + Math.round(r.right));
      const style = getComputedStyle(e);
      const clips = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      if (clips && e.scrollWidth > e.clientWidth + 1 && e.textContent.trim()) bad.push(name(e) + ' cut: ' + e.textContent.trim().slice(0, 40));
    }
    return bad;";

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn reduced_motion_and_more_contrast_are_followed_and_text_survives_200_percent_zoom() {
    let site = Site::start("zoom");
    let b = Browser::start("zoom", "fr-FR,fr", 1280, 900);
    // What the system asks for, before the page starts: no sowing
    // animation, the high-contrast theme; the player may choose otherwise.
    b.cdp(
        "Emulation.setEmulatedMedia",
        json!({"features": [
            {"name": "prefers-reduced-motion", "value": "reduce"},
            {"name": "prefers-contrast", "value": "more"},
        ]}),
    );
    b.goto(&site.url);
    b.eval("localStorage.clear(); localStorage.setItem('awale.sound', 'off')");
    b.goto(&site.url);
    wait_dialog(&b, "new");
    assert_eq!(
        b.eval("return document.documentElement.classList.contains('contrast')"),
        json!(true)
    );
    b.eval("document.querySelector('#dlg-new').close()");
    b.click("#btn-settings");
    assert_eq!(
        b.eval("return [document.querySelector('#sel-speed').value, document.querySelector('#chk-contrast').checked, \
                document.querySelector('#motion-note').hidden]"),
        json!(["0", true, false])
    );
    // Chosen here, the theme stays off whatever the system says.
    b.click("#chk-contrast");
    b.eval("document.querySelector('#dlg-settings').close()");

    // 200% zoom of a 1280 x 900 window: 640 x 450 CSS pixels, each two
    // screen pixels wide.
    b.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 640, "height": 450, "deviceScaleFactor": 2, "mobile": false}),
    );
    b.goto(&site.url);
    wait_dialog(&b, "new");
    assert_eq!(
        b.eval("return document.documentElement.classList.contains('contrast')"),
        json!(false)
    );
    let mut bad = Vec::new();
    let mut look = |b: &Browser, view: &str| {
        for problem in b.strings(ZOOM_CHECK) {
            bad.push(format!("[{view}] {problem}"));
        }
        b.screenshot(&shot(&format!("zoom-{}.png", view.replace(' ', "-"))));
    };
    b.eval("document.querySelector('details.options').open = true");
    look(&b, "new game");
    b.click("#btn-start");
    wait(
        &b,
        "a game",
        "return document.querySelectorAll('.hole-hit.legal').length > 0",
    );
    b.eval("document.querySelector('.commands').open = true");
    look(&b, "play");
    b.click("#btn-settings");
    look(&b, "settings");
    b.eval("document.querySelector('#dlg-settings').close()");
    for view in [
        GAMES,
        RULES,
        LESSONS,
        View {
            hash: "#lesson=sow",
            name: "lesson",
            ready: "document.querySelectorAll('#lesson-board .hole-hit').length === 12",
        },
        View {
            hash: "#analysis",
            name: "analysis",
            ready: "document.querySelectorAll('#analysis-board .hole-hit').length === 12",
        },
        View {
            hash: "#lobby",
            name: "lobby",
            ready: "!document.querySelector('#view-lobby').hidden",
        },
    ] {
        visit(&b, &view);
        look(&b, view.name);
    }
    assert!(bad.is_empty(), "at 200% zoom:\n{}", bad.join("\n"));
}

/// Goes with the arrows over the holes of the board `svg` from the one
/// focused until one that can be played has the focus; its letter.
fn arrow_to_playable(b: &Browser, svg: &str) -> String {
    let focused = format!(
        "const e = document.activeElement; \
         return e.closest('{svg}') && e.classList.contains('hole-hit') && e.getAttribute('aria-disabled') !== 'true' \
         ? e.dataset.letter : null"
    );
    for key in [keys::HOME, keys::UP, keys::HOME, keys::DOWN, keys::HOME] {
        b.keys(key);
        for _ in 0..6 {
            if let Some(letter) = b.eval(&focused).as_str() {
                return letter.to_string();
            }
            b.keys(keys::RIGHT);
        }
    }
    panic!("no hole of {svg} can be played")
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn lessons_puzzles_analysis_and_online_chat_are_used_by_keyboard_alone() {
    let english = |b: &Browser, url: &str| open(b, url, "en");
    let (_site, b) = Site::with_database("keyboard-learn").visited("en-GB,en", DESKTOP, english);
    wait_dialog(&b, "new");
    b.keys(keys::ESCAPE);
    wait(
        &b,
        "the dialog closed",
        "return !document.querySelector('#dlg-new').open",
    );

    // A lesson: its card, then a hole played from the board.
    press(&b, "#btn-learn", 30);
    wait(&b, "the lessons", &format!("return {}", LESSONS.ready));
    press(&b, ".lesson-card[data-lesson='capture']", 30);
    wait(
        &b,
        "the lesson",
        "return document.querySelectorAll('#lesson-board .hole-hit').length === 12",
    );
    let letter = play_by_arrows(&b, "#lesson-board");
    wait(
        &b,
        "the lesson's answer",
        "return /Well done|Try again/.test(document.querySelector('#lesson-feedback').textContent)",
    );
    assert_eq!(
        b.string("return document.activeElement.dataset.letter || document.activeElement.id"),
        letter,
        "the focus stayed on the hole played"
    );

    // A puzzle, the same way.
    press(&b, "#tab-puzzles", 60);
    wait(
        &b,
        "a puzzle",
        "return document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0",
    );
    play_by_arrows(&b, "#puzzle-board");
    wait(
        &b,
        "the puzzle's answer",
        "return /Well done|Not /.test(document.querySelector('#puzzle-feedback').textContent)",
    );

    // The analysis board: a move played adds it to the variations.
    press(&b, "#tab-analysis", 80);
    wait(
        &b,
        "the analysis board",
        "return document.querySelectorAll('#analysis-board .hole-hit.legal').length > 0",
    );
    let letter = play_by_arrows(&b, "#analysis-board");
    wait(
        &b,
        "the move in the variations",
        &format!("return [...document.querySelectorAll('#an-tree .mv')].some(m => m.textContent.includes('{letter}'))"),
    );
    wait(
        &b,
        "the move said",
        &format!("return document.querySelector('#an-said').textContent.startsWith('South plays {letter}: 4 seeds sown; 0 to 0.')"),
    );

    // An online game for a friend, then a word in its chat.
    press(&b, "#btn-new", 80);
    wait_dialog(&b, "new");
    tab_to(&b, "input[name=mode]:checked", 10);
    b.keys(keys::RIGHT);
    b.keys(keys::RIGHT);
    assert_eq!(
        b.string("return document.querySelector('#form-new').mode.value"),
        "online"
    );
    tab_to(&b, "#new-nickname", 20);
    b.keys("Awa");
    press(&b, "#btn-start", 40);
    wait(
        &b,
        "the invite",
        "return document.querySelector('#invite-link').value.includes('?join=')",
    );
    tab_to(&b, "#chat-text", 80);
    b.keys("hello by keyboard");
    b.keys(keys::ENTER);
    wait(
        &b,
        "the chat line",
        "return document.querySelector('#chat-lines').textContent.includes('hello by keyboard')",
    );
    assert_eq!(b.string("return document.activeElement.id"), "chat-text");

    // A friend sits down: each hears the other's move said in words.
    let invite = b.string("return document.querySelector('#invite-link').value");
    let bob = Browser::start("keyboard-bob", "en-GB,en", 1000, 800);
    open(&bob, &invite, "en");
    wait_last(&b, "the friend come", |s| s == "Your move.");
    tab_to(&b, "#command", 80);
    command(&b, "c");
    wait_last(&bob, "Awa's move", |s| {
        s == "South plays C: 4 seeds sown; 0 to 0. Your move."
    });
    wait_last(&b, "Bob's turn", |s| {
        s.starts_with("You play C: 4 seeds sown; 0 to 0. North") && s.ends_with("to move.")
    });
}

/// What has the keyboard's focus: its id, else its tag and classes, and
/// the svg it is in.
fn focused(b: &Browser) -> String {
    b.string(
        "const e = document.activeElement; \
         return e.id || e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + (e.closest('svg') ? ' in #' + e.closest('svg').id : '')",
    )
}

/// Whether what has the focus is what `ok` accepts, within 3 seconds;
/// if not, a line for `problems` saying `what` and where the focus is.
fn check_focus(b: &Browser, what: &str, ok: impl Fn(&str) -> bool, problems: &mut Vec<String>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        let at = focused(b);
        if ok(&at) {
            return;
        }
        if std::time::Instant::now() > deadline {
            problems.push(format!("{what}: the focus is on {at}"));
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Whether the log has said what `done` accepts in its last `lines`
/// lines within 5 seconds; if not, a line for `problems`.
fn check_said(
    b: &Browser,
    what: &str,
    lines: usize,
    done: impl Fn(&str) -> bool,
    problems: &mut Vec<String>,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let said = ax_said(&ax_tree(b));
        let last = said[said.len().saturating_sub(lines)..].join(" ");
        if done(&last) {
            return;
        }
        if std::time::Instant::now() > deadline {
            problems.push(format!("{what} not said (last: `{last}`)"));
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
}

/// Plays, with Enter, the hole of the board that has the focus or the
/// first that can be played; waits for the computer's answer.
fn play_and_wait(b: &Browser, plies: usize) {
    b.exec(
        "const e = document.activeElement; \
         if (!e.matches('#board .hole-hit.legal')) document.querySelector('#board .hole-hit.legal').focus()",
        json!([]),
    );
    b.keys(keys::ENTER);
    wait(
        b,
        "the computer's answer",
        &format!(
            "return document.querySelectorAll('#move-list .mv').length === {plies} \
             && document.querySelectorAll('#board .hole-hit.legal').length > 0"
        ),
    );
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn hint_undo_resign_and_review_keep_the_focus_and_the_review_is_said() {
    let (_site, b) =
        Site::start("focus-controls").visited("en-GB,en", DESKTOP, |b, url| open(b, url, "en"));
    b.cdp("Accessibility.enable", json!({}));
    let mut problems = Vec::new();
    wait_dialog(&b, "new");
    b.click("#btn-start");
    wait(
        &b,
        "the game",
        "return document.querySelectorAll('#board .hole-hit.legal').length > 0",
    );
    play_and_wait(&b, 2);
    play_and_wait(&b, 4);

    // The buttons are busy while their request runs, and keep the focus.
    press(&b, "#btn-hint", 40);
    wait(
        &b,
        "the hint",
        "return !document.querySelector('#hint-box').hidden",
    );
    check_focus(&b, "after Hint", |at| at == "btn-hint", &mut problems);
    press(&b, "#btn-undo", 40);
    wait(
        &b,
        "a move taken back",
        "return document.querySelectorAll('#move-list .mv').length === 2 \
         && document.querySelectorAll('#board .hole-hit.legal').length > 0",
    );
    check_focus(&b, "after Undo", |at| at == "btn-undo", &mut problems);
    // Nothing left to take back: Undo cannot be used, the board has the
    // focus.
    press(&b, "#btn-undo", 40);
    wait(
        &b,
        "the start again",
        "return document.querySelectorAll('#move-list .mv').length === 0 \
         && document.querySelector('#btn-undo').disabled",
    );
    check_focus(
        &b,
        "after the last Undo",
        |at| at.ends_with(" in #board"),
        &mut problems,
    );

    // Resigned in its dialog: the result has the focus.
    play_and_wait(&b, 2);
    press(&b, "#btn-resign", 40);
    wait_dialog(&b, "resign");
    press(&b, "#resign-S", 10);
    wait(
        &b,
        "the result",
        "return !!document.querySelector('#result')",
    );
    check_focus(&b, "after resigning", |at| at == "result", &mut problems);

    // The result's Review button keeps it too, and the review is heard
    // in the log: that it runs, then what it found.
    press(&b, "#status button", 60);
    wait(
        &b,
        "the review",
        "return /plies reviewed/.test(document.querySelector('#review-status').textContent)",
    );
    check_focus(
        &b,
        "after the result's Review",
        |at| at == "result-review",
        &mut problems,
    );
    let status = b.text("#review-status");
    check_said(
        &b,
        "the review",
        2,
        |s| s == format!("Reviewing… {status}"),
        &mut problems,
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_game_started_from_the_first_visits_dialog_is_said_with_the_focus_on_the_board() {
    let (_site, b) =
        Site::start("focus-start").visited("en-GB,en", DESKTOP, |b, url| open(b, url, "en"));
    b.cdp("Accessibility.enable", json!({}));
    let mut problems = Vec::new();
    // The dialog opened by itself: nothing had the focus before it.
    wait_dialog(&b, "new");
    press(&b, "#btn-start", 40);
    wait(
        &b,
        "the game",
        "return document.querySelectorAll('#board .hole-hit.legal').length > 0 \
         && !document.querySelector('#dlg-new').open",
    );
    check_said(
        &b,
        "the start",
        1,
        |s| s == "The game starts. Your move.",
        &mut problems,
    );
    check_focus(
        &b,
        "after Start",
        |at| at.starts_with("circle.hole-hit.legal") && at.ends_with(" in #board"),
        &mut problems,
    );
    // The board is one stop of Tab: from the language button, the next
    // stop is a hole, not the board's svg.
    b.exec("document.querySelector('#btn-lang').focus()", json!([]));
    b.keys(keys::TAB);
    check_focus(
        &b,
        "Tab from the language button",
        |at| at.ends_with(" in #board"),
        &mut problems,
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_lesson_opened_has_the_focus_on_its_task_and_its_board_is_one_tab_stop() {
    let (site, b) =
        Site::start("focus-lesson").visited("fr-FR,fr", DESKTOP, |b, url| open(b, url, "fr"));
    let mut problems = Vec::new();
    wait_dialog(&b, "new");
    b.keys(keys::ESCAPE);
    // Its address opened.
    b.goto(&site.page("#lesson=chain&step=1"));
    wait(
        &b,
        "the lesson",
        "return document.querySelectorAll('#lesson-board .hole-hit').length === 12 \
         && document.querySelector('#lesson-task').textContent !== ''",
    );
    check_focus(
        &b,
        "a lesson's address opened",
        |at| at == "lesson-task",
        &mut problems,
    );
    // Tab from the language button (over the tabs and "All lessons")
    // comes to a hole, not to the board's svg.
    b.exec("document.querySelector('#btn-lang').focus()", json!([]));
    for _ in 0..10 {
        b.keys(keys::TAB);
        if focused(&b).contains("lesson-board") {
            break;
        }
    }
    check_focus(
        &b,
        "Tab from the language button",
        |at| at.ends_with(" in #lesson-board"),
        &mut problems,
    );
    // From the list of lessons, by keyboard.
    press(&b, "#lesson-back", 40);
    wait(&b, "the lessons", &format!("return {}", LESSONS.ready));
    press(&b, ".lesson-card[data-lesson='capture']", 30);
    wait(
        &b,
        "the lesson",
        "return !document.querySelector('#lesson').hidden",
    );
    check_focus(
        &b,
        "a lesson opened from the list",
        |at| at == "lesson-task",
        &mut problems,
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_account_pages_api_tokens_pass_axe_and_a_token_is_shown_once_then_revoked() {
    let site = Site::start("axe_tokens");
    let mut found = Vec::new();
    for (lang, languages) in [("fr", "fr-FR,fr"), ("en", "en-GB,en")] {
        let name = format!("Tok_{lang}");
        // In the browser's language (fr-FR, en-GB), past the first dialog.
        let b = webdriver::member(
            &format!("axe-tokens-{lang}"),
            languages,
            DESKTOP,
            &site.url,
            &name,
        );
        // The page's confirmations (revoke, the upgrade) said yes to.
        b.exec("window.confirm = () => true", json!([]));
        b.click("#btn-account");
        wait_dialog(&b, "account");
        b.exec(
            "document.querySelector('#api-tokens').open = true",
            json!([]),
        );
        wait(
            &b,
            "no token yet",
            "return !!document.querySelector('#tokens-list li.empty')",
        );
        check(&b, &format!("{lang} account, no token"), &mut found);
        b.click("#token-name");
        b.keys("my engine");
        b.click("#form-token input[value='board:play']");
        b.click("#form-token button");
        wait(
            &b,
            "the token shown once",
            "return !document.querySelector('#token-made').hidden \
             && document.querySelector('#token-secret').textContent.startsWith('awt_')",
        );
        check(
            &b,
            &format!("{lang} account, a token just made"),
            &mut found,
        );
        let listed = b.string("return document.querySelector('#tokens-list').textContent");
        assert!(listed.contains("my engine"), "{listed}");
        let secret = b.string("return document.querySelector('#token-secret').textContent");
        assert!(!listed.contains(&secret), "the list never shows a secret");
        // Done: the secret is gone from the page.
        b.click("#token-hide");
        wait(
            &b,
            "the secret hidden",
            "return document.querySelector('#token-made').hidden && !document.querySelector('#token-secret').textContent",
        );
        // Revoked (confirmed): the list is empty again.
        b.click("#tokens-list li button");
        wait(
            &b,
            "the token revoked",
            "return !!document.querySelector('#tokens-list li.empty')",
        );
        // The upgrade to a bot: said to be for good, its button off until
        // the person says they understand.
        assert_eq!(
            b.eval("return document.querySelector('#btn-bot-upgrade').disabled"),
            json!(true)
        );
        b.click("#chk-bot-sure");
        check(
            &b,
            &format!("{lang} account, the upgrade to a bot"),
            &mut found,
        );
        b.click("#btn-bot-upgrade");
        wait(
            &b,
            "the account a bot",
            "return !document.querySelector('#bot-already').hidden && document.querySelector('#bot-upgrade').hidden",
        );
    }
    assert!(found.is_empty(), "axe-core found:\n{}", found.join("\n"));
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_engine_ladder_page_passes_axe_and_its_games_open_by_keyboard() {
    let site = Site::start("axe_ladder");
    let game = ladder_game(
        &site,
        [("Alpha", 1), ("Beta", 1)],
        &temp_dir("axe_ladder_logs"),
    );
    let mut found = Vec::new();
    for (lang, accept) in [("fr", "fr-FR,fr"), ("en", "en-GB,en")] {
        let b = Browser::start(&format!("axe-ladder-{lang}"), accept, 1280, 900);
        open(&b, &site.page("#ladder=bullet"), lang);
        wait(
            &b,
            "the ladder",
            "return !document.querySelector('#view-ladder').hidden \
             && document.querySelectorAll('#ladder-standings tr').length === 2 \
             && !!document.querySelector('#ladder-crosstable tbody') \
             && !!document.querySelector('#ladder-games a.watch')",
        );
        // Its entrants are bots, marked BOT as everywhere their names show.
        wait(
            &b,
            "the entrants marked BOT",
            "return [...document.querySelectorAll('#ladder-standings tr')]
               .every((tr) => !!tr.querySelector('.bot-mark'))
             && document.querySelectorAll('#ladder-games .bot-mark').length === 2",
        );
        check(&b, &format!("engine ladder ({lang})"), &mut found);
        b.screenshot(&shot(&format!("ladder-{lang}.png")));
        // By keyboard: the game's replay link, then the game on the board.
        press(&b, "#ladder-games a.watch", 80);
        wait(
            &b,
            "the ladder's game",
            &format!("return location.hash.startsWith('#game={game}')"),
        );
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
