//! `awale play --online URL --token T`: a person plays one of their online
//! games in the terminal, through the site's board API (docs/BOTS.md),
//! with a token of scope `board:play` made on the account page. It finds
//! the game (the one given, the one going on, or the next to start),
//! shows the board as the terminal game does after each move, the
//! opponent's moves and both clocks, reads the person's moves and words
//! (resign, draw, say), and ends with the game. A dropped stream is
//! opened again: the game goes on where it is.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use awale_core::{Game, Move, Rules, Side};
use awale_engine::protocol::{read_line, LineRead};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::api_client::{refusal, ApiClient, Lines};
use crate::board_text;
use crate::play::{clock_text, colon, read_command, side_name, t, Command};
use crate::words::Lang;

/// How long the games going on are gathered when the event stream opens
/// (it lists them first, at once).
const GATHER: Duration = Duration::from_millis(1500);

/// Plays the game `game` (or the one found) of the token's account on
/// `server`, in `lang`.
///
/// # Errors
///
/// The server not reached, the token refused, the game not the account's.
pub fn run(
    server: &str,
    token: &str,
    game: Option<String>,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let api = ApiClient::new(server, token)?;
    // The keyboard, read on its own thread: a line at a time, None at its
    // end.
    let (keys, typed) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        let mut line = Vec::new();
        loop {
            let said = match read_line(&mut input, &mut line) {
                Ok(LineRead::Line) => Some(String::from_utf8_lossy(&line).to_string()),
                Ok(LineRead::TooLong(_)) => Some(String::new()),
                Ok(LineRead::End) | Err(_) => None,
            };
            let end = said.is_none();
            if keys.send(said).is_err() || end {
                return;
            }
        }
    });
    runtime.block_on(async move {
        let id = match game {
            Some(id) => id,
            None => find_game(&api, lang).await?,
        };
        let mut online = Online {
            api,
            id,
            lang,
            typed,
            you: Side::South,
            rules: Rules::AWALE,
            shown: None,
        };
        online.play().await
    })
}

/// The game to play: the account's game going on (the first, when
/// several are), else the next that starts.
async fn find_game(api: &ApiClient, lang: Lang) -> anyhow::Result<String> {
    let mut events = api.stream("/api/stream/event").await?;
    let mut going_on = Vec::new();
    let gathering = tokio::time::Instant::now() + GATHER;
    while let Ok(Some(event)) = tokio::time::timeout_at(gathering, events.next()).await {
        match event["type"].as_str() {
            Some("gameStart") => going_on.extend(event["game"].as_str().map(str::to_string)),
            Some("challenge") => challenge_news(&event["challenge"], lang),
            _ => {}
        }
    }
    if let Some(first) = going_on.first() {
        if going_on.len() > 1 {
            outln!(
                "{}{} {} {}",
                t(lang, "Vos parties en cours", "Your games going on"),
                colon(lang),
                going_on.join(" "),
                t(
                    lang,
                    "(la première ici\u{a0}; --game ID pour une autre)",
                    "(the first here; --game ID for another)"
                )
            );
        }
        return Ok(first.clone());
    }
    outln!(
        "{}",
        t(
            lang,
            "Aucune partie en cours\u{a0}: défiez quelqu'un ou acceptez un défi sur le site, la partie commencera ici.",
            "No game going on: challenge someone or accept a challenge on the site, and the game starts here."
        )
    );
    loop {
        match events.next().await {
            Some(event) if event["type"] == "gameStart" => {
                if let Some(id) = event["game"].as_str() {
                    return Ok(id.to_string());
                }
            }
            Some(event) if event["type"] == "challenge" => {
                challenge_news(&event["challenge"], lang)
            }
            Some(_) => {}
            None => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                events = api.stream("/api/stream/event").await?;
            }
        }
    }
}

/// Says a challenge received and open.
fn challenge_news(c: &Value, lang: Lang) {
    if c["sent"].as_bool() == Some(false) && c["state"] == "open" {
        outln!(
            "{} {} ({}, {}) {}",
            t(lang, "Défi de", "Challenge from"),
            c["from"].as_str().unwrap_or("?"),
            c["speed"].as_str().unwrap_or(""),
            if c["rated"] == true {
                t(lang, "classé", "rated")
            } else {
                t(lang, "amical", "casual")
            },
            t(
                lang,
                "— à accepter sur le site.",
                "— accept it on the site."
            )
        );
    }
}

/// One online game followed and played.
struct Online {
    api: ApiClient,
    id: String,
    lang: Lang,
    typed: mpsc::UnboundedReceiver<Option<String>>,
    you: Side,
    rules: Rules,
    /// The moves last shown.
    shown: Option<String>,
}

impl Online {
    async fn play(&mut self) -> anyhow::Result<ExitCode> {
        let mut tries = 0;
        loop {
            let path = format!("/api/board/game/stream/{}", self.id);
            let mut lines = match self.api.stream(&path).await {
                Ok(lines) => lines,
                Err(e) if tries < 30 && !e.is::<crate::api_client::Refused>() => {
                    eprintln!("awale: {e}");
                    tries += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
                Err(e) => return Err(e),
            };
            tries = 0;
            let full = lines
                .next()
                .await
                .context("the game's stream closed at once")?;
            if let Some(over) = self.opened(&full)? {
                return Ok(over);
            }
            if let Some(over) = self.follow(&mut lines).await? {
                return Ok(over);
            }
            // The stream dropped: opened again, the game where it is.
            eprintln!(
                "awale: {}",
                t(
                    self.lang,
                    "connexion perdue, reconnexion…",
                    "connection lost, connecting again…"
                )
            );
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// The game's whole state: who plays, then the board. Some when the
    /// game is over.
    fn opened(&mut self, full: &Value) -> anyhow::Result<Option<ExitCode>> {
        if full["type"] != "gameFull" {
            anyhow::bail!("the game's stream began with {full}");
        }
        self.you = side_of(&full["you"]).unwrap_or(Side::South);
        self.rules = full["rules"]
            .as_str()
            .unwrap_or("awale")
            .parse()
            .map_err(|e| anyhow::anyhow!("rules {}: {e:?}", full["rules"]))?;
        let lang = self.lang;
        let player = |p: &Value| {
            let name = p["name"].as_str().unwrap_or("?").to_string();
            if p["bot"] == true {
                format!("{name} [BOT]")
            } else {
                name
            }
        };
        if self.shown.is_none() {
            let clock = match full["clock"][0].as_i64() {
                Some(initial) => format!(
                    ", {} {}+{}",
                    t(lang, "pendule", "clock"),
                    initial as f64 / 60_000.0,
                    full["clock"][1].as_i64().unwrap_or(0) / 1000
                ),
                None => String::new(),
            };
            outln!(
                "{} {}{} {} {} · {} {}{clock}, {}. {} {}.",
                t(lang, "Partie", "Game"),
                self.id,
                colon(lang),
                side_name(lang, Side::South),
                player(&full["south"]),
                side_name(lang, Side::North),
                player(&full["north"]),
                if full["rated"] == true {
                    t(lang, "classée", "rated")
                } else {
                    t(lang, "amicale", "casual")
                },
                t(lang, "Vous jouez", "You play"),
                side_name(lang, self.you)
            );
            outln!(
                "{}",
                t(
                    lang,
                    "Tapez la lettre d'un trou, ou «\u{a0}abandonner\u{a0}», «\u{a0}nulle\u{a0}», «\u{a0}dire TEXTE\u{a0}», «\u{a0}quitter\u{a0}».",
                    "Type a hole's letter, or \"resign\", \"draw\", \"say TEXT\", \"quit\"."
                )
            );
        }
        Ok(self.show(&full["state"]))
    }

    /// Follows the stream and the keyboard: Some when the game is over
    /// (or the person quits), None when the stream dropped.
    async fn follow(&mut self, lines: &mut Lines) -> anyhow::Result<Option<ExitCode>> {
        loop {
            tokio::select! {
                line = lines.next() => {
                    let Some(line) = line else { return Ok(None) };
                    match line["type"].as_str() {
                        Some("gameState") => {
                            if let Some(over) = self.show(&line) {
                                return Ok(Some(over));
                            }
                        }
                        Some("chatLine") => outln!(
                            "[{}] {}",
                            line["username"].as_str().unwrap_or("?"),
                            line["text"].as_str().unwrap_or("")
                        ),
                        _ => {}
                    }
                }
                typed = self.typed.recv() => {
                    match typed.flatten() {
                        None => {
                            outln!();
                            return Ok(Some(ExitCode::SUCCESS));
                        }
                        Some(text) => {
                            if !self.typed_line(&text).await? {
                                return Ok(Some(ExitCode::SUCCESS));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Acts on a line typed: false to quit.
    async fn typed_line(&mut self, text: &str) -> anyhow::Result<bool> {
        let lang = self.lang;
        let word = text.trim();
        let said = word
            .strip_prefix("say ")
            .or_else(|| word.strip_prefix("dire "));
        let (path, body) = if let Some(said) = said {
            (
                format!("/api/board/game/{}/chat", self.id),
                Some(json!({"room": "player", "text": said})),
            )
        } else if matches!(word.to_lowercase().as_str(), "draw" | "nulle") {
            (format!("/api/board/game/{}/draw/yes", self.id), None)
        } else {
            match read_command(word) {
                Command::Nothing => return Ok(true),
                Command::Quit => return Ok(false),
                Command::Play(mv) => (format!("/api/board/game/{}/move/{mv}", self.id), None),
                Command::Resign => (format!("/api/board/game/{}/resign", self.id), None),
                _ => {
                    outln!(
                        "{}",
                        t(
                            lang,
                            "Tapez la lettre d'un trou (A-F pour Sud, a-f pour Nord), ou «\u{a0}abandonner\u{a0}», «\u{a0}nulle\u{a0}», «\u{a0}dire TEXTE\u{a0}», «\u{a0}quitter\u{a0}».",
                            "Type a hole's letter (A-F for South, a-f for North), or \"resign\", \"draw\", \"say TEXT\", \"quit\"."
                        )
                    );
                    return Ok(true);
                }
            }
        };
        let (status, answer) = self.api.call("POST", &path, body).await?;
        if !status.is_success() {
            outln!(
                "{}{} {}",
                t(lang, "Refusé", "Refused"),
                colon(lang),
                refusal(status, &answer)
            );
            self.prompt();
        }
        Ok(true)
    }

    /// Shows a game's state when it changed: the move just made, the
    /// board, the clocks, then the prompt or the end. Some when the game
    /// is over.
    fn show(&mut self, state: &Value) -> Option<ExitCode> {
        let lang = self.lang;
        let moves = state["moves"].as_str().unwrap_or("").to_string();
        let over = state["status"] != "started";
        if self.shown.as_deref() == Some(moves.as_str()) && !over {
            if let Some(side) = side_of(&state["draw_offer"]) {
                if side != self.you {
                    outln!(
                        "{}",
                        t(
                            lang,
                            "L'adversaire propose la nulle\u{a0}: «\u{a0}nulle\u{a0}» pour l'accepter.",
                            "Your opponent offers a draw: \"draw\" to accept."
                        )
                    );
                }
            }
            return None;
        }
        let mut game = Game::new(self.rules);
        let mut last = None;
        for letter in moves.split_whitespace() {
            let Some(mv) = letter.chars().next().and_then(Move::from_letter) else {
                continue;
            };
            if game.play(mv).is_err() {
                break;
            }
            last = Some((mv, letter.to_string()));
        }
        if let Some((mv, letter)) = &last {
            if mv.side() != self.you && self.shown.as_deref() != Some(moves.as_str()) {
                outln!(
                    "{} {} {letter}",
                    side_name(lang, mv.side()),
                    t(lang, "joue", "plays")
                );
            }
        }
        self.shown = Some(moves);
        let position = game.position();
        out!(
            "\n{}",
            board_text::draw(
                &position,
                game.rules().direction,
                last.map(|(mv, _)| mv.hole()),
                lang
            )
        );
        if let (Some(south), Some(north)) =
            (state["time_ms"][0].as_i64(), state["time_ms"][1].as_i64())
        {
            outln!("{}", clock_text(lang, [south, north]));
        }
        if over {
            let winner = match side_of(&state["winner"]) {
                Some(side) if side == self.you => t(lang, "vous gagnez", "you win").to_string(),
                Some(side) => format!("{} {}", side_name(lang, side), t(lang, "gagne", "wins")),
                None => t(lang, "nulle", "draw").to_string(),
            };
            outln!(
                "{}{} {winner} ({}).",
                t(lang, "Partie terminée", "Game over"),
                colon(lang),
                state["status"].as_str().unwrap_or("?")
            );
            return Some(ExitCode::SUCCESS);
        }
        self.prompt_for(&game);
        None
    }

    fn prompt_for(&self, game: &Game) {
        let lang = self.lang;
        let to_move = game.position().to_move();
        if to_move == self.you {
            let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
            out!("{} ({}) > ", side_name(lang, to_move), legal.join(" "));
        } else {
            outln!(
                "{} {}…",
                t(lang, "Au tour de", "Waiting for"),
                side_name(lang, to_move)
            );
        }
        let _ = std::io::stdout().flush();
    }

    /// The prompt again, after a refusal.
    fn prompt(&self) {
        let mut game = Game::new(self.rules);
        for letter in self.shown.as_deref().unwrap_or("").split_whitespace() {
            if let Some(mv) = letter.chars().next().and_then(Move::from_letter) {
                let _ = game.play(mv);
            }
        }
        self.prompt_for(&game);
    }
}

/// `S` or `N` as a side.
fn side_of(value: &Value) -> Option<Side> {
    match value.as_str() {
        Some("S") => Some(Side::South),
        Some("N") => Some(Side::North),
        _ => None,
    }
}
