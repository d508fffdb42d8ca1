use super::*;
use crate::store::db::Db;
use serde_json::json;

fn rules() -> DonationRules {
    DonationRules {
        itemization_threshold: 200,
        annual_limits: [(2025, 44_300), (2026, 44_300)].into_iter().collect(),
    }
}

fn gift(email: &str, amount: serde_json::Value, itemized: bool) -> Donation {
    let mut info = json!({
        "donorFirstName": "Ada", "donorLastName": "Lovelace", "donorEmail": email,
        "donorAddress": "1 Main St", "donorCity": "Springfield", "donorState": "IL",
        "donorZipCode": "62701", "citizenshipConfirmed": "confirmed", "attestationsConfirmed": true,
    });
    if itemized {
        info["donorOccupation"] = json!("Engineer");
        info["donorEmployer"] = json!("Analytical Engines Ltd");
        info["contributionPurpose"] = json!("general_election");
    }
    donations::parse(&json!({ "amount": amount, "donorInfo": info })).unwrap()
}

async fn with_conn<T: Send + 'static>(
    db: &Db,
    f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
) -> T {
    db.write(move |tx| f(tx)).await.unwrap()
}

#[tokio::test]
async fn the_yearly_total_decides_the_limit_and_the_extra_questions() {
    let db = Db::open_in_memory().unwrap();
    let r = rules();
    // $150 alone needs no occupation…
    let first = with_conn(&db, {
        let r = r.clone();
        move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("ada@example.org", json!(150), false),
                0,
                Timestamp::now(),
                true,
            )
        }
    })
    .await
    .unwrap();
    with_conn(&db, move |c| set_status(c, first.id, "completed")).await;
    // …but a second $100 brings the year to $250: now it does, and says why.
    let refused = with_conn(&db, {
        let r = r.clone();
        move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("ada@example.org", json!(100), false),
                0,
                Timestamp::now(),
                true,
            )
        }
    })
    .await
    .unwrap_err();
    assert_eq!(refused.field, Some("donorOccupation"));
    assert!(
        refused
            .message
            .ends_with("This gift brings your total for 2026 above $200.")
    );
    // A gift in another year starts from nothing.
    assert!(
        with_conn(&db, {
            let r = r.clone();
            move |c| {
                reserve(
                    c,
                    &r,
                    2025,
                    &gift("ada@example.org", json!(100), false),
                    0,
                    Timestamp::now(),
                    true,
                )
            }
        })
        .await
        .is_ok()
    );
    // With the answers it goes through, and the limit counts pending gifts too.
    with_conn(&db, {
        let r = r.clone();
        move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("ada@example.org", json!(44_000), true),
                0,
                Timestamp::now(),
                true,
            )
        }
    })
    .await
    .unwrap();
    let over = with_conn(&db, {
        let r = r.clone();
        move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("ada@example.org", json!(151), true),
                0,
                Timestamp::now(),
                true,
            )
        }
    })
    .await
    .unwrap_err();
    assert_eq!(
        over.message,
        "This amount would exceed your annual limit. You can donate up to $150 more this year."
    );
    let totals = with_conn(&db, |c| {
        totals(c, "ada@example.org", 2026, Timestamp::now())
    })
    .await;
    assert_eq!(
        totals,
        Totals {
            completed: 15_000,
            pending: 4_400_000
        }
    );
}

#[tokio::test]
async fn events_apply_once_and_only_forward() {
    let db = Db::open_in_memory().unwrap();
    let r = rules();
    let gift_row = with_conn(&db, move |c| {
        reserve(
            c,
            &r,
            2026,
            &gift("bo@example.org", json!(25), false),
            0,
            Timestamp::now(),
            true,
        )
    })
    .await
    .unwrap();
    let id = gift_row.id;
    with_conn(&db, move |c| set_intent(c, id, "pi_1")).await;
    let event = |n: u32, outcome, amount| PaymentEvent {
        event_id: format!("evt_{n}"),
        event_type: "payment_intent.x".into(),
        outcome,
        intent_id: "pi_1".into(),
        amount_cents: amount,
        currency: "usd".into(),
        donation_id: Some(id),
        payment_method: None,
    };
    let apply_one = |e: PaymentEvent| with_conn(&db, move |c| apply(c, &e));
    assert_eq!(
        apply_one(event(1, Outcome::Failed, 2500)).await,
        Applied::Changed {
            id,
            from: "pending".into(),
            to: "failed"
        }
    );
    assert_eq!(
        apply_one(event(1, Outcome::Failed, 2500)).await,
        Applied::Duplicate
    );
    assert_eq!(
        apply_one(event(2, Outcome::Succeeded, 9900)).await,
        Applied::Mismatch { id }
    );
    assert_eq!(
        apply_one(event(3, Outcome::Succeeded, 2500)).await,
        Applied::Changed {
            id,
            from: "failed".into(),
            to: "completed"
        }
    );
    assert_eq!(
        apply_one(event(4, Outcome::Canceled, 2500)).await,
        Applied::Unchanged {
            id,
            status: "completed".into()
        }
    );
    let mut other = event(5, Outcome::Succeeded, 2500);
    other.intent_id = "pi_elsewhere".into();
    other.donation_id = None;
    assert_eq!(apply_one(other).await, Applied::Unknown);
}

#[tokio::test]
async fn unpaid_gifts_hold_their_place_for_minutes_then_expire_once() {
    let db = Db::open_in_memory().unwrap();
    let r = rules();
    let start = Timestamp::now();
    let set_up = with_conn(&db, move |c| {
        reserve(
            c,
            &r,
            2026,
            &gift("cy@example.org", json!(40), false),
            0,
            start,
            true,
        )
    })
    .await
    .unwrap();
    with_conn(&db, move |c| set_intent(c, set_up.id, "pi_old")).await;
    let held = start + HOLD - SignedDuration::from_secs(1);
    assert_eq!(
        with_conn(&db, move |c| totals(c, "cy@example.org", 2026, held)).await,
        Totals {
            completed: 0,
            pending: 4_000
        }
    );
    assert!(with_conn(&db, move |c| expire(c, held)).await.is_empty());
    let past = start + HOLD;
    assert_eq!(
        with_conn(&db, move |c| totals(c, "cy@example.org", 2026, past)).await,
        Totals::default()
    );
    assert_eq!(
        with_conn(&db, move |c| expire(c, past)).await,
        vec![(set_up.id, Some("pi_old".to_owned()))]
    );
    assert!(
        with_conn(&db, move |c| expire(c, past)).await.is_empty(),
        "once"
    );
}

#[tokio::test]
async fn a_refusal_names_earlier_gifts_only_when_it_may() {
    let db = Db::open_in_memory().unwrap();
    let r = rules();
    let now = Timestamp::now();
    let first = with_conn(&db, {
        let r = r.clone();
        move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("di@example.org", json!(44_000), true),
                0,
                now,
                false,
            )
        }
    })
    .await
    .unwrap();
    with_conn(&db, move |c| set_status(c, first.id, "completed")).await;
    for (reveal, expected) in [
        (false, "This amount would exceed your annual limit."),
        (
            true,
            "This amount would exceed your annual limit. You can donate up to $300 more this year.",
        ),
    ] {
        let r = r.clone();
        let refused = with_conn(&db, move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("di@example.org", json!(301), true),
                0,
                now,
                reveal,
            )
        })
        .await
        .unwrap_err();
        assert_eq!(refused.message, expected);
    }
    // Earlier gifts that make a small one need the extra answers: said without amounts.
    let r2 = r.clone();
    let refused = with_conn(&db, move |c| {
        reserve(
            c,
            &r2,
            2026,
            &gift("di@example.org", json!(25), false),
            0,
            now,
            false,
        )
    })
    .await
    .unwrap_err();
    assert_eq!(
        refused.message,
        donations::TEXTS.additional_info.description
    );
}

#[test]
fn log_lines_never_carry_a_whole_address() {
    assert_eq!(masked("ada@example.org"), "a\u{2026}@example.org");
    assert_eq!(masked("nonsense"), "\u{2026}");
}
