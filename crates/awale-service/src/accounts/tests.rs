//! The tests of names, passwords and recovery codes.

use super::passwords::COMMON;
use super::*;

#[test]
fn usernames_take_3_to_20_letters_digits_underscores_and_dashes() {
    for good in [
        "Ama",
        "kofi_99",
        "Yaw-Mensah",
        "abc",
        "a2345678901234567890",
    ] {
        assert!(parse_username(good).is_ok(), "{good}");
    }
    for (bad, reason) in [
        ("ab", "length"),
        ("a23456789012345678901", "length"),
        ("Ama Serwa", "characters"),
        ("Amé", "characters"),
        ("<b>", "characters"),
        ("Admin", "reserved"),
        ("mod_erator", "reserved"),
        ("GUEST", "reserved"),
    ] {
        let e = parse_username(bad).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.reason),
            ("bad_username", Some(reason)),
            "{bad}"
        );
    }
}

#[test]
fn a_username_is_one_name_in_any_case() {
    assert_eq!(
        parse_username("AmA").unwrap().1,
        parse_username("ama").unwrap().1
    );
    assert_eq!(parse_username("AmA").unwrap().0, "AmA");
}

#[test]
fn short_common_and_username_passwords_are_refused() {
    for (bad, reason) in [
        ("short", "short"),
        ("Password1", "common"),
        ("AZERTYUIOP", "common"),
        ("motdepasse", "common"),
        ("kofi_2026", "username"),
    ] {
        let e = check_password(bad, "Kofi_2026").unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.reason),
            ("weak_password", Some(reason)),
            "{bad}"
        );
    }
    assert_eq!(
        check_password(&"x".repeat(300), "kofi").unwrap_err().reason,
        Some("long")
    );
    check_password("seeds in the fourth hole", "kofi").unwrap();
}

#[test]
fn the_common_list_holds_only_passwords_the_length_rule_lets_pass() {
    assert!(COMMON.len() > 200);
    for p in COMMON.iter() {
        assert!(p.chars().count() >= MIN_PASSWORD_CHARS, "{p}");
        assert_eq!(p.to_lowercase(), *p, "{p}");
    }
}

#[test]
fn recovery_codes_read_back_whatever_their_case_and_dashes() {
    let code = new_recovery_code().unwrap();
    assert_eq!(code.len(), 14);
    assert_eq!(code.matches('-').count(), 2);
    let typed = code.to_uppercase().replace('-', " ");
    assert_eq!(normal_code(&typed), normal_code(&code));
    assert_eq!(normal_code("O1IL"), "0111");
    assert_ne!(new_recovery_code().unwrap(), code);
}
