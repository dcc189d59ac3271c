//! A Swiss evening in the browser, end to end: the real `awale serve` and
//! headless Chromium, three accounts (the organiser on a desktop in French,
//! two on phones in English). The organiser makes a Swiss with rounds
//! started by hand from the lobby's form and joins it; the others join from
//! the tournament's page; the organiser starts the round (its button); the
//! two paired are sent to their game, one resigns, both come back to the
//! tournament's page, where the round's result, the standings with their
//! tie-breaks and the crosstable show; the standings' CSV downloads from
//! its link, and the games as one record file; the button now offers
//! round 2. The organiser ends it: the podium in points, as the standings.
//!
//! Built with `AWALE_SKIP_BROWSER` set, these tests are compiled as ignored,
//! as those of `browser.rs`.

mod webdriver;

use serde_json::json;
use webdriver::{
    ama_and_kofi, doc_screenshot, hash, join_tournament, member, open_tournament_form, page_fetch,
    page_post_ok, send_tournament_form, tap, wait_standings, PHONE,
};

#[test]
#[cfg_attr(skip_browser, ignore = "AWALE_SKIP_BROWSER is set")]
fn an_organiser_runs_a_swiss_round_and_the_standings_crosstable_and_csv_show() {
    let (site, ama, kofi) = ama_and_kofi("swiss");
    let url = site.url.clone();
    let esi = member("swiss-esi", "en-US,en", PHONE, &url, "Esi");

    // Ama makes a Swiss of 3 rounds, started by hand, from the lobby.
    open_tournament_form(&ama, &url);
    ama.exec(
        "const kind = document.querySelector('#arena-kind');
         kind.value = 'swiss';
         kind.dispatchEvent(new Event('change'));
         document.querySelector('#arena-clock').value = '1+0';
         document.querySelector('#swiss-rounds').value = '3';",
        json!([]),
    );
    assert_eq!(
        ama.eval("return document.querySelector('#arena-length').closest('label').hidden"),
        json!(true)
    );
    assert_eq!(
        ama.eval("return document.querySelector('#swiss-manual').checked"),
        json!(true)
    );
    tap(&ama, "#arena-name");
    ama.keys("Soirée du club");
    let page = send_tournament_form(&ama, "Soirée du club");
    assert!(
        ama.text("#arena-info").contains("3 rondes"),
        "{}",
        ama.text("#arena-info")
    );
    join_tournament(&ama, "Rejoindre");
    wait_standings(&ama, "#swiss-standings", 1);
    assert_eq!(ama.text("#swiss-start-round"), "Lancer le tournoi");

    // Kofi and Esi join from the tournament's page.
    for b in [&kofi, &esi] {
        b.goto(&format!("{url}/{page}"));
        join_tournament(b, "Join");
        assert_eq!(
            b.eval("return document.querySelector('#swiss-start-round').hidden"),
            json!(true),
            "only the organiser starts the rounds"
        );
        b.wait_for(
            "joined",
            "return document.querySelector('#arena-join').hidden",
            10,
        );
    }
    wait_standings(&ama, "#swiss-standings", 3);

    // Ama starts round 1: one game and a bye; the two paired are sent to it.
    tap(&ama, "#swiss-start-round");
    ama.wait_for(
        "round 1 paired",
        "return location.hash.startsWith('#game=') || document.querySelectorAll('#swiss-games li').length === 1",
        10,
    );
    let id = &page["#tournament=".len()..];
    let view = page_fetch(&ama, "GET", &format!("/api/tournaments/{id}"), json!(null));
    let round = &view["body"]["swiss"];
    assert_eq!(round["round"], 1, "{view}");
    let names = [
        round["games"][0]["first_name"]
            .as_str()
            .unwrap()
            .to_string(),
        round["games"][0]["second_name"]
            .as_str()
            .unwrap()
            .to_string(),
    ];
    let of = |name: &str| match name {
        "Ama_K" => &ama,
        "kofi_7" => &kofi,
        _ => &esi,
    };
    let (winner, loser) = (of(&names[0]), of(&names[1]));
    for b in [winner, loser] {
        b.wait_for(
            "sent to the round's game",
            "return location.hash.startsWith('#game=')",
            15,
        );
    }
    let game = hash(loser)[6..].to_string();
    page_post_ok(loser, &format!("/api/games/{game}/resign"));
    for b in [winner, loser] {
        b.wait_for(
            "back to the tournament's page",
            &format!("return location.hash === '{page}'"),
            15,
        );
    }
    // The result, the standings with tie-breaks and the crosstable, live.
    ama.wait_for(
        "the round's result",
        "return document.querySelector('#swiss-games').textContent.includes('1 – 0')",
        10,
    );
    let first = names[0].clone();
    let top = ama.strings(
        "return [...document.querySelectorAll('#swiss-standings tr')].map((tr) => tr.textContent)",
    );
    assert_eq!(top.len(), 3);
    assert!(top[2].contains(&names[1]), "the loser last: {top:?}");
    assert!(
        top.iter().any(|l| l.contains(&first)),
        "the winner listed: {top:?}"
    );
    let cross = ama.strings(
        "return [...document.querySelectorAll('#swiss-crosstable tbody tr')].map((tr) => tr.textContent)",
    );
    assert_eq!(cross.len(), 3);
    assert!(
        cross.iter().any(|row| row.contains("exempt")),
        "the bye in the crosstable: {cross:?}"
    );
    assert!(
        cross
            .iter()
            .any(|row| row.contains("+") && row.contains(&first)),
        "the win in the crosstable: {cross:?}"
    );
    doc_screenshot(&ama, "screenshot-swiss-fr.png");
    assert_eq!(ama.text("#swiss-start-round"), "Lancer la ronde 2");
    assert_eq!(
        ama.text("#arena-status"),
        "La ronde 2 attend l'organisateur."
    );

    // The standings' CSV from its link.
    let csv = ama.exec_async(
        "const done = arguments[arguments.length - 1];
         fetch(document.querySelector('#swiss-csv').href).then((r) => r.text()).then(done, (e) => done(String(e)));",
    );
    let csv = csv.as_str().unwrap().to_string();
    assert!(
        csv.starts_with("rank,name,rating,points,buchholz,sonneborn_berger\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.lines().nth(3).unwrap().contains(&names[1]), "{csv}");
    assert_eq!(
        ama.eval("return document.querySelector('#swiss-csv').hasAttribute('download')"),
        json!(true)
    );
    // And the games as one record file, from its link.
    let file = ama.exec_async(
        "const done = arguments[arguments.length - 1];
         fetch(document.querySelector('#swiss-games-file').href).then((r) => r.text()).then(done, (e) => done(String(e)));",
    );
    let file = file.as_str().unwrap();
    assert!(
        file.contains("[Event \"Soirée du club\"]") && file.contains("[Round \"1.1\"]"),
        "{file}"
    );

    // A phone's width holds the page (the crosstable scrolls in its box).
    let wide = kofi.strings(
        "const w = window.innerWidth;
         const bad = [...document.querySelectorAll('#view-tournament *')]
           .filter((e) => e.offsetParent !== null && !e.closest('.swiss-scroll') && e.getBoundingClientRect().right > w + 0.5)
           .map((e) => `${e.tagName} ${e.id || e.className}`);
         if (document.documentElement.scrollWidth > w) bad.push('page');
         return bad;",
    );
    assert!(wide.is_empty(), "too wide on a phone: {wide:?}");
    // No header cut short on a phone (issue 42: the crosstable's last
    // read "Poin").
    let clipped = kofi.strings(
        "return [...document.querySelectorAll('#view-tournament th')]
           .filter((th) => th.offsetParent !== null && th.scrollWidth > th.clientWidth + 0.5)
           .map((th) => th.textContent);",
    );
    assert!(clipped.is_empty(), "headers cut on a phone: {clipped:?}");
    assert_eq!(kofi.text("#swiss-round-title"), "Round 1 of 3");
    doc_screenshot(&kofi, "screenshot-swiss-phone-en.png");
    // The crosstable in both languages (issue 42).
    for b in [&kofi, &ama] {
        let found = b.axe_violations();
        assert!(found.is_empty(), "the Swiss's page: {found:?}");
    }

    // Ama ends it after one round: the podium counts as the standings do
    // (a win 1 point, not the JSON's 2 half points).
    tap(&ama, "#arena-close");
    for (b, words) in [
        (&ama, ["1 point", "1 point", "0 point"]),
        (&kofi, ["1 point", "1 point", "0 points"]),
    ] {
        b.wait_for(
            "the podium",
            "return document.querySelectorAll('#arena-podium li').length === 3",
            10,
        );
        let podium = b.strings(
            "return [...document.querySelectorAll('#arena-podium li')].map((li) => li.textContent)",
        );
        for (line, w) in podium.iter().zip(words) {
            assert!(line.ends_with(&format!(" · {w}")), "{podium:?}");
        }
        assert!(podium[2].contains(&names[1]), "the loser third: {podium:?}");
    }
    // Half points in words, each language's plural (French: below 2 is
    // singular) and a lone ½ a "point" in both.
    for (b, want) in [
        (
            &ama,
            [
                "0 point",
                "½ point",
                "1 point",
                "1½ point",
                "2 points",
                "2½ points",
            ],
        ),
        (
            &kofi,
            [
                "0 points",
                "½ point",
                "1 point",
                "1½ points",
                "2 points",
                "2½ points",
            ],
        ),
    ] {
        let words = b.exec_async(
            "const done = arguments[arguments.length - 1];
             const main = document.querySelector('script[type=module]').src;
             import(new URL('tournaments.js', main))
               .then((m) => done([0, 1, 2, 3, 4, 5].map((h) => m.pointsWords(h))), (e) => done(String(e)));",
        );
        assert_eq!(words, json!(want));
    }
}
