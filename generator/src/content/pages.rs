//! The structured pages: leadership ("Who We Are"), policies, contact and take action.

use serde::{Deserialize, Serialize};

use super::Meta;

/// A heading with a Markdown body.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub heading: String,
    /// Markdown.
    pub body: String,
}

/// `content/leadership.yaml`: the /leadership page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LeadershipPage {
    pub meta: Meta,
    pub title: String,
    /// Markdown.
    pub intro: String,
    pub our_leadership: Section,
    pub spiritual_foundation: Section,
    /// The person shown as the Leadership Team card; everyone else in leadership forms the grid.
    pub team_card_id: String,
    pub candidates: Intro,
    pub join_us: JoinUs,
}

/// A heading with a sentence or two of plain text.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Intro {
    pub heading: String,
    pub intro: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct JoinUs {
    pub heading: String,
    pub body: String,
    /// Label of the link to /donate.
    pub donate_label: String,
    /// Label of the link to /contact.
    pub contact_label: String,
}

/// `content/issues.yaml`: the /issues page and the policy PDFs.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IssuesPage {
    pub meta: Meta,
    pub title: String,
    /// One sentence naming the core policies.
    pub headline: String,
    /// Markdown.
    pub intro: String,
    pub core_policies: Vec<CorePolicy>,
    pub download: Download,
    pub vision: Section,
    pub issues: Vec<Issue>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CorePolicy {
    pub title: String,
    pub description: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Download {
    pub heading: String,
    pub body: String,
    pub button_label: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    High,
    Medium,
}

/// One policy position.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Issue {
    /// Kebab-case identifier; also names the issue's PDF.
    pub id: String,
    pub title: String,
    /// Plain text shown on the card.
    pub description: String,
    /// Concrete commitments, one sentence each (in the PDFs).
    pub positions: Vec<String>,
    pub priority: Priority,
    pub category: String,
}

/// `content/take-action.yaml`: the /take-action page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TakeActionPage {
    pub meta: Meta,
    pub title: String,
    /// Markdown.
    pub intro: String,
    pub form: FormIntro,
    pub opportunities: Vec<Opportunity>,
    pub cta: JoinUs,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormIntro {
    pub heading: String,
    pub body: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpportunityType {
    Volunteer,
    Event,
    Advocacy,
}

/// Icons the templates can draw for an opportunity.
pub const OPPORTUNITY_ICONS: &[&str] = &["heart"];

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Opportunity {
    pub id: String,
    pub title: String,
    pub description: String,
    #[serde(rename = "type")]
    pub kind: OpportunityType,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub location: Option<String>,
    /// One of `OPPORTUNITY_ICONS`.
    #[serde(default)]
    pub icon: Option<String>,
}

/// `content/contact.yaml`: the /contact page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContactPage {
    pub meta: Meta,
    pub title: String,
    pub intro: String,
    pub form: FormHeading,
    pub mission: Section,
    pub get_involved: GetInvolved,
    pub follow: FormIntro,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormHeading {
    pub heading: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetInvolved {
    pub heading: String,
    pub body: String,
    pub volunteer_label: String,
    pub donate_label: String,
}

/// `content/not-found.yaml`: the 404 page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NotFoundPage {
    pub meta: Meta,
    pub title: String,
    pub message: String,
    /// The cards pointing somewhere useful.
    pub links: Vec<LinkCard>,
}

/// A card linking to a page of the site.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkCard {
    /// A path on this site, such as `/contact`.
    pub href: String,
    pub title: String,
    pub text: String,
}

impl NotFoundPage {
    pub(crate) fn validate(&self) -> Result<(), String> {
        super::check_link_list("links", self.links.iter().map(|l| l.href.as_str()))
    }
}

impl IssuesPage {
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.core_policies.len() != 3 {
            return Err("corePolicies must list exactly three policies".into());
        }
        super::check_ids("issues", self.issues.iter().map(|x| x.id.as_str()))?;
        Ok(())
    }
}

impl TakeActionPage {
    pub(crate) fn validate(&self) -> Result<(), String> {
        for (i, o) in self.opportunities.iter().enumerate() {
            if let Some(icon) = &o.icon
                && !OPPORTUNITY_ICONS.contains(&icon.as_str())
            {
                return Err(format!(
                    "opportunities[{i}].icon {icon:?} is not one of {OPPORTUNITY_ICONS:?}"
                ));
            }
        }
        Ok(())
    }
}

/// `content/donate.yaml`: the /donate page. The form's words go to the `DonateFlow` island;
/// the spec's own texts (messages, button states) live in `generator/src/donations.rs`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DonatePage {
    pub meta: Meta,
    pub title: String,
    pub intro: String,
    pub form: DonateForm,
    /// What a gift pays for.
    pub why: Section,
    /// How card details and personal data are handled.
    pub safety: Section,
    /// The disclaimer a political committee's website carries.
    pub paid_for: String,
    /// The page where a monthly donor gives another card after a decline.
    pub card: CardPage,
}

/// The words of `/donate/card`, where a monthly donor whose card was declined saves another
/// (plain text; `$A` is the monthly amount, `{date}` a date the page fills in).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CardPage {
    pub title: String,
    pub intro: String,
    pub loading: String,
    /// The plan's state: a charge waiting for a card (`$A`, `{date}`: when it was due).
    pub waiting: String,
    /// The plan is active and its card works; a new one is used from the next gift (`{date}`).
    pub active: String,
    pub card_heading: String,
    pub save_label: String,
    pub saving: String,
    /// After the new card paid the gift that was due (`$A`; `{date}`: the next gift).
    pub charged: String,
    /// After the new card was saved but nothing was due (`{date}`: the next gift).
    pub saved: String,
    /// The new card was saved, but declined for the gift that was due.
    pub declined: String,
    /// The gift that was due would pass the year's limit: paused until January.
    pub paused: String,
    pub expired: String,
    pub invalid: String,
    pub ended: String,
    pub failed: String,
    pub noscript: String,
}

/// The donation form's words (plain text).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DonateForm {
    pub heading: String,
    pub amount_legend: String,
    /// The label of the custom amount.
    pub custom_label: String,
    /// The year's limit: `$L` and `{year}` are filled in.
    pub limit_note: String,
    pub donor_legend: String,
    pub employment_legend: String,
    pub employment_hint: String,
    pub confirm_legend: String,
    /// The spec's citizenship checkbox.
    pub citizenship_label: String,
    /// The checkbox confirming the statements below it.
    pub attestations_label: String,
    pub attestations: Vec<String>,
    /// FEC's best-efforts notice.
    pub legal_notice: String,
    pub tax_notice: String,
    pub review_heading: String,
    pub change_label: String,
    pub payment_heading: String,
    pub payment_loading: String,
    /// The pay button: `$A` is the amount.
    pub confirm_label: String,
    /// After a successful payment: `$A` is the amount.
    pub thank_you: String,
    pub give_again: String,
    /// Shown when JavaScript is off.
    pub noscript: String,
}

impl DonatePage {
    pub fn validate(&self) -> Result<(), String> {
        let form = &self.form;
        if form.attestations.is_empty() {
            return Err("form.attestations needs at least one statement".into());
        }
        for (field, text, placeholder) in [
            ("form.limitNote", &form.limit_note, "$L"),
            ("form.confirmLabel", &form.confirm_label, "$A"),
            ("form.thankYou", &form.thank_you, "$A"),
            ("card.waiting", &self.card.waiting, "$A"),
            ("card.charged", &self.card.charged, "$A"),
        ] {
            if !text.contains(placeholder) {
                return Err(format!("{field} must contain {placeholder}"));
            }
        }
        Ok(())
    }
}
