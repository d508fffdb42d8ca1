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
    // Each address its own person: the contributor is the name and street (donations::contributors).
    let first = email.split('@').next().unwrap_or_default();
    let mut info = json!({
        "donorFirstName": first, "donorLastName": "Lovelace", "donorEmail": email,
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

/// Gift `id` is paid: completed, and its contributor known (as `completion::completed` does).
fn paid(c: &Connection, id: i64) -> rusqlite::Result<()> {
    set_status(c, id, "completed")?;
    contributors::assign(c, id, Timestamp::now()).map(|_| ())
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
    with_conn(&db, move |c| paid(c, first.id)).await;
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
    // With the answers it goes through. An unpaid set-up counts against nothing (anyone can
    // make one in anyone's name): only what is paid does.
    let big = with_conn(&db, {
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
    let reserve_151 = || {
        let r = r.clone();
        with_conn(&db, move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift("ada@example.org", json!(151), true),
                0,
                Timestamp::now(),
                true,
            )
        })
    };
    assert!(
        reserve_151().await.is_ok(),
        "a pending $44,000 takes no room"
    );
    with_conn(&db, move |c| paid(c, big.id)).await;
    let over = reserve_151().await.unwrap_err();
    assert_eq!(
        over.message,
        "This amount would exceed your annual limit. You can donate up to $150 more this year."
    );
    let totals = with_conn(&db, |c| {
        totals(c, Whose::Address("ada@example.org"), 2026, Timestamp::now())
    })
    .await;
    assert_eq!(
        totals,
        Totals {
            completed: 4_415_000,
            pending: 15_100
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
        with_conn(&db, move |c| totals(
            c,
            Whose::Address("cy@example.org"),
            2026,
            held
        ))
        .await,
        Totals {
            completed: 0,
            pending: 4_000
        }
    );
    assert!(with_conn(&db, move |c| expire(c, held)).await.is_empty());
    let past = start + HOLD;
    assert_eq!(
        with_conn(&db, move |c| totals(
            c,
            Whose::Address("cy@example.org"),
            2026,
            past
        ))
        .await,
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

/// A set-up from a browser without the donor's pass is answered from the request alone:
/// the same for a donor and for someone who never gave. The donor's own browser hears the
/// spec's sentences, which count what they gave.
#[tokio::test]
async fn an_unverified_set_up_is_answered_from_the_request_alone() {
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
                true,
            )
        }
    })
    .await
    .unwrap();
    with_conn(&db, move |c| paid(c, first.id)).await;
    let try_one = |email: &'static str, amount: i64, itemized: bool, verified: bool| {
        let r = r.clone();
        with_conn(&db, move |c| {
            reserve(
                c,
                &r,
                2026,
                &gift(email, json!(amount), itemized),
                0,
                now,
                verified,
            )
            .map(|outcome| outcome.map(|_| ()).map_err(|refused| refused.message))
        })
    };
    for email in ["di@example.org", "never@example.org"] {
        // Past what Di has left, but not past the limit: taken (held when it is paid).
        assert_eq!(try_one(email, 301, true, false).await, Ok(()), "{email}");
        // A small gift without occupation: taken (asked after the payment if need be).
        assert_eq!(try_one(email, 25, false, false).await, Ok(()), "{email}");
        // Past the limit on its own: refused alike.
        assert_eq!(
            try_one(email, 44_301, true, false).await,
            Err("This amount would exceed your annual limit.".to_owned()),
            "{email}"
        );
        // Over $200 on its own: asked alike.
        assert_eq!(
            try_one(email, 201, false, false).await,
            Err(donations::TEXTS.additional_info.description.to_owned()),
            "{email}"
        );
    }
    assert_eq!(
        try_one("di@example.org", 301, true, true).await,
        Err(
            "This amount would exceed your annual limit. You can donate up to $300 more this year."
                .to_owned()
        )
    );
    let refused = try_one("di@example.org", 25, false, true)
        .await
        .unwrap_err();
    assert!(
        refused.ends_with("This gift brings your total for 2026 above $200."),
        "{refused}"
    );
}

/// What a paid gift gives past the limit is set to go back, and of two paid at once the
/// second returns what the first left no room for.
#[tokio::test]
async fn a_paid_gift_is_held_to_the_limit() {
    let db = Db::open_in_memory().unwrap();
    let r = rules();
    let tz = jiff::tz::TimeZone::UTC;
    let now = Timestamp::now();
    let mut ids = Vec::new();
    for (email, amount) in [
        ("ev@example.org", 44_000),
        ("ev@example.org", 250),
        ("ev@example.org", 100),
        ("other@example.org", 44_300),
    ] {
        let r = r.clone();
        ids.push(
            with_conn(&db, move |c| {
                reserve(
                    c,
                    &r,
                    2026,
                    &gift(email, json!(amount), true),
                    0,
                    now,
                    false,
                )
            })
            .await
            .unwrap()
            .id,
        );
    }
    let complete = |id: i64| {
        let (r, tz) = (r.clone(), tz.clone());
        with_conn(&db, move |c| {
            paid(c, id)?;
            let refund = hold_to_limit(c, &r, &tz, id, now)?;
            refund
                .map(|refund| {
                    c.query_row(
                        "SELECT amount_cents, origin, status FROM donation_refunds WHERE id = ?1",
                        [refund],
                        |row| {
                            Ok((
                                row.get::<_, i64>(0)?,
                                row.get::<_, String>(1)?,
                                row.get::<_, String>(2)?,
                            ))
                        },
                    )
                })
                .transpose()
        })
    };
    assert_eq!(complete(ids[0]).await, None);
    assert_eq!(complete(ids[1]).await, None, "$44,250 is within the limit");
    assert_eq!(
        complete(ids[2]).await,
        Some((5_000, "limit".to_owned(), "requested".to_owned())),
        "$50 of the third gift passes the limit"
    );
    assert_eq!(
        complete(ids[3]).await,
        None,
        "another donor's year is their own"
    );
    // Completing again (a replay) adds nothing: what is held is already set to go back.
    assert_eq!(
        with_conn(&db, {
            let (r, tz) = (r.clone(), tz.clone());
            move |c| hold_to_limit(c, &r, &tz, ids[2], now)
        })
        .await,
        None
    );
}
