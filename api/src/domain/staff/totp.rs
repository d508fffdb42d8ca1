//! The authenticator app (RFC 6238: SHA-1, 6 digits, 30 seconds, one step of drift either
//! way), read off the one movable clock. A code is accepted once: a step at or before the
//! last one used is refused, so a code seen over a shoulder cannot be replayed.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use totp_rs::{Algorithm, TOTP};

use super::Keys;

const STEP: u64 = 30;

fn totp(secret: Vec<u8>) -> TOTP {
    TOTP::new_unchecked(Algorithm::SHA1, 6, 0, STEP, secret)
}

/// What the enrolment screen shows: the secret as text and as an `otpauth://` URI (also
/// drawn as a QR code).
pub struct Enrolment {
    pub secret: String,
    pub uri: String,
    pub qr_svg: String,
}

/// Starts enrolment: a new secret, kept sealed as pending until a code from it is right.
pub fn begin(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    issuer: &str,
    account: &str,
) -> rusqlite::Result<Enrolment> {
    let secret: [u8; 20] = rand::random();
    tx.execute(
        "UPDATE users SET totp_pending = ?2 WHERE id = ?1",
        params![user, keys.seal(&secret)],
    )?;
    let encoded = totp(secret.to_vec()).get_secret_base32();
    let enc = |s: &str| {
        percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    let uri = format!(
        "otpauth://totp/{}:{}?secret={encoded}&issuer={}&algorithm=SHA1&digits=6&period=30",
        enc(issuer),
        enc(account),
        enc(issuer)
    );
    let qr_svg = qrcode::QrCode::new(uri.as_bytes())
        .map(|code| {
            code.render::<qrcode::render::svg::Color<'_>>()
                .min_dimensions(200, 200)
                .quiet_zone(true)
                .build()
        })
        .unwrap_or_default();
    Ok(Enrolment {
        secret: encoded,
        uri,
        qr_svg,
    })
}

/// The step `code` is right for (now, one before or one after), if any after `after`.
fn matching_step(secret: Vec<u8>, code: &str, now: Timestamp, after: i64) -> Option<i64> {
    let code = code.trim().replace(' ', "");
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now = now.as_second().max(0) as u64;
    let totp = totp(secret);
    let current = (now / STEP) as i64;
    [current - 1, current, current + 1]
        .into_iter()
        .filter(|step| *step > after && *step >= 0)
        .find(|step| totp.check(&code, *step as u64 * STEP))
}

/// Confirms enrolment with a code from the pending secret: `true` when right (the app is
/// then active).
pub fn confirm(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    code: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let pending: Option<Vec<u8>> = tx
        .query_row(
            "SELECT totp_pending FROM users WHERE id = ?1",
            [user],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    let Some(secret) = pending.as_deref().and_then(|p| keys.open(p)) else {
        return Ok(false);
    };
    let Some(step) = matching_step(secret, code, now, -1) else {
        return Ok(false);
    };
    tx.execute(
        "UPDATE users SET totp_secret = totp_pending, totp_pending = NULL, totp_last_step = ?2 WHERE id = ?1",
        params![user, step],
    )?;
    Ok(true)
}

/// Checks a sign-in code: `true` when right and not used before (its step is then used).
pub fn verify(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    code: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let row: Option<(Option<Vec<u8>>, i64)> = tx
        .query_row(
            "SELECT totp_secret, totp_last_step FROM users WHERE id = ?1",
            [user],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((Some(sealed), last)) = row else {
        return Ok(false);
    };
    let Some(secret) = keys.open(&sealed) else {
        tracing::error!(
            user,
            "an authenticator secret does not open with this server's key"
        );
        return Ok(false);
    };
    let Some(step) = matching_step(secret, code, now, last) else {
        return Ok(false);
    };
    Ok(tx.execute(
        "UPDATE users SET totp_last_step = ?2 WHERE id = ?1 AND totp_last_step < ?2",
        params![user, step],
    )? == 1)
}

pub fn has(conn: &Connection, user: i64) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT totp_secret IS NOT NULL FROM users WHERE id = ?1",
        [user],
        |r| r.get(0),
    )
}

pub fn remove(tx: &Connection, user: i64) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET totp_secret = NULL, totp_pending = NULL WHERE id = ?1",
        [user],
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_right_for_its_step_and_its_neighbours_only_once() {
        let secret = vec![7u8; 20];
        let now: Timestamp = "2026-11-28T12:00:10Z".parse().unwrap();
        let code = totp(secret.clone()).generate(now.as_second() as u64);
        let step = now.as_second() / 30;
        assert_eq!(matching_step(secret.clone(), &code, now, -1), Some(step));
        let later = now + jiff::SignedDuration::from_secs(30);
        assert_eq!(matching_step(secret.clone(), &code, later, -1), Some(step));
        assert_eq!(
            matching_step(secret.clone(), &code, now, step),
            None,
            "replay"
        );
        let much_later = now + jiff::SignedDuration::from_secs(120);
        assert_eq!(matching_step(secret.clone(), &code, much_later, -1), None);
        assert_eq!(matching_step(secret, "12345a", now, -1), None);
    }
}
