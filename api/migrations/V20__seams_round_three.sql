-- Staff and supporters safe from each other (issue 48).
-- (No comments inside a CREATE TABLE: SQLite keeps them in the schema; schema.sql has them.)

-- Wrong second-step answers per account (an e-mailed, authenticator or recovery code): a
-- challenge dies after five, but a password holder can open a fresh one at every sign-in.
CREATE TABLE second_step_failures (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    at TEXT NOT NULL
);
CREATE INDEX second_step_failures_of_user ON second_step_failures (user_id, at);

-- When a session last proved its password again, for changes to how its person signs in.
ALTER TABLE staff_sessions ADD COLUMN confirmed_at TEXT;

-- Service tokens end on a date set when they are made (at most a year). Those made before
-- get 90 days from now.
ALTER TABLE service_tokens ADD COLUMN expires_at TEXT;
UPDATE service_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+90 days');

-- Who gave the money back, for a refund staff made.
ALTER TABLE donation_refunds ADD COLUMN refunded_by INTEGER REFERENCES users (id);

-- A signup's confirmation links carry its epoch, which every unsubscribe moves on: a link
-- mailed before an unsubscribe never subscribes the address again.
ALTER TABLE newsletter_signups ADD COLUMN link_epoch INTEGER NOT NULL DEFAULT 0;
UPDATE newsletter_signups SET link_epoch = 1 WHERE unsubscribed_at IS NOT NULL;

-- An RSVP waiting for its mailbox to confirm it: it holds no seat and changes no RSVP until
-- the link mailed to the address is used, so a stranger can neither fill an event, nor
-- change someone's RSVP, nor learn from the seats left whether an address had RSVPed.
CREATE TABLE event_rsvp_requests (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    email_id INTEGER REFERENCES supporter_emails (id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    zip_code TEXT NOT NULL,
    phone TEXT,
    guests INTEGER NOT NULL DEFAULT 0 CHECK (guests BETWEEN 0 AND 4),
    network_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    UNIQUE (event_id, email_id)
);
CREATE INDEX event_rsvp_requests_expiry ON event_rsvp_requests (expires_at);
CREATE INDEX event_rsvp_requests_network ON event_rsvp_requests (event_id, network_key);

-- Staff security mail (sign-in codes, invitations, reset links, security notices) is its
-- own kind, kept out of the people timeline; and a message id is never used twice, so an
-- outcome recorded for a message sent before an erasure cannot land on a later one.
CREATE TABLE mail_queue_v20 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'staff_security', 'newsletter_confirm', 'newsletter_welcome', 'plan_notice', 'info_request', 'broadcast_test', 'event_rsvp', 'event_update', 'event_reminder')),
    about TEXT NOT NULL,
    envelope_from TEXT NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    message BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_attempt_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sent_at TEXT,
    failed_at TEXT
);
INSERT INTO mail_queue_v20 (
    id, event_key, kind, about, envelope_from, to_address, subject, message, status,
    attempts, last_error, next_attempt_at, created_at, sent_at, failed_at
)
SELECT
    id, event_key,
    CASE WHEN kind = 'staff_alert' AND (event_key LIKE 'staff-code:%'
        OR event_key LIKE 'staff-invite:%' OR event_key LIKE 'staff-reset:%'
        OR event_key LIKE 'staff-notice:%') THEN 'staff_security' ELSE kind END,
    about, envelope_from, to_address,
    CASE WHEN event_key LIKE 'staff-code:%' THEN 'Your sign-in code' ELSE subject END,
    message, status, attempts, last_error, next_attempt_at, created_at, sent_at, failed_at
FROM mail_queue;
DROP TABLE mail_queue;
ALTER TABLE mail_queue_v20 RENAME TO mail_queue;
CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);
