//! The api's one error type, and the one place errors become HTTP responses.
//!
//! When to use which:
//! - `BadRequest`: the client sent something we refuse; the message is shown to the visitor
//!   as is, so write it as a sentence they can act on.
//! - `Invalid`: a field of a submission breaks a rule; a 400 like `BadRequest` whose body
//!   also names the field (`{"message", "field"}`), so a page can mark and focus it.
//! - `UnsupportedMediaType`: a body in an encoding the route does not take.
//! - `Forbidden`: a request we will not take from where it came (a cross-site form post), or
//!   from who sent it (a role without the capability); `MustEnrol` when what is missing is
//!   the strong second factor their role requires; `Reauth` when the session must prove its
//!   password again first (a change to how its person signs in).
//! - `PayloadTooLarge`: a body over the route's limit.
//! - `Unauthorized`: no valid admin session; the admin app signs out on it.
//! - `TooManyRequests`: a rate limit was hit; `RetryAfter` when the client should be told
//!   how long to wait (failed admin logins).
//! - `NotFound`: no such resource; the message says which.
//! - `Conflict`: the request is fine but the thing it is about is not ready for it (a gift
//!   whose payment has not gone through yet).
//! - `Gone`: what the request names existed but is over for good (an expired link, a monthly
//!   gift that has ended).
//! - `Unavailable`: a service we depend on is not set up (no card processor configured).
//! - `BadGateway`: a service we depend on failed (Stripe refused or did not answer); the
//!   message is for the visitor, the cause is logged where it happened.
//! - `Internal`: anything that is our fault. The cause is logged; the client only ever sees
//!   "Internal Server Error".

use std::convert::Infallible;

use warp::http::StatusCode;
use warp::reject::Reject;
use warp::{Rejection, Reply};

// warp turns any `Reject` into a `Rejection`, so `?` works on ApiError in handlers.

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Invalid(generator::forms::Invalid),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Forbidden(String),
    /// The caller's role needs a strong second factor they have not set up yet: a 403 whose
    /// body also says `"enrol": true`, so the admin sends them to enrol.
    #[error("{0}")]
    MustEnrol(String),
    /// The session must prove its password again before this (a change to its person's
    /// second factors): a 403 whose body also says `"reauth": true`, so the admin asks.
    #[error("{0}")]
    Reauth(String),
    #[error("The request is too large.")]
    PayloadTooLarge,
    /// The spec's own words for a blog image over 5 MB.
    #[error("Image must be less than 5MB")]
    ImageTooLarge,
    #[error("{0}")]
    Unauthorized(String),
    #[error("Too many requests. Please wait a minute and try again.")]
    TooManyRequests,
    #[error("{message}")]
    RetryAfter { message: String, seconds: u64 },
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// What the request names existed but is over for good (an expired link, an ended plan).
    #[error("{0}")]
    Gone(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("{0}")]
    BadGateway(String),
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl Reject for ApiError {}

/// A store failure answered where it happened (`?` in a handler) is a 500 too, in `recover`.
impl Reject for crate::store::error::Error {}

impl From<generator::forms::Invalid> for ApiError {
    fn from(invalid: generator::forms::Invalid) -> Self {
        ApiError::Invalid(invalid)
    }
}

impl From<crate::store::error::Error> for ApiError {
    fn from(e: crate::store::error::Error) -> Self {
        ApiError::Internal(e.into())
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::Internal(e.into())
    }
}

/// The JSON body of every error: `{"message": "…"}`.
fn error_reply(status: StatusCode, message: &str) -> warp::reply::Response {
    warp::reply::with_status(
        warp::reply::json(&serde_json::json!({ "message": message })),
        status,
    )
    .into_response()
}

/// Turns every rejection, ours or warp's, into a JSON error with the right status.
pub async fn recover(rejection: Rejection) -> Result<warp::reply::Response, Infallible> {
    let (status, message): (StatusCode, String) = if let Some(e) = rejection.find::<ApiError>() {
        match e {
            ApiError::BadRequest(m) => (StatusCode::BAD_REQUEST, m.clone()),
            ApiError::Invalid(invalid) => {
                let body =
                    serde_json::json!({ "message": invalid.message, "field": invalid.field });
                return Ok(warp::reply::with_status(
                    warp::reply::json(&body),
                    StatusCode::BAD_REQUEST,
                )
                .into_response());
            }
            ApiError::UnsupportedMediaType(m) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, m.clone()),
            ApiError::Forbidden(m) => (StatusCode::FORBIDDEN, m.clone()),
            ApiError::MustEnrol(m) => {
                let body = serde_json::json!({ "message": m, "enrol": true });
                return Ok(warp::reply::with_status(
                    warp::reply::json(&body),
                    StatusCode::FORBIDDEN,
                )
                .into_response());
            }
            ApiError::Reauth(m) => {
                let body = serde_json::json!({ "message": m, "reauth": true });
                return Ok(warp::reply::with_status(
                    warp::reply::json(&body),
                    StatusCode::FORBIDDEN,
                )
                .into_response());
            }
            ApiError::PayloadTooLarge | ApiError::ImageTooLarge => {
                (StatusCode::PAYLOAD_TOO_LARGE, e.to_string())
            }
            ApiError::Unauthorized(m) => (StatusCode::UNAUTHORIZED, m.clone()),
            ApiError::TooManyRequests => (StatusCode::TOO_MANY_REQUESTS, e.to_string()),
            ApiError::RetryAfter { message, seconds } => {
                let mut res = error_reply(StatusCode::TOO_MANY_REQUESTS, message);
                res.headers_mut()
                    .insert("retry-after", warp::http::HeaderValue::from(*seconds));
                return Ok(res);
            }
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, m.clone()),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, m.clone()),
            ApiError::Gone(m) => (StatusCode::GONE, m.clone()),
            ApiError::Unavailable(m) => (StatusCode::SERVICE_UNAVAILABLE, m.clone()),
            ApiError::BadGateway(m) => (StatusCode::BAD_GATEWAY, m.clone()),
            ApiError::Internal(cause) => {
                tracing::error!(error = %format!("{cause:#}"), "request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Internal Server Error".into(),
                )
            }
        }
    } else if let Some(e) = rejection.find::<crate::store::error::Error>() {
        tracing::error!(error = %e, "request failed");
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal Server Error".into(),
        )
    } else if rejection.is_not_found() {
        (StatusCode::NOT_FOUND, "Not found.".into())
    } else if rejection.find::<warp::reject::PayloadTooLarge>().is_some() {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            "The request is too large.".into(),
        )
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        (StatusCode::METHOD_NOT_ALLOWED, "Method not allowed.".into())
    } else if rejection
        .find::<warp::reject::UnsupportedMediaType>()
        .is_some()
    {
        (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the request body as JSON.".into(),
        )
    } else if rejection.find::<warp::reject::InvalidQuery>().is_some() {
        (
            StatusCode::BAD_REQUEST,
            "The query string is not valid.".into(),
        )
    } else if rejection.find::<warp::reject::MissingHeader>().is_some()
        || rejection.find::<warp::reject::InvalidHeader>().is_some()
    {
        (
            StatusCode::BAD_REQUEST,
            "A required header is missing or not valid.".into(),
        )
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal Server Error".into(),
        )
    };
    Ok(error_reply(status, &message))
}
