//! Setting a gift up, and hearing on the donor's return that it was paid.
//!
//! The gift is checked, then reserved (a `pending` row), and only then does Stripe hear of
//! it; a refused gift never reaches Stripe. A browser holding the donor's pass is held to
//! what the donor gave before, with the spec's sentences; any other is answered from the
//! request alone, and the limit is held when the payment succeeds ([`super::hold_to_limit`]).
//!
//! A monthly gift starts a plan (pending until this first gift is paid): the itemisation
//! rules apply to what it will give this calendar year, and Stripe saves the card to a
//! customer of the plan's for the charges the site makes later.

use generator::donations::Donation;
use generator::forms::Invalid;

use super::stripe::{NewIntent, Paid, Payments, SaveCard};
use super::{Ledger, completion, donor_pass, monthly, store};
use crate::http::redact::email as masked;
use crate::store::error::Error as StoreError;

/// A gift set up at Stripe: its row, and the secret the page confirms the payment with.
#[derive(Debug)]
pub struct SetUp {
    pub donation_id: i64,
    pub client_secret: String,
}

/// Why a gift was not set up.
#[derive(Debug, thiserror::Error)]
pub enum SetUpError {
    /// The gift breaks a rule; the spec's sentence, for the donor.
    #[error("{0}")]
    Refused(Invalid),
    /// Stripe did not set the payment up; the cause is logged and the gift marked failed.
    #[error("the payment could not be set up at Stripe")]
    Failed,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Checks `donation`, reserves it, and sets its payment (and, for a monthly gift, its plan's
/// customer) up at Stripe. `pass_epoch` is the epoch of the donor's pass the browser showed,
/// if it showed a good one: only a pass of the donor's current epoch hears what they gave
/// before.
pub async fn set_up(
    ledger: &Ledger,
    payments: &Payments,
    donation: &Donation,
    pass_epoch: Option<i64>,
) -> Result<SetUp, SetUpError> {
    let now = ledger.clock.now();
    let year = super::year_at(&ledger.site, now);
    let limits = ledger.site.donations.clone();
    let key = ledger
        .mail
        .tokens
        .key_of(donor_pass::KEY_PURPOSE, &donation.donor.email);
    let later = if donation.monthly {
        donation.amount_cents * (monthly::charges_this_year(now, &ledger.site.tz()) - 1)
    } else {
        0
    };
    let gift = donation.clone();
    let (reserved, plan) = ledger
        .db
        .write(move |c| {
            let verified = pass_epoch.is_some() && pass_epoch == Some(donor_pass::epoch(c, &key)?);
            let reserved = match super::reserve(c, &limits, year, &gift, later, now, verified)? {
                Ok(reserved) => reserved,
                Err(refused) => return Ok(Err(refused)),
            };
            let plan = if gift.monthly {
                let id =
                    monthly::create(c, reserved.id, &gift.donor.email, gift.amount_cents, now)?;
                Some(id)
            } else {
                None
            };
            Ok(Ok((reserved, plan)))
        })
        .await?
        .map_err(SetUpError::Refused)?;
    let failed = |cause: String| async move {
        tracing::error!(donation = reserved.id, %cause, "payment setup failed at Stripe");
        if let Err(e) = ledger
            .db
            .write(move |c| super::set_status(c, reserved.id, "failed"))
            .await
        {
            tracing::error!(donation = reserved.id, error = %e, "could not mark the gift failed");
        }
        SetUpError::Failed
    };
    let save_card = match plan {
        None => None,
        Some(plan_id) => {
            let customer = payments
                .create_customer(
                    &donation.donor.email,
                    &donation.donor.full_name(),
                    plan_id,
                    &format!("plan-customer-{plan_id}-{}", reserved.created_at),
                )
                .await;
            match customer {
                Ok(customer) => {
                    let c = customer.clone();
                    ledger
                        .db
                        .write(move |tx| monthly::set_customer(tx, plan_id, &c))
                        .await?;
                    Some(SaveCard { plan_id, customer })
                }
                Err(e) => return Err(failed(e.to_string()).await),
            }
        }
    };
    let description = if plan.is_some() {
        format!("Monthly contribution to {}", ledger.site.name)
    } else {
        format!("Contribution to {}", ledger.site.name)
    };
    let intent = payments
        .create_intent(NewIntent {
            amount_cents: donation.amount_cents,
            description,
            donation_id: reserved.id,
            // The row and the moment it was made: unique even if the database is recreated.
            idempotency_key: format!("donation-{}-{}", reserved.id, reserved.created_at),
            save_card,
        })
        .await;
    let intent = match intent {
        Ok(intent) => intent,
        Err(e) => return Err(failed(e.to_string()).await),
    };
    let Some(client_secret) = intent.client_secret.clone() else {
        return Err(failed(format!("intent {} came without a client secret", intent.id)).await);
    };
    let intent_id = intent.id.clone();
    ledger
        .db
        .write(move |c| super::set_intent(c, reserved.id, &intent_id))
        .await?;
    tracing::info!(
        donation = reserved.id,
        cents = donation.amount_cents,
        year,
        email = %masked(&donation.donor.email),
        plan,
        "donation reserved; payment set up"
    );
    Ok(SetUp {
        donation_id: reserved.id,
        client_secret,
    })
}

/// Whether gift `gift` is paid, as the donor comes back from Stripe: completed already, or
/// (its webhook not yet arrived) Stripe says it succeeded, in which case it is completed now.
/// A payment still processing (a bank debit) is not paid until it is.
pub async fn paid_on_return(ledger: &Ledger, gift: i64) -> Result<bool, StoreError> {
    let row = ledger
        .db
        .read(move |c| store::status_and_intent(c, gift))
        .await?;
    let (payments, intent) = match (row, &ledger.payments) {
        (Some((status, _)), _) if status == "completed" => return Ok(true),
        (Some((status, Some(intent))), Some(payments)) if status != "canceled" => {
            (payments, intent)
        }
        _ => return Ok(false),
    };
    match payments.paid(&intent).await {
        Ok(Paid::Succeeded {
            amount_cents,
            currency,
            payment_method,
        }) => {
            complete_on_return(
                ledger,
                gift,
                (intent, amount_cents, currency, payment_method),
            )
            .await
        }
        Ok(Paid::Processing | Paid::No) => Ok(false),
        Err(e) => {
            tracing::warn!(donation = gift, error = %e, "could not ask Stripe about a payment");
            Ok(false)
        }
    }
}

/// The donor came back from Stripe, which says the gift is paid, before its webhook: the
/// gift is completed (and its receipt queued) now, as the webhook would; the webhook then
/// finds it completed and changes nothing, so the receipt goes out once either way.
async fn complete_on_return(
    ledger: &Ledger,
    gift: i64,
    (intent, amount_cents, currency, payment_method): (String, i64, String, Option<String>),
) -> Result<bool, StoreError> {
    let (mail, now, tz) = (ledger.mail.clone(), ledger.clock.now(), ledger.site.tz());
    let done = ledger
        .db
        .write(move |c| {
            if !super::complete_paid(c, gift, &intent, amount_cents, &currency)? {
                // Completed meanwhile (its event), or not this amount: what it is now says.
                return Ok((store::is_completed(c, gift)?, None));
            }
            let followed =
                completion::completed(&mail, c, gift, payment_method.as_deref(), now, &tz)?;
            Ok((true, Some(followed)))
        })
        .await?;
    if let (_, Some(followed)) = done {
        tracing::info!(donation = gift, "donation completed on the donor's return");
        ledger.mail.wake();
        if followed.limit_refund.is_some() {
            ledger.refunder.wake();
        }
    }
    Ok(done.0)
}
