use super::*;
use serde_json::json;

fn body(amount: Value) -> Value {
    json!({
        "amount": amount,
        "donorInfo": {
            "donorFirstName": "Ada",
            "donorLastName": "Lovelace",
            "donorName": "Ada Lovelace",
            "donorEmail": " Ada@Example.org ",
            "donorAddress": "1 Main St",
            "donorCity": "Springfield",
            "donorState": "il",
            "donorZipCode": "62701",
            "citizenshipConfirmed": "confirmed",
            "attestationsConfirmed": true,
        }
    })
}

fn rules() -> DonationRules {
    DonationRules {
        itemization_threshold: 200,
        annual_limits: [
            (2023, 41_300),
            (2024, 41_300),
            (2025, 44_300),
            (2026, 44_300),
        ]
        .into_iter()
        .collect(),
    }
}

#[test]
fn amounts_are_exact_cents_of_at_least_one_dollar() {
    for (given, cents) in [
        (json!(25), 2500),
        (json!(25.1), 2510),
        (json!("19.99"), 1999),
        (json!("1"), 100),
        (json!(1000.50), 100_050),
        (json!("7.10"), 710),
    ] {
        assert_eq!(parse_amount(&given), Ok(cents), "{given}");
    }
    for bad in [
        json!(0.99),
        json!(0),
        json!(-5),
        json!("12.345"),
        json!("1e3"),
        json!("abc"),
        json!(""),
        json!(null),
        json!(true),
        json!("99999999999999999999"),
        json!(".5"),
        json!(" 5 0"),
    ] {
        let err = parse_amount(&bad).unwrap_err();
        assert_eq!(
            err.message, "Please select or enter a valid donation amount.",
            "{bad}"
        );
        assert_eq!(err.field, Some("amount"));
    }
    // A trailing point or zeros add nothing: still whole cents.
    assert_eq!(parse_amount(&json!("5.")), Ok(500));
    assert_eq!(parse_amount(&json!("5.000")), Ok(500));
}

#[test]
fn a_good_body_is_trimmed_and_normalised() {
    let d = parse(&body(json!(50))).unwrap();
    assert_eq!(d.amount_cents, 5000);
    assert_eq!(d.donor.email, "ada@example.org");
    assert_eq!(d.donor.state, "IL");
    assert_eq!(d.donor.full_name(), "Ada Lovelace");
    assert!(!d.donor.has_itemization_info());
}

#[test]
fn the_whole_name_is_split_when_the_parts_are_missing() {
    let mut b = body(json!(50));
    let info = b["donorInfo"].as_object_mut().unwrap();
    info.remove("donorFirstName");
    info.remove("donorLastName");
    info.insert("donorName".into(), json!("Mary Ann Evans"));
    let d = parse(&b).unwrap();
    assert_eq!(
        (d.donor.first_name.as_str(), d.donor.last_name.as_str()),
        ("Mary Ann", "Evans")
    );
}

#[test]
fn each_rule_answers_with_the_spec_sentence_and_its_field() {
    let cases: Vec<(&str, Value, Option<&str>, &str)> = vec![
        (
            "donorCity",
            json!("  "),
            Some("donorCity"),
            "Please fill in all required donor information fields.",
        ),
        (
            "donorZipCode",
            json!(null),
            Some("donorZipCode"),
            "Please fill in all required donor information fields.",
        ),
        (
            "donorEmail",
            json!("nobody"),
            Some("donorEmail"),
            "Please enter a valid email address.",
        ),
        (
            "donorZipCode",
            json!("1234"),
            Some("donorZipCode"),
            "Please enter a valid ZIP code (5 digits, or ZIP+4).",
        ),
        (
            "donorState",
            json!("ZZ"),
            Some("donorState"),
            "Please choose a state or territory from the list.",
        ),
        (
            "contributionPurpose",
            json!("bribery"),
            Some("contributionPurpose"),
            "Please choose a contribution purpose from the list.",
        ),
        (
            "citizenshipConfirmed",
            json!(false),
            Some("citizenshipConfirmed"),
            "Please confirm your U.S. citizenship status as required by FEC regulations.",
        ),
        (
            "citizenshipConfirmed",
            json!("yes"),
            Some("citizenshipConfirmed"),
            "Please confirm your U.S. citizenship status as required by FEC regulations.",
        ),
        (
            "attestationsConfirmed",
            json!(null),
            Some("attestationsConfirmed"),
            "Please confirm the contribution statements above.",
        ),
        (
            "donorCity",
            json!(7),
            Some("donorCity"),
            "City must be text.",
        ),
        (
            "donorAddress",
            json!("x".repeat(201)),
            Some("donorAddress"),
            "Street address must be at most 200 characters.",
        ),
        (
            "donorEmployer",
            json!("Acme\u{0}Corp"),
            Some("donorEmployer"),
            "Employer contains characters that are not allowed.",
        ),
    ];
    for (key, value, field, message) in cases {
        let mut b = body(json!(50));
        b["donorInfo"][key] = value.clone();
        let err = parse(&b).unwrap_err();
        assert_eq!(
            (err.field, err.message.as_str()),
            (field, message),
            "{key} = {value}"
        );
    }
    let err = parse(&json!({"amount": 5})).unwrap_err();
    assert_eq!(
        err.message,
        "Please fill in all required donor information fields."
    );
}

#[test]
fn every_state_territory_and_military_code_is_accepted() {
    for code in ["DC", "PR", "GU", "VI", "AS", "MP", "AA", "AE", "AP", "WY"] {
        let mut b = body(json!(50));
        b["donorInfo"]["donorState"] = json!(code);
        assert!(parse(&b).is_ok(), "{code}");
    }
    let codes: std::collections::HashSet<_> = STATES.iter().map(|s| s.value).collect();
    assert_eq!(codes.len(), STATES.len(), "no state twice");
}

#[test]
fn limits_are_by_year_and_unknown_years_take_the_latest_earlier_one() {
    let r = rules();
    assert_eq!(r.limit_cents(2024), Some(4_130_000));
    assert_eq!(r.limit_cents(2025), Some(4_430_000));
    assert_eq!(r.limit_cents(2027), Some(4_430_000));
    assert_eq!(r.limit_cents(2022), None);
    assert!(!r.needs_itemization_info(20_000));
    assert!(r.needs_itemization_info(20_001));
}

#[test]
fn messages_show_dollars_as_people_write_them() {
    assert_eq!(format_dollars(4_430_000), "44,300");
    assert_eq!(format_dollars(4_427_550), "44,275.50");
    assert_eq!(format_dollars(99), "0.99");
    assert_eq!(format_dollars(123_456_789), "1,234,567.89");
    assert_eq!(
        limit_message(150_025),
        "This amount would exceed your annual limit. You can donate up to $1,500.25 more this year."
    );
    assert_eq!(
        additional_info_message(&rules(), 2026, 10_000, 15_000),
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose. This gift brings your total for 2026 above $200."
    );
    assert_eq!(
        additional_info_message(&rules(), 2026, 0, 25_000),
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose."
    );
}
