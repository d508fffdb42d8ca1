//! Staff alerts: each contact message and volunteer signup is mailed to `STAFF_EMAIL`, with
//! `Reply-To` set to the visitor so staff can answer from their mail client. Nothing is
//! ever sent to the visitor: an auto-reply would let anyone mail any text to any address
//! through the form.

use jiff::Timestamp;
use rusqlite::Connection;

use super::Mail;
use super::message::Person;
use super::queue::{self, Kind};

/// A contact message, as the form stored it.
pub struct Contact<'a> {
    pub id: i64,
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub message: &'a str,
}

/// A volunteer signup, as the form stored it.
pub struct Volunteer<'a> {
    pub id: i64,
    pub name: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub zip_code: &'a str,
    pub interests: Option<&'a str>,
}

/// Queues the alert for contact message `c`; call inside the write that stored it.
/// Returns whether one was queued (none without `STAFF_EMAIL`).
pub fn contact(
    mail: &Mail,
    conn: &Connection,
    c: &Contact<'_>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let admin = mail.link("/admin/dashboard");
    let values = [
        ("name", c.name),
        ("email", c.email),
        ("subject", c.subject),
        ("message", c.message),
        ("adminUrl", admin.as_str()),
    ];
    let t = &mail.texts.staff_alert;
    alert(
        mail,
        conn,
        &format!("contact:{}", c.id),
        (c.name, c.email),
        &mail.fill(&t.contact_subject, &values),
        &mail.fill(&t.contact_body, &values),
        now,
    )
}

/// Queues the alert for volunteer signup `v`; call inside the write that stored it.
pub fn volunteer(
    mail: &Mail,
    conn: &Connection,
    v: &Volunteer<'_>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let admin = mail.link("/admin/dashboard?tab=volunteers");
    let values = [
        ("name", v.name),
        ("email", v.email),
        ("phone", v.phone.unwrap_or("—")),
        ("zipCode", v.zip_code),
        ("interests", v.interests.unwrap_or("—")),
        ("adminUrl", admin.as_str()),
    ];
    let t = &mail.texts.staff_alert;
    alert(
        mail,
        conn,
        &format!("volunteer:{}", v.id),
        (v.name, v.email),
        &mail.fill(&t.volunteer_subject, &values),
        &mail.fill(&t.volunteer_body, &values),
        now,
    )
}

fn alert(
    mail: &Mail,
    conn: &Connection,
    event_key: &str,
    (name, email): (&str, &str),
    subject: &str,
    body: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some(staff) = &mail.staff else {
        return Ok(false);
    };
    let staff_email = staff.email.to_string();
    let to = Person {
        name: staff.name.as_deref(),
        email: &staff_email,
    };
    let reply_to = Person {
        name: Some(name),
        email,
    };
    let Some(built) = mail.compose(Kind::StaffAlert, to, Some(reply_to), subject, body, None)
    else {
        return Ok(false);
    };
    queue::enqueue(conn, event_key, Kind::StaffAlert, email, &built, now)
}
