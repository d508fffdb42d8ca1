//! Where a public form lands when it is posted as plain HTML (JavaScript off, or a click
//! before the island hydrated). The server answers such a post with `303 See Other`:
//!
//! - on success, to `/forms/{slug}/thank-you`, a static page the generator writes;
//! - on failure, to `/forms/{slug}/problem/{id}`, which the api renders from a shell the
//!   generator writes (the site's layout with [`PROBLEM_MARKER`] where the content goes)
//!   and [`problem_html`]: the failure text, the form again with the visitor's input kept,
//!   and a link back.
//!
//! Both use the texts and field rules of `forms`, so they say exactly what the islands say.

use crate::content::TextConsent;
use crate::forms::{Field, Form, HONEYPOT, Kind, TICKED};
use crate::templates::attr;

/// Replaced by the api with [`problem_html`] or [`expired_html`].
pub const PROBLEM_MARKER: &str = "<!--form-problem-->";

/// The thank-you page of `form`.
pub fn thank_you_url(form: &Form) -> String {
    format!("/forms/{}/thank-you", form.slug)
}

/// A problem page of `form`; `id` names one refused submission.
pub fn problem_url(form: &Form, id: &str) -> String {
    format!("/forms/{}/problem/{id}", form.slug)
}

/// The problem page's shell in the output folder. A hidden path: the static server refuses
/// to serve it, so only the api's filled-in page is ever seen.
pub fn problem_shell(form: &Form) -> String {
    format!(".forms/{}-problem.html", form.slug)
}

/// The name of the hidden field that carries the visitor's page through a second attempt.
pub const BACK_FIELD: &str = "_back";

/// A refused submission, as the problem page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The sentence to show (the JSON reply's `message`).
    pub message: String,
    /// The field the message is about, marked invalid and focused.
    pub field: Option<&'static str>,
    /// What the visitor typed, by field name, exactly as sent.
    pub values: Vec<(String, String)>,
    /// The page to go back to: a path on this site.
    pub back: String,
}

/// Whether `path` is safe as a "back" link: a path on this site, not another origin.
pub fn is_local_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && path.len() <= 300
        && !path.chars().any(|c| c == '\\' || c.is_control())
}

/// The content of a problem page: the failure text as an alert, the form with the
/// visitor's input, and a link back to where they were. `texts` is what a box to agree to
/// texts says (the newsletter form's), as the island shows it.
pub fn problem_html(form: &Form, problem: &Problem, texts: Option<&TextConsent>) -> String {
    let value_of = |name: &str| {
        problem
            .values
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map_or(String::new(), |(_, v)| v.clone())
    };
    let back = if is_local_path(&problem.back) {
        problem.back.as_str()
    } else {
        form.home
    };
    let mut html = format!(
        r#"<div role="alert" id="form-problem" class="mt-6 rounded-lg border-l-4 border-crimson bg-red-50 p-4 text-ink"><p class="font-semibold">{}</p><p class="mt-1">{}</p></div>"#,
        attr(form.texts.failure_title),
        attr(&problem.message)
    );
    html.push_str(&format!(
        r#"<form method="post" action="{}" class="mt-8 space-y-5"><input type="hidden" name="{BACK_FIELD}" value="{}">"#,
        attr(form.action),
        attr(back)
    ));
    html.push_str(&fields_html(
        form,
        "problem",
        &value_of,
        problem.field,
        texts,
    ));
    html.push_str("</form>");
    html.push_str(&back_link(back, "Back to the page you were on"));
    html
}

/// `form`'s fields (values from `value_of`, `invalid` marked), its honeypot and its button,
/// with ids starting `{prefix}-`.
fn fields_html(
    form: &Form,
    prefix: &str,
    value_of: &dyn Fn(&str) -> String,
    invalid: Option<&str>,
    texts: Option<&TextConsent>,
) -> String {
    let mut html = String::new();
    for field in form.fields {
        let value = value_of(field.name);
        let value = value.as_str();
        html.push_str(&match field.kind {
            Kind::Consent => consent_html(
                prefix,
                field,
                field.check(Some(value)) == Ok(Some(TICKED.into())),
                texts,
            ),
            Kind::Hidden => format!(
                r#"<input type="hidden" name="{}" value="{}">"#,
                field.name,
                attr(value)
            ),
            _ => field_html(prefix, field, value, invalid == Some(field.name)),
        });
    }
    html.push_str(&format!(
        r#"<div class="honeypot" aria-hidden="true"><label for="{prefix}-{HONEYPOT}">Leave this field empty</label><input id="{prefix}-{HONEYPOT}" name="{HONEYPOT}" type="text" tabindex="-1" autocomplete="off"></div><button type="submit" class="btn btn-primary w-full text-base sm:w-auto">{}</button>"#,
        attr(form.texts.submit)
    ));
    html
}

/// A blank `form` as plain HTML, posting without JavaScript: `hidden` fills its hidden
/// fields (an RSVP's event), ids start `{prefix}-`.
pub fn form_html(
    form: &Form,
    hidden: &[(&str, &str)],
    texts: Option<&TextConsent>,
    prefix: &str,
) -> String {
    let value_of = |name: &str| {
        hidden
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(String::new(), |(_, v)| (*v).to_owned())
    };
    format!(
        r#"<form method="post" action="{}" class="space-y-5">{}</form>"#,
        attr(form.action),
        fields_html(form, prefix, &value_of, None, texts)
    )
}

/// The content of a problem page that is no longer there (it expired, or never was).
pub fn expired_html(form: &Form) -> String {
    format!(
        r#"<p class="mt-6 text-lg text-slate-700">This page has expired, so what you typed is no longer kept. Please fill in the form again.</p>{}"#,
        back_link(form.home, &format!("Back to {}", form.home_label))
    )
}

fn back_link(href: &str, label: &str) -> String {
    format!(
        r#"<p class="mt-8"><a href="{}" class="font-semibold text-navy underline decoration-crimson/60 underline-offset-4 hover:text-crimson">{}</a></p>"#,
        attr(href),
        attr(label)
    )
}

/// A box to agree to something, ticked again only if the visitor had ticked it, like the
/// NewsletterForm island's.
fn consent_html(prefix: &str, field: &Field, ticked: bool, texts: Option<&TextConsent>) -> String {
    let id = format!("{prefix}-{}", field.name);
    let (label, disclosure) = texts.map_or((field.label.to_owned(), String::new()), |t| {
        (t.label.clone(), t.disclosure_html())
    });
    format!(
        r#"<div class="flex items-start gap-3"><input id="{id}" name="{}" type="checkbox" value="{TICKED}" class="consent-box" aria-describedby="{id}-disclosure"{}><div><label for="{id}" class="text-sm font-semibold text-ink">{} <span class="font-normal text-slate-600">(optional)</span></label><div id="{id}-disclosure" class="consent-text">{disclosure}</div></div></div>"#,
        field.name,
        if ticked { " checked" } else { "" },
        attr(&label),
    )
}

/// One labelled input, like the islands' `FormField`.
fn field_html(prefix: &str, field: &Field, value: &str, invalid: bool) -> String {
    let id = format!("{prefix}-{}", field.name);
    let mut described = Vec::new();
    if invalid {
        described.push("form-problem".to_owned());
    }
    if field.hint.is_some() {
        described.push(format!("{id}-hint"));
    }
    let mut attrs = format!(
        r#"id="{id}" name="{}" maxlength="{}" class="field-input""#,
        field.name, field.max_length
    );
    if field.required {
        attrs.push_str(" required");
    }
    if let Some(token) = field.autocomplete {
        attrs.push_str(&format!(r#" autocomplete="{token}""#));
    }
    if !described.is_empty() {
        attrs.push_str(&format!(r#" aria-describedby="{}""#, described.join(" ")));
    }
    if invalid {
        attrs.push_str(r#" aria-invalid="true" autofocus"#);
    }
    let control = if field.kind == Kind::Guests {
        let chosen = value.trim().parse::<i64>().unwrap_or(0);
        let options: String = (0..=crate::forms::MAX_GUESTS)
            .map(|n| {
                format!(
                    r#"<option value="{n}"{}>{n}</option>"#,
                    if n == chosen { " selected" } else { "" }
                )
            })
            .collect();
        let attrs = attrs.replace(&format!(r#" maxlength="{}""#, field.max_length), "");
        format!(r#"<select {attrs}>{options}</select>"#)
    } else if field.kind == Kind::LongText {
        format!(
            r#"<textarea {attrs} rows="{}">{}</textarea>"#,
            field.rows.unwrap_or(5),
            attr(value)
        )
    } else {
        let kind = match field.kind {
            Kind::Email => "email",
            Kind::Phone => "tel",
            _ => "text",
        };
        let mut extra = String::new();
        if let Some(pattern) = field.pattern {
            extra.push_str(&format!(r#" pattern="{}""#, attr(pattern)));
        }
        if field.kind == Kind::Zip {
            extra.push_str(r#" inputmode="numeric" title="5-digit ZIP code, or ZIP+4""#);
        }
        format!(
            r#"<input {attrs} type="{kind}" value="{}"{extra}>"#,
            attr(value)
        )
    };
    let marker = if field.required {
        r#"<span aria-hidden="true" class="text-crimson"> *</span>"#
    } else {
        r#"<span class="font-normal text-slate-600"> (optional)</span>"#
    };
    let hint = field.hint.map_or(String::new(), |hint| {
        format!(
            r#"<p id="{id}-hint" class="mt-1 text-xs text-slate-600">{}</p>"#,
            attr(hint)
        )
    });
    format!(
        r#"<div><label for="{id}" class="field-label">{}{marker}</label>{control}{hint}</div>"#,
        attr(field.label)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::{CONTACT, NEWSLETTER, VOLUNTEER};

    fn problem(values: &[(&str, &str)], field: Option<&'static str>) -> Problem {
        Problem {
            message: "Please enter a valid ZIP code (5 digits, or ZIP+4).".into(),
            field,
            values: values
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            back: "/join".into(),
        }
    }

    #[test]
    fn keeps_the_input_and_marks_the_field_at_fault() {
        let html = problem_html(
            &NEWSLETTER,
            &problem(
                &[("email", "jo@example.org"), ("zipCode", "1234")],
                Some("zipCode"),
            ),
            None,
        );
        assert!(html.contains(r#"role="alert""#));
        assert!(html.contains("Signup Failed") && html.contains("Please enter a valid ZIP code"));
        assert!(html.contains(r#"name="email" maxlength="254" class="field-input" required autocomplete="email" type="email" value="jo@example.org""#), "{html}");
        assert!(html.contains(r#"aria-describedby="form-problem" aria-invalid="true" autofocus type="text" value="1234""#), "{html}");
        assert!(html.contains(r#"<form method="post" action="/api/newsletter-signup""#));
        assert!(html.contains(r#"<input type="hidden" name="_back" value="/join">"#));
        assert!(html.contains(r#"<a href="/join""#));
        assert!(html.contains(">Join the Movement</button>"));
    }

    #[test]
    fn long_text_hints_and_optional_fields_match_the_islands() {
        let html = problem_html(
            &VOLUNTEER,
            &problem(&[("interests", "Phones\nand doors")], None),
            None,
        );
        assert!(html.contains(">Phones\nand doors</textarea>"));
        assert!(html.contains(r#"rows="3""#) && html.contains("For example: canvassing"));
        assert!(html.contains(
            r#"Areas of interest<span class="font-normal text-slate-600"> (optional)</span>"#
        ));
        assert!(!html.contains("aria-invalid"), "no field is blamed");
        let contact = problem_html(&CONTACT, &problem(&[], None), None);
        assert!(
            contact.contains(">Send Message</button>")
                && contact.contains("Failed to send message")
        );
    }

    #[test]
    fn what_the_visitor_typed_cannot_break_out() {
        let html = problem_html(
            &CONTACT,
            &problem(
                &[
                    ("name", r#""><script>alert(1)</script>"#),
                    ("message", "</textarea><b>x</b>"),
                ],
                None,
            ),
            None,
        );
        assert!(
            !html.contains("<script>") && !html.contains("<b>x"),
            "{html}"
        );
        assert!(html.contains("&quot;&gt;&lt;script&gt;") && html.contains("&lt;/textarea&gt;"));
    }

    #[test]
    fn the_texts_box_is_ticked_again_only_if_the_visitor_ticked_it() {
        let texts = TextConsent {
            label: "Text me updates from the <Party>".into(),
            disclosure: "Reply STOP to end. See our [privacy policy](/privacy-policy).".into(),
        };
        let refused = |values: &[(&str, &str)]| {
            problem_html(&NEWSLETTER, &problem(values, Some("phone")), Some(&texts))
        };
        let ticked = refused(&[("email", "jo@example.org"), ("smsConsent", "yes")]);
        assert!(ticked.contains(r#"name="smsConsent" type="checkbox" value="yes" class="consent-box" aria-describedby="problem-smsConsent-disclosure" checked>"#), "{ticked}");
        assert!(ticked.contains("Text me updates from the &lt;Party&gt;"));
        assert!(ticked.contains(r#"<a href="/privacy-policy">privacy policy</a>"#));
        let unticked = refused(&[("email", "jo@example.org")]);
        assert!(unticked.contains(r#"type="checkbox""#) && !unticked.contains(" checked"));
        let hostile = refused(&[("smsConsent", r#""><script>"#)]);
        assert!(!hostile.contains("<script>") && !hostile.contains(" checked"));
    }

    #[test]
    fn back_links_stay_on_this_site() {
        for bad in [
            "https://evil.example/",
            "//evil.example",
            "javascript:alert(1)",
            "/\\evil",
            "",
        ] {
            let mut p = problem(&[], None);
            p.back = bad.into();
            let html = problem_html(&CONTACT, &p, None);
            assert!(html.contains(r#"<a href="/contact""#), "{bad}: {html}");
        }
        assert!(is_local_path("/take-action"));
        assert!(expired_html(&VOLUNTEER).contains(r#"<a href="/take-action""#));
    }

    #[test]
    fn urls_and_shells() {
        assert_eq!(thank_you_url(&CONTACT), "/forms/contact/thank-you");
        assert_eq!(
            problem_url(&VOLUNTEER, "ab12"),
            "/forms/volunteer/problem/ab12"
        );
        assert_eq!(problem_shell(&NEWSLETTER), ".forms/newsletter-problem.html");
    }
}
