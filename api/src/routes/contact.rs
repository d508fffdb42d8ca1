//! Contact messages.

use generator::forms::{self, Values};
use rusqlite::params;
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::submission::{accepted, submission};
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    warp::path("contact")
        .and(warp::path::end())
        .and(warp::post())
        .and(submission("contact", forms::CONTACT, state.clone()))
        .and_then(move |values| send(state.clone(), values))
        .boxed()
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
