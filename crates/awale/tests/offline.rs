//! The page without a network, end to end: the real `awale serve`, a real
//! headless Chromium on a phone-sized screen. The app is installed (its
//! service worker keeps the page and the engine in WebAssembly), then the
//! network is cut (DevTools' offline emulation, and the server stopped):
//! the page starts again from the phone's cache, plays a whole game
//! against the computer and a lesson with its own engine; back online, the
//! game is in My games on the server, once. What the page says with the
//! server out of reach: a server's game, the lobby and the puzzles need the
//! network, and what works meanwhile; the connection line's clocks only in a
//! game with them. Also the WebAssembly engine's
//! speed against the native binary's (`awale bench`), in one run, a
//! measurement run by hand (docs/BENCHMARKS.md).
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored.

mod webdriver;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::{tap, temp_dir, Browser, Site, PHONE};

/// Opens `url` with quick animations, no sound, nothing kept of a visit.
fn open(b: &Browser, url: &str) {
    b.goto(url);
    b.eval(
        "localStorage.clear(); localStorage.setItem('awale.speed', '20'); \
         localStorage.setItem('awale.sound', 'off');",
    );
    b.goto(url);
}

/// Whether the service worker controls the page and keeps the engine.
const INSTALLED: &str = "if (!navigator.serviceWorker.controller) return false; \
    window.__kept = window.__kept || caches.keys().then(async (keys) => { \
      for (const k of keys) { const c = await caches.open(k); \
        for (const r of await c.keys()) if (r.url.endsWith('/awale.wasm')) return true; } \
      return false; }).then((v) => { window.__keptValue = v; if (!v) window.__kept = null; }); \
    return window.__keptValue === true;";

/// Where the service worker's registration stands, for a failure's message.
const REGISTRATION: &str = "const done = arguments[0]; \
    navigator.serviceWorker.getRegistration().then(async (r) => { \
      const keys = await caches.keys(); \
      done(r ? ['installing', 'waiting', 'active'].map((s) => s + ': ' + (r[s] ? r[s].state : '-')).join(', ') \
               + ' | caches: ' + keys.join(' ') \
             : 'no registration | caches: ' + keys.join(' ')); \
    }).catch((e) => done('getRegistration failed: ' + e));";

/// Waits until the service worker controls the page and keeps the engine.
/// Its install fetches the page's files and the engine (3 MB): seconds on
/// an idle machine. A browser whose first install did not come (once in a
/// whole suite on two loaded cores: no worker after 120 s) installs it on
/// the next visit: after 45 s the page is loaded again, as a person's
/// second visit, and given 120 s more.
fn wait_installed(b: &Browser) {
    let wait = |seconds: u64| {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while Instant::now() < deadline {
            if b.eval(INSTALLED) == json!(true) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        false
    };
    if wait(45) {
        return;
    }
    let first = b.exec_async(REGISTRATION);
    eprintln!("no service worker after 45 s ({first}): the page is visited again");
    let url = b.string("return location.href");
    b.goto("about:blank");
    b.goto(&url);
    assert!(
        wait(120),
        "no service worker with the engine kept after a second visit (first visit: {first}; now: {})",
        b.exec_async(REGISTRATION)
    );
}

/// Waits until the person can play or the game is over; true when over.
fn wait_turn_or_end(b: &Browser) -> bool {
    b.wait_for(
        "the person's turn or the end",
        "return document.querySelectorAll('#board .hole-hit.legal').length > 0 || !!document.querySelector('#result')",
        60,
    );
    b.eval("return !!document.querySelector('#result')") == json!(true)
}

/// The page's own request to the server (with its cookie): status and JSON.
fn fetch(b: &Browser, method: &str, path: &str, body: Value) -> (u16, Value) {
    let script = format!(
        "const done = arguments[arguments.length - 1]; \
         const body = {body}; \
         fetch({path:?}, {{ method: {method:?}, headers: {{'Content-Type': 'application/json'}}, \
           body: body === null ? undefined : JSON.stringify(body) }}) \
           .then(async (r) => done([r.status, await r.json()]), (e) => done([0, String(e)]));"
    );
    let v = b.exec_async(&script);
    (v[0].as_u64().unwrap_or(0) as u16, v[1].clone())
}

/// The file a click on `css` saves (a record, `.ogn`), as a person who
/// clicks Export gets it, in a folder of its own named after `folder`.
fn downloaded(b: &Browser, folder: &str, css: &str) -> String {
    let dir = temp_dir(folder);
    b.cdp(
        "Browser.setDownloadBehavior",
        json!({"behavior": "allow", "downloadPath": dir.to_string_lossy()}),
    );
    tap(b, css);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let saved = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .find(|e| e.path().extension().is_some_and(|x| x == "ogn"))
            .and_then(|e| std::fs::read_to_string(e.path()).ok())
            .filter(|text| !text.is_empty());
        if let Some(text) = saved {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{css}: no record saved in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn without_a_network_the_installed_app_plays_and_sends_its_games_back() {
    let (mut site, b) = Site::start("offline").visited("en-US,en", PHONE, open);
    wait_installed(&b);

    // Installable: a manifest with its icons, and no error from Chromium.
    let manifest = b.exec_async(
        "const done = arguments[0]; \
         const link = document.querySelector('link[rel=manifest]'); \
         fetch(link.href).then((r) => r.json()).then(async (m) => { \
           const icons = await Promise.all(m.icons.map((i) => fetch(new URL(i.src, link.href)).then((r) => r.headers.get('content-type')))); \
           done([m.name, m.display, m.start_url, icons]); });",
    );
    assert_eq!(
        manifest,
        json!([
            "Awalé",
            "standalone",
            "/",
            ["image/png", "image/png", "image/png"]
        ])
    );
    let errors = b.cdp("Page.getInstallabilityErrors", json!({}));
    assert_eq!(errors["installabilityErrors"], json!([]), "{errors}");

    // The network goes: the server stops and the phone is offline.
    site.stop();
    b.set_offline(true);
    b.goto(&site.url);
    b.wait_open("#dlg-new", 30);
    // Online play and the Perfect level say that they need the network.
    b.click("input[name=mode][value=online]");
    b.click("#btn-start");
    b.wait_for(
        "the refusal of online play",
        "return document.querySelector('#new-error').textContent.includes('Online play needs the network')",
        10,
    );
    b.click("input[name=mode][value=computer]");
    // The Perfect level is shown, not offered (the page's engine cannot
    // play it), rather than refused after Start.
    b.wait_for(
        "the Perfect level not offered",
        "const o = document.querySelector('#sel-level option[value=\"18\"]'); \
         return o.disabled && o.textContent.endsWith('(with the network only)') \
           && document.querySelector('#sel-level').value !== '18'",
        20,
    );
    // A searching level without a database (Titan), to the end.
    b.click("#sel-level option[value='15']");
    b.click("#btn-start");
    b.wait_for(
        "an offline game",
        "return location.hash.startsWith('#game=offline-') || \
           (document.querySelector('#new-error').textContent.includes('endgame') ? false : \
            document.querySelector('#new-error').textContent)",
        20,
    );
    assert!(
        b.string("return location.hash").starts_with("#game=offline-"),
        "{}",
        b.string("return document.querySelector('#new-error').textContent + ' ' + document.querySelector('#toast').textContent")
    );
    let started = Instant::now();
    let mut plies = 0;
    while !wait_turn_or_end(&b) {
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the game does not end"
        );
        // The person plays the first hole lit.
        b.click("#board .hole-hit.legal");
        plies += 1;
    }
    let result = b.text("#result");
    assert!(!result.is_empty());
    let offline_game = b.string("return location.hash.slice(6)");
    let played = b.eval("return document.querySelectorAll('#move-list .mv').length");
    assert!(plies >= 10, "{plies} moves of the person");
    // Export, offline: the record written here, in the notation other
    // Oware programs read (not a greyed button).
    b.wait_for(
        "the offline game's Export",
        "const a = document.querySelector('#btn-export'); \
         return a.getAttribute('aria-disabled') === null && !a.classList.contains('disabled') \
           && a.href.startsWith('blob:') && a.getAttribute('download').endsWith('.ogn')",
        20,
    );
    let exported = downloaded(&b, "offline-export", "#btn-export");
    let records =
        awale_core::parse_records(&exported).unwrap_or_else(|e| panic!("{e}: {exported}"));
    let game = records[0]
        .to_game()
        .unwrap_or_else(|e| panic!("{e}: {exported}"));
    assert_eq!(json!(game.plies().len()), played, "{exported}");
    assert!(
        exported.contains("[North \"Computer (level 15)\"]"),
        "{exported}"
    );

    // A lesson, with the page's own rules.
    b.goto(&format!("{}/#learn", site.url));
    b.click(".lesson-card[data-lesson='capture']");
    b.wait_for(
        "the lesson's board",
        "return document.querySelectorAll('#lesson-board .hole-hit.legal').length > 0",
        20,
    );
    b.click("#lesson-board .hole-hit.legal");
    b.wait_for(
        "the lesson's answer",
        "return document.querySelector('#lesson-feedback').textContent.length > 0",
        20,
    );

    // The analysis board, with the engine's lines; two people on one
    // screen; the rules.
    b.goto(&format!(
        "{}/#analysis&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&rules=awale&moves=F",
        site.url
    ));
    b.wait_for(
        "the engine's lines, offline",
        "return document.querySelectorAll('#an-lines li').length >= 3",
        30,
    );
    b.goto(&format!("{}/#rules", site.url));
    b.wait_for(
        "the rules, offline",
        "return document.querySelector('#view-rules').innerText.length > 500",
        10,
    );
    b.goto(&format!("{}/#games", site.url));
    b.click("#btn-new");
    b.wait_open("#dlg-new", 10);
    b.click("input[name=mode][value=humans]");
    b.click("#btn-start");
    b.wait_for(
        "a game on one screen, offline",
        "return location.hash.startsWith('#game=offline-') \
           && document.querySelectorAll('#move-list .mv').length === 0 \
           && document.querySelectorAll('#board .hole-hit.legal').length === 6",
        20,
    );
    b.click("#board .hole-hit.legal");
    b.wait_for(
        "North's turn on one screen",
        "return document.querySelectorAll('#move-list .mv').length === 1 \
           && document.querySelectorAll('#board .hole-hit.legal').length > 0",
        20,
    );

    // My games, offline: the game is kept here, to send.
    b.goto(&format!("{}/#games", site.url));
    b.wait_for(
        "the offline game in My games",
        "return [...document.querySelectorAll('#games-list .game-card')].some((c) => c.textContent.includes('played offline'))",
        20,
    );
    // Its card exports it too: the record written here.
    let saved = downloaded(
        &b,
        "offline-export-card",
        &format!("#games-list .game-card[data-id='{offline_game}'] a.export"),
    );
    assert_eq!(
        saved, exported,
        "My games exports the record the board exports"
    );
    assert!(b.string("return location.hash") == "#games");

    // Back online: the game goes to the server, once.
    site.restart();
    b.set_offline(false);
    b.goto(&format!("{}/#rules", site.url));
    b.click("#btn-games");
    let deadline = Instant::now() + Duration::from_secs(30);
    let listed = loop {
        let (status, list) = fetch(&b, "GET", "/api/games", Value::Null);
        assert_eq!(status, 200, "{list}");
        let on_server: Vec<Value> = list["games"]
            .as_array()
            .expect("a list")
            .iter()
            .filter(|g| g["offline"].is_null())
            .cloned()
            .collect();
        if !on_server.is_empty() || Instant::now() > deadline {
            break on_server;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["mode"], "computer");
    assert_eq!(listed[0]["level"], 15);
    assert_eq!(json!(listed[0]["plies"]), played);
    assert_ne!(listed[0]["result"], "*");
    // Its record from the server has the moves and the result exported
    // offline.
    let id = listed[0]["id"].as_str().expect("an id");
    let from_server = b
        .exec_async(&format!(
            "const done = arguments[0]; fetch('/api/games/{id}/record').then((r) => r.text()).then(done);"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string();
    let moves = |record: &str| -> Vec<String> {
        record
            .lines()
            .filter(|l| {
                !l.starts_with("[Site") && !l.starts_with("[Round") && !l.starts_with("[Date")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        moves(&exported),
        moves(&from_server),
        "offline:\n{exported}\nserver:\n{from_server}"
    );
    // The page lists it from the server; the game on one screen, still
    // going on, stays in the browser until it ends.
    b.wait_for(
        "My games from the server",
        "const cards = [...document.querySelectorAll('#games-list .game-card')]; \
         return cards.length === 2 && cards.filter((c) => c.textContent.includes('played offline')).length === 1",
        20,
    );
    // The same upload again (an answer lost on the way) stores nothing more.
    let kept = b.exec_async(&format!(
        "const done = arguments[0]; const r = indexedDB.open('awale-offline'); \
         r.onsuccess = () => {{ const q = r.result.transaction('games').objectStore('games').get({offline_game:?}); \
           q.onsuccess = () => done(q.result); }};"
    ));
    let (status, again) = fetch(
        &b,
        "POST",
        "/api/uploads",
        json!({
            "key": kept["key"], "rules": kept["rules"], "start": kept["start"], "moves": kept["moves"],
            "mode": "computer", "human": kept["human"], "level": kept["level"],
        }),
    );
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["created"], false);
    assert_eq!(again["game"]["id"], listed[0]["id"]);
    let (_, list) = fetch(&b, "GET", "/api/games", Value::Null);
    assert_eq!(list["games"].as_array().map(Vec::len), Some(1), "{list}");
}

/// `awale bench ARGS` of the binary under test: its output.
fn native_bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_awale"))
        .arg("bench")
        .args(args)
        .output()
        .expect("awale bench runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number after `before` in `text`.
fn number_after(text: &str, before: &str) -> f64 {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("no `{before}` in {text}"))
        + before.len();
    text[at..]
        .trim_start()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after `{before}` in {text}"))
}

/// An operation of the page's engine, in its worker: its answer.
fn engine(b: &Browser, request: Value) -> Value {
    b.exec_async(&format!(
        "const done = arguments[0]; \
         const src = document.querySelector('link[rel=modulepreload][href$=\"/js/engine.js\"]').href; \
         import(src).then((e) => e.ask({request})).then(done, (e) => done({{ failed: e.code }}));"
    ))
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_page_engine_searches_exactly_as_the_binary() {
    let (_site, b) = Site::start("engine-signature").visited("en-US,en", (1000, 800), open);
    let native = native_bench(&["--depth", "12"]);
    let page = engine(&b, json!({"op": "bench", "depth": 12}));
    // The same search: the same node signature over `awale bench`'s positions.
    assert_eq!(
        page["nodes"].as_f64(),
        Some(number_after(&native, "depth 12:")),
        "{page} / {native}"
    );
    assert_eq!(page["positions"], 16);
    // Bad requests get the API's errors, never a crash of the worker.
    let bad = engine(&b, json!({"op": "position", "position": "4-4-4"}));
    assert_eq!(bad["failed"], "bad_position", "{bad}");
    let after = engine(
        &b,
        json!({"op": "position", "position": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}),
    );
    assert_eq!(after["to_move"], "S");
}

/// The speed of the engine in WebAssembly against the native binary's, in
/// one run on the same machine: `awale bench`'s positions at depth 18, one
/// thread, the best of three runs of each (alternating), and the depth
/// reached from the start in one second. A measurement, run by hand on a
/// release build (docs/BENCHMARKS.md):
/// `cargo test --release -p awale --test offline -- --ignored --nocapture wasm_speed`.
#[test]
#[ignore = "a measurement: run by hand (docs/BENCHMARKS.md)"]
fn wasm_speed_against_native() {
    let (_site, b) = Site::start("wasm-speed").visited("en-US,en", (1000, 800), open);
    let (mut native_nps, mut page_nps) = (0f64, 0f64);
    let (mut native_depth, mut page_depth) = (0f64, 0f64);
    for _ in 0..3 {
        let native = native_bench(&["--start-time", "1000"]);
        native_nps = native_nps.max(number_after(&native, "s,") * 1e6);
        native_depth = native_depth.max(number_after(&native, "start position: depth"));
        let page = engine(&b, json!({"op": "bench", "depth": 18}));
        page_nps = page_nps.max(page["nps"].as_f64().expect("nodes per second"));
        let start = engine(&b, json!({"op": "start_time", "time_ms": 1000}));
        page_depth = page_depth.max(start["depth"].as_f64().expect("a depth"));
        assert_eq!(
            page["nodes"].as_f64(),
            Some(number_after(&native, "depth 18:"))
        );
    }
    let ratio = page_nps / native_nps;
    println!(
        "native {:.2} M nodes/s, WebAssembly in Chromium {:.2} M nodes/s: {:.2} of native; \
         depth from the start in 1 s: native {native_depth}, WebAssembly {page_depth}",
        native_nps / 1e6,
        page_nps / 1e6,
        ratio
    );
    assert!(ratio >= 0.5, "the page's engine is at {ratio:.2} of native");
}

/// Opens `url` as [`open`] does, the browser being the test player of
/// the games made through the API.
fn open_as_test_player(b: &Browser, url: &str) {
    b.goto(url);
    b.be_test_player();
    open(b, url);
}

/// A game against the computer made on `site` by the test player (with
/// `clock` when not null): its id.
fn server_game(site: &Site, clock: Value) -> String {
    let mut body = json!({"mode": "computer", "level": 1, "human": "S"});
    if !clock.is_null() {
        body["clock"] = clock;
    }
    let (status, game) = site.call("POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{game}");
    game["id"].as_str().expect("a game's id").to_string()
}

/// Loads `url` afresh (not a move within the page shown).
fn load(b: &Browser, url: &str) {
    b.goto("about:blank");
    b.goto(url);
}

/// Waits until `css` is shown and holds each of `words` (French's
/// no-break spaces read as spaces).
fn wait_words(b: &Browser, css: &str, words: &[&str]) {
    b.wait_for(
        &format!("{css} saying {words:?}"),
        &format!(
            "const e = document.querySelector({css:?}); \
             return !!e && !e.hidden && e.offsetParent !== null && \
               {words:?}.every((w) => e.textContent.replace(/[\\u00a0\\u202f]/g, ' ').includes(w));"
        ),
        // Generous: a loaded machine (CI) reconnects the streams slowly.
        60,
    );
}

/// The text the view `css` shows, as a reader sees it.
fn shown_text(b: &Browser, css: &str) -> String {
    b.string(&format!("return document.querySelector({css:?}).innerText"))
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn without_the_server_the_page_says_what_needs_the_network_and_what_works() {
    let (mut site, b) =
        Site::start("offline-words").visited("en-US,en", PHONE, open_as_test_player);
    let game = server_game(&site, Value::Null);
    wait_installed(&b);
    site.stop();

    // A server's game in the address: out of reach, said so, with what
    // works without the network; no "Play online".
    load(&b, &site.page(&format!("#game={game}")));
    wait_words(
        &b,
        "#welcome-offline",
        &[
            &format!("Game {game} is on the server"),
            "play the computer, two on this screen, and follow the lessons",
        ],
    );
    assert!(
        b.eval("return document.querySelector('#welcome-online').offsetParent === null")
            == json!(true)
    );
    b.click("#btn-lang");
    wait_words(
        &b,
        "#welcome-offline",
        &[
            &format!("La partie {game} est sur le serveur"),
            "jouer contre l'ordinateur, à deux sur cet écran, et suivre les leçons",
        ],
    );

    // The lobby says it needs the network, and draws no empty list.
    b.click("#btn-lobby");
    wait_words(
        &b,
        "#lobby-offline",
        &[
            "Le jeu en ligne a besoin du réseau",
            "jouer contre l'ordinateur",
        ],
    );
    let lobby = shown_text(&b, "#view-lobby");
    for absent in [
        "Aucun tournoi",
        "Parties en cours",
        "Aucune partie",
        "Chargement",
    ] {
        assert!(!lobby.contains(absent), "{absent} in {lobby}");
    }
    b.click("#btn-lang");
    wait_words(
        &b,
        "#lobby-offline",
        &["Online play needs the network", "play the computer"],
    );
    // The server stopped while the phone has a network: the Perfect
    // level is not offered either, said before Start.
    b.click("#btn-new");
    b.wait_open("#dlg-new", 10);
    b.click("input[name=mode][value=computer]");
    b.wait_for(
        "the Perfect level not offered without the server",
        "const o = document.querySelector('#sel-level option[value=\"18\"]'); \
         return o.disabled && o.textContent.endsWith('(with the network only)') \
           && document.querySelector('#sel-level').value !== '18'",
        20,
    );
    b.exec("document.querySelector('#dlg-new').close()", json!([]));
    // The same with the phone offline too.
    b.set_offline(true);
    b.goto(&site.page("#lobby"));
    wait_words(&b, "#lobby-offline", &["Online play needs the network"]);
    let lobby = shown_text(&b, "#view-lobby");
    for absent in ["No tournament", "Games being played", "No game", "Loading"] {
        assert!(!lobby.contains(absent), "{absent} in {lobby}");
    }

    // Puzzles come from the server.
    b.goto(&site.page("#puzzles"));
    wait_words(
        &b,
        "#puzzle-missing",
        &[
            "Puzzles come from the server: they need the network",
            "follow the lessons",
        ],
    );
    b.click("#btn-lang");
    wait_words(
        &b,
        "#puzzle-missing",
        &["Les problèmes viennent du serveur : ils ont besoin du réseau"],
    );

    // The network back: the lobby's lists, and the puzzles asked again
    // (this server has no database: it says so).
    site.start_again();
    b.set_offline(false);
    b.click("#tab-lessons");
    b.click("#tab-puzzles");
    wait_words(&b, "#puzzle-missing", &["awale db build"]);
    b.click("#btn-lobby");
    wait_words(&b, "#arena-list", &["Aucun tournoi pour l'instant."]);
    assert!(b.eval("return document.querySelector('#lobby-offline').hidden") == json!(true));
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_connection_line_speaks_of_clocks_only_in_a_game_with_them() {
    let (mut site, b) =
        Site::start("offline-clocks").visited("en-US,en", PHONE, open_as_test_player);
    let url = site.url.clone();
    let opened = |id: &str| {
        load(&b, &format!("{url}/#game={id}"));
        b.wait_for(
            "the game on the board",
            "return document.querySelectorAll('#board .hole-hit.legal').length > 0",
            20,
        );
    };
    let untimed = server_game(&site, Value::Null);
    opened(&untimed);
    site.kill();
    wait_words(
        &b,
        "#connection",
        &["Connection to the server lost: reconnecting…"],
    );
    assert!(
        !b.text("#connection").contains("clock"),
        "{}",
        b.text("#connection")
    );
    b.click("#btn-lang");
    wait_words(
        &b,
        "#connection",
        &["Connexion au serveur perdue : reconnexion…"],
    );
    assert!(
        !b.text("#connection").contains("horloge"),
        "{}",
        b.text("#connection")
    );

    site.start_again();
    let timed = server_game(&site, json!({"minutes": 5, "increment_seconds": 3}));
    opened(&timed);
    site.kill();
    wait_words(
        &b,
        "#connection",
        &["Connexion au serveur perdue", "Les horloges attendent."],
    );
    b.click("#btn-lang");
    wait_words(
        &b,
        "#connection",
        &[
            "Connection to the server lost",
            "The clocks wait meanwhile.",
        ],
    );
}
