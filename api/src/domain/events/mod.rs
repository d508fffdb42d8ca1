//! Events (town halls, petitioning shifts, meetings) and RSVPs to them (issue 39).
//!
//! So far the seats ([`seats`]): who is going, who waits, and who moves up when a seat
//! frees. The staff screens, the public pages, the calendar files and the mail build on it.

pub mod seats;

#[cfg(test)]
mod tests;
