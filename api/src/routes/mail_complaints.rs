//! `POST /api/mail/complaints`: a mail provider's notice that a recipient marked a message
//! as spam (a feedback loop). The address goes on the suppression list as `complained`, and
//! list mail still queued for it is not sent.
//!
//! Only a signed notice counts: `Complaint-Signature: t=<unix seconds>,v1=<hex>`, where the
//! hex is HMAC-SHA256 with `MAIL_COMPLAINT_SECRET` over `<t>.<body>`, and `t` is within five
//! minutes of the server's clock (a notice replayed later is refused). The body is
//! `{"email": "...", "detail": "..."?}`. Without the setting the endpoint answers 404. The
//! answer to a good notice is the same whether or not the address was ever subscribed.

use bytes::Bytes;
use hmac::{Hmac, Mac as _};
use serde::Deserialize;
use serde_json::json;
use sha2::Sha256;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply as _};

use crate::domain::audit::{self, Action};
use crate::domain::mail::suppressions::{self, Reason};
use crate::http::error::ApiError;
use crate::http::filters::limited_body;
use crate::state::AppState;

/// A notice names one address; a few kilobytes is plenty.
const BODY_LIMIT: u64 = 16 * 1024;
/// How far a notice's time may be from the server's.
const TOLERANCE_SECS: i64 = 300;

#[derive(Debug, Deserialize)]
struct Notice {
    email: Option<String>,
    detail: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    warp::path!("mail" / "complaints")
        .and(warp::post())
        .and(warp::header::optional::<String>("complaint-signature"))
        .and(limited_body(BODY_LIMIT))
        .and_then(move |signature, body| complaint(state.clone(), signature, body))
        .boxed()
}

async fn complaint(
    state: AppState,
    signature: Option<String>,
    body: Result<Bytes, ApiError>,
) -> Result<Response, Rejection> {
    let Some(secret) = state.config.mail.complaint_secret.clone() else {
        return Err(
            ApiError::NotFound("Complaint notices are not set up on this site.".into()).into(),
        );
    };
    let body = body?;
    let now = state.clock.now();
    if !signed(&secret, signature.as_deref(), &body, now.as_second()) {
        tracing::warn!("refused a complaint notice: bad or missing signature");
        return Err(ApiError::Unauthorized("The notice's signature is not valid.".into()).into());
    }
    let notice: Notice = serde_json::from_slice(&body).map_err(|_| {
        ApiError::BadRequest("The notice must be JSON: {\"email\": \"...\"}.".into())
    })?;
    let email = super::admin::suppressions_address(notice.email.as_deref())?;
    let detail = notice
        .detail
        .map(|d| d.chars().take(500).collect::<String>())
        .unwrap_or_else(|| "a provider's complaint notice".into());
    state
        .db
        .write(move |tx| {
            if suppressions::add(tx, &email, Reason::Complained, Some(&detail), None, now)? {
                audit::record_system(tx, Action::Suppress, Some(&format!("email:{email}")))?;
            }
            Ok(())
        })
        .await?;
    Ok(warp::reply::with_status(
        warp::reply::json(&json!({ "success": true })),
        StatusCode::OK,
    )
    .into_response())
}

/// Whether `header` signs `body` with `secret` at a time near `now` (unix seconds).
fn signed(secret: &str, header: Option<&str>, body: &[u8], now: i64) -> bool {
    let Some(header) = header else {
        return false;
    };
    let (mut t, mut v1) = (None, None);
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => t = value.parse::<i64>().ok(),
            Some(("v1", value)) => v1 = hex::decode(value).ok(),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    if (now - t).abs() > TOLERANCE_SECS {
        return false;
    }
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return false;
    };
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    // Compared in constant time.
    mac.verify_slice(&v1).is_ok()
}

#[cfg(test)]
mod tests {
    use super::signed;
    use hmac::{Hmac, Mac as _};

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(body);
        format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn only_a_fresh_notice_signed_with_the_secret_counts() {
        let body = br#"{"email":"a@example.org"}"#;
        let good = sign("s3cret", 1_000, body);
        assert!(signed("s3cret", Some(&good), body, 1_100));
        assert!(!signed("other", Some(&good), body, 1_100), "another secret");
        assert!(!signed("s3cret", Some(&good), b"{}", 1_100), "another body");
        assert!(
            !signed("s3cret", Some(&good), body, 1_000 + 301),
            "too late"
        );
        assert!(!signed("s3cret", None, body, 1_000));
        assert!(!signed("s3cret", Some("t=1000"), body, 1_000));
        assert!(!signed("s3cret", Some("garbage"), body, 1_000));
    }
}
