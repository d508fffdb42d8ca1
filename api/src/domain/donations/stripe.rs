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
use stripe_client_core::{RequestBuilder, StripeMethod};
use stripe_core::payment_intent::{
    CancelPaymentIntent, CreatePaymentIntent, CreatePaymentIntentAutomaticPaymentMethods,
    CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects, CreatePaymentIntentOffSession,
    RetrievePaymentIntent,
};
use stripe_core::refund::{CreateRefund, ListRefund};
use stripe_shared::{PaymentIntentSetupFutureUsage, PaymentIntentStatus};
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
    /// For a monthly gift: its plan, and the Stripe customer the card is saved to once paid
    /// (`setup_future_usage: off_session`), so the site can make the later charges itself.
    pub save_card: Option<SaveCard>,
}

/// Where a monthly gift's card is kept for its later charges.
pub struct SaveCard {
    pub plan_id: i64,
    pub customer: String,
}

/// A charge the site makes itself with a plan's saved card (a monthly gift).
#[derive(Debug)]
pub struct SavedCardCharge {
    pub amount_cents: i64,
    pub description: String,
    pub donation_id: i64,
    pub plan_id: i64,
    pub customer: String,
    pub payment_method: String,
    /// From the plan, the charge and the try: a repeat of the same try never charges twice.
    pub idempotency_key: String,
}

/// The parts of a SetupIntent (a card saved for later) the site uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub id: String,
    pub client_secret: Option<String>,
    /// Whether the card is saved (`succeeded`).
    pub succeeded: bool,
    pub customer: Option<String>,
    pub payment_method: Option<String>,
    /// Our plan, from its metadata.
    pub plan_id: Option<i64>,
}

/// What the site keeps of Stripe's SetupIntent.
pub fn setup_of(s: &stripe_shared::SetupIntent) -> Setup {
    Setup {
        id: s.id.to_string(),
        client_secret: s.client_secret.clone(),
        succeeded: s.status == stripe_shared::SetupIntentStatus::Succeeded,
        customer: s.customer.as_ref().map(|c| c.id().to_string()),
        payment_method: s.payment_method.as_ref().map(|p| p.id().to_string()),
        plan_id: s
            .metadata
            .as_ref()
            .and_then(|m| m.get("plan_id"))
            .and_then(|id| id.parse().ok()),
    }
}

/// What became of a charge of a saved card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Charged {
    /// Paid: this intent, this card.
    Paid {
        intent: String,
        payment_method: Option<String>,
    },
    /// On its way (a method that settles later): its event will say.
    Processing { intent: String },
    /// The card was declined; `code` is Stripe's decline code (or error code).
    Declined {
        intent: Option<String>,
        code: String,
        message: String,
    },
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
        /// The card, which a monthly gift keeps for its later charges.
        payment_method: Option<String>,
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
        let mut metadata = HashMap::from([("donation_id".to_owned(), new.donation_id.to_string())]);
        let mut create = CreatePaymentIntent::new(new.amount_cents, Currency::USD)
            .automatic_payment_methods(CreatePaymentIntentAutomaticPaymentMethods::new(true))
            .description(new.description);
        if let Some(save) = new.save_card {
            metadata.insert("plan_id".to_owned(), save.plan_id.to_string());
            create = create
                .customer(save.customer)
                .setup_future_usage(PaymentIntentSetupFutureUsage::OffSession);
        }
        let intent = create
            .metadata(metadata)
            .customize()
            .request_strategy(idempotent(&new.idempotency_key)?)
            .send(&self.client)
            .await?;
        Ok(Intent {
            id: intent.id.to_string(),
            client_secret: intent.client_secret,
        })
    }

    /// A Stripe customer for a monthly gift's card (named by its plan); the key makes a
    /// retry return the same customer. (Customers and SetupIntents are two small requests:
    /// made with the client's plain request builder, they spare the build async-stripe's
    /// generated code for every other customer and setup-intent endpoint.)
    pub async fn create_customer(
        &self,
        email: &str,
        name: &str,
        plan_id: i64,
        idempotency_key: &str,
    ) -> Result<String, stripe::StripeError> {
        #[derive(serde::Serialize)]
        struct Form<'a> {
            email: &'a str,
            name: &'a str,
            metadata: HashMap<&'a str, String>,
        }
        let form = Form {
            email,
            name,
            metadata: HashMap::from([("plan_id", plan_id.to_string())]),
        };
        let customer: stripe_shared::Customer =
            RequestBuilder::new(StripeMethod::Post, "/customers")
                .form(&form)
                .customize()
                .request_strategy(idempotent(idempotency_key)?)
                .send(&self.client)
                .await?;
        Ok(customer.id.to_string())
    }

    /// Deletes Stripe customer `id` and the cards saved to it (a person erased on request;
    /// the charges already made stay at Stripe, as the gifts stay with us). One already
    /// deleted counts as done.
    pub async fn delete_customer(&self, id: &str) -> Result<(), stripe::StripeError> {
        let deleted: Result<stripe_shared::DeletedCustomer, _> =
            RequestBuilder::new(StripeMethod::Delete, format!("/customers/{id}"))
                .customize()
                .send(&self.client)
                .await;
        match deleted {
            Ok(_) => Ok(()),
            Err(stripe::StripeError::Stripe(_, 404)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// A SetupIntent for a plan's donor to save a new card to the plan's customer (after a
    /// decline), for later charges made without them.
    pub async fn create_setup_intent(
        &self,
        customer: &str,
        plan_id: i64,
        idempotency_key: &str,
    ) -> Result<Setup, stripe::StripeError> {
        #[derive(serde::Serialize)]
        struct Automatic {
            enabled: bool,
        }
        #[derive(serde::Serialize)]
        struct Form<'a> {
            customer: &'a str,
            usage: &'a str,
            automatic_payment_methods: Automatic,
            metadata: HashMap<&'a str, String>,
        }
        let form = Form {
            customer,
            usage: "off_session",
            automatic_payment_methods: Automatic { enabled: true },
            metadata: HashMap::from([("plan_id", plan_id.to_string())]),
        };
        let setup: stripe_shared::SetupIntent =
            RequestBuilder::new(StripeMethod::Post, "/setup_intents")
                .form(&form)
                .customize()
                .request_strategy(idempotent(idempotency_key)?)
                .send(&self.client)
                .await?;
        Ok(setup_of(&setup))
    }

    /// SetupIntent `id` as Stripe has it now.
    pub async fn setup_intent(&self, id: &str) -> Result<Setup, stripe::StripeError> {
        let setup: stripe_shared::SetupIntent =
            RequestBuilder::new(StripeMethod::Get, format!("/setup_intents/{id}"))
                .customize()
                .send(&self.client)
                .await?;
        Ok(setup_of(&setup))
    }

    /// Charges a plan's saved card now, without the donor (`off_session`), confirmed as it
    /// is created. A decline is an answer, not an error: `Ok(Charged::Declined)`.
    pub async fn charge_saved_card(
        &self,
        charge: SavedCardCharge,
    ) -> Result<Charged, stripe::StripeError> {
        let metadata = HashMap::from([
            ("donation_id".to_owned(), charge.donation_id.to_string()),
            ("plan_id".to_owned(), charge.plan_id.to_string()),
        ]);
        let mut automatic = CreatePaymentIntentAutomaticPaymentMethods::new(true);
        // Nobody is there to follow a redirect.
        automatic.allow_redirects =
            Some(CreatePaymentIntentAutomaticPaymentMethodsAllowRedirects::Never);
        let sent = CreatePaymentIntent::new(charge.amount_cents, Currency::USD)
            .automatic_payment_methods(automatic)
            .customer(charge.customer)
            .payment_method(charge.payment_method)
            .off_session(CreatePaymentIntentOffSession::Bool(true))
            .confirm(true)
            .description(charge.description)
            .metadata(metadata)
            .customize()
            .request_strategy(idempotent(&charge.idempotency_key)?)
            .send(&self.client)
            .await;
        match sent {
            Ok(intent) => Ok(match intent.status {
                PaymentIntentStatus::Succeeded => Charged::Paid {
                    intent: intent.id.to_string(),
                    payment_method: intent.payment_method.as_ref().map(|p| p.id().to_string()),
                },
                PaymentIntentStatus::Processing => Charged::Processing {
                    intent: intent.id.to_string(),
                },
                // Anything else needs the donor (authentication, another card): a decline
                // as far as a charge made without them goes.
                other => Charged::Declined {
                    intent: Some(intent.id.to_string()),
                    code: "authentication_required".into(),
                    message: format!("The payment needs the donor ({other:?})."),
                },
            }),
            Err(stripe::StripeError::Stripe(error, _))
                if error.type_ == stripe::ApiErrorsType::CardError =>
            {
                let code = error
                    .decline_code
                    .clone()
                    .or_else(|| error.code.as_ref().map(|c| c.as_str().to_owned()))
                    .unwrap_or_else(|| "card_declined".into());
                Ok(Charged::Declined {
                    intent: error.payment_intent.as_ref().map(|p| p.id.to_string()),
                    code,
                    message: error
                        .message
                        .clone()
                        .unwrap_or_else(|| "The card was declined.".into()),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Whether a PaymentIntent has been paid (`succeeded`) or is being paid (`processing`,
    /// for methods that settle later).
    pub async fn paid(&self, id: &str) -> Result<Paid, stripe::StripeError> {
        let intent = RetrievePaymentIntent::new(id).send(&self.client).await?;
        Ok(match intent.status {
            PaymentIntentStatus::Succeeded => Paid::Succeeded {
                amount_cents: intent.amount,
                currency: intent.currency.to_string(),
                payment_method: intent.payment_method.as_ref().map(|p| p.id().to_string()),
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
            .request_strategy(idempotent(&new.idempotency_key)?)
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

/// A request strategy that makes Stripe answer a repeat with the first reply.
fn idempotent(key: &str) -> Result<RequestStrategy, stripe::StripeError> {
    Ok(RequestStrategy::Idempotent(
        IdempotencyKey::new(key).map_err(|e| stripe::StripeError::ClientError(e.to_string()))?,
    ))
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
