//! Usernames and guests' names: their form, the reserved names and the
//! names that look like them or like an account's.

use super::*;
use awale_model::Code;

/// Names nobody may take (compared folded, with `-` and `_` dropped).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "administrateur",
    "moderator",
    "moderateur",
    "mod",
    "modo",
    "root",
    "system",
    "systeme",
    "server",
    "serveur",
    "awale",
    "oware",
    "support",
    "help",
    "aide",
    "staff",
    "official",
    "officiel",
    "guest",
    "invite",
    "anonymous",
    "anonyme",
    "deleted",
    "supprime",
    "computer",
    "ordinateur",
    "null",
    "undefined",
    "none",
    "api",
    "me",
    "moi",
    "account",
    "compte",
    "login",
    "logout",
    "signup",
    "settings",
    "south",
    "north",
    "sud",
    "nord",
    // The page's own words, which a name must not pass for.
    "deletedplayer",
    "joueursupprime",
    "you",
    "vous",
    "toi",
    "opponent",
    "adversaire",
    "spectator",
    "spectateur",
    "moderation",
];

/// A username checked: as chosen, and folded (the unique key).
///
/// # Errors
///
/// `bad_username`, with the reason: `length` (3 to 20), `characters`
/// (letters, digits, `_`, `-`), `reserved`.
pub fn parse_username(name: &str) -> Result<(String, String), Error> {
    let name = name.trim();
    let length = name.chars().count();
    let (min, max) = USERNAME_CHARS;
    if length < min || length > max {
        return Err(Error::invalid(
            Code::BadUsername,
            format!("a username takes {min} to {max} characters"),
        )
        .because("length")
        .with("min", min)
        .with("max", max));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::invalid(
            Code::BadUsername,
            "a username takes letters (a to z), digits, `_` and `-` only",
        )
        .because("characters"));
    }
    let key = name.to_ascii_lowercase();
    if is_reserved(&key) {
        return Err(Error::invalid(
            Code::BadUsername,
            format!("`{name}` is kept for the server"),
        )
        .because("reserved"));
    }
    Ok((name.to_string(), key))
}

/// Whether a folded name is kept for the server (compared with `-`, `_`,
/// spaces and accents dropped), or passes for the page's name of a guest
/// (`Guest 1234`, `Invité 1234`).
fn is_reserved(key: &str) -> bool {
    let bare = bare(key);
    let numbered = ["guest", "invite", "invité"].iter().any(|p| {
        bare.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    });
    numbered || RESERVED.contains(&bare.as_str())
}

/// Whether a folded name is the page's name of guest `number` (`Guest
/// 8694`, `Invité 8694`): a guest may sit under its own.
fn is_default_guest_name(key: &str, number: u32) -> bool {
    let bare = bare(key);
    ["guest", "invite", "invité"]
        .iter()
        .any(|p| bare.strip_prefix(p) == Some(number.to_string().as_str()))
}

/// A name without `-`, `_`, spaces and accents (combining marks).
fn bare(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '\u{300}'..='\u{36f}'))
        .collect()
}

/// The reserved names' skeletons, bare.
static RESERVED_SKELETONS: std::sync::LazyLock<std::collections::HashSet<String>> =
    std::sync::LazyLock::new(|| {
        // In lower and upper case: `I` passes for `l`, `i` does not.
        RESERVED
            .iter()
            .flat_map(|r| [r.to_string(), r.to_uppercase()])
            .flat_map(|r| name_skeletons(&r))
            .map(|k| bare(&k))
            .collect()
    });

/// Whether a name looks like a reserved one (`Аdmin`, `ADMlN`,
/// `Deleted player`): a skeleton of it is a reserved name's.
pub fn looks_reserved(name: &str) -> bool {
    name_skeletons(name)
        .iter()
        .any(|k| RESERVED_SKELETONS.contains(&bare(k)))
}

/// Refuses a name that mixes scripts (Latin letters with Cyrillic or
/// Greek ones: `аlice`, `Аdmin`), as UTS #39's single-script rule says;
/// digits and punctuation belong to every script.
///
/// # Errors
///
/// `bad_name`, the reason `mixed_scripts`.
pub fn check_single_script(name: &str) -> Result<(), Error> {
    use unicode_security::MixedScript;
    if name.is_single_script() {
        Ok(())
    } else {
        Err(Error::invalid(
            Code::BadName,
            "a name takes the letters of one script (not Latin and Cyrillic mixed, say)",
        )
        .because("mixed_scripts"))
    }
}

impl Accounts {
    /// Keeps the name skeletons of the accounts made before they were
    /// kept (a store of an earlier version), a few hundred at a time:
    /// how many. Run once at start; sign-up also looks names up by their
    /// key meanwhile.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn index_names(&self) -> Result<usize, Error> {
        let mut done = 0;
        loop {
            let batch = self.store.accounts_without_skeletons(500).await?;
            if batch.is_empty() {
                return Ok(done);
            }
            for (id, username) in batch {
                let mut skeletons = name_skeletons(&username);
                if skeletons.is_empty() {
                    // A name of no skeleton is kept under itself, so that
                    // it is not read again.
                    skeletons.push(username.to_lowercase());
                }
                self.store.set_skeletons(id, skeletons).await?;
                done += 1;
            }
        }
    }

    /// Refuses a guest's nickname (checked by `parse_name`) that would
    /// pass for an account or for the server: one that, folded as sign-up
    /// folds usernames, is a reserved name or the username of an account,
    /// open, closed or deleted (a deleted name is never given again).
    ///
    /// # Errors
    ///
    /// `name_taken` (conflict), the reason `reserved` or `account`; a
    /// storage failure.
    pub async fn check_guest_name(&self, name: &str, own: Option<u32>) -> Result<(), Error> {
        let key = account_key(name);
        if own.is_some_and(|n| is_default_guest_name(&key, n)) {
            // The page's own name for this guest (`Guest 8694`), which
            // passes for nobody else.
            return Ok(());
        }
        let refused = |reason| {
            Err(Error::conflict(
                Code::NameTaken,
                "this nickname is an account's or the server's: choose another",
            )
            .because(reason))
        };
        check_single_script(name)?;
        let alike = name_skeletons(name);
        if is_reserved(&key) || looks_reserved(name) {
            return refused("reserved");
        }
        // Only a name a username could be is looked up: the name, and
        // each of its skeletons (`ａｌｉｃｅ` is looked up as `alice`).
        if !self
            .store
            .accounts_by_skeleton(alike.clone())
            .await?
            .is_empty()
        {
            return refused("account");
        }
        let mut keys = vec![key];
        keys.extend(alike);
        keys.dedup();
        for key in keys {
            if parse_username(&key).is_ok() && self.store.account_by_key(key).await?.is_some() {
                return refused("account");
            }
        }
        Ok(())
    }
}
