//! Contact messages.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::Rejection;
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::{accepted, form_route};
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    form_route("contact", forms::CONTACT, state, send)
}

/// POST /api/contact `{name, email, subject, message}`
async fn send(state: AppState, values: Option<Values>) -> Result<Response, Rejection> {
    const THANKS: &str = "Message sent!";
    let Some(v) = values else {
        return Ok(accepted(true, THANKS));
    };
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
    Ok(accepted(true, THANKS))
}
