//! Saved cards and the charges the site makes on its own (monthly gifts): customers
//! (`POST /v1/customers`), and intents created with `confirm=true` for a card saved to their
//! customer, which are charged at once and succeed or are declined as a test said that card
//! would be (`/__fake/payment_methods/{pm}/charges`). A card is saved when an intent made
//! with a `customer` and `setup_future_usage` is paid (see `FakeStripe::settle_with`).
//! Charges can also be held (`/__fake/hold-charges`): made, but their answer kept back until
//! released, as when the server that asked dies before it hears.

use std::collections::HashMap;

use serde_json::{Value, json};
use warp::http::StatusCode;
use warp::reply::Response;

use crate::answers::{reply, stripe_error};
use crate::ids::random_id;
use crate::intents::client_secret_matches;
use crate::{FakeStripe, Outcome};

/// How the off-session charges of one card go, from when a test says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CardBehaviour {
    #[default]
    Succeed,
    /// A soft decline (`insufficient_funds`): worth trying again later.
    Decline,
    /// A hard decline (`stolen_card`): never worth trying again.
    HardDecline,
}

impl CardBehaviour {
    pub fn parse(name: &str) -> Option<CardBehaviour> {
        match name {
            "succeed" => Some(CardBehaviour::Succeed),
            "decline" => Some(CardBehaviour::Decline),
            "hard_decline" => Some(CardBehaviour::HardDecline),
            _ => None,
        }
    }
}

impl FakeStripe {
    /// `POST /v1/customers` (secret key), idempotent like every create.
    pub(crate) fn create_customer(
        &self,
        params: HashMap<String, String>,
        idempotency_key: Option<String>,
    ) -> Response {
        let mut state = self.lock();
        if let Some(replayed) = state.replay(idempotency_key.as_deref(), &params) {
            return replayed;
        }
        let id = format!("cus_fake_{}", random_id(14));
        let customer = json!({
            "id": id,
            "object": "customer",
            "created": state.now(),
            "description": params.get("description"),
            "email": params.get("email"),
            "livemode": false,
            "metadata": crate::money::metadata_of(&params),
            "name": params.get("name"),
        });
        state.customers.insert(id, customer.clone());
        state.remember(idempotency_key, params, StatusCode::OK, &customer);
        reply(StatusCode::OK, &customer)
    }

    /// `DELETE /v1/customers/{id}` (secret key): the customer and the cards saved to it are
    /// gone (Stripe keeps the charges already made); a second delete, or an unknown id, is
    /// Stripe's 404.
    pub(crate) fn delete_customer(&self, id: &str) -> Response {
        let mut state = self.lock();
        if state.customers.remove(id).is_none() {
            return stripe_error(
                StatusCode::NOT_FOUND,
                "invalid_request_error",
                Some("resource_missing"),
                &format!("No such customer: '{id}'"),
            );
        }
        state
            .saved_cards
            .retain(|_, customer| customer.as_str() != id);
        reply(
            StatusCode::OK,
            &json!({ "id": id, "object": "customer", "deleted": true }),
        )
    }

    /// Whether customer `id` exists (tests: was it deleted?).
    pub fn has_customer(&self, id: &str) -> bool {
        self.lock().customers.contains_key(id)
    }

    /// Sets how the off-session charges of card `pm` go from now on.
    pub fn set_card_behaviour(&self, pm: &str, behaviour: CardBehaviour) {
        self.lock().card_behaviour.insert(pm.to_owned(), behaviour);
    }

    /// While `on`, off-session charges are made but not answered (see the module's docs).
    pub fn hold_charges(&self, on: bool) {
        let mut state = self.lock();
        state.holding = on;
        if !on {
            state.released.notify_waiters();
        }
    }

    /// How many off-session charges are waiting for their answer to be released.
    pub fn held_charges(&self) -> usize {
        self.lock().held
    }

    /// The customer card `pm` was saved to, if it was.
    pub fn saved_to(&self, pm: &str) -> Option<String> {
        self.lock().saved_cards.get(pm).cloned()
    }

    /// Charges intent `id`, just created with `confirm=true` for a saved card: paid or
    /// declined at once, its event sent, its answer kept for the idempotency key (a decline
    /// is replayed too) and then given, or held back while a test says so.
    pub(crate) async fn charge_saved_card(
        &self,
        id: &str,
        idempotency_key: Option<String>,
        params: HashMap<String, String>,
    ) -> Response {
        let planned = {
            let mut state = self.lock();
            let intent = state.intents.get(id).cloned().unwrap_or_default();
            let pm = intent["payment_method"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let customer = intent["customer"].as_str().unwrap_or_default();
            if customer.is_empty()
                || state.saved_cards.get(&pm).map(String::as_str) != Some(customer)
            {
                // What Stripe says of a card that was never saved to this customer.
                state.intents.remove(id);
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("resource_missing"),
                    &format!(
                        "The provided PaymentMethod {pm} was previously used without being attached to a Customer or was detached from a Customer, and may not be used again."
                    ),
                );
            }
            match state.card_behaviour.get(&pm).copied().unwrap_or_default() {
                CardBehaviour::Succeed => None,
                CardBehaviour::Decline => Some("insufficient_funds"),
                CardBehaviour::HardDecline => Some("stolen_card"),
            }
        };
        let outcome = match planned {
            None => Outcome::Succeed,
            Some(_) => Outcome::Decline,
        };
        // Stripe tells the webhook of the charge as it answers: a held answer holds the
        // event too (a server that dies waiting hears of neither).
        let (intent, event) = self
            .settle_quietly(id, outcome, planned)
            .unwrap_or_default();
        let (status, body) = match planned {
            None => (StatusCode::OK, intent),
            Some(_) => {
                let mut error = intent["last_payment_error"].clone();
                error["payment_intent"] = intent;
                (StatusCode::PAYMENT_REQUIRED, json!({ "error": error }))
            }
        };
        self.lock().remember(idempotency_key, params, status, &body);
        self.hold_if_asked().await;
        self.deliver(event).await;
        reply(status, &body)
    }

    /// Waits while charges are held (see [`FakeStripe::hold_charges`]).
    async fn hold_if_asked(&self) {
        let released = {
            let mut state = self.lock();
            if !state.holding {
                return;
            }
            state.held += 1;
            state.released.clone()
        };
        loop {
            // Made before the check, so a release between the two still wakes it.
            let notified = released.notified();
            if !self.lock().holding {
                break;
            }
            notified.await;
        }
        self.lock().held -= 1;
    }
}

impl FakeStripe {
    /// `POST /v1/setup_intents` (secret key): a card to be saved to `customer`.
    pub(crate) fn create_setup_intent(
        &self,
        params: HashMap<String, String>,
        idempotency_key: Option<String>,
    ) -> Response {
        let mut state = self.lock();
        if let Some(replayed) = state.replay(idempotency_key.as_deref(), &params) {
            return replayed;
        }
        let customer = params.get("customer");
        if customer.is_none_or(|c| !state.customers.contains_key(c)) {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                Some("resource_missing"),
                &format!("No such customer: '{}'", customer.map_or("", |c| c)),
            );
        }
        let id = format!("seti_fake_{}", random_id(16));
        let setup = json!({
            "id": id,
            "object": "setup_intent",
            "client_secret": format!("{id}_secret_{}", random_id(24)),
            "created": state.now(),
            "customer": customer,
            "description": null,
            "last_setup_error": null,
            "livemode": false,
            "metadata": crate::money::metadata_of(&params),
            "next_action": null,
            "payment_method": null,
            "payment_method_types": ["card"],
            "status": "requires_payment_method",
            "usage": params.get("usage").map_or("off_session", |u| u.as_str()),
        });
        state.setup_intents.insert(id, setup.clone());
        state.remember(idempotency_key, params, StatusCode::OK, &setup);
        reply(StatusCode::OK, &setup)
    }

    /// `GET /v1/setup_intents/{id}` (secret key, or a publishable key with `client_secret`).
    pub(crate) fn get_setup_intent(
        &self,
        id: &str,
        secret_key: bool,
        params: &HashMap<String, String>,
    ) -> Response {
        match self.lock().setup_intents.get(id) {
            Some(setup) if secret_key || client_secret_matches(setup, params) => {
                reply(StatusCode::OK, setup)
            }
            _ => crate::answers::missing(id),
        }
    }

    /// What the donor's browser does with SetupIntent `id`: confirms it with card `number`
    /// (the declined test card is refused). Returns the SetupIntent, or Stripe's error.
    pub async fn save_card(&self, id: &str, number: &str) -> Value {
        let secret = self
            .lock()
            .setup_intents
            .get(id)
            .and_then(|s| s["client_secret"].as_str().map(str::to_owned))
            .unwrap_or_default();
        let params = HashMap::from([
            ("client_secret".to_owned(), secret),
            (
                "payment_method_data[card][number]".to_owned(),
                number.to_owned(),
            ),
        ]);
        self.confirm_setup(id, &params).await.1
    }

    /// `POST /v1/setup_intents/{id}/confirm`, as Stripe.js calls it: the declined test card
    /// is refused, any other is saved to the intent's customer; the event follows.
    pub(crate) async fn confirm_setup_intent(
        &self,
        id: &str,
        params: &HashMap<String, String>,
    ) -> Response {
        let (status, body) = self.confirm_setup(id, params).await;
        reply(status, &body)
    }

    async fn confirm_setup(
        &self,
        id: &str,
        params: &HashMap<String, String>,
    ) -> (StatusCode, Value) {
        let missing = || {
            (
                StatusCode::NOT_FOUND,
                json!({ "error": { "type": "invalid_request_error", "code": "resource_missing",
                        "message": format!("No such setup_intent: '{id}'") } }),
            )
        };
        let card: String = params
            .get("payment_method_data[card][number]")
            .map(|n| n.chars().filter(char::is_ascii_digit).collect())
            .unwrap_or_default();
        let (setup, event) = {
            let mut state = self.lock();
            let now = state.now();
            let Some(setup) = state.setup_intents.get(id).cloned() else {
                return missing();
            };
            if !client_secret_matches(&setup, params) || setup["status"] == "succeeded" {
                return missing();
            }
            let mut setup = setup;
            let kind = if card == crate::DECLINED_CARD {
                setup["last_setup_error"] = json!({
                    "type": "card_error",
                    "code": "card_declined",
                    "decline_code": "generic_decline",
                    "message": "Your card was declined.",
                });
                "setup_intent.setup_failed"
            } else {
                let pm = format!("pm_fake_{}", random_id(14));
                setup["status"] = json!("succeeded");
                setup["last_setup_error"] = Value::Null;
                setup["payment_method"] = json!(pm);
                let customer = setup["customer"].as_str().unwrap_or_default().to_owned();
                state.saved_cards.insert(pm, customer);
                "setup_intent.succeeded"
            };
            state.setup_intents.insert(id.to_owned(), setup.clone());
            (setup.clone(), crate::events::event_at(kind, &setup, now))
        };
        self.deliver(event).await;
        if setup["status"] == "succeeded" {
            (StatusCode::OK, setup)
        } else {
            let mut error = setup["last_setup_error"].clone();
            error["setup_intent"] = setup;
            (StatusCode::PAYMENT_REQUIRED, json!({ "error": error }))
        }
    }
}
