//! What staff see of visitors' submissions and donations: lists, deletes, sorting and the
//! CSV exports, each compared with the database.
//!
//! This file holds the rows every kind of list is tested with; the tests are by topic:
//! `lists` (lists, deletes and the donations' sorting), `exports` (the CSV downloads),
//! `erasure` (deleting and erasing leaves no trace; what the audit log says) and
//! `people_search` (the People list found through its index, a page at a time).

mod erasure;
mod exports;
mod lists;
mod people_search;

use crate::common::TestApp;

/// Arranges a few rows of every kind, some with values a spreadsheet would run.
async fn seed(app: &TestApp) {
    app.exec(
        "INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES
           ('Ruth Alvarez', 'ruth@example.org', 'Town hall', 'Tuesdays work.', '2025-01-05T14:03:00.000Z'),
           ('=HYPERLINK(\"http://evil.example\",\"click\")', 'x@example.org', '+1 call me', 'Line one
line \"two\", with a comma', '2025-03-01T09:00:00.000Z');
         INSERT INTO volunteer_signups (name, email, phone, zip_code, interests, created_at) VALUES
           ('Sam Lee', 'sam@example.org', '+1 555-201-3344', '98101', '@doors', '2025-02-10T18:30:00.000Z'),
           ('Zoë Ng', 'zoe@example.org', NULL, '10001', NULL, '2025-02-11T18:30:00.000Z');
         INSERT INTO newsletter_signups (email, phone, zip_code, created_at, updated_at) VALUES
           ('a@example.org', NULL, '20001', '2025-01-01T05:00:00.000Z', '2025-01-01T05:00:00.000Z'),
           ('-1@example.org', '555', '20002', '2025-06-01T12:00:00.000Z', '2025-06-02T12:00:00.000Z');
         INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, donor_email, donor_address,
             donor_city, donor_state, donor_zip_code, donor_occupation, donor_employer, contribution_purpose,
             citizenship_confirmed, contribution_year, status, payment_intent_id, created_at, updated_at) VALUES
           (2500, 'Bea Cruz', 'Bea', 'Cruz', 'bea@example.org', '1 Main St', 'Austin', 'TX', '73301', NULL, NULL, NULL, 1, 2025, 'completed', 'pi_1', '2025-04-01T15:00:00.000Z', '2025-04-01T15:01:00.000Z'),
           (100000, 'al Diaz', 'al', 'Diaz', 'al@example.org', '2 Oak Ave', 'Reno', 'NV', '89501', 'Teacher', 'Reno Schools', 'general_party_use', 1, 2025, 'pending', 'pi_2', '2025-03-01T15:00:00.000Z', '2025-03-01T15:00:00.000Z'),
           (12345, 'Cy Park', 'Cy', 'Park', 'cy@example.org', '=cmd|'' /C calc''!A0', 'Boise', 'ID', '83701', 'Nurse', '@Clinic', 'legal_proceedings', 0, 2025, 'failed', NULL, '2025-05-01T15:00:00.000Z', '2025-05-01T15:00:00.000Z');",
    )
    .await;
}
