//! The public forms, in one place: their field rules, labels and texts. The API enforces
//! the rules and answers with the texts; the generator hands all of it to the form islands
//! as props and renders the pages a form without JavaScript lands on (see `form_pages`),
//! so the browser, the server and the no-script pages can never disagree.

use serde::Serialize;

/// What a field holds; decides the format check and the input's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// A single line of free text.
    Text,
    /// Several lines of free text.
    LongText,
    /// An e-mail address.
    Email,
    /// A phone number: 7 to 15 digits with the usual punctuation.
    Phone,
    /// A US ZIP code: five digits, optionally followed by four more.
    Zip,
    /// A box the visitor ticks to agree to something; never ticked for them. In JSON it is
    /// `true` (or absent, `false`, `null`); an HTML form sends its value, `yes`.
    Consent,
    /// A value the page sets, not the visitor (the event an RSVP is for).
    Hidden,
    /// How many guests someone brings: a whole number from 0 to [`MAX_GUESTS`].
    Guests,
}

/// The most guests one RSVP may bring.
pub const MAX_GUESTS: i64 = 4;

/// What a ticked [`Kind::Consent`] box reads as in [`Values`].
pub const TICKED: &str = "yes";

/// One field of a form.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    /// JSON key and input name.
    pub name: &'static str,
    /// The field's label, also used in error messages ("ZIP code is required.").
    pub label: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Most characters accepted, after trimming.
    pub max_length: usize,
    /// HTML `pattern` mirroring the server's format check, where HTML can express it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'static str>,
    /// The input's `autocomplete` token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<&'static str>,
    /// A line of help under the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<&'static str>,
    /// Height of a long-text field, in lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u8>,
    /// A field that must be filled in when this one is (a ticked box that needs a number to
    /// text), and what the visitor is told when it is not.
    #[serde(skip)]
    pub needs: Option<(&'static str, &'static str)>,
}

impl Field {
    /// A required field of `kind`, at most `max_length` characters.
    pub const fn new(
        name: &'static str,
        label: &'static str,
        kind: Kind,
        max_length: usize,
    ) -> Field {
        Field {
            name,
            label,
            kind,
            required: true,
            max_length,
            pattern: None,
            autocomplete: None,
            hint: None,
            rows: None,
            needs: None,
        }
    }
}

/// What a form says to the visitor: the spec's texts for each state.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Texts {
    /// The submit button.
    pub submit: &'static str,
    /// The submit button while the request is pending.
    pub pending: &'static str,
    pub success_title: &'static str,
    pub success_description: &'static str,
    pub failure_title: &'static str,
    /// Shown when the server gave no message (the network is down, say).
    pub failure_fallback: &'static str,
}

/// A form: where it posts, its fields in display order, and its texts.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Form {
    /// Short name: the rate limiter's key and the no-script pages' URLs (`/forms/{slug}/…`).
    pub slug: &'static str,
    /// The endpoint, `/api/…`.
    pub action: &'static str,
    /// The page the form lives on, for "back" links when the visitor's own is unknown.
    pub home: &'static str,
    /// That page's name in a link: "Back to {home_label}".
    pub home_label: &'static str,
    pub fields: &'static [Field],
    pub texts: Texts,
}

/// RFC 5321 caps an address at 254 characters.
pub const EMAIL_MAX: usize = 254;
/// Room for "+1 (555) 555-5555 ext. 1234".
const PHONE_MAX: usize = 25;
/// "12345-6789": the volunteer form's spec limit of 10 applies to every ZIP field.
pub const ZIP_MAX: usize = 10;
/// Anchored by the browser; written for the `v` flag HTML patterns use.
pub const ZIP_PATTERN: &str = "[0-9]{5}(-?[0-9]{4})?";

const EMAIL: Field = Field {
    autocomplete: Some("email"),
    ..Field::new("email", "Email", Kind::Email, EMAIL_MAX)
};
const PHONE: Field = Field {
    required: false,
    autocomplete: Some("tel"),
    ..Field::new("phone", "Phone", Kind::Phone, PHONE_MAX)
};
const ZIP: Field = Field {
    pattern: Some(ZIP_PATTERN),
    autocomplete: Some("postal-code"),
    ..Field::new("zipCode", "ZIP code", Kind::Zip, ZIP_MAX)
};
/// The separate, never pre-ticked agreement to texts (TCPA): its label and the disclosure
/// beside it are content (`content/home.yaml`, `signup.texts`); this is its rule.
const SMS_CONSENT: Field = Field {
    required: false,
    needs: Some((
        "phone",
        "Please enter your phone number to get text updates.",
    )),
    ..Field::new("smsConsent", "Text updates", Kind::Consent, TICKED.len())
};
const NAME: Field = Field {
    autocomplete: Some("name"),
    ..Field::new("name", "Name", Kind::Text, 100)
};

/// Home page and /join: `{email, phone, zipCode}`, and `smsConsent: true` when the visitor
/// ticked the box to get texts.
pub const NEWSLETTER: Form = Form {
    slug: "newsletter",
    action: "/api/newsletter-signup",
    home: "/",
    home_label: "the home page",
    fields: &[EMAIL, PHONE, ZIP, SMS_CONSENT],
    texts: Texts {
        submit: "Join the Movement",
        pending: "Joining...",
        success_title: "Thank you for joining!",
        success_description: "You'll receive updates about activities and news.",
        failure_title: "Signup Failed",
        failure_fallback: "There was an error processing your signup. Please try again.",
    },
};

/// /contact: `{name, email, subject, message}`.
pub const CONTACT: Form = Form {
    slug: "contact",
    action: "/api/contact",
    home: "/contact",
    home_label: "Contact",
    fields: &[
        NAME,
        EMAIL,
        Field::new("subject", "Subject", Kind::Text, 200),
        Field {
            rows: Some(6),
            ..Field::new("message", "Message", Kind::LongText, 5000)
        },
    ],
    texts: Texts {
        submit: "Send Message",
        pending: "Sending...",
        success_title: "Message sent!",
        success_description: "Thank you for reaching out. We'll get back to you soon.",
        failure_title: "Failed to send message",
        failure_fallback: "There was an error sending your message. Please try again.",
    },
};

/// /take-action: `{name, email, phone, zipCode, interests}`.
pub const VOLUNTEER: Form = Form {
    slug: "volunteer",
    action: "/api/volunteer",
    home: "/take-action",
    home_label: "Take Action",
    fields: &[
        NAME,
        EMAIL,
        PHONE,
        ZIP,
        Field {
            required: false,
            hint: Some("For example: canvassing, phone banking, events, petitions."),
            rows: Some(3),
            ..Field::new("interests", "Areas of interest", Kind::LongText, 1000)
        },
    ],
    texts: Texts {
        submit: "Sign Up to Volunteer",
        pending: "Signing Up...",
        success_title: "Thank you for volunteering!",
        success_description: "We'll be in touch with volunteer opportunities in your area.",
        failure_title: "Signup Failed",
        failure_fallback: "There was an error processing your volunteer signup. Please try again.",
    },
};

/// An event's page: `{event, name, email, zipCode, phone, smsConsent, guests}`, `event`
/// being its slug.
pub const RSVP: Form = Form {
    slug: "rsvp",
    action: "/api/events/rsvp",
    home: "/events",
    home_label: "Events",
    fields: &[
        Field {
            kind: Kind::Hidden,
            ..Field::new("event", "Event", Kind::Hidden, 200)
        },
        NAME,
        EMAIL,
        ZIP,
        PHONE,
        SMS_CONSENT,
        Field {
            required: false,
            hint: Some("Friends or family coming with you."),
            ..Field::new("guests", "Guests", Kind::Guests, 1)
        },
    ],
    texts: Texts {
        submit: "RSVP",
        pending: "Sending...",
        success_title: "Check your e-mail to confirm",
        success_description: "Open the link we've sent within 24 hours to take your seat.",
        failure_title: "RSVP failed",
        failure_fallback: "There was an error sending your RSVP. Please try again.",
    },
};

/// Every public form.
pub const ALL: [Form; 4] = [NEWSLETTER, CONTACT, VOLUNTEER, RSVP];

/// Name of the hidden field bots fill in and people never see.
pub const HONEYPOT: &str = "website";

/// Whether a request body filled in the honeypot: answered like a success, never stored.
pub fn is_bot(body: &serde_json::Value) -> bool {
    body.get(HONEYPOT)
        .and_then(|v| v.as_str())
        .is_some_and(|s| !s.trim().is_empty())
}

/// A form's checked values, by field name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Values(Vec<(&'static str, Option<String>)>);

impl Values {
    /// The clean value of `name`, or `None` when an optional field was left empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The clean value of a required field (always present after `parse`).
    pub fn required(&self, name: &str) -> String {
        self.get(name)
            .unwrap_or_else(|| panic!("{name} is not a required field"))
            .to_owned()
    }
}

/// Why a submission was refused: a sentence for the visitor, and the field it is about
/// (none when the body as a whole is wrong).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub field: Option<&'static str>,
    pub message: String,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Form {
    /// Checks a JSON request body against the rules. A key the form does not have (but
    /// the honeypot) is refused, and so is a field that is not a string (or null). The first
    /// problem found is returned as a sentence for the visitor.
    pub fn parse(&self, body: &serde_json::Value) -> Result<Values, Invalid> {
        let object = body.as_object().ok_or_else(|| Invalid {
            field: None,
            message: "The request body must be a JSON object.".into(),
        })?;
        if let Some(unknown) = object
            .keys()
            .find(|k| *k != HONEYPOT && !self.fields.iter().any(|f| f.name == *k))
        {
            return Err(Invalid {
                field: None,
                message: format!("This form has no field {unknown:?}."),
            });
        }
        let mut values = Vec::with_capacity(self.fields.len());
        for field in self.fields {
            let invalid = |message: String| Invalid {
                field: Some(field.name),
                message,
            };
            // A number of guests may come as a JSON number too (an API client's natural
            // choice); it is checked as the text a form sends.
            let number;
            let raw = match (field.kind, object.get(field.name)) {
                (_, None | Some(serde_json::Value::Null)) => None,
                (Kind::Consent, Some(serde_json::Value::Bool(ticked))) => ticked.then_some(TICKED),
                (_, Some(serde_json::Value::String(s))) => Some(s.as_str()),
                (Kind::Guests, Some(serde_json::Value::Number(n))) if n.is_i64() => {
                    number = n.to_string();
                    Some(number.as_str())
                }
                (Kind::Consent, Some(_)) => {
                    return Err(invalid(format!("{} must be true or false.", field.label)));
                }
                (_, Some(_)) => return Err(invalid(format!("{} must be text.", field.label))),
            };
            values.push((field.name, field.check(raw).map_err(invalid)?));
        }
        let values = Values(values);
        for field in self.fields {
            if let Some((needed, message)) = field.needs
                && values.get(field.name).is_some()
                && values.get(needed).is_none()
            {
                return Err(Invalid {
                    field: Some(self.field(needed).name),
                    message: message.to_owned(),
                });
            }
        }
        Ok(values)
    }

    /// The rule for `name`; panics on a typo, which the tests catch.
    pub fn field(&self, name: &str) -> &Field {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("form has no field {name}"))
    }
}

impl Field {
    /// Trims `value` and checks it: `Ok(None)` for an empty optional field, `Ok(Some(clean))`
    /// for a good value, `Err(message)` with a sentence a visitor can act on.
    pub fn check(&self, value: Option<&str>) -> Result<Option<String>, String> {
        let value = value.map(str::trim).unwrap_or("");
        if value.is_empty() {
            return if self.required {
                Err(format!("{} is required.", self.label))
            } else {
                Ok(None)
            };
        }
        if self.kind == Kind::Consent {
            // What an HTML checkbox or a hand-written request may say for "ticked".
            return if ["yes", "on", "true"]
                .iter()
                .any(|t| value.eq_ignore_ascii_case(t))
            {
                Ok(Some(TICKED.to_owned()))
            } else if value.eq_ignore_ascii_case("false") {
                Ok(None)
            } else {
                Err(format!("{} must be true or false.", self.label))
            };
        }
        if value.chars().count() > self.max_length {
            return Err(format!(
                "{} must be at most {} characters.",
                self.label, self.max_length
            ));
        }
        if value.chars().any(|c| {
            c.is_control() && !(self.kind == Kind::LongText && matches!(c, '\n' | '\r' | '\t'))
        }) {
            return Err(format!(
                "{} contains characters that are not allowed.",
                self.label
            ));
        }
        match self.kind {
            Kind::Email if !is_valid_email(value) => {
                Err("Please enter a valid email address.".into())
            }
            Kind::Phone if !is_valid_phone(value) => {
                Err("Please enter a valid phone number (7 to 15 digits).".into())
            }
            Kind::Zip if !is_valid_zip(value) => {
                Err("Please enter a valid ZIP code (5 digits, or ZIP+4).".into())
            }
            Kind::Guests
                if !value
                    .parse::<i64>()
                    .is_ok_and(|n| (0..=MAX_GUESTS).contains(&n)) =>
            {
                Err(format!(
                    "{} must be a whole number from 0 to {MAX_GUESTS}.",
                    self.label
                ))
            }
            _ => Ok(Some(value.to_owned())),
        }
    }
}

/// An address people can actually receive mail at: RFC-valid, and a domain with a dot
/// (no `user@localhost`).
pub fn is_valid_email(value: &str) -> bool {
    if value.len() > EMAIL_MAX || !email_address::EmailAddress::is_valid(value) {
        return false;
    }
    match value.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.starts_with('[')
                && domain.contains('.')
                && !domain.ends_with('.')
                && domain
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
        }
        None => false,
    }
}

fn is_valid_phone(value: &str) -> bool {
    let digits = value.chars().filter(char::is_ascii_digit).count();
    (7..=15).contains(&digits)
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c) || c == 'x' || c == 'X')
}

/// A valid phone number in E.164 form (`+15551234567`), the one spelling consent records and
/// opt-outs are matched on: an extension is dropped, and ten digits are a US number.
pub fn e164(phone: &str) -> Option<String> {
    let number = phone.split(['x', 'X']).next().unwrap_or("");
    if !is_valid_phone(phone) {
        return None;
    }
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    match digits.len() {
        10 if !number.trim_start().starts_with('+') => Some(format!("+1{digits}")),
        7..=15 => Some(format!("+{digits}")),
        _ => None,
    }
}

fn is_valid_zip(value: &str) -> bool {
    let b = value.as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    match b.len() {
        5 => digits(b),
        9 => digits(b),
        10 => digits(&b[..5]) && b[5] == b'-' && digits(&b[6..]),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
