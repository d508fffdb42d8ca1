-- One person, one record (issue 36). Two identities, because the law and the staff ask two
-- different questions:
--
-- A supporter is a person as staff know them: every submission (newsletter, contact,
-- volunteer, gift, monthly plan) links to its address in supporter_emails, and each address
-- belongs to one supporter. A submission keeps exactly what was typed; only the link is new.
-- Addresses are matched as Rust lower-cases them (trimmed), so the server fills the links,
-- for the rows already here too (domain::people::backfill, when the server starts).
--
-- A contributor is the FEC's individual: a normalised name, street and ZIP. The annual limit
-- and the Schedule A aggregate count per contributor. Each contributor's root_id is itself
-- until the treasurer combines it with another (a near match they said Yes to).
-- merged_into is set while a supporter's addresses are merged into another's
-- (supporter_merges); a supporter_emails address is trimmed and lower case (Unicode, as Rust
-- has it).
CREATE TABLE supporters (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    merged_into INTEGER REFERENCES supporters (id)
);

CREATE TABLE supporter_emails (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    supporter_id INTEGER NOT NULL REFERENCES supporters (id),
    created_at TEXT NOT NULL
);

CREATE INDEX supporter_emails_by_supporter ON supporter_emails (supporter_id);

-- A merge moves `from`'s addresses (email_ids, a JSON array) to `into`; undoing it moves
-- exactly those back. Nothing else changes, so consent (per address, per number) stays as
-- it was.
CREATE TABLE supporter_merges (
    id INTEGER PRIMARY KEY,
    into_id INTEGER NOT NULL REFERENCES supporters (id),
    from_id INTEGER NOT NULL REFERENCES supporters (id),
    email_ids TEXT NOT NULL,
    merged_at TEXT NOT NULL,
    undone_at TEXT
);

CREATE INDEX supporter_merges_by_into ON supporter_merges (into_id);
CREATE INDEX supporter_merges_by_from ON supporter_merges (from_id);

CREATE TABLE contributors (
    id INTEGER PRIMARY KEY,
    name_key TEXT NOT NULL,
    street_key TEXT NOT NULL,
    zip5 TEXT NOT NULL,
    root_id INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (name_key, street_key, zip5)
);

CREATE INDEX contributors_by_root ON contributors (root_id);
CREATE INDEX contributors_by_street ON contributors (street_key, zip5);

-- Contributors who may be one person ("Jon Smith" and "Jonathan Smith" at one address):
-- never combined by the server. The treasurer says 'same' (combined) or 'different'
-- (hidden from the list).
CREATE TABLE contributor_matches (
    a INTEGER NOT NULL REFERENCES contributors (id),
    b INTEGER NOT NULL REFERENCES contributors (id),
    why TEXT NOT NULL,
    found_at TEXT NOT NULL,
    decision TEXT CHECK (decision IN ('same', 'different')),
    decided_at TEXT,
    PRIMARY KEY (a, b),
    CHECK (a < b)
) WITHOUT ROWID;

-- Addresses a person asked to have forgotten, as keyed hashes: no list mail goes to them
-- until they sign up again and confirm.
CREATE TABLE suppressed_emails (
    email_key TEXT PRIMARY KEY,
    suppressed_at TEXT NOT NULL
) WITHOUT ROWID;

ALTER TABLE newsletter_signups ADD COLUMN email_id INTEGER REFERENCES supporter_emails (id);
ALTER TABLE contact_messages ADD COLUMN email_id INTEGER REFERENCES supporter_emails (id);
ALTER TABLE volunteer_signups ADD COLUMN email_id INTEGER REFERENCES supporter_emails (id);
ALTER TABLE donations ADD COLUMN email_id INTEGER REFERENCES supporter_emails (id);
ALTER TABLE donation_plans ADD COLUMN email_id INTEGER REFERENCES supporter_emails (id);
-- Set when the gift is paid (a stranger's unpaid set-up makes no contributor).
ALTER TABLE donations ADD COLUMN contributor_id INTEGER REFERENCES contributors (id);

CREATE INDEX newsletter_signups_by_email_id ON newsletter_signups (email_id);
CREATE INDEX contact_messages_by_email_id ON contact_messages (email_id);
CREATE INDEX volunteer_signups_by_email_id ON volunteer_signups (email_id);
CREATE INDEX donations_by_email_id ON donations (email_id);
CREATE INDEX donation_plans_by_email_id ON donation_plans (email_id);
CREATE INDEX donations_by_contributor ON donations (contributor_id, contribution_year, status);
