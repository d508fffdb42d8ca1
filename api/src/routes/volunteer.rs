//! Volunteer signups.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::{Gate, Submitter, form_route};
use crate::domain::mail::staff_alert;
use crate::domain::people;
use crate::http::error::ApiError;
use crate::state::{AppState, Desk};

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::VOLUNTEER, Gate::of(&state), state.desk(), sign_up)
}

/// POST /api/volunteer `{name, email, phone, zipCode, interests}`. Every signup is kept,
/// repeats included: staff see each time someone offered help and what they offered. Staff
/// are alerted by mail in the same write (when `STAFF_EMAIL` is set).
async fn sign_up(desk: Desk, v: Values, _from: Submitter) -> Result<bool, ApiError> {
    let (name, email, zip) = (
        v.required("name"),
        v.required("email"),
        v.required("zipCode"),
    );
    let (phone, interests) = (
        v.get("phone").map(str::to_owned),
        v.get("interests").map(str::to_owned),
    );
    let (mail, now) = (desk.mail.clone(), desk.clock.now());
    let queued = desk
        .db
        .write(move |tx| {
            let id: i64 = tx.query_row(
                "INSERT INTO volunteer_signups (name, email, phone, zip_code, interests, phone_e164, email_id) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                params![
                    name,
                    email,
                    phone,
                    zip,
                    interests,
                    phone.as_deref().and_then(forms::e164),
                    people::link(tx, &email, now)?
                ],
                |r| r.get(0),
            )?;
            let volunteer = staff_alert::Volunteer {
                id,
                name: &name,
                email: &email,
                phone: phone.as_deref(),
                zip_code: &zip,
                interests: interests.as_deref(),
            };
            staff_alert::volunteer(&mail, tx, &volunteer, now)
        })
        .await?;
    if queued {
        desk.mail.wake();
    }
    Ok(true)
}
