//! Accounts in the browser, end to end: the real `awale serve` and
//! headless Chromium with separate profiles, driven as people would. A
//! guest plays, signs up (its recovery codes shown once) and keeps its
//! games; a second profile, on a phone, logs in and sees the same games;
//! a wrong password is told in the page's words; kid mode hides the chat
//! and names players alike in every view;
//! logging out leaves a guest. Players' pages and leaderboards: three
//! rated games between two accounts, found on each one's page (ratings,
//! the graph, results, the games filtered) and on the leaderboard.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::{json, Value};
use webdriver::{
    ama_and_kofi, close_first_dialog, doc_screenshot, open_at_once, page_fetch, rated_game, tap,
    Browser, Site, DESKTOP,
};

const PASSWORD: &str = "seeds in the fourth hole";

/// Types `text` into the field `css`, emptied first.
fn type_in(b: &Browser, css: &str, text: &str) {
    tap(b, css);
    b.exec(
        "document.querySelector(arguments[0]).value = ''",
        json!([css]),
    );
    b.keys(text);
}

/// Opens the account's dialog by the header's button, on its pane `pane`
/// (`login` for a guest, `account` once logged in).
/// Opens the account's dialog on `pane`, once drawn: the page opens it
/// when all its parts are read (the pane is shown before its tokens and
/// moderation parts are; a test that went on then read a half-drawn
/// pane, and closed a dialog that opened a moment later, over the next
/// click).
fn account_dialog(b: &Browser, pane: &str) {
    tap(b, "#btn-account");
    b.wait_open("#dlg-account", 10);
    b.wait_shown(&format!("#dlg-account [data-pane={pane}]"), 10);
}

fn my_games(b: &Browser) -> Vec<String> {
    let answer = page_fetch(b, "GET", "/api/games", Value::Null);
    let mut ids: Vec<String> = answer["body"]["games"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .filter_map(|g| g["id"].as_str().map(str::to_string))
        .collect();
    ids.sort_unstable();
    ids
}

fn account_button(b: &Browser) -> String {
    b.text("#btn-account")
}

fn wait_account_button(b: &Browser, text: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if account_button(b) == text {
            return;
        }
        if std::time::Instant::now() > deadline {
            let me = page_fetch(b, "GET", "/api/me", Value::Null);
            panic!(
                "the account button says `{}`, not `{text}` (GET /api/me: {me}; at {})",
                account_button(b),
                b.string("return location.href")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_guests_games_follow_it_into_its_account_and_onto_another_profile() {
    // A guest, in French on a desktop, plays an online game and one
    // against the computer.
    let (site, ama) = Site::start("accounts").visited("fr-FR,fr", DESKTOP, open_at_once);
    let url = site.url.clone();
    close_first_dialog(&ama);
    wait_account_button(&ama, "Se connecter");
    let online = page_fetch(
        &ama,
        "POST",
        "/api/games",
        json!({"mode": "online", "name": "Ama invitée"}),
    );
    assert_eq!(online["status"], 201, "{online}");
    let computer = page_fetch(&ama, "POST", "/api/games", json!({"mode": "computer"}));
    assert_eq!(computer["status"], 201, "{computer}");
    let games = my_games(&ama);
    assert_eq!(games.len(), 2);

    // Signs up: a weak password first, told in French.
    account_dialog(&ama, "login");
    tap(&ama, "#dlg-account [data-to=signup]");
    type_in(&ama, "#signup-name", "Ama_K");
    type_in(&ama, "#signup-password", "motdepasse");
    tap(&ama, "#btn-signup");
    ama.wait_shown("#account-error", 10);
    let said = ama.text("#account-error");
    assert!(said.contains("parmi les plus courants"), "{said}");
    type_in(&ama, "#signup-password", PASSWORD);
    doc_screenshot(&ama, "screenshot-account-signup-fr.png");
    tap(&ama, "#btn-signup");
    ama.wait_shown("#dlg-account [data-pane=codes]", 15);
    let codes = ama.strings(
        "return [...document.querySelectorAll('#codes-list li')].map((li) => li.textContent)",
    );
    assert_eq!(codes.len(), 10, "{codes:?}");
    assert!(codes.iter().all(|c| c.len() == 14), "{codes:?}");
    doc_screenshot(&ama, "screenshot-account-codes-fr.png");
    tap(&ama, "#codes-done");
    wait_account_button(&ama, "Ama_K");
    assert_eq!(my_games(&ama), games, "the guest's games are the account's");
    // The session's secret is out of the page's reach (HttpOnly).
    let cookies = ama.string("return document.cookie");
    assert!(!cookies.contains("awale_session"), "{cookies}");

    // Another profile, in English on a phone: a wrong password, then the
    // right one; the same games.
    let phone = Browser::start("accounts-phone", "en-US,en", 390, 844);
    open_at_once(&phone, &url);
    close_first_dialog(&phone);
    wait_account_button(&phone, "Log in");
    assert!(my_games(&phone).is_empty());
    account_dialog(&phone, "login");
    type_in(&phone, "#login-name", "ama_k");
    type_in(&phone, "#login-password", "not my password");
    tap(&phone, "#btn-login");
    phone.wait_shown("#account-error", 10);
    assert_eq!(phone.text("#account-error"), "Wrong username or password.");
    type_in(&phone, "#login-password", PASSWORD);
    tap(&phone, "#btn-login");
    wait_account_button(&phone, "Ama_K");
    assert_eq!(my_games(&phone), games);
    // Its games list shows them.
    phone.goto(&format!("{url}/#games"));
    wait_listing(&phone, "#games", "#games-list > li", 2);
    doc_screenshot(&phone, "screenshot-account-phone-en.png");

    // Kid mode, from the phone: lichess's rule, said where it is turned
    // on (no chat, read or written; names shown everywhere), and every
    // view follows it: the online game shows no chat, and the same names
    // on the board, in the lobby and in My games as without kid mode.
    let online_id = online["body"]["id"].as_str().expect("a public id");
    let card = |b: &Browser| b.text(&format!("#games-list > li[data-id='{online_id}'] .head b"));
    let names_before = card(&phone);
    let seats = page_fetch(
        &phone,
        "GET",
        &format!("/api/games/{online_id}"),
        Value::Null,
    );
    let name = seats["body"]["seats"][0]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("South's seat: {seats}"))
        .to_string();
    assert!(names_before.contains(&name), "{names_before} names {name}");
    account_dialog(&phone, "account");
    assert_eq!(phone.text("#account-name"), "Ama_K");
    tap(&phone, "#chk-kid");
    phone.wait_for(
        "kid mode on",
        "return document.documentElement.classList.contains('kid-mode')",
        10,
    );
    let rule = phone.text("#kid-mode-help");
    assert!(
        rule.contains("lichess") && rule.contains("chat") && rule.contains("names stay shown"),
        "the rule said where kid mode is turned on: {rule}"
    );
    assert_eq!(
        phone.string("return document.querySelector('#chk-kid').getAttribute('aria-describedby')"),
        "kid-mode-help"
    );
    doc_screenshot(&phone, "screenshot-account-settings-en.png");
    tap(&phone, "#account-close");
    phone.goto(&format!("{url}/#games"));
    wait_listing(&phone, "#games", "#games-list > li", 2);
    assert_eq!(card(&phone), names_before, "My games names them as before");
    phone.goto(&format!("{url}/#game={online_id}"));
    phone.wait_for(
        "the online game shown",
        "return !!document.querySelector('#player-top .who')?.textContent",
        20,
    );
    assert_eq!(
        phone.eval("return document.querySelector('#chat').hidden"),
        json!(true)
    );
    let top = phone.text("#player-top .who") + &phone.text("#player-bottom .who");
    assert!(
        top.contains(&name),
        "the board names {name} in kid mode: {top}"
    );
    // The lobby too: her public challenge under her name, not a side's.
    let seek = page_fetch(
        &phone,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true}),
    );
    assert_eq!(seek["status"], 201, "{seek}");
    phone.exec("location.hash = '#lobby'", json!([]));
    let lobby = phone.wait_for(
        "her challenge in the lobby",
        "const items = [...document.querySelectorAll('#lobby-challenges .lobby-item')]; \
         return items.length ? items.map((li) => li.querySelector('.lobby-text b').textContent).join(' | ') : null",
        20,
    );
    let lobby = lobby.as_str().unwrap_or_default();
    assert!(
        lobby.contains("Ama_K") && !lobby.contains("South") && !lobby.contains("North"),
        "the lobby names her in kid mode: {lobby}"
    );

    // Logged out from another tab of the same browser (opened by this
    // one): this page follows at once, a guest again, without the games.
    phone.eval("window.otherTab = window.open('/#rules')");
    phone.wait_for(
        "the other tab, logged in",
        "const d = window.otherTab && window.otherTab.document; \
         return !!d && d.querySelector('#btn-account')?.textContent === 'Ama_K'",
        20,
    );
    phone.eval("window.otherTab.document.querySelector('#btn-account').click()");
    phone.wait_for(
        "the other tab's account pane",
        "return !window.otherTab.document.querySelector('#dlg-account [data-pane=account]').hidden",
        10,
    );
    phone.eval("window.otherTab.document.querySelector('#btn-logout').click()");
    wait_account_button(&phone, "Log in");
    assert!(my_games(&phone).is_empty());
    // The desktop is still logged in (one session ended, not the other).
    ama.goto(&url);
    wait_account_button(&ama, "Ama_K");
    assert_eq!(account_button(&ama), "Ama_K");
}

/// What of the page is wider than the screen.
fn too_wide(b: &Browser) -> Vec<String> {
    b.strings(
        "const w = window.innerWidth;
         const bad = [...document.querySelectorAll('#view-players *')]
           .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > w + 0.5)
           .map((e) => `${e.tagName} ${e.id || e.className}: ${e.getBoundingClientRect().right.toFixed(0)}`);
         if (document.documentElement.scrollWidth > w) bad.push(`page ${document.documentElement.scrollWidth}`);
         return bad;",
    )
}

/// The games of a player's page, the players of a leaderboard (for
/// [`wait_listing`]).
const PLAYED: &str = "#player-games li.played";
const RANKED: &str = "#board-list a.player-link";

/// Waits for the page at `hash` with `n` of `items` in its list.
fn wait_listing(b: &Browser, hash: &str, items: &str, n: usize) {
    b.wait_for(
        &format!("{hash} with {n} of `{items}`"),
        &format!(
            "return location.hash === '{hash}' && document.querySelectorAll('{items}').length === {n}"
        ),
        20,
    );
}

fn game_ids(b: &Browser) -> Vec<String> {
    b.strings("return [...document.querySelectorAll('#player-games li.played')].map((li) => li.dataset.id)")
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn rated_games_show_on_both_players_pages_and_on_the_leaderboard() {
    let (site, ama, kofi) = ama_and_kofi("players");
    let url = site.url.clone();
    // Three rated blitz games (enough for the leaderboard): Ama wins two.
    let games = [
        rated_game(&ama, &kofi, &kofi),
        rated_game(&kofi, &ama, &ama),
        rated_game(&ama, &kofi, &kofi),
    ];

    // Kofi's page, by its short address, in French.
    ama.goto(&format!("{url}/@/kofi_7"));
    wait_listing(&ama, "#player=kofi_7", PLAYED, 3);
    assert_eq!(ama.text("#player-name"), "kofi_7");
    // His page is open on his phone: online.
    ama.wait_shown("#player-online", 10);
    assert_eq!(ama.text("#player-online"), "En ligne");
    assert_eq!(
        ama.text("#player-results"),
        "1 victoire · 0 nulle · 2 défaites"
    );
    let card = ama.text("#player-ratings .rating-card[data-speed=blitz]");
    assert!(card.starts_with("Blitz"), "{card}");
    assert!(card.contains('?'), "a provisional rating: {card}");
    assert!(card.contains("3 parties classées"), "{card}");
    // Two lost rated games shown ("Perdue", "-N" in red): readable
    // (WCAG's contrast, which --bad on the panel failed).
    assert_eq!(
        ama.eval("return document.querySelectorAll('#player-games li.loss .outcome').length"),
        json!(2)
    );
    let found = ama.axe_violations();
    assert!(
        found.is_empty(),
        "a player's page with lost rated games: {found:?}"
    );
    // The graph: a point per game, drawn by the page.
    assert_eq!(
        ama.eval("return document.querySelectorAll('#player-graph svg circle.graph-dot').length"),
        json!(3)
    );
    let label =
        ama.string("return document.querySelector('#player-graph svg').getAttribute('aria-label')");
    assert!(label.starts_with("Classement Blitz"), "{label}");
    // Newest first, by public id; the filters ask the server again.
    let mut newest_first = games.to_vec();
    newest_first.reverse();
    assert_eq!(game_ids(&ama), newest_first);
    ama.exec(
        "const s = document.querySelector('#player-result'); s.value = 'win'; s.dispatchEvent(new Event('change'))",
        json!([]),
    );
    wait_listing(&ama, "#player=kofi_7", PLAYED, 1);
    assert_eq!(game_ids(&ama), vec![games[1].clone()]);
    ama.exec(
        "const s = document.querySelector('#player-speed'); s.value = 'bullet'; s.dispatchEvent(new Event('change'))",
        json!([]),
    );
    ama.wait_for(
        "no bullet game",
        "return !!document.querySelector('#player-games li.empty')",
        10,
    );
    assert_eq!(
        ama.text("#player-games li.empty"),
        "Aucune partie de ce genre."
    );
    doc_screenshot(&ama, "screenshot-player-fr.png");
    let found = ama.axe_violations();
    assert!(found.is_empty(), "the player's page: {found:?}");

    // Her games, in French: each result from her side, the games before
    // the import's controls.
    ama.goto(&format!("{url}/#games"));
    wait_listing(&ama, "#games", "#games-list > li.game-card", 3);
    let results = ama.strings(
        "return [...document.querySelectorAll('#games-list .result-line')].map((e) => e.textContent)",
    );
    assert_eq!(
        results
            .iter()
            .filter(|r| r.contains("vous avez gagné"))
            .count(),
        2,
        "{results:?}"
    );
    assert_eq!(
        results
            .iter()
            .filter(|r| r.contains("vous avez perdu"))
            .count(),
        1,
        "{results:?}"
    );
    assert_eq!(
        ama.eval(
            "return !!(document.querySelector('#games-list').compareDocumentPosition(document.querySelector('#view-games .import')) & Node.DOCUMENT_POSITION_FOLLOWING)"
        ),
        json!(true),
        "the games first, then the import"
    );

    // The leaderboard, from the lobby: nobody yet, three games leave a
    // rating provisional ("?"), which is not listed (as on lichess).
    ama.goto(&format!("{url}/#lobby"));
    tap(&ama, "#btn-leaderboard");
    ama.wait_for(
        "the leaderboard without provisional ratings",
        "return location.hash === '#leaderboard=blitz' && !!document.querySelector('#board-list li.empty')",
        20,
    );
    assert!(ama.text("#board-rule").contains("provisoire"));
    // Their ratings established (as after many more games): both players,
    // Ama first, with links to their pages.
    site.sql("UPDATE ratings SET deviation = 80");
    ama.eval("location.reload()");
    wait_listing(&ama, "#leaderboard=blitz", RANKED, 2);
    let names = ama.strings("return [...document.querySelectorAll('#board-list a.player-link')].map((a) => a.textContent)");
    assert_eq!(names, ["Ama_K", "kofi_7"]);
    assert!(ama
        .text("#board-rule")
        .contains("au moins 3 parties classées"));
    let found = ama.axe_violations();
    assert!(found.is_empty(), "the leaderboard: {found:?}");
    // Another speed has nobody yet.
    tap(&ama, "#board-speeds [data-speed=rapid]");
    ama.wait_for(
        "the empty rapid leaderboard",
        "return location.hash === '#leaderboard=rapid' && !!document.querySelector('#board-list li.empty')",
        20,
    );
    ama.goto(&format!("{url}/#leaderboard=blitz"));
    wait_listing(&ama, "#leaderboard=blitz", RANKED, 2);
    tap(&ama, "#board-list a.player-link");
    wait_listing(&ama, "#player=Ama_K", PLAYED, 3);
    assert_eq!(
        ama.text("#player-results"),
        "2 victoires · 0 nulle · 1 défaite"
    );
    // In English, the same page in English words.
    tap(&ama, "#btn-lang");
    ama.wait_for(
        "the page in English",
        "return document.querySelector('#player-results').textContent === '2 wins · 0 draws · 1 loss'",
        10,
    );
    let outcome = ama.text("#player-games li.played .outcome");
    assert!(["Won", "Lost"].contains(&outcome.as_str()), "{outcome}");
    // A game of the list: its players' names lead to their pages.
    tap(&ama, "#player-games li.played a.watch");
    ama.wait_for(
        "the game, its names as links",
        "return location.hash.startsWith('#game=') && document.querySelectorAll('.player .who a.player-link').length === 2",
        20,
    );
    tap(&ama, "#player-top .who a.player-link");
    ama.wait_for(
        "a page from the game",
        "return location.hash.startsWith('#player=') && !document.querySelector('#player-body').hidden",
        20,
    );

    // On a phone, in English: Ama's page, found from the opponent's link.
    kofi.goto(&format!("{url}/@/kofi_7"));
    wait_listing(&kofi, "#player=kofi_7", PLAYED, 3);
    assert_eq!(kofi.text("#player-results"), "1 win · 0 draws · 2 losses");
    let found = kofi.axe_violations();
    assert!(
        found.is_empty(),
        "a player's page with lost rated games, in English: {found:?}"
    );
    let wide = too_wide(&kofi);
    assert!(wide.is_empty(), "phone: {wide:?}");
    doc_screenshot(&kofi, "screenshot-player-phone-en.png");
    tap(&kofi, "#player-games li.played a.player-link");
    wait_listing(&kofi, "#player=Ama_K", PLAYED, 3);
    kofi.goto(&format!("{url}/#leaderboard=blitz"));
    wait_listing(&kofi, "#leaderboard=blitz", RANKED, 2);
    let wide = too_wide(&kofi);
    assert!(wide.is_empty(), "phone leaderboard: {wide:?}");
    doc_screenshot(&kofi, "screenshot-leaderboard-phone-en.png");
    // One's own page, from the account's dialog.
    kofi.goto(&format!("{url}/#rules"));
    wait_account_button(&kofi, "kofi_7");
    account_dialog(&kofi, "account");
    tap(&kofi, "#account-page");
    kofi.wait_for(
        "his own page, the dialog closed",
        "return location.hash === '#player=kofi_7' && !document.querySelector('#dlg-account').open \
           && document.querySelectorAll('#player-games li.played').length === 3",
        20,
    );
    // Nobody of that name: said, no error.
    kofi.goto(&format!("{url}/#player=nobody_here"));
    kofi.wait_shown("#player-missing", 20);
    assert_eq!(kofi.text("#player-missing"), "No player has this name.");

    // Kofi reports Ama about their first game; Ama, made a moderator,
    // opens that game from her reports: the game shown, the dialog gone.
    let reported = page_fetch(
        &kofi,
        "POST",
        "/api/reports",
        json!({"username": "Ama_K", "game": games[0], "reason": "other", "text": "?"}),
    );
    assert_eq!(reported["status"], 201, "{reported}");
    let said = page_fetch(
        &kofi,
        "POST",
        &format!("/api/games/{}/chat", games[0]),
        json!({"room": "players", "text": "between the two of us"}),
    );
    assert_eq!(said["status"], 201, "{said}");
    site.admin(&["grant-moderator", "Ama_K"]);
    // The server knows her sessions for a few seconds (its cache): her
    // account's dialog is opened again (asking again) until it sees her a
    // moderator.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    ama.goto(&format!("{url}/#rules"));
    wait_account_button(&ama, "Ama_K");
    loop {
        account_dialog(&ama, "account");
        if ama
            .wait_for(
                "the account's pane drawn",
                "return document.querySelector('#account-name').textContent === 'Ama_K' \
                   ? (document.querySelector('#moderation').hidden ? 'player' : 'moderator') : null",
                10,
            )
            == json!("moderator")
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Ama never seen a moderator"
        );
        ama.eval(
            "document.querySelector('#dlg-account').close(); document.querySelector('#account-name').textContent = ''",
        );
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    ama.wait_shown("#mod-reports li.report a", 10);
    // The players' room of the reported game, read from the report.
    tap(&ama, "#mod-reports li.report button.read-chat");
    ama.wait_for(
        "the reported game's players' room",
        "return document.querySelector('#mod-reports .report-chat')\
           .textContent.includes('between the two of us') || null",
        20,
    );
    let found = ama.axe_violations();
    assert!(found.is_empty(), "a reported game's chat: {found:?}");
    tap(&ama, "#mod-reports li.report a");
    ama.wait_for(
        "the reported game, the dialog closed",
        &format!(
            "return location.hash === '#game={}' && !document.querySelector('#dlg-account').open \
               && !document.querySelector('#view-play').hidden",
            games[0]
        ),
        20,
    );

    // A rated game with a friend, chosen in the new game dialog (an
    // account may; a guest's choice is casual only).
    ama.goto(&format!("{url}/@/Ama_K"));
    wait_account_button(&ama, "Ama_K");
    tap(&ama, "#btn-new");
    ama.wait_open("#dlg-new", 10);
    tap(&ama, "#dlg-new input[name=mode][value=online] + span");
    tap(&ama, "#dlg-new input[name=rated][value=rated] + span");
    // Rated means a clock (the server refuses a rated game without one).
    tap(&ama, "#dlg-new input[name=clock] + span");
    tap(&ama, "#btn-start");
    ama.wait_for(
        "the rated game",
        "return location.hash.startsWith('#game=') && document.querySelector('#game-info').textContent.includes('Rated game')",
        20,
    );
    let id = webdriver::game_id(&ama);
    let (_, view) = site.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(view["rated"], true, "{view}");
    let guest = Browser::start("players-guest", "fr-FR,fr", 1280, 900);
    open_at_once(&guest, &url);
    close_first_dialog(&guest);
    tap(&guest, "#btn-new");
    tap(&guest, "#dlg-new input[name=mode][value=online] + span");
    assert_eq!(
        guest.eval(
            "return document.querySelector('#dlg-new input[name=rated][value=rated]').disabled"
        ),
        json!(true),
        "a guest cannot choose a rated game"
    );
    // A guest is asked a nickname in the lobby.
    guest.eval("document.querySelector('#dlg-new').close(); location.hash = '#lobby'");
    guest.wait_for(
        "the guest's nickname field",
        "return !document.querySelector('#view-lobby').hidden && !document.querySelector('#me-form').hidden",
        10,
    );
    // The guest signs up in the dialog, from the home page: the recovery
    // codes can be copied (and it is said) or printed; the page, started
    // again as the account, opens no New game dialog by itself, and the
    // lobby asks no nickname of an account.
    guest.eval("location.hash = ''");
    guest.wait_shown("#welcome", 10);
    account_dialog(&guest, "login");
    tap(&guest, "#dlg-account [data-to=signup]");
    type_in(&guest, "#signup-name", "Guest_P");
    type_in(&guest, "#signup-password", PASSWORD);
    tap(&guest, "#btn-signup");
    guest.wait_shown("#dlg-account [data-pane=codes]", 15);
    let code = guest.string("return document.querySelector('#codes-list li').textContent");
    assert_eq!(guest.text("#codes-print"), "Imprimer");
    let found = guest.axe_violations();
    assert!(found.is_empty(), "the recovery codes: {found:?}");
    tap(&guest, "#codes-copy");
    let said = guest.wait_for(
        "the codes copied (or selected to copy)",
        "return document.querySelector('#codes-copied').textContent",
        10,
    );
    assert!(said.as_str().unwrap_or("").starts_with("Codes "), "{said}");
    tap(&guest, "#codes-done");
    wait_account_button(&guest, "Guest_P");
    guest.wait_for(
        "the welcome (or the lobby)",
        "return !document.querySelector('#view-play').hidden && !document.querySelector('#welcome').hidden \
           || !document.querySelector('#view-lobby').hidden",
        20,
    );
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert_eq!(
        guest.eval("return document.querySelector('#dlg-new').open"),
        json!(false),
        "no New game dialog after a sign-up"
    );
    guest.eval("location.hash = '#lobby'");
    guest.wait_for(
        "the lobby without a nickname field",
        "return !document.querySelector('#view-lobby').hidden && document.querySelector('#me-form').hidden",
        10,
    );
    // Logged out, then a new password by a recovery code: said done,
    // logged in.
    account_dialog(&guest, "account");
    tap(&guest, "#btn-logout");
    wait_account_button(&guest, "Se connecter");
    account_dialog(&guest, "login");
    tap(&guest, "#dlg-account [data-to=reset]");
    type_in(&guest, "#reset-name", "Guest_P");
    type_in(&guest, "#reset-code", &code);
    type_in(&guest, "#reset-password", "another long password");
    tap(&guest, "#dlg-account [data-pane=reset] button.primary");
    wait_account_button(&guest, "Guest_P");
    guest.wait_for(
        "the reset confirmed",
        "return !document.querySelector('#toast').hidden \
           && document.querySelector('#toast').textContent.replace(/[\\u00a0\\u202f]/g, ' ') === 'Mot de passe changé : vous êtes connecté.'",
        15,
    );
    // A rated challenge in the lobby says so, its maker's name a link to
    // her page.
    let made = page_fetch(
        &ama,
        "POST",
        "/api/games",
        json!({"mode": "online", "public": true, "rated": true,
               "clock": {"minutes": 5, "increment_seconds": 3}}),
    );
    assert_eq!(made["status"], 201, "{made}");
    kofi.goto(&format!("{url}/#lobby"));
    kofi.wait_for(
        "the rated challenge",
        "return [...document.querySelectorAll('#lobby-challenges li')].some((li) => \
           li.textContent.includes('Rated game') && li.querySelector('a.player-link')?.textContent.replace(/[\\u2066-\\u2069]/g, '') === 'Ama_K')",
        20,
    );
    tap(&kofi, "#lobby-challenges a.player-link");
    kofi.wait_for(
        "her page from the lobby",
        "return location.hash === '#player=Ama_K' && !document.querySelector('#player-body').hidden",
        20,
    );
}
