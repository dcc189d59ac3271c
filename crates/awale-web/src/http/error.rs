//! Failures as HTTP answers: every error becomes a JSON body `{"error":
//! CODE, "reason": CODE, "fields": {..}, "message": TEXT}` with its status,
//! never a panic. Front ends word the code, reason and fields; the English
//! message is for logs and people reading the API. The one place
//! where a game error's kind becomes a status code.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::error::{Error, Kind};

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
        code: &'static str,
        /// What went wrong, naming the rejected input.
        message: String,
    },
}

impl ApiError {
    /// An error of the HTTP layer with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Http {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 403: refused (another site's request, a seat of someone else).
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// Its status, code, message and reason (a more precise code, for some
    /// of the model's errors).
    fn parts(&self) -> (StatusCode, &'static str, &str, Option<&'static str>) {
        match self {
            ApiError::Game(e) => (status_of(e.kind), e.code, &e.message, e.reason),
            ApiError::Http {
                status,
                code,
                message,
            } => (*status, code, message, None),
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
        let mut body = serde_json::json!({ "error": code, "message": message });
        if let Some(reason) = reason {
            body["reason"] = reason.into();
        }
        if let Some(fields) = self.fields() {
            body["fields"] = fields.clone().into();
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

/// Any other path: a JSON 404.
pub(crate) async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("nothing at `{}`", uri.path()),
    )
}
