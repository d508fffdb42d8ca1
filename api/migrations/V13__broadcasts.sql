-- Posts mailed to the newsletter list.

-- One send of one post. Its message (subject, e-mail-safe HTML, text) is fixed when it is
-- created, so what staff previewed and confirmed is what goes out; each recipient's copy
-- adds only their own unsubscribe link. status: scheduled (waits for scheduled_for),
-- sending (recipients frozen, going out), sent (every recipient has an outcome), missed
-- (the server was down past its time by more than an hour: staff decide), cancelled (a
-- scheduled or missed one staff called off). again: a send to those an earlier send of the
-- same post did not reach.
CREATE TABLE broadcasts (
    id INTEGER PRIMARY KEY,
    post_id INTEGER REFERENCES blog_posts (id) ON DELETE SET NULL,
    subject TEXT NOT NULL,
    html TEXT NOT NULL,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'sending', 'sent', 'missed', 'cancelled')),
    again INTEGER NOT NULL DEFAULT 0 CHECK (again IN (0, 1)),
    scheduled_for TEXT,
    recipients INTEGER NOT NULL DEFAULT 0,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);

CREATE INDEX broadcasts_by_post ON broadcasts (post_id);
CREATE INDEX broadcasts_by_status ON broadcasts (status, scheduled_for);

-- The list as it was when the send started, one row per address; each row moves from
-- queued to sent, failed or excluded once, keeping the SMTP server's answer. signup_id:
-- the signup the unsubscribe link names.
CREATE TABLE broadcast_recipients (
    id INTEGER PRIMARY KEY,
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    signup_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'excluded')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    answer TEXT,
    done_at TEXT,
    UNIQUE (broadcast_id, email)
);

CREATE INDEX broadcast_recipients_due ON broadcast_recipients (next_attempt_at) WHERE status = 'queued';
CREATE INDEX broadcast_recipients_by_email ON broadcast_recipients (email);
-- The hour's count for MAIL_RATE.
CREATE INDEX broadcast_recipients_sent ON broadcast_recipients (done_at) WHERE status = 'sent';

-- Addresses no list mail goes to, and why: a permanent refusal, a complaint, an
-- unsubscribe, or staff. Lower-case.
CREATE TABLE mail_suppressions (
    email TEXT PRIMARY KEY,
    reason TEXT NOT NULL CHECK (reason IN ('bounced', 'complained', 'unsubscribed', 'staff')),
    detail TEXT,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- Addresses unsubscribed today are on the list too.
INSERT INTO mail_suppressions (email, reason, detail, created_at)
SELECT lower(email), 'unsubscribed', NULL, COALESCE(MAX(unsubscribed_at), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
FROM newsletter_signups
WHERE status = 'unsubscribed'
GROUP BY lower(email)
ON CONFLICT (email) DO NOTHING;

-- The test send of a broadcast goes through the queue like any staff mail.
ALTER TABLE mail_queue RENAME TO mail_queue_v9;

CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'newsletter_confirm', 'newsletter_welcome', 'plan_notice', 'info_request', 'broadcast_test')),
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

INSERT INTO mail_queue SELECT * FROM mail_queue_v9;

DROP TABLE mail_queue_v9;

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);
