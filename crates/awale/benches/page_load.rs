//! The page's loading on Chrome's "Slow 3G" profile (2 s round trips,
//! 50 kB/s each way), in headless Chromium against the real server: how
//! soon the page is usable (the board of the game drawn and the menu
//! answering) on a first visit, on repeat visits (the service worker's
//! copy) and on repeat visits without the service worker (the browser's
//! cache alone). Prints one JSON line; the figures are in
//! docs/BENCHMARKS.md. `cargo bench --profile fast -p awale --bench page_load`
//! (Chromium and chromedriver needed, as for the browser tests).

#[path = "../tests/webdriver/mod.rs"]
mod webdriver;

use serde_json::{json, Value};
use webdriver::{Browser, Site};

fn main() {
    let site = Site::start("slow3g");
    let url = &site.url;
    let id = site.import(json!({"record": "1. F f 2. A a *"}));
    let b = Browser::start("slow3g", "en-US,en", 1280, 900);
    let usable =
        "const m = performance.getEntriesByName('awale-usable')[0]; return m ? m.startTime : null";
    let bytes = "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
                   .reduce((s, e) => s + (e.transferSize || 0), 0)";
    // A new query string each time: a whole new load, not a move within
    // the page. How soon it is usable; then its moves are waited for.
    let visit = |n: usize| {
        b.goto(&format!("{url}/?visit={n}#game={id}"));
        let ms = b.wait_for("the page", usable, 120);
        b.wait_for(
            "the moves",
            "return document.querySelectorAll('#move-list .mv').length === 4",
            120,
        );
        ms
    };
    b.set_network("Slow 3G", 2000, 50_000, 50_000);
    let first = visit(0);
    let first_bytes = b.eval(bytes);
    b.wait_for(
        "the service worker",
        "return !!navigator.serviceWorker.controller",
        120,
    );
    let repeat: Vec<Value> = (1..=5).map(visit).collect();
    let repeat_bytes = b.eval(bytes);
    // For comparison: without the service worker, the browser's cache
    // alone (the page is checked, a 304; the versioned files are kept).
    let mut http_cache = Vec::new();
    for n in 6..=8 {
        b.exec_async(
            "const done = arguments[arguments.length - 1];
             navigator.serviceWorker.getRegistrations()
               .then((rs) => Promise.all(rs.map((r) => r.unregister()))).then(() => done(true));",
        );
        http_cache.push(visit(n));
    }
    println!(
        "{}",
        json!({"profile": "Slow 3G (2000 ms, 50 kB/s)", "first_visit_ms": first, "first_visit_bytes": first_bytes,
               "repeat_visit_ms": repeat, "repeat_visit_bytes": repeat_bytes,
               "repeat_visit_without_service_worker_ms": http_cache})
    );
}
