//! `/api/admin/security/*`: a person's own second factors, password and sessions
//! (capability `account`, which every role holds). Each change mails the person one
//! security notice and adds an audit row, in the write that makes it.

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::session::{Caller, passkey_problem};
use super::{json, success};
use crate::domain::audit::Action;
use crate::domain::auth::{Admin, NotChecked};
use crate::domain::staff::accounts::{self, User};
use crate::domain::staff::notices::{self, From};
use crate::domain::staff::{
    Cap, challenges, devices, links, passkeys, password_problem, recovery, sessions, totp,
};
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};
use crate::state::AppState;

const BODY_LIMIT: u64 = 4 * 1024;
const PASSKEY_BODY_LIMIT: u64 = 16 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Code {
    code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPasskey {
    name: String,
    credential: webauthn_rs::prelude::RegisterPublicKeyCredential,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Proof {
    password: String,
}

/// What a factor change without a recent proof of the password is told.
pub const PROVE_FIRST: &str = "Enter your password again to change how you sign in.";

/// Refuses a change to how `admin` signs in unless their session signed in or proved its
/// password within the last few minutes (`sessions::PROOF_LIFETIME`).
async fn recently_proved(state: &AppState, admin: &Admin) -> Result<(), ApiError> {
    let session = admin
        .session()
        .ok_or_else(|| ApiError::Forbidden("Only a person can do this.".into()))?;
    let now = state.clock.now();
    let proved = state
        .db
        .read(move |c| sessions::recently_proved(c, session, now))
        .await?;
    if proved {
        Ok(())
    } else {
        Err(ApiError::Reauth(PROVE_FIRST.into()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    current: String,
    password: String,
}

/// The person signed in, read fresh (a service token never holds `account`).
async fn me(state: &AppState, admin: &Admin) -> Result<User, ApiError> {
    let id = admin
        .user()
        .ok_or_else(|| ApiError::Forbidden("Only a person can do this.".into()))?;
    state
        .db
        .read(move |c| accounts::by_id(c, id))
        .await?
        .ok_or_else(|| ApiError::Unauthorized("You have signed out. Please sign in again.".into()))
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let signed_in = super::allowed(state.clone(), Cap::Account)
        .and(super::session::caller(&state))
        .and(with);
    let overview = warp::path!("security")
        .and(warp::get())
        .and(signed_in.clone())
        .and_then(overview);
    let totp_start = warp::path!("security" / "totp")
        .and(warp::post())
        .and(signed_in.clone())
        .and_then(totp_start);
    let totp_confirm = warp::path!("security" / "totp" / "confirm")
        .and(warp::post())
        .and(signed_in.clone())
        .and(json_body::<Code>(BODY_LIMIT))
        .and_then(totp_confirm);
    let totp_remove = warp::path!("security" / "totp")
        .and(warp::delete())
        .and(signed_in.clone())
        .and_then(totp_remove);
    let codes = warp::path!("security" / "recovery-codes")
        .and(warp::post())
        .and(signed_in.clone())
        .and_then(new_codes);
    let passkey_options = warp::path!("security" / "passkeys" / "options")
        .and(warp::post())
        .and(signed_in.clone())
        .and_then(passkey_options);
    let passkey_add = warp::path!("security" / "passkeys")
        .and(warp::post())
        .and(signed_in.clone())
        .and(json_body::<NewPasskey>(PASSKEY_BODY_LIMIT))
        .and_then(passkey_add);
    let passkey_remove = warp::path!("security" / "passkeys" / String)
        .and(warp::delete())
        .and(signed_in.clone())
        .and_then(passkey_remove);
    let password = warp::path!("security" / "password")
        .and(warp::post())
        .and(signed_in.clone())
        .and(json_body::<NewPassword>(BODY_LIMIT))
        .and_then(change_password);
    let prove = warp::path!("security" / "confirm")
        .and(warp::post())
        .and(signed_in.clone())
        .and(json_body::<Proof>(BODY_LIMIT))
        .and_then(prove);
    let everywhere = warp::path!("security" / "sign-out-everywhere")
        .and(warp::post())
        .and(signed_in)
        .and_then(sign_out_everywhere);
    overview
        .or(totp_start)
        .unify()
        .or(totp_confirm)
        .unify()
        .or(totp_remove)
        .unify()
        .or(codes)
        .unify()
        .or(passkey_options)
        .unify()
        .or(passkey_add)
        .unify()
        .or(passkey_remove)
        .unify()
        .or(password)
        .unify()
        .or(prove)
        .unify()
        .or(everywhere)
        .unify()
        .boxed()
}

/// The notice and the audit row every change here writes.
fn noted(
    state: &AppState,
    tx: &rusqlite::Connection,
    user: &User,
    admin: &Admin,
    caller: &Caller,
    action: Action,
    what: &str,
) -> rusqlite::Result<()> {
    let ip = caller.ip.to_string();
    let from = From {
        ip: &ip,
        browser: &caller.browser,
        at: state.clock.now(),
    };
    notices::changed(
        &state.mail,
        tx,
        user,
        (from, admin.by()),
        action,
        what,
        what,
    )
}

/// GET /api/admin/security
async fn overview(admin: Admin, _caller: Caller, state: AppState) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    let (current, now) = (admin.session(), state.clock.now().as_second());
    let body = state
        .db
        .read(move |c| {
            Ok(json!({
                "totp": totp::has(c, user.id)?,
                "recoveryCodesLeft": recovery::left(c, user.id)?,
                "passkeys": passkeys::list(c, user.id)?,
                "sessions": sessions::list(c, user.id, current, now)?,
                "strongFactorRequired": user.role.needs_strong_factor(),
            }))
        })
        .await?;
    Ok(json(StatusCode::OK, &body))
}

/// POST /api/admin/security/totp: a new secret to scan, not active until confirmed.
async fn totp_start(admin: Admin, _caller: Caller, state: AppState) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let (auth, issuer) = (state.auth.clone(), state.site.name.clone());
    let enrolment = state
        .db
        .write(move |tx| totp::begin(tx, &auth.keys, user.id, &issuer, &user.email))
        .await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "secret": enrolment.secret, "uri": enrolment.uri, "qrSvg": enrolment.qr_svg }),
    ))
}

/// POST /api/admin/security/totp/confirm `{code}` -> the recovery codes, shown once.
async fn totp_confirm(
    admin: Admin,
    caller: Caller,
    state: AppState,
    body: Code,
) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let (auth, now, st) = (state.auth.clone(), state.clock.now(), state.clone());
    let codes = state
        .db
        .write(move |tx| {
            if !totp::confirm(tx, &auth.keys, user.id, &body.code, now)? {
                return Ok(None);
            }
            let codes = recovery::regenerate(tx, &auth.keys, user.id)?;
            noted(
                &st,
                tx,
                &user,
                &admin,
                &caller,
                Action::Factor,
                "an authenticator app was added",
            )?;
            Ok(Some(codes))
        })
        .await?;
    let Some(codes) = codes else {
        return Err(ApiError::BadRequest(
            "That code isn't right. Check the time on your phone and try the newest code.".into(),
        )
        .into());
    };
    state.mail.wake();
    Ok(json(StatusCode::OK, &json!({ "recoveryCodes": codes })))
}

/// Refuses to take away `user`'s last strong factor when their role needs one.
fn keeps_a_strong_factor(tx: &rusqlite::Connection, user: &User) -> rusqlite::Result<bool> {
    Ok(!user.role.needs_strong_factor() || accounts::strong_factors(tx, user.id)? > 1)
}

fn last_factor(role: crate::domain::staff::Role) -> Rejection {
    ApiError::Conflict(format!(
        "Your role ({}) requires an authenticator app or a passkey: add another before you remove this one.",
        role.label()
    ))
    .into()
}

/// DELETE /api/admin/security/totp
async fn totp_remove(admin: Admin, caller: Caller, state: AppState) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let (st, role) = (state.clone(), user.role);
    let outcome = state
        .db
        .write(move |tx| {
            if !totp::has(tx, user.id)? {
                return Ok(Removed::Nothing);
            }
            if !keeps_a_strong_factor(tx, &user)? {
                return Ok(Removed::Refused);
            }
            totp::remove(tx, user.id)?;
            recovery::forget_without_strong_factor(tx, user.id)?;
            noted(
                &st,
                tx,
                &user,
                &admin,
                &caller,
                Action::Factor,
                "the authenticator app was removed",
            )?;
            Ok(Removed::Done)
        })
        .await?;
    removed(
        &state,
        outcome,
        role,
        "There is no authenticator app to remove.",
    )
}

enum Removed {
    Nothing,
    Refused,
    Done,
}

fn removed(
    state: &AppState,
    outcome: Removed,
    role: crate::domain::staff::Role,
    nothing: &str,
) -> Result<Response, Rejection> {
    match outcome {
        Removed::Nothing => Err(ApiError::NotFound(nothing.into()).into()),
        Removed::Refused => Err(last_factor(role)),
        Removed::Done => {
            state.mail.wake();
            Ok(success())
        }
    }
}

/// POST /api/admin/security/recovery-codes: a new set; the old one stops working.
async fn new_codes(admin: Admin, caller: Caller, state: AppState) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let (auth, st) = (state.auth.clone(), state.clone());
    let codes = state
        .db
        .write(move |tx| {
            if !accounts::has_strong_factor(tx, user.id)? {
                return Ok(None);
            }
            let codes = recovery::regenerate(tx, &auth.keys, user.id)?;
            noted(
                &st,
                tx,
                &user,
                &admin,
                &caller,
                Action::Factor,
                "new recovery codes were made (the old ones no longer work)",
            )?;
            Ok(Some(codes))
        })
        .await?;
    let Some(codes) = codes else {
        return Err(ApiError::Conflict(
            "Recovery codes go with an authenticator app or a passkey: add one first.".into(),
        )
        .into());
    };
    state.mail.wake();
    Ok(json(StatusCode::OK, &json!({ "recoveryCodes": codes })))
}

/// POST /api/admin/security/passkeys/options: the browser's options to make a passkey.
async fn passkey_options(
    admin: Admin,
    _caller: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let id = user.id;
    let existing: Vec<_> = state
        .db
        .read(move |c| passkeys::of_user(c, id))
        .await?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let options = state
        .passkeys
        .start_registration(user.id, &user.email, &user.name, existing)
        .map_err(passkey_problem)?;
    Ok(json(StatusCode::OK, &options))
}

/// POST /api/admin/security/passkeys `{name, credential}`
async fn passkey_add(
    admin: Admin,
    caller: Caller,
    state: AppState,
    body: NewPasskey,
) -> Result<Response, Rejection> {
    let name = body.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(ApiError::BadRequest(
            "Give the passkey a name of up to 60 characters, such as \"Work laptop\".".into(),
        )
        .into());
    }
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let passkey = state
        .passkeys
        .finish_registration(user.id, &body.credential)
        .map_err(passkey_problem)?;
    let (st, now) = (state.clone(), state.clock.now());
    let added = state
        .db
        .write(move |tx| {
            let Some(id) = passkeys::add(tx, user.id, &name, &passkey, now)? else {
                return Ok(None);
            };
            let what = format!("a passkey was added (\"{name}\")");
            noted(&st, tx, &user, &admin, &caller, Action::Factor, &what)?;
            Ok(Some((id, name)))
        })
        .await?;
    let Some((id, name)) = added else {
        return Err(ApiError::Conflict("That passkey is registered already.".into()).into());
    };
    state.mail.wake();
    Ok(json(
        StatusCode::CREATED,
        &json!({ "id": id, "name": name }),
    ))
}

/// DELETE /api/admin/security/passkeys/{id}
async fn passkey_remove(
    id: String,
    admin: Admin,
    caller: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    let user = me(&state, &admin).await?;
    recently_proved(&state, &admin).await?;
    let (st, role) = (state.clone(), user.role);
    let outcome = state
        .db
        .write(move |tx| {
            let mine = passkeys::list(tx, user.id)?;
            let Some(key) = mine.iter().find(|p| p.id == id) else {
                return Ok(Removed::Nothing);
            };
            if !keeps_a_strong_factor(tx, &user)? {
                return Ok(Removed::Refused);
            }
            let what = format!("a passkey was removed (\"{}\")", key.name);
            passkeys::remove(tx, user.id, id)?;
            recovery::forget_without_strong_factor(tx, user.id)?;
            noted(&st, tx, &user, &admin, &caller, Action::Factor, &what)?;
            Ok(Removed::Done)
        })
        .await?;
    removed(&state, outcome, role, "There is no such passkey.")
}

/// POST /api/admin/security/password `{current, password}`: ends the person's other sessions.
async fn change_password(
    admin: Admin,
    caller: Caller,
    state: AppState,
    body: NewPassword,
) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    if body.current.is_empty() || body.current.len() > 1024 {
        return Err(ApiError::BadRequest("Enter your current password.".into()).into());
    }
    if let Some(problem) = password_problem(&body.password, &user.email, &user.name) {
        return Err(ApiError::BadRequest(problem).into());
    }
    let right = state
        .auth
        .check_attempt(
            caller.ip,
            (Some(user.password_hash.clone()), true),
            body.current,
        )
        .await
        .map_err(busy)?;
    if !right {
        return Err(ApiError::BadRequest("Your current password isn't right.".into()).into());
    }
    let hash = state.auth.hash_new(body.password).await.map_err(busy)?;
    let (st, now) = (state.clone(), state.clock.now());
    state
        .db
        .write(move |tx| {
            let at = crate::domain::clock::sql_time(now);
            accounts::set_password(tx, user.id, &hash)?;
            sessions::end_all(tx, user.id, admin.session(), &at)?;
            // A new password means the old one may be known: no browser skips the second
            // step on the strength of having signed in with it.
            devices::forget_all(tx, user.id)?;
            links::void_for_user(tx, user.id, now)?;
            challenges::void_all(tx, user.id, now)?;
            noted(
                &st,
                tx,
                &user,
                &admin,
                &caller,
                Action::PasswordChange,
                "your password was changed (your other sessions were signed out, and every browser asks for your second step again)",
            )
        })
        .await?;
    state.mail.wake();
    Ok(success())
}

pub(super) fn busy(why: NotChecked) -> Rejection {
    match why {
        NotChecked::LockedOut(seconds) => ApiError::RetryAfter {
            message: format!(
                "Too many failed attempts. Please try again in {} minutes.",
                seconds.div_ceil(60)
            ),
            seconds,
        },
        NotChecked::Busy => ApiError::RetryAfter {
            message: "The server is busy. Please try again in a moment.".into(),
            seconds: 5,
        },
    }
    .into()
}

/// POST /api/admin/security/confirm `{password}`: this session proves its password again,
/// for the next few minutes of changes to how its person signs in.
async fn prove(
    admin: Admin,
    caller: Caller,
    state: AppState,
    body: Proof,
) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    if body.password.is_empty() || body.password.len() > 1024 {
        return Err(ApiError::BadRequest("Enter your password.".into()).into());
    }
    let right = state
        .auth
        .check_attempt(
            caller.ip,
            (Some(user.password_hash.clone()), true),
            body.password,
        )
        .await
        .map_err(busy)?;
    if !right {
        return Err(ApiError::BadRequest("That password isn't right.".into()).into());
    }
    let (session, now) = (admin.session().unwrap_or_default(), state.clock.now());
    state
        .db
        .write(move |tx| sessions::proved(tx, session, now))
        .await?;
    Ok(success())
}

/// POST /api/admin/security/sign-out-everywhere: every session of mine ends, this one too.
async fn sign_out_everywhere(
    admin: Admin,
    _caller: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let user = me(&state, &admin).await?;
    let now = state.clock.now_sql();
    state
        .db
        .write(move |tx| sessions::end_everywhere(tx, user.id, admin.by(), &now))
        .await?;
    Ok(success())
}
