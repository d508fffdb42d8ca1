//! POST /api/admin/erase `{email}`: erase a person on request (see [`crate::domain::erasure`]).

use generator::forms::is_valid_email;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::Ledger;
use crate::domain::staff::Cap;
use crate::domain::{erasure, people, sms_consent};
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    email: String,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    warp::path!("erase")
        .and(warp::post())
        .and(super::allowed(state, Cap::Erase))
        .and(json_body::<Request>(4 * 1024))
        .and_then(move |admin, request| erase(ledger.clone(), admin, request))
        .boxed()
}

/// Erases the person and answers what was done (`{contacts, volunteers, newsletters,
/// donationsRedacted, donationsKept, donationsInProgress}`, and a `warning` when something
/// outside the database could not be removed yet: erasing again tries again).
async fn erase(ledger: Ledger, admin: Admin, request: Request) -> Result<Response, Rejection> {
    let email = erasure::fold(&request.email);
    if !is_valid_email(&email) {
        return Err(ApiError::BadRequest("Please enter a valid email address.".into()).into());
    }
    let target = erasure::audit_target(&email);
    erase_addresses(&ledger, &admin, Addresses::These(vec![email]), target).await
}

/// Whose addresses to erase.
pub(super) enum Addresses {
    These(Vec<String>),
    /// Every address of a supporter, as they stand when the write runs.
    OfSupporter(i64),
}

/// Erases every address `which` names in one write (audited once, as `target`), then what
/// lives outside the database; answers as [`erase`] does, or 404 for a supporter who is
/// not there.
pub(super) async fn erase_addresses(
    ledger: &Ledger,
    admin: &Admin,
    which: Addresses,
    target: String,
) -> Result<Response, Rejection> {
    let (mail, now, by) = (ledger.mail.clone(), ledger.clock.now(), admin.by());
    let site = ledger.site.clone();
    let done = ledger
        .db
        .write(move |tx| {
            let emails = match which {
                Addresses::These(emails) => emails,
                Addresses::OfSupporter(id) => match people::merge::current_addresses(tx, id)? {
                    Some(emails) => emails,
                    None => return Ok(None),
                },
            };
            let phone = |e164: &str| mail.tokens.key_of(sms_consent::KEY_PURPOSE, e164);
            let email = |e: &str| mail.tokens.key_of(people::SUPPRESS_PURPOSE, e);
            let keys = erasure::Keys {
                phone: &phone,
                email: &email,
            };
            let mut all = erasure::Erased::default();
            let mut mailed = Vec::new();
            for who in &emails {
                let erased = erasure::erase(tx, who, &keys, now)?;
                mailed.push((who.clone(), erased.mail.clone()));
                all.add(erased);
            }
            // Whoever moved up into a seat an erased RSVP held hears so.
            for id in &all.moved_up {
                crate::domain::events::mail::queue(
                    &mail,
                    &site,
                    tx,
                    *id,
                    crate::domain::events::mail::Note::MovedUp,
                    now,
                )?;
            }
            audit::record(tx, Action::Erase, Some(&target), by)?;
            Ok(Some((all, mailed)))
        })
        .await?;
    let Some((erased, mailed)) = done else {
        return Err(ApiError::NotFound("There is no such person.".into()).into());
    };
    // Their messages the sender had read but not started never go; one already inside an
    // SMTP transaction cannot be called back, and the answer says so.
    let removed: Vec<i64> = mailed
        .iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    let unstoppable = ledger.mail.flight.stop(&removed);
    if !erased.moved_up.is_empty() {
        ledger.mail.wake();
    }
    // Gone from the database's files too, not only from its tables.
    if let Err(e) = ledger.db.forget_deleted().await {
        tracing::warn!(error = %e, "erased rows may stay in the database's log until the next checkpoint");
    }
    // The outbox's copies of the mail about them.
    let mut files = 0;
    for (removed, ids) in mailed {
        let outbox = ledger.mail.clone();
        files += tokio::task::spawn_blocking(move || outbox.erase_from_outbox(&removed, &ids))
            .await
            .unwrap_or(0);
    }
    // The card and address their monthly plans kept at Stripe.
    let mut left = 0;
    for (plan, customer) in &erased.stripe_customers {
        let deleted = match &ledger.payments {
            Some(payments) => payments.delete_customer(customer).await,
            None => {
                left += 1;
                continue;
            }
        };
        match deleted {
            Ok(()) => {
                let plan = *plan;
                ledger
                    .db
                    .write(move |tx| erasure::customer_deleted(tx, plan))
                    .await?;
            }
            Err(e) => {
                tracing::error!(plan, error = %e, "could not delete an erased person's Stripe customer");
                left += 1;
            }
        }
    }
    tracing::info!(
        outbox_files = files,
        stripe_customers = erased.stripe_customers.len() - left,
        "a person was erased"
    );
    let mut body = serde_json::to_value(&erased).unwrap_or_default();
    body["mailInFlight"] = serde_json::json!(unstoppable);
    let mut warnings = Vec::new();
    if unstoppable > 0 {
        warnings.push(if unstoppable == 1 {
            "One message to them was already being handed to the mail server and could not be stopped.".to_owned()
        } else {
            format!("{unstoppable} messages to them were already being handed to the mail server and could not be stopped.")
        });
    }
    if left > 0 {
        warnings.push("Their saved card could not be deleted at Stripe yet. Erase them again in a few minutes to try again.".to_owned());
    }
    if !warnings.is_empty() {
        body["warning"] = serde_json::json!(warnings.join(" "));
    }
    Ok(json(StatusCode::OK, &body))
}
