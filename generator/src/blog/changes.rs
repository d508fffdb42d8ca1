//! Every blog file, and which of them a change of the posts touches: a full build writes
//! them all ([`write_all`]), the api brings an output folder in line at start ([`sync`]) and
//! then writes only what differs after each change ([`changes`]). All three render and
//! write with the same functions, so they give the same bytes.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use anyhow::Result;

use super::list::{List, list_page, not_found_page};
use super::post::post_page;
use super::{
    Blog, FEED_FILE, FEED_SIZE, NOT_FOUND_FILE, PAGES_CSS_FILE, Post, SITEMAP_FILE,
    SITEMAP_PAGES_FILE, archive_route, feed, pages_css, post_route, sitemap, sitemap_chunk_file,
};
use crate::output::{Output, html_path_for};
use crate::pages::{Page, PageInputs};
use crate::site::Site;

/// Renders a page with no islands, as written.
fn rendered(site: &Site, page: &Page) -> Result<Vec<u8>> {
    Ok(site.finish(&site.render(page)?, &[])?.into_bytes())
}

/// One blog file to render.
enum Job<'a> {
    NotFound,
    Post(&'a Post),
    List(List),
    Feed,
    /// `sitemap.xml`, the index.
    SitemapIndex,
    /// `sitemap-pages.xml`: only a full build or sync writes it (posts do not change it).
    SitemapPages,
    /// The posts' sitemap `k`.
    SitemapChunk(usize),
    /// `blog/pages.css`, which numbers the list pages.
    PagesCss,
}

/// Every blog file: the not-found page, the posts, the list pages, the feed and the sitemap.
fn jobs(blog: &Blog) -> Vec<Job<'_>> {
    std::iter::once(Job::NotFound)
        .chain(blog.posts.iter().map(|post| Job::Post(post)))
        .chain(lists(blog).map(Job::List))
        .chain([
            Job::PagesCss,
            Job::Feed,
            Job::SitemapIndex,
            Job::SitemapPages,
        ])
        .chain((1..=blog.sitemap_chunks()).map(Job::SitemapChunk))
        .collect()
}

/// The list pages: `/blog` and every archive page.
fn lists(blog: &Blog) -> impl Iterator<Item = List> {
    std::iter::once(List::Front).chain((1..=blog.archive_pages()).map(List::Archive))
}

/// A file's path in the output folder and its bytes.
fn render_job(
    site: &Site,
    inputs: &PageInputs,
    blog: &Blog,
    job: &Job,
) -> Result<(String, Vec<u8>)> {
    let page = match job {
        Job::NotFound => {
            return Ok((
                NOT_FOUND_FILE.to_owned(),
                rendered(site, &not_found_page(inputs))?,
            ));
        }
        Job::Feed => return Ok((FEED_FILE.into(), feed::render(site, blog)?.into_bytes())),
        Job::PagesCss => {
            return Ok((
                PAGES_CSS_FILE.into(),
                pages_css(blog.list_pages()).into_bytes(),
            ));
        }
        Job::SitemapIndex => {
            return Ok((
                SITEMAP_FILE.into(),
                sitemap::render_index(site, blog)?.into_bytes(),
            ));
        }
        Job::SitemapPages => {
            return Ok((
                SITEMAP_PAGES_FILE.into(),
                sitemap::render_pages(site)?.into_bytes(),
            ));
        }
        Job::SitemapChunk(k) => {
            return Ok((
                sitemap_chunk_file(*k),
                sitemap::render_chunk(site, blog, *k)?.into_bytes(),
            ));
        }
        Job::Post(post) => post_page(inputs, post),
        Job::List(list) => list_page(inputs, blog, *list),
    };
    Ok((page.output.clone(), rendered(site, &page)?))
}

/// `f` over `items` on every core, results in order. Thousands of posts render and write in
/// parallel; each worker takes the next item when it is done with one, so a worker that
/// drew the heavy posts does not keep the others waiting. A failure stops the whole (the
/// first error is returned).
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> Result<R> + Sync) -> Result<Vec<R>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || -> Result<Vec<(usize, R)>> {
        let mut done = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            match f(item) {
                Ok(r) => done.push((i, r)),
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(done)
    };
    let per_worker = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a blog render worker panicked"))
            .collect::<Result<Vec<_>>>()
    })?;
    let mut all: Vec<(usize, R)> = per_worker.into_iter().flatten().collect();
    all.sort_unstable_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

/// Every blog file, rendered.
fn all_files(site: &Site, blog: &Blog) -> Result<Vec<(String, Vec<u8>)>> {
    let inputs = site.inputs();
    parallel(&jobs(blog), |job| render_job(site, &inputs, blog, job))
}

/// Writes every blog file (a full build), rendering, compressing and writing on every core.
pub fn write_all(site: &Site, blog: &Blog) -> Result<()> {
    let inputs = site.inputs();
    parallel(&jobs(blog), |job| {
        let (rel, bytes) = render_job(site, &inputs, blog, job)?;
        write(&site.output, &rel, &bytes)
    })?;
    Ok(())
}

/// Brings the output folder's blog in line with `blog` whatever it held before (the api
/// does this once at start: posts may have changed since the last build): writes every file
/// whose bytes differ and removes post and list pages that should not be there. Returns the
/// paths it touched.
pub fn sync(site: &Site, blog: &Blog) -> Result<Vec<String>> {
    let files = all_files(site, blog)?;
    let expected: HashSet<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    let stale: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(rel, bytes)| {
            std::fs::read(site.output.root().join(rel)).ok().as_deref() != Some(bytes.as_slice())
        })
        .collect();
    let written = parallel(&stale, |(rel, bytes)| {
        write(&site.output, rel, bytes)?;
        Ok((rel.clone(), referenced_uploads(bytes)))
    })?;
    site.output.sync_files(
        &written
            .iter()
            .map(|(rel, _)| rel.clone())
            .collect::<Vec<_>>(),
    )?;
    let mut touched = with_their_images(written);
    // Pages on disk that no post or list page accounts for (`blog/page/` held the list
    // pages when they were counted from the newest post), and posts' sitemaps beyond the
    // last.
    let blog_dir = site.output.root().join("blog");
    if let Ok(entries) = std::fs::read_dir(&blog_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("blog/{name}");
            if name.starts_with("sitemap-")
                && name.ends_with(".xml")
                && !expected.contains(rel.as_str())
            {
                site.output.remove(&rel)?;
                touched.push(rel);
            }
        }
    }
    for dir in [
        blog_dir.clone(),
        blog_dir.join("archive"),
        blog_dir.join("page"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let index = entry.path().join("index.html");
            if index.is_file() {
                let rel = index.strip_prefix(site.output.root()).unwrap_or(&index);
                let rel = rel.to_string_lossy().replace('\\', "/");
                if !expected.contains(rel.as_str()) {
                    site.output.remove(&rel)?;
                    touched.push(rel);
                }
            }
        }
    }
    Ok(touched)
}

/// The blog's files are written without compressed copies (the server makes those when a
/// page is first asked for), by the full build and the api's rebuilds alike, so both give
/// the same files and a publish goes live in milliseconds. Nor are they synced one by one:
/// whoever writes them syncs them together once they are live ([`Output::sync_files`]).
fn write(output: &Output, rel: &str, bytes: &[u8]) -> Result<()> {
    output.write_unsynced(rel, bytes)
}

/// The output paths of the uploaded images' variants (`media/uploads/…`) that a rendered
/// file names, absolute (the feed, social cards) or not. Found in the bytes themselves, so
/// whatever a template or the content does, every image a page shows is listed.
pub fn referenced_uploads(bytes: &[u8]) -> Vec<String> {
    const MARK: &[u8] = b"/media/uploads/";
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'/');
    let mut found = std::collections::BTreeSet::new();
    let mut at = 0;
    while let Some(i) = bytes[at..].windows(MARK.len()).position(|w| w == MARK) {
        let start = at + i + 1;
        let len = bytes[start..].iter().take_while(|&&b| allowed(b)).count();
        let rel = &bytes[start..start + len];
        if !rel.ends_with(b"/") && !rel.windows(2).any(|w| w == b"..") {
            found.insert(String::from_utf8_lossy(rel).into_owned());
        }
        at = start + len;
    }
    found.into_iter().collect()
}

/// Written files and the images they reference, as one list: the images first.
fn with_their_images(written: Vec<(String, Vec<String>)>) -> Vec<String> {
    let mut images: Vec<String> = written
        .iter()
        .flat_map(|(_, images)| images.iter().cloned())
        .collect();
    images.sort_unstable();
    images.dedup();
    images.extend(written.into_iter().map(|(rel, _)| rel));
    images
}

/// What a change to the posts means for the output folder: which files to render and write,
/// which to remove. Nothing is rendered until [`Changes::apply_in_stages`], which does the
/// post pages first, so a post is live before the list pages, feed and sitemap that link to
/// it are even rendered.
pub struct Changes<'a> {
    site: &'a Site,
    blog: &'a Blog,
    /// New or changed post pages.
    posts: Vec<Job<'a>>,
    /// List pages, feed, sitemap.
    rest: Vec<Job<'a>>,
    /// Files to remove (their compressed copies go with them).
    remove: Vec<String>,
}

impl Changes<'_> {
    /// Writes and removes; returns every path touched.
    pub fn apply(&self, _output: &Output) -> Result<Vec<String>> {
        self.apply_in_stages(|_| {})
    }

    /// Renders and writes the post pages, tells `live` their paths (so a server can serve
    /// them at once), then renders and writes the rest (on every core) and removes what has
    /// gone, and tells `live` those; returns every path touched.
    ///
    /// Each stage's paths include the uploaded images' variants its pages reference (made
    /// while rendering, or earlier), before the pages themselves: a server that makes the
    /// whole list live in one step never serves a page whose images are not yet served.
    pub fn apply_in_stages(&self, mut live: impl FnMut(&[String])) -> Result<Vec<String>> {
        let inputs = self.site.inputs();
        let output = &self.site.output;
        let render_and_write = |job: &Job| -> Result<(String, Vec<String>)> {
            let (rel, bytes) = render_job(self.site, &inputs, self.blog, job)?;
            write(output, &rel, &bytes)?;
            Ok((rel, referenced_uploads(&bytes)))
        };
        let mut touched = Vec::new();
        let posts = parallel(&self.posts, render_and_write)?;
        let mut written: Vec<String> = posts.iter().map(|(rel, _)| rel.clone()).collect();
        let stage = with_their_images(posts);
        if !stage.is_empty() {
            live(&stage);
        }
        touched.extend(stage);
        let rest = parallel(&self.rest, render_and_write)?;
        written.extend(rest.iter().map(|(rel, _)| rel.clone()));
        let mut stage = with_their_images(rest);
        for rel in &self.remove {
            output.remove(rel)?;
            stage.push(rel.clone());
        }
        if !stage.is_empty() {
            live(&stage);
        }
        touched.extend(stage);
        // Durable before anyone is told (the reply, REBUILD_HOOK), not before it is live.
        output.sync_files(&written)?;
        // An image two stages both show is listed once.
        let mut seen = HashSet::new();
        touched.retain(|rel| seen.insert(rel.clone()));
        Ok(touched)
    }

    pub fn is_empty(&self) -> bool {
        self.posts.is_empty() && self.rest.is_empty() && self.remove.is_empty()
    }
}

/// The files that differ when the published posts go from `before` to `after`: changed or
/// new post pages, the pages of posts gone (unpublished, deleted or renamed), the list pages
/// whose cards or links changed (and surplus archive pages), the stylesheet that numbers them,
/// the feed and the sitemap. A new post changes `/blog` and the newest archive page (one in
/// five also starts a new archive page, the page before it gains its link to it, and the
/// count of pages in `blog/pages.css` grows): a constant number of files however many posts
/// there are.
pub fn changes<'a>(site: &'a Site, before: &Blog, after: &'a Blog) -> Result<Changes<'a>> {
    let mut out = Changes {
        site,
        blog: after,
        posts: Vec::new(),
        rest: Vec::new(),
        remove: Vec::new(),
    };
    let old: HashMap<i64, &Arc<Post>> = before.posts.iter().map(|p| (p.id, p)).collect();
    let live_slugs: HashSet<&str> = after.posts.iter().map(|p| p.slug.as_str()).collect();

    for post in &after.posts {
        if old.get(&post.id) != Some(&post) {
            // (`Arc`s of posts compare their pointers first: an unchanged post is one load.)
            out.posts.push(Job::Post(post));
        }
    }
    for post in &before.posts {
        if !live_slugs.contains(post.slug.as_str()) {
            out.remove.push(html_path_for(&post_route(&post.slug)));
        }
    }
    for list in lists(after) {
        if !shows_the_same(list, before, after) {
            out.rest.push(Job::List(list));
        }
    }
    for k in after.archive_pages() + 1..=before.archive_pages() {
        out.remove.push(html_path_for(&archive_route(k)));
    }
    // One publish in five adds a list page: every page's "Page X of Y" changes, and only
    // this file says so.
    if after.list_pages() != before.list_pages() {
        out.rest.push(Job::PagesCss);
    }
    if !before
        .posts
        .iter()
        .take(FEED_SIZE)
        .eq(after.posts.iter().take(FEED_SIZE))
    {
        out.rest.push(Job::Feed);
    }
    // The posts' sitemaps whose posts or dates changed (a new post: the newest one), those
    // there are no longer posts for, and the index when any of their dates changed.
    fn entries(b: &Blog, k: usize) -> impl Iterator<Item = (&String, &String)> {
        b.sitemap_chunk(k).iter().map(|p| (&p.slug, &p.updated_at))
    }
    // The index lists each sitemap's latest date, which changes only with its entries.
    let mut index_changed = after.sitemap_chunks() != before.sitemap_chunks();
    for k in 1..=after.sitemap_chunks() {
        if !entries(before, k).eq(entries(after, k)) {
            out.rest.push(Job::SitemapChunk(k));
            index_changed |= sitemap::chunk_lastmod(before, k) != sitemap::chunk_lastmod(after, k);
        }
    }
    for k in after.sitemap_chunks() + 1..=before.sitemap_chunks() {
        out.remove.push(sitemap_chunk_file(k));
    }
    if index_changed {
        out.rest.push(Job::SitemapIndex);
    }
    Ok(out)
}

/// Whether list page `list` shows the same in both blogs: the same links, and cards of the
/// same posts (a card shows a post's title, address, date, excerpt and image, not its text,
/// so an edit of a post's text changes no list page).
fn shows_the_same(list: List, before: &Blog, after: &Blog) -> bool {
    /// What a post's card shows: title, address, date, excerpt, image and its alt text.
    type Card<'a> = (&'a str, &'a str, [Option<&'a str>; 4]);
    fn card(p: &Post) -> Card<'_> {
        (
            p.title.as_str(),
            p.slug.as_str(),
            [
                p.publish_date.as_deref(),
                p.excerpt.as_deref(),
                p.featured_image.as_deref(),
                p.featured_image_alt.as_deref(),
            ],
        )
    }
    let (old, new) = (list.posts(before), list.posts(after));
    list.links(before) == list.links(after)
        && old.len() == new.len()
        // The same posts, unchanged, are the same `Arc`s: one pointer each, for the hundreds
        // of pages a publish leaves alone; only a page that holds a changed post compares
        // what its cards show.
        && (old.iter().zip(new).all(|(a, b)| Arc::ptr_eq(a, b))
            || old.iter().map(|p| card(p)).eq(new.iter().map(|p| card(p))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referenced_uploads_are_found_in_any_form() {
        let page = br#"<picture><source srcset="/media/uploads/ab-320.1f.webp 320w, /media/uploads/ab-640.1f.webp 640w"><img src="/media/uploads/ab-640.1f.jpg"></picture>
<meta property="og:image" content="https://party.example/media/uploads/ab-1200.1f.jpg">
<img src="/media/uploads/ab-640.1f.jpg"> /media/uploads/ /media/uploads/../x /media/other.png"#;
        assert_eq!(
            referenced_uploads(page),
            [
                "media/uploads/ab-1200.1f.jpg",
                "media/uploads/ab-320.1f.webp",
                "media/uploads/ab-640.1f.jpg",
                "media/uploads/ab-640.1f.webp",
            ]
        );
        assert!(referenced_uploads(b"<p>no images</p>").is_empty());
    }
}
