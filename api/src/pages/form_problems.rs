//! Refused form posts made without JavaScript, kept for a short while so the page the
//! browser is redirected to can show the message and what the visitor typed
//! (post/redirect/get). They live only in memory: a refused submission is never stored,
//! and a restart simply expires them.
//!
//! `GET /forms/{slug}/problem/{id}` renders one into the shell the generator wrote.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use generator::content::TextConsent;
use generator::form_pages::{self, Problem};
use generator::forms::{self, Form};
use warp::filters::BoxedFilter;
use warp::http::{Response as HttpResponse, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::store::expiring::Expiring;

/// Long enough to read the message, fix a field and send again.
const KEEP_FOR: Duration = Duration::from_secs(30 * 60);
/// Bounds memory whatever is posted: the oldest go first.
const MOST_KEPT: usize = 1000;

/// The refused submissions waiting to be shown, each with the form it was sent to.
pub struct FormProblems {
    store: Expiring<(&'static str, Problem)>,
}

impl Default for FormProblems {
    fn default() -> Self {
        FormProblems {
            store: Expiring::new(KEEP_FOR, MOST_KEPT),
        }
    }
}

impl FormProblems {
    /// Keeps `problem` for `form` and returns the id its page is found under. Only the
    /// form's own fields are kept, each cut to twice its limit (the page shows the visitor
    /// what they typed; the browser already stops them at the limit).
    pub fn keep(&self, form: &Form, mut problem: Problem) -> String {
        problem
            .values
            .retain(|(name, _)| form.fields.iter().any(|f| f.name == name));
        for (name, value) in &mut problem.values {
            let most = form
                .fields
                .iter()
                .find(|f| f.name == name)
                .map_or(0, |f| f.max_length * 2);
            if value.chars().count() > most {
                *value = value.chars().take(most).collect();
            }
        }
        self.store.keep((form.slug, problem))
    }

    /// The problem kept under `id` for `form`, if it has not expired.
    pub fn find(&self, form: &Form, id: &str) -> Option<Problem> {
        self.store
            .get(id)
            .filter(|(slug, _)| *slug == form.slug)
            .map(|(_, problem)| problem)
    }
}

/// `GET /forms/{slug}/problem/{id}`, rendered into the shells the generator wrote in `dist`.
pub fn routes(
    problems: Arc<FormProblems>,
    texts: Arc<TextConsent>,
    dist: PathBuf,
) -> BoxedFilter<(Response,)> {
    warp::get()
        .and(warp::path!("forms" / String / "problem" / String))
        .and_then(move |slug: String, id: String| {
            let problem = forms::ALL
                .iter()
                .find(|f| f.slug == slug)
                .map(|form| (form, problems.find(form, &id)));
            let (dist, texts) = (dist.clone(), texts.clone());
            async move {
                let Some((form, problem)) = problem else {
                    return Err(warp::reject::not_found());
                };
                Ok::<_, Rejection>(page(&dist, &texts, form, problem).await)
            }
        })
        .boxed()
}

async fn page(dist: &Path, texts: &TextConsent, form: &Form, problem: Option<Problem>) -> Response {
    let shell_path = dist.join(form_pages::problem_shell(form));
    let shell = match tokio::fs::read_to_string(&shell_path).await {
        Ok(shell) => shell,
        Err(e) => {
            tracing::error!(file = %shell_path.display(), error = %e, "the form problem page's shell is missing; run `just build`");
            let mut res = Response::new("Internal Server Error".into());
            *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            return res;
        }
    };
    let (status, content) = match &problem {
        Some(problem) => (
            StatusCode::OK,
            form_pages::problem_html(form, problem, Some(texts)),
        ),
        None => (StatusCode::NOT_FOUND, form_pages::expired_html(form)),
    };
    HttpResponse::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        // What the visitor typed: never kept by a cache or shown again from history.
        .header(header::CACHE_CONTROL, "no-store")
        .body(
            shell
                .replacen(form_pages::PROBLEM_MARKER, &content, 1)
                .into(),
        )
        .unwrap_or_else(|_| Response::new("Internal Server Error".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use generator::forms::{CONTACT, NEWSLETTER};

    fn problem(values: &[(&str, &str)]) -> Problem {
        Problem {
            message: "ZIP code is required.".into(),
            field: Some("zipCode"),
            values: values
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            back: "/".into(),
        }
    }

    #[test]
    fn keeps_only_the_forms_fields_and_finds_them_by_form_and_id() {
        let store = FormProblems::default();
        let id = store.keep(
            &NEWSLETTER,
            problem(&[("email", "a@b.org"), ("password", "x")]),
        );
        assert_eq!(id.len(), 32);
        let found = store.find(&NEWSLETTER, &id).unwrap();
        assert_eq!(found.values, [("email".to_string(), "a@b.org".to_string())]);
        assert!(
            store.find(&CONTACT, &id).is_none(),
            "another form's page does not show it"
        );
        assert!(store.find(&NEWSLETTER, "nope").is_none());
    }

    #[test]
    fn memory_stays_bounded() {
        let store = FormProblems::default();
        let long = "x".repeat(100_000);
        let first = store.keep(&CONTACT, problem(&[("message", &long)]));
        assert_eq!(
            store.find(&CONTACT, &first).unwrap().values[0].1.len(),
            10_000
        );
        for _ in 0..MOST_KEPT {
            store.keep(&CONTACT, problem(&[]));
        }
        assert!(
            store.find(&CONTACT, &first).is_none(),
            "the oldest made room"
        );
    }
}
