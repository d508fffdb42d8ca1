//! The FEC's electronic filing format (version 8.4) for the two record types the treasurer
//! needs from the site: `SA11AI` (Schedule A, Line 11(a)(i), itemized contributions from
//! individuals) and `SB28A` (Schedule B, Line 28(a), refunds of contributions to
//! individuals). A `.fec` file is one record a line, fields separated by the ASCII File
//! Separator (0x1C), after a `HDR` record naming the version; the filing software adds the
//! Form 3X summary record around them.
//!
//! Field order, lengths and codes follow the FEC's format specification for v8.x as the
//! FEC's own validator (`fecgov/fecfile-validate`, schema/8.4/INDIVIDUAL_RECEIPT.json) and
//! parsers built on it state them; docs/donations.md lists the sources and what we assume.
//! Every field is printable ASCII (names are transliterated: "Zoë" becomes "Zoe") and cut
//! to its length; [`validate`] checks each record against the table before it is written.

pub mod schedules;

use jiff::civil::Date;

/// The format version written in the header.
pub const VERSION: &str = "8.4";
/// The field separator of v8.x files (ASCII 28, File Separator).
pub const FS: char = '\u{1c}';
/// What the FEC asks filers to write when a contributor did not give employer or occupation
/// after a best-efforts request.
pub const INFORMATION_REQUESTED: &str = "INFORMATION REQUESTED";

/// What a field may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Printable ASCII.
    Text,
    /// Printable ASCII without lower-case letters (ids, codes).
    Upper,
    /// `YYYYMMDD`.
    Date,
    /// Dollars with two decimals (`250.00`, `-5.00`).
    Amount,
}

/// One field of a record type.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    /// The most characters it may hold.
    pub max: usize,
    pub kind: Kind,
    pub required: bool,
}

const fn f(name: &'static str, max: usize, kind: Kind, required: bool) -> Field {
    Field {
        name,
        max,
        kind,
        required,
    }
}

use Kind::{Amount, Date as D, Text as T, Upper as U};

/// The `SA` record (45 fields), as `SA11AI`.
pub const SA_FIELDS: [Field; 45] = [
    f("FORM TYPE", 8, U, true),
    f("FILER COMMITTEE ID NUMBER", 9, U, true),
    f("TRANSACTION ID", 20, U, true),
    f("BACK REFERENCE TRAN ID NUMBER", 20, U, false),
    f("BACK REFERENCE SCHED NAME", 8, U, false),
    f("ENTITY TYPE", 3, U, true),
    f("CONTRIBUTOR ORGANIZATION NAME", 200, T, false),
    f("CONTRIBUTOR LAST NAME", 30, T, true),
    f("CONTRIBUTOR FIRST NAME", 20, T, true),
    f("CONTRIBUTOR MIDDLE NAME", 20, T, false),
    f("CONTRIBUTOR PREFIX", 10, T, false),
    f("CONTRIBUTOR SUFFIX", 10, T, false),
    f("CONTRIBUTOR STREET 1", 34, T, true),
    f("CONTRIBUTOR STREET 2", 34, T, false),
    f("CONTRIBUTOR CITY", 30, T, true),
    f("CONTRIBUTOR STATE", 2, U, true),
    f("CONTRIBUTOR ZIP", 9, U, true),
    f("ELECTION CODE", 5, U, false),
    f("ELECTION OTHER DESCRIPTION", 20, T, false),
    f("CONTRIBUTION DATE", 8, D, true),
    f("CONTRIBUTION AMOUNT", 12, Amount, true),
    f("CONTRIBUTION AGGREGATE", 12, Amount, true),
    f("CONTRIBUTION PURPOSE DESCRIP", 100, T, false),
    f("CONTRIBUTOR EMPLOYER", 38, T, false),
    f("CONTRIBUTOR OCCUPATION", 38, T, false),
    f("DONOR COMMITTEE FEC ID", 9, U, false),
    f("DONOR COMMITTEE NAME", 200, T, false),
    f("DONOR CANDIDATE FEC ID", 9, U, false),
    f("DONOR CANDIDATE LAST NAME", 30, T, false),
    f("DONOR CANDIDATE FIRST NAME", 20, T, false),
    f("DONOR CANDIDATE MIDDLE NAME", 20, T, false),
    f("DONOR CANDIDATE PREFIX", 10, T, false),
    f("DONOR CANDIDATE SUFFIX", 10, T, false),
    f("DONOR CANDIDATE OFFICE", 1, U, false),
    f("DONOR CANDIDATE STATE", 2, U, false),
    f("DONOR CANDIDATE DISTRICT", 2, U, false),
    f("CONDUIT NAME", 200, T, false),
    f("CONDUIT STREET1", 34, T, false),
    f("CONDUIT STREET2", 34, T, false),
    f("CONDUIT CITY", 30, T, false),
    f("CONDUIT STATE", 2, U, false),
    f("CONDUIT ZIP", 9, U, false),
    f("MEMO CODE", 1, U, false),
    f("MEMO TEXT/DESCRIPTION", 100, T, false),
    f("REFERENCE TO SI OR SL SYSTEM CODE", 9, U, false),
];

/// The `SB` record (44 fields), as `SB28A`.
pub const SB_FIELDS: [Field; 44] = [
    f("FORM TYPE", 8, U, true),
    f("FILER COMMITTEE ID NUMBER", 9, U, true),
    f("TRANSACTION ID NUMBER", 20, U, true),
    f("BACK REFERENCE TRAN ID NUMBER", 20, U, false),
    f("BACK REFERENCE SCHED NAME", 8, U, false),
    f("ENTITY TYPE", 3, U, true),
    f("PAYEE ORGANIZATION NAME", 200, T, false),
    f("PAYEE LAST NAME", 30, T, true),
    f("PAYEE FIRST NAME", 20, T, true),
    f("PAYEE MIDDLE NAME", 20, T, false),
    f("PAYEE PREFIX", 10, T, false),
    f("PAYEE SUFFIX", 10, T, false),
    f("PAYEE STREET 1", 34, T, true),
    f("PAYEE STREET 2", 34, T, false),
    f("PAYEE CITY", 30, T, true),
    f("PAYEE STATE", 2, U, true),
    f("PAYEE ZIP", 9, U, true),
    f("ELECTION CODE", 5, U, false),
    f("ELECTION OTHER DESCRIPTION", 20, T, false),
    f("EXPENDITURE DATE", 8, D, true),
    f("EXPENDITURE AMOUNT", 12, Amount, true),
    f("SEMI-ANNUAL REFUNDED BUNDLED AMT", 12, Amount, false),
    f("EXPENDITURE PURPOSE DESCRIP", 100, T, true),
    f("CATEGORY CODE", 3, U, false),
    f("BENEFICIARY COMMITTEE FEC ID", 9, U, false),
    f("BENEFICIARY COMMITTEE NAME", 200, T, false),
    f("BENEFICIARY CANDIDATE FEC ID", 9, U, false),
    f("BENEFICIARY CANDIDATE LAST NAME", 30, T, false),
    f("BENEFICIARY CANDIDATE FIRST NAME", 20, T, false),
    f("BENEFICIARY CANDIDATE MIDDLE NAME", 20, T, false),
    f("BENEFICIARY CANDIDATE PREFIX", 10, T, false),
    f("BENEFICIARY CANDIDATE SUFFIX", 10, T, false),
    f("BENEFICIARY CANDIDATE OFFICE", 1, U, false),
    f("BENEFICIARY CANDIDATE STATE", 2, U, false),
    f("BENEFICIARY CANDIDATE DISTRICT", 2, U, false),
    f("CONDUIT NAME", 200, T, false),
    f("CONDUIT STREET 1", 34, T, false),
    f("CONDUIT STREET 2", 34, T, false),
    f("CONDUIT CITY", 30, T, false),
    f("CONDUIT STATE", 2, U, false),
    f("CONDUIT ZIP", 9, U, false),
    f("MEMO CODE", 1, U, false),
    f("MEMO TEXT/DESCRIPTION", 100, T, false),
    f("REFERENCE TO SI OR SL SYSTEM CODE", 9, U, false),
];

/// A person as the schedules name them: split and cut to the fields' lengths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub last: String,
    pub first: String,
    pub street1: String,
    pub street2: String,
    pub city: String,
    pub state: String,
    pub zip: String,
}

/// A gift's donor as stored.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    /// The whole name, for gifts stored before first and last names were kept apart.
    pub full: &'a str,
    pub first: &'a str,
    pub last: &'a str,
    pub address: &'a str,
    pub city: &'a str,
    pub state: &'a str,
    pub zip: &'a str,
}

impl Person {
    /// From a gift's stored details; when first and last are empty, the whole name is split
    /// at its last space.
    pub fn new(s: Stored<'_>) -> Person {
        let (first, last) = if s.first.trim().is_empty() && s.last.trim().is_empty() {
            let full = s.full.trim();
            full.rsplit_once(' ').unwrap_or(("", full))
        } else {
            (s.first, s.last)
        };
        let (street1, street2) = street_lines(&text(s.address, usize::MAX));
        Person {
            last: text(last, 30),
            first: text(first, 20),
            street1,
            street2,
            city: text(s.city, 30),
            state: text(s.state, 2).to_ascii_uppercase(),
            zip: s.zip.chars().filter(char::is_ascii_digit).take(9).collect(),
        }
    }
}

/// A street address in the two 34-character lines: cut at the last space that fits, the
/// rest on the second line (itself cut).
fn street_lines(address: &str) -> (String, String) {
    if address.len() <= 34 {
        return (address.to_owned(), String::new());
    }
    let cut = address[..=34].rfind(' ').filter(|&i| i > 0).unwrap_or(34);
    let (one, two) = address.split_at(cut);
    (one.trim_end().to_owned(), text(two, 34))
}

/// `value` as a field holds it: transliterated to printable ASCII, whitespace collapsed to
/// single spaces, trimmed, and cut to `max` characters.
pub fn text(value: &str, max: usize) -> String {
    // Breaks and controls become spaces first: transliteration would drop them, gluing words.
    let spaced: String = value
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect();
    let ascii = deunicode::deunicode(&spaced);
    let words: Vec<&str> = ascii
        .split(|c: char| c.is_whitespace() || c.is_control() || !c.is_ascii())
        .filter(|w| !w.is_empty())
        .collect();
    let joined = words.join(" ");
    let cut: String = joined
        .chars()
        .filter(|c| (' '..='~').contains(c))
        .take(max)
        .collect();
    cut.trim_end().to_owned()
}

/// Cents as an amount field: `250.00`.
pub fn amount(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
}

/// A date field: `YYYYMMDD`.
pub fn date(d: Date) -> String {
    d.strftime("%Y%m%d").to_string()
}

/// Checks one record against its field table: the count, each length, printable ASCII, no
/// lower case where codes go, dates and amounts as the format writes them, and every
/// required field present.
pub fn validate(fields: &[Field], values: &[String]) -> Result<(), String> {
    if fields.len() != values.len() {
        return Err(format!("{} fields, not {}", values.len(), fields.len()));
    }
    for (field, value) in fields.iter().zip(values) {
        let bad = |why: &str| Err(format!("{} {why}: {value:?}", field.name));
        if field.required && value.is_empty() {
            return bad("is required");
        }
        if value.chars().count() > field.max {
            return bad(&format!("is longer than {}", field.max));
        }
        if !value.chars().all(|c| (' '..='~').contains(&c)) {
            return bad("is not printable ASCII");
        }
        if value.is_empty() {
            continue;
        }
        let ok = match field.kind {
            Kind::Text => true,
            Kind::Upper => !value.chars().any(|c| c.is_ascii_lowercase()),
            Kind::Date => value.len() == 8 && value.bytes().all(|b| b.is_ascii_digit()),
            Kind::Amount => {
                let digits = value.strip_prefix('-').unwrap_or(value);
                digits.split_once('.').is_some_and(|(w, c)| {
                    !w.is_empty()
                        && c.len() == 2
                        && (w.to_owned() + c).bytes().all(|b| b.is_ascii_digit())
                })
            }
        };
        if !ok {
            return bad(&format!("is not a valid {:?} value", field.kind));
        }
    }
    Ok(())
}

/// The `HDR` record that opens a v8.4 file.
pub fn header(soft_name: &str, soft_version: &str) -> Vec<String> {
    vec![
        "HDR".into(),
        "FEC".into(),
        VERSION.into(),
        text(soft_name, 90),
        text(soft_version, 16),
        String::new(),
        String::new(),
        String::new(),
    ]
}

/// A whole file: the header, then each record, one a line.
pub fn file(header: &[String], records: &[Vec<String>]) -> String {
    let mut out = String::new();
    for record in std::iter::once(header).chain(records.iter().map(Vec::as_slice)) {
        out.push_str(&record.join(&FS.to_string()));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
