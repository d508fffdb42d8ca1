//! The public forms' field rules, in one place: the API enforces them and the generator
//! hands them to the form islands as props (`maxLength`, `required`, `pattern`), so the
//! browser and the server can never disagree.

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
}

/// One field of a form.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    /// JSON key and input name.
    pub name: &'static str,
    /// Human name used in error messages ("ZIP code").
    pub label: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Most characters accepted, after trimming.
    pub max_length: usize,
    /// HTML `pattern` mirroring the server's format check, where HTML can express it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'static str>,
}

/// A form: its fields in display order.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Form {
    pub fields: &'static [Field],
}

/// RFC 5321 caps an address at 254 characters.
const EMAIL_MAX: usize = 254;
/// Room for "+1 (555) 555-5555 ext. 1234".
const PHONE_MAX: usize = 25;
/// "12345-6789": the volunteer form's spec limit of 10 applies to every ZIP field.
const ZIP_MAX: usize = 10;
/// Anchored by the browser; written for the `v` flag HTML patterns use.
const ZIP_PATTERN: &str = "[0-9]{5}(-?[0-9]{4})?";

const EMAIL: Field = Field {
    name: "email",
    label: "Email",
    kind: Kind::Email,
    required: true,
    max_length: EMAIL_MAX,
    pattern: None,
};
const PHONE: Field = Field {
    name: "phone",
    label: "Phone number",
    kind: Kind::Phone,
    required: false,
    max_length: PHONE_MAX,
    pattern: None,
};
const ZIP: Field = Field {
    name: "zipCode",
    label: "ZIP code",
    kind: Kind::Zip,
    required: true,
    max_length: ZIP_MAX,
    pattern: Some(ZIP_PATTERN),
};
const NAME: Field = Field {
    name: "name",
    label: "Name",
    kind: Kind::Text,
    required: true,
    max_length: 100,
    pattern: None,
};

/// Home page and /join: `{email, phone, zipCode}`.
pub const NEWSLETTER: Form = Form {
    fields: &[EMAIL, PHONE, ZIP],
};

/// /contact: `{name, email, subject, message}`.
pub const CONTACT: Form = Form {
    fields: &[
        NAME,
        EMAIL,
        Field {
            name: "subject",
            label: "Subject",
            kind: Kind::Text,
            required: true,
            max_length: 200,
            pattern: None,
        },
        Field {
            name: "message",
            label: "Message",
            kind: Kind::LongText,
            required: true,
            max_length: 5000,
            pattern: None,
        },
    ],
};

/// /take-action: `{name, email, phone, zipCode, interests}`.
pub const VOLUNTEER: Form = Form {
    fields: &[
        NAME,
        EMAIL,
        PHONE,
        ZIP,
        Field {
            name: "interests",
            label: "Interests",
            kind: Kind::LongText,
            required: false,
            max_length: 1000,
            pattern: None,
        },
    ],
};

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

impl Form {
    /// Checks a JSON request body against the rules. Unknown keys are ignored; a field that
    /// is not a string (or null) is refused by name. The first problem found is returned
    /// as a sentence for the visitor.
    pub fn parse(&self, body: &serde_json::Value) -> Result<Values, String> {
        let object = body
            .as_object()
            .ok_or("The request body must be a JSON object.")?;
        let mut values = Vec::with_capacity(self.fields.len());
        for field in self.fields {
            let raw = match object.get(field.name) {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::String(s)) => Some(s.as_str()),
                Some(_) => return Err(format!("{} must be text.", field.label)),
            };
            values.push((field.name, field.check(raw)?));
        }
        Ok(Values(values))
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
mod tests {
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
            .parse(&json!({"email": " a@b.org ", "phone": "", "zipCode": "12345", "extra": 1}))
            .unwrap();
        assert_eq!(ok.get("email"), Some("a@b.org"));
        assert_eq!(ok.get("phone"), None);
        assert_eq!(
            NEWSLETTER.parse(&json!({"email": "a@b.org"})).unwrap_err(),
            "ZIP code is required."
        );
        assert_eq!(
            NEWSLETTER
                .parse(&json!({"email": 5, "zipCode": "12345"}))
                .unwrap_err(),
            "Email must be text."
        );
        assert_eq!(
            NEWSLETTER.parse(&json!(["a@b.org"])).unwrap_err(),
            "The request body must be a JSON object."
        );
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
}
