//! CSV exports of the staff lists, written with the `csv` crate: a header row, RFC 4180
//! quoting, a UTF-8 byte-order mark (so Excel reads accents right), and no cell a
//! spreadsheet would run as a formula. Times are in the party's time zone. The downloads
//! themselves (file names, headers) are `routes::admin::downloads`.

use std::borrow::Cow;

use generator::config::SiteConfig;

/// One export: its kind (in the file name), column headings and rows.
pub struct Sheet {
    /// `contacts`, `volunteers`, `newsletters`, `donations` or `blogs`.
    pub kind: &'static str,
    pub headers: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

/// The file's bytes: byte-order mark, headings, rows.
pub fn to_csv(sheet: &Sheet) -> csv::Result<Vec<u8>> {
    let mut out = "\u{feff}".as_bytes().to_vec();
    {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(&mut out);
        writer.write_record(&sheet.headers)?;
        for row in &sheet.rows {
            writer.write_record(row.iter().map(|cell| safe_cell(cell).into_owned()))?;
        }
        writer.flush()?;
    }
    Ok(out)
}

/// A cell a spreadsheet will show as text: one starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return would otherwise be read as a formula (OWASP "CSV injection"), so it gets
/// a leading `'`.
pub fn safe_cell(value: &str) -> Cow<'_, str> {
    match value.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => Cow::Owned(format!("'{value}")),
        _ => Cow::Borrowed(value),
    }
}

/// A stored UTC time (`2025-01-05T14:03:00.000Z`) as `2025-01-05 09:03` in the party's time
/// zone, which every spreadsheet reads as a date; empty when absent.
pub fn local_time(site: &SiteConfig, utc: Option<&str>) -> String {
    utc.and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .map(|t| {
            t.to_zoned_datetime(site.tz())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_default()
}

/// `general_party_use` -> `General Party Use`.
pub fn words(snake: &str) -> String {
    snake
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> SiteConfig {
        generator::content::read_yaml(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../generator/tests/fixtures/site/content/site.yaml"),
        )
        .unwrap()
    }

    #[test]
    fn formulas_become_text_and_quoting_follows_rfc_4180() {
        let sheet = Sheet {
            kind: "contacts",
            headers: vec!["A", "B"],
            rows: vec![
                vec!["=HYPERLINK(\"http://x\")".into(), "+1 555".into()],
                vec!["-2+3".into(), "@SUM(A1)".into()],
                vec!["\tx".into(), "a, \"b\"\nc".into()],
                vec!["plain".into(), "Zoë".into()],
            ],
        };
        let bytes = to_csv(&sheet).unwrap();
        assert!(bytes.starts_with("\u{feff}".as_bytes()));
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.contains("\"'=HYPERLINK(\"\"http://x\"\")\",'+1 555\r\n"),
            "{text}"
        );
        assert!(text.contains("'-2+3,'@SUM(A1)\r\n"));
        assert!(text.contains("'\tx,\"a, \"\"b\"\"\nc\"\r\n"), "{text:?}");
        assert!(text.ends_with("plain,Zoë\r\n"));
    }

    #[test]
    fn times_are_in_the_party_time_zone() {
        // The fixture party is in America/Chicago: UTC-6 in January.
        assert_eq!(
            local_time(&site(), Some("2025-01-05T14:03:59.123Z")),
            "2025-01-05 08:03"
        );
        assert_eq!(local_time(&site(), None), "");
        assert_eq!(local_time(&site(), Some("not a time")), "");
    }

    #[test]
    fn purposes_read_as_words() {
        assert_eq!(words("general_party_use"), "General Party Use");
        assert_eq!(words("legal_proceedings"), "Legal Proceedings");
    }
}
