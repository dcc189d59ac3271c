//! The moderator page in the browser, end to end: the real `awale serve`
//! and headless Chromium. Two accounts play rated, then are seen on one
//! device and their next rated game is flagged; an administrator (made on
//! the command line) finds the pair with their rated games, gives their
//! points back, mutes one of them and lets them chat again, then closes
//! her account (a cancel first closes nothing), each action confirmed in
//! a dialog with its reason and told; the page offers only the action
//! that applies; the closed account's name is no longer a link (to a page
//! that is gone) there, on her opponent's page, the leaderboard or their
//! game's chat; axe-core finds nothing in either language (issue 38 item
//! 5, issue 42's moderator items).
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::{json, Value};
use webdriver::{ama_and_kofi, member, page_fetch, rated_game, tap, Browser, DESKTOP};

const PASSWORD: &str = "seeds in the fourth hole";

/// Logs `b` out, then in as `name`, on the site at `url`: the page is
/// loaded between the two, so that the browser has its own guest cookie
/// (its device: a page loaded logged in gets none), then the account
/// asks once (where it is seen is noted at each request).
fn log_in_as(b: &Browser, url: &str, name: &str) {
    let out = page_fetch(b, "POST", "/api/account/logout", Value::Null);
    assert!(out["status"].as_u64().unwrap() < 300, "{out}");
    // Another address first: the page's own is then loaded anew (a
    // change of `#` alone loads nothing).
    b.goto(&format!("{url}/api/info"));
    b.goto(&format!("{url}/#rules"));
    b.wait_for(
        "the page loaded",
        "return !!document.querySelector('#btn-new').textContent || null",
        20,
    );
    let answer = page_fetch(
        b,
        "POST",
        "/api/account/login",
        json!({"username": name, "password": PASSWORD}),
    );
    assert!(answer["status"].as_u64().unwrap() < 300, "{name}: {answer}");
    let me = page_fetch(b, "GET", "/api/me", Value::Null);
    assert!(me["status"].as_u64().unwrap() < 300, "{me}");
}

/// Opens the account's dialog on `b` unless it is open already: the page
/// opens it once its account is read (`open` in account.js awaits it), so a
/// dialog asked before may open after a close, and a tap on the button
/// would then land on the dialog.
fn open_account(b: &Browser) {
    b.eval(
        "if (!document.querySelector('#dlg-account').open) \
           document.querySelector('#btn-account').click(); return true",
    );
}

/// Opens the account's dialog on `b` until it shows the moderator page
/// (the server sees a new rank within seconds: its sessions' cache).
fn open_moderation(b: &Browser, url: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(40);
    b.goto(&format!("{url}/#rules"));
    loop {
        open_account(b);
        // Generous waits: on a loaded machine the account's pane took
        // more than 10 s once.
        b.wait_shown("#dlg-account [data-pane=account]", 30);
        let seen = b.wait_for(
            "the account's pane drawn",
            "return document.querySelector('#account-name').textContent === 'yaa_m' \
               ? (document.querySelector('#moderation').hidden ? 'player' : 'moderator') : null",
            30,
        );
        if seen == json!("moderator") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never seen a moderator"
        );
        b.eval(
            "document.querySelector('#dlg-account').close(); document.querySelector('#account-name').textContent = ''",
        );
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    b.wait_for(
        "the flagged pair drawn",
        "return !!document.querySelector('#mod-flags li') || null",
        20,
    );
}

/// Taps the button of `section` whose words are `words`, confirms it in
/// the dialog with `reason` (an empty reason first: refused by the
/// form), and waits for the toast `told`.
/// `of`: the account whose line has the button (a pair's two lines have
/// the same buttons, in no set order), else the first in `section`.
fn confirm(
    b: &Browser,
    (section, of): (&str, Option<&str>),
    words: &str,
    reason: &str,
    told: &str,
) {
    let of = of.map_or("null".to_string(), |name| format!("{name:?}"));
    let found = b.eval(&format!(
        "const lines = [...document.querySelectorAll('{section} li > div')]
           .filter((d) => {of} === null || d.querySelector('a, span')?.textContent === {of});
         const b = [document.querySelector('{section}'), ...lines]
           .flatMap((l) => [...l.querySelectorAll('button')])
           .find((x) => x.textContent === {words:?} && ({of} === null || lines.some((l) => l.contains(x))));
         if (!b) return null;
         b.scrollIntoView({{block: 'center'}}); b.click(); return true;"
    ));
    assert_eq!(found, json!(true), "no button `{words}` in {section}");
    b.wait_open("#dlg-mod-confirm", 10);
    // No reason: the form does not send.
    tap(b, "#mod-confirm-ok");
    assert_eq!(
        b.eval("return document.querySelector('#dlg-mod-confirm').open"),
        json!(true),
        "sent without a reason"
    );
    tap(b, "#mod-reason");
    b.keys(reason);
    tap(b, "#mod-confirm-ok");
    b.wait_for(
        &format!("the toast `{told}`"),
        &format!(
            "return !document.querySelector('#dlg-mod-confirm').open \
               && !document.querySelector('#toast').hidden \
               && document.querySelector('#toast').textContent === {told:?} || null"
        ),
        20,
    );
}

/// The words of the buttons in `section`'s line naming `name`.
fn actions_of(b: &Browser, section: &str, name: &str) -> Value {
    b.eval(&format!(
        "const line = [...document.querySelectorAll('{section} li > div')]
           .find((d) => d.querySelector('a, span')?.textContent === {name:?});
         return line ? [...line.querySelectorAll('button')].map((x) => x.textContent) : null;"
    ))
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_moderator_page_refunds_and_mutes_then_unmutes_with_confirmation() {
    let (site, ama, kofi) = ama_and_kofi("moderation");
    let url = site.url.clone();
    // The administrator's browser, first: the new guests of an address
    // are limited, and the log-ins below take two.
    let yaa = member("moderation-yaa", "en-US,en", DESKTOP, &url, "yaa_m");
    // Two rated games, Ama wins both.
    let games = [
        rated_game(&ama, &kofi, &kofi),
        rated_game(&kofi, &ama, &kofi),
    ];
    // Kofi's phone logs in as Ama, then as Kofi again: one device.
    log_in_as(&kofi, &url, "Ama_K");
    log_in_as(&kofi, &url, "kofi_7");
    // Their next rated game is played casual, the pair flagged.
    let made = page_fetch(
        &ama,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true, "rated": true, "clock": {"minutes": 5, "increment_seconds": 3}}),
    );
    assert_eq!(made["status"], 201, "{made}");
    let id = made["body"]["id"].as_str().unwrap().to_string();
    let joined = page_fetch(&kofi, "POST", &format!("/api/games/{id}/join"), json!({}));
    assert!(joined["status"].as_u64().unwrap() < 300, "{joined}");
    let game = page_fetch(&kofi, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(game["body"]["rated"], false, "flagged: casual {game}");

    // The administrator, made on the command line.
    site.admin(&["grant-admin", "yaa_m"]);
    open_moderation(&yaa, &url);
    let flag = yaa.text("#mod-flags li");
    assert!(
        flag.contains("Ama_K") && flag.contains("kofi_7") && flag.contains("one device"),
        "{flag}"
    );
    for g in &games {
        assert!(flag.contains(g.as_str()), "{g} in {flag}");
    }
    // The gains of the day name Ama with the same games.
    let gains = yaa.text("#mod-gains");
    assert!(
        gains.contains("Ama_K") && gains.contains("gained"),
        "{gains}"
    );
    let found = yaa.axe_violations();
    assert!(
        found.is_empty(),
        "the moderator page, in English: {found:?}"
    );

    // The refund of the pair's games, confirmed with a reason.
    confirm(
        &yaa,
        ("#mod-flags", None),
        "Give the points back (2 games)",
        "farmed from one phone",
        "Points of 2 games given back.",
    );
    yaa.wait_for(
        "the games marked, the gain gone",
        "return document.querySelectorAll('#mod-flags li .mod-games li').length === 2 \
           && [...document.querySelectorAll('#mod-flags li .mod-games li')].every((li) => li.textContent.includes('(points given back)')) \
           && !document.querySelector('#mod-gains').textContent.includes('Ama_K') || null",
        20,
    );
    let board = page_fetch(&ama, "GET", "/api/players/Ama_K", Value::Null);
    let rating = board["body"]["ratings"][0]["rating"].as_f64();
    assert_eq!(rating.map(f64::round), Some(1500.0), "{board}");

    // Mute, then unmute: each time only the action that applies.
    assert_eq!(
        actions_of(&yaa, "#mod-flags", "Ama_K"),
        json!(["Mute from chat", "Close the account", "Make moderator"])
    );
    confirm(
        &yaa,
        ("#mod-flags", Some("Ama_K")),
        "Mute from chat",
        "insults in the lobby",
        "Ama_K is muted.",
    );
    yaa.wait_for(
        "muted: let chat again offered",
        "return document.querySelector('#mod-flags').textContent.includes('Let chat again') || null",
        20,
    );
    assert_eq!(
        actions_of(&yaa, "#mod-flags", "Ama_K"),
        json!(["Let chat again", "Close the account", "Make moderator"])
    );
    let said = page_fetch(
        &ama,
        "POST",
        &format!("/api/games/{id}/chat"),
        json!({"room": "players", "text": "hello"}),
    );
    assert_eq!(said["body"]["error"], "muted", "{said}");
    confirm(
        &yaa,
        ("#mod-flags", Some("Ama_K")),
        "Let chat again",
        "apologised",
        "Ama_K may chat again.",
    );
    yaa.wait_for(
        "unmuted: mute offered again",
        "return document.querySelector('#mod-flags').textContent.includes('Mute from chat') || null",
        20,
    );
    // Ama says a word to Kofi in their game, before her account closes.
    let said = page_fetch(
        &ama,
        "POST",
        &format!("/api/games/{id}/chat"),
        json!({"room": "players", "text": "good game"}),
    );
    assert!(said["status"].as_u64().unwrap() < 300, "{said}");

    // Closing the account is asked first: a cancel closes nothing.
    let tapped = yaa.eval(
        "const line = [...document.querySelectorAll('#mod-flags li > div')]
           .find((d) => d.querySelector('a')?.textContent === 'Ama_K');
         const b = line && [...line.querySelectorAll('button')].find((x) => x.textContent === 'Close the account');
         if (!b) return null;
         b.scrollIntoView({block: 'center'}); b.click(); return true;",
    );
    assert_eq!(tapped, json!(true), "no Close the account by Ama_K");
    yaa.wait_open("#dlg-mod-confirm", 10);
    assert_eq!(
        yaa.text("#mod-confirm-question"),
        "Close Ama_K's account? Its sessions end."
    );
    tap(&yaa, "#mod-confirm-cancel");
    yaa.wait_for(
        "the confirmation closed",
        "return !document.querySelector('#dlg-mod-confirm').open || null",
        10,
    );
    let page = page_fetch(&kofi, "GET", "/api/players/Ama_K", Value::Null);
    assert_eq!(page["status"], 200, "cancelled, yet closed: {page}");
    assert_eq!(
        actions_of(&yaa, "#mod-flags", "Ama_K"),
        json!(["Mute from chat", "Close the account", "Make moderator"])
    );
    confirm(
        &yaa,
        ("#mod-flags", Some("Ama_K")),
        "Close the account",
        "cheating",
        "Ama_K's account is closed.",
    );
    // Her name is no longer a link (to a page that says no player has
    // this name), said closed, with reopening offered.
    let line = yaa.wait_for(
        "Ama_K said closed",
        "const line = [...document.querySelectorAll('#mod-flags li > div')]
           .find((d) => d.firstElementChild?.textContent === 'Ama_K (closed)');
         return line ? {
           tag: line.firstElementChild.tagName,
           links: [...document.querySelectorAll('#mod-flags a, #mod-gains a, #mod-reports a')]
             .filter((a) => a.getAttribute('href') === '#player=Ama_K').length,
           actions: [...line.querySelectorAll('button')].map((x) => x.textContent),
         } : null",
        20,
    );
    assert_eq!(
        line,
        json!({"tag": "SPAN", "links": 0, "actions": ["Mute from chat", "Reopen the account", "Make moderator"]})
    );
    let page = page_fetch(&kofi, "GET", "/api/players/Ama_K", Value::Null);
    assert_eq!(page["status"], 404, "{page}");
    // Everywhere else her name shows, it is no link either: Kofi's page
    // (their games), the leaderboard, their game's chat.
    kofi.goto(&format!("{url}/api/info"));
    kofi.goto(&format!("{url}/#player=kofi_7"));
    let against = kofi.wait_for(
        "Kofi's games against Ama",
        "const lines = [...document.querySelectorAll('#player-games li')];
         return lines.length >= 2 ? lines.map((li) => [
           li.textContent.includes('Ama_K'),
           li.querySelectorAll('a[href^=\"#player=\"]').length,
         ]) : null",
        20,
    );
    for line in against.as_array().unwrap() {
        assert_eq!(line, &json!([true, 0]), "{against}");
    }
    kofi.exec("location.hash = '#leaderboard=blitz'", json!([]));
    kofi.wait_for(
        "the leaderboard",
        "return !document.querySelector('#leaderboard').hidden && !!document.querySelector('#board-rule').textContent || null",
        20,
    );
    assert_eq!(
        kofi.eval(
            "return document.querySelectorAll('#board-list a[href=\"#player=Ama_K\"]').length"
        ),
        json!(0)
    );
    kofi.exec(&format!("location.hash = '#game={id}'"), json!([]));
    let chat = kofi.wait_for(
        "Ama's line in their game's chat",
        "const line = [...document.querySelectorAll('#chat-lines li.line')]
           .find((li) => li.textContent.includes('good game'));
         return line ? [line.querySelector('.name').textContent, line.querySelectorAll('a').length] : null",
        20,
    );
    assert_eq!(chat, json!(["Ama_K", 0]));

    // The log: each action with who and why, newest first.
    let log = yaa.text("#mod-log");
    for words in [
        "yaa_m closed Ama_K",
        "Why: cheating",
        "yaa_m let chat again Ama_K",
        "Why: apologised",
        "yaa_m muted Ama_K",
        "Why: insults in the lobby",
        "Why: farmed from one phone",
        "the server made administrator yaa_m",
    ] {
        assert!(log.contains(words), "`{words}` in {log}");
    }
    let found = yaa.axe_violations();
    assert!(
        found.is_empty(),
        "the moderator page with its log: {found:?}"
    );

    // In French, the same page: axe-core finds nothing either.
    yaa.exec(
        "localStorage.setItem('awale.lang', 'fr'); document.querySelector('#dlg-account').close()",
        json!([]),
    );
    yaa.eval("location.reload(); return true");
    std::thread::sleep(std::time::Duration::from_secs(1));
    yaa.wait_for(
        "the page in French",
        "return document.documentElement.lang === 'fr' || null",
        20,
    );
    open_account(&yaa);
    yaa.wait_for(
        "the moderator page in French",
        "return document.querySelector('#mod-log')?.textContent.replace(/[\\u00a0\\u202f]/g, ' ').includes('Pourquoi : apologised') || null",
        20,
    );
    let found = yaa.axe_violations();
    assert!(found.is_empty(), "the moderator page, in French: {found:?}");
}
