//! HTTP plumbing: the server loop and its limits on connections (keyed by network: an IPv4
//! address, an IPv6 /64), the filters routes share,
//! the one error type and its mapping to statuses, the headers every answer carries, the
//! static files served from memory, and content codings.

pub(crate) mod coding;
pub mod connections;
pub mod error;
pub(crate) mod filters;
pub mod network;
pub mod proxy;
pub mod rate_limit;
pub mod redact;
pub mod security_headers;
pub mod server;
pub mod static_files;
