//! Players' ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system",
//! 2013) as lichess runs it, one rating per [`Speed`], each game its own
//! rating period, the deviation growing with the time a player has not
//! played. Pure arithmetic: the store keeps the ratings, the service rates
//! a game when it ends.

use serde::Serialize;

/// Glicko-2's scale factor between the Glicko scale (1500, 350) and its
/// own (0, 2.01).
const SCALE: f64 = 173.7178;

/// Where every player starts in every speed (lichess's start: an unknown
/// player, deviation 500, volatility 0.09).
pub const START: Glicko = Glicko {
    rating: 1500.0,
    deviation: 500.0,
    volatility: 0.09,
};

/// The system constant, how much volatility may change in one period
/// (lichess's 0.75; Glickman's example uses 0.5).
pub const TAU: f64 = 0.75;

/// Rating periods per day for the deviation's growth while a player is
/// idle (lichess's: a deviation of 60 grows back to 110 in about a year).
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// The deviation stays within these bounds (lichess's): never more
/// uncertain than a new player, never so certain that a rating stops
/// moving.
pub const MAX_DEVIATION: f64 = 500.0;
/// See [`MAX_DEVIATION`].
pub const MIN_DEVIATION: f64 = 45.0;
/// Volatility's ceiling (lichess's), so that one surprising streak does
/// not make a rating swing for ever.
pub const MAX_VOLATILITY: f64 = 0.1;

/// A rating is provisional, shown with "?", while its deviation is above
/// this (lichess's 110: about 95% sure within ±220).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// One player's rating in one speed, on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Glicko {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is.
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

impl Glicko {
    /// A rating of Glickman's worked example's volatility, 0.06: the
    /// players of examples and tests.
    pub const fn example(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }
}

impl Default for Glicko {
    fn default() -> Glicko {
        START
    }
}

/// One game of a rating period, from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Result {
    /// The opponent's rating before the game.
    pub opponent: Glicko,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko {
    /// Whether the rating is still provisional ("?").
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The deviation after `idle_ms` without a game (for display: a player
    /// gone a long time is uncertain again).
    pub fn deviation_after(&self, idle_ms: i64) -> f64 {
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods(idle_ms) * self.volatility * self.volatility).sqrt();
        (grown * SCALE).clamp(MIN_DEVIATION, MAX_DEVIATION)
    }

    /// The rating after one rating period with `games` (Glickman's steps
    /// 2 to 8), `elapsed` periods after the player's last one (the growth
    /// of the deviation before the games count), with system constant
    /// `tau`. Without games only the deviation grows. No bounds applied:
    /// see [`Glicko::rated`].
    pub fn after_period(&self, games: &[Result], elapsed: f64, tau: f64) -> Glicko {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + elapsed * sigma * sigma).sqrt();
            return Glicko {
                deviation: phi_star * SCALE,
                ..*self
            };
        }
        // Step 3 and 4: the estimated variance and improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - 1500.0) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            sum += g(phi_j) * (game.score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        // Glickman's convergence tolerance; the loop count bounds a
        // degenerate input (never reached with finite ratings).
        for _ in 0..100 {
            if (big_b - big_a).abs() <= 0.000_001 {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 to 8: the deviation grown by the time gone, then
        // narrowed by the games; the new rating.
        let phi_star = (phi * phi + elapsed * sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility: sigma_new,
        }
    }

    /// The rating after one game (lichess's way: each game a rating
    /// period), played `idle_ms` after this player's previous rated game
    /// (None for their first), with the server's bounds.
    pub fn rated(&self, game: Result, idle_ms: Option<i64>) -> Glicko {
        // A first game counts as one whole period, as Glickman's.
        let elapsed = idle_ms.map_or(1.0, periods);
        let next = self.after_period(&[game], elapsed, TAU);
        if !(next.rating.is_finite() && next.deviation.is_finite() && next.volatility.is_finite()) {
            return *self;
        }
        Glicko {
            rating: next.rating,
            deviation: next.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: next.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// The rating periods in `ms` milliseconds.
fn periods(ms: i64) -> f64 {
    ms.max(0) as f64 / 86_400_000.0 * PERIODS_PER_DAY
}

/// The rating change as players are told it: rounded to a whole point
/// (`+12`, `-12`).
pub fn change(before: &Glicko, after: &Glicko) -> i64 {
    (after.rating.round() - before.rating.round()) as i64
}

/// A rated game's effect on one of its players, stored with the game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: Glicko,
    /// The rating after it.
    pub after: Glicko,
    /// The change as told (`+12`): [`change`].
    pub change: i64,
}

impl RatingChange {
    /// The change from `before` to `after`.
    pub fn new(before: Glicko, after: Glicko) -> RatingChange {
        RatingChange {
            before,
            after,
            change: change(&before, &after),
        }
    }
}

/// A player's rating in one speed as the store keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlayerRating {
    /// The speed.
    pub speed: Speed,
    /// The pool (people's of the speed, or the bots' of it).
    #[serde(skip)]
    pub pool: Pool,
    /// The rating.
    pub glicko: Glicko,
    /// Rated games played in this speed.
    pub games: i64,
    /// When the last one ended (ms since 1970).
    pub last_ms: Option<i64>,
}

/// The two ratings after a game between `south` and `north` (each with
/// when their last rated game ended), won by `winner` (None: a draw),
/// ended at `now`.
pub fn rate_game(
    south: (Glicko, Option<i64>),
    north: (Glicko, Option<i64>),
    winner: Option<awale_core::Side>,
    now: i64,
) -> [RatingChange; 2] {
    let score = |side: awale_core::Side| match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    let after_south = south.0.rated(
        Result {
            opponent: north.0,
            score: score(awale_core::Side::South),
        },
        south.1.map(|t| now - t),
    );
    let after_north = north.0.rated(
        Result {
            opponent: south.0,
            score: score(awale_core::Side::North),
        },
        north.1.map(|t| now - t),
    );
    [
        RatingChange::new(south.0, after_south),
        RatingChange::new(north.0, after_north),
    ]
}

/// Moves each side makes in an Awalé game, on average: the estimate of a
/// game's length that sorts clocks into speeds. Measured on engine games
/// (`docs/BENCHMARKS.md`, "Moves per game"): 68 moves per side when games
/// stop once the result is settled (a store past half the seeds), 76 when
/// they are played to the end; chess's estimate (lichess) is 40.
pub const MOVES_PER_SIDE: i64 = 68;

/// A speed: the ratings are kept apart for each, as a bullet player and a
/// classical player play different games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Under 30 s estimated.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// No clock on the moves (days per move, or none).
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// A clock's speed by the game's estimated duration, `initial +
    /// MOVES_PER_SIDE × increment` (lichess's bounds); a game without a
    /// clock is correspondence.
    pub fn of(clock: Option<(i64, i64)>) -> Speed {
        let Some((initial_ms, increment_ms)) = clock else {
            return Speed::Correspondence;
        };
        let estimate_s = (initial_ms.max(0) + MOVES_PER_SIDE * increment_ms.max(0)) / 1000;
        match estimate_s {
            s if s < 30 => Speed::UltraBullet,
            s if s < 180 => Speed::Bullet,
            s if s < 480 => Speed::Blitz,
            s if s < 1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// `ultra_bullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`: the name in the API, the store and the catalogs.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultra_bullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed named by [`Speed::name`].
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A rating pool: the ratings are kept apart per speed, and bots' games
/// against bots apart from people's (`docs/BOTS.md`, "Ratings"): an
/// engine ladder's ratings never drift people's, and people's
/// leaderboards list no bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// People's pool of a speed (a person's games, and a rated game a
    /// person chose to play against a bot).
    People(Speed),
    /// Bots' pool of a speed: a rated game between two bots.
    Bots(Speed),
}

impl Pool {
    /// Every bots' pool, fastest first.
    pub const BOTS: [Pool; 6] = [
        Pool::Bots(Speed::UltraBullet),
        Pool::Bots(Speed::Bullet),
        Pool::Bots(Speed::Blitz),
        Pool::Bots(Speed::Rapid),
        Pool::Bots(Speed::Classical),
        Pool::Bots(Speed::Correspondence),
    ];

    /// The pool of a game in `speed` between players who are bots or not.
    pub fn of(speed: Speed, both_bots: bool) -> Pool {
        if both_bots {
            Pool::Bots(speed)
        } else {
            Pool::People(speed)
        }
    }

    /// Its speed.
    pub fn speed(self) -> Speed {
        match self {
            Pool::People(s) | Pool::Bots(s) => s,
        }
    }

    /// The name the store keeps it under: the speed's (`blitz`) for
    /// people's, `bot_` and the speed's (`bot_blitz`) for bots'.
    pub fn name(self) -> &'static str {
        match self {
            Pool::People(s) => s.name(),
            Pool::Bots(Speed::UltraBullet) => "bot_ultra_bullet",
            Pool::Bots(Speed::Bullet) => "bot_bullet",
            Pool::Bots(Speed::Blitz) => "bot_blitz",
            Pool::Bots(Speed::Rapid) => "bot_rapid",
            Pool::Bots(Speed::Classical) => "bot_classical",
            Pool::Bots(Speed::Correspondence) => "bot_correspondence",
        }
    }

    /// The pool named by [`Pool::name`].
    pub fn from_name(name: &str) -> Option<Pool> {
        match name.strip_prefix("bot_") {
            Some(speed) => Speed::from_name(speed).map(Pool::Bots),
            None => Speed::from_name(name).map(Pool::People),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickmans_worked_example() {
        let player = Glicko::example(1500.0, 200.0);
        let games = [
            Result {
                opponent: Glicko::example(1400.0, 30.0),
                score: 1.0,
            },
            Result {
                opponent: Glicko::example(1550.0, 100.0),
                score: 0.0,
            },
            Result {
                opponent: Glicko::example(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player.after_period(&games, 1.0, 0.5);
        // The paper rounds its steps (mu' = -0.2069, so 1464.06); unrounded,
        // the rating is 1464.0507.
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rating - 1464.0507).abs() < 0.0001, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Glicko::example(1500.0, 200.0);
        let after = player.after_period(&[], 1.0, 0.5);
        assert_eq!(after.rating, 1500.0);
        // Glickman's formula: sqrt(phi^2 + sigma^2).
        let phi = 200.0 / SCALE;
        assert!((after.deviation - (phi * phi + 0.0036f64).sqrt() * SCALE).abs() < 1e-9);
    }

    #[test]
    fn a_win_and_a_loss_between_equals_move_both_by_the_same_amount() {
        let a = START;
        let b = START;
        let a2 = a.rated(
            Result {
                opponent: b,
                score: 1.0,
            },
            None,
        );
        let b2 = b.rated(
            Result {
                opponent: a,
                score: 0.0,
            },
            None,
        );
        assert!(a2.rating > 1500.0 && b2.rating < 1500.0);
        assert_eq!(change(&a, &a2), -change(&b, &b2));
        assert!(a2.deviation < 500.0 && a2.provisional());
        // A draw between equals changes no rating.
        let d = a.rated(
            Result {
                opponent: b,
                score: 0.5,
            },
            None,
        );
        assert!((d.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn beating_a_stronger_player_earns_more_than_beating_a_weaker_one() {
        let me = Glicko::example(1500.0, 80.0);
        let strong = me.rated(
            Result {
                opponent: Glicko::example(1800.0, 80.0),
                score: 1.0,
            },
            Some(0),
        );
        let weak = me.rated(
            Result {
                opponent: Glicko::example(1200.0, 80.0),
                score: 1.0,
            },
            Some(0),
        );
        assert!(change(&me, &strong) > 3 * change(&me, &weak));
    }

    #[test]
    fn ratings_settle_then_grow_uncertain_while_idle() {
        let mut me = START;
        let opponent = Glicko::example(1500.0, 60.0);
        for i in 0..30 {
            me = me.rated(
                Result {
                    opponent,
                    score: if i % 2 == 0 { 1.0 } else { 0.0 },
                },
                Some(600_000),
            );
        }
        assert!(!me.provisional(), "{me:?}");
        assert!(me.deviation >= MIN_DEVIATION);
        let year = 365 * 86_400_000;
        assert!(me.deviation_after(year) > me.deviation);
        assert!(me.deviation_after(20 * year) <= MAX_DEVIATION);
    }

    #[test]
    fn a_game_between_new_players_moves_both_by_the_same_amount() {
        let [south, north] = rate_game(
            (START, None),
            (START, None),
            Some(awale_core::Side::North),
            0,
        );
        assert!(south.change < 0 && north.change > 0);
        assert_eq!(south.change, -north.change);
        assert_eq!(south.before, START);
        let [a, b] = rate_game((START, None), (START, None), None, 0);
        assert_eq!((a.change, b.change), (0, 0));
    }

    #[test]
    fn speeds_follow_the_estimated_duration() {
        let s = |initial: i64, inc: i64| Speed::of(Some((initial * 1000, inc * 1000)));
        assert_eq!(s(15, 0), Speed::UltraBullet);
        assert_eq!(s(60, 0), Speed::Bullet);
        assert_eq!(s(60, 1), Speed::Bullet);
        assert_eq!(s(180, 0), Speed::Blitz);
        assert_eq!(s(180, 2), Speed::Blitz);
        assert_eq!(s(300, 3), Speed::Rapid);
        assert_eq!(s(600, 5), Speed::Rapid);
        assert_eq!(s(900, 10), Speed::Classical);
        assert_eq!(Speed::of(None), Speed::Correspondence);
        for speed in Speed::ALL {
            assert_eq!(Speed::from_name(speed.name()), Some(speed));
        }
        assert_eq!(Speed::from_name("turbo"), None);
    }
}
