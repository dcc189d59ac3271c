//! Every chat line, a game's or a tournament's, as lila's `ChatApi` has
//! it: one place cleans the text, checks who may speak (mutes, kid mode,
//! blocks, the flood limit per player and address), names the speaker
//! (the server's record of them, never the message's word), keeps the
//! line, then tells it to whoever may read it.
//!
//! The rooms: a game's players' room (its two players), a game's public
//! room (anyone watching), a tournament's room (its page). A game's line
//! goes on the game's live stream as a typed event whose audience the
//! stream filters for each listener ([`crate::live::Audience`]: the
//! players' room reaches the players only; no chat reaches a kid-mode
//! account); a tournament's goes to the followers of its room
//! ([`Chat::follow_tournament`]), each reader's blocks hiding the lines of
//! whom they block or who blocks them. A moderator removes a line, and
//! reads both rooms of a game a report names. No HTTP, no SQL.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use awale_core::Side;
use awale_model::game::{clean_text, Mode, PlayerId, WebGame};
use awale_model::lists::ChatLine;
use awale_model::{lock, Error, Kind};
use awale_store::tournament_chat::{TournamentChatLine, TournamentChatStore};
use awale_store::{AccountStore, GameStore, Notice};
use tokio::sync::broadcast;

use crate::accounts::Accounts;
use crate::games::Games;
use crate::limiter::{PerPlayerAndClient, Rate};
use crate::live::{Audience, Listener};
use crate::tournaments::Tournaments;
use awale_model::account::Account;
use awale_model::Code;

/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 280;
/// The lines a room shows (a game's, a tournament's).
pub const CHAT_SHOWN: usize = 200;
/// How many of a room's last lines are read to find one said elsewhere.
const CHAT_READ: usize = 50;

/// A game's two rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// The two players'.
    Players,
    /// Everyone's (players and spectators).
    Public,
}

impl Room {
    /// The room named `name` (`players`, `public`).
    ///
    /// # Errors
    ///
    /// `bad_room`, the word given back.
    pub fn parse(name: &str) -> Result<Room, Error> {
        match name {
            "players" => Ok(Room::Players),
            "public" => Ok(Room::Public),
            other => Err(Error::invalid(
                Code::BadRoom,
                format!(
                    "`{}` is not a room (players or public)",
                    awale_model::error::shown(other)
                ),
            )
            .with("text", other)),
        }
    }

    /// Its name, as lines and requests say it.
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Public => "public",
        }
    }

    /// Who hears its lines on the game's stream.
    pub fn audience(self) -> Audience {
        match self {
            Room::Players => Audience::Players,
            Room::Public => Audience::All,
        }
    }

    fn of_line(line: &ChatLine) -> Room {
        if line.room == "players" {
            Room::Players
        } else {
            Room::Public
        }
    }
}

/// Who speaks or reads: their player (the cookie's), their account when
/// logged in, their client's address (for the flood limit).
#[derive(Clone, Copy, Debug)]
pub struct Speaker<'a> {
    /// The player.
    pub player: &'a PlayerId,
    /// Their account, if logged in.
    pub account: Option<&'a Account>,
    /// Their client's address, if known.
    pub client: Option<IpAddr>,
    /// Which way they speak: a bot's account speaks through the bot API
    /// only.
    pub door: crate::bots::Door,
}

/// What the followers of a tournament's room hear.
#[derive(Clone, Debug)]
pub enum ChatNews {
    /// A line was said.
    Said(TournamentChatLine),
    /// A moderator removed line number `0`.
    Removed(i64),
}

/// Both rooms of a game, as a moderator reads them.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameChat {
    /// The game's public id.
    pub game: String,
    /// The players' room, oldest first.
    pub players: Vec<ChatLine>,
    /// The public room, oldest first.
    pub public: Vec<ChatLine>,
}

/// The chat service: games' rooms and tournaments' rooms.
pub struct Chat {
    games: Arc<Games>,
    accounts: Arc<Accounts>,
    tournaments: Arc<Tournaments>,
    lines: Arc<dyn GameStore>,
    tournament_lines: Arc<dyn TournamentChatStore>,
    /// Where a moderator's removal of a game's line is kept.
    removals: Arc<dyn AccountStore>,
    /// The flood limit, one for every room.
    flood: PerPlayerAndClient<PlayerId>,
    /// The live rooms of the tournaments.
    rooms: Mutex<HashMap<i64, broadcast::Sender<Arc<ChatNews>>>>,
}

/// A number from 1000 to 9999 for a player's default nickname ("Guest
/// 4821", "Invité 4821", as the page words it).
pub fn guest_number(player: &PlayerId) -> u32 {
    let n = u32::from_str_radix(player.0.get(..8).unwrap_or("0"), 16).unwrap_or(0);
    1000 + n % 9000
}

/// The message `text` as it is kept (cleaned), if `account` may say it:
/// refused when muted, in kid mode, empty or longer than
/// [`MAX_CHAT_CHARS`].
///
/// # Errors
///
/// `muted`, `kid_mode`, `bad_message`.
pub fn clean_message(account: Option<&Account>, text: &str) -> Result<String, Error> {
    Accounts::check_may_chat(account)?;
    if account.is_some_and(|a| a.kid) {
        return Err(Error::forbidden(Code::KidMode, "chat is off in kid mode"));
    }
    let text = clean_text(text);
    let length = text.chars().count();
    if length == 0 || length > MAX_CHAT_CHARS {
        return Err(Error::invalid(
            Code::BadMessage,
            format!("a message takes 1 to {MAX_CHAT_CHARS} characters (this one has {length})"),
        )
        .with("max", MAX_CHAT_CHARS)
        .with("length", length));
    }
    Ok(text)
}

fn not_moderator() -> Error {
    Error::forbidden(Code::NotModerator, "this is for moderators")
}

fn moderator(account: &Account) -> Result<(), Error> {
    if account.role.moderates() {
        Ok(())
    } else {
        Err(not_moderator())
    }
}

impl Chat {
    /// The chat of `games` and `tournaments`, its lines kept in `store`,
    /// each speaker limited to `rate` (and each address to its share).
    pub fn new<S>(
        games: Arc<Games>,
        accounts: Arc<Accounts>,
        tournaments: Arc<Tournaments>,
        store: Arc<S>,
        rate: Rate,
    ) -> Chat
    where
        S: GameStore + AccountStore + TournamentChatStore + 'static,
    {
        Chat {
            games,
            accounts,
            tournaments,
            lines: store.clone(),
            tournament_lines: store.clone(),
            removals: store,
            flood: PerPlayerAndClient::new(crate::limiter::Limit::Chat, rate),
            rooms: Mutex::new(HashMap::new()),
        }
    }

    /// Listens to the other processes' news of the rooms (`notices`, from
    /// a store that several share): a line said or removed on another
    /// process is told to the listeners here. Needs a Tokio runtime.
    pub fn start(self: &Arc<Self>, notices: Option<broadcast::Receiver<Notice>>) {
        let Some(notices) = notices else { return };
        // A line missed shows when the page reads the room again.
        crate::notices::listen(notices, Arc::downgrade(self), |me, notice| async move {
            match notice {
                Notice::Chat { game, line } => me.heard_in_game(game, line).await,
                Notice::TournamentChat {
                    tournament,
                    line,
                    removed,
                } => me.heard_in_tournament(tournament, line, removed).await,
                _ => {}
            }
        });
    }

    /// Tells this process's listeners of game `game` line `line`, said on
    /// another process.
    async fn heard_in_game(&self, game: i64, line: i64) {
        if !self.games.hub().has_listeners(game) {
            return;
        }
        match self.lines.chat(game, CHAT_READ).await {
            Ok(lines) => {
                if let Some(line) = lines.into_iter().find(|l| l.id == line) {
                    let audience = Room::of_line(&line).audience();
                    self.games.hub().publish_chat(game, audience, &line);
                }
            }
            Err(e) => tracing::warn!(game, error = %e, "a chat line not read"),
        }
    }

    /// Tells this process's followers of `tournament`'s room what another
    /// process said (line `line`) or `removed`.
    async fn heard_in_tournament(&self, tournament: i64, line: i64, removed: bool) {
        let room = self.room(tournament);
        if room.receiver_count() == 0 {
            return;
        }
        if removed {
            let _ = room.send(Arc::new(ChatNews::Removed(line)));
            return;
        }
        match self
            .tournament_lines
            .tournament_chat(tournament, CHAT_READ)
            .await
        {
            Ok(lines) => {
                if let Some(said) = lines.into_iter().find(|l| l.line.id == line) {
                    let _ = room.send(Arc::new(ChatNews::Said(said)));
                }
            }
            Err(e) => tracing::warn!(tournament, error = %e, "a tournament's chat line not read"),
        }
    }

    fn room(&self, tournament: i64) -> broadcast::Sender<Arc<ChatNews>> {
        lock(&self.rooms)
            .entry(tournament)
            .or_insert_with(|| broadcast::channel(64).0)
            .clone()
    }

    /// `text` cleaned, if `who` may say it now (one of their flood limit's
    /// tokens taken).
    fn may_say(&self, who: Speaker<'_>, text: &str) -> Result<String, Error> {
        if who.door == crate::bots::Door::Page && who.account.is_some_and(|a| a.bot) {
            return Err(crate::bots::bot_api_only());
        }
        let text = clean_message(who.account, text)?;
        self.flood
            .take(who.player, who.client, self.games.now_ms())?;
        Ok(text)
    }

    /// The name a speaker who sits in no seat speaks under: their
    /// account's username, else the nickname they chose, else none (then
    /// their guest number, which the page words).
    async fn name(&self, who: Speaker<'_>) -> Result<(String, Option<u32>), Error> {
        let name = match who.account {
            Some(a) => Some(a.username.clone()),
            None => self.lines.player_name(who.player.clone()).await?,
        };
        let guest = name.is_none().then(|| guest_number(who.player));
        Ok((name.unwrap_or_default(), guest))
    }

    // ------------------------------------------------------ a game's --

    /// `who` says `text` in `room` of game `game`: the line kept, then
    /// told to the room's audience on the game's stream.
    ///
    /// # Errors
    ///
    /// `muted`, `kid_mode`, `bad_message`, `too_many` (the flood limit),
    /// `not_online`, `blocked` (a player of the game blocks the speaker, or
    /// the other way), `not_your_seat` (the players' room is for the
    /// players), a storage failure.
    pub async fn say_in_game(
        &self,
        who: Speaker<'_>,
        game: i64,
        room: Room,
        text: &str,
    ) -> Result<ChatLine, Error> {
        let text = self.may_say(who, text)?;
        let web = self.games.load(game).await?;
        if web.mode != Mode::Online {
            return Err(Error::conflict(Code::NotOnline, "chat is for online games"));
        }
        let seat = web.online_seat(Some(who.player));
        // Nobody speaks in a game of a player who blocks them.
        for other in web.seats.iter().flatten() {
            self.accounts
                .check_not_blocked(&other.player, who.player)
                .await?;
        }
        if room == Room::Players && seat.is_none() {
            return Err(Error::forbidden(
                Code::NotYourSeat,
                "the players' room is for the two players: write in the public's room",
            )
            .because("players_room"));
        }
        // Who speaks is the server's record of them: their seat's name, or
        // the nickname they chose.
        let (name, guest) = match seat.and_then(|side| web.seats[side.index()].as_ref()) {
            Some(s) => (s.name.clone(), None),
            None => match self.lines.player_name(who.player.clone()).await? {
                Some(name) => (name, None),
                None => (String::new(), Some(guest_number(who.player))),
            },
        };
        let line = ChatLine {
            id: 0,
            room: room.name(),
            at_ms: self.games.now_ms(),
            side: seat.map(Side::letter),
            name,
            text,
            guest,
        };
        let line = self.lines.add_chat(game, line).await?;
        self.games.hub().publish_chat(game, room.audience(), &line);
        Ok(line)
    }

    /// The last lines of game `game` that `reader` may read: none in kid
    /// mode, the public room's, and the players' for its players.
    ///
    /// # Errors
    ///
    /// A storage failure.
    pub async fn game_lines(
        &self,
        reader: Option<&PlayerId>,
        account: Option<&Account>,
        game: i64,
    ) -> Result<Vec<ChatLine>, Error> {
        if account.is_some_and(|a| a.kid) {
            return Ok(Vec::new());
        }
        let web = self.games.load(game).await?;
        let seated = web.online_seat(reader).is_some();
        let mut lines = self.lines.chat(game, CHAT_SHOWN).await?;
        lines.retain(|l| Room::of_line(l) == Room::Public || seated);
        Ok(lines)
    }

    /// A moderator removes line `line` of the game whose public id is
    /// `game` (as reports name it); the game's listeners are told
    /// (`chat_removed`).
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_game` (a number is no public id, whoever
    /// asks), `no_such_line`.
    pub async fn remove_game_line(
        &self,
        moderator_account: &Account,
        game: &str,
        line: i64,
    ) -> Result<(), Error> {
        moderator(moderator_account)?;
        // No viewer: a number names no game here, whoever asks.
        let id = self.games.find(game, None).await?;
        if !self.removals.remove_chat_line(id, line).await? {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchLine,
                format!(
                    "no chat line {line} in game `{}`",
                    awale_model::error::shown(game)
                ),
            ));
        }
        self.games
            .hub()
            .publish_chat_now(id, "chat_removed", serde_json::json!({ "id": line }));
        Ok(())
    }

    /// Both rooms of the game whose public id is `game`, for a moderator,
    /// when a report names that game: what its players said to each other
    /// is read for a report only.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_game`, `not_reported` (no report of the
    /// last ones names it), a storage failure.
    pub async fn reported_game(
        &self,
        moderator_account: &Account,
        game: &str,
    ) -> Result<GameChat, Error> {
        moderator(moderator_account)?;
        let id = self.games.find(game, None).await?;
        if !self.reported(moderator_account, game).await? {
            return Err(Error::new(
                Kind::NotFound,
                Code::NotReported,
                format!(
                    "no report names game `{}`: its players' room is theirs",
                    awale_model::error::shown(game)
                ),
            ));
        }
        let (players, public) = self
            .lines
            .chat(id, CHAT_SHOWN)
            .await?
            .into_iter()
            .partition(|l| Room::of_line(l) == Room::Players);
        Ok(GameChat {
            game: game.to_string(),
            players,
            public,
        })
    }

    /// Whether a report `moderator_account` (a moderator) reads names the
    /// game whose public id is `game`.
    async fn reported(&self, moderator_account: &Account, game: &str) -> Result<bool, Error> {
        let reports = self.accounts.reports(moderator_account).await?;
        Ok(reports.iter().any(|r| r.game.as_deref() == Some(game)))
    }

    /// Who `viewer` (logged in to `account`, if any) is on game `game`'s
    /// live stream, as its events' audiences ask: seated (a player), a
    /// kid-mode account (no chat), a moderator of a game a report names
    /// (the players' room live, as [`Chat::reported_game`] reads it).
    ///
    /// # Errors
    ///
    /// A storage failure (reading the reports).
    pub async fn listener(
        &self,
        account: Option<&Account>,
        game: &WebGame,
        viewer: Option<&PlayerId>,
    ) -> Result<Listener, Error> {
        let moderator = match account {
            Some(a) if a.role.moderates() && !a.kid => self.reported(a, &game.public_id).await?,
            _ => false,
        };
        Ok(Listener {
            seated: game.online_seat(viewer).is_some(),
            kid: account.is_some_and(|a| a.kid),
            moderator,
        })
    }

    // ------------------------------------------------ a tournament's --

    /// `who` says `text` in tournament `tournament`'s room (anyone on its
    /// page: its players and its watchers): the line kept, then told to
    /// the room's followers.
    ///
    /// # Errors
    ///
    /// `muted`, `kid_mode`, `bad_message`, `too_many`, `no_such_tournament`,
    /// a storage failure.
    pub async fn say_in_tournament(
        &self,
        who: Speaker<'_>,
        tournament: i64,
        text: &str,
    ) -> Result<ChatLine, Error> {
        let text = self.may_say(who, text)?;
        // The tournament must be there (404 otherwise).
        self.tournaments.watch(tournament).await?;
        let (name, guest) = self.name(who).await?;
        let line = TournamentChatLine {
            line: ChatLine {
                id: 0,
                room: Room::Public.name(),
                at_ms: self.games.now_ms(),
                side: None,
                name,
                text,
                guest,
            },
            player: who.player.clone(),
        };
        let said = self
            .tournament_lines
            .add_tournament_chat(tournament, line)
            .await?;
        // An error only means that nobody follows now.
        let _ = self
            .room(tournament)
            .send(Arc::new(ChatNews::Said(said.clone())));
        Ok(said.line)
    }

    /// The last lines of tournament `tournament`'s room that `reader` may
    /// read: none in kid mode, nor those of whom they block or who blocks
    /// them.
    ///
    /// # Errors
    ///
    /// `no_such_tournament`, a storage failure.
    pub async fn tournament_lines(
        &self,
        reader: Option<&PlayerId>,
        account: Option<&Account>,
        tournament: i64,
    ) -> Result<Vec<ChatLine>, Error> {
        self.tournaments.watch(tournament).await?;
        if account.is_some_and(|a| a.kid) {
            return Ok(Vec::new());
        }
        let mut seen = HashMap::new();
        let mut shown = Vec::new();
        for l in self
            .tournament_lines
            .tournament_chat(tournament, CHAT_SHOWN)
            .await?
        {
            if self.may_read(reader, &l.player, &mut seen).await {
                shown.push(l.line);
            }
        }
        Ok(shown)
    }

    /// What tournament `tournament`'s room says from now on, for the
    /// reader of `account`: nothing in kid mode (None).
    pub fn follow_tournament(
        &self,
        account: Option<&Account>,
        tournament: i64,
    ) -> Option<broadcast::Receiver<Arc<ChatNews>>> {
        (!account.is_some_and(|a| a.kid)).then(|| self.room(tournament).subscribe())
    }

    /// Whether `reader` may read what `speaker` says: neither blocks the
    /// other (asked once a speaker, the answer kept in `seen`).
    pub async fn may_read(
        &self,
        reader: Option<&PlayerId>,
        speaker: &PlayerId,
        seen: &mut HashMap<PlayerId, bool>,
    ) -> bool {
        let Some(reader) = reader else { return true };
        if let Some(&known) = seen.get(speaker) {
            return known;
        }
        let may = !self.accounts.blocks(reader, speaker).await.unwrap_or(false);
        seen.insert(speaker.clone(), may);
        may
    }

    /// A moderator removes line `line` of tournament `tournament`'s room;
    /// its followers are told.
    ///
    /// # Errors
    ///
    /// `not_moderator`, `no_such_line`, a storage failure.
    pub async fn remove_tournament_line(
        &self,
        moderator_account: &Account,
        tournament: i64,
        line: i64,
    ) -> Result<(), Error> {
        moderator(moderator_account)?;
        if !self
            .tournament_lines
            .remove_tournament_chat_line(tournament, line)
            .await?
        {
            return Err(Error::new(
                Kind::NotFound,
                Code::NoSuchLine,
                format!("no chat line {line} in tournament {tournament}"),
            ));
        }
        let _ = self
            .room(tournament)
            .send(Arc::new(ChatNews::Removed(line)));
        Ok(())
    }
}
