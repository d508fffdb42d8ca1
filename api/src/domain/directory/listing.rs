//! The People tab: one row per supporter with what they have done, found by name, e-mail
//! or phone, a page at a time.
//!
//! The rows are not built here: `people_list` holds one per listed supporter (not merged
//! into another, with an address), and `people_search` indexes their names, addresses and
//! phones by trigrams. Triggers keep both current in the write that changes what a row
//! shows (api/migrations/V21__people_search.sql says how; since V23 the index's share is
//! queued and settled just before the group's commit, store/settle.sql), so a search is a
//! few index lookups, the total a `COUNT`, and only the page's rows have their addresses
//! read.

use std::collections::HashMap;

use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};
use serde::Serialize;

use crate::store::db::placeholders as marks;

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

/// One page of the supporters that answer a search, and how many answer it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub people: Vec<Row>,
    pub total: usize,
}

/// The fewest characters the trigram index can find; a shorter word is looked for in every
/// row (still right, only slower).
const INDEXED: usize = 3;

/// A search as SQL: the `WHERE` clause on `people_list p` (empty for everyone) and its
/// values. A supporter answers when every word (split at whitespace, lower case as Rust has
/// it) is part of their name or one of their addresses, or, when at least three of its
/// characters and at least half of it are digits, its digits are part of their phone. A
/// search that is a phone number as people write one ([`phone_number`]) is one word.
#[derive(Debug, Default, PartialEq, Eq)]
struct Filter {
    sql: String,
    values: Vec<String>,
}

/// The digits of a search that looks like a phone number as people write one (digits, with
/// spaces and `+ ( ) - . /` between them, and at least three digits): "(555) 004-2006" is one
/// number, not "(555)" and "004-2006" each somewhere.
fn phone_number(q: &str) -> Option<String> {
    let phone_like = q
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || "+()-./".contains(c));
    let digits: String = q.chars().filter(char::is_ascii_digit).collect();
    (phone_like && digits.len() >= INDEXED).then_some(digits)
}

impl Filter {
    fn of(q: &str) -> Filter {
        let mut filter = Filter::default();
        let whole: String;
        let words: Vec<&str> = match phone_number(q) {
            // Taken whole, and as one word for names and addresses too (an address may hold
            // the same digits).
            Some(_) => {
                whole = q.split_whitespace().collect();
                vec![whole.as_str()]
            }
            None => q.split_whitespace().collect(),
        };
        for word in words {
            let word = word.to_lowercase();
            let digits: String = word.chars().filter(char::is_ascii_digit).collect();
            let by_phone = digits.len() >= 3 && digits.len() * 2 >= word.len();
            let n = filter.values.len() + 1;
            let condition = if word.chars().count() >= INDEXED {
                let mut expr = format!("{{name email}} : {}", phrase(&word));
                if by_phone {
                    expr.push_str(&format!(" OR phone : {}", phrase(&digits)));
                }
                filter.values.push(expr);
                // An address's index row is 2 × its id, a supporter's 2 × their id + 1.
                format!(
                    "p.id IN (SELECT iif(f.rowid % 2 = 1, f.rowid / 2, \
                     (SELECT e.supporter_id FROM supporter_emails e WHERE e.id = f.rowid / 2)) \
                     FROM people_search f WHERE people_search MATCH ?{n})"
                )
            } else {
                // Too short for the index: the name in any case, the addresses (stored lower
                // case) as they are.
                let mut tests: Vec<String> = Vec::new();
                for variant in cases(&word) {
                    filter.values.push(variant);
                    tests.push(format!("instr(p.name, ?{}) > 0", filter.values.len()));
                }
                filter.values.push(word);
                tests.push(format!("instr(p.emails, ?{}) > 0", filter.values.len()));
                format!("({})", tests.join(" OR "))
            };
            filter.sql.push_str(if filter.sql.is_empty() {
                "WHERE "
            } else {
                " AND "
            });
            filter.sql.push_str(&condition);
        }
        filter
    }
}

/// `text` as an FTS5 string, which the trigram index matches as a substring.
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// Every way a lower-case `word` may be written in a name, letter by letter in either case
/// (at most four: only words shorter than [`INDEXED`] come here).
fn cases(word: &str) -> Vec<String> {
    let mut all = vec![String::new()];
    for c in word.chars() {
        let mut forms = vec![c];
        let mut upper = c.to_uppercase();
        if let (Some(u), None) = (upper.next(), upper.next())
            && u != c
        {
            forms.push(u);
        }
        all = all
            .iter()
            .flat_map(|start| {
                forms.iter().map(move |f| {
                    let mut s = start.clone();
                    s.push(*f);
                    s
                })
            })
            .collect();
    }
    all
}

/// Supporters who are not merged into another, latest seen first (then the newest), that
/// answer `q` (all when it is blank): page `page` (from 0) of `size`, and how many answer.
pub fn search(conn: &Connection, q: &str, page: usize, size: usize) -> rusqlite::Result<Found> {
    let filter = Filter::of(q);
    let values = || filter.values.iter().map(|v| Value::from(v.clone()));
    let total: i64 = conn.query_row(
        &format!("SELECT COUNT(*) FROM people_list p {}", filter.sql),
        params_from_iter(values()),
        |r| r.get(0),
    )?;
    let total = usize::try_from(total).unwrap_or(0);
    // Nothing on this page (no one answers, or the page is past the last): walking the
    // list's order to find no one would cost as much as the count did again.
    if page.saturating_mul(size) >= total {
        return Ok(Found {
            people: Vec::new(),
            total,
        });
    }
    let offset = i64::try_from(page.saturating_mul(size)).unwrap_or(i64::MAX);
    let limit = i64::try_from(size).unwrap_or(i64::MAX);
    let mut people: Vec<Row> = {
        let n = filter.values.len();
        let mut stmt = conn.prepare(&format!(
            "SELECT p.id, p.name, p.phone, p.subscribed, p.volunteered, p.wrote, p.gave, \
                    p.last_seen \
             FROM people_list p {} ORDER BY p.last_seen DESC, p.id DESC LIMIT ?{} OFFSET ?{}",
            filter.sql,
            n + 1,
            n + 2
        ))?;
        stmt.query_map(
            params_from_iter(values().chain([Value::from(limit), Value::from(offset)])),
            |r| {
                Ok(Row {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    emails: Vec::new(),
                    phone: r.get(2)?,
                    subscribed: r.get(3)?,
                    volunteered: r.get(4)?,
                    wrote: r.get(5)?,
                    gave: r.get(6)?,
                    last_seen: r.get(7)?,
                })
            },
        )?
        .collect::<rusqlite::Result<_>>()?
    };
    if !people.is_empty() {
        let ids: Vec<i64> = people.iter().map(|row| row.id).collect();
        let mut emails: HashMap<i64, Vec<String>> = HashMap::new();
        let mut stmt = conn.prepare(&format!(
            "SELECT supporter_id, email FROM supporter_emails WHERE supporter_id IN ({}) \
             ORDER BY id",
            marks(ids.len())
        ))?;
        let rows = stmt.query_map(params_from_iter(&ids), |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (id, email) = row?;
            emails.entry(id).or_default().push(email);
        }
        for row in &mut people {
            row.emails = emails.remove(&row.id).unwrap_or_default();
        }
    }
    Ok(Found { people, total })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_the_index_can_find_becomes_one_phrase_and_its_digits_another() {
        let f = Filter::of("  Zoë  201-3344 ");
        assert_eq!(
            f.values,
            [
                "{name email} : \"zoë\"",
                "{name email} : \"201-3344\" OR phone : \"2013344\""
            ]
        );
        assert!(f.sql.starts_with("WHERE p.id IN ("), "{}", f.sql);
        assert!(f.sql.contains(" AND p.id IN ("), "{}", f.sql);
        assert!(f.sql.contains("MATCH ?2)"), "{}", f.sql);
    }

    #[test]
    fn a_phone_number_as_people_write_it_is_one_search() {
        for q in ["(555) 004-2006", " +1 555 004 2006 ", "555.004.2006"] {
            let f = Filter::of(q);
            let digits: String = q.chars().filter(char::is_ascii_digit).collect();
            let written: String = q.split_whitespace().collect();
            assert_eq!(
                f.values,
                [format!(
                    "{{name email}} : \"{written}\" OR phone : \"{digits}\""
                )],
                "{q}"
            );
            assert!(!f.sql.contains(" AND "), "{q}: {}", f.sql);
        }
        // Letters, or too few digits: words as before.
        assert_eq!(Filter::of("walker 555").values.len(), 2);
        assert_eq!(phone_number("12 -"), None);
        assert_eq!(phone_number("555 ext"), None);
    }

    #[test]
    fn quotes_stay_inside_the_phrase() {
        assert_eq!(
            Filter::of("o\"neil").values,
            ["{name email} : \"o\"\"neil\""]
        );
    }

    #[test]
    fn few_digits_or_mostly_letters_never_search_the_phone() {
        assert_eq!(Filter::of("a12b").values, ["{name email} : \"a12b\""]);
        assert_eq!(Filter::of("12ab").values, ["{name email} : \"12ab\""]);
        assert_eq!(
            Filter::of("1a23").values,
            ["{name email} : \"1a23\" OR phone : \"123\""]
        );
    }

    #[test]
    fn a_short_word_is_looked_for_in_every_case_in_names_and_as_is_in_addresses() {
        let f = Filter::of("Öz");
        assert_eq!(f.values, ["öz", "öZ", "Öz", "ÖZ", "öz"]);
        assert_eq!(
            f.sql,
            "WHERE (instr(p.name, ?1) > 0 OR instr(p.name, ?2) > 0 OR instr(p.name, ?3) > 0 \
             OR instr(p.name, ?4) > 0 OR instr(p.emails, ?5) > 0)"
        );
        assert_eq!(cases("7."), ["7."]);
    }

    #[test]
    fn a_blank_search_asks_nothing() {
        assert_eq!(Filter::of(" \t "), Filter::default());
    }
}
