//! The engine ladder end to end with real processes: `awale serve`, two
//! bot accounts with their tokens, and two `awale bot` bridges around
//! `awale uci` at two levels joining the bullet ladder; the server pairs
//! them, they play a rated game to its end through the API, and the
//! ladder's JSON shows it: both ranked in the bots' pool, their results,
//! the cross-table and the game. People's leaderboard lists neither.

mod webdriver;

use webdriver::{ladder_game, request_as, temp_dir, Site};

#[test]
fn two_bridges_on_the_ladder_play_a_rated_game_and_the_ladder_shows_it() {
    let site = Site::start("engine_ladder");
    let dir = temp_dir("engine_ladder_logs");
    // A person's account cannot join; a bad ladder's name is refused.
    let (status, answer) = site.call("POST", "/api/bot/ladder/bullet/join", None);
    assert_eq!((status, answer["error"].as_str()), (401, Some("no_token")));
    let token = webdriver::bot_token(&site, "Gamma", 9);
    let (status, answer, _) = request_as(
        &site,
        "POST",
        "/api/bot/ladder/turbo/join",
        &format!("Bearer {token}"),
        serde_json::Value::Null,
    );
    assert_eq!(
        (status, answer["error"].as_str()),
        (404, Some("no_such_ladder"))
    );

    let game = ladder_game(&site, [("Alpha", 1), ("Beta", 2)], &dir);

    let (status, view) = site.call("GET", "/api/ladder", None);
    assert_eq!(status, 200, "{view}");
    let bullet = &view["ladders"][0];
    assert_eq!(bullet["name"], "bullet");
    assert_eq!(bullet["pool"], "bot_bullet");
    assert_eq!(bullet["games"][0]["id"], game.as_str(), "{view}");
    let standings = bullet["standings"].as_array().unwrap();
    let mut names: Vec<&str> = standings
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Alpha", "Beta"], "{view}");
    for s in standings {
        assert_eq!(s["games"], 1, "{s}");
        let results = ["wins", "draws", "losses"].map(|k| s[k].as_i64().unwrap());
        assert_eq!(results.iter().sum::<i64>(), 1, "{s}");
    }
    let top = &standings[0];
    if top["wins"] == 1 {
        assert!(top["rating"].as_i64().unwrap() > 1500, "{top}");
    }
    assert_eq!(
        bullet["crosstable"][0][1]["wins"].as_i64().unwrap()
            + bullet["crosstable"][0][1]["draws"].as_i64().unwrap()
            + bullet["crosstable"][0][1]["losses"].as_i64().unwrap(),
        1,
        "{view}"
    );
    // The game is rated, replayable as any game.
    let (status, played) = site.call("GET", &format!("/api/games/{game}"), None);
    assert_eq!(status, 200, "{played}");
    assert_eq!(played["rated"], true, "{played}");
    // People's bullet leaderboard lists no bot.
    let (_, board) = site.call("GET", "/api/leaderboard/bullet", None);
    assert!(!board.to_string().contains("Alpha"), "{board}");
}
