//! The Markdown articles in `content/pages/`: front matter plus a body.

use serde::{Deserialize, Serialize};

use super::Meta;

/// `pages/join.md`
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Join {
    pub title: String,
    pub meta: Meta,
    pub not_in_state: NotInState,
    pub newsletter: Blurb,
    pub volunteer_label: String,
    pub donate_label: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NotInState {
    pub heading: String,
    pub body: String,
    /// Label of the button that scrolls to the signup section.
    pub button: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Blurb {
    pub heading: String,
    pub body: String,
}

/// `pages/why-third-party.md`
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WhyThirdParty {
    pub title: String,
    pub meta: Meta,
    /// Label of the link to /join.
    pub join_label: String,
    /// Shown on the page and as FAQPage structured data.
    pub faq: Vec<Faq>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// `pages/movement.md`
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Movement {
    pub title: String,
    pub meta: Meta,
    /// Label of the link to /join.
    pub registration_label: String,
    /// Label of the link to /take-action.
    pub volunteer_label: String,
}

/// `pages/privacy-policy.md`
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Privacy {
    pub title: String,
    pub meta: Meta,
    /// Shown as written, e.g. "November 06, 2023".
    pub last_updated: String,
}

/// An article: its front matter and its Markdown body.
#[derive(Debug, Clone, Serialize)]
pub struct Article<T> {
    #[serde(flatten)]
    pub front: T,
    /// Markdown.
    pub body: String,
}
