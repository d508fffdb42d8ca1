//! The pages the newsletter's mail links open, working without JavaScript and without
//! signing in:
//!
//! - `/newsletter/confirm/{token}`: GET shows a Confirm button (mail scanners fetch links,
//!   and must not confirm anything); its POST confirms.
//! - `/newsletter/unsubscribe/{token}`: GET shows an Unsubscribe button; a POST, from that
//!   button or a mail client's one-click unsubscribe (RFC 8058), unsubscribes.
//!
//! Every answer is `no-store` and `noindex`: the address holds a personal link.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;

use crate::domain::mail::Mail;
use crate::domain::mail::message::escape;
use crate::domain::mail::newsletter;
use crate::domain::mail::tokens::Confirm;
use crate::http::error::ApiError;
use crate::state::{AppState, Desk};

/// A token is an id, an expiry and 32 hex digits; anything much longer is not one.
const MAX_TOKEN: usize = 100;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let state = state.desk();
    let confirm_page = warp::path!("newsletter" / "confirm" / String)
        .and(warp::get())
        .then({
            let state = state.clone();
            move |token| show_confirm(state.clone(), token)
        });
    let confirm = warp::path!("newsletter" / "confirm" / String)
        .and(warp::post())
        .then({
            let state = state.clone();
            move |token| confirm(state.clone(), token)
        });
    let unsubscribe_page = warp::path!("newsletter" / "unsubscribe" / String)
        .and(warp::get())
        .then({
            let state = state.clone();
            move |token| show_unsubscribe(state.clone(), token)
        });
    let unsubscribe = warp::path!("newsletter" / "unsubscribe" / String)
        .and(warp::post())
        .then(move |token| unsubscribe(state.clone(), token));
    confirm_page
        .or(confirm)
        .unify()
        .or(unsubscribe_page)
        .unify()
        .or(unsubscribe)
        .unify()
        .boxed()
}

/// GET /newsletter/confirm/{token}
async fn show_confirm(state: Desk, token: String) -> Response {
    let (mail, now) = (state.mail.clone(), state.clock.now());
    let checked = if token.len() > MAX_TOKEN {
        Ok(Confirm::Invalid)
    } else {
        let t = token.clone();
        state
            .db
            .read(move |c| newsletter::check_confirm(&mail, c, &t, now))
            .await
    };
    let p = &state.mail.texts.pages;
    match checked {
        Ok(Confirm::Valid) => {
            let consent = state
                .mail
                .fill(&state.mail.texts.newsletter.consent_text, &[]);
            page(
                &state.mail,
                StatusCode::OK,
                &p.confirm_title,
                &[&p.confirm_intro, &consent],
                Some((&format!("/newsletter/confirm/{token}"), &p.confirm_button)),
            )
        }
        other => link_problem(&state.mail, other.map(|c| c == Confirm::Expired)),
    }
}

/// POST /newsletter/confirm/{token}
async fn confirm(state: Desk, token: String) -> Response {
    let (mail, now) = (state.mail.clone(), state.clock.now());
    let done = if token.len() > MAX_TOKEN {
        Ok(Confirm::Invalid)
    } else {
        state
            .db
            .write(move |tx| newsletter::confirm(&mail, tx, &token, now))
            .await
    };
    let p = &state.mail.texts.pages;
    match done {
        Ok(Confirm::Valid) => {
            state.mail.wake();
            page(
                &state.mail,
                StatusCode::OK,
                &p.confirmed_title,
                &[&p.confirmed_text],
                None,
            )
        }
        other => link_problem(&state.mail, other.map(|c| c == Confirm::Expired)),
    }
}

/// GET /newsletter/unsubscribe/{token}
async fn show_unsubscribe(state: Desk, token: String) -> Response {
    let mail = state.mail.clone();
    let good = if token.len() > MAX_TOKEN {
        Ok(false)
    } else {
        let t = token.clone();
        state
            .db
            .read(move |c| newsletter::check_unsubscribe(&mail, c, &t))
            .await
    };
    let p = &state.mail.texts.pages;
    match good {
        Ok(true) => page(
            &state.mail,
            StatusCode::OK,
            &p.unsubscribe_title,
            &[&p.unsubscribe_intro],
            Some((
                &format!("/newsletter/unsubscribe/{token}"),
                &p.unsubscribe_button,
            )),
        ),
        other => link_problem(&state.mail, other.map(|_| false)),
    }
}

/// POST /newsletter/unsubscribe/{token}: the page's button, or one-click (RFC 8058).
async fn unsubscribe(state: Desk, token: String) -> Response {
    let (mail, now) = (state.mail.clone(), state.clock.now());
    let done = if token.len() > MAX_TOKEN {
        Ok(false)
    } else {
        state
            .db
            .write(move |tx| newsletter::unsubscribe(&mail, tx, &token, now))
            .await
    };
    let p = &state.mail.texts.pages;
    match done {
        Ok(true) => page(
            &state.mail,
            StatusCode::OK,
            &p.unsubscribed_title,
            &[&p.unsubscribed_text],
            None,
        ),
        other => link_problem(&state.mail, other.map(|_| false)),
    }
}

/// The page for a link that is expired (`Ok(true)`), not valid (`Ok(false)`), or could not
/// be looked at.
fn link_problem(mail: &Mail, expired: Result<bool, ApiError>) -> Response {
    let p = &mail.texts.pages;
    match expired {
        Ok(true) => page(
            mail,
            StatusCode::GONE,
            &p.expired_title,
            &[&p.expired_text],
            None,
        ),
        Ok(false) => page(
            mail,
            StatusCode::NOT_FOUND,
            &p.invalid_title,
            &[&p.invalid_text],
            None,
        ),
        Err(e) => {
            tracing::error!(error = %e, "a newsletter link could not be looked up");
            page(
                mail,
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                &["Please try again in a minute."],
                None,
            )
        }
    }
}

/// A small page of its own (no scripts, no tracking), with an optional one-button form.
fn page(
    mail: &Mail,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    let party = escape(&mail.party);
    let title = escape(&mail.fill(title, &[]));
    let mut body = String::new();
    for p in paragraphs {
        body.push_str(&format!("<p>{}</p>\n", escape(&mail.fill(p, &[]))));
    }
    if let Some((action, label)) = button {
        body.push_str(&format!(
            "<form method=\"post\" action=\"{}\"><button type=\"submit\">{}</button></form>\n",
            escape(action),
            escape(&mail.fill(label, &[]))
        ));
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title} | {party}</title>\
         <style>body{{font-family:system-ui,sans-serif;line-height:1.5;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937}}\
         button{{font:inherit;font-weight:600;padding:.6rem 1.4rem;border:0;border-radius:.4rem;background:#1e3a8a;color:#fff;cursor:pointer}}\
         button:focus-visible{{outline:3px solid #f59e0b;outline-offset:2px}}a{{color:#1e3a8a}}</style></head>\n\
         <body><header><a href=\"/\">{party}</a></header><main><h1>{title}</h1>\n{body}</main></body></html>\n"
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
