//! The binary as other programs see it: `awale uci` driven through pipes as
//! a real child process, and `awale match` run to its end, between two of
//! our levels and between our engine and an external one (our own binary
//! behind `awale uci`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use awale_core::Side;
use common::{awale, awale_reading, command, stderr, stdout, AWALE};

/// `awale uci` running, with its output lines arriving on a channel.
struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        Uci::start_with(&[])
    }

    /// `awale uci ARGS...`.
    fn start_with(args: &[&str]) -> Uci {
        let mut child = command(&[&["uci"], args].concat())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("awale uci starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `position` and `go`, and returns every line up to `bestmove`.
    fn search(&mut self, position: &str, go: &str) -> Vec<String> {
        self.send(position);
        self.send(go);
        self.until("bestmove")
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.starts_with(prefix);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                Err(e) => panic!("no `{prefix}` ({e}); got {seen:?}"),
            }
        }
    }

    /// Lines that arrive within `wait`.
    fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(wait) {
            seen.push(line);
        }
        seen
    }

    /// Sends `quit` and checks the process ends cleanly.
    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "awale uci did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The highest resident memory of a running process, in KiB (Linux).
fn peak_resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
}

/// The move of the `bestmove` that ends `lines` (without its `ponder`),
/// checked to be one of `side`'s holes.
fn move_of(side: Side, lines: &[String]) -> &str {
    let m = bestmove(lines)
        .split_whitespace()
        .next()
        .unwrap_or_default();
    let holes = match side {
        Side::South => 'A'..='F',
        Side::North => 'a'..='f',
    };
    assert!(m.starts_with(|c| holes.contains(&c)), "{lines:?}");
    m
}

#[test]
fn a_scripted_session_through_a_pipe() {
    let mut uci = Uci::start();
    uci.send("uci");
    let hello = uci.until("uciok");
    assert!(hello[0].starts_with("id name "), "{hello:?}");
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Level type spin")));
    uci.send("isready");
    assert_eq!(uci.until("readyok"), ["readyok"]);

    uci.send("setoption name Hash value 8");
    uci.send("ucinewgame");
    let lines = uci.search("position startpos moves FfAa", "go depth 6");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 seldepth ")
            && l.contains(" score ")
            && l.contains(" nodes ")
            && l.contains(" nps ")
            && l.contains(" time ")
            && l.contains(" pv ")),
        "{lines:?}"
    );
    // After F f A a it is South's turn again: a South hole.
    move_of(Side::South, &lines);

    // The same position with the moves spaced, then a clock search.
    let lines = uci.search(
        "position startpos moves F f A a",
        "go wtime 500 btime 500 winc 10 binc 10",
    );
    move_of(Side::South, &lines);

    // While an infinite search runs, isready is answered and no bestmove
    // comes until stop.
    uci.send("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    uci.send("go infinite");
    uci.send("isready");
    let lines = uci.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    std::thread::sleep(Duration::from_millis(200));
    uci.send("stop");
    move_of(Side::South, &uci.until("bestmove"));

    // A finished game: South cannot feed North.
    let lines = uci.search("position fen 1-0-0-0-0-0-0-0-0-0-0-0-23-24-S", "go depth 4");
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    uci.quit();
}

#[test]
fn malformed_input_is_answered_and_never_crashes() {
    // Each malformed command is answered by one `info string` (the
    // protocol's own tests go through many); a malformed `go` searches
    // without a limit, as a bare `go` does, until stop.
    let mut uci = Uci::start();
    uci.send("go depth banana");
    let lines = uci.until("info string");
    assert_eq!(lines.len(), 1, "{lines:?}");
    uci.send("stop");
    uci.until("bestmove");
    uci.send_bytes(b"\xff\xfe garbage \x00\n\n   \n");
    uci.send_bytes(b"position startpos moves F");
    uci.send("");
    uci.send("isready");
    let lines = uci.until("readyok");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info string") || l == "readyok"),
        "{lines:?}"
    );
    uci.send("go depth 3");
    move_of(Side::North, &uci.until("bestmove"));
    assert!(uci.drain(Duration::from_millis(50)).is_empty());
    uci.quit();
}

#[test]
fn end_of_input_ends_the_session() {
    let output = awale_reading(&["uci"], "isready\ngo depth 4\n");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.contains("readyok") && text.contains("bestmove "),
        "{text}"
    );
}

/// A file `name` in a temporary folder, removed with the guard.
fn temp_file(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = common::folder();
    let path = dir.path().join(name);
    (dir, path)
}

/// `awale match ARGS --records RECORDS`.
fn match_output(args: &[&str], records: &Path) -> Output {
    let records = records.to_str().expect("a UTF-8 path");
    awale(&[&["match"], args, &["--records", records]].concat())
}

/// What `awale match ARGS --records RECORDS` prints, when it succeeds.
fn run_match(args: &[&str], records: &Path) -> String {
    let output = match_output(args, records);
    assert!(
        output.status.success(),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    stdout(&output)
}

/// The records file holds `games` records that replay.
fn check_records(path: &Path, games: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let records = awale_core::parse_records(&text).unwrap();
    assert_eq!(records.len(), games);
    for r in &records {
        r.to_game().unwrap();
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&r.result.as_str()),
            "{r}"
        );
    }
}

#[test]
fn a_match_between_two_levels_prints_statistics() {
    let (_dir, records) = temp_file("levels.ogn");
    let out = run_match(&["level=1", "level=2", "--games", "4"], &records);
    assert!(out.contains("level 1 vs level 2: "), "{out}");
    assert!(out.contains("in 4 games"), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    assert!(out.contains("95% interval"), "{out}");
    check_records(&records, 4);
}

#[test]
fn a_match_against_an_external_engine_runs_to_the_end() {
    let (_dir, records) = temp_file("external.ogn");
    let external = format!("depth=3,name=piped,cmd={AWALE} uci --hash 4");
    let out = run_match(
        &[
            "depth=3,hash=4",
            &external,
            "--games",
            "4",
            "--concurrency",
            "2",
            "--sprt",
            "0,10",
        ],
        &records,
    );
    assert!(out.contains("vs piped: "), "{out}");
    assert!(out.contains("in 4 games"), "{out}");
    assert!(out.contains("SPRT elo0 0 elo1 10"), "{out}");
    assert!(!out.contains("forfeit"), "{out}");
    check_records(&records, 4);
}

#[test]
fn a_broken_external_engine_is_a_clear_error() {
    let (_dir, records) = temp_file("broken.ogn");
    let args = ["depth=2", "depth=2,cmd=/nonexistent/engine", "--games", "2"];
    let output = match_output(&args, &records);
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr(&output);
    assert!(
        stderr.contains("cannot start engine `/nonexistent/engine`"),
        "{stderr}"
    );
}

/// An engine without a `Rules` option, as tournament Oware engines are:
/// `awale uci` with that option taken out of its answer to `uci`.
fn optionless_engine(dir: &std::path::Path) -> String {
    let script = dir.join("plain-engine");
    std::fs::write(
        &script,
        format!("#!/bin/sh\n{AWALE} uci --hash 4 | grep --line-buffered -v 'option name Rules'\n"),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    format!("depth=2,name=plain,cmd={}", script.display())
}

#[test]
fn an_engine_without_a_rules_option_plays_abapa_and_says_so() {
    let (dir, records) = temp_file("plain.ogn");
    let plain = optionless_engine(dir.path());
    let out = run_match(
        &["depth=2,hash=4", &plain, "--games", "2", "--rules", "abapa"],
        &records,
    );
    assert!(
        out.contains("has no `Rules` option: taken to play abapa"),
        "{out}"
    );
    assert!(out.contains("in 2 games"), "{out}");
    // Every game is played: no forfeit, no infinite difference (two games
    // may still leave the interval open).
    assert!(!out.contains("forfeit"), "{out}");
    assert!(
        !out.contains("Elo difference: +inf") && !out.contains("Elo difference: -inf"),
        "{out}"
    );
    check_records(&records, 2);
}

#[test]
fn an_engine_without_a_rules_option_is_refused_at_start_under_awale() {
    let (dir, records) = temp_file("refused.ogn");
    let plain = optionless_engine(dir.path());
    let output = match_output(&["depth=2,hash=4", &plain, "--games", "2"], &records);
    let (stdout, stderr) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("no `Rules` option") && stderr.contains("--rules abapa"),
        "{stderr}"
    );
    // No game was played: no result that reads like one.
    assert!(
        !stdout.contains("game ") && !stdout.contains("Elo"),
        "{stdout}"
    );
}

/// The `cp` of every info line's score (the dialect's GUIs read nothing
/// else).
fn scores_cp(lines: &[String]) -> Vec<i32> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let cp = l
                .split(" score cp ")
                .nth(1)
                .unwrap_or_else(|| panic!("{l}"));
            cp.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

/// The sequence of the Aualé GUI (tournament Oware), with the engine started
/// as `awale uci` and nothing else (Aualé never sets `Rules`): handshake with
/// `OwnBook`, a game from the start, pondering ended by `stop`, a position
/// from the board at the last capture, a human grand slam (legal under
/// `abapa`, capturing nothing) answered with a move Aualé can read, and the
/// game played on to its end, `quit`.
#[test]
fn the_auale_sequence_runs_grand_slam_included() {
    let mut uci = Uci::start_with(&["--db", "none"]);
    uci.send("uci");
    let hello = uci.until("uciok");
    assert!(
        hello
            .iter()
            .find(|l| l.starts_with("info string"))
            .is_some_and(|l| l.starts_with("info string rules abapa: tournament Oware")),
        "{hello:?}"
    );
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name OwnBook type check")));
    uci.send("setoption name OwnBook value true");
    uci.send("ucinewgame");
    uci.send("isready");
    assert_eq!(uci.until("readyok"), ["readyok"], "OwnBook must be known");

    let lines = uci.search(
        "position startpos moves CbDaFaB",
        "go depth 16 movetime 2400",
    );
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    // The principal variation is one word, the score `cp`.
    let pv = info.split(" pv ").nth(1).expect("a pv");
    assert!(!pv.contains(' ') && !pv.is_empty(), "{info}");
    assert!(info.contains(" score cp "), "{info}");
    let reply = move_of(Side::North, &lines).to_string();

    // Its hard levels ponder on the expected reply, then stop.
    uci.send(&format!("position startpos moves CbDaFaB{reply}C"));
    uci.send("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    uci.send("stop");
    move_of(Side::North, &uci.until("bestmove"));

    // A position from the board at the last capture.
    let position = "position fen 3-4-2-1-5-4-4-4-0-2-3-4-5-7-S moves C";
    move_of(
        Side::North,
        &uci.search(position, "go depth 16 movetime 2400"),
    );

    // The human plays a grand slam: F takes North's last seeds, which
    // abapa allows (capturing nothing). North answers, and the game goes on
    // to its end, each side's move read back from the engine; decided
    // scores are seed margins (at most 48 seeds), never `cp 9999`.
    let start = "1-0-0-0-0-2-1-1-0-0-0-0-21-22-S";
    let mut moves = String::from("F");
    let mut side = Side::North;
    loop {
        let lines = uci.search(
            &format!("position fen {start} moves {moves}"),
            "go depth 16 movetime 2400",
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        assert!(
            scores_cp(&lines).iter().all(|cp| cp.abs() <= 4800),
            "{lines:?}"
        );
        if bestmove(&lines) == "0000" {
            break;
        }
        moves.push_str(move_of(side, &lines));
        side = side.opponent();
        assert!(moves.len() < 200, "the game does not end: {moves}");
    }
    assert!(moves.len() > 1, "{moves}");
    uci.quit();
}

/// Told to play `awale`, where the slam above is illegal, the engine says
/// what it refused and answers under `abapa`, where it is legal: a North
/// move, never `bestmove 0000` (which Aualé cannot read) nor a move of the
/// position before (a South move with North to play, which left the GUI
/// waiting for good).
#[test]
fn a_refused_grand_slam_is_answered_under_the_rules_that_allow_it() {
    let mut uci = Uci::start_with(&["--db", "none", "--rules", "awale"]);
    uci.search("position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S", "go depth 6");
    let position = "position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S moves F";
    let lines = uci.search(position, "go depth 6");
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string position refused under awale: move 1 (F)")
                && l.ends_with("answered under abapa, where it can be played")
        ),
        "{lines:?}"
    );
    move_of(Side::North, &lines);
    // A move no rules allow (South twice) is still refused without a move.
    let lines = uci.search("position startpos moves FF", "go depth 6");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string position not set")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "0000");
    uci.quit();
}

/// The advertised maximum `Hash` is refused when the memory is not there
/// (this machine has far less than 64 GiB free), the old table kept: the
/// process goes on answering and searching.
#[test]
fn a_hash_beyond_the_memory_is_refused_and_the_engine_goes_on() {
    let mut uci = Uci::start_with(&["--hash", "4", "--db", "none"]);
    uci.send("setoption name Hash value 65536");
    uci.send("isready");
    let lines = uci.until("readyok");
    assert!(
        lines[0].starts_with("info string option Hash:") && lines[0].contains("stays at 4 MiB"),
        "{lines:?}"
    );
    move_of(Side::South, &uci.search("position startpos", "go depth 8"));
    uci.quit();
}

/// A `--db` folder named that does not exist is said in an `info string`
/// at the first search under the rules, after `uciok` and before the
/// search's lines; the engine searches without.
#[test]
fn a_db_folder_that_does_not_exist_is_said_in_an_info_string() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothere");
    let missing = missing.to_str().unwrap();
    let mut uci = Uci::start_with(&["--db", missing, "--hash", "1"]);
    uci.send("uci");
    let hello = uci.until("uciok");
    assert!(hello.iter().all(|l| !l.contains("not used")), "{hello:?}");
    let lines = uci.search("position startpos", "go depth 2");
    let said = format!(
        "info string endgame databases not used: --db {missing}: the folder does not exist"
    );
    assert_eq!(lines[0], said, "{lines:?}");
    move_of(Side::South, &lines);
    // Said once for the rules, not at every search.
    let again = uci.search("position startpos moves F", "go depth 2");
    assert!(again.iter().all(|l| !l.contains("not used")), "{again:?}");
    uci.quit();
}

/// A line far beyond the longest read (64 times it here; 500 MB took 582 MB
/// before the cap) is skipped without being kept: the memory stays small
/// and the next line is answered.
#[test]
fn a_huge_line_is_skipped_without_being_kept_in_memory() {
    let mut uci = Uci::start_with(&["--hash", "1", "--db", "none"]);
    let pid = uci.child.id();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        uci.send_bytes(&chunk);
    }
    uci.send("");
    uci.send("isready");
    let lines = uci.until("readyok");
    assert!(
        lines[0].starts_with("info string line of 67108864 bytes ignored"),
        "{lines:?}"
    );
    let peak = peak_resident_kib(pid).expect("VmHWM");
    assert!(peak < 32 * 1024, "peak resident memory {peak} KiB");
    uci.quit();
}
