-- Money that went back to a donor, one row per Stripe refund (keyed by its id, so a refund
-- made in the admin, its own webhook event and any replay count once) or per lost dispute
-- (a chargeback, keyed by the dispute's id). A refund the admin asked for is stored as
-- `requested` before Stripe hears of it (its row id is in the refund's metadata and its
-- idempotency key), then takes Stripe's status; `error` when our call failed. Only
-- `pending`, `requires_action` and `succeeded` lower a donor's total. `refund_year` is the
-- calendar year of `refunded_at` in the party's time zone: a refund lowers its gift's year
-- only when it is made in that same year.
CREATE TABLE donation_refunds (
    id INTEGER PRIMARY KEY,
    donation_id INTEGER NOT NULL REFERENCES donations (id),
    stripe_id TEXT UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('refund', 'chargeback')),
    origin TEXT NOT NULL CHECK (origin IN ('admin', 'stripe')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    status TEXT NOT NULL CHECK (status IN ('requested', 'error', 'pending', 'requires_action', 'succeeded', 'failed', 'canceled')),
    reason TEXT NOT NULL,
    refunded_at TEXT NOT NULL,
    refund_year INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE INDEX donation_refunds_by_donation ON donation_refunds (donation_id, status);

-- Disputes (chargebacks) Stripe reported, by Stripe's id; `status` is Stripe's. Open while
-- it is not won, lost, prevented or warning_closed.
CREATE TABLE donation_disputes (
    id TEXT PRIMARY KEY,
    donation_id INTEGER NOT NULL REFERENCES donations (id),
    amount_cents INTEGER NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    closed_at TEXT,
    updated_at TEXT NOT NULL
);

CREATE INDEX donation_disputes_by_donation ON donation_disputes (donation_id);

-- What a staff action carried besides its target: a refund's amount and reason.
ALTER TABLE audit_log ADD COLUMN detail TEXT;

-- One more kind of mail, the donor's refund notice (staff hear of disputes and failed refunds
-- through the existing staff alerts). SQLite cannot change a CHECK, so the table is rebuilt.
ALTER TABLE mail_queue RENAME TO mail_queue_v5;

CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'newsletter_confirm', 'newsletter_welcome')),
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

INSERT INTO mail_queue SELECT * FROM mail_queue_v5;

DROP TABLE mail_queue_v5;

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);
