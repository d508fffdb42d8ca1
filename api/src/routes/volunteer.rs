//! Volunteer signups.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::form_route;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::VOLUNTEER, state, sign_up)
}

/// POST /api/volunteer `{name, email, phone, zipCode, interests}`. Every signup is kept,
/// repeats included: staff see each time someone offered help and what they offered.
async fn sign_up(state: AppState, v: Values) -> Result<bool, ApiError> {
    let (name, email, zip) = (
        v.required("name"),
        v.required("email"),
        v.required("zipCode"),
    );
    let (phone, interests) = (
        v.get("phone").map(str::to_owned),
        v.get("interests").map(str::to_owned),
    );
    state
        .db
        .write(move |tx| {
            tx.execute(
                "INSERT INTO volunteer_signups (name, email, phone, zip_code, interests) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, email, phone, zip, interests],
            )
        })
        .await?;
    Ok(true)
}
