//! The statistics of a match: score, Elo difference with its 95% interval,
//! likelihood of superiority, and the sequential probability ratio test
//! (SPRT) that stops a match once it has shown enough.
//!
//! Elo here is the logistic scale of engine testing: a score `s` between two
//! players is worth `-400 log10(1/s - 1)`. The interval and the SPRT use the
//! normal approximation of the mean of the games' scores (1, 1/2, 0), as
//! cutechess-cli and fishtest do for trinomial results.

/// Wins, draws and losses, from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

/// An Elo difference and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The most likely difference (first player minus second).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval, the "±" figure.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that makes `score` the expected score (0 < score < 1);
/// infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// A tally of `wins`, `draws` and `losses`.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game's result, from the first player's side: 1, 1/2 or 0
    /// given as 2, 1 or 0 half-points.
    pub fn add_half_points(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The first player's points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The first player's mean score per game, `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The variance of one game's score around the mean.
    fn variance(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let (w, d, l) = (
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        );
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    /// The Elo difference with its 95% interval, `None` before any game.
    /// The interval comes from the normal approximation of the mean score;
    /// when every game had the same result (no variance to measure), from
    /// the Wilson score interval instead, so that a match won throughout
    /// still gets a finite lower bound (20 wins out of 20: above +286).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let variance = self.variance()?;
        let (lower, upper) = if variance > 0.0 {
            let deviation = (variance / n).sqrt();
            (s - Z95 * deviation, s + Z95 * deviation)
        } else {
            let z2 = Z95 * Z95;
            let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z95 * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
            // Exactly 1 (or 0) at a perfect score, where rounding would
            // leave a huge finite Elo.
            let upper = if s >= 1.0 { 1.0 } else { centre + half };
            let lower = if s <= 0.0 { 0.0 } else { centre - half };
            (lower, upper)
        };
        Some(EloEstimate {
            elo: elo_from_score(s),
            lower: elo_from_score(lower),
            upper: elo_from_score(upper),
        })
    }

    /// Likelihood of superiority: the probability that the first player is
    /// the stronger, from wins and losses (draws say nothing about it).
    /// `None` while no game was won or lost.
    pub fn likelihood_of_superiority(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return None;
        }
        let z = (f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt();
        Some(0.5 * (1.0 + erf(z)))
    }
}

/// The error function, to 1.5e-7 (Abramowitz and Stegun 7.1.26).
fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// A sequential probability ratio test between two hypotheses on the Elo
/// difference: `elo0` (H0, e.g. 0: no better) and `elo1` (H1, e.g. 10).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 is true.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 is true.
    pub beta: f64,
}

/// What an SPRT concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The log-likelihood ratio fell below the lower bound: H0 holds.
    AcceptH0,
    /// The log-likelihood ratio rose above the upper bound: H1 holds.
    AcceptH1,
}

/// Why SPRT parameters were refused.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtError(pub String);

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// A test with these parameters.
    ///
    /// # Errors
    ///
    /// [`SprtError`] unless `elo0 < elo1` and alpha and beta lie strictly
    /// between 0 and 1/2.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError(format!(
                "SPRT needs elo0 < elo1, got elo0 = {elo0} and elo1 = {elo1}"
            )));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError(format!(
                    "SPRT {name} must lie between 0 and 0.5, got {p}"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: below the first, accept H0;
    /// above the second, accept H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given `tally`, in the normal
    /// approximation: `n (s1 - s0) (2 s - s0 - s1) / (2 var)`, where `s` and
    /// `var` are the mean and variance of one game's score. The counts get
    /// a prior of one game (a quarter win, half a draw, a quarter loss), so
    /// that a short or one-sided tally has a sensible variance: one loss
    /// decides nothing, twenty wins in a row do. Zero before any game.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let w = f64::from(tally.wins) + 0.25;
        let d = f64::from(tally.draws) + 0.5;
        let l = f64::from(tally.losses) + 0.25;
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The test's conclusion so far, `None` while it goes on.
    pub fn decision(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        // A score of 3/4 is 400 log10(3) points; 10/11 is 400 exactly.
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9));
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.25), -190.848_501_887_864_98, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn score_from_elo_inverts_elo_from_score() {
        for elo in [-600.0, -35.5, 0.0, 12.0, 190.0, 800.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn interval_of_sixty_wins_forty_losses() {
        // s = 0.6, per-game variance 0.24, standard error sqrt(0.24 / 100);
        // the bounds computed by hand: elo(0.6 ± 1.95996 * 0.0489898).
        let tally = Tally::new(60, 0, 40);
        let e = tally.elo().unwrap();
        assert!(close(e.elo, 70.436_503_622, 1e-6), "{e:?}");
        assert!(close(e.lower, 2.766_873, 1e-5), "{e:?}");
        assert!(close(e.upper, 143.909_233, 1e-5), "{e:?}");
        assert!(e.lower < e.elo && e.elo < e.upper);
    }

    #[test]
    fn draws_narrow_the_interval() {
        let decisive = Tally::new(30, 0, 30);
        let drawn = Tally::new(10, 40, 10);
        assert_eq!(decisive.elo().unwrap().elo, 0.0);
        assert_eq!(drawn.elo().unwrap().elo, 0.0);
        assert!(drawn.elo().unwrap().margin() < decisive.elo().unwrap().margin());
    }

    #[test]
    fn a_match_won_throughout_has_a_finite_lower_bound() {
        // Wilson: 20 / (20 + z^2) = 0.83887, worth +286.6 Elo.
        for n in [1, 10, 20, 1000] {
            let e = Tally {
                wins: n,
                draws: 0,
                losses: 0,
            }
            .elo()
            .unwrap();
            assert_eq!(e.upper, f64::INFINITY, "{n}: {e:?}");
            assert!(e.lower.is_finite(), "{n}: {e:?}");
        }
        let all_wins = Tally::new(20, 0, 0);
        let e = all_wins.elo().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.upper, f64::INFINITY);
        assert!(close(
            e.lower,
            elo_from_score(20.0 / (20.0 + Z95 * Z95)),
            1e-9
        ));
        assert!(close(e.lower, 286.6, 0.1), "{e:?}");
        let all_losses = Tally::new(0, 0, 20);
        let e = all_losses.elo().unwrap();
        assert!(close(e.upper, -286.6, 0.1), "{e:?}");
        // All draws: 0, with an interval, not 0 ± 0.
        let all_draws = Tally::new(0, 10, 0);
        let e = all_draws.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(e.lower < -100.0 && e.upper > 100.0, "{e:?}");
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(Tally::default().likelihood_of_superiority(), None);
    }

    #[test]
    fn likelihood_of_superiority_of_known_tallies() {
        let even = Tally::new(7, 3, 7);
        assert!(close(even.likelihood_of_superiority().unwrap(), 0.5, 1e-7));
        // wins - losses = 20 over 200 decisive games: z = 20 / sqrt(400) = 1,
        // and LOS = (1 + erf(1)) / 2 = 0.92135039647.
        let ahead = Tally::new(110, 0, 90);
        let z_is_one = (20.0f64) / (2.0 * 200.0f64).sqrt();
        assert!(close(z_is_one, 1.0, 1e-12));
        assert!(close(
            ahead.likelihood_of_superiority().unwrap(),
            0.921_350_396_47,
            2e-7
        ));
    }

    #[test]
    fn sprt_bounds_of_five_percent_errors() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979_166_44, 1e-12));
        assert!(close(upper, 2.944_438_979_166_44, 1e-12));
    }

    #[test]
    fn sprt_llr_of_a_known_tally() {
        // Without the prior: s = 70 / 120 = 7/12, var = (60 (5/12)^2 +
        // 20 (1/12)^2 + 40 (7/12)^2) / 120 = 29/144; s0 = 0.5,
        // s1 = score_from_elo(10) = 0.5143872; llr = 120 (s1 - s0)
        // (2 s - s0 - s1) / (2 var) = 0.652729. The prior of one game moves
        // it by less than 1%.
        let tally = Tally::new(60, 20, 40);
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let s1 = score_from_elo(10.0);
        assert!(close(s1, 0.514_387_184_166, 1e-9));
        let raw = 120.0 * (s1 - 0.5) * (14.0 / 12.0 - 0.5 - s1) / (2.0 * 29.0 / 144.0);
        assert!(close(raw, 0.652_729_047, 1e-6));
        assert!(
            close(sprt.llr(&tally), raw, 0.01 * raw),
            "{}",
            sprt.llr(&tally)
        );
        // With it: 60.25 wins, 20.5 draws, 40.25 losses.
        let (w, d, l) = (60.25, 20.5, 40.25);
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0f64 - s).powi(2) + d * (0.5f64 - s).powi(2) + l * s * s) / n;
        let expected = n * (s1 - 0.5) * (2.0 * s - 0.5 - s1) / (2.0 * var);
        assert!(close(sprt.llr(&tally), expected, 1e-12));
        assert_eq!(sprt.decision(&tally), None);
    }

    #[test]
    fn one_game_decides_nothing() {
        let sprt = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
        for tally in [
            Tally::new(1, 0, 0),
            Tally::new(0, 1, 0),
            Tally::new(0, 0, 1),
        ] {
            assert_eq!(sprt.decision(&tally), None, "{tally:?}");
        }
    }

    #[test]
    fn sprt_decides_a_lopsided_match() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let strong = Tally::new(300, 100, 100);
        assert_eq!(sprt.decision(&strong), Some(SprtDecision::AcceptH1));
        let weak = Tally::new(100, 100, 300);
        assert_eq!(sprt.decision(&weak), Some(SprtDecision::AcceptH0));
    }

    #[test]
    fn sprt_decides_a_match_won_throughout() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let all_wins = Tally::new(20, 0, 0);
        assert_eq!(sprt.decision(&all_wins), Some(SprtDecision::AcceptH1));
        assert_eq!(sprt.decision(&Tally::default()), None);
    }

    #[test]
    fn sprt_refuses_bad_parameters() {
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.7).is_err());
        assert!(Sprt::new(f64::NAN, 10.0, 0.05, 0.05).is_err());
    }
}
