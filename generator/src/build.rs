//! A full build, in stages: load content -> bundles and media -> render templates ->
//! render islands -> write. The same [`Site`] also serves the api's blog rebuilds, which
//! render only blog pages (no islands, so no Node).

use anyhow::Result;

use crate::assets;
use crate::blog::{self, Blog};
use crate::content::Content;
use crate::islands::Renderer;
use crate::output::Output;
use crate::pages;
use crate::site::{BuildOptions, Site};

/// What a build produced.
#[derive(Debug)]
pub struct Report {
    pub pages: usize,
    pub islands: usize,
    pub posts: usize,
}

/// Builds the whole site into `opts.out_dir`: every page, and the blog from the posts
/// published in `opts.data_dir`'s database.
pub fn build(opts: &BuildOptions, renderer: &dyn Renderer) -> Result<Report> {
    Output::new(&opts.out_dir).clean()?;
    let site = Site::open(opts)?;
    // The site's own output: the cache files it uses are noted in one place.
    let output = site.output.clone();
    assets::copy_client_files(&opts.client_dir, &output)?;
    site.media.favicons()?;

    let pages = pages::all(&site.inputs())?;
    let rendered = pages
        .iter()
        .map(|page| site.render(page))
        .collect::<Result<Vec<_>>>()?;
    let requests = site.islands.requests();
    // The blog needs no islands: it is written while Node renders them, on the cores Node
    // leaves idle.
    let posts = std::thread::scope(|scope| {
        let blog = scope.spawn(|| -> Result<usize> {
            let posts = Blog::load(&opts.database())?;
            blog::write_all(&site, &posts)?;
            Ok(posts.posts.len())
        });
        let pages_written = (|| -> Result<()> {
            let island_html = renderer.render(&requests)?;
            for (page, html) in pages.iter().zip(rendered) {
                output.write(&page.output, site.finish(&html, &island_html)?.as_bytes())?;
            }
            output.write("robots.txt", robots(&site.content).as_bytes())?;
            crate::policy::write_all(&site.content, &output)
        })();
        let posts = blog.join().expect("the blog build panicked");
        pages_written?;
        posts
    })?;
    // After Take Action is written: the events fill in its "next events" section.
    crate::events::write_all(
        &site,
        &crate::events::Events::load(&opts.database())?,
        jiff::Timestamp::now(),
    )?;
    // Only after a whole build: what it did not use, no build needs.
    crate::output::prune_cache(&opts.cache_dir, &output.cache_used());

    Ok(Report {
        pages: pages.len(),
        islands: requests.len(),
        posts,
    })
}

fn robots(content: &Content) -> String {
    format!(
        "User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: {}\n",
        content.site.absolute_url("/sitemap.xml")
    )
}
