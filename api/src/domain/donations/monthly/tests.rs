use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::*;

fn chicago() -> TimeZone {
    TimeZone::get("America/Chicago").unwrap()
}

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn charges_fall_due_monthly_in_the_party_zone_and_the_31st_comes_back() {
    let tz = chicago();
    // January 31st, 10:00 in Chicago.
    let anchor = at("2026-01-31T16:00:00Z");
    let days: Vec<String> = (0..4)
        .map(|n| {
            due_at(anchor, n, &tz)
                .to_zoned_datetime(tz.clone())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .collect();
    assert_eq!(
        days,
        [
            "2026-01-31 10:00",
            "2026-02-28 10:00",
            "2026-03-31 10:00",
            "2026-04-30 10:00"
        ]
    );
    // Across the change to summer time the local hour stays.
    let march = due_at(anchor, 2, &tz);
    assert_eq!(march, at("2026-03-31T15:00:00Z"));
}

#[test]
fn a_server_down_for_months_makes_one_missed_charge_then_goes_on_from_the_next_date() {
    let tz = chicago();
    let anchor = at("2026-01-10T16:00:00Z");
    // Charge 1 was due February 10th; the server comes back on May 2nd.
    let now = at("2026-05-02T12:00:00Z");
    let next = next_after(anchor, 1, now, &tz);
    assert_eq!(next, 4, "after the missed charge, the next is May 10th");
    assert!(due_at(anchor, next, &tz) > now);
    // A charge made on time moves on by one.
    assert_eq!(next_after(anchor, 1, at("2026-02-10T16:00:01Z"), &tz), 2);
}

#[test]
fn the_months_left_in_the_year_count_this_one() {
    let tz = chicago();
    assert_eq!(charges_this_year(at("2026-11-27T12:00:00Z"), &tz), 2);
    assert_eq!(charges_this_year(at("2026-12-31T12:00:00Z"), &tz), 1);
    assert_eq!(charges_this_year(at("2026-01-01T12:00:00Z"), &tz), 12);
    // Still December 31st in Chicago at 03:00 UTC on New Year's Day.
    assert_eq!(charges_this_year(at("2027-01-01T03:00:00Z"), &tz), 1);
}

#[test]
fn a_pause_ends_at_the_party_new_year() {
    let tz = chicago();
    assert_eq!(
        next_new_year(at("2026-11-27T12:00:00Z"), &tz),
        at("2027-01-01T06:00:00Z")
    );
}

#[test]
fn hard_declines_are_told_from_soft_ones() {
    for hard in ["stolen_card", "lost_card", "pickup_card", "account_closed"] {
        assert!(is_hard_decline(hard), "{hard}");
    }
    for soft in [
        "insufficient_funds",
        "generic_decline",
        "card_declined",
        "expired_card",
    ] {
        assert!(!is_hard_decline(soft), "{soft}");
    }
}
