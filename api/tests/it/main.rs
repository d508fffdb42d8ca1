//! Every integration test of the crate, in one binary (one link instead of one per file).

mod common;

mod admin_auth;
mod admin_blog_editor;
mod admin_blogs;
mod admin_lists;
mod admin_shell;
mod admin_uploads;
mod blog_revisions;
mod blog_schedule;
mod blog_site;
mod contact_and_volunteer;
mod donations;
mod events;
mod html_forms;
mod mail;
mod newsletter;
mod openapi;
mod origin;
mod real_server;
mod security;
mod sms_consent;
pub mod staff;
mod static_files;
