-- Events (town halls, petitioning shifts, meetings) and their RSVPs (issue 39). Seats are
-- counted, never stored: an event's taken seats are the going RSVPs' parties (1 + guests),
-- summed inside the one writer, so two RSVPs for the last seat cannot both get it.
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL CHECK (kind IN ('town_hall', 'petitioning_shift', 'meeting', 'other')),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'cancelled')),
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    venue TEXT,
    online INTEGER NOT NULL DEFAULT 0 CHECK (online IN (0, 1)),
    video_link TEXT,
    capacity INTEGER CHECK (capacity IS NULL OR capacity > 0),
    rsvp_deadline TEXT,
    waitlist INTEGER NOT NULL DEFAULT 1 CHECK (waitlist IN (0, 1)),
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
    email_id INTEGER REFERENCES supporter_emails (id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    zip_code TEXT NOT NULL,
    phone TEXT,
    phone_e164 TEXT,
    guests INTEGER NOT NULL DEFAULT 0 CHECK (guests BETWEEN 0 AND 4),
    status TEXT NOT NULL CHECK (status IN ('going', 'waitlisted', 'cancelled')),
    attended INTEGER CHECK (attended IN (0, 1)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    waitlisted_at TEXT,
    reminded_at TEXT,
    UNIQUE (event_id, email_id)
);

CREATE INDEX event_rsvps_waitlist ON event_rsvps (event_id, waitlisted_at, id)
WHERE status = 'waitlisted';
