//! The tests of the protocol: lines in, lines out.

use super::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::Mutex;
use std::time::Instant;

/// A protocol whose output lines are collected for the test to read.
struct Harness {
    protocol: Protocol,
    lines: Arc<Mutex<Vec<String>>>,
    read: usize,
}

impl Harness {
    fn new() -> Harness {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let output: Output = Arc::new(move |line: &str| {
            sink.lock().unwrap().push(line.to_string());
        });
        Harness {
            protocol: Protocol::new(output),
            lines,
            read: 0,
        }
    }

    fn send(&mut self, line: &str) -> Flow {
        self.protocol.handle_line(line)
    }

    /// Sends `position` and `go`, and returns every line up to
    /// `bestmove`.
    fn search(&mut self, position: &str, go: &str) -> Vec<String> {
        self.send(position);
        self.send(go);
        self.wait_for("bestmove")
    }

    /// Sends `position` and `go`, and checks that no `bestmove` comes
    /// within `wait`.
    fn search_holds(&mut self, position: &str, go: &str, wait: Duration) {
        self.send(position);
        self.send(go);
        std::thread::sleep(wait);
        let lines = self.take();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
    }

    /// Lines written since the last call.
    fn take(&mut self) -> Vec<String> {
        let lines = self.lines.lock().unwrap();
        let new = lines[self.read..].to_vec();
        self.read = lines.len();
        new
    }

    /// Waits (up to 20 s) for a line starting with `prefix`, and returns
    /// every line up to it.
    fn wait_for(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        loop {
            for line in self.take() {
                let found = line.starts_with(prefix);
                seen.push(line);
                if found {
                    return seen;
                }
            }
            assert!(Instant::now() < deadline, "no `{prefix}` in {seen:?}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[test]
fn uci_lists_id_options_then_uciok() {
    let mut h = Harness::new();
    h.send("uci");
    let lines = h.take();
    assert!(lines[0].starts_with("id name Awale"));
    assert!(lines[1].starts_with("id author"));
    for option in [
        "Hash",
        "Threads",
        "Level",
        "Rules",
        "GrandSlam",
        "Repetition",
        "Target",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} missing from {lines:?}"
        );
    }
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
}

#[test]
fn isready_answers_readyok() {
    let mut h = Harness::new();
    h.send("isready");
    assert_eq!(h.take(), ["readyok"]);
}

#[test]
fn go_depth_reports_info_then_a_legal_bestmove() {
    let mut h = Harness::new();
    let lines = h.search("position startpos moves FfAa", "go depth 3");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 3 "))
        .expect("an info line for depth 3");
    for word in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(word), "{info}");
    }
    let best = lines.last().unwrap();
    let letter = best.split_whitespace().nth(1).unwrap();
    let game = PositionCommand::parse("startpos moves FfAa".split_whitespace())
        .unwrap()
        .game(Rules::AWALE)
        .unwrap();
    let m: Move = letter.parse().unwrap();
    assert!(game.legal_moves().contains(&m), "{best}");
}

#[test]
fn moves_with_spaces_and_without_give_the_same_position() {
    let joined = PositionCommand::parse("startpos moves FfAa".split_whitespace()).unwrap();
    let spaced = PositionCommand::parse("startpos moves F f A a".split_whitespace()).unwrap();
    assert_eq!(joined, spaced);
    let fen = PositionCommand::parse(
        "fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves F f A a".split_whitespace(),
    )
    .unwrap();
    assert_eq!(
        fen.game(Rules::AWALE).unwrap().position(),
        joined.game(Rules::AWALE).unwrap().position()
    );
}

#[test]
fn startpos_with_north_first_lets_north_start() {
    let p = PositionCommand::parse("startpos moves fF".split_whitespace()).unwrap();
    assert_eq!(p.start.to_move(), Side::North);
    assert_eq!(p.game(Rules::AWALE).unwrap().plies().len(), 2);
}

#[test]
fn position_command_prints_back_as_it_reads() {
    for text in [
        "position startpos",
        "position startpos moves FfAa",
        "position fen 0-0-0-0-1-1-1-0-0-0-0-0-20-25-S",
        "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves fA",
    ] {
        let words = text.split_whitespace().skip(1);
        assert_eq!(PositionCommand::parse(words).unwrap().to_string(), text);
    }
}

#[test]
fn go_prints_back_as_it_reads() {
    for text in [
        "go depth 7",
        "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
        "go ponder wtime 1000 btime 900",
        "go nodes 5000 movetime 100",
        "go infinite",
    ] {
        assert_eq!(text.parse::<Go>().unwrap().to_string(), text);
    }
}

#[test]
fn south_plays_with_white_clock() {
    let go: Go = "go wtime 1000 btime 2000 winc 10 binc 20".parse().unwrap();
    let south = go.limits(Side::South).clock.unwrap();
    assert_eq!(south.remaining, Duration::from_millis(1000));
    assert_eq!(south.increment, Duration::from_millis(10));
    let north = go.limits(Side::North).clock.unwrap();
    assert_eq!(north.remaining, Duration::from_millis(2000));
    assert_eq!(north.increment, Duration::from_millis(20));
    assert!(!go.limits(Side::South).infinite);
}

#[test]
fn game_over_answers_bestmove_0000() {
    let mut h = Harness::new();
    // North's row is empty and no South move can feed it.
    let lines = h.search("position fen 1-0-0-0-0-0-0-0-0-0-0-0-23-24-S", "go depth 5");
    assert_eq!(lines, ["bestmove 0000"]);
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut h = Harness::new();
    h.search_holds(
        "position startpos",
        "go infinite",
        Duration::from_millis(50),
    );
    h.send("isready");
    let before = h.take();
    assert!(before.contains(&"readyok".to_string()), "{before:?}");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")));
    h.send("stop");
    // `stop` waits for the search: the bestmove is out when it returns.
    let after = h.take();
    assert!(
        after.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{after:?}"
    );
    assert!(!h.protocol.is_searching());
}

#[test]
fn infinite_search_holds_bestmove_until_stop_even_when_decided() {
    let mut h = Harness::new();
    // One legal move: the search ends at once, yet must wait for `stop`.
    let position = "position fen 0-0-0-0-0-1-0-0-0-0-0-0-23-24-S";
    h.search_holds(position, "go infinite", Duration::from_millis(100));
    h.send("stop");
    assert_eq!(h.take().last().map(String::as_str), Some("bestmove F"));
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let mut h = Harness::new();
    let wait = Duration::from_millis(100);
    h.search_holds("position startpos moves Ff", "go ponder movetime 50", wait);
    h.send("ponderhit");
    assert_one_bestmove(&h.wait_for("bestmove"));
}

#[test]
fn stop_while_pondering_answers_once() {
    let mut h = Harness::new();
    h.send("position startpos moves F");
    h.send("go ponder wtime 1000 btime 1000");
    h.send("stop");
    assert_one_bestmove(&h.take());
}

fn assert_one_bestmove(lines: &[String]) {
    let count = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(count, 1, "{lines:?}");
}

#[test]
fn setoption_changes_the_rules() {
    let mut h = Harness::new();
    h.send("setoption name Rules value abapa");
    assert_eq!(h.protocol.rules, Rules::ABAPA);
    h.send("setoption name GrandSlam value forbidden");
    h.send("setoption name Target value 0");
    h.send("setoption name Repetition value nobody");
    assert_eq!(h.protocol.rules, Rules::AWALE);
    h.send("setoption name Target value 20");
    assert_eq!(h.protocol.rules.target, Some(20));
    h.send("setoption name rules value awale,target=30");
    assert_eq!(h.protocol.rules.target, Some(30));
    assert!(h.take().is_empty());
}

#[test]
fn rules_decide_which_moves_are_legal() {
    // South to play: E or the grand slam F, which captures North's only
    // seeds; forbidden under awale, legal and capturing nothing in abapa.
    let p =
        PositionCommand::parse("fen 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S moves F".split_whitespace())
            .unwrap();
    assert!(p.game(Rules::AWALE).is_err());
    assert!(p.game(Rules::ABAPA).is_ok());
}

#[test]
fn level_option_plays_a_legal_move() {
    let mut h = Harness::new();
    h.send("setoption name Level value 1");
    assert!(h.protocol.level.is_some());
    let lines = h.search("position startpos moves F", "go movetime 100");
    let letter = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(
        letter.chars().all(|c| ('a'..='f').contains(&c)),
        "{lines:?}"
    );
    h.send("setoption name Level value 0");
    assert!(h.protocol.level.is_none());
}

#[test]
fn bad_input_is_answered_with_info_string() {
    let mut h = Harness::new();
    for line in [
        "hello",
        "position",
        "position fen",
        "position fen 4-4-4",
        "position fen 9-9-9",
        "position startpos moves FxA",
        "position startpos moves FQ",
        "position startpos moves FF",
        "position startpos FfAa",
        "setoption",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value 100000",
        "setoption name Level value 99",
        "setoption name Level value -3",
        "setoption name Rules value chess",
        "setoption name Target value 49",
        "setoption name Nonsense value 1",
        "ponderhit",
    ] {
        assert_eq!(h.send(line), Flow::Continue);
        let lines = h.take();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string "),
            "{line}: {lines:?}"
        );
    }
    // The last `position` was refused: no move is given for another
    // position.
    assert!(h.protocol.position.is_err());
    h.send("go depth 3");
    let lines = h.wait_for("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    assert!(lines[0].starts_with("info string no position"), "{lines:?}");
}

#[test]
fn a_grand_slam_refused_by_the_rules_set_is_answered_under_the_rules_that_allow_it() {
    // Aualé's sequence after a human grand slam, the engine told to play
    // `awale` where the slam is illegal: the position is answered under
    // `abapa`, with North's move (never `bestmove 0000`, which Aualé
    // cannot read, nor a South move of the position before).
    let mut h = Harness::new();
    h.send("setoption name Rules value awale");
    h.search("position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S", "go depth 4");
    h.send("position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S moves F");
    assert!(h.take().is_empty());
    h.send("go depth 4");
    let lines = h.wait_for("bestmove");
    assert!(
        lines[0].starts_with("info string position refused under awale: move 1 (F)")
            && lines[0].ends_with("answered under abapa, where it can be played"),
        "{lines:?}"
    );
    let letter = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(('a'..='f').any(|c| letter.starts_with(c)), "{lines:?}");
    // The rules in force are unchanged.
    assert_eq!(h.protocol.rules, Rules::AWALE);
}

#[test]
fn a_move_no_rules_allow_is_refused_and_answered_without_a_move() {
    let mut h = Harness::new();
    h.search("position startpos", "go depth 2");
    // South plays twice in a row: no rules allow it.
    h.send("position startpos moves FF");
    assert!(h.take()[0].starts_with("info string position not set"));
    h.send("go depth 2");
    assert_eq!(
        h.wait_for("bestmove").last().map(String::as_str),
        Some("bestmove 0000")
    );
}

#[test]
fn the_rules_without_setoption_are_abapa_and_uci_says_so() {
    let mut h = Harness::new();
    assert_eq!(h.protocol.rules, Rules::ABAPA);
    h.send("uci");
    let lines = h.take();
    assert_eq!(
        lines[2],
        "info string rules abapa: tournament Oware (Abapa); \
         `setoption name Rules value awale` or `abapa` changes them"
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name Rules type combo default abapa var awale var abapa"));
    // The grand slam is legal, capturing nothing.
    let lines = h.search(
        "position fen 1-0-0-0-0-2-1-1-0-0-0-0-21-22-S moves F",
        "go depth 4",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn set_rules_are_the_defaults_uci_lists() {
    let mut h = Harness::new();
    h.protocol.set_rules(Rules::AWALE);
    h.send("uci");
    let lines = h.take();
    for expected in [
        "info string rules awale: Awale, grand slam forbidden; \
         `setoption name Rules value awale` or `abapa` changes them",
        "option name Rules type combo default awale var awale var abapa",
        "option name GrandSlam type combo default forbidden var forbidden var no_capture",
        "option name Repetition type combo default nobody var nobody var own_row",
        "option name Target type spin default 0 min 0 max 48",
        "option name OwnBook type check default true",
        "option name MateScores type check default false",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
}

#[test]
fn own_book_takes_true_or_false() {
    let mut h = Harness::new();
    h.send("setoption name OwnBook value false");
    assert!(!h.protocol.own_book);
    h.send("setoption name OwnBook value true");
    assert!(h.protocol.own_book);
    assert!(h.take().is_empty());
    h.send("setoption name OwnBook value maybe");
    assert!(h.take()[0].starts_with("info string"));
}

fn moves(letters: &str) -> Vec<Move> {
    parse_moves(letters).unwrap()
}

#[test]
fn the_pv_is_one_word_and_heuristic_scores_are_cp() {
    let game = Game::new(Rules::ABAPA);
    let info = SearchInfo {
        depth: 3,
        seldepth: 5,
        score: Score::cp(-45),
        nodes: 100,
        time: Duration::from_millis(2),
        pv: moves("FfA"),
        hashfull: 0,
    };
    let line = info_line(&info, &game, DecidedScores::Margin);
    assert!(
        line.ends_with(" score cp -45 nodes 100 nps 50000 time 2 pv FfA"),
        "{line}"
    );
}

#[test]
fn a_decided_score_is_the_final_margin_in_cp_or_mate_when_asked() {
    // North plays its last seed into South's row; South cannot feed
    // North back: the game ends, South takes its seed, 23 to 25.
    let start: Position = "0-0-0-0-0-0-0-0-0-0-0-1-22-25-N".parse().unwrap();
    let game = Game::from_position(Rules::AWALE, start);
    assert_eq!(
        score_words(Score::win_in(1), &game, &moves("f"), DecidedScores::Margin),
        "cp 200"
    );
    // A line cut short: the lead no play can take away.
    let won: Position = "0-0-0-0-0-0-1-0-0-0-0-0-30-17-N".parse().unwrap();
    let game = Game::from_position(Rules::AWALE, won);
    for (score, asked, words) in [
        // North to move, 17 + 1 against 30: lost by at least 12 seeds.
        (Score::loss_in(2), DecidedScores::Margin, "cp -1200"),
        (Score::loss_in(0), DecidedScores::Margin, "cp -1200"),
        // An oracle's proof carries its margin.
        (Score::proven(-3), DecidedScores::Margin, "cp -300"),
        (Score::proven(6), DecidedScores::Mate, "cp 600"),
        // `MateScores`: the side to move's moves to the end.
        (Score::win_in(7), DecidedScores::Mate, "mate 4"),
        (Score::loss_in(4), DecidedScores::Mate, "mate -2"),
        // A loss in an odd number of plies ends on the side's own move.
        (Score::loss_in(3), DecidedScores::Mate, "mate -2"),
        (Score::loss_in(1), DecidedScores::Mate, "mate -1"),
        (Score::win_in(1), DecidedScores::Mate, "mate 1"),
        // Over already: no `mate 0`, which would not say who won.
        (Score::loss_in(0), DecidedScores::Mate, "cp -1200"),
    ] {
        assert_eq!(score_words(score, &game, &[], asked), words, "{score:?}");
    }
}

#[test]
fn mate_scores_is_an_option() {
    let mut h = Harness::new();
    h.send("setoption name MateScores value true");
    assert_eq!(h.protocol.decided, DecidedScores::Mate);
    h.send("setoption name MateScores value false");
    assert_eq!(h.protocol.decided, DecidedScores::Margin);
    assert!(h.take().is_empty());
    h.send("setoption name MateScores value 1");
    assert!(h.take()[0].starts_with("info string option MateScores"));
}

#[test]
fn a_line_too_long_is_skipped_without_being_kept() {
    let long = vec![b'x'; 3 * MAX_LINE_BYTES];
    let mut input = Vec::new();
    input.extend_from_slice(b"isready\n");
    input.extend_from_slice(&long);
    input.extend_from_slice(b"\nuci\nlast");
    let mut reader = io::BufReader::with_capacity(4096, &input[..]);
    let mut buffer = Vec::new();
    assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
    assert_eq!(buffer, b"isready");
    assert_eq!(
        read_line(&mut reader, &mut buffer).unwrap(),
        LineRead::TooLong(3 * MAX_LINE_BYTES)
    );
    // What a vector that doubles may hold: not the line.
    assert!(buffer.capacity() <= 2 * MAX_LINE_BYTES);
    assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
    assert_eq!(buffer, b"uci");
    assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::Line);
    assert_eq!(buffer, b"last");
    assert_eq!(read_line(&mut reader, &mut buffer).unwrap(), LineRead::End);
}

#[test]
fn a_malformed_go_still_answers() {
    let mut h = Harness::new();
    h.send("go depth x movetime 30 frobnicate searchmoves F");
    let lines = h.wait_for("bestmove");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count()
            >= 3
    );
}

#[test]
fn garbage_never_panics() {
    let mut h = Harness::new();
    let mut rng = StdRng::seed_from_u64(0x1234_5678_9abc_def0);
    let words = [
        "go",
        "position",
        "setoption",
        "name",
        "value",
        "moves",
        "fen",
        "startpos",
        "depth",
        "movetime",
        "1",
        "-5",
        "F",
        "a",
        "FfAa",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "stop",
        "isready",
        "ponderhit",
        "ucinewgame",
        "Hash",
        "Level",
        "\u{0}",
        "é",
        "999999999999",
    ];
    for _ in 0..2000 {
        let n = rng.random_range(0..6);
        let line: Vec<&str> = (0..n)
            .map(|_| words[rng.random_range(0..words.len())])
            .collect();
        let line = line.join(" ").replace("go", "go depth 2");
        h.send(&line);
    }
    h.send("stop");
    assert_eq!(h.send("quit"), Flow::Quit);
}

#[test]
fn go_right_after_bestmove_is_searched() {
    // A match program sends the next `go` the moment it reads
    // `bestmove`, before the search thread has quite ended.
    let mut h = Harness::new();
    for i in 0..50 {
        h.search("position startpos", "go depth 1");
        let lines = h.search("position startpos moves F", "go depth 1");
        assert!(
            !lines.iter().any(|l| l.contains("already searching")),
            "round {i}: {lines:?}"
        );
    }
}

#[test]
fn the_oracle_is_chosen_again_when_the_rules_change() {
    let mut h = Harness::new();
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    h.protocol.set_oracle_source(Box::new(move |rules: &Rules| {
        log.lock().unwrap().push(*rules);
        None
    }));
    for line in [
        "go depth 1",
        "go depth 1",
        "setoption name Rules value awale",
        "go depth 1",
    ] {
        h.send(line);
        if line.starts_with("go") {
            h.wait_for("bestmove");
        }
    }
    assert_eq!(*asked.lock().unwrap(), [Rules::ABAPA, Rules::AWALE]);
}

#[test]
fn quit_stops_a_running_search() {
    let mut h = Harness::new();
    h.send("go infinite");
    assert_eq!(h.send("quit"), Flow::Quit);
    assert!(h.take().iter().any(|l| l.starts_with("bestmove")));
}
