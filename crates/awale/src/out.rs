//! The commands' standard output. `println!` panics when the reader has
//! gone (`awale show ... | head -1`); `outln!` and `out!` write through
//! one function instead, which ends the program as any error does when
//! the write fails: "awale: Broken pipe" on standard error, exit code 2,
//! no trace.

use std::fmt;
use std::io::Write;

/// Writes `args` to standard output; on a failed write (the reader gone,
/// a full disk), says so and exits with 2 at once: whatever the command
/// was doing has no one left to tell.
pub(crate) fn write(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        drop(out);
        eprintln!("awale: {e}");
        std::process::exit(2);
    }
}

/// `println!` to standard output without the panic: see [`write`].
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` to standard output without the panic: see [`write`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}
