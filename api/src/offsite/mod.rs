//! Copies kept off the machine, so that losing it loses nothing: the database, uploads and
//! keys streamed to a replica (`REPLICA_URL`; `replica`, and `restore` to bring them back),
//! and the public site in a bucket a CDN serves (`DEPLOY_URL`; `deploy`).

pub mod deploy;
pub mod remote;
pub mod replica;
pub mod restore;
