//! What every public form post shares: a same-origin check, a body within the size limit,
//! the form's field rules, the honeypot and the per-address rate limit.
//!
//! A form takes two encodings. The islands send JSON and get JSON back (`{success,
//! message}`, or `{message}` with a 4xx). A browser without JavaScript (or a click before
//! the island hydrated) posts `application/x-www-form-urlencoded`; that gets `303 See Other`
//! to the form's thank-you page, or to a page that shows the refusal with the visitor's
//! input kept (see `form_problems`).

use std::future::Future;
use std::net::IpAddr;

use bytes::Bytes;
use generator::form_pages::{self, BACK_FIELD, Problem};
use generator::forms::{self, Form, Values};
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::{StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use std::sync::Arc;

use crate::http::error::ApiError;
use crate::http::filters::{FORM_BODY_LIMIT, client_ip, limited_body, request_host, same_origin};
use crate::http::proxy::ProxyTrust;
use crate::http::rate_limit::FormLimiter;
use crate::pages::form_problems::FormProblems;
use crate::state::AppState;

/// What every form post passes before its store function runs: where it really came from,
/// the per-address limit, and where a refused no-script post is kept to be shown.
#[derive(Clone)]
pub struct Gate {
    trust_proxy: ProxyTrust,
    limiter: Arc<FormLimiter>,
    problems: Arc<FormProblems>,
}

impl Gate {
    pub fn of(state: &AppState) -> Gate {
        Gate {
            trust_proxy: state.config.trust_proxy.clone(),
            limiter: state.form_limiter.clone(),
            problems: state.form_problems.clone(),
        }
    }
}

/// The two encodings a form post may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Json,
    UrlEncoded,
}

impl Encoding {
    fn of(content_type: Option<&str>) -> Result<Encoding, ApiError> {
        let mime = content_type
            .and_then(|c| c.split(';').next())
            .map(str::trim)
            .unwrap_or("");
        if mime.eq_ignore_ascii_case("application/json") {
            Ok(Encoding::Json)
        } else if mime.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
            Ok(Encoding::UrlEncoded)
        } else {
            Err(ApiError::UnsupportedMediaType(
                "Send the form as JSON (Content-Type: application/json) or as an HTML form post."
                    .into(),
            ))
        }
    }
}

/// Who sent a post, as far as the server can tell: kept only where the law wants evidence
/// (a ticked box agreeing to texts).
#[derive(Debug, Clone)]
pub struct Submitter {
    pub ip: IpAddr,
    pub user_agent: Option<String>,
}

/// One form post, as the route reads it.
struct Post {
    ip: IpAddr,
    user_agent: Option<String>,
    encoding: Encoding,
    /// The page the visitor posted from, when it is on this site.
    back: Option<String>,
    body: Result<Bytes, ApiError>,
}

/// What a stored submission is answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accepted {
    /// Whether it made a new record (`201` rather than `200`).
    pub created: bool,
    /// The JSON answer's `message` (the form's success title when `None`).
    pub message: Option<&'static str>,
    /// Where a post without JavaScript goes (the form's thank-you page when `None`).
    pub page: Option<&'static str>,
}

impl From<bool> for Accepted {
    fn from(created: bool) -> Accepted {
        Accepted {
            created,
            message: None,
            page: None,
        }
    }
}

/// `POST {form.action}` for a public form: checks the submission with `form`'s rules and
/// passes it, with `context`, to `store`, which says how to answer (whether it made a new
/// record, or an [`Accepted`]). A bot caught by the honeypot is answered like anyone else
/// but never reaches `store`.
pub fn form_route<C, F, Fut, R>(
    form: Form,
    gate: Gate,
    context: C,
    store: F,
) -> BoxedFilter<(Response,)>
where
    C: Clone + Send + Sync + 'static,
    F: Fn(C, Values, Submitter) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ApiError>> + Send + 'static,
    R: Into<Accepted>,
{
    let path = form
        .action
        .strip_prefix("/api/")
        .expect("form actions are under /api/");
    let trust_proxy = gate.trust_proxy.clone();
    // The whole rest of the path, which may have several segments (`events/rsvp`).
    warp::path::tail()
        .and_then(move |tail: warp::path::Tail| async move {
            if tail.as_str() == path {
                Ok(())
            } else {
                Err(warp::reject::not_found())
            }
        })
        .untuple_one()
        .and(warp::post())
        .and(same_origin(trust_proxy.clone()))
        .and(post(trust_proxy.clone()))
        .and_then(move |post: Post| {
            let (gate, context, store) = (gate.clone(), context.clone(), store.clone());
            async move {
                let encoding = post.encoding;
                let back = post.back.clone();
                let outcome = submit(&form, &gate.limiter, post, || context, store).await;
                Ok::<_, Rejection>(match encoding {
                    Encoding::Json => match outcome {
                        Ok(done) => accepted(
                            done.created,
                            done.message.unwrap_or(form.texts.success_title),
                        ),
                        Err(refusal) => return Err(Rejection::from(refusal.error)),
                    },
                    Encoding::UrlEncoded => match outcome {
                        Ok(done) => see_other(
                            &done
                                .page
                                .map(str::to_owned)
                                .unwrap_or_else(|| form_pages::thank_you_url(&form)),
                        ),
                        Err(refusal) => {
                            let back = refusal
                                .back
                                .clone()
                                .or(back)
                                .unwrap_or_else(|| form.home.to_owned());
                            let id = gate.problems.keep(&form, refusal.problem(back));
                            see_other(&form_pages::problem_url(&form, &id))
                        }
                    },
                })
            }
        })
        .boxed()
}

/// Reads the parts of a post the route needs; an encoding we do not take is refused here.
fn post(trust_proxy: ProxyTrust) -> impl Filter<Extract = (Post,), Error = Rejection> + Clone {
    client_ip(trust_proxy.clone())
        .and(warp::header::optional::<String>("content-type"))
        .and(warp::header::optional::<String>("referer"))
        .and(warp::header::optional::<String>("user-agent"))
        .and(request_host(trust_proxy.clone()))
        .and(limited_body(FORM_BODY_LIMIT))
        .and_then(
            |ip,
             content_type: Option<String>,
             referer: Option<String>,
             user_agent: Option<String>,
             host: Option<String>,
             body| async move {
                let encoding = Encoding::of(content_type.as_deref()).map_err(Rejection::from)?;
                let back = back_path(referer.as_deref(), host.as_deref());
                Ok::<_, Rejection>(Post {
                    ip,
                    user_agent,
                    encoding,
                    back,
                    body,
                })
            },
        )
}

/// Why a post was refused, with what is needed to show it again without JavaScript.
struct Refusal {
    error: ApiError,
    field: Option<&'static str>,
    /// What the visitor typed, when the body could be read.
    values: Vec<(String, String)>,
    /// The page a second attempt came from (the problem page's hidden field).
    back: Option<String>,
}

impl Refusal {
    fn new(error: ApiError) -> Refusal {
        Refusal {
            error,
            field: None,
            values: Vec::new(),
            back: None,
        }
    }

    fn problem(self, back: String) -> Problem {
        let message = match &self.error {
            ApiError::Internal(_) => {
                "Something went wrong on our side and your details were not saved. Please try again."
                    .to_owned()
            }
            other => other.to_string(),
        };
        if let ApiError::Internal(cause) = &self.error {
            tracing::error!(error = %format!("{cause:#}"), "form post failed");
        }
        Problem {
            message,
            field: self.field,
            values: self.values,
            back,
        }
    }
}

/// Checks a post and stores it; `Ok(answer)` once it is safe in the database.
async fn submit<C, F, Fut, R>(
    form: &Form,
    limiter: &FormLimiter,
    post: Post,
    context: impl FnOnce() -> C,
    store: F,
) -> Result<Accepted, Refusal>
where
    F: Fn(C, Values, Submitter) -> Fut,
    Fut: Future<Output = Result<R, ApiError>>,
    R: Into<Accepted>,
{
    let bytes = post.body.map_err(Refusal::new)?;
    let (body, values, back) = match post.encoding {
        Encoding::Json => {
            let body = serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|_| {
                Refusal::new(ApiError::BadRequest(
                    "The request body is not valid JSON.".into(),
                ))
            })?;
            (body, Vec::new(), None)
        }
        Encoding::UrlEncoded => {
            let pairs: Vec<(String, String)> =
                serde_urlencoded::from_bytes(&bytes).map_err(|_| {
                    Refusal::new(ApiError::BadRequest(
                        "The form could not be read. Please try again.".into(),
                    ))
                })?;
            let back = pairs
                .iter()
                .rev()
                .find(|(k, _)| k == BACK_FIELD)
                .map(|(_, v)| v.clone())
                .filter(|v| form_pages::is_local_path(v));
            // Like the islands' JSON: one string per field, the last one if sent twice. The
            // problem page's way back is the page's own, not a field of the form.
            let object: serde_json::Map<String, serde_json::Value> = pairs
                .iter()
                .filter(|(k, _)| k != BACK_FIELD)
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            (serde_json::Value::Object(object), pairs, back)
        }
    };
    let refuse = |error: ApiError, field: Option<&'static str>| Refusal {
        error,
        field,
        values: values.clone(),
        back: back.clone(),
    };
    let checked = form
        .parse(&body)
        .map_err(|invalid| refuse(ApiError::BadRequest(invalid.message), invalid.field))?;
    // Only checked posts count, so a visitor fixing a typo is not locked out.
    if !limiter.allow(form.slug, post.ip) {
        tracing::warn!(ip = %post.ip, form = form.slug, "rate limit reached");
        return Err(refuse(ApiError::TooManyRequests, None));
    }
    if forms::is_bot(&body) {
        tracing::info!(ip = %post.ip, form = form.slug, "honeypot filled; not stored");
        return Ok(true.into());
    }
    let submitter = Submitter {
        ip: post.ip,
        user_agent: post.user_agent,
    };
    store(context(), checked, submitter)
        .await
        .map(Into::into)
        .map_err(|error| refuse(error, None))
}

/// The path of `referer` when it is a page on this site (and not one of the form result
/// pages), for the "back" link of a problem page.
fn back_path(referer: Option<&str>, host: Option<&str>) -> Option<String> {
    let (_, rest) = referer?.split_once("://")?;
    let (authority, path) = rest.split_at(rest.find('/')?);
    let path = path.split('#').next().unwrap_or(path);
    (host.is_some_and(|h| h.eq_ignore_ascii_case(authority))
        && form_pages::is_local_path(path)
        && !path.starts_with("/forms/"))
    .then(|| path.to_owned())
}

/// The JSON reply to a stored (or quietly dropped) submission.
fn accepted(created: bool, message: &str) -> Response {
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    warp::reply::with_status(
        warp::reply::json(&json!({ "success": true, "message": message })),
        status,
    )
    .into_response()
}

/// `303 See Other` to a page on this site: the browser follows it with a GET.
fn see_other(location: &str) -> Response {
    let mut res = Response::new(Default::default());
    *res.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(value) = header::HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_links_come_only_from_this_sites_pages() {
        let host = Some("party.example");
        assert_eq!(
            back_path(Some("https://party.example/join#signup"), host).as_deref(),
            Some("/join")
        );
        assert_eq!(
            back_path(Some("http://party.example/"), host).as_deref(),
            Some("/")
        );
        assert_eq!(back_path(Some("https://evil.example/join"), host), None);
        assert_eq!(
            back_path(Some("https://party.example/forms/contact/problem/1"), host),
            None
        );
        assert_eq!(back_path(Some("https://party.example"), host), None);
        assert_eq!(back_path(None, host), None);
        assert_eq!(back_path(Some("https://party.example/join"), None), None);
    }

    #[test]
    fn encodings_by_content_type() {
        assert_eq!(
            Encoding::of(Some("application/json; charset=utf-8")).unwrap(),
            Encoding::Json
        );
        assert_eq!(
            Encoding::of(Some("application/x-www-form-urlencoded")).unwrap(),
            Encoding::UrlEncoded
        );
        assert!(Encoding::of(Some("multipart/form-data; boundary=x")).is_err());
        assert!(Encoding::of(Some("text/plain")).is_err());
        assert!(Encoding::of(None).is_err());
    }
}
