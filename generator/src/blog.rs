//! The blog: published posts from the database, rendered by Tera into static pages like
//! every other page (no islands, nothing fetched in the browser).
//!
//! - `/blog` and `/blog/page/{n}`: the list, [`PAGE_SIZE`] posts a page, newest first;
//! - `/blog/{slug}`: one post; `blog/404.html`: what any other `/blog/…` path shows;
//! - `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts; `sitemap.xml`.
//!
//! A full build writes all of it ([`write_all`]). When staff change posts, the api asks
//! [`changes`] for exactly the files that differ between the blog before and after, and
//! writes those: both paths render and write with the same functions, so they produce the
//! same bytes.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context as _, Result};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use serde_json::json;

use crate::site::Site;
use crate::content::Meta;
use crate::media::Media;
use crate::output::{Compression, Output, html_path_for};
use crate::pages::{Page, PageInputs};
use crate::seo::SocialImage;
use crate::templates::{attr, picture};

/// Posts on a list page (spec §9).
pub const PAGE_SIZE: usize = 5;
/// Posts in the feed.
pub const FEED_SIZE: usize = 20;
/// Where the list's first page lives; later pages are `/blog/page/{n}`.
pub const LIST_ROUTE: &str = "/blog";
/// The feed's path in the output.
pub const FEED_FILE: &str = "blog/feed.xml";
/// The blog's not-found page, served for `/blog/…` paths that are not posts.
pub const NOT_FOUND_FILE: &str = "blog/404.html";
const SITEMAP_FILE: &str = "sitemap.xml";

/// What the images fill: a card in the three-column grid, the post's column.
const CARD_SIZES: &str = "(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 7rem) / 3), (min-width: 640px) calc((100vw - 4.5rem) / 2), calc(100vw - 2rem)";
const POST_SIZES: &str = "(min-width: 768px) 720px, calc(100vw - 2rem)";

/// A published post, as the site shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    pub id: i64,
    pub title: String,
    pub slug: String,
    pub excerpt: Option<String>,
    /// Sanitised HTML (cleaned again when rendered).
    pub content: String,
    pub featured_image: Option<String>,
    pub featured_image_alt: Option<String>,
    pub keywords: Option<String>,
    pub author_name: String,
    /// UTC, ISO-8601.
    pub publish_date: String,
    pub updated_at: String,
}

impl Post {
    /// A row of a query selecting the columns of [`PUBLISHED`], in its order.
    pub fn from_row(r: &rusqlite::Row) -> rusqlite::Result<Post> {
        Ok(Post {
            id: r.get(0)?,
            title: r.get(1)?,
            slug: r.get(2)?,
            excerpt: r.get(3)?,
            content: r.get(4)?,
            featured_image: r.get(5)?,
            featured_image_alt: r.get(6)?,
            keywords: r.get(7)?,
            author_name: r.get(8)?,
            publish_date: r.get(9)?,
            updated_at: r.get(10)?,
        })
    }
}

/// The published posts, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blog {
    pub posts: Vec<Post>,
}

/// The columns [`Post::from_row`] reads, in its order.
macro_rules! post_columns {
    () => {
        "id, title, slug, excerpt, content, featured_image, featured_image_alt, keywords, \
         author_name, publish_date, updated_at"
    };
}

/// Which posts are published, newest first: the one rule, shared by both queries below.
macro_rules! published {
    () => {
        "FROM blog_posts WHERE status = 'published' AND publish_date IS NOT NULL \
         ORDER BY publish_date DESC, id DESC"
    };
}

/// The query both the full build and the api use: published posts, newest first.
pub const PUBLISHED: &str = concat!("SELECT ", post_columns!(), " ", published!());

/// Their ids alone, in the same order.
const PUBLISHED_IDS: &str = concat!("SELECT id ", published!());

/// One post by id, published or not (the caller knows it is).
const POST_BY_ID: &str = concat!("SELECT ", post_columns!(), " FROM blog_posts WHERE id = ?1");

impl Blog {
    /// The posts published in the database at `path`, read only; no database, no posts.
    pub fn load(path: &Path) -> Result<Blog> {
        if !path.exists() {
            return Ok(Blog::default());
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("Failed to open the database {}", path.display()))?;
        let has_posts: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blog_posts')",
            [],
            |r| r.get(0),
        )?;
        if !has_posts {
            return Ok(Blog::default());
        }
        Blog::query(&conn)
            .with_context(|| format!("Failed to read the posts in {}", path.display()))
    }

    /// The published posts through an open connection.
    pub fn query(conn: &Connection) -> rusqlite::Result<Blog> {
        let mut stmt = conn.prepare_cached(PUBLISHED)?;
        let posts = stmt
            .query_map([], Post::from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Blog { posts })
    }

    /// The published posts now, given `previous` and the posts `changed` since it was read:
    /// only those, and posts `previous` does not have, are read again in full. After a save
    /// this reads one post instead of thousands.
    pub fn query_changed(
        conn: &Connection,
        previous: &Blog,
        changed: &std::collections::HashSet<i64>,
    ) -> rusqlite::Result<Blog> {
        let known: HashMap<i64, &Post> = previous.posts.iter().map(|p| (p.id, p)).collect();
        let ids = conn
            .prepare_cached(PUBLISHED_IDS)?
            .query_map([], |r| r.get::<_, i64>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut one = conn.prepare_cached(POST_BY_ID)?;
        let posts = ids
            .into_iter()
            .map(|id| match known.get(&id) {
                Some(post) if !changed.contains(&id) => Ok((*post).clone()),
                _ => one.query_row([id], Post::from_row),
            })
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Blog { posts })
    }

    /// List pages: at least one, for the empty state.
    pub fn page_count(&self) -> usize {
        self.posts.len().div_ceil(PAGE_SIZE).max(1)
    }

    /// The posts on list page `n` (from 1).
    pub fn page(&self, n: usize) -> &[Post] {
        let start = ((n - 1) * PAGE_SIZE).min(self.posts.len());
        &self.posts[start..(start + PAGE_SIZE).min(self.posts.len())]
    }
}

/// `/blog`, `/blog/page/2`…
pub fn list_route(n: usize) -> String {
    if n <= 1 {
        LIST_ROUTE.to_owned()
    } else {
        format!("{LIST_ROUTE}/page/{n}")
    }
}

/// `/blog/{slug}`
pub fn post_route(slug: &str) -> String {
    format!("{LIST_ROUTE}/{slug}")
}

/// A date as the spec shows it: "January 5, 2025", in the party's time zone.
pub fn display_date(site: &crate::config::SiteConfig, utc: &str) -> String {
    utc.parse::<jiff::Timestamp>()
        .map(|t| {
            t.to_zoned_datetime(site.tz())
                .strftime("%B %-d, %Y")
                .to_string()
        })
        .unwrap_or_default()
}

/// The text of some HTML, tags removed and whitespace collapsed.
pub fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters of `text`, cut at a word with "…" when it had to be cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > max / 2 => &cut[..space],
        _ => &cut,
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// An uploaded image's name in the uploads pipeline (`uploads/ab12….jpg`), if `url` is one.
fn upload_name(url: &str) -> Option<String> {
    let name = url.strip_prefix("/uploads/")?;
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
        && !name.starts_with('.');
    ok.then(|| format!("uploads/{name}"))
}

/// An image for a post: responsive when it is one of our uploads (GIFs as they are, to keep
/// their animation), else a plain lazy image. `class` styles the image.
fn image_html(uploads: &Media, url: &str, alt: &str, sizes: &str, class: Option<&str>) -> String {
    let class_attr = class
        .map(|c| format!(r#" class="{}""#, attr(c)))
        .unwrap_or_default();
    if let Some(name) = upload_name(url) {
        let path = uploads.source(&name);
        if name.ends_with(".gif") {
            if let Ok((w, h)) = image::image_dimensions(&path) {
                return format!(
                    r#"<img src="{}" width="{w}" height="{h}" alt="{}" loading="lazy" decoding="async"{class_attr}>"#,
                    attr(url),
                    attr(alt)
                );
            }
        } else if let Ok(image) = uploads.responsive(&name) {
            return picture(&image, alt, sizes, class, false);
        }
    }
    format!(
        r#"<img src="{}" alt="{}" loading="lazy" decoding="async"{class_attr}>"#,
        attr(url),
        attr(alt)
    )
}

/// The post's content as published: cleaned with the one allowlist (images from `uploads`
/// or the site's `image_hosts`), then every image given its real size (and, for uploads,
/// every width in WebP) and told to load lazily.
pub fn content_html(uploads: &Media, html: &str, image_hosts: &[String]) -> String {
    let clean = crate::sanitize::clean(html, image_hosts);
    let mut out = String::with_capacity(clean.len() + 256);
    let mut rest = clean.as_str();
    while let Some(start) = rest.find("<img ") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('>') else {
            break;
        };
        let tag = &rest[start..start + len + 1];
        let attrs = attributes(tag);
        match attrs.get("src") {
            Some(src) => {
                let alt = attrs.get("alt").map_or("", String::as_str);
                out.push_str(&image_html(
                    uploads,
                    src,
                    alt,
                    POST_SIZES,
                    Some("h-auto w-full rounded-lg"),
                ));
            }
            None => out.push_str(tag),
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// The attributes of a tag as the sanitiser writes it (`name="value"`, values escaped).
fn attributes(tag: &str) -> HashMap<String, String> {
    let mut found = HashMap::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(' ').next().unwrap_or("").to_owned();
        let value_start = eq + 2;
        let Some(value_len) = rest[value_start..].find('"') else {
            break;
        };
        let value = rest[value_start..value_start + value_len]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        found.insert(name, value);
        rest = &rest[value_start + value_len + 1..];
    }
    found
}

/// A card on the list.
#[derive(Debug, Serialize)]
struct Card {
    title: String,
    url: String,
    date: String,
    iso_date: String,
    excerpt: String,
    image: Option<String>,
}

/// List page `n`.
fn list_page(inputs: &PageInputs, blog: &Blog, n: usize) -> Page {
    let c = inputs.content;
    let texts = &c.blog;
    let pages = blog.page_count();
    let route = list_route(n);
    let meta = if n == 1 {
        texts.meta.clone()
    } else {
        Meta {
            title: format!("{} | Page {n}", texts.meta.title),
            ..texts.meta.clone()
        }
    };
    let meta = inputs.web_page_meta(&route, "Blog", &meta);
    let cards: Vec<Card> = blog
        .page(n)
        .iter()
        .map(|post| Card {
            title: post.title.clone(),
            url: post_route(&post.slug),
            date: display_date(&c.site, &post.publish_date),
            iso_date: post.publish_date.clone(),
            excerpt: post
                .excerpt
                .clone()
                .unwrap_or_else(|| texts.excerpt_fallback.clone()),
            image: post.featured_image.as_deref().map(|url| {
                let alt = post.featured_image_alt.as_deref().unwrap_or(&post.title);
                image_html(
                    inputs.uploads,
                    url,
                    alt,
                    CARD_SIZES,
                    Some("aspect-[16/9] w-full object-cover"),
                )
            }),
        })
        .collect();
    let pager = json!({
        "page": n,
        "pages": pages,
        "previous": (n > 1).then(|| list_route(n - 1)),
        "next": (n < pages).then(|| list_route(n + 1)),
    });
    Page {
        route: Some(route.clone()),
        output: html_path_for(&route),
        template: "pages/blog-list.html",
        meta,
        data: vec![
            ("blog", json!(texts)),
            ("cards", json!(cards)),
            ("pager", pager),
            ("first_page", json!(n == 1)),
        ],
    }
}

/// The page of one post.
fn post_page(inputs: &PageInputs, post: &Post) -> Page {
    let c = inputs.content;
    let site = &c.site;
    let route = post_route(&post.slug);
    let content = content_html(inputs.uploads, &post.content, &site.remote_image_hosts);
    let description = post
        .excerpt
        .clone()
        .unwrap_or_else(|| clip(&plain_text(&content), 160));
    let meta = Meta {
        title: format!("{} - {}", post.title, site.name),
        description: description.clone(),
        keywords: post
            .keywords
            .clone()
            .unwrap_or_else(|| c.blog.meta.keywords.clone()),
    };
    let image = post
        .featured_image
        .as_deref()
        .map(|url| social_image(inputs, post, url));
    let mut page_meta = inputs.meta_with_image(&route, &meta, image.clone());
    page_meta.og_type = "article";
    page_meta.published_time = Some(post.publish_date.clone());
    page_meta.modified_time = Some(post.updated_at.clone());
    let party = json!({"@type": "PoliticalParty", "name": site.name, "url": site.absolute_url("/"),
                       "logo": {"@type": "ImageObject", "url": inputs.logo_url}});
    let page_meta = page_meta.with_json_ld(json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": post.title,
        "description": description,
        "image": image.as_ref().map_or(inputs.social_image.url.clone(), |i| i.url.clone()),
        "datePublished": post.publish_date,
        "dateModified": post.updated_at,
        "author": {"@type": "Person", "name": post.author_name},
        "publisher": party,
        "mainEntityOfPage": {"@type": "WebPage", "@id": site.absolute_url(&route)},
        "url": site.absolute_url(&route),
    }));
    let featured = post.featured_image.as_deref().map(|url| {
        let alt = post
            .featured_image_alt
            .as_deref()
            .filter(|a| !a.is_empty())
            .unwrap_or(&post.title);
        image_html(
            inputs.uploads,
            url,
            alt,
            POST_SIZES,
            Some("h-auto w-full rounded-2xl"),
        )
    });
    Page {
        route: Some(route.clone()),
        output: html_path_for(&route),
        template: "pages/blog-post.html",
        meta: page_meta,
        data: vec![
            ("post", json!(post)),
            ("date", json!(display_date(site, &post.publish_date))),
            ("featured", json!(featured)),
            ("content", json!(content)),
        ],
    }
}

/// The page `post` will have at `/blog/{slug}` once published, rendered now with the same
/// template and the same cleaning, for staff to preview: marked `noindex`, and written
/// nowhere (the api hands it out once).
pub fn preview_html(site: &Site, post: &Post) -> Result<String> {
    let mut page = post_page(&site.inputs(), post);
    page.meta.noindex = true;
    site.finish(&site.render(&page)?, &[])
}

/// The social card of a post with a featured image: an upload at 1200 px, or the URL.
fn social_image(inputs: &PageInputs, post: &Post, url: &str) -> SocialImage {
    let site = &inputs.content.site;
    let alt = post
        .featured_image_alt
        .clone()
        .unwrap_or_else(|| post.title.clone());
    if let Some(name) = upload_name(url).filter(|n| !n.ends_with(".gif"))
        && let Ok((path, width, height)) = inputs.uploads.sized(&name, 1200)
    {
        return SocialImage {
            url: format!("{}{path}", site.url),
            width,
            height,
            alt,
        };
    }
    let absolute = if url.starts_with('/') {
        format!("{}{url}", site.url)
    } else {
        url.to_owned()
    };
    SocialImage {
        url: absolute,
        width: 0,
        height: 0,
        alt,
    }
}

/// What `/blog/{anything}` that is not a post shows, with status 404.
fn not_found_page(inputs: &PageInputs) -> Page {
    let texts = &inputs.content.blog;
    let meta = Meta {
        title: format!("{} - {}", texts.not_found.title, inputs.content.site.name),
        description: texts.not_found.message.clone(),
        keywords: String::new(),
    };
    let mut meta = inputs.meta_with_image("/blog/404", &meta, None);
    meta.noindex = true;
    Page {
        route: None,
        output: NOT_FOUND_FILE.into(),
        template: "pages/blog-not-found.html",
        meta,
        data: vec![("blog", json!(texts))],
    }
}

/// The Atom feed of the newest posts, with their full content.
fn feed(site: &Site, blog: &Blog) -> String {
    let inputs = site.inputs();
    let config = &site.content.site;
    let updated = blog
        .posts
        .iter()
        .take(FEED_SIZE)
        .map(|p| p.updated_at.as_str())
        .max()
        .unwrap_or("2024-01-01T00:00:00.000Z");
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>{} Blog</title>\n  <subtitle>{}</subtitle>\n  <id>{}</id>\n  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n  <updated>{}</updated>\n  <author><name>{}</name></author>\n",
        attr(&config.abbreviation),
        attr(&site.content.blog.lead),
        attr(&config.absolute_url(LIST_ROUTE)),
        attr(&config.absolute_url(LIST_ROUTE)),
        attr(&config.absolute_url(&format!("/{FEED_FILE}"))),
        attr(updated),
        attr(&config.name),
    );
    for post in blog.posts.iter().take(FEED_SIZE) {
        let url = config.absolute_url(&post_route(&post.slug));
        let content = absolute_links(
            &content_html(inputs.uploads, &post.content, &config.remote_image_hosts),
            &config.url,
        );
        xml.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <id>{}</id>\n    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n    <published>{}</published>\n    <updated>{}</updated>\n    <author><name>{}</name></author>\n",
            attr(&post.title),
            attr(&url),
            attr(&url),
            attr(&post.publish_date),
            attr(&post.updated_at),
            attr(&post.author_name),
        ));
        if let Some(excerpt) = &post.excerpt {
            xml.push_str(&format!("    <summary>{}</summary>\n", attr(excerpt)));
        }
        xml.push_str(&format!(
            "    <content type=\"html\">{}</content>\n  </entry>\n",
            attr(&content)
        ));
    }
    xml.push_str("</feed>\n");
    xml
}

/// Site-relative `src`/`srcset`/`href` made absolute, for feed readers elsewhere.
fn absolute_links(html: &str, origin: &str) -> String {
    html.replace("src=\"/", &format!("src=\"{origin}/"))
        .replace("href=\"/", &format!("href=\"{origin}/"))
        .replace("srcset=\"/", &format!("srcset=\"{origin}/"))
        .replace(", /", &format!(", {origin}/"))
}

/// `sitemap.xml`: every indexable page, and every post with when it last changed.
fn sitemap(site: &Site, blog: &Blog) -> String {
    let config = &site.content.site;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for route in site.static_routes() {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            attr(&config.absolute_url(route))
        ));
    }
    xml.push_str(&format!(
        "  <url><loc>{}</loc></url>\n",
        attr(&config.absolute_url(LIST_ROUTE))
    ));
    for post in &blog.posts {
        // W3C datetime to the second: "2025-01-05T14:03:00Z".
        let lastmod = post
            .updated_at
            .split('.')
            .next()
            .unwrap_or(&post.updated_at);
        xml.push_str(&format!(
            "  <url><loc>{}</loc><lastmod>{}Z</lastmod></url>\n",
            attr(&config.absolute_url(&post_route(&post.slug))),
            attr(lastmod.trim_end_matches('Z'))
        ));
    }
    xml.push_str("</urlset>\n");
    xml
}

/// Renders a page with no islands, as written.
fn rendered(site: &Site, page: &Page) -> Result<Vec<u8>> {
    Ok(site.finish(&site.render(page)?, &[])?.into_bytes())
}

/// One blog file to render.
enum Job<'a> {
    NotFound,
    Post(&'a Post),
    List(usize),
    Feed,
    Sitemap,
}

/// Every blog file: the not-found page, the posts, the list pages, the feed and the sitemap.
fn jobs(blog: &Blog) -> Vec<Job<'_>> {
    std::iter::once(Job::NotFound)
        .chain(blog.posts.iter().map(Job::Post))
        .chain((1..=blog.page_count()).map(Job::List))
        .chain([Job::Feed, Job::Sitemap])
        .collect()
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
        Job::Feed => return Ok((FEED_FILE.into(), feed(site, blog).into_bytes())),
        Job::Sitemap => return Ok((SITEMAP_FILE.into(), sitemap(site, blog).into_bytes())),
        Job::Post(post) => post_page(inputs, post),
        Job::List(n) => list_page(inputs, blog, *n),
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
    let expected: std::collections::HashSet<&str> =
        files.iter().map(|(rel, _)| rel.as_str()).collect();
    let stale: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(rel, bytes)| {
            std::fs::read(site.output.root().join(rel)).ok().as_deref() != Some(bytes.as_slice())
        })
        .collect();
    let mut touched = with_their_images(parallel(&stale, |(rel, bytes)| {
        write(&site.output, rel, bytes)?;
        Ok((rel.clone(), referenced_uploads(bytes)))
    })?);
    // Pages on disk that no post or list page accounts for.
    let blog_dir = site.output.root().join("blog");
    for dir in [blog_dir.clone(), blog_dir.join("page")] {
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
/// the same files and a publish goes live in milliseconds.
fn write(output: &Output, rel: &str, bytes: &[u8]) -> Result<()> {
    output.write_with(rel, bytes, Compression::OnDemand)
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
        let stage = with_their_images(posts);
        if !stage.is_empty() {
            live(&stage);
        }
        touched.extend(stage);
        let mut stage = with_their_images(parallel(&self.rest, render_and_write)?);
        for rel in &self.remove {
            output.remove(rel)?;
            stage.push(rel.clone());
        }
        if !stage.is_empty() {
            live(&stage);
        }
        touched.extend(stage);
        // An image two stages both show is listed once.
        let mut seen = std::collections::HashSet::new();
        touched.retain(|rel| seen.insert(rel.clone()));
        Ok(touched)
    }

    pub fn is_empty(&self) -> bool {
        self.posts.is_empty() && self.rest.is_empty() && self.remove.is_empty()
    }
}

/// The files that differ when the published posts go from `before` to `after`: changed or
/// new post pages, the pages of posts gone (unpublished, deleted or renamed), the list pages
/// whose posts changed (and surplus ones), the feed and the sitemap.
pub fn changes<'a>(site: &'a Site, before: &Blog, after: &'a Blog) -> Result<Changes<'a>> {
    let mut out = Changes {
        site,
        blog: after,
        posts: Vec::new(),
        rest: Vec::new(),
        remove: Vec::new(),
    };
    let old: HashMap<i64, &Post> = before.posts.iter().map(|p| (p.id, p)).collect();
    let live_slugs: std::collections::HashSet<&str> =
        after.posts.iter().map(|p| p.slug.as_str()).collect();

    for post in &after.posts {
        if old.get(&post.id) != Some(&post) {
            out.posts.push(Job::Post(post));
        }
    }
    for post in &before.posts {
        if !live_slugs.contains(post.slug.as_str()) {
            out.remove.push(html_path_for(&post_route(&post.slug)));
        }
    }
    let pages = after.page_count();
    for n in 1..=pages {
        let same = n <= before.page_count()
            && before.page(n) == after.page(n)
            && (before.page_count() == pages);
        if !same {
            out.rest.push(Job::List(n));
        }
    }
    for n in pages + 1..=before.page_count() {
        out.remove.push(html_path_for(&list_route(n)));
    }
    let feed_posts = |b: &Blog| b.posts.iter().take(FEED_SIZE).cloned().collect::<Vec<_>>();
    if feed_posts(before) != feed_posts(after) {
        out.rest.push(Job::Feed);
    }
    let listed = |b: &Blog| {
        b.posts
            .iter()
            .map(|p| (p.slug.clone(), p.updated_at.clone()))
            .collect::<Vec<_>>()
    };
    if listed(before) != listed(after) {
        out.rest.push(Job::Sitemap);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_come_from_the_text_cut_at_a_word() {
        let text = plain_text("<h2>Hello &amp; welcome</h2><p>We <strong>march</strong> on.</p>");
        assert_eq!(text, "Hello & welcome We march on.");
        let long = "word ".repeat(60);
        let clipped = clip(&long, 160);
        assert!(
            clipped.chars().count() <= 160 && clipped.ends_with('…'),
            "{clipped}"
        );
        assert_eq!(clip("short", 160), "short");
    }

    #[test]
    fn routes_and_pages() {
        assert_eq!(list_route(1), "/blog");
        assert_eq!(list_route(3), "/blog/page/3");
        assert_eq!(post_route("a-b"), "/blog/a-b");
        let post = |id| Post {
            id,
            title: String::new(),
            slug: format!("p{id}"),
            excerpt: None,
            content: String::new(),
            featured_image: None,
            featured_image_alt: None,
            keywords: None,
            author_name: String::new(),
            publish_date: String::new(),
            updated_at: String::new(),
        };
        for (n, pages) in [(0, 1), (1, 1), (5, 1), (6, 2), (11, 3)] {
            let blog = Blog {
                posts: (0..n).map(post).collect(),
            };
            assert_eq!(blog.page_count(), pages, "{n} posts");
        }
        let blog = Blog {
            posts: (0..11).map(post).collect(),
        };
        assert_eq!(blog.page(3).len(), 1);
        assert_eq!(blog.page(2)[0].id, 5);
    }

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

    #[test]
    fn upload_names_are_checked() {
        assert_eq!(
            upload_name("/uploads/0123abcd.jpg").as_deref(),
            Some("uploads/0123abcd.jpg")
        );
        assert_eq!(upload_name("/uploads/../site.db"), None);
        assert_eq!(upload_name("/uploads/.hidden"), None);
        assert_eq!(upload_name("https://x.example/a.jpg"), None);
    }

    #[test]
    fn attributes_are_read_back_from_sanitised_tags() {
        let a = attributes(r#"<img src="/uploads/a.jpg" alt="A &quot;quoted&quot; &amp; more">"#);
        assert_eq!(a["src"], "/uploads/a.jpg");
        assert_eq!(a["alt"], r#"A "quoted" & more"#);
    }
}
