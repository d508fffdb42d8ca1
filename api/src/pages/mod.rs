//! The answers outside `/api` that the server makes itself: the blog's redirects, previews of
//! unsaved posts, the no-script forms' problem pages, the newsletter's confirm and
//! unsubscribe pages, a monthly gift's cancel page, a donor's sign-out page, the uploaded
//! images, and the admin app's shell.

pub(crate) mod admin_shell;
pub(crate) mod blog_pages;
pub(crate) mod donor_links;
pub mod form_problems;
pub(crate) mod newsletter_links;
mod notice;
pub(crate) mod plan_links;
pub mod previews;
pub(crate) mod rsvp_links;
pub(crate) mod uploads;

pub use notice::Links;
