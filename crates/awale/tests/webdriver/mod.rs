//! Just enough of the W3C WebDriver protocol to drive headless Chromium
//! through chromedriver, over plain HTTP/1.1 on the loopback (no TLS, no
//! extra crates): sessions, navigation, clicks, keys, scripts, screenshots.
//! Also starts and stops the processes the browser tests need. Shared by
//! several test binaries, each using part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The player the tests' own HTTP requests play as (a game needs one), and
/// the browsers of the one-player tests too (see [`Browser::be_test_player`]),
/// so a game a test makes through the API is the browser's.
/// (A guest the server issued: the servers the tests start keep
/// [`TEST_GUEST_KEY`], under which this is the nonce `0123...cdef` and its
/// tag; a made-up secret is no player.)
pub const TEST_PLAYER: &str = "0123456789abcdef0123456789abcdef714bbf6bed78ef870c54470bb7e1b3c4";

/// The guest key of the servers the tests start (`--guest-key`), in hex.
pub const TEST_GUEST_KEY: &str = "0707070707070707070707070707070707070707070707070707070707070707";

/// The secret of the test servers' guest numbered `n` (a cookie's value).
pub fn test_guest(n: u64) -> String {
    awale_model::secret::GuestKey::from_bytes([7; 32]).sign(&format!("{n:032x}"))
}

/// Writes [`TEST_GUEST_KEY`] into `data`'s folder (once) and names it to
/// the server: `--guest-key FILE`.
fn guest_key_file(data: &Path) -> PathBuf {
    let dir = if data.extension().is_some() {
        data.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        data.to_path_buf()
    };
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("test-guest.key");
    if !file.exists() {
        std::fs::write(&file, TEST_GUEST_KEY).expect("cannot write the guest key");
    }
    file
}

/// Connects to `addr` and sends one HTTP/1.1 request with the JSON `body`
/// and, given one, the `Cookie` header `cookie`; the connection, its reads
/// timing out after `timeout`, to read the answer from.
pub fn send(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<TcpStream, String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{cookie}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("write {addr}: {e}"))?;
    Ok(stream)
}

/// One HTTP/1.1 request, as [`TEST_PLAYER`]; returns the status and the body.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Vec<u8>), String> {
    let player = format!("awale_player={TEST_PLAYER}");
    let mut stream = send(
        addr,
        method,
        path,
        Some(&player),
        body,
        Duration::from_secs(90),
    )?;
    // Read the header, then exactly the body: servers may keep the
    // connection open whatever we asked.
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = stream
            .read(&mut buf)
            .map_err(|e| format!("read {addr}{path}: {e}"))?;
        if n == 0 {
            return Err(format!("no HTTP header from {addr}{path}"));
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let mut body = raw[split + 4..].to_vec();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {head}"))?;
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let complete = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if complete {
            break;
        }
        let n = stream
            .read(&mut buf)
            .map_err(|e| format!("read {addr}{path}: {e}"))?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    if chunked {
        body = dechunk(&body)?;
    }
    Ok((status, body))
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("bad chunk")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]).to_string();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| format!("bad chunk size {size_text}: {e}"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(data.get(..size).ok_or("short chunk")?);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
}

/// A free port on the loopback.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free port")
}

/// A child process killed when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A fresh, empty directory under the system's temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("awale-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create a temporary directory");
    dir
}

/// An endgame database up to 8 seeds (the puzzles need one), built once a
/// test binary by `awale db build`.
pub fn database() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("db");
        let status = Command::new(env!("CARGO_BIN_EXE_awale"))
            .args(["db", "build", "--max-seeds", "8", "--quiet", "--dir"])
            .arg(&dir)
            .stdout(Stdio::null())
            .status()
            .expect("awale db build runs");
        assert!(status.success());
        dir
    })
}

/// Starts `awale serve --addr ADDR --data DATA MORE...` (no `--data` when
/// `MORE` names a `--store`; `--db none` unless `MORE` names `--db` or
/// `--db-levels`), its error output
/// to `stderr`; returns it, once it has printed its first line, with the
/// address it serves at (`HOST:PORT`), if that line names one. The rest
/// of what it prints is read and dropped, so that its writes never fail.
pub fn spawn_serve(
    data: &Path,
    addr: &str,
    more: &[&str],
    stderr: Stdio,
) -> (Process, Option<String>) {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_awale"));
    serve.args(["serve", "--addr", addr]);
    // A store given by its address (`--store postgres://...`) has no folder.
    if !more.contains(&"--store") {
        serve.arg("--data").arg(data);
    }
    // Without a folder named, a server builds the databases in the user's
    // data folder at its first start: tests ask for none unless they say.
    if !more.contains(&"--db") && !more.contains(&"--db-levels") {
        serve.args(["--db", "none"]);
    }
    serve.arg("--guest-key").arg(guest_key_file(data));
    let mut child = serve
        .args(more)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("cannot start awale serve");
    let mut reader = BufReader::new(child.stdout.take().expect("no stdout"));
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let served = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .map(|a| a.trim_end_matches('/').to_string());
    (Process(child), served)
}

/// Starts `awale serve` on a free port with its store in `data` and the
/// arguments `more`; returns the process and its address (`http://...`).
pub fn start_server_with(data: &Path, more: &[&str]) -> (Process, String) {
    let (process, served) = spawn_serve(data, "127.0.0.1:0", more, Stdio::inherit());
    let addr = served.expect("awale serve printed no address");
    (process, format!("http://{addr}"))
}

/// What a browser test runs against: its turn (one browser test at a time,
/// see `serial`), `awale serve` with a fresh store, and its address.
pub struct Site {
    /// The server's address, `http://127.0.0.1:PORT`.
    pub url: String,
    /// The test's name, given to its store and to its browser.
    name: String,
    data: PathBuf,
    more: Vec<String>,
    server: Process,
    _turn: MutexGuard<'static, ()>,
}

/// A passing test's server stops and its data folder goes; a failing
/// test's folder stays, to be looked at.
impl Drop for Site {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.kill();
            let _ = std::fs::remove_dir_all(&self.data);
        }
    }
}

impl Site {
    /// A server with an empty store named after the test.
    pub fn start(name: &str) -> Site {
        Site::start_with(name, &[])
    }

    /// A server with the endgame database of [`database`].
    pub fn with_database(name: &str) -> Site {
        let db = database().to_str().expect("a UTF-8 path").to_string();
        Site::start_with(name, &["--db", &db])
    }

    /// The same with more arguments for `awale serve`.
    pub fn start_with(name: &str, more: &[&str]) -> Site {
        let turn = serial();
        let data = temp_dir(name);
        let (server, url) = start_server_with(&data, more);
        Site {
            url,
            name: name.to_string(),
            data,
            more: more.iter().map(|m| m.to_string()).collect(),
            server,
            _turn: turn,
        }
    }

    /// Stops the server (killed: the network is gone for the pages);
    /// [`Site::restart`] brings it back on the same port.
    pub fn stop(&mut self) {
        let _ = self.server.0.kill();
        let _ = self.server.0.wait();
    }

    /// Kills the server (no clean stop) and starts it again on the same
    /// store and port, so that pages reconnect by themselves.
    pub fn restart(&mut self) {
        self.kill();
        self.start_again();
    }

    /// Kills the server (no clean stop, as a crash or a power cut) and
    /// leaves it down until [`Site::start_again`].
    pub fn kill(&mut self) {
        let _ = self.server.0.kill();
        let _ = self.server.0.wait();
    }

    /// Starts the server again after [`Site::kill`], on the same store
    /// and port.
    pub fn start_again(&mut self) {
        let addr = self.url.trim_start_matches("http://");
        let more: Vec<&str> = self.more.iter().map(String::as_str).collect();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (server, served) = spawn_serve(&self.data, addr, &more, Stdio::inherit());
            if served.is_some() {
                self.server = server;
                return;
            }
            // The port may still be held for a moment after a kill.
            assert!(Instant::now() < deadline, "awale serve did not start again");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The site and a browser named after its test, preferring
    /// `languages`, its window `size`, on the site's page opened by `open`
    /// (each test binary opens it its own way: speed, sound, language).
    pub fn visited(
        self,
        languages: &str,
        size: (u32, u32),
        open: impl FnOnce(&Browser, &str),
    ) -> (Site, Browser) {
        let b = Browser::start(&self.name, languages, size.0, size.1);
        open(&b, &self.url);
        (self, b)
    }

    /// Runs `awale admin --data DATA ARGS...` on the site's store while
    /// it serves (`grant-moderator NAME`), which must succeed.
    pub fn admin(&self, args: &[&str]) {
        let out = Command::new(env!("CARGO_BIN_EXE_awale"))
            .arg("admin")
            .arg("--data")
            .arg(&self.data)
            .args(args)
            .output()
            .expect("cannot run awale admin");
        assert!(
            out.status.success(),
            "awale admin {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs `sql` on the site's games file while it serves (the
    /// `sqlite3` program), for a state that would take too long to reach
    /// by playing (ratings after dozens of games).
    pub fn sql(&self, sql: &str) {
        let out = Command::new("sqlite3")
            .arg(self.data.join("games.sqlite"))
            .arg(sql)
            .output()
            .expect("cannot run sqlite3");
        assert!(
            out.status.success(),
            "sqlite3 {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The address of the page at `rest` (`#learn`, `?join=3`...).
    pub fn page(&self, rest: &str) -> String {
        format!("{}/{rest}", self.url)
    }

    /// A request to the server's API: the status and the JSON answer.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        call(&self.url, method, path, body)
    }

    /// Imports games through the API (`body`: the record and the import's
    /// options); the id of the first.
    pub fn import(&self, body: Value) -> String {
        let (status, answer) = self.call("POST", "/api/import", Some(body));
        assert_eq!(status, 201, "{answer}");
        answer["ids"][0]
            .as_str()
            .map(String::from)
            .expect("an imported game")
    }
}

/// Whether the browser tests can run here (chromium and chromedriver are
/// installed by scripts/test.sh).
pub fn browser_installed() -> bool {
    Path::new(CHROMIUM).exists() && which("chromedriver").is_some()
}

const CHROMIUM: &str = "/usr/bin/chromium";

/// Below this width, `Browser::start` emulates a phone's screen.
const PHONE_WIDTH: u32 = 500;

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

/// A browser session: chromedriver, headless Chromium, and the session id.
pub struct Browser {
    driver: Process,
    addr: String,
    session: String,
    profile: PathBuf,
    /// Started narrower than [`PHONE_WIDTH`]: its screen is emulated, so
    /// that resizing the window would not change what the page sees.
    phone: bool,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile,
    /// preferring the languages `accept_languages` (e.g. "en-US,en").
    pub fn start(name: &str, accept_languages: &str, width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Process(
            Command::new("chromedriver")
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("cannot start chromedriver"),
        );
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while http(&addr, "GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = temp_dir(&format!("profile-{name}"));
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--hide-scrollbars".to_string(),
            format!(
                "--lang={}",
                accept_languages.split(',').next().unwrap_or("en-US")
            ),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let mut options = json!({
            "binary": CHROMIUM,
            "args": args,
            "prefs": { "intl.accept_languages": accept_languages },
        });
        if width < PHONE_WIDTH {
            // Windows are never narrower than 500 pixels: a phone's screen
            // is emulated (touch, twice the pixels, as phones have).
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0, "touch": true },
            });
        }
        let caps = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": options,
                    // The browser's console kept, for `console_log`.
                    "goog:loggingPrefs": { "browser": "ALL" },
                }
            }
        });
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            profile,
            phone: width < PHONE_WIDTH,
        };
        let value = browser.command("POST", "/session", Some(&caps));
        browser.session = value["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {value}"))
            .to_string();
        browser
    }

    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, out) = http(&self.addr, method, path, body).unwrap_or_else(|e| panic!("{e}"));
        let value: Value = serde_json::from_slice(&out)
            .unwrap_or_else(|e| panic!("webdriver {path}: {e}: {}", String::from_utf8_lossy(&out)));
        assert!(status < 300, "webdriver {method} {path}: {status} {value}");
        value["value"].clone()
    }

    fn session_command(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        self.command(method, &format!("/session/{}{path}", self.session), body)
    }

    /// What the page shows ([`PAGE_STATE`]), and the player cookies the
    /// browser holds for it (whether each is [`TEST_PLAYER`]'s): said when
    /// a wait times out.
    pub fn page_state(&self) -> String {
        let page = self.exec(PAGE_STATE, json!([]));
        let cookies = self.session_command("GET", "/cookie", None);
        let players: Vec<String> = cookies
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| {
                c["name"]
                    .as_str()
                    .is_some_and(|n| n.ends_with("awale_player"))
            })
            .map(|c| {
                let whose = if c["value"] == TEST_PLAYER {
                    "the test player"
                } else {
                    "another player"
                };
                let text = |key: &str| c[key].as_str().unwrap_or("?").to_string();
                format!(
                    "{} on {}{}: {whose}",
                    text("name"),
                    text("domain"),
                    text("path")
                )
            })
            .collect();
        let players = if players.is_empty() {
            "none".to_string()
        } else {
            players.join(", ")
        };
        format!("{page} | player cookies: {players}")
    }

    /// Makes this browser [`TEST_PLAYER`] on the site it shows now, so the
    /// games the test makes through the API are its own.
    pub fn be_test_player(&self) {
        let cookie = json!({"cookie": {
            "name": "awale_player", "value": TEST_PLAYER, "path": "/", "httpOnly": true,
        }});
        self.session_command("POST", "/cookie", Some(&cookie));
    }

    /// The handle of the window (tab) the commands go to.
    pub fn window(&self) -> String {
        let handle = self.session_command("GET", "/window", None);
        handle.as_str().unwrap_or_default().to_string()
    }

    /// Opens a new tab of this browser (its profile: the same cookies and
    /// storage), its handle; the commands still go to the tab they went to.
    pub fn new_tab(&self) -> String {
        let tab = self.session_command("POST", "/window/new", Some(&json!({"type": "tab"})));
        tab["handle"]
            .as_str()
            .unwrap_or_else(|| panic!("no new tab: {tab}"))
            .to_string()
    }

    /// Sends the commands from now on to the tab `handle`.
    pub fn switch_to(&self, handle: &str) {
        self.session_command("POST", "/window", Some(&json!({ "handle": handle })));
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.session_command("POST", "/url", Some(&json!({ "url": url })));
    }

    /// Opens `url` as the test player (see [`Browser::be_test_player`]: the
    /// games a test makes through the API are this browser's) with quick
    /// animations, no sound, and nothing stored of an earlier visit.
    pub fn open_fresh(&self, url: &str) {
        self.goto(url);
        self.be_test_player();
        self.eval(
            "localStorage.clear(); localStorage.setItem('awale.speed', '20'); \
             localStorage.setItem('awale.sound', 'off');",
        );
        self.goto(url);
    }

    /// Runs `script` (a function body) with `args`; returns its value.
    pub fn exec(&self, script: &str, args: Value) -> Value {
        self.session_command(
            "POST",
            "/execute/sync",
            Some(&json!({ "script": script, "args": args })),
        )
    }

    /// Runs `script` (a function body) without arguments; returns its value.
    pub fn eval(&self, script: &str) -> Value {
        self.exec(script, json!([]))
    }

    /// The string `script` returns ("" for anything else).
    pub fn string(&self, script: &str) -> String {
        self.eval(script).as_str().unwrap_or("").to_string()
    }

    /// The strings of the array `script` returns.
    pub fn strings(&self, script: &str) -> Vec<String> {
        let v = self.eval(script);
        let items = v.as_array().map(Vec::as_slice).unwrap_or_default();
        items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    }

    /// Runs `script` (a function body that calls its last argument when
    /// done); returns what it passed.
    pub fn exec_async(&self, script: &str) -> Value {
        self.session_command(
            "POST",
            "/execute/async",
            Some(&json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until `script` returns something truthy; panics with `what`
    /// after `seconds`.
    pub fn wait_for(&self, what: &str, script: &str, seconds: u64) -> Value {
        self.wait_for_with(what, script, json!([]), seconds)
    }

    /// Waits until the element matching `css` is on the page and not
    /// hidden; panics after `seconds`.
    pub fn wait_shown(&self, css: &str, seconds: u64) {
        self.wait_for_with(
            &format!("`{css}` shown"),
            "const e = document.querySelector(arguments[0]); return !!e && !e.hidden",
            json!([css]),
            seconds,
        );
    }

    /// Waits until the dialog matching `css` is open; panics after
    /// `seconds`.
    pub fn wait_open(&self, css: &str, seconds: u64) {
        self.wait_for_with(
            &format!("`{css}` open"),
            "return !!document.querySelector(arguments[0])?.open",
            json!([css]),
            seconds,
        );
    }

    /// `wait_for` of a script with arguments.
    fn wait_for_with(&self, what: &str, script: &str, args: Value, seconds: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            let v = self.exec(script, args.clone());
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            if Instant::now() >= deadline {
                // What the page said last (an error shown, where it is).
                panic!(
                    "timed out waiting for {what} (last: {v}; page: {})",
                    self.page_state()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The element matching `css` (waits for it).
    pub fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let (status, out) = http(
                &self.addr,
                "POST",
                &format!("/session/{}/element", self.session),
                Some(&json!({ "using": "css selector", "value": css })),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            if status < 300 {
                let value: Value = serde_json::from_slice(&out).unwrap_or(Value::Null);
                if let Some(id) = value["value"]
                    .as_object()
                    .and_then(|o| o.values().next())
                    .and_then(Value::as_str)
                {
                    return id.to_string();
                }
            }
            assert!(Instant::now() < deadline, "no element `{css}`");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the element matching `css`, as a person would (the browser
    /// checks that it is visible and on top). The page redraws its board
    /// often: an element replaced between finding and clicking is found
    /// again.
    pub fn click(&self, css: &str) {
        for _ in 0..5 {
            let id = self.find(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            let (status, out) =
                http(&self.addr, "POST", &path, Some(&json!({}))).unwrap_or_else(|e| panic!("{e}"));
            if status < 300 {
                return;
            }
            let text = String::from_utf8_lossy(&out);
            assert!(
                text.contains("stale element"),
                "click on `{css}`: {status} {text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("`{css}` kept being replaced");
    }

    /// Types `text` into the page (keyboard events to the focused element).
    pub fn keys(&self, text: &str) {
        let mut actions = Vec::new();
        for c in text.chars() {
            actions.push(json!({"type": "keyDown", "value": c.to_string()}));
            actions.push(json!({"type": "keyUp", "value": c.to_string()}));
        }
        self.session_command(
            "POST",
            "/actions",
            Some(&json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// The text of the element matching `css` (waits for it), read in the
    /// page itself so that a redraw cannot make it stale, as a person reads
    /// it: without the invisible marks that isolate names (U+2066-U+2069).
    pub fn text(&self, css: &str) -> String {
        let script = "const e = document.querySelector(arguments[0]); \
                      return e ? (e.innerText ?? e.textContent).replace(/[\\u2066-\\u2069]/g, '').trim() : null";
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(text) = self.exec(script, json!([css])).as_str() {
                return text.to_string();
            }
            assert!(Instant::now() < deadline, "no element `{css}`");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Resizes the browser window. A browser started as a phone has an
    /// emulated screen, which the window's size does not change: the
    /// emulated screen is resized instead (a phone's below
    /// [`PHONE_WIDTH`], a desktop's above).
    pub fn resize(&self, width: u32, height: u32) {
        if self.phone {
            let phone = width < PHONE_WIDTH;
            self.cdp(
                "Emulation.setDeviceMetricsOverride",
                json!({
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": if phone { 2.0 } else { 1.0 },
                    "mobile": phone,
                }),
            );
            self.cdp(
                "Emulation.setTouchEmulationEnabled",
                json!({ "enabled": phone }),
            );
        } else {
            self.session_command(
                "POST",
                "/window/rect",
                Some(&json!({"width": width, "height": height})),
            );
        }
    }

    /// Emulates a network (Chromium's throttling): `latency_ms` added to
    /// each round trip, throughputs in bytes per second.
    pub fn set_network(&self, _name: &str, latency_ms: u64, down: u64, up: u64) {
        self.session_command(
            "POST",
            "/chromium/network_conditions",
            Some(&json!({"network_conditions": {
                "offline": false,
                "latency": latency_ms,
                "download_throughput": down,
                "upload_throughput": up,
            }})),
        );
    }

    /// Runs the DevTools protocol command `cmd` with `params` (through
    /// chromedriver); returns its result.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.session_command(
            "POST",
            "/goog/cdp/execute",
            Some(&json!({ "cmd": cmd, "params": params })),
        )
    }

    /// Cuts the page's network, or gives it back (DevTools
    /// `Network.emulateNetworkConditions`).
    pub fn set_offline(&self, offline: bool) {
        self.cdp("Network.enable", json!({}));
        self.cdp(
            "Network.emulateNetworkConditions",
            json!({
                "offline": offline,
                "latency": 0,
                "downloadThroughput": -1,
                "uploadThroughput": -1,
            }),
        );
    }

    /// Presses `key` (a WebDriver key such as `keys::TAB`) while `modifier`
    /// is held (`keys::SHIFT`...).
    pub fn chord(&self, modifier: &str, key: &str) {
        let actions = json!([
            {"type": "keyDown", "value": modifier},
            {"type": "keyDown", "value": key},
            {"type": "keyUp", "value": key},
            {"type": "keyUp", "value": modifier},
        ]);
        self.session_command(
            "POST",
            "/actions",
            Some(&json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// What axe-core finds against WCAG 2.1 A and AA in the page as it is
    /// now, one line a rule broken (its id, impact, help, and the first
    /// elements): empty when the page passes. axe-core is injected the first
    /// time (see `axe_source`), through the driver, as the page's strict
    /// Content-Security-Policy forbids any script of its own.
    pub fn axe_violations(&self) -> Vec<String> {
        if self.eval("return typeof window.axe") != json!("object") {
            self.eval(&format!("{};\nreturn typeof window.axe", axe_source()));
        }
        let found = self.exec_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, \
               resultTypes: ['violations'] }) \
             .then(r => done(r.violations.map(v => `${v.id} (${v.impact}): ${v.help}: ` + \
               v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | ')))) \
             .catch(e => done(['axe failed: ' + e]))",
        );
        found
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    }

    /// What the browser's console was told as an error since the last
    /// call (chromedriver's log, read once): each entry's `source`
    /// (`console-api`: the page's `console.error`; `javascript`: an error
    /// no script caught, an unhandled rejection; `network`: Chrome's own
    /// "Failed to load resource" for an answer of 4xx or 5xx) and its
    /// `message`. Warnings and below are left out.
    pub fn console_errors(&self) -> Vec<(String, String)> {
        let log = self.session_command("POST", "/se/log", Some(&json!({"type": "browser"})));
        log.as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| {
                (
                    e["source"].as_str().unwrap_or("?").to_string(),
                    e["message"].as_str().unwrap_or("?").to_string(),
                )
            })
            .collect()
    }

    /// Saves a PNG screenshot of the page to `path`.
    pub fn screenshot(&self, path: &Path) {
        let data = self.session_command("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().expect("no screenshot"));
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("cannot create the screenshot directory");
        }
        std::fs::write(path, png).expect("cannot write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                &self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        // The browser's profile folder goes with it (the session's end
        // closed the browser).
        let _ = std::fs::remove_dir_all(&self.profile);
        let _ = &self.driver;
    }
}

/// WebDriver's codes of keys that are not characters.
pub mod keys {
    pub const TAB: &str = "\u{E004}";
    pub const ENTER: &str = "\u{E007}";
    pub const SHIFT: &str = "\u{E008}";
    pub const ALT: &str = "\u{E00A}";
    pub const ESCAPE: &str = "\u{E00C}";
    pub const SPACE: &str = "\u{E00D}";
    pub const HOME: &str = "\u{E011}";
    pub const LEFT: &str = "\u{E012}";
    pub const UP: &str = "\u{E013}";
    pub const RIGHT: &str = "\u{E014}";
    pub const DOWN: &str = "\u{E015}";
}

/// axe-core's script, the version pinned in `tests/axe/package.json`:
/// installed there by scripts/test.sh (`npm ci`), or here when missing, so
/// that a test run alone finds it too. Never fetched from a CDN.
pub fn axe_source() -> &'static str {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/axe");
        let file = dir.join("node_modules/axe-core/axe.min.js");
        if !file.exists() {
            let status = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(&dir)
                .stdout(Stdio::null())
                .status()
                .expect(
                    "the accessibility tests need npm (Debian's package npm) to install axe-core",
                );
            assert!(status.success(), "npm ci in {} failed", dir.display());
        }
        std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()))
    })
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// What a page shows when a wait times out: its address, the last toast,
/// whether its script ran (the `awale-usable` mark of main.js), the status
/// line, the holes drawn, and each request that failed or is slow.
const PAGE_STATE: &str = "const q = (s) => { const e = document.querySelector(s); return e ? e.textContent.trim() : '-'; }; \
    const ran = performance.getEntriesByName('awale-usable').length > 0; \
    const odd = performance.getEntriesByType('resource') \
        .filter((r) => (r.responseStatus && r.responseStatus !== 200) || r.duration > 2000) \
        .map((r) => new URL(r.name).pathname + ' ' + (r.responseStatus || '?') + ' ' + Math.round(r.duration) + 'ms'); \
    return location.hash + ' | toast: ' + q('#toast') + ' | script ran: ' + ran + ' | status: ' + q('#status') \
        + ' | holes: ' + document.querySelectorAll('.hole-hit').length \
        + ' | requests failed or slow: ' + (odd.join(', ') || 'none');";

/// One browser test at a time: the machine has two cores. Also checks
/// that the browser is there, with what to do when it is not.
pub fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    assert!(
        browser_installed(),
        "the browser tests need /usr/bin/chromium and chromedriver: run `bash scripts/test.sh`, \
         which installs them, or build the tests with AWALE_SKIP_BROWSER=1 to skip them"
    );
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A request to the server at `url` (`http://HOST:PORT`): the status and
/// the JSON answer (null when the body is not JSON).
pub fn call(url: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let addr = url.trim_start_matches("http://");
    let (status, bytes) = http(addr, method, path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// The game of the page's address (`#game=ID`).
pub fn game_id(b: &Browser) -> String {
    let hash = b.string("return location.hash");
    hash.strip_prefix("#game=")
        .and_then(|h| h.split('&').next())
        .filter(|h| !h.is_empty())
        .map(String::from)
        .unwrap_or_else(|| panic!("no game in the address: {hash}"))
}

/// Clicks `css` on `b` once scrolled to the middle of the screen (the
/// menu bar stays on top of the page and would take clicks near the top).
pub fn tap(b: &Browser, css: &str) {
    b.find(css);
    b.exec(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
        json!([css]),
    );
    b.click(css);
}

/// Opens `url` on `b` with the sowing shown at once (no animation to wait
/// for).
pub fn open_at_once(b: &Browser, url: &str) {
    b.goto(url);
    b.eval("localStorage.setItem('awale.speed', '0')");
    b.goto(url);
}

/// Closes the new game dialog a first visit opens.
pub fn close_first_dialog(b: &Browser) {
    b.wait_open("#dlg-new", 15);
    tap(b, "#dlg-new button[value=cancel]");
    b.wait_for(
        "the dialog closed",
        "return !document.querySelector('#dlg-new').open",
        5,
    );
}

/// A request from the page `b` shows (its cookies, its session): the
/// status and the JSON answer, as `{status, body}`.
pub fn page_fetch(b: &Browser, method: &str, path: &str, body: Value) -> Value {
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

/// POSTs `{}` to `path` from the page of `b`, which must answer 200.
pub fn page_post_ok(b: &Browser, path: &str) {
    let answer = page_fetch(b, "POST", path, json!({}));
    assert_eq!(answer["status"], 200, "{path}: {answer}");
}

/// Signs the browser `b` (on a page of the site) up as `name`.
pub fn sign_up(b: &Browser, name: &str) {
    let answer = page_fetch(
        b,
        "POST",
        "/api/account/signup",
        json!({"username": name, "password": "seeds in the fourth hole"}),
    );
    assert_eq!(answer["status"], 201, "sign up {name}: {answer}");
}

/// A desktop's window and a phone's, for [`Browser::start`].
pub const DESKTOP: (u32, u32) = (1280, 900);
pub const PHONE: (u32, u32) = (390, 844);

/// A new visitor of `url` in a browser of its own (`name`, preferring
/// `languages`, its window `size`): the page open with the sowing shown
/// at once, past the dialog a first visit opens, signed up as `account`.
pub fn member(name: &str, languages: &str, size: (u32, u32), url: &str, account: &str) -> Browser {
    let b = Browser::start(name, languages, size.0, size.1);
    // Signed up from a page of the site that is not the game's, so that
    // the game's page opens signed in (its header names the account), as
    // after a sign-up in its dialog.
    b.goto(&format!("{}/api/info", url.trim_end_matches('/')));
    sign_up(&b, account);
    open_at_once(&b, url);
    close_first_dialog(&b);
    b.wait_for(
        &format!("the header naming {account}"),
        &format!("return document.querySelector('#btn-account').textContent === {account:?}"),
        10,
    );
    b
}

/// With `AWALE_SCREENSHOTS=1`, what `b` shows, as `docs/NAME` (the
/// README's pictures); nothing otherwise.
pub fn doc_screenshot(b: &Browser, name: &str) {
    if std::env::var_os("AWALE_SCREENSHOTS").is_some() {
        b.screenshot(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../docs")
                .join(name),
        );
    }
}

/// The server of `test` (an empty store) and two new visitors of its
/// page in browsers named after `test`: Ama (in French, on a desktop) and
/// Kofi (in English, on a phone), the accounts `Ama_K` and `kofi_7`.
pub fn ama_and_kofi(test: &str) -> (Site, Browser, Browser) {
    let site = Site::start(test);
    let ama = member(
        &format!("{test}-ama"),
        "fr-FR,fr",
        DESKTOP,
        &site.url,
        "Ama_K",
    );
    let kofi = member(
        &format!("{test}-kofi"),
        "en-US,en",
        PHONE,
        &site.url,
        "kofi_7",
    );
    (site, ama, kofi)
}

/// Opens the lobby's form for a new tournament on `b`.
pub fn open_tournament_form(b: &Browser, url: &str) {
    b.goto(&format!("{url}/#lobby"));
    b.wait_shown("#arena-list", 10);
    tap(b, ".arena-new summary");
}

/// Sends the lobby's tournament form and waits for the new tournament's
/// page, titled `title`: its address (`#tournament=ID`).
pub fn send_tournament_form(b: &Browser, title: &str) -> String {
    tap(b, "#arena-form button");
    b.wait_for(
        &format!("the page of the new tournament {title}"),
        &format!(
            "return location.hash.startsWith('#tournament=') && document.querySelector('#arena-title').textContent === {}",
            json!(title)
        ),
        10,
    );
    hash(b)
}

/// Joins the tournament whose page `b` shows by its button, first
/// checking the button says `label` (in the page's language).
pub fn join_tournament(b: &Browser, label: &str) {
    b.wait_shown("#arena-join", 10);
    assert_eq!(b.text("#arena-join"), label);
    tap(b, "#arena-join");
}

/// Waits until the tournament's page on `b` has `players` lines in its
/// standings `table` (`#arena-standings`, `#swiss-standings`).
pub fn wait_standings(b: &Browser, table: &str, players: usize) {
    b.wait_for(
        &format!("{players} in the standings"),
        &format!("return document.querySelectorAll('{table} tr').length === {players}"),
        10,
    );
}

/// The page's address after `#`, with it.
pub fn hash(b: &Browser) -> String {
    b.string("return location.hash")
}

/// Pairs the accounts of `first` and `second` in the 3+2 pool (a rated
/// game), each tapping the lobby's 3+2 button as a person would and taken
/// to the game by the page; then `loser` (one of them) resigns: the game's
/// public id.
pub fn rated_game(first: &Browser, second: &Browser, loser: &Browser) -> String {
    const BUTTON: &str = "#pools button[data-pool='3+2']";
    for b in [first, second] {
        b.eval("location.hash = '#lobby'");
        b.wait_shown(BUTTON, 10);
    }
    // The first seeks and waits; the second's seek pairs them.
    first.click(BUTTON);
    first.wait_shown("#pool-seeking", 10);
    second.click(BUTTON);
    let landed = |b: &Browser| {
        b.wait_for(
            "the page taken to the paired game",
            "return location.hash.startsWith('#game=')",
            20,
        );
        game_id(b)
    };
    let paired = landed(second);
    assert_eq!(landed(first), paired, "both in the same game");
    let game = page_fetch(first, "GET", &format!("/api/games/{paired}"), Value::Null);
    assert_eq!(game["body"]["rated"], true, "{game}");
    // Two moves each, a real start (a rated game ended sooner is casual):
    // whoever is to move plays.
    let moves = format!("/api/games/{paired}/moves");
    for letter in ["C", "c", "D", "d"] {
        let body = json!({ "move": letter });
        if page_fetch(first, "POST", &moves, body.clone())["status"] != 200 {
            let answer = page_fetch(second, "POST", &moves, body);
            assert_eq!(answer["status"], 200, "{letter}: {answer}");
        }
    }
    page_post_ok(loser, &format!("/api/games/{paired}/resign"));
    paired
}

/// A challenge `challenge` (the JSON of `POST /api/challenges`) made by
/// the person in `page` and accepted by a bot through the API with its
/// `bot` authorization (`Bearer TOKEN`): their game's public id.
pub fn challenge_accepted_by_bot(
    site: &Site,
    page: &Browser,
    challenge: Value,
    bot: &str,
) -> String {
    let made = page_fetch(page, "POST", "/api/challenges", challenge);
    assert_eq!(made["status"], 201, "{made}");
    let id = made["body"]["id"].as_i64().expect("the challenge");
    let path = format!("/api/challenge/{id}/accept");
    let (status, accepted, _) = request_as(site, "POST", &path, bot, json!({}));
    assert_eq!(status, 200, "{accepted}");
    accepted["game"].as_str().expect("their game").to_string()
}

/// One request to `site` with the `Cookie` header `cookies` (or, when it
/// starts with `Bearer `, that `Authorization`): the status, the JSON
/// answer and the cookies set (`NAME=VALUE`).
pub fn request_as(
    site: &Site,
    method: &str,
    path: &str,
    who: &str,
    body: Value,
) -> (u16, Value, Vec<String>) {
    let addr = site.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("the server");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let header = match who.strip_prefix("Bearer ") {
        Some(token) => format!("Authorization: Bearer {token}\r\n"),
        None => format!("Cookie: {who}\r\n"),
    };
    let body = body.to_string();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{header}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let set = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap().to_string())
        .collect();
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::Null),
        set,
    )
}

/// Signs up `name` through the API (its player's cookie made of `n`):
/// its cookies.
pub fn account_cookies(site: &Site, name: &str, n: u8) -> String {
    let player = format!("awale_player={}", format!("{n:02x}").repeat(32));
    let (status, answer, set) = request_as(
        site,
        "POST",
        "/api/account/signup",
        &player,
        json!({"username": name, "password": "seeds in the fourth hole"}),
    );
    assert_eq!(status, 201, "{answer}");
    let session = set
        .iter()
        .find(|c| c.contains("session"))
        .expect("a session")
        .clone();
    format!("{player}; {session}")
}

/// A token of scopes `scopes` for the account of `cookies`.
pub fn make_token(site: &Site, cookies: &str, scopes: &[&str]) -> String {
    let (status, answer, _) = request_as(
        site,
        "POST",
        "/api/account/tokens",
        cookies,
        json!({"name": "bridge", "scopes": scopes}),
    );
    assert_eq!(status, 201, "{answer}");
    answer["token"].as_str().unwrap().to_string()
}

/// Signs up `name` (as the player numbered `n`), upgrades it to a bot and
/// makes its token of scope `bot:play`: the token.
pub fn bot_token(site: &Site, name: &str, n: u8) -> String {
    let cookies = account_cookies(site, name, n);
    let (status, answer, _) = request_as(site, "POST", "/api/account/bot", &cookies, json!({}));
    assert_eq!(status, 200, "{answer}");
    make_token(site, &cookies, &["bot:play"])
}

/// Two bots named `bots` (each with the level of its engine) play one
/// rated game on the bullet engine ladder: each an `awale bot` bridge
/// around `awale uci` (`--ladder bullet --games 1`), their logs in `dir`;
/// returns once both bridges have ended (3 minutes at most), with the
/// public id of the game they played.
pub fn ladder_game(site: &Site, bots: [(&str, u8); 2], dir: &Path) -> String {
    let mut bridges = Vec::new();
    for (n, (name, level)) in bots.into_iter().enumerate() {
        let token = bot_token(site, name, n as u8 + 1);
        let log = dir.join(format!("{name}.log"));
        let engine = format!("{} uci", env!("CARGO_BIN_EXE_awale"));
        let child = Command::new(env!("CARGO_BIN_EXE_awale"))
            .args(["bot", "--server", &site.url, "--token", &token])
            .args(["--engine", &engine, "--option", &format!("Level={level}")])
            .args(["--ladder", "bullet", "--games", "1"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("awale bot");
        bridges.push((Process(child), log));
    }
    let start = Instant::now();
    for (bridge, log) in &mut bridges {
        loop {
            if let Some(status) = bridge.0.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "{}",
                    std::fs::read_to_string(&*log).unwrap_or_default()
                );
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(180),
                "the bridge never ended: {}",
                std::fs::read_to_string(&*log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let text = std::fs::read_to_string(&bridges[0].1).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("awale bot: game ")?.strip_suffix(" starts"))
        .expect("a game started")
        .to_string()
}
