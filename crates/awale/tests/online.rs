//! Online play in the browser, end to end: the real `awale serve`, three
//! headless Chromium with their own profiles (two players and a
//! spectator), driven through chromedriver as people would. The invite's
//! QR code (drawn by the server) is read back from a screenshot by an
//! independent decoder (rqrr).
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

#[path = "../../awale-store/tests/pg/mod.rs"]
mod pg;
mod webdriver;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use webdriver::{game_id, page_fetch, tap, temp_dir, Browser, Site};

/// The QR codes on the screen of `b`: its screenshot (kept as `name`
/// in a temporary folder), read back as a phone's camera would.
fn qr_on_screen(b: &Browser, name: &str) -> Vec<String> {
    let png_path = temp_dir("online-qr").join(name);
    b.screenshot(&png_path);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let (w, h) = (info.width as usize, info.height as usize);
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| {
        let p = (y * w + x) * channels;
        let sum: u32 = buf[p..p + channels.min(3)]
            .iter()
            .map(|&c| u32::from(c))
            .sum();
        (sum / channels.min(3) as u32) as u8
    });
    img.detect_grids()
        .iter()
        .filter_map(|g| g.decode().ok().map(|(_, text)| text))
        .collect()
}

// ------------------------------------------------------------ helpers --

/// A request made by the page itself (with its browser's cookie), which
/// must succeed: its JSON answer.
fn fetch(b: &Browser, method: &str, path: &str, body: Value) -> Value {
    let v = page_fetch(b, method, path, body);
    assert!(
        v["status"].as_u64().is_some_and(|s| s < 300),
        "{method} {path}: {v}"
    );
    v["body"].clone()
}

/// A new game made by the page `b` shows (`body` as the page posts it):
/// its id.
fn new_game(b: &Browser, body: Value) -> String {
    fetch(b, "POST", "/api/games", body)["id"]
        .as_str()
        .map(String::from)
        .expect("a game")
}

/// Opens the page with quick animations.
fn open(b: &Browser, url: &str) {
    b.goto(url);
    b.eval("localStorage.setItem('awale.speed', '40')");
    b.goto(url);
}

fn wait_moves(b: &Browser, n: usize) {
    b.wait_for(
        &format!("{n} moves in the list"),
        &format!("return document.querySelectorAll('#move-list .mv').length === {n}"),
        30,
    );
}

/// Plays `letter` on `b`'s board once it is legal there.
fn play(b: &Browser, letter: &str) {
    let css = format!(".hole-hit.legal[data-letter='{letter}']");
    b.wait_for(
        &format!("{letter} to play"),
        &format!("return !!document.querySelector({})", json!(css)),
        30,
    );
    tap_move(b, &css);
}

/// Plays the first legal hole on `b`'s board (waits for one).
fn play_first(b: &Browser) -> String {
    let letter = b
        .wait_for(
            "a legal hole",
            "const h = document.querySelector('.hole-hit.legal'); return h ? h.dataset.letter : null",
            30,
        )
        .as_str()
        .unwrap_or_default()
        .to_string();
    tap_move(b, &format!(".hole-hit.legal[data-letter='{letter}']"));
    letter
}

/// Taps the legal hole `css` until the move is in `b`'s list: a tap the
/// page takes while it is busy (a request or a sowing under way) is not a
/// move, and a loaded machine makes that window wide. The hole stays
/// legal for 3 s after a tap only when the tap was not taken.
fn tap_move(b: &Browser, css: &str) {
    use std::time::{Duration, Instant};
    let count = "return document.querySelectorAll('#move-list .mv').length";
    let legal = || {
        b.exec(
            "return !!document.querySelector(arguments[0])",
            json!([css]),
        ) == json!(true)
    };
    let before = b.eval(count).as_u64().unwrap_or(0);
    let mut taps = 0;
    let mut tapped_at = Instant::now() - Duration::from_secs(10);
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if b.eval(count).as_u64().unwrap_or(0) > before {
            return;
        }
        if legal() && tapped_at.elapsed() > Duration::from_secs(3) && taps < 5 {
            tap(b, css);
            taps += 1;
            tapped_at = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{css}: tapped {taps} times, no move in the list");
}

fn wait_text(b: &Browser, css: &str, part: &str) {
    b.wait_for(
        &format!("`{part}` in {css}"),
        &format!(
            "const e = document.querySelector({}); return !!e && e.offsetParent !== null && e.innerText.replace(/[\\u2066-\\u2069]/g, '').includes({})",
            json!(css),
            json!(part)
        ),
        30,
    );
}

fn shown(b: &Browser, css: &str) -> bool {
    b.exec(
        "const e = document.querySelector(arguments[0]); return !!e && e.offsetParent !== null",
        json!([css]),
    ) == json!(true)
}

/// Types `text` into the field `css`.
fn type_in(b: &Browser, css: &str, text: &str) {
    b.click(css);
    b.exec(
        "document.querySelector(arguments[0]).value = ''",
        json!([css]),
    );
    b.keys(text);
}

fn say(b: &Browser, room: Option<&str>, text: &str) {
    if let Some(room) = room {
        tap(b, &format!("#room-{room}"));
    }
    type_in(b, "#chat-text", text);
    tap(b, "#chat-send");
}

fn chat_lines(b: &Browser) -> Vec<String> {
    b.strings("return [...document.querySelectorAll('#chat-lines li.line')].map(l => l.innerText)")
}

/// Counts the sound sources the page makes from now on (the page's
/// AudioContext is made at its first sound).
fn listen_for_sounds(b: &Browser) {
    b.eval(
        "window.sounds = 0;
         const Real = window.AudioContext;
         window.AudioContext = class extends Real {
           createOscillator() { window.sounds++; return super.createOscillator(); }
           createBufferSource() { window.sounds++; return super.createBufferSource(); }
         };",
    );
}

/// The invitation link of game `id`, as its maker `b` is given it (a
/// private game's carries its key).
fn invite_link(b: &Browser, id: &str) -> String {
    fetch(b, "GET", &format!("/api/games/{id}/links"), Value::Null)["invite"]
        .as_str()
        .expect("the invitation")
        .to_string()
}

/// Waits until `b`'s page is that of game `id`.
fn wait_for_game(b: &Browser, id: &str) {
    b.wait_for(
        &format!("game {id}"),
        &format!("return location.hash === '#game={id}'"),
        20,
    );
}

/// Where the README's screenshots go (taken with `AWALE_SCREENSHOTS=1`).
fn screenshot_to(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name)
}

// --------------------------------------------------------------- tests --

/// Two guests without nicknames, one on a French page, one on an English
/// page: each reader's page words both guests its own way ("Invité 4821",
/// "Guest 4821"), on the seats and in the chat, whichever page made the
/// name; the chat's times are written the page's language's way, not the
/// browser's (an English page in an American browser: 14:05, not 2:05 PM).
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn guests_without_nicknames_are_named_in_each_readers_language() {
    let site = Site::start("guests");
    let url = site.url.clone();
    let awa = Browser::start("guest-fr", "fr-FR,fr", 1280, 1000);
    let bob = Browser::start("guest-en", "en-US,en", 1280, 1000);
    open(&awa, &url);
    awa.wait_open("#dlg-new", 15);
    tap(&awa, "#form-new input[name=mode][value=online] + span");
    tap(&awa, "#form-new input[name=human][value=S] + span");
    tap(&awa, "#btn-start");
    let invite = awa
        .wait_for(
            "the invite link",
            "const link = document.querySelector('#invite-link').value; return link.includes('?join=') && link",
            20,
        )
        .as_str()
        .unwrap_or_default()
        .to_string();
    open(&bob, &format!("{url}/#lobby"));
    bob.goto(&invite);
    let number = |b: &Browser| fetch(b, "GET", "/api/me", Value::Null)["guest"].clone();
    let (awa_n, bob_n) = (number(&awa), number(&bob));
    wait_text(
        &bob,
        "#player-bottom .who",
        &format!("North · Guest {bob_n} · you"),
    );
    wait_text(&bob, "#player-top .who", &format!("South · Guest {awa_n}"));
    wait_text(&awa, "#player-top .who", &format!("Nord · Invité {bob_n}"));
    wait_text(
        &awa,
        "#player-bottom .who",
        &format!("Sud · Invité {awa_n}"),
    );

    say(&bob, Some("players"), "Hello");
    wait_text(&awa, "#chat-lines", "Hello");
    let lines = chat_lines(&awa);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("Invité {bob_n}"))),
        "{lines:?}"
    );
    wait_text(&bob, "#chat-lines", "Hello");
    let times = bob
        .strings("return [...document.querySelectorAll('#chat-lines li.line')].map(l => l.title)");
    assert!(!times.is_empty());
    for time in &times {
        let digits: Vec<&str> = time.split(':').collect();
        assert!(
            digits.len() == 2
                && digits
                    .iter()
                    .all(|d| d.len() == 2 && d.bytes().all(|c| c.is_ascii_digit())),
            "a time the English page's way (en-GB): `{time}`"
        );
    }
}

/// Two players and a spectator, each in their own browser: a game by
/// invite link (its QR code read from the screen), seats, presence, moves
/// seen by all, a spectator stepping back on their own, the two chat
/// rooms, a reaction seen and heard by all three, a takeback, a server
/// restart in the middle, a resignation and a rematch with the colours
/// swapped; then a short game from a study position played to its end,
/// a seat moved to another device on the way;
/// a challenge in the lobby (the home page then) withdrawn, another
/// accepted in one click, and
/// the flag of a player whose browser is closed falling on the server.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn two_players_and_a_spectator_play_talk_and_cheer_online() {
    let mut site = Site::start("online");
    let url = site.url.clone();
    let awa = Browser::start("awa", "fr-FR,fr", 1280, 1000);
    let bob = Browser::start("bob", "en-US,en", 1280, 1000);
    let cleo = Browser::start("cleo", "en-US,en", 390, 844);

    // Awa, on her first visit, plays a friend: 3 + 2, South, by invitation.
    open(&awa, &url);
    awa.wait_open("#dlg-new", 15);
    tap(&awa, "#form-new input[name=mode][value=online] + span");
    assert!(shown(&awa, "#new-nickname"));
    let placeholder = awa.string("return document.querySelector('#new-nickname').placeholder");
    assert!(placeholder.starts_with("Invité "), "{placeholder}");
    type_in(&awa, "#new-nickname", "Awa");
    tap(&awa, "#clock-presets button:nth-child(2)");
    tap(&awa, "#form-new input[name=human][value=S] + span");
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        awa.screenshot(&screenshot_to("screenshot-online-new-fr.png"));
    }
    tap(&awa, "#btn-start");

    // The invite: a link, its copy button, its QR code drawn on the page.
    let invite = awa
        .wait_for(
            "the invite link",
            "const link = document.querySelector('#invite-link').value; \
             return link.includes('?join=') && !!document.querySelector('#invite-qr path') && link",
            20,
        )
        .as_str()
        .unwrap_or_default()
        .to_string();
    let first = game_id(&awa);
    assert!(
        invite.starts_with(&format!("{url}/?join={first}&k=")),
        "{invite}"
    );
    // A stranger (no cookie) is given the watching link only.
    let (_, links) = site.call("GET", &format!("/api/games/{first}/links"), None);
    assert!(links["invite"].is_null(), "{links}");
    wait_text(&awa, "#status", "En attente de l'adversaire");
    awa.eval("document.querySelector('#invite-qr').scrollIntoView({block: 'center'})");
    assert_eq!(
        qr_on_screen(&awa, "invite.png"),
        vec![invite.clone()],
        "the QR code on the screen"
    );
    tap(&awa, "#invite-copy");
    awa.wait_for(
        "the copy button's answer",
        "return ['Copié\u{202f}!', 'Sélectionnez le lien et copiez-le'].includes(document.querySelector('#invite-copy').textContent)",
        10,
    );

    // Bob chooses his nickname in the lobby, then opens the link: he takes
    // the free seat (North, at the bottom of his board).
    open(&bob, &format!("{url}/#lobby"));
    type_in(&bob, "#me-name", "Bob");
    tap(&bob, "#me-save");
    bob.wait_for(
        "the nickname saved",
        "return document.querySelector('#toast').textContent.includes('Bob')",
        10,
    );
    bob.goto(&invite);
    wait_text(&bob, "#player-bottom .who", "North · Bob · you");
    wait_text(&bob, "#player-top .who", "South · Awa");
    wait_text(&bob, "#status", "South (Awa) to move");
    assert!(!bob.string("return location.search").contains("join"));
    wait_text(&awa, "#player-top .who", "Nord · Bob");
    wait_text(&awa, "#status", "À vous de jouer");
    assert!(!shown(&awa, "#invite"));
    awa.wait_for(
        "Bob connected",
        "return !!document.querySelector('#player-top .presence.here')",
        10,
    );

    // Cleo opens the same link later: both seats are taken, she watches.
    open(&cleo, &invite);
    wait_text(&cleo, "#presence", "You are watching");
    assert!(!shown(&cleo, "#btn-resign") && !shown(&cleo, "#chat-rooms"));
    wait_text(&awa, "#presence", "1 spectateur");
    wait_text(&bob, "#presence", "1 spectator");

    // Moves reach everyone; only the side to move's player has holes to play.
    play_first(&awa);
    for b in [&awa, &bob, &cleo] {
        wait_moves(b, 1);
    }
    assert_eq!(
        cleo.eval("return document.querySelectorAll('.hole-hit.legal').length"),
        json!(0)
    );
    let (status, refused) = site.call(
        "POST",
        &format!("/api/games/{first}/moves"),
        Some(json!({"move": "a", "ply": 1})),
    );
    assert_eq!(status, 403, "{refused}");
    play_first(&bob);
    for b in [&awa, &bob, &cleo] {
        wait_moves(b, 2);
    }
    play_first(&awa);
    // Cleo steps back on her own screen while the game goes on.
    wait_moves(&cleo, 3);
    tap(&cleo, "#move-list .mv[data-ply='0']");
    wait_text(&cleo, "#replay-label", "ply 1 of 3");
    play_first(&bob);
    wait_text(&cleo, "#replay-label", "ply 1 of 4");
    for b in [&awa, &bob] {
        wait_moves(b, 4);
        assert!(!shown(b, "#replay-bar"));
    }
    tap(&cleo, "#rp-exit");
    wait_moves(&cleo, 4);
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        // The lobby as a visitor sees it: Dédé's open challenge, this game.
        let dede = Browser::start("dede", "en-US,en", 1280, 800);
        open(&dede, &format!("{url}/#lobby"));
        let body = json!({"mode": "online", "human": "random", "name": "Dédé", "public": true,
                          "clock": {"minutes": 5, "increment_seconds": 3}});
        let challenge = new_game(&dede, body);
        tap(&bob, "#btn-lobby");
        wait_text(&bob, "#lobby-challenges", "Challenge from Dédé");
        wait_text(&bob, "#lobby-live", "Awa – Bob");
        bob.screenshot(&screenshot_to("screenshot-online-lobby.png"));
        fetch(
            &dede,
            "POST",
            &format!("/api/games/{challenge}/abort"),
            json!({}),
        );
        tap(&bob, "#btn-play");
        wait_moves(&bob, 4);
    }

    // The players' room reaches the players only; the public's everyone;
    // what is written is shown as text, never read as HTML.
    say(&awa, Some("players"), "Bonne chance !");
    wait_text(&bob, "#chat-lines", "Bonne chance");
    let attack = "<img src=x onerror=alert(1)>";
    say(&cleo, None, attack);
    for b in [&awa, &bob] {
        tap(b, "#room-public");
        wait_text(b, "#chat-lines", attack);
        assert_eq!(
            b.eval("return document.querySelectorAll('#chat-lines img').length"),
            json!(0)
        );
        // Each name and message keeps its own direction: a right-to-left
        // text cannot turn the words around it (issue 20, finding 9).
        assert_eq!(
            b.eval(
                "return [...document.querySelectorAll('#chat-lines li.line .name, \
                 #chat-lines li.line .text')].every(e => e.dir === 'auto')"
            ),
            json!(true)
        );
    }
    assert!(!chat_lines(&cleo).iter().any(|l| l.contains("Bonne chance")));
    let (_, lines) = site.call("GET", &format!("/api/games/{first}/chat"), None);
    assert!(!lines.to_string().contains("Bonne chance"), "{lines}");
    // A player may mute the public's room on their screen; anyone hides the chat.
    tap(&awa, "#chk-mute-public");
    wait_text(&awa, "#chat-lines", "Vous avez coupé le salon du public");
    tap(&awa, "#chk-mute-public");
    wait_text(&awa, "#chat-lines", attack);
    tap(&cleo, "#btn-hide-chat");
    assert!(!shown(&cleo, "#chat") && shown(&cleo, "#btn-show-chat"));
    tap(&cleo, "#btn-show-chat");
    // Too many messages: the refusal says to wait. They are sent from one
    // script, through the page's own form: typed one by one, a loaded
    // machine types slower than the limit refills (5, then one each 2 s).
    cleo.eval(
        "const form = document.querySelector('#chat-form'), \
         text = document.querySelector('#chat-text'); \
         for (let i = 0; i < 10; i++) { text.value = 'allez ' + i; form.requestSubmit(); } \
         return null",
    );
    wait_text(&cleo, "#chat-error", "You are writing too fast: wait");

    // A reaction is seen and heard by all three.
    for b in [&awa, &bob, &cleo] {
        listen_for_sounds(b);
    }
    tap(&cleo, "#reactions [data-reaction='applause']");
    wait_text(&awa, "#reaction-pops", "Bravo · le public");
    for b in [&bob, &cleo] {
        wait_text(b, "#reaction-pops", "Applause · the public");
    }
    for b in [&awa, &bob, &cleo] {
        b.wait_for("the applause heard", "return window.sounds > 10", 10);
    }

    // Bob asks to take his move back; Awa accepts.
    tap(&bob, "#btn-takeback");
    wait_text(&awa, "#offer", "Bob demande à reprendre son dernier coup");
    wait_text(&bob, "#offer", "waiting for the answer");
    tap(&awa, "#offer button.primary");
    for b in [&awa, &bob, &cleo] {
        wait_moves(b, 3);
    }

    // The server is killed and started again: all three go on.
    site.restart();
    for b in [&awa, &bob] {
        b.wait_for(
            "the other player back",
            "return document.querySelectorAll('.player .presence.here').length === 2",
            30,
        );
    }
    wait_text(&awa, "#presence", "1 spectateur");
    play_first(&bob);
    for b in [&awa, &bob, &cleo] {
        wait_moves(b, 4);
    }
    say(&bob, Some("public"), "Still here");
    wait_text(&cleo, "#chat-lines", "Still here");

    // Bob resigns; everyone reads who won and why.
    tap(&bob, "#btn-resign");
    tap(&bob, "#resign-N");
    wait_text(&awa, "#result", "Vous avez gagné");
    wait_text(&bob, "#result", "You lost");
    wait_text(&cleo, "#result", "Awa (South) wins!");
    wait_text(&cleo, "#status", "Bob (North) resigned.");

    // A rematch, colours swapped: both players are taken to it; the
    // spectator follows with a click.
    tap(&awa, "#btn-rematch");
    wait_text(&bob, "#offer", "Awa offers a rematch");
    wait_text(&awa, "#offer", "en attente de Bob");
    tap(&bob, "#offer button.primary");
    bob.wait_for(
        "the rematch",
        &format!("return location.hash !== '#game={first}'"),
        20,
    );
    let second = game_id(&bob);
    wait_for_game(&awa, &second);
    wait_text(&awa, "#player-bottom .who", "Nord · Awa · vous");
    wait_text(&bob, "#player-bottom .who", "South · Bob · you");
    tap(&cleo, "#btn-follow");
    wait_for_game(&cleo, &second);
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        play_first(&bob);
        wait_moves(&awa, 1);
        say(&awa, Some("public"), "Revanche !");
        wait_text(&cleo, "#chat-lines", "Revanche");
        for b in [&awa, &bob, &cleo] {
            b.eval("window.scrollTo(0, 0)");
        }
        awa.screenshot(&screenshot_to("screenshot-online-fr.png"));
        bob.screenshot(&screenshot_to("screenshot-online-en.png"));
        cleo.screenshot(&screenshot_to("screenshot-online-phone-en.png"));
        tap(&cleo, "#btn-lang");
        cleo.eval("window.scrollTo(0, 0)");
        cleo.screenshot(&screenshot_to("screenshot-online-phone-fr.png"));
        tap(&cleo, "#btn-lang");
    }
    let overflow = cleo.eval("return document.documentElement.scrollWidth - window.innerWidth");
    assert_eq!(
        overflow,
        json!(0),
        "the phone's page is wider than its screen"
    );
    // Awa has not moved yet: she may call the game off.
    tap(&awa, "#btn-abort");
    for b in [&awa, &bob, &cleo] {
        wait_text(
            b,
            "#result",
            if std::ptr::eq(b, &awa) {
                "Partie annulée"
            } else {
                "Game called off"
            },
        );
    }

    // A short game from a study position, by its invite link, to the end.
    let third = new_game(
        &awa,
        json!({"mode": "online", "human": "S", "name": "Awa", "position": "0-0-0-1-1-0-1-0-0-0-0-0-22-23-S"}),
    );
    awa.goto(&format!("{url}/#game={third}"));
    awa.wait_for(
        "the invite",
        "return document.querySelector('#invite-link').value.includes('?join=')",
        20,
    );
    let invite = invite_link(&awa, &third);
    bob.goto(&invite);
    wait_text(&bob, "#player-bottom .who", "North · Bob · you");
    cleo.goto(&invite);
    wait_text(&cleo, "#presence", "You are watching");
    // A spectator shares the watching link, its QR code asked apart.
    tap(&cleo, "#btn-share");
    let watch = cleo.wait_for(
        "the watching link",
        "const d = document.querySelector('#dlg-link'); \
         return d.open && !!d.querySelector('#link-qr path') && d.querySelector('#link-value').value",
        20,
    );
    assert_eq!(watch, json!(format!("{url}/?game={third}")));
    tap(&cleo, "#dlg-link .primary");
    // D a E a F: North is left without seeds, South cannot feed them, and
    // North takes the seeds left: 26 to 22. After D, Bob moves his seat
    // to another device (here Cleo's browser) with a private link; his
    // own page then watches.
    play(&awa, "D");
    for b in [&awa, &bob, &cleo] {
        wait_moves(b, 1);
    }
    tap(&bob, "#btn-handoff");
    let link = bob
        .wait_for(
            "the private link",
            "const d = document.querySelector('#dlg-link'); \
             return d.open && !!d.querySelector('#link-qr path') && d.querySelector('#link-value').value",
            20,
        )
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(link.starts_with(&format!("{url}/?continue=")), "{link}");
    assert_eq!(
        qr_on_screen(&bob, "handoff.png"),
        vec![link.clone()],
        "the private link's QR code"
    );
    tap(&bob, "#dlg-link .primary");
    cleo.goto(&link);
    wait_text(&cleo, "#player-bottom .who", "North · Bob · you");
    wait_text(&bob, "#presence", "You are watching");
    assert!(!cleo.string("return location.search").contains("continue"));
    for (ply, letter) in [(1, "a"), (2, "E"), (3, "a"), (4, "F")] {
        play(if ply % 2 == 0 { &awa } else { &cleo }, letter);
        for b in [&awa, &bob, &cleo] {
            wait_moves(b, ply + 1);
        }
    }
    wait_text(&awa, "#result", "Vous avez perdu");
    wait_text(&cleo, "#result", "You won!");
    wait_text(&bob, "#result", "Bob (North) wins!");
    let (_, ended) = site.call("GET", &format!("/api/games/{third}"), None);
    assert_eq!(ended["end"]["reason"], "starvation", "{ended}");

    // A challenge in the lobby goes when its maker withdraws it.
    let listed = |b: &Browser, id: &str| {
        b.exec(
            "return !!document.querySelector(`#lobby-challenges [data-id='${arguments[0]}']`)",
            json!([id]),
        ) == json!(true)
    };
    let withdrawn = new_game(
        &awa,
        json!({"mode": "online", "human": "N", "name": "Awa", "public": true}),
    );
    awa.goto(&format!("{url}/#game={withdrawn}"));
    // Someone arriving at the home page with nothing going on sees the
    // lobby, since a challenge waits there.
    cleo.eval("localStorage.removeItem('awale.last')");
    cleo.goto(&format!("{url}/"));
    cleo.wait_for(
        "the lobby",
        "return !document.querySelector('#view-lobby').hidden",
        20,
    );
    cleo.wait_for(
        "the challenge listed",
        &format!("return !!document.querySelector(\"#lobby-challenges [data-id='{withdrawn}']\")"),
        20,
    );
    assert!(cleo
        .text("#lobby-challenges")
        .contains("Challenge from Awa"));
    tap(&awa, "#btn-withdraw");
    cleo.wait_for(
        "the challenge gone",
        &format!("return !document.querySelector(\"#lobby-challenges [data-id='{withdrawn}']\")"),
        20,
    );
    assert!(!listed(&cleo, &withdrawn));

    // Another, with a clock of 6 s: Bob accepts it in one click and is
    // South, to move; after the first moves (free) his browser closes; his
    // flag falls on the server.
    let flagged = new_game(
        &awa,
        json!({"mode": "online", "human": "N", "name": "Awa", "public": true,
               "clock": {"minutes": 0.1, "increment_seconds": 0}}),
    );
    awa.goto(&format!("{url}/#game={flagged}"));
    open(&bob, &format!("{url}/#lobby"));
    bob.wait_for(
        "the challenge",
        &format!(
            "return !!document.querySelector(\"#lobby-challenges [data-id='{flagged}'] .accept\")"
        ),
        20,
    );
    tap(
        &bob,
        &format!("#lobby-challenges [data-id='{flagged}'] .accept"),
    );
    wait_text(&bob, "#player-bottom .who", "South · Bob · you");
    // No clock runs before each side's first move: both make theirs.
    play_first(&bob);
    wait_moves(&awa, 1);
    play_first(&awa);
    wait_moves(&bob, 2);
    drop(bob);
    cleo.wait_for(
        "the live game",
        &format!("return !!document.querySelector(\"#lobby-live [data-id='{flagged}'] .watch\")"),
        20,
    );
    tap(&cleo, &format!("#lobby-live [data-id='{flagged}'] .watch"));
    for b in [&awa, &cleo] {
        b.wait_for("the flag", "return !!document.querySelector('#result')", 30);
    }
    wait_text(&awa, "#status", "Bob (Sud) n'a plus de temps.");
    wait_text(&cleo, "#status", "Bob (South) ran out of time.");
    for b in [&awa, &cleo] {
        // South, Bob's side, at the top of Awa's board and the bottom of Cleo's.
        let clock = if std::ptr::eq(b, &awa) {
            "#player-top .clock"
        } else {
            "#player-bottom .clock"
        };
        assert_eq!(b.text(clock), "0:00");
    }
}

/// What a fresh profile meets first, recorded from before the page's own
/// scripts run: uncaught errors, rejected promises and every toast. And
/// `/api/info` answers last (0.9 s late), as on a slow network where the
/// game's answer overtakes it.
const WATCH_FOR_ERRORS: &str = r#"
window.__errors = [];
window.__toasts = [];
window.__info = false;
addEventListener('error', (e) => window.__errors.push('error: ' + (e.message || e)));
addEventListener('unhandledrejection', (e) =>
  window.__errors.push('rejection: ' + ((e.reason && e.reason.stack) || e.reason)));
const realFetch = window.fetch;
window.fetch = function (input, init) {
  const answer = realFetch.call(this, input, init);
  if (!String((input && input.url) || input).includes('/api/info')) return answer;
  return answer.then((r) => new Promise((ok) => setTimeout(() => { window.__info = true; ok(r); }, 900)));
};
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('#toast');
  if (!box) return;
  new MutationObserver(() => {
    if (!box.hidden && box.textContent && window.__toasts.at(-1) !== box.textContent)
      window.__toasts.push(box.textContent);
  }).observe(box, { childList: true, characterData: true, subtree: true, attributes: true });
});
"#;

/// Every kind of address the page is opened at (invite, watch, continue,
/// a game, the lobby, the lessons, the analysis board...), each in a fresh
/// profile on a slowed network with `/api/info` answering last: no page
/// error, and no toast but the one the link calls for.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn every_kind_of_link_opens_in_a_fresh_profile_on_a_slow_network_without_an_error() {
    let site = Site::start("links");
    let url = site.url.clone();
    let words: Value = serde_json::from_str(include_str!("../../awale-web/page/js/text-en.json"))
        .expect("the English catalog");
    let said = |key: &str| words[key].as_str().expect(key).to_string();
    // The maker of the games, in her own browser.
    let maker = Browser::start("links-maker", "en-US,en", 1000, 800);
    maker.goto(&format!("{url}/#rules"));
    let online = |body: Value| new_game(&maker, body);
    let invited = online(json!({"mode": "online", "human": "S", "name": "Ama"}));
    let invited_link = invite_link(&maker, &invited).replacen(&url, "", 1);
    let handed = online(json!({"mode": "online", "human": "S", "name": "Ama"}));
    let token = fetch(
        &maker,
        "POST",
        &format!("/api/games/{handed}/handoff"),
        Value::Null,
    )["link"]
        .as_str()
        .expect("a link")
        .rsplit("continue=")
        .next()
        .expect("a token")
        .to_string();
    let computer = new_game(
        &maker,
        json!({"mode": "computer", "human": "S", "level": 1}),
    );
    fetch(
        &maker,
        "POST",
        &format!("/api/games/{computer}/moves"),
        json!({"move": "F", "ply": 0}),
    );
    let position = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
    let links: Vec<(String, Vec<String>)> = vec![
        (invited_link.clone(), vec![]),
        (invited_link.clone(), vec![said("seat_taken_watch")]),
        (format!("/?game={invited}"), vec![]),
        (format!("/?continue={token}"), vec![said("continued_here")]),
        (format!("/#game={invited}"), vec![]),
        (format!("/#game={computer}"), vec![]),
        (format!("/#game={computer}&ply=1"), vec![]),
        ("/".to_string(), vec![]),
        ("/#lobby".to_string(), vec![]),
        ("/#games".to_string(), vec![]),
        ("/#rules".to_string(), vec![]),
        ("/#learn".to_string(), vec![]),
        ("/#lesson=sow&step=1".to_string(), vec![]),
        (
            format!("/#analysis&position={position}&rules=awale&moves=F"),
            vec![],
        ),
        (format!("/#analysis&game={computer}&ply=1"), vec![]),
        ("/#leaderboard=blitz".to_string(), vec![]),
        // A player's page of nobody: said on the page, no error.
        ("/#player=nobody_here".to_string(), vec![]),
        ("/@/nobody_here".to_string(), vec![]),
    ];
    let b = Browser::start("links-visitor", "en-US,en", 1000, 800);
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": WATCH_FOR_ERRORS }),
    );
    b.set_network("slow", 100, 400_000, 200_000);
    let origin = url.clone();
    let mut failures = Vec::new();
    for (link, expected) in links {
        // A fresh profile: nothing kept of the visit before.
        b.goto("about:blank");
        b.cdp("Network.clearBrowserCookies", json!({}));
        b.cdp("Network.clearBrowserCache", json!({}));
        b.cdp(
            "Storage.clearDataForOrigin",
            json!({ "origin": origin, "storageTypes": "all" }),
        );
        b.goto(&format!("{url}{link}"));
        b.wait_for(
            &format!("{link}: the page and /api/info"),
            "return window.__info && performance.getEntriesByName('awale-usable').length > 0",
            30,
        );
        // What the late answer redraws, and the route's last requests.
        std::thread::sleep(std::time::Duration::from_millis(400));
        let errors = b.eval("return window.__errors");
        if errors != json!([]) {
            failures.push(format!("{link}: page errors {errors}"));
        }
        let toasts = b.strings("return window.__toasts");
        if toasts != expected {
            failures.push(format!("{link}: toasts {toasts:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Seconds on a clock as the page writes it (`1:05`, `0:07,3`).
fn clock_seconds(text: &str) -> f64 {
    let (m, s) = text
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock: `{text}`"));
    let m: f64 = m.parse().unwrap_or_else(|_| panic!("a clock: `{text}`"));
    let s: f64 = s
        .replace(',', ".")
        .parse()
        .unwrap_or_else(|_| panic!("a clock: `{text}`"));
    m * 60.0 + s
}

/// Waits for a toast saying `part` (the toast floats: it has no offset parent).
fn wait_toast(b: &Browser, part: &str) {
    b.wait_for(
        &format!("a toast `{part}`"),
        &format!(
            "const t = document.querySelector('#toast'); return !t.hidden && t.textContent.includes({})",
            json!(part)
        ),
        10,
    );
}

/// Hides the toast, so that the next one can be waited for.
fn clear_toast(b: &Browser) {
    b.eval("const t = document.querySelector('#toast'); t.hidden = true; t.textContent = ''");
}

/// Two players (French and English) and a spectator: no clock runs before
/// each side's first move; the spectator's click or key on the board says
/// they are watching; with the server killed, both players read that the
/// connection is lost, the clocks wait and nobody is said to have left;
/// once it is back, the clocks are the server's; a declined takeback and
/// a declined rematch are told to the one who asked.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn clocks_wait_for_first_moves_and_the_server_and_declines_reach_the_asker() {
    let mut site = Site::start("online-states");
    let url = site.url.clone();
    let awa = Browser::start("states-awa", "fr-FR,fr", 1100, 900);
    let bob = Browser::start("states-bob", "en-US,en", 1100, 900);
    let cleo = Browser::start("states-cleo", "en-US,en", 1100, 900);
    open(&awa, &format!("{url}/#rules"));
    let timed = new_game(
        &awa,
        json!({"mode": "online", "human": "S", "name": "Awa",
               "clock": {"minutes": 1, "increment_seconds": 0}}),
    );
    awa.goto(&format!("{url}/#game={timed}"));
    open(&bob, &format!("{url}/#rules"));
    fetch(&bob, "POST", "/api/me", json!({"name": "Bob"}));
    bob.goto(&invite_link(&awa, &timed));
    wait_text(&bob, "#player-bottom .who", "North · Bob · you");
    open(&cleo, &format!("{url}/?game={timed}"));
    wait_text(&cleo, "#presence", "You are watching");

    // No clock runs before South's first move: a second later, still 1:00.
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let (_, game) = site.call("GET", &format!("/api/games/{timed}"), None);
    assert_eq!(game["clock"]["running"], Value::Null, "{game}");
    assert_eq!(game["clock"]["left_ms"], json!([60_000, 60_000]));
    assert_eq!(awa.text("#player-bottom .clock"), "1:00");
    assert_eq!(bob.text("#player-top .clock"), "1:00");

    // The spectator: told so by the status, a click and a key on the board;
    // the API's refusal says it plainly.
    wait_text(&cleo, "#status", "You are watching · South (Awa) to move");
    tap(&cleo, ".hole-hit[data-letter='C']");
    wait_toast(
        &cleo,
        "You are watching this game: only its two players move.",
    );
    clear_toast(&cleo);
    cleo.eval("document.activeElement && document.activeElement.blur()");
    cleo.keys("c");
    wait_toast(&cleo, "You are watching this game");
    let (status, refused) = site.call(
        "POST",
        &format!("/api/games/{timed}/moves"),
        Some(json!({"move": "C", "ply": 0})),
    );
    assert_eq!(status, 403, "{refused}");
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("you are watching this game"),
        "{message}"
    );
    assert!(!message.contains("another player's ("), "{message}");

    // Each side's first move is free; then South's time runs.
    play_first(&awa);
    wait_moves(&bob, 1);
    play_first(&bob);
    wait_moves(&awa, 2);
    let (_, game) = site.call("GET", &format!("/api/games/{timed}"), None);
    assert_eq!(game["clock"]["running"], "S", "{game}");
    assert_eq!(game["clock"]["left_ms"][1], 60_000, "{game}");
    awa.wait_for(
        "South's clock running",
        "return document.querySelector('#player-bottom .clock').textContent !== '1:00'",
        10,
    );

    // The server goes down: both players read so, the clocks wait, and
    // nobody is said to have left.
    site.kill();
    wait_text(&awa, "#connection", "Connexion au serveur perdue");
    wait_text(&bob, "#connection", "Connection to the server lost");
    let frozen = [
        awa.text("#player-bottom .clock"),
        bob.text("#player-top .clock"),
    ];
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let later = [
        awa.text("#player-bottom .clock"),
        bob.text("#player-top .clock"),
    ];
    assert_eq!(later, frozen, "South's clock waits on both pages");
    for b in [&awa, &bob] {
        let line = b.text("#presence");
        assert!(!line.contains("left") && !line.contains("parti"), "{line}");
        assert!(!line.contains("here") && !line.contains("est là"), "{line}");
    }
    site.start_again();
    for b in [&awa, &bob] {
        b.wait_for(
            "the connection back",
            "return document.querySelector('#connection').hidden",
            20,
        );
        b.wait_for(
            "the other player back",
            "return document.querySelectorAll('.player .presence.here').length === 2",
            20,
        );
        let line = b.text("#presence");
        assert!(!line.contains("left") && !line.contains("parti"), "{line}");
    }
    // The clocks are the server's again.
    let (_, game) = site.call("GET", &format!("/api/games/{timed}"), None);
    let server = game["clock"]["left_ms"][0].as_f64().expect("South's time") / 1000.0;
    for (b, css) in [
        (&awa, "#player-bottom .clock"),
        (&bob, "#player-top .clock"),
    ] {
        let shown = clock_seconds(&b.text(css));
        assert!(
            (shown - server).abs() <= 2.0,
            "{shown} s shown, {server} s on the server"
        );
    }

    // A game without a clock: Bob's takeback declined, Awa's rematch too.
    let free = new_game(&awa, json!({"mode": "online", "human": "S", "name": "Awa"}));
    awa.goto(&format!("{url}/#game={free}"));
    bob.goto(&invite_link(&awa, &free));
    wait_text(&bob, "#player-bottom .who", "North · Bob · you");
    play_first(&awa);
    wait_moves(&bob, 1);
    play_first(&bob);
    wait_moves(&awa, 2);
    tap(&bob, "#btn-takeback");
    wait_text(&awa, "#offer", "Bob demande à reprendre son dernier coup");
    tap(&awa, "#offer button:not(.primary)");
    wait_text(&bob, "#offer", "Awa declined: your move stands.");
    wait_moves(&bob, 2);
    tap(&awa, "#btn-resign");
    tap(&awa, "#resign-S");
    wait_text(&bob, "#result", "You won");
    tap(&awa, "#btn-rematch");
    wait_text(&bob, "#offer", "Awa offers a rematch");
    assert!(shown(&bob, "#offer button.primary"));
    tap(&bob, "#offer button:not(.primary)");
    wait_text(&awa, "#offer", "Bob a refusé la revanche.");
    // She may offer again.
    assert!(shown(&awa, "#btn-rematch"));
    let (_, game) = site.call("GET", &format!("/api/games/{free}"), None);
    assert_eq!(game["offers"]["rematch_declined"], "S", "{game}");
    assert_eq!(game["offers"]["rematch_id"], Value::Null, "{game}");
}

/// Without a clock, a player whose opponent has been gone for 2 minutes on
/// their move claims the win. Slow (the 2 minutes are the server's): run by
/// hand with `cargo test --profile fast -p awale --test online -- --ignored`.
#[test]
#[ignore = "slow: waits the 2 minutes of the rule; run by hand"]
fn a_player_gone_two_minutes_on_their_move_loses_when_the_other_claims() {
    let site = Site::start("claim");
    let url = &site.url;
    let awa = Browser::start("claim-awa", "en-US,en", 1280, 1000);
    let bob = Browser::start("claim-bob", "en-US,en", 1280, 1000);
    open(&awa, &format!("{url}/#lobby"));
    let id = new_game(&awa, json!({"mode": "online", "human": "S", "name": "Awa"}));
    awa.goto(&format!("{url}/#game={id}"));
    open(&bob, &invite_link(&awa, &id));
    wait_text(&bob, "#player-bottom .who", "North · ");
    play_first(&awa);
    wait_moves(&bob, 1);
    drop(bob);
    wait_text(&awa, "#presence", "has left");
    wait_text(&awa, "#claim-note", "you may claim the win in");
    assert!(shown(&awa, "#btn-claim"));
    assert_eq!(
        awa.eval("return document.querySelector('#btn-claim').disabled"),
        json!(true)
    );
    awa.wait_for(
        "the claim allowed",
        "return !document.querySelector('#btn-claim').disabled",
        150,
    );
    tap(&awa, "#btn-claim");
    wait_text(&awa, "#result", "You won!");
    wait_text(&awa, "#status", "left the game.");
}

/// The words and states a new player met (issue 21.9), each seen on the
/// page: a clock under a minute in seconds and a game without a move in
/// the lobby; a called-off game said once, opened rather than continued,
/// with nothing to replay or review; no puzzle buttons without a database.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_called_off_game_a_short_clock_and_no_database_are_said_plainly() {
    let site = Site::start("online-words");
    let url = site.url.clone();
    let awa = Browser::start("words-awa", "en-US,en", 1100, 900);
    let bob = Browser::start("words-bob", "fr-FR,fr", 1100, 900);
    let cleo = Browser::start("words-cleo", "en-US,en", 390, 844);
    open(&awa, &format!("{url}/#rules"));
    let id = new_game(
        &awa,
        json!({"mode": "online", "human": "S", "name": "Awa", "public": true,
               "clock": {"minutes": 0.5, "increment_seconds": 0}}),
    );
    // Awa waits at her board (a challenge whose maker is gone is withdrawn).
    awa.goto(&format!("{url}/#game={id}"));
    wait_text(&awa, "#status", "Waiting for");
    // Bob sees the challenge in the lobby: 30 s, not "0.5 min".
    open(&bob, &format!("{url}/#lobby"));
    let challenge = format!("#lobby-challenges .lobby-item[data-id='{id}']");
    wait_text(&bob, &challenge, "30 s + 0 s");
    assert!(
        !bob.text(&challenge).contains("min"),
        "{}",
        bob.text(&challenge)
    );
    tap(&bob, &format!("{challenge} button.accept"));
    wait_text(&bob, "#player-bottom .who", "Nord · ");
    // Cleo, in the lobby, sees the game going on, with no move yet.
    open(&cleo, &format!("{url}/#lobby"));
    let live = format!("#lobby-live .lobby-item[data-id='{id}']");
    wait_text(&cleo, &live, "no move yet");
    let words = cleo.text(&live);
    assert!(words.contains("30 s + 0 s"), "{words}");
    assert!(
        !words.contains("0 plies") && !words.contains("0 moves"),
        "{words}"
    );

    // Awa has not moved: she calls the game off. Once said, nothing to
    // review.
    tap(&awa, "#btn-abort");
    wait_text(&awa, "#result", "Game called off");
    wait_text(&bob, "#result", "Partie annulée");
    for b in [&awa, &bob] {
        assert_eq!(
            b.eval("return [...document.querySelectorAll('#status .actions button')].filter(x => x.offsetParent !== null).length"),
            json!(1),
            "only New game after a called-off game"
        );
        assert_eq!(
            b.eval("return document.querySelector('#btn-review').disabled"),
            json!(true)
        );
    }
    // My games: called off, said once; opened, not continued; no replay.
    for (b, said, open_word, continue_word) in [
        (&awa, "called off", "Open", "Continue"),
        (&bob, "annulée", "Ouvrir", "Continuer"),
    ] {
        b.goto(&format!("{url}/#games"));
        let found = b.wait_for(
            "the called-off game in My games",
            &format!(
                "const c = document.querySelector(\".game-card[data-id='{id}']\"); \
                 return c ? [c.querySelector('.result-line').textContent, c.querySelector('button.open').textContent, \
                             c.querySelector('button.watch').hidden] : null"
            ),
            20,
        );
        assert_eq!(found[0], json!(said), "{found}");
        assert_eq!(found[1], json!(open_word), "{found} (not {continue_word})");
        assert_eq!(found[2], json!(true), "nothing to replay: {found}");
    }

    // No database on this server: the puzzle page says how to build one,
    // and shows no button that would do nothing.
    cleo.goto(&format!("{url}/#puzzles"));
    wait_text(&cleo, "#puzzle-missing", "awale db build");
    for css in ["#puzzle-daily", "#puzzle-next"] {
        assert!(!shown(&cleo, css), "{css} shown without a database");
    }
}

/// A game over days: made in the new game dialog (3 days per move), its
/// clocks in days and hours; the player to move finds it first in "My
/// games", counted in the tab's title, and is told by a notification
/// when the other's move arrives while the page is open elsewhere.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn a_game_over_days_is_listed_first_for_whoever_is_to_move_and_its_move_told() {
    let site = Site::start("online-days");
    let url = site.url.clone();
    let awa = Browser::start("days-awa", "fr-FR,fr", 1100, 900);
    let bob = Browser::start("days-bob", "en-US,en", 390, 844);
    open(&awa, &url);
    awa.wait_open("#dlg-new", 15);
    tap(&awa, "#dlg-new input[name=mode][value=online] + span");
    assert!(
        shown(&awa, "#dlg-new .days-choice"),
        "days for online games"
    );
    tap(&awa, "#dlg-new input[name=clock] + span");
    awa.eval(
        "const s = document.querySelector('#dlg-new select[name=days]');
         s.value = '3'; s.dispatchEvent(new Event('change'));",
    );
    assert_eq!(
        awa.eval("return document.querySelector('#dlg-new input[name=minutes]').disabled"),
        json!(true),
        "days per move, not minutes"
    );
    tap(&awa, "#btn-start");
    awa.wait_for(
        "the game over days",
        "return location.hash.startsWith('#game=')",
        20,
    );
    let id = game_id(&awa);
    wait_text(&awa, "#game-info", "3 jours par coup");
    assert_eq!(awa.text("#player-bottom .clock"), "3 j 0 h");
    let (_, view) = site.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(view["clock"]["per_move"], true, "{view}");

    open(&bob, &format!("{url}/#rules"));
    bob.goto(&invite_link(&awa, &id));
    wait_text(&bob, "#game-info", "3 days per move");
    assert_eq!(bob.text("#player-top .clock"), "3d 0h");
    // Bob waits in his games; his page may notify (permission given).
    bob.goto(&format!("{url}/#games"));
    bob.eval(
        "window.told = [];
         window.Notification = class {
           static permission = 'granted';
           constructor(title, options) { window.told.push([title, options.body]); }
           close() {}
         };",
    );
    // Awa, to move, has it first in her games and in her tab's title.
    awa.goto(&format!("{url}/#games"));
    wait_text(&awa, "#turns", "À vous de jouer");
    awa.wait_for(
        "the count in the title",
        "return document.title === '(1) Awalé'",
        10,
    );
    assert!(!shown(&bob, "#turns"), "not Bob's move");
    awa.goto(&format!("{url}/#game={id}"));
    play(&awa, "C");
    wait_moves(&awa, 1);
    // Bob's page hears of it when it looks again (every 20 s, or coming
    // back into view).
    bob.eval("document.dispatchEvent(new Event('visibilitychange'))");
    wait_text(&bob, "#turns", "Your move");
    bob.wait_for(
        "the notification",
        "return window.told.length === 1 && window.told[0][0] === 'Awalé: your move'",
        10,
    );
    assert_eq!(bob.eval("return document.title"), json!("(1) Awalé"));
    // No clock runs before each side's first move: no time to move by.
    assert!(!shown(&bob, "#turns .deadline"));
    tap(&bob, "#turns-list .open");
    wait_for_game(&bob, &id);
    play_first(&bob);
    wait_moves(&bob, 2);
    awa.eval("document.dispatchEvent(new Event('visibilitychange'))");
    awa.wait_for(
        "Awa's count again",
        "return document.title === '(1) Awalé'",
        10,
    );
    // Both have moved: Awa's three days run, and she is told by when.
    awa.goto(&format!("{url}/#games"));
    wait_text(&awa, "#turns .deadline", "À jouer avant le");
    // Its card in My games says what kind of game it is (issue 42).
    wait_text(
        &awa,
        &format!(".game-card[data-id='{id}']"),
        "Partie sur plusieurs jours",
    );
}

/// The lobby's featured game: the game being played, its players and its
/// board, drawn small and moved live as its moves are played.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn the_lobby_features_a_game_being_played_and_its_board_moves_live() {
    let site = Site::start("online-featured");
    let url = site.url.clone();
    let awa = Browser::start("featured-awa", "fr-FR,fr", 1100, 900);
    let bob = Browser::start("featured-bob", "en-US,en", 390, 844);
    open(&awa, &format!("{url}/#rules"));
    open(&bob, &format!("{url}/#rules"));
    let id = new_game(
        &awa,
        json!({"mode": "online", "human": "S", "name": "Awa", "public": true}),
    );
    fetch(
        &bob,
        "POST",
        &format!("/api/games/{id}/join"),
        json!({"name": "Bob"}),
    );
    // A watcher in the lobby (on a phone, in English) sees it featured.
    bob.goto(&format!("{url}/#lobby"));
    wait_text(&bob, "#featured", "Game to watch");
    wait_text(&bob, "#featured-names", "Awa");
    let row = "[...document.querySelectorAll('#featured-board .south .mini-hole')].map(h => h.textContent).join(' ')";
    assert_eq!(bob.eval(&format!("return {row}")), json!("4 4 4 4 4 4"));
    fetch(
        &awa,
        "POST",
        &format!("/api/games/{id}/moves"),
        json!({"move": "C", "ply": 0}),
    );
    bob.wait_for(
        "the featured board after C",
        &format!("return {row} === '4 4 0 5 5 5'"),
        10,
    );
    assert!(
        bob.eval("return document.querySelector('#featured-board').getAttribute('aria-label')")
            .as_str()
            .is_some_and(|l| l.starts_with("North, a to f: 5 4 4 4 4 4.")),
        "the board in words"
    );
    tap(&bob, "#featured-watch");
    wait_for_game(&bob, &id);
}

/// Issue 24, as a new user would try it: three `awale serve` processes on
/// one PostgreSQL, a browser on each (South on the first, North on the
/// second, a spectator on the third) play one online game, each move seen
/// on the three pages; the first process is killed (SIGKILL) mid-game and
/// South goes on from the third (a load balancer would send her there),
/// her seat and every move kept.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn three_browsers_on_three_processes_play_one_game_through_the_loss_of_one() {
    let _turn = webdriver::serial();
    let database = pg::cluster().database();
    let serve = |name: &str| {
        let data = temp_dir(&format!("three-{name}"));
        let (process, served) = webdriver::spawn_serve(
            &data,
            "127.0.0.1:0",
            &["--store", &database],
            std::process::Stdio::inherit(),
        );
        (process, format!("http://{}", served.expect("an address")))
    };
    let (mut first, at_first) = serve("a");
    let (_second, at_second) = serve("b");
    let (_third, at_third) = serve("c");

    let ama = Browser::start("three-ama", "en-US,en", 1100, 900);
    open(&ama, &format!("{at_first}/#rules"));
    let id = new_game(&ama, json!({"mode": "online", "human": "S", "name": "Ama"}));
    ama.goto(&format!("{at_first}/#game={id}"));
    let kofi = Browser::start("three-kofi", "en-US,en", 1100, 900);
    open(&kofi, &format!("{at_second}/#rules"));
    fetch(&kofi, "POST", "/api/me", json!({"name": "Kofi"}));
    // The invitation made on the first process, opened on the second.
    let invite = invite_link(&ama, &id).replacen(&at_first, &at_second, 1);
    kofi.goto(&invite);
    wait_text(&kofi, "#player-bottom .who", "North · Kofi · you");
    let watcher = Browser::start("three-watch", "en-US,en", 1100, 900);
    open(&watcher, &format!("{at_third}/#game={id}"));
    wait_text(&watcher, "#presence", "You are watching");

    let pages = [&ama, &kofi, &watcher];
    for ply in 0..6 {
        play_first(if ply % 2 == 0 { &ama } else { &kofi });
        for page in pages {
            wait_moves(page, ply + 1);
        }
    }
    let before = moves_of(&watcher);

    // The first process dies; South's page is opened on the third.
    let _ = first.0.kill();
    let _ = first.0.wait();
    ama.goto(&format!("{at_third}/#game={id}"));
    wait_moves(&ama, 6);
    assert_eq!(moves_of(&ama), before, "every move kept");
    wait_text(&ama, "#player-bottom .who", "South · Ama · you");
    for ply in 6..10 {
        play_first(if ply % 2 == 0 { &ama } else { &kofi });
        for page in pages {
            wait_moves(page, ply + 1);
        }
    }
    assert_eq!(moves_of(&kofi), moves_of(&watcher));
}

/// The moves in `b`'s list, as written there.
fn moves_of(b: &Browser) -> Vec<String> {
    b.strings("return [...document.querySelectorAll('#move-list .mv')].map(e => e.textContent)")
}

/// Counts the page's event streams: every `EventSource` it makes is kept
/// in `window.awaleStreams` (run before the page's own scripts).
const COUNT_STREAMS: &str = "(() => {
  const Made = window.EventSource;
  const all = [];
  window.awaleStreams = all;
  window.EventSource = class extends Made {
    constructor(...args) { super(...args); all.push(this); }
  };
})();";

/// The paths of the event streams open on `b`'s page (see
/// [`COUNT_STREAMS`]), sorted.
fn open_streams(b: &Browser) -> Vec<String> {
    let mut open = b.strings(
        "return (window.awaleStreams || []).filter(s => s.readyState !== EventSource.CLOSED)
           .map(s => new URL(s.url).pathname)",
    );
    open.sort();
    open
}

/// Joins game `id` as the player of cookie value `player` named `name`.
fn join_as(site: &Site, id: &str, player: &str, name: &str) {
    use std::io::Read;
    let addr = site.url.trim_start_matches("http://");
    let mut stream = webdriver::send(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&format!("awale_player={player}")),
        Some(&json!({ "name": name })),
        std::time::Duration::from_secs(30),
    )
    .expect("the join request");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.1 201"),
        "join {id}: {answer}"
    );
}

/// Finding 6 of a trial: in Chromium, going from game page to game page
/// (`/?game=ID`, each a new page), the fifth stayed blank for 30 s and
/// more. Each page left was kept in the back-forward cache with its event
/// streams (the game's, the player's) open, and a browser opens six
/// connections to a server: once they were held, the next page's
/// requests waited until the browser dropped an old page. Counted on the
/// server (who watches each game) rather than timed: a page left closes
/// its streams, and opens them again when Back brings it back; in one
/// page, a view left (the lobby, a tournament watched) closes its own.
#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn pages_and_views_left_close_their_event_streams() {
    let site = Site::start("online-streams");
    let games: Vec<String> = (0..4)
        .map(|i| {
            let (status, made) = site.call(
                "POST",
                "/api/games",
                Some(json!({"mode": "online", "human": "S", "name": format!("Awa{i}"), "public": true})),
            );
            assert!(status < 300, "{status} {made}");
            let id = made["id"].as_str().expect("a game").to_string();
            join_as(&site, &id, &webdriver::test_guest(i as u64 + 1), &format!("Bob{i}"));
            id
        })
        .collect();
    let watchers = || -> Vec<u64> {
        games
            .iter()
            .map(|id| {
                let (_, p) = site.call("GET", &format!("/api/games/{id}/presence"), None);
                p["spectators"].as_u64().unwrap_or(u64::MAX)
            })
            .collect()
    };
    // `only` watched (by this browser), every other game by nobody.
    let wait_watched = |only: usize| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let now = watchers();
            if now
                .iter()
                .enumerate()
                .all(|(i, &n)| n == u64::from(i == only))
            {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "game {only} shown: its watchers and the others' {now:?} after 30 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
    };
    let b = Browser::start("streams-viewer", "en-US,en", 1100, 900);
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": COUNT_STREAMS }),
    );
    let names = "return document.querySelector('#player-top').textContent + ' ' + document.querySelector('#player-bottom').textContent";
    let show = |i: usize| {
        b.wait_for(
            &format!("the names of game {i}"),
            &format!("const t = (() => {{ {names} }})(); return t.includes('Awa{i}') && t.includes('Bob{i}')"),
            30,
        );
    };
    // Twice round the four games, each a new page, as the tester did.
    for round in 0..2 {
        for (i, id) in games.iter().enumerate() {
            b.goto(&site.page(&format!("?game={id}")));
            show(i);
            wait_watched(i);
            assert!(
                open_streams(&b).len() <= 2,
                "round {round}, game {i}: {:?}",
                open_streams(&b)
            );
        }
    }
    // Back: the page left comes back from the cache, live again.
    b.eval("history.back()");
    show(2);
    wait_watched(2);
    // Views in one page: the lobby's stream while in the lobby, a
    // tournament's while on its page, neither once back at the game.
    // An arena made by this browser's new account, which does not play.
    webdriver::sign_up(&b, "Kwame");
    let arena = fetch(
        &b,
        "POST",
        "/api/tournaments",
        json!({"name": "Evening arena", "minutes_each": 3, "increment_s": 2, "minutes": 30}),
    );
    let arena = arena["id"].as_i64().expect("an arena");
    let game = "/api/games/".to_string() + &games[2] + "/events";
    b.goto(&site.page("#lobby"));
    b.wait_for(
        "the lobby's stream",
        "return (window.awaleStreams || []).some(s => s.url.endsWith('/api/lobby/events') && s.readyState !== EventSource.CLOSED)",
        30,
    );
    b.eval(&format!("location.hash = 'tournament={arena}'"));
    b.wait_shown("#view-tournament", 30);
    b.wait_for(
        "the tournament's stream",
        &format!("return (window.awaleStreams || []).some(s => s.url.endsWith('/api/tournaments/{arena}/events') && s.readyState !== EventSource.CLOSED)"),
        30,
    );
    assert!(
        !open_streams(&b).contains(&"/api/lobby/events".to_string()),
        "{:?}",
        open_streams(&b)
    );
    b.eval(&format!("location.hash = 'game={}'", games[2]));
    show(2);
    b.wait_for(
        "only the game's and the player's streams",
        &format!("const open = (window.awaleStreams || []).filter(s => s.readyState !== EventSource.CLOSED).map(s => new URL(s.url).pathname).sort(); return JSON.stringify(open) === JSON.stringify([{game:?}, '/api/me/events'].sort())"),
        30,
    );
    wait_watched(2);
}
