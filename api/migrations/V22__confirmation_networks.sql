-- Newsletter confirmations bounded per network (issue 49): each owed confirmation keeps
-- the network it was asked from (a keyed hash of its IPv4 /24 or IPv6 /64) and when it was
-- first asked for (`confirm_owed_since` moves to the next hour when its network has had
-- its hour's share; the backlog's day is counted from `confirm_asked_at`).
ALTER TABLE newsletter_signups ADD COLUMN confirm_network TEXT;
ALTER TABLE newsletter_signups ADD COLUMN confirm_asked_at TEXT;
UPDATE newsletter_signups SET confirm_asked_at = confirm_owed_since
WHERE confirm_owed_since IS NOT NULL;
