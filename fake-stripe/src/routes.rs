//! The fake's HTTP interface: Stripe's routes, the test controls under `/__fake/`, and
//! replies in Stripe's shape.

use std::collections::HashMap;

use serde_json::{Value, json};
use warp::Filter;
use warp::http::StatusCode;
use warp::hyper::body::Bytes;
use warp::reply::Response;

use crate::answers::{missing, reply, stripe_error};
use crate::intents::client_secret_matches;
use crate::{CardBehaviour, FakeStripe, Outcome, Recorded};

impl FakeStripe {
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
                self.create(params, idempotency_key).await
            }
            ("POST", ["v1", "customers"]) if secret_key => {
                self.create_customer(params, idempotency_key)
            }
            ("DELETE", ["v1", "customers", id]) if secret_key => self.delete_customer(id),
            ("POST", ["v1", "setup_intents"]) if secret_key => {
                self.create_setup_intent(params, idempotency_key)
            }
            ("GET", ["v1", "setup_intents", id]) => self.get_setup_intent(id, secret_key, &params),
            ("POST", ["v1", "setup_intents", id, "confirm"]) => {
                self.confirm_setup_intent(id, &params).await
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
            ("POST", ["v1", "refunds"]) if secret_key => {
                self.create_refund(params, idempotency_key).await
            }
            ("GET", ["v1", "refunds"]) if secret_key => self.list_refunds(&params),
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
                match body["amount"].as_i64() {
                    Some(amount) => self.fail_next_create_of(amount, status, message),
                    None => self.fail_next_create(status, message),
                }
                reply(StatusCode::OK, &json!({ "ok": true }))
            }
            ("GET", ["requests"]) => reply(StatusCode::OK, &self.requests()),
            ("GET", ["events"]) => reply(StatusCode::OK, &self.events()),
            ("POST", ["payment_intents", id, "refund"]) => {
                match self
                    .refund_from_dashboard(id, body["amount"].as_i64())
                    .await
                {
                    Ok((refund, _)) => reply(StatusCode::OK, &refund),
                    Err(refusal) => refusal.response(),
                }
            }
            ("POST", ["payment_intents", id, "dispute"]) => {
                let reason = body["reason"].as_str().unwrap_or("fraudulent");
                match self.dispute(id, reason).await {
                    Some((dispute, _)) => reply(StatusCode::OK, &dispute),
                    None => missing(id),
                }
            }
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
            ("POST", ["disputes", id, "close"]) => {
                match self
                    .close_dispute(id, body["won"].as_bool().unwrap_or(false))
                    .await
                {
                    Some(event) => reply(StatusCode::OK, &event),
                    None => missing(id),
                }
            }
            ("POST", ["refunds", id, "fail"]) => match self.fail_refund(id).await {
                Some(event) => reply(StatusCode::OK, &event),
                None => missing(id),
            },
            ("POST", ["payment_methods", pm, "charges"]) => {
                match body["outcome"].as_str().and_then(CardBehaviour::parse) {
                    Some(behaviour) => {
                        self.set_card_behaviour(pm, behaviour);
                        reply(StatusCode::OK, &json!({ "ok": true }))
                    }
                    None => reply(
                        StatusCode::BAD_REQUEST,
                        &json!({ "error": "outcome is succeed, decline or hard_decline" }),
                    ),
                }
            }
            ("POST", ["hold-charges"]) => {
                self.hold_charges(body["on"].as_bool().unwrap_or(false));
                reply(StatusCode::OK, &json!({ "ok": true }))
            }
            ("GET", ["hold-charges"]) => {
                reply(StatusCode::OK, &json!({ "held": self.held_charges() }))
            }
            ("POST", ["clock"]) => {
                self.advance(body["advanceSeconds"].as_i64().unwrap_or(0));
                reply(StatusCode::OK, &json!({ "ok": true }))
            }
            _ => reply(
                StatusCode::NOT_FOUND,
                &json!({ "error": "no such control" }),
            ),
        }
    }
}
