//! Volunteer signups.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::Rejection;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::{accepted, form_route};
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route("volunteer", forms::VOLUNTEER, state, sign_up)
}

/// POST /api/volunteer `{name, email, phone, zipCode, interests}`. Every signup is kept,
/// repeats included: staff see each time someone offered help and what they offered.
async fn sign_up(state: AppState, values: Option<Values>) -> Result<Response, Rejection> {
    const THANKS: &str = "Thank you for volunteering!";
    let Some(v) = values else {
        return Ok(accepted(true, THANKS));
    };
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
    Ok(accepted(true, THANKS))
}
