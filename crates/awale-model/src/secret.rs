//! Secrets the server hands out (a player's cookie, a hand-over link) and
//! what it keeps of them: their SHA-256 only, so a stolen games file gives
//! no one a seat.

use sha2::{Digest, Sha256};

use crate::game::PlayerId;

/// A new secret: 256 bits from the system, in hex.
///
/// # Errors
///
/// When the system gives no random bytes.
pub fn new_secret() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// What is kept of a secret: its SHA-256, in hex.
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// The player a secret stands for: its digest.
pub fn player_id(secret: &str) -> PlayerId {
    PlayerId(digest(secret))
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `N` random bytes from the system (salts, recovery codes).
///
/// # Errors
///
/// When the system gives no random bytes.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}
