//! Events on the public site: `/events` (upcoming, soonest first, then the most recent past
//! ones), `/events/{slug}` (one event with its RSVP form and schema.org `Event` JSON-LD),
//! `/events.ics` (a calendar to subscribe to), `events/sitemap.xml`, the pages an RSVP
//! posted without JavaScript lands on, and the "next events" section of Take Action.
//!
//! Only published and cancelled events are public; a draft never is. The private video
//! link of an online event is not even read here: it lives in the api's mail and the
//! attendee's own page, so no public file can carry it.
//!
//! - [`store`]: the one query on `events` the public side makes;
//! - [`ics`]: RFC 5545 calendars, for the feed and for the api's mail;
//! - `pages`: every public file, written whole by a build and brought in line by the api
//!   after each change ([`sync`]).

pub mod ics;
mod pages;
pub mod store;

pub use pages::{
    CHECK_BODY, CHECK_TITLE, GOING_BODY, GOING_TITLE, NEXT_END, NEXT_START, WAITLISTED_BODY,
    WAITLISTED_TITLE, calendar, entry, sync, uid, write_all,
};
pub use store::{Event, Events};

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// `/events`
pub const LIST_ROUTE: &str = "/events";
/// The subscribable calendar of upcoming events.
pub const CALENDAR_FILE: &str = "events.ics";
/// The events' sitemap (the sitemap index names it).
pub const SITEMAP_FILE: &str = "events/sitemap.xml";
/// Where an RSVP posted without JavaScript lands: it waits for the link mailed to its
/// address, and takes a seat (or a place on the waitlist) only from there.
pub const CHECK_ROUTE: &str = "/events/check-email";
/// Past events `/events` still lists under the upcoming ones.
pub const PAST_SHOWN: usize = 20;
/// Upcoming events Take Action shows.
pub const NEXT_SHOWN: usize = 3;

/// `/events/{slug}`
pub fn event_route(slug: &str) -> String {
    format!("{LIST_ROUTE}/{slug}")
}

/// The label of an event's kind, as pages and mail show it.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "town_hall" => "Town hall",
        "petitioning_shift" => "Petitioning shift",
        "meeting" => "Meeting",
        _ => "Event",
    }
}

/// The kinds staff may choose.
pub const KINDS: [&str; 4] = ["town_hall", "petitioning_shift", "meeting", "other"];

/// The time zone named `name`, or UTC when it is unknown (names are checked when saved).
pub fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap_or(TimeZone::UTC)
}

/// "Thursday, December 10, 2026"
pub fn display_day(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%A, %B %-d, %Y")
        .to_string()
}

/// "6:00 PM"
pub fn display_time(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%-I:%M %p")
        .to_string()
}

/// "Thursday, December 10, 2026, 6:00 PM – 8:00 PM CST" (the end's day too when it differs).
pub fn display_span(start: Timestamp, end: Timestamp, tz: &TimeZone) -> String {
    let abbr = start
        .to_zoned_datetime(tz.clone())
        .strftime("%Z")
        .to_string();
    let (day, end_day) = (display_day(start, tz), display_day(end, tz));
    if day == end_day {
        format!(
            "{day}, {} – {} {abbr}",
            display_time(start, tz),
            display_time(end, tz)
        )
    } else {
        format!(
            "{day}, {} – {end_day}, {} {abbr}",
            display_time(start, tz),
            display_time(end, tz)
        )
    }
}

/// The instant with its offset in `tz`: "2026-12-10T18:00:00-06:00" (schema.org's form).
pub fn with_offset(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_local_ones() {
        let tz = zone("America/Chicago");
        let start: Timestamp = "2026-12-11T00:00:00Z".parse().unwrap();
        let end: Timestamp = "2026-12-11T02:00:00Z".parse().unwrap();
        assert_eq!(
            display_span(start, end, &tz),
            "Thursday, December 10, 2026, 6:00 PM – 8:00 PM CST"
        );
        assert_eq!(with_offset(start, &tz), "2026-12-10T18:00:00-06:00");
        let summer: Timestamp = "2026-07-04T15:00:00Z".parse().unwrap();
        assert_eq!(with_offset(summer, &tz), "2026-07-04T10:00:00-05:00");
        let late: Timestamp = "2026-12-11T07:00:00Z".parse().unwrap();
        assert_eq!(
            display_span(start, late, &tz),
            "Thursday, December 10, 2026, 6:00 PM – Friday, December 11, 2026, 1:00 AM CST"
        );
    }
}
