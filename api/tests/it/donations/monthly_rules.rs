//! A monthly gift's rules: a decline is tried again on days 1, 3, 5 and 7 and then stops; a
//! hard decline stops at once; a new card from the mailed link starts it again; a charge
//! that would pass the year's limit is never made (the plan pauses until January); and the
//! itemisation rules apply to what the plan gives in the year.

use api::domain::donations::monthly::charge::Outcome as Charge;
use fake_stripe::CardBehaviour;
use serde_json::json;

use super::monthly::{DAY, MONTH, link, monthly_app, to};
use super::{Donate, donor, itemized};
use crate::common::TestApp;
use crate::mail::smtp::Smtp;

/// Moves both clocks on, if need be, so that a month from now is still this calendar year
/// (tests of one year's total must not cross New Year's Day by accident).
fn before_december(d: &Donate) {
    let tz = jiff::tz::TimeZone::get("America/Chicago").unwrap();
    let now = d.app.state.clock.now().to_zoned_datetime(tz);
    if now.month() == 12 || (now.month() == 11 && now.day() > 25) {
        d.advance(40 * DAY as i64);
    }
}

#[tokio::test]
async fn a_decline_is_tried_on_days_1_3_5_and_7_then_the_plan_stops_and_a_new_card_starts_it_again()
{
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(20), donor("eve@example.org")).await;
    let card = d.plan(plan).await.3.unwrap();
    d.fake.set_card_behaviour(&card, CardBehaviour::Decline);

    let done = d.pass_after(MONTH).await;
    assert!(
        matches!(
            done.as_slice(),
            [(
                _,
                Charge::Declined {
                    inactive: false,
                    ..
                }
            )]
        ),
        "{done:?}"
    );
    assert_eq!(d.plan(plan).await.0, "retrying");
    let mail = d.mail(&smtp).await;
    let declined = to(
        &mail,
        "eve@example.org",
        "Your monthly gift to Fixture Party could not be charged",
    );
    assert_eq!(declined.len(), 1);
    let text = declined[0].text();
    assert!(
        text.contains("Your card was declined for your monthly gift of $20.00"),
        "{text}"
    );
    let card_link = link(&text, "https://example.org/donate/card?token=");

    // Not before day 1; then on days 1, 3 and 5 after the first decline.
    assert!(
        d.pass_after(DAY - 3600).await.is_empty(),
        "not before a day has passed"
    );
    for wait in [3600, 2 * DAY, 2 * DAY] {
        let done = d.pass_after(wait).await;
        assert!(
            matches!(
                done.as_slice(),
                [(
                    _,
                    Charge::Declined {
                        inactive: false,
                        ..
                    }
                )]
            ),
            "{done:?}"
        );
    }
    let (status, _, failures, _) = d.plan(plan).await;
    assert_eq!((status.as_str(), failures), ("retrying", 4));
    // Day 7 is the last try.
    assert!(d.pass_after(DAY).await.is_empty(), "day 6: nothing");
    let done = d.pass_after(DAY).await;
    assert!(
        matches!(
            done.as_slice(),
            [(_, Charge::Declined { inactive: true, .. })]
        ),
        "{done:?}"
    );
    assert_eq!(d.plan(plan).await.0, "inactive");
    let tries = d.off_session_charges();
    assert_eq!(tries.len(), 5, "the first try and four retries");
    let keys: std::collections::HashSet<_> =
        tries.iter().map(|t| t.idempotency_key.clone()).collect();
    assert_eq!(keys.len(), 5, "each try its own key");
    assert!(
        d.pass_after(DAY).await.is_empty(),
        "an inactive plan is never charged"
    );
    let mail = d.mail(&smtp).await;
    assert_eq!(
        to(
            &mail,
            "eve@example.org",
            "Your monthly gift to Fixture Party could not be charged"
        )
        .len(),
        1,
        "told once"
    );
    let stopped = to(
        &mail,
        "eve@example.org",
        "Your monthly gift to Fixture Party has stopped",
    );
    assert_eq!(stopped.len(), 1);
    assert_eq!(d.gifts_of(plan).await[1].1, "failed");

    // Three weeks on, the first notice's link has run out (it works 30 days), the last
    // notice's has not.
    d.advance(23 * DAY as i64);
    let token = link(&stopped[0].text(), "https://example.org/donate/card?token=")
        .split("token=")
        .nth(1)
        .unwrap()
        .to_owned();
    let old = card_link.split("token=").nth(1).unwrap().to_owned();
    let res = d
        .app
        .post_json("/api/monthly/card", &json!({ "token": old }).to_string())
        .await;
    assert_eq!(res.status(), 410, "{:?}", res.body());
    assert_eq!(TestApp::json(&res)["message"], "This link has expired.");

    let res = d
        .app
        .post_json("/api/monthly/card", &json!({ "token": token }).to_string())
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let reply = TestApp::json(&res);
    assert_eq!(reply["plan"]["amount"], "20.00");
    assert_eq!(reply["plan"]["waiting"], true);
    let setup = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    // A declined new card is Stripe's to refuse; a good one is saved.
    let refused = d.fake.save_card(&setup, fake_stripe::DECLINED_CARD).await;
    assert_eq!(refused["error"]["code"], "card_declined");
    d.fake.save_card(&setup, "4242424242424242").await;
    let res = d
        .app
        .post_json(
            "/api/monthly/card/saved",
            &json!({ "token": token, "setupIntent": setup }).to_string(),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res)["outcome"],
        "charged",
        "the gift that was due is paid with the new card at once"
    );
    let (status, next, failures, new_card) = d.plan(plan).await;
    assert_eq!((status.as_str(), failures), ("active", 0));
    assert_ne!(new_card.as_deref(), Some(card.as_str()));
    assert!(next >= 3);
    assert_eq!(
        d.gifts_of(plan).await[1].1,
        "completed",
        "the same gift, paid late"
    );
    // Saying it again charges nothing more.
    let again = d
        .app
        .post_json(
            "/api/monthly/card/saved",
            &json!({ "token": token, "setupIntent": setup }).to_string(),
        )
        .await;
    assert_eq!(TestApp::json(&again)["outcome"], "saved");
    assert_eq!(d.off_session_charges().len(), 6);
}

#[tokio::test]
async fn a_hard_decline_stops_the_plan_at_once() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(20), donor("hal@example.org")).await;
    d.fake
        .set_card_behaviour(&d.plan(plan).await.3.unwrap(), CardBehaviour::HardDecline);
    let done = d.pass_after(MONTH).await;
    assert!(
        matches!(
            done.as_slice(),
            [(_, Charge::Declined { inactive: true, .. })]
        ),
        "{done:?}"
    );
    assert_eq!(d.plan(plan).await.0, "inactive");
    assert!(d.pass_after(DAY).await.is_empty(), "no retry");
    let mail = d.mail(&smtp).await;
    assert_eq!(
        to(
            &mail,
            "hal@example.org",
            "Your monthly gift to Fixture Party has stopped"
        )
        .len(),
        1
    );
    assert!(
        to(
            &mail,
            "hal@example.org",
            "Your monthly gift to Fixture Party could not be charged"
        )
        .is_empty()
    );
}

#[tokio::test]
async fn a_charge_that_would_pass_the_limit_is_never_made_and_the_plan_resumes_in_january() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    before_december(&d);
    let tz = jiff::tz::TimeZone::get("America/Chicago").unwrap();
    // Begun on any day but the 1st, so "January 1" would be wrong.
    if d.app.state.clock.now().to_zoned_datetime(tz.clone()).day() == 1 {
        d.advance(DAY as i64);
    }
    let begun = d.app.state.clock.now().to_zoned_datetime(tz.clone());
    let email = "ivy@example.org";
    // $44,285 given this year: a $10 plan fits once, not twice.
    d.paid(json!(44285), itemized(email)).await;
    let pass = d.pass_from_receipt(email).await;
    let res = d.give_monthly_as(json!(20), itemized(email), &pass).await;
    assert_eq!(
        res.status(),
        400,
        "a plan whose first gift passes the limit is refused (told to the donor's own browser)"
    );
    assert_eq!(d.app.count("donation_plans").await, 0);
    let (plan, _) = d.sign_up(json!(10), itemized(email)).await;

    let done = d.pass_after(MONTH).await;
    assert!(matches!(done.as_slice(), [(_, Charge::Paused)]), "{done:?}");
    assert!(
        d.off_session_charges().is_empty(),
        "nothing over the limit is ever charged"
    );
    assert_eq!(d.plan(plan).await.0, "paused");
    let charged: Vec<_> = d.gifts_of(plan).await;
    assert_eq!(
        charged.len(),
        1,
        "no gift was stored for the charge not made: {charged:?}"
    );
    let mail = d.mail(&smtp).await;
    let donor_notice = to(
        &mail,
        email,
        "Your monthly gift to Fixture Party is paused until January",
    );
    assert_eq!(donor_notice.len(), 1);
    assert!(
        donor_notice[0].text().contains("$44,300.00"),
        "{}",
        donor_notice[0].text()
    );
    // The day it really goes on: the plan's own day of the month, in January.
    let resumes = format!(
        "will start again on January {}, {}.",
        begun.day(),
        d.app.state.clock.now().to_zoned_datetime(tz.clone()).year() + 1
    );
    assert!(
        donor_notice[0].text().contains(&resumes),
        "{resumes}: {}",
        donor_notice[0].text()
    );
    assert_eq!(
        to(&mail, "staff@example.org", "A monthly gift paused at the").len(),
        1
    );
    // Passes in the meantime do nothing, and tell nobody again.
    assert!(d.pass_after(DAY).await.is_empty());

    // In January it goes on, on its own day of the month.
    let paused_in = d.app.state.clock.now().to_zoned_datetime(tz.clone()).year();
    let mut charged = Vec::new();
    for _ in 0..13 {
        charged.extend(d.pass_after(MONTH).await);
        if !charged.is_empty() {
            break;
        }
    }
    assert!(
        matches!(charged.as_slice(), [(_, Charge::Paid { .. })]),
        "{charged:?}"
    );
    assert_eq!(d.plan(plan).await.0, "active");
    let year: i64 = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT MAX(contribution_year) FROM donations WHERE plan_id = ?1",
                [plan],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(year, i64::from(paused_in) + 1, "the next year's gift");
    let mail = d.mail(&smtp).await;
    assert_eq!(
        to(
            &mail,
            email,
            "Your monthly gift to Fixture Party is paused until January"
        )
        .len(),
        1
    );
}

#[tokio::test]
async fn a_plan_that_will_pass_200_this_year_asks_for_occupation_at_sign_up_and_later_charges_ask_after()
 {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    before_december(&d);
    let tz = jiff::tz::TimeZone::get("America/Chicago").unwrap();
    let months = api::domain::donations::monthly::charges_this_year(d.app.state.clock.now(), &tz);
    assert!(months >= 2);
    // Given every month, this amount passes $200 this year; given once it would not.
    let over = 200 / months + 1;
    let res = d.give_monthly(json!(over), donor("jo@example.org")).await;
    assert_eq!(res.status(), 400);
    let body = TestApp::json(&res);
    assert_eq!(body["field"], "donorOccupation");
    assert!(
        body["message"].as_str().unwrap().ends_with("above $200."),
        "says why: {body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("Given every month"),
        "{body}"
    );
    assert_eq!(
        d.give(json!(over), donor("jo@example.org")).await.status(),
        200,
        "once it needs nothing more"
    );

    // A plan that fits, then a one-time gift: the next charge passes $200 without occupation
    // or employer. It is made, marked as asked, and the donor is asked once (best efforts).
    let email = "kit@example.org";
    let under = 200 / months;
    let (plan, _) = d.sign_up(json!(under), donor(email)).await;
    d.paid(json!(200 - under), donor(email)).await;
    let done = d.pass_after(MONTH).await;
    assert!(
        matches!(done.as_slice(), [(_, Charge::Paid { .. })]),
        "{done:?}"
    );
    let asked: Option<String> = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT info_requested_at FROM donations WHERE plan_id = ?1 AND plan_charge = 1",
                [plan],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert!(asked.is_some(), "the gift is marked as asked");
    let mail = d.mail(&smtp).await;
    let request = to(&mail, email, "A question the law asks us to put to you");
    assert_eq!(request.len(), 1);
    let text = request[0].text();
    assert!(text.contains("Federal law requires us to use our best efforts to collect and report the name, mailing address, occupation and name of employer of individuals whose contributions exceed $200.00 in a calendar year."), "{text}");
    assert!(
        !text.contains("donate"),
        "nothing but the request (and thanks): {text}"
    );
}

#[tokio::test]
async fn a_plan_for_a_donor_already_at_the_limit_is_refused_to_them_and_kept_to_nothing_from_anyone()
 {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    before_december(&d);
    let email = "max@example.org";
    d.paid(json!(44300), itemized(email)).await;
    let pass = d.pass_from_receipt(email).await;
    let before = d.fake.requests().len();
    let res = d.give_monthly_as(json!(5), itemized(email), &pass).await;
    assert_eq!(res.status(), 400);
    assert_eq!(TestApp::json(&res)["field"], "amount");
    assert_eq!(d.fake.requests().len(), before, "Stripe never heard of it");
    assert_eq!(d.app.count("donation_plans").await, 0);
    // From a browser that does not know Max gave, the plan starts like any other; its first
    // gift is paid and given back at once, and its next charge pauses until January.
    let (plan, first) = d.sign_up(json!(5), itemized(email)).await;
    assert_eq!(d.app.state.limit_refunder.run().await, 1);
    assert_eq!(
        d.fake.refunds_of_intent(&d.intent_of(first).await),
        vec![500]
    );
    let done = d.pass_after(MONTH).await;
    assert!(matches!(done.as_slice(), [(_, Charge::Paused)]), "{done:?}");
    assert!(
        d.off_session_charges().is_empty(),
        "nothing past the limit is charged"
    );
    assert_eq!(d.plan(plan).await.0, "paused");
}

/// A monthly charge whose answer from Stripe is not in yet is the plan's to ask again, not
/// the ten-minute sweep's to expire (it would cancel a charge that may have been made).
#[tokio::test]
async fn the_unpaid_gift_sweep_leaves_a_monthly_charge_waiting_on_stripe() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(15), donor("wa@example.org")).await;
    d.fake.fail_next_create(500, "Stripe is having a moment");
    let done = d.pass_after(MONTH).await;
    let Some((_, Charge::Later { donation })) = done.first().cloned() else {
        panic!("{done:?}");
    };
    assert_eq!(d.status(donation).await, "pending");
    d.advance(11 * 60);
    d.app.state.expire_donations().await;
    assert_eq!(d.status(donation).await, "pending", "not expired");
    let done = d
        .pass_after(api::domain::donations::monthly::charge::ASK_AGAIN.as_secs() as u64)
        .await;
    assert!(
        matches!(done.as_slice(), [(_, Charge::Paid { .. })]),
        "{done:?}"
    );
    assert_eq!(d.status(donation).await, "completed");
    assert_eq!(d.plan(plan).await.0, "active");
}

/// A charge declined in December and paid on its retry in January is a gift of January's
/// year (its receipt, the limit and the FEC report say so), not of its first try's.
#[tokio::test]
async fn a_charge_retried_across_new_year_counts_in_the_year_it_is_paid() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let tz = jiff::tz::TimeZone::get("America/Chicago").unwrap();
    // To November 30 at noon (this year's, or next year's once it has passed).
    let now = d.app.state.clock.now();
    let mut year = now.to_zoned_datetime(tz.clone()).year();
    let at = |year: i16| {
        jiff::civil::date(year, 11, 30)
            .at(12, 0, 0, 0)
            .to_zoned_datetime(tz.clone())
            .unwrap()
            .timestamp()
    };
    if at(year) <= now {
        year += 1;
    }
    d.advance(now.duration_until(at(year)).as_secs());
    let (plan, _) = d.sign_up(json!(20), donor("ny@example.org")).await;
    let card = d.plan(plan).await.3.unwrap();
    d.fake.set_card_behaviour(&card, CardBehaviour::Decline);
    // Due December 30: declined, and again on the first retry, December 31.
    let first = d.pass_after(30 * DAY).await;
    let Some((_, Charge::Declined { donation, .. })) = first.first().cloned() else {
        panic!("{first:?}");
    };
    assert!(matches!(
        d.pass_after(DAY).await.as_slice(),
        [(_, Charge::Declined { .. })]
    ));
    // Paid on the next, January 2.
    d.fake.set_card_behaviour(&card, CardBehaviour::Succeed);
    let paid = d.pass_after(2 * DAY).await;
    assert!(
        matches!(paid.as_slice(), [(_, Charge::Paid { .. })]),
        "{paid:?}"
    );
    let counted: i64 = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT contribution_year FROM donations WHERE id = ?1",
                [donation],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(counted, i64::from(year) + 1);
}
