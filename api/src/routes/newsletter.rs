//! The newsletter signup.

use std::sync::Arc;

use generator::content::TextConsent;
use generator::forms::{self, Values};
use warp::filters::BoxedFilter;
use warp::reply::Response;

use super::submission::{Gate, Submitter, form_route};
use crate::domain::mail::newsletter;
use crate::domain::sms_consent::{self, Grant};
use crate::http::error::ApiError;
use crate::state::{AppState, Desk};

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let context = (state.desk(), state.texts_consent.clone());
    form_route(forms::NEWSLETTER, Gate::of(&state), context, signup)
}

/// POST /api/newsletter-signup `{email, phone, zipCode, smsConsent?}`. A ticked box to get
/// texts records consent for the number given, with where it came from and the words shown,
/// whether or not the address is new (a number agrees, not an address), unless the number
/// said stop: only staff can record its consent again. A new e-mail is stored as pending
/// and sent a link to confirm; a known one keeps its details (and, unless confirmed, gets
/// a new link, at most three a day). Every signup is answered alike (status, body and,
/// since each commits a write, time), so the form cannot tell a stranger whether someone
/// subscribed, nor let one change a subscriber's phone or ZIP.
async fn signup(
    (desk, words): (Desk, Arc<TextConsent>),
    values: Values,
    from: Submitter,
) -> Result<bool, ApiError> {
    let email = values.required("email");
    let phone = values.get("phone").map(str::to_owned);
    let zip = values.required("zipCode");
    let texts = values.get("smsConsent").is_some();
    let (mail, now) = (desk.mail.clone(), desk.clock.now());
    // Keyed, like every stored network: the table holds no one's address.
    let network = mail.tokens.key_of(
        "confirm-network",
        &crate::http::network::network_of(from.ip).to_string(),
    );
    desk.db
        .write(move |tx| {
            newsletter::sign_up(tx, &email, phone.as_deref(), &zip, &network, now)?;
            if let (true, Some(phone)) = (texts, phone.as_deref()) {
                let phone_key = |e164: &str| mail.tokens.key_of(sms_consent::KEY_PURPOSE, e164);
                // A number that said stop is not taken back by a ticked box (nothing is
                // recorded then; the answer is the same).
                sms_consent::grant(
                    tx,
                    &Grant {
                        phone,
                        email: &email,
                        phone_key: &phone_key,
                        form: forms::NEWSLETTER.slug,
                        ip: from.ip,
                        user_agent: from.user_agent.as_deref(),
                        words: &words,
                        at: now,
                    },
                )?;
            }
            Ok(())
        })
        .await?;
    // Woken either way: whether a mail was queued must not show in the timing.
    desk.mail.wake();
    // "Created" either way: the answer must not say which it was.
    Ok(true)
}
