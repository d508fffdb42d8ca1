-- A newsletter signup is keyed by its address's row (email_id, which grows as addresses
-- arrive) instead of a second unique index on the typed text. A new signup then only
-- appends to its indexes, where a text key landed on a random page of the index in every
-- write (the forms' single writer spent its time writing those pages to the WAL). It also
-- matches addresses as people are matched (Rust's lower case): SQLite's NOCASE left
-- `ÄNN@…` and `änn@…` two signups of one address.
--
-- Where one address already has two signups (only possible outside ASCII), the one kept is
-- an unsubscribe first (a person's opt-out stands), then a confirmed one, then the oldest.
-- (No comments inside the CREATE TABLE: SQLite keeps them in the schema; schema.sql has them.)
CREATE TABLE newsletter_signups_v16 (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL COLLATE NOCASE,
    phone TEXT,
    zip_code TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
    confirmed_at TEXT,
    unsubscribed_at TEXT,
    consent_version TEXT,
    confirm_mails_day TEXT,
    confirm_mails_sent INTEGER NOT NULL DEFAULT 0,
    phone_e164 TEXT,
    email_id INTEGER UNIQUE REFERENCES supporter_emails (id),
    confirm_owed_since TEXT
);

INSERT INTO newsletter_signups_v16 (
    id, email, phone, zip_code, created_at, updated_at, status, confirmed_at,
    unsubscribed_at, consent_version, confirm_mails_day, confirm_mails_sent, phone_e164,
    email_id, confirm_owed_since
)
SELECT
    s.id, s.email, s.phone, s.zip_code, s.created_at, s.updated_at, s.status,
    s.confirmed_at, s.unsubscribed_at, s.consent_version, s.confirm_mails_day,
    s.confirm_mails_sent, s.phone_e164, s.email_id, s.confirm_owed_since
FROM newsletter_signups AS s
WHERE s.email_id IS NULL OR s.id = (
    SELECT d.id FROM newsletter_signups AS d WHERE d.email_id = s.email_id
    ORDER BY CASE d.status WHEN 'unsubscribed' THEN 0 WHEN 'confirmed' THEN 1 ELSE 2 END, d.id
    LIMIT 1
);

DROP TABLE newsletter_signups;
ALTER TABLE newsletter_signups_v16 RENAME TO newsletter_signups;

CREATE INDEX newsletter_signups_owed ON newsletter_signups (confirm_owed_since)
WHERE confirm_owed_since IS NOT NULL;
CREATE INDEX newsletter_signups_phone ON newsletter_signups (phone_e164);
