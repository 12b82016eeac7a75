//! A streamed response: server-sent events written by a task as they are
//! ready. When the client goes away the channel closes: the task's next
//! send fails, and work it races against [`Events::gone`] is dropped (a
//! solver question is then interrupted, see `on_worker.rs`).

use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;
use std::convert::Infallible;
use std::future::Future;
use tokio::sync::mpsc;

/// Events in flight to one client; a few, so a slow client holds back the
/// chatbot's stream instead of piling it up in memory.
const IN_FLIGHT: usize = 16;

/// The client went away.
#[derive(Debug)]
pub struct Gone;

/// Where a task writes the events of one response.
#[derive(Clone)]
pub struct Events {
    tx: mpsc::Sender<Bytes>,
}

impl Events {
    /// Sends one event (already in the wire's text).
    pub async fn send(&self, event: String) -> Result<(), Gone> {
        self.tx.send(Bytes::from(event)).await.map_err(|_| Gone)
    }

    /// Resolves when the client has gone away.
    pub async fn gone(&self) {
        self.tx.closed().await
    }

    /// `work`, unless the client goes away first (then it is dropped).
    pub async fn unless_gone<T>(&self, work: impl Future<Output = T>) -> Result<T, Gone> {
        tokio::select! {
            done = work => Ok(done),
            () = self.gone() => Err(Gone),
        }
    }
}

/// A `text/event-stream` response with `headers`, whose events `write`
/// produces on a task of its own.
pub fn event_stream<F, Fut>(headers: Vec<(HeaderName, String)>, write: F) -> Response
where
    F: FnOnce(Events) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Bytes>(IN_FLIGHT);
    tokio::spawn(write(Events { tx }));
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|bytes| (Ok::<Bytes, Infallible>(bytes), rx))
    });
    let mut response = Response::new(Body::from_stream(body));
    *response.status_mut() = StatusCode::OK;
    let out = response.headers_mut();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(&value) {
            out.insert(name, value);
        }
    }
    response
}
