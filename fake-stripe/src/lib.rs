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
//!
//! And a few controls for tests, under `/__fake/`: `config` (`{webhookUrl, webhookSecret}`),
//! `fail-next` (`{status, message, receiptEmail?}`: the next create fails that way; with
//! `receiptEmail`, only the next create for that donor, so parallel tests do not take each
//! other's failures), `requests` (what the
//! api sent), `payment_intents/{id}/{succeed|fail|cancel}` (what a payment would do, without
//! a browser), and `events` (the webhook events sent, with their delivery status).

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use http_body_util::{BodyExt, Full};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use warp::http::StatusCode;
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Reply};

/// The card number Stripe's docs use for "generic decline".
pub const DECLINED_CARD: &str = "4000000000000002";
/// The API version stamped on events: the one the api's Stripe library expects.
const API_VERSION: &str = "2026-09-30.endive";

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
    pub intent: String,
    /// The api's answer, or 0 when it could not be reached.
    pub status: u16,
}

#[derive(Default)]
struct State {
    intents: HashMap<String, Value>,
    /// Idempotency-Key -> (the parameters it was first used with, the reply).
    idempotent: HashMap<String, (HashMap<String, String>, Value)>,
    requests: Vec<Recorded>,
    /// Failures waiting for the next create: (receipt email it is for, or any; status, message).
    fail_next: Vec<(Option<String>, u16, String)>,
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

    /// Makes the next `POST /v1/payment_intents` with this `receipt_email` fail.
    pub fn fail_next_create_for(
        &self,
        email: impl Into<String>,
        status: u16,
        message: impl Into<String>,
    ) {
        self.lock()
            .fail_next
            .push((Some(email.into()), status, message.into()));
    }

    /// Every request the api made, oldest first.
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().requests.clone()
    }

    /// A stored intent, as Stripe would return it.
    pub fn intent(&self, id: &str) -> Option<Value> {
        self.lock().intents.get(id).cloned()
    }

    /// The events sent so far.
    pub fn events(&self) -> Vec<SentEvent> {
        self.lock().events.clone()
    }

    /// Moves an intent to `status` (`succeeded`, `requires_payment_method` after a decline,
    /// or `canceled`) and delivers the matching event; returns the intent.
    pub async fn settle(&self, id: &str, outcome: Outcome) -> Option<Value> {
        let (intent, event) = {
            let mut state = self.lock();
            let intent = state.intents.get_mut(id)?;
            outcome.apply(intent);
            let intent = intent.clone();
            (intent.clone(), event_for(outcome.event_type(), &intent))
        };
        self.deliver(event).await;
        Some(intent)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends `event` to the webhook, signed as Stripe signs it, and records the answer.
    async fn deliver(&self, event: Value) {
        let (url, secret) = {
            let state = self.lock();
            (state.webhook_url.clone(), state.webhook_secret.clone())
        };
        let payload = event.to_string();
        let status = match (url, secret) {
            (Some(url), Some(secret)) => {
                let signature = sign(&payload, &secret, now());
                post(&url, &payload, &signature).await
            }
            _ => 0,
        };
        self.lock().events.push(SentEvent {
            id: event["id"].as_str().unwrap_or_default().to_owned(),
            kind: event["type"].as_str().unwrap_or_default().to_owned(),
            intent: event["data"]["object"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            status,
        });
    }

    /// The fake's HTTP interface.
    pub fn routes(&self) -> warp::filters::BoxedFilter<(Response,)> {
        let fake = self.clone();
        warp::method()
            .and(warp::path::full())
            .and(warp::query::raw().or(warp::any().map(String::new)).unify())
            .and(warp::header::headers_cloned())
            .and(warp::body::bytes())
            .then(
                move |method: warp::http::Method,
                      path: warp::path::FullPath,
                      query: String,
                      headers: warp::http::HeaderMap,
                      body: Bytes| {
                    let fake = fake.clone();
                    async move {
                        fake.handle(method.as_str(), path.as_str(), &query, &headers, &body)
                            .await
                    }
                },
            )
            .boxed()
    }

    async fn handle(
        &self,
        method: &str,
        path: &str,
        query: &str,
        headers: &warp::http::HeaderMap,
        body: &[u8],
    ) -> Response {
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        if let Some(control) = path.strip_prefix("/__fake/") {
            return self.control(method, control, body).await;
        }
        // Stripe.js calls the API from the page's origin: answer the browser's preflight.
        if method == "OPTIONS" {
            let mut res = reply(StatusCode::NO_CONTENT, &json!({}));
            let h = res.headers_mut();
            h.insert(
                "access-control-allow-methods",
                warp::http::HeaderValue::from_static("GET, POST"),
            );
            h.insert(
                "access-control-allow-headers",
                warp::http::HeaderValue::from_static("authorization, content-type"),
            );
            return res;
        }
        let mut params: HashMap<String, String> =
            serde_urlencoded::from_bytes(body).ok().unwrap_or_default();
        if method == "GET" {
            params.extend(
                serde_urlencoded::from_str::<Vec<(String, String)>>(query).unwrap_or_default(),
            );
        }
        let key = header("authorization")
            .and_then(|h| h.strip_prefix("Bearer ").map(str::to_owned))
            .unwrap_or_default();
        let idempotency_key = header("idempotency-key");
        self.lock().requests.push(Recorded {
            method: method.to_owned(),
            path: path.to_owned(),
            idempotency_key: idempotency_key.clone(),
            params: params.clone(),
        });
        let secret_key = key.starts_with("sk_");
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, segments.as_slice()) {
            ("POST", ["v1", "payment_intents"]) if secret_key => {
                self.create(params, idempotency_key)
            }
            ("GET", ["v1", "payment_intents", id]) => {
                let intent = self.intent(id);
                match intent {
                    Some(intent) if secret_key || client_secret_matches(&intent, &params) => {
                        reply(StatusCode::OK, &intent)
                    }
                    _ => missing(id),
                }
            }
            ("POST", ["v1", "payment_intents", id, "confirm"]) => {
                self.confirm(id, &key, &params).await
            }
            ("POST", ["v1", "payment_intents", id, "cancel"]) if secret_key => {
                match self.settle(id, Outcome::Cancel).await {
                    Some(intent) => reply(StatusCode::OK, &intent),
                    None => missing(id),
                }
            }
            (_, ["v1", ..]) if key.is_empty() => stripe_error(
                StatusCode::UNAUTHORIZED,
                "invalid_request_error",
                None,
                "You did not provide an API key.",
            ),
            _ => stripe_error(
                StatusCode::NOT_FOUND,
                "invalid_request_error",
                None,
                &format!("Unrecognized request URL ({method}: {path})."),
            ),
        }
    }

    fn create(&self, params: HashMap<String, String>, idempotency_key: Option<String>) -> Response {
        let mut state = self.lock();
        if let Some(key) = &idempotency_key
            && let Some((first, reply_body)) = state.idempotent.get(key)
        {
            return if *first == params {
                reply(StatusCode::OK, reply_body)
            } else {
                stripe_error(
                    StatusCode::BAD_REQUEST,
                    "idempotency_error",
                    None,
                    "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                )
            };
        }
        let receipt_email = params.get("receipt_email");
        if let Some(at) = state
            .fail_next
            .iter()
            .position(|(email, _, _)| email.is_none() || email.as_ref() == receipt_email)
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
        let intent = payment_intent(PaymentIntentFields {
            id: &id,
            client_secret: &secret,
            amount,
            currency: &currency,
            description: params.get("description").map(String::as_str),
            receipt_email: params.get("receipt_email").map(String::as_str),
            metadata,
            automatic,
        });
        state.intents.insert(id, intent.clone());
        if let Some(key) = idempotency_key {
            state.idempotent.insert(key, (params, intent.clone()));
        }
        reply(StatusCode::OK, &intent)
    }

    /// What Stripe.js does when the donor presses the pay button.
    async fn confirm(&self, id: &str, key: &str, params: &HashMap<String, String>) -> Response {
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

    async fn control(&self, method: &str, path: &str, body: &[u8]) -> Response {
        let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, segments.as_slice()) {
            ("POST", ["config"]) => {
                let mut state = self.lock();
                if let Some(url) = body["webhookUrl"].as_str() {
                    state.webhook_url = Some(url.to_owned());
                }
                if let Some(secret) = body["webhookSecret"].as_str() {
                    state.webhook_secret = Some(secret.to_owned());
                }
                reply(StatusCode::OK, &json!({ "ok": true }))
            }
            ("POST", ["fail-next"]) => {
                let status = body["status"].as_u64().unwrap_or(500) as u16;
                let message = body["message"]
                    .as_str()
                    .unwrap_or("An unknown error occurred.");
                match body["receiptEmail"].as_str() {
                    Some(email) => self.fail_next_create_for(email, status, message),
                    None => self.fail_next_create(status, message),
                }
                reply(StatusCode::OK, &json!({ "ok": true }))
            }
            ("GET", ["requests"]) => reply(StatusCode::OK, &self.requests()),
            ("GET", ["events"]) => reply(StatusCode::OK, &self.events()),
            ("POST", ["payment_intents", id, action]) => {
                let outcome = match *action {
                    "succeed" => Outcome::Succeed,
                    "fail" => Outcome::Decline,
                    "cancel" => Outcome::Cancel,
                    _ => {
                        return reply(StatusCode::NOT_FOUND, &json!({ "error": "no such action" }));
                    }
                };
                match self.settle(id, outcome).await {
                    Some(intent) => reply(StatusCode::OK, &intent),
                    None => missing(id),
                }
            }
            _ => reply(
                StatusCode::NOT_FOUND,
                &json!({ "error": "no such control" }),
            ),
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
    fn event_type(self) -> &'static str {
        match self {
            Outcome::Succeed => "payment_intent.succeeded",
            Outcome::Decline => "payment_intent.payment_failed",
            Outcome::Cancel => "payment_intent.canceled",
        }
    }

    fn apply(self, intent: &mut Value) {
        match self {
            Outcome::Succeed => {
                intent["status"] = json!("succeeded");
                intent["amount_received"] = intent["amount"].clone();
                intent["last_payment_error"] = Value::Null;
                intent["payment_method"] = json!(format!("pm_fake_{}", random_id(14)));
                intent["latest_charge"] = json!(format!("ch_fake_{}", random_id(14)));
            }
            Outcome::Decline => {
                intent["status"] = json!("requires_payment_method");
                intent["last_payment_error"] = json!({
                    "type": "card_error",
                    "code": "card_declined",
                    "decline_code": "generic_decline",
                    "message": "Your card was declined.",
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

/// A webhook event carrying `intent`, as Stripe sends it.
pub fn event_for(kind: &str, intent: &Value) -> Value {
    json!({
        "id": format!("evt_fake_{}", random_id(20)),
        "object": "event",
        "api_version": API_VERSION,
        "created": now(),
        "data": { "object": intent },
        "livemode": false,
        "pending_webhooks": 1,
        "request": { "id": null, "idempotency_key": null },
        "type": kind,
    })
}

/// The `Stripe-Signature` header Stripe sends with `payload`, signed at `timestamp`.
pub fn sign(payload: &str, secret: &str, timestamp: i64) -> String {
    stripe_webhook::Webhook::generate_test_header(payload, secret, Some(timestamp))
}

/// Seconds since the epoch.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn client_secret_matches(intent: &Value, params: &HashMap<String, String>) -> bool {
    params
        .get("client_secret")
        .is_some_and(|s| intent["client_secret"].as_str() == Some(s))
}

fn random_id(len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn reply<T: Serialize>(status: StatusCode, body: &T) -> Response {
    // Stripe.js calls api.stripe.com from the page's origin.
    let mut res = warp::reply::with_status(warp::reply::json(body), status).into_response();
    res.headers_mut().insert(
        "access-control-allow-origin",
        warp::http::HeaderValue::from_static("*"),
    );
    res
}

fn stripe_error(status: StatusCode, kind: &str, code: Option<&str>, message: &str) -> Response {
    reply(
        status,
        &json!({ "error": { "type": kind, "code": code, "message": message } }),
    )
}

fn missing(id: &str) -> Response {
    stripe_error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        Some("resource_missing"),
        &format!("No such payment_intent: '{id}'"),
    )
}

/// POSTs a webhook event; the answer's status, or 0 when the api could not be reached.
async fn post(url: &str, payload: &str, signature: &str) -> u16 {
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<Full<Bytes>>();
    let request = warp::http::Request::post(url)
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .header(
            "user-agent",
            "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        )
        .body(Full::new(Bytes::from(payload.to_owned())));
    let Ok(request) = request else { return 0 };
    match client.request(request).await {
        Ok(response) => {
            let status = response.status().as_u16();
            let _ = response.into_body().collect().await;
            status
        }
        Err(_) => 0,
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
