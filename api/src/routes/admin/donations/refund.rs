//! POST /api/admin/donations/{id}/refund `{amount, reason}`: staff give all or part of a
//! completed gift back.
//!
//! The refund is stored as `requested` first, in a write that checks the gift (completed,
//! not disputed) and what is left of it, so two refunds at once cannot give back more than
//! was paid. Then Stripe's refunds API is called with an idempotency key made from that row
//! (a retry never refunds twice) and the row's id in the refund's metadata (so the
//! `charge.refunded` event it causes finds this row, even when it arrives first). Stripe's
//! answer is recorded with the donor's notice and the audit row (amount and reason) in one
//! write.

use serde_json::Value;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::super::{dollars, json};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::money_back;
use crate::domain::donations::refunds::{self, Refused};
use crate::domain::donations::stripe::NewRefund;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::{AppState, Ledger};

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    warp::path!("donations" / i64 / "refund")
        .and(warp::post())
        .and(super::super::signed_in(state.clone()))
        .and(json_body::<Value>(8 * 1024))
        .and_then(move |id, admin, body| refund(ledger.clone(), id, admin, body))
        .boxed()
}

/// Refunds and answers the gift as the list now shows it.
async fn refund(ledger: Ledger, id: i64, admin: Admin, body: Value) -> Result<Response, Rejection> {
    if let Some(unknown) = body.as_object().and_then(|o| {
        o.keys()
            .find(|k| !matches!(k.as_str(), "amount" | "reason"))
    }) {
        return Err(ApiError::BadRequest(format!("Unknown field {unknown:?}.")).into());
    }
    let cents = refunds::parse_amount(body.get("amount")).map_err(ApiError::from)?;
    let reason = refunds::parse_reason(body.get("reason")).map_err(ApiError::from)?;
    let Some(payments) = ledger.payments.clone() else {
        // No gift can be refunded without Stripe, but one that does not exist is still
        // "not found" rather than "unavailable".
        return Err(match super::donation(&ledger, id).await? {
            Some(_) => {
                ApiError::Unavailable("Payments are not set up, so nothing can be refunded.".into())
            }
            None => ApiError::NotFound(format!("There is no donation {id}.")),
        }
        .into());
    };
    let (now, tz) = (ledger.clock.now(), ledger.site.tz());
    let asked = {
        let reason = reason.clone();
        ledger
            .db
            .write(move |c| refunds::request(c, &tz, id, cents, &reason, now))
            .await?
    };
    let requested = match asked {
        Ok(requested) => requested,
        Err(Refused::NotFound) => {
            return Err(ApiError::NotFound(format!("There is no donation {id}.")).into());
        }
        Err(Refused::NotRefundable(why)) => return Err(ApiError::Conflict(why).into()),
        Err(Refused::TooMuch { refundable_cents }) => {
            let message = if refundable_cents == 0 {
                "Nothing is left to refund of this gift.".to_owned()
            } else {
                format!(
                    "At most ${} of this gift can be refunded.",
                    dollars(refundable_cents)
                )
            };
            return Err(ApiError::Invalid(generator::forms::Invalid {
                field: Some("amount"),
                message,
            })
            .into());
        }
    };
    let made = payments
        .create_refund(NewRefund {
            payment_intent: requested.payment_intent.clone(),
            amount_cents: cents,
            donation_id: id,
            request_id: requested.id,
            // The row and the moment it was made: unique even if the database is recreated.
            idempotency_key: format!("refund-{}-{}", requested.id, requested.created_at),
        })
        .await;
    let mut refund = match made {
        Ok(refund) => refund,
        Err(e) => {
            tracing::error!(donation = id, refund = requested.id, error = %e, "Stripe did not make a refund");
            let now = ledger.clock.now();
            ledger
                .db
                .write(move |c| refunds::request_failed(c, requested.id, now))
                .await?;
            // A clear refusal (4xx) says why; anything else may have been cut off after
            // Stripe acted, and a retry of the same amount takes this request up again
            // (see `refunds::request`), so it cannot refund twice.
            let said = match &e {
                stripe::StripeError::Stripe(errors, status) if *status < 500 => {
                    errors.message.clone()
                }
                _ => None,
            };
            return Err(ApiError::BadGateway(match said {
                Some(message) => format!("Stripe did not make the refund: {message}"),
                None => "Stripe did not confirm the refund. Please press Refund again with the \
                         same amount: it will not refund twice."
                    .into(),
            })
            .into());
        }
    };
    // This request's row, whatever the answer's metadata says.
    refund.request = Some(requested.id);
    let (mail, tz, now) = (ledger.mail.clone(), ledger.site.tz(), ledger.clock.now());
    let detail = format!("{} refunded ({}): {reason}", dollars(cents), refund.id);
    let queued = ledger
        .db
        .write(move |c| {
            let recorded = refunds::record(c, &tz, &refund, now)?;
            let queued = money_back::after_refund(&mail, c, &recorded, &refund.id, now)?;
            audit::record_detailed(
                c,
                Action::Refund,
                &format!("donation:{id}"),
                Some(admin.ip),
                &detail,
            )?;
            Ok(queued)
        })
        .await?;
    if queued {
        ledger.mail.wake();
    }
    tracing::info!(
        donation = id,
        refund = requested.id,
        cents,
        "refunded by staff"
    );
    let donation = super::donation(&ledger, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("There is no donation {id}.")))?;
    Ok(json(StatusCode::OK, &donation))
}
