//! `awale db build --mpi` under a real `mpirun` (Open MPI), its processes
//! talking over TCP on this machine (`--mca btl tcp,self`, loopback only),
//! more processes than cores: the files must be those of one process, byte
//! for byte. Built only with `--features mpi` (`scripts/test.sh` runs it).
//! Up to 20 seeds: `cargo test -p awale --profile fast --features mpi
//! --test mpi -- --ignored`.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const AWALE: &str = env!("CARGO_BIN_EXE_awale");

/// One job at a time: processes of two jobs on the same two cores would
/// spend their time waiting for each other.
static ONE_JOB: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_job() -> std::sync::MutexGuard<'static, ()> {
    ONE_JOB.lock().unwrap_or_else(|e| e.into_inner())
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("awale-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `mpirun -np N awale ARGS` over TCP on the loopback interface, one thread
/// a process, allowed to run as root (CI runs as root).
fn mpirun(processes: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &processes.to_string()])
        .args(["--mca", "btl", "tcp,self"])
        .args(["--mca", "btl_tcp_if_include", "lo"])
        .args(["--mca", "oob_tcp_if_include", "lo"])
        .arg(AWALE)
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // Open MPI waits for its peers by spinning; with more processes
        // than cores it must give the core up instead.
        .env("OMPI_MCA_mpi_yield_when_idle", "1")
        .stdin(Stdio::null());
    c
}

fn run(mut c: Command) -> Output {
    c.output().expect("mpirun runs (Open MPI installed?)")
}

fn build_args<'a>(dir: &'a str, max: &'a str, rules: &'a str) -> Vec<&'a str> {
    vec![
        "db",
        "build",
        "--mpi",
        "--threads",
        "1",
        "--quiet",
        "--max-seeds",
        max,
        "--rules",
        rules,
        "--dir",
        dir,
    ]
}

fn level(dir: &Path, variant: &str, seeds: u8) -> PathBuf {
    dir.join(variant).join(format!("level-{seeds:02}.awdb"))
}

fn assert_same_files(a: &Path, b: &Path, variant: &str, max: u8) {
    for seeds in 0..=max {
        let x = std::fs::read(level(a, variant, seeds)).unwrap();
        let y = std::fs::read(level(b, variant, seeds)).unwrap();
        assert!(x == y, "{} differs", level(b, variant, seeds).display());
    }
}

fn single(dir: &Path, max: &str, rules: &str) {
    let out = Command::new(AWALE)
        .args([
            "db",
            "build",
            "--quiet",
            "--max-seeds",
            max,
            "--rules",
            rules,
        ])
        .args(["--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

/// Builds up to `max` seeds alone, then with 2, 3 and 4 processes, and
/// compares every level file; `awale db verify` on the last.
fn same_files_with_2_3_and_4_processes(rules: &str, variant: &str, max: u8) {
    let _one = one_job();
    let m = max.to_string();
    let alone = folder(&format!("alone-{rules}-{max}"));
    single(&alone, &m, rules);
    for processes in [2, 3, 4] {
        let dir = folder(&format!("{processes}-{rules}-{max}"));
        let d = dir.to_str().unwrap();
        let mut c = mpirun(processes, &build_args(d, &m, rules));
        if processes == 3 {
            // Messages of at most 64 kB: the exchanges go in rounds.
            c.env("AWALE_MPI_ROUND_BYTES", "65536");
        }
        let out = run(c);
        let t = text(&out);
        assert!(out.status.success(), "{t}");
        assert!(t.contains(&format!("{processes} processes")), "{t}");
        assert!(t.contains("sent between"), "{t}");
        assert_same_files(&alone, &dir, variant, max);
        if processes == 4 {
            let out = Command::new(AWALE)
                .args(["db", "verify", "--rules", rules, "--dir", d])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", text(&out));
        }
        let manifest = std::fs::read_to_string(dir.join(variant).join("manifest.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        assert_eq!(json["levels"][usize::from(max)]["processes"], processes);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::remove_dir_all(&alone).unwrap();
}

/// Up to 14 seeds: each of 4 processes owns part of every level from 8
/// seeds on (levels are cut at multiples of 2^14 boards), the 3-process
/// run sends its levels in many rounds; 16 seeds took four times as long
/// (a single process: 57 s against 16 s) for no path of its own.
#[test]
fn mpi_builds_write_the_files_of_one_process_byte_for_byte_up_to_14_seeds() {
    same_files_with_2_3_and_4_processes("awale", "forbidden-nobody", 14);
}

#[test]
fn mpi_builds_of_bounds_write_the_files_of_one_process_up_to_11_seeds() {
    same_files_with_2_3_and_4_processes("abapa", "no_capture-own_row", 11);
}

#[test]
#[ignore = "a few minutes: levels 17 to 20 with 2, 3 and 4 processes"]
fn mpi_builds_write_the_files_of_one_process_byte_for_byte_up_to_20_seeds() {
    same_files_with_2_3_and_4_processes("awale", "forbidden-nobody", 20);
}

/// The processes `mpirun` started running awale: its descendants (its
/// children with Open MPI 4, those of its daemon with later versions) whose
/// program is awale.
fn ranks_of(mpirun: &Child) -> Vec<u32> {
    let children = |pid: u32| -> Vec<u32> {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten();
        tasks
            .flatten()
            .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
            .flat_map(|c| {
                c.split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .collect::<Vec<u32>>()
            })
            .collect()
    };
    let mut ranks = Vec::new();
    let mut todo = children(mpirun.id());
    while let Some(pid) = todo.pop() {
        let program = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if program.trim() == "awale" {
            ranks.push(pid);
        } else {
            todo.extend(children(pid));
        }
    }
    ranks.sort_unstable();
    ranks
}

#[test]
fn a_killed_process_stops_the_job_and_the_build_resumes_to_the_same_files() {
    let _one = one_job();
    let alone = folder("kill-alone");
    single(&alone, "13", "awale");
    let dir = folder("kill");
    let d = dir.to_str().unwrap();
    let mut c = mpirun(2, &build_args(d, "13", "awale"));
    let job = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for level 12, then kill the second process while it builds 13.
    let start = Instant::now();
    while !level(&dir, "forbidden-nobody", 12).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "level 12 never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let ranks = ranks_of(&job);
    assert_eq!(ranks.len(), 2, "{ranks:?}");
    let killed = Command::new("kill")
        .args(["-KILL", &ranks[1].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = job.wait_with_output().unwrap();
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    // Open MPI names the process that died.
    assert!(t.contains("signal 9") || t.contains("Killed"), "{t}");
    // Nothing half written: the level files there are whole and right.
    assert!(!level(&dir, "forbidden-nobody", 13).exists());
    let verify = Command::new(AWALE)
        .args(["db", "verify", "--dir", d])
        .output()
        .unwrap();
    assert!(verify.status.success(), "{}", text(&verify));
    // Resumed (with another number of processes): the same files as alone.
    let out = run(mpirun(3, &build_args(d, "13", "awale")));
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("(already built)"), "{t}");
    assert_same_files(&alone, &dir, "forbidden-nobody", 13);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&alone).unwrap();
}

#[test]
fn a_process_that_fails_stops_the_job_with_a_message_naming_it() {
    let _one = one_job();
    let dir = folder("damaged");
    let d = dir.to_str().unwrap();
    let out = run(mpirun(2, &build_args(d, "6", "awale")));
    assert!(out.status.success(), "{}", text(&out));
    let path = level(&dir, "forbidden-nobody", 4);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let out = run(mpirun(2, &build_args(d, "8", "awale")));
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("process 0 of 2"), "{t}");
    assert!(t.contains("level-04.awdb: refused"), "{t}");
    // Nothing built past the damaged level.
    assert!(!level(&dir, "forbidden-nobody", 7).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
