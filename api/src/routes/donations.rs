//! What the donate page calls: its run-time settings, a donor's status for the year, and
//! setting up a payment. Every rule the page applies is applied here again (a visitor can
//! skip the page).
//!
//! What someone gave is told only to a browser holding that donor's pass (see
//! [`crate::domain::donations::donor_pass`]), earned by opening the link in one of their receipts: the
//! summary answers anyone else "unknown", and a set-up's answer depends only on what it sends.
//! The year's limit is held when a payment succeeds (`donations::hold_to_limit`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use generator::donations::{self as rules, TEXTS};
use generator::forms::is_valid_email;
use serde_json::{Value, json};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::domain::donations;
use crate::domain::donations::Ledger;
use crate::domain::donations::donor_pass::{self, DonorPasses};
use crate::domain::donations::setup::{self, SetUpError};
use crate::http::error::ApiError;
use crate::http::filters::{client_ip, json_body, same_origin};
use crate::http::rate_limit::{DONATION_WINDOW, DonationLimiter};
use crate::http::redact::email as masked;
use crate::state::AppState;

/// A donation body is a few hundred bytes; this leaves room for long addresses in any script.
const BODY_LIMIT: u64 = 16 * 1024;

/// What the donation routes use: the money's parts, the per-address limits, and donors' passes.
#[derive(Clone)]
struct Gifts {
    ledger: Ledger,
    limiter: Arc<DonationLimiter>,
    passes: Arc<DonorPasses>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let trust_proxy = state.config.trust_proxy.clone();
    let gifts = Gifts {
        ledger: state.ledger(),
        limiter: state.donation_limiter.clone(),
        passes: state.donor_passes.clone(),
    };
    let settings = warp::path!("donations" / "config").and(warp::get()).map({
        let gifts = gifts.clone();
        move || settings(&gifts)
    });
    let summary = warp::path!("donations" / "summary")
        .and(warp::get())
        .and(client_ip(trust_proxy.clone()))
        .and(warp::query::<HashMap<String, String>>())
        .and(warp::header::optional::<String>(PASS_HEADER))
        .and_then({
            let gifts = gifts.clone();
            move |ip, query, pass| summary(gifts.clone(), ip, query, pass)
        });
    let pass = warp::path!("donations" / "pass")
        .and(warp::post())
        .and(same_origin(trust_proxy.clone()))
        .and(client_ip(trust_proxy.clone()))
        .and(json_body::<Value>(BODY_LIMIT))
        .and_then({
            let gifts = gifts.clone();
            move |ip, body| pass(gifts.clone(), ip, body)
        });
    let create = warp::path!("create-payment-intent")
        .and(warp::post())
        .and(same_origin(trust_proxy.clone()))
        .and(client_ip(trust_proxy.clone()))
        .and(warp::header::optional::<String>(PASS_HEADER))
        .and(json_body::<Value>(BODY_LIMIT))
        .and_then(move |ip, pass, body| create(gifts.clone(), ip, pass, body));
    settings
        .or(summary)
        .unify()
        .or(pass)
        .unify()
        .or(create)
        .unify()
        // A donor's totals and the keys change at any time; nothing here may be cached.
        .with(warp::reply::with::header("cache-control", "no-store"))
        .map(Reply::into_response)
        .boxed()
}

/// GET /api/donations/config: `{publishableKey}`, or `null` when payments are off. Read at
/// run time, so rotating Stripe's keys needs no rebuild of the page.
fn settings(gifts: &Gifts) -> Response {
    let key = gifts
        .ledger
        .payments
        .as_ref()
        .map(|p| p.config.publishable_key.clone());
    warp::reply::json(&json!({ "publishableKey": key })).into_response()
}

/// Where the page shows its donor pass.
const PASS_HEADER: &str = "x-donor-pass";

/// Dollars, as the page reads them: a number with at most two decimals.
fn dollars(cents: i64) -> Value {
    json!(cents as f64 / 100.0)
}

/// GET /api/donations/summary?email&year → `{completed, remaining, pending}` in dollars, to a
/// browser holding the donor's pass; to anyone else all three are `null` (unknown), whether
/// or not the address ever gave.
async fn summary(
    gifts: Gifts,
    ip: IpAddr,
    query: HashMap<String, String>,
    pass: Option<String>,
) -> Result<Response, Rejection> {
    let email = query
        .get("email")
        .map(|e| e.trim().to_lowercase())
        .filter(|e| is_valid_email(e))
        .ok_or_else(|| ApiError::BadRequest("Please enter a valid email address.".into()))?;
    let this_year = donations::current_year(&gifts.ledger.site);
    let rules = &gifts.ledger.site.donations;
    let year = query
        .get("year")
        .and_then(|y| y.trim().parse::<i16>().ok())
        .filter(|y| *y <= this_year + 1)
        .and_then(|y| rules.limit_cents(y).map(|limit| (y, limit)));
    let Some((year, limit)) = year else {
        let first = rules
            .annual_limits
            .keys()
            .next()
            .copied()
            .unwrap_or_default();
        return Err(ApiError::BadRequest(format!(
            "The year must be a calendar year from {first} to {}.",
            this_year + 1
        ))
        .into());
    };
    if !gifts.limiter.allow_lookup(ip) {
        tracing::warn!(%ip, "donation status lookups over the limit");
        return Err(too_many("Too many donation status checks. Please wait a few minutes.").into());
    }
    let now = gifts.ledger.clock.now();
    let shown = gifts.passes.pass_epoch(pass.as_deref(), &email, now);
    let key = gifts
        .ledger
        .mail
        .tokens
        .key_of(donor_pass::KEY_PURPOSE, &email);
    let lookup = email.clone();
    let totals = gifts
        .ledger
        .db
        .read(move |c| {
            // A pass of an earlier epoch was signed out: it shows nothing.
            if shown.is_none() || shown != Some(donor_pass::epoch(c, &key)?) {
                return Ok(None);
            }
            donations::summary(c, &lookup, year, now)
        })
        .await?;
    let Some(totals) = totals else {
        return Ok(warp::reply::json(&json!({
            "completed": null, "pending": null, "remaining": null,
        }))
        .into_response());
    };
    // It reveals what someone gave: keep a trace of who asked about whom.
    tracing::info!(%ip, email = %masked(&email), year, "donation status looked up");
    Ok(warp::reply::json(&json!({
        "completed": dollars(totals.completed),
        "pending": dollars(totals.pending),
        // Unpaid set-ups (anyone's) use up nothing: only what was paid and kept counts.
        "remaining": dollars((limit - totals.completed).max(0)),
    }))
    .into_response())
}

fn too_many(message: &str) -> ApiError {
    ApiError::RetryAfter {
        message: message.into(),
        seconds: DONATION_WINDOW.as_secs(),
    }
}

/// POST /api/donations/pass, with one of:
/// - `{link}`, the token of a receipt's history link → `{pass, email}`: the donor's pass for
///   this browser, if the link is signed, unexpired and of the donor's current epoch (400
///   otherwise: expired, signed out, or not a link);
/// - `{ticket}`, what a payment set-up gave, from the page Stripe returns to → `{paid: true}`
///   once that gift is paid (completing it now if Stripe says so before its event), 409
///   while it is not, or is still processing. A ticket earns no pass: anyone can pay in
///   anyone's name.
async fn pass(gifts: Gifts, ip: IpAddr, body: Value) -> Result<Response, Rejection> {
    let now = gifts.ledger.clock.now();
    if !gifts.limiter.allow_lookup(ip) {
        return Err(too_many("Too many donation status checks. Please wait a few minutes.").into());
    }
    if let Some(link) = body.get("link") {
        let opened = link
            .as_str()
            .filter(|l| l.len() <= 2048)
            .and_then(|l| gifts.ledger.mail.tokens.open_donor_history(l, now));
        let refused = || {
            ApiError::BadRequest(
                "This link has expired or was signed out. The link in your next receipt will work."
                    .into(),
            )
        };
        let Some((email, epoch)) = opened else {
            return Err(refused().into());
        };
        let key = gifts
            .ledger
            .mail
            .tokens
            .key_of(donor_pass::KEY_PURPOSE, &email);
        let current = gifts
            .ledger
            .db
            .read(move |c| donor_pass::epoch(c, &key))
            .await?;
        if current != epoch {
            return Err(refused().into());
        }
        tracing::info!(%ip, email = %masked(&email), "a donor's history link was opened");
        let pass = gifts.passes.pass(&email, epoch, now);
        return Ok(warp::reply::json(&json!({ "pass": pass, "email": email })).into_response());
    }
    let ticket = body
        .get("ticket")
        .and_then(Value::as_str)
        .and_then(|t| gifts.passes.open_ticket(t, now));
    let Some((gift, _)) = ticket else {
        return Err(ApiError::BadRequest("This receipt is not valid.".into()).into());
    };
    let paid = setup::paid_on_return(&gifts.ledger, gift).await?;
    if !paid {
        return Err(ApiError::Conflict("The payment has not gone through yet.".into()).into());
    }
    Ok(warp::reply::json(&json!({ "paid": true })).into_response())
}

/// POST /api/create-payment-intent `{amount, donorInfo, frequency?}` → `{clientSecret,
/// ticket}`: the gift set up ([`setup::set_up`]), or refused with the spec's sentence.
/// `"frequency": "monthly"` starts a plan.
async fn create(
    gifts: Gifts,
    ip: IpAddr,
    pass: Option<String>,
    body: Value,
) -> Result<Response, Rejection> {
    let donation = rules::parse(&body).map_err(ApiError::from)?;
    let payments = gifts
        .ledger
        .payments
        .clone()
        .ok_or_else(|| ApiError::Unavailable(TEXTS.unavailable.into()))?;
    if !gifts.limiter.allow_setup(ip) {
        tracing::warn!(%ip, "payment setups over the limit");
        return Err(too_many(
            "Too many payment attempts. Please wait a few minutes and try again.",
        )
        .into());
    }
    let now = gifts.ledger.clock.now();
    let shown = gifts
        .passes
        .pass_epoch(pass.as_deref(), &donation.donor.email, now);
    let set_up = setup::set_up(&gifts.ledger, &payments, &donation, shown)
        .await
        .map_err(|e| match e {
            SetUpError::Refused(refused) => ApiError::from(refused),
            SetUpError::Failed => ApiError::BadGateway(TEXTS.setup_failed.description.into()),
            SetUpError::Store(e) => ApiError::from(e),
        })?;
    // A decline of this payment counts against the network that set it up.
    gifts.limiter.set_up(set_up.donation_id, ip);
    let ticket = gifts
        .passes
        .ticket(set_up.donation_id, &donation.donor.email, now);
    Ok(warp::reply::with_status(
        warp::reply::json(&json!({ "clientSecret": set_up.client_secret, "ticket": ticket })),
        StatusCode::OK,
    )
    .into_response())
}
