-- Staff accounts (issue 37): each person signs in as themselves, with a role, and a second
-- factor. Secrets are never stored as they are: passwords as argon2 PHC strings, link and
-- device tokens and codes as keyed SHA-256 hashes, the authenticator app's secret sealed
-- with a key derived from the server's secret.

-- A staff member. `role` is one of the named roles (domain/staff/roles.rs). A deactivated
-- user keeps their row (their posts keep their byline, the audit log its actor).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('owner', 'administrator', 'treasurer', 'organizer', 'editor', 'author', 'contributor')),
    password_hash TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_sign_in_at TEXT,
    totp_secret BLOB,
    totp_pending BLOB,
    totp_last_step INTEGER NOT NULL DEFAULT 0
);

-- A signed-in browser: the session token's id (`jti`) is checked here on every request,
-- so ending a row signs that browser out at once.
CREATE TABLE staff_sessions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    jti TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    ip TEXT,
    browser TEXT NOT NULL DEFAULT '',
    ended_at TEXT
);
CREATE INDEX staff_sessions_of_user ON staff_sessions (user_id, ended_at);

-- Browsers that finished a sign-in: their cookie's hash, for 30 days.
CREATE TABLE staff_devices (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- A sign-in whose password was right, waiting for its second step.
CREATE TABLE sign_in_challenges (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    code_hash TEXT,
    tries INTEGER NOT NULL DEFAULT 0,
    done_at TEXT,
    ip TEXT,
    browser TEXT NOT NULL DEFAULT ''
);

CREATE TABLE recovery_codes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    code_hash TEXT NOT NULL UNIQUE,
    used_at TEXT
);

CREATE TABLE passkeys (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    credential_id TEXT NOT NULL UNIQUE,
    passkey TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
);

-- Invitations and password resets: links mailed once, each usable once.
CREATE TABLE invitations (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    voided_at TEXT
);

CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    voided_at TEXT
);

-- Automation's keys: a scope, never a person's login.
CREATE TABLE service_tokens (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    scope TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
);

-- Who did it: the user, or the service token, behind a staff request's audit row.
ALTER TABLE audit_log ADD COLUMN user_id INTEGER REFERENCES users (id);
CREATE INDEX audit_log_by_user ON audit_log (user_id, id);

-- Whose post it is, for the roles that may touch only their own.
ALTER TABLE blog_posts ADD COLUMN author_id INTEGER REFERENCES users (id);

-- Sessions are rows of staff_sessions now; sign-out ends the row.
DROP TABLE revoked_tokens;
