//! The party site's static generator: content files + templates + client bundles (and,
//! later, published posts) -> `dist/`. The api uses it as a library too, for the rules
//! in `forms` and to re-render pages.

pub mod assets;
pub mod blog;
mod build;
pub mod config;
pub mod content;
pub mod donations;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixture;
pub mod form_pages;
pub mod forms;
pub mod islands;
pub mod markdown;
pub mod media;
pub mod output;
pub mod pages;
pub mod pdf;
pub mod policy;
pub mod sanitize;
pub mod seo;
mod site;
pub mod slug;
pub mod templates;

pub use build::{Report, build};
pub use site::{BuildOptions, Site};
