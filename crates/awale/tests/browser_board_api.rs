//! A person playing through the board API shows as such (issue 41), end
//! to end: the real `awale serve`, a bot, and a person whose page is open
//! on her game against it while she moves from another client with her
//! board token: her seat is marked "via API" on the page.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as
//! ignored.

mod webdriver;

use serde_json::json;
use webdriver::{bot_token, request_as, Site};

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_person_moving_through_the_board_api_is_marked_via_api_on_the_page() {
    let site = Site::start("board_api_mark");
    let url = site.url.clone();
    let ama = webdriver::member(
        "board-api-ama",
        "en-GB,en",
        webdriver::DESKTOP,
        &url,
        "Ama_B",
    );
    let beta = format!("Bearer {}", bot_token(&site, "Beta", 2));
    // Ama (South) challenges the bot, which accepts.
    let game = webdriver::challenge_accepted_by_bot(
        &site,
        &ama,
        json!({"to": "Beta", "clock": {"minutes": 5, "increment_seconds": 0}, "colour": "S"}),
        &beta,
    );
    ama.goto(&format!("{url}/#game={game}"));
    ama.wait_shown("#player-bottom .presence", 10);
    assert_eq!(
        ama.eval(
            "return [...document.querySelectorAll('.via-api')].filter((e) => !e.hidden).length"
        ),
        json!(0),
        "nobody plays through the board API yet"
    );
    // She moves from another client, with her board token.
    let token = webdriver::page_fetch(
        &ama,
        "POST",
        "/api/account/tokens",
        json!({"name": "terminal", "scopes": ["board:play"]}),
    );
    assert_eq!(token["status"], 201, "{token}");
    let board = format!("Bearer {}", token["body"]["token"].as_str().unwrap());
    let (status, done, _) = request_as(
        &site,
        "POST",
        &format!("/api/board/game/{game}/move/C"),
        &board,
        json!({}),
    );
    assert_eq!(status, 200, "{done}");
    // Her page marks her seat, and only hers, "via API".
    ama.wait_for(
        "her seat marked via API",
        "const m = document.querySelector('#player-bottom .via-api'); \
         return !!m && !m.hidden && m.textContent === 'via API'",
        10,
    );
    assert_eq!(
        ama.eval("return document.querySelector('#player-top .via-api').hidden"),
        json!(true),
        "the bot's seat is not marked"
    );
    let found = ama.axe_violations();
    assert!(found.is_empty(), "a seat marked via API: {found:?}");
}
