//! `/donate/history/sign-out/{token}`: the page every receipt's "stop showing my giving"
//! link opens, working without signing in and without JavaScript. GET shows one button (mail
//! scanners fetch links and must not act); its POST moves the donor's pass epoch on, so every
//! browser that held their pass, and every history link already mailed, shows nothing more
//! (see `domain::donations::donor_pass`). A bad link is `404`.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::notice::Links;
use crate::domain::donations::donor_pass;
use crate::http::redact::email as masked;

/// A sign-out token is an address in base64 and 32 hex digits; anything much longer is not.
const MAX_TOKEN: usize = 400;

pub fn routes(links: Links) -> BoxedFilter<(Response,)> {
    let show = warp::path!("donate" / "history" / "sign-out" / String)
        .and(warp::get())
        .then({
            let links = links.clone();
            move |token| show(links.clone(), token)
        });
    let sign_out = warp::path!("donate" / "history" / "sign-out" / String)
        .and(warp::post())
        .then(move |token| sign_out(links.clone(), token));
    show.or(sign_out).unify().boxed()
}

/// The address `token` signs out, if it is a good link.
fn email_of(links: &Links, token: &str) -> Option<String> {
    (token.len() <= MAX_TOKEN)
        .then(|| links.mail.tokens.open_donor_sign_out(token))
        .flatten()
}

/// GET: the one button.
async fn show(links: Links, token: String) -> Response {
    let p = &links.mail.texts.pages;
    if email_of(&links, &token).is_none() {
        return invalid(&links).await;
    }
    let action = format!("/donate/history/sign-out/{token}");
    page(
        &links,
        StatusCode::OK,
        &p.sign_out_title,
        &[&p.sign_out_intro],
        Some((&action, &p.sign_out_button)),
    )
    .await
}

/// POST: signs every browser out.
async fn sign_out(links: Links, token: String) -> Response {
    let Some(email) = email_of(&links, &token) else {
        return invalid(&links).await;
    };
    let key = links.mail.tokens.key_of(donor_pass::KEY_PURPOSE, &email);
    let done = links
        .db
        .write(move |tx| donor_pass::sign_out_everywhere(tx, &key))
        .await;
    match done {
        Ok(()) => {
            tracing::info!(email = %masked(&email), "a donor signed their browsers out of their giving");
            let p = &links.mail.texts.pages;
            page(
                &links,
                StatusCode::OK,
                &p.signed_out_title,
                &[&p.signed_out_text],
                None,
            )
            .await
        }
        Err(e) => {
            super::notice::failed(&links.mail, &links.dist, "a donor's sign-out link", &e).await
        }
    }
}

async fn invalid(links: &Links) -> Response {
    let p = &links.mail.texts.pages;
    page(
        links,
        StatusCode::NOT_FOUND,
        &p.invalid_title,
        &[&p.invalid_text],
        None,
    )
    .await
}

async fn page(
    links: &Links,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    super::notice::page(&links.mail, &links.dist, status, title, paragraphs, button).await
}
