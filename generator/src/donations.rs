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

/// The preset amounts, in dollars (spec §9).
pub const PRESETS: [u32; 6] = [25, 50, 100, 250, 500, 1000];
/// The smallest gift, in cents ($1, spec §5).
pub const MIN_CENTS: i64 = 100;
/// The custom amount's `max` when the donor's remaining allowance is not known (spec §9).
pub const DEFAULT_MAX_DOLLARS: u32 = 50_000;

/// One choice of a select.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Choice {
    /// What is sent and stored.
    pub value: &'static str,
    /// What the donor reads.
    pub label: &'static str,
}

const fn choice(value: &'static str, label: &'static str) -> Choice {
    Choice { value, label }
}

/// Contribution purposes, stored in snake case (spec §5), shown as words.
pub const PURPOSES: [Choice; 6] = [
    choice("general_party_use", "General party use"),
    choice("primary_election", "Primary election"),
    choice("general_election", "General election"),
    choice("party_headquarters", "Party headquarters"),
    choice("legal_proceedings", "Legal proceedings"),
    choice("nominating_convention", "Nominating convention"),
];

/// Where a donor may live: the states, DC, the territories, and the military post offices
/// (APO/FPO/DPO) of service members abroad, by their USPS codes.
pub const STATES: [Choice; 59] = [
    choice("AL", "Alabama"),
    choice("AK", "Alaska"),
    choice("AZ", "Arizona"),
    choice("AR", "Arkansas"),
    choice("CA", "California"),
    choice("CO", "Colorado"),
    choice("CT", "Connecticut"),
    choice("DE", "Delaware"),
    choice("DC", "District of Columbia"),
    choice("FL", "Florida"),
    choice("GA", "Georgia"),
    choice("HI", "Hawaii"),
    choice("ID", "Idaho"),
    choice("IL", "Illinois"),
    choice("IN", "Indiana"),
    choice("IA", "Iowa"),
    choice("KS", "Kansas"),
    choice("KY", "Kentucky"),
    choice("LA", "Louisiana"),
    choice("ME", "Maine"),
    choice("MD", "Maryland"),
    choice("MA", "Massachusetts"),
    choice("MI", "Michigan"),
    choice("MN", "Minnesota"),
    choice("MS", "Mississippi"),
    choice("MO", "Missouri"),
    choice("MT", "Montana"),
    choice("NE", "Nebraska"),
    choice("NV", "Nevada"),
    choice("NH", "New Hampshire"),
    choice("NJ", "New Jersey"),
    choice("NM", "New Mexico"),
    choice("NY", "New York"),
    choice("NC", "North Carolina"),
    choice("ND", "North Dakota"),
    choice("OH", "Ohio"),
    choice("OK", "Oklahoma"),
    choice("OR", "Oregon"),
    choice("PA", "Pennsylvania"),
    choice("RI", "Rhode Island"),
    choice("SC", "South Carolina"),
    choice("SD", "South Dakota"),
    choice("TN", "Tennessee"),
    choice("TX", "Texas"),
    choice("UT", "Utah"),
    choice("VT", "Vermont"),
    choice("VA", "Virginia"),
    choice("WA", "Washington"),
    choice("WV", "West Virginia"),
    choice("WI", "Wisconsin"),
    choice("WY", "Wyoming"),
    choice("AS", "American Samoa"),
    choice("GU", "Guam"),
    choice("MP", "Northern Mariana Islands"),
    choice("PR", "Puerto Rico"),
    choice("VI", "U.S. Virgin Islands"),
    choice("AA", "Armed Forces Americas (AA)"),
    choice(
        "AE",
        "Armed Forces Europe, Middle East, Africa, Canada (AE)",
    ),
    choice("AP", "Armed Forces Pacific (AP)"),
];

/// A message the page shows as a notice: a title and a sentence (spec §5, §8).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Notice {
    pub title: &'static str,
    pub description: &'static str,
}

const fn notice(title: &'static str, description: &'static str) -> Notice {
    Notice { title, description }
}

/// Every text of the donation flow that the spec gives, exactly.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Texts {
    pub invalid_amount: Notice,
    /// `$X` is replaced by the donor's remaining allowance.
    pub limit_exceeded: Notice,
    /// The refusal when the server may not say what the donor gave before (the browser has
    /// not shown it acts for the donor): the spec's sentence without the amount.
    pub limit_exceeded_unknown: &'static str,
    pub citizenship: Notice,
    pub additional_info: Notice,
    /// Added to `additional_info` when earlier gifts, not this one alone, pass the
    /// threshold; `{year}` and `$T` are replaced.
    pub additional_info_aggregate: &'static str,
    pub missing_info: Notice,
    pub confirmation: Notice,
    /// The description is the fallback when the server gives no message.
    pub setup_failed: Notice,
    pub no_client_secret: &'static str,
    /// The description is the fallback when Stripe gives no message.
    pub payment_failed: Notice,
    pub payment_error: Notice,
    pub success: &'static str,
    pub summary_loading: &'static str,
    pub summary_error: &'static str,
    pub unavailable: &'static str,
    pub proceed: &'static str,
    pub proceed_pending: &'static str,
    pub confirm_pending: &'static str,
}

pub const TEXTS: Texts = Texts {
    invalid_amount: notice(
        "Invalid Amount",
        "Please select or enter a valid donation amount.",
    ),
    limit_exceeded: notice(
        "Donation Limit Exceeded",
        "This amount would exceed your annual limit. You can donate up to $X more this year.",
    ),
    limit_exceeded_unknown: "This amount would exceed your annual limit.",
    citizenship: notice(
        "Citizenship Confirmation Required",
        "Please confirm your U.S. citizenship status as required by FEC regulations.",
    ),
    additional_info: notice(
        "Additional Information Required",
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose.",
    ),
    additional_info_aggregate: "This gift brings your total for {year} above $T.",
    missing_info: notice(
        "Missing Information",
        "Please fill in all required donor information fields.",
    ),
    confirmation: notice(
        "Confirmation Required",
        "Please confirm the contribution statements above.",
    ),
    setup_failed: notice(
        "Payment Setup Failed",
        "Failed to set up payment. Please try again.",
    ),
    no_client_secret: "No client secret received from payment service",
    payment_failed: notice(
        "Payment Failed",
        "There was an error processing your payment.",
    ),
    payment_error: notice(
        "Payment Error",
        "An unexpected error occurred. Please try again.",
    ),
    success: "Thank you for your donation!",
    summary_loading: "Checking donation status...",
    summary_error: "Unable to load donation status. You can still proceed with your donation.",
    unavailable: "Payment system is not available. Please check back later.",
    proceed: "Proceed to Payment",
    proceed_pending: "Setting up payment...",
    confirm_pending: "Processing",
};

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
}

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
        .find(|k| !["amount", "donorInfo"].contains(&k.as_str()))
    {
        return Err(invalid(
            None,
            format!("A donation has no field {unknown:?}."),
        ));
    }
    let amount_cents = parse_amount(body.get("amount").unwrap_or(&Value::Null))?;
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
