//! The pages the server draws in the site's own layout (the generator's notice shell) from
//! the links in its mail: the newsletter's confirm and unsubscribe pages, a monthly gift's
//! cancel page, a donor's sign-out page.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use generator::notices;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;

use crate::domain::clock::Clock;
use crate::domain::mail::Mail;
use crate::store::db::Db;

/// What the pages a mailed link opens need, and all they get: the database, the time, the
/// mail (its texts, its tokens, its queue) and the built site whose shell they are drawn in.
#[derive(Clone)]
pub struct Links {
    pub db: Db,
    pub clock: Arc<Clock>,
    pub mail: Arc<Mail>,
    pub dist: Arc<PathBuf>,
}

/// Used when the built site has no notice shell (a broken deploy): the words still reach the
/// visitor, without the site around them.
const BARE_SHELL: &str = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
    <meta name=\"robots\" content=\"noindex\"><title>__NOTICE_TITLE__</title></head>\
    <body><main><h1>__NOTICE_TITLE__</h1><!--notice--></main></body></html>\n";

/// A page in the site's layout (the notice shell in `dist`) with `title`, `paragraphs` and
/// an optional one-button form, the texts filled in with the party's name. `no-store` and
/// `noindex`: its address holds a personal link.
pub(crate) async fn page(
    mail: &Mail,
    dist: &Path,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    let shell_path = dist.join(notices::NOTICE_SHELL);
    let shell = match tokio::fs::read_to_string(&shell_path).await {
        Ok(shell) => shell,
        Err(e) => {
            tracing::error!(file = %shell_path.display(), error = %e, "the notice page's shell is missing; run `just build`");
            BARE_SHELL.to_owned()
        }
    };
    let title = mail.fill(title, &[]);
    let paragraphs: Vec<String> = paragraphs.iter().map(|p| mail.fill(p, &[])).collect();
    let paragraphs: Vec<&str> = paragraphs.iter().map(String::as_str).collect();
    let button = button.map(|(action, label)| (action, mail.fill(label, &[])));
    let html = notices::fill_notice(
        &shell,
        &title,
        &paragraphs,
        button
            .as_ref()
            .map(|(action, label)| (*action, label.as_str())),
    );
    let mut res = Response::new(html.into());
    *res.status_mut() = status;
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    res
}

/// The page for a link that could not be looked up (the cause is logged, never shown).
pub(crate) async fn failed(
    mail: &Mail,
    dist: &Path,
    what: &str,
    e: &crate::store::error::Error,
) -> Response {
    tracing::error!(error = %e, "{what} could not be looked up");
    page(
        mail,
        dist,
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong",
        &["Please try again in a minute."],
        None,
    )
    .await
}
