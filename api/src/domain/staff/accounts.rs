//! The `users` table: who may sign in, with which role.

use rusqlite::{Connection, OptionalExtension, params};

use super::Role;

/// A staff member as sign-in and the Users screen need them.
#[derive(Debug, Clone)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub active: bool,
    pub password_hash: String,
}

const COLUMNS: &str = "id, email, name, role, active, password_hash";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    let role: String = r.get(3)?;
    Ok(User {
        id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        // The table's CHECK keeps only known roles.
        role: Role::parse(&role).unwrap_or(Role::Contributor),
        active: r.get(4)?,
        password_hash: r.get(5)?,
    })
}

pub fn by_email(conn: &Connection, email: &str) -> rusqlite::Result<Option<User>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM users WHERE email = ?1"),
        [super::normalise_email(email)],
        row,
    )
    .optional()
}

pub fn by_id(conn: &Connection, id: i64) -> rusqlite::Result<Option<User>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM users WHERE id = ?1"),
        [id],
        row,
    )
    .optional()
}

/// Whether `user` has an authenticator app or a passkey.
pub fn has_strong_factor(conn: &Connection, user: i64) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1 AND totp_secret IS NOT NULL)
             OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?1)",
        [user],
        |r| r.get(0),
    )
}

/// How many strong factors `user` has (an app counts one, each passkey one).
pub fn strong_factors(conn: &Connection, user: i64) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT (SELECT COUNT(*) FROM users WHERE id = ?1 AND totp_secret IS NOT NULL)
              + (SELECT COUNT(*) FROM passkeys WHERE user_id = ?1)",
        [user],
        |r| r.get(0),
    )
}

/// Adds a user; `Ok(None)` when the address has an account already.
pub fn create(
    tx: &Connection,
    email: &str,
    name: &str,
    role: Role,
    password_hash: &str,
    now: &str,
) -> rusqlite::Result<Option<i64>> {
    let added = tx.execute(
        "INSERT INTO users (email, name, role, password_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (email) DO NOTHING",
        params![
            super::normalise_email(email),
            name.trim(),
            role.as_str(),
            password_hash,
            now
        ],
    )?;
    Ok((added == 1).then(|| tx.last_insert_rowid()))
}

/// On a database with no users yet (the first start after accounts came), the configured
/// admin becomes the Owner, and every post written before is theirs. Returns the new id.
pub fn seed_owner(
    tx: &Connection,
    email: &str,
    password_hash: &str,
    now: &str,
) -> rusqlite::Result<Option<i64>> {
    let any: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM users)", [], |r| r.get(0))?;
    if any {
        return Ok(None);
    }
    let id = create(tx, email, "", Role::Owner, password_hash, now)?;
    if let Some(id) = id {
        tx.execute(
            "UPDATE blog_posts SET author_id = ?1 WHERE author_id IS NULL",
            [id],
        )?;
    }
    Ok(id)
}

/// Active Owners other than `except`.
pub fn other_active_owners(conn: &Connection, except: i64) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM users WHERE role = 'owner' AND active = 1 AND id != ?1",
        [except],
        |r| r.get(0),
    )
}

pub fn set_role(tx: &Connection, id: i64, role: Role) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET role = ?2 WHERE id = ?1",
        params![id, role.as_str()],
    )
    .map(|_| ())
}

pub fn set_active(tx: &Connection, id: i64, active: bool) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET active = ?2 WHERE id = ?1",
        params![id, active],
    )
    .map(|_| ())
}

pub fn set_password(tx: &Connection, id: i64, password_hash: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET password_hash = ?2 WHERE id = ?1",
        params![id, password_hash],
    )
    .map(|_| ())
}

pub fn signed_in(tx: &Connection, id: i64, now: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET last_sign_in_at = ?2 WHERE id = ?1",
        params![id, now],
    )
    .map(|_| ())
}

/// Whether `user` has ever finished a sign-in (the Owner made from the settings has not,
/// until their first).
pub fn ever_signed_in(conn: &Connection, user: i64) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT last_sign_in_at IS NOT NULL FROM users WHERE id = ?1",
        [user],
        |r| r.get(0),
    )
}

/// One row of the Users screen.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub role_label: &'static str,
    pub active: bool,
    pub strong_factor: bool,
    pub created_at: String,
    pub last_sign_in_at: Option<String>,
}

pub fn list(conn: &Connection) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT u.id, u.email, u.name, u.role, u.active,
                u.totp_secret IS NOT NULL OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id),
                u.created_at, u.last_sign_in_at
         FROM users u ORDER BY u.active DESC, u.name COLLATE NOCASE, u.email",
    )?;
    stmt.query_map([], |r| {
        let role = Role::parse(&r.get::<_, String>(3)?).unwrap_or(Role::Contributor);
        Ok(Listed {
            id: r.get(0)?,
            email: r.get(1)?,
            name: r.get(2)?,
            role,
            role_label: role.label(),
            active: r.get(4)?,
            strong_factor: r.get(5)?,
            created_at: r.get(6)?,
            last_sign_in_at: r.get(7)?,
        })
    })?
    .collect()
}

/// Takes away every second factor of `user` (an Owner's reset, or the command line's).
pub fn reset_factors(tx: &Connection, user: i64) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE users SET totp_secret = NULL, totp_pending = NULL WHERE id = ?1",
        [user],
    )?;
    tx.execute("DELETE FROM passkeys WHERE user_id = ?1", [user])?;
    tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user])?;
    super::devices::forget_all(tx, user)
}
