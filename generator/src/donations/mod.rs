//! Donations by card, in one place: the donor's fields, the amounts, the states, the
//! contribution purposes and every text the spec gives (§5, §8). The api enforces these
//! rules (and those only the server can check: a donor's yearly total and the annual limit);
//! the generator hands the same values to the donate page's island as props, so the page
//! and the server can never disagree.
//!
//! The law, as the page presents it: a donor must be a U.S. citizen or lawfully admitted
//! permanent resident; once a donor's gifts in a calendar year pass the itemisation
//! threshold ($200), the committee must use best efforts to collect occupation and employer
//! (and we ask for the purpose); one individual may give the national party committee at
//! most the year's limit (`site.yaml`, `donations.annualLimits`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::config::DonationRules;
use crate::forms::{self, Field, Invalid, Kind};

mod choices;
mod texts;

pub use choices::{Choice, PURPOSES, STATES};
pub use texts::{Notice, TEXTS, Texts};

/// The preset amounts, in dollars (spec §9).
pub const PRESETS: [u32; 6] = [25, 50, 100, 250, 500, 1000];
/// The smallest gift, in cents ($1, spec §5).
pub const MIN_CENTS: i64 = 100;
/// The custom amount's `max` when the donor's remaining allowance is not known (spec §9).
pub const DEFAULT_MAX_DOLLARS: u32 = 50_000;

const NAME_MAX: usize = 100;

const fn text(name: &'static str, label: &'static str, max: usize, auto: &'static str) -> Field {
    Field {
        autocomplete: Some(auto),
        ..Field::new(name, label, Kind::Text, max)
    }
}

/// The donor's fields, by their keys in the request's `donorInfo`, in the page's order.
/// State and purpose are selects from [`STATES`] and [`PURPOSES`].
pub const FIRST_NAME: Field = text("donorFirstName", "First name", NAME_MAX, "given-name");
pub const LAST_NAME: Field = text("donorLastName", "Last name", NAME_MAX, "family-name");
pub const EMAIL: Field = Field {
    autocomplete: Some("email"),
    hint: Some("Your receipt is sent here."),
    ..Field::new("donorEmail", "Email", Kind::Email, forms::EMAIL_MAX)
};
pub const ADDRESS: Field = text("donorAddress", "Street address", 200, "street-address");
pub const CITY: Field = text("donorCity", "City", 100, "address-level2");
pub const STATE: Field = text("donorState", "State", 2, "address-level1");
pub const ZIP: Field = Field {
    pattern: Some(forms::ZIP_PATTERN),
    autocomplete: Some("postal-code"),
    ..Field::new("donorZipCode", "ZIP code", Kind::Zip, forms::ZIP_MAX)
};
pub const OCCUPATION: Field = Field {
    required: false,
    ..text("donorOccupation", "Occupation", 100, "organization-title")
};
pub const EMPLOYER: Field = Field {
    required: false,
    hint: Some(
        "If you are not employed, write \u{201c}Not employed\u{201d}; if retired, \u{201c}Retired\u{201d}; if self-employed, \u{201c}Self-employed\u{201d}.",
    ),
    ..text("donorEmployer", "Employer", 100, "organization")
};
pub const PURPOSE: Field = Field {
    required: false,
    ..text("contributionPurpose", "Contribution purpose", 40, "off")
};

/// Every donor field, in the page's order.
pub const FIELDS: [Field; 10] = [
    FIRST_NAME, LAST_NAME, EMAIL, ADDRESS, CITY, STATE, ZIP, OCCUPATION, EMPLOYER, PURPOSE,
];

/// A donation's checked amount and donor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Donation {
    pub amount_cents: i64,
    pub donor: Donor,
    /// The donor chose to give this amount every month (`"frequency": "monthly"`); without
    /// that choice a gift is given once.
    pub monthly: bool,
}

/// The request's `frequency`: how often the donor chose to give.
pub const FREQUENCY: &str = "frequency";
/// `frequency` for a gift given once (the default).
pub const ONCE: &str = "once";
/// `frequency` for a monthly gift.
pub const MONTHLY: &str = "monthly";

/// The donor, as checked: trimmed, bounded, formats valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Donor {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub zip_code: String,
    pub occupation: Option<String>,
    pub employer: Option<String>,
    /// One of [`PURPOSES`]' values.
    pub purpose: Option<String>,
}

impl Donor {
    /// "First Last", the spec's `donorName`.
    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
    }

    /// Whether occupation, employer and purpose are all given.
    pub fn has_itemization_info(&self) -> bool {
        self.occupation.is_some() && self.employer.is_some() && self.purpose.is_some()
    }
}

fn invalid(field: Option<&'static str>, message: impl Into<String>) -> Invalid {
    Invalid {
        field,
        message: message.into(),
    }
}

/// Dollars as the donor typed them (a JSON number or a string such as `"25.50"`) to cents:
/// at least $1, at most two decimals, computed exactly (never through floating point).
pub fn parse_amount(value: &Value) -> Result<i64, Invalid> {
    let bad = || invalid(Some("amount"), TEXTS.invalid_amount.description);
    let text = match value {
        // serde_json writes a number back as its shortest exact decimal: 25.1 -> "25.1".
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => return Err(bad()),
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 2
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let whole: i64 = whole.parse().map_err(|_| bad())?;
    let fraction: i64 = format!("{fraction:0<2}").parse().map_err(|_| bad())?;
    let cents = whole
        .checked_mul(100)
        .and_then(|c| c.checked_add(fraction))
        .ok_or_else(bad)?;
    if cents < MIN_CENTS {
        return Err(bad());
    }
    Ok(cents)
}

/// Checks a `create-payment-intent` body, `{amount, donorInfo}` (spec §3), in the order the
/// page checks it; the first problem is returned with the spec's sentence. What depends on
/// the donor's earlier gifts (the annual limit, and occupation/employer/purpose once the
/// year's total passes the threshold) is checked by the caller against the database.
pub fn parse(body: &Value) -> Result<Donation, Invalid> {
    let Some(top) = body.as_object() else {
        return Err(invalid(None, "The request body must be a JSON object."));
    };
    if let Some(unknown) = top
        .keys()
        .find(|k| !["amount", "donorInfo", FREQUENCY].contains(&k.as_str()))
    {
        return Err(invalid(
            None,
            format!("A donation has no field {unknown:?}."),
        ));
    }
    let amount_cents = parse_amount(body.get("amount").unwrap_or(&Value::Null))?;
    // Only an explicit choice makes a gift monthly.
    let monthly = match body.get(FREQUENCY) {
        None | Some(Value::Null) => false,
        Some(Value::String(f)) if f == ONCE => false,
        Some(Value::String(f)) if f == MONTHLY => true,
        Some(_) => {
            return Err(invalid(
                Some(FREQUENCY),
                format!("How often must be \"{ONCE}\" or \"{MONTHLY}\"."),
            ));
        }
    };
    let info = body
        .get("donorInfo")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid(None, TEXTS.missing_info.description))?;
    // The fields, the whole name of the spec's payload, and the two confirmations.
    const OTHER_KEYS: [&str; 3] = ["donorName", "citizenshipConfirmed", "attestationsConfirmed"];
    if let Some(unknown) = info
        .keys()
        .find(|k| !FIELDS.iter().any(|f| f.name == *k) && !OTHER_KEYS.contains(&k.as_str()))
    {
        return Err(invalid(
            None,
            format!("donorInfo has no field {unknown:?}."),
        ));
    }
    let raw = |field: &Field| -> Result<Option<&str>, Invalid> {
        match info.get(field.name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(invalid(
                Some(field.name),
                format!("{} must be text.", field.label),
            )),
        }
    };
    // The spec's payload has one `donorName`; the page also sends the two parts, which the
    // treasurer's FEC report needs. A client sending only the whole name has it split at
    // its last space.
    let mut names = (raw(&FIRST_NAME)?, raw(&LAST_NAME)?);
    let whole_name = match info.get("donorName") {
        Some(Value::String(s)) => Some(s.trim()),
        _ => None,
    };
    if names.0.is_none_or(|s| s.trim().is_empty())
        && names.1.is_none_or(|s| s.trim().is_empty())
        && let Some((first, last)) = whole_name.and_then(|n| n.rsplit_once(' '))
    {
        names = (Some(first), Some(last));
    }

    // Every required field present first: "Missing Information" names the first gap.
    let required = [
        (&FIRST_NAME, names.0),
        (&LAST_NAME, names.1),
        (&EMAIL, raw(&EMAIL)?),
        (&ADDRESS, raw(&ADDRESS)?),
        (&CITY, raw(&CITY)?),
        (&STATE, raw(&STATE)?),
        (&ZIP, raw(&ZIP)?),
    ];
    if let Some((field, _)) = required
        .iter()
        .find(|(_, v)| v.is_none_or(|s| s.trim().is_empty()))
    {
        return Err(invalid(Some(field.name), TEXTS.missing_info.description));
    }
    let check = |field: &Field, value: Option<&str>| -> Result<Option<String>, Invalid> {
        field.check(value).map_err(|m| invalid(Some(field.name), m))
    };
    let mut values = Vec::with_capacity(required.len());
    for (field, value) in required {
        values.push(check(field, value)?.unwrap_or_default());
    }
    let [first_name, last_name, email, address, city, state, zip_code] =
        <[String; 7]>::try_from(values).expect("seven required fields");
    let state = state.to_ascii_uppercase();
    if !STATES.iter().any(|s| s.value == state) {
        return Err(invalid(
            Some(STATE.name),
            "Please choose a state or territory from the list.",
        ));
    }
    let occupation = check(&OCCUPATION, raw(&OCCUPATION)?)?;
    let employer = check(&EMPLOYER, raw(&EMPLOYER)?)?;
    let purpose = check(&PURPOSE, raw(&PURPOSE)?)?;
    if let Some(p) = &purpose
        && !PURPOSES.iter().any(|c| c.value == p)
    {
        return Err(invalid(
            Some(PURPOSE.name),
            "Please choose a contribution purpose from the list.",
        ));
    }
    if !is_confirmed(info.get("citizenshipConfirmed")) {
        return Err(invalid(
            Some("citizenshipConfirmed"),
            TEXTS.citizenship.description,
        ));
    }
    if !is_confirmed(info.get("attestationsConfirmed")) {
        return Err(invalid(
            Some("attestationsConfirmed"),
            TEXTS.confirmation.description,
        ));
    }
    Ok(Donation {
        amount_cents,
        monthly,
        donor: Donor {
            first_name,
            last_name,
            // One donor, however they capitalise their address: the yearly total is by
            // e-mail, and the domain part of an address is not case-sensitive in practice.
            email: email.to_lowercase(),
            address,
            city,
            state,
            zip_code,
            occupation,
            employer,
            purpose,
        },
    })
}

/// A ticked box: `true`, or the spec's value `"confirmed"`.
fn is_confirmed(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::Bool(true)))
        || matches!(value, Some(Value::String(s)) if s == "confirmed")
}

/// Dollars as the page shows them: "44,300" or "44,275.50".
pub fn format_dollars(cents: i64) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match cents % 100 {
        0 => grouped,
        rest => format!("{grouped}.{rest:02}"),
    }
}

/// The "Donation Limit Exceeded" sentence for a donor who may still give `remaining_cents`.
pub fn limit_message(remaining_cents: i64) -> String {
    TEXTS.limit_exceeded.description.replace(
        "$X",
        &format!("${}", format_dollars(remaining_cents.max(0))),
    )
}

/// The "Additional Information Required" sentence for a monthly gift that its later charges
/// take past the threshold in `year`.
pub fn monthly_info_message(rules: &DonationRules, year: i16) -> String {
    format!(
        "{} {}",
        TEXTS.additional_info.description,
        TEXTS
            .additional_info_monthly
            .replace("{year}", &year.to_string())
            .replace(
                "$T",
                &format!(
                    "${}",
                    format_dollars(i64::from(rules.itemization_threshold) * 100)
                )
            )
    )
}

/// The "Additional Information Required" sentence; `earlier_cents` is what the donor gave
/// before this gift in `year`, which makes a gift under the threshold need it too.
pub fn additional_info_message(
    rules: &DonationRules,
    year: i16,
    earlier_cents: i64,
    amount_cents: i64,
) -> String {
    let threshold = i64::from(rules.itemization_threshold) * 100;
    if earlier_cents > 0 && amount_cents <= threshold {
        format!(
            "{} {}",
            TEXTS.additional_info.description,
            TEXTS
                .additional_info_aggregate
                .replace("{year}", &year.to_string())
                .replace("$T", &format!("${}", format_dollars(threshold)))
        )
    } else {
        TEXTS.additional_info.description.to_owned()
    }
}

impl DonationRules {
    /// What one individual may give in `year`, in cents. A year not (yet) in `site.yaml`
    /// takes the latest earlier year's limit: the FEC announces each cycle's limits only
    /// after it starts, and limits have only ever risen, so this never lets a gift through
    /// that the new limit would refuse.
    pub fn limit_cents(&self, year: i16) -> Option<i64> {
        let year = u16::try_from(year).ok()?;
        self.annual_limits
            .range(..=year)
            .next_back()
            .map(|(_, dollars)| i64::from(*dollars) * 100)
    }

    /// Whether a donor whose gifts this year come to `total_cents` (this one included) must
    /// give occupation, employer and purpose.
    pub fn needs_itemization_info(&self, total_cents: i64) -> bool {
        total_cents > i64::from(self.itemization_threshold) * 100
    }
}

/// What the donate page's island is given: the rules and texts above, with the party's
/// limits by year and its time zone (the year of a gift is the calendar year in it).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Props<'a> {
    pub presets: [u32; 6],
    pub default_max: u32,
    pub itemization_threshold: u32,
    pub annual_limits: &'a BTreeMap<u16, u32>,
    pub time_zone: &'a str,
    pub fields: &'static [Field],
    pub states: &'static [Choice],
    pub purposes: &'static [Choice],
    pub texts: Texts,
}

/// The island's props for the party's `rules`.
pub fn props<'a>(rules: &'a DonationRules, time_zone: &'a str) -> Props<'a> {
    Props {
        presets: PRESETS,
        default_max: DEFAULT_MAX_DOLLARS,
        itemization_threshold: rules.itemization_threshold,
        annual_limits: &rules.annual_limits,
        time_zone,
        fields: &FIELDS,
        states: &STATES,
        purposes: &PURPOSES,
        texts: TEXTS,
    }
}

#[cfg(test)]
mod tests;
