//! A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary
//! folder, the server on a free loopback port, run as an unprivileged user
//! when the tests run as root (PostgreSQL refuses root). One cluster per
//! test program, each test in a database of its own; a watcher stops the
//! server and removes the folder once the test program has exited.
//! Shared by the store's tests and the binary's (`#[path]`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A running cluster.
pub struct Cluster {
    /// The folder holding the data, the socket and the log.
    pub dir: PathBuf,
    /// The loopback port.
    pub port: u16,
    bin: PathBuf,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
static NEXT: AtomicUsize = AtomicUsize::new(1);

/// The folder of PostgreSQL's programs (Debian keeps them out of PATH).
fn bin_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("AWALE_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").exists())
        .collect();
    found.sort();
    if let Some(dir) = found.pop() {
        return dir;
    }
    // On PATH (another system's packages).
    let which = Command::new("sh")
        .args(["-c", "command -v initdb"])
        .output()
        .expect("sh");
    let path = String::from_utf8_lossy(&which.stdout).trim().to_string();
    assert!(
        !path.is_empty(),
        "PostgreSQL is not installed: `apt-get install postgresql` (scripts/test.sh does)"
    );
    Path::new(&path).parent().unwrap().to_path_buf()
}

fn is_root() -> bool {
    // The uid of this process, without a libc binding.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// `program` as the cluster's owner: `nobody` when we are root.
fn as_owner(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// The output of `command`, run to its end; it must succeed (else its
/// error output is the panic's message).
fn succeeded(command: &mut Command) -> Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    // The server and its watcher outlive this program on purpose: the
    // watcher stops the server once the tests are gone.
    #[allow(clippy::zombie_processes)]
    fn start() -> Cluster {
        let bin = bin_dir();
        let dir = tempfile::Builder::new()
            .prefix("awale-pg-")
            .tempdir()
            .unwrap()
            .keep();
        if is_root() {
            let ok = Command::new("chown")
                .args(["-R", "65534:65534"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(ok.success(), "chown of {}", dir.display());
        }
        let data = dir.join("data");
        succeeded(
            as_owner(&bin.join("initdb"))
                .arg("-D")
                .arg(&data)
                .args(["-A", "trust", "-U", "awale", "-E", "UTF8", "--no-sync"])
                .args(["--locale=C.UTF-8"]),
        );
        let port = free_port();
        let log = std::fs::File::create(dir.join("server.log")).unwrap();
        if is_root() {
            let _ = Command::new("chown")
                .arg("65534:65534")
                .arg(dir.join("server.log"))
                .status();
        }
        let server = as_owner(&bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .arg("-k")
            .arg(&dir)
            .args(["-p", &port.to_string()])
            .args(["-c", "listen_addresses=127.0.0.1"])
            // A test machine's crash loses nothing the tests need.
            .args(["-c", "fsync=off", "-c", "full_page_writes=off"])
            .args(["-c", "max_connections=300", "-c", "shared_buffers=32MB"])
            // Each line says which program sent it (its application_name):
            // a test counts one process's statements (`log_statement`, set
            // on its own database).
            .args(["-c", "log_line_prefix=%m [%p] %a: "])
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        // Stops the server and removes the folder once this program is
        // gone (the tests have no end hook).
        let watcher = format!(
            "while kill -0 {me} 2>/dev/null; do sleep 0.3; done; kill -QUIT {pg} 2>/dev/null; \
             sleep 1; rm -rf '{dir}'",
            me = std::process::id(),
            pg = server.id(),
            dir = dir.display()
        );
        Command::new("sh")
            .args(["-c", &watcher])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let cluster = Cluster { dir, port, bin };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = Command::new(cluster.bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-q"])
                .status()
                .unwrap();
            if ready.success() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "PostgreSQL did not start: {}",
                std::fs::read_to_string(cluster.dir.join("server.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        cluster
    }

    /// A new empty database; its address.
    pub fn database(&self) -> String {
        let name = format!("t{}", NEXT.fetch_add(1, Ordering::Relaxed));
        succeeded(
            Command::new(self.bin.join("createdb"))
                .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
                .args(["-U", "awale"])
                .arg(&name),
        );
        self.url(&name)
    }

    /// The address of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://awale@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs `sql` in the database at `url` with psql; its output.
    pub fn psql(&self, url: &str, sql: &str) -> String {
        let out = succeeded(Command::new(self.bin.join("psql")).args([
            "-X",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            url,
            "-c",
            sql,
        ]));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

/// The test program's cluster, started at the first call.
pub fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(Cluster::start)
}
