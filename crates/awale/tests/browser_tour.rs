//! A new player's tour of the site (issue 42), end to end in a real
//! headless Chromium: every view once, as a new player meets them, on a
//! phone (390 pixels) and on a desktop, in French and in English. On each
//! view: nothing past the screen's edge, one `h1`, no catalog key shown
//! raw nor a word left empty, no word of the other language (a side's or
//! a guest's name), no link in the browser's default blue, no script
//! error (a refused request is the page's to say, not the console's).
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::json;
use webdriver::{open_at_once, page_fetch, sign_up, tap, Browser, Site, PHONE};

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
  const w = window.innerWidth;
  const seen = (e) => !!e && e.getClientRects().length > 0 && !e.closest('[hidden]')
    && getComputedStyle(e).visibility !== 'hidden';
  const name = (e) => e.id || (typeof e.className === 'string' ? e.className : '') || e.tagName;
  if (document.documentElement.scrollWidth > w + 1) bad.push('page ' + document.documentElement.scrollWidth + ' wide');
  const dialog = document.querySelector('dialog[open]');
  const scope = dialog ? [dialog] : [document.querySelector('header'), document.querySelector('main')];
  for (const root of scope) {
    for (const e of root.querySelectorAll('*')) {
      if (!seen(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width && r.right > w + 1) bad.push('past the edge: ' + name(e) + ' ' + Math.round(r.right));
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
fn look(b: &Browser, lang: &str, size: &str, what: &str, found: &mut Vec<String>) {
    let bad = b.exec(LOOK, json!([lang]));
    for line in bad.as_array().into_iter().flatten() {
        found.push(format!(
            "[{lang} {size} {what}] {}",
            line.as_str().unwrap_or("?")
        ));
    }
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
    let mut planted = Vec::new();
    look(&b, lang, "phone", "planted", &mut planted);
    b.exec("document.querySelector('#planted').remove()", json!([]));
    assert_eq!(planted.len(), 3, "{planted:?}");
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
    // A refused request (a move out of turn, 409) is said by the page
    // only, not logged as an error.
    let game = b.string("return location.hash.slice(6).split('&')[0]");
    let refused = page_fetch(
        &b,
        "POST",
        &format!("/api/games/{game}/computer"),
        json!({}),
    );
    assert!(
        refused["status"].as_u64().is_some_and(|s| s >= 400),
        "{refused}"
    );
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
    look(&b, lang, "desktop", "account settings", &mut found);
    b.exec("document.querySelector('#dlg-account').close()", json!([]));
    b.resize(PHONE.0, PHONE.1);
    b.wait_for("a phone's screen", "return window.innerWidth === 390", 10);
    tap(&b, "#btn-account");
    b.wait_shown("#dlg-account [data-pane=account]", 10);
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

/// An online game made by `maker`, joined by `joiner`, two moves played,
/// then resigned by `maker`: its public id.
fn lost_by(maker: &Browser, joiner: &Browser, name: Option<&str>) -> String {
    let made = page_fetch(
        maker,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true, "name": name}),
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
/// N" (not "Guest N", as the server's default name reads in English).
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
    let guest_card = ama.text(&card(&with_guest));
    assert!(
        guest_card.contains("Invité ") && !guest_card.contains("Guest"),
        "{guest_card}"
    );
    ama.exec("location.hash = '#player=Ama_N'", json!([]));
    ama.wait_for(
        "both games on Ama's page",
        "return document.querySelectorAll('#player-games li.played').length === 2",
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
}
