//! How the fake answers: JSON open to the page's origin, and Stripe's error shape.

use serde::Serialize;
use serde_json::json;
use warp::Reply;
use warp::http::StatusCode;
use warp::reply::Response;

pub(crate) fn reply<T: Serialize>(status: StatusCode, body: &T) -> Response {
    // Stripe.js calls api.stripe.com from the page's origin.
    let mut res = warp::reply::with_status(warp::reply::json(body), status).into_response();
    res.headers_mut().insert(
        "access-control-allow-origin",
        warp::http::HeaderValue::from_static("*"),
    );
    res
}

pub(crate) fn stripe_error(
    status: StatusCode,
    kind: &str,
    code: Option<&str>,
    message: &str,
) -> Response {
    reply(
        status,
        &json!({ "error": { "type": kind, "code": code, "message": message } }),
    )
}

pub(crate) fn missing(id: &str) -> Response {
    stripe_error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        Some("resource_missing"),
        &format!("No such payment_intent: '{id}'"),
    )
}
