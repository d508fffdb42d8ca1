//! Signing in, its second step, and signing out.
//!
//! `POST /login {email, password}` either signs in (a browser this account used before, or
//! the account's very first sign-in) or opens a challenge the browser answers at
//! `POST /login/verify` (an e-mailed code, an authenticator code or a recovery code) or
//! `POST /login/passkey`. Whatever else the request carries changes nothing.

use std::net::IpAddr;

use serde::Deserialize;
use serde_json::{Value, json};
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{json, success};
use crate::domain::audit::{self, Action, By};
use crate::domain::auth::{Admin, NotChecked};
use crate::domain::clock::sql_time;
use crate::domain::staff::accounts::{self, User};
use crate::domain::staff::notices::{self, From};
use crate::domain::staff::{
    Cap, browser_of, challenges, devices, passkeys, recovery, sessions, totp,
};
use crate::http::error::ApiError;
use crate::http::filters::{client_ip, json_body};
use crate::state::AppState;

/// A password is short; anything longer is not one.
const LOGIN_BODY_LIMIT: u64 = 4 * 1024;
/// A passkey's answer, with room.
const PASSKEY_BODY_LIMIT: u64 = 16 * 1024;

pub const MAIL_DOWN: &str = "E-mail isn't configured on this server. Use your authenticator app, a recovery code, or ask the owner";
const EXPIRED: &str = "That sign-in has expired. Please sign in again.";
const WRONG_CODE: &str = "That code isn't right.";

/// Unknown fields are ignored, not refused: a `skipVerification: true` gets exactly the
/// answer the request without it gets.
#[derive(Deserialize)]
struct Login {
    #[serde(default)]
    email: Option<Value>,
    #[serde(default)]
    password: Option<Value>,
}

#[derive(Deserialize)]
struct Verify {
    #[serde(default)]
    challenge: Option<String>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize)]
struct PasskeyStart {
    #[serde(default)]
    challenge: Option<String>,
}

#[derive(Deserialize)]
struct PasskeyFinish {
    #[serde(default)]
    challenge: Option<String>,
    credential: webauthn_rs::prelude::PublicKeyCredential,
}

/// Where a sign-in request came from.
#[derive(Clone)]
pub(super) struct Caller {
    pub ip: IpAddr,
    pub browser: String,
    pub device: Option<String>,
}

pub(super) fn caller(
    state: &AppState,
) -> impl Filter<Extract = (Caller,), Error = Rejection> + Clone + use<> {
    client_ip(state.config.trust_proxy.clone())
        .and(warp::header::optional::<String>("user-agent"))
        .and(warp::header::optional::<String>("cookie"))
        .map(|ip, agent: Option<String>, cookie: Option<String>| Caller {
            ip,
            browser: browser_of(agent.as_deref()),
            device: devices::from_header(cookie.as_deref()),
        })
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with_state = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let login = warp::path!("login")
        .and(warp::post())
        .and(caller(&state))
        .and(json_body::<Login>(LOGIN_BODY_LIMIT))
        .and(with_state.clone())
        .and_then(|caller, body, state| login(state, caller, body));
    let verify = warp::path!("login" / "verify")
        .and(warp::post())
        .and(caller(&state))
        .and(json_body::<Verify>(LOGIN_BODY_LIMIT))
        .and(with_state.clone())
        .and_then(|caller, body, state| verify(state, caller, body));
    let passkey_options = warp::path!("login" / "passkey" / "options")
        .and(warp::post())
        .and(json_body::<PasskeyStart>(LOGIN_BODY_LIMIT))
        .and(with_state.clone())
        .and_then(|body, state| passkey_options(state, body));
    let passkey = warp::path!("login" / "passkey")
        .and(warp::post())
        .and(caller(&state))
        .and(json_body::<PasskeyFinish>(PASSKEY_BODY_LIMIT))
        .and(with_state.clone())
        .and_then(|caller, body, state| passkey_login(state, caller, body));
    let logout = warp::path!("logout")
        .and(warp::post())
        .and(super::allowed(state.clone(), Cap::Account))
        .and(with_state.clone())
        .and_then(|admin, state| logout(state, admin));
    let me = warp::path!("me")
        .and(warp::get())
        .and(super::allowed(state.clone(), Cap::Account))
        .and(with_state)
        .and_then(|admin: Admin, state: AppState| async move {
            let user = admin.user().unwrap_or_default();
            let me = state.db.read(move |c| me(c, user)).await?;
            Ok::<_, Rejection>(json(StatusCode::OK, &me))
        });
    login
        .or(verify)
        .unify()
        .or(passkey_options)
        .unify()
        .or(passkey)
        .unify()
        .or(logout)
        .unify()
        .or(me)
        .unify()
        .boxed()
}

/// `GET /api/admin/me`: who is signed in and what they may do.
pub(super) fn me(conn: &rusqlite::Connection, user: i64) -> rusqlite::Result<Value> {
    let Some(u) = accounts::by_id(conn, user)? else {
        return Ok(Value::Null);
    };
    let strong = accounts::has_strong_factor(conn, user)?;
    Ok(json!({
        "id": u.id,
        "email": u.email,
        "name": u.name,
        "role": u.role,
        "roleLabel": u.role.label(),
        "capabilities": u.role.capabilities(),
        "strongFactor": strong,
        "mustEnrol": u.role.needs_strong_factor() && !strong,
    }))
}

fn text(value: Option<Value>) -> String {
    match value {
        Some(Value::String(s)) => s,
        _ => String::new(),
    }
}

/// POST /api/admin/login `{email, password}`
async fn login(state: AppState, caller: Caller, body: Login) -> Result<Response, Rejection> {
    let (email, password) = (text(body.email), text(body.password));
    if email.trim().is_empty() {
        return Err(ApiError::BadRequest("Sign in with your e-mail and password".into()).into());
    }
    if password.trim().is_empty() || email.len() > 320 {
        return Err(ApiError::BadRequest("Enter the admin password.".into()).into());
    }
    let user = find_or_seed(&state, &email).await?;
    let ip = caller.ip;
    let auth = state.auth.clone();
    let now = state.clock.now();
    // An account many have guessed at lately takes passwords only from its own browsers.
    // Anyone else is answered as for an address with no account (the decoy hash is checked,
    // and the answer is a wrong password's), so the lock tells nobody who is staff.
    // A browser this account signed in from before checks its password in a lane of its
    // own, so a flood spread over many networks never keeps a staff member out.
    let known = match &user {
        Some(u) => device_known(&state, u.id, caller.device.clone()).await?,
        None => false,
    };
    let locked = match &user {
        Some(u) if !known && auth.account_locked(u.id) => {
            tracing::warn!(%ip, user = u.id, "admin login refused: the account is under a guessing attack");
            true
        }
        _ => false,
    };
    let phc = user
        .as_ref()
        .filter(|u| u.active && !locked)
        .map(|u| u.password_hash.clone());
    let matches = match auth.check_attempt(ip, (phc, known), password).await {
        Ok(matches) => matches,
        Err(NotChecked::LockedOut(seconds)) => {
            tracing::warn!(%ip, "admin login locked out");
            return Err(locked_out(seconds));
        }
        Err(NotChecked::Busy) => {
            tracing::warn!(%ip, "admin login refused: too many password checks waiting");
            return Err(ApiError::RetryAfter {
                message: "Too many sign-in attempts at once. Please try again in a moment.".into(),
                seconds: 5,
            }
            .into());
        }
    };
    let Some(user) = user.clone().filter(|_| matches) else {
        if let Some(u) = user.clone().filter(|u| u.active)
            && auth.account_failed(u.id)
        {
            // Told once, as the lock starts: their own browsers still sign in.
            let (mail, from_ip, browser) =
                (state.mail.clone(), ip.to_string(), caller.browser.clone());
            state
                .db
                .write(move |tx| {
                    let from = From {
                        ip: &from_ip,
                        browser: &browser,
                        at: now,
                    };
                    notices::security(&mail, tx, &u, PASSWORDS_GUESSED, from).map(|_| ())
                })
                .await?;
            state.mail.wake();
        }
        // Counted per address and minute: a flood adds one row a minute, not one an attempt.
        state
            .db
            .write(move |tx| audit::record_failed_login(tx, ip))
            .await?;
        tracing::warn!(%ip, "admin login failed");
        return Err(ApiError::Unauthorized("Invalid e-mail or password".into()).into());
    };
    let id = user.id;
    let (first, strong, has_totp, passkeys, codes_left) = state
        .db
        .read(move |c| {
            let strong = accounts::has_strong_factor(c, id)?;
            Ok((
                !accounts::ever_signed_in(c, id)? && !strong,
                strong,
                totp::has(c, id)?,
                passkeys::of_user(c, id)?.len(),
                recovery::left(c, id)?,
            ))
        })
        .await?;
    if known || first {
        return complete(&state, &user, &caller, !known).await;
    }
    // Too many wrong codes lately: only a passkey will do until they age out.
    let codes_locked = state
        .db
        .read(move |c| challenges::codes_locked(c, id, now))
        .await?;
    if let Some(wait) = codes_locked {
        tracing::warn!(%ip, user = user.id, "second step by code refused: too many wrong codes lately");
        if passkeys == 0 {
            return Err(too_many_codes(wait));
        }
    }
    let codes = codes_locked.is_none();
    let mut methods = Vec::new();
    if passkeys > 0 {
        methods.push("passkey");
    }
    if has_totp && codes {
        methods.push("totp");
    }
    if strong && codes_left > 0 && codes {
        methods.push("recovery");
    }
    let email_code = !strong && codes;
    if email_code {
        if !state.mail.delivers() {
            tracing::warn!(
                user = user.id,
                "a sign-in needs an e-mailed code, and mail is not configured"
            );
            return Err(ApiError::Unavailable(MAIL_DOWN.into()).into());
        }
        methods.push("email");
    }
    let (keys_auth, mail) = (state.auth.clone(), state.mail.clone());
    let (from_ip, browser) = (caller.ip.to_string(), caller.browser.clone());
    let opened = state
        .db
        .write(move |tx| {
            let opened = challenges::open(
                tx,
                &keys_auth.keys,
                user.id,
                email_code,
                &from_ip,
                &browser,
                now,
            )?;
            if let Some(code) = &opened.code {
                let id: i64 = tx.last_insert_rowid();
                let from = From {
                    ip: &from_ip,
                    browser: &browser,
                    at: now,
                };
                notices::sign_in_code(&mail, tx, &user, id, code, from)?;
            }
            Ok(opened)
        })
        .await?;
    if email_code {
        state.mail.wake();
    }
    let message = if email_code {
        "We've sent a 6-digit code to your e-mail. It works for 10 minutes."
    } else {
        "Confirm it's you with your second factor."
    };
    Ok(json(
        StatusCode::OK,
        &json!({
            "success": false,
            "challenge": opened.token,
            "methods": methods,
            "message": message,
        }),
    ))
}

/// What the owner of an account under a guessing attack is told.
const PASSWORDS_GUESSED: &str = "many wrong passwords were tried for your account within 15 minutes. Until they age out, it signs in only from browsers you have signed in from before";

/// What a password holder is told once the account has had too many wrong codes.
fn too_many_codes(seconds: u64) -> Rejection {
    ApiError::RetryAfter {
        message: format!(
            "Too many wrong codes for this account. Sign in with a passkey, or try again in {} minutes.",
            seconds.div_ceil(60)
        ),
        seconds,
    }
    .into()
}

/// The notice the account's owner gets when wrong codes lock its codes out.
fn codes_guessed() -> String {
    format!(
        "{} wrong sign-in codes were entered for your account within 15 minutes, after its password was given: someone may know your password. Until the attempts age out, only a passkey or a browser you signed in from before can sign in. Change your password from the Security page",
        challenges::MAX_WRONG_PER_ACCOUNT
    )
}

fn locked_out(seconds: u64) -> Rejection {
    ApiError::RetryAfter {
        message: format!(
            "Too many failed sign-in attempts. Please try again in {} minutes.",
            seconds.div_ceil(60)
        ),
        seconds,
    }
    .into()
}

/// The account at `email`; on a database with no accounts yet, the configured Owner is made
/// first (the first sign-in after accounts came).
async fn find_or_seed(state: &AppState, email: &str) -> Result<Option<User>, ApiError> {
    let email = email.to_owned();
    let auth = state.auth.clone();
    let now = state.clock.now_sql();
    let found = state
        .db
        .read({
            let email = email.clone();
            move |c| {
                let user = accounts::by_email(c, &email)?;
                let none: bool =
                    c.query_row("SELECT NOT EXISTS (SELECT 1 FROM users)", [], |r| r.get(0))?;
                Ok((user, none))
            }
        })
        .await?;
    match found {
        (user, false) | (user @ Some(_), _) => Ok(user),
        (None, true) => Ok(state
            .db
            .write(move |tx| {
                accounts::seed_owner(tx, &auth.owner_email, &auth.owner_password, &now)?;
                accounts::by_email(tx, &email)
            })
            .await?),
    }
}

async fn device_known(
    state: &AppState,
    user: i64,
    device: Option<String>,
) -> Result<bool, ApiError> {
    let Some(device) = device else {
        return Ok(false);
    };
    let (auth, now) = (state.auth.clone(), state.clock.now());
    Ok(state
        .db
        .read(move |c| devices::known(c, &auth.keys, user, &device, now))
        .await?)
}

/// Signs `user` in: a session row and its token, the audit row, and (`remember`) this
/// browser's device cookie. Answers `{success, token, user}`.
pub(super) async fn complete(
    state: &AppState,
    user: &User,
    caller: &Caller,
    remember: bool,
) -> Result<Response, Rejection> {
    let now = state.clock.now();
    let (token, claims) = state
        .auth
        .issue(user.id, now.as_second())
        .map_err(ApiError::Internal)?;
    let (auth, id, ip, browser) = (
        state.auth.clone(),
        user.id,
        caller.ip,
        caller.browser.clone(),
    );
    let (cookie, me) = state
        .db
        .write(move |tx| {
            let at = sql_time(now);
            sessions::start(
                tx,
                &sessions::New {
                    user: id,
                    jti: &claims.jti,
                    now: &at,
                    expires_at: claims.exp,
                    ip: &ip.to_string(),
                    browser: &browser,
                },
            )?;
            accounts::signed_in(tx, id, &at)?;
            audit::record(tx, Action::Login, None, By::person(ip, id))?;
            let cookie = if remember {
                Some(devices::remember(tx, &auth.keys, id, now)?)
            } else {
                None
            };
            Ok((cookie, me(tx, id)?))
        })
        .await?;
    let mut res = json(
        StatusCode::OK,
        &json!({ "success": true, "token": token, "user": me }),
    );
    if let Some(cookie) = cookie
        && let Ok(value) = devices::set_cookie(&cookie).parse()
    {
        res.headers_mut().insert("set-cookie", value);
    }
    Ok(res)
}

/// POST /api/admin/login/verify `{challenge, method, code}`
async fn verify(state: AppState, caller: Caller, body: Verify) -> Result<Response, Rejection> {
    let token = body.challenge.unwrap_or_default();
    let code = body.code.unwrap_or_default();
    let method = body.method.unwrap_or_default();
    if !matches!(method.as_str(), "email" | "totp" | "recovery") {
        return Err(ApiError::BadRequest(
            "Say which code this is: email, totp or recovery.".into(),
        )
        .into());
    }
    if code.trim().is_empty() || code.len() > 64 {
        return Err(ApiError::BadRequest("Enter the code.".into()).into());
    }
    if token.is_empty() || token.len() > 100 {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    }
    let (auth, mail, now) = (state.auth.clone(), state.mail.clone(), state.clock.now());
    let (from_ip, browser) = (caller.ip.to_string(), caller.browser.clone());
    enum Outcome {
        Gone,
        Wrong { told: bool },
        Locked(u64),
        Right(Box<User>),
    }
    let outcome = state
        .db
        .write(move |tx| {
            let Ok(challenge) = challenges::find(tx, &auth.keys, &token, now)? else {
                return Ok(Outcome::Gone);
            };
            let user = match accounts::by_id(tx, challenge.user)? {
                Some(u) if u.active => u,
                _ => return Ok(Outcome::Gone),
            };
            if let Some(wait) = challenges::codes_locked(tx, user.id, now)? {
                return Ok(Outcome::Locked(wait));
            }
            let right = match method.as_str() {
                "email" => {
                    challenge.emailed
                        && challenges::code_matches(tx, &auth.keys, challenge.id, &code)?
                }
                "totp" => totp::verify(tx, &auth.keys, user.id, &code, now)?,
                _ => {
                    let used = recovery::redeem(tx, &auth.keys, user.id, &code, now)?;
                    if used {
                        let left = recovery::left(tx, user.id)?;
                        let what = format!("a recovery code was used to sign in ({left} left)");
                        let from = From {
                            ip: &from_ip,
                            browser: &browser,
                            at: now,
                        };
                        let by = By::person(caller.ip, user.id);
                        notices::changed(
                            &mail,
                            tx,
                            &user,
                            (from, by),
                            Action::Factor,
                            &what,
                            "recovery code used",
                        )?;
                    }
                    used
                }
            };
            if !right {
                let lately = challenges::wrong(tx, challenge.id, user.id, now)?;
                let told = lately == challenges::MAX_WRONG_PER_ACCOUNT;
                if told {
                    let from = From {
                        ip: &from_ip,
                        browser: &browser,
                        at: now,
                    };
                    notices::security(&mail, tx, &user, &codes_guessed(), from)?;
                }
                return Ok(Outcome::Wrong { told });
            }
            if !challenges::done(tx, challenge.id, now)? {
                return Ok(Outcome::Gone);
            }
            Ok(Outcome::Right(Box::new(user)))
        })
        .await?;
    match outcome {
        Outcome::Gone => Err(ApiError::Gone(EXPIRED.into()).into()),
        Outcome::Wrong { told } => {
            if told {
                state.mail.wake();
            }
            Err(ApiError::Unauthorized(WRONG_CODE.into()).into())
        }
        Outcome::Locked(wait) => Err(too_many_codes(wait)),
        Outcome::Right(user) => {
            state.mail.wake();
            complete(&state, &user, &caller, true).await
        }
    }
}

/// POST /api/admin/login/passkey/options `{challenge}` -> the WebAuthn request options.
async fn passkey_options(state: AppState, body: PasskeyStart) -> Result<Response, Rejection> {
    let token = body.challenge.unwrap_or_default();
    if token.is_empty() || token.len() > 100 {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let found = state
        .db
        .read(move |c| {
            let Ok(challenge) = challenges::find(c, &auth.keys, &token, now)? else {
                return Ok(None);
            };
            let keys: Vec<_> = passkeys::of_user(c, challenge.user)?
                .into_iter()
                .map(|(_, p)| p)
                .collect();
            Ok(Some((challenge.id, keys)))
        })
        .await?;
    let Some((challenge, keys)) = found else {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    };
    if keys.is_empty() {
        return Err(ApiError::BadRequest("This account has no passkey.".into()).into());
    }
    let options = state
        .passkeys
        .start_authentication(challenge, &keys)
        .map_err(passkey_problem)?;
    Ok(json(StatusCode::OK, &options))
}

pub(super) fn passkey_problem(problem: passkeys::Problem) -> Rejection {
    match problem {
        passkeys::Problem::NotAvailable => ApiError::Unavailable(problem.to_string()),
        passkeys::Problem::Expired => ApiError::Gone(problem.to_string()),
        passkeys::Problem::Refused => ApiError::BadRequest(problem.to_string()),
    }
    .into()
}

/// POST /api/admin/login/passkey `{challenge, credential}`
async fn passkey_login(
    state: AppState,
    caller: Caller,
    body: PasskeyFinish,
) -> Result<Response, Rejection> {
    let token = body.challenge.unwrap_or_default();
    if token.is_empty() || token.len() > 100 {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let found = state
        .db
        .read({
            let auth = auth.clone();
            move |c| challenges::find(c, &auth.keys, &token, now)
        })
        .await?;
    let Ok(challenge) = found else {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    };
    let result = state
        .passkeys
        .finish_authentication(challenge.id, &body.credential)
        .map_err(passkey_problem)?;
    let (user_id, challenge_id) = (challenge.user, challenge.id);
    let user = state
        .db
        .write(move |tx| {
            if !passkeys::used(tx, user_id, &result, now)? {
                return Ok(None);
            }
            if !challenges::done(tx, challenge_id, now)? {
                return Ok(None);
            }
            Ok(accounts::by_id(tx, user_id)?.filter(|u| u.active))
        })
        .await?;
    let Some(user) = user else {
        return Err(ApiError::Gone(EXPIRED.into()).into());
    };
    complete(&state, &user, &caller, true).await
}

/// POST /api/admin/logout: this session ends now.
async fn logout(state: AppState, admin: Admin) -> Result<Response, Rejection> {
    let now = state.clock.now_sql();
    state
        .db
        .write(move |tx| {
            sessions::end(tx, &admin.jti, &now)?;
            audit::record(tx, Action::Logout, None, admin.by())
        })
        .await?;
    Ok(success())
}
