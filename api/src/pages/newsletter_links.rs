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
use warp::http::StatusCode;
use warp::reply::Response;

use super::notice::Links;
use crate::domain::mail::newsletter;
use crate::domain::mail::tokens::Confirm;

/// A token is an id, an expiry and 32 hex digits; anything much longer is not one.
const MAX_TOKEN: usize = 100;

pub fn routes(state: Links) -> BoxedFilter<(Response,)> {
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
async fn show_confirm(links: Links, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let checked = if token.len() > MAX_TOKEN {
        Ok(Confirm::Invalid)
    } else {
        let t = token.clone();
        links
            .db
            .read(move |c| newsletter::check_confirm(&mail, c, &t, now))
            .await
    };
    let p = &links.mail.texts.pages;
    match checked {
        Ok(Confirm::Valid) => {
            let consent = links
                .mail
                .fill(&links.mail.texts.newsletter.consent_text, &[]);
            page(
                &links,
                StatusCode::OK,
                &p.confirm_title,
                &[&p.confirm_intro, &consent],
                Some((&format!("/newsletter/confirm/{token}"), &p.confirm_button)),
            )
            .await
        }
        other => link_problem(&links, other.map(|c| c == Confirm::Expired)).await,
    }
}

/// POST /newsletter/confirm/{token}
async fn confirm(links: Links, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let done = if token.len() > MAX_TOKEN {
        Ok(Confirm::Invalid)
    } else {
        links
            .db
            .write(move |tx| newsletter::confirm(&mail, tx, &token, now))
            .await
    };
    let p = &links.mail.texts.pages;
    match done {
        Ok(Confirm::Valid) => {
            links.mail.wake();
            page(
                &links,
                StatusCode::OK,
                &p.confirmed_title,
                &[&p.confirmed_text],
                None,
            )
            .await
        }
        other => link_problem(&links, other.map(|c| c == Confirm::Expired)).await,
    }
}

/// GET /newsletter/unsubscribe/{token}
async fn show_unsubscribe(links: Links, token: String) -> Response {
    let mail = links.mail.clone();
    let good = if token.len() > MAX_TOKEN {
        Ok(false)
    } else {
        let t = token.clone();
        links
            .db
            .read(move |c| newsletter::check_unsubscribe(&mail, c, &t))
            .await
    };
    let p = &links.mail.texts.pages;
    match good {
        Ok(true) => {
            page(
                &links,
                StatusCode::OK,
                &p.unsubscribe_title,
                &[&p.unsubscribe_intro],
                Some((
                    &format!("/newsletter/unsubscribe/{token}"),
                    &p.unsubscribe_button,
                )),
            )
            .await
        }
        other => link_problem(&links, other.map(|_| false)).await,
    }
}

/// POST /newsletter/unsubscribe/{token}: the page's button, or one-click (RFC 8058).
async fn unsubscribe(links: Links, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let done = if token.len() > MAX_TOKEN {
        Ok(false)
    } else {
        links
            .db
            .write(move |tx| newsletter::unsubscribe(&mail, tx, &token, now))
            .await
    };
    let p = &links.mail.texts.pages;
    match done {
        Ok(true) => {
            page(
                &links,
                StatusCode::OK,
                &p.unsubscribed_title,
                &[&p.unsubscribed_text],
                None,
            )
            .await
        }
        other => link_problem(&links, other.map(|_| false)).await,
    }
}

/// The page for a link that is expired (`Ok(true)`), not valid (`Ok(false)`), or could not
/// be looked at.
async fn link_problem(
    links: &Links,
    expired: Result<bool, crate::store::error::Error>,
) -> Response {
    let p = &links.mail.texts.pages;
    match expired {
        Ok(true) => {
            page(
                links,
                StatusCode::GONE,
                &p.expired_title,
                &[&p.expired_text],
                None,
            )
            .await
        }
        Ok(false) => {
            page(
                links,
                StatusCode::NOT_FOUND,
                &p.invalid_title,
                &[&p.invalid_text],
                None,
            )
            .await
        }
        Err(e) => super::notice::failed(&links.mail, &links.dist, "a newsletter link", &e).await,
    }
}

/// A page in the site's layout with `title`, `paragraphs` and an optional one-button form.
async fn page(
    links: &Links,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    super::notice::page(&links.mail, &links.dist, status, title, paragraphs, button).await
}
