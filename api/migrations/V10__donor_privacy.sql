-- Donors' privacy, round two (issue 34).
--
-- A gift that takes its donor past the year's limit is no longer refused at set-up (that
-- told strangers who had given, and let them block a donor with an unpaid set-up in the
-- donor's name); the excess is refunded as soon as the payment succeeds. Such a refund is
-- the server's own: origin 'limit'. SQLite cannot change a CHECK, so the table is rebuilt
-- (nothing references it).
ALTER TABLE donation_refunds RENAME TO donation_refunds_v9;

CREATE TABLE donation_refunds (
    id INTEGER PRIMARY KEY,
    donation_id INTEGER NOT NULL REFERENCES donations (id),
    stripe_id TEXT UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('refund', 'chargeback')),
    origin TEXT NOT NULL CHECK (origin IN ('admin', 'stripe', 'limit')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    status TEXT NOT NULL CHECK (status IN ('requested', 'error', 'pending', 'requires_action', 'succeeded', 'failed', 'canceled')),
    reason TEXT NOT NULL,
    refunded_at TEXT NOT NULL,
    refund_year INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

INSERT INTO donation_refunds SELECT * FROM donation_refunds_v9;
DROP TABLE donation_refunds_v9;

CREATE INDEX donation_refunds_by_donation ON donation_refunds (donation_id, status);

-- A donor's pass (what lets a browser see their giving) is earned only through a link mailed
-- to the donor, and every receipt has a link that signs all of them out: a pass names the
-- epoch it was made in, and signing out moves the epoch on. Keyed by an HMAC of the address,
-- so the table names nobody.
CREATE TABLE donor_pass_epochs (
    email_key TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL
) WITHOUT ROWID;

-- Consent to texts: a grant now records the address of the signup it came with, so erasing
-- a person removes the records of every number they gave, not only their latest.
ALTER TABLE sms_consents ADD COLUMN email TEXT;

-- A number that said stop stays stopped: only staff (audited) can record its consent again,
-- never a signup form. When the person is erased the revocation survives as an HMAC of the
-- number, which names nobody but still refuses a stranger's ticked box for it.
CREATE TABLE sms_revocations (
    phone_key TEXT PRIMARY KEY,
    revoked_at TEXT NOT NULL
) WITHOUT ROWID;

-- Confirmation mails are counted per mailbox as the mail system reads the address
-- (`Ann.Lee+news@gmail.com` and `annlee@gmail.com` are one mailbox), not per spelling, and in
-- all (the row whose key is '*', per hour), so the form cannot flood one person or be used to
-- send mail to the world. Keyed by an HMAC of the mailbox, so the table names nobody.
CREATE TABLE confirm_mail_counts (
    mailbox_key TEXT NOT NULL,
    period TEXT NOT NULL,
    sent INTEGER NOT NULL CHECK (sent > 0),
    PRIMARY KEY (mailbox_key, period)
) WITHOUT ROWID;
