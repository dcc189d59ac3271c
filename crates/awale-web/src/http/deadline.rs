//! A deadline for a request's whole body: the time it may take counts
//! from its headers to its last byte, so a client dripping one byte now
//! and then cannot keep a request (and its connection) open for long.
//! (A limit between chunks, as tower-http's, restarts with every chunk.)

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};

use crate::AppState;

/// What the body's error says when its time ran out (the extractors
/// answer 408 `slow_body` on it).
pub const TOO_SLOW: &str = "the request's body took too long to arrive";

/// A body that fails once its deadline passes.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if self.deadline.as_mut().poll(cx).is_ready() {
            let late = std::io::Error::new(std::io::ErrorKind::TimedOut, TOO_SLOW);
            return Poll::Ready(Some(Err(axum::Error::new(late))));
        }
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Gives the request's body the server's body time, from now on.
pub async fn body_deadline(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let limit: Duration = state.shared.config.body_timeout;
    let (parts, body) = req.into_parts();
    let body = Body::new(DeadlineBody {
        inner: body,
        deadline: Box::pin(tokio::time::sleep(limit)),
    });
    next.run(Request::from_parts(parts, body)).await
}
