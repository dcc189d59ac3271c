//! What a run counts: moves and their times, errors, the arrivals at each
//! spectator, percentiles, the report.

use super::*;

/// What the clients of a load test count and share, whether on one
/// process or spread over several ([`spread`]).
pub(super) struct Tally {
    pub(super) started: Instant,
    pub(super) deadline: Instant,
    pub(super) stop: AtomicBool,
    pub(super) moves: AtomicU64,
    pub(super) errors: AtomicU64,
    pub(super) first_error: Mutex<Option<String>>,
    /// When each move was sent: (game, ply).
    pub(super) sent: Mutex<HashMap<(GameRef, usize), Instant>>,
    pub(super) opponent_ms: Mutex<Vec<f64>>,
    pub(super) spectator_ms: Mutex<Vec<f64>>,
    /// Acknowledged moves: (game, ply, letter).
    pub(super) acked: Mutex<Vec<(GameRef, usize, char)>>,
    /// The game each pair (by slot) was first seated in ([`Tally::seated`]),
    /// and when each game's first move was acknowledged, in seconds into
    /// the run: the start's pace (making, seating, the first move).
    pub(super) first_games: Mutex<HashMap<usize, GameRef>>,
    pub(super) first_moves_s: Mutex<HashMap<GameRef, f64>>,
    pub(super) think: Duration,
    /// Games still going at the end (or never joined), ended by their
    /// maker; and those that could not be.
    pub(super) finished: AtomicU64,
    pub(super) left_open: AtomicU64,
}

impl Tally {
    /// The tally of a run of `seconds`, its players thinking `think_ms`
    /// before each move.
    pub(super) fn new(seconds: u64, think_ms: u64) -> Tally {
        let started = Instant::now();
        Tally {
            started,
            deadline: started + Duration::from_secs(seconds),
            stop: AtomicBool::new(false),
            moves: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            first_error: Mutex::new(None),
            sent: Mutex::new(HashMap::new()),
            opponent_ms: Mutex::new(Vec::new()),
            spectator_ms: Mutex::new(Vec::new()),
            acked: Mutex::new(Vec::new()),
            first_games: Mutex::default(),
            first_moves_s: Mutex::default(),
            think: Duration::from_millis(think_ms),
            finished: AtomicU64::new(0),
            left_open: AtomicU64::new(0),
        }
    }

    /// Counts an error; the first is kept to be shown.
    pub(super) fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            *first = Some(what);
        }
    }

    /// Whether the run is over (its time out, or stopped).
    pub(super) fn over(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// What a player of `game` playing `me` hears on its stream: the
    /// opponent's moves timed, and each head passed to `tx`; false once
    /// the game is over.
    pub(super) fn player_event(
        &self,
        game: &GameRef,
        me: &str,
        tx: &tokio::sync::mpsc::UnboundedSender<Head>,
        (name, data): (&str, &str),
    ) -> bool {
        if name == "move" {
            if let Some(i) = move_index(data) {
                // The opponent's move reaching me.
                let mine = data.contains(&format!("\"side\":\"{me}\""));
                if !mine {
                    self.note_arrival(game, i, &self.opponent_ms);
                }
            }
        }
        if name == "move" || name == "state" {
            match serde_json::from_str::<Head>(data) {
                Ok(head) => {
                    let over = head.end.is_some();
                    let _ = tx.send(head);
                    return !over;
                }
                Err(e) => self.error(format!("event: {e}")),
            }
        }
        true
    }

    /// What a spectator of `game` hears: each move timed; false once the
    /// game is over.
    pub(super) fn spectator_event(&self, game: &GameRef, (name, data): (&str, &str)) -> bool {
        if name == "move" {
            if let Some(i) = move_index(data) {
                self.note_arrival(game, i, &self.spectator_ms);
            }
            if data.contains("\"end\":{") {
                return false;
            }
        }
        !(name == "state" && data.contains("\"end\":{"))
    }

    /// The move a player plays in `head` (at ply `plies` of `game`), after
    /// thinking: one of the legal ones, its sending time noted.
    pub(super) async fn choose_move(
        &self,
        game: &GameRef,
        plies: usize,
        head: &Head,
        rng: &mut StdRng,
    ) -> String {
        if !self.think.is_zero() {
            tokio::time::sleep(self.think).await;
        }
        let mv = head.legal[rng.random_range(0..head.legal.len())].clone();
        self.sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert((game.clone(), plies), Instant::now());
        mv
    }

    /// Counts move `mv`, at ply `plies` of `game`, acknowledged.
    pub(super) fn acked_move(&self, game: &GameRef, plies: usize, mv: &str) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        if plies == 0 {
            let at = self.started.elapsed().as_secs_f64();
            self.first_moves_s
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(game.clone())
                .or_insert(at);
        }
        let letter = mv.chars().next().unwrap_or('?');
        self.acked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((game.clone(), plies, letter));
    }

    /// The acknowledged moves, game by game: (ply, letter).
    pub(super) fn acked_by_game(&self) -> HashMap<GameRef, Vec<(usize, char)>> {
        let mut by_game: HashMap<GameRef, Vec<(usize, char)>> = HashMap::new();
        for (g, ply, letter) in self.acked.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            by_game.entry(g.clone()).or_default().push((*ply, *letter));
        }
        by_game
    }

    /// The report's figures of the games (`played` of them, `moves` moves
    /// over the run's time, `lost` of them not found stored), the first
    /// error and a summary told on the standard error.
    pub(super) fn report(
        &self,
        (games, spectators): (usize, usize),
        played: usize,
        moves: u64,
        lost: u64,
    ) -> Value {
        let elapsed = self
            .deadline
            .min(Instant::now())
            .duration_since(self.started)
            .as_secs_f64();
        let mut opponent = self
            .opponent_ms
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let mut spectator = self
            .spectator_ms
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(e) = self
            .first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
        {
            eprintln!("awale loadtest: first error: {e}");
        }
        eprintln!("awale loadtest: {played} games played, {moves} moves in {elapsed:.1} s");
        json!({
            "games": games,
            "spectators": spectators,
            "moves": moves,
            "moves_per_s": round2(moves as f64 / elapsed.max(1e-9)),
            "moving_s": self.moving(games),
            "opponent_ms": p50_p99(&mut opponent),
            "spectator_ms": p50_p99(&mut spectator),
            "errors": self.errors.load(Ordering::Relaxed),
            "lost": lost,
            "finished_at_end": self.finished.load(Ordering::Relaxed),
            "left_open": self.left_open.load(Ordering::Relaxed),
        })
    }

    /// Notes `game` as pair `slot`'s first seated game, unless it had one.
    pub(super) fn seated(&self, slot: usize, game: &GameRef) {
        let mut firsts = self.first_games.lock().unwrap_or_else(|p| p.into_inner());
        firsts.entry(slot).or_insert_with(|| game.clone());
    }

    /// How long into the run half of the `games` pairs, then all, had a
    /// first move in their first seated game (none when fewer did): the
    /// start.
    fn moving(&self, games: usize) -> Value {
        let moved = self
            .first_moves_s
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let mut firsts: Vec<f64> = self
            .first_games
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter_map(|game| moved.get(game).copied())
            .collect();
        firsts.sort_by(f64::total_cmp);
        let at = |n: usize| {
            n.checked_sub(1)
                .and_then(|i| firsts.get(i))
                .map(|&s| round2(s))
        };
        json!({"half": at(games.div_ceil(2)), "all": at(games)})
    }

    /// Notes in `into` how long after it was sent move `ply` of `game`
    /// reached a watcher.
    pub(super) fn note_arrival(&self, game: &GameRef, ply: usize, into: &Mutex<Vec<f64>>) {
        let sent = self
            .sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&(game.clone(), ply))
            .copied();
        if let Some(t) = sent {
            into.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
}

/// `x` to two decimals, as the report gives its figures.
pub(super) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The median and the 99th percentile of `values`, for the report.
pub(super) fn p50_p99(values: &mut [f64]) -> Value {
    json!({"p50": round2(percentile(values, 50.0)), "p99": round2(percentile(values, 99.0))})
}

pub(super) fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}
