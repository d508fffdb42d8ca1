//! Staff alerts: each contact message and volunteer signup is mailed to `STAFF_EMAIL`, with
//! `Reply-To` set to the visitor so staff can answer from their mail client. Nothing is
//! ever sent to the visitor: an auto-reply would let anyone mail any text to any address
//! through the form. (Alerts about money, a dispute or a failed refund, are in
//! [`super::money_alerts`].)

use jiff::Timestamp;
use rusqlite::Connection;

use super::Mail;
use super::message::{Built, Person};
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
    // What the visitor wrote is set apart as a quote: it is their words, not the site's.
    let message = super::message::quoted(c.message);
    let values = [
        ("name", c.name),
        ("email", c.email),
        ("subject", c.subject),
        ("message", message.as_str()),
        ("adminUrl", admin.as_str()),
    ];
    let t = &mail.texts.staff_alert;
    alert(
        mail,
        conn,
        &Alert {
            event_key: &format!("contact:{}", c.id),
            about: c.email,
            reply_to: Some((c.name, c.email)),
            subject: &mail.fill(&t.contact_subject, &values),
            body: &mail.fill(&t.contact_body, &values),
        },
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
        &Alert {
            event_key: &format!("volunteer:{}", v.id),
            about: v.email,
            reply_to: Some((v.name, v.email)),
            subject: &mail.fill(&t.volunteer_subject, &values),
            body: &mail.fill(&t.volunteer_body, &values),
        },
        now,
    )
}

/// One alert to `STAFF_EMAIL`.
pub struct Alert<'a> {
    /// The event it is about: an event alerts once.
    pub event_key: &'a str,
    /// The person it is about (so erasing them removes it).
    pub about: &'a str,
    /// Who a reply goes to (name, address), when there is someone to answer.
    pub reply_to: Option<(&'a str, &'a str)>,
    pub subject: &'a str,
    pub body: &'a str,
}

/// Queues `alert`; none without `STAFF_EMAIL`. Call inside the write of its event.
pub fn alert(
    mail: &Mail,
    conn: &Connection,
    alert: &Alert<'_>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some(built) = built(mail, alert) else {
        return Ok(false);
    };
    queue::enqueue(
        conn,
        alert.event_key,
        Kind::StaffAlert,
        alert.about,
        &built,
        now,
    )
}

/// `alert` as the message to staff, to queue in a write of its own (with
/// [`queue::enqueue`]); `None` without `STAFF_EMAIL`.
pub fn built(mail: &Mail, alert: &Alert<'_>) -> Option<Built> {
    let staff = mail.staff.as_ref()?;
    let staff_email = staff.email.to_string();
    let to = Person {
        name: staff.name.as_deref(),
        email: &staff_email,
    };
    let reply_to = alert.reply_to.map(|(name, email)| Person {
        name: Some(name),
        email,
    });
    mail.compose(
        Kind::StaffAlert,
        to,
        reply_to,
        alert.subject,
        alert.body,
        None,
    )
}
