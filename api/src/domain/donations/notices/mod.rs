//! The money's letters, each composed here and queued through the outbox (`domain::mail`) in
//! the write that decided it: the donor's [`receipt`] and [`refund`] notice, staff's
//! [`alerts`] about disputes and failed refunds, the [`monthly`] gift's notices and the
//! best-efforts [`info_request`] after a gift.

pub mod alerts;
pub mod info_request;
pub mod monthly;
pub mod receipt;
pub mod refund;
