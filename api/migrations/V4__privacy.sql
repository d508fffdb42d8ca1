-- Failed staff sign-ins, counted per address and minute: a flood of guesses adds a row a
-- minute, and these rows (unlike the audit log's) can be pruned.
CREATE TABLE failed_logins (
    ip TEXT NOT NULL,
    minute TEXT NOT NULL,
    attempts INTEGER NOT NULL CHECK (attempts > 0),
    PRIMARY KEY (ip, minute)
) WITHOUT ROWID;

-- When a gift that was never paid had its donor's details removed (on request, or 30 days
-- after it ended). Completed gifts are never redacted: federal law keeps them.
ALTER TABLE donations ADD COLUMN redacted_at TEXT;
