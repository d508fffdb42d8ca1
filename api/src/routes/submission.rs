//! What every public form post shares: a JSON body within the size limit, the form's
//! field rules, the honeypot, and the per-address rate limit.

use std::future::Future;

use generator::forms::{self, Form, Values};
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::error::ApiError;
use crate::filters::{FORM_BODY_LIMIT, client_ip, json_body, with_state};
use crate::state::AppState;

/// `POST /api/{path}` for a public form: checks the submission with `form`'s rules and
/// passes it to `store` (with `None` for a bot caught by the honeypot).
pub fn form_route<F, Fut>(
    path: &'static str,
    form: Form,
    state: AppState,
    store: F,
) -> BoxedFilter<(Response,)>
where
    F: Fn(AppState, Option<Values>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<Response, Rejection>> + Send + 'static,
{
    warp::path(path)
        .and(warp::path::end())
        .and(warp::post())
        .and(submission(path, form, state.clone()))
        .and_then(move |values| store(state.clone(), values))
        .boxed()
}

/// A checked submission, or `None` when a bot filled in the honeypot.
fn submission(
    name: &'static str,
    form: Form,
    state: AppState,
) -> impl Filter<Extract = (Option<Values>,), Error = Rejection> + Clone {
    client_ip(state.config.trust_proxy)
        .and(with_state(state))
        .and(json_body(FORM_BODY_LIMIT))
        .and_then(
            move |ip, state: AppState, body: serde_json::Value| async move {
                let values = form.parse(&body).map_err(ApiError::BadRequest)?;
                // Only checked posts count, so a visitor fixing a typo is not locked out.
                if !state.form_limiter.allow(name, ip) {
                    tracing::warn!(%ip, form = name, "rate limit reached");
                    return Err(Rejection::from(ApiError::TooManyRequests));
                }
                if forms::is_bot(&body) {
                    tracing::info!(%ip, form = name, "honeypot filled; not stored");
                    return Ok(None);
                }
                Ok(Some(values))
            },
        )
}

/// The reply to a stored (or quietly dropped) submission.
pub fn accepted(created: bool, message: &str) -> Response {
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    warp::reply::with_status(
        warp::reply::json(&json!({ "success": true, "message": message })),
        status,
    )
    .into_response()
}
