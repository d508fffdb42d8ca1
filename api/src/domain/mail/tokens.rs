//! The links in the site's mail: the newsletter's "confirm signup N" (valid 7 days) and
//! "unsubscribe signup N" (valid as long as the signup exists), a monthly gift's "cancel
//! plan N" (valid until the plan ends) and "give plan N another card" (valid 30 days), and a
//! receipt's "show my giving in this browser" (valid 30 days, and only until the donor signs
//! their browsers out) and "sign my browsers out". Each is the row's id (or, for the donor's
//! two, the address itself), an expiry where it has one, and an HMAC-SHA256 over those, what
//! the link does and the address, with a key made once and kept in
//! `DATA_DIR/mail-link-key`: a link cannot be guessed from another or used for another
//! purpose, and one for a deleted row does not work for whoever gets its id next.
//!
//! The same key makes the keyed hashes ([`Tokens::key_of`]) that stand for a person where a
//! table must recognise them without naming them.

use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use jiff::{SignedDuration, Timestamp};
use sha2::Sha256;

/// How long a confirmation link works.
pub const CONFIRM_LIFE: SignedDuration = SignedDuration::from_hours(24 * 7);
/// How long a receipt's link to show the donor's giving works.
pub const HISTORY_LIFE: SignedDuration = SignedDuration::from_hours(24 * 30);
pub(crate) const KEY_FILE: &str = "mail-link-key";
/// Hex digits of the MAC kept in a link: 128 bits.
const MAC_HEX: usize = 32;

#[derive(Clone)]
pub struct Tokens {
    key: Vec<u8>,
}

/// What a confirmation link says, once its MAC is checked against the address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Valid,
    Expired,
    Invalid,
}

impl Tokens {
    /// The key in `data_dir`, made on first use.
    pub fn open(data_dir: &Path) -> anyhow::Result<Tokens> {
        let path = data_dir.join(KEY_FILE);
        if let Ok(key) = std::fs::read(&path)
            && key.len() >= 32
        {
            return Ok(Tokens { key });
        }
        let key: Vec<u8> = (0..32).map(|_| rand::random::<u8>()).collect();
        crate::store::db::write_private(&path, &key)?;
        Ok(Tokens { key })
    }

    fn mac(&self, parts: &[&str]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key");
        for part in parts {
            mac.update(part.as_bytes());
            mac.update(&[0]);
        }
        let bytes = mac.finalize().into_bytes();
        bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
            .split_at(MAC_HEX)
            .0
            .to_owned()
    }

    /// The confirmation link's token for signup `id` of `email`, made at `now` in the
    /// signup's link epoch `epoch` (moved on by each unsubscribe).
    pub fn confirm(&self, id: i64, email: &str, now: Timestamp, epoch: i64) -> String {
        self.expiring(&confirm_purpose(epoch), id, email, now + CONFIRM_LIFE)
    }

    /// A token for `purpose` on row `id` of `email` that works until `expires`.
    fn expiring(&self, purpose: &str, id: i64, email: &str, expires: Timestamp) -> String {
        let expires = expires.as_second();
        let mac = self.mac(&[
            purpose,
            &id.to_string(),
            &expires.to_string(),
            &email.to_lowercase(),
        ]);
        format!("{id}-{expires}-{mac}")
    }

    /// Whether `token` is [`Tokens::expiring`]'s for `purpose`, `id` and `email` at `now`.
    fn check_expiring(
        &self,
        token: &str,
        purpose: &str,
        id: i64,
        email: &str,
        now: Timestamp,
    ) -> Confirm {
        let mut parts = token.split('-');
        let (Some(tid), Some(expires), Some(mac), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Confirm::Invalid;
        };
        let Ok(at) = expires.parse::<i64>() else {
            return Confirm::Invalid;
        };
        if tid != id.to_string()
            || !same(
                mac,
                &self.mac(&[purpose, tid, expires, &email.to_lowercase()]),
            )
        {
            return Confirm::Invalid;
        }
        if now.as_second() >= at {
            Confirm::Expired
        } else {
            Confirm::Valid
        }
    }

    /// A keyed hash of `value` (lower case) for `purpose`: the same for the same value, and
    /// useless to anyone without the key. 64 hex digits.
    pub fn key_of(&self, purpose: &str, value: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key");
        for part in [purpose.as_bytes(), value.trim().to_lowercase().as_bytes()] {
            mac.update(part);
            mac.update(&[0]);
        }
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The token of a receipt's link that lets a browser show `email`'s giving: the address,
    /// the donor's pass epoch (a sign-out moves it on and ends the link) and an expiry
    /// [`HISTORY_LIFE`] from `now`.
    pub fn donor_history(&self, email: &str, epoch: i64, now: Timestamp) -> String {
        let email = email.trim().to_lowercase();
        let expires = (now + HISTORY_LIFE).as_second();
        let mac = self.mac(&[
            "donor-history",
            &email,
            &epoch.to_string(),
            &expires.to_string(),
        ]);
        format!("{}.{epoch}.{expires}.{mac}", URL_SAFE_NO_PAD.encode(&email))
    }

    /// The address and epoch of a history link that is signed and has not expired.
    pub fn open_donor_history(&self, token: &str, now: Timestamp) -> Option<(String, i64)> {
        let mut parts = token.split('.');
        let (Some(email), Some(epoch), Some(expires), Some(mac), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return None;
        };
        let email = String::from_utf8(URL_SAFE_NO_PAD.decode(email).ok()?).ok()?;
        let (at, n): (i64, i64) = (expires.parse().ok()?, epoch.parse().ok()?);
        let good = same(mac, &self.mac(&["donor-history", &email, epoch, expires]));
        (good && now.as_second() < at).then_some((email, n))
    }

    /// The token of a receipt's link that signs every browser out of `email`'s giving. It
    /// does not expire: signing out is harmless, and a receipt may be read years later.
    pub fn donor_sign_out(&self, email: &str) -> String {
        let email = email.trim().to_lowercase();
        let mac = self.mac(&["donor-sign-out", &email]);
        format!("{}.{mac}", URL_SAFE_NO_PAD.encode(&email))
    }

    /// The address a sign-out link names, if it is signed.
    pub fn open_donor_sign_out(&self, token: &str) -> Option<String> {
        let (email, mac) = token.split_once('.')?;
        let email = String::from_utf8(URL_SAFE_NO_PAD.decode(email).ok()?).ok()?;
        same(mac, &self.mac(&["donor-sign-out", &email])).then_some(email)
    }

    /// The signup id a confirmation token names, to look its address up.
    pub fn confirm_id(token: &str) -> Option<i64> {
        token.split('-').next()?.parse().ok()
    }

    /// Whether `token` confirms signup `id` of `email` at `now`, in the signup's current
    /// link epoch. A good link of an earlier epoch (mailed before an unsubscribe) is
    /// `Expired`: it never subscribes the address again.
    pub fn check_confirm(
        &self,
        token: &str,
        id: i64,
        email: &str,
        now: Timestamp,
        epoch: i64,
    ) -> Confirm {
        match self.check_expiring(token, &confirm_purpose(epoch), id, email, now) {
            Confirm::Invalid
                if (0..epoch).any(|old| {
                    self.check_expiring(token, &confirm_purpose(old), id, email, now)
                        != Confirm::Invalid
                }) =>
            {
                Confirm::Expired
            }
            state => state,
        }
    }

    /// The unsubscribe link's token for signup `id` of `email`.
    pub fn unsubscribe(&self, id: i64, email: &str) -> String {
        let mac = self.mac(&["unsubscribe", &id.to_string(), &email.to_lowercase()]);
        format!("{id}-{mac}")
    }

    /// The token of RSVP `id`'s own page (its `email`): where it is seen and cancelled.
    pub fn rsvp(&self, id: i64, email: &str) -> String {
        let mac = self.mac(&["rsvp", &id.to_string(), &email.to_lowercase()]);
        format!("{id}-{mac}")
    }

    pub fn check_rsvp(&self, token: &str, id: i64, email: &str) -> bool {
        same(token, &self.rsvp(id, email))
    }

    /// The token of the link that confirms waiting RSVP `id` (its `email`), working until
    /// `expires`.
    pub fn rsvp_request(&self, id: i64, email: &str, expires: Timestamp) -> String {
        self.expiring("rsvp-request", id, email, expires)
    }

    /// Whether `token` confirms waiting RSVP `id` of `email` at `now`.
    pub fn check_rsvp_request(&self, token: &str, id: i64, email: &str, now: Timestamp) -> Confirm {
        self.check_expiring(token, "rsvp-request", id, email, now)
    }

    /// The token of plan `id`'s cancel link (its donor's `email`).
    pub fn plan_cancel(&self, id: i64, email: &str) -> String {
        let mac = self.mac(&["plan-cancel", &id.to_string(), &email.to_lowercase()]);
        format!("{id}-{mac}")
    }

    pub fn check_plan_cancel(&self, token: &str, id: i64, email: &str) -> bool {
        same(token, &self.plan_cancel(id, email))
    }

    /// The token of plan `id`'s link to give another card, working until `expires`.
    pub fn plan_card(&self, id: i64, email: &str, expires: Timestamp) -> String {
        self.expiring("plan-card", id, email, expires)
    }

    /// Whether `token` is plan `id`'s card link at `now`.
    pub fn check_plan_card(&self, token: &str, id: i64, email: &str, now: Timestamp) -> Confirm {
        self.check_expiring(token, "plan-card", id, email, now)
    }

    /// The row id any of these tokens names, to look its address up.
    pub fn id_of(token: &str) -> Option<i64> {
        token.split('-').next()?.parse().ok()
    }

    /// The signup id an unsubscribe token names.
    pub fn unsubscribe_id(token: &str) -> Option<i64> {
        token.split('-').next()?.parse().ok()
    }

    pub fn check_unsubscribe(&self, token: &str, id: i64, email: &str) -> bool {
        same(token, &self.unsubscribe(id, email))
    }
}

/// The purpose a confirmation link is signed for in link epoch `epoch` (the links of
/// epoch 0 are those made before epochs were).
fn confirm_purpose(epoch: i64) -> String {
    if epoch == 0 {
        "confirm".to_owned()
    } else {
        format!("confirm:{epoch}")
    }
}

/// Compares in time that does not depend on where the strings differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_signed_bound_to_the_address_and_confirmations_expire() {
        let dir = tempfile::tempdir().unwrap();
        let tokens = Tokens::open(dir.path()).unwrap();
        let now = Timestamp::now();
        let t = tokens.confirm(7, "Ada@Example.org", now, 0);
        assert_eq!(Tokens::confirm_id(&t), Some(7));
        assert_eq!(
            tokens.check_confirm(&t, 7, "ada@example.org", now, 0),
            Confirm::Valid
        );
        assert_eq!(
            tokens.check_confirm(&t, 7, "ada@example.org", now + CONFIRM_LIFE, 0),
            Confirm::Expired
        );
        assert_eq!(
            tokens.check_confirm(&t, 7, "eve@example.org", now, 0),
            Confirm::Invalid
        );
        assert_eq!(
            tokens.check_confirm(&t, 8, "ada@example.org", now, 0),
            Confirm::Invalid
        );
        let forged = t.replace(&t[t.len() - 4..], "0000");
        assert_eq!(
            tokens.check_confirm(&forged, 7, "ada@example.org", now, 0),
            Confirm::Invalid
        );
        // A later expiry needs a new MAC.
        let parts: Vec<&str> = t.split('-').collect();
        let longer = format!(
            "7-{}-{}",
            parts[1].parse::<i64>().unwrap() + 999_999,
            parts[2]
        );
        assert_eq!(
            tokens.check_confirm(&longer, 7, "ada@example.org", now, 0),
            Confirm::Invalid
        );

        // After an unsubscribe (epoch 1), the link of epoch 0 is out of date, never good.
        assert_eq!(
            tokens.check_confirm(&t, 7, "ada@example.org", now, 1),
            Confirm::Expired
        );
        let t1 = tokens.confirm(7, "ada@example.org", now, 1);
        assert_eq!(
            tokens.check_confirm(&t1, 7, "ada@example.org", now, 1),
            Confirm::Valid
        );
        assert_eq!(
            tokens.check_confirm(&t1, 7, "ada@example.org", now, 2),
            Confirm::Expired
        );

        let u = tokens.unsubscribe(7, "ada@example.org");
        assert!(tokens.check_unsubscribe(&u, 7, "ADA@example.org"));
        assert!(!tokens.check_unsubscribe(&u, 7, "eve@example.org"));
        assert!(
            !tokens.check_unsubscribe(&t, 7, "ada@example.org"),
            "a confirm link is no unsubscribe link"
        );

        // The key is kept: the same link works after a restart, and another server's does not.
        let again = Tokens::open(dir.path()).unwrap();
        assert!(again.check_unsubscribe(&u, 7, "ada@example.org"));
        let other = Tokens::open(tempfile::tempdir().unwrap().path()).unwrap();
        assert!(!other.check_unsubscribe(&u, 7, "ada@example.org"));
    }

    #[test]
    fn a_donors_links_name_them_expire_and_cannot_be_forged() {
        let dir = tempfile::tempdir().unwrap();
        let tokens = Tokens::open(dir.path()).unwrap();
        let now = Timestamp::now();
        let link = tokens.donor_history("Ada@Example.org", 3, now);
        assert_eq!(
            tokens.open_donor_history(&link, now),
            Some(("ada@example.org".to_owned(), 3))
        );
        assert_eq!(tokens.open_donor_history(&link, now + HISTORY_LIFE), None);
        let (email, rest) = link.split_once('.').unwrap();
        let other = URL_SAFE_NO_PAD.encode("eve@example.org");
        assert_ne!(email, other);
        assert_eq!(
            tokens.open_donor_history(&format!("{other}.{rest}"), now),
            None
        );
        let later_epoch = link.replacen(".3.", ".4.", 1);
        assert_eq!(tokens.open_donor_history(&later_epoch, now), None);
        let out = tokens.donor_sign_out("ADA@example.org");
        assert_eq!(
            tokens.open_donor_sign_out(&out).as_deref(),
            Some("ada@example.org")
        );
        assert_eq!(tokens.open_donor_sign_out(&link), None);
        assert_eq!(tokens.open_donor_history(&out, now), None);
        assert_eq!(tokens.open_donor_sign_out("x.y"), None);
        assert_eq!(
            tokens.key_of("p", " Ada@Example.org"),
            tokens.key_of("p", "ada@example.org")
        );
        assert_ne!(
            tokens.key_of("p", "ada@example.org"),
            tokens.key_of("q", "ada@example.org")
        );
    }

    #[test]
    fn a_plans_links_are_bound_to_it_their_donor_and_their_purpose() {
        let dir = tempfile::tempdir().unwrap();
        let tokens = Tokens::open(dir.path()).unwrap();
        let now = Timestamp::now();
        let cancel = tokens.plan_cancel(3, "Ada@Example.org");
        assert_eq!(Tokens::id_of(&cancel), Some(3));
        assert!(tokens.check_plan_cancel(&cancel, 3, "ada@example.org"));
        assert!(!tokens.check_plan_cancel(&cancel, 4, "ada@example.org"));
        assert!(!tokens.check_plan_cancel(&cancel, 3, "eve@example.org"));
        assert!(
            !tokens.check_plan_cancel(
                &tokens.unsubscribe(3, "ada@example.org"),
                3,
                "ada@example.org"
            ),
            "an unsubscribe link cancels nothing"
        );
        let card = tokens.plan_card(3, "ada@example.org", now + CONFIRM_LIFE);
        assert_eq!(
            tokens.check_plan_card(&card, 3, "ada@example.org", now),
            Confirm::Valid
        );
        assert_eq!(
            tokens.check_plan_card(&card, 3, "ada@example.org", now + CONFIRM_LIFE),
            Confirm::Expired
        );
        assert_eq!(
            tokens.check_plan_card(&card, 3, "eve@example.org", now),
            Confirm::Invalid
        );
        assert_eq!(
            tokens.check_plan_card(
                &tokens.confirm(3, "ada@example.org", now, 0),
                3,
                "ada@example.org",
                now
            ),
            Confirm::Invalid,
            "a newsletter link is no card link"
        );
    }
}
