//! Events (town halls, petitioning shifts, meetings) and RSVPs to them (issue 39); see
//! docs/events.md.
//!
//! - [`requests`]: an RSVP waiting for its mailbox to confirm it, which holds nothing;
//! - [`seats`]: who is going, who waits, and who moves up when a seat frees;
//! - [`admin`]: staff's reads and writes of events, and the checks on what they send;
//! - [`mail`]: every message an RSVP brings, with its calendar invitation;
//! - [`reminders`]: the reminder the day before, exactly once;
//! - [`pages`]: the public pages, kept in step with the database.

pub mod admin;
pub mod mail;
pub mod pages;
pub mod reminders;
pub mod requests;
pub mod seats;

#[cfg(test)]
mod tests;
