//! The log-in flood (`--logins N`): accounts made at the start, N log-ins
//! a second to them beside the games.

use super::*;

/// Accounts the log-ins go to.
pub(super) const LOGIN_ACCOUNTS: usize = 20;

pub(super) const LOGIN_PASSWORD: &str = "a loadtest's password";

/// What the log-ins got.
#[derive(Default)]
pub(super) struct Logins {
    pub(super) ok: u64,
    pub(super) busy: u64,
    pub(super) too_many: u64,
    pub(super) other: u64,
    pub(super) ms: Vec<f64>,
}

impl Logins {
    /// The log-ins' part of the report, at `per_s` a second.
    pub(super) fn report(&mut self, per_s: u64) -> Value {
        json!({
            "per_s": per_s,
            "ok": self.ok,
            "busy": self.busy,
            "too_many": self.too_many,
            "other": self.other,
            "ok_ms": p50_p99(&mut self.ms),
        })
    }
}

/// Makes the accounts, then sends `per_s` log-ins a second until the end
/// of `tally`'s run, each on its own task. `send(n, path, body)` POSTs
/// for the `n`th client (an account's number, then a log-in's): the
/// answer's status and body.
pub(super) async fn log_in_flood_with<S, F>(
    tally: &Tally,
    per_s: u64,
    send: S,
) -> anyhow::Result<Logins>
where
    S: Fn(usize, &'static str, Value) -> F,
    F: std::future::Future<Output = anyhow::Result<(StatusCode, Bytes)>> + Send + 'static,
{
    let mut names = Vec::new();
    for n in 0..LOGIN_ACCOUNTS {
        let name = format!("load{n}");
        let (status, body) = send(
            n,
            "/api/account/signup",
            json!({"username": name, "password": LOGIN_PASSWORD}),
        )
        .await
        .context("sign-up")?;
        anyhow::ensure!(
            status == StatusCode::CREATED,
            "sign-up: {status} {}",
            String::from_utf8_lossy(&body)
        );
        names.push(name);
    }
    let results = Arc::new(Mutex::new(Logins::default()));
    let every = Duration::from_secs_f64(1.0 / per_s.max(1) as f64);
    let mut tick = tokio::time::interval(every);
    let mut tasks = Vec::new();
    let mut n = 0usize;
    while !tally.over() {
        tick.tick().await;
        let results = Arc::clone(&results);
        let name = names[n % names.len()].clone();
        let answer = send(
            n,
            "/api/account/login",
            json!({"username": name, "password": LOGIN_PASSWORD}),
        );
        n += 1;
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let answer = answer.await;
            let ms = sent.elapsed().as_secs_f64() * 1000.0;
            let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
            match answer {
                Ok((StatusCode::OK, _)) => {
                    r.ok += 1;
                    r.ms.push(ms);
                }
                Ok((StatusCode::SERVICE_UNAVAILABLE, _)) => r.busy += 1,
                Ok((StatusCode::TOO_MANY_REQUESTS, _)) => r.too_many += 1,
                _ => r.other += 1,
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut r = results.lock().unwrap_or_else(|p| p.into_inner());
    Ok(std::mem::take(&mut *r))
}

/// [`log_in_flood_with`] through this run's one server.
pub(super) async fn log_in_flood(run: Arc<Run>, per_s: u64) -> anyhow::Result<Logins> {
    let send = |_, path: &'static str, body| {
        let run = Arc::clone(&run);
        async move {
            let (status, _, body) = run.request("POST", path, None, Some(body)).await?;
            Ok((status, body))
        }
    };
    log_in_flood_with(&run, per_s, send).await
}
