//! The start of a site on PostgreSQL (issue 39): games made and joined by
//! the thousand, each a few statements and one commit. What a creation
//! and a join send is read from the server's own statement log
//! (`log_statement = 'all'` on the test's database, each service naming
//! itself with `application_name`): counts that do not depend on the
//! machine's load, where timings do.

#[path = "../../awale-store/tests/pg/mod.rs"]
mod pg;
#[path = "common/pg_games.rs"]
mod pg_games;

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::Arc;

use awale_core::Side;
use awale_model::game::Seat;
use awale_model::Code;
use awale_service::games::Games;

use pg_games::{challenge, player};

/// A service on the database at `url`, named `name` to the database (its
/// statements are logged under that name), started as a process's is.
fn service(url: &str, name: &str) -> Arc<Games> {
    pg_games::service(&format!("{url}?application_name={name}"))
}

/// A new database whose every statement the cluster logs; its address.
fn logged_database() -> String {
    let url = pg::cluster().database();
    let name = url.rsplit('/').next().unwrap().to_string();
    pg::cluster().psql(
        &url,
        &format!("ALTER DATABASE {name} SET log_statement = 'all'"),
    );
    url
}

/// The length of the cluster's log now.
fn log_length() -> u64 {
    std::fs::metadata(pg::cluster().dir.join("server.log"))
        .unwrap()
        .len()
}

/// A statement the cluster logged.
#[derive(Debug)]
struct Said {
    /// The backend (one per connection).
    pid: String,
    /// The program that sent it (its `application_name`).
    who: String,
    /// The prepared statement's name (`s12`), none for a simple query.
    name: Option<String>,
    /// The statement, whole.
    sql: String,
}

/// The statements the cluster logged from offset `from` of its log on.
fn statements_since(from: u64) -> Vec<Said> {
    statements_between(from, u64::MAX)
}

/// The statements the cluster logged between offsets `from` and `to` of
/// its log; a statement of several lines whole (the lines after its first
/// carry no prefix).
fn statements_between(from: u64, to: u64) -> Vec<Said> {
    let mut log = std::fs::File::open(pg::cluster().dir.join("server.log")).unwrap();
    std::io::Seek::seek(&mut log, std::io::SeekFrom::Start(from)).unwrap();
    let mut bytes = Vec::new();
    log.take(to.saturating_sub(from))
        .read_to_end(&mut bytes)
        .unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let mut said: Vec<Said> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            if let (true, Some(last)) = (open, said.last_mut()) {
                last.sql.push('\n');
                last.sql.push_str(line.trim());
            }
            continue;
        }
        open = false;
        // `TIME [PID] WHO: LOG:  statement: SQL` or `... execute NAME: SQL`.
        let Some((_, rest)) = line.split_once(" [") else {
            continue;
        };
        let Some((pid, rest)) = rest.split_once("] ") else {
            continue;
        };
        let Some((who, text)) = rest.split_once(": LOG:  ") else {
            continue;
        };
        let (name, sql) = match text.strip_prefix("statement: ") {
            Some(sql) => (None, sql),
            None => match text
                .split_once(": ")
                .and_then(|(execute, sql)| Some((execute.strip_prefix("execute ")?, sql)))
            {
                Some((name, sql)) => (Some(name.to_string()), sql),
                None => continue,
            },
        };
        said.push(Said {
            pid: pid.to_string(),
            who: who.to_string(),
            name,
            sql: sql.to_string(),
        });
        open = true;
    }
    said
}

/// How a transaction ended.
#[derive(Debug, PartialEq)]
enum End {
    Commit,
    Rollback,
}

/// A transaction: its statements between `BEGIN` and its end.
#[derive(Debug)]
struct Transaction {
    statements: Vec<String>,
    end: End,
}

impl Transaction {
    fn has(&self, what: impl Fn(&str) -> bool) -> bool {
        self.statements.iter().any(|s| what(s))
    }
}

/// The transactions of the programs `who` accepts in `said`, and the
/// statements they sent outside any.
fn transactions(said: &[Said], who: impl Fn(&str) -> bool) -> (Vec<Transaction>, Vec<String>) {
    let mut open: HashMap<&str, Vec<String>> = HashMap::new();
    let mut done = Vec::new();
    let mut alone = Vec::new();
    for s in said.iter().filter(|s| who(&s.who)) {
        let sql = s.sql.trim();
        match sql {
            "BEGIN" => {
                open.insert(&s.pid, Vec::new());
            }
            "COMMIT" | "ROLLBACK" => {
                let statements = open.remove(s.pid.as_str()).unwrap_or_default();
                let end = if sql == "COMMIT" {
                    End::Commit
                } else {
                    End::Rollback
                };
                done.push(Transaction { statements, end });
            }
            _ => match open.get_mut(s.pid.as_str()) {
                Some(statements) => statements.push(sql.to_string()),
                None => alone.push(sql.to_string()),
            },
        }
    }
    (done, alone)
}

/// Statements by what they do.
fn names_player(sql: &str) -> bool {
    sql.starts_with("INSERT INTO players")
}
/// The names of a player's seats in their games going on (a statement a
/// side).
fn names_seats(sql: &str) -> bool {
    sql.starts_with("UPDATE games SET south_name = $2")
        || sql.starts_with("UPDATE games SET north_name = $2")
}
fn writes_game_row(sql: &str) -> bool {
    sql.starts_with("UPDATE games SET") && sql.contains("revision = revision +")
}
fn makes_game(sql: &str) -> bool {
    sql.starts_with("INSERT INTO games")
}
/// A read of a game: its revision, its row (the first of the game's
/// columns), its moves.
fn reads_game(sql: &str) -> bool {
    sql.starts_with("SELECT revision FROM games")
        || sql.starts_with("SELECT created_ms, rules, start")
        || sql.contains("FROM moves")
}

/// Games made by guests, then joined by guests, on one service (the copy
/// each join changes held there, as the maker's process holds its new
/// game): a creation is one transaction with the maker's name in it (one
/// commit, no move written), a join one transaction with the seated
/// guest's name (one commit) that reads nothing of the game before or
/// after (no revision asked, no game read again: its seat given over the
/// stored revision in one statement); each statement prepared once per
/// connection, not once per use; each name stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creation_and_a_join_are_one_commit_each_and_a_join_reads_nothing() {
    let url = logged_database();
    let games = service(&url, "start-one");
    const GAMES: u32 = 24;
    let from = log_length();
    let mut made = Vec::new();
    for n in 0..GAMES {
        made.push(games.new_game(challenge(&player(n), n)).await.unwrap());
    }
    let joined_from = log_length();
    for (n, game) in (0u32..).zip(&made) {
        let seat = Seat {
            player: player(1000 + n),
            name: format!("North {n}"),
        };
        let game = games
            .sit_named(game.id, seat, game.invite.as_deref(), true)
            .await
            .unwrap();
        assert!(!game.waiting());
    }
    let end = log_length();
    for n in 0..GAMES {
        for (p, name) in [(n, format!("South {n}")), (1000 + n, format!("North {n}"))] {
            let stored = games.player_name(&player(p)).await.unwrap();
            assert_eq!(stored, Some(name));
        }
    }

    let ours = |who: &str| who == "start-one";
    let made_said = statements_between(from, joined_from);
    let joined_said = statements_between(joined_from, end);

    // Making: one transaction a game, the maker's name in it.
    let (made_tx, made_alone) = transactions(&made_said, ours);
    let creations: Vec<&Transaction> = made_tx.iter().filter(|t| t.has(makes_game)).collect();
    assert_eq!(creations.len(), GAMES as usize, "{made_tx:#?}");
    for t in &creations {
        assert_eq!(t.end, End::Commit, "{t:#?}");
        assert!(t.has(names_player) && t.has(names_seats), "{t:#?}");
        assert!(
            !t.has(|s| s.contains("moves")),
            "a new game's moves: {t:#?}"
        );
    }
    // No name stored in a transaction of its own.
    let named_apart = made_tx
        .iter()
        .filter(|t| t.has(names_player) && !t.has(makes_game))
        .count();
    assert_eq!(named_apart, 0, "{made_tx:#?}");
    let made_reads: Vec<&String> = made_alone.iter().filter(|s| reads_game(s)).collect();
    assert!(
        made_reads.is_empty(),
        "a creation read a game: {made_reads:?}"
    );

    // Joining: one transaction a join, the name and the fenced row in it;
    // nothing else that touches a game or a name, nothing read.
    let (join_tx, join_alone) = transactions(&joined_said, ours);
    let joins: Vec<&Transaction> = join_tx.iter().filter(|t| t.has(writes_game_row)).collect();
    assert_eq!(joins.len(), GAMES as usize, "{join_tx:#?}");
    for t in &joins {
        assert_eq!(t.end, End::Commit, "{t:#?}");
        assert!(t.has(names_player) && t.has(names_seats), "{t:#?}");
        // The name's three statements (the player's, their seats' a
        // side), the row, the notice: nothing more.
        assert!(t.statements.len() <= 5, "{t:#?}");
        assert!(
            !t.has(|s| s.contains("moves")),
            "a join wrote moves: {t:#?}"
        );
    }
    let others = join_tx
        .iter()
        .filter(|t| !t.has(writes_game_row) && t.has(|s| names_player(s) || s.contains("games")))
        .count();
    assert_eq!(others, 0, "{join_tx:#?}");
    let join_reads: Vec<&String> = join_alone.iter().filter(|s| reads_game(s)).collect();
    assert!(
        join_reads.is_empty(),
        "a join read the game: {join_reads:?}"
    );

    // Prepared once per connection: the joins' row statements ran under
    // a few names (one per pooled connection used), not one each.
    let row_names: HashSet<&String> = joined_said
        .iter()
        .filter(|s| ours(&s.who) && writes_game_row(&s.sql))
        .filter_map(|s| s.name.as_ref())
        .collect();
    assert!(
        !row_names.is_empty() && row_names.len() < GAMES as usize,
        "the row's statement prepared {} times for {GAMES} joins",
        row_names.len()
    );
    eprintln!(
        "{GAMES} games: {} statements to make them, {} to join them ({} names of the row's statement)",
        made_said.iter().filter(|s| ours(&s.who)).count(),
        joined_said.iter().filter(|s| ours(&s.who)).count(),
        row_names.len()
    );
}

/// Games made on one service and joined at once by three guests each, one
/// on each of three services holding a copy read before: each seat given
/// once; the two others told `seat_taken` (never `stale`), their names
/// not stored (the name goes with the seat, all or nothing); each of them
/// costs at most one transaction rolled back (its fenced row found
/// changed: the game read again, the seat refused without another
/// write), never a storm of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_guests_one_seated_the_others_told_seat_taken_one_rollback_at_most_each() {
    let url = logged_database();
    let services = [0, 1, 2].map(|k| service(&url, &format!("race-{k}")));
    const GAMES: u32 = 20;
    let mut made = Vec::new();
    for n in 0..GAMES {
        let game = services[0]
            .new_game(challenge(&player(n), n))
            .await
            .unwrap();
        made.push(game);
    }
    for games in &services {
        for game in &made {
            games.load(game.id).await.unwrap();
        }
    }
    let from = log_length();
    let mut joins = Vec::new();
    for (n, game) in (0u32..).zip(&made) {
        for (k, games) in (0u32..).zip(&services) {
            let games = Arc::clone(games);
            let (id, key) = (game.id, game.invite.clone());
            let who = player(1000 + 3 * n + k);
            joins.push(tokio::spawn(async move {
                let seat = Seat {
                    player: who.clone(),
                    name: format!("North {n}.{k}"),
                };
                let answer = games.sit_named(id, seat, key.as_deref(), true).await;
                (id, who, answer)
            }));
        }
    }
    let mut seated = HashMap::new();
    let mut refused = Vec::new();
    for join in joins {
        let (id, who, answer) = join.await.unwrap();
        match answer {
            Ok(game) => {
                assert_eq!(
                    game.seats[Side::North.index()].as_ref().map(|s| &s.player),
                    Some(&who)
                );
                assert!(seated.insert(id, who).is_none(), "game {id}: seated twice");
            }
            Err(e) => {
                assert_eq!(e.code, Code::SeatTaken, "game {id}: {e}");
                refused.push(who);
            }
        }
    }
    assert_eq!(seated.len(), GAMES as usize);
    assert_eq!(refused.len(), 2 * GAMES as usize);
    let any = &services[0];
    for who in seated.values() {
        assert!(any.player_name(who).await.unwrap().is_some());
    }
    for who in &refused {
        assert_eq!(
            any.player_name(who).await.unwrap(),
            None,
            "a refused guest's name was stored"
        );
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let said = statements_since(from);
    let (done, _) = transactions(&said, |w| w.starts_with("race-"));
    // Each seat's fenced row written in a committed transaction (seats
    // taken at once may share one: group commit), with at most the
    // refused ones' fenced rows that found the game changed and wrote
    // nothing.
    let committed: usize = done
        .iter()
        .filter(|t| t.end == End::Commit)
        .map(|t| t.statements.iter().filter(|s| writes_game_row(s)).count())
        .sum();
    let rolled_back = done.iter().filter(|t| t.end == End::Rollback).count();
    assert!(
        (GAMES as usize..=GAMES as usize + refused.len()).contains(&committed),
        "{committed} seats' rows written in committed transactions for {GAMES} games"
    );
    assert!(
        rolled_back <= refused.len(),
        "{rolled_back} rollbacks for {} refused joins",
        refused.len()
    );
    eprintln!(
        "{} joins: {committed} seated, {} refused, {rolled_back} rolled back",
        3 * GAMES,
        refused.len()
    );
}
