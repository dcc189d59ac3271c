//! The server's error codes: one closed list, [`Code`]. Each is sent as
//! its snake_case string (`as_str`, the `error` of an answer's JSON) and
//! worded by the page's catalogs (`page/js/text-fr.json`, `text-en.json`,
//! the key `err_CODE`), which `awale-web/tests/text.rs` checks for each of
//! [`Code::ALL`]. A new code is a new line here, and its words in both
//! catalogs.

use std::fmt;

/// The list of codes, each with its doc and its string on the wire.
macro_rules! codes {
    ($($(#[doc = $doc:literal])+ $name:ident = $wire:literal,)+) => {
        /// A stable, machine-readable error code, such as `illegal_move`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[doc = $doc])+ $name,)+
        }

        impl Code {
            /// Every code, in the order of the list.
            pub const ALL: &'static [Code] = &[$(Code::$name,)+];

            /// The code as the wire carries it (`no_such_game`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $wire,)+
                }
            }
        }
    };
}

// One line a code, in the order of their strings; each documented by what
// the page says of it in English.
codes! {
    /// The page: "A moderator closed this account."
    AccountClosed = "account_closed",
    /// The page: "Logged in, you play under your username."
    AccountName = "account_name",
    /// The page: "Tournaments are for accounts: sign up or log in."
    AccountNeeded = "account_needed",
    /// The page: "This account is already a bot."
    AlreadyBot = "already_bot",
    /// The page: "Your challenge to this player already waits for their answer."
    AlreadyChallenged = "already_challenged",
    /// The page: "This is so already (the page was out of date): look again."
    AlreadyDone = "already_done",
    /// The page: "You already play in this game."
    AlreadySeated = "already_seated",
    /// An answer of the bot or board API that is neither `yes` nor `no`.
    BadAnswer = "bad_answer",
    /// The page: "You cannot block yourself."
    BadBlock = "bad_block",
    /// The page: "The server could not read this request."
    BadBody = "bad_body",
    /// A challenge number of the bot or board API that is not a number.
    BadChallenge = "bad_challenge",
    /// The page: "The clock takes 0.1 to 180 minutes, and 0 to 60 seconds per move; or else 1, 2, 3, 5, 7 or 14 days per move."
    BadClock = "bad_clock",
    /// The page: "There is no such page of the list."
    BadCursor = "bad_cursor",
    /// The page: "The difficulty goes from 1 to 5."
    BadDifficulty = "bad_difficulty",
    /// The page: "The request holds a wrong value."
    BadField = "bad_field",
    /// The page: "This filter is not understood."
    BadFilter = "bad_filter",
    /// The page: "This server does not answer under this name."
    BadHost = "bad_host",
    /// The page: "The request cannot be read."
    BadJson = "bad_json",
    /// The page: "The game played offline could not be sent (a bad key)."
    BadKey = "bad_key",
    /// The page: "There is no level {level}."
    BadLevel = "bad_level",
    /// The page: "From 1 to {max} lines."
    BadLines = "bad_lines",
    /// The page: "Wrong username or password."
    BadLogin = "bad_login",
    /// The page: "A message takes 1 to {max} characters."
    BadMessage = "bad_message",
    /// The page: "There is no such kind of game."
    BadMode = "bad_mode",
    /// The page: "`{text}` is not a move (holes are A-F for South, a-f for North)."
    BadMove = "bad_move",
    /// The page: "These moves are not understood."
    BadMoves = "bad_moves",
    /// The page: "A nickname takes 1 to 24 characters."
    BadName = "bad_name",
    /// The page: "Wrong password."
    BadPassword = "bad_password",
    /// The page: "This position is not understood."
    BadPosition = "bad_position",
    /// The page: "The server's public address (--public-url) is not valid."
    BadPublicUrl = "bad_public_url",
    /// The page: "This request is not understood (a bad address)."
    BadQuery = "bad_query",
    /// The page: "A rating range is 1 to {max} points."
    BadRange = "bad_range",
    /// The page: "There is no such reaction."
    BadReaction = "bad_reaction",
    /// The page: "Bad game file: {0}"
    BadRecord = "bad_record",
    /// The page: "Wrong username or recovery code (or the code was used)."
    BadRecoveryCode = "bad_recovery_code",
    /// The page: "This report is not possible."
    BadReport = "bad_report",
    /// The page: "There is no such room."
    BadRoom = "bad_room",
    /// The page: "These rules are not understood."
    BadRules = "bad_rules",
    /// The page: "This token scope does not exist: bot:play, board:play or read."
    BadScope = "bad_scope",
    /// The page: "Choose South, North or random."
    BadSide = "bad_side",
    /// The page: "There is no such theme."
    BadTheme = "bad_theme",
    /// The page: "This API token is unknown or revoked."
    BadToken = "bad_token",
    /// The page: "This tournament cannot be made so."
    BadTournament = "bad_tournament",
    /// The page: "This username is not possible."
    BadUsername = "bad_username",
    /// The page: "One of you blocked the other."
    Blocked = "blocked",
    /// The page: "A bot plays only through the bot API, not from the site's pages."
    BotApiOnly = "bot_api_only",
    /// The page: "A bot does not join quick pairing: it is challenged."
    BotInPools = "bot_in_pools",
    /// The page: "A bot plays through the bot API, not the board API."
    BotOnBoardApi = "bot_on_board_api",
    /// The page: "A bot challenges a person to casual games only."
    BotRatedVsPerson = "bot_rated_vs_person",
    /// The page: "This tournament is for people only: its organiser did not let bots join."
    BotsNotAllowed = "bots_not_allowed",
    /// The page: "The server is busy: try again in a moment."
    Busy = "busy",
    /// The page: "The game can be called off only before both players have moved, or when your opponent has not made a first move within 30 seconds."
    CannotAbort = "cannot_abort",
    /// The page: "Berserk is chosen once a game, before your first move."
    CannotBerserk = "cannot_berserk",
    /// The page: "The win can be claimed only when your opponent, to move, has been gone for 2 minutes (in a game without a clock)."
    CannotClaim = "cannot_claim",
    /// The page: "This challenge waited too long: it expired."
    ChallengeExpired = "challenge_expired",
    /// The page: "One cannot challenge oneself."
    ChallengeSelf = "challenge_self",
    /// The page: "This challenge has had its answer already."
    ChallengeSettled = "challenge_settled",
    /// The page: "No takebacks in a game with a clock."
    ClockGame = "clock_game",
    /// The page: "Refused: the request comes from another site."
    CrossSite = "cross_site",
    /// The page: "A game over days is played online, a move when each can."
    DaysNeedOnline = "days_need_online",
    /// The page: "Your draw offer was declined: you can offer again after your next move."
    DrawDeclined = "draw_declined",
    /// The page: "A draw offer is already waiting for its answer."
    DrawPending = "draw_pending",
    /// The page: "A draw can be offered once both players have moved (before that, call the game off)."
    DrawTooEarly = "draw_too_early",
    /// The page: "The game is already over in this position: choose one where it goes on."
    FinishedPosition = "finished_position",
    /// The page: "The review opens once the game is over."
    GameNotOver = "game_not_over",
    /// The page: "The game is over."
    GameOver = "game_over",
    /// The page: "Only an account that has played no online game can become a bot."
    HasGames = "has_games",
    /// The page: "This move is not allowed."
    IllegalMove = "illegal_move",
    /// The page: "The server ran into an error; try again."
    Internal = "internal",
    /// The page: "This game is played by invitation: its seat is taken with the whole invitation link."
    InviteKey = "invite_key",
    /// The page: "No chat in kid mode."
    KidMode = "kid_mode",
    /// The page: "Log out first to make another account."
    LoggedIn = "logged_in",
    /// The page: "This request is not allowed here."
    MethodNotAllowed = "method_not_allowed",
    /// The page: "This token does not allow that: make one with the scope it needs."
    MissingScope = "missing_scope",
    /// The page: "A moderator acts only on players (an administrator on moderators too), never on themselves."
    ModeratorRank = "moderator_rank",
    /// The page: "A moderator muted you from chat."
    Muted = "muted",
    /// The page: "This nickname is an account's or the site's: choose another."
    NameTaken = "name_taken",
    /// The page: "Puzzles come from the endgame databases, and this server has none: build them with `awale db build --max-seeds 16`, then restart the server."
    NoDatabase = "no_database",
    /// The page: "Your opponent has not offered a draw (or has just moved instead)."
    NoDraw = "no_draw",
    /// The page: "No hint now."
    NoHint = "no_hint",
    /// The page: "This mistake is not in your list."
    NoMistake = "no_mistake",
    /// The page: "This browser has no player cookie yet: reload the page."
    NoPlayer = "no_player",
    /// The page: "No puzzle of this kind was found."
    NoPuzzle = "no_puzzle",
    /// The page: "This server keeps no ratings: play a casual game."
    NoRatings = "no_ratings",
    /// The page: "Your opponent has not offered a rematch (or has withdrawn it)."
    NoRematch = "no_rematch",
    /// The page: "This game has not been reviewed yet."
    NoReview = "no_review",
    /// The page: "There is no account of that name."
    NoSuchAccount = "no_such_account",
    /// An API of the path that is neither `bot` nor `board`.
    NoSuchApi = "no_such_api",
    /// The page: "There is no such challenge."
    NoSuchChallenge = "no_such_challenge",
    /// The page: "This game is not (or no longer) on this server."
    NoSuchGame = "no_such_game",
    /// The page: "There is no such ladder: bullet (1+0) or blitz (3+2)."
    NoSuchLadder = "no_such_ladder",
    /// The page: "This message is gone."
    NoSuchLine = "no_such_line",
    /// The page: "This link is unknown, already used or expired: make a new one on the other device."
    NoSuchLink = "no_such_link",
    /// The page: "No player has this name."
    NoSuchPlayer = "no_such_player",
    /// The page: "There is no such pool (pools: 1+0, 1+1, 3+0, 3+2, 5+3, 10+5, 15+10)."
    NoSuchPool = "no_such_pool",
    /// The page: "This report does not exist or was dealt with."
    NoSuchReport = "no_such_report",
    /// The page: "No token of yours has this number."
    NoSuchToken = "no_such_token",
    /// The page: "This tournament does not exist."
    NoSuchTournament = "no_such_tournament",
    /// The page: "Your opponent has not asked for a takeback."
    NoTakeback = "no_takeback",
    /// The page: "This call needs an API token (Authorization: Bearer)."
    NoToken = "no_token",
    /// The page: "Only a bot account plays through the bot API."
    NotABot = "not_a_bot",
    /// The page: "Only an administrator does this."
    NotAdmin = "not_admin",
    /// The page: "The endgame databases do not cover this position."
    NotCovered = "not_covered",
    /// The page: "No help from the computer now (fair play)."
    NotFair = "not_fair",
    /// The page: "Nothing at this address."
    NotFound = "not_found",
    /// The page: "You have not joined this tournament."
    NotInTournament = "not_in_tournament",
    /// The page: "The request cannot be read."
    NotJson = "not_json",
    /// The page: "Log in first."
    NotLoggedIn = "not_logged_in",
    /// The page: "This is for moderators."
    NotModerator = "not_moderator",
    /// The page: "This game is not played online."
    NotOnline = "not_online",
    /// The page: "Only the tournament's organiser may start its rounds."
    NotOrganiser = "not_organiser",
    /// The page: "The game is not over yet."
    NotOver = "not_over",
    /// The page: "This game moved no rating points, or they were given back already."
    NotRefundable = "not_refundable",
    /// The page: "No report names this game: what its players said to each other stays theirs."
    NotReported = "not_reported",
    /// The page: "This is for a Swiss tournament."
    NotSwiss = "not_swiss",
    /// The page: "Only the tournament's creator may end it."
    NotTheCreator = "not_the_creator",
    /// The page: "The game has begun."
    NotWaiting = "not_waiting",
    /// The page: "This challenge is not yours."
    NotYourChallenge = "not_your_challenge",
    /// The page: "Only a player of the game learns from its mistakes."
    NotYourGame = "not_your_game",
    /// The page: "This game is another player's: you can watch it, not play in it."
    NotYourSeat = "not_your_seat",
    /// The page: "It is not your turn."
    NotYourTurn = "not_your_turn",
    /// The page: "Nothing to redo."
    NothingToRedo = "nothing_to_redo",
    /// The page: "An aborted game has nothing to review."
    NothingToReview = "nothing_to_review",
    /// The page: "Nothing to undo."
    NothingToUndo = "nothing_to_undo",
    /// The page: "Online, ask your opponent to take back a move."
    OnlineGame = "online_game",
    /// The page: "This challenge is for ratings from {low} to {high}: yours is {rating}."
    OutOfRange = "out_of_range",
    /// The page: "A rating range is set from an account (a guest has no rating): log in."
    RangeNeedsAccount = "range_needs_account",
    /// The page: "A game from a study position is casual."
    RatedFromPosition = "rated_from_position",
    /// The page: "A rated game is between two accounts: log in, or play a casual game."
    RatedNeedsAccount = "rated_needs_account",
    /// The page: "A rated game is played with a clock of 15 s to 180 min (0 to 60 s a move), or days per move."
    RatedNeedsClock = "rated_needs_clock",
    /// The page: "Only an online game can be rated."
    RatedNeedsOnline = "rated_needs_online",
    /// The page: "A rated game is played on a preset's rules (awalé or abapa), no option changed."
    RatedNeedsStandardRules = "rated_needs_standard_rules",
    /// The page: "A rated seat stays with its account: log in to your account on the other device."
    RatedSeat = "rated_seat",
    /// The page: "Say why: a moderator's action needs a reason."
    ReasonNeeded = "reason_needed",
    /// The page: "The rematch has already begun."
    RematchMade = "rematch_made",
    /// The page: "A round is being played: wait for its end."
    RoundInPlay = "round_in_play",
    /// The page: "Both seats of this game are taken: you can watch it."
    SeatTaken = "seat_taken",
    /// The page: "The request came too slowly: check the connection and try again."
    SlowBody = "slow_body",
    /// The page: "The game changed elsewhere; it has been reloaded."
    Stale = "stale",
    /// The page: "A takeback is already asked."
    TakebackPending = "takeback_pending",
    /// The page: "A Swiss needs at least two players."
    TooFewPlayers = "too_few_players",
    /// The page: "That is too long for the server."
    TooLarge = "too_large",
    /// The page: "Too many requests: wait {wait_s} s."
    TooMany = "too_many",
    /// The page: "You already have 3 games waiting for an opponent: withdraw one first."
    TooManyChallenges = "too_many_challenges",
    /// The page: "A tournament's record file holds {most} games at most."
    TooManyForFile = "too_many_for_file",
    /// The page: "You have played enough rated games together today: play on casual."
    TooManyRatedTogether = "too_many_rated_together",
    /// The page: "You have too many tokens: revoke one first."
    TooManyTokens = "too_many_tokens",
    /// The page: "You have made enough tournaments for today."
    TournamentLimit = "tournament_limit",
    /// The page: "This tournament is over."
    TournamentOver = "tournament_over",
    /// The page: "This username is taken."
    UsernameTaken = "username_taken",
    /// The page: "The game has not begun: it waits for the second player."
    WaitingForOpponent = "waiting_for_opponent",
    /// The page: "This password is not safe enough."
    WeakPassword = "weak_password",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A code compared with its string (`e.code == "stale"`): as the wire
/// would compare them.
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_is_one_snake_case_string_in_order() {
        let strings: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        for s in &strings {
            assert!(
                !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{s}"
            );
        }
        let mut sorted = strings.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, strings, "each once, in the order of their strings");
        assert_eq!(Code::NoSuchGame.to_string(), "no_such_game");
        assert_eq!(
            serde_json::to_string(&Code::IllegalMove).unwrap(),
            "\"illegal_move\""
        );
        assert!(Code::Stale == "stale");
    }
}
