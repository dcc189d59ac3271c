//! A link as a QR code, drawn here as SVG (its modules by the `fast_qr`
//! crate) for the page to show beside the link: the invite, the "continue
//! on another device" link. Level M (15 % of the code may be spoilt), with
//! the quiet zone of four modules the standard asks for.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use std::fmt::Write;

use fast_qr::{QRBuilder, ECL};

/// The codes [`drawn`] drew lately, by their text, at most this many: a
/// game's links are asked by each of its players and at each reload of
/// their pages.
const KEPT: usize = 1024;

/// The codes drawn at once (each on a blocking thread).
const AT_ONCE: usize = 2;

/// `text` as an [`svg`], drawn on a blocking thread and kept: a code costs
/// a fifth of a millisecond of CPU for a game's link, more for a long one
/// (eight masks drawn and scored), and the start of many games asks a
/// thousand at once, which would hold the threads serving requests. (The
/// links themselves are answered apart, without waiting for their codes.)
/// At most [`AT_ONCE`] drawn at a time: a blocking thread per request
/// would make hundreds of threads, each with its allocator's fresh pages
/// to clear (perf showed that cost more than the codes). A code kept is
/// answered without a turn. The turn goes with the drawing: a request gone
/// meanwhile does not free it before the drawing is done.
pub async fn drawn(text: String) -> Option<String> {
    static TURNS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(AT_ONCE);
    if let Some(code) = kept(&text) {
        return code;
    }
    let turn = TURNS.acquire().await.ok()?;
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        kept(&text).unwrap_or_else(|| keep(&text, svg(&text)))
    })
    .await
    .ok()
    .flatten()
}

/// The codes drawn lately, by their text.
fn codes() -> &'static Mutex<HashMap<String, Option<String>>> {
    static DRAWN: OnceLock<Mutex<HashMap<String, Option<String>>>> = OnceLock::new();
    DRAWN.get_or_init(Mutex::default)
}

/// The code of `text` if kept (None within: too long for one).
fn kept(text: &str) -> Option<Option<String>> {
    codes()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(text)
        .cloned()
}

/// Keeps `code`, drawn from `text`; the code.
fn keep(text: &str, code: Option<String>) -> Option<String> {
    let mut kept = codes().lock().unwrap_or_else(|p| p.into_inner());
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(text.to_string(), code.clone());
    code
}

/// The quiet zone: modules left light around the code.
const QUIET: usize = 4;

/// `text` as an SVG QR code whose units are modules, or None when it is too
/// long for any version (the page shows the link alone then). The dark
/// modules are one path, a rectangle for each run of them along a row.
pub fn svg(text: &str) -> Option<String> {
    let code = QRBuilder::new(text).ecl(ECL::M).build().ok()?;
    let size = code.size + 2 * QUIET;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" \
         viewBox=\"0 0 {size} {size}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#fff\"/><path fill=\"#000\" d=\""
    );
    for y in 0..code.size {
        let row = &code[y];
        let mut x = 0;
        while x < code.size {
            if !row[x].value() {
                x += 1;
                continue;
            }
            let run = row[x..].iter().take_while(|m| m.value()).count();
            let (left, top) = (x + QUIET, y + QUIET);
            // Writing to a String cannot fail.
            let _ = write!(out, "M{left} {top}h{run}v1H{left}z");
            x += run;
        }
    }
    out.push_str("\"/></svg>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dark modules of `svg`, read back from its path
    /// (`M{x} {y}h{w}v{h}H{x}z`, one rectangle a run), and its size in
    /// modules (quiet zone included).
    fn modules(svg: &str) -> (usize, Vec<(usize, usize)>) {
        let size: usize = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .expect("a width");
        let d = svg
            .split(" d=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .expect("a path");
        let mut dark = Vec::new();
        for rect in d.split('M').filter(|r| !r.is_empty()) {
            let numbers: Vec<usize> = rect
                .split(|c: char| !c.is_ascii_digit())
                .filter(|n| !n.is_empty())
                .map(|n| n.parse().expect("a number"))
                .collect();
            let [x, y, w, h, ..] = numbers[..] else {
                panic!("a rectangle: {rect}");
            };
            for dy in 0..h {
                for dx in 0..w {
                    dark.push((x + dx, y + dy));
                }
            }
        }
        (size, dark)
    }

    fn decode(svg: &str) -> (rqrr::MetaData, String) {
        let (size, dark) = modules(svg);
        let grid = rqrr::SimpleGrid::from_func(size - 8, |x, y| dark.contains(&(x + 4, y + 4)));
        rqrr::Grid::new(grid).decode().expect("a readable code")
    }

    #[test]
    fn another_decoder_reads_the_links_back_at_level_m() {
        let long: String = (0..1500)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for text in [
            "http://127.0.0.1:8080/?join=1",
            "https://awale.example.org/?continue=0123456789abcdef0123456789abcdef",
            "Awalé: à toi de jouer ! 🌱",
            // Encoded as digits, then as the alphanumeric set: other modes.
            "20261207",
            "HTTPS://AWALE.EXAMPLE.ORG/JOIN/12",
            long.as_str(),
        ] {
            let svg = svg(text).expect("a code");
            let (meta, read) = decode(&svg);
            assert_eq!(read, text);
            assert_eq!(meta.ecc_level, 0, "level M");
            let (size, _) = modules(&svg);
            assert_eq!(
                size,
                17 + 4 * meta.version.0 + 8,
                "four modules of quiet zone"
            );
        }
    }

    #[test]
    fn a_text_too_long_for_any_version_has_no_code() {
        // Level M holds 2,331 bytes at most (version 40).
        assert!(svg(&"a".repeat(2331)).is_some());
        assert!(svg(&"a".repeat(2332)).is_none());
        assert!(svg("").is_some());
    }
}
