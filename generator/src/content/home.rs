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
    /// The separate box to agree to texts, and what it agrees to.
    pub texts: TextConsent,
}

/// The agreement to automated texts: a box, never ticked for the visitor, and beside it the
/// full disclosure (who sends, how often, "Msg & data rates may apply", STOP, HELP, the
/// privacy policy). A ticked box is recorded with the version of these words.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TextConsent {
    /// The box's label: "Text me updates from {party}".
    pub label: String,
    /// The disclosure, in Markdown (for the privacy policy's link).
    pub disclosure: String,
}

impl TextConsent {
    /// Names these exact words: the first 12 hex digits of SHA-256 over the label and the
    /// disclosure, so any edit is a new version without anyone having to remember to bump one.
    pub fn version(&self) -> String {
        use sha2::{Digest as _, Sha256};
        let digest = Sha256::new()
            .chain_update(self.label.as_bytes())
            .chain_update(b"\n")
            .chain_update(self.disclosure.as_bytes())
            .finalize();
        digest[..6].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The disclosure as HTML, for the form and the no-script problem page.
    pub fn disclosure_html(&self) -> String {
        crate::markdown::to_html(&self.disclosure)
    }
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
