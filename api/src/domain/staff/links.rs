//! Links mailed to staff, each working once: invitations (7 days) and password resets
//! (1 hour). Only their hash is stored; opening one checks it and changes nothing.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};

use super::{Keys, Role};
use crate::domain::clock::sql_time;

pub const INVITATION_LIFETIME: SignedDuration = SignedDuration::from_hours(7 * 24);
pub const RESET_LIFETIME: SignedDuration = SignedDuration::from_hours(1);
const INVITE: &str = "invitation";
const RESET: &str = "reset";

/// An invitation still open.
#[derive(Debug, Clone)]
pub struct Invitation {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
}

/// Makes an invitation; returns its id and the token for the link.
pub fn invite(
    tx: &Connection,
    keys: &Keys,
    email: &str,
    name: &str,
    role: Role,
    by: i64,
    now: Timestamp,
) -> rusqlite::Result<(i64, String)> {
    let token = super::new_token();
    tx.execute(
        "INSERT INTO invitations (email, name, role, token_hash, invited_by, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            super::normalise_email(email),
            name.trim(),
            role.as_str(),
            keys.hash(INVITE, &token),
            by,
            sql_time(now),
            sql_time(now + INVITATION_LIFETIME)
        ],
    )?;
    Ok((tx.last_insert_rowid(), token))
}

/// A new link for invitation `id` (the old one stops working); `None` when it is not open.
pub fn renew(
    tx: &Connection,
    keys: &Keys,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<Option<(Invitation, String)>> {
    let token = super::new_token();
    let changed = tx.execute(
        "UPDATE invitations SET token_hash = ?2, expires_at = ?3
         WHERE id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![
            id,
            keys.hash(INVITE, &token),
            sql_time(now + INVITATION_LIFETIME)
        ],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    Ok(invitation_by_id(tx, id)?.map(|inv| (inv, token)))
}

fn invitation_by_id(conn: &Connection, id: i64) -> rusqlite::Result<Option<Invitation>> {
    conn.query_row(
        "SELECT id, email, name, role FROM invitations WHERE id = ?1",
        [id],
        invitation_row,
    )
    .optional()
}

fn invitation_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Invitation> {
    Ok(Invitation {
        id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        role: Role::parse(&r.get::<_, String>(3)?).unwrap_or(Role::Contributor),
    })
}

/// The open invitation `token` is the link of, unexpired.
pub fn open_invitation(
    conn: &Connection,
    keys: &Keys,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Option<Invitation>> {
    conn.query_row(
        "SELECT id, email, name, role FROM invitations
         WHERE token_hash = ?1 AND used_at IS NULL AND voided_at IS NULL AND expires_at > ?2",
        params![keys.hash(INVITE, token), sql_time(now)],
        invitation_row,
    )
    .optional()
}

/// Marks invitation `id` used; `false` when it was not open (a second click racing).
pub fn use_invitation(tx: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    Ok(tx.execute(
        "UPDATE invitations SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![id, sql_time(now)],
    )? == 1)
}

/// Voids invitation `id`; `false` when it was not open.
pub fn revoke_invitation(tx: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    Ok(tx.execute(
        "UPDATE invitations SET voided_at = ?2 WHERE id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![id, sql_time(now)],
    )? == 1)
}

/// Voids the open invitations `user` sent and the reset links sent to them (they were
/// deactivated).
pub fn void_for_user(tx: &Connection, user: i64, now: Timestamp) -> rusqlite::Result<()> {
    let at = sql_time(now);
    tx.execute(
        "UPDATE invitations SET voided_at = ?2 WHERE invited_by = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![user, at],
    )?;
    tx.execute(
        "UPDATE password_resets SET voided_at = ?2 WHERE user_id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![user, at],
    )?;
    Ok(())
}

/// One row of the pending invitations list.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub role_label: &'static str,
    pub created_at: String,
    pub expires_at: String,
    pub invited_by: Option<String>,
}

pub fn pending(conn: &Connection, now: Timestamp) -> rusqlite::Result<Vec<Pending>> {
    let mut stmt = conn.prepare(
        "SELECT i.id, i.email, i.name, i.role, i.created_at, i.expires_at,
                COALESCE(NULLIF(u.name, ''), u.email)
         FROM invitations i LEFT JOIN users u ON u.id = i.invited_by
         WHERE i.used_at IS NULL AND i.voided_at IS NULL AND i.expires_at > ?1
         ORDER BY i.created_at DESC, i.id DESC",
    )?;
    stmt.query_map([sql_time(now)], |r| {
        let role = Role::parse(&r.get::<_, String>(3)?).unwrap_or(Role::Contributor);
        Ok(Pending {
            id: r.get(0)?,
            email: r.get(1)?,
            name: r.get(2)?,
            role,
            role_label: role.label(),
            created_at: r.get(4)?,
            expires_at: r.get(5)?,
            invited_by: r.get(6)?,
        })
    })?
    .collect()
}

/// The role invitation `id` would grant, while it is open.
pub fn invitation_role(conn: &Connection, id: i64) -> rusqlite::Result<Option<Role>> {
    conn.query_row(
        "SELECT role FROM invitations WHERE id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        [id],
        |r| r.get::<_, String>(0),
    )
    .optional()
    .map(|role| role.and_then(|r| Role::parse(&r)))
}

/// Reset mails one account gets in [`RESETS_WINDOW`]; more asks are answered alike and mail
/// nothing, so a stranger cannot flood a staff member's inbox.
pub const RESETS_PER_WINDOW: i64 = 3;
pub const RESETS_WINDOW: SignedDuration = SignedDuration::from_hours(1);
/// Open reset links one account keeps: a new one voids only those older, so a link the
/// person is about to use keeps working when a stranger asks for another.
pub const RESETS_KEPT: i64 = 3;

/// Whether `user` may be mailed another reset link now ([`RESETS_PER_WINDOW`]).
pub fn reset_allowed(conn: &Connection, user: i64, now: Timestamp) -> rusqlite::Result<bool> {
    let sent: i64 = conn.query_row(
        "SELECT COUNT(*) FROM password_resets WHERE user_id = ?1 AND created_at > ?2",
        params![user, sql_time(now - RESETS_WINDOW)],
        |r| r.get(0),
    )?;
    Ok(sent < RESETS_PER_WINDOW)
}

/// A reset link for `user`; of the earlier open ones, the newest [`RESETS_KEPT`] - 1 keep
/// working.
pub fn reset(tx: &Connection, keys: &Keys, user: i64, now: Timestamp) -> rusqlite::Result<String> {
    let token = super::new_token();
    tx.execute(
        "UPDATE password_resets SET voided_at = ?2 WHERE user_id = ?1 AND used_at IS NULL \
         AND voided_at IS NULL AND id NOT IN (SELECT id FROM password_resets WHERE user_id = ?1 \
         AND used_at IS NULL AND voided_at IS NULL ORDER BY id DESC LIMIT ?3)",
        params![user, sql_time(now), RESETS_KEPT - 1],
    )?;
    tx.execute(
        "INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![
            user,
            keys.hash(RESET, &token),
            sql_time(now),
            sql_time(now + RESET_LIFETIME)
        ],
    )?;
    Ok(token)
}

/// The (reset id, user) `token` is the open link of, for an active user.
pub fn open_reset(
    conn: &Connection,
    keys: &Keys,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Option<(i64, i64)>> {
    conn.query_row(
        "SELECT r.id, r.user_id FROM password_resets r JOIN users u ON u.id = r.user_id
         WHERE r.token_hash = ?1 AND r.used_at IS NULL AND r.voided_at IS NULL
           AND r.expires_at > ?2 AND u.active = 1",
        params![keys.hash(RESET, token), sql_time(now)],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

pub fn use_reset(tx: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    let at = sql_time(now);
    let used = tx.execute(
        "UPDATE password_resets SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL AND voided_at IS NULL",
        params![id, at],
    )? == 1;
    if used {
        // The password is new: the other links mailed for the old one are over.
        tx.execute(
            "UPDATE password_resets SET voided_at = ?2 WHERE user_id = \
             (SELECT user_id FROM password_resets WHERE id = ?1) AND id != ?1 \
             AND used_at IS NULL AND voided_at IS NULL",
            params![id, at],
        )?;
    }
    Ok(used)
}
