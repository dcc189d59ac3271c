//! The scenario of the plain run, whose steps [`super::spread`] shares:
//! pairs of players game after game, spectators, seekers in the pools,
//! and at the end every acknowledged move looked for in the store.

use super::*;

/// One player of one game: moves when it is their turn, until the end.
pub(super) async fn play(
    run: Arc<Run>,
    game: GameRef,
    (cookie, from): (String, Option<IpAddr>),
    me: &'static str,
    seed: u64,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Head>();
    let listener = {
        let run = Arc::clone(&run);
        let cookie = cookie.clone();
        let game = game.clone();
        tokio::spawn(async move {
            let path = format!("/api/games/{game}/events");
            let result = read_events(&run, from, &path, Some(&cookie), |name, data| {
                run.player_event(&game, me, &tx, (name, data))
            })
            .await;
            if let Err(e) = result {
                if !run.over() {
                    run.error(format!("events: {e:#}"));
                }
            }
        })
    };
    let mut plies = 0usize;
    // The ply last moved at: a position heard twice (the state read on
    // connecting and the move event of its last ply, when the game had
    // begun before) is not moved at twice.
    let mut moved_at = None;
    let mut rng = StdRng::seed_from_u64(seed);
    while let Some(head) = rx.recv().await {
        plies = head.plies(plies);
        if head.end.is_some() || run.over() {
            break;
        }
        if head.waiting || head.to_move != me || head.legal.is_empty() || moved_at == Some(plies) {
            continue;
        }
        moved_at = Some(plies);
        let mv = run.choose_move(&game, plies, &head, &mut rng).await;
        let path = format!("/api/games/{game}/moves?answer=move");
        match run
            .request_from(
                from,
                "POST",
                &path,
                Some(&cookie),
                Some(json!({"move": mv, "ply": plies})),
            )
            .await
        {
            Ok((StatusCode::OK, _, _)) => run.acked_move(&game, plies, &mv),
            Ok((status, _, body)) => {
                if !run.over() {
                    run.error(format!("move: {status} {}", String::from_utf8_lossy(&body)));
                }
            }
            Err(e) => {
                if !run.over() {
                    run.error(format!("move: {e:#}"));
                }
            }
        }
    }
    listener.abort();
}

/// A spectator of one game: times each move's arrival.
pub(super) async fn watch(run: Arc<Run>, game: GameRef, from: Option<IpAddr>) {
    let path = format!("/api/games/{game}/events");
    let result = read_events(&run, from, &path, None, |name, data| {
        run.spectator_event(&game, (name, data))
    })
    .await;
    if let Err(e) = result {
        if !run.over() {
            run.error(format!("spectator: {e:#}"));
        }
    }
}

/// A game, by its public id.
pub(super) type GameRef = Arc<str>;

/// What the pool seekers got: how long each pairing took, from the first
/// seek to the answer naming the game.
#[derive(Default)]
pub(super) struct Pairings {
    pub(super) pairing_ms: Vec<f64>,
}

/// One player seeking in `pool` (`3+2`), as the page does: the seek is
/// asked again while it waits; once paired, it plays its side of the game,
/// then seeks again, until the time is up.
pub(super) async fn seek(
    run: Arc<Run>,
    n: usize,
    pool: String,
    pairings: Arc<Mutex<Pairings>>,
    games: Arc<Mutex<Vec<GameRef>>>,
) {
    let from = run.honest(n);
    let cookie = match run.player(from).await {
        Ok(c) => c,
        Err(e) => return run.error(format!("pool player: {e:#}")),
    };
    let path = format!("/api/pools/{pool}/seek?wait_s=5");
    let mut seed = (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    while !run.over() {
        let started = Instant::now();
        let paired = loop {
            if run.over() {
                return;
            }
            let answer = run
                .request_from(
                    from,
                    "POST",
                    &path,
                    Some(&cookie),
                    Some(json!({"name": format!("Seeker {n}")})),
                )
                .await;
            match answer {
                Ok((StatusCode::OK, _, body)) => {
                    let news: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    let paired = &news["paired"];
                    if let (Some(game), Some(side)) =
                        (paired["game"].as_str(), paired["side"].as_str())
                    {
                        break (GameRef::from(game), side == "N");
                    }
                }
                Ok((status, _, body)) => {
                    if !run.over() {
                        run.error(format!("seek: {status} {}", String::from_utf8_lossy(&body)));
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => {
                    if !run.over() {
                        run.error(format!("seek: {e:#}"));
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        pairings
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pairing_ms
            .push(ms);
        let (game, north) = paired;
        // Both players of a game are seekers: the South one lists it.
        if !north {
            list_game(&games, &game);
        }
        seed = seed.rotate_left(13) ^ 0x9E37_79B9;
        let me = if north { "N" } else { "S" };
        play(Arc::clone(&run), game, (cookie.clone(), from), me, seed | 1).await;
    }
}

/// One pair of players, game after game, with `spectators` watching each
/// (honest clients `first_spectator`.. under `--abuse`). Under `--abuse`
/// the two take turns making the game, as two people would, so neither
/// offers more games than a person does.
pub(super) async fn pair(
    run: Arc<Run>,
    slot: usize,
    (spectators, first_spectator): (usize, usize),
    games: Arc<Mutex<Vec<GameRef>>>,
) {
    let (a, b) = (run.honest(2 * slot), run.honest(2 * slot + 1));
    let (first, second) = match tokio::try_join!(run.player(a), run.player(b)) {
        Ok(p) => p,
        Err(e) => return run.error(format!("players: {e:#}")),
    };
    let mut round = 0u64;
    while !run.over() {
        round += 1;
        let (south, north) = if run.spread && round.is_multiple_of(2) {
            ((second.clone(), b), (first.clone(), a))
        } else {
            ((first.clone(), a), (second.clone(), b))
        };
        let made = run
            .request_from(
                south.1,
                "POST",
                "/api/games",
                Some(&south.0),
                Some(new_game(slot)),
            )
            .await;
        let made = match made {
            // Under the server's real limits (`--abuse`), players who make
            // games faster than people do are told to wait, and wait, as a
            // person would: their own pace, not the stranger's doing.
            Ok((StatusCode::TOO_MANY_REQUESTS, _, body)) if run.spread => {
                let wait_s = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["fields"]["wait_s"].as_u64())
                    .unwrap_or(1);
                let until = (Instant::now() + Duration::from_secs(wait_s)).min(run.deadline);
                tokio::time::sleep_until(until.into()).await;
                continue;
            }
            made => made,
        };
        let watchers = (0..spectators).map(|k| run.honest(first_spectator + k));
        play_out(&run, (&games, slot, round), made, (south, north), watchers).await;
    }
}

/// The requests of a run's players, for the steps of a pair the plain run
/// and [`spread`]'s share.
pub(super) trait Players:
    std::ops::Deref<Target = Tally> + Send + Sync + Sized + 'static
{
    /// Who sends a request.
    type Player: Send + Sync + Clone + 'static;
    /// Who watches a game.
    type Watcher: Send + 'static;
    /// A request that got no answer.
    type Failure: std::fmt::Display + Send;

    /// `who`'s side `me` (`S`, `N`) of `game`, its moves drawn from
    /// `seed`, until the game's end or the run's.
    fn play(
        run: Arc<Self>,
        game: GameRef,
        who: Self::Player,
        me: &'static str,
        seed: u64,
    ) -> impl std::future::Future<Output = ()> + Send + 'static;

    /// `who` watching `game`, each move's arrival timed.
    fn watch(
        run: Arc<Self>,
        game: GameRef,
        who: Self::Watcher,
    ) -> impl std::future::Future<Output = ()> + Send + 'static;

    /// A request of `who`.
    fn ask(
        &self,
        who: &Self::Player,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> impl std::future::Future<Output = Result<Answer, Self::Failure>> + Send;

    /// Whether `answer` was lost with its process (not counted: the pair
    /// tries again).
    fn lost(answer: &Result<Answer, Self::Failure>) -> bool;
}

impl Players for Run {
    /// A player's cookie, and the address its connections come from.
    type Player = (String, Option<IpAddr>);
    /// The address a spectator's connections come from.
    type Watcher = Option<IpAddr>;
    type Failure = anyhow::Error;

    fn play(
        run: Arc<Run>,
        game: GameRef,
        who: Self::Player,
        me: &'static str,
        seed: u64,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        play(run, game, who, me, seed)
    }

    fn watch(
        run: Arc<Run>,
        game: GameRef,
        from: Option<IpAddr>,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        watch(run, game, from)
    }

    async fn ask(
        &self,
        (cookie, from): &Self::Player,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Answer> {
        self.request_from(*from, method, path, Some(cookie), body)
            .await
    }

    fn lost(_: &anyhow::Result<Answer>) -> bool {
        false
    }
}

/// Pair `slot`'s new game, from South's answer to making it (`made`),
/// listed among the games played; None when that went wrong (counted,
/// unless lost with its process): the pair tries again a moment later.
pub(super) async fn made_game<R: Players>(
    run: &R,
    games: &Mutex<Vec<GameRef>>,
    made: Result<Answer, R::Failure>,
) -> Option<GameRef> {
    let game = if R::lost(&made) {
        None
    } else {
        game_made(run, "new game", made)
    };
    let Some(game) = game else {
        tokio::time::sleep(Duration::from_millis(200)).await;
        return None;
    };
    list_game(games, &game);
    Some(game)
}

/// North of pair `slot` seated in `game` with the invitation's key, as
/// South's page has it: whether it was (a failure counted, unless lost
/// with its process or answered once the run is over).
pub(super) async fn seat_north<R: Players>(
    run: &R,
    game: &GameRef,
    slot: usize,
    (south, north): (&R::Player, &R::Player),
) -> bool {
    let links = run
        .ask(south, "GET", &format!("/api/games/{game}/links"), None)
        .await;
    if R::lost(&links) {
        return false;
    }
    let Some(key) = invite_key(run, links) else {
        return false;
    };
    let path = format!("/api/games/{game}/join");
    let joined = run.ask(north, "POST", &path, Some(join(slot, &key))).await;
    // Once the run is over its makers have stopped listening: a join
    // answered then may find its challenge withdrawn (the maker gone when
    // the grace counted from its making ran out), the tool's doing.
    !R::lost(&joined) && !run.over() && answered_ok(run, "join", joined)
}

/// The QR code of `game`'s invitation, as its maker `south`'s page asks
/// it: a failure counted, unless lost with its process or answered once
/// the run is over.
async fn invitation_code<R: Players>(run: Arc<R>, game: GameRef, south: R::Player) {
    let path = format!("/api/games/{game}/links/qr?link=invite");
    let code = run.ask(&south, "GET", &path, None).await;
    if !R::lost(&code) && !run.over() {
        expected(&run, "the invitation's code", StatusCode::OK, code);
    }
}

/// Ends `game`, still going at the end of the run (or never joined), as
/// South, its maker: resigned, else (a challenge nobody joined, a game not
/// really begun) withdrawn or aborted; counted in `finished`, or in
/// `left_open` when neither was taken and the game is not over either.
pub(super) async fn finish_game<R: Players>(run: &R, south: &R::Player, game: &GameRef) {
    for act in ["resign", "abort"] {
        let path = format!("/api/games/{game}/{act}");
        if let Ok((StatusCode::OK, _, _)) = run.ask(south, "POST", &path, Some(json!({}))).await {
            run.finished.fetch_add(1, Ordering::Relaxed);
            return;
        }
    }
    let over = match run
        .ask(south, "GET", &format!("/api/games/{game}"), None)
        .await
    {
        Ok((StatusCode::OK, _, body)) => {
            serde_json::from_slice::<Value>(&body).is_ok_and(|v| !v["end"].is_null())
        }
        _ => false,
    };
    if !over {
        run.left_open.fetch_add(1, Ordering::Relaxed);
    }
}

/// Lists `game` among the games played (their moves looked for in the
/// store at the end).
pub(super) fn list_game(games: &Mutex<Vec<GameRef>>, game: &GameRef) {
    games
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(game.clone());
}

/// What South of pair `slot` asks for: an online game, to play South.
pub(super) fn new_game(slot: usize) -> Value {
    json!({"mode": "online", "human": "S", "name": format!("South {slot}")})
}

/// The game a request to make one (`what`) was answered with; else none,
/// its refusal or failure counted as an error.
pub(super) fn game_made<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    made: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<GameRef> {
    let body = expected(tally, what, StatusCode::CREATED, made)?;
    serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["id"].as_str().map(GameRef::from))
}

/// The invitation's key, from the answer to a game's links; else none,
/// counted as an error.
pub(super) fn invite_key<E>(
    tally: &Tally,
    links: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<String> {
    let key = match links {
        Ok((StatusCode::OK, _, body)) => serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v["invite"].as_str().map(String::from))
            .and_then(|link| link.split_once("&k=").map(|(_, k)| k.to_string())),
        _ => None,
    };
    if key.is_none() {
        tally.error("links: no invitation key".to_string());
    }
    key
}

/// The body of `answer` (to `what`) when its status is `status`; else
/// none, counted as an error.
pub(super) fn expected<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    status: StatusCode,
    answer: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> Option<Bytes> {
    match answer {
        Ok((got, _, body)) if got == status => Some(body),
        Ok((got, _, body)) => {
            tally.error(format!("{what}: {got} {}", String::from_utf8_lossy(&body)));
            None
        }
        Err(e) => {
            tally.error(format!("{what}: {e:#}"));
            None
        }
    }
}

/// Whether `answer` (to `what`) is a plain OK; else counted as an error.
pub(super) fn answered_ok<E: std::fmt::Display>(
    tally: &Tally,
    what: &str,
    answer: Result<(StatusCode, hyper::HeaderMap, Bytes), E>,
) -> bool {
    expected(tally, what, StatusCode::OK, answer).is_some()
}

/// What North of pair `slot` sends to join with the invitation's `key`.
pub(super) fn join(slot: usize, key: &str) -> Value {
    json!({"name": format!("North {slot}"), "key": key})
}

/// The seeds of South's and North's moves in game `round` of pair `slot`.
pub(super) fn seeds(slot: usize, round: u64) -> (u64, u64) {
    let seed = (slot as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ round;
    (seed | 1, seed.rotate_left(17) | 1)
}

/// Plays pair `slot`'s game `round` out, from South's answer to making it
/// (`made`): South plays it from the moment it is made (its page listens
/// to the game while it waits for an opponent: a challenge whose maker is
/// not there is withdrawn), North is seated ([`seat_north`]), then North
/// plays it and its `watchers` watch it ([`Players::watch`], made only
/// once the game is), each on a task of its own, the players with the
/// [`seeds`] of each; until all are done; then, when the run's time is up, the game
/// ended ([`finish_game`]). When the seating went wrong, the game is ended
/// and the pair tries again.
pub(super) async fn play_out<R: Players>(
    run: &Arc<R>,
    (games, slot, round): (&Mutex<Vec<GameRef>>, usize, u64),
    made: Result<Answer, R::Failure>,
    (south, north): (R::Player, R::Player),
    watchers: impl Iterator<Item = R::Watcher>,
) {
    let Some(game) = made_game(&**run, games, made).await else {
        return;
    };
    let (south_seed, north_seed) = seeds(slot, round);
    let south_plays = tokio::spawn(R::play(
        Arc::clone(run),
        game.clone(),
        south.clone(),
        "S",
        south_seed,
    ));
    // South's page asks the invitation's QR code as it shows the links,
    // while North opens the invitation: nobody waits for it.
    let code = tokio::spawn(invitation_code(
        Arc::clone(run),
        game.clone(),
        south.clone(),
    ));
    if !seat_north(&**run, &game, slot, (&south, &north)).await {
        south_plays.abort();
        // Not left waiting for an opponent on the server.
        finish_game(&**run, &south, &game).await;
        return;
    }
    run.seated(slot, &game);
    let mut tasks: Vec<_> = watchers
        .map(|who| tokio::spawn(R::watch(Arc::clone(run), game.clone(), who)))
        .collect();
    tasks.push(code);
    tasks.push(south_plays);
    tasks.push(tokio::spawn(R::play(
        Arc::clone(run),
        game.clone(),
        north,
        "N",
        north_seed,
    )));
    for t in tasks {
        let _ = t.await;
    }
    // The run's time is up with the game going: ended, so that the
    // server does not keep it open.
    if run.over() {
        finish_game(&**run, &south, &game).await;
    }
}

/// The letters of the moves of a game's view (`/api/games/ID`).
pub(super) fn letters(view: &Value) -> Vec<char> {
    view["plies"]
        .as_array()
        .map(|plies| {
            plies
                .iter()
                .map(|p| {
                    p["move"]
                        .as_str()
                        .and_then(|m| m.chars().next())
                        .unwrap_or('?')
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Moves acknowledged but not in the store, looked up game by game.
pub(super) async fn lost_moves(run: &Run, games: &[GameRef]) -> anyhow::Result<u64> {
    let by_game = run.acked_by_game();
    let mut lost = 0;
    for game in games {
        let Some(acked) = by_game.get(game) else {
            continue;
        };
        let (status, _, body) = run
            .request("GET", &format!("/api/games/{game}"), None, None)
            .await?;
        anyhow::ensure!(status == StatusCode::OK, "game {game}: {status}");
        let stored = letters(&serde_json::from_slice(&body)?);
        for &(ply, letter) in acked {
            let found = stored.get(ply) == Some(&letter);
            if !found {
                lost += 1;
            }
        }
    }
    Ok(lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's players whose joins come late (a busy server seating a
    /// thousand games at once): the plain run's, North's join sent after
    /// `delay`.
    struct LateJoins {
        run: Arc<Run>,
        delay: Duration,
    }

    impl std::ops::Deref for LateJoins {
        type Target = Tally;
        fn deref(&self) -> &Tally {
            &self.run
        }
    }

    impl Players for LateJoins {
        type Player = <Run as Players>::Player;
        type Watcher = <Run as Players>::Watcher;
        type Failure = <Run as Players>::Failure;

        fn play(
            me: Arc<Self>,
            game: GameRef,
            who: Self::Player,
            side: &'static str,
            seed: u64,
        ) -> impl std::future::Future<Output = ()> + Send + 'static {
            play(Arc::clone(&me.run), game, who, side, seed)
        }

        fn watch(
            me: Arc<Self>,
            game: GameRef,
            who: Self::Watcher,
        ) -> impl std::future::Future<Output = ()> + Send + 'static {
            watch(Arc::clone(&me.run), game, who)
        }

        async fn ask(
            &self,
            who: &Self::Player,
            method: &str,
            path: &str,
            body: Option<Value>,
        ) -> anyhow::Result<Answer> {
            if path.ends_with("/join") {
                tokio::time::sleep(self.delay).await;
            }
            self.run.ask(who, method, path, body).await
        }

        fn lost(_: &anyhow::Result<Answer>) -> bool {
            false
        }
    }

    /// The maker of a game listens to it from the moment it is made, as
    /// its page does: a challenge whose maker is not there is withdrawn
    /// once the server's grace is over. The tool's makers listened only
    /// once seated, so that when a busy server seated a game later than
    /// the grace (20 s), its join was refused (`seat_taken`, `closed`):
    /// 323 errors in a 30 s pushed run of 1,000 games on PostgreSQL.
    #[test]
    fn a_maker_listens_while_waiting_so_a_late_join_still_finds_its_game() {
        runtime().unwrap().block_on(async {
            let grace = Duration::from_millis(300);
            let config = awale_web::Config {
                challenge_grace: grace,
                ..server_config(false)
            };
            let (addr, _server) = start_server(config, false).await.unwrap();
            let run = Arc::new(Run {
                client: http_client(None),
                clients: Mutex::new(HashMap::new()),
                spread: false,
                addr,
                tally: Tally::new(3, 0),
            });
            let (south, north) = (
                run.player(None).await.unwrap(),
                run.player(None).await.unwrap(),
            );
            let made = run
                .request_from(None, "POST", "/api/games", Some(&south), Some(new_game(0)))
                .await;
            let players = Arc::new(LateJoins {
                run: Arc::clone(&run),
                delay: grace * 3,
            });
            let games = Mutex::new(Vec::new());
            play_out(
                &players,
                (&games, 0, 1),
                made,
                ((south, None), (north, None)),
                std::iter::empty(),
            )
            .await;
            let first_error = run.first_error.lock().unwrap().clone();
            assert_eq!(run.errors.load(Ordering::Relaxed), 0, "{first_error:?}");
            assert!(run.moves.load(Ordering::Relaxed) > 0);
        });
    }
}
