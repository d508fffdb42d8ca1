//! What the site writes about a donor's monthly gift, each queued once in the write that
//! decided it: a note on each of its receipts (the next date and the cancel link), a decline
//! that will be tried again (with a link to give another card), the plan stopping, pausing at
//! the year's limit (to the donor and to staff), its cancellation, and the request for
//! occupation and employer once a charge takes the donor past $200 without them.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension};

use crate::domain::donations::monthly::{self as plans, day};
use crate::domain::mail::message::Person;
use crate::domain::mail::queue::{self, Kind};
use crate::domain::mail::staff_alert::{Alert, alert};
use crate::domain::mail::{Mail, usd};

/// How long the link to give another card works.
pub const CARD_LINK_LIFE: SignedDuration = SignedDuration::from_hours(24 * 30);

/// The donor of a plan, as its sign-up gift gave them.
struct Donor {
    name: String,
    email: String,
    cents: i64,
}

fn donor(conn: &Connection, plan_id: i64) -> rusqlite::Result<Option<Donor>> {
    conn.query_row(
        "SELECT d.donor_name, p.donor_email, p.amount_cents FROM donation_plans p \
         JOIN donations d ON d.plan_id = p.id AND d.plan_charge = 0 WHERE p.id = ?1",
        [plan_id],
        |r| {
            Ok(Donor {
                name: r.get(0)?,
                email: r.get(1)?,
                cents: r.get(2)?,
            })
        },
    )
    .optional()
}

impl Mail {
    /// The donor's link to cancel plan `id` (no sign-in; it works until the plan ends).
    pub fn cancel_url(&self, id: i64, email: &str) -> String {
        self.link(&format!(
            "/donate/monthly/cancel/{}",
            self.tokens.plan_cancel(id, email)
        ))
    }

    /// The donor's link to give plan `id` another card (works [`CARD_LINK_LIFE`]).
    pub fn card_url(&self, id: i64, email: &str, now: Timestamp) -> String {
        self.link(&format!(
            "/donate/card?token={}",
            self.tokens.plan_card(id, email, now + CARD_LINK_LIFE)
        ))
    }
}

/// What a receipt of gift `donation_id` adds when it came from a plan: the next date and the
/// cancel link, or that the plan has ended. `None` for a one-time gift.
pub fn receipt_note(
    mail: &Mail,
    conn: &Connection,
    donation_id: i64,
) -> rusqlite::Result<Option<String>> {
    let plan: Option<Option<i64>> = conn
        .query_row(
            "SELECT plan_id FROM donations WHERE id = ?1",
            [donation_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(plan_id) = plan.flatten() else {
        return Ok(None);
    };
    let Some(d) = donor(conn, plan_id)? else {
        return Ok(None);
    };
    let next = plans::next_date(conn, plan_id)?;
    let (amount, cancel) = (usd(d.cents), mail.cancel_url(plan_id, &d.email));
    let next_day = next.map(|at| day(at, &mail.tz)).unwrap_or_default();
    let values = [
        ("donorName", d.name.as_str()),
        ("amount", amount.as_str()),
        ("cancelUrl", cancel.as_str()),
        ("nextDate", next_day.as_str()),
    ];
    let m = &mail.texts.monthly;
    let template = if next.is_some() {
        &m.receipt_note
    } else {
        &m.receipt_ended_note
    };
    Ok(Some(mail.fill(template, &values)))
}

/// Which notice to send the donor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// Charge `charge`, due at `due`, was declined and is tried again at `retry`.
    Declined {
        charge: i64,
        due: Timestamp,
        retry: Timestamp,
    },
    /// Charge `charge`, due at `due`, will not be tried again.
    Stopped {
        charge: i64,
        due: Timestamp,
    },
    /// The next charge would pass `year`'s limit of `limit_cents`; it resumes at `resume`.
    Paused {
        year: i16,
        limit_cents: i64,
        resume: Timestamp,
    },
    Canceled,
    /// Gifts of `year` passed `threshold_cents` without occupation and employer.
    InfoRequest {
        year: i16,
        threshold_cents: i64,
    },
}

/// Queues `notice` about plan `plan_id` to its donor (and, for a pause, to staff); once per
/// event. Call inside the write that decided it.
pub fn send(
    mail: &Mail,
    conn: &Connection,
    plan_id: i64,
    notice: Notice,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some(d) = donor(conn, plan_id)? else {
        return Ok(false);
    };
    let tz = &mail.tz;
    let m = &mail.texts.monthly;
    let (amount, cancel) = (usd(d.cents), mail.cancel_url(plan_id, &d.email));
    let mut values: Vec<(&str, String)> = vec![
        ("donorName", d.name.clone()),
        ("amount", amount),
        ("cancelUrl", cancel),
    ];
    let (event, kind, subject, body) = match notice {
        Notice::Declined { charge, due, retry } => {
            values.push(("date", day(due, tz)));
            values.push(("retryDate", day(retry, tz)));
            values.push(("cardUrl", mail.card_url(plan_id, &d.email, now)));
            (
                format!("plan-declined:{plan_id}:{charge}"),
                Kind::PlanNotice,
                &m.declined_subject,
                &m.declined_body,
            )
        }
        Notice::Stopped { charge, due } => {
            values.push(("date", day(due, tz)));
            values.push(("cardUrl", mail.card_url(plan_id, &d.email, now)));
            (
                format!("plan-stopped:{plan_id}:{charge}"),
                Kind::PlanNotice,
                &m.stopped_subject,
                &m.stopped_body,
            )
        }
        Notice::Paused {
            year,
            limit_cents,
            resume,
        } => {
            values.push(("year", year.to_string()));
            values.push(("limit", usd(limit_cents)));
            values.push(("resumeDate", day(resume, tz)));
            values.push(("adminUrl", mail.link("/admin/dashboard?tab=recurring")));
            let staff: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            alert(
                mail,
                conn,
                &Alert {
                    event_key: &format!("plan-paused-staff:{plan_id}:{year}"),
                    about: &d.email,
                    reply_to: None,
                    subject: &mail.fill(&m.staff_paused_subject, &staff),
                    body: &mail.fill(&m.staff_paused_body, &staff),
                },
                now,
            )?;
            (
                format!("plan-paused:{plan_id}:{year}"),
                Kind::PlanNotice,
                &m.paused_subject,
                &m.paused_body,
            )
        }
        Notice::Canceled => {
            values.push(("date", day(now, tz)));
            (
                format!("plan-canceled:{plan_id}"),
                Kind::PlanNotice,
                &m.canceled_subject,
                &m.canceled_body,
            )
        }
        Notice::InfoRequest {
            year,
            threshold_cents,
        } => {
            values.push(("year", year.to_string()));
            values.push(("threshold", usd(threshold_cents)));
            (
                format!("info-request:{plan_id}:{year}"),
                Kind::InfoRequest,
                &m.info_request_subject,
                &m.info_request_body,
            )
        }
    };
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let to = Person {
        name: Some(&d.name),
        email: &d.email,
    };
    let subject = mail.fill(subject, &values);
    let body = mail.fill(body, &values);
    let Some(built) = mail.compose(kind, to, None, &subject, &body, None) else {
        return Ok(false);
    };
    queue::enqueue(conn, &event, kind, &d.email, &built, now)
}
