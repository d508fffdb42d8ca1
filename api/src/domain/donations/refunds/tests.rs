use super::*;
use crate::domain::donations::disputes::*;
use crate::domain::donations::{Whose, totals};
use crate::store::db::Db;
use serde_json::json;

fn tz() -> TimeZone {
    TimeZone::get("America/Chicago").unwrap()
}

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// A completed $100 gift of 2026 paid with `pi_1`, and the db.
async fn gift() -> Db {
    let db = Db::open_in_memory().unwrap();
    db.write(|c| {
        c.execute_batch(
            "INSERT INTO donations (id, amount_cents, donor_name, donor_email, donor_address, donor_city, \
                 donor_state, donor_zip_code, status, payment_intent_id, contribution_year, created_at) \
             VALUES (1, 10000, 'Ada Lovelace', 'ada@example.org', '1 Main St', 'Springfield', 'IL', \
                 '62701', 'completed', 'pi_1', 2026, '2026-03-01T15:00:00.000Z');",
        )
    })
    .await
    .unwrap();
    db
}

fn refund(id: &str, cents: i64, status: &str, created: &str) -> StripeRefund {
    StripeRefund {
        id: id.into(),
        amount_cents: cents,
        status: status.into(),
        created: at(created),
        payment_intent: Some("pi_1".into()),
        request: None,
        reason: Some("requested_by_customer".into()),
    }
}

async fn year_total(db: &Db, year: i16) -> i64 {
    db.read(move |c| {
        totals(
            c,
            Whose::Address("ada@example.org"),
            year,
            at("2027-06-01T00:00:00Z"),
        )
    })
    .await
    .unwrap()
    .completed
}

#[test]
fn amounts_are_dollars_and_cents_above_zero() {
    let ok = |v: serde_json::Value| parse_amount(Some(&v));
    assert_eq!(ok(json!(12.5)), Ok(1250));
    assert_eq!(ok(json!("12.50")), Ok(1250));
    assert_eq!(ok(json!("$0.05")), Ok(5));
    assert_eq!(ok(json!(".5")), Ok(50));
    for bad in [
        json!(0),
        json!("0.00"),
        json!(-5),
        json!("-1"),
        json!("1.234"),
        json!("ten"),
        json!(true),
        json!(""),
    ] {
        let err = ok(bad.clone()).unwrap_err();
        assert_eq!(err.field, Some("amount"), "{bad}");
    }
    assert_eq!(
        parse_amount(None).unwrap_err().message,
        "Enter the amount to refund."
    );
}

#[test]
fn a_reason_is_required_and_plain() {
    assert_eq!(
        parse_reason(Some(&json!("  Donor asked  "))),
        Ok("Donor asked".into())
    );
    assert!(parse_reason(Some(&json!("   "))).is_err());
    assert!(parse_reason(None).is_err());
    assert!(parse_reason(Some(&json!(5))).is_err());
    assert!(parse_reason(Some(&json!("x".repeat(REASON_MAX + 1)))).is_err());
    assert!(parse_reason(Some(&json!("bell\u{7}"))).is_err());
}

#[tokio::test]
async fn a_refund_counts_once_whatever_the_order_of_its_reports() {
    let db = gift().await;
    let now = at("2026-04-02T12:00:00Z");
    let first = db
        .write(move |c| {
            record(
                c,
                &tz(),
                &refund("re_1", 2500, "pending", "2026-04-02T10:00:00Z"),
                now,
            )
        })
        .await
        .unwrap();
    assert!(matches!(
        first,
        Recorded::Refund {
            newly_counted: true,
            ..
        }
    ));
    // The same refund again (a replay), then succeeded: no second row, no second notice.
    for status in ["pending", "succeeded", "pending"] {
        let again = db
            .write(move |c| {
                record(
                    c,
                    &tz(),
                    &refund("re_1", 2500, status, "2026-04-02T10:00:00Z"),
                    now,
                )
            })
            .await
            .unwrap();
        assert!(
            matches!(
                again,
                Recorded::Refund {
                    newly_counted: false,
                    newly_failed: false,
                    ..
                }
            ),
            "{status}"
        );
    }
    assert_eq!(year_total(&db, 2026).await, 7500);
    let status: String = db
        .read(|c| c.query_row("SELECT status FROM donation_refunds", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(
        status, "succeeded",
        "a stale pending does not undo succeeded"
    );

    // It fails later: the money counts again, staff are told once, and a stale success
    // cannot bring it back.
    let failed = db
        .write(move |c| {
            record(
                c,
                &tz(),
                &refund("re_1", 2500, "failed", "2026-04-02T10:00:00Z"),
                now,
            )
        })
        .await
        .unwrap();
    assert!(matches!(
        failed,
        Recorded::Refund {
            newly_failed: true,
            ..
        }
    ));
    let stale = db
        .write(move |c| {
            record(
                c,
                &tz(),
                &refund("re_1", 2500, "succeeded", "2026-04-02T10:00:00Z"),
                now,
            )
        })
        .await
        .unwrap();
    assert!(matches!(
        stale,
        Recorded::Refund {
            newly_counted: false,
            newly_failed: false,
            ..
        }
    ));
    assert_eq!(year_total(&db, 2026).await, 10000);
}

#[tokio::test]
async fn a_refund_lowers_only_its_gifts_year_and_only_when_made_that_year() {
    let db = gift().await;
    let now = at("2027-01-05T12:00:00Z");
    // Refunded on January 4, 2027 (party time): 2026 stays as reported, 2027 has no gift.
    db.write(move |c| {
        record(
            c,
            &tz(),
            &refund("re_late", 4000, "succeeded", "2027-01-04T18:00:00Z"),
            now,
        )
    })
    .await
    .unwrap();
    assert_eq!(year_total(&db, 2026).await, 10000);
    assert_eq!(year_total(&db, 2027).await, 0);
    // 11 pm on December 31 in Chicago is already January 1 in UTC: still 2026.
    db.write(move |c| {
        record(
            c,
            &tz(),
            &refund("re_eve", 1000, "succeeded", "2027-01-01T05:00:00Z"),
            now,
        )
    })
    .await
    .unwrap();
    assert_eq!(year_total(&db, 2026).await, 9000);
}

#[tokio::test]
async fn staff_cannot_ask_for_more_than_is_left_or_from_a_gift_not_completed() {
    let db = gift().await;
    let now = at("2026-04-02T12:00:00Z");
    let asked = db
        .write(move |c| request(c, &tz(), 1, 6000, ("Asked", None), now))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(asked.payment_intent, "pi_1");
    // The requested $60 holds its place: only $40 is left.
    let too_much = db
        .write(move |c| request(c, &tz(), 1, 4001, ("Again", None), now))
        .await
        .unwrap();
    assert_eq!(
        too_much,
        Err(Refused::TooMuch {
            refundable_cents: 4000
        })
    );
    // A failed call frees it.
    db.write(move |c| request_failed(c, asked.id, now))
        .await
        .unwrap();
    assert_eq!(db.read(|c| refundable(c, 1)).await.unwrap(), 10000);
    assert_eq!(
        db.write(move |c| request(c, &tz(), 2, 100, ("No such gift", None), now))
            .await
            .unwrap(),
        Err(Refused::NotFound)
    );
    db.write(|c| c.execute_batch("UPDATE donations SET status = 'pending' WHERE id = 1"))
        .await
        .unwrap();
    assert!(matches!(
        db.write(move |c| request(c, &tz(), 1, 100, ("Pending", None), now)).await.unwrap(),
        Err(Refused::NotRefundable(why)) if why.contains("this one is pending")
    ));
}

#[tokio::test]
async fn the_admins_request_is_the_row_its_own_event_finds() {
    let db = gift().await;
    let now = at("2026-04-02T12:00:00Z");
    let asked = db
        .write(move |c| request(c, &tz(), 1, 3000, ("Donor asked", None), now))
        .await
        .unwrap()
        .unwrap();
    // The event comes first, naming the request in its metadata.
    let mut from_event = refund("re_admin", 3000, "succeeded", "2026-04-02T12:00:01Z");
    from_event.request = Some(asked.id);
    let by_event = db
        .write({
            let r = from_event.clone();
            move |c| record(c, &tz(), &r, now)
        })
        .await
        .unwrap();
    assert!(
        matches!(&by_event, Recorded::Refund { id, origin, newly_counted: true, .. } if *id == asked.id && origin == "admin")
    );
    // Then Stripe's answer to the admin's call: the same row, nothing new.
    let by_answer = db
        .write(move |c| record(c, &tz(), &from_event, now))
        .await
        .unwrap();
    assert!(matches!(
        by_answer,
        Recorded::Refund {
            newly_counted: false,
            ..
        }
    ));
    let rows: Vec<(String, String)> = db
        .read(|c| {
            let mut s = c.prepare("SELECT stripe_id, reason FROM donation_refunds")?;
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(rows, [("re_admin".to_owned(), "Donor asked".to_owned())]);
}

fn dispute(status: &str) -> StripeDispute {
    StripeDispute {
        id: "du_1".into(),
        amount_cents: 10000,
        reason: "fraudulent".into(),
        status: status.into(),
        created: at("2026-04-10T12:00:00Z"),
        payment_intent: Some("pi_1".into()),
    }
}

#[tokio::test]
async fn a_dispute_closed_before_it_was_opened_is_lost_once() {
    let db = gift().await;
    let (now, closed_at) = (at("2026-05-01T12:00:00Z"), at("2026-05-01T11:00:00Z"));
    let closed = db
        .write(move |c| apply_dispute(c, &tz(), &dispute("lost"), closed_at, now))
        .await
        .unwrap();
    assert!(matches!(
        closed,
        DisputeRecorded::Dispute {
            new: true,
            chargeback: Some(_),
            ..
        }
    ));
    // The late "created" and a replayed "closed" change nothing.
    for status in ["needs_response", "lost"] {
        let late = db
            .write(move |c| apply_dispute(c, &tz(), &dispute(status), closed_at, now))
            .await
            .unwrap();
        assert!(
            matches!(&late, DisputeRecorded::Dispute { new: false, chargeback: None, status, .. } if status == "lost")
        );
    }
    assert_eq!(
        year_total(&db, 2026).await,
        0,
        "a lost dispute counts as a refund"
    );
    assert!(!db.read(|c| open_dispute(c, 1)).await.unwrap());
}

#[tokio::test]
async fn a_won_dispute_leaves_the_gift_whole() {
    let db = gift().await;
    let now = at("2026-05-01T12:00:00Z");
    db.write(move |c| apply_dispute(c, &tz(), &dispute("needs_response"), now, now))
        .await
        .unwrap();
    assert!(db.read(|c| open_dispute(c, 1)).await.unwrap());
    assert!(matches!(
        db.write(move |c| request(c, &tz(), 1, 100, ("While disputed", None), now))
            .await
            .unwrap(),
        Err(Refused::NotRefundable(_))
    ));
    let won = db
        .write(move |c| apply_dispute(c, &tz(), &dispute("won"), now, now))
        .await
        .unwrap();
    assert!(matches!(
        won,
        DisputeRecorded::Dispute {
            closed_now: true,
            chargeback: None,
            ..
        }
    ));
    assert!(!db.read(|c| open_dispute(c, 1)).await.unwrap());
    assert_eq!(year_total(&db, 2026).await, 10000);
}

#[tokio::test]
async fn a_refund_stripe_made_after_our_call_failed_is_found_by_its_request() {
    let db = gift().await;
    let now = at("2026-04-02T12:00:00Z");
    let asked = db
        .write(move |c| request(c, &tz(), 1, 2000, ("Timed out", None), now))
        .await
        .unwrap()
        .unwrap();
    db.write(move |c| request_failed(c, asked.id, now))
        .await
        .unwrap();
    let mut made = refund("re_late_answer", 2000, "succeeded", "2026-04-02T12:00:05Z");
    made.request = Some(asked.id);
    let recorded = db
        .write(move |c| record(c, &tz(), &made, now))
        .await
        .unwrap();
    assert!(matches!(
        recorded,
        Recorded::Refund { newly_counted: true, recovered: true, id, .. } if id == asked.id
    ));
    assert_eq!(year_total(&db, 2026).await, 8000);
}
