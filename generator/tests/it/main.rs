//! Every integration test of the crate, in one binary (one link instead of one per file).

mod common;

mod blog;
mod build_site;
