//! Direct challenges in the browser, end to end: the real `awale serve`
//! and headless Chromium with two profiles. Ama opens Kofi's page and
//! challenges him (the dialog: clock, casual, side); Kofi, on another
//! page of the site (the rules), sees the challenge at once in the
//! banner and accepts; both are taken into the same game, seated, each
//! name on the board a link to its player's page.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::{json, Value};
use webdriver::{game_id, member, page_fetch, tap, Browser, Site, DESKTOP, PHONE};

/// Sends the challenge dialog open in `b`: 3+2, casual, South.
fn send_challenge(b: &Browser) {
    b.exec(
        "document.querySelector('#challenge-clock').value = '3+2';
         document.querySelector('#challenge-colour').value = 'S';",
        json!([]),
    );
    tap(b, "#challenge-send");
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_challenge_from_a_players_page_is_seen_at_once_and_accepted_into_one_game() {
    let site = Site::start("challenges");
    let url = site.url.clone();
    let ama = member("challenges-ama", "fr-FR,fr", DESKTOP, &url, "Ama_C");
    let kofi = member("challenges-kofi", "en-US,en", PHONE, &url, "Kofi_C");

    // Kofi reads the rules, the page loaded again as his account's (his
    // own stream opens with it).
    kofi.goto(&format!("{url}/#rules"));
    kofi.eval("location.reload()");
    kofi.wait_for(
        "Kofi's page, logged in, on the rules",
        "return document.querySelector('#btn-account').textContent === 'Kofi_C' && !document.querySelector('#view-rules').hidden",
        20,
    );

    // Ama opens Kofi's page (a new load: as her account) and challenges
    // him: 3+2, casual, South.
    ama.goto(&format!("{url}/@/Kofi_C"));
    ama.wait_shown("#player-challenge", 20);
    assert_eq!(ama.text("#player-challenge"), "Défier");
    tap(&ama, "#player-challenge");
    ama.wait_open("#dlg-challenge", 10);
    assert_eq!(ama.text("#challenge-title"), "Défier Kofi_C");
    let found = ama.axe_violations();
    assert!(found.is_empty(), "the challenge dialog: {found:?}");
    send_challenge(&ama);
    ama.wait_shown("#challenges li.challenge.sent", 10);
    let sent = ama.text("#challenges li.challenge.sent");
    assert!(
        sent.contains("Kofi_C") && sent.contains("Retirer"),
        "{sent}"
    );

    // Kofi sees it at once, where he is, in English; he accepts.
    kofi.wait_shown("#challenges li.challenge.received", 15);
    let received = kofi.text("#challenges li.challenge.received");
    assert!(received.contains("Ama_C challenges you"), "{received}");
    assert!(received.contains("Casual game"), "{received}");
    let found = kofi.axe_violations();
    assert!(found.is_empty(), "the challenges' banner: {found:?}");
    assert!(!kofi
        .eval("return document.querySelector('#view-rules').hidden")
        .as_bool()
        .unwrap());
    // He declines it: Ama is told (as a declined draw is), the banner
    // empty; she challenges him again and he accepts.
    tap(&kofi, "#challenges li.challenge.received button.decline");
    ama.wait_for(
        "Ama told of the refusal",
        "return !document.querySelector('#toast').hidden \
           && document.querySelector('#toast').textContent === 'Kofi_C a refusé votre défi.' \
           && document.querySelector('#challenges').hidden",
        15,
    );
    kofi.wait_for(
        "Kofi's banner empty",
        "return document.querySelector('#challenges').hidden",
        10,
    );
    tap(&ama, "#player-challenge");
    ama.wait_open("#dlg-challenge", 10);
    send_challenge(&ama);
    kofi.wait_shown("#challenges li.challenge.received", 15);
    tap(&kofi, "#challenges li.challenge.received button.accept");

    // Both are taken into the same game, each in their seat.
    let landed = |b: &Browser| {
        b.wait_for(
            "the page taken to the game",
            "return location.hash.startsWith('#game=')",
            20,
        );
        game_id(b)
    };
    let game = landed(&kofi);
    assert_eq!(landed(&ama), game, "the challenger is sent into the game");
    for (b, side) in [(&ama, "S"), (&kofi, "N")] {
        let view = page_fetch(b, "GET", &format!("/api/games/{game}"), Value::Null);
        assert_eq!(view["body"]["you"], json!([side]), "{view}");
        assert_eq!(view["body"]["rated"], false, "{view}");
    }
    // A casual game between two accounts: both names link to their pages.
    ama.wait_for(
        "both names on the board linked to the players' pages",
        "return [...document.querySelectorAll('.player .who a.player-link')].map((a) => a.getAttribute('href')).sort().join(' ') === '#player=Ama_C #player=Kofi_C'",
        15,
    );
    ama.wait_for(
        "the banner empty",
        "return document.querySelector('#challenges').hidden",
        10,
    );

    // A second device of Ama's, which showed a finished game last: its
    // home page is the game going on, not that old one; the lobby lists
    // it as hers to go back to, not to watch.
    let old = site.import(json!({
        "record": "[FEN \"0-0-0-0-0-1-0-0-0-0-0-0-27-20-S\"]\n\n1. F *\n",
        "mode": "computer",
        "level": 1,
    }));
    let old_view = page_fetch(&ama, "GET", &format!("/api/games/{old}"), Value::Null);
    assert!(!old_view["body"]["end"].is_null(), "{old_view}");
    ama.exec(
        "localStorage.setItem('awale.last', arguments[0])",
        json!([old_view["body"].to_string()]),
    );
    ama.goto(&url);
    ama.wait_for(
        "the game going on",
        &format!("return location.hash === '#game={game}'"),
        20,
    );
    ama.eval("location.hash = '#lobby'");
    ama.wait_for(
        "her game in the lobby, to go back to",
        &format!(
            "const li = document.querySelector('#lobby-live li[data-id=\"{game}\"]'); \
             return !!li && li.querySelector('button').textContent === 'Reprendre votre partie'"
        ),
        20,
    );
    // The lobby opened twice while its pools were being asked for (from
    // a tournament, back to the lobby): each quick-pairing button once.
    ama.eval("location.hash = '#rules'; location.hash = '#lobby'; location.hash = '#rules'; location.hash = '#lobby'");
    ama.wait_for(
        "the quick-pairing buttons",
        "return document.querySelectorAll('#pools button').length > 0",
        10,
    );
    std::thread::sleep(std::time::Duration::from_secs(2));
    let pools = ama.strings(
        "return [...document.querySelectorAll('#pools button')].map((b) => b.dataset.pool)",
    );
    let mut once = pools.clone();
    once.sort();
    once.dedup();
    assert_eq!(pools.len(), once.len(), "each pool once: {pools:?}");
}
