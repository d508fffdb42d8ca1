-- Events' mail goes through the queue like every other message: the RSVP's confirmation
-- (and "you're in" when a seat opens), a change of time or place or a cancellation, and
-- the reminder the day before.
ALTER TABLE mail_queue RENAME TO mail_queue_v17;

CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'newsletter_confirm', 'newsletter_welcome', 'plan_notice', 'info_request', 'broadcast_test', 'event_rsvp', 'event_update', 'event_reminder')),
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

INSERT INTO mail_queue SELECT * FROM mail_queue_v17;

DROP TABLE mail_queue_v17;

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);

-- The reminder the day before is sent once per RSVP and start time: `reminded_at` says it
-- went, and a new start time clears it (re-arming the reminder).
CREATE INDEX event_rsvps_going ON event_rsvps (event_id) WHERE status = 'going';
