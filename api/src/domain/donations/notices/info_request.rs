//! The best-efforts request for occupation and employer (11 CFR 104.7(b)) after a gift that
//! takes its donor's year past the itemisation threshold without them. A set-up is not told
//! what the donor gave before (a stranger could ask), so a small gift is taken without these
//! questions and the law's request follows the payment, once a year per donor. A monthly
//! charge asks before it is made (`plans::steps`); that counts as asked here too.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::sql_time;
use crate::domain::donations;
use crate::domain::mail::Mail;
use crate::domain::mail::message::Person;
use crate::domain::mail::queue::{self, Kind};

/// Asks the donor of completed gift `id`, if it took their year past the threshold and they
/// gave no occupation or employer, and nobody asked them this year; marks the gift asked
/// (the Schedule A says "INFORMATION REQUESTED"). Call inside the write that completed it.
/// `true` when mail was queued.
pub fn after_gift(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let gift: Option<(String, String, i16, bool, bool)> = conn
        .query_row(
            "SELECT donor_name, donor_email, contribution_year, \
                    donor_occupation IS NULL OR donor_employer IS NULL, \
                    plan_charge IS NOT NULL AND plan_charge > 0 \
             FROM donations WHERE id = ?1 AND status = 'completed'",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let Some((name, email, year, missing, monthly_charge)) = gift else {
        return Ok(false);
    };
    if !missing || monthly_charge || email.is_empty() {
        return Ok(false);
    }
    let rules = &mail.donation_rules;
    let giver = donations::giver_of(conn, id, &email)?;
    let total = donations::totals(conn, giver, year, now)?.completed;
    if !rules.needs_itemization_info(total) {
        return Ok(false);
    }
    // Once a year per contributor: two people sharing an inbox are asked each.
    let asked: bool = match giver {
        donations::Whose::Via { contributor, .. } => conn.query_row(
            &format!(
                "SELECT EXISTS (SELECT 1 FROM donations WHERE {} AND contribution_year = ?2 \
                     AND info_requested_at IS NOT NULL)",
                donations::store::OF_CONTRIBUTOR
            ),
            params![contributor, year],
            |r| r.get(0),
        )?,
        _ => conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM donations WHERE donor_email = ?1 AND contribution_year = ?2 \
                 AND info_requested_at IS NOT NULL)",
            params![email, year],
            |r| r.get(0),
        )?,
    };
    conn.execute(
        "UPDATE donations SET info_requested_at = COALESCE(info_requested_at, ?2) WHERE id = ?1",
        params![id, sql_time(now)],
    )?;
    if asked {
        return Ok(false);
    }
    let threshold = crate::domain::mail::usd(i64::from(rules.itemization_threshold) * 100);
    let year_text = year.to_string();
    let values = [
        ("donorName", name.as_str()),
        ("year", year_text.as_str()),
        ("threshold", threshold.as_str()),
    ];
    let t = &mail.texts.info_request;
    let to = Person {
        name: Some(&name),
        email: &email,
    };
    let subject = mail.fill(&t.subject, &values);
    let body = mail.fill(&t.body, &values);
    let Some(built) = mail.compose(Kind::InfoRequest, to, None, &subject, &body, None) else {
        return Ok(false);
    };
    queue::enqueue(
        conn,
        &format!("info-request-gift:{id}"),
        Kind::InfoRequest,
        &email,
        &built,
        now,
    )
}
