-- The People index settled once per group commit (issue 49), not once per write.
--
-- FTS5 writes what it holds in memory to a new segment of its index at every savepoint, and
-- the writer runs each request in its own savepoint (store/db.rs): so every form submission
-- wrote a segment of a few trigrams, with the index's structure record rewritten each time,
-- and the forms ran at a quarter to a half of their rate without the index. The triggers now
-- put what the index must take in or let go into people_search_queue, an ordinary table
-- written in the same savepoint as the submission, and the writer moves the whole queue into
-- people_search once, just before the group's commit (store/settle.sql). Nothing reads the
-- queue: it is empty whenever a transaction commits, so a search sees every acknowledged
-- submission, and a submission whose write is rolled back takes its queue rows with it.
-- A write from outside the server (the sqlite3 shell) leaves its rows queued until the server
-- next opens the database or commits.
-- With one segment per group, FTS5 goes back to merging a little at each write (automerge 4,
-- its default) instead of the 16 segments at once that made a slow write every so often.
-- (No comments inside a CREATE statement: SQLite keeps them in the schema; schema.sql has them.)

CREATE TABLE people_search_queue (
    seq INTEGER PRIMARY KEY,
    command TEXT CHECK (command IS NULL OR command = 'delete'),
    doc INTEGER NOT NULL,
    name TEXT,
    email TEXT,
    phone TEXT
);

INSERT INTO people_search (people_search, rank) VALUES ('automerge', 4);

DROP TRIGGER people_list_indexed;
DROP TRIGGER people_list_reindexed;
DROP TRIGGER people_list_unindexed;
DROP TRIGGER people_list_email_added;
DROP TRIGGER people_list_email_changed;
DROP TRIGGER people_list_email_deleted;

CREATE TRIGGER people_list_indexed AFTER INSERT ON people_list
WHEN new.name IS NOT NULL OR new.phone IS NOT NULL
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    VALUES (NULL, 2 * new.id + 1, new.name, NULL, new.phone);
END;

CREATE TRIGGER people_list_reindexed AFTER UPDATE OF name, phone ON people_list
WHEN old.name IS NOT new.name OR old.phone IS NOT new.phone
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    SELECT 'delete', 2 * old.id + 1, old.name, NULL, old.phone
    WHERE old.name IS NOT NULL OR old.phone IS NOT NULL;
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    SELECT NULL, 2 * new.id + 1, new.name, NULL, new.phone
    WHERE new.name IS NOT NULL OR new.phone IS NOT NULL;
END;

CREATE TRIGGER people_list_unindexed AFTER DELETE ON people_list
WHEN old.name IS NOT NULL OR old.phone IS NOT NULL
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    VALUES ('delete', 2 * old.id + 1, old.name, NULL, old.phone);
END;

CREATE TRIGGER people_list_email_added AFTER INSERT ON supporter_emails
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    VALUES (NULL, 2 * new.id, NULL, new.email, NULL);
    INSERT INTO people_list (id, emails, last_seen)
    SELECT s.id, new.email, s.created_at FROM supporters s
    WHERE s.id = new.supporter_id AND s.merged_into IS NULL
    ON CONFLICT (id) DO UPDATE SET emails = (SELECT group_concat(o.email, ' ') FROM
        (SELECT e.email FROM supporter_emails e WHERE e.supporter_id = excluded.id ORDER BY e.id) o);
END;

CREATE TRIGGER people_list_email_changed AFTER UPDATE OF email, supporter_id ON supporter_emails
WHEN old.email IS NOT new.email OR old.supporter_id IS NOT new.supporter_id
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    SELECT 'delete', 2 * old.id, NULL, old.email, NULL WHERE old.email IS NOT new.email;
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    SELECT NULL, 2 * new.id, NULL, new.email, NULL WHERE old.email IS NOT new.email;
    INSERT INTO people_list_stale (id) VALUES (old.supporter_id);
    INSERT INTO people_list_stale (id) SELECT new.supporter_id
    WHERE new.supporter_id IS NOT old.supporter_id;
END;

CREATE TRIGGER people_list_email_deleted AFTER DELETE ON supporter_emails
BEGIN
    INSERT INTO people_search_queue (command, doc, name, email, phone)
    VALUES ('delete', 2 * old.id, NULL, old.email, NULL);
    INSERT INTO people_list_stale (id) VALUES (old.supporter_id);
END;
