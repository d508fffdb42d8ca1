//! A real app over a real (temporary) SQLite file and a small dist folder.
#![allow(dead_code)]

use api::AppState;
use api::config::Config;
use api::db::Db;
use serde_json::Value;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::Response;
use warp::hyper::body::Bytes;
use warp::reply::Response as Reply;

pub struct TestApp {
    pub app: BoxedFilter<(Reply,)>,
    pub db: Db,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub fn new() -> TestApp {
        TestApp::with(|_| {})
    }

    pub fn with(adjust: impl FnOnce(&mut Config)) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        std::fs::create_dir_all(dist.join("contact")).unwrap();
        std::fs::create_dir_all(dist.join("assets")).unwrap();
        std::fs::write(dist.join("index.html"), "<h1>Home</h1>").unwrap();
        std::fs::write(dist.join("contact/index.html"), "<h1>Contact</h1>").unwrap();
        std::fs::write(dist.join("404.html"), "<h1>Page Not Found</h1>").unwrap();
        std::fs::write(dist.join("assets/main-abc.js"), "console.log(1)").unwrap();
        std::fs::write(dist.join("assets/main-abc.js.br"), "BROTLI").unwrap();
        std::fs::write(dist.join("assets/main-abc.js.gz"), "GZIP").unwrap();
        // The shells the generator writes for the no-script form problem pages.
        std::fs::create_dir_all(dist.join(".forms")).unwrap();
        for form in generator::forms::ALL {
            std::fs::write(
                dist.join(generator::form_pages::problem_shell(&form)),
                format!(
                    "<title>{}</title><main>{}</main>",
                    form.texts.failure_title,
                    generator::form_pages::PROBLEM_MARKER
                ),
            )
            .unwrap();
        }
        let mut config = Config::for_tests(dist);
        adjust(&mut config);
        let db = Db::open(&dir.path().join("site.db")).unwrap();
        let app = api::app(AppState::new(config, db.clone())).boxed();
        TestApp { app, db, _dir: dir }
    }

    pub async fn post_json(&self, path: &str, body: &str) -> Response<Bytes> {
        self.post_from(path, body, [10, 0, 0, 1]).await
    }

    pub async fn post_from(&self, path: &str, body: &str, ip: [u8; 4]) -> Response<Bytes> {
        warp::test::request()
            .method("POST")
            .path(path)
            .remote_addr((ip, 40000).into())
            .header("content-type", "application/json")
            .body(body)
            .reply(&self.app)
            .await
    }

    /// An HTML form post, as a browser without JavaScript sends it from this site's page
    /// `from` (a path).
    pub async fn post_form(&self, path: &str, body: &str, from: &str) -> Response<Bytes> {
        warp::test::request()
            .method("POST")
            .path(path)
            .remote_addr(([10, 0, 0, 1], 40000).into())
            .header("host", "party.example")
            .header("origin", "http://party.example")
            .header("sec-fetch-site", "same-origin")
            .header("referer", format!("http://party.example{from}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .reply(&self.app)
            .await
    }

    pub async fn get(&self, path: &str) -> Response<Bytes> {
        warp::test::request().path(path).reply(&self.app).await
    }

    pub async fn count(&self, table: &'static str) -> i64 {
        self.db
            .read(move |c| c.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)))
            .await
            .unwrap()
    }
}

/// The `Location` of a redirect.
pub fn location(res: &Response<Bytes>) -> String {
    res.headers()
        .get("location")
        .unwrap_or_else(|| panic!("no Location; status {}", res.status()))
        .to_str()
        .unwrap()
        .to_owned()
}

/// A body as text.
pub fn text(res: &Response<Bytes>) -> String {
    String::from_utf8(res.body().to_vec()).unwrap()
}

/// The `message` of a JSON error body.
pub fn message(res: &Response<Bytes>) -> String {
    let body: Value =
        serde_json::from_slice(res.body()).unwrap_or_else(|_| panic!("not JSON: {:?}", res.body()));
    body["message"].as_str().expect("a message").to_owned()
}
