//! Games files of every earlier schema open, migrated, with their games,
//! seats, chat, reviews, nicknames and uploads intact; and a migrated file
//! ends with the very schema a new file has. An old file is built as that
//! version made it: its migrations (which never change once released),
//! its marks, and rows dumped from a file the program of that version
//! wrote (`data/`).

use awale_store::GameStore;
use std::path::{Path, PathBuf};

use awale_core::Side;
use awale_model::game::{Mode, PlayerId, WebGame};
use awale_store::Store;
use rusqlite::Connection;

/// Ama's player id in the dumps (the hash of 64 `a`s).
const AMA: &str = "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb";
/// Kofi's (64 `b`s).
const KOFI: &str = "a0fab1377f49a759b57f63318262ebe89fabfc990e8e93ceac2984561482b9d4";

/// A file made by running `batches` (an old program's schema and rows).
fn old_file(batches: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let conn = Connection::open(&path).unwrap();
    for batch in batches {
        conn.execute_batch(batch).unwrap();
    }
    (dir, path)
}

/// The migrations of the schemas the dumps' rows are of, in order.
const OLD_SCHEMAS: [&str; 3] = [
    include_str!("../src/v1.sql"),
    include_str!("../src/v2.sql"),
    include_str!("../src/v3.sql"),
];

/// A file of schema `version` holding `rows`: the schema built by that
/// version's migrations, the header's marks that version wrote (version 1
/// wrote none), then the rows.
fn file_of_version(version: usize, rows: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let marks = format!("PRAGMA application_id = 1098342764; PRAGMA user_version = {version};");
    let mut batches = OLD_SCHEMAS[..version].to_vec();
    if version > 1 {
        batches.push(&marks);
    }
    batches.extend(rows);
    old_file(&batches)
}

fn v1() -> (tempfile::TempDir, PathBuf) {
    file_of_version(1, &[include_str!("data/games-v1.sql")])
}

/// The rows of versions 2 and 3, each with its own (`data/games-v2-v3.sql`).
const V2_ROWS: [&str; 2] = [
    include_str!("data/games-v2-v3.sql"),
    include_str!("data/games-v2.sql"),
];
const V3_ROWS: [&str; 2] = [
    include_str!("data/games-v2-v3.sql"),
    include_str!("data/games-v3.sql"),
];

fn v2() -> (tempfile::TempDir, PathBuf) {
    file_of_version(2, &V2_ROWS)
}

fn v3() -> (tempfile::TempDir, PathBuf) {
    file_of_version(3, &V3_ROWS)
}

fn marks(path: &Path) -> (i32, i32) {
    let conn = Connection::open(path).unwrap();
    let app = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    let version = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    (app, version)
}

/// A table's or index's kind, name and definition.
type Object = (String, String, String);

/// The schema as SQLite keeps it: every table, index and column, in order.
fn schema(path: &Path) -> Vec<Object> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master
             WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
        )
        .unwrap();
    let mut rows: Vec<Object> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // The SQL text of an altered table differs with its history; its
    // columns are what counts.
    for row in rows.iter_mut().filter(|r| r.0 == "table") {
        let mut columns = conn
            .prepare("SELECT name, type, \"notnull\", coalesce(dflt_value, ''), pk FROM pragma_table_info(?1)")
            .unwrap();
        let columns: Vec<String> = columns
            .query_map([&row.1], |r| {
                Ok(format!(
                    "{} {} {} {} {}",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?
                ))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        row.2 = columns.join(", ");
    }
    rows
}

fn new_file_schema() -> (Vec<Object>, (i32, i32)) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    Store::open(&path).unwrap().close();
    (schema(&path), marks(&path))
}

fn open(path: &Path) -> Store {
    Store::open(path).unwrap_or_else(|e| panic!("{} refused: {e}", path.display()))
}

fn moves(game: &WebGame) -> String {
    game.game.plies().iter().map(|p| p.mv.letter()).collect()
}

fn seat_names(game: &WebGame) -> [Option<(String, String)>; 2] {
    game.seats.clone().map(|s| s.map(|s| (s.player.0, s.name)))
}

#[tokio::test]
async fn a_file_of_every_version_ends_with_the_schema_of_a_new_file() {
    let (fresh, fresh_marks) = new_file_schema();
    for (name, (_dir, path)) in [("v1", v1()), ("v2", v2()), ("v3", v3())] {
        open(&path).close();
        assert_eq!(marks(&path), fresh_marks, "{name}'s marks");
        assert_eq!(schema(&path), fresh, "{name}'s schema");
    }
}

/// The schemas of versions 1 to 3 as those programs left them, one object
/// a line: built here from the migrations, they are checked against what
/// was built from the dumps of files those programs wrote, so that an edit
/// to a released migration is caught.
const FIRST_SCHEMAS: &str = include_str!("data/schemas-v1-v3.txt");

fn schema_text(path: &Path) -> String {
    schema(path)
        .iter()
        .map(|(kind, name, sql)| {
            format!(
                "{kind} {name}: {}\n",
                sql.split_whitespace().collect::<Vec<_>>().join(" ")
            )
        })
        .collect()
}

#[test]
fn the_first_versions_build_the_schemas_their_programs_wrote() {
    let mut text = String::new();
    for (name, (_dir, path)) in [("v1", v1()), ("v2", v2()), ("v3", v3())] {
        text.push_str(&format!(
            "# {name}, marks {:?}\n{}",
            marks(&path),
            schema_text(&path)
        ));
    }
    assert!(
        text == FIRST_SCHEMAS,
        "a released migration builds another schema; now:\n{text}"
    );
}

#[tokio::test]
async fn opening_a_migrated_file_again_changes_nothing() {
    let (_dir, path) = v1();
    open(&path).close();
    let (before, marks_before) = (schema(&path), marks(&path));
    let store = open(&path);
    let game = store.load(3).await.unwrap().unwrap();
    // Perfect, remapped once from 12 to 18, not again.
    assert!(matches!(game.mode, Mode::Computer { level: 18, .. }));
    store.close();
    assert_eq!(schema(&path), before);
    assert_eq!(marks(&path), marks_before);
}

#[tokio::test]
async fn a_file_of_version_1_keeps_its_games() {
    let (_dir, path) = v1();
    let store = open(&path);
    let a = store.load(1).await.unwrap().unwrap();
    assert_eq!(moves(&a), "FfA");
    assert_eq!(a.mode, Mode::Humans);
    let b = store.load(2).await.unwrap().unwrap();
    assert_eq!(
        b.stop,
        Some(awale_model::game::Stop::Time(Side::South)),
        "a flag fallen before stays fallen"
    );
    let c = store.load(3).await.unwrap().unwrap();
    assert!(
        matches!(
            c.mode,
            Mode::Computer {
                level: 18,
                human: Side::South
            }
        ),
        "Perfect was level 12 of 12; it is 18 of 18: {:?}",
        c.mode
    );
    assert_eq!(moves(&c), "Fa");
}

#[tokio::test]
async fn a_file_of_version_2_keeps_its_seats_chat_reviews_and_names() {
    let (_dir, path) = v2();
    let store = open(&path);
    let online = store.load(1).await.unwrap().unwrap();
    assert_eq!(online.mode, Mode::Online);
    assert!(online.public);
    assert_eq!(moves(&online), "Ff");
    assert_eq!(
        seat_names(&online),
        [
            Some((AMA.to_string(), "Ama".to_string())),
            Some((KOFI.to_string(), "Kofi".to_string()))
        ]
    );
    let clock = online.clock.expect("the clock");
    assert_eq!((clock.initial_ms, clock.increment_ms), (300_000, 3_000));
    let chat = store.chat(1, 10).await.unwrap();
    assert_eq!(chat.len(), 1);
    assert_eq!(
        (chat[0].name.as_str(), chat[0].text.as_str()),
        ("Ama", "Bonne partie")
    );
    let (plies, body) = store.review(2).await.unwrap().expect("the review");
    assert_eq!(plies, 1);
    assert!(body.contains("\"move\":\"C\""), "{body}");
    assert_eq!(
        store
            .player_name(PlayerId(KOFI.into()))
            .await
            .unwrap()
            .as_deref(),
        Some("Kofi")
    );
    // Written before the levels' mark: Perfect (12 of 12) is 18 now, and
    // level 2 is still 2.
    let perfect = store.load(3).await.unwrap().unwrap();
    assert!(
        matches!(perfect.mode, Mode::Computer { level: 18, .. }),
        "{:?}",
        perfect.mode
    );
    let two = store.load(2).await.unwrap().unwrap();
    assert!(
        matches!(two.mode, Mode::Computer { level: 2, .. }),
        "{:?}",
        two.mode
    );
    // Version 3's uploads work in it now.
    let upload = WebGame::new(
        Mode::Humans,
        awale_core::Game::new(Default::default()),
        0,
        1,
    );
    let first = store
        .upload(PlayerId(AMA.into()), "offline-0001".into(), upload.clone())
        .await
        .unwrap()
        .expect("stored");
    let again = store
        .upload(PlayerId(AMA.into()), "offline-0001".into(), upload)
        .await
        .unwrap();
    assert_eq!(
        again.err(),
        Some(first.id),
        "an upload sent twice is stored once"
    );
}

#[tokio::test]
async fn a_file_of_version_3_keeps_its_uploads() {
    let (_dir, path) = v3();
    let store = open(&path);
    let upload = WebGame::new(
        Mode::Humans,
        awale_core::Game::new(Default::default()),
        0,
        1,
    );
    let again = store
        .upload(PlayerId(AMA.into()), "offline-0001".into(), upload)
        .await
        .unwrap();
    assert_eq!(again.err(), Some(3), "the upload stored before is found");
    let uploaded = store.load(3).await.unwrap().unwrap();
    assert_eq!(moves(&uploaded), "Ff");
    let resigned = store.load(2).await.unwrap().unwrap();
    assert_eq!(resigned.game.resigned(), Some(Side::South));
    let page = store
        .list(Some(PlayerId(KOFI.into())), None, 10)
        .await
        .unwrap();
    assert_eq!(page.games.len(), 1, "Kofi plays in the online game only");
}

#[tokio::test]
async fn a_file_of_sixteen_levels_has_its_perfect_games_at_the_last_level() {
    // Version 3's file is marked with sixteen levels: its game 3 against
    // Perfect (16), a copy of it against Titan (15).
    let games = "UPDATE games SET mode = 'computer', level = 16, human = 'S' WHERE id = 3;
         CREATE TEMP TABLE titan AS SELECT * FROM games WHERE id = 3;
         UPDATE titan SET id = 4, level = 15;
         INSERT INTO games SELECT * FROM titan;";
    let (_dir, path) = file_of_version(3, &[V3_ROWS[0], V3_ROWS[1], games]);
    let store = open(&path);
    let level = |game: WebGame| match game.mode {
        Mode::Computer { level, .. } => level,
        other => panic!("{other:?}"),
    };
    assert_eq!(level(store.load(3).await.unwrap().unwrap()), 18, "Perfect");
    assert_eq!(level(store.load(4).await.unwrap().unwrap()), 15, "Titan");
    store.close();
    // Once only: a game at 16 now is Colossus's.
    Connection::open(&path)
        .unwrap()
        .execute("UPDATE games SET level = 16 WHERE id = 4", [])
        .unwrap();
    let store = open(&path);
    assert_eq!(level(store.load(4).await.unwrap().unwrap()), 16, "Colossus");
}

#[test]
fn a_migration_that_fails_changes_nothing_and_says_why() {
    // A file of version 2 that somehow has version 3's table already:
    // version 3 cannot run.
    let (_dir, path) = file_of_version(2, &[V2_ROWS[0], V2_ROWS[1], "CREATE TABLE uploads (x);"]);
    let before = schema(&path);
    let why = match Store::open(&path) {
        Ok(_) => panic!("the file was migrated"),
        Err(e) => e.to_string(),
    };
    assert!(
        why.contains("games.sqlite") && why.contains("uploads"),
        "{why}"
    );
    assert_eq!(schema(&path), before, "the failed migration was undone");
    assert_eq!(marks(&path).1, 2);
}

/// A program before resignations cleared the moves taken back wrote both:
/// such a game loads, resigned, with nothing to redo.
#[tokio::test]
async fn a_game_resigned_with_moves_taken_back_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let store = open(&path);
    let mut game = WebGame::new(
        Mode::Humans,
        awale_core::Game::new(Default::default()),
        0,
        1,
    );
    for c in "Ff".chars() {
        game.play(awale_core::Move::from_letter(c).unwrap(), 1)
            .unwrap();
    }
    let id = store.create(vec![game]).await.unwrap()[0].id;
    store.close();
    let conn = Connection::open(&path).unwrap();
    for sql in [
        "UPDATE games SET resigned = 'S', redo = 'f', plies = 1 WHERE id = ?1",
        "DELETE FROM moves WHERE game_id = ?1 AND ply = 1",
    ] {
        conn.execute(sql, [id]).unwrap();
    }
    drop(conn);
    let store = open(&path);
    let back = store.load(id).await.unwrap().expect("the game is there");
    assert_eq!(moves(&back), "F");
    assert_eq!(back.game.resigned(), Some(Side::South));
    assert!(!back.game.can_redo());
    store.close();
}

#[tokio::test]
async fn old_games_get_public_ids_and_private_invitations_their_keys() {
    // Version 3's rows, with a private invitation nobody took yet and a
    // line of a guest without a nickname (stored as `#4821` then).
    let (_dir, path) = file_of_version(
        3,
        &[
            V3_ROWS[0],
            V3_ROWS[1],
            "INSERT INTO games (id, created_ms, updated_ms, rules, start, mode, seed, turn_started_ms,
                           public, south_player, south_name)
         VALUES (9, 1, 1, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 'online', 5, 1, 0,
                 'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb', 'Ama');
         INSERT INTO chat (game_id, room, at_ms, side, name, text)
         VALUES (1, 'public', 2, NULL, '#4821', 'Bravo');",
        ],
    );
    let store = open(&path);
    let mut seen = std::collections::HashSet::new();
    for id in [1, 2, 3, 9] {
        let game = store.load(id).await.unwrap().unwrap();
        assert!(
            awale_model::secret::is_game_id(&game.public_id)
                && !awale_model::secret::is_numbered(&game.public_id),
            "game {id}: {}",
            game.public_id
        );
        assert!(seen.insert(game.public_id.clone()), "ids are distinct");
        assert_eq!(store.find(game.public_id.clone()).await.unwrap(), Some(id));
        // Only a private online game has an invitation's key.
        let private = game.mode == Mode::Online && !game.public;
        assert_eq!(game.invite.is_some(), private, "game {id}");
    }
    assert_eq!(store.find("1".into()).await.unwrap(), None);
    let chat = store.chat(1, 10).await.unwrap();
    let guest = chat.iter().find(|l| l.text == "Bravo").unwrap();
    assert_eq!((guest.name.as_str(), guest.guest), ("", Some(4821)));
    let ama = chat.iter().find(|l| l.text == "Bonne partie").unwrap();
    assert_eq!((ama.name.as_str(), ama.guest), ("Ama", None));
    // A new game gets ten characters.
    let made = store
        .create(vec![WebGame::new(
            Mode::Humans,
            awale_core::Game::new(Default::default()),
            0,
            1,
        )])
        .await
        .unwrap();
    assert_eq!(made[0].public_id.len(), awale_model::secret::GAME_ID_CHARS);
    store.close();
}
