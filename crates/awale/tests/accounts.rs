//! Accounts in the browser, end to end: the real `awale serve` and
//! headless Chromium with separate profiles, driven as people would. A
//! guest plays, signs up (its recovery codes shown once) and keeps its
//! games; a second profile, on a phone, logs in and sees the same games;
//! a wrong password is told in the page's words; kid mode hides the chat;
//! logging out leaves a guest.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::{json, Value};
use webdriver::{Browser, Site};

const PASSWORD: &str = "seeds in the fourth hole";

fn open(b: &Browser, url: &str) {
    b.goto(url);
    b.eval("localStorage.setItem('awale.speed', '0')");
    b.goto(url);
}

fn tap(b: &Browser, css: &str) {
    b.find(css);
    b.exec(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
        json!([css]),
    );
    b.click(css);
}

fn type_in(b: &Browser, css: &str, text: &str) {
    tap(b, css);
    b.exec(
        "document.querySelector(arguments[0]).value = ''",
        json!([css]),
    );
    b.keys(text);
}

/// A request from the page itself (its cookies): the status and the JSON.
fn fetch(b: &Browser, method: &str, path: &str, body: Value) -> Value {
    b.exec_async(&format!(
        "const done = arguments[arguments.length - 1];
         fetch({path}, {{ method: {method}, headers: {{ 'Content-Type': 'application/json' }},
                          body: {body} }})
           .then(async (r) => done({{ status: r.status, body: await r.json().catch(() => null) }}),
                 (e) => done({{ status: 0, body: String(e) }}));",
        path = json!(path),
        method = json!(method),
        body = if body.is_null() {
            "undefined".to_string()
        } else {
            json!(body.to_string()).to_string()
        },
    ))
}

fn my_games(b: &Browser) -> Vec<String> {
    let answer = fetch(b, "GET", "/api/games", Value::Null);
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
            let me = fetch(b, "GET", "/api/me", Value::Null);
            panic!(
                "the account button says `{}`, not `{text}` (GET /api/me: {me}; at {})",
                account_button(b),
                b.string("return location.href")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

fn screenshot(b: &Browser, name: &str) {
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name);
        b.screenshot(&path);
    }
}

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
#[ignore = "the new-game dialog open on a first visit covers the account button: to fix"]
fn a_guests_games_follow_it_into_its_account_and_onto_another_profile() {
    let site = Site::start("accounts");
    let url = site.url.clone();

    // A guest, in French on a desktop, plays an online game and one
    // against the computer.
    let ama = Browser::start("accounts-ama", "fr-FR,fr", 1280, 900);
    open(&ama, &url);
    wait_account_button(&ama, "Se connecter");
    let online = fetch(
        &ama,
        "POST",
        "/api/games",
        json!({"mode": "online", "name": "Ama invitée"}),
    );
    assert_eq!(online["status"], 201, "{online}");
    let computer = fetch(&ama, "POST", "/api/games", json!({"mode": "computer"}));
    assert_eq!(computer["status"], 201, "{computer}");
    let games = my_games(&ama);
    assert_eq!(games.len(), 2);

    // Signs up: a weak password first, told in French.
    tap(&ama, "#btn-account");
    ama.wait_shown("#dlg-account [data-pane=login]", 10);
    tap(&ama, "#dlg-account [data-to=signup]");
    type_in(&ama, "#signup-name", "Ama_K");
    type_in(&ama, "#signup-password", "motdepasse");
    tap(&ama, "#btn-signup");
    ama.wait_shown("#account-error", 10);
    let said = ama.text("#account-error");
    assert!(said.contains("parmi les plus courants"), "{said}");
    type_in(&ama, "#signup-password", PASSWORD);
    screenshot(&ama, "screenshot-account-signup-fr.png");
    tap(&ama, "#btn-signup");
    ama.wait_shown("#dlg-account [data-pane=codes]", 15);
    let codes = ama.strings(
        "return [...document.querySelectorAll('#codes-list li')].map((li) => li.textContent)",
    );
    assert_eq!(codes.len(), 10, "{codes:?}");
    assert!(codes.iter().all(|c| c.len() == 14), "{codes:?}");
    screenshot(&ama, "screenshot-account-codes-fr.png");
    tap(&ama, "#codes-done");
    wait_account_button(&ama, "Ama_K");
    assert_eq!(my_games(&ama), games, "the guest's games are the account's");
    // The session's secret is out of the page's reach (HttpOnly).
    let cookies = ama.string("return document.cookie");
    assert!(!cookies.contains("awale_session"), "{cookies}");

    // Another profile, in English on a phone: a wrong password, then the
    // right one; the same games.
    let phone = Browser::start("accounts-phone", "en-US,en", 390, 844);
    open(&phone, &url);
    wait_account_button(&phone, "Log in");
    assert!(my_games(&phone).is_empty());
    tap(&phone, "#btn-account");
    phone.wait_shown("#dlg-account [data-pane=login]", 10);
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
    phone.wait_for(
        "two games in the list",
        "return document.querySelectorAll('#games-list > li').length === 2",
        20,
    );
    screenshot(&phone, "screenshot-account-phone-en.png");

    // Kid mode, from the phone: the online game shows no chat.
    tap(&phone, "#btn-account");
    phone.wait_shown("#dlg-account [data-pane=account]", 10);
    assert_eq!(phone.text("#account-name"), "Ama_K");
    tap(&phone, "#chk-kid");
    phone.wait_for(
        "kid mode on",
        "return document.documentElement.classList.contains('kid-mode')",
        10,
    );
    screenshot(&phone, "screenshot-account-settings-en.png");
    tap(&phone, "#account-close");
    let online_id = online["body"]["id"].as_i64().expect("an id");
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
    assert!(!top.contains("Ama_K"), "no name in kid mode: {top}");

    // Logged out, the phone is a guest again, without the games.
    tap(&phone, "#btn-account");
    phone.wait_shown("#dlg-account [data-pane=account]", 10);
    tap(&phone, "#btn-logout");
    wait_account_button(&phone, "Log in");
    assert!(my_games(&phone).is_empty());
    // The desktop is still logged in (one session ended, not the other).
    ama.goto(&url);
    wait_account_button(&ama, "Ama_K");
    assert_eq!(account_button(&ama), "Ama_K");
}
