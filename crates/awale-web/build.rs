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
//!
//! The page's engine, `awale.wasm`, is built here too: `crates/awale-wasm`
//! for `wasm32-unknown-unknown` by a cargo of the same toolchain, into
//! `target/wasm`, and embedded like the page's files. The target is added
//! with rustup when it is missing, so that `cargo run --release` on a fresh
//! clone gives a page with its engine.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files served at a fixed path, not under the versioned prefix.
const TEMPLATES: [&str; 2] = ["index.html", "sw.js"];

fn main() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("page");
    println!("cargo:rerun-if-changed={}", page.display());
    let mut files = Vec::new();
    collect(&page, &page, &mut files);
    for (name, _) in &files {
        println!("cargo:rerun-if-changed={}", page.join(name).display());
    }
    files.push(("awale.wasm".to_string(), engine_wasm()));
    files.sort();

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

/// The page's engine: `crates/awale-wasm` built for WebAssembly.
fn engine_wasm() -> Vec<u8> {
    const TARGET: &str = "wasm32-unknown-unknown";
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    for dir in [
        "crates/awale-core/src",
        "crates/awale-core/Cargo.toml",
        "crates/awale-engine/src",
        "crates/awale-engine/data",
        "crates/awale-engine/Cargo.toml",
        "crates/awale-wasm/src",
        "crates/awale-wasm/Cargo.toml",
        ".cargo/config.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let installed = |sysroot: &Option<PathBuf>| {
        sysroot
            .as_ref()
            .is_some_and(|s| s.join("lib/rustlib").join(TARGET).join("lib").is_dir())
    };
    if !installed(&sysroot) {
        // A fresh machine: rustup adds the target to the toolchain in use.
        let mut rustup = Command::new("rustup");
        rustup.args(["target", "add", TARGET]);
        if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
            rustup.arg("--toolchain").arg(toolchain);
        }
        println!("cargo:warning=adding the {TARGET} target for the page's engine (rustup target add {TARGET})");
        let added = rustup.status().is_ok_and(|s| s.success());
        if !added || !installed(&sysroot) {
            panic!(
                "the page's engine is built for {TARGET}, which this Rust toolchain lacks \
                 and rustup could not add: run `rustup target add {TARGET}` \
                 (or install the Rust standard library for {TARGET}), then build again"
            );
        }
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("wasm");
    let mut build = Command::new(&cargo);
    build
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--package",
            "awale-wasm",
            "--target",
            TARGET,
        ])
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTC", &rustc);
    // What this build's cargo passes to build scripts is not for the
    // engine's build: the flags of this target (the engine's come from
    // .cargo/config.toml), clippy's wrapper, this profile's settings.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key == "RUSTFLAGS"
            || key == "CARGO_ENCODED_RUSTFLAGS"
            || key == "RUSTC_WRAPPER"
            || key == "RUSTC_WORKSPACE_WRAPPER"
            || key == "CARGO_TARGET_DIR"
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_PROFILE_")
        {
            build.env_remove(key.as_ref());
        }
    }
    let out = build
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the page's engine: {e}"));
    if !out.status.success() {
        panic!(
            "the page's engine (crates/awale-wasm, for {TARGET}) does not build:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let wasm = target_dir.join(TARGET).join("release/awale_wasm.wasm");
    std::fs::read(&wasm).unwrap_or_else(|e| panic!("{}: {e}", wasm.display()))
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
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
