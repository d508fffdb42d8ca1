//! Who may see a donor's giving. What someone gave is private (gifts under $200 are not even
//! reported), so the donation summary answers a donor's totals only to a browser that has
//! shown it acts for that donor: one that paid a gift in their name. Two signed tokens do
//! it, each with a key of its own derived from the server's secret:
//!
//! - a **ticket** comes with every payment set up: "this browser set up gift N for X". It
//!   proves nothing on its own, since anyone can set up a gift in anyone's name;
//! - once gift N is paid, the ticket is exchanged for a **pass**: "this browser paid a gift
//!   for X". The page keeps it and shows it when it asks about X.

use jiff::{SignedDuration, Timestamp};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a ticket can be exchanged: the donor returns from Stripe within minutes.
const TICKET_LIFE: SignedDuration = SignedDuration::from_hours(24);
/// How long a pass lets a browser see its donor's year.
const PASS_LIFE: SignedDuration = SignedDuration::from_hours(24 * 365);

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    /// `ticket` or `pass`.
    sub: String,
    /// The donor's e-mail (lower case).
    email: String,
    /// The gift (tickets only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gift: Option<i64>,
    exp: i64,
}

pub struct DonorPasses {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl DonorPasses {
    pub fn new(secret: &[u8]) -> DonorPasses {
        let key = Sha256::new()
            .chain_update(secret)
            .chain_update([0])
            .chain_update(b"donor passes")
            .finalize();
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is checked against the server's clock, below.
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["exp", "sub"]);
        DonorPasses {
            encoding: EncodingKey::from_secret(&key),
            decoding: DecodingKey::from_secret(&key),
            validation,
        }
    }

    fn sign(&self, claims: &Claims) -> String {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    fn open(&self, token: &str, kind: &str, now: Timestamp) -> Option<Claims> {
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()?
            .claims;
        (claims.sub == kind && claims.exp > now.as_second()).then_some(claims)
    }

    /// A ticket for gift `gift` of `email`, set up now.
    pub fn ticket(&self, gift: i64, email: &str, now: Timestamp) -> String {
        self.sign(&Claims {
            sub: "ticket".into(),
            email: email.to_lowercase(),
            gift: Some(gift),
            exp: (now + TICKET_LIFE).as_second(),
        })
    }

    /// The gift and e-mail of a valid ticket.
    pub fn open_ticket(&self, token: &str, now: Timestamp) -> Option<(i64, String)> {
        let claims = self.open(token, "ticket", now)?;
        Some((claims.gift?, claims.email))
    }

    /// A pass for `email`, whose gift was paid.
    pub fn pass(&self, email: &str, now: Timestamp) -> String {
        self.sign(&Claims {
            sub: "pass".into(),
            email: email.to_lowercase(),
            gift: None,
            exp: (now + PASS_LIFE).as_second(),
        })
    }

    /// Whether `token` is a valid pass for `email`.
    pub fn allows(&self, token: Option<&str>, email: &str, now: Timestamp) -> bool {
        token
            .and_then(|t| self.open(t, "pass", now))
            .is_some_and(|c| c.email.eq_ignore_ascii_case(email.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_opens_one_donor_for_a_year_and_a_ticket_is_not_a_pass() {
        let passes = DonorPasses::new(b"a secret of at least thirty-two bytes!!");
        let now = Timestamp::now();
        let pass = passes.pass("Donor@Example.org", now);
        assert!(passes.allows(Some(&pass), "donor@example.org", now));
        assert!(passes.allows(Some(&pass), " DONOR@example.org ", now));
        assert!(!passes.allows(Some(&pass), "someone@example.org", now));
        assert!(!passes.allows(
            Some(&pass),
            "donor@example.org",
            now + SignedDuration::from_hours(24 * 366)
        ));
        assert!(!passes.allows(None, "donor@example.org", now));
        assert!(!passes.allows(Some("garbage"), "donor@example.org", now));
        let ticket = passes.ticket(7, "donor@example.org", now);
        assert!(
            !passes.allows(Some(&ticket), "donor@example.org", now),
            "a ticket is no pass"
        );
        assert_eq!(
            passes.open_ticket(&ticket, now),
            Some((7, "donor@example.org".into()))
        );
        assert_eq!(passes.open_ticket(&pass, now), None, "a pass is no ticket");
        assert_eq!(
            passes.open_ticket(&ticket, now + SignedDuration::from_hours(25)),
            None
        );
        // Another server's secret.
        let other = DonorPasses::new(b"another secret of at least thirty-two bytes");
        assert!(!other.allows(Some(&pass), "donor@example.org", now));
    }
}
