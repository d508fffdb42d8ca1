-- The public site's files waiting to be copied to the deploy bucket (DEPLOY_URL), in the
-- order the server made them live: a post's page before the lists that link to it. A row
-- goes when its file is in the bucket (or gone from it, when the file is gone from dist/);
-- a failure stays here, retried on its schedule and shown to staff.
CREATE TABLE deploy_queue (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
);
