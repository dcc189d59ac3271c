//! Secrets the server hands out (a player's cookie, a hand-over link) and
//! what it keeps of them: their SHA-256 only, so a stolen games file gives
//! no one a seat. Also the names that must not be guessed: a game's public
//! id and the key of its invitation.

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

/// HMAC-SHA-256 of `message` under `key` (RFC 2104), written over `sha2`
/// so no second digest crate is needed.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// The server's key for guests' secrets: a guest is a player only when its
/// secret was made by the server, that is, carries this key's tag. Kept in
/// the data folder (`guest.key`), so guests outlive a restart.
#[derive(Clone)]
pub struct GuestKey([u8; 32]);

impl std::fmt::Debug for GuestKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GuestKey(..)")
    }
}

/// Hex digits of a guest secret's random part (128 bits) and of its tag.
const GUEST_HALF: usize = 32;

impl GuestKey {
    /// A new key from the system's randomness.
    ///
    /// # Errors
    ///
    /// When the system gives no random bytes.
    pub fn new() -> Result<GuestKey, getrandom::Error> {
        Ok(GuestKey(random_bytes()?))
    }

    /// The key of these bytes (as kept in a file).
    pub fn from_bytes(bytes: [u8; 32]) -> GuestKey {
        GuestKey(bytes)
    }

    /// The key's bytes (to keep it in a file).
    pub fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// A new guest secret: 128 random bits, then the first 128 bits of
    /// their HMAC under the key, 64 hex digits in all (the shape of the
    /// secrets made before, so cookies keep their form).
    ///
    /// # Errors
    ///
    /// When the system gives no random bytes.
    pub fn issue(&self) -> Result<String, getrandom::Error> {
        let nonce = hex(&random_bytes::<16>()?);
        Ok(self.sign(&nonce))
    }

    /// The secret made of `nonce` (32 hex digits) and its tag.
    pub fn sign(&self, nonce: &str) -> String {
        let tag = hmac_sha256(&self.0, format!("awale guest {nonce}").as_bytes());
        format!("{nonce}{}", &hex(&tag)[..GUEST_HALF])
    }

    /// Whether `secret` is one this key issued (compared in a time that
    /// does not tell how much of the tag matched).
    pub fn issued(&self, secret: &str) -> bool {
        let Some(nonce) = secret.get(..GUEST_HALF) else {
            return false;
        };
        secret.len() == 2 * GUEST_HALF
            && nonce.bytes().all(|b| b.is_ascii_hexdigit())
            && same_secret(&self.sign(&nonce.to_ascii_lowercase()), secret)
    }
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

/// The letters of public ids and invitation keys: base62, safe in a URL.
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Characters of a game's public id: 62^10, about 8 * 10^17 names.
pub const GAME_ID_CHARS: usize = 10;
/// Characters of an invitation's key: 62^22, about 2^131.
pub const INVITE_CHARS: usize = 22;

/// `n` characters of base62 from the system's randomness (each from a
/// byte below 248, so every letter is equally likely).
fn base62(n: usize) -> Result<String, getrandom::Error> {
    let mut out = String::with_capacity(n);
    let mut bytes = [0u8; 32];
    while out.len() < n {
        getrandom::fill(&mut bytes)?;
        for &b in &bytes {
            if b < 248 && out.len() < n {
                out.push(char::from(BASE62[usize::from(b % 62)]));
            }
        }
    }
    Ok(out)
}

/// A new public id for a game: ten characters of base62 from the system's
/// randomness, with at least one letter (so it is never read as the number
/// of an old link).
///
/// # Errors
///
/// When the system gives no random bytes.
pub fn new_game_id() -> Result<String, getrandom::Error> {
    loop {
        let id = base62(GAME_ID_CHARS)?;
        if !is_numbered(&id) {
            return Ok(id);
        }
    }
}

/// A new key for an invitation link (the secret without which a stranger
/// cannot take a private game's free seat).
///
/// # Errors
///
/// When the system gives no random bytes.
pub fn new_invite_key() -> Result<String, getrandom::Error> {
    base62(INVITE_CHARS)
}

/// Whether `text` is the shape of a game's public id: 1 to 32 ASCII
/// letters and digits (the ids of games stored before public ids, given in
/// the migration, are longer than new ones).
pub fn is_game_id(text: &str) -> bool {
    (1..=32).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether `text` is an old link's number (digits only): games were once
/// named by their number in the store.
pub fn is_numbered(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Whether two secrets are equal, in a time that does not tell how much
/// of them matched.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_is_rfc_4231s() {
        // RFC 4231, test case 2.
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_guest_secret_is_one_the_key_issued() {
        let key = GuestKey::new().unwrap();
        let secret = key.issue().unwrap();
        assert_eq!(secret.len(), 64);
        assert!(key.issued(&secret));
        assert!(!GuestKey::new().unwrap().issued(&secret), "another key's");
        assert!(!key.issued(&"ab".repeat(32)), "made up");
        assert!(!key.issued(&new_secret().unwrap()), "random");
        assert!(!key.issued(&secret[..63]));
        assert!(!key.issued("é"));
        let mut forged = secret.clone().into_bytes();
        forged[63] = if forged[63] == b'0' { b'1' } else { b'0' };
        assert!(!key.issued(std::str::from_utf8(&forged).unwrap()));
    }

    #[test]
    fn public_ids_are_base62_of_ten_and_never_a_number() {
        let ids: Vec<String> = (0..2000).map(|_| new_game_id().unwrap()).collect();
        for id in &ids {
            assert_eq!(id.len(), GAME_ID_CHARS);
            assert!(is_game_id(id), "{id}");
            assert!(!is_numbered(id), "{id}");
        }
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        // Every letter of the alphabet comes up (a biased draw would miss
        // some in 20,000 characters only by a tiny chance).
        let seen: std::collections::HashSet<char> = ids.iter().flat_map(|i| i.chars()).collect();
        assert_eq!(seen.len(), 62);
    }

    #[test]
    fn invite_keys_are_long_and_compared_whole() {
        let key = new_invite_key().unwrap();
        assert_eq!(key.len(), INVITE_CHARS);
        assert!(same_secret(&key, &key.clone()));
        assert!(!same_secret(&key, &key[1..]));
        let mut other = key.clone().into_bytes();
        other[21] = if other[21] == b'a' { b'b' } else { b'a' };
        assert!(!same_secret(&key, std::str::from_utf8(&other).unwrap()));
    }
}
