//! Webhook events: made, signed and delivered as Stripe does it.

use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use warp::hyper::body::Bytes;

use crate::ids::{now, random_id};
use crate::{FakeStripe, SentEvent};

/// The API version stamped on events: the one the api's Stripe library expects.
const API_VERSION: &str = "2026-09-30.endive";

impl FakeStripe {
    /// Sends `event` to the webhook, signed as Stripe signs it, and records the answer.
    pub(crate) async fn deliver(&self, event: Value) {
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
            payload: event,
        });
    }
}

/// A webhook event carrying `intent`, as Stripe sends it.
pub fn event_for(kind: &str, intent: &Value) -> Value {
    event_at(kind, intent, now())
}

/// A webhook event carrying `object`, made at `created` (seconds since the epoch).
pub fn event_at(kind: &str, object: &Value, created: i64) -> Value {
    json!({
        "id": format!("evt_fake_{}", random_id(20)),
        "object": "event",
        "api_version": API_VERSION,
        "created": created,
        "data": { "object": object },
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
