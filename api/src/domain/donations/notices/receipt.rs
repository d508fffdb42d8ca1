//! The donor's receipt, queued in the write that completes a gift (whichever of Stripe's
//! webhook and the donor's return page comes first), once: the gift gets its receipt number
//! in that write, and a gift with a number is never queued again.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::donations::{self, donor_pass};
use crate::domain::mail::Mail;
use crate::domain::mail::message::Person;
use crate::domain::mail::queue::{self, Kind};
pub use crate::domain::mail::usd;

/// A receipt's two links about the donor's giving history: one that lets the browser it is
/// opened in show it (the donor's pass, `domain::donor_pass`), in a fragment the server never
/// sees or logs, and one that signs every browser out of it.
fn donor_links(
    mail: &Mail,
    conn: &Connection,
    email: &str,
    now: Timestamp,
) -> rusqlite::Result<(String, String)> {
    let epoch = donor_pass::epoch(conn, &mail.tokens.key_of(donor_pass::KEY_PURPOSE, email))?;
    let history = mail.link(&format!(
        "/donate#history={}",
        mail.tokens.donor_history(email, epoch, now)
    ));
    let sign_out = mail.link(&format!(
        "/donate/history/sign-out/{}",
        mail.tokens.donor_sign_out(email)
    ));
    Ok((history, sign_out))
}

/// Numbers the completed gift `id` and queues its receipt; `false` when it already has one
/// (or is not completed). Call inside the write that completed it.
pub fn queue(mail: &Mail, conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    let gift = conn
        .query_row(
            "SELECT donor_name, donor_email, donor_address, donor_city, donor_state, donor_zip_code, \
                    amount_cents, contribution_purpose, contribution_year \
             FROM donations WHERE id = ?1 AND status = 'completed' AND receipt_number IS NULL",
            [id],
            |r| {
                Ok(Gift {
                    name: r.get(0)?,
                    email: r.get(1)?,
                    address: format!(
                        "{}\n{}, {} {}",
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?
                    ),
                    cents: r.get(6)?,
                    purpose: r.get(7)?,
                    year: r.get(8)?,
                })
            },
        )
        .optional()?;
    let Some(gift) = gift else {
        return Ok(false);
    };
    let local = now.to_zoned_datetime(mail.tz.clone());
    let number = next_number(conn, local.year())?;
    conn.execute(
        "UPDATE donations SET receipt_number = ?2 WHERE id = ?1",
        params![id, number],
    )?;
    let giver = donations::giver_of(conn, id, &gift.email)?;
    let year_total = donations::totals(conn, giver, gift.year, now)?.completed;
    let purpose = gift
        .purpose
        .as_deref()
        .map(|p| {
            generator::donations::PURPOSES
                .iter()
                .find(|c| c.value == p)
                .map_or_else(|| p.replace('_', " "), |c| c.label.to_owned())
        })
        .unwrap_or_else(|| "Not stated".to_owned());
    let (date, amount, total) = (
        local.strftime("%B %-d, %Y").to_string(),
        usd(gift.cents),
        usd(year_total),
    );
    let (history, sign_out) = donor_links(mail, conn, &gift.email, now)?;
    let values = [
        ("donorName", gift.name.as_str()),
        ("receiptNumber", number.as_str()),
        ("date", date.as_str()),
        ("amount", amount.as_str()),
        ("purpose", purpose.as_str()),
        ("donorAddress", gift.address.as_str()),
        ("yearTotal", total.as_str()),
        ("historyUrl", history.as_str()),
        ("signOutUrl", sign_out.as_str()),
    ];
    let t = &mail.texts.receipt;
    let to = Person {
        name: Some(&gift.name),
        email: &gift.email,
    };
    let subject = mail.fill(&t.subject, &values);
    let mut body = mail.fill(&t.body, &values);
    // A monthly gift's receipt says when the next one comes and how to stop them (AB 775).
    if let Some(note) = super::monthly::receipt_note(mail, conn, id)? {
        body = format!("{body}\n\n{note}");
    }
    let Some(built) = mail.compose(Kind::Receipt, to, None, &subject, &body, None) else {
        return Ok(false);
    };
    queue::enqueue(
        conn,
        &format!("receipt:{id}"),
        Kind::Receipt,
        &gift.email,
        &built,
        now,
    )
}

struct Gift {
    name: String,
    email: String,
    address: String,
    cents: i64,
    purpose: Option<String>,
    year: i16,
}

/// The next receipt number of `year`: `2026-000123`.
fn next_number(conn: &Connection, year: i16) -> rusqlite::Result<String> {
    let n: i64 = conn.query_row(
        "INSERT INTO receipt_counters (year, last) VALUES (?1, 1) \
         ON CONFLICT (year) DO UPDATE SET last = last + 1 RETURNING last",
        [year],
        |r| r.get(0),
    )?;
    Ok(format!("{year}-{n:06}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn dollars_with_separators() {
        assert_eq!(crate::domain::mail::usd(2500), "$25.00");
        assert_eq!(crate::domain::mail::usd(4_430_000), "$44,300.00");
        assert_eq!(crate::domain::mail::usd(123_456_789), "$1,234,567.89");
        assert_eq!(crate::domain::mail::usd(5), "$0.05");
    }
}
