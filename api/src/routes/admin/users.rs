//! `/api/admin/users` and `/api/admin/invitations`: the Users screen (capability
//! `users.manage`; resetting another's factors `users.reset_factors`; anything about an
//! Owner `owners.manage`). Nobody grants a role above their own or changes their own, and
//! the last active Owner can be neither demoted nor deactivated (`409`).

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::session::Caller;
use super::{json, success};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::clock::sql_time;
use crate::domain::staff::accounts::{self, User};
use crate::domain::staff::notices::{self, From};
use crate::domain::staff::{Cap, Role, challenges, links, sessions};
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};
use crate::state::AppState;
use generator::forms::is_valid_email;

const BODY_LIMIT: u64 = 4 * 1024;
pub const LAST_OWNER: &str = "The party needs at least one active Owner.";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Invite {
    email: String,
    #[serde(default)]
    name: String,
    role: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoleChange {
    role: String,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let may = |cap| {
        super::allowed(state.clone(), cap)
            .and(super::session::caller(&state))
            .and(with.clone())
    };
    let list = warp::path!("users")
        .and(warp::get())
        .and(may(Cap::UsersManage))
        .and_then(list);
    let invite = warp::path!("invitations")
        .and(warp::post())
        .and(may(Cap::UsersManage))
        .and(json_body::<Invite>(BODY_LIMIT))
        .and_then(invite);
    let resend = warp::path!("invitations" / String / "resend")
        .and(warp::post())
        .and(may(Cap::UsersManage))
        .and_then(resend);
    let revoke = warp::path!("invitations" / String)
        .and(warp::delete())
        .and(may(Cap::UsersManage))
        .and_then(revoke);
    let role = warp::path!("users" / String)
        .and(warp::patch())
        .and(may(Cap::UsersManage))
        .and(json_body::<RoleChange>(BODY_LIMIT))
        .and_then(change_role);
    let deactivate = warp::path!("users" / String / "deactivate")
        .and(warp::post())
        .and(may(Cap::UsersManage))
        .and_then(|id, a, c, s| set_active(id, a, c, s, false));
    let reactivate = warp::path!("users" / String / "reactivate")
        .and(warp::post())
        .and(may(Cap::UsersManage))
        .and_then(|id, a, c, s| set_active(id, a, c, s, true));
    let reset = warp::path!("users" / String / "reset-factors")
        .and(warp::post())
        .and(may(Cap::UsersResetFactors))
        .and_then(reset_factors);
    let user_sessions = warp::path!("users" / String / "sessions")
        .and(warp::get())
        .and(may(Cap::UsersManage))
        .and_then(user_sessions);
    let sign_out = warp::path!("users" / String / "sign-out-everywhere")
        .and(warp::post())
        .and(may(Cap::UsersManage))
        .and_then(sign_out_user);
    list.or(invite)
        .unify()
        .or(resend)
        .unify()
        .or(revoke)
        .unify()
        .or(role)
        .unify()
        .or(deactivate)
        .unify()
        .or(reactivate)
        .unify()
        .or(reset)
        .unify()
        .or(user_sessions)
        .unify()
        .or(sign_out)
        .unify()
        .boxed()
}

/// GET /api/admin/users -> `{users, invitations}`
async fn list(_admin: Admin, _c: Caller, state: AppState) -> Result<Response, Rejection> {
    let now = state.clock.now();
    let body = state
        .db
        .read(move |c| {
            Ok(json!({ "users": accounts::list(c)?, "invitations": links::pending(c, now)? }))
        })
        .await?;
    Ok(json(StatusCode::OK, &body))
}

fn parse_role(raw: &str) -> Result<Role, ApiError> {
    Role::parse(raw.trim()).ok_or_else(|| {
        ApiError::BadRequest(
            "Choose a role: owner, administrator, treasurer, organizer, editor, author or contributor."
                .into(),
        )
    })
}

/// Whether `admin` may give or take away `role`.
fn may_grant(admin: &Admin, role: Role) -> Result<(), ApiError> {
    let mine = admin
        .role()
        .ok_or_else(|| ApiError::Forbidden("Only a person can do this.".into()))?;
    if mine.may_grant(role) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "Your role ({}) can't give or take away the {} role.",
            mine.label(),
            role.label()
        )))
    }
}

fn name_of(user: &User) -> &str {
    if user.name.is_empty() {
        &user.email
    } else {
        &user.name
    }
}

/// POST /api/admin/invitations `{email, name, role}` -> `201 {id}`
async fn invite(
    admin: Admin,
    _c: Caller,
    state: AppState,
    body: Invite,
) -> Result<Response, Rejection> {
    let email = body.email.trim().to_lowercase();
    if !is_valid_email(&email) {
        return Err(ApiError::BadRequest("Enter a valid e-mail address.".into()).into());
    }
    let name = body.name.trim().to_owned();
    if name.chars().count() > 100 {
        return Err(ApiError::BadRequest("The name can be at most 100 characters.".into()).into());
    }
    let role = parse_role(&body.role)?;
    may_grant(&admin, role)?;
    let inviter_id = admin.user().unwrap_or_default();
    let (auth, mail, now) = (state.auth.clone(), state.mail.clone(), state.clock.now());
    let id = state
        .db
        .write(move |tx| {
            if accounts::by_email(tx, &email)?.is_some() {
                return Ok(None);
            }
            let inviter = accounts::by_id(tx, inviter_id)?;
            let inviter = inviter
                .as_ref()
                .map(name_of)
                .unwrap_or("The owner")
                .to_owned();
            let (id, token) = links::invite(tx, &auth.keys, &email, &name, role, inviter_id, now)?;
            notices::invitation(
                &mail,
                tx,
                &notices::Invitation {
                    id,
                    email: &email,
                    name: &name,
                    role: role.label(),
                    inviter: &inviter,
                    token: &token,
                    expires: now + links::INVITATION_LIFETIME,
                },
                now,
            )?;
            audit::record_detailed(
                tx,
                Action::Invite,
                &format!("invitation:{id}"),
                Some(admin.by()),
                &format!("{email} as {}", role.label()),
            )?;
            Ok(Some(id))
        })
        .await?;
    let Some(id) = id else {
        return Err(
            ApiError::Conflict("Someone with that e-mail already has an account.".into()).into(),
        );
    };
    state.mail.wake();
    Ok(json(StatusCode::CREATED, &json!({ "id": id })))
}

/// POST /api/admin/invitations/{id}/resend: a new link; the old one stops working.
async fn resend(
    id: String,
    admin: Admin,
    _c: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    let role = state
        .db
        .read(move |c| links::invitation_role(c, id))
        .await?;
    let Some(role) = role else {
        return Err(ApiError::NotFound("There is no open invitation with that id.".into()).into());
    };
    may_grant(&admin, role)?;
    let inviter_id = admin.user().unwrap_or_default();
    let (auth, mail, now) = (state.auth.clone(), state.mail.clone(), state.clock.now());
    let sent = state
        .db
        .write(move |tx| {
            let Some((inv, token)) = links::renew(tx, &auth.keys, id, now)? else {
                return Ok(false);
            };
            let inviter = accounts::by_id(tx, inviter_id)?;
            let inviter = inviter
                .as_ref()
                .map(name_of)
                .unwrap_or("The owner")
                .to_owned();
            notices::invitation(
                &mail,
                tx,
                &notices::Invitation {
                    id,
                    email: &inv.email,
                    name: &inv.name,
                    role: inv.role.label(),
                    inviter: &inviter,
                    token: &token,
                    expires: now + links::INVITATION_LIFETIME,
                },
                now,
            )?;
            audit::record(
                tx,
                Action::InviteResend,
                Some(&format!("invitation:{id}")),
                admin.by(),
            )?;
            Ok(true)
        })
        .await?;
    if !sent {
        return Err(ApiError::NotFound("There is no open invitation with that id.".into()).into());
    }
    state.mail.wake();
    Ok(success())
}

/// DELETE /api/admin/invitations/{id}
async fn revoke(
    id: String,
    admin: Admin,
    _c: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    let role = state
        .db
        .read(move |c| links::invitation_role(c, id))
        .await?;
    let Some(role) = role else {
        return Err(ApiError::NotFound("There is no open invitation with that id.".into()).into());
    };
    may_grant(&admin, role)?;
    let now = state.clock.now();
    state
        .db
        .write(move |tx| {
            if links::revoke_invitation(tx, id, now)? {
                audit::record(
                    tx,
                    Action::InviteRevoke,
                    Some(&format!("invitation:{id}")),
                    admin.by(),
                )?;
            }
            Ok(())
        })
        .await?;
    Ok(success())
}

/// The user `raw` names, who is not the caller.
async fn other_user(state: &AppState, admin: &Admin, raw: &str) -> Result<User, ApiError> {
    let id = parse_id(raw)?;
    if admin.user() == Some(id) {
        return Err(ApiError::Forbidden(
            "You can't change your own account here: ask another Owner or Administrator.".into(),
        ));
    }
    state
        .db
        .read(move |c| accounts::by_id(c, id))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("There is no user {id}.")))
}

fn notice_from(caller: &Caller, at: jiff::Timestamp) -> (String, String, jiff::Timestamp) {
    (caller.ip.to_string(), caller.browser.clone(), at)
}

/// PATCH /api/admin/users/{id} `{role}`
async fn change_role(
    id: String,
    admin: Admin,
    caller: Caller,
    state: AppState,
    body: RoleChange,
) -> Result<Response, Rejection> {
    let role = parse_role(&body.role)?;
    let user = other_user(&state, &admin, &id).await?;
    may_grant(&admin, user.role)?;
    may_grant(&admin, role)?;
    let (mail, (ip, browser, now)) = (state.mail.clone(), notice_from(&caller, state.clock.now()));
    let changed = state
        .db
        .write(move |tx| {
            if user.role == Role::Owner
                && role != Role::Owner
                && accounts::other_active_owners(tx, user.id)? == 0
            {
                return Ok(false);
            }
            accounts::set_role(tx, user.id, role)?;
            let what = format!(
                "your role changed from {} to {}",
                user.role.label(),
                role.label()
            );
            let from = From {
                ip: &ip,
                browser: &browser,
                at: now,
            };
            let detail = format!("{} -> {}", user.role.label(), role.label());
            notices::changed(
                &mail,
                tx,
                &user,
                (from, admin.by()),
                Action::RoleChange,
                &what,
                &detail,
            )?;
            Ok(true)
        })
        .await?;
    if !changed {
        return Err(ApiError::Conflict(LAST_OWNER.into()).into());
    }
    state.mail.wake();
    Ok(success())
}

/// POST /api/admin/users/{id}/deactivate (and reactivate). Deactivating ends the user's
/// sessions at once and voids their links; their posts keep their byline.
async fn set_active(
    id: String,
    admin: Admin,
    _caller: Caller,
    state: AppState,
    active: bool,
) -> Result<Response, Rejection> {
    // Deactivating oneself is allowed (someone leaving), but never for the last Owner.
    let user = if !active && admin.user() == Some(parse_id(&id)?) {
        let own = parse_id(&id)?;
        state
            .db
            .read(move |c| accounts::by_id(c, own))
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("There is no user {own}.")))?
    } else {
        other_user(&state, &admin, &id).await?
    };
    may_grant(&admin, user.role)?;
    let now = state.clock.now();
    let done = state
        .db
        .write(move |tx| {
            if !active
                && user.role == Role::Owner
                && user.active
                && accounts::other_active_owners(tx, user.id)? == 0
            {
                return Ok(false);
            }
            accounts::set_active(tx, user.id, active)?;
            if !active {
                sessions::end_all(tx, user.id, None, &sql_time(now))?;
                links::void_for_user(tx, user.id, now)?;
                challenges::void_all(tx, user.id, now)?;
            }
            let action = if active {
                Action::Reactivate
            } else {
                Action::Deactivate
            };
            audit::record(tx, action, Some(&format!("user:{}", user.id)), admin.by())?;
            Ok(true)
        })
        .await?;
    if !done {
        return Err(ApiError::Conflict(LAST_OWNER.into()).into());
    }
    Ok(success())
}

/// POST /api/admin/users/{id}/reset-factors: the user signs in next with an e-mailed code
/// and enrols again.
async fn reset_factors(
    id: String,
    admin: Admin,
    caller: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let user = other_user(&state, &admin, &id).await?;
    let (mail, (ip, browser, now)) = (state.mail.clone(), notice_from(&caller, state.clock.now()));
    state
        .db
        .write(move |tx| {
            accounts::reset_factors(tx, user.id)?;
            sessions::end_all(tx, user.id, None, &sql_time(now))?;
            challenges::void_all(tx, user.id, now)?;
            let from = From {
                ip: &ip,
                browser: &browser,
                at: now,
            };
            notices::changed(
                &mail,
                tx,
                &user,
                (from, admin.by()),
                Action::Factor,
                "an Owner reset your second factors: sign in with your password and set them up again",
                "factors reset",
            )
        })
        .await?;
    state.mail.wake();
    Ok(success())
}

/// GET /api/admin/users/{id}/sessions: where someone is signed in. Only for a role that may
/// manage theirs (an Administrator does not see an Owner's), and one's own are on the
/// Security page.
async fn user_sessions(
    id: String,
    admin: Admin,
    _c: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let user = other_user(&state, &admin, &id).await?;
    may_grant(&admin, user.role)?;
    let id = user.id;
    let now = state.clock.now().as_second();
    let list = state
        .db
        .read(move |c| sessions::list(c, id, None, now))
        .await?;
    Ok(json(StatusCode::OK, &json!({ "sessions": list })))
}

/// POST /api/admin/users/{id}/sign-out-everywhere
async fn sign_out_user(
    id: String,
    admin: Admin,
    _c: Caller,
    state: AppState,
) -> Result<Response, Rejection> {
    let user = other_user(&state, &admin, &id).await?;
    may_grant(&admin, user.role)?;
    let now = state.clock.now_sql();
    state
        .db
        .write(move |tx| sessions::end_everywhere(tx, user.id, admin.by(), &now))
        .await?;
    Ok(success())
}
