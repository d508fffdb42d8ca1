//! PaymentIntents: creating one (with idempotency keys and planned failures), confirming it
//! as Stripe.js does, what an outcome does to it, and its JSON.

use std::collections::HashMap;

use serde_json::{Value, json};
use warp::http::StatusCode;
use warp::reply::Response;

use crate::answers::{missing, reply, stripe_error};
use crate::ids::{now, random_id};
use crate::{DECLINED_CARD, FakeStripe};

impl FakeStripe {
    pub(crate) async fn create(
        &self,
        params: HashMap<String, String>,
        idempotency_key: Option<String>,
    ) -> Response {
        let intent = {
            let mut state = self.lock();
            if let Some(replayed) = state.replay(idempotency_key.as_deref(), &params) {
                return replayed;
            }
            let amount = params.get("amount");
            if let Some(at) = state
                .fail_next
                .iter()
                .position(|(only, _, _)| only.is_none() || only.as_ref() == amount)
            {
                let (_, status, message) = state.fail_next.remove(at);
                let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
                return stripe_error(status, "api_error", None, &message);
            }
            let Some(amount) = params.get("amount").and_then(|a| a.parse::<i64>().ok()) else {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    None,
                    "Missing required param: amount.",
                );
            };
            if amount < 50 {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("amount_too_small"),
                    "Amount must be at least $0.50 usd",
                );
            }
            let customer = params.get("customer");
            if let Some(customer) = customer
                && !state.customers.contains_key(customer)
            {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("resource_missing"),
                    &format!("No such customer: '{customer}'"),
                );
            }
            let confirm = params.get("confirm").is_some_and(|v| v == "true");
            if confirm && !params.contains_key("payment_method") {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("parameter_missing"),
                    "You must provide a payment_method to confirm this PaymentIntent.",
                );
            }
            let currency = params.get("currency").cloned().unwrap_or_default();
            let id = format!("pi_fake_{}", random_id(16));
            let secret = format!("{id}_secret_{}", random_id(24));
            let metadata: serde_json::Map<String, Value> = params
                .iter()
                .filter_map(|(k, v)| {
                    let name = k.strip_prefix("metadata[")?.strip_suffix(']')?;
                    Some((name.to_owned(), Value::String(v.clone())))
                })
                .collect();
            let automatic = params
                .get("automatic_payment_methods[enabled]")
                .is_some_and(|v| v == "true");
            let mut intent = payment_intent(PaymentIntentFields {
                id: &id,
                client_secret: &secret,
                amount,
                currency: &currency,
                description: params.get("description").map(String::as_str),
                receipt_email: params.get("receipt_email").map(String::as_str),
                metadata,
                automatic,
            });
            intent["customer"] = json!(customer);
            intent["setup_future_usage"] = json!(params.get("setup_future_usage"));
            intent["payment_method"] = json!(params.get("payment_method"));
            state.intents.insert(id, intent.clone());
            if !confirm {
                state.remember(idempotency_key, params, StatusCode::OK, &intent);
                return reply(StatusCode::OK, &intent);
            }
            intent
        };
        // Confirmed at creation: a charge the site makes itself with a saved card.
        let id = intent["id"].as_str().unwrap_or_default().to_owned();
        self.charge_saved_card(&id, idempotency_key, params).await
    }

    /// What Stripe.js does when the donor presses the pay button.
    pub(crate) async fn confirm(
        &self,
        id: &str,
        key: &str,
        params: &HashMap<String, String>,
    ) -> Response {
        let Some(intent) = self.intent(id) else {
            return missing(id);
        };
        if !(key.starts_with("sk_")
            || key.starts_with("pk_") && client_secret_matches(&intent, params))
        {
            return missing(id);
        }
        if intent["status"] == "succeeded" || intent["status"] == "canceled" {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                Some("payment_intent_unexpected_state"),
                &format!(
                    "This PaymentIntent's status is {}, so it cannot be confirmed.",
                    intent["status"].as_str().unwrap_or_default()
                ),
            );
        }
        let card: String = params
            .get("payment_method_data[card][number]")
            .map(|n| n.chars().filter(char::is_ascii_digit).collect())
            .unwrap_or_default();
        if card == DECLINED_CARD {
            let intent = self.settle(id, Outcome::Decline).await.unwrap_or_default();
            let mut error = intent["last_payment_error"].clone();
            error["payment_intent"] = intent;
            return reply(StatusCode::PAYMENT_REQUIRED, &json!({ "error": error }));
        }
        match self.settle(id, Outcome::Succeed).await {
            Some(intent) => reply(StatusCode::OK, &intent),
            None => missing(id),
        }
    }
}

/// What happens to an intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeed,
    /// The card is declined; the intent waits for another payment method.
    Decline,
    Cancel,
}

impl Outcome {
    pub(crate) fn event_type(self) -> &'static str {
        match self {
            Outcome::Succeed => "payment_intent.succeeded",
            Outcome::Decline => "payment_intent.payment_failed",
            Outcome::Cancel => "payment_intent.canceled",
        }
    }

    /// What the outcome does to `intent`; a decline says `decline_code` (Stripe's
    /// `generic_decline` when `None`).
    pub(crate) fn apply(self, intent: &mut Value, decline_code: Option<&str>) {
        match self {
            Outcome::Succeed => {
                intent["status"] = json!("succeeded");
                intent["amount_received"] = intent["amount"].clone();
                intent["last_payment_error"] = Value::Null;
                // A saved card charged again keeps its id; a card typed in is a new one.
                if !intent["payment_method"].is_string() {
                    intent["payment_method"] = json!(format!("pm_fake_{}", random_id(14)));
                }
                intent["latest_charge"] = json!(format!("ch_fake_{}", random_id(14)));
            }
            Outcome::Decline => {
                let code = decline_code.unwrap_or("generic_decline");
                intent["status"] = json!("requires_payment_method");
                intent["last_payment_error"] = json!({
                    "type": "card_error",
                    "code": "card_declined",
                    "decline_code": code,
                    "message": if code == "insufficient_funds" {
                        "Your card has insufficient funds."
                    } else {
                        "Your card was declined."
                    },
                    "doc_url": "https://stripe.com/docs/error-codes/card-declined",
                });
            }
            Outcome::Cancel => {
                intent["status"] = json!("canceled");
                intent["canceled_at"] = json!(now());
                intent["cancellation_reason"] = json!("requested_by_customer");
            }
        }
    }
}

struct PaymentIntentFields<'a> {
    id: &'a str,
    client_secret: &'a str,
    amount: i64,
    currency: &'a str,
    description: Option<&'a str>,
    receipt_email: Option<&'a str>,
    metadata: serde_json::Map<String, Value>,
    automatic: bool,
}

/// A PaymentIntent in Stripe's JSON, every field present as the API sends it.
fn payment_intent(f: PaymentIntentFields) -> Value {
    json!({
        "id": f.id,
        "object": "payment_intent",
        "amount": f.amount,
        "amount_capturable": 0,
        "amount_details": { "tip": {} },
        "amount_received": 0,
        "application": null,
        "application_fee_amount": null,
        "automatic_payment_methods": if f.automatic {
            json!({ "allow_redirects": "always", "enabled": true })
        } else {
            Value::Null
        },
        "canceled_at": null,
        "cancellation_reason": null,
        "capture_method": "automatic_async",
        "client_secret": f.client_secret,
        "confirmation_method": "automatic",
        "created": now(),
        "currency": f.currency,
        "customer": null,
        "description": f.description,
        "last_payment_error": null,
        "latest_charge": null,
        "livemode": false,
        "metadata": f.metadata,
        "next_action": null,
        "on_behalf_of": null,
        "payment_method": null,
        "payment_method_configuration_details": null,
        "payment_method_options": {},
        "payment_method_types": ["card"],
        "processing": null,
        "receipt_email": f.receipt_email,
        "review": null,
        "setup_future_usage": null,
        "shipping": null,
        "source": null,
        "statement_descriptor": null,
        "statement_descriptor_suffix": null,
        "status": "requires_payment_method",
        "transfer_data": null,
        "transfer_group": null,
    })
}

pub(crate) fn client_secret_matches(intent: &Value, params: &HashMap<String, String>) -> bool {
    params
        .get("client_secret")
        .is_some_and(|s| intent["client_secret"].as_str() == Some(s))
}
