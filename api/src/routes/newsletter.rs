//! The newsletter signup.

use generator::forms::{self, Values};
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::form_route;
use crate::domain::mail::newsletter;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::NEWSLETTER, state, signup)
}

/// POST /api/newsletter-signup `{email, phone, zipCode}`. A new e-mail is stored as pending
/// and sent a link to confirm; a known one keeps its details (and, unless confirmed, gets
/// a new link, at most three a day). Every signup is answered alike (status, body and,
/// since each commits a write, time), so the form cannot tell a stranger whether someone
/// subscribed, nor let one change a subscriber's phone or ZIP.
async fn signup(state: AppState, values: Values) -> Result<bool, ApiError> {
    let email = values.required("email");
    let phone = values.get("phone").map(str::to_owned);
    let zip = values.required("zipCode");
    let (mail, now) = (state.mail.clone(), state.clock.now());
    state
        .db
        .write(move |tx| newsletter::sign_up(&mail, tx, &email, phone.as_deref(), &zip, now))
        .await?;
    // Woken either way: whether a mail was queued must not show in the timing.
    state.mail.wake();
    // "Created" either way: the answer must not say which it was.
    Ok(true)
}
