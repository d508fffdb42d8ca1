//! The People tab: one row per supporter with what they have done, found by name, e-mail
//! or phone.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;

use crate::domain::donations::store::people as gifts;

/// One supporter as the list shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub id: i64,
    /// The latest name they gave (on any form or gift), if any.
    pub name: Option<String>,
    pub emails: Vec<String>,
    /// The latest phone they gave, in E.164.
    pub phone: Option<String>,
    /// A confirmed newsletter subscription (now).
    pub subscribed: bool,
    pub volunteered: bool,
    pub wrote: bool,
    /// A paid gift.
    pub gave: bool,
    /// Their latest submission.
    pub last_seen: String,
}

/// What one submission tells the list: (address row, what, name, phone, when).
type Activity = (i64, &'static str, Option<String>, Option<String>, String);

fn activities(conn: &Connection) -> rusqlite::Result<Vec<Activity>> {
    let mut all = Vec::new();
    let mut add = |sql: &str, kind: &'static str| -> rusqlite::Result<()> {
        let mut stmt = conn.prepare(sql)?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get(0)?, kind, r.get(1)?, r.get(2)?, r.get(3)?))
        })?;
        for row in rows {
            all.push(row?);
        }
        Ok(())
    };
    add(
        "SELECT email_id, NULL, phone_e164, created_at FROM newsletter_signups \
         WHERE email_id IS NOT NULL AND status = 'confirmed'",
        "subscribed",
    )?;
    add(
        "SELECT email_id, NULL, phone_e164, created_at FROM newsletter_signups \
         WHERE email_id IS NOT NULL AND status != 'confirmed'",
        "newsletter",
    )?;
    add(
        "SELECT email_id, name, NULL, created_at FROM contact_messages WHERE email_id IS NOT NULL",
        "wrote",
    )?;
    add(
        "SELECT email_id, name, phone_e164, created_at FROM volunteer_signups \
         WHERE email_id IS NOT NULL",
        "volunteered",
    )?;
    for (email_id, name, at) in gifts::paid_by_address(conn)? {
        all.push((email_id, "gave", Some(name), None, at));
    }
    Ok(all)
}

/// Whether `row` answers the search `q` (its words, each found in a name, an address, or,
/// by its digits, in the phone).
fn answers(row: &Row, q: &str) -> bool {
    q.split_whitespace().all(|word| {
        let word = word.to_lowercase();
        let digits: String = word.chars().filter(char::is_ascii_digit).collect();
        row.name
            .as_deref()
            .is_some_and(|n| n.to_lowercase().contains(&word))
            || row.emails.iter().any(|e| e.contains(&word))
            || (digits.len() >= 3
                && digits.len() * 2 >= word.len()
                && row.phone.as_deref().is_some_and(|p| p.contains(&digits)))
    })
}

/// Supporters who are not merged into another, latest seen first, that answer `q` (all
/// when it is empty).
pub fn search(conn: &Connection, q: &str) -> rusqlite::Result<Vec<Row>> {
    let mut rows: HashMap<i64, Row> = HashMap::new();
    let mut owner: HashMap<i64, i64> = HashMap::new();
    {
        let mut stmt = conn.prepare(
            "SELECT e.id, e.email, s.id, s.created_at FROM supporter_emails e \
             JOIN supporters s ON s.id = e.supporter_id WHERE s.merged_into IS NULL ORDER BY e.id",
        )?;
        let found = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?;
        for item in found {
            let (email_id, email, id, created) = item?;
            owner.insert(email_id, id);
            let row = rows.entry(id).or_insert_with(|| Row {
                id,
                last_seen: created,
                ..Row::default()
            });
            row.emails.push(email);
        }
    }
    let mut acts = activities(conn)?;
    // Oldest first, so the latest name and phone win.
    acts.sort_by(|a, b| a.4.cmp(&b.4));
    for (email_id, kind, name, phone, at) in acts {
        let Some(row) = owner.get(&email_id).and_then(|id| rows.get_mut(id)) else {
            continue;
        };
        match kind {
            "subscribed" => row.subscribed = true,
            "wrote" => row.wrote = true,
            "volunteered" => row.volunteered = true,
            "gave" => row.gave = true,
            _ => {}
        }
        if name.is_some() {
            row.name = name;
        }
        if phone.is_some() {
            row.phone = phone;
        }
        if at > row.last_seen {
            row.last_seen = at;
        }
    }
    let q = q.trim();
    let mut found: Vec<Row> = rows
        .into_values()
        .filter(|row| q.is_empty() || answers(row, q))
        .collect();
    found.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then(b.id.cmp(&a.id)));
    Ok(found)
}
