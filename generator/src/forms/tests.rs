use super::*;

#[test]
fn required_fields_say_what_is_missing() {
    assert_eq!(
        NEWSLETTER.field("email").check(None).unwrap_err(),
        "Email is required."
    );
    assert_eq!(
        NEWSLETTER.field("zipCode").check(Some("  ")).unwrap_err(),
        "ZIP code is required."
    );
    assert_eq!(NEWSLETTER.field("phone").check(Some("")).unwrap(), None);
}

#[test]
fn values_are_trimmed() {
    assert_eq!(
        NEWSLETTER
            .field("email")
            .check(Some("  a@b.org "))
            .unwrap()
            .as_deref(),
        Some("a@b.org")
    );
}

#[test]
fn emails_need_a_real_domain() {
    for good in [
        "jane@example.org",
        "j.doe+acp@mail.example.co.uk",
        "JANE@EXAMPLE.ORG",
    ] {
        assert!(is_valid_email(good), "{good}");
    }
    for bad in [
        "jane",
        "jane@",
        "@example.org",
        "jane@localhost",
        "jane@example.",
        "a b@example.org",
        "jane@[127.0.0.1]",
        "jane@exa mple.org",
    ] {
        assert!(!is_valid_email(bad), "{bad}");
    }
}

#[test]
fn zip_codes_are_five_or_nine_digits() {
    for good in ["12345", "12345-6789", "123456789"] {
        assert!(is_valid_zip(good), "{good}");
    }
    for bad in [
        "1234",
        "123456",
        "12345-678",
        "abcde",
        "12345 6789",
        "١٢٣٤٥",
    ] {
        assert!(!is_valid_zip(bad), "{bad}");
    }
}

#[test]
fn phones_count_digits() {
    assert!(is_valid_phone("(555) 123-4567"));
    assert!(is_valid_phone("+1 555 123 4567"));
    assert!(!is_valid_phone("12345"));
    assert!(!is_valid_phone("555-CALL-NOW"));
}

#[test]
fn lengths_are_bounded_in_characters() {
    let subject = CONTACT.field("subject");
    assert!(subject.check(Some(&"é".repeat(200))).is_ok());
    assert_eq!(
        subject.check(Some(&"é".repeat(201))).unwrap_err(),
        "Subject must be at most 200 characters."
    );
}

#[test]
fn control_characters_are_refused_except_newlines_in_long_text() {
    assert!(
        CONTACT
            .field("subject")
            .check(Some("hi\u{0}there"))
            .is_err()
    );
    assert!(CONTACT.field("subject").check(Some("hi\nthere")).is_err());
    assert!(
        CONTACT
            .field("message")
            .check(Some("line one\nline two"))
            .is_ok()
    );
}

#[test]
fn parse_checks_every_field_and_names_wrong_types() {
    use serde_json::json;
    let ok = NEWSLETTER
        .parse(&json!({"email": " a@b.org ", "phone": "", "zipCode": "12345", "website": ""}))
        .unwrap();
    assert_eq!(ok.get("email"), Some("a@b.org"));
    assert_eq!(ok.get("phone"), None);
    let extra = NEWSLETTER
        .parse(&json!({"email": "a@b.org", "zipCode": "12345", "extra": 1}))
        .unwrap_err();
    assert_eq!(extra.message, "This form has no field \"extra\".");
    let missing = NEWSLETTER.parse(&json!({"email": "a@b.org"})).unwrap_err();
    assert_eq!(missing.message, "ZIP code is required.");
    assert_eq!(
        missing.field,
        Some("zipCode"),
        "the problem names its field"
    );
    let wrong_type = NEWSLETTER
        .parse(&json!({"email": 5, "zipCode": "12345"}))
        .unwrap_err();
    assert_eq!(wrong_type.to_string(), "Email must be text.");
    assert_eq!(wrong_type.field, Some("email"));
    let not_object = NEWSLETTER.parse(&json!(["a@b.org"])).unwrap_err();
    assert_eq!(
        not_object.message,
        "The request body must be a JSON object."
    );
    assert_eq!(not_object.field, None);
}

#[test]
fn the_honeypot_catches_only_filled_values() {
    use serde_json::json;
    assert!(is_bot(&json!({"website": "http://spam"})));
    assert!(!is_bot(&json!({"website": "  "})));
    assert!(!is_bot(&json!({})));
}

#[test]
fn volunteer_zip_is_at_most_ten_characters() {
    assert_eq!(VOLUNTEER.field("zipCode").max_length, 10);
}

#[test]
fn the_text_box_is_ticked_only_by_the_visitor_and_needs_a_number() {
    let parse = |body: serde_json::Value| NEWSLETTER.parse(&body);
    let base = |consent: serde_json::Value| serde_json::json!({"email": "a@b.org", "phone": "555-123-4567", "zipCode": "12345", "smsConsent": consent});
    // The spec's payload, with no box at all, is a signup without consent.
    let plain =
        parse(serde_json::json!({"email": "a@b.org", "phone": "555-123-4567", "zipCode": "12345"}));
    assert_eq!(plain.unwrap().get("smsConsent"), None);
    for ticked in [
        serde_json::json!(true),
        serde_json::json!("yes"),
        serde_json::json!("on"),
        serde_json::json!("TRUE"),
    ] {
        assert_eq!(
            parse(base(ticked.clone())).unwrap().get("smsConsent"),
            Some(TICKED),
            "{ticked}"
        );
    }
    for unticked in [
        serde_json::json!(false),
        serde_json::json!(null),
        serde_json::json!(""),
        serde_json::json!("false"),
    ] {
        assert_eq!(
            parse(base(unticked.clone())).unwrap().get("smsConsent"),
            None,
            "{unticked}"
        );
    }
    for wrong in [
        serde_json::json!(1),
        serde_json::json!("maybe"),
        serde_json::json!(["yes"]),
        serde_json::json!({"a": 1}),
    ] {
        let refused = parse(base(wrong.clone())).unwrap_err();
        assert_eq!(
            refused.message, "Text updates must be true or false.",
            "{wrong}"
        );
        assert_eq!(refused.field, Some("smsConsent"));
    }
    let no_number =
        parse(serde_json::json!({"email": "a@b.org", "zipCode": "12345", "smsConsent": true}))
            .unwrap_err();
    assert_eq!(no_number.field, Some("phone"));
    assert_eq!(
        no_number.message,
        "Please enter your phone number to get text updates."
    );
}

#[test]
fn phone_numbers_have_one_spelling_for_consent() {
    for (given, expected) in [
        ("(555) 123-4567", Some("+15551234567")),
        ("555.123.4567 x89", Some("+15551234567")),
        ("+1 555 123 4567", Some("+15551234567")),
        ("1-555-123-4567", Some("+15551234567")),
        ("+44 20 7946 0958", Some("+442079460958")),
        ("12", None),
        ("call me", None),
    ] {
        assert_eq!(e164(given).as_deref(), expected, "{given}");
    }
}
