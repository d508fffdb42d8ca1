//! The rules, with no HTTP in them: staff sign-in, the audit log, donations and the card
//! processor, monthly gifts, donors' passes, erasure, consent to texts, exports, outgoing mail, blog rebuilds and scheduled posts,
//! uploads, and the one clock.

pub mod audit;
pub mod auth;
pub mod clock;
pub mod directory;
pub mod donations;
pub mod erasure;
pub mod events;
pub mod export;
pub mod mail;
pub mod people;
pub mod published;
pub mod rebuild;
pub mod schedule;
pub mod sms_consent;
pub mod staff;
pub mod uploads;
