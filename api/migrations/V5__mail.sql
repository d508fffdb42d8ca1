-- Every message the site sends, written in the same transaction as the event that causes
-- it and delivered by one sender task (see api/src/domain/mail). `event_key` names that
-- event, so an event queues its message at most once; `message` is the whole RFC 5322
-- message with its Message-ID, so a retry after a crash sends the very same message.
-- `about` is the person the message is about (lower case), so erasing them removes it.
CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'staff_alert', 'newsletter_confirm', 'newsletter_welcome')),
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

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);

-- A receipt number per completed gift, sequential within the year it was received
-- (2026-000123).
ALTER TABLE donations ADD COLUMN receipt_number TEXT;
CREATE UNIQUE INDEX donations_receipt_number ON donations (receipt_number);
CREATE TABLE receipt_counters (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
);

-- Double opt-in. Signups from before it asked for no confirmation, so they start pending
-- like every new one: "confirmed" is kept for addresses that proved they asked.
ALTER TABLE newsletter_signups ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed'));
ALTER TABLE newsletter_signups ADD COLUMN confirmed_at TEXT;
ALTER TABLE newsletter_signups ADD COLUMN unsubscribed_at TEXT;
-- The version of the consent text the address confirmed (content/mail.yaml).
ALTER TABLE newsletter_signups ADD COLUMN consent_version TEXT;
-- Confirmation mails sent on one day (the party's date), at most three.
ALTER TABLE newsletter_signups ADD COLUMN confirm_mails_day TEXT;
ALTER TABLE newsletter_signups ADD COLUMN confirm_mails_sent INTEGER NOT NULL DEFAULT 0;
