use super::schedules::{Contribution, Refund, sa11ai, sb28a};
use super::*;

fn person(first: &str, last: &str, address: &str, zip: &str) -> Person {
    Person::new(Stored {
        full: "",
        first,
        last,
        address,
        city: "Saint-Jean-sur-Richelieu Heights Township",
        state: "il",
        zip,
    })
}

fn contribution(p: Person) -> Contribution {
    Contribution {
        donation_id: 42,
        person: p,
        date: jiff::civil::date(2026, 3, 1),
        cents: 25_050,
        aggregate_cents: 30_050,
        employer: String::new(),
        occupation: "Ingénieure — systèmes\tembarqués, chef de projet senior".into(),
        purpose: Some("general_party_use".into()),
        itemized: true,
        refunded_cents: 0,
    }
}

#[test]
fn text_is_printable_ascii_cut_to_its_field() {
    assert_eq!(text("Zoë  Ñúñez", 30), "Zoe Nunez");
    assert_eq!(
        text("a\u{1c}b\nc\td", 30),
        "a b c d",
        "no separator or line break inside a field"
    );
    assert_eq!(
        text("Björk Guðmundsdóttir-Þórsdóttir", 20),
        "Bjork Gudmundsdottir"
    );
    assert_eq!(text("  ends with a space cut ", 18), "ends with a space");
    assert_eq!(text("東京", 30), "Dong Jing");
}

#[test]
fn names_addresses_and_zips_fit_their_fields() {
    let p = person(
        "Maximiliana-Josephina Alexandra",
        "Wolfeschlegelsteinhausenbergerdorff-Smith",
        "12345 North Martin Luther King Jr Boulevard Apartment 1201",
        "62701-1234",
    );
    assert_eq!(p.first.len(), 20);
    assert_eq!(p.last.len(), 30);
    assert_eq!(p.street1, "12345 North Martin Luther King Jr");
    assert_eq!(p.street2, "Boulevard Apartment 1201");
    assert!(p.street1.len() <= 34 && p.street2.len() <= 34);
    assert_eq!(p.zip, "627011234");
    assert_eq!(p.state, "IL");
    assert!(p.city.len() <= 30);
    // A gift from before first and last names were kept apart.
    let old = Person::new(Stored {
        full: "Grace Brewster Hopper",
        first: "",
        last: "",
        address: "1 Navy Way",
        city: "Arlington",
        state: "VA",
        zip: "22201",
    });
    assert_eq!(
        (old.first.as_str(), old.last.as_str()),
        ("Grace Brewster", "Hopper")
    );
}

#[test]
fn every_sa11ai_field_keeps_to_the_format() {
    let c = contribution(person("Zoë", "O'Brien-Ñúñez", "1 Main St", "62701"));
    let record = sa11ai("C00123456", &c);
    assert_eq!(record.len(), SA_FIELDS.len());
    validate(&SA_FIELDS, &record).unwrap();
    assert_eq!(record[0], "SA11AI");
    assert_eq!(record[2], "DON42");
    assert_eq!(record[5], "IND");
    assert_eq!(record[7], "O'Brien-Nunez");
    assert_eq!(record[8], "Zoe");
    assert_eq!(record[19], "20260301");
    assert_eq!(record[20], "250.50");
    assert_eq!(record[21], "300.50", "the aggregate is present");
    assert!(record[24].len() <= 38, "{}", record[24]);
    assert!(
        record[24].starts_with("Ingenieure") && record[24].contains("systemes embarques"),
        "{}",
        record[24]
    );
}

#[test]
fn validation_catches_what_the_fec_refuses() {
    let good = sa11ai(
        "C00123456",
        &contribution(person("Ann", "Lee", "1 Main St", "62701")),
    );
    let broken = |i: usize, value: &str| {
        let mut r = good.clone();
        r[i] = value.into();
        validate(&SA_FIELDS, &r).unwrap_err()
    };
    assert!(broken(7, &"x".repeat(31)).contains("CONTRIBUTOR LAST NAME is longer than 30"));
    assert!(broken(8, &"x".repeat(21)).contains("FIRST NAME is longer than 20"));
    assert!(broken(12, &"x".repeat(35)).contains("STREET 1 is longer than 34"));
    assert!(broken(2, "don42").contains("TRANSACTION ID is not a valid Upper"));
    assert!(broken(2, &"D".repeat(21)).contains("TRANSACTION ID is longer than 20"));
    assert!(broken(21, "").contains("CONTRIBUTION AGGREGATE is required"));
    assert!(broken(20, "250.5").contains("CONTRIBUTION AMOUNT is not a valid Amount"));
    assert!(broken(19, "2026-03-01").contains("CONTRIBUTION DATE"));
    assert!(broken(7, "Zoë").contains("not printable ASCII"));
    assert!(broken(8, "").contains("FIRST NAME is required"));
    let mut short = good.clone();
    short.pop();
    assert!(
        validate(&SA_FIELDS, &short)
            .unwrap_err()
            .contains("44 fields, not 45")
    );
}

#[test]
fn sb28a_names_the_gift_it_returns() {
    let r = Refund {
        refund_id: 7,
        donation_id: 42,
        chargeback: false,
        person: person("Ann", "Lee", "1 Main St", "62701"),
        date: jiff::civil::date(2026, 4, 2),
        cents: 2_500,
        gift_date: jiff::civil::date(2026, 3, 1),
        gift_cents: 25_050,
        itemized: true,
    };
    let record = sb28a("C00123456", &r);
    assert_eq!(record.len(), SB_FIELDS.len());
    validate(&SB_FIELDS, &record).unwrap();
    assert_eq!(
        &record[..6],
        ["SB28A", "C00123456", "REF7", "DON42", "SA11AI", "IND"]
    );
    assert_eq!(record[19], "20260402");
    assert_eq!(record[20], "25.00");
    assert_eq!(
        record[22],
        "Refund of contribution of 250.50 received 03/01/2026"
    );
}

#[test]
fn a_file_is_a_header_then_one_record_a_line() {
    let c = contribution(person("Ann", "Lee", "1 Main St", "62701"));
    let out = file(&header("Party Site", "0.1.0"), &[sa11ai("C00123456", &c)]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        "HDR\u{1c}FEC\u{1c}8.4\u{1c}Party Site\u{1c}0.1.0\u{1c}\u{1c}\u{1c}"
    );
    assert_eq!(lines[1].split(FS).count(), 45);
    assert!(out.is_ascii());
    assert_eq!(amount(-500), "-5.00");
}
