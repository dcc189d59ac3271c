//! Embeds the page (`page/`) in the binary: every file gzip-compressed once,
//! here, with its ETag, and the versioned paths that let browsers keep the
//! files for good. `src/assets.rs` serves the table written to
//! `$OUT_DIR/assets.rs`.
//!
//! Files are served under `/v/{VERSION}/` (VERSION: a hash of them all),
//! except `index.html` (at `/`), `sw.js` (at `/sw.js`) and `favicon.svg`.
//! In those two templates `{{V}}` becomes the versioned prefix, `{{VERSION}}`
//! the version, `{{PRELOAD}}` a `modulepreload` link per module and
//! `{{FILES}}` the JSON list of paths the service worker keeps.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Files served at a fixed path, not under the versioned prefix.
const TEMPLATES: [&str; 2] = ["index.html", "sw.js"];

fn main() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("page");
    println!("cargo:rerun-if-changed={}", page.display());
    let mut files = Vec::new();
    collect(&page, &page, &mut files);
    files.sort();
    for (name, _) in &files {
        println!("cargo:rerun-if-changed={}", page.join(name).display());
    }

    let mut version_hash = Fnv::default();
    for (name, bytes) in files
        .iter()
        .filter(|(n, _)| !TEMPLATES.contains(&n.as_str()))
    {
        version_hash.write(name.as_bytes());
        version_hash.write(bytes);
    }
    let version = format!("{:012x}", version_hash.0 >> 16);
    let prefix = format!("/v/{version}");

    let mut served: Vec<(String, String, Vec<u8>)> = Vec::new(); // (path, file, bytes)
    for (name, bytes) in &files {
        if TEMPLATES.contains(&name.as_str()) {
            continue;
        }
        let path = if name == "favicon.svg" {
            "/favicon.svg".to_string()
        } else {
            format!("{prefix}/{name}")
        };
        served.push((path, name.clone(), bytes.clone()));
    }
    // Every script under js/ is a module; the catalogs of words there are
    // fetched by i18n.js, so preloaded as what a same-origin fetch asks.
    let preload: String = served
        .iter()
        .filter(|(_, name, _)| name.starts_with("js/"))
        .map(|(path, name, _)| {
            if name.ends_with(".json") {
                format!("<link rel=\"preload\" as=\"fetch\" crossorigin href=\"{path}\">\n")
            } else {
                format!("<link rel=\"modulepreload\" href=\"{path}\">\n")
            }
        })
        .collect();
    let mut kept: Vec<String> = vec!["/".to_string()];
    kept.extend(served.iter().map(|(path, _, _)| path.clone()));
    let kept_json = format!(
        "[{}]",
        kept.iter()
            .map(|p| format!("\"{p}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for template in TEMPLATES {
        let Some((_, bytes)) = files.iter().find(|(n, _)| n == template) else {
            panic!("page/{template} is missing");
        };
        let text = String::from_utf8(bytes.clone())
            .unwrap_or_else(|e| panic!("page/{template} is not UTF-8: {e}"))
            .replace("{{PRELOAD}}", preload.trim_end())
            .replace("{{FILES}}", &kept_json)
            .replace("{{VERSION}}", &version)
            .replace("{{V}}", &prefix);
        let path = if template == "index.html" {
            "/".to_string()
        } else {
            format!("/{template}")
        };
        served.push((path, template.to_string(), text.into_bytes()));
    }

    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let mut table = String::new();
    writeln!(
        table,
        "/// The version of the page's files (a hash of them all)."
    )
    .unwrap();
    writeln!(table, "#[cfg(test)]").unwrap();
    writeln!(table, "#[cfg(test)]").unwrap();
    writeln!(table, "pub const VERSION: &str = \"{version}\";").unwrap();
    writeln!(table, "/// Every file of the page.").unwrap();
    writeln!(table, "pub static FILES: &[Asset] = &[").unwrap();
    for (i, (path, name, bytes)) in served.iter().enumerate() {
        let raw = out.join(format!("asset-{i}"));
        let gz = out.join(format!("asset-{i}.gz"));
        std::fs::write(&raw, bytes).expect("cannot write into OUT_DIR");
        std::fs::write(&gz, gzip(bytes)).expect("cannot write into OUT_DIR");
        let mut h = Fnv::default();
        h.write(bytes);
        writeln!(
            table,
            "    Asset {{ path: {path:?}, file: {name:?}, content_type: {:?}, etag: \"\\\"{:016x}\\\"\", raw: include_bytes!({:?}), gzip: include_bytes!({:?}) }},",
            content_type(name),
            h.0,
            raw.display().to_string(),
            gz.display().to_string(),
        )
        .unwrap();
    }
    writeln!(table, "];").unwrap();
    std::fs::write(out.join("assets.rs"), table).expect("cannot write into OUT_DIR");
}

/// Every file under `dir`, as (path relative to `root` with `/`, bytes).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("cannot list page/").path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let name = path
                .strip_prefix(root)
                .expect("under page/")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if name.starts_with('.') || name.ends_with('~') {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files.push((name, bytes));
        }
    }
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => panic!("page/{name}: unknown file type (add it to build.rs)"),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}

/// FNV-1a, 64 bits: stable from build to build, enough for ETags.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
