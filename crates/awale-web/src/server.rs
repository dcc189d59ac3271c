//! Serving on a socket, safe for strangers: a cap on connections in all
//! and per client address (over it, a connection is closed at once and
//! the refusal logged), a time limit for a request's headers (which also
//! closes idle connections), a time limit on a stalled write, and a clean
//! stop: on a signal, no new connections, live streams end, requests in
//! flight finish (a few seconds at most), and the caller then closes the
//! store.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::{app, AppState};

/// Limits on connections.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one client address (0: no limit, for
    /// a server behind a reverse proxy, whose connections all come from
    /// the proxy).
    pub max_per_client: usize,
    /// Time to send a request's headers, and longest idle time between
    /// requests on a kept-alive connection.
    pub header_timeout: Duration,
    /// Longest time a write to a client may stall.
    pub write_timeout: Duration,
    /// How long requests in flight may take to finish after a stop.
    pub drain: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 4_096,
            max_per_client: 64,
            header_timeout: Duration::from_secs(20),
            write_timeout: Duration::from_secs(30),
            drain: Duration::from_secs(5),
        }
    }
}

/// Counts of what the server refused, for logs and tests.
#[derive(Default)]
struct Refusals {
    count: AtomicUsize,
    last_log_ms: AtomicI64,
}

impl Refusals {
    fn note(&self, peer: SocketAddr, why: &str) {
        let n = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        // Milliseconds since the first refusal (logs only: no rule reads it).
        static SINCE: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let now = SINCE
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_millis() as i64
            + 1;
        let last = self.last_log_ms.load(Ordering::Relaxed);
        // One line every ten seconds at most, whatever the flood.
        if last == 0
            || now - last >= 10_000
                && self
                    .last_log_ms
                    .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
        {
            tracing::warn!(
                %peer,
                refused_so_far = n,
                "connection refused: {why}"
            );
        }
    }
}

/// Releases a connection's place in the per-client count.
struct ClientSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    ip: IpAddr,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut counts = crate::lock(&self.counts);
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Serves `state` on `listener` until `shutdown` resolves, then stops as
/// the module says. Returns once every connection is closed or the drain
/// time is over.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let router = app(state.clone());
    let places = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let clients: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    let refusals = Arc::new(Refusals::default());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let open = Arc::new(AtomicUsize::new(0));
    let all_closed = Arc::new(tokio::sync::Notify::new());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, most likely: wait a little
                    // rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            refusals.note(peer, "too many connections in all");
            continue;
        };
        let slot = {
            let mut counts = crate::lock(&clients);
            let n = counts.entry(peer.ip()).or_insert(0);
            if limits.max_per_client > 0 && *n >= limits.max_per_client {
                drop(counts);
                refusals.note(peer, "too many connections from one address");
                continue;
            }
            *n += 1;
            ClientSlot {
                counts: Arc::clone(&clients),
                ip: peer.ip(),
            }
        };
        let _ = stream.set_nodelay(true);
        let mut timed = tokio_io_timeout::TimeoutStream::new(stream);
        timed.set_write_timeout(Some(limits.write_timeout));
        let io = TokioIo::new(Box::pin(timed));
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(req.map(Body::new))
        });
        let mut stop = stop_rx.clone();
        let header_timeout = limits.header_timeout;
        let open = Arc::clone(&open);
        let all_closed = Arc::clone(&all_closed);
        open.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = async { stop.wait_for(|s| *s).await.map(|_| ()) } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
            drop(place);
            if open.fetch_sub(1, Ordering::SeqCst) == 1 {
                all_closed.notify_waiters();
            }
        });
    }
    tracing::info!("stopping: no new connections; finishing the requests in flight");
    state.stop();
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(limits.drain, async {
        while open.load(Ordering::SeqCst) > 0 {
            let notified = all_closed.notified();
            if open.load(Ordering::SeqCst) == 0 {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(100), notified).await;
        }
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            connections = open.load(Ordering::SeqCst),
            "connections still open after the drain time: closed"
        );
    }
}

/// Resolves on Ctrl-C (SIGINT) or SIGTERM.
pub async fn signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("interrupted (Ctrl-C)"),
        () = term => tracing::info!("asked to stop (SIGTERM)"),
    }
}
