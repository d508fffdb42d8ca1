//! `POST /api/admin/test-clock {advanceSeconds}` → `{now}`: moves the server's one clock
//! forward and runs, before answering, one pass of each task that acts on time (scheduled
//! posts, monthly gifts, the mail queue's retries, unpaid gifts' expiry), so an end-to-end
//! test can see a month go by without waiting for it. Exists only when
//! [`Config::test_clock`](crate::config::Config::test_clock) is on: debug builds started
//! with `ENABLE_TEST_CLOCK=1`; everywhere else the path is not found.

use serde_json::{Value, json};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::auth::Admin;
use crate::domain::clock::sql_time;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

/// The furthest one call may move the clock: a little over a year.
const MAX_ADVANCE_SECS: u64 = 400 * 24 * 3600;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let on = state.config.test_clock;
    warp::path!("test-clock")
        .and(warp::post())
        .and_then(move || async move {
            if on {
                Ok(())
            } else {
                Err(warp::reject::not_found())
            }
        })
        .untuple_one()
        .and(super::allowed(state.clone(), Cap::Account))
        .and(json_body::<Value>(1024))
        .and_then(move |_admin: Admin, body: Value| advance(state.clone(), body))
        .boxed()
}

async fn advance(state: AppState, body: Value) -> Result<Response, Rejection> {
    let seconds = body
        .get("advanceSeconds")
        .and_then(Value::as_u64)
        .filter(|s| *s <= MAX_ADVANCE_SECS)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "advanceSeconds must be a whole number of seconds up to {MAX_ADVANCE_SECS}."
            ))
        })?;
    state.clock.advance(std::time::Duration::from_secs(seconds));
    tracing::warn!(seconds, now = %state.clock.now(), "the test clock moved");
    state.scheduler.publish_due().await;
    state.charger.run_due().await;
    state.limit_refunder.run().await;
    state.expire_donations().await;
    state.events_due().await;
    state.mail.wake();
    Ok(json(
        StatusCode::OK,
        &json!({ "now": sql_time(state.clock.now()) }),
    ))
}
