//! The blog, built from fixture databases: list pages and their pager, post pages with
//! their metadata, the feed and the sitemap; and the api's incremental path, which must
//! write exactly what a full build writes, atomically.

use std::fs;

use crate::common::{EchoRenderer, database, json_ld, project, publish_posts, read};

use super::{built_with, exists};

/// The post titles on a list page, in order.
fn titles(html: &str) -> Vec<u32> {
    html.split("Read More<span class=\"sr-only\"> about Post number ")
        .skip(1)
        .map(|rest| rest[..rest.find('<').unwrap()].parse().unwrap())
        .collect()
}

#[test]
fn blog_shows_the_five_newest_posts_with_a_pager_only_when_there_are_more() {
    for n in [0usize, 1, 5, 6, 11] {
        let (_tmp, opts) = built_with(n);
        let first = read(&opts, "blog/index.html");
        assert!(first.contains("<title>Fixture Blog</title>"), "{n}");
        assert!(
            first.contains(">FXP Blog</h1>"),
            "{n}: the abbreviation's blog"
        );
        assert!(
            first.contains("Featured Articles") && first.contains(r#"href="/why-third-party""#),
            "{n}"
        );
        let newest: Vec<u32> = (1..=n as u32).rev().take(5).collect();
        assert_eq!(titles(&first), newest, "{n} posts, newest first");
        assert_eq!(
            first.contains("Blog pages"),
            n > 5,
            "{n}: the pager shows only past five posts"
        );
        assert!(!first.contains("rel=\"prev\""), "{n}");
        if n == 0 {
            assert!(first.contains("No Blog Posts Yet"));
            assert!(
                first.contains("Check back soon for updates, news, and insights from the party.")
            );
        } else {
            assert!(!first.contains("No Blog Posts Yet"));
        }
        assert!(!exists(&opts, "blog/page/2/index.html"), "{n}");
    }
}

/// The list page's "Page X of Y" as a browser shows it: X and Y from `blog/pages.css`'s
/// counters, `--from-end` from the page (none on `/blog`).
fn page_label(opts: &generator::BuildOptions, html: &str) -> String {
    let css = read(opts, "blog/pages.css");
    let number = |after: &str| -> usize {
        let at = css.find(after).unwrap() + after.len();
        css[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (after, pages) = (number("calc("), number("blog-pages "));
    assert_eq!(after, pages + 1, "{css}");
    let from_end = match html
        .split(r#"<span class="blog-page-of" style="--from-end:"#)
        .nth(1)
    {
        Some(rest) => rest[..rest.find('"').unwrap()].parse().unwrap(),
        None => {
            assert!(html.contains(r#"<span class="blog-page-of"></span>"#));
            pages
        }
    };
    assert!(html.contains(r#"<link rel="stylesheet" href="/blog/pages.css">"#));
    format!("Page {} of {pages}", after - from_end)
}

#[test]
fn following_next_from_the_blog_meets_every_post_once_newest_first() {
    let (_tmp, opts) = built_with(12);
    let page = |route: &str| read(&opts, &generator::output::html_path_for(route));
    let link =
        |rel: &str, to: &str| format!(r#"<a href="{to}" class="btn btn-outline" rel="{rel}""#);
    // /blog: the five newest; its Next is the newest archive page, which holds the posts
    // between them and the first full page (the one page that may be short).
    let first = page("/blog");
    assert_eq!(titles(&first), [12, 11, 10, 9, 8]);
    assert!(first.contains(&link("next", "/blog/archive/2")) && !first.contains("rel=\"prev\""));
    assert_eq!(page_label(&opts, &first), "Page 1 of 3");
    let second = page("/blog/archive/2");
    assert_eq!(titles(&second), [7, 6]);
    assert!(
        second.contains(&link("prev", "/blog"))
            && second.contains(&link("next", "/blog/archive/1"))
    );
    assert_eq!(page_label(&opts, &second), "Page 2 of 3");
    let third = page("/blog/archive/1");
    assert_eq!(titles(&third), [5, 4, 3, 2, 1]);
    assert!(third.contains(&link("prev", "/blog/archive/2")) && !third.contains("rel=\"next\""));
    assert_eq!(page_label(&opts, &third), "Page 3 of 3");
    assert!(!exists(&opts, "blog/archive/3/index.html"));
    // An archive page also names the dates it covers, in its title too.
    assert!(third.contains(">Posts from January 1, 2025 to January 5, 2025<"));
    assert!(
        third.contains(
            "<title>Fixture Blog | Posts from January 1, 2025 to January 5, 2025</title>"
        )
    );
    assert!(second.contains(">Posts from January 6, 2025 to January 7, 2025<"));
    assert!(
        !second.contains("Featured Articles"),
        "featured cards only on /blog"
    );
    // One more page's worth: the newest page is short, the full ones are the same bytes.
    let (_tmp, more) = built_with(17);
    let again = |route: &str| read(&more, &generator::output::html_path_for(route));
    assert_eq!(titles(&again("/blog/archive/3")), [12, 11]);
    assert_eq!(
        again("/blog/archive/1"),
        third,
        "a full page keeps its bytes"
    );
    assert_eq!(page_label(&more, &again("/blog/archive/1")), "Page 4 of 4");
    assert_eq!(page_label(&more, &again("/blog/archive/3")), "Page 2 of 4");
    // At most five posts: one page, no pager and no counting.
    let (_tmp, few) = built_with(5);
    let only = read(&few, "blog/index.html");
    assert!(!only.contains("blog-page-of") && !only.contains("/blog/pages.css"));
}

#[test]
fn cards_carry_the_date_the_excerpt_or_its_fallback_and_a_link() {
    let (_tmp, opts) = built_with(2);
    let html = read(&opts, "blog/index.html");
    // Post 2 (an excerpt) and post 1 (none), published on January 2 and 1, 2025 at 15:30 UTC.
    assert!(
        html.contains(r#"<time datetime="2025-01-02T15:30:00.000Z">January 2, 2025</time>"#),
        "{html}"
    );
    assert!(html.contains("Excerpt of post 2."));
    assert!(html.contains("Read more to discover the full story..."));
    assert!(html.contains(r#"<a href="/blog/post-2" class="#));
}

#[test]
fn a_post_page_has_its_metadata_and_blog_posting_data() {
    let (_tmp, opts) = built_with(2);
    let html = read(&opts, "blog/post-2/index.html");
    assert!(html.contains("<title>Post number 2 - Fixture Party</title>"));
    assert!(html.contains(r#"<meta name="description" content="Excerpt of post 2.">"#));
    assert!(html.contains(r#"<link rel="canonical" href="https://example.org/blog/post-2">"#));
    assert!(html.contains(r#"<meta property="og:type" content="article">"#));
    assert!(html.contains(
        r#"<meta property="article:published_time" content="2025-01-02T15:30:00.000Z">"#
    ));
    assert!(
        html.contains(
            r#"<meta property="article:modified_time" content="2025-01-02T15:30:00.000Z">"#
        )
    );
    assert!(html.contains("Posted on <time datetime=\"2025-01-02T15:30:00.000Z\">January 2, 2025</time> | By Fixture Party Team"));
    assert!(html.contains(r#"<a href="/blog" class="#) && html.contains("Back to Blog"));
    assert!(
        html.contains(
            "<h2>Section 2</h2><p>Body of post 2, with <strong>strong</strong> words.</p>"
        )
    );
    assert!(
        html.contains(r#"aria-current"#)
            && html.contains(r#"href="/blog" class="dropdown-link" aria-current="page""#),
        "the Blog nav link is current"
    );

    let ld = json_ld(&html);
    let posting = ld
        .iter()
        .find(|b| b["@type"] == "BlogPosting")
        .expect("BlogPosting");
    assert_eq!(posting["headline"], "Post number 2");
    assert_eq!(posting["datePublished"], "2025-01-02T15:30:00.000Z");
    assert_eq!(posting["author"]["name"], "Fixture Party Team");
    assert_eq!(
        posting["publisher"]["logo"]["url"],
        "https://example.org/icon-512.png"
    );
    assert_eq!(
        posting["mainEntityOfPage"]["@id"],
        "https://example.org/blog/post-2"
    );
    assert!(
        posting["image"]
            .as_str()
            .unwrap()
            .starts_with("https://example.org/media/og-image-1200.")
    );

    // No excerpt: the description is the start of the text.
    let html = read(&opts, "blog/post-1/index.html");
    assert!(
        html.contains(
            r#"<meta name="description" content="Section 1 Body of post 1, with strong words.">"#
        ),
        "{html}"
    );
}

#[test]
fn drafts_and_scheduled_posts_appear_nowhere() {
    let (_tmp, opts) = project();
    fs::create_dir_all(&opts.data_dir).unwrap();
    let conn = database(&opts.database());
    publish_posts(&conn, 1);
    conn.execute_batch(
        "INSERT INTO blog_posts (title, slug, content, author_name, status) VALUES ('Secret draft', 'secret-draft', '<p>x</p>', 'A', 'draft');
         INSERT INTO blog_posts (title, slug, content, author_name, status, publish_date) VALUES ('Later', 'later', '<p>x</p>', 'A', 'scheduled', '2025-01-09T00:00:00.000Z');",
    )
    .unwrap();
    generator::build(&opts, &EchoRenderer).unwrap();
    for rel in ["blog/index.html", "blog/feed.xml", "blog/sitemap-1.xml"] {
        let text = read(&opts, rel);
        assert!(
            !text.contains("Secret draft") && !text.contains("secret-draft"),
            "{rel}"
        );
        assert!(
            !text.contains("Later") && !text.contains("/blog/later"),
            "{rel}"
        );
    }
    assert!(
        !exists(&opts, "blog/secret-draft/index.html") && !exists(&opts, "blog/later/index.html")
    );
}

/// The blog's pages, feed and sitemap are written without `.br`/`.gz` copies (the server
/// compresses them when first asked for); the rest of the site keeps its copies.
#[test]
fn blog_files_are_left_for_the_server_to_compress() {
    let (_tmp, opts) = built_with(6);
    for rel in [
        "blog/index.html",
        "blog/archive/1/index.html",
        "blog/post-1/index.html",
        "blog/404.html",
        "blog/feed.xml",
        "sitemap.xml",
        "sitemap-pages.xml",
        "blog/sitemap-1.xml",
    ] {
        assert!(exists(&opts, rel), "{rel}");
        for copy in [format!("{rel}.br"), format!("{rel}.gz")] {
            assert!(!exists(&opts, &copy), "{copy}");
        }
    }
    assert!(exists(&opts, "index.html.br") && exists(&opts, "index.html.gz"));
}

#[test]
fn no_database_means_an_empty_blog() {
    let (_tmp, opts) = project();
    let report = generator::build(&opts, &EchoRenderer).unwrap();
    assert_eq!(report.posts, 0);
    assert!(read(&opts, "blog/index.html").contains("No Blog Posts Yet"));
    let not_found = read(&opts, "blog/404.html");
    assert!(not_found.contains("Blog Post Not Found"));
    assert!(
        not_found.contains(
            "The blog post you&#39;re looking for doesn&#39;t exist or has been removed."
        )
    );
    assert!(not_found.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(not_found.contains(r#"href="/blog" class="btn btn-primary mt-10">Back to Blog</a>"#));
}

#[test]
fn the_feed_is_atom_with_the_newest_twenty_posts_in_full() {
    let (_tmp, opts) = built_with(23);
    let xml = fs::read(opts.out_dir.join("blog/feed.xml")).unwrap();
    let feed = feed_rs::parser::parse(&xml[..]).expect("a valid feed");
    assert_eq!(feed.feed_type, feed_rs::model::FeedType::Atom);
    assert_eq!(feed.entries.len(), 20);
    let first = &feed.entries[0];
    assert_eq!(first.title.as_ref().unwrap().content, "Post number 23");
    assert_eq!(first.links[0].href, "https://example.org/blog/post-23");
    let content = first.content.as_ref().unwrap().body.as_ref().unwrap();
    assert!(content.contains("<h2>Section 23</h2>"), "{content}");
    assert_eq!(
        first.published.unwrap().to_rfc3339(),
        "2025-01-23T15:30:00+00:00"
    );
    // Every page points to it.
    assert!(read(&opts, "index.html").contains(r#"<link rel="alternate" type="application/atom+xml" title="FXP Blog" href="/blog/feed.xml">"#));
    // The sitemap index names the pages' sitemap and the posts', with its latest date.
    let index = read(&opts, "sitemap.xml");
    assert!(index.contains("<sitemapindex"), "{index}");
    assert!(
        index.contains("<sitemap><loc>https://example.org/sitemap-pages.xml</loc></sitemap>"),
        "{index}"
    );
    assert!(index.contains("<sitemap><loc>https://example.org/blog/sitemap-1.xml</loc><lastmod>2025-01-23T15:30:00Z</lastmod></sitemap>"), "{index}");
    let sitemap = read(&opts, "blog/sitemap-1.xml");
    assert!(sitemap.contains("<url><loc>https://example.org/blog/post-23</loc><lastmod>2025-01-23T15:30:00Z</lastmod></url>"));
    assert_eq!(sitemap.matches("/blog/post-").count(), 23);
}

/// The feed makes a post's links and images absolute by rewriting those attributes alone:
/// text that looks like one (`", /`, `src="/x`) is the author's and stays as written.
#[test]
fn the_feed_makes_links_absolute_without_touching_the_text() {
    let (_tmp, opts) = project();
    fs::create_dir_all(opts.data_dir.join("uploads")).unwrap();
    crate::common::image(
        opts.data_dir.join("uploads/0123456789abcdef0123.jpg"),
        800,
        450,
        false,
    );
    let conn = database(&opts.database());
    conn.execute(
        "INSERT INTO blog_posts (title, slug, content, author_name, status, publish_date)
         VALUES ('Quoting', 'quoting', ?1, 'A', 'published', '2025-03-01T12:00:00.000Z')",
        [r#"<p>She said "no", /never. Markup reads src="/x and href="/y.</p><p><a href="/issues">Issues</a><img src="/uploads/0123456789abcdef0123.jpg" alt="a, /b"></p>"#],
    )
    .unwrap();
    generator::build(&opts, &EchoRenderer).unwrap();
    let xml = fs::read(opts.out_dir.join("blog/feed.xml")).unwrap();
    let feed = feed_rs::parser::parse(&xml[..]).expect("a valid feed");
    let content = feed.entries[0]
        .content
        .as_ref()
        .unwrap()
        .body
        .clone()
        .unwrap();
    assert!(
        content.contains(r#"<p>She said "no", /never. Markup reads src="/x and href="/y.</p>"#),
        "{content}"
    );
    assert!(
        content.contains(r#"<a href="https://example.org/issues" rel="#),
        "{content}"
    );
    assert!(
        content
            .contains(r#"<img src="https://example.org/media/uploads/0123456789abcdef0123-800."#),
        "{content}"
    );
    assert!(content.contains(r#"alt="a, /b""#), "{content}");
    // Every srcset candidate, each after its comma.
    let srcsets: Vec<&str> = content
        .split(r#"srcset=""#)
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(srcsets.len(), 2, "{content}");
    for srcset in srcsets {
        for candidate in srcset.split(", ") {
            assert!(
                candidate.starts_with("https://example.org/media/uploads/"),
                "{srcset}"
            );
        }
    }
    // The post's own page keeps its site paths.
    let html = read(&opts, "blog/quoting/index.html");
    assert!(html.contains(r#"<a href="/issues" rel="#));
    assert!(html.contains(r#"She said "no", /never. Markup reads src="/x and href="/y."#));
}

#[test]
fn uploaded_images_are_responsive_and_sized_in_posts() {
    let (_tmp, opts) = project();
    fs::create_dir_all(opts.data_dir.join("uploads")).unwrap();
    crate::common::image(
        opts.data_dir.join("uploads/0123456789abcdef0123.jpg"),
        1600,
        900,
        false,
    );
    let conn = database(&opts.database());
    conn.execute(
        "INSERT INTO blog_posts (title, slug, content, featured_image, featured_image_alt, author_name, status, publish_date)
         VALUES ('Pictures', 'pictures', ?1, '/uploads/0123456789abcdef0123.jpg', NULL, 'A', 'published', '2025-03-01T12:00:00.000Z')",
        [r#"<p>Look:</p><p><img src="/uploads/0123456789abcdef0123.jpg" alt="A march"><img src="https://cdn.example/x.png" alt="Elsewhere"></p>"#],
    )
    .unwrap();
    generator::build(&opts, &EchoRenderer).unwrap();
    let html = read(&opts, "blog/pictures/index.html");
    // The featured image: WebP first, sized, alt falling back to the title.
    assert!(
        html.contains(
            r#"<source type="image/webp" srcset="/media/uploads/0123456789abcdef0123-320."#
        ),
        "{html}"
    );
    assert!(html.contains(r#"width="1600" height="900" alt="Pictures""#));
    // Inside the content: the upload the same way, lazily. The image from a host the site
    // does not allow (remoteImageHosts) is not fetched: its alt text stays for the author.
    assert!(
        html.contains(r#"width="1600" height="900" alt="A march" loading="lazy" decoding="async""#)
    );
    assert!(html.contains(r#"<img alt="Elsewhere">"#), "{html}");
    assert!(!html.contains("cdn.example"));
    // Its social card is the image at 1200 px.
    assert!(html.contains(r#"<meta property="og:image" content="https://example.org/media/uploads/0123456789abcdef0123-1200."#));
}
