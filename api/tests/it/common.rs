//! A real app over a real (temporary) SQLite file and a small dist folder.

use api::AppState;
use api::config::Config;
use api::store::db::Db;
use serde_json::Value;
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::Response;
use warp::hyper::body::Bytes;
use warp::reply::Response as Reply;

/// A signed-in browser of a test account: its device cookie and authenticator secret.
#[derive(Debug, Clone)]
pub struct Enrolled {
    pub device: String,
    pub totp: Vec<u8>,
}

/// The code an authenticator app with `secret` shows at `at`.
pub fn totp_code(secret: &[u8], at: jiff::Timestamp) -> String {
    totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 0, 30, secret.to_vec())
        .generate(at.as_second() as u64)
}

/// The `acp_device` cookie a response sets.
pub fn device_cookie(res: &Response<Bytes>) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("acp_device="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
}

/// What a test changes in the configuration before the app starts.
/// What a test changes in the configuration (kept for a restart).
type Adjust = std::sync::Arc<dyn Fn(&mut Config) + Send + Sync>;

pub struct TestApp {
    pub app: BoxedFilter<(Reply,)>,
    /// What the handlers share (for calling the housekeeping, say).
    pub state: AppState,
    pub db: Db,
    /// DATA_DIR (uploads/ lives here).
    pub data_dir: std::path::PathBuf,
    /// The built site's options (for `with_site`), to start again on the same folders.
    site: Option<(generator::BuildOptions, Adjust)>,
    /// The Owner's remembered browser and authenticator secret, once `login` enrolled them.
    owner: std::sync::Mutex<Option<Enrolled>>,
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
        // And the shell of the pages the newsletter's links open.
        let notice = dist.join(generator::notices::NOTICE_SHELL);
        std::fs::create_dir_all(notice.parent().unwrap()).unwrap();
        std::fs::write(
            notice,
            format!(
                "<title>{0}</title><main><h1>{0}</h1>{1}</main>",
                generator::notices::NOTICE_TITLE,
                generator::notices::NOTICE_MARKER
            ),
        )
        .unwrap();
        let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../generator/tests/fixtures/site/content");
        let mut config = Config::for_tests(dir.path().join("data"), dist, content);
        adjust(&mut config);
        let db = Db::open(&config.data_dir.join("site.db")).unwrap();
        let data_dir = config.data_dir.clone();
        let state = AppState::new(config, db.clone()).unwrap();
        api::workers::start_serving(&state);
        let app = api::app(state.clone()).boxed();
        TestApp {
            app,
            state,
            db,
            data_dir,
            site: None,
            owner: Default::default(),
            _dir: dir,
        }
    }

    /// The app over a real built site (the generator's fixture project), with blog
    /// rebuilds on: what staff change shows in its dist/.
    pub async fn with_site(adjust: impl Fn(&mut Config) + Send + Sync + 'static) -> TestApp {
        let (dir, opts) = generator::fixture::project();
        generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
        TestApp::start_site(dir, opts, std::sync::Arc::new(adjust)).await
    }

    /// [`TestApp::with_site`] whose site is built and served at `SITE_URL` = `site_url`,
    /// not the content file's `url`.
    pub async fn with_site_url(
        site_url: &str,
        adjust: impl Fn(&mut Config) + Send + Sync + 'static,
    ) -> TestApp {
        let (dir, mut opts) = generator::fixture::project();
        opts.site_url = Some(site_url.to_owned());
        generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
        TestApp::start_site(dir, opts, std::sync::Arc::new(adjust)).await
    }

    /// Stops this app (for `with_site`) and starts a new one on the same data and site, as
    /// a server restarted on its DATA_DIR would be; `before_start` runs in between (to
    /// move the new clock, say).
    pub async fn restart(self, before_start: impl FnOnce(&AppState)) -> TestApp {
        let (opts, adjust) = self.site.expect("restart is for apps made with with_site");
        let dir = self._dir;
        // The Owner's browser is the same one: it signs in again as it did.
        let owner = self.owner;
        drop((self.app, self.state, self.db));
        let mut app = TestApp::start_site(dir, opts, adjust).await;
        app.owner = owner;
        before_start(&app.state);
        app
    }

    /// Starts the app over a site built (or broken) by the test itself.
    pub async fn start_site_for_test(
        dir: tempfile::TempDir,
        opts: generator::BuildOptions,
        adjust: impl Fn(&mut Config) + Send + Sync + 'static,
    ) -> TestApp {
        TestApp::start_site(dir, opts, std::sync::Arc::new(adjust)).await
    }

    async fn start_site(
        dir: tempfile::TempDir,
        opts: generator::BuildOptions,
        adjust: Adjust,
    ) -> TestApp {
        let db = Db::open(&opts.database()).unwrap();
        let mut config = Config::for_tests(
            opts.data_dir.clone(),
            opts.out_dir.clone(),
            opts.content_dir.clone(),
        );
        config.site = Some(opts.clone());
        adjust(&mut config);
        let data_dir = config.data_dir.clone();
        let state = AppState::new(config, db.clone()).unwrap();
        api::workers::start_serving(&state);
        // The worker's first pass (a sync) has run once a rebuild comes back (a broken site's
        // failure is what its test is about).
        let _ = state.rebuilder.rebuild(None).await;
        TestApp {
            app: api::app(state.clone()).boxed(),
            state,
            db,
            data_dir,
            site: Some((opts, adjust)),
            owner: Default::default(),
            _dir: dir,
        }
    }

    /// The built site's folder (for `with_site`).
    pub fn dist(&self) -> std::path::PathBuf {
        self._dir.path().join("dist")
    }

    pub async fn post_json(&self, path: &str, body: &str) -> Response<Bytes> {
        self.post_from(path, body, [10, 0, 0, 1]).await
    }

    pub async fn post_from(
        &self,
        path: &str,
        body: &str,
        ip: impl Into<std::net::IpAddr>,
    ) -> Response<Bytes> {
        warp::test::request()
            .method("POST")
            .path(path)
            .remote_addr((ip.into(), 40000).into())
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

    /// A GET from a browser that takes brotli: the answer's `Content-Encoding` and its body,
    /// decoded.
    pub async fn get_brotli(&self, path: &str) -> (Option<String>, String) {
        let res = warp::test::request()
            .path(path)
            .header("accept-encoding", "gzip, deflate, br")
            .reply(&self.app)
            .await;
        let coding = res
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_owned());
        let mut body = Vec::new();
        if coding.as_deref() == Some("br") {
            brotli::BrotliDecompress(&mut &res.body()[..], &mut body).unwrap();
        } else {
            body = res.body().to_vec();
        }
        (coding, String::from_utf8(body).unwrap())
    }

    /// Signs the Owner in and returns the token. The first time, this is the account's
    /// first sign-in: it enrols an authenticator app (the Owner's role requires one) and
    /// keeps the browser's device cookie, which later sign-ins send.
    pub async fn login(&self) -> String {
        let known = self.owner.lock().unwrap().clone();
        let mut req = warp::test::request()
            .method("POST")
            .path("/api/admin/login")
            .remote_addr(([10, 9, 9, 9], 40000).into())
            .json(&serde_json::json!({ "email": Config::TEST_EMAIL, "password": Config::TEST_PASSWORD }));
        if let Some(known) = &known {
            req = req.header("cookie", format!("acp_device={}", known.device));
        }
        let res = req.reply(&self.app).await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let body: Value = serde_json::from_slice(res.body()).unwrap();
        if let Some(known) = known.clone().filter(|_| body["success"] == false) {
            // A test signed the Owner out everywhere (or changed their password), which
            // forgets their browsers: the arrangement remembers this one again.
            let auth = self.state.auth.clone();
            let now = self.state.clock.now();
            let device = self
                .db
                .write(move |tx| {
                    let owner = api::domain::staff::accounts::by_email(tx, Config::TEST_EMAIL)?
                        .expect("the Owner");
                    api::domain::staff::devices::remember(tx, &auth.keys, owner.id, now)
                })
                .await
                .unwrap();
            *self.owner.lock().unwrap() = Some(Enrolled {
                device,
                totp: known.totp,
            });
            return Box::pin(self.login()).await;
        }
        assert_eq!(body["success"], true, "{body}");
        let token = body["token"].as_str().unwrap().to_owned();
        if known.is_none() {
            let device = device_cookie(&res).expect("a first sign-in remembers the browser");
            let id = body["user"]["id"].as_i64().unwrap();
            let totp = self.arrange_totp(id).await;
            *self.owner.lock().unwrap() = Some(Enrolled { device, totp });
        }
        token
    }

    /// The Owner's device cookie and authenticator secret (after `login`).
    pub fn owner(&self) -> Enrolled {
        self.owner.lock().unwrap().clone().expect("login() first")
    }

    /// Enrols an authenticator app for the signed-in `token` through the API (as a person
    /// does, with its notice mailed); returns its secret.
    pub async fn enrol_totp(&self, token: &str) -> Vec<u8> {
        let res = self
            .admin("POST", "/api/admin/security/totp", token, None)
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let secret = TestApp::json(&res)["secret"].as_str().unwrap().to_owned();
        let secret = totp_rs::Secret::Encoded(secret).to_bytes().unwrap();
        let code = totp_code(&secret, self.state.clock.now());
        let res = self
            .admin(
                "POST",
                "/api/admin/security/totp/confirm",
                token,
                Some(serde_json::json!({ "code": code })),
            )
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        secret
    }

    /// Gives `user` an authenticator app directly in the database: the arrangement of a
    /// test about something else (no notice is mailed; its step is the clock's, so a code
    /// is good from the next step on). Returns its secret.
    pub async fn arrange_totp(&self, user: i64) -> Vec<u8> {
        let secret: [u8; 20] = rand::random();
        let sealed = self.state.auth.keys.seal(&secret);
        let step = self.state.clock.now().as_second() / 30;
        self.db
            .write(move |tx| {
                tx.execute(
                    "UPDATE users SET totp_secret = ?2, totp_last_step = ?3 WHERE id = ?1",
                    rusqlite::params![user, sealed, step],
                )
            })
            .await
            .unwrap();
        secret.to_vec()
    }

    /// An admin request with `token` and an optional JSON body.
    pub async fn admin(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> Response<Bytes> {
        let mut req = warp::test::request()
            .method(method)
            .path(path)
            .remote_addr(([10, 9, 9, 9], 40000).into())
            .header("authorization", format!("Bearer {token}"));
        if let Some(body) = body {
            req = req.json(&body);
        }
        req.reply(&self.app).await
    }

    /// The JSON body of a response.
    pub fn json(res: &Response<Bytes>) -> Value {
        serde_json::from_slice(res.body()).unwrap_or_else(|_| panic!("not JSON: {:?}", res.body()))
    }

    /// Runs SQL against the database (for arranging tests).
    pub async fn exec(&self, sql: &'static str) {
        self.db
            .write(move |tx| tx.execute_batch(sql))
            .await
            .unwrap();
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

/// Every admin route (method, path with sample ids) but the sign-in itself.
pub const ADMIN_ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/admin/logout"),
    ("POST", "/api/admin/broadcasts/preview"),
    ("POST", "/api/admin/broadcasts/test"),
    ("POST", "/api/admin/broadcasts"),
    ("GET", "/api/admin/broadcasts"),
    ("GET", "/api/admin/broadcasts/1"),
    ("GET", "/api/admin/broadcasts/1/recipients"),
    ("POST", "/api/admin/broadcasts/1/retry"),
    ("POST", "/api/admin/broadcasts/1/send"),
    ("POST", "/api/admin/broadcasts/1/cancel"),
    ("GET", "/api/admin/suppressions"),
    ("POST", "/api/admin/suppressions"),
    ("POST", "/api/admin/suppressions/lift"),
    ("GET", "/api/admin/contacts"),
    ("GET", "/api/admin/contacts/export"),
    ("DELETE", "/api/admin/contacts/1"),
    ("GET", "/api/admin/volunteers"),
    ("GET", "/api/admin/volunteers/export"),
    ("DELETE", "/api/admin/volunteers/1"),
    ("GET", "/api/admin/newsletters"),
    ("GET", "/api/admin/newsletters/export"),
    ("DELETE", "/api/admin/newsletters/1"),
    ("GET", "/api/admin/donations"),
    ("GET", "/api/admin/donations/export"),
    ("POST", "/api/admin/donations/1/refund"),
    ("GET", "/api/admin/donations/attention"),
    ("GET", "/api/admin/donations/schedule-a"),
    ("GET", "/api/admin/donations/schedule-b"),
    ("GET", "/api/admin/plans"),
    ("GET", "/api/admin/plans/export"),
    ("POST", "/api/admin/plans/1/cancel"),
    ("POST", "/api/admin/erase"),
    ("GET", "/api/admin/people"),
    ("GET", "/api/admin/people/1"),
    ("GET", "/api/admin/people/1/export"),
    ("POST", "/api/admin/people/1/merge"),
    ("POST", "/api/admin/people/merges/1/undo"),
    ("POST", "/api/admin/people/1/erase"),
    ("GET", "/api/admin/contributors/matches"),
    ("POST", "/api/admin/contributors/matches"),
    ("POST", "/api/admin/sms-opt-outs"),
    ("POST", "/api/admin/sms-opt-ins"),
    ("GET", "/api/admin/mail"),
    ("GET", "/api/admin/deploy"),
    ("GET", "/api/admin/site-status"),
    ("POST", "/api/admin/deploy/retry"),
    ("GET", "/api/admin/events"),
    ("POST", "/api/admin/events/upload-image"),
    ("POST", "/api/admin/events"),
    ("GET", "/api/admin/events/1"),
    ("PUT", "/api/admin/events/1"),
    ("DELETE", "/api/admin/events/1"),
    ("POST", "/api/admin/events/1/publish"),
    ("POST", "/api/admin/events/1/cancel"),
    ("GET", "/api/admin/events/1/rsvps"),
    ("GET", "/api/admin/events/1/rsvps/export"),
    ("PUT", "/api/admin/events/1/rsvps/1/attended"),
    ("GET", "/api/admin/blogs"),
    ("GET", "/api/admin/blogs/export"),
    ("POST", "/api/admin/blogs"),
    ("POST", "/api/admin/blogs/upload-image"),
    ("GET", "/api/admin/blogs/slug"),
    ("POST", "/api/admin/blogs/preview"),
    ("POST", "/api/admin/blogs/1/preview"),
    ("GET", "/api/admin/blogs/1"),
    ("PATCH", "/api/admin/blogs/1"),
    ("POST", "/api/admin/blogs/1/publish"),
    ("POST", "/api/admin/blogs/1/schedule"),
    ("POST", "/api/admin/blogs/1/unschedule"),
    ("GET", "/api/admin/blogs/1/revisions"),
    ("GET", "/api/admin/blogs/1/revisions/1"),
    ("POST", "/api/admin/blogs/1/revisions/1/restore"),
    ("DELETE", "/api/admin/blogs/1"),
    ("GET", "/api/admin/me"),
    ("GET", "/api/admin/security"),
    ("POST", "/api/admin/security/totp"),
    ("POST", "/api/admin/security/totp/confirm"),
    ("DELETE", "/api/admin/security/totp"),
    ("POST", "/api/admin/security/recovery-codes"),
    ("POST", "/api/admin/security/passkeys/options"),
    ("POST", "/api/admin/security/passkeys"),
    ("DELETE", "/api/admin/security/passkeys/1"),
    ("POST", "/api/admin/security/password"),
    ("POST", "/api/admin/security/confirm"),
    ("POST", "/api/admin/security/sign-out-everywhere"),
    ("GET", "/api/admin/users"),
    ("POST", "/api/admin/invitations"),
    ("POST", "/api/admin/invitations/1/resend"),
    ("DELETE", "/api/admin/invitations/1"),
    ("PATCH", "/api/admin/users/1"),
    ("POST", "/api/admin/users/1/deactivate"),
    ("POST", "/api/admin/users/1/reactivate"),
    ("POST", "/api/admin/users/1/reset-factors"),
    ("GET", "/api/admin/users/1/sessions"),
    ("POST", "/api/admin/users/1/sign-out-everywhere"),
    ("GET", "/api/admin/service-tokens"),
    ("POST", "/api/admin/service-tokens"),
    ("DELETE", "/api/admin/service-tokens/1"),
    ("GET", "/api/admin/audit"),
    ("GET", "/api/admin/audit/export"),
];
