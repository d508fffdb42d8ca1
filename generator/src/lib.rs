//! The party site's static generator: content files + templates + client bundles +
//! published posts -> `dist/`. The api uses it as a library too, for the rules in `forms`
//! and `donations`, the blog's data, and to re-render pages when a post changes.
//!
//! Data flows one way, and the modules follow it:
//! - reading: [`config`] (paths and options), [`content`] (the YAML and Markdown under
//!   `content/`, checked with errors that name the file and field), [`blog::store`] (every
//!   query on `blog_posts`: the one `Post` type and the one "published" rule);
//! - turning into HTML: [`markdown`], [`sanitize`] (ammonia, on save and on render),
//!   [`templates`] (Tera), [`seo`], [`slug`], [`media`] (responsive image variants),
//!   [`assets`] and [`islands`] (the client bundles a page needs), [`pdf`] and [`policy`];
//! - the pages: [`pages`] (content pages), [`form_pages`] and [`notices`] (the shells of the
//!   pages the api answers itself), [`donations`] (the donate page and
//!   the contribution rules the api checks too), [`blog`] (list pages, post pages, feed,
//!   sitemap, and the incremental `changes` the api applies after a publish);
//! - writing: [`output`] (atomic writes, `.br`/`.gz` siblings), driven
//!   by `build` (a whole site) or by the blog's `changes` on an opened [`Site`] (content,
//!   templates and image pipelines loaded once, which the api keeps between rebuilds).

pub mod assets;
pub mod blog;
mod build;
pub mod config;
pub mod content;
pub mod donations;
pub mod events;
// Always compiled (a few functions): behind a feature, the tests' builds would resolve the
// generator, and the api above it, apart from every other build (see api/crates/workspace-hack).
#[doc(hidden)]
pub mod fixture;
pub mod form_pages;
pub mod forms;
pub mod islands;
pub mod markdown;
pub mod media;
pub mod notices;
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
