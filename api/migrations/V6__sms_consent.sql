-- Consent to automated texts (TCPA): a separate box the visitor ticks, recorded with what
-- it said. Rows are only ever added: a grant when a visitor ticks the box, a revocation
-- when staff record a STOP (by text, phone or mail). A number's latest row is its state.
-- Erasing a person on request is the one thing that deletes rows (see domain/erasure.rs).

-- The exact words a grant agreed to, named by their version (a hash of the words).
CREATE TABLE sms_disclosures (
    version TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    disclosure TEXT NOT NULL,
    first_recorded_at TEXT NOT NULL
);

-- phone: E.164 (+15551234567), the one spelling grants and revocations are matched on.
-- source: the form ticked ('newsletter') for grants, 'staff' for revocations.
-- ip, user_agent, disclosure_version: for grants, where the box was ticked from and which
-- words it showed. method, note: for revocations, how the person said stop ('text',
-- 'phone', 'mail', 'other') and what staff noted.
CREATE TABLE sms_consents (
    id INTEGER PRIMARY KEY,
    phone TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('granted', 'revoked')),
    at TEXT NOT NULL,
    source TEXT NOT NULL,
    ip TEXT,
    user_agent TEXT,
    disclosure_version TEXT REFERENCES sms_disclosures (version),
    method TEXT,
    note TEXT,
    CHECK (action = 'revoked' OR disclosure_version IS NOT NULL)
);

CREATE INDEX sms_consents_phone ON sms_consents (phone, id);

CREATE TRIGGER sms_consents_add_only BEFORE UPDATE ON sms_consents
BEGIN
    SELECT RAISE(ABORT, 'consent records are only ever added');
END;

CREATE TRIGGER sms_disclosures_add_only BEFORE UPDATE ON sms_disclosures
BEGIN
    SELECT RAISE(ABORT, 'disclosures are only ever added');
END;

-- Each stored phone in E.164, so a signup's consent can be found; filled in by the server
-- (store/db.rs) for rows from before this migration.
ALTER TABLE newsletter_signups ADD COLUMN phone_e164 TEXT;
ALTER TABLE volunteer_signups ADD COLUMN phone_e164 TEXT;
CREATE INDEX newsletter_signups_phone ON newsletter_signups (phone_e164);
CREATE INDEX volunteer_signups_phone ON volunteer_signups (phone_e164);

-- Each number's state for texts: its latest record.
CREATE VIEW sms_state AS
SELECT c.phone, c.action, c.at FROM sms_consents c
WHERE c.id = (SELECT max(l.id) FROM sms_consents l WHERE l.phone = c.phone);
