//! What the `/donate/card` page calls: a monthly donor whose card was declined saves another,
//! from the signed link mailed to them (no sign-in).
//!
//! - `POST /api/monthly/card {token}` → the plan as the page shows it and a SetupIntent's
//!   `clientSecret`, for Stripe's Payment Element to save a card to the plan's customer;
//! - `POST /api/monthly/card/saved {token, setupIntent}` → once Stripe says the card is
//!   saved, the plan takes it: a plan that was retrying or inactive is active again and the
//!   gift that was due is charged to the new card at once (the annual limit checked first);
//!   the answer says what happened.
//!
//! Setting up a card is limited per address and per donor like a payment setup (card
//! testing). The same new card arriving by Stripe's `setup_intent.succeeded` event changes
//! nothing more (see `stripe_webhook`).

use std::net::IpAddr;
use std::sync::Arc;

use serde_json::{Value, json};
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::domain::clock::sql_time;
use crate::domain::donations::Ledger;
use crate::domain::donations::monthly::charge::{self, Charger, Outcome};
use crate::domain::donations::monthly::{self, Plan, Status};
use crate::domain::donations::store;
use crate::domain::mail::tokens::{Confirm, Tokens};
use crate::http::error::ApiError;
use crate::http::filters::{client_ip, json_body, same_origin};
use crate::http::rate_limit::{DONATION_WINDOW, DonationLimiter};
use crate::state::AppState;

const BODY_LIMIT: u64 = 4 * 1024;

#[derive(Clone)]
struct Cards {
    ledger: Ledger,
    limiter: Arc<DonationLimiter>,
    charger: Charger,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let trust_proxy = state.config.trust_proxy.clone();
    let cards = Cards {
        ledger: state.ledger(),
        limiter: state.donation_limiter.clone(),
        charger: state.charger.clone(),
    };
    let setup = warp::path!("monthly" / "card")
        .and(warp::post())
        .and(same_origin(trust_proxy.clone()))
        .and(client_ip(trust_proxy.clone()))
        .and(json_body::<Value>(BODY_LIMIT))
        .and_then({
            let cards = cards.clone();
            move |ip, body| setup(cards.clone(), ip, body)
        });
    let saved = warp::path!("monthly" / "card" / "saved")
        .and(warp::post())
        .and(same_origin(trust_proxy))
        .and(json_body::<Value>(BODY_LIMIT))
        .and_then(move |body| saved(cards.clone(), body));
    setup
        .or(saved)
        .unify()
        .with(warp::reply::with::header("cache-control", "no-store"))
        .map(Reply::into_response)
        .boxed()
}

/// The body's fields, none other.
fn fields<'a>(
    body: &'a Value,
    allowed: &[&str],
) -> Result<&'a serde_json::Map<String, Value>, ApiError> {
    let object = body
        .as_object()
        .ok_or_else(|| ApiError::BadRequest("The request body must be a JSON object.".into()))?;
    if let Some(unknown) = object.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(ApiError::BadRequest(format!("Unknown field {unknown:?}.")));
    }
    Ok(object)
}

/// The plan the card link `token` is for, if it is good now.
async fn plan_of(cards: &Cards, token: &str) -> Result<Plan, ApiError> {
    let invalid = || ApiError::NotFound("This link is not valid.".into());
    if token.len() > 200 {
        return Err(invalid());
    }
    let id = Tokens::id_of(token).ok_or_else(invalid)?;
    let plan = cards
        .ledger
        .db
        .read(move |c| monthly::get(c, id))
        .await?
        .filter(|p| p.status != Status::Pending)
        .ok_or_else(invalid)?;
    match cards.ledger.mail.tokens.check_plan_card(
        token,
        plan.id,
        &plan.email,
        cards.ledger.clock.now(),
    ) {
        Confirm::Valid => {}
        Confirm::Expired => return Err(ApiError::Gone("This link has expired.".into())),
        Confirm::Invalid => return Err(invalid()),
    }
    if plan.status.ended() {
        return Err(ApiError::Gone("This monthly gift has ended.".into()));
    }
    Ok(plan)
}

fn token_of(object: &serde_json::Map<String, Value>) -> Result<String, ApiError> {
    object
        .get("token")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ApiError::BadRequest("The link's token is missing.".into()))
}

/// The gift of plan `plan`'s due charge, if it was tried and not paid (a decline): what a
/// new card pays first.
async fn owed(cards: &Cards, plan: &Plan) -> Result<Option<i64>, ApiError> {
    let (id, n) = (plan.id, plan.next_charge);
    cards
        .ledger
        .db
        .read(move |c| store::unpaid_charge(c, id, n))
        .await
        .map_err(ApiError::from)
}

/// The plan as the page shows it: its amount, whether a charge waits for a card (and when
/// it was due), and the next date.
async fn describe(cards: &Cards, plan: &Plan) -> Result<Value, ApiError> {
    let id = plan.id;
    let next = cards
        .ledger
        .db
        .read(move |c| monthly::next_date(c, id))
        .await?;
    let tz = cards.ledger.site.tz();
    let waiting = owed(cards, plan).await?.is_some();
    Ok(json!({
        "amount": crate::routes::admin::dollars(plan.amount_cents),
        "status": plan.status.as_str(),
        "waiting": waiting,
        "dueAt": waiting.then(|| sql_time(monthly::due_at(plan.anchor, plan.next_charge, &tz))),
        "nextAt": next.map(sql_time),
    }))
}

/// POST /api/monthly/card `{token}` → `{plan, clientSecret}`.
async fn setup(cards: Cards, ip: IpAddr, body: Value) -> Result<Response, Rejection> {
    let object = fields(&body, &["token"])?;
    let token = token_of(object)?;
    // The link first: a stranger learns nothing about the site's payments from a bad one.
    let plan = plan_of(&cards, &token).await?;
    let payments = cards
        .ledger
        .payments
        .clone()
        .ok_or_else(|| ApiError::Unavailable(generator::donations::TEXTS.unavailable.into()))?;
    if !cards.limiter.allow_setup(ip) {
        tracing::warn!(%ip, "card setups over the limit");
        return Err(ApiError::RetryAfter {
            message: "Too many attempts. Please wait a few minutes and try again.".into(),
            seconds: DONATION_WINDOW.as_secs(),
        }
        .into());
    }
    let Some(customer) = plan.customer.clone() else {
        return Err(ApiError::Conflict("This monthly gift has no card to replace.".into()).into());
    };
    let key = format!(
        "plan-card-{}-{}",
        plan.id,
        cards.ledger.clock.now().as_millisecond()
    );
    let setup = payments
        .create_setup_intent(&customer, plan.id, &key)
        .await
        .map_err(|e| {
            tracing::error!(plan = plan.id, error = %e, "could not set up a new card at Stripe");
            ApiError::BadGateway(generator::donations::TEXTS.setup_failed.description.into())
        })?;
    let Some(client_secret) = setup.client_secret else {
        return Err(
            ApiError::BadGateway(generator::donations::TEXTS.no_client_secret.into()).into(),
        );
    };
    let described = describe(&cards, &plan).await?;
    Ok(
        warp::reply::json(&json!({ "plan": described, "clientSecret": client_secret }))
            .into_response(),
    )
}

/// POST /api/monthly/card/saved `{token, setupIntent}` → `{outcome, plan}`: `charged` (the
/// gift that was due was paid with the new card), `declined`, `paused` (it would pass the
/// year's limit) or `saved` (nothing was due).
async fn saved(cards: Cards, body: Value) -> Result<Response, Rejection> {
    let object = fields(&body, &["token", "setupIntent"])?;
    let token = token_of(object)?;
    let setup_id = object
        .get("setupIntent")
        .and_then(Value::as_str)
        .filter(|id| id.len() <= 255 && id.starts_with("seti_"))
        .ok_or_else(|| ApiError::BadRequest("setupIntent must be Stripe's SetupIntent id.".into()))?
        .to_owned();
    // The link first: a stranger learns nothing about the site's payments from a bad one.
    let plan = plan_of(&cards, &token).await?;
    let payments = cards
        .ledger
        .payments
        .clone()
        .ok_or_else(|| ApiError::Unavailable(generator::donations::TEXTS.unavailable.into()))?;
    let setup = payments.setup_intent(&setup_id).await.map_err(|e| {
        tracing::warn!(plan = plan.id, error = %e, "could not read a SetupIntent from Stripe");
        ApiError::NotFound("Stripe does not know this card setup.".into())
    })?;
    if setup.plan_id != Some(plan.id) || setup.customer != plan.customer {
        return Err(
            ApiError::BadRequest("This card setup is not for this monthly gift.".into()).into(),
        );
    }
    let Some(payment_method) = setup.payment_method.filter(|_| setup.succeeded) else {
        return Err(ApiError::Conflict("The card has not been saved yet.".into()).into());
    };
    let (id, customer, now) = (plan.id, plan.customer.clone(), cards.ledger.clock.now());
    // What was owed before this card (Stripe's event may have given the plan the card
    // already, but it never charges).
    let owed = owed(&cards, &plan).await?;
    cards
        .ledger
        .db
        .write(move |tx| charge::new_card(tx, id, customer.as_deref(), &payment_method, now))
        .await?;
    tracing::info!(plan = id, "a monthly donor saved another card");
    let outcome = match cards.charger.run_one(id).await {
        Outcome::Paid { .. } => "charged",
        Outcome::Declined { .. } => "declined",
        Outcome::Paused => "paused",
        Outcome::NotDue | Outcome::Later { .. } => {
            // The server's own pass may have got there first.
            let paid = match owed {
                Some(gift) => {
                    cards
                        .ledger
                        .db
                        .read(move |c| store::is_completed(c, gift))
                        .await?
                }
                None => false,
            };
            if paid { "charged" } else { "saved" }
        }
    };
    let plan = cards
        .ledger
        .db
        .read(move |c| monthly::get(c, id))
        .await?
        .ok_or_else(|| ApiError::NotFound("This link is not valid.".into()))?;
    let described = describe(&cards, &plan).await?;
    Ok(warp::reply::json(&json!({ "outcome": outcome, "plan": described })).into_response())
}
