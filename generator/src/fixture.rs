//! A fixture project for tests of the generator and the api: the fixture content, the real
//! templates, a fake client build, a stand-in for Node that renders islands as markers,
//! and a database made by the api's own migrations. Tests only call it; it is compiled into
//! every build so that tests and builds resolve the crates alike.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::BuildOptions;
use crate::islands::{Renderer, Request};

/// Renders every island as `<p>rendered {name}</p>`: builds without Node.
pub struct EchoRenderer;

impl Renderer for EchoRenderer {
    fn render(&self, requests: &[Request]) -> Result<Vec<String>> {
        Ok(requests
            .iter()
            .map(|r| format!("<p>rendered {}</p>", r.name))
            .collect())
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target)
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

pub fn image(path: PathBuf, w: u32, h: u32, alpha: bool) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    if alpha {
        image::RgbaImage::from_pixel(w, h, image::Rgba([20, 33, 61, 255]))
            .save(path)
            .unwrap();
    } else {
        image::RgbImage::from_fn(w, h, |x, y| image::Rgb([x as u8, y as u8, 120]))
            .save(path)
            .unwrap();
    }
}

pub fn project() -> (tempfile::TempDir, BuildOptions) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let content = tmp.path().join("content");
    copy_dir(&root.join("tests/fixtures/site/content"), &content);
    image(content.join("media/hero.jpg"), 1000, 600, false);
    image(content.join("media/og-image.jpg"), 1200, 630, false);
    image(content.join("media/cards/a.jpg"), 600, 400, false);
    image(content.join("media/portraits/p.jpg"), 400, 500, false);
    image(content.join("media/favicon.png"), 64, 64, true);
    fs::write(content.join("media/logo.svg"), r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64"/></svg>"#).unwrap();

    let client = tmp.path().join("client");
    fs::create_dir_all(client.join(".vite")).unwrap();
    fs::create_dir_all(client.join("assets")).unwrap();
    fs::write(client.join("assets/main-1.js"), "/* main */").unwrap();
    fs::write(client.join("assets/main-2.css"), "body{}".repeat(200)).unwrap();
    fs::write(
        client.join(".vite/manifest.json"),
        r#"{
          "src/main.ts": {"file": "assets/main-1.js", "css": ["assets/main-2.css"], "isEntry": true},
          "_react.js": {"file": "assets/react-3.js"},
          "src/islands/NewsletterForm.tsx": {"file": "assets/NewsletterForm-4.js", "imports": ["_react.js"]},
          "src/islands/PromoCarousel.tsx": {"file": "assets/PromoCarousel-5.js", "imports": ["_react.js"]},
          "src/islands/ContactForm.tsx": {"file": "assets/ContactForm-7.js", "imports": ["_react.js"]},
          "src/islands/VolunteerForm.tsx": {"file": "assets/VolunteerForm-8.js", "imports": ["_react.js"]},
          "src/islands/DonateFlow.tsx": {"file": "assets/DonateFlow-11.js", "imports": ["_react.js"]},
          "src/islands/UpdateCard.tsx": {"file": "assets/UpdateCard-12.js", "imports": ["_react.js"]},
          "src/toaster.tsx": {"file": "assets/toaster-6.js", "imports": ["_react.js"]}
        }"#,
    )
    .unwrap();
    fs::write(
        client.join(".vite/admin-manifest.json"),
        r#"{"src/admin/main.tsx": {"file": "assets/admin-9.js", "css": ["assets/admin-10.css"], "isEntry": true}}"#,
    )
    .unwrap();

    let mut opts = BuildOptions::for_project(tmp.path());
    opts.templates_dir = root.join("../site/templates");
    opts.client_dir = client;
    (tmp, opts)
}

pub fn database(path: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("../api/migrations");
    let mut files: Vec<PathBuf> = fs::read_dir(&migrations)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        name.trim_start_matches('V')
            .split("__")
            .next()
            .unwrap()
            .parse::<u32>()
            .unwrap()
    });
    for file in files {
        conn.execute_batch(&fs::read_to_string(file).unwrap())
            .unwrap();
    }
    conn
}

pub fn publish_posts(conn: &rusqlite::Connection, n: usize) {
    for i in 1..=n {
        conn.execute(
            "INSERT INTO blog_posts (title, slug, excerpt, content, author_name, status, publish_date, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, 'Fixture Party Team', 'published', ?5, ?5, ?5)",
            rusqlite::params![
                format!("Post number {i}"),
                format!("post-{i}"),
                (i % 2 == 0).then(|| format!("Excerpt of post {i}.")),
                format!("<h2>Section {i}</h2><p>Body of post {i}, with <strong>strong</strong> words.</p>"),
                format!("2025-01-{:02}T15:30:00.000Z", i),
            ],
        )
        .unwrap();
    }
}
