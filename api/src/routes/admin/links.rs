//! The pages staff reach from a mailed link, before they are signed in: an invitation
//! (`POST /invitation` shows it and changes nothing; `/invitation/accept` makes the account
//! and signs in) and a password reset (`POST /password-reset` asks for the link, with the
//! same answer for every address; `/check` and `/complete` use it). Tokens travel in the
//! body, never the address, so no log holds one.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::security::busy;
use super::session::{Caller, complete};
use super::{json, success};
use crate::domain::audit::{self, Action, By};
use crate::domain::staff::accounts;
use crate::domain::staff::notices;
use crate::domain::staff::{challenges, devices, links, password_problem, sessions};
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

const BODY_LIMIT: u64 = 4 * 1024;
pub const INVITATION_GONE: &str = "Ask the owner for a new invitation";
pub const RESET_GONE: &str = "This link has expired. Ask for a new one.";
pub const RESET_SENT: &str =
    "If that address belongs to a staff account, a link to reset its password is on its way.";
/// Every reset request answers after at least this long, known address or not, so the
/// time taken says nothing about who has an account.
const RESET_ANSWER_TIME: Duration = Duration::from_millis(400);

#[derive(Deserialize)]
struct Token {
    #[serde(default)]
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Accept {
    token: String,
    #[serde(default)]
    name: String,
    password: String,
}

#[derive(Deserialize)]
struct ResetRequest {
    #[serde(default)]
    email: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResetComplete {
    token: String,
    password: String,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let show = warp::path!("invitation")
        .and(warp::post())
        .and(json_body::<Token>(BODY_LIMIT))
        .and(with.clone())
        .and_then(show_invitation);
    let accept = warp::path!("invitation" / "accept")
        .and(warp::post())
        .and(super::session::caller(&state))
        .and(json_body::<Accept>(BODY_LIMIT))
        .and(with.clone())
        .and_then(accept);
    let ask = warp::path!("password-reset")
        .and(warp::post())
        .and(crate::http::filters::client_ip(
            state.config.trust_proxy.clone(),
        ))
        .and(json_body::<ResetRequest>(BODY_LIMIT))
        .and(with.clone())
        .and_then(ask_reset);
    let check = warp::path!("password-reset" / "check")
        .and(warp::post())
        .and(json_body::<Token>(BODY_LIMIT))
        .and(with.clone())
        .and_then(check_reset);
    let reset = warp::path!("password-reset" / "complete")
        .and(warp::post())
        .and(super::session::caller(&state))
        .and(json_body::<ResetComplete>(BODY_LIMIT))
        .and(with)
        .and_then(complete_reset);
    show.or(accept)
        .unify()
        .or(ask)
        .unify()
        .or(check)
        .unify()
        .or(reset)
        .unify()
        .boxed()
}

fn usable(token: &str) -> bool {
    !token.is_empty() && token.len() <= 100
}

/// POST /api/admin/invitation `{token}` -> `{email, name, role, roleLabel}`; changes nothing.
async fn show_invitation(body: Token, state: AppState) -> Result<Response, Rejection> {
    if !usable(&body.token) {
        return Err(ApiError::Gone(INVITATION_GONE.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let found = state
        .db
        .read(move |c| links::open_invitation(c, &auth.keys, &body.token, now))
        .await?;
    let Some(inv) = found else {
        return Err(ApiError::Gone(INVITATION_GONE.into()).into());
    };
    Ok(json(
        StatusCode::OK,
        &json!({ "email": inv.email, "name": inv.name, "role": inv.role, "roleLabel": inv.role.label() }),
    ))
}

/// POST /api/admin/invitation/accept `{token, name, password}`: the account is made and
/// this browser signed in (the link came by e-mail, so it is the e-mailed check too).
async fn accept(caller: Caller, body: Accept, state: AppState) -> Result<Response, Rejection> {
    if !usable(&body.token) {
        return Err(ApiError::Gone(INVITATION_GONE.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let token = body.token.clone();
    let found = state
        .db
        .read(move |c| links::open_invitation(c, &auth.keys, &token, now))
        .await?;
    let Some(inv) = found else {
        return Err(ApiError::Gone(INVITATION_GONE.into()).into());
    };
    let name = if body.name.trim().is_empty() {
        inv.name.clone()
    } else {
        body.name.trim().to_owned()
    };
    if name.chars().count() > 100 {
        return Err(ApiError::BadRequest("The name can be at most 100 characters.".into()).into());
    }
    if let Some(problem) = password_problem(&body.password, &inv.email, &name) {
        return Err(ApiError::BadRequest(problem).into());
    }
    let hash = state.auth.hash_new(body.password).await.map_err(busy)?;
    let ip = caller.ip;
    let made = state
        .db
        .write(move |tx| {
            // Used in the same write that makes the account: a second click gets 410.
            if !links::use_invitation(tx, inv.id, now)? {
                return Ok(None);
            }
            let at = crate::domain::clock::sql_time(now);
            let Some(id) = accounts::create(tx, &inv.email, &name, inv.role, &hash, &at)? else {
                return Ok(None);
            };
            audit::record(
                tx,
                Action::InviteAccept,
                Some(&format!("invitation:{}", inv.id)),
                By::person(ip, id),
            )?;
            accounts::by_id(tx, id)
        })
        .await?;
    let Some(user) = made else {
        return Err(ApiError::Gone(INVITATION_GONE.into()).into());
    };
    complete(&state, &user, &caller, true).await
}

/// The form limiter's name for reset requests: counted per network, like the forms.
const RESET_FORM: &str = "password-reset";

/// POST /api/admin/password-reset `{email}`: the same answer, after the same time, for
/// every address. A network that asks too often gets 429 whatever address it names; an
/// account mailed [`links::RESETS_PER_WINDOW`] links lately gets no more, answered alike.
async fn ask_reset(
    ip: std::net::IpAddr,
    body: ResetRequest,
    state: AppState,
) -> Result<Response, Rejection> {
    let started = tokio::time::Instant::now();
    let email = body.email.trim().to_lowercase();
    if email.is_empty() || email.len() > 320 {
        return Err(ApiError::BadRequest("Enter your e-mail address.".into()).into());
    }
    if !state.form_limiter.allow(RESET_FORM, ip) {
        tracing::warn!(%ip, "password reset requests limited");
        return Err(ApiError::TooManyRequests.into());
    }
    let (auth, mail, now) = (state.auth.clone(), state.mail.clone(), state.clock.now());
    let sent = state
        .db
        .write(move |tx| {
            let Some(user) = accounts::by_email(tx, &email)?.filter(|u| u.active) else {
                return Ok(false);
            };
            if !links::reset_allowed(tx, user.id, now)? {
                tracing::warn!(
                    user = user.id,
                    "a reset link was asked for too often; none sent"
                );
                return Ok(false);
            }
            let token = links::reset(tx, &auth.keys, user.id, now)?;
            notices::reset(&mail, tx, &user, &token, now)
        })
        .await;
    match sent {
        Ok(true) => state.mail.wake(),
        Ok(false) => {}
        // Logged, and answered like every other request: the answer must not differ.
        Err(e) => tracing::error!(error = %e, "a password reset could not be recorded"),
    }
    tokio::time::sleep_until(started + RESET_ANSWER_TIME).await;
    Ok(json(
        StatusCode::OK,
        &json!({ "success": true, "message": RESET_SENT }),
    ))
}

/// POST /api/admin/password-reset/check `{token}`
async fn check_reset(body: Token, state: AppState) -> Result<Response, Rejection> {
    if !usable(&body.token) {
        return Err(ApiError::Gone(RESET_GONE.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let open = state
        .db
        .read(move |c| links::open_reset(c, &auth.keys, &body.token, now))
        .await?;
    match open {
        Some(_) => Ok(success()),
        None => Err(ApiError::Gone(RESET_GONE.into()).into()),
    }
}

/// POST /api/admin/password-reset/complete `{token, password}`: the new password, every
/// session of the user ended; their second factor is still asked at the next sign-in.
async fn complete_reset(
    caller: Caller,
    body: ResetComplete,
    state: AppState,
) -> Result<Response, Rejection> {
    if !usable(&body.token) {
        return Err(ApiError::Gone(RESET_GONE.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let token = body.token.clone();
    let open = state
        .db
        .read(move |c| {
            let Some((reset, user)) = links::open_reset(c, &auth.keys, &token, now)? else {
                return Ok(None);
            };
            Ok(accounts::by_id(c, user)?.map(|u| (reset, u)))
        })
        .await?;
    let Some((reset, user)) = open else {
        return Err(ApiError::Gone(RESET_GONE.into()).into());
    };
    if let Some(problem) = password_problem(&body.password, &user.email, &user.name) {
        return Err(ApiError::BadRequest(problem).into());
    }
    let hash = state.auth.hash_new(body.password).await.map_err(busy)?;
    let mail = state.mail.clone();
    let (ip, browser) = (caller.ip.to_string(), caller.browser.clone());
    let done = state
        .db
        .write(move |tx| {
            if !links::use_reset(tx, reset, now)? {
                return Ok(false);
            }
            accounts::set_password(tx, user.id, &hash)?;
            sessions::end_all(tx, user.id, None, &crate::domain::clock::sql_time(now))?;
            devices::forget_all(tx, user.id)?;
            challenges::void_all(tx, user.id, now)?;
            let from = notices::From {
                ip: &ip,
                browser: &browser,
                at: now,
            };
            let by = By::person(caller.ip, user.id);
            notices::changed(
                &mail,
                tx,
                &user,
                (from, by),
                Action::PasswordReset,
                "your password was reset from a link sent to you (every session was signed out)",
                "password reset from a mailed link",
            )?;
            Ok(true)
        })
        .await?;
    if !done {
        return Err(ApiError::Gone(RESET_GONE.into()).into());
    }
    state.mail.wake();
    Ok(success())
}
