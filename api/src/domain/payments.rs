//! The card processor: Stripe, through `async-stripe`. The server creates (and, for
//! abandoned gifts, cancels) PaymentIntents; the donor's browser confirms them with Stripe.js;
//! Stripe reports the outcome to our webhook (`routes::stripe_webhook`).
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
use stripe_shared::PaymentIntentStatus;
use stripe_types::Currency;

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
}
