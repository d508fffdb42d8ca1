//! `POST /api/stripe/webhook`: Stripe's reports of what happened to a payment. Only a
//! correctly signed event (`STRIPE_WEBHOOK_SECRET`, five minutes' tolerance) changes
//! anything; each event applies once; events we do not use are acknowledged and ignored, so
//! Stripe stops sending them.

use bytes::Bytes;
use serde_json::json;
use stripe_webhook::{EventObject, Webhook};
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::domain::donations::{self, Applied, Outcome, PaymentEvent};
use crate::domain::mail::receipt;
use crate::http::error::ApiError;
use crate::http::filters::limited_body;
use crate::state::AppState;

/// Stripe's events are a few kilobytes; a PaymentIntent with everything expanded stays far
/// below this.
const BODY_LIMIT: u64 = 256 * 1024;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    warp::path!("stripe" / "webhook")
        .and(warp::post())
        .and(warp::header::optional::<String>("stripe-signature"))
        .and(limited_body(BODY_LIMIT))
        .and_then(move |signature, body| webhook(state.clone(), signature, body))
        .boxed()
}

async fn webhook(
    state: AppState,
    signature: Option<String>,
    body: Result<Bytes, ApiError>,
) -> Result<Response, Rejection> {
    // With payments off there is no webhook: a stray post (a scanner, an old endpoint in
    // a Stripe dashboard) is nothing to raise an alarm about.
    let Some(payments) = state.payments.as_ref() else {
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
    let (outcome, intent) = match event.data.object {
        EventObject::PaymentIntentSucceeded(pi) => (Outcome::Succeeded, pi),
        EventObject::PaymentIntentPaymentFailed(pi) => (Outcome::Failed, pi),
        EventObject::PaymentIntentCanceled(pi) => (Outcome::Canceled, pi),
        _ => {
            tracing::debug!(event = %event.id, kind = %event.type_, "ignored a Stripe event");
            return Ok(received());
        }
    };
    let payment = PaymentEvent {
        event_id: event.id.to_string(),
        event_type: event.type_.to_string(),
        outcome,
        intent_id: intent.id.to_string(),
        amount_cents: intent.amount,
        currency: intent.currency.to_string(),
        donation_id: intent
            .metadata
            .get("donation_id")
            .and_then(|id| id.parse().ok()),
    };
    let applied = {
        let payment = payment.clone();
        let (mail, now) = (state.mail.clone(), state.clock.now());
        state
            .db
            .write(move |c| {
                let applied = donations::apply(c, &payment)?;
                // The receipt commits with the completion, or neither happens.
                if let Applied::Changed {
                    id,
                    to: "completed",
                    ..
                } = applied
                {
                    receipt::queue(&mail, c, id, now)?;
                }
                Ok(applied)
            })
            .await?
    };
    if matches!(
        applied,
        Applied::Changed {
            to: "completed",
            ..
        }
    ) {
        state.mail.wake();
    }
    let (event_id, intent_id) = (&payment.event_id, &payment.intent_id);
    match applied {
        Applied::Changed { id, from, to } => {
            tracing::info!(donation = id, %from, %to, event = %event_id, "donation status changed")
        }
        Applied::Duplicate => tracing::info!(event = %event_id, "Stripe event already applied"),
        Applied::Unchanged { id, status } => tracing::info!(
            donation = id,
            %status,
            event = %event_id,
            kind = %payment.event_type,
            "Stripe event changes nothing"
        ),
        Applied::Unknown => {
            tracing::warn!(intent = %intent_id, event = %event_id, "Stripe event for a payment we do not know")
        }
        Applied::Mismatch { id } => tracing::error!(
            donation = id,
            intent = %intent_id,
            cents = payment.amount_cents,
            currency = %payment.currency,
            "a payment succeeded with another amount or currency than the gift: left as it was for a person to check"
        ),
    }
    Ok(received())
}

fn received() -> Response {
    warp::reply::json(&json!({ "received": true })).into_response()
}
