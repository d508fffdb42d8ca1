//! Contact messages.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::form_route;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route(forms::CONTACT, state, send)
}

/// POST /api/contact `{name, email, subject, message}`
async fn send(state: AppState, v: Values) -> Result<bool, ApiError> {
    let row = (
        v.required("name"),
        v.required("email"),
        v.required("subject"),
        v.required("message"),
    );
    state
        .db
        .write(move |tx| {
            tx.execute(
                "INSERT INTO contact_messages (name, email, subject, message) VALUES (?1, ?2, ?3, ?4)",
                params![row.0, row.1, row.2, row.3],
            )
        })
        .await?;
    Ok(true)
}
