-- A confirmation mail owed to a signup, and since when. The signup's own write only sets
-- this; the mail sender turns what is owed into queued mail in its own writes, within the
-- hour's cap in all and the day's per mailbox (api/src/domain/mail/newsletter.rs): a surge
-- of signups writes no mail, and none is dropped for coming in a busy hour.
ALTER TABLE newsletter_signups ADD COLUMN confirm_owed_since TEXT;
CREATE INDEX newsletter_signups_owed ON newsletter_signups (confirm_owed_since)
    WHERE confirm_owed_since IS NOT NULL;
