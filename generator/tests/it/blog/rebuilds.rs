//! The blog, built from fixture databases: list pages and their pager, post pages with
//! their metadata, the feed and the sitemap; and the api's incremental path, which must
//! write exactly what a full build writes, atomically.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::common::EchoRenderer;
use generator::Site;
use generator::blog::{self, Blog};

use super::built_with;

/// Every file under `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// A small deterministic generator, so a failure can be replayed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn incremental_rebuilds_write_what_a_full_build_writes() {
    let (tmp, opts) = built_with(7);
    let conn = rusqlite::Connection::open(opts.database()).unwrap();
    let site = Site::open(&opts).unwrap();
    let mut before = Blog::load(&opts.database()).unwrap();
    let mut dice = Dice(0x5eed_cafe_f00d);
    let mut next = 100;
    for step in 0..60 {
        let ids: Vec<i64> = {
            let mut stmt = conn
                .prepare("SELECT id FROM blog_posts ORDER BY id")
                .unwrap();
            stmt.query_map([], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        let pick = |dice: &mut Dice| {
            ids.get(dice.roll(ids.len().max(1) as u64) as usize)
                .copied()
        };
        match dice.roll(9) {
            0..=2 => {
                next += 1;
                let status = ["published", "draft", "scheduled"][dice.roll(3) as usize];
                conn.execute(
                    "INSERT INTO blog_posts (title, slug, content, author_name, status, publish_date, updated_at)
                     VALUES (?1, ?2, '<p>New</p>', 'A', ?3, CASE WHEN ?3 = 'published' THEN ?4 END, ?4)",
                    rusqlite::params![format!("New post {next}"), format!("new-{next}"), status, format!("2025-02-{:02}T10:{:02}:00.000Z", 1 + step % 27, step % 60)],
                )
                .unwrap();
            }
            3 | 4 => {
                if let Some(id) = pick(&mut dice) {
                    conn.execute(
                        "UPDATE blog_posts SET title = title || ' (edited)', content = content || '<p>More.</p>', updated_at = ?2 WHERE id = ?1",
                        rusqlite::params![id, format!("2025-03-01T00:00:{:02}.000Z", step % 60)],
                    )
                    .unwrap();
                }
            }
            5 | 6 => {
                if let Some(id) = pick(&mut dice) {
                    conn.execute(
                        "UPDATE blog_posts SET status = 'published', publish_date = COALESCE(publish_date, ?2) WHERE id = ?1",
                        rusqlite::params![id, format!("2025-04-01T00:00:{:02}.000Z", step % 60)],
                    )
                    .unwrap();
                }
            }
            7 => {
                if let Some(id) = pick(&mut dice) {
                    conn.execute("UPDATE blog_posts SET status = 'draft' WHERE id = ?1", [id])
                        .unwrap();
                }
            }
            8 => {
                if let Some(id) = pick(&mut dice) {
                    conn.execute(
                        "UPDATE blog_posts SET slug = slug || '-r' WHERE id = ?1",
                        [id],
                    )
                    .unwrap();
                }
            }
            _ => {
                if let Some(id) = pick(&mut dice) {
                    conn.execute("DELETE FROM blog_posts WHERE id = ?1", [id])
                        .unwrap();
                }
            }
        }
        let after = Blog::load(&opts.database()).unwrap();
        blog::changes(&site, &before, &after)
            .unwrap()
            .apply(&site.output)
            .unwrap();
        before = after;
    }
    assert!(
        before.posts.len() > 3,
        "the sequence leaves a blog worth comparing"
    );

    let mut fresh = opts.clone();
    fresh.out_dir = tmp.path().join("fresh");
    generator::build(&fresh, &EchoRenderer).unwrap();
    let (incremental, full) = (tree(&opts.out_dir), tree(&fresh.out_dir));
    let only_one: Vec<&String> = incremental
        .keys()
        .filter(|k| !full.contains_key(*k))
        .chain(full.keys().filter(|k| !incremental.contains_key(*k)))
        .collect();
    assert!(only_one.is_empty(), "files in one tree only: {only_one:?}");
    for (rel, bytes) in &full {
        assert!(&incremental[rel] == bytes, "{rel} differs");
    }
}

#[test]
fn readers_never_see_a_missing_or_half_written_page_during_rebuilds() {
    let (_tmp, opts) = built_with(12);
    let conn = rusqlite::Connection::open(opts.database()).unwrap();
    let site = Site::open(&opts).unwrap();
    let watched = [
        "blog/index.html",
        "blog/archive/2/index.html",
        "blog/post-3/index.html",
        "blog/feed.xml",
    ];
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut reads = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for rel in watched {
                    let text = fs::read(opts.out_dir.join(rel))
                        .unwrap_or_else(|e| panic!("{rel} went missing: {e}"));
                    let end: &[u8] = if rel.ends_with(".xml") {
                        b"</feed>\n"
                    } else {
                        b"</html>\n"
                    };
                    assert!(text.ends_with(end), "{rel} was read half-written");
                    reads += 1;
                }
            }
            reads
        });
        let mut before = Blog::load(&opts.database()).unwrap();
        for i in 0..30 {
            conn.execute(
                "UPDATE blog_posts SET title = ?1, updated_at = ?2 WHERE slug = 'post-3'",
                rusqlite::params![
                    format!("Post three, take {i}"),
                    format!("2025-05-01T00:00:{:02}.000Z", i)
                ],
            )
            .unwrap();
            conn.execute(
                "UPDATE blog_posts SET publish_date = ?1 WHERE slug = 'post-12'",
                [format!("2025-06-{:02}T00:00:00.000Z", 1 + i % 2)],
            )
            .unwrap();
            let after = Blog::load(&opts.database()).unwrap();
            blog::changes(&site, &before, &after)
                .unwrap()
                .apply(&site.output)
                .unwrap();
            before = after;
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(reader.join().unwrap() > 100, "the reader kept reading");
    });
}

/// Every file under `dir`, by the SHA-256 of its bytes.
fn hashes(dir: &Path) -> BTreeMap<String, [u8; 32]> {
    use sha2::Digest;
    tree(dir)
        .into_iter()
        .map(|(rel, bytes)| (rel, sha2::Sha256::digest(&bytes).into()))
        .collect()
}

/// The files that differ between two trees: changed, new or gone.
fn differing(a: &BTreeMap<String, [u8; 32]>, b: &BTreeMap<String, [u8; 32]>) -> Vec<String> {
    let mut rels: Vec<String> = a
        .iter()
        .filter(|(rel, hash)| b.get(*rel) != Some(hash))
        .map(|(rel, _)| rel.clone())
        .chain(b.keys().filter(|rel| !a.contains_key(*rel)).cloned())
        .collect();
    rels.sort();
    rels.dedup();
    rels
}

/// A publish into a blog of a thousand posts rewrites the same handful of files as into a
/// small one: the post, `/blog`, the newest archive page (and, when it starts a new page,
/// the one before it, for its link, and the count of pages), the feed, and the newest posts' sitemap with the
/// sitemap index. Every other file keeps its bytes, so a site pushed to a CDN uploads and
/// purges only those.
#[test]
fn publishing_into_a_thousand_posts_changes_a_constant_number_of_files() {
    let (_tmp, opts) = built_with(0);
    let conn = rusqlite::Connection::open(opts.database()).unwrap();
    let publish = |i: usize| {
        let at = "2024-01-01T00:00:00.000Z";
        conn.execute(
            "INSERT INTO blog_posts (title, slug, excerpt, content, author_name, status, publish_date, created_at, updated_at)
             VALUES (?1, ?2, NULL, ?3, 'Fixture Party Team', 'published', strftime('%Y-%m-%dT%H:%M:%fZ', ?4, ?5),
                     strftime('%Y-%m-%dT%H:%M:%fZ', ?4, ?5), strftime('%Y-%m-%dT%H:%M:%fZ', ?4, ?5))",
            rusqlite::params![
                format!("Dispatch {i}"),
                format!("dispatch-{i}"),
                format!("<p>Dispatch {i} from the road.</p>"),
                at,
                format!("+{i} hours"),
            ],
        )
        .unwrap();
    };
    for i in 1..=1000 {
        publish(i);
    }
    generator::build(&opts, &EchoRenderer).unwrap();
    let site = Site::open(&opts).unwrap();
    let mut before = Blog::load(&opts.database()).unwrap();
    assert_eq!(before.posts.len(), 1000);
    let mut files = hashes(&opts.out_dir);

    for i in 1001..=1006 {
        publish(i);
        let after = Blog::load(&opts.database()).unwrap();
        blog::changes(&site, &before, &after)
            .unwrap()
            .apply(&site.output)
            .unwrap();
        let now = hashes(&opts.out_dir);
        // The archive holds the posts older than /blog's five.
        let newest = (i - 5).div_ceil(5);
        let mut expected = vec![
            format!("blog/dispatch-{i}/index.html"),
            "blog/index.html".to_owned(),
            format!("blog/archive/{newest}/index.html"),
            "blog/feed.xml".to_owned(),
            "sitemap.xml".to_owned(),
            // Posts 1001 on: the second of the posts' sitemaps (the first, once full, stays).
            "blog/sitemap-2.xml".to_owned(),
        ];
        if i % 5 == 1 {
            // A new page starts: the page before it now leads to it, and every page's
            // "of Y" grows, in the one file that says it.
            expected.push(format!("blog/archive/{}/index.html", newest - 1));
            expected.push("blog/pages.css".to_owned());
        }
        expected.sort();
        assert_eq!(differing(&files, &now), expected, "publishing post {i}");
        files = now;
        before = after;
    }
}
