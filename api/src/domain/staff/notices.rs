//! What staff are mailed about their own account, through the mail queue in the write that
//! makes the change: the sign-in code, an invitation, a reset link, and a security notice
//! (a factor added or removed, a recovery code used, the password or role changed, factors
//! reset): exactly one message each.

use jiff::Timestamp;
use rusqlite::Connection;

use super::accounts::User;
use crate::domain::audit::{self, Action, By};
use crate::domain::mail::Mail;
use crate::domain::mail::message::Person;
use crate::domain::mail::queue::{self, Kind};

/// Where and when an action came from, as a notice tells it.
#[derive(Debug, Clone, Copy)]
pub struct From<'a> {
    pub ip: &'a str,
    pub browser: &'a str,
    pub at: Timestamp,
}

fn when(mail: &Mail, at: Timestamp) -> String {
    at.to_zoned_datetime(mail.tz.clone())
        .strftime("%A, %B %-d, %Y at %-I:%M %p %Z")
        .to_string()
}

fn greeting(user: &User) -> &str {
    if user.name.is_empty() {
        &user.email
    } else {
        &user.name
    }
}

/// One message to one staff member.
struct Outgoing<'a> {
    /// The event it is about: an event mails once.
    event_key: &'a str,
    to_name: &'a str,
    to: &'a str,
    subject: String,
    body: String,
}

fn send(mail: &Mail, conn: &Connection, m: Outgoing<'_>, now: Timestamp) -> rusqlite::Result<bool> {
    let person = Person {
        name: (!m.to_name.is_empty()).then_some(m.to_name),
        email: m.to,
    };
    let Some(built) = mail.compose(Kind::StaffSecurity, person, None, &m.subject, &m.body, None)
    else {
        return Ok(false);
    };
    queue::enqueue(conn, m.event_key, Kind::StaffSecurity, m.to, &built, now)
}

/// The 6-digit code for sign-in `challenge`.
pub fn sign_in_code(
    mail: &Mail,
    conn: &Connection,
    user: &User,
    challenge: i64,
    code: &str,
    from: From<'_>,
) -> rusqlite::Result<bool> {
    let time = when(mail, from.at);
    let values = [
        ("name", greeting(user)),
        ("code", code),
        ("browser", from.browser),
        ("ip", from.ip),
        ("time", time.as_str()),
    ];
    let t = &mail.texts.staff;
    send(
        mail,
        conn,
        Outgoing {
            event_key: &format!("staff-code:{challenge}"),
            to_name: &user.name,
            to: &user.email,
            subject: mail.fill(&t.code_subject, &values),
            body: mail.fill(&t.code_body, &values),
        },
        from.at,
    )
}

pub struct Invitation<'a> {
    pub id: i64,
    pub email: &'a str,
    pub name: &'a str,
    pub role: &'a str,
    pub inviter: &'a str,
    pub token: &'a str,
    pub expires: Timestamp,
}

/// The invitation's link (`/admin/invite#token`: the token stays out of every log).
pub fn invitation(
    mail: &Mail,
    conn: &Connection,
    inv: &Invitation<'_>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let link = mail.link(&format!("/admin/invite#{}", inv.token));
    let expires = when(mail, inv.expires);
    let name = if inv.name.is_empty() {
        inv.email
    } else {
        inv.name
    };
    let values = [
        ("name", name),
        ("inviter", inv.inviter),
        ("role", inv.role),
        ("link", link.as_str()),
        ("expires", expires.as_str()),
    ];
    let t = &mail.texts.staff;
    // Each link is its own event: a resent invitation mails again.
    let key = format!("staff-invite:{}:{}", inv.id, &inv.token[..12]);
    send(
        mail,
        conn,
        Outgoing {
            event_key: &key,
            to_name: inv.name,
            to: inv.email,
            subject: mail.fill(&t.invite_subject, &values),
            body: mail.fill(&t.invite_body, &values),
        },
        now,
    )
}

/// A password reset link.
pub fn reset(
    mail: &Mail,
    conn: &Connection,
    user: &User,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let link = mail.link(&format!("/admin/reset#{token}"));
    let values = [("name", greeting(user)), ("link", link.as_str())];
    let t = &mail.texts.staff;
    send(
        mail,
        conn,
        Outgoing {
            event_key: &format!("staff-reset:{}", &token[..12]),
            to_name: &user.name,
            to: &user.email,
            subject: mail.fill(&t.reset_subject, &values),
            body: mail.fill(&t.reset_body, &values),
        },
        now,
    )
}

/// A change to `user`'s sign-in, told as every such change must be: one security notice to
/// them (`what` happened, when, from which browser and address) and one audit row naming
/// who made it, with `detail` for the log.
pub fn changed(
    mail: &Mail,
    tx: &Connection,
    user: &User,
    (from, by): (From<'_>, By),
    action: Action,
    what: &str,
    detail: &str,
) -> rusqlite::Result<()> {
    security(mail, tx, user, what, from)?;
    audit::record_detailed(tx, action, &format!("user:{}", user.id), Some(by), detail)
}

/// A security notice to `user`: `what` happened ("an authenticator app was added").
pub fn security(
    mail: &Mail,
    conn: &Connection,
    user: &User,
    what: &str,
    from: From<'_>,
) -> rusqlite::Result<bool> {
    let time = when(mail, from.at);
    let security = mail.link("/admin/security");
    let values = [
        ("name", greeting(user)),
        ("what", what),
        ("time", time.as_str()),
        ("ip", from.ip),
        ("browser", from.browser),
        ("securityUrl", security.as_str()),
    ];
    let t = &mail.texts.staff;
    send(
        mail,
        conn,
        Outgoing {
            event_key: &format!("staff-notice:{}:{:032x}", user.id, rand::random::<u128>()),
            to_name: &user.name,
            to: &user.email,
            subject: mail.fill(&t.notice_subject, &values),
            body: mail.fill(&t.notice_body, &values),
        },
        from.at,
    )
}
