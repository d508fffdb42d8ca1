//! `/donate/monthly/cancel/{token}`: the page a monthly gift's cancel link opens, from every
//! receipt and notice, working without signing in and without JavaScript. GET shows one
//! button (mail scanners fetch links and must not cancel anything); its POST cancels at once,
//! says so, mails the donor a confirmation and writes an audit row (actor: donor). The link
//! works until the plan ends; after that it says the gift has ended.

use std::net::IpAddr;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::notice::Links;
use crate::domain::audit::{self, Action};
use crate::domain::donations::monthly::{self, CanceledBy, Plan, Status, day};
use crate::domain::donations::notices::monthly::{self as plan_notices, Notice};
use crate::domain::donations::notices::receipt::usd;
use crate::domain::mail::tokens::Tokens;
use crate::http::filters::client_ip;
use crate::http::proxy::ProxyTrust;

/// A cancel token is an id and 32 hex digits; anything much longer is not one.
const MAX_TOKEN: usize = 100;

pub fn routes(links: Links, trust_proxy: ProxyTrust) -> BoxedFilter<(Response,)> {
    let show = warp::path!("donate" / "monthly" / "cancel" / String)
        .and(warp::get())
        .then({
            let links = links.clone();
            move |token| show(links.clone(), token)
        });
    let cancel = warp::path!("donate" / "monthly" / "cancel" / String)
        .and(warp::post())
        .and(client_ip(trust_proxy))
        .then(move |token, ip| cancel(links.clone(), token, ip));
    show.or(cancel).unify().boxed()
}

/// The plan `token` cancels, if it is a good link.
fn plan_of(
    conn: &rusqlite::Connection,
    tokens: &Tokens,
    token: &str,
) -> rusqlite::Result<Option<Plan>> {
    if token.len() > MAX_TOKEN {
        return Ok(None);
    }
    let Some(id) = Tokens::id_of(token) else {
        return Ok(None);
    };
    Ok(monthly::get(conn, id)?.filter(|plan| {
        plan.status != Status::Pending && tokens.check_plan_cancel(token, plan.id, &plan.email)
    }))
}

/// GET: the plan, and the one button.
async fn show(links: Links, token: String) -> Response {
    let mail = links.mail.clone();
    let t = token.clone();
    let found = links
        .db
        .read(move |c| {
            let Some(plan) = plan_of(c, &mail.tokens, &t)? else {
                return Ok(None);
            };
            let next = monthly::next_date(c, plan.id)?;
            Ok(Some((plan, next)))
        })
        .await;
    let m = &links.mail.texts.monthly;
    match found {
        Ok(Some((plan, _))) if plan.status.ended() => ended(&links).await,
        Ok(Some((plan, next))) => {
            let amount = usd(plan.amount_cents);
            let next_day = next.map(|at| day(at, &links.mail.tz)).unwrap_or_default();
            let values = [("amount", amount.as_str()), ("nextDate", next_day.as_str())];
            let fill = |t: &str| links.mail.fill(t, &values);
            let mut paragraphs = vec![fill(&m.cancel_intro)];
            if next.is_some() {
                paragraphs.push(fill(&m.cancel_next));
            }
            let paragraphs: Vec<&str> = paragraphs.iter().map(String::as_str).collect();
            page(
                &links,
                StatusCode::OK,
                &m.cancel_title,
                &paragraphs,
                Some((&format!("/donate/monthly/cancel/{token}"), &m.cancel_button)),
            )
            .await
        }
        Ok(None) => invalid(&links).await,
        Err(e) => failed(&links, e).await,
    }
}

/// What the POST did.
enum Done {
    Canceled,
    AlreadyEnded,
    Invalid,
}

/// POST: cancels at once.
async fn cancel(links: Links, token: String, ip: IpAddr) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let done = links
        .db
        .write(move |tx| {
            let Some(plan) = plan_of(tx, &mail.tokens, &token)? else {
                return Ok(Done::Invalid);
            };
            let why = "Canceled by the donor from their link";
            if !monthly::cancel(tx, plan.id, CanceledBy::Donor, why, now)? {
                return Ok(Done::AlreadyEnded);
            }
            plan_notices::send(&mail, tx, plan.id, Notice::Canceled, now)?;
            audit::record_donor(
                tx,
                Action::CancelPlan,
                &format!("plan:{}", plan.id),
                ip,
                "by donor",
            )?;
            Ok(Done::Canceled)
        })
        .await;
    let m = &links.mail.texts.monthly;
    match done {
        Ok(Done::Canceled) => {
            links.mail.wake();
            tracing::info!("a monthly gift was canceled by its donor");
            page(
                &links,
                StatusCode::OK,
                &m.canceled_title,
                &[&m.canceled_text],
                None,
            )
            .await
        }
        Ok(Done::AlreadyEnded) => ended(&links).await,
        Ok(Done::Invalid) => invalid(&links).await,
        Err(e) => failed(&links, e).await,
    }
}

async fn ended(links: &Links) -> Response {
    let m = &links.mail.texts.monthly;
    page(
        links,
        StatusCode::GONE,
        &m.ended_title,
        &[&m.ended_text],
        None,
    )
    .await
}

async fn invalid(links: &Links) -> Response {
    let p = &links.mail.texts.pages;
    page(
        links,
        StatusCode::NOT_FOUND,
        &p.invalid_title,
        &[&p.invalid_text],
        None,
    )
    .await
}

async fn failed(links: &Links, e: crate::store::error::Error) -> Response {
    super::notice::failed(&links.mail, &links.dist, "a monthly gift's cancel link", &e).await
}

async fn page(
    links: &Links,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    super::notice::page(&links.mail, &links.dist, status, title, paragraphs, button).await
}
