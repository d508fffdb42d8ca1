//! `POST /api/stripe/webhook`: Stripe's reports of what happened to a payment. Only a
//! correctly signed event (`STRIPE_WEBHOOK_SECRET`, five minutes' tolerance) changes
//! anything; each event applies once; events we do not use are acknowledged and ignored, so
//! Stripe stops sending them.
//!
//! A payment's outcome (`payment_intent.*`) is in [`payment_events`]; money going back
//! (`charge.refunded`, `refund.updated`, `charge.dispute.*`) in [`money_events`]; a monthly
//! donor's new card (`setup_intent.succeeded`) in [`setup_events`]. When an
//! event cannot be applied yet (Stripe's refund list could not be read), the answer is an
//! error, so Stripe sends it again later.

mod money_events;
mod payment_events;
mod setup_events;

use bytes::Bytes;
use serde_json::json;
use stripe_webhook::{EventObject, Webhook};
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use std::sync::Arc;

use crate::domain::donations::Ledger;
use crate::http::error::ApiError;
use crate::http::filters::limited_body;
use crate::http::rate_limit::DonationLimiter;
use crate::state::AppState;

/// Stripe's events are a few kilobytes; a PaymentIntent with everything expanded stays far
/// below this.
const BODY_LIMIT: u64 = 256 * 1024;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    let limiter = state.donation_limiter.clone();
    warp::path!("stripe" / "webhook")
        .and(warp::post())
        .and(warp::header::optional::<String>("stripe-signature"))
        .and(limited_body(BODY_LIMIT))
        .and_then(move |signature, body| webhook(ledger.clone(), limiter.clone(), signature, body))
        .boxed()
}

/// The event's own details, for applying it once and dating what it reports.
pub(super) struct Meta {
    pub id: String,
    pub kind: String,
    /// When Stripe made the event: a dispute's closing date.
    pub created: jiff::Timestamp,
}

async fn webhook(
    ledger: Ledger,
    limiter: Arc<DonationLimiter>,
    signature: Option<String>,
    body: Result<Bytes, ApiError>,
) -> Result<Response, Rejection> {
    // With payments off there is no webhook: a stray post (a scanner, an old endpoint in
    // a Stripe dashboard) is nothing to raise an alarm about.
    let Some(payments) = ledger.payments.clone() else {
        tracing::info!("a Stripe webhook arrived while payments are off");
        return Err(ApiError::NotFound("Payments are not set up on this site.".into()).into());
    };
    let Some(secret) = payments.config.webhook_secret.clone() else {
        tracing::warn!("a Stripe webhook arrived, but STRIPE_WEBHOOK_SECRET is not set");
        return Err(ApiError::Unavailable("Webhooks are not configured.".into()).into());
    };
    let body = body?;
    let signature = signature
        .ok_or_else(|| ApiError::BadRequest("The Stripe-Signature header is missing.".into()))?;
    let payload = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("The event is not valid UTF-8.".into()))?;
    let event = Webhook::construct_event(payload, &signature, &secret).map_err(|e| {
        tracing::warn!(error = %e, "refused a Stripe webhook");
        ApiError::BadRequest("The event's signature is not valid.".into())
    })?;
    let meta = Meta {
        id: event.id.to_string(),
        kind: event.type_.to_string(),
        created: jiff::Timestamp::from_second(event.created).unwrap_or_else(|_| ledger.clock.now()),
    };
    match event.data.object {
        EventObject::PaymentIntentSucceeded(pi)
        | EventObject::PaymentIntentPaymentFailed(pi)
        | EventObject::PaymentIntentCanceled(pi) => {
            payment_events::apply(&ledger, &limiter, &meta, &pi).await?
        }
        EventObject::ChargeRefunded(charge) => {
            money_events::charge_refunded(&ledger, &payments, &meta, &charge).await?
        }
        EventObject::RefundUpdated(refund)
        | EventObject::RefundFailed(refund)
        | EventObject::ChargeRefundUpdated(refund) => {
            money_events::refund_updated(&ledger, &meta, &refund).await?
        }
        EventObject::ChargeDisputeCreated(dispute) | EventObject::ChargeDisputeClosed(dispute) => {
            money_events::dispute(&ledger, &meta, &dispute).await?
        }
        EventObject::SetupIntentSucceeded(setup) => {
            setup_events::saved(&ledger, &meta, &setup).await?
        }
        _ => tracing::debug!(event = %meta.id, kind = %meta.kind, "ignored a Stripe event"),
    }
    Ok(received())
}

fn received() -> Response {
    warp::reply::json(&json!({ "received": true })).into_response()
}
