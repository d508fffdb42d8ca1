-- The whole current database schema, for reading. It is produced by api/migrations
-- (applied in order by refinery when the api starts); a test in api/src/db.rs fails
-- when this file and the migrations disagree.

CREATE TABLE newsletter_signups (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL COLLATE NOCASE,
    phone TEXT,
    zip_code TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- Double opt-in: pending until the link mailed to the address is used.
    status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
    confirmed_at TEXT,
    unsubscribed_at TEXT,
    -- The version of the consent text the address confirmed (content/mail.yaml).
    consent_version TEXT,
    -- Confirmation mails sent on one day (the party's date), at most three.
    confirm_mails_day TEXT,
    confirm_mails_sent INTEGER NOT NULL DEFAULT 0,
    -- The phone in E.164 form, what consent to texts is matched on.
    phone_e164 TEXT,
    -- The address's row in supporter_emails (its person): one signup per address (V16).
    email_id INTEGER UNIQUE REFERENCES supporter_emails (id),
    -- A confirmation mail is owed since then (the sender queues it; V15).
    confirm_owed_since TEXT,
    -- Moved on by every unsubscribe; a confirmation link carries the epoch it was made in
    -- (V20), so one mailed before an unsubscribe never subscribes the address again.
    link_epoch INTEGER NOT NULL DEFAULT 0,
    -- The network an owed confirmation was asked from (a keyed hash of its IPv4 /24 or
    -- IPv6 /64), which has a share of each hour's confirmations, and when it was first
    -- asked for (the backlog's day counts from then; V22).
    confirm_network TEXT,
    confirm_asked_at TEXT
);

CREATE INDEX newsletter_signups_owed ON newsletter_signups (confirm_owed_since)
WHERE confirm_owed_since IS NOT NULL;

CREATE TABLE contact_messages (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    email_id INTEGER REFERENCES supporter_emails (id)
);

CREATE TABLE volunteer_signups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT,
    zip_code TEXT NOT NULL,
    interests TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    phone_e164 TEXT,
    email_id INTEGER REFERENCES supporter_emails (id)
);

CREATE INDEX newsletter_signups_phone ON newsletter_signups (phone_e164);
CREATE INDEX volunteer_signups_phone ON volunteer_signups (phone_e164);

-- Consent to automated texts (TCPA), only ever added to: a grant when a visitor ticks the
-- separate box, with where it came from and the version of the words beside it; a
-- revocation when staff record a STOP. A number's latest record is its state (sms_state).
CREATE TABLE sms_disclosures (
    version TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    disclosure TEXT NOT NULL,
    first_recorded_at TEXT NOT NULL
);

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
    -- The signup's address, for a grant from a form: erasing that person removes it.
    email TEXT,
    CHECK (action = 'revoked' OR disclosure_version IS NOT NULL)
);

-- A number's stop, kept as a keyed hash of the number when its records were erased with
-- their person: no signup form can agree for it again (only staff, sms_consents).
CREATE TABLE sms_revocations (
    phone_key TEXT PRIMARY KEY,
    revoked_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX sms_consents_phone ON sms_consents (phone, id);

CREATE TRIGGER sms_consents_add_only BEFORE UPDATE ON sms_consents
BEGIN
    SELECT RAISE(ABORT, 'consent records are only ever added');
END;

CREATE TRIGGER sms_disclosures_add_only BEFORE UPDATE ON sms_disclosures
BEGIN
    SELECT RAISE(ABORT, 'disclosures are only ever added');
END;

CREATE VIEW sms_state AS
SELECT c.phone, c.action, c.at FROM sms_consents c
WHERE c.id = (SELECT max(l.id) FROM sms_consents l WHERE l.phone = c.phone);

-- Donations. The donation flow fills this table; staff only read and export it (no delete).
CREATE TABLE donations (
    id INTEGER PRIMARY KEY,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    currency TEXT NOT NULL DEFAULT 'usd',
    donor_name TEXT NOT NULL,
    donor_first_name TEXT NOT NULL DEFAULT '',
    donor_last_name TEXT NOT NULL DEFAULT '',
    donor_email TEXT NOT NULL,
    donor_address TEXT NOT NULL,
    donor_city TEXT NOT NULL,
    donor_state TEXT NOT NULL,
    donor_zip_code TEXT NOT NULL,
    donor_occupation TEXT,
    donor_employer TEXT,
    contribution_purpose TEXT,
    citizenship_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (citizenship_confirmed IN (0, 1)),
    attestations_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (attestations_confirmed IN (0, 1)),
    contribution_year INTEGER NOT NULL DEFAULT (CAST(strftime('%Y', 'now') AS INTEGER)),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'canceled', 'expired')),
    payment_intent_id TEXT UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- When a gift never paid lost its donor's details (erasure on request, or 30 days on).
    redacted_at TEXT,
    -- Sequential within the year the gift was received (2026-000123); set on completion.
    receipt_number TEXT,
    -- A monthly gift's charge: its plan, and which charge (0: the sign-up gift).
    plan_id INTEGER REFERENCES donation_plans (id),
    plan_charge INTEGER,
    -- When the donor was asked after the gift for occupation and employer (best efforts).
    info_requested_at TEXT,
    email_id INTEGER REFERENCES supporter_emails (id),
    -- Who gave it, as the FEC counts people; set when it is paid.
    contributor_id INTEGER REFERENCES contributors (id)
);

CREATE UNIQUE INDEX donations_receipt_number ON donations (receipt_number);

-- The last receipt number given in each year.
CREATE TABLE receipt_counters (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
);

-- A donor's gifts in a year, for the annual limit and the itemisation threshold. E-mails
-- are stored in lower case, so the index serves an exact match.
CREATE INDEX donations_by_donor ON donations (donor_email, contribution_year, status);

-- Pending gifts by age, for the sweep that expires abandoned ones.
CREATE INDEX donations_pending ON donations (status, created_at);

-- Monthly gifts (see api/migrations/V9__monthly_gifts.sql for what each column holds). The
-- site charges them itself with the card saved at sign-up; each charge is a donations row.
CREATE TABLE donation_plans (
    id INTEGER PRIMARY KEY,
    donor_email TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 100),
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'active', 'retrying', 'paused', 'inactive', 'canceled')),
    anchor_at TEXT NOT NULL,
    next_charge INTEGER NOT NULL DEFAULT 1,
    next_attempt_at TEXT,
    failures INTEGER NOT NULL DEFAULT 0,
    first_failure_at TEXT,
    stripe_customer TEXT,
    payment_method TEXT,
    paused_until TEXT,
    last_error TEXT,
    canceled_at TEXT,
    canceled_by TEXT CHECK (canceled_by IN ('donor', 'staff')),
    cancel_reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    email_id INTEGER REFERENCES supporter_emails (id)
);

CREATE INDEX donation_plans_due ON donation_plans (status, next_attempt_at);
CREATE INDEX donation_plans_by_donor ON donation_plans (donor_email);
CREATE UNIQUE INDEX donations_plan_charge ON donations (plan_id, plan_charge);

-- Stripe webhook events already applied, so a replayed event changes nothing.
CREATE TABLE stripe_events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Money that went back to a donor: one row per Stripe refund (keyed by its id, so the admin's
-- refund, its own event and any replay count once) or per lost dispute (a chargeback, keyed by
-- the dispute's id). An admin refund is `requested` before Stripe hears of it, then takes
-- Stripe's status (`error` when our call failed). Only pending, requires_action and succeeded
-- lower a donor's total, and only in the gift's own year: `refund_year` is the calendar year
-- of `refunded_at` in the party's time zone. Origin: 'admin' (staff), 'stripe' (its
-- dashboard, a lost dispute) or 'limit' (the server's own, of what a paid gift gave past the
-- year's limit).
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
    updated_at TEXT NOT NULL,
    -- The staff member who made it, for a refund made from the admin (V20).
    refunded_by INTEGER REFERENCES users (id)
);

CREATE INDEX donation_refunds_by_donation ON donation_refunds (donation_id, status);

-- Disputes (chargebacks) Stripe reported; `status` is Stripe's. Open until won, lost,
-- prevented or warning_closed.
CREATE TABLE donation_disputes (
    id TEXT PRIMARY KEY,
    donation_id INTEGER NOT NULL REFERENCES donations (id),
    amount_cents INTEGER NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    closed_at TEXT,
    updated_at TEXT NOT NULL
);

CREATE INDEX donation_disputes_by_donation ON donation_disputes (donation_id);

-- Blog posts; content is sanitised HTML. version counts every change (a save from an older
-- version is refused); it is the last column because a migration added it.
CREATE TABLE blog_posts (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    excerpt TEXT,
    content TEXT NOT NULL DEFAULT '',
    featured_image TEXT,
    featured_image_alt TEXT,
    keywords TEXT,
    author_name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'scheduled')),
    publish_date TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version INTEGER NOT NULL DEFAULT 1,
    -- Whose post it is, for the roles that may touch only their own.
    author_id INTEGER REFERENCES users (id),
    -- 'post' (the blog) or 'newsletter' (mailed to the list, never on the website).
    kind TEXT NOT NULL DEFAULT 'post' CHECK (kind IN ('post', 'newsletter'))
);

CREATE INDEX blog_posts_by_status ON blog_posts (status, publish_date);

-- A post's earlier versions (the newest 50). reason: 'saved' (title, excerpt, content,
-- featured image or its alt text changed), 'published', 'unpublished' or 'restored'.
CREATE TABLE blog_revisions (
    id INTEGER PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('saved', 'published', 'unpublished', 'restored')),
    title TEXT NOT NULL,
    excerpt TEXT,
    content TEXT NOT NULL,
    featured_image TEXT,
    featured_image_alt TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX blog_revisions_by_post ON blog_revisions (post_id, id);

-- Earlier slugs of published posts: their URLs answer a permanent redirect to the post.
CREATE TABLE blog_slug_redirects (
    slug TEXT PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE
);

-- What staff did, when and from where. Append-only: the triggers refuse any change.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    action TEXT NOT NULL,
    target TEXT,
    ip TEXT,
    -- What the action carried besides its target: a refund's amount and reason.
    detail TEXT,
    -- 'donor' for what a donor did from a link mailed to them (canceling a monthly gift),
    -- 'service-token:N' for automation.
    actor TEXT,
    -- The staff member whose request it was.
    user_id INTEGER REFERENCES users (id)
);

CREATE INDEX audit_log_by_user ON audit_log (user_id, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Failed staff sign-ins, counted per address and minute (not one audit row per guess).
CREATE TABLE failed_logins (
    ip TEXT NOT NULL,
    minute TEXT NOT NULL,
    attempts INTEGER NOT NULL CHECK (attempts > 0),
    PRIMARY KEY (ip, minute)
) WITHOUT ROWID;

-- Every message the site sends, queued in the write of the event that causes it (see
-- api/src/domain/mail); `message` is the whole message, Message-ID included.
CREATE TABLE mail_queue (
    -- Never used twice (V20): an outcome recorded for a message sent before an erasure
    -- cannot land on a later one.
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_key TEXT NOT NULL UNIQUE,
    -- staff_security: sign-in codes, invitations, reset links and security notices to
    -- staff, kept out of the people timeline (V20).
    kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_notice', 'staff_alert', 'staff_security', 'newsletter_confirm', 'newsletter_welcome', 'plan_notice', 'info_request', 'broadcast_test', 'event_rsvp', 'event_update', 'event_reminder')),
    -- The person the message is about (lower case), so erasing them removes it.
    about TEXT NOT NULL,
    envelope_from TEXT NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    message BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_attempt_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sent_at TEXT,
    failed_at TEXT
);

CREATE INDEX mail_queue_due ON mail_queue (status, next_attempt_at);
CREATE INDEX mail_queue_about ON mail_queue (about);

-- A donor's pass epoch, by a keyed hash of their address: every pass and history link names
-- the epoch it was made in, and "sign out everywhere" (a receipt's link) moves it on.
CREATE TABLE donor_pass_epochs (
    email_key TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL
) WITHOUT ROWID;

-- Newsletter confirmation mails sent, per mailbox (a keyed hash of the address as the mail
-- system reads it) and day, and in all ('*') per hour.
CREATE TABLE confirm_mail_counts (
    mailbox_key TEXT NOT NULL,
    period TEXT NOT NULL,
    sent INTEGER NOT NULL CHECK (sent > 0),
    PRIMARY KEY (mailbox_key, period)
) WITHOUT ROWID;

-- People (api/migrations/V11__people.sql says why there are two identities).
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

CREATE INDEX contact_messages_by_email_id ON contact_messages (email_id);
CREATE INDEX volunteer_signups_by_email_id ON volunteer_signups (email_id);
CREATE INDEX donations_by_email_id ON donations (email_id);
CREATE INDEX donation_plans_by_email_id ON donation_plans (email_id);
CREATE INDEX donations_by_contributor ON donations (contributor_id, contribution_year, status);

-- Staff accounts (api/migrations/V12__staff.sql; domain/staff).
-- A staff member. `role` is one of the named roles (domain/staff/roles.rs). A deactivated
-- user keeps their row (their posts keep their byline, the audit log its actor).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('owner', 'administrator', 'treasurer', 'organizer', 'editor', 'author', 'contributor')),
    password_hash TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_sign_in_at TEXT,
    totp_secret BLOB,
    totp_pending BLOB,
    totp_last_step INTEGER NOT NULL DEFAULT 0
);

-- A signed-in browser: the session token's id (`jti`) is checked here on every request,
-- so ending a row signs that browser out at once.
CREATE TABLE staff_sessions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    jti TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    ip TEXT,
    browser TEXT NOT NULL DEFAULT '',
    ended_at TEXT,
    -- When the session last proved its password again, for changes to how its person
    -- signs in (V20).
    confirmed_at TEXT
);
CREATE INDEX staff_sessions_of_user ON staff_sessions (user_id, ended_at);

-- Browsers that finished a sign-in: their cookie's hash, for 30 days.
CREATE TABLE staff_devices (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- A sign-in whose password was right, waiting for its second step.
CREATE TABLE sign_in_challenges (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    code_hash TEXT,
    tries INTEGER NOT NULL DEFAULT 0,
    done_at TEXT,
    ip TEXT,
    browser TEXT NOT NULL DEFAULT ''
);

CREATE TABLE recovery_codes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    code_hash TEXT NOT NULL UNIQUE,
    used_at TEXT
);

CREATE TABLE passkeys (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    credential_id TEXT NOT NULL UNIQUE,
    passkey TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
);

-- Invitations and password resets: links mailed once, each usable once.
CREATE TABLE invitations (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    voided_at TEXT
);

CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    voided_at TEXT
);

-- Automation's keys: a scope, never a person's login.
CREATE TABLE service_tokens (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    scope TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT,
    -- Set when made, at most a year on (V20); a token also ends with its maker's account.
    expires_at TEXT
);

-- One send of one post. Its message (subject, e-mail-safe HTML, text) is fixed when it is
-- created, so what staff previewed and confirmed is what goes out; each recipient's copy
-- adds only their own unsubscribe link. status: scheduled (waits for scheduled_for),
-- sending (recipients frozen, going out), sent (every recipient has an outcome), missed
-- (the server was down past its time by more than an hour: staff decide), cancelled (a
-- scheduled or missed one staff called off). again: a send to those an earlier send of the
-- same post did not reach.
CREATE TABLE broadcasts (
    id INTEGER PRIMARY KEY,
    post_id INTEGER REFERENCES blog_posts (id) ON DELETE SET NULL,
    subject TEXT NOT NULL,
    html TEXT NOT NULL,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'sending', 'sent', 'missed', 'cancelled')),
    again INTEGER NOT NULL DEFAULT 0 CHECK (again IN (0, 1)),
    scheduled_for TEXT,
    recipients INTEGER NOT NULL DEFAULT 0,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);

CREATE INDEX broadcasts_by_post ON broadcasts (post_id);
CREATE INDEX broadcasts_by_status ON broadcasts (status, scheduled_for);

-- The list as it was when the send started, one row per address; each row moves from
-- queued to sent, failed or excluded once, keeping the SMTP server's answer. signup_id:
-- the signup the unsubscribe link names.
CREATE TABLE broadcast_recipients (
    id INTEGER PRIMARY KEY,
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    signup_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'excluded')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    answer TEXT,
    done_at TEXT,
    UNIQUE (broadcast_id, email)
);

CREATE INDEX broadcast_recipients_due ON broadcast_recipients (next_attempt_at) WHERE status = 'queued';
CREATE INDEX broadcast_recipients_by_email ON broadcast_recipients (email);
-- The hour's count for MAIL_RATE.
CREATE INDEX broadcast_recipients_sent ON broadcast_recipients (done_at) WHERE status = 'sent';

-- Addresses no list mail goes to, and why: a permanent refusal, a complaint, an
-- unsubscribe, or staff. Lower-case.
CREATE TABLE mail_suppressions (
    email TEXT PRIMARY KEY,
    reason TEXT NOT NULL CHECK (reason IN ('bounced', 'complained', 'unsubscribed', 'staff')),
    detail TEXT,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- Events (town halls, petitioning shifts, meetings) and their RSVPs (V17). Seats are
-- counted, never stored: an event's taken seats are the going RSVPs' parties (1 + guests),
-- summed inside the one writer, so two RSVPs for the last seat cannot both get it.
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    -- Sanitised HTML, from the blog's editor.
    description TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL CHECK (kind IN ('town_hall', 'petitioning_shift', 'meeting', 'other')),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'cancelled')),
    -- Instants (UTC); `time_zone` (IANA) is how they are shown and put in calendars.
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    venue TEXT,
    online INTEGER NOT NULL DEFAULT 0 CHECK (online IN (0, 1)),
    -- Private: only in attendees' mail and pages, never in public files.
    video_link TEXT,
    -- Seats, counting guests; none is unlimited.
    capacity INTEGER CHECK (capacity IS NULL OR capacity > 0),
    rsvp_deadline TEXT,
    waitlist INTEGER NOT NULL DEFAULT 1 CHECK (waitlist IN (0, 1)),
    -- iCalendar SEQUENCE: one more for each change of time or place.
    sequence INTEGER NOT NULL DEFAULT 0,
    cancel_message TEXT,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK (ends_at > starts_at)
);

CREATE INDEX events_upcoming ON events (status, starts_at);

CREATE TABLE event_rsvps (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- The address's row (its person); one RSVP per address per event.
    email_id INTEGER REFERENCES supporter_emails (id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    zip_code TEXT NOT NULL,
    phone TEXT,
    phone_e164 TEXT,
    guests INTEGER NOT NULL DEFAULT 0 CHECK (guests BETWEEN 0 AND 4),
    status TEXT NOT NULL CHECK (status IN ('going', 'waitlisted', 'cancelled')),
    -- Marked by staff after the start: 1 attended, 0 no-show.
    attended INTEGER CHECK (attended IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- Place in the waitlist (arrival order).
    waitlisted_at TEXT,
    reminded_at TEXT,
    UNIQUE (event_id, email_id)
);

CREATE INDEX event_rsvps_waitlist ON event_rsvps (event_id, waitlisted_at, id)
WHERE status = 'waitlisted';

CREATE INDEX event_rsvps_going ON event_rsvps (event_id) WHERE status = 'going';

-- The public site's files waiting to be copied to the deploy bucket (DEPLOY_URL), in the
-- order the server made them live; a failure stays, retried and shown to staff.
CREATE TABLE deploy_queue (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
);

-- Wrong second-step answers per account (e-mailed, authenticator or recovery codes, V20):
-- more than ten in fifteen minutes and only known browsers and passkeys sign it in.
CREATE TABLE second_step_failures (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    at TEXT NOT NULL
);

CREATE INDEX second_step_failures_of_user ON second_step_failures (user_id, at);

-- An RSVP waiting for its mailbox to confirm it (V20): it holds no seat and changes no
-- RSVP until the link mailed to the address is used. `network_key` is a keyed hash of the
-- network it came from (an IPv4 address or an IPv6 /64), to bound what one network asks.
CREATE TABLE event_rsvp_requests (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    email_id INTEGER REFERENCES supporter_emails (id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    zip_code TEXT NOT NULL,
    phone TEXT,
    guests INTEGER NOT NULL DEFAULT 0 CHECK (guests BETWEEN 0 AND 4),
    network_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    UNIQUE (event_id, email_id)
);

CREATE INDEX event_rsvp_requests_expiry ON event_rsvp_requests (expires_at);

CREATE INDEX event_rsvp_requests_network ON event_rsvp_requests (event_id, network_key);

-- The People list (V21; domain/directory/listing.rs): one row per listed supporter (not
-- merged into another, with an address) and a trigram index of names, addresses and phones,
-- both kept current by the triggers below in the write that changes what a row shows.
-- `name_key` and `phone_key` say when the name and phone shown were given (time, kind,
-- row), so an earlier submission never replaces a later one's. people_search stores no
-- copy of the text: an address is its row 2 × id, a supporter's name and phone 2 × id + 1.
-- A deleted row's trigrams are only marked deleted; an erasure merges the index whole
-- ('optimize') in its write, so an erased person's leave the file at once.
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

-- FTS5 makes these itself for people_search (its index, the index's index, its settings:
-- automerge 4).
CREATE TABLE 'people_search_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'people_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE 'people_search_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- What the triggers below hand the index, in order (V23): FTS5 would write a segment at every
-- savepoint, so the writer moves the queue into people_search once per group commit, just
-- before it commits (api/src/store/settle.sql). Empty whenever a transaction has committed.
CREATE TABLE people_search_queue (
    seq INTEGER PRIMARY KEY,
    command TEXT CHECK (command IS NULL OR command = 'delete'),
    doc INTEGER NOT NULL,
    name TEXT,
    email TEXT,
    phone TEXT
);

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

-- Addresses: a new one is indexed and starts (or joins) its supporter's row; one moved by
-- a merge or gone (erasure) has both supporters' rows computed again.
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
