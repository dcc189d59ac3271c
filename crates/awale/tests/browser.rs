//! The browser game end to end: the real `awale serve` process, a real
//! headless Chromium driven through chromedriver, a person's clicks and
//! keys. Chromium and chromedriver are installed by `scripts/test.sh`.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored:
//! the run says so and counts them. With `AWALE_SCREENSHOTS=1` the
//! screenshots go to `docs/` (those shown in the README); otherwise to a
//! temporary directory. The page's loading on slow 3G is measured by a
//! benchmark (`benches/page_load.rs`).

mod webdriver;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::{close_first_dialog, game_id, temp_dir, Browser, Site, DESKTOP, PHONE};

/// Where the screenshots of the README go: `docs/` with
/// `AWALE_SCREENSHOTS=1`, else the temporary directory of `shot_path`.
fn screenshot_path(name: &str) -> PathBuf {
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name)
    } else {
        shot_path(name)
    }
}

/// A screenshot to look at by eye (never in `docs/`): all of one run in
/// one temporary directory.
fn shot_path(name: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| temp_dir("shots")).join(name)
}

/// Opens the page with quick animations and no sound.
fn open(b: &Browser, url: &str) {
    // First a page of the site that is not the game's (a second visit to
    // the same address with a `#` only moves within the page, which would
    // keep the player it was first opened as).
    let origin = url
        .find("://")
        .and_then(|s| url[s + 3..].find('/').map(|p| &url[..s + 3 + p]))
        .unwrap_or(url);
    b.goto(&format!("{origin}/api/info"));
    // The games the test makes through the API are this browser's.
    b.be_test_player();
    b.eval(
        "localStorage.setItem('awale.speed', '40'); localStorage.setItem('awale.sound', 'off');",
    );
    b.goto(url);
}

/// A browser in English, 1280 x 900, on `url` (opened as `open` does).
fn english(name: &str, url: &str) -> Browser {
    let b = Browser::start(name, "en-US,en", 1280, 900);
    open(&b, url);
    b
}

/// A server with no game yet, and a browser in English on its page, where
/// the new game dialog has opened by itself.
fn first_visit(name: &str) -> (Site, Browser) {
    let (site, b) = Site::start(name).visited("en-US,en", DESKTOP, open);
    b.wait_open("#dlg-new", 15);
    (site, b)
}

fn moves(b: &Browser) -> Vec<String> {
    b.strings("return [...document.querySelectorAll('#move-list .mv')].map(e => e.firstChild.textContent)")
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
    b.eval(
        "const h = document.querySelector('.hole-hit.legal'); return h ? h.dataset.letter : null",
    )
    .as_str()
    .map(str::to_string)
}

/// The letters of the holes the person may play, in order.
fn legal(b: &Browser) -> String {
    b.string("return [...document.querySelectorAll('.hole-hit.legal')].map(h => h.dataset.letter).join('')")
}

/// Clicks the language button; waits for the page in `lang`.
fn switch_language(b: &Browser, lang: &str) {
    b.click("#btn-lang");
    b.wait_for(
        lang,
        &format!("return document.documentElement.lang === '{lang}'"),
        5,
    );
}

/// Scrolls to the top with nothing focused, for a screenshot.
fn to_top(b: &Browser) {
    b.eval("window.scrollTo(0, 0); document.activeElement.blur()");
}

fn count(b: &Browser, letter: char) -> String {
    b.text(&format!("[data-count='{letter}']"))
}

fn hash(b: &Browser) -> String {
    b.string("return location.hash")
}

/// Pastes `record` into the import box and imports it.
fn import(b: &Browser, record: &str) {
    b.click("#btn-games");
    b.exec(
        "document.querySelector('#view-games details').open = true; \
         document.querySelector('#import-text').value = arguments[0]",
        json!([record]),
    );
    b.click("#import-go");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_game_against_the_computer_played_by_clicking() {
    let (site, b) = Site::start("play").visited("en-US,en", (1280, 1500), open);

    // No stored game yet: the new game dialog opens by itself.
    b.wait_open("#dlg-new", 15);
    assert_eq!(b.text("#dlg-new h2"), "New game");
    // The clock's fields follow its box.
    let fields = "return document.querySelector('#clock-fields').disabled";
    assert_eq!(b.eval(fields), json!(true));
    b.click("input[name=clock]");
    assert_eq!(b.eval(fields), json!(false));
    b.click("input[name=clock]");
    // A usual clock, one tap: 3 minutes and 2 seconds a move.
    b.click("#clock-presets button:nth-child(2)");
    assert_eq!(b.eval(fields), json!(false));
    let chosen = b.eval("const f = document.querySelector('#form-new'); return [f.minutes.value, f.increment.value]");
    assert_eq!(chosen, json!(["3", "2"]));
    b.click("input[name=clock]");
    b.click("#sel-level option[value='2']");
    b.resize(1280, 800);
    b.screenshot(&screenshot_path("screenshot-new-game.png"));
    b.click("#btn-start");
    wait_for_person(&b);

    // The form keeps its level by key: a ladder renumbered since (here, a
    // saved number that names another level now) opens on the same one.
    let second =
        b.eval("return fetch('/api/info').then((r) => r.json()).then((i) => i.levels[1].key)");
    let saved = b.eval("return JSON.parse(localStorage.getItem('awale.newgame'))");
    assert_eq!(saved["level_key"], second, "{saved}");
    b.eval(
        "const s = JSON.parse(localStorage.getItem('awale.newgame')); s.level = '1'; \
         localStorage.setItem('awale.newgame', JSON.stringify(s));",
    );
    b.click("#btn-new");
    b.wait_open("#dlg-new", 10);
    assert_eq!(
        b.eval("return document.querySelector('#sel-level').value"),
        json!("2")
    );
    close_first_dialog(&b);

    // Named for screen readers: the holes with their seeds, the icons.
    let names = b.eval(
        "return [document.querySelector(\".hole-hit[data-letter='C']\").getAttribute('aria-label'),
                 document.querySelector('#btn-settings').getAttribute('aria-label'),
                 document.querySelector('#btn-sound').getAttribute('aria-label')]",
    );
    assert_eq!(names, json!(["your hole C, 4 seeds", "Settings", "Sounds"]));

    // A click on hole C plays it, and the computer answers. With the
    // sowing slowed down (in the settings), what is said goes in step with
    // the seeds on the board.
    b.click("#btn-settings");
    b.click("#sel-speed option[value='320']");
    b.click("#dlg-settings .primary");
    b.click(".hole-hit.legal[data-letter='C']");
    b.wait_for(
        "the person's sowing",
        "return document.querySelector('#status').textContent === 'You sow C…'",
        10,
    );
    b.wait_for(
        "the computer's sowing",
        "return document.querySelector('#status').textContent.startsWith('The computer sows')",
        20,
    );
    wait_moves(&b, 2);
    wait_for_person(&b);
    b.click("#btn-settings");
    b.click("#sel-speed option[value='70']");
    b.click("#dlg-settings .primary");
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

    // A hint names a legal move, and who leads by how many seeds.
    b.click("#btn-hint");
    b.wait_shown("#hint-box", 20);
    let hint = b.text("#hint-box");
    let legal = legal(&b);
    let named = hint
        .strip_prefix("Hint: play ")
        .and_then(|h| h.chars().next());
    assert!(named.is_some_and(|c| legal.contains(c)), "{hint} / {legal}");
    assert!(
        hint.contains(" seed") || hint.contains("even") || hint.contains("wins in"),
        "{hint}"
    );

    // The language switch, kept across a reload, which finds the game.
    switch_language(&b, "fr");
    assert_eq!(b.text("#btn-new"), "Nouvelle partie");
    assert_eq!(b.text("#status"), "À vous de jouer");
    b.goto(&site.url);
    wait_moves(&b, 2);
    assert_eq!(moves(&b), played);
    assert_eq!(b.text("#btn-new"), "Nouvelle partie");
    switch_language(&b, "en");

    // A few more moves, then the board, in English and in French.
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
    let contrast = lowest_contrast(&b);
    assert!(contrast >= 4.5, "text contrast {contrast:.2}:1");
    b.resize(1280, 760);
    to_top(&b);
    b.screenshot(&screenshot_path("screenshot-board.png"));
    switch_language(&b, "fr");
    b.eval("document.activeElement.blur()");
    b.screenshot(&screenshot_path("screenshot-board-fr.png"));
    b.click("#btn-lang");
    b.resize(1280, 1500);

    // Fair play: no review while the game goes on. The person resigns.
    assert_eq!(
        b.eval("return document.querySelector('#btn-review').disabled"),
        json!(true)
    );
    let total = moves(&b).len();
    b.click("#btn-resign");
    b.click("#resign-S");
    b.wait_shown("#result", 10);
    assert_eq!(b.text("#result"), "You lost.");
    assert!(b.text("#status").contains("You resigned."));

    b.click("#btn-review");
    assert!(hash(&b).ends_with("&review"), "{}", hash(&b));
    b.wait_for(
        "the evaluation plot",
        &format!("return document.querySelectorAll('#plot .plot-dot').length === {total}"),
        60,
    );
    let status = b.text("#review-status");
    assert!(
        status.contains(&format!("{total} plies reviewed")),
        "{status}"
    );
    // Issue 21: the graph is scaled to the game: every point inside it.
    let outside = b.eval(
        "return [...document.querySelectorAll('#plot .plot-dot')]
           .filter((d) => +d.getAttribute('cy') < 18 || +d.getAttribute('cy') > 222).length",
    );
    assert_eq!(outside, json!(0), "points clipped out of the graph");
    let (_, review) = site.call("GET", &format!("/api/games/{}/review", game_id(&b)), None);
    let largest = review["plies"]
        .as_array()
        .expect("the review's plies")
        .iter()
        // A forced result without its margin (±50 seeds) is drawn at the
        // edge: no lead that stretches the scale.
        .filter(|p| {
            !(p["played"]["decided"] == true
                && p["played"]["cp"].as_i64().unwrap_or(0).abs() >= 5_000)
        })
        .map(|p| p["played"]["cp"].as_i64().unwrap_or(0).abs())
        .max()
        .unwrap_or(0);
    let span: i64 = b
        .string("return document.querySelector('#plot').dataset.span")
        .parse()
        .unwrap();
    assert!(
        span * 100 >= largest,
        "the graph spans ±{span} seeds, the game reached {largest}"
    );
    // The mistakes are listed with the move numbers of the move list.
    let numbers = b.eval(
        "const rows = [...document.querySelectorAll('#mistakes tr.clickable')]
           .map((r) => r.cells[0].textContent.split('.')[0]);
         const marked = [...document.querySelectorAll('#move-list .mv.mistake')]
           .map((m) => m.closest('li').querySelector('.num').textContent.split('.')[0]);
         return [rows, marked];",
    );
    assert_eq!(
        numbers[0], numbers[1],
        "review table vs move list: {numbers}"
    );
    b.eval("document.querySelector('#review').scrollIntoView({block: 'start'})");
    b.screenshot(&screenshot_path("screenshot-review.png"));
}

/// The lowest contrast (WCAG ratio) of the board's labels on their chips
/// (over the lightest wood) and of the move list's capture counts.
fn lowest_contrast(b: &Browser) -> f64 {
    let v = b.eval("const rgb = (s) => s.startsWith('#') ? [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16))
                                              : s.match(/[\\d.]+/g).slice(0, 3).map(Number);
         const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
         const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
         const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
         const wood = rgb('#b9793b');
         let low = 99;
         for (const t of document.querySelectorAll('#board text.letter, #board text.count, #board text.krou-tag, #board text.store-count')) {
           let chip = t.previousElementSibling;
           while (chip && chip.tagName !== 'rect') chip = chip.previousElementSibling;
           const a = +chip.getAttribute('opacity');
           const back = rgb(chip.getAttribute('fill')).map((c, i) => a * c + (1 - a) * wood[i]);
           low = Math.min(low, ratio(rgb(getComputedStyle(t).fill), back));
         }
         for (const c of document.querySelectorAll('#move-list .cap')) {
           low = Math.min(low, ratio(rgb(getComputedStyle(c).color), rgb(getComputedStyle(c.parentElement).backgroundColor.includes('0)') ? '#2c241b' : getComputedStyle(c.parentElement).backgroundColor)));
         }
         return low;");
    v.as_f64().unwrap_or(0.0)
}

/// Widths that overflow the phone's screen, and text too small to read.
const PHONE_CHECK: &str = "
    const w = window.innerWidth;
    const bad = [];
    if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth);
    for (const e of document.querySelectorAll('main *, dialog[open] *')) {
      const r = e.getBoundingClientRect();
      if (r.width && e.offsetParent !== null && r.right > w + 1) bad.push((e.id || e.className.baseVal || e.className || e.tagName) + ' ' + Math.round(r.right));
    }
    for (const e of document.querySelectorAll('svg text')) {
      const r = e.getBoundingClientRect();
      if (r.height && r.height < 11) bad.push('small text ' + e.textContent + ' ' + r.height.toFixed(1));
    }
    // A select is wide enough for each of its options (the arrow aside).
    const ctx = document.createElement('canvas').getContext('2d');
    for (const s of document.querySelectorAll('dialog[open] select')) {
      if (!s.offsetParent) continue;
      const style = getComputedStyle(s);
      ctx.font = style.font;
      const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      for (const o of s.options) {
        if (ctx.measureText(o.textContent).width > room) bad.push('select ' + s.name + ': ' + o.textContent);
      }
    }
    return bad;";

fn phone_problems(b: &Browser) -> Vec<String> {
    b.strings(PHONE_CHECK)
}

/// French typography: no plain space before `: ; ! ?` in the text shown.
fn plain_spaces_before_punctuation(b: &Browser) -> Vec<String> {
    b.strings(
        "const text = document.body.innerText;
         return [...text.matchAll(/.{0,20} [:;!?].{0,10}/g)].map(m => m[0]);",
    )
}

/// The rows the header's buttons take (issue 21.12: three on a French
/// phone).
fn header_rows(b: &Browser) -> usize {
    let n = b.eval(
        "const tops = [...document.querySelectorAll('header button, header a')]
           .filter(e => e.offsetParent !== null)
           .map(e => e.getBoundingClientRect()).map(r => r.top + r.height / 2);
         tops.sort((a, b) => a - b);
         let rows = 0, last = -1e9;
         for (const y of tops) { if (y - last > 12) rows++; last = y; }
         return rows;",
    );
    n.as_u64().unwrap_or(0) as usize
}

/// Checks that no hole labels of `board` run together (`what` names the
/// check): a letter touching its count ("D10"), or a chip touching its
/// neighbour's.
fn assert_labels_apart(b: &Browser, board: &str, what: &str) {
    let cramped = b.strings(&format!(
        "const bad = [];
         const chips = [...document.querySelectorAll('{board} rect.chip')]
           .filter(r => r.nextElementSibling && r.nextElementSibling.classList.contains('letter'));
         const boxes = chips.map(r => r.getBoundingClientRect());
         chips.forEach((r, i) => {{
           const l = r.nextElementSibling, c = l.nextElementSibling;
           const gap = c.getBoundingClientRect().left - l.getBoundingClientRect().right;
           if (c.textContent && gap < 3) bad.push(l.textContent + ' ' + c.textContent + ': ' + gap.toFixed(1));
           boxes.forEach((o, j) => {{
             const same = Math.abs(o.top - boxes[i].top) < 2;
             const apart = o.left - boxes[i].right;
             if (j !== i && same && o.left > boxes[i].left && apart < 3) bad.push('chips ' + l.textContent + ' ' + apart.toFixed(1));
           }});
         }});
         return bad;"
    ));
    assert!(cramped.is_empty(), "{what}: {cramped:?}");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_phone_390_pixels_wide_shows_everything_in_french_and_english() {
    let site = Site::start("phone");
    // Games in the list, so that its width is tested.
    for record in ["1. F f 2. A a *", "1. C *"] {
        site.import(json!({ "record": record }));
    }
    let b = Browser::start("phone", "fr-FR,fr", 390, 844);
    open(&b, &site.url);
    assert_eq!(b.eval("return window.innerWidth"), json!(390));
    // The games imported are there: a new visit shows the last one changed.
    b.wait_for(
        "a game",
        "return !!document.querySelector('#game-info div')",
        15,
    );
    b.click("#btn-new");
    b.wait_open("#dlg-new", 15);
    assert_eq!(b.text("#btn-start"), "Commencer");
    // Its buttons on the screen as it opens, not below the fold.
    assert_eq!(
        b.eval(
            "const r = document.querySelector('#btn-start').getBoundingClientRect(); \
             return r.top >= 0 && r.bottom <= window.innerHeight"
        ),
        json!(true),
        "Start below the fold"
    );
    b.click("#form-new details summary");
    b.click("select[name=direction] option[value=counter_clockwise]");
    let problems = phone_problems(&b);
    assert!(problems.is_empty(), "new game dialog: {problems:?}");
    b.screenshot(&shot_path("phone-new-game.png"));
    b.click("input[name=mode][value=humans] + span");
    // The game shown before (the last one imported, North to move) is not
    // the new one: waiting for "a game whose id is in the address" alone
    // passed at once, with the old game's "Au tour de Nord" (a flake).
    let before = hash(&b);
    b.click("#btn-start");
    b.exec("window.__before = arguments[0]", json!([before]));
    b.wait_for(
        "the new game",
        "const id = location.hash.replace('#game=', ''); \
         return location.hash !== window.__before && id.length > 0 \
           && document.querySelector('#game-info').textContent.startsWith('Partie ' + id)",
        10,
    );
    wait_for_person(&b);
    assert_eq!(b.text("#status"), "Au tour de Sud");
    b.click(".hole-hit.legal[data-letter='F']");
    wait_moves(&b, 1);
    wait_for_person(&b);
    assert_eq!(b.text("#status"), "Au tour de Nord");
    // North's holes are the ones lit now.
    let lit = legal(&b);
    assert_eq!(lit, "abcdef");
    b.click(".hole-hit.legal[data-letter='b']");
    wait_moves(&b, 2);
    wait_for_person(&b);
    let problems = phone_problems(&b);
    assert!(problems.is_empty(), "board: {problems:?}");
    let spaces = plain_spaces_before_punctuation(&b);
    assert!(spaces.is_empty(), "French typography: {spaces:?}");
    assert_eq!(header_rows(&b), 2, "the French phone header");
    assert_labels_apart(&b, "#board", "board");
    to_top(&b);
    b.screenshot(&screenshot_path("screenshot-phone.png"));

    // The list of games: every game and its buttons on the screen.
    b.click("#btn-games");
    b.wait_for(
        "the games",
        "return document.querySelectorAll('.game-card .watch').length === 3",
        10,
    );
    let problems = phone_problems(&b);
    assert!(problems.is_empty(), "games: {problems:?}");
    b.screenshot(&shot_path("phone-games.png"));

    // The rules page, in French, with its pictures.
    b.click("#btn-rules");
    assert_eq!(b.text("#rules-text h1"), "Les règles de l'awalé");
    let figures = b.eval("return document.querySelectorAll('#rules-text figure svg').length");
    assert_eq!(figures, json!(4));
    let problems = phone_problems(&b);
    assert!(problems.is_empty(), "rules: {problems:?}");
    b.eval("document.querySelector('figure[data-fig=krou]').scrollIntoView()");
    b.screenshot(&shot_path("phone-rules.png"));
    let spaces = plain_spaces_before_punctuation(&b);
    assert!(spaces.is_empty(), "French typography: {spaces:?}");
    b.click("#btn-lang");
    assert_eq!(b.text("#rules-text h1"), "The rules of Awalé");

    // The board in English.
    b.click("#btn-play");
    wait_for_person(&b);
    assert_eq!(b.text("#status"), "South to move");
    assert_eq!(header_rows(&b), 2, "the English phone header");
    to_top(&b);
    b.screenshot(&screenshot_path("screenshot-phone-en.png"));

    // Counts of two digits keep their distance from their letters, on a
    // phone and on a desktop ("D 10", "a 11").
    b.goto(&site.page("#analysis&position=1-0-3-10-12-4-11-4-0-0-2-1-0-0-S&rules=awale"));
    b.wait_for(
        "the position",
        "return document.querySelector(\"#analysis-board [data-count='D']\")?.textContent === '10'",
        15,
    );
    assert_labels_apart(&b, "#analysis-board", "phone");
    // The same page on a desktop's screen (a phone's screen is emulated:
    // `resize` changes the emulated screen, as the window's size would not).
    b.resize(1280, 900);
    b.wait_for(
        "the desktop's board",
        "return window.innerWidth === 1280 && document.querySelector('#analysis-board').clientWidth > 450",
        10,
    );
    assert_labels_apart(&b, "#analysis-board", "desktop");
    assert_eq!(header_rows(&b), 1, "the desktop header");
}

/// What of the header does not fit: a button past the screen's edge or
/// under another one, a word cut in its button, a page wider than the
/// screen.
fn header_overflow(b: &Browser) -> Vec<String> {
    b.strings(
        "const bad = [], w = window.innerWidth;
         const items = [...document.querySelectorAll('header button, header a')]
           .filter(e => e.offsetParent !== null);
         const boxes = items.map(e => e.getBoundingClientRect());
         items.forEach((e, i) => {
           const r = boxes[i], name = e.id || e.className;
           if (r.left < -0.5 || r.right > w + 0.5) bad.push(`${name} past the edge: ${r.left.toFixed(0)}-${r.right.toFixed(0)}`);
           if (e.scrollWidth > e.clientWidth + 1) bad.push(`${name} cut: ${e.scrollWidth} > ${e.clientWidth}`);
           boxes.forEach((o, j) => {
             const overlap = Math.min(r.right, o.right) - Math.max(r.left, o.left) > 1
               && Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top) > 1;
             if (j > i && overlap) bad.push(`${name} over ${items[j].id || items[j].className}`);
           });
         });
         if (document.documentElement.scrollWidth > w) bad.push(`page ${document.documentElement.scrollWidth} wide`);
         return bad;",
    )
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_header_fits_at_every_width_in_french_and_english() {
    // Started as a phone: its emulated screen is resized to each width.
    let (_site, b) = Site::start("header").visited("fr-FR,fr", PHONE, open);
    b.wait_open("#dlg-new", 15);
    b.click("#dlg-new button[value=cancel]");
    // The rows of buttons each width gives (style.css): two below a wide
    // desktop's (New game, the account and the icons; then the views), one
    // above.
    let widths = [(390, 2), (768, 2), (1024, 2), (1280, 1)];
    for lang in ["fr", "en"] {
        if b.string("return document.documentElement.lang") != lang {
            switch_language(&b, lang);
        }
        for (width, rows) in widths {
            b.resize(width, 900);
            b.wait_for(
                &format!("a screen {width} wide"),
                &format!("return window.innerWidth === {width}"),
                10,
            );
            let overflow = header_overflow(&b);
            assert!(overflow.is_empty(), "{lang} at {width}: {overflow:?}");
            assert_eq!(header_rows(&b), rows, "{lang} at {width}: rows");
        }
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_game_loaded_from_a_record_is_finished_and_its_result_shown() {
    let (_site, b) = first_visit("finish");
    b.click("#dlg-new button[value=cancel]");
    // Nothing yet: the page says what to do, over the whole board: no
    // hole label half under it (issue 21.12).
    assert!(b.text("#welcome").contains("New game"));
    let outside = b.strings(
        "const w = document.querySelector('#welcome').getBoundingClientRect();
         return [...document.querySelectorAll('#board rect.chip')].map(c => c.getBoundingClientRect())
           .filter(r => r.top < w.top - 1 || r.bottom > w.bottom + 1 || r.left < w.left - 1 || r.right > w.right + 1)
           .map(r => `${Math.round(r.left)},${Math.round(r.top)}`);",
    );
    assert!(
        outside.is_empty(),
        "labels outside the welcome: {outside:?}"
    );

    // A bad file gets a clear error.
    import(&b, "1. F f 2. F");
    b.wait_shown("#import-error", 10);
    let error = b.text("#import-error");
    assert!(error.contains("ply 3 (F): This hole is empty."), "{error}");

    // South's last seed feeds North, who cannot feed back: the game ends.
    import(
        &b,
        "[Event \"Endgame\"]\n[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-20-27-S\"]\n\n*\n",
    );
    wait_for_person(&b);
    assert_eq!(count(&b, 'F'), "1");
    b.click(".hole-hit.legal[data-letter='F']");
    b.wait_shown("#result", 20);
    assert_eq!(b.text("#result"), "North wins!");
    let status = b.text("#status");
    assert!(
        status.contains("South 20 seeds – North 28 seeds"),
        "{status}"
    );
    assert!(status.contains("could not be fed"), "{status}");
    // The seed left went to North's store, as the rules give it.
    b.wait_for(
        "North's store to hold 28",
        "return document.querySelector(\"[data-store='N']\").textContent === '28'",
        10,
    );
    assert_eq!(count(&b, 'a'), "0");
    assert_eq!(legal(&b), "");
    // In the list, the result in words.
    b.click("#btn-games");
    let result = b.text(".game-card .result-line");
    assert_eq!(result, "1 ply · North won (no move left)");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_stored_game_is_replayed_move_by_move() {
    let (_site, b) = first_visit("replay");
    b.click("#dlg-new button[value=cancel]");
    import(&b, "[Event \"Replay\"]\n\n1. F f 2. A a 3. C *\n");
    wait_moves(&b, 5);

    // From the list of games, replay it.
    b.click("#btn-games");
    b.click(".game-card .watch");
    b.wait_shown("#replay-bar", 10);
    assert_eq!(b.text("#replay-label"), "Start position");
    assert_eq!(count(&b, 'F'), "4");
    b.click("#rp-next");
    assert_eq!(b.text("#replay-label"), "Replay: 1. F · ply 1 of 5");
    assert_eq!(count(&b, 'F'), "0");
    assert_eq!(count(&b, 'a'), "5");
    b.click("#rp-next");
    assert_eq!(count(&b, 'f'), "0");
    assert_eq!(count(&b, 'A'), "5");
    b.click("#rp-last");
    assert_eq!(b.text("#replay-label"), "Replay: 3. C · ply 5 of 5");
    assert_eq!(count(&b, 'C'), "0");
    b.click("#rp-prev");
    assert_eq!(count(&b, 'C'), "6"); // 4, +1 from f, +1 from A

    // No move can be played while replaying.
    assert_eq!(legal(&b), "");
    // The move list is reached by keyboard: arrows step through it.
    b.eval("document.querySelector('#move-list .mv.current').focus()");
    b.keys("\u{E012}"); // ArrowLeft
    assert_eq!(b.text("#replay-label"), "Replay: 2. A · ply 3 of 5");
    assert_eq!(
        b.eval("return document.activeElement.dataset.ply"),
        json!("2")
    );
    b.click("#rp-exit");
    wait_for_person(&b);
    assert_eq!(count(&b, 'C'), "0");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_killed_server_restarts_and_the_game_goes_on_with_every_move() {
    let (mut site, b) = first_visit("restart");
    b.click("#sel-level option[value='1']");
    b.click("#btn-start");
    wait_for_person(&b);
    for letter in ["A", "B"] {
        let before = moves(&b).len();
        wait_for_person(&b);
        let target = if b
            .eval(&format!(
                "return !!document.querySelector(\".hole-hit.legal[data-letter='{letter}']\")"
            ))
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
    site.restart();
    b.goto(&site.url);
    wait_moves(&b, 4);
    assert_eq!(moves(&b), played);
    wait_for_person(&b);
    let letter = first_legal(&b).expect("a legal hole");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    wait_moves(&b, 6);
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_clockwise_board_is_drawn_as_the_mirror_image_and_can_be_turned() {
    let (_site, b) = first_visit("mirror");
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
    // The rules in words, not as the server names them.
    let info = b.text("#game-info");
    assert!(info.contains("sowing clockwise"), "{info}");
    assert!(!info.contains("direction="), "{info}");
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

/// Game `id` once it has `n` moves, asked of the server (at most 30 s).
fn game_with_moves(site: &Site, id: &str, n: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, g) = site.call("GET", &format!("/api/games/{id}"), None);
        if g["plies"].as_array().is_some_and(|p| p.len() >= n) {
            return g;
        }
        assert!(Instant::now() < deadline, "game {id} has no move {n}: {g}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_computers_answer_is_there_when_the_page_comes_back() {
    let site = Site::start("away");
    // The strongest level, out of the opening book (a target of 40
    // seeds): the computer thinks a while over each move.
    let (_, info) = site.call("GET", "/api/info", None);
    let strongest = info["levels"].as_array().unwrap().last().unwrap()["number"].clone();
    let (status, game) = site.call(
        "POST",
        "/api/games",
        Some(json!({"mode": "computer", "level": strongest, "human": "S", "rules": "awale,target=40"})),
    );
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let page = format!("{}/#game={id}", site.url);
    // The browser becomes the test's player on the site first, then
    // opens the game.
    let b = english("away", &site.url);
    b.goto(&page);
    person_to_play(&b, "the person's first move");
    // The person plays, and the page is closed at once.
    let letter = first_legal(&b).expect("a legal hole");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    b.goto("about:blank");
    let g = game_with_moves(&site, &id, 2);
    assert_eq!(g["plies"][0]["move"], letter.as_str(), "{g}");
    assert_eq!(g["plies"][1]["side"], "N", "{g}");
    // Opened again, the page shows the answer and waits for the person.
    open(&b, &page);
    wait_moves(&b, 2);
    person_to_play(&b, "the person's turn after the answer");
    assert_eq!(b.text("#status"), "Your move");

    // With no page open at all (a move sent, the page gone before its
    // answer), the computer answers too, and the page shows it.
    b.goto("about:blank");
    let legal = g["legal"][0].as_str().expect("a legal move").to_string();
    let (status, moved) = site.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": legal, "ply": 2})),
    );
    assert_eq!(status, 200, "{moved}");
    game_with_moves(&site, &id, 4);
    open(&b, &page);
    wait_moves(&b, 4);
    person_to_play(&b, "the person's turn after the second answer");
}

/// Waits until the person can play (legal holes lit), saying `what` when
/// it does not come, with the page's status.
fn person_to_play(b: &Browser, what: &str) {
    let lit = "return document.querySelectorAll('.hole-hit.legal').length > 0";
    let deadline = Instant::now() + Duration::from_secs(30);
    while b.eval(lit) != json!(true) {
        assert!(
            Instant::now() < deadline,
            "{what}: no legal hole lit; page: {}",
            b.page_state()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_new_game_started_while_the_computer_thinks_stays_on_the_board() {
    let (site, b) = first_visit("stale");
    // The strongest level, the person North: the computer thinks at once
    // (a target of 40 seeds keeps the game out of the opening book, which
    // would answer at once).
    b.wait_for(
        "the levels",
        "return document.querySelectorAll('#sel-level option').length >= 7",
        10,
    );
    b.eval("const s = document.querySelector('#sel-level'); s.value = s.options[s.options.length - 1].value;\
         document.querySelector('#sel-target').value = '40'");
    b.click("input[name=human][value=N] + span");
    b.click("#btn-start");
    b.wait_for(
        "the computer to think",
        "return document.querySelector('#status').textContent.includes('thinking')",
        10,
    );
    let old = game_id(&b);
    // While it thinks, what it foresees is not shown.
    let thinking = b.text("#thinking");
    assert!(
        thinking.is_empty() || thinking.starts_with("The computer is thinking…"),
        "{thinking}"
    );
    assert!(
        !thinking.contains('+') && !thinking.contains("seed"),
        "{thinking}"
    );

    // A new game at level 1, the person South.
    b.click("#btn-new");
    b.wait_open("#dlg-new", 15);
    b.eval("document.querySelector('#sel-level').value = '1'; document.querySelector('#sel-target').value = 'off'");
    b.click("input[name=human][value=S] + span");
    b.click("#btn-start");
    wait_for_person(&b);
    let new = game_id(&b);
    assert_ne!(old, new);

    // The first game's search ends and its move is stored...
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, g) = site.call("GET", &format!("/api/games/{old}"), None);
        if g["plies"].as_array().is_some_and(|p| p.len() == 1) {
            break;
        }
        assert!(Instant::now() < deadline, "the first game's move: {g}");
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(600));
    // ...but the page stays on the new game.
    assert_eq!(hash(&b), format!("#game={new}"));
    assert!(b.text("#game-info").starts_with(&format!("Game {new}")));
    assert_eq!(moves(&b).len(), 0);
    assert_eq!(b.text("#status"), "Your move");

    // A move played at once after opening a game goes to that game.
    b.goto(&format!("{}/#game={old}", site.url));
    b.wait_for(
        "the first game",
        &format!(
            "return document.querySelector('#game-info').textContent.startsWith('Game {old}')"
        ),
        10,
    );
    wait_for_person(&b);
    let letter = first_legal(&b).expect("a legal hole");
    b.click(&format!(".hole-hit.legal[data-letter='{letter}']"));
    wait_moves(&b, 2);
    let (_, g) = site.call("GET", &format!("/api/games/{old}"), None);
    assert_eq!(g["plies"][1]["move"], letter.as_str(), "{g}");
    let (_, g) = site.call("GET", &format!("/api/games/{new}"), None);
    assert_eq!(g["plies"].as_array().map(Vec::len), Some(0), "{g}");
}

/// The words said under the board are the game's: a new game started
/// after a resignation does not keep "You lost. You resigned." under its
/// "Your move".
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_new_game_does_not_keep_the_last_games_words() {
    let (_site, b) = first_visit("said");
    b.click("input[name=human][value=S] + span");
    b.click("#btn-start");
    wait_for_person(&b);
    b.click("#btn-resign");
    b.click("#resign-S");
    b.wait_shown("#result", 10);
    b.wait_for(
        "the resignation said",
        "return document.querySelector('#said').textContent.includes('You resigned.')",
        10,
    );
    let resigned = game_id(&b);
    b.click("#btn-new");
    b.wait_open("#dlg-new", 15);
    b.click("input[name=human][value=S] + span");
    b.click("#btn-start");
    // The new game on the board (the last one's result would do for
    // `wait_for_person`).
    b.wait_for(
        "the new game",
        &format!(
            "return !location.hash.startsWith('#game={resigned}') \
             && document.querySelectorAll('.hole-hit.legal').length > 0"
        ),
        30,
    );
    assert_eq!(b.text("#status"), "Your move");
    let said = b.string("return document.querySelector('#said').textContent");
    assert!(!said.contains("resigned"), "{said}");
}

/// An arena game's Berserk button, whose label says what it does, wraps
/// in the side column: the page is never wider than the window (French,
/// 1300 pixels, where it was 1332 wide).
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_berserk_button_wraps_within_the_page() {
    let (_site, b) = first_visit("berserk");
    b.click("#btn-start");
    wait_for_person(&b);
    switch_language(&b, "fr");
    b.resize(1300, 900);
    // Shown as in an arena's game.
    b.eval("document.querySelector('#game-berserk').hidden = false");
    assert!(b
        .text("#game-berserk")
        .starts_with("Berserk (moitié du temps"));
    let widths =
        b.eval("const e = document.documentElement; return [e.scrollWidth, e.clientWidth]");
    assert!(widths[0].as_u64() <= widths[1].as_u64(), "{widths}");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_loss_on_time_shows_the_losers_clock_at_zero_and_says_who() {
    let site = Site::start("flag");
    let url = &site.url;
    // Six seconds each, nothing added: South, to move, runs out.
    let (status, g) = site.call(
        "POST",
        "/api/games",
        Some(json!({"mode": "humans", "clock": {"minutes": 0.1, "increment_seconds": 0}})),
    );
    assert_eq!(status, 201, "{g}");
    let b = english(
        "flag",
        &format!("{url}/#game={}", g["id"].as_str().unwrap()),
    );
    // Fair play: no hint in a game with a clock.
    b.wait_for(
        "the clock",
        "return document.querySelector('#player-bottom .clock').textContent !== ''",
        10,
    );
    assert_eq!(
        b.eval("return document.querySelector('#btn-hint').disabled"),
        json!(true)
    );
    b.wait_shown("#result", 20);
    assert_eq!(b.text("#result"), "North wins!");
    assert!(
        b.text("#status").contains("South's time ran out."),
        "{}",
        b.text("#status")
    );
    assert_eq!(b.text("#player-bottom .clock"), "0:00");
    let flagged = b.eval(
        "return document.querySelector('#player-bottom .clock').classList.contains('flagged')",
    );
    assert_eq!(flagged, json!(true));
    assert_ne!(b.text("#player-top .clock"), "0:00");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn back_and_forward_walk_through_views_games_and_replays() {
    let site = Site::start("nav");
    let url = &site.url;
    let a = site.import(json!({"record": "1. F f *"}));
    // A game lost to the computer, for the replay of a finished game (the
    // person takes the side to move at its end: North).
    let lost = site.import(json!({
            "record": "[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-27-20-S\"]\n\n1. F *\n",
            "mode": "computer",
            "level": 1,
    }));
    // Fifty more games: the list shows them a page at a time.
    let many = "1. F *\n\n".repeat(50);
    site.import(json!({ "record": many }));
    let b = english("nav", &format!("{url}/#game={a}"));
    wait_moves(&b, 2);
    b.click("#btn-rules");
    assert_eq!(hash(&b), "#rules");
    b.click("#btn-games");
    assert_eq!(hash(&b), "#games");
    let cards = "return document.querySelectorAll('.game-card').length";
    // A busy machine (CI) may take long to list them: 30 s.
    b.wait_for("a page of games", &format!("{cards} === 50"), 30);
    b.click(".games .more button");
    b.wait_for("every game", &format!("{cards} === 52"), 30);
    b.eval("history.back()");
    b.wait_shown("#view-rules", 5);
    b.eval("history.back()");
    b.wait_shown("#view-play", 5);
    assert_eq!(hash(&b), format!("#game={a}"));

    // A move of the list: its own address, and Back leaves the replay.
    b.click("#move-list .mv[data-ply='0']");
    assert_eq!(hash(&b), format!("#game={a}&ply=1"));
    assert!(!b.text("#replay-label").is_empty());
    b.eval("history.back()");
    b.wait_for(
        "the end of the replay",
        "return document.querySelector('#replay-bar').hidden",
        5,
    );
    b.eval("history.forward()");
    b.wait_shown("#replay-bar", 5);

    // An address typed in (a change of hash) is followed.
    b.eval(&format!("location.hash = '#game={lost}'"));
    b.wait_for(
        "the other game",
        &format!(
            "return document.querySelector('#game-info').textContent.startsWith('Game {lost}')"
        ),
        10,
    );
    b.wait_shown("#result", 10);
    assert_eq!(b.text("#result"), "You lost.");

    // Reloaded at the start of its replay: the start, not the result.
    b.goto(&format!("{url}/#game={lost}&ply=0"));
    b.wait_shown("#replay-bar", 10);
    assert_eq!(b.text("#replay-label"), "Start position");
    assert_eq!(b.text("#status"), "Replay: South to move");
}

/// A game of `site` at a grand slam (F would take a and b, all of North's
/// seeds: forbidden; A is the only move), opened in English by browser
/// `name`, where F has been tapped: the refusal shown. The game's id and
/// the browser.
fn grand_slam_refused(site: &Site, name: &str) -> (String, Browser) {
    let id = site.import(json!({"record": "[FEN \"1-0-0-0-0-2-1-1-0-0-0-0-20-23-S\"]\n\n*\n"}));
    let b = english(name, &site.page(&format!("#game={id}")));
    wait_for_person(&b);
    assert_eq!(legal(&b), "A");
    b.click(".hole-hit[data-letter='F']");
    b.wait_shown("#toast", 10);
    (id, b)
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_refused_grand_slam_is_explained_in_words() {
    // No endgame databases: the page says how to build them.
    let empty = temp_dir("slam-no-db");
    let site = Site::start_with("slam", &["--db", empty.to_str().unwrap()]);
    let (_, b) = grand_slam_refused(&site, "slam");
    let said = b.text("#toast");
    assert!(
        said.contains("grand slam") && said.contains("forbid"),
        "{said}"
    );
    assert_eq!(moves(&b).len(), 0);

    b.click("#btn-new");
    b.wait_open("#dlg-new", 15);
    b.eval("const s = document.querySelector('#sel-level'); s.value = s.options[s.options.length - 1].value; s.dispatchEvent(new Event('change'))");
    let note = b.text("#level-oracle");
    assert!(note.contains("awale db build"), "{note}");
}

/// Issue 19: the page words everything the server sends as data (codes,
/// reasons, levels) from its own catalogs, so switching the language
/// changes every word: a refusal shown, a hint's reason, the levels, an
/// import's error.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn switching_the_language_changes_every_word_a_hint_and_a_refusal_included() {
    let site = Site::start("words");
    let (id, b) = grand_slam_refused(&site, "words");
    let said = b.text("#toast");
    assert!(said.contains("grand slam"), "{said}");
    switch_language(&b, "fr");
    let said = b.text("#toast");
    assert!(
        said.contains("grand chelem"),
        "the refusal in French: {said}"
    );

    b.click("#btn-hint");
    b.wait_for(
        "the hint's reasons",
        "return !!document.querySelector('#hint-box li')",
        30,
    );
    let why = b.text("#hint-box li");
    assert_eq!(why, "C'est le seul coup possible.");
    switch_language(&b, "en");
    assert_eq!(b.text("#hint-box li"), "It is the only legal move.");

    let first_level = "return document.querySelector('#sel-level').options[0].textContent";
    assert_eq!(b.string(first_level), "1. Seed");
    switch_language(&b, "fr");
    assert_eq!(b.string(first_level), "1. Graine");

    // A record whose result disagrees with its moves: refused, with its
    // facts worded in the page's language, and again in the other one.
    import(&b, "[Result \"0-1\"]\n\n1. F f 2. A a 1-0\n");
    b.wait_shown("#import-error", 10);
    let error = b.text("#import-error");
    assert!(
        error.contains("l'étiquette Result dit 0-1") && error.contains("1-0"),
        "{error}"
    );
    switch_language(&b, "en");
    let error = b.text("#import-error");
    assert!(error.contains("the Result tag says 0-1"), "{error}");

    // A move said in English, under the board; in French, the line is
    // kept for a screen reader's history but no longer shown.
    b.exec(
        "location.hash = arguments[0]",
        json!([format!("#game={id}")]),
    );
    wait_for_person(&b);
    b.click(".hole-hit.legal[data-letter='A']");
    b.wait_for(
        "the move said in English",
        "const p = document.querySelector('#said p:last-child'); return !!p && p.lang === 'en'",
        20,
    );
    switch_language(&b, "fr");
    let shown_in_english = b.strings(
        "return [...document.querySelectorAll('#said p')]
           .filter(p => p.getBoundingClientRect().width > 1 && p.lang !== document.documentElement.lang)
           .map(p => p.textContent)",
    );
    assert!(shown_in_english.is_empty(), "{shown_in_english:?}");
}
