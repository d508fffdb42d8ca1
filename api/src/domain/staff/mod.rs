//! Staff accounts (issue 37): who signs in ([`accounts`]), as what ([`roles`]), from where
//! ([`sessions`], [`devices`]), with which second factor ([`totp`], [`recovery`],
//! [`passkeys`], the e-mailed code of a [`challenges`] row), the links mailed to them
//! ([`links`]: invitations and password resets), automation's [`service_tokens`], and the
//! security notices they are sent ([`notices`]).
//!
//! Secrets are kept only as what cannot be used if the database leaks: passwords as argon2
//! hashes (`domain::auth`), tokens and codes as HMAC-SHA256 under a key derived from the
//! server's secret ([`Keys::hash`]), and the authenticator app's secret sealed
//! (ChaCha20-Poly1305, [`Keys::seal`]) since it must be read back to check a code.

pub mod accounts;
pub mod challenges;
pub mod devices;
pub mod links;
pub mod notices;
pub mod passkeys;
pub mod recovery;
pub mod roles;
pub mod service_tokens;
pub mod sessions;
pub mod totp;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

pub use roles::{Cap, Role};

/// The keys staff secrets are hashed and sealed with, derived from the server's secret.
pub struct Keys {
    hash: [u8; 32],
    seal: ChaCha20Poly1305,
}

impl Keys {
    pub fn new(secret: &[u8]) -> Keys {
        let derive = |purpose: &str| -> [u8; 32] {
            Sha256::new()
                .chain_update(secret)
                .chain_update([0])
                .chain_update(purpose.as_bytes())
                .finalize()
                .into()
        };
        let seal = derive("staff-seal");
        Keys {
            hash: derive("staff-hash"),
            seal: ChaCha20Poly1305::new((&seal).into()),
        }
    }

    /// What is stored for a token or code: its keyed hash, hex, under `purpose` (so a device
    /// cookie can never pass as a reset link).
    pub fn hash(&self, purpose: &str, token: &str) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.hash).expect("any key length");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(token.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// `plain` sealed: a random nonce, then the ciphertext and its tag.
    pub fn seal(&self, plain: &[u8]) -> Vec<u8> {
        let nonce: [u8; 12] = rand::random();
        let mut out = nonce.to_vec();
        out.extend(
            self.seal
                .encrypt(Nonce::from_slice(&nonce), plain)
                .expect("sealing cannot fail"),
        );
        out
    }

    /// What [`Keys::seal`] sealed, or `None` when it was not sealed with this key.
    pub fn open(&self, sealed: &[u8]) -> Option<Vec<u8>> {
        let (nonce, rest) = sealed.split_at_checked(12)?;
        self.seal.decrypt(Nonce::from_slice(nonce), rest).ok()
    }
}

/// A new random token for a link or cookie: 256 bits, URL-safe.
pub fn new_token() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>())
}

/// "Firefox on Linux": what a sign-in's `User-Agent` says, for sessions lists and mails.
pub fn browser_of(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent.filter(|ua| !ua.trim().is_empty()) else {
        return "Unknown browser".into();
    };
    match woothee::parser::Parser::new().parse(ua) {
        Some(r) if r.name != "UNKNOWN" => {
            let os = if r.os == "UNKNOWN" {
                "an unknown system"
            } else {
                r.os
            };
            format!("{} on {os}", r.name)
        }
        _ => "Unknown browser".into(),
    }
}

/// The fewest characters a staff password may have, and the most.
pub const MIN_PASSWORD_CHARS: usize = 12;
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// Why `password` will not do for the account of `email` (short, common, a pattern crackers
/// try early: zxcvbn's estimate below 10⁸ guesses), in words for the person; `None` when
/// it is fine.
pub fn password_problem(password: &str, email: &str, name: &str) -> Option<String> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Some(format!(
            "Choose a password of at least {MIN_PASSWORD_CHARS} characters (a few unrelated words work well)."
        ));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Some("That password is too long.".into());
    }
    let local = email.split('@').next().unwrap_or_default();
    let estimate = zxcvbn::zxcvbn(password, &["admin", "party", "conscience", local, name]);
    if estimate.score() < zxcvbn::Score::Three {
        let why = estimate
            .feedback()
            .and_then(|f| f.warning())
            .map_or_else(|| "It is too easy to guess.".to_owned(), |w| w.to_string());
        return Some(format!(
            "That password is too easy to guess. {why} A few unrelated words work well."
        ));
    }
    None
}

/// An e-mail address as accounts are keyed: trimmed and lower-cased.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_depend_on_purpose_and_seals_open_only_with_their_key() {
        let keys = Keys::new(b"a secret of at least thirty-two bytes!!");
        assert_ne!(keys.hash("device", "t"), keys.hash("reset", "t"));
        assert_eq!(keys.hash("device", "t"), keys.hash("device", "t"));
        let sealed = keys.seal(b"JBSWY3DPEHPK3PXP");
        assert_eq!(keys.open(&sealed).unwrap(), b"JBSWY3DPEHPK3PXP");
        let other = Keys::new(b"another secret of at least thirty-two bytes");
        assert!(other.open(&sealed).is_none());
        assert!(keys.open(b"short").is_none());
    }

    #[test]
    fn browsers_are_named() {
        let ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(browser_of(Some(ua)), "Chrome on Linux");
        assert_eq!(browser_of(None), "Unknown browser");
    }
}
