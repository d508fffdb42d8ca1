//! `content/home.yaml`: the home page's hero, signup block and promo cards.

use serde::{Deserialize, Serialize};

use super::{Meta, check_link_list};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Home {
    pub meta: Meta,
    pub hero: Hero,
    pub signup: Signup,
    /// Heading above the promo cards (visually hidden on wide screens is fine).
    pub cards_heading: String,
    /// The promo cards, in carousel order.
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    /// Paragraph under "We are the {name}."
    pub description: String,
    /// Background illustration, relative to `content/media`.
    pub image: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Signup {
    /// The signup form's heading.
    pub title: String,
    /// Consent to automated texts and calls, shown under the form.
    pub consent: String,
}

/// A home promo card.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Card {
    pub title: String,
    pub description: String,
    /// Illustration, relative to `content/media`.
    pub image_url: String,
    /// Site path the card links to.
    pub href: String,
    /// Alt text of the illustration.
    pub image_alt: String,
}

impl Home {
    pub(crate) fn validate(&self) -> Result<(), String> {
        check_link_list("cards", self.cards.iter().map(|c| c.href.as_str()))
    }
}
