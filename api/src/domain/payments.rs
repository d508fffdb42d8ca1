//! The card processor: Stripe, through `async-stripe`. The server creates (and, for
//! abandoned gifts, cancels) PaymentIntents; the donor's browser confirms them with Stripe.js;
//! Stripe reports the outcome to our webhook (`routes::stripe_webhook`). Staff's refunds are
//! made with the refunds API, and a charge's refunds are read from it (never from the list
//! a charge once embedded, which recent API versions leave out).
//!
//! Tests point `STRIPE_API_BASE` at the `fake-stripe` crate, which speaks the same wire
//! format; production talks to `https://api.stripe.com`.

use std::collections::HashMap;
use std::time::Duration;

use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeRequest as _};
use stripe_core::payment_intent::{
    CancelPaymentIntent, CreatePaymentIntent, CreatePaymentIntentAutomaticPaymentMethods,
    RetrievePaymentIntent,
};
use stripe_core::refund::{CreateRefund, ListRefund};
use stripe_shared::PaymentIntentStatus;
use stripe_types::Currency;

use crate::domain::donations::refunds::StripeRefund;

/// Stripe's settings, from the environment.
#[derive(Clone)]
pub struct StripeConfig {
    /// `STRIPE_SECRET_KEY`
    pub secret_key: String,
    /// `STRIPE_PUBLISHABLE_KEY`: given to the donate page at run time.
    pub publishable_key: String,
    /// `STRIPE_WEBHOOK_SECRET`: verifies the events Stripe posts to `/api/stripe/webhook`.
    pub webhook_secret: Option<String>,
    /// `STRIPE_API_BASE`: where the API is (tests only).
    pub api_base: Option<String>,
}

impl std::fmt::Debug for StripeConfig {
    // Never print the keys.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeConfig")
            .field("publishable_key", &self.publishable_key)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "…"))
            .field("api_base", &self.api_base)
            .finish_non_exhaustive()
    }
}

/// A PaymentIntent to create for one reserved donation. No `receipt_email`: the site sends
/// its own receipt (with what the law asks a receipt to say), and a donor would get two.
pub struct NewIntent {
    pub amount_cents: i64,
    pub description: String,
    /// Our row's id, so every event names the gift it is about.
    pub donation_id: i64,
    /// Stripe answers a repeated request with this key with the first reply, so a retry
    /// after a timeout never charges twice.
    pub idempotency_key: String,
}

/// A refund staff asked for, stored as `requested` (see `donations::refunds::request`).
pub struct NewRefund {
    pub payment_intent: String,
    pub amount_cents: i64,
    pub donation_id: i64,
    /// Our row, named in the refund's metadata so its events find it.
    pub request_id: i64,
    /// From the row: a retry of the same request never refunds twice.
    pub idempotency_key: String,
}

/// What the browser needs to confirm the payment, and what we keep.
#[derive(Debug, Clone)]
pub struct Intent {
    pub id: String,
    pub client_secret: Option<String>,
}

/// Where a PaymentIntent's payment stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paid {
    /// The money arrived: this amount, in this currency.
    Succeeded {
        amount_cents: i64,
        currency: String,
    },
    /// A method that settles later is on its way.
    Processing,
    No,
}

/// The connection to Stripe.
pub struct Payments {
    pub config: StripeConfig,
    client: Client,
}

/// The currency of every gift: federal contributions are in dollars.
pub const CURRENCY: &str = "usd";

impl Payments {
    pub fn new(config: StripeConfig) -> anyhow::Result<Payments> {
        let mut builder = ClientBuilder::new(config.secret_key.clone())
            // A donor waits on this; better a clear failure than a hung page.
            .timeout(Duration::from_secs(20));
        if let Some(base) = &config.api_base {
            builder = builder.url(base.clone());
        }
        let client = builder
            .build()
            .map_err(|e| anyhow::anyhow!("Failed to set up the Stripe client: {e}"))?;
        Ok(Payments { config, client })
    }

    /// Creates the PaymentIntent for a reserved gift.
    pub async fn create_intent(&self, new: NewIntent) -> Result<Intent, stripe::StripeError> {
        let metadata = HashMap::from([("donation_id".to_owned(), new.donation_id.to_string())]);
        let intent = CreatePaymentIntent::new(new.amount_cents, Currency::USD)
            .automatic_payment_methods(CreatePaymentIntentAutomaticPaymentMethods::new(true))
            .description(new.description)
            .metadata(metadata)
            .customize()
            .request_strategy(RequestStrategy::Idempotent(
                IdempotencyKey::new(&new.idempotency_key)
                    .map_err(|e| stripe::StripeError::ClientError(e.to_string()))?,
            ))
            .send(&self.client)
            .await?;
        Ok(Intent {
            id: intent.id.to_string(),
            client_secret: intent.client_secret,
        })
    }

    /// Whether a PaymentIntent has been paid (`succeeded`) or is being paid (`processing`,
    /// for methods that settle later).
    pub async fn paid(&self, id: &str) -> Result<Paid, stripe::StripeError> {
        let intent = RetrievePaymentIntent::new(id).send(&self.client).await?;
        Ok(match intent.status {
            PaymentIntentStatus::Succeeded => Paid::Succeeded {
                amount_cents: intent.amount,
                currency: intent.currency.to_string(),
            },
            PaymentIntentStatus::Processing => Paid::Processing,
            _ => Paid::No,
        })
    }

    /// Cancels an abandoned gift's PaymentIntent, so it can no longer be paid.
    pub async fn cancel_intent(&self, id: &str) -> Result<(), stripe::StripeError> {
        CancelPaymentIntent::new(id)
            .send(&self.client)
            .await
            .map(|_| ())
    }

    /// Refunds `amount_cents` of a gift's payment. Staff's reason stays with us: Stripe is
    /// told only which of our rows the refund is.
    pub async fn create_refund(&self, new: NewRefund) -> Result<StripeRefund, stripe::StripeError> {
        let metadata = HashMap::from([
            ("donation_id".to_owned(), new.donation_id.to_string()),
            ("refund_request".to_owned(), new.request_id.to_string()),
        ]);
        let refund = CreateRefund::new()
            .payment_intent(new.payment_intent)
            .amount(new.amount_cents)
            .metadata(metadata)
            .customize()
            .request_strategy(RequestStrategy::Idempotent(
                IdempotencyKey::new(&new.idempotency_key)
                    .map_err(|e| stripe::StripeError::ClientError(e.to_string()))?,
            ))
            .send(&self.client)
            .await?;
        Ok(refund_of(&refund))
    }

    /// Every refund of charge `charge`, as Stripe has them now.
    pub async fn refunds_of_charge(
        &self,
        charge: &str,
    ) -> Result<Vec<StripeRefund>, stripe::StripeError> {
        let mut all = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let mut list = ListRefund::new().charge(charge).limit(100);
            if let Some(last) = &after {
                list = list.starting_after(last.clone());
            }
            let page = list.send(&self.client).await?;
            all.extend(page.data.iter().map(refund_of));
            match (page.has_more, page.data.last()) {
                (true, Some(last)) => after = Some(last.id.to_string()),
                _ => return Ok(all),
            }
        }
    }
}

/// The parts of Stripe's refund our records keep.
pub fn refund_of(r: &stripe_shared::Refund) -> StripeRefund {
    StripeRefund {
        id: r.id.to_string(),
        amount_cents: r.amount,
        status: r.status.clone().unwrap_or_else(|| "pending".into()),
        created: jiff::Timestamp::from_second(r.created).unwrap_or_else(|_| jiff::Timestamp::now()),
        payment_intent: r.payment_intent.as_ref().map(|p| p.id().to_string()),
        request: r
            .metadata
            .as_ref()
            .and_then(|m| m.get("refund_request"))
            .and_then(|id| id.parse().ok()),
        reason: r.reason.as_ref().map(|why| why.as_str().to_owned()),
    }
}
