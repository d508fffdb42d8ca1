//! Contact messages.

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
    form_route(forms::CONTACT, Gate::of(&state), state.desk(), send)
}

/// POST /api/contact `{name, email, subject, message}`. Staff are alerted by mail (when
/// `STAFF_EMAIL` is set) in the same write; the sender gets nothing.
async fn send(desk: Desk, v: Values, _from: Submitter) -> Result<bool, ApiError> {
    let row = (
        v.required("name"),
        v.required("email"),
        v.required("subject"),
        v.required("message"),
    );
    let (mail, now) = (desk.mail.clone(), desk.clock.now());
    let queued = desk
        .db
        .write(move |tx| {
            let id: i64 = tx.query_row(
                "INSERT INTO contact_messages (name, email, subject, message, email_id) \
                 VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                params![row.0, row.1, row.2, row.3, people::link(tx, &row.1, now)?],
                |r| r.get(0),
            )?;
            let contact = staff_alert::Contact {
                id,
                name: &row.0,
                email: &row.1,
                subject: &row.2,
                message: &row.3,
            };
            staff_alert::contact(&mail, tx, &contact, now)
        })
        .await?;
    if queued {
        desk.mail.wake();
    }
    Ok(true)
}
