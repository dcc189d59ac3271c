//! Reading the API's newline-delimited JSON streams a line at a time, for
//! whoever reads them: the bridge (`awale bot`), the terminal's online
//! game (`awale play --online`), the tests. The bytes are gathered before
//! they are cut at each newline, so that a line split between two frames
//! (a name's accented letter among them) is read whole.

use std::pin::Pin;
use std::time::Duration;

use axum::body::Bytes;
use serde_json::Value;

/// What came next on a stream.
#[derive(Debug)]
pub enum Next {
    /// A line of JSON.
    Line(Value),
    /// A line that is no JSON (given back, trimmed).
    NotJson(String),
    /// The stream ended.
    End,
    /// The stream broke (the connection failed).
    Broken,
    /// Nothing came, not even a keep-alive, for the silence allowed.
    Silent,
}

impl Next {
    /// The line's JSON, if it was one.
    pub fn line(self) -> Option<Value> {
        match self {
            Next::Line(value) => Some(value),
            _ => None,
        }
    }
}

/// A stream of newline-delimited JSON over the body of an answer (hyper's
/// or axum's).
pub struct Lines<B> {
    body: B,
    bytes: Vec<u8>,
}

impl<B> Lines<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
{
    /// The lines of `body`.
    pub fn new(body: B) -> Lines<B> {
        Lines {
            body,
            bytes: Vec::new(),
        }
    }

    /// The next line, the empty ones (keep-alives) passed over; after
    /// `silence` without a byte, [`Next::Silent`].
    pub async fn next(&mut self, silence: Duration) -> Next {
        loop {
            while let Some(end) = self.bytes.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.bytes.drain(..=end).collect();
                let text = String::from_utf8_lossy(&raw);
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                return match serde_json::from_str(text) {
                    Ok(value) => Next::Line(value),
                    Err(_) => Next::NotJson(text.to_string()),
                };
            }
            let frame = std::future::poll_fn(|cx| Pin::new(&mut self.body).poll_frame(cx));
            match tokio::time::timeout(silence, frame).await {
                Err(_) => return Next::Silent,
                Ok(None) => return Next::End,
                Ok(Some(Err(_))) => return Next::Broken,
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        self.bytes.extend_from_slice(&data);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    #[tokio::test]
    async fn a_line_split_between_frames_inside_a_letter_is_read_whole() {
        let word = "{\"name\":\"Kofi Ébo\"}\n\n{\"n\":2}\nnot json\n";
        let bytes = word.as_bytes();
        // Cut inside the two bytes of `É`.
        let at = word.find('É').unwrap() + 1;
        let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(Bytes::copy_from_slice(&bytes[..at])),
            Ok(Bytes::copy_from_slice(&bytes[at..])),
        ];
        let body = Body::from_stream(futures_util::stream::iter(chunks));
        let mut lines = Lines::new(body);
        let second = Duration::from_secs(1);
        let first = lines.next(second).await.line().unwrap();
        assert_eq!(first["name"], "Kofi Ébo");
        assert_eq!(lines.next(second).await.line().unwrap()["n"], 2);
        assert!(matches!(lines.next(second).await, Next::NotJson(t) if t == "not json"));
        assert!(matches!(lines.next(second).await, Next::End));
    }
}
