-- Monthly gifts (issue 25). A plan is a donor's choice to give the same amount every month
-- until they cancel. The site charges it itself, with the card the donor saved with Stripe at
-- sign-up, so its own rules (the annual limit above all) run before every charge; each charge
-- is its own gift in `donations` (`plan_id`, `plan_charge`).
--
-- status: pending (the sign-up gift is not paid yet), active, retrying (a charge was declined
-- and is tried again on days 1, 3, 5 and 7), paused (the next charge would pass the year's
-- limit: resumes at `paused_until`), inactive (declined for good, until the donor gives a new
-- card) or canceled (by the donor or staff; never charged again).
-- anchor_at: the sign-up; charge n falls due n months after it, in the party's time zone (a
-- 31st falls on the last day of shorter months). next_charge: the charge due next (the
-- sign-up gift is charge 0). next_attempt_at: when the server next tries to charge (the due
-- time, or a retry's); NULL while pending, paused, inactive or canceled. failures and
-- first_failure_at: the declines of the charge that is due. last_error: what the card
-- processor said last (a decline), or why the plan paused, for staff.
CREATE TABLE donation_plans (
    id INTEGER PRIMARY KEY,
    donor_email TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 100),
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'active', 'retrying', 'paused', 'inactive', 'canceled')),
    anchor_at TEXT NOT NULL,
    next_charge INTEGER NOT NULL DEFAULT 1,
    next_attempt_at TEXT,
    failures INTEGER NOT NULL DEFAULT 0,
    first_failure_at TEXT,
    stripe_customer TEXT,
    payment_method TEXT,
    paused_until TEXT,
    last_error TEXT,
    canceled_at TEXT,
    canceled_by TEXT CHECK (canceled_by IN ('donor', 'staff')),
    cancel_reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE INDEX donation_plans_due ON donation_plans (status, next_attempt_at);
CREATE INDEX donation_plans_by_donor ON donation_plans (donor_email);

ALTER TABLE donations ADD COLUMN plan_id INTEGER REFERENCES donation_plans (id);
-- Which of its plan's charges the gift is: 0 for the sign-up gift, n for the one due n months on.
ALTER TABLE donations ADD COLUMN plan_charge INTEGER;
-- When the donor was asked, after the gift, for the occupation and employer the law wants
-- once their year passes $200 (best efforts, 11 CFR 104.7(b)).
ALTER TABLE donations ADD COLUMN info_requested_at TEXT;

CREATE UNIQUE INDEX donations_plan_charge ON donations (plan_id, plan_charge);

-- Who acted, for rows that were not staff at an address or the server on its own: 'donor'
-- for a monthly gift canceled from its link.
ALTER TABLE audit_log ADD COLUMN actor TEXT;

-- Two more kinds of mail: the notices about a donor's monthly gift (a decline, a pause, its
-- end) and the request for occupation and employer. SQLite cannot change a CHECK, so the
-- table is rebuilt.
ALTER TABLE mail_queue RENAME TO mail_queue_v7;

CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    event_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'newsletter_confirm', 'newsletter_welcome', 'plan_notice', 'info_request')),
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

INSERT INTO mail_queue SELECT * FROM mail_queue_v7;

DROP TABLE mail_queue_v7;

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);
