//! The `awale` binary run as a user runs it, for the tests of the command
//! line: a real process, real pipes, its output read whole.
#![allow(dead_code)] // each test binary uses its part

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The binary under test.
pub const AWALE: &str = env!("CARGO_BIN_EXE_awale");

/// `awale ARGS` as a command to run, with nothing to read unless told
/// otherwise.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(AWALE);
    command.args(args).stdin(Stdio::null());
    command
}

/// `awale ARGS`, with nothing to read, run to its end.
pub fn awale(args: &[&str]) -> Output {
    command(args).output().expect("the awale binary runs")
}

/// `awale serve` on a free port with its games file `data` and the
/// arguments `more`, run to its end (for the settings it refuses).
pub fn serve_with(data: &Path, more: &[&str]) -> Output {
    let data = data.to_str().expect("a UTF-8 path");
    let args = ["serve", "--addr", "127.0.0.1:0", "--data", data];
    awale(&[&args[..], more].concat())
}

/// `awale ARGS` reading `input`, run to its end.
pub fn awale_reading(args: &[&str], input: &str) -> Output {
    awale_reading_after(args, input, Duration::ZERO)
}

/// `awale ARGS` with `input` written to it after `delay`, run to its end.
pub fn awale_reading_after(args: &[&str], input: &str, delay: Duration) -> Output {
    awale_reading_bytes_after(args, input.as_bytes(), delay)
}

/// `awale ARGS` reading `input`, which need not be text, run to its end.
pub fn awale_reading_bytes(args: &[&str], input: &[u8]) -> Output {
    awale_reading_bytes_after(args, input, Duration::ZERO)
}

fn awale_reading_bytes_after(args: &[&str], input: &[u8], delay: Duration) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the awale binary runs");
    std::thread::sleep(delay);
    let mut stdin = child.stdin.take().expect("a pipe to its input");
    stdin.write_all(input).expect("its input written");
    drop(stdin);
    child.wait_with_output().expect("the awale binary ends")
}

/// `awale ARGS` whose standard output nobody reads (`| head` gone before
/// it writes), run to its end: what it printed on its standard error.
pub fn awale_unread(args: &[&str]) -> Output {
    // The reading end is closed before the start: every write fails.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    command(args)
        .stdout(writer)
        .output()
        .expect("the awale binary runs")
}

/// What it printed on its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed on its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// All it printed: its standard output, then its standard error.
pub fn text(o: &Output) -> String {
    stdout(o) + &stderr(o)
}

/// A temporary folder, removed when the guard goes.
pub fn folder() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}
