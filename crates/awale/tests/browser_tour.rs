//! A new player's tour of the site (issue 42), end to end in a real
//! headless Chromium: every view once, as a new player meets them, on a
//! phone (390 pixels) and on a desktop, in French and in English. On each
//! view: nothing past the screen's edge, one `h1`, no catalog key shown
//! raw nor a word left empty, no word of the other language (a side's or
//! a guest's name), no link in the browser's default blue, no script
//! error and nothing in the browser's console (a refused request is the
//! page's to say, not the console's; the page sends none it knows will
//! be refused);
//! on a desktop, no violation of WCAG 2.1 A and AA that axe-core finds.
//! Each view is saved as a picture, to look at by eye.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::json;
use webdriver::{member, open_at_once, page_fetch, sign_up, tap, Browser, Site, DESKTOP, PHONE};

/// Kept by the page from its first script on: what the console was told
/// as an error, and the errors no script caught.
const WATCH_ERRORS: &str = "
  window.__problems = [];
  const error = console.error.bind(console);
  console.error = (...args) => { window.__problems.push('console.error: ' + args.map(String).join(' ')); error(...args); };
  addEventListener('error', (e) => window.__problems.push('error: ' + e.message));
  addEventListener('unhandledrejection', (e) => window.__problems.push('unhandled: ' + ((e.reason && e.reason.message) || e.reason)));
";

/// What a new player would find wrong on the page as it is now, in
/// `arguments[0]` (`fr` or `en`).
const LOOK: &str = "
  const lang = arguments[0];
  const bad = [];
  // A phone's browser widens its page to what overflows: the screen's
  // width is the measure there.
  const w = window.innerWidth < 600 || screen.width < 600 ? Math.min(window.innerWidth, screen.width) : window.innerWidth;
  const seen = (e) => !!e && e.getClientRects().length > 0 && !e.closest('[hidden]')
    && getComputedStyle(e).visibility !== 'hidden' && (!e.checkVisibility || e.checkVisibility());
  const name = (e) => e.id || (typeof e.className === 'string' ? e.className : '') || e.tagName;
  // Inside a box that scrolls sideways, itself within the screen.
  const scrolled = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === 'auto' || o === 'scroll') && p.scrollWidth > p.clientWidth + 1) return p.getBoundingClientRect().right <= w + 1;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > w + 1) bad.push('page ' + document.documentElement.scrollWidth + ' wide');
  const dialog = document.querySelector('dialog[open]');
  const scope = dialog ? [dialog] : [document.querySelector('header'), document.querySelector('main')];
  for (const root of scope) {
    for (const e of root.querySelectorAll('*')) {
      if (!seen(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width && r.right > w + 1 && !scrolled(e)) bad.push('past the edge: ' + name(e) + ' ' + Math.round(r.right));
      if (r.width && r.left < -1 && r.right > 1) bad.push('past the left edge: ' + name(e) + ' ' + Math.round(r.left));
    }
  }
  // On a phone, each control big enough to touch (24 pixels, WCAG 2.2's
  // least) and apart from the others.
  if (w < 600) {
    const targets = [];
    for (const root of scope) {
      for (const e of root.querySelectorAll('button, a.button, select, summary, input:not([type=checkbox]):not([type=radio])')) {
        if (seen(e)) targets.push([e, e.getBoundingClientRect()]);
      }
    }
    for (const [e, r] of targets) {
      if (r.height < 24 || r.width < 24) bad.push('too small to touch: ' + name(e) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    for (let i = 0; i < targets.length; i++) {
      for (let j = i + 1; j < targets.length; j++) {
        const [a, ra] = targets[i];
        const [b, rb] = targets[j];
        if (a.contains(b) || b.contains(a)) continue;
        const dx = Math.max(ra.left - rb.right, rb.left - ra.right);
        const dy = Math.max(ra.top - rb.bottom, rb.top - ra.bottom);
        if (dx < 1 && dy < 1) bad.push('touching: ' + name(a) + ' ' + (a.textContent || '').trim().slice(0, 20) + ' / ' + name(b) + ' ' + (b.textContent || '').trim().slice(0, 20));
      }
    }
  }
  if (!dialog) {
    const h1 = [...document.querySelectorAll('main h1')].filter(seen);
    if (h1.length !== 1) bad.push('h1: ' + h1.length);
  }
  for (const root of scope) {
    for (const a of root.querySelectorAll('a[href]')) {
      if (!seen(a)) continue;
      const c = getComputedStyle(a).color;
      if (c === 'rgb(0, 0, 238)' || c === 'rgb(85, 26, 139)') bad.push('default link colour: ' + name(a) + ' ' + a.textContent.trim());
    }
    for (const e of root.querySelectorAll('[data-i18n]')) {
      if (seen(e) && !e.textContent.trim()) bad.push('no words: ' + e.dataset.i18n);
    }
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent.trim();
      if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(text) && seen(n.parentElement)) bad.push('a catalog key: ' + text);
    }
    const said = root.innerText || '';
    const other = lang === 'fr' ? /\\b(Guest \\d+|South|North)\\b/ : /\\b(Invité \\d+|Sud|Nord)\\b/;
    const found = said.match(other);
    if (found) bad.push('the other language: ' + found[0]);
  }
  for (const p of window.__problems || []) bad.push(p);
  window.__problems = [];
  return bad;
";

/// What is wrong with the view `what` of `b` in `lang`, each line headed
/// by where it was seen.
/// Each view is also saved as a picture to look at by eye, in a temporary
/// folder (its path printed by the test).
fn look(b: &Browser, lang: &str, size: &str, what: &str, found: &mut Vec<String>) {
    b.screenshot(&shots().join(format!(
        "{lang}-{size}-{}.png",
        what.replace([' ', '\''], "-")
    )));
    let bad = b.exec(LOOK, json!([lang]));
    for line in bad.as_array().into_iter().flatten() {
        found.push(format!(
            "[{lang} {size} {what}] {}",
            line.as_str().unwrap_or("?")
        ));
    }
    // The browser's own console too: the page's errors, and Chrome's line
    // for each request refused (4xx) or failed (5xx): the page sends none
    // it knows will be refused.
    for (source, message) in b.console_errors() {
        // Chrome asks `/favicon.ico` for a document without an icon of
        // its own: the API's JSON the tour visits to load the page anew,
        // not the page (its icon is declared).
        if source == "network" && message.contains("/favicon.ico ") {
            continue;
        }
        found.push(format!(
            "[{lang} {size} {what}] console {source}: {message}"
        ));
    }
    // On a desktop, axe-core too (WCAG 2.1 A and AA; its rules do not
    // depend on the screen's width).
    if size == "desktop" {
        for v in b.axe_violations() {
            found.push(format!("[{lang} {size} {what}] axe: {v}"));
        }
    }
}

/// Where the tour's pictures go (a temporary folder).
fn shots() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = webdriver::temp_dir("tour-shots");
        eprintln!("the tour's pictures: {}", dir.display());
        dir
    })
}

/// Goes to `hash` and waits until `ready` (a script's condition) holds.
fn visit(b: &Browser, hash: &str, ready: &str) {
    b.exec("location.hash = arguments[0]", json!([hash]));
    b.wait_for(
        &format!("{hash} drawn"),
        &format!("return location.hash === {} && ({ready})", json!(hash)),
        30,
    );
}

/// The views a new player reaches from the header, each looked at.
fn views(b: &Browser, arena: &str, lang: &str, size: &str, found: &mut Vec<String>) {
    let arena_hash = format!("#tournament={arena}");
    for (hash, what, ready) in [
        (
            "#games",
            "my games",
            // The games first, then the import's controls (issue 42).
            "document.querySelectorAll('.game-card').length > 0 \
               && document.querySelector('.game-card').getBoundingClientRect().top \
                  < document.querySelector('#view-games section.import').getBoundingClientRect().top",
        ),
        ("#rules", "rules", "!!document.querySelector('#rules-text figure svg')"),
        ("#learn", "lessons", "document.querySelectorAll('.lesson-card').length > 0"),
        (
            "#puzzles&seed=3&difficulty=3",
            "puzzles",
            "document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0",
        ),
        (
            "#analysis",
            "analysis",
            "document.querySelectorAll('#analysis-board .hole-hit').length === 12",
        ),
        (
            "#puzzles&streak=1&seed=5",
            "puzzle streak",
            "document.querySelectorAll('#puzzle-board .hole-hit.legal').length > 0 \
               && !document.querySelector('#puzzle-main').hidden \
               && !document.querySelector('#puzzle-rating').hidden",
        ),
        (
            "#mistakes",
            "mistakes",
            "document.querySelectorAll('#mistake-list li').length > 0",
        ),
        (
            "#explorer",
            "explorer",
            "document.querySelectorAll('#explorer-moves tbody tr').length > 0 \
               && document.querySelectorAll('#explorer-board .hole-hit').length === 12",
        ),
        (
            "#lobby",
            "lobby",
            "document.querySelectorAll('#pools button').length > 0 \
               && document.querySelectorAll('#arena-list a').length > 0",
        ),
        (
            arena_hash.as_str(),
            "an arena to come",
            "!!document.querySelector('#arena-title').textContent",
        ),
        (
            "#leaderboard=blitz",
            "leaderboard",
            "!document.querySelector('#leaderboard').hidden",
        ),
        (
            "#ladder=bullet",
            "engine ladder",
            "!document.querySelector('#view-ladder').hidden \
               && !!document.querySelector('#ladder-about').textContent",
        ),
        (
            "#player=Bob_B",
            "a player's page",
            "!document.querySelector('#player-body').hidden && !!document.querySelector('#player-ratings li')",
        ),
    ] {
        visit(b, hash, ready);
        look(b, lang, size, what, found);
    }
    for (button, dialog, what) in [
        ("#btn-new", "#dlg-new", "new game dialog"),
        ("#btn-settings", "#dlg-settings", "settings"),
        ("#btn-account", "#dlg-account", "account"),
    ] {
        tap(b, button);
        b.wait_open(dialog, 10);
        look(b, lang, size, what, found);
        b.exec(
            "document.querySelector(arguments[0]).close()",
            json!([dialog]),
        );
    }
}

/// A new player in `lang`: the first visit's dialog, a game against the
/// computer, every view on a phone then on a desktop, then the same as an
/// account (its own page, its settings).
fn tour(site: &Site, arena: &str, lang: &str, languages: &str) -> Vec<String> {
    let mut found = Vec::new();
    let b = Browser::start(&format!("tour-{lang}"), languages, PHONE.0, PHONE.1);
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": WATCH_ERRORS }),
    );
    open_at_once(&b, &site.url);
    b.wait_open("#dlg-new", 20);
    look(&b, lang, "phone", "first visit", &mut found);
    // The look sees what it looks for: a link in the default blue, a
    // catalog key, a script's error, put there and taken away.
    b.exec(
        "const a = document.createElement('a'); a.id = 'planted'; a.href = '#rules'; \
         a.style.color = 'rgb(0, 0, 238)'; a.textContent = 'some_key'; \
         document.querySelector('#dlg-new').append(a); console.error('planted');",
        json!([]),
    );
    // A request refused (404), which Chrome logs on its own.
    b.exec_async(
        "const done = arguments[arguments.length - 1]; \
         fetch('/api/planted').then(() => done(true), () => done(false));",
    );
    let mut planted = Vec::new();
    look(&b, lang, "phone", "planted", &mut planted);
    b.exec("document.querySelector('#planted').remove()", json!([]));
    for words in [
        "default link colour: planted",
        "a catalog key: some_key",
        "console.error: planted",
        "console console-api: ",
        "console network: ",
    ] {
        assert!(
            planted.iter().any(|p| p.contains(words)),
            "{words}: {planted:?}"
        );
    }
    tap(&b, "#btn-start");
    b.wait_for(
        "a game against the computer",
        "return document.querySelectorAll('#board .hole-hit.legal').length > 0",
        20,
    );
    tap(&b, "#board .hole-hit.legal");
    b.wait_for(
        "the computer's answer",
        "return document.querySelectorAll('#move-list .mv').length >= 2 \
           && document.querySelectorAll('#board .hole-hit.legal').length > 0",
        30,
    );
    look(&b, lang, "phone", "play", &mut found);
    let game = b.string("return location.hash.slice(6).split('&')[0]");
    views(&b, arena, lang, "phone", &mut found);
    b.resize(1280, 900);
    b.wait_for(
        "a desktop's screen",
        "return window.innerWidth === 1280",
        10,
    );
    visit(
        &b,
        &format!("#game={game}"),
        "document.querySelectorAll('#board .hole-hit').length === 12",
    );
    look(&b, lang, "desktop", "play", &mut found);
    views(&b, arena, lang, "desktop", &mut found);
    // One list of speeds for the player page's filter and the explorer's,
    // in the page's words.
    let options = |select: &str| {
        b.strings(&format!(
            "return [...document.querySelectorAll('{select} option')].map((o) => o.value + '=' + o.textContent)"
        ))
    };
    let speeds = options("#player-speed");
    assert_eq!(speeds.len(), 7, "{speeds:?}");
    assert_eq!(options("#explorer-speed"), speeds);
    let all = if lang == "fr" {
        "=Toutes les cadences"
    } else {
        "=All speeds"
    };
    assert_eq!(speeds[0], all);
    assert!(speeds[3].starts_with("blitz=Blitz"), "{speeds:?}");

    // A refusal through the page itself: a name taken, sent from the
    // sign-up form. The page says it in the form, and its code tells the
    // console nothing; Chrome's own line for a request answered 409 is the
    // one entry, which no page can silence (that a name is taken only the
    // server knows: a normal outcome, not a request the page knew would
    // be refused).
    found.extend(b.console_errors().into_iter().map(|(source, message)| {
        format!("[{lang} before the sign-up] console {source}: {message}")
    }));
    tap(&b, "#btn-account");
    b.wait_open("#dlg-account", 10);
    tap(&b, "#dlg-account [data-to=signup]");
    b.wait_shown("#dlg-account [data-pane=signup]", 10);
    tap(&b, "#signup-name");
    b.keys("Bob_B");
    tap(&b, "#signup-password");
    b.keys("seeds in the fourth hole");
    tap(&b, "#btn-signup");
    b.wait_shown("#account-error", 10);
    let taken = if lang == "fr" {
        "Ce nom d'utilisateur est déjà pris."
    } else {
        "This username is taken."
    };
    assert_eq!(b.text("#account-error"), taken);
    let heard = b.console_errors();
    assert!(
        heard.len() == 1
            && heard[0].0 == "network"
            && heard[0].1.contains("/api/account/signup")
            && heard[0].1.contains("409"),
        "a refused sign-up: the console heard {heard:?}"
    );
    b.exec("document.querySelector('#dlg-account').close()", json!([]));

    // Signed up: its own page and its account's settings (kid mode said).
    let me = if lang == "fr" {
        "Ama_tour"
    } else {
        "Kofi_tour"
    };
    sign_up(&b, me);
    eprintln!("the tour in {lang} so far: {found:#?}");
    // Another address first: a new address with only its `#` changed
    // would not load the page again.
    b.goto(&format!("{}/api/info", site.url));
    b.goto(&site.page(&format!("#player={me}")));
    // A new address: the phone's screen is emulated again.
    b.resize(1280, 900);
    b.wait_for(
        "a desktop's screen again",
        "return window.innerWidth === 1280",
        10,
    );
    b.wait_for(
        "one's own page",
        "return !document.querySelector('#player-body').hidden",
        20,
    );
    b.wait_for(
        "the header naming the account",
        &format!("return document.querySelector('#btn-account').textContent === {me:?}"),
        20,
    );
    look(&b, lang, "desktop", "one's own page", &mut found);
    tap(&b, "#btn-account");
    b.wait_shown("#dlg-account [data-pane=account]", 10);
    b.wait_open("#dlg-account", 10);
    look(&b, lang, "desktop", "account settings", &mut found);
    b.exec("document.querySelector('#dlg-account').close()", json!([]));
    b.resize(PHONE.0, PHONE.1);
    b.wait_for("a phone's screen", "return window.innerWidth === 390", 10);
    tap(&b, "#btn-account");
    b.wait_shown("#dlg-account [data-pane=account]", 10);
    b.wait_open("#dlg-account", 10);
    look(&b, lang, "phone", "account settings", &mut found);
    found
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_new_player_tours_every_view_on_a_phone_and_a_desktop_in_both_languages() {
    let site = Site::with_database("tour");
    // An account with a page to visit.
    let bob = Browser::start("tour-bob", "en-GB,en", 800, 600);
    bob.goto(&site.page("#rules"));
    sign_up(&bob, "Bob_B");
    // An arena to come, in the lobby's list.
    let made = page_fetch(
        &bob,
        "POST",
        "/api/tournaments",
        json!({"name": "Tour du soir", "minutes_each": 3.0, "increment_s": 2, "minutes": 20, "starts_in_minutes": 30}),
    );
    let arena = made["body"]["id"].to_string();
    assert!(
        made["status"].as_u64().is_some_and(|s| s < 300) && arena != "null",
        "{made}"
    );
    let mut found = tour(&site, &arena, "fr", "fr-FR,fr");
    found.extend(tour(&site, &arena, "en", "en-US,en"));
    assert!(
        found.is_empty(),
        "a new player finds:\n{}",
        found.join("\n")
    );
}

/// Plays two moves of the online game `id` (one each), each from the one
/// of `players` to move (the other is refused), so that it counts.
fn two_moves(id: &str, players: [&Browser; 2]) {
    for _ in 0..2 {
        let view = page_fetch(players[0], "GET", &format!("/api/games/{id}"), json!(null));
        let legal = view["body"]["legal"][0]
            .as_str()
            .unwrap_or_else(|| panic!("{view}"))
            .to_string();
        let ply = view["body"]["plies"].as_array().map_or(0, Vec::len);
        let moved = players.iter().any(|p| {
            let answer = page_fetch(
                p,
                "POST",
                &format!("/api/games/{id}/moves"),
                json!({"move": legal, "ply": ply}),
            );
            answer["status"].as_u64().is_some_and(|s| s < 300)
        });
        assert!(moved, "nobody could play {legal} in {view}");
    }
}

/// An online game without a clock made by `maker`, joined by `joiner`,
/// two moves played, then resigned by `maker`: its public id.
fn lost_by(maker: &Browser, joiner: &Browser, name: Option<&str>) -> String {
    lost_with(maker, joiner, name, json!(null))
}

/// [`lost_by`], the game's clock `clock` (the request's, null for none).
fn lost_with(
    maker: &Browser,
    joiner: &Browser,
    name: Option<&str>,
    clock: serde_json::Value,
) -> String {
    let made = page_fetch(
        maker,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true, "name": name, "clock": clock}),
    );
    let id = made["body"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{made}"))
        .to_string();
    let joined = page_fetch(joiner, "POST", &format!("/api/games/{id}/join"), json!({}));
    assert!(
        joined["status"].as_u64().is_some_and(|s| s < 300),
        "{joined}"
    );
    two_moves(&id, [maker, joiner]);
    let resigned = page_fetch(maker, "POST", &format!("/api/games/{id}/resign"), json!({}));
    assert!(
        resigned["status"].as_u64().is_some_and(|s| s < 300),
        "{resigned}"
    );
    id
}

/// Issue 42: a French player's opponents named as everywhere on the page,
/// in My games and on their page alike: a deleted account as "joueur
/// supprimé" (My games said "?"), a guest without a nickname as "Invité
/// N" (not "Guest N", as the server's default name reads in English);
/// a game without a clock said "no clock", one over days correspondence.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn opponents_are_named_alike_in_my_games_and_on_a_players_page() {
    let site = Site::start("tour-names");
    let ama = Browser::start("tour-names-ama", "fr-FR,fr", 1280, 900);
    ama.goto(&site.page("#rules"));
    sign_up(&ama, "Ama_N");
    let zed = Browser::start("tour-names-zed", "en-GB,en", 800, 600);
    zed.goto(&site.page("#rules"));
    sign_up(&zed, "Zed_Z");
    let guest = Browser::start("tour-names-guest", "en-GB,en", 800, 600);
    guest.goto(&site.page("#rules"));
    let with_zed = lost_by(&zed, &ama, None);
    // A game over days, three days a move.
    let days = lost_with(&zed, &ama, None, json!({"days": 3}));
    // The guest's default name, as its English page sends it.
    let number = page_fetch(&guest, "GET", "/api/me", json!(null))["body"]["guest"].clone();
    let with_guest = lost_by(&guest, &ama, Some(&format!("Guest {number}")));
    let deleted = page_fetch(
        &zed,
        "POST",
        "/api/account/delete",
        json!({"password": "seeds in the fourth hole"}),
    );
    assert!(
        deleted["status"].as_u64().is_some_and(|s| s < 300),
        "{deleted}"
    );

    // A challenge of Ama's nobody took, called off.
    let alone = page_fetch(
        &ama,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true}),
    )["body"]["id"]
        .as_str()
        .expect("Ama's challenge")
        .to_string();
    let aborted = page_fetch(
        &ama,
        "POST",
        &format!("/api/games/{alone}/abort"),
        json!({}),
    );
    assert_eq!(aborted["status"], 200, "{aborted}");

    ama.goto(&format!("{}/api/info", site.url));
    open_at_once(&ama, &site.page("#games"));
    let card = |id: &str| format!(".game-card[data-id='{id}'] .head b");
    ama.wait_for(
        "both games in My games",
        &format!(
            "return !!document.querySelector({:?}) && !!document.querySelector({:?})",
            card(&with_zed),
            card(&with_guest)
        ),
        20,
    );
    let zed_card = ama.text(&card(&with_zed));
    assert!(
        zed_card.contains("joueur supprimé") && !zed_card.contains('?'),
        "{zed_card}"
    );
    // Nobody took it: no "contre ?".
    let alone_card = ama.text(&card(&alone));
    assert!(
        alone_card.contains("Ama_N") && alone_card.ends_with(", sans adversaire"),
        "{alone_card}"
    );
    let guest_card = ama.text(&card(&with_guest));
    assert!(
        guest_card.contains("Invité ") && !guest_card.contains("Guest"),
        "{guest_card}"
    );
    ama.exec("location.hash = '#player=Ama_N'", json!([]));
    ama.wait_for(
        "the games on Ama's page",
        "return document.querySelectorAll('#player-games li.played').length === 3",
        20,
    );
    let line = |id: &str| ama.text(&format!("#player-games li.played[data-id='{id}']"));
    let zed_line = line(&with_zed);
    assert!(zed_line.contains("contre joueur supprimé"), "{zed_line}");
    let guest_line = line(&with_guest);
    assert!(
        guest_line.contains("contre Invité ") && !guest_line.contains("Guest"),
        "{guest_line}"
    );
    // A live game without a clock reads "sans pendule", not
    // "Correspondance" (issue 42); a game over days reads correspondence.
    for without in [&zed_line, &guest_line] {
        assert!(
            without.contains("Partie amicale · sans pendule")
                && !without.contains("Correspondance"),
            "{without}"
        );
    }
    let days_line = line(&days);
    assert!(days_line.contains("· Correspondance ·"), "{days_line}");
    // In English, the same words in English.
    tap(&ama, "#btn-lang");
    ama.wait_for(
        "Ama's page in English",
        "return document.documentElement.lang === 'en'            && document.querySelectorAll('#player-games li.played').length === 3            && document.querySelector('#player-games li.played').textContent.includes('Casual')",
        20,
    );
    let line = |id: &str| ama.text(&format!("#player-games li.played[data-id='{id}']"));
    assert!(
        line(&with_zed).contains("· no clock ·"),
        "{}",
        line(&with_zed)
    );
    assert!(
        line(&with_guest).contains("· no clock ·"),
        "{}",
        line(&with_guest)
    );
    assert!(
        line(&days).contains("· Correspondence ·"),
        "{}",
        line(&days)
    );
}

/// Issue 42: "log out everywhere" reaches the other tabs of the browser
/// (they went on naming the account until they navigated): each starts
/// again logged out, its header saying "Se connecter", and opens no New
/// game dialog by itself.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn logging_out_everywhere_logs_the_other_tabs_out() {
    let site = Site::start("tour-tabs");
    let b = member("tour-tabs", "fr-FR,fr", DESKTOP, &site.url, "Ama_T");
    let first = b.window();
    let second = b.new_tab();
    b.switch_to(&second);
    b.goto(&site.page("#rules"));
    let header = |name: &str| {
        format!("return document.querySelector('#btn-account').textContent === {name:?} && !document.querySelector('#view-rules').hidden")
    };
    b.wait_for("the second tab naming the account", &header("Ama_T"), 20);
    b.switch_to(&first);
    b.exec("location.hash = '#rules'", json!([]));
    tap(&b, "#btn-account");
    b.wait_shown("#dlg-account [data-pane=account]", 10);
    b.wait_open("#dlg-account", 10);
    tap(&b, "#btn-logout-everywhere");
    b.wait_for("this tab logged out", &header("Se connecter"), 20);
    b.switch_to(&second);
    b.wait_for("the other tab logged out", &header("Se connecter"), 20);
    assert_eq!(
        b.eval("return document.querySelector('#dlg-new').open"),
        json!(false),
        "no New game dialog opened by itself"
    );
    let me = page_fetch(&b, "GET", "/api/me", json!(null));
    assert!(me["body"]["account"].is_null(), "{me}");
}
