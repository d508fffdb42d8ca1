//! The blog, built from fixture databases: list pages and their pager, post pages with
//! their metadata, the feed and the sitemap; and the api's incremental path, which must
//! write exactly what a full build writes, atomically.

use std::fs;

use crate::common::{EchoRenderer, database, project, publish_posts};
use generator::BuildOptions;

mod pages;
mod rebuilds;

/// A fixture project whose database holds `n` published posts, built.
pub(super) fn built_with(n: usize) -> (tempfile::TempDir, BuildOptions) {
    let (tmp, opts) = project();
    fs::create_dir_all(&opts.data_dir).unwrap();
    let conn = database(&opts.database());
    publish_posts(&conn, n);
    let report = generator::build(&opts, &EchoRenderer).unwrap();
    assert_eq!(report.posts, n);
    (tmp, opts)
}

pub(super) fn exists(opts: &BuildOptions, rel: &str) -> bool {
    opts.out_dir.join(rel).exists()
}
