//! Money going back, as Stripe reports it: `charge.refunded` (a refund made in the admin or
//! in Stripe's dashboard; the charge's refunds are then read from the refunds API, since
//! recent API versions no longer embed them in the charge), `refund.updated` and
//! `refund.failed` (a refund that failed after it was made), and `charge.dispute.created` /
//! `.closed`. Each event applies once (`stripe_events`), and each refund and dispute is keyed
//! by Stripe's id, so replays, duplicates and events out of order count once.

use stripe_shared::{Charge, Dispute, Refund};

use super::Meta;
use crate::domain::donations;
use crate::domain::donations::Ledger;
use crate::domain::donations::disputes::{DisputeRecorded, StripeDispute};
use crate::domain::donations::money_back;
use crate::domain::donations::refunds::{self, Recorded, StripeRefund};
use crate::domain::donations::store;
use crate::domain::donations::stripe::{Payments, refund_of};
use crate::http::error::ApiError;

/// Whether event `id` was applied before (read first, to spare Stripe a needless call).
async fn seen(ledger: &Ledger, id: &str) -> Result<bool, ApiError> {
    let id = id.to_owned();
    ledger
        .db
        .read(move |c| store::event_seen(c, &id))
        .await
        .map_err(ApiError::from)
}

/// `charge.refunded`: every refund of the charge, as the refunds API has them now.
pub(super) async fn charge_refunded(
    ledger: &Ledger,
    payments: &Payments,
    meta: &Meta,
    charge: &Charge,
) -> Result<(), ApiError> {
    if seen(ledger, &meta.id).await? {
        tracing::info!(event = %meta.id, "Stripe event already applied");
        return Ok(());
    }
    let intent = charge.payment_intent.as_ref().map(|p| p.id().to_string());
    let mut list = payments
        .refunds_of_charge(charge.id.as_str())
        .await
        .map_err(|e| {
            tracing::warn!(event = %meta.id, charge = %charge.id, error = %e,
                "could not read a charge's refunds from Stripe; it will send the event again");
            ApiError::BadGateway("Stripe's refunds could not be read.".into())
        })?;
    for r in &mut list {
        if r.payment_intent.is_none() {
            r.payment_intent = intent.clone();
        }
    }
    apply_refunds(ledger, meta, list).await
}

/// `refund.updated`, `refund.failed`, `charge.refund.updated`: one refund, as it now stands.
pub(super) async fn refund_updated(
    ledger: &Ledger,
    meta: &Meta,
    refund: &Refund,
) -> Result<(), ApiError> {
    apply_refunds(ledger, meta, vec![refund_of(refund)]).await
}

async fn apply_refunds(
    ledger: &Ledger,
    meta: &Meta,
    list: Vec<StripeRefund>,
) -> Result<(), ApiError> {
    let (mail, now, tz) = (ledger.mail.clone(), ledger.clock.now(), ledger.site.tz());
    let (event, kind) = (meta.id.clone(), meta.kind.clone());
    let applied = ledger
        .db
        .write(move |c| {
            if !donations::first_time(c, &event, &kind)? {
                return Ok(None);
            }
            let mut queued = false;
            let mut done = Vec::new();
            for r in &list {
                let recorded = refunds::record(c, &tz, r, now)?;
                queued |= money_back::after_refund(&mail, c, &recorded, &r.id, now)?;
                done.push((r.id.clone(), r.status.clone(), recorded));
            }
            Ok(Some((done, queued)))
        })
        .await?;
    let Some((done, queued)) = applied else {
        tracing::info!(event = %meta.id, "Stripe event already applied");
        return Ok(());
    };
    if queued {
        ledger.mail.wake();
    }
    for (refund, status, recorded) in done {
        match recorded {
            Recorded::Refund {
                donation_id,
                newly_counted,
                newly_failed,
                ..
            } => tracing::info!(event = %meta.id, %refund, %status, donation = donation_id,
                newly_counted, newly_failed, "refund recorded"),
            Recorded::Unknown => {
                tracing::warn!(event = %meta.id, %refund, "a refund of a payment we do not know")
            }
        }
    }
    Ok(())
}

/// `charge.dispute.created` and `.closed`.
pub(super) async fn dispute(
    ledger: &Ledger,
    meta: &Meta,
    dispute: &Dispute,
) -> Result<(), ApiError> {
    let d = StripeDispute {
        id: dispute.id.to_string(),
        amount_cents: dispute.amount,
        reason: dispute.reason.clone(),
        status: dispute.status.as_str().to_owned(),
        created: jiff::Timestamp::from_second(dispute.created).unwrap_or(meta.created),
        payment_intent: dispute.payment_intent.as_ref().map(|p| p.id().to_string()),
    };
    let (mail, now, tz, at) = (
        ledger.mail.clone(),
        ledger.clock.now(),
        ledger.site.tz(),
        meta.created,
    );
    let (event, kind) = (meta.id.clone(), meta.kind.clone());
    let id = d.id.clone();
    let applied = ledger
        .db
        .write(move |c| {
            if !donations::first_time(c, &event, &kind)? {
                return Ok(None);
            }
            let recorded = refunds::apply_dispute(c, &tz, &d, at, now)?;
            let queued = money_back::after_dispute(&mail, c, &d.id, &recorded, now)?;
            Ok(Some((recorded, queued)))
        })
        .await?;
    match applied {
        None => tracing::info!(event = %meta.id, "Stripe event already applied"),
        Some((DisputeRecorded::Unknown, _)) => {
            tracing::warn!(event = %meta.id, dispute = %id, "a dispute of a payment we do not know")
        }
        Some((
            DisputeRecorded::Dispute {
                donation_id,
                status,
                chargeback,
                ..
            },
            queued,
        )) => {
            if queued {
                ledger.mail.wake();
            }
            tracing::info!(event = %meta.id, dispute = %id, donation = donation_id, %status,
                chargeback = chargeback.is_some(), "dispute recorded");
        }
    }
    Ok(())
}
