//! The command line as a user runs it: real processes, real pipes.

mod common;

use common::{awale, awale_reading, awale_unread, serve_with, stderr, stdout};

#[test]
fn perft_prints_the_leaf_count_under_each_preset() {
    for preset in ["awale", "abapa"] {
        let o = awale(&["perft", "6", "--rules", preset]);
        assert!(o.status.success());
        assert_eq!(stdout(&o).trim(), "27332");
        assert!(stderr(&o).contains("leaves/s"));
    }
}

#[test]
fn perft_divide_lists_every_move() {
    let o = awale(&["perft", "3", "--divide"]);
    let out = stdout(&o);
    assert!(out.starts_with("A: "), "{out}");
    assert_eq!(out.lines().count(), 7);
    assert_eq!(out.lines().last(), Some("190"));
}

#[test]
fn perft_starts_with_the_side_the_rules_name() {
    let o = awale(&["perft", "1", "--divide", "--first", "north"]);
    let out = stdout(&o);
    assert!(out.starts_with("a: 1\nb: 1\n"), "{out}");
    assert_eq!(out.lines().last(), Some("6"), "{out}");
}

#[test]
fn show_draws_the_board_with_both_stores() {
    let o = awale(&["show", "0-0-0-0-1-1-1-0-0-0-0-0-20-25-S"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("20") && out.contains("25"), "{out}");
    assert!(out.contains("legal moves: E"), "{out}");
}

#[test]
fn bad_input_exits_with_2_and_names_the_problem() {
    let cases: &[(&[&str], &str)] = &[
        (&["show", "4-4-4"], "15 fields"),
        (&["show", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-Q"], "`Q`"),
        (&["show", "4-4-4-4-4-4-4-4-4-4-4-4-5-0-S"], "53 seeds"),
        (
            &["show", "4-4-4-4-4-4-4-4-4-4-4--4-0-0-S"],
            "field 12 is empty",
        ),
        (&["show", "4-4-4-4-4-4-4-4-4-4-4--4-0-0-S"], "negative"),
        (&["perft", "3", "--rules", "chess"], "chess"),
        (&["perft", "3", "--target", "99"], "target"),
        (&["perft", "3", "--grand-slam", "maybe"], "maybe"),
        (&["perft", "x"], "x"),
        (&["perft", "3", "--bogus"], "--bogus"),
        (&["play", "--side", "east"], "east"),
        // Beyond what the options advertise as their maximum.
        (&["uci", "--threads", "1000"], "1..=256"),
        (&["uci", "--hash", "70000"], "1..=65536"),
        (&["uci", "--threads", "0"], "1..=256"),
    ];
    for (args, expected) in cases {
        let o = awale(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn replay_json_prints_every_ply_and_the_end() {
    let o = awale_reading(&["replay", "--json"], "FfAa\n");
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[0],
        r#"{"game":0,"ply":0,"to_move":"S","board":[4,4,4,4,4,4,4,4,4,4,4,4],"stores":[0,0],"legal":["A","B","C","D","E","F"],"move":"F"}"#
    );
    assert_eq!(
        lines[2],
        r#"{"game":0,"ply":2,"to_move":"S","board":[5,5,5,5,4,0,5,5,5,5,4,0],"stores":[0,0],"legal":["A","B","C","D","E"],"move":"A"}"#
    );
    assert_eq!(
        lines[4],
        r#"{"game":0,"end":null,"board":[0,6,6,6,5,1,0,6,6,6,5,1],"stores":[0,0],"winner":null}"#
    );
}

/// What `awale replay --json` prints for `input`, which holds a game it
/// must report as wrong (exit code 1).
fn replay_json_failing(input: &str) -> String {
    let o = awale_reading(&["replay", "--json"], input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn replay_json_reports_an_illegal_move_and_goes_on() {
    let out = replay_json_failing("F F A\nF f\nFx\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with(r#"{"game":0,"ply":1,"error":"#),
        "{out}"
    );
    assert!(lines[2].starts_with(r#"{"game":1,"ply":0,"#), "{out}");
    assert!(lines[4].starts_with(r#"{"game":1,"end":null"#), "{out}");
    assert!(
        lines[5].starts_with(r#"{"game":2,"ply":0,"error":"#),
        "{out}"
    );
    assert_eq!(lines.len(), 6);
}

/// The last line of `awale replay --json` for `input`: the end of its
/// last game.
fn replay_json_end(input: &str) -> String {
    let o = awale_reading(&["replay", "--json"], input);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    stdout(&o).lines().last().unwrap_or_default().to_string()
}

#[test]
fn replay_reads_game_records_and_reports_the_winner() {
    let record = "[Variant \"awale\"]\n[FEN \"0-0-0-0-0-0-0-0-0-0-0-1-20-20-N\"]\n\n1... f *\n";
    assert_eq!(
        replay_json_end(record),
        r#"{"game":0,"end":"starvation","board":[1,0,0,0,0,0,0,0,0,0,0,0],"stores":[20,20],"winner":"S"}"#
    );
}

#[test]
fn replay_as_text_shows_plies_and_result() {
    let o = awale_reading(&["replay", "--rules", "abapa"], "F f\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("South plays F"), "{out}");
    assert!(out.contains("not finished, South to move"), "{out}");
}

#[test]
fn replay_checks_the_captures_a_record_writes() {
    // `f` captures nothing here: the record's `f+3` is wrong.
    let out = replay_json_failing("1. F f+3 2. A *\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[1].starts_with(r#"{"game":0,"ply":1,"error":"the record says f+3, but f captures 0"#),
        "{out}"
    );
}

#[test]
fn replay_ends_a_record_that_says_a_player_resigned() {
    let record = "[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. F f 1-0\n";
    let last = replay_json_end(record);
    assert!(
        last.starts_with(r#"{"game":0,"end":"resignation","#) && last.ends_with(r#""winner":"S"}"#),
        "{last}"
    );
}

#[test]
fn replay_letter_lines_may_have_comments_with_digits() {
    let o = awale_reading(&["replay", "--json"], "# game 1\nFfAa\n# game 2\nAa\n");
    assert!(o.status.success(), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains(r#"{"game":1,"end":null"#), "{out}");
}

/// A byte order mark that an editor wrote first is skipped, before
/// letters or a record.
#[test]
fn replay_skips_a_byte_order_mark_at_the_start() {
    assert_eq!(
        replay_json_end("\u{feff}FfAa\n"),
        r#"{"game":0,"end":null,"board":[0,6,6,6,5,1,0,6,6,6,5,1],"stores":[0,0],"winner":null}"#
    );
    let last = replay_json_end("\u{feff}[Variant \"awale\"]\n\n1. F f *\n");
    assert!(last.starts_with(r#"{"game":0,"end":null,"#), "{last}");
}

#[test]
fn a_broken_record_is_an_error_not_a_panic() {
    let o = awale_reading(&["replay", "--json"], "[Event \"x\n1. F *");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("bad game record: line 1"),
        "{}",
        stdout(&o)
    );
}

/// What `awale play` between two people in `lang` prints for `input`.
fn two_people(lang: &str, input: &str) -> String {
    let o = awale_reading(&["play", "--opponent", "human", "--lang", lang], input);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn terminal_play_takes_moves_and_rejects_bad_ones() {
    let out = two_people("en", "F\nF\nz\nf\nundo\nquit\n");
    assert!(out.contains("that hole belongs to South"), "{out}");
    assert!(out.contains("not a move"), "{out}");
    assert!(out.contains("North (a b c d e f) >"), "{out}");
}

#[test]
fn terminal_play_takes_a_line_that_is_not_utf8_as_one_more_unknown_word() {
    let o = common::awale_reading_bytes(
        &["play", "--opponent", "human", "--lang", "en"],
        b"F\n\xff\nf\n",
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("That is not a move"), "{out}");
    // The game went on: North played f after the byte.
    assert!(out.contains("South (A B C D E) >"), "{out}");
}

/// Without counting, a capture is said without its number, in a whole
/// sentence: the computer's (F takes a's 3) and the player's (f takes
/// A's 3).
#[test]
fn terminal_play_without_counting_says_captures_in_whole_sentences() {
    for (lang, computer, player) in [
        (
            "en",
            "The computer plays F and captures seeds.",
            "You capture seeds.",
        ),
        (
            "fr",
            "L'ordinateur joue F et prend des graines.",
            "Vous prenez des graines.",
        ),
    ] {
        let o = awale_reading(
            &[
                "play",
                "--computer",
                "greedy",
                "--no-count",
                "--side",
                "north",
                "--lang",
                lang,
                "--position",
                "2-1-0-0-0-1-2-0-0-0-0-1-20-21-S",
            ],
            "f\n",
        );
        let out = stdout(&o);
        assert!(out.contains(computer), "{lang}: {out}");
        assert!(out.contains(&format!("> {player}")), "{lang}: {out}");
    }
}

#[test]
fn terminal_play_against_the_computer_reaches_the_end() {
    // Feed a long list of all letters: the illegal ones are refused, the
    // legal ones played, until the game ends.
    let moves = "A\nB\nC\nD\nE\nF\n".repeat(200);
    let o = awale_reading(&["play", "--lang", "fr"], &moves);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Fin de la partie"), "{}", stdout(&o));
}

#[test]
fn terminal_play_words_the_end_in_english_with_english_punctuation() {
    let out = two_people("en", "resign\n");
    assert!(
        out.contains("Game over (resignation): North wins 48-0."),
        "{out}"
    );
    let out = two_people("fr", "abandon\n");
    // French typography: a no-break space before the colon.
    assert!(
        out.contains("Fin de la partie (abandon)\u{a0}: Nord gagne 48-0."),
        "{out}"
    );
}

#[test]
fn the_french_terminal_speaks_french_with_the_pages_words() {
    let out = two_people("fr", "F\nF\nz\nannuler\nrétablir\naide\nquitter\n");
    // The board's rows, the refusals and the prompt are in French.
    assert!(out.contains("Nord ") && out.contains("│  Sud"), "{out}");
    assert!(!out.contains("North") && !out.contains("South"), "{out}");
    assert!(
        out.contains("Coup F interdit\u{a0}: ce trou est à Sud."),
        "{out}"
    );
    assert!(out.contains("Ce n'est pas un coup"), "{out}");
    assert!(
        !out.contains("illegal") && !out.contains("not a move"),
        "{out}"
    );
    // Rétablir plays again the move taken back: North is to move again.
    assert!(!out.contains("Rien à rétablir"), "{out}");
    assert!(
        out.contains("annuler, rétablir, conseil, abandonner"),
        "{out}"
    );
    assert_eq!(out.matches("Nord (a b c d e f) >").count(), 5, "{out}");
}

/// The French terminal words a score in French (graines, a decimal
/// comma): the hint of `play` and every move of `analyze`.
#[test]
fn scores_are_worded_in_the_terminals_language() {
    let out = two_people("fr", "conseil\nquitter\n");
    let hint = out
        .lines()
        .find(|l| l.contains("Essayez"))
        .unwrap_or_else(|| panic!("no hint: {out}"));
    assert!(hint.contains("graine") && hint.contains(','), "{hint}");
    assert!(!hint.contains("seed") && !hint.contains('.'), "{hint}");
    let o = awale(&["analyze", "--depth", "2", "--db", "none", "--lang", "fr"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The six moves' lines: `A     +0,12 graine      A a`.
    let moves: Vec<&str> = out.lines().filter(|l| l.contains(" graine")).collect();
    assert_eq!(moves.len(), 6, "{out}");
    assert!(moves.iter().all(|l| l.contains(',')), "{out}");
    assert!(!out.contains("seeds"), "{out}");
    let o = awale(&["analyze", "--depth", "2", "--db", "none", "--lang", "en"]);
    assert_eq!(stdout(&o).matches(" seeds ").count(), 6, "{}", stdout(&o));
}

/// A public URL that links cannot be made from is refused at start,
/// before the games file is touched.
#[test]
fn serve_refuses_a_public_url_that_is_not_an_http_address() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.sqlite");
    for (url, why) in [
        ("awale.example.org", "cannot be read"),
        ("ftp://awale.example.org", "http:// or https://"),
        ("https://awale.example.org/?join=1", "no user, query"),
    ] {
        let o = serve_with(&data, &["--public-url", url]);
        assert!(!o.status.success(), "{url}");
        let err = stderr(&o);
        assert!(
            err.contains("--public-url") && err.contains(why),
            "{url}: {err}"
        );
        assert!(!err.contains("panicked"), "{url}: {err}");
        assert!(!data.exists(), "{url}: the games file was made");
    }
}

/// `backup` and `admin` act on a server's games file: one that is not
/// there (a typo in --data) is an error naming it, and is not made.
#[test]
fn backup_and_admin_refuse_a_games_file_that_is_not_there() {
    let dir = common::folder();
    let missing = dir.path().join("nothere").join("x.sqlite");
    let missing_arg = missing.to_str().unwrap();
    let copy = dir.path().join("copy.sqlite");
    let in_folder = dir.path().join("games.sqlite");
    let folder_arg = dir.path().to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["backup", "--data", missing_arg, copy.to_str().unwrap()],
        &["admin", "--data", missing_arg, "grant-moderator", "bob"],
        &["backup", "--data", folder_arg, copy.to_str().unwrap()],
        &["admin", "--data", folder_arg, "revoke-moderator", "bob"],
    ];
    for args in cases {
        let o = awale(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("no such games file"), "{args:?}: {err}");
        assert!(
            err.contains("x.sqlite") || err.contains("games.sqlite"),
            "{args:?}: {err}"
        );
        assert!(!stdout(&o).contains("copied"), "{args:?}");
    }
    assert!(!missing.exists() && !missing.parent().unwrap().exists());
    assert!(!in_folder.exists() && !copy.exists());
}

/// A reader that stops reading (`awale show ... | head -1`) ends every
/// command as an error does ("awale: Broken pipe", exit 2), never with a
/// panic's trace.
#[test]
fn a_closed_standard_output_ends_every_command_without_a_panic() {
    let dir = common::folder();
    let records = dir.path().join("games.ogn");
    let cases: &[&[&str]] = &[
        &["show", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"],
        &["perft", "3", "--divide"],
        &["analyze", "--depth", "1", "--db", "none"],
        &["play", "--opponent", "human"],
        &[
            "match",
            "depth=1",
            "depth=1",
            "--games",
            "2",
            "--records",
            records.to_str().unwrap(),
        ],
    ];
    for args in cases {
        let o = awale_unread(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("awale: Broken pipe"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The memory this machine can give now, in MiB (Linux), if known.
fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// A `--hash` the memory cannot hold is refused with a message and exit
/// 2 (as `uci --hash` is), by every command that searches.
#[test]
fn a_hash_the_memory_cannot_hold_is_refused_not_a_panic() {
    let dir = common::folder();
    let records = dir.path().join("games.ogn");
    let mut cases: Vec<Vec<&str>> = vec![
        vec![
            "analyze", "--hash", "99999999", "--depth", "2", "--db", "none",
        ],
        vec!["bench", "--hash", "99999999", "--depth", "1"],
        vec![
            "openings", "--hash", "99999999", "--plies", "1", "--depth", "1",
        ],
    ];
    // `hash=` of a match stops at 65536 MiB: refused where it does not fit.
    if available_mib().is_some_and(|mib| mib < 60_000) {
        cases.push(vec![
            "match",
            "depth=1,hash=65536",
            "depth=1",
            "--games",
            "2",
            "--records",
            records.to_str().unwrap(),
        ]);
    }
    for args in &cases {
        let o = awale(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("does not fit in memory"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A `--db` folder named that holds no database (missing: a typo; or
/// empty) is said on standard error; the analysis goes on without.
#[test]
fn analyze_says_when_the_db_folder_named_holds_no_database() {
    let dir = common::folder();
    let missing = dir.path().join("nothere");
    for (folder, why) in [
        (&missing, "the folder does not exist"),
        (
            &dir.path().to_path_buf(),
            "no endgame database for awale in it",
        ),
    ] {
        let folder = folder.to_str().unwrap();
        let o = awale(&["analyze", "--db", folder, "--depth", "2"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("--db {folder}: {why}")),
            "{folder}: {err}"
        );
        assert_eq!(stdout(&o).matches(" seeds ").count(), 6, "{}", stdout(&o));
    }
}

/// `store migrate` names its own flags when the address is not
/// PostgreSQL's (it has no --store, no --data), before it opens the
/// games file.
#[test]
fn store_migrate_names_its_own_flags() {
    let dir = common::folder();
    let file = dir.path().join("games.sqlite");
    std::fs::write(&file, b"").unwrap();
    let from = file.to_str().unwrap();
    let o = awale(&["store", "migrate", "--from", from, "--to", "mysql://u@h/d"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--to `mysql://u@h/d`"), "{err}");
    assert!(err.contains("given with --from"), "{err}");
    assert!(!err.contains("--store") && !err.contains("--data"), "{err}");
    assert_eq!(
        std::fs::metadata(&file).unwrap().len(),
        0,
        "the file was opened"
    );
}
