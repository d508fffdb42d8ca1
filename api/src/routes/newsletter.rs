//! The newsletter signup.

use generator::forms::{self, Values};
use rusqlite::{OptionalExtension, params};
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::form_route;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::NEWSLETTER, state, signup)
}

/// POST /api/newsletter-signup `{email, phone, zipCode}`. A new e-mail is stored; a known
/// one is left exactly as it is. Both are answered alike (status, body and, since both
/// commit a write, time), so the form cannot tell a stranger whether someone subscribed,
/// nor let one change a subscriber's phone or ZIP.
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
                    // Changes nothing, but makes the commit write (and sync) as an insert
                    // does: a known address must not answer faster.
                    tx.execute(
                        "UPDATE newsletter_signups SET updated_at = updated_at WHERE id = ?1",
                        [id],
                    )?;
                }
                None => {
                    tx.execute(
                        "INSERT INTO newsletter_signups (email, phone, zip_code) VALUES (?1, ?2, ?3)",
                        params![email, phone, zip],
                    )?;
                }
            }
            // "Created" either way: the answer must not say which it was.
            Ok(true)
        })
        .await
}
