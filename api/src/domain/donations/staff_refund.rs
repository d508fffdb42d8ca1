//! Staff give all or part of a completed gift back.
//!
//! The refund is stored as `requested` first, in a write that checks the gift (completed,
//! not disputed) and what is left of it, so two refunds at once cannot give back more than
//! was paid. Then Stripe's refunds API is called with an idempotency key made from that row
//! (a retry never refunds twice) and the row's id in the refund's metadata (so the
//! `charge.refunded` event it causes finds this row, even when it arrives first). Stripe's
//! answer is recorded with the donor's notice and the audit row (amount and reason) in one
//! write.

use super::refunds::{self, Refused};
use super::stripe::NewRefund;
use super::{Ledger, money_back, store};
use crate::domain::audit::{self, Action, By};
use crate::store::error::Error as StoreError;

/// Why a refund was not made.
#[derive(Debug, thiserror::Error)]
pub enum RefundError {
    /// The gift cannot be refunded as asked (no such gift, not refundable, too much).
    #[error("refused")]
    Refused(Refused),
    /// No card processor is configured, so nothing can be refunded.
    #[error("payments are not set up")]
    Unavailable,
    /// Stripe did not make the refund: what it said when it refused clearly (a 4xx), or
    /// `None` when the answer was lost or Stripe failed, which a retry of the same amount
    /// takes up again without refunding twice.
    #[error("Stripe did not make the refund")]
    Stripe(Option<String>),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Refunds `cents` of gift `id` for `reason`, as staff (`by`) asked.
pub async fn refund(
    ledger: &Ledger,
    id: i64,
    cents: i64,
    reason: &str,
    by: By,
) -> Result<(), RefundError> {
    let Some(payments) = ledger.payments.clone() else {
        // No gift can be refunded without Stripe, but one that does not exist is still
        // "not found" rather than "unavailable".
        let exists = ledger.db.read(move |c| store::gift(c, id)).await?.is_some();
        return Err(if exists {
            RefundError::Unavailable
        } else {
            RefundError::Refused(Refused::NotFound)
        });
    };
    let (now, tz) = (ledger.clock.now(), ledger.site.tz());
    let requested = {
        let reason = reason.to_owned();
        ledger
            .db
            .write(move |c| refunds::request(c, &tz, id, cents, (&reason, by.user), now))
            .await?
            .map_err(RefundError::Refused)?
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
            return Err(RefundError::Stripe(match &e {
                ::stripe::StripeError::Stripe(errors, status) if *status < 500 => {
                    errors.message.clone()
                }
                _ => None,
            }));
        }
    };
    // This request's row, whatever the answer's metadata says.
    refund.request = Some(requested.id);
    let (mail, tz, now) = (ledger.mail.clone(), ledger.site.tz(), ledger.clock.now());
    let detail = format!(
        "{} refunded ({}): {reason}",
        store::dollars(cents),
        refund.id
    );
    let queued = ledger
        .db
        .write(move |c| {
            let recorded = refunds::record(c, &tz, &refund, now)?;
            let queued = money_back::after_refund(&mail, c, &recorded, &refund.id, now)?;
            audit::record_detailed(
                c,
                Action::Refund,
                &format!("donation:{id}"),
                Some(by),
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
    Ok(())
}
