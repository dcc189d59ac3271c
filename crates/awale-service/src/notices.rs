//! What the other processes sharing the store tell this one (`Notice`):
//! one loop that hands each notice to whoever listens while it lives, a
//! lost notice turned into `Notice::Resync` (everything held read again).

use std::future::Future;
use std::sync::{Arc, Weak};

use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

use crate::store::Notice;

/// Hands each notice to `heard` with its listener, until the store's
/// channel closes or the listener is gone. Needs a Tokio runtime.
pub(crate) fn listen<T, F, Fut>(mut notices: Receiver<Notice>, listener: Weak<T>, heard: F)
where
    T: Send + Sync + 'static,
    F: Fn(Arc<T>, Notice) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        loop {
            let notice = match notices.recv().await {
                Ok(notice) => notice,
                // Some were lost: everything held is read again.
                Err(RecvError::Lagged(_)) => Notice::Resync,
                Err(RecvError::Closed) => return,
            };
            let Some(listener) = listener.upgrade() else {
                return;
            };
            heard(listener, notice).await;
        }
    });
}
