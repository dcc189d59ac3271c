//! An arena in the browser, end to end (issue 23's check): the real `awale
//! serve` and headless Chromium, four accounts (desktops in French, phones
//! in English) and a spectator. One makes a short arena with a fast clock
//! from the lobby's form and joins it; the others join from the
//! tournament's page; each is sent to their game. The spectator, in the
//! lobby, finds the arena's top game featured and follows it, a move
//! arriving live. Two pause and resign; the winners come back to the
//! tournament's page, where the standings have moved live, and are paired
//! together; one more pause and resignation; the creator ends it (its
//! button) and the podium shows on every page; the tournament's chat room
//! carries a word to the others live.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::json;
use webdriver::{
    ama_and_kofi, doc_screenshot, hash, join_tournament, member, open_at_once,
    open_tournament_form, page_fetch, page_post_ok, send_tournament_form, tap, wait_standings,
    Browser, DESKTOP, PHONE,
};

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn four_accounts_play_an_arena_see_the_standings_move_and_the_podium() {
    let (site, ama, kofi) = ama_and_kofi("arena");
    let url = site.url.clone();
    let yaw = member("arena-yaw", "fr-FR,fr", PHONE, &url, "Yaw");
    let esi = member("arena-esi", "en-US,en", DESKTOP, &url, "Esi");

    // Ama makes an arena from the lobby.
    open_tournament_form(&ama, &url);
    tap(&ama, "#arena-name");
    ama.keys("Soirée");
    ama.exec(
        "document.querySelector('#arena-clock').value = '1+0';
         document.querySelector('#arena-length').value = '5';",
        json!([]),
    );
    let page = send_tournament_form(&ama, "Soirée");
    let id = page["#tournament=".len()..].to_string();
    join_tournament(&ama, "Rejoindre");
    wait_standings(&ama, "#arena-standings", 1);

    // The others join from the tournament's page, two by two: each pair is
    // sent to its game.
    for (b, join) in [(&kofi, "Join"), (&yaw, "Rejoindre"), (&esi, "Join")] {
        b.goto(&format!("{url}/{page}"));
        join_tournament(b, join);
    }
    for b in [&ama, &kofi, &yaw, &esi] {
        b.wait_for(
            "sent to the arena game",
            "return location.hash.startsWith('#game=')",
            15,
        );
    }
    let game_of = |b: &Browser| hash(b)[6..].to_string();
    assert_eq!(game_of(&ama), game_of(&kofi));
    assert_eq!(game_of(&yaw), game_of(&esi));
    assert_ne!(game_of(&ama), game_of(&yaw));

    // A spectator finds the arena's top game featured in the lobby, and
    // follows it: a move arrives live.
    let view = page_fetch(&ama, "GET", &format!("/api/tournaments/{id}"), json!(null));
    let top = view["body"]["top_game"]
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| panic!("no top game: {view}"));
    let (first, second, name) = if top == game_of(&ama) {
        (&ama, &kofi, "Ama_K")
    } else {
        (&yaw, &esi, "Yaw")
    };
    let fan = Browser::start("arena-fan", "en-US,en", 390, 844);
    open_at_once(&fan, &format!("{url}/#rules"));
    fan.goto(&format!("{url}/#lobby"));
    fan.wait_shown("#featured", 15);
    fan.wait_for(
        "the arena's top game featured",
        &format!(
            "return document.querySelector('#featured-names').textContent.includes({})",
            json!(name)
        ),
        10,
    );
    tap(&fan, "#featured-watch");
    fan.wait_for(
        "watching the top game",
        &format!("return location.hash === '#game={top}'"),
        10,
    );
    let state = page_fetch(first, "GET", &format!("/api/games/{top}"), json!(null));
    let to_move = state["body"]["to_move"].clone();
    let mover = if state["body"]["you"][0] == to_move {
        first
    } else {
        second
    };
    let legal = state["body"]["legal"][0].clone();
    let moved = page_fetch(
        mover,
        "POST",
        &format!("/api/games/{top}/moves"),
        json!({"move": legal, "ply": 0}),
    );
    assert_eq!(moved["status"], 200, "{moved}");
    fan.wait_for(
        "the move, live",
        "return document.querySelectorAll('#move-list .mv').length === 1",
        10,
    );

    // Kofi and Yaw pause (after this game) and resign: Ama and Esi win
    // 2 points each, and meet.
    let first_round = [game_of(&ama), game_of(&yaw)];
    for loser in [&kofi, &yaw] {
        let game = game_of(loser);
        page_post_ok(loser, &format!("/api/tournaments/{id}/pause"));
        page_post_ok(loser, &format!("/api/games/{game}/resign"));
        loser.wait_for(
            "back to the tournament's page",
            &format!("return location.hash === '{page}'"),
            15,
        );
    }
    kofi.wait_for(
        "the standings moved, live",
        "const rows = [...document.querySelectorAll('#arena-standings tr')];
         return rows.length === 4 && rows.slice(0, 2).every((r) => r.lastChild.textContent.startsWith('2'))",
        10,
    );
    let new_game = format!(
        "return location.hash.startsWith('#game=') && !{}.includes(location.hash.slice(6))",
        json!(first_round)
    );
    for b in [&ama, &esi] {
        b.wait_for("the winners sent to a new game", &new_game, 20);
    }
    assert_eq!(hash(&ama), hash(&esi), "Ama and Esi meet");
    assert_eq!(kofi.text("#arena-join"), "Come back");
    // Esi pauses and resigns: Ama, on a streak, leads with 4.
    let game = game_of(&esi);
    page_post_ok(&esi, &format!("/api/tournaments/{id}/pause"));
    page_post_ok(&esi, &format!("/api/games/{game}/resign"));
    for b in [&ama, &esi] {
        b.wait_for(
            "back to the tournament's page",
            &format!("return location.hash === '{page}'"),
            15,
        );
    }
    yaw.wait_for(
        "Ama first with 4, live",
        "const first = document.querySelector('#arena-standings tr');
         return !!first && first.textContent.includes('Ama_K') && first.lastChild.textContent.startsWith('4')",
        10,
    );
    let wide = kofi.strings(
        "const w = window.innerWidth;
         const bad = [...document.querySelectorAll('#view-tournament *')]
           .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > w + 0.5)
           .map((e) => `${e.tagName} ${e.id || e.className}`);
         if (document.documentElement.scrollWidth > w) bad.push('page');
         return bad;",
    );
    assert!(wide.is_empty(), "too wide on a phone: {wide:?}");

    // Ama ends it: the podium, live on every page.
    assert_eq!(
        kofi.eval("return document.querySelector('#arena-close').hidden"),
        json!(true),
        "only its creator may end it"
    );
    assert_eq!(ama.text("#arena-close"), "Terminer le tournoi");
    tap(&ama, "#arena-close");
    for (b, finished) in [
        (&ama, "Terminé : résultats définitifs"),
        (&kofi, "Finished: final results"),
        (&yaw, "Terminé : résultats définitifs"),
        (&esi, "Finished: final results"),
    ] {
        b.wait_for(
            "the podium",
            "const p = [...document.querySelectorAll('#arena-podium li')].map((li) => li.textContent);
             return p.length === 3 && p[0].includes('Ama_K') && p[1].includes('Esi')",
            10,
        );
        assert_eq!(b.text("#arena-status"), finished);
    }

    // The tournament's chat room: a word from Kofi reaches the others live.
    for (b, title) in [(&kofi, "Tournament chat"), (&yaw, "Discussion du tournoi")] {
        b.wait_shown("#arena-chat", 10);
        assert_eq!(b.text("#arena-chat-title"), title);
    }
    tap(&kofi, "#arena-chat-text");
    kofi.keys("Bravo Ama <b>!</b>");
    tap(&kofi, "#arena-chat-send");
    for b in [&ama, &yaw, &esi] {
        b.wait_for(
            "the word, live",
            "const l = document.querySelector('#arena-chat-lines .line');
             return !!l && l.querySelector('.name').textContent === 'kofi_7'
               && l.querySelector('.text').textContent === 'Bravo Ama <b>!</b>'",
            10,
        );
    }
    doc_screenshot(&ama, "screenshot-arena-fr.png");
    doc_screenshot(&kofi, "screenshot-arena-phone-en.png");
    // A finished arena, in both languages (issue 42).
    for b in [&kofi, &ama] {
        let found = b.axe_violations();
        assert!(found.is_empty(), "the finished arena's page: {found:?}");
    }
}
