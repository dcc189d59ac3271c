//! The exports the page's worker calls, over bytes in the module's memory,
//! and the two things the host gives: its clock and its randomness.
//!
//! A call: `input(len)` gives the address of a buffer of `len` bytes, the
//! worker writes the request's UTF-8 JSON there, `call()` answers and
//! returns the answer's length, `output()` its address. The module's
//! imports (`env.now_ms`, `env.random_fill`) are `performance.now` and
//! `crypto.getRandomValues` in `engine-worker.js`.

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

#[allow(unsafe_code)]
mod imports {
    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds, monotonic (`performance.now()`).
        pub fn now_ms() -> f64;
        /// Fills `len` bytes at `ptr` with random bytes
        /// (`crypto.getRandomValues`).
        pub fn random_fill(ptr: *mut u8, len: usize);
    }
}

fn now_ms() -> f64 {
    // The host function reads no memory of ours and returns a number.
    #[allow(unsafe_code)]
    unsafe {
        imports::now_ms()
    }
}

/// The address of a buffer of `len` bytes for the next request.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut u8 {
    awale_engine::clock::set_clock(now_ms);
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Answers the request written in the input buffer; returns the answer's
/// length in bytes (at [`output`]).
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn call() -> usize {
    let request = INPUT.with(|input| String::from_utf8_lossy(&input.borrow()).into_owned());
    let answer = crate::answer(&request);
    OUTPUT.with(|output| {
        let mut output = output.borrow_mut();
        *output = answer.into_bytes();
        output.len()
    })
}

/// The address of the last answer.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with(|output| output.borrow().as_ptr())
}

/// getrandom's custom backend (turned on for this target in
/// `.cargo/config.toml`): the page's `crypto.getRandomValues`.
///
/// # Safety
///
/// getrandom calls it with `len` writable bytes at `dest`.
#[allow(unsafe_code)]
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    // The host writes exactly `len` bytes at `dest`, which getrandom gave.
    unsafe { imports::random_fill(dest, len) };
    Ok(())
}
