//! Money going back: the charge a paid intent makes, refunds (`POST /v1/refunds`, the list of
//! a charge's refunds, and a refund made "in the dashboard" or failing later) and disputes
//! (opened and closed won or lost). Each change sends the event Stripe sends for it. A
//! charge carries no `refunds` list, as in recent API versions: the api must read them from
//! the refunds API.

use std::collections::HashMap;

use serde_json::{Value, json};
use warp::http::StatusCode;
use warp::reply::Response;

use crate::answers::{reply, stripe_error};
use crate::events::event_at;
use crate::ids::random_id;
use crate::{FakeStripe, State};

impl State {
    /// The first answer to a request with this `Idempotency-Key`, or Stripe's error when the
    /// key was first used with other parameters; `None` for a key not seen before.
    pub(crate) fn replay(
        &self,
        key: Option<&str>,
        params: &HashMap<String, String>,
    ) -> Option<Response> {
        let (first, status, body) = self.idempotent.get(key?)?;
        Some(if first == params {
            reply(
                StatusCode::from_u16(*status).unwrap_or(StatusCode::OK),
                body,
            )
        } else {
            stripe_error(
                StatusCode::BAD_REQUEST,
                "idempotency_error",
                None,
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            )
        })
    }

    /// Keeps the answer to a request with `key`, for [`State::replay`].
    pub(crate) fn remember(
        &mut self,
        key: Option<String>,
        params: HashMap<String, String>,
        status: StatusCode,
        body: &Value,
    ) {
        if let Some(key) = key {
            self.idempotent
                .insert(key, (params, status.as_u16(), body.clone()));
        }
    }

    /// Seconds since the epoch as the fake's own clock reads them (tests move it).
    pub(crate) fn now(&self) -> i64 {
        crate::ids::now() + self.offset_secs
    }

    /// The charge of a succeeded intent, made the first time it is asked for.
    pub(crate) fn charge_of(&mut self, intent_id: &str) -> Option<Value> {
        let intent = self.intents.get(intent_id)?.clone();
        let id = intent["latest_charge"].as_str()?.to_owned();
        let created = self.now();
        let charge = self.charges.entry(id.clone()).or_insert_with(|| {
            json!({
                "id": id,
                "object": "charge",
                "amount": intent["amount"],
                "amount_captured": intent["amount"],
                "amount_refunded": 0,
                "billing_details": { "address": null, "email": null, "name": null, "phone": null, "tax_id": null },
                "captured": true,
                "created": created,
                "currency": intent["currency"],
                "description": intent["description"],
                "disputed": false,
                "livemode": false,
                "metadata": intent["metadata"],
                "paid": true,
                "payment_intent": intent_id,
                "payment_method": intent["payment_method"],
                "refunded": false,
                "status": "succeeded",
            })
        });
        Some(charge.clone())
    }

    /// Refunds `amount` (all that is left when `None`) of the intent's charge; Stripe's error
    /// when the charge cannot give that much back.
    fn refund(
        &mut self,
        intent_id: &str,
        amount: Option<i64>,
        reason: Option<&str>,
        metadata: serde_json::Map<String, Value>,
    ) -> Result<(Value, Value), Refusal> {
        let Some(charge) = self.charge_of(intent_id) else {
            return Err(Refusal {
                code: "resource_missing",
                message: format!(
                    "This PaymentIntent ({intent_id}) does not have a successful charge to refund."
                ),
            });
        };
        if charge["disputed"] == true {
            return Err(Refusal {
                code: "charge_disputed",
                message: "This charge has been disputed and cannot be refunded.".to_owned(),
            });
        }
        let left = charge["amount"].as_i64().unwrap_or(0)
            - charge["amount_refunded"].as_i64().unwrap_or(0);
        if left <= 0 {
            return Err(Refusal {
                code: "charge_already_refunded",
                message: format!(
                    "Charge {} has already been refunded.",
                    charge["id"].as_str().unwrap_or_default()
                ),
            });
        }
        let amount = amount.unwrap_or(left);
        if amount <= 0 || amount > left {
            return Err(Refusal {
                code: "amount_too_large",
                message: format!(
                    "Refund amount (${}.{:02}) is greater than unrefunded amount on charge (${}.{:02})",
                    amount / 100,
                    amount % 100,
                    left / 100,
                    left % 100
                ),
            });
        }
        let id = format!("re_fake_{}", random_id(16));
        let refund = json!({
            "id": id,
            "object": "refund",
            "amount": amount,
            "balance_transaction": null,
            "charge": charge["id"],
            "created": self.now(),
            "currency": charge["currency"],
            "metadata": metadata,
            "payment_intent": intent_id,
            "reason": reason,
            "receipt_number": null,
            "source_transfer_reversal": null,
            "status": "succeeded",
            "transfer_reversal": null,
        });
        self.refunds.insert(id.clone(), refund.clone());
        self.refund_order.push(id);
        let now = self.now();
        let charge = self
            .charges
            .get_mut(charge["id"].as_str().unwrap_or_default())
            .expect("the charge was just read");
        let refunded = charge["amount_refunded"].as_i64().unwrap_or(0) + amount;
        charge["amount_refunded"] = json!(refunded);
        charge["refunded"] = json!(refunded == charge["amount"].as_i64().unwrap_or(0));
        let event = event_at("charge.refunded", charge, now);
        Ok((refund, event))
    }
}

impl FakeStripe {
    /// `POST /v1/refunds` with `payment_intent` (or `charge`), optional `amount`, `reason`
    /// and `metadata[…]`; idempotent by `Idempotency-Key` like every create.
    pub(crate) async fn create_refund(
        &self,
        params: HashMap<String, String>,
        idempotency_key: Option<String>,
    ) -> Response {
        let made = {
            let mut state = self.lock();
            if let Some(replayed) = state.replay(idempotency_key.as_deref(), &params) {
                return replayed;
            }
            let intent = match (params.get("payment_intent"), params.get("charge")) {
                (Some(pi), _) => Some(pi.clone()),
                (None, Some(ch)) => state
                    .charges
                    .get(ch)
                    .and_then(|c| c["payment_intent"].as_str().map(str::to_owned)),
                (None, None) => None,
            };
            let Some(intent) = intent else {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("parameter_missing"),
                    "One of the following params should be provided for this request: payment_intent or charge.",
                );
            };
            let amount = match params.get("amount").map(|a| a.parse::<i64>()) {
                None => None,
                Some(Ok(a)) => Some(a),
                Some(Err(_)) => {
                    return stripe_error(
                        StatusCode::BAD_REQUEST,
                        "invalid_request_error",
                        Some("parameter_invalid_integer"),
                        "Invalid integer: amount",
                    );
                }
            };
            let metadata = metadata_of(&params);
            match state.refund(
                &intent,
                amount,
                params.get("reason").map(String::as_str),
                metadata,
            ) {
                Ok((refund, event)) => {
                    state.remember(idempotency_key, params, StatusCode::OK, &refund);
                    let lost = std::mem::take(&mut state.lose_next_refund_answer);
                    (refund, event, lost)
                }
                Err(refusal) => return refusal.response(),
            }
        };
        let (refund, event, lost) = made;
        // Stripe tells the webhook as it answers; here the event is delivered first, the
        // harder order for the api (its own refund comes back to it before the answer).
        self.deliver(event).await;
        if lost {
            return stripe_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "api_error",
                None,
                "An unknown error occurred.",
            );
        }
        reply(StatusCode::OK, &refund)
    }

    /// `GET /v1/refunds?charge=…`: the charge's refunds, newest first, as a list object.
    pub(crate) fn list_refunds(&self, params: &HashMap<String, String>) -> Response {
        let state = self.lock();
        let charge = params.get("charge");
        let intent = params.get("payment_intent");
        let mut data: Vec<Value> = state
            .refund_order
            .iter()
            .rev()
            .filter_map(|id| state.refunds.get(id))
            .filter(|r| charge.is_none_or(|c| r["charge"].as_str() == Some(c)))
            .filter(|r| intent.is_none_or(|p| r["payment_intent"].as_str() == Some(p)))
            .cloned()
            .collect();
        if let Some(after) = params.get("starting_after")
            && let Some(at) = data.iter().position(|r| r["id"].as_str() == Some(after))
        {
            data.drain(..=at);
        }
        let limit = params
            .get("limit")
            .and_then(|l| l.parse::<usize>().ok())
            .unwrap_or(10)
            .clamp(1, 100);
        let has_more = data.len() > limit;
        data.truncate(limit);
        reply(
            StatusCode::OK,
            &json!({ "object": "list", "data": data, "has_more": has_more, "url": "/v1/refunds" }),
        )
    }

    /// A refund made in Stripe's dashboard: no metadata of ours. Returns the refund and the
    /// event sent (`charge.refunded`), or why Stripe would refuse it.
    pub async fn refund_from_dashboard(
        &self,
        intent: &str,
        amount: Option<i64>,
    ) -> Result<(Value, Value), Refusal> {
        let made = self.lock().refund(
            intent,
            amount,
            Some("requested_by_customer"),
            serde_json::Map::new(),
        )?;
        self.deliver(made.1.clone()).await;
        Ok(made)
    }

    /// A refund that fails after it was made (the card was closed): `refund.updated`.
    pub async fn fail_refund(&self, id: &str) -> Option<Value> {
        let event = {
            let mut state = self.lock();
            let now = state.now();
            let refund = state.refunds.get_mut(id)?;
            refund["status"] = json!("failed");
            refund["failure_reason"] = json!("expired_or_canceled_card");
            let (charge, amount) = (
                refund["charge"].as_str().unwrap_or_default().to_owned(),
                refund["amount"].as_i64().unwrap_or(0),
            );
            let event = event_at("refund.updated", refund, now);
            if let Some(c) = state.charges.get_mut(&charge) {
                let refunded = c["amount_refunded"].as_i64().unwrap_or(0) - amount;
                c["amount_refunded"] = json!(refunded.max(0));
                c["refunded"] = json!(false);
            }
            event
        };
        self.deliver(event.clone()).await;
        Some(event)
    }

    /// The card's issuer disputes the intent's charge (`charge.dispute.created`).
    pub async fn dispute(&self, intent: &str, reason: &str) -> Option<(Value, Value)> {
        let made = {
            let mut state = self.lock();
            let charge = state.charge_of(intent)?;
            let now = state.now();
            let id = format!("du_fake_{}", random_id(16));
            let dispute = json!({
                "id": id,
                "object": "dispute",
                "amount": charge["amount"].as_i64().unwrap_or(0) - charge["amount_refunded"].as_i64().unwrap_or(0),
                "balance_transactions": [],
                "charge": charge["id"],
                "created": now,
                "currency": charge["currency"],
                "enhanced_eligibility_types": [],
                "evidence": { "enhanced_evidence": {} },
                "evidence_details": {
                    "due_by": now + 7 * 86_400,
                    "enhanced_eligibility": {},
                    "has_evidence": false,
                    "past_due": false,
                    "submission_count": 0,
                },
                "is_charge_refundable": false,
                "livemode": false,
                "metadata": {},
                "payment_intent": intent,
                "reason": reason,
                "status": "needs_response",
            });
            state.disputes.insert(id, dispute.clone());
            if let Some(c) = state
                .charges
                .get_mut(charge["id"].as_str().unwrap_or_default())
            {
                c["disputed"] = json!(true);
            }
            let event = event_at("charge.dispute.created", &dispute, now);
            (dispute, event)
        };
        self.deliver(made.1.clone()).await;
        Some(made)
    }

    /// Closes a dispute, `won` or `lost` (`charge.dispute.closed`).
    pub async fn close_dispute(&self, id: &str, won: bool) -> Option<Value> {
        let event = {
            let mut state = self.lock();
            let now = state.now();
            let dispute = state.disputes.get_mut(id)?;
            dispute["status"] = json!(if won { "won" } else { "lost" });
            let charge = dispute["charge"].as_str().unwrap_or_default().to_owned();
            let event = event_at("charge.dispute.closed", dispute, now);
            if won && let Some(c) = state.charges.get_mut(&charge) {
                c["disputed"] = json!(false);
            }
            event
        };
        self.deliver(event.clone()).await;
        Some(event)
    }

    /// Moves the fake's clock (the `created` of what it makes from now on) by `secs`, as
    /// tests move the api's.
    pub fn advance(&self, secs: i64) {
        self.lock().offset_secs += secs;
    }

    /// A stored refund, as Stripe would return it.
    pub fn refund(&self, id: &str) -> Option<Value> {
        self.lock().refunds.get(id).cloned()
    }
}

/// Why a refund cannot be made: Stripe's error code and message (a 400).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub(crate) fn response(&self) -> Response {
        stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some(self.code),
            &self.message,
        )
    }
}

/// `metadata[key]=value` parameters as an object.
pub(crate) fn metadata_of(params: &HashMap<String, String>) -> serde_json::Map<String, Value> {
    params
        .iter()
        .filter_map(|(k, v)| {
            let name = k.strip_prefix("metadata[")?.strip_suffix(']')?;
            Some((name.to_owned(), Value::String(v.clone())))
        })
        .collect()
}
