//! Failures as HTTP answers: every error becomes a JSON body `{"error":
//! CODE, "reason": CODE, "fields": {..}, "message": TEXT}` with its status,
//! never a panic. Front ends word the code, reason and fields; the English
//! message is for logs and people reading the API. The one place
//! where a game error's kind becomes a status code, and where what an
//! answer quotes of the input is cut (`bounded`), whichever handler,
//! extractor or library wrote the message.

use awale_model::Code;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::error::{shown, Error, Kind, SHOWN_CHARS};

/// A failed request: refused by the model (its error's kind gives the
/// status), or by the HTTP layer before the model (a body, a path, a
/// method, a host), with its own status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The model's error.
    Game(Error),
    /// The HTTP layer's.
    Http {
        /// The HTTP status.
        status: StatusCode,
        /// A stable machine-readable code such as `not_json`.
        code: Code,
        /// What went wrong, naming the rejected input.
        message: String,
    },
}

impl ApiError {
    /// An error of the HTTP layer with this status, code and message.
    pub fn new(status: StatusCode, code: Code, message: impl Into<String>) -> ApiError {
        ApiError::Http {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(code: Code, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 403: refused (another site's request, a seat of someone else).
    pub fn forbidden(code: Code, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// Its status, code, message and reason (a more precise code, for some
    /// of the model's errors).
    fn parts(&self) -> (StatusCode, Code, &str, Option<&'static str>) {
        match self {
            ApiError::Game(e) => (status_of(e.kind), e.code, &e.message, e.reason),
            ApiError::Http {
                status,
                code,
                message,
            } => (*status, *code, message, None),
        }
    }

    /// The facts the error is worded with.
    fn fields(&self) -> Option<&serde_json::Map<String, serde_json::Value>> {
        match self {
            ApiError::Game(e) if !e.fields.is_empty() => Some(e.fields.as_ref()),
            _ => None,
        }
    }
}

/// The status of each kind of game error.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Malformed => StatusCode::BAD_REQUEST,
        Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::Unauthorized => StatusCode::UNAUTHORIZED,
        Kind::TooMany => StatusCode::TOO_MANY_REQUESTS,
        Kind::Busy => StatusCode::SERVICE_UNAVAILABLE,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::Game(e)
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        Error::from(e).into()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (status, code, message, _) = self.parts();
        write!(f, "{status} ({code}): {message}")
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code, message, reason) = self.parts();
        let retry = matches!(
            status,
            StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
        );
        let mut body = serde_json::json!({ "error": code, "message": bounded(message) });
        if let Some(reason) = reason {
            body["reason"] = reason.into();
        }
        if let Some(fields) = self.fields() {
            let mut fields = serde_json::Value::from(fields.clone());
            cut_strings(&mut fields);
            body["fields"] = fields;
        }
        let mut response = (status, Json(body)).into_response();
        if retry {
            // The wait the refusal tells, when it tells one.
            let wait = self
                .fields()
                .and_then(|f| f.get("wait_s"))
                .and_then(serde_json::Value::as_i64)
                .filter(|s| *s > 0)
                .and_then(|s| HeaderValue::from_str(&s.to_string()).ok())
                .unwrap_or(HeaderValue::from_static("2"));
            response.headers_mut().insert(header::RETRY_AFTER, wait);
        }
        response
    }
}

/// Longest message an answer carries, in characters: a message that
/// quotes input without quotes around it (or input holding quotes) is cut
/// there.
pub const MESSAGE_CHARS: usize = 240;

/// `message` as an answer carries it: each piece it quotes, between
/// backticks (as the server's messages quote input) or double quotes (as
/// serde's do, escapes and all), cut to [`SHOWN_CHARS`] characters with
/// `…`, and the whole to [`MESSAGE_CHARS`]. So a 10 KB field name, path or
/// rule is not echoed back, whoever wrote the message.
pub fn bounded(message: &str) -> String {
    let mut out = String::new();
    let mut written = 0;
    // The quote open, if any: its character, the characters of it kept,
    // and whether the last one was a backslash (in double quotes).
    let mut open: Option<(char, usize, bool)> = None;
    for c in message.chars() {
        if written == MESSAGE_CHARS {
            out.push('…');
            break;
        }
        let keep = match &mut open {
            None => {
                if c == '`' || c == '"' {
                    open = Some((c, 0, false));
                }
                true
            }
            Some((quote, _, escaped)) if c == *quote && !*escaped => {
                open = None;
                true
            }
            Some((quote, kept, escaped)) => {
                *escaped = *quote == '"' && c == '\\' && !*escaped;
                *kept += 1;
                if *kept == SHOWN_CHARS + 1 {
                    out.push('…');
                    written += 1;
                }
                *kept <= SHOWN_CHARS
            }
        };
        if keep {
            out.push(c);
            written += 1;
        }
    }
    out
}

/// Every string in `value` (an error's fields) as an answer quotes it.
fn cut_strings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => *text = shown(text),
        serde_json::Value::Array(values) => values.iter_mut().for_each(cut_strings),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(cut_strings),
        _ => {}
    }
}

/// Any other path: a JSON 404.
pub(crate) async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::NotFound,
        format!("nothing at `{}`", uri.path()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_message_quotes_is_cut_whoever_wrote_it() {
        let long = "x".repeat(10_000);
        let cut = format!("{}…", "x".repeat(SHOWN_CHARS));
        // The server's backticks, serde's double quotes (escapes kept whole).
        assert_eq!(
            bounded(&format!("unknown field `{long}`, expected `mode`")),
            format!("unknown field `{cut}`, expected `mode`")
        );
        assert_eq!(
            bounded(&format!(
                "invalid type: string \"a\\\"{long}\", expected i64"
            )),
            format!(
                "invalid type: string \"a\\\"{}…\", expected i64",
                "x".repeat(SHOWN_CHARS - 3)
            )
        );
        // A quote never closed is cut too.
        assert_eq!(bounded(&format!("no `{long}")), format!("no `{cut}"));
        // Short quotes and plain sentences are left as they are.
        let plain = "the game is over (`empty_board`), \"it's\" done";
        assert_eq!(bounded(plain), plain);
        // Input holding a backtick gets past the quotes, not past the bound.
        let sly = bounded(&format!("`a`{long}` is not a theme"));
        assert_eq!(sly.chars().count(), MESSAGE_CHARS + 1, "{sly}");
    }
}
