//! Calendar files (RFC 5545): the subscribable `/events.ics` and the `.ics` the api attaches
//! to its mail. An event's `UID` is made from its id alone, so a change (with `SEQUENCE`
//! one higher) moves the event already in someone's calendar instead of adding a second,
//! and `METHOD:CANCEL` removes it. Times are `DTSTART;TZID=` local times with the zone's
//! `VTIMEZONE`, so a calendar in any zone shows the right instant.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::tz::{Offset, TimeZone};
use jiff::{SignedDuration, Timestamp};

/// Someone named in an invitation.
#[derive(Debug, Clone)]
pub struct Party<'a> {
    pub name: &'a str,
    pub email: &'a str,
}

/// One `VEVENT`.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub uid: String,
    pub sequence: i64,
    pub summary: &'a str,
    /// Plain text.
    pub description: String,
    pub start: Timestamp,
    pub end: Timestamp,
    pub time_zone: &'a str,
    pub location: Option<String>,
    pub url: String,
    pub cancelled: bool,
    /// When the entry was written (`DTSTAMP`).
    pub stamp: Timestamp,
    pub organizer: Option<Party<'a>>,
    pub attendee: Option<Party<'a>>,
}

/// A whole calendar: `method` is `REQUEST` or `CANCEL` for mail, `None` for the feed.
pub fn calendar(name: &str, method: Option<&str>, entries: &[Entry<'_>]) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(
        &mut out,
        &format!("PRODID:-//{}//Events//EN", text(name).replace("//", "/")),
    );
    line(&mut out, "CALSCALE:GREGORIAN");
    if let Some(method) = method {
        line(&mut out, &format!("METHOD:{method}"));
    } else {
        line(&mut out, &format!("X-WR-CALNAME:{}", text(name)));
    }
    // One VTIMEZONE per zone, covering every entry in it.
    let mut spans: BTreeMap<&str, (Timestamp, Timestamp)> = BTreeMap::new();
    for e in entries {
        let span = spans.entry(e.time_zone).or_insert((e.start, e.end));
        span.0 = span.0.min(e.start);
        span.1 = span.1.max(e.end);
    }
    for (tz, (from, to)) in &spans {
        vtimezone(&mut out, tz, *from, *to);
    }
    for e in entries {
        vevent(&mut out, e, method);
    }
    line(&mut out, "END:VCALENDAR");
    out
}

fn vevent(out: &mut String, e: &Entry<'_>, method: Option<&str>) {
    let tz = super::zone(e.time_zone);
    line(out, "BEGIN:VEVENT");
    line(out, &format!("UID:{}", e.uid));
    line(out, &format!("SEQUENCE:{}", e.sequence));
    line(out, &format!("DTSTAMP:{}", utc(e.stamp)));
    line(
        out,
        &format!("DTSTART;TZID={}:{}", e.time_zone, local(e.start, &tz)),
    );
    line(
        out,
        &format!("DTEND;TZID={}:{}", e.time_zone, local(e.end, &tz)),
    );
    line(out, &format!("SUMMARY:{}", text(e.summary)));
    if !e.description.is_empty() {
        line(out, &format!("DESCRIPTION:{}", text(&e.description)));
    }
    if let Some(location) = &e.location {
        line(out, &format!("LOCATION:{}", text(location)));
    }
    line(out, &format!("URL:{}", e.url));
    let status = if e.cancelled || method == Some("CANCEL") {
        "CANCELLED"
    } else {
        "CONFIRMED"
    };
    line(out, &format!("STATUS:{status}"));
    if let Some(o) = &e.organizer {
        line(
            out,
            &format!("ORGANIZER;CN={}:mailto:{}", param(o.name), o.email),
        );
    }
    if let Some(a) = &e.attendee {
        line(
            out,
            &format!(
                "ATTENDEE;CN={};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:{}",
                param(a.name),
                a.email
            ),
        );
    }
    line(out, "END:VEVENT");
}

/// The zone's rules from the change in force at `from` through every change up to `to`.
fn vtimezone(out: &mut String, name: &str, from: Timestamp, to: Timestamp) {
    let tz = super::zone(name);
    line(out, "BEGIN:VTIMEZONE");
    line(out, &format!("TZID:{name}"));
    let mut changes: Vec<(Timestamp, Offset, Offset, String, bool)> = Vec::new();
    let change = |t: jiff::tz::TimeZoneTransition<'_>| {
        let before = tz.to_offset(t.timestamp() - SignedDuration::from_secs(1));
        (
            t.timestamp(),
            before,
            t.offset(),
            t.abbreviation().to_owned(),
            t.dst().is_dst(),
        )
    };
    if let Some(t) = tz.preceding(from + SignedDuration::from_secs(1)).next() {
        changes.push(change(t));
    }
    for t in tz.following(from).take_while(|t| t.timestamp() <= to) {
        if changes.last().is_none_or(|c| c.0 != t.timestamp()) {
            changes.push(change(t));
        }
    }
    if changes.is_empty() {
        // A zone that never changed (UTC): one rule from the start of time.
        let info = tz.to_offset_info(from);
        changes.push((
            Timestamp::UNIX_EPOCH,
            info.offset(),
            info.offset(),
            info.abbreviation().to_owned(),
            false,
        ));
    }
    for (at, before, after, abbr, dst) in changes {
        let kind = if dst { "DAYLIGHT" } else { "STANDARD" };
        line(out, &format!("BEGIN:{kind}"));
        // The moment of change, in the time that was in force until then.
        let start = before.to_datetime(at).strftime("%Y%m%dT%H%M%S");
        line(out, &format!("DTSTART:{start}"));
        line(out, &format!("TZOFFSETFROM:{}", offset(before)));
        line(out, &format!("TZOFFSETTO:{}", offset(after)));
        line(out, &format!("TZNAME:{}", text(&abbr)));
        line(out, &format!("END:{kind}"));
    }
    line(out, "END:VTIMEZONE");
}

fn offset(o: Offset) -> String {
    let secs = o.seconds();
    let sign = if secs < 0 { '-' } else { '+' };
    let secs = secs.unsigned_abs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if s == 0 {
        format!("{sign}{h:02}{m:02}")
    } else {
        format!("{sign}{h:02}{m:02}{s:02}")
    }
}

/// `20261211T000000Z`
pub fn utc(at: Timestamp) -> String {
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

/// `20261210T180000`, the wall-clock time in `tz`.
fn local(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%Y%m%dT%H%M%S")
        .to_string()
}

/// A TEXT value: backslash, semicolon, comma and newlines escaped; other controls dropped.
pub fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A parameter value (a name in `CN=`): quoted, with no quotes or controls inside.
fn param(value: &str) -> String {
    let clean: String = value
        .chars()
        .filter(|c| *c != '"' && !c.is_control())
        .collect();
    format!("\"{clean}\"")
}

/// Appends one content line, folded at 75 octets (never inside a character), with CRLF.
fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        let len = c.len_utf8();
        if width + len > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
}

/// An "add to Google Calendar" link for an event.
pub fn google_link(e: &Entry<'_>) -> String {
    let mut url = String::from("https://calendar.google.com/calendar/render?action=TEMPLATE");
    let mut add = |key: &str, value: &str| {
        let _ = write!(url, "&{key}={}", urlencoding(value));
    };
    add("text", e.summary);
    add("dates", &format!("{}/{}", utc(e.start), utc(e.end)));
    add("ctz", e.time_zone);
    add("details", &format!("{}\n\n{}", e.description, e.url));
    if let Some(location) = &e.location {
        add("location", location);
    }
    url
}

fn urlencoding(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(start: &str, end: &str, tz: &'static str) -> Entry<'static> {
        Entry {
            uid: "event-7@party.example".into(),
            sequence: 2,
            summary: "Town hall; ballot access, and you",
            description: "Line one\nLine two".into(),
            start: start.parse().unwrap(),
            end: end.parse().unwrap(),
            time_zone: tz,
            location: Some("12 Main St, Springfield, IL".into()),
            url: "https://party.example/events/town-hall".into(),
            cancelled: false,
            stamp: "2026-11-01T12:00:00Z".parse().unwrap(),
            organizer: Some(Party {
                name: "The Party",
                email: "info@party.example",
            }),
            attendee: None,
        }
    }

    #[test]
    fn an_event_carries_its_zone_and_escapes_its_text() {
        let ics = calendar(
            "The Party",
            Some("REQUEST"),
            &[entry(
                "2026-12-11T00:00:00Z",
                "2026-12-11T02:00:00Z",
                "America/Chicago",
            )],
        );
        assert!(ics.ends_with("END:VCALENDAR\r\n"));
        assert!(ics.contains("DTSTART;TZID=America/Chicago:20261210T180000\r\n"));
        assert!(ics.contains("SUMMARY:Town hall\\; ballot access\\, and you\r\n"));
        assert!(ics.contains("DESCRIPTION:Line one\\nLine two\r\n"));
        assert!(ics.contains("BEGIN:VTIMEZONE\r\nTZID:America/Chicago\r\n"));
        // The rule in force in December: CST since the first Sunday of November.
        assert!(ics.contains(
            "BEGIN:STANDARD\r\nDTSTART:20261101T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0600\r\nTZNAME:CST\r\nEND:STANDARD"
        ), "{ics}");
        for l in ics.split("\r\n") {
            assert!(l.len() <= 75, "{l}");
        }
    }

    #[test]
    fn a_span_across_a_change_carries_both_rules() {
        let ics = calendar(
            "P",
            None,
            &[entry(
                "2026-03-07T18:00:00Z",
                "2026-03-09T18:00:00Z",
                "America/New_York",
            )],
        );
        assert!(ics.contains("TZNAME:EST"));
        assert!(ics.contains(
            "BEGIN:DAYLIGHT\r\nDTSTART:20260308T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400"
        ), "{ics}");
        assert!(!ics.contains("METHOD:"));
    }

    #[test]
    fn long_lines_fold_between_characters() {
        let mut out = String::new();
        line(&mut out, &format!("DESCRIPTION:{}", "é".repeat(100)));
        for l in out.split("\r\n") {
            assert!(l.len() <= 75);
        }
        let unfolded = out.replace("\r\n ", "");
        assert_eq!(unfolded, format!("DESCRIPTION:{}\r\n", "é".repeat(100)));
    }

    #[test]
    fn a_zone_without_changes_still_has_a_rule() {
        let ics = calendar(
            "P",
            None,
            &[entry("2026-12-11T00:00:00Z", "2026-12-11T02:00:00Z", "UTC")],
        );
        assert!(
            ics.contains("TZOFFSETFROM:+0000\r\nTZOFFSETTO:+0000"),
            "{ics}"
        );
    }
}
