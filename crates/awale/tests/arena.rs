//! An arena in the browser, end to end: the real `awale serve` and
//! headless Chromium, two accounts (a desktop in French, a phone in
//! English). One makes an arena from the lobby's form and joins it; the
//! other joins from the tournament's page; both are sent to their game;
//! one pauses and resigns, both come back to the tournament's page, where
//! the standings have moved live; the creator ends it and the podium shows
//! on both pages.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::json;
use webdriver::{page_fetch, sign_up, Browser, Site};

fn open(b: &Browser, url: &str) {
    b.goto(url);
    b.eval("localStorage.setItem('awale.speed', '0')");
    b.goto(url);
}

fn close_first_dialog(b: &Browser) {
    b.wait_for(
        "the new game dialog of a first visit",
        "return document.querySelector('#dlg-new').open",
        15,
    );
    tap(b, "#dlg-new button[value=cancel]");
    b.wait_for(
        "the dialog closed",
        "return !document.querySelector('#dlg-new').open",
        5,
    );
}

fn tap(b: &Browser, css: &str) {
    b.find(css);
    b.exec(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
        json!([css]),
    );
    b.click(css);
}

fn hash(b: &Browser) -> String {
    b.string("return location.hash")
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn two_accounts_play_an_arena_see_the_standings_move_and_the_podium() {
    let site = Site::start("arena");
    let url = site.url.clone();
    let ama = Browser::start("arena-ama", "fr-FR,fr", 1280, 900);
    open(&ama, &url);
    close_first_dialog(&ama);
    sign_up(&ama, "Ama_K");
    let kofi = Browser::start("arena-kofi", "en-US,en", 390, 844);
    open(&kofi, &url);
    close_first_dialog(&kofi);
    sign_up(&kofi, "kofi_7");

    // Ama makes an arena from the lobby.
    ama.goto(&format!("{url}/#lobby"));
    ama.wait_shown("#arena-list", 10);
    tap(&ama, ".arena-new summary");
    tap(&ama, "#arena-name");
    ama.keys("Soirée");
    ama.exec(
        "document.querySelector('#arena-clock').value = '1+0';
         document.querySelector('#arena-length').value = '5';",
        json!([]),
    );
    tap(&ama, "#arena-form button");
    ama.wait_for(
        "the new arena's page",
        "return location.hash.startsWith('#tournament=') && document.querySelector('#arena-title').textContent === 'Soirée'",
        10,
    );
    let page = hash(&ama);
    assert_eq!(ama.text("#arena-join"), "Rejoindre");
    tap(&ama, "#arena-join");
    ama.wait_for(
        "Ama in the standings",
        "return document.querySelectorAll('#arena-standings tr').length === 1",
        10,
    );

    // Kofi joins from the tournament's page: both are sent to their game.
    kofi.goto(&format!("{url}/{page}"));
    kofi.wait_shown("#arena-join", 10);
    assert_eq!(kofi.text("#arena-join"), "Join");
    tap(&kofi, "#arena-join");
    for b in [&ama, &kofi] {
        b.wait_for(
            "sent to the arena game",
            "return location.hash.startsWith('#game=')",
            15,
        );
    }
    let game = hash(&kofi)[6..].to_string();
    assert_eq!(hash(&ama)[6..], game);

    // Kofi pauses (after this game) and resigns: Ama wins 2 points.
    let id = &page["#tournament=".len()..];
    let paused = page_fetch(
        &kofi,
        "POST",
        &format!("/api/tournaments/{id}/pause"),
        json!({}),
    );
    assert_eq!(paused["status"], 200, "{paused}");
    let resigned = page_fetch(
        &kofi,
        "POST",
        &format!("/api/games/{game}/resign"),
        json!({}),
    );
    assert_eq!(resigned["status"], 200, "{resigned}");
    for b in [&ama, &kofi] {
        b.wait_for(
            "back to the tournament's page",
            &format!("return location.hash === '{page}'"),
            15,
        );
    }
    ama.wait_for(
        "the standings moved",
        "const first = document.querySelector('#arena-standings tr');
         return !!first && first.textContent.includes('Ama_K') && first.lastChild.textContent.startsWith('2')",
        10,
    );
    assert_eq!(kofi.text("#arena-join"), "Come back");
    let wide = kofi.strings(
        "const w = window.innerWidth;
         const bad = [...document.querySelectorAll('#view-tournament *')]
           .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > w + 0.5)
           .map((e) => `${e.tagName} ${e.id || e.className}`);
         if (document.documentElement.scrollWidth > w) bad.push('page');
         return bad;",
    );
    assert!(wide.is_empty(), "too wide on a phone: {wide:?}");

    // Ama ends it: the podium, live on both pages.
    let closed = page_fetch(
        &ama,
        "POST",
        &format!("/api/tournaments/{id}/close"),
        json!({}),
    );
    assert_eq!(closed["status"], 200, "{closed}");
    for (b, finished) in [(&ama, "Terminé"), (&kofi, "Finished")] {
        b.wait_for(
            "the podium",
            "const p = document.querySelector('#arena-podium');
             return !p.hidden && p.firstChild && p.firstChild.textContent.includes('Ama_K')",
            10,
        );
        assert_eq!(b.text("#arena-status"), finished);
    }
    let found = kofi.axe_violations();
    assert!(found.is_empty(), "the tournament's page: {found:?}");
}
