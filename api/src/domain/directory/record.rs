//! One supporter's page: what they told us, latest first with every earlier value kept (a
//! later form never silently overwrites an earlier one), and one timeline of everything they
//! did and everything sent to them; and the export of everything held about them, for a
//! data request.

use crate::store::db::placeholders as marks;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, params_from_iter};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::domain::donations::store::people as gifts;
use crate::domain::people;
use crate::domain::people::merge::{self, Merge};

/// A value a person gave, where and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Given {
    pub value: String,
    /// The form or gift it came from ("Volunteer signup", "Gift #12").
    pub source: String,
    pub at: String,
}

/// One thing in a person's timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub at: String,
    /// newsletter, texts, message, volunteer, gift, refund, plan, mail, rsvp.
    pub kind: &'static str,
    pub title: String,
    pub detail: Option<String>,
    /// A gift's amount in dollars, apart so that a role without money can be shown none.
    pub amount: Option<String>,
}

/// A supporter's page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub id: i64,
    /// Set while merged into another supporter (whose page has everything).
    pub merged_into: Option<i64>,
    pub emails: Vec<String>,
    /// Each newest first; the first is what the list shows.
    pub names: Vec<Given>,
    pub phones: Vec<Given>,
    pub zip_codes: Vec<Given>,
    pub addresses: Vec<Given>,
    /// Newest first.
    pub timeline: Vec<Event>,
    pub merges: Vec<Merge>,
}

/// The address rows (id, address) of supporter `id`.
pub fn addresses_of(conn: &Connection, id: i64) -> rusqlite::Result<Vec<(i64, String)>> {
    let mut stmt =
        conn.prepare("SELECT id, email FROM supporter_emails WHERE supporter_id = ?1 ORDER BY id")?;
    stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

fn push(list: &mut Vec<Given>, value: Option<String>, source: String, at: &str) {
    if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
        list.push(Given {
            value,
            source,
            at: at.to_owned(),
        });
    }
}

/// Supporter `id`'s page, or `None` if there is no such supporter.
pub fn person(conn: &Connection, id: i64) -> rusqlite::Result<Option<Person>> {
    let Some(merged_into) = conn
        .query_row(
            "SELECT merged_into FROM supporters WHERE id = ?1",
            [id],
            |r| r.get::<_, Option<i64>>(0),
        )
        .optional()?
    else {
        return Ok(None);
    };
    let addresses = addresses_of(conn, id)?;
    let ids: Vec<i64> = addresses.iter().map(|(i, _)| *i).collect();
    let emails: Vec<String> = addresses.iter().map(|(_, e)| e.clone()).collect();
    let (mut names, mut phones, mut zips, mut streets) = (vec![], vec![], vec![], vec![]);
    let mut timeline = Vec::new();
    let mut numbers: Vec<String> = Vec::new();
    let list = marks(ids.len());

    if !ids.is_empty() {
        let mut stmt = conn.prepare(&format!(
            "SELECT id, email, phone_e164, zip_code, status, created_at, confirmed_at, unsubscribed_at \
             FROM newsletter_signups WHERE email_id IN ({list})"
        ))?;
        let rows = stmt.query_map(params_from_iter(&ids), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
            ))
        })?;
        for row in rows {
            let (n, email, phone, zip, status, at, confirmed, unsubscribed) = row?;
            let source = format!("Newsletter signup #{n}");
            push(&mut phones, phone.clone(), source.clone(), &at);
            push(&mut zips, Some(zip), source, &at);
            numbers.extend(phone);
            timeline.push(event(
                &at,
                "newsletter",
                format!("Signed up for the newsletter as {email}"),
                Some(format!("Now {status}")),
            ));
            if let Some(c) = confirmed {
                timeline.push(event(
                    &c,
                    "newsletter",
                    format!("Confirmed the newsletter for {email}"),
                    None,
                ));
            }
            if let Some(u) = unsubscribed {
                timeline.push(event(
                    &u,
                    "newsletter",
                    format!("Unsubscribed {email} from the newsletter"),
                    None,
                ));
            }
        }

        let mut stmt = conn.prepare(&format!(
            "SELECT id, name, email, subject, message, created_at FROM contact_messages \
             WHERE email_id IN ({list})"
        ))?;
        let rows = stmt.query_map(params_from_iter(&ids), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        for row in rows {
            let (n, name, email, subject, message, at) = row?;
            push(&mut names, Some(name), format!("Message #{n}"), &at);
            timeline.push(event(
                &at,
                "message",
                format!("Wrote from {email}: {subject}"),
                Some(message),
            ));
        }

        let mut stmt = conn.prepare(&format!(
            "SELECT id, name, email, phone_e164, zip_code, interests, created_at FROM volunteer_signups \
             WHERE email_id IN ({list})"
        ))?;
        let rows = stmt.query_map(params_from_iter(&ids), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, String>(6)?,
            ))
        })?;
        for row in rows {
            let (n, name, email, phone, zip, interests, at) = row?;
            let source = format!("Volunteer signup #{n}");
            push(&mut names, Some(name), source.clone(), &at);
            push(&mut phones, phone.clone(), source.clone(), &at);
            push(&mut zips, Some(zip), source, &at);
            numbers.extend(phone);
            timeline.push(event(
                &at,
                "volunteer",
                format!("Volunteered from {email}"),
                interests.map(|i| format!("Interests: {i}")),
            ));
        }

        for gift in gifts::gifts_from(conn, &ids)? {
            let source = format!("Gift #{}", gift.id);
            push(
                &mut names,
                Some(gift.name.clone()),
                source.clone(),
                &gift.at,
            );
            push(
                &mut streets,
                Some(gift.address.clone()),
                source.clone(),
                &gift.at,
            );
            push(&mut zips, Some(gift.zip.clone()), source, &gift.at);
            let mut e = event(
                &gift.at,
                "gift",
                format!("Gift #{} from {} ({})", gift.id, gift.email, gift.status),
                Some(format!("Given as {}, {}", gift.name, gift.address)),
            );
            e.amount = Some(gift.amount.clone());
            timeline.push(e);
        }
        for refund in gifts::refunds_from(conn, &ids)? {
            let detail = match (refund.kind.as_str(), refund.origin.as_str(), &refund.by) {
                ("chargeback", _, _) => "The donor's bank took it back (a dispute lost)".to_owned(),
                (_, "limit", _) => {
                    "The part over the year's limit, refunded automatically".to_owned()
                }
                (_, "admin", Some(by)) => format!("By {by}"),
                (_, "stripe", _) => "Made in Stripe's dashboard".to_owned(),
                _ => "Made from the admin".to_owned(),
            };
            let mut e = event(
                &refund.at,
                "refund",
                format!("Refund of gift #{}", refund.gift),
                Some(detail),
            );
            e.amount = Some(refund.amount.clone());
            timeline.push(e);
        }
        for plan in gifts::plans_from(conn, &ids)? {
            let mut e = event(
                &plan.at,
                "plan",
                format!(
                    "Monthly gift #{} from {} ({})",
                    plan.id, plan.email, plan.status
                ),
                None,
            );
            e.amount = Some(plan.amount.clone());
            timeline.push(e);
        }

        let mut stmt = conn.prepare(&format!(
            // Staff security mail (sign-in codes, reset links) is about the staff member's
            // account, not their record as a supporter: anyone can give a staff address a
            // record through a form, and a code read here signs in as them.
            "SELECT kind, to_address, subject, status, created_at, sent_at FROM mail_queue \
             WHERE about IN ({}) AND kind != 'staff_security' ORDER BY id",
            marks(emails.len())
        ))?;
        let rows = stmt.query_map(params_from_iter(&emails), |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?;
        for row in rows {
            let (kind, to, subject, status, at, sent) = row?;
            timeline.push(event(
                &sent.unwrap_or(at),
                "mail",
                format!("Mail to {to}: {subject}"),
                Some(format!("{} ({status})", kind.replace('_', " "))),
            ));
        }
    }

    numbers.sort();
    numbers.dedup();
    if !numbers.is_empty() {
        let mut stmt = conn.prepare(&format!(
            "SELECT phone, action, at, source, method, disclosure_version FROM sms_consents \
             WHERE phone IN ({}) ORDER BY id",
            marks(numbers.len())
        ))?;
        let rows = stmt.query_map(params_from_iter(&numbers), |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?;
        for row in rows {
            let (phone, action, at, source, method, version) = row?;
            let title = if action == "granted" {
                format!("Agreed to texts at {phone}")
            } else {
                format!("Texts stopped at {phone}")
            };
            let detail = [
                Some(format!("From {source}")),
                method,
                version.map(|v| format!("wording {v}")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
            timeline.push(event(&at, "texts", title, Some(detail)));
        }
    }

    for list in [&mut names, &mut phones, &mut zips, &mut streets] {
        list.sort_by(|a, b| b.at.cmp(&a.at));
    }
    timeline.sort_by(|a, b| b.at.cmp(&a.at));
    Ok(Some(Person {
        id,
        merged_into,
        emails,
        names,
        phones,
        zip_codes: zips,
        addresses: streets,
        timeline,
        merges: merge::merges_of(conn, id)?,
    }))
}

fn event(at: &str, kind: &'static str, title: String, detail: Option<String>) -> Event {
    Event {
        at: at.to_owned(),
        kind,
        title,
        detail,
        amount: None,
    }
}

/// Every row of `table` that `sql` (with the given parameters) selects, as JSON objects with
/// the table's column names.
fn rows_as_json(conn: &Connection, sql: &str, params: &[Value]) -> rusqlite::Result<Vec<Value>> {
    let mut stmt = conn.prepare(sql)?;
    let names: Vec<String> = stmt.column_names().map(str::to_owned).collect();
    let sql_params: Vec<rusqlite::types::Value> = params
        .iter()
        .map(|p| match p {
            Value::Number(n) => rusqlite::types::Value::Integer(n.as_i64().unwrap_or_default()),
            other => rusqlite::types::Value::Text(other.as_str().unwrap_or_default().to_owned()),
        })
        .collect();
    let mut rows = stmt.query(params_from_iter(sql_params))?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let mut object = Map::new();
        for (i, name) in names.iter().enumerate() {
            let value = match r.get_ref(i)? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(n) => Value::from(n),
                ValueRef::Real(f) => Value::from(f),
                ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
                // A queued message: what it said is in the mail's subject and kind; the
                // bytes are not for a data request's reader.
                ValueRef::Blob(b) => Value::from(format!("({} bytes)", b.len())),
            };
            object.insert(name.clone(), value);
        }
        out.push(Value::Object(object));
    }
    Ok(out)
}

impl Person {
    /// Takes the amounts out of the timeline (for a role that may not see donations).
    pub fn hide_amounts(&mut self) {
        for event in &mut self.timeline {
            event.amount = None;
        }
    }
}

/// Whether a reader sees how much people gave: a role without `donations.read` (an
/// Organizer) sees that a person gave, never the amounts, on the page and in the export
/// alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amounts {
    Shown,
    Hidden,
}

/// The tables of gifts and plans, left out of an export for a reader who may not see amounts.
const MONEY_TABLES: [&str; 2] = ["donations", "donation_plans"];

/// What the export says in place of a money table for a reader who may not see amounts.
pub const MONEY_LEFT_OUT: &str = "Left out: a Treasurer's export has it.";

/// Everything held about supporter `id`, table by table (for a data request), or `None`.
pub fn export(conn: &Connection, id: i64, amounts: Amounts) -> rusqlite::Result<Option<Value>> {
    let Some(mut person) = person(conn, id)? else {
        return Ok(None);
    };
    if amounts == Amounts::Hidden {
        person.hide_amounts();
    }
    let ids: Vec<Value> = addresses_of(conn, id)?
        .into_iter()
        .map(|(i, _)| Value::from(i))
        .collect();
    let mut tables = Map::new();
    if !ids.is_empty() {
        let list = marks(ids.len());
        for (table, _) in people::LINKED {
            if amounts == Amounts::Hidden && MONEY_TABLES.contains(&table) {
                tables.insert(table.to_owned(), Value::from(MONEY_LEFT_OUT));
                continue;
            }
            tables.insert(
                table.to_owned(),
                Value::from(rows_as_json(
                    conn,
                    &format!("SELECT * FROM {table} WHERE email_id IN ({list}) ORDER BY id"),
                    &ids,
                )?),
            );
        }
        let emails: Vec<Value> = person
            .emails
            .iter()
            .map(|e| Value::from(e.as_str()))
            .collect();
        tables.insert(
            "mail_queue".into(),
            Value::from(rows_as_json(
                conn,
                &format!(
                    "SELECT id, kind, to_address, subject, status, created_at, sent_at FROM mail_queue \
                     WHERE about IN ({}) AND kind != 'staff_security' ORDER BY id",
                    marks(emails.len())
                ),
                &emails,
            )?),
        );
    }
    let numbers: Vec<Value> = {
        let mut n: Vec<&str> = person.phones.iter().map(|g| g.value.as_str()).collect();
        n.sort();
        n.dedup();
        n.into_iter().map(Value::from).collect()
    };
    if !numbers.is_empty() {
        tables.insert(
            "sms_consents".into(),
            Value::from(rows_as_json(
                conn,
                &format!(
                    "SELECT * FROM sms_consents WHERE phone IN ({}) ORDER BY id",
                    marks(numbers.len())
                ),
                &numbers,
            )?),
        );
    }
    Ok(Some(serde_json::json!({
        "person": person,
        "tables": tables,
    })))
}
