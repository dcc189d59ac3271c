//! What the page sees: typed, serialisable views of a game, built in one
//! place for the answers and the live events alike. A view depends on who
//! looks (`you`: the sides the viewer may play), never on HTTP.

use awale_core::{Position, Rules, Side};
use serde::Serialize;

use crate::error::Error;
use crate::game::{Mode, Offers, PlayerId, WebGame};
use crate::Code;

/// The rule options, with the preset-based name.
#[derive(Clone, Debug, Serialize)]
pub struct RulesView {
    /// As `awale`, `abapa,target=20`.
    pub name: String,
    /// `forbidden` or `no_capture`.
    pub grand_slam: &'static str,
    /// `nobody` or `own_row`.
    pub repetition: &'static str,
    /// Seeds that end the game, if any.
    pub target: Option<u8>,
    /// `counter_clockwise` or `clockwise`.
    pub direction: &'static str,
    /// `south`, `north` or `random`.
    pub first: &'static str,
    /// The screen columns of each side's holes, left to right.
    pub columns: Columns,
}

/// Screen columns of the holes of each row.
#[derive(Clone, Debug, Serialize)]
pub struct Columns {
    /// South's.
    #[serde(rename = "S")]
    pub south: [usize; 6],
    /// North's.
    #[serde(rename = "N")]
    pub north: [usize; 6],
}

impl RulesView {
    /// The view of `rules`.
    pub fn of(rules: &Rules) -> RulesView {
        RulesView {
            name: rules.to_string(),
            grand_slam: rules.grand_slam.name(),
            repetition: rules.repetition.name(),
            target: rules.target,
            direction: rules.direction.name(),
            first: rules.first.name(),
            columns: Columns {
                south: rules.direction.columns(Side::South),
                north: rules.direction.columns(Side::North),
            },
        }
    }
}

/// One move of the game.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// The hole letter.
    #[serde(rename = "move")]
    pub mv: String,
    /// Seeds captured.
    pub captured: u8,
    /// Who played it.
    pub side: char,
    /// The holes before it (`A..F`, `a..f`).
    pub before: [u8; 12],
    /// The stores before it.
    pub stores_before: [u8; 2],
    /// Where its seeds fell, one hole index per seed, in order.
    pub sown: Vec<u8>,
    /// The holes its capture emptied.
    pub captures: Vec<u8>,
}

impl PlyView {
    fn of(p: &awale_core::Ply) -> PlyView {
        let path = p.before.sowing(p.mv);
        PlyView {
            mv: p.mv.letter().to_string(),
            captured: p.captured,
            side: Side::letter(p.before.to_move()),
            before: p.before.holes(),
            stores_before: p.before.stores(),
            sown: path.sown,
            captures: path.captures,
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct EndView {
    /// `starvation`, `repetition`, `target`, `resignation`, `empty_board`,
    /// `time`, `abandoned`, `aborted` or `agreement`.
    pub reason: &'static str,
    /// Final stores.
    pub stores: [u8; 2],
    /// `S`, `N`, or null for a draw or an aborted game.
    pub winner: Option<char>,
    /// The side that ran out of time, resigned or left.
    pub loser_by: Option<char>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
}

/// The clock.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Time each side started with.
    pub initial_ms: i64,
    /// Time added per move.
    pub increment_ms: i64,
    /// A game over days: each move on time gives `initial_ms` again.
    pub per_move: bool,
    /// Time left for South and North when the view was made.
    pub left_ms: Option<[i64; 2]>,
    /// The side whose time runs, if any.
    pub running: Option<char>,
}

/// A position as the page draws it: its diagram, the seeds in each hole
/// and store, and who moves.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// The position's diagram.
    #[serde(rename = "position")]
    pub diagram: String,
    /// Seeds in holes `A..F`, `a..f`.
    pub board: [u8; 12],
    /// Stores of South and North.
    pub stores: [u8; 2],
    /// `S` or `N`.
    pub to_move: char,
}

impl BoardView {
    /// The view of `position`.
    pub fn of(position: &Position) -> BoardView {
        BoardView {
            diagram: position.to_string(),
            board: position.holes(),
            stores: position.stores(),
            to_move: position.to_move().letter(),
        }
    }
}

/// A seat of an online game, as anyone may see it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The nickname.
    pub name: String,
}

/// What changes with each move: everything but the list of moves.
#[derive(Clone, Debug, Serialize)]
pub struct Head {
    /// The game's public id.
    pub id: String,
    /// The position.
    #[serde(flatten)]
    pub position: BoardView,
    /// Legal moves now.
    pub legal: Vec<String>,
    /// Whether a move may be taken back now (by a player of the game).
    pub can_undo: bool,
    /// Whether a redo is possible now.
    pub can_redo: bool,
    /// Whether the computer is to move.
    pub computer_to_move: bool,
    /// Whether the viewer may ask for a hint now, by the rule the server
    /// answers a hint request with ([`WebGame::hint_refusal`]; in a
    /// view made for nobody in particular, a player of the game).
    pub can_hint: bool,
    /// Whether the game may be reviewed now ([`WebGame::review_refusal`]).
    pub can_review: bool,
    /// The end, if the game is over.
    pub end: Option<EndView>,
    /// The clock, if any.
    pub clock: Option<ClockView>,
    /// Whether the game waits for its second player (online).
    pub waiting: bool,
    /// How long the side to move has been thinking (for the countdowns
    /// of abort and claim online).
    pub turn_elapsed_ms: i64,
    /// Offers between the players: `takeback` and `rematch` name the side
    /// that asked; `rematch_id` is the rematch once accepted.
    pub offers: Offers,
    /// The number of the game's last event when the view was made
    /// (`{epoch, number}`): a view is newer than another of the same
    /// epoch when its number is larger.
    pub version: crate::game::Version,
    /// What each side's player may do now (online games), as the server's
    /// rules decide it: the page shows the buttons, it derives no rule.
    pub actions: ActionsView,
    /// What the game did to the players' ratings (South's, North's), once
    /// it ended rated.
    pub rating_changes: Option<[RatingChangeView; 2]>,
}

/// A rated game's effect on one player's rating, as told.
#[derive(Clone, Debug, Serialize)]
pub struct RatingChangeView {
    /// The rating before, rounded.
    pub before: i64,
    /// The rating after, rounded.
    pub after: i64,
    /// `after - before` (`+12`, `-12`).
    pub change: i64,
    /// Whether the new rating is still provisional ("?").
    pub provisional: bool,
}

impl RatingChangeView {
    fn of(c: &crate::rating::RatingChange) -> RatingChangeView {
        RatingChangeView {
            before: c.before.rating.round() as i64,
            after: c.after.rating.round() as i64,
            change: c.change,
            provisional: c.after.provisional(),
        }
    }
}

/// What South's and North's players may do now.
#[derive(Clone, Debug, Serialize)]
pub struct ActionsView {
    /// South's.
    #[serde(rename = "S")]
    pub south: SideActions,
    /// North's.
    #[serde(rename = "N")]
    pub north: SideActions,
}

/// What one side's player may do, at the time of the view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideActions {
    /// Ask for a takeback now.
    pub takeback: bool,
    /// Abort (call the game off): in this many milliseconds from the view
    /// (0: now); null when the game cannot be aborted any more.
    pub abort_in_ms: Option<i64>,
    /// Claim the win, the opponent, to move, being gone: in this many
    /// milliseconds from the view (0: now); null when no claim can come
    /// (the opponent connected, a clock, one's own move, the game over).
    pub claim_in_ms: Option<i64>,
    /// Offer a rematch now.
    pub rematch: bool,
    /// Offer a draw now.
    pub draw: bool,
}

/// A whole game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// What changes with each move.
    #[serde(flatten)]
    pub head: Head,
    /// When it was created.
    pub created_ms: i64,
    /// `computer`, `humans` or `online`.
    pub mode: &'static str,
    /// The person's side against the computer.
    pub human: Option<char>,
    /// The computer's level.
    pub level: Option<u8>,
    /// The rules.
    pub rules: RulesView,
    /// The start position's diagram.
    pub start: String,
    /// Every move so far.
    pub plies: Vec<PlyView>,
    /// The moves in record notation.
    pub notation: String,
    /// Who sits South and North (online games).
    pub seats: [Option<SeatView>; 2],
    /// Listed in the lobby while it waits.
    pub public: bool,
    /// Whether it counts for the ratings.
    pub rated: bool,
    /// Its speed (`bullet`, `blitz`, ...), by its clock.
    pub speed: &'static str,
    /// The sides the viewer may play (`S`, `N`): empty for a spectator;
    /// absent from the events sent to every viewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Vec<char>>,
}

/// A move as the live events send it (and as a move's answer, asked
/// with `?answer=move`): the new ply and what changed.
#[derive(Clone, Debug, Serialize)]
pub struct MoveEvent {
    /// The ply's index (the number of moves before it).
    pub index: usize,
    /// The move.
    pub ply: PlyView,
    /// What changed.
    #[serde(flatten)]
    pub head: Head,
    /// The sides the viewer may play, in an answer (not in events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Vec<char>>,
}

/// Fair play: when the computer's help may be asked (one rule, for the
/// views' `can_hint` and `can_review` and the service's answers to a hint
/// or review request).
impl WebGame {
    /// Why `viewer` may not ask for a hint now, if not: a hint is for a
    /// player of the game going on, without a clock, never online, and not
    /// while the computer is to move. `viewer` None: a view for nobody in
    /// particular, read as a player's.
    ///
    /// Codes: `game_over`, `not_fair` (a spectator), `no_hint` (because
    /// `online`, `clock`, `computer`).
    pub fn hint_refusal(&self, viewer: Option<Option<&PlayerId>>) -> Option<Error> {
        if let Some(end) = self.end() {
            return Some(Error::game_over(end.reason.name()));
        }
        if viewer.is_some_and(|v| self.sides_of(v).is_empty()) {
            return Some(Error::forbidden(
                Code::NotFair,
                "only the players may ask for a hint",
            ));
        }
        let no_hint = |reason: &'static str, why: &str| {
            Some(Error::forbidden(Code::NoHint, why.to_string()).because(reason))
        };
        if self.mode == Mode::Online {
            return no_hint("online", "no help from the computer in an online game");
        }
        if self.clock.is_some() {
            return no_hint("clock", "no hints in a game with a clock");
        }
        if self.computer_to_move() {
            return no_hint("computer", "it is the computer's turn");
        }
        None
    }

    /// Why the game may not be reviewed now, if not: a review comes once
    /// the game is over, whoever played it; an aborted game has nothing to
    /// review. Codes: `game_not_over`, `nothing_to_review`.
    pub fn review_refusal(&self) -> Option<Error> {
        match self.end() {
            None => Some(Error::forbidden(
                Code::GameNotOver,
                "the review comes once the game is over",
            )),
            Some(end) if end.reason == crate::game::EndReason::Aborted => Some(Error::forbidden(
                Code::NothingToReview,
                "an aborted game has nothing to review",
            )),
            Some(_) => None,
        }
    }
}

impl WebGame {
    /// What changes with each move, at time `now`.
    pub fn head(&self, now: i64) -> Head {
        let position = self.game.position();
        let end = self.end();
        let legal = if end.is_none() && !self.waiting() {
            self.game
                .legal_moves()
                .iter()
                .map(|m| m.letter().to_string())
                .collect()
        } else {
            Vec::new()
        };
        Head {
            id: self.public_id.clone(),
            position: BoardView::of(&position),
            legal,
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            computer_to_move: self.computer_to_move(),
            can_hint: self.hint_refusal(None).is_none(),
            can_review: self.review_refusal().is_none(),
            end: end.map(|e| EndView {
                reason: e.reason.name(),
                stores: e.stores,
                winner: e.winner.map(Side::letter),
                loser_by: e.loser_by.or(self.game.resigned()).map(Side::letter),
                result: e.result_text(),
            }),
            clock: self.clock.map(|c| ClockView {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                per_move: c.per_move,
                left_ms: self.time_left(now),
                running: self
                    .clock_running()
                    .then(|| Side::letter(position.to_move())),
            }),
            waiting: self.waiting(),
            turn_elapsed_ms: (now - self.turn_started_ms).max(0),
            offers: self.offers.clone(),
            actions: ActionsView {
                south: self.actions(Side::South, now),
                north: self.actions(Side::North, now),
            },
            version: self.version,
            rating_changes: self
                .rating_changes
                .as_ref()
                .map(|c| [RatingChangeView::of(&c[0]), RatingChangeView::of(&c[1])]),
        }
    }

    /// What `side`'s player may do at time `now` (online games): each
    /// action's check, the one its operation makes before it changes the
    /// game, so the rules have one home.
    pub fn actions(&self, side: Side, now: i64) -> SideActions {
        if self.mode != Mode::Online || self.seats[side.index()].is_none() {
            return SideActions::default();
        }
        let abort_at = |t: i64| self.may_abort(side, t).is_ok();
        let abort_in_ms = if abort_at(now) {
            Some(0)
        } else {
            let at = self.turn_started_ms + crate::game::ABORT_AFTER_MS;
            (at > now && abort_at(at)).then_some(at - now)
        };
        // A claim against the opponent as the watchers last saw it: the
        // earliest it may come, if they stay away or stay on their move.
        let gone = self.gone_since[side.opponent().index()];
        let claim_at = |t: i64| self.may_claim(side, gone, t).is_ok();
        let stalled_at = self.turn_started_ms + crate::game::STALL_AFTER_MS;
        let earliest = gone.map_or(stalled_at, |since| {
            (since.max(self.turn_started_ms) + crate::game::CLAIM_AFTER_MS).min(stalled_at)
        });
        let claim_in_ms = if claim_at(now) {
            Some(0)
        } else {
            (earliest > now && claim_at(earliest)).then_some(earliest - now)
        };
        let rematch = self.offers.rematch.is_none() && self.may_offer_rematch().is_ok();
        SideActions {
            takeback: self.may_ask_takeback(side).is_ok(),
            abort_in_ms,
            claim_in_ms,
            rematch,
            draw: self.may_offer_draw(side).is_ok(),
        }
    }

    /// The whole game at time `now`, for `viewer` (None: for every
    /// viewer, without `you`).
    pub fn view(&self, now: i64, viewer: Option<Option<&PlayerId>>) -> GameView {
        let (human, level) = match self.mode {
            Mode::Computer { human, level } => (Some(Side::letter(human)), Some(level)),
            Mode::Humans | Mode::Online => (None, None),
        };
        let mut head = self.head(now);
        if let Some(viewer) = viewer {
            head.can_hint = self.hint_refusal(Some(viewer)).is_none();
        }
        GameView {
            head,
            created_ms: self.created_ms,
            mode: self.mode.name(),
            human,
            level,
            rules: RulesView::of(self.game.rules()),
            start: self.game.start().to_string(),
            plies: self.game.plies().iter().map(PlyView::of).collect(),
            notation: self.game.notation(),
            seats: self.seats.clone().map(|s| {
                s.filter(|_| self.mode == Mode::Online)
                    .map(|seat| SeatView { name: seat.name })
            }),
            public: self.public,
            rated: self.rated,
            speed: self.speed().name(),
            you: viewer.map(|v| self.sides_of(v).into_iter().map(Side::letter).collect()),
        }
    }

    /// The last move as a live event.
    pub fn move_event(&self, now: i64) -> Option<MoveEvent> {
        let plies = self.game.plies();
        let last = plies.last()?;
        Some(MoveEvent {
            index: plies.len() - 1,
            ply: PlyView::of(last),
            head: self.head(now),
            you: None,
        })
    }
}
