//! `payment_intent.succeeded`, `.payment_failed` and `.canceled`: a gift paid, declined or
//! canceled. A completion queues the donor's receipt in the same write.

use stripe_shared::PaymentIntent;

use super::Meta;
use crate::domain::donations::Ledger;
use crate::domain::donations::{self, Applied, Outcome, PaymentEvent};
use crate::http::error::ApiError;
use crate::http::rate_limit::DonationLimiter;

pub(super) async fn apply(
    ledger: &Ledger,
    limiter: &DonationLimiter,
    meta: &Meta,
    intent: &PaymentIntent,
) -> Result<(), ApiError> {
    let outcome = match meta.kind.as_str() {
        "payment_intent.succeeded" => Outcome::Succeeded,
        "payment_intent.payment_failed" => Outcome::Failed,
        _ => Outcome::Canceled,
    };
    let payment = PaymentEvent {
        event_id: meta.id.clone(),
        event_type: meta.kind.clone(),
        outcome,
        intent_id: intent.id.to_string(),
        amount_cents: intent.amount,
        currency: intent.currency.to_string(),
        donation_id: intent
            .metadata
            .get("donation_id")
            .and_then(|id| id.parse().ok()),
        payment_method: intent.payment_method.as_ref().map(|p| p.id().to_string()),
    };
    let applied = {
        let payment = payment.clone();
        let (mail, now, tz) = (ledger.mail.clone(), ledger.clock.now(), ledger.site.tz());
        ledger
            .db
            .write(move |c| {
                let applied = donations::apply(c, &payment)?;
                // The receipt (and a monthly gift's next step, and the refund of what
                // passed the limit) commits with the completion, or none of it happens.
                let mut followed = None;
                if let Applied::Changed {
                    id,
                    to: "completed",
                    ..
                } = applied
                {
                    followed = Some(crate::domain::donations::completion::completed(
                        &mail,
                        c,
                        id,
                        payment.payment_method.as_deref(),
                        now,
                        &tz,
                    )?);
                }
                Ok((applied, followed))
            })
            .await?
    };
    let (applied, followed) = applied;
    if followed.is_some_and(|f| f.limit_refund.is_some()) {
        ledger.refunder.wake();
    }
    if matches!(
        applied,
        Applied::Changed {
            to: "completed",
            ..
        }
    ) {
        ledger.mail.wake();
    }
    // Every decline counts against the network that set the gift up (a card tester tries
    // card after card against one payment), however the gift's status moves.
    if let (Outcome::Failed, Applied::Changed { id, .. } | Applied::Unchanged { id, .. }) =
        (outcome, &applied)
    {
        limiter.declined(*id);
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
    Ok(())
}
