//! Who may see a donor's giving. What someone gave is private (gifts under $200 are not even
//! reported), so the donation summary answers a donor's totals only to a browser that has
//! shown it reads the donor's mail: every receipt carries a link (`Tokens::donor_history`),
//! and a browser that opens it gets the donor's **pass**. Paying a gift in someone's name
//! earns nothing: anyone can pay $1 in anyone's name.
//!
//! Two signed tokens, each with a key of its own derived from the server's secret:
//! - a **ticket** comes with every payment set up: "this browser set up gift N for X". It
//!   lets the page that returns from Stripe say the gift is paid (so its receipt goes out at
//!   once), and proves nothing else;
//! - a **pass**: "this browser opened X's link, in epoch E". Every receipt also has a link
//!   that signs all of a donor's browsers out: it moves the donor's epoch on
//!   ([`sign_out_everywhere`]), and a pass (or history link) of an earlier epoch no longer
//!   works. Epochs are kept by a keyed hash of the address (`donor_pass_epochs`).

use jiff::{SignedDuration, Timestamp};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rusqlite::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What `Tokens::key_of` is asked for when it keys a donor's address for their epoch.
pub const KEY_PURPOSE: &str = "donor-pass";

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
    /// The donor's epoch when the pass was made (passes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    epoch: Option<i64>,
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
            epoch: None,
            exp: (now + TICKET_LIFE).as_second(),
        })
    }

    /// The gift and e-mail of a valid ticket.
    pub fn open_ticket(&self, token: &str, now: Timestamp) -> Option<(i64, String)> {
        let claims = self.open(token, "ticket", now)?;
        Some((claims.gift?, claims.email))
    }

    /// A pass for `email`, whose history link was opened in `epoch`.
    pub fn pass(&self, email: &str, epoch: i64, now: Timestamp) -> String {
        self.sign(&Claims {
            sub: "pass".into(),
            email: email.to_lowercase(),
            gift: None,
            epoch: Some(epoch),
            exp: (now + PASS_LIFE).as_second(),
        })
    }

    /// The epoch of a valid pass for `email`: the caller compares it with the donor's
    /// current one ([`epoch`]).
    pub fn pass_epoch(&self, token: Option<&str>, email: &str, now: Timestamp) -> Option<i64> {
        token
            .and_then(|t| self.open(t, "pass", now))
            .filter(|c| c.email.eq_ignore_ascii_case(email.trim()))
            .and_then(|c| c.epoch)
    }
}

/// The current epoch of the donor whose keyed address is `key` (0 until they first sign
/// out).
pub fn epoch(conn: &Connection, key: &str) -> rusqlite::Result<i64> {
    Ok(conn
        .query_row(
            "SELECT epoch FROM donor_pass_epochs WHERE email_key = ?1",
            [key],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// Ends every pass and history link of the donor whose keyed address is `key`.
pub fn sign_out_everywhere(conn: &Connection, key: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO donor_pass_epochs (email_key, epoch) VALUES (?1, 1) \
         ON CONFLICT (email_key) DO UPDATE SET epoch = epoch + 1",
        [key],
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_opens_one_donor_in_one_epoch_for_a_year_and_a_ticket_is_not_a_pass() {
        let passes = DonorPasses::new(b"a secret of at least thirty-two bytes!!");
        let now = Timestamp::now();
        let pass = passes.pass("Donor@Example.org", 2, now);
        assert_eq!(
            passes.pass_epoch(Some(&pass), "donor@example.org", now),
            Some(2)
        );
        assert_eq!(
            passes.pass_epoch(Some(&pass), " DONOR@example.org ", now),
            Some(2)
        );
        assert_eq!(
            passes.pass_epoch(Some(&pass), "someone@example.org", now),
            None
        );
        assert_eq!(
            passes.pass_epoch(
                Some(&pass),
                "donor@example.org",
                now + SignedDuration::from_hours(24 * 366)
            ),
            None
        );
        assert_eq!(passes.pass_epoch(None, "donor@example.org", now), None);
        assert_eq!(
            passes.pass_epoch(Some("garbage"), "donor@example.org", now),
            None
        );
        let ticket = passes.ticket(7, "donor@example.org", now);
        assert_eq!(
            passes.pass_epoch(Some(&ticket), "donor@example.org", now),
            None,
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
        assert_eq!(
            other.pass_epoch(Some(&pass), "donor@example.org", now),
            None
        );
    }
}
