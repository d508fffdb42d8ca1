-- The People list found fast at 100,000 (issue 49). The list used to build every supporter
-- in memory on each request. Now each listed supporter (not merged into another, with an
-- address) has a row in people_list, and people_search indexes names, addresses and phones
-- by trigrams: any part of three characters or more is found through the index,
-- case-insensitively (the trigram tokenizer folds case outside ASCII too).
--
-- Both are kept current by triggers, in the very write that changes what the list shows:
-- every form, the Stripe webhook, merges, the start's back-fill and erasure change these
-- rows, and a writer that forgot to would leave the list wrong.
-- - A new submission (the forms' hot path) updates its supporter's row in place: flags,
--   last seen, and its name or phone when it is the latest (`name_key`, `phone_key`: when
--   the value was given, so that an earlier one never replaces a later one).
-- - Anything else (a confirmation or an unsubscribe, a gift paid, a merge, a row relinked or
--   deleted) inserts the supporter's id into people_list_stale, a view that stores nothing:
--   its INSTEAD OF trigger computes their row again from their submissions
--   (people_activity).
-- A migration that rebuilds one of these tables (as V16 did) drops its triggers with it
-- and must make them again.
--
-- people_search keeps its own copy of nothing (content = ''): an address is indexed once, as
-- row 2 × its id, and a supporter's name and phone as row 2 × their id + 1, so a new
-- supporter's address never has to be taken out of the index again when their name arrives
-- in the same write. Not FTS5's secure-delete mode: it moves the index to file format 5, which
-- Debian's sqlite3 (3.40), that tests and operators read the database with, refuses; so a
-- deleted row (an erased person) is marked deleted and its trigrams leave the index pages at
-- a later merge. It merges its segments
-- only when 16 wait on one level (automerge 0): the forms' writes then add one small
-- segment each, and a search reads at most a few dozen.
-- (No comments inside a CREATE statement: SQLite keeps them in the schema; schema.sql has them.)
-- Addresses are joined by an ordered subquery, not group_concat(... ORDER BY ...): Debian's
-- sqlite3 (3.40), which the tests and an operator read this file with, cannot parse that.

CREATE TABLE people_list (
    id INTEGER PRIMARY KEY,
    name TEXT,
    name_key TEXT,
    emails TEXT NOT NULL,
    phone TEXT,
    phone_key TEXT,
    subscribed INTEGER NOT NULL DEFAULT 0,
    volunteered INTEGER NOT NULL DEFAULT 0,
    wrote INTEGER NOT NULL DEFAULT 0,
    gave INTEGER NOT NULL DEFAULT 0,
    last_seen TEXT NOT NULL
);

-- The list's order (latest seen first, then the newest supporter): a page is a walk of it.
CREATE INDEX people_list_by_last_seen ON people_list (last_seen, id);

CREATE VIRTUAL TABLE people_search USING fts5 (
    name, email, phone, content = '', tokenize = 'trigram', columnsize = 0
);

INSERT INTO people_search (people_search, rank) VALUES ('automerge', 0);

-- Every submission that tells the list something, by its address's supporter: what it says
-- (as domain/directory/listing.rs's Row), and `key`, its time then the order the list has
-- always taken submissions made at the same moment in (a gift's name over a volunteer
-- signup's over a message's; a volunteer signup's phone over a newsletter's), then its row.
-- Read it for one supporter (`supporter_id = ` a value): each arm is then a lookup by the
-- address indexes. (`+d.status`: that supporter's gifts by address, not every paid gift.)
CREATE VIEW people_activity AS
SELECT e.supporter_id, iif(n.status = 'confirmed', 'subscribed', 'newsletter') AS kind,
    n.created_at AS at,
    printf('%s %d %020d', n.created_at, iif(n.status = 'confirmed', 0, 1), n.id) AS key,
    NULL AS name, n.phone_e164 AS phone
FROM supporter_emails e JOIN newsletter_signups n ON n.email_id = e.id
UNION ALL
SELECT e.supporter_id, 'wrote', c.created_at, printf('%s 2 %020d', c.created_at, c.id), c.name, NULL
FROM supporter_emails e JOIN contact_messages c ON c.email_id = e.id
UNION ALL
SELECT e.supporter_id, 'volunteered', v.created_at, printf('%s 3 %020d', v.created_at, v.id),
    v.name, v.phone_e164
FROM supporter_emails e JOIN volunteer_signups v ON v.email_id = e.id
UNION ALL
SELECT e.supporter_id, 'gave', d.created_at, printf('%s 4 %020d', d.created_at, d.id),
    d.donor_name, NULL
FROM supporter_emails e JOIN donations d ON d.email_id = e.id
WHERE +d.status = 'completed';

-- Insert a supporter's id here to compute their row again: made, changed, or gone when they
-- are merged into another or left with no address. Last seen is their latest submission, or
-- when they were first known.
CREATE VIEW people_list_stale AS SELECT NULL AS id;

CREATE TRIGGER people_list_refresh INSTEAD OF INSERT ON people_list_stale
BEGIN
    DELETE FROM people_list WHERE id = new.id
    AND NOT EXISTS (SELECT 1 FROM supporters s WHERE s.id = new.id AND s.merged_into IS NULL
        AND EXISTS (SELECT 1 FROM supporter_emails e WHERE e.supporter_id = s.id));
    INSERT INTO people_list (id, name, name_key, emails, phone, phone_key, subscribed,
        volunteered, wrote, gave, last_seen)
    SELECT s.id,
        (SELECT a.name FROM people_activity a WHERE a.supporter_id = new.id
         AND a.name IS NOT NULL ORDER BY a.key DESC LIMIT 1),
        f.name_key,
        (SELECT group_concat(o.email, ' ') FROM (SELECT e.email FROM supporter_emails e
         WHERE e.supporter_id = new.id ORDER BY e.id) o),
        (SELECT a.phone FROM people_activity a WHERE a.supporter_id = new.id
         AND a.phone IS NOT NULL ORDER BY a.key DESC LIMIT 1),
        f.phone_key, coalesce(f.subscribed, 0), coalesce(f.volunteered, 0),
        coalesce(f.wrote, 0), coalesce(f.gave, 0),
        max(s.created_at, coalesce(f.last, s.created_at))
    FROM supporters s,
        (SELECT max(iif(a.name IS NULL, NULL, a.key)) AS name_key,
            max(iif(a.phone IS NULL, NULL, a.key)) AS phone_key,
            max(a.kind = 'subscribed') AS subscribed, max(a.kind = 'volunteered') AS volunteered,
            max(a.kind = 'wrote') AS wrote, max(a.kind = 'gave') AS gave, max(a.at) AS last
         FROM people_activity a WHERE a.supporter_id = new.id) f
    WHERE s.id = new.id AND s.merged_into IS NULL
    AND EXISTS (SELECT 1 FROM supporter_emails e WHERE e.supporter_id = s.id)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
        emails = excluded.emails, phone = excluded.phone, phone_key = excluded.phone_key,
        subscribed = excluded.subscribed, volunteered = excluded.volunteered,
        wrote = excluded.wrote, gave = excluded.gave, last_seen = excluded.last_seen;
END;

-- A supporter's name and phone in the index follow their row.
CREATE TRIGGER people_list_indexed AFTER INSERT ON people_list
WHEN new.name IS NOT NULL OR new.phone IS NOT NULL
BEGIN
    INSERT INTO people_search (rowid, name, email, phone)
    VALUES (2 * new.id + 1, new.name, NULL, new.phone);
END;

CREATE TRIGGER people_list_reindexed AFTER UPDATE OF name, phone ON people_list
WHEN old.name IS NOT new.name OR old.phone IS NOT new.phone
BEGIN
    INSERT INTO people_search (people_search, rowid, name, email, phone)
    SELECT 'delete', 2 * old.id + 1, old.name, NULL, old.phone
    WHERE old.name IS NOT NULL OR old.phone IS NOT NULL;
    INSERT INTO people_search (rowid, name, email, phone)
    SELECT 2 * new.id + 1, new.name, NULL, new.phone
    WHERE new.name IS NOT NULL OR new.phone IS NOT NULL;
END;

CREATE TRIGGER people_list_unindexed AFTER DELETE ON people_list
WHEN old.name IS NOT NULL OR old.phone IS NOT NULL
BEGIN
    INSERT INTO people_search (people_search, rowid, name, email, phone)
    VALUES ('delete', 2 * old.id + 1, old.name, NULL, old.phone);
END;

-- Addresses: a new one is indexed and starts (or joins) its supporter's row; one moved by
-- a merge or gone (erasure) has both supporters' rows computed again.
CREATE TRIGGER people_list_email_added AFTER INSERT ON supporter_emails
BEGIN
    INSERT INTO people_search (rowid, name, email, phone) VALUES (2 * new.id, NULL, new.email, NULL);
    INSERT INTO people_list (id, emails, last_seen)
    SELECT s.id, new.email, s.created_at FROM supporters s
    WHERE s.id = new.supporter_id AND s.merged_into IS NULL
    ON CONFLICT (id) DO UPDATE SET emails = (SELECT group_concat(o.email, ' ') FROM
        (SELECT e.email FROM supporter_emails e WHERE e.supporter_id = excluded.id ORDER BY e.id) o);
END;

CREATE TRIGGER people_list_email_changed AFTER UPDATE OF email, supporter_id ON supporter_emails
WHEN old.email IS NOT new.email OR old.supporter_id IS NOT new.supporter_id
BEGIN
    INSERT INTO people_search (people_search, rowid, name, email, phone)
    SELECT 'delete', 2 * old.id, NULL, old.email, NULL WHERE old.email IS NOT new.email;
    INSERT INTO people_search (rowid, name, email, phone)
    SELECT 2 * new.id, NULL, new.email, NULL WHERE old.email IS NOT new.email;
    INSERT INTO people_list_stale (id) VALUES (old.supporter_id);
    INSERT INTO people_list_stale (id) SELECT new.supporter_id
    WHERE new.supporter_id IS NOT old.supporter_id;
END;

CREATE TRIGGER people_list_email_deleted AFTER DELETE ON supporter_emails
BEGIN
    INSERT INTO people_search (people_search, rowid, name, email, phone)
    VALUES ('delete', 2 * old.id, NULL, old.email, NULL);
    INSERT INTO people_list_stale (id) VALUES (old.supporter_id);
END;

-- Supporters merged into another, standing alone again, or deleted (erasure).
CREATE TRIGGER people_list_supporter_changed AFTER UPDATE OF merged_into, created_at ON supporters
WHEN old.merged_into IS NOT new.merged_into OR old.created_at IS NOT new.created_at
BEGIN
    INSERT INTO people_list_stale (id) VALUES (new.id);
END;

CREATE TRIGGER people_list_supporter_deleted AFTER DELETE ON supporters
BEGIN
    INSERT INTO people_list_stale (id) VALUES (old.id);
END;

-- A new submission, in place (its `key` as people_activity makes it).
CREATE TRIGGER people_list_newsletter_added AFTER INSERT ON newsletter_signups
WHEN new.email_id IS NOT NULL
BEGIN
    UPDATE people_list SET
        subscribed = max(subscribed, new.status = 'confirmed'),
        phone = iif(new.phone_e164 IS NOT NULL AND printf('%s %d %020d', new.created_at,
            iif(new.status = 'confirmed', 0, 1), new.id) > coalesce(phone_key, ''),
            new.phone_e164, phone),
        phone_key = iif(new.phone_e164 IS NULL, phone_key, max(coalesce(phone_key, ''),
            printf('%s %d %020d', new.created_at, iif(new.status = 'confirmed', 0, 1), new.id))),
        last_seen = max(last_seen, new.created_at)
    WHERE id = (SELECT supporter_id FROM supporter_emails WHERE id = new.email_id);
END;

CREATE TRIGGER people_list_contact_added AFTER INSERT ON contact_messages
WHEN new.email_id IS NOT NULL
BEGIN
    UPDATE people_list SET
        wrote = 1,
        name = iif(printf('%s 2 %020d', new.created_at, new.id) > coalesce(name_key, ''),
            new.name, name),
        name_key = max(coalesce(name_key, ''), printf('%s 2 %020d', new.created_at, new.id)),
        last_seen = max(last_seen, new.created_at)
    WHERE id = (SELECT supporter_id FROM supporter_emails WHERE id = new.email_id);
END;

CREATE TRIGGER people_list_volunteer_added AFTER INSERT ON volunteer_signups
WHEN new.email_id IS NOT NULL
BEGIN
    UPDATE people_list SET
        volunteered = 1,
        name = iif(printf('%s 3 %020d', new.created_at, new.id) > coalesce(name_key, ''),
            new.name, name),
        name_key = max(coalesce(name_key, ''), printf('%s 3 %020d', new.created_at, new.id)),
        phone = iif(new.phone_e164 IS NOT NULL
            AND printf('%s 3 %020d', new.created_at, new.id) > coalesce(phone_key, ''),
            new.phone_e164, phone),
        phone_key = iif(new.phone_e164 IS NULL, phone_key,
            max(coalesce(phone_key, ''), printf('%s 3 %020d', new.created_at, new.id))),
        last_seen = max(last_seen, new.created_at)
    WHERE id = (SELECT supporter_id FROM supporter_emails WHERE id = new.email_id);
END;

-- Gifts count once paid (status 'completed'); a pending one tells the list nothing yet.
CREATE TRIGGER people_list_gift_added AFTER INSERT ON donations
WHEN new.email_id IS NOT NULL AND new.status = 'completed'
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = new.email_id;
END;

-- Anything else that changes what the list shows: the supporter's row is computed again.
CREATE TRIGGER people_list_newsletter_changed
AFTER UPDATE OF email_id, status, phone_e164, created_at ON newsletter_signups
WHEN old.email_id IS NOT new.email_id OR old.status IS NOT new.status
OR old.phone_e164 IS NOT new.phone_e164 OR old.created_at IS NOT new.created_at
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails
    WHERE id = new.email_id AND new.email_id IS NOT old.email_id;
END;

CREATE TRIGGER people_list_newsletter_deleted AFTER DELETE ON newsletter_signups
WHEN old.email_id IS NOT NULL
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
END;

CREATE TRIGGER people_list_contact_changed AFTER UPDATE OF email_id, name, created_at ON contact_messages
WHEN old.email_id IS NOT new.email_id OR old.name IS NOT new.name OR old.created_at IS NOT new.created_at
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails
    WHERE id = new.email_id AND new.email_id IS NOT old.email_id;
END;

CREATE TRIGGER people_list_contact_deleted AFTER DELETE ON contact_messages
WHEN old.email_id IS NOT NULL
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
END;

CREATE TRIGGER people_list_volunteer_changed
AFTER UPDATE OF email_id, name, phone_e164, created_at ON volunteer_signups
WHEN old.email_id IS NOT new.email_id OR old.name IS NOT new.name
OR old.phone_e164 IS NOT new.phone_e164 OR old.created_at IS NOT new.created_at
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails
    WHERE id = new.email_id AND new.email_id IS NOT old.email_id;
END;

CREATE TRIGGER people_list_volunteer_deleted AFTER DELETE ON volunteer_signups
WHEN old.email_id IS NOT NULL
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
END;

CREATE TRIGGER people_list_gift_changed
AFTER UPDATE OF email_id, status, donor_name, created_at ON donations
WHEN (old.status = 'completed' OR new.status = 'completed')
AND (old.email_id IS NOT new.email_id OR old.status IS NOT new.status
    OR old.donor_name IS NOT new.donor_name OR old.created_at IS NOT new.created_at)
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails
    WHERE id = new.email_id AND new.email_id IS NOT old.email_id;
END;

CREATE TRIGGER people_list_gift_deleted AFTER DELETE ON donations
WHEN old.email_id IS NOT NULL AND old.status = 'completed'
BEGIN
    INSERT INTO people_list_stale (id) SELECT supporter_id FROM supporter_emails WHERE id = old.email_id;
END;

-- What is already here: every address indexed, then every supporter's row computed as any
-- later change computes it (people_list_indexed indexes their names and phones).
INSERT INTO people_search (rowid, name, email, phone)
SELECT 2 * id, NULL, email, NULL FROM supporter_emails;
INSERT INTO people_list_stale (id) SELECT id FROM supporters;
