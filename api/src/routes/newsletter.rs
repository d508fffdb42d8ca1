//! The newsletter signup.

use generator::forms::{self, Values};
use rusqlite::{OptionalExtension, params};
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::form_route;
use crate::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::NEWSLETTER, state, signup)
}

/// POST /api/newsletter-signup `{email, phone, zipCode}`. A repeated e-mail updates the
/// existing signup (its ZIP, and its phone when one is given) instead of adding a row.
async fn signup(state: AppState, values: Values) -> Result<bool, ApiError> {
    let email = values.required("email");
    let phone = values.get("phone").map(str::to_owned);
    let zip = values.required("zipCode");
    state
        .db
        .write(move |tx| {
            let existing: Option<i64> = tx
                .query_row("SELECT id FROM newsletter_signups WHERE email = ?1", [&email], |r| r.get(0))
                .optional()?;
            match existing {
                Some(id) => {
                    tx.execute(
                        "UPDATE newsletter_signups SET phone = COALESCE(?1, phone), zip_code = ?2, \
                         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?3",
                        params![phone, zip, id],
                    )?;
                    Ok(false)
                }
                None => {
                    tx.execute(
                        "INSERT INTO newsletter_signups (email, phone, zip_code) VALUES (?1, ?2, ?3)",
                        params![email, phone, zip],
                    )?;
                    Ok(true)
                }
            }
        })
        .await
}
