//! A local stand-in for the few Stripe endpoints the site uses, for tests only: Stripe
//! cannot be reached from the test machines, and tests must not depend on a third party.
//!
//! It speaks Stripe's wire format (form-encoded requests, the real JSON shape of a
//! PaymentIntent, Stripe's error objects, `Idempotency-Key`, signed webhook events), so the
//! api's real Stripe client and webhook verifier run against it unchanged:
//!
//! - `POST /v1/payment_intents` (secret key): creates an intent; an `Idempotency-Key` seen
//!   before with the same parameters answers the first reply again, with other parameters 400.
//! - `GET /v1/payment_intents/{id}` (secret key, or a publishable key with `client_secret`).
//! - `POST /v1/payment_intents/{id}/confirm` (publishable key and `client_secret`, as Stripe.js
//!   calls it): card `4000000000000002` is declined, anything else succeeds; either way the
//!   matching event is sent to the webhook.
//! - `POST /v1/payment_intents/{id}/cancel` (secret key).
//! - `POST /v1/customers` (secret key). An intent made with a `customer` and
//!   `setup_future_usage` saves its card to that customer once paid; an intent created with
//!   `confirm=true`, `off_session=true` and a saved card's `payment_method` is charged at
//!   once (a monthly gift), succeeding or declined as `payment_methods/{pm}/charges` said.
//!   `DELETE /v1/customers/{id}` deletes one with its saved cards (a person erased).
//! - `POST /v1/setup_intents` (secret key), `GET /v1/setup_intents/{id}` and
//!   `POST /v1/setup_intents/{id}/confirm` (as Stripe.js calls it): a new card saved to a
//!   customer; the declined test card is refused.
//!
//! - `POST /v1/refunds` (secret key): refunds all or part of an intent's charge, idempotent
//!   by `Idempotency-Key`; sends `charge.refunded`. `GET /v1/refunds?charge=…` lists a
//!   charge's refunds (a charge embeds none, as in recent API versions).
//!
//! And a few controls for tests, under `/__fake/`: `config` (`{webhookUrl, webhookSecret}`),
//! `fail-next` (`{status, message, amount?}`: the next create fails that way; with `amount`
//! (in cents), only the next create of that amount, so parallel tests do not take each
//! other's failures), `requests` (what the
//! api sent), `payment_intents/{id}/{succeed|fail|cancel}` (what a payment would do, without
//! a browser), `payment_intents/{id}/refund` (`{amount?}`: a refund made in the dashboard),
//! `payment_intents/{id}/dispute` (`{reason?}`), `disputes/{id}/close` (`{won}`),
//! `refunds/{id}/fail` (a refund failing later), `payment_methods/{pm}/charges`
//! (`{outcome}`: `succeed`, `decline` (insufficient funds) or `hard_decline` (a stolen card)
//! for that card's off-session charges from now on), `hold-charges` (`{on}`: off-session
//! charges are made but not answered until released), `clock` (`{advanceSeconds}`: the `created`
//! of what it makes from then on), and `events` (the webhook events sent, with their delivery
//! status and, under `payload`, the event itself, for tests that replay or reorder them).

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use warp::Filter;
use warp::http::StatusCode;

mod answers;
mod events;
mod ids;
mod intents;
mod money;
mod routes;
mod saved_cards;

use answers::reply;
pub use events::{event_at, event_for, sign};
pub use ids::now;
pub use intents::Outcome;
pub use money::Refusal;
pub use saved_cards::CardBehaviour;

/// The card number Stripe's docs use for "generic decline".
pub const DECLINED_CARD: &str = "4000000000000002";

/// What a test can read back about one request the api made.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub idempotency_key: Option<String>,
    pub params: HashMap<String, String>,
}

/// A webhook event the fake sent (or tried to).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SentEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// The id of the object the event carries (an intent, a charge, a refund, a dispute).
    pub intent: String,
    /// The api's answer, or 0 when it could not be reached.
    pub status: u16,
    /// The event as sent.
    pub payload: Value,
}

#[derive(Default)]
pub(crate) struct State {
    intents: HashMap<String, Value>,
    /// A paid intent's charge, by its id.
    charges: HashMap<String, Value>,
    refunds: HashMap<String, Value>,
    /// Refund ids, oldest first (lists are newest first).
    refund_order: Vec<String>,
    disputes: HashMap<String, Value>,
    /// Added to the time in the `created` of what the fake makes (tests move it).
    offset_secs: i64,
    /// Idempotency-Key -> (the parameters it was first used with, the reply's status and
    /// body). Errors are replayed too, as Stripe replays a decline.
    idempotent: HashMap<String, (HashMap<String, String>, u16, Value)>,
    customers: HashMap<String, Value>,
    setup_intents: HashMap<String, Value>,
    /// Cards saved for later charges: payment method -> its customer.
    saved_cards: HashMap<String, String>,
    /// How each saved card's off-session charges go (succeed when not said).
    card_behaviour: HashMap<String, CardBehaviour>,
    /// Off-session charges are answered only once released (see `saved_cards`).
    holding: bool,
    held: usize,
    released: Arc<tokio::sync::Notify>,
    requests: Vec<Recorded>,
    /// Failures waiting for the next create: (amount in cents it is for, or any; status,
    /// message).
    fail_next: Vec<(Option<String>, u16, String)>,
    /// The next refund is made, but its answer is lost (a 500, as from a proxy timing out).
    lose_next_refund_answer: bool,
    webhook_url: Option<String>,
    webhook_secret: Option<String>,
    events: Vec<SentEvent>,
}

/// The fake's shared state; cheap to clone.
#[derive(Clone, Default)]
pub struct FakeStripe {
    state: Arc<Mutex<State>>,
}

impl FakeStripe {
    pub fn new() -> FakeStripe {
        FakeStripe::default()
    }

    /// Where events go, and the secret they are signed with.
    pub fn set_webhook(&self, url: impl Into<String>, secret: impl Into<String>) {
        let mut state = self.lock();
        state.webhook_url = Some(url.into());
        state.webhook_secret = Some(secret.into());
    }

    /// Makes the next `POST /v1/payment_intents` fail with `status` and Stripe's error shape.
    pub fn fail_next_create(&self, status: u16, message: impl Into<String>) {
        self.lock().fail_next.push((None, status, message.into()));
    }

    /// Makes the next `POST /v1/payment_intents` of `amount` cents fail.
    pub fn fail_next_create_of(&self, amount: i64, status: u16, message: impl Into<String>) {
        self.lock()
            .fail_next
            .push((Some(amount.to_string()), status, message.into()));
    }

    /// Makes the next `POST /v1/refunds` refund the money and then answer 500, as when a
    /// timeout cuts the answer off after Stripe acted.
    pub fn lose_next_refund_answer(&self) {
        self.lock().lose_next_refund_answer = true;
    }

    /// How many refunds `charge` has.
    pub fn refunds_of(&self, charge: &str) -> usize {
        self.lock()
            .refunds
            .values()
            .filter(|r| r["charge"] == charge)
            .count()
    }

    /// The amounts of the refunds made of payment `intent`, oldest first.
    pub fn refunds_of_intent(&self, intent: &str) -> Vec<i64> {
        let state = self.lock();
        state
            .refund_order
            .iter()
            .filter_map(|id| state.refunds.get(id))
            .filter(|r| r["payment_intent"] == intent)
            .filter_map(|r| r["amount"].as_i64())
            .collect()
    }

    /// Every request the api made, oldest first.
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().requests.clone()
    }

    /// A stored intent, as Stripe would return it.
    pub fn intent(&self, id: &str) -> Option<Value> {
        self.lock().intents.get(id).cloned()
    }

    /// How many intents are paid: what Stripe took in all.
    pub fn paid_intents(&self) -> usize {
        self.lock()
            .intents
            .values()
            .filter(|i| i["status"] == "succeeded")
            .count()
    }

    /// The events sent so far.
    pub fn events(&self) -> Vec<SentEvent> {
        self.lock().events.clone()
    }

    /// Changes what an intent is for (a payment of another amount than the gift's, as a
    /// tampered page might make).
    pub fn set_amount(&self, id: &str, amount: i64) {
        if let Some(intent) = self.lock().intents.get_mut(id) {
            intent["amount"] = serde_json::json!(amount);
        }
    }

    /// Puts an intent in `processing`, as a bank debit is while it clears: no event is sent
    /// until a later [`FakeStripe::settle`].
    pub fn start_processing(&self, id: &str) {
        if let Some(intent) = self.lock().intents.get_mut(id) {
            intent["status"] = serde_json::json!("processing");
        }
    }

    /// Moves an intent to `status` (`succeeded`, `requires_payment_method` after a decline,
    /// or `canceled`) and delivers the matching event; returns the intent.
    pub async fn settle(&self, id: &str, outcome: Outcome) -> Option<Value> {
        self.settle_with(id, outcome, None).await
    }

    /// [`FakeStripe::settle`], a decline saying `decline_code`. A paid intent made with a
    /// `customer` and `setup_future_usage` saves its card to that customer.
    pub(crate) async fn settle_with(
        &self,
        id: &str,
        outcome: Outcome,
        decline_code: Option<&str>,
    ) -> Option<Value> {
        let (intent, event) = self.settle_quietly(id, outcome, decline_code)?;
        self.deliver(event).await;
        Some(intent)
    }

    /// [`FakeStripe::settle_with`] without sending the event: the intent and its event.
    pub(crate) fn settle_quietly(
        &self,
        id: &str,
        outcome: Outcome,
        decline_code: Option<&str>,
    ) -> Option<(Value, Value)> {
        let (intent, event) = {
            let mut state = self.lock();
            let now = state.now();
            let intent = state.intents.get_mut(id)?;
            outcome.apply(intent, decline_code);
            let intent = intent.clone();
            if outcome == Outcome::Succeed {
                state.charge_of(id);
                if let (Some(pm), Some(customer), true) = (
                    intent["payment_method"].as_str(),
                    intent["customer"].as_str(),
                    intent["setup_future_usage"].is_string(),
                ) {
                    state.saved_cards.insert(pm.to_owned(), customer.to_owned());
                }
            }
            (intent.clone(), event_at(outcome.event_type(), &intent, now))
        };
        Some((intent, event))
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Serves the fake on `addr` (port 0 for any free port) until the process ends; returns
/// the address it listens on.
pub async fn spawn(fake: FakeStripe, addr: SocketAddr) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let routes = fake.routes();
    tokio::spawn(async move {
        warp::serve(routes.recover(|_| async {
            Ok::<_, Infallible>(reply(
                StatusCode::BAD_REQUEST,
                &json!({ "error": { "type": "invalid_request_error", "message": "Bad request." } }),
            ))
        }))
        .incoming(listener)
        .run()
        .await;
    });
    Ok(local)
}
