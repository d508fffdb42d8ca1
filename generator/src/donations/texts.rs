//! Every text of the donation flow the spec gives, word for word (§5, §8).

use serde::Serialize;

/// A message the page shows as a notice: a title and a sentence (spec §5, §8).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Notice {
    pub title: &'static str,
    pub description: &'static str,
}

const fn notice(title: &'static str, description: &'static str) -> Notice {
    Notice { title, description }
}

/// Every text of the donation flow that the spec gives, exactly.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Texts {
    pub invalid_amount: Notice,
    /// `$X` is replaced by the donor's remaining allowance.
    pub limit_exceeded: Notice,
    /// The refusal when the server may not say what the donor gave before (the browser has
    /// not shown it acts for the donor): the spec's sentence without the amount.
    pub limit_exceeded_unknown: &'static str,
    pub citizenship: Notice,
    pub additional_info: Notice,
    /// Added to `additional_info` when earlier gifts, not this one alone, pass the
    /// threshold; `{year}` and `$T` are replaced.
    pub additional_info_aggregate: &'static str,
    /// Added to `additional_info` when a monthly gift's charges to come this year pass the
    /// threshold; `{year}` and `$T` are replaced.
    pub additional_info_monthly: &'static str,
    pub missing_info: Notice,
    pub confirmation: Notice,
    /// The description is the fallback when the server gives no message.
    pub setup_failed: Notice,
    pub no_client_secret: &'static str,
    /// The description is the fallback when Stripe gives no message.
    pub payment_failed: Notice,
    pub payment_error: Notice,
    pub success: &'static str,
    pub summary_loading: &'static str,
    pub summary_error: &'static str,
    pub unavailable: &'static str,
    pub proceed: &'static str,
    pub proceed_pending: &'static str,
    pub confirm_pending: &'static str,
    /// How often: the choice beside the amount, one time unless the donor chooses monthly.
    pub frequency_legend: &'static str,
    pub once: &'static str,
    pub monthly: &'static str,
    /// Beside the pay button of a monthly gift: `$A` the amount, `{date}` the next charge.
    pub monthly_line: &'static str,
    /// After a receipt's history link was opened here (not the spec's: the spec shows any
    /// visitor a donor's year, which the site no longer does).
    pub history_shown: Notice,
    /// The title when the server refused that link (its message is the description).
    pub history_refused: &'static str,
}

pub const TEXTS: Texts = Texts {
    invalid_amount: notice(
        "Invalid Amount",
        "Please select or enter a valid donation amount.",
    ),
    limit_exceeded: notice(
        "Donation Limit Exceeded",
        "This amount would exceed your annual limit. You can donate up to $X more this year.",
    ),
    limit_exceeded_unknown: "This amount would exceed your annual limit.",
    citizenship: notice(
        "Citizenship Confirmation Required",
        "Please confirm your U.S. citizenship status as required by FEC regulations.",
    ),
    additional_info: notice(
        "Additional Information Required",
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose.",
    ),
    additional_info_aggregate: "This gift brings your total for {year} above $T.",
    additional_info_monthly: "Given every month, this gift brings your total for {year} above $T.",
    missing_info: notice(
        "Missing Information",
        "Please fill in all required donor information fields.",
    ),
    confirmation: notice(
        "Confirmation Required",
        "Please confirm the contribution statements above.",
    ),
    setup_failed: notice(
        "Payment Setup Failed",
        "Failed to set up payment. Please try again.",
    ),
    no_client_secret: "No client secret received from payment service",
    payment_failed: notice(
        "Payment Failed",
        "There was an error processing your payment.",
    ),
    payment_error: notice(
        "Payment Error",
        "An unexpected error occurred. Please try again.",
    ),
    success: "Thank you for your donation!",
    summary_loading: "Checking donation status...",
    summary_error: "Unable to load donation status. You can still proceed with your donation.",
    unavailable: "Payment system is not available. Please check back later.",
    proceed: "Proceed to Payment",
    proceed_pending: "Setting up payment...",
    confirm_pending: "Processing",
    frequency_legend: "How often",
    once: "One time",
    monthly: "Give monthly",
    monthly_line: "$A every month, next on {date}, until you cancel",
    history_shown: notice(
        "Your giving is shown on this browser",
        "This page now shows what you have given this year. Each receipt has a link to stop showing it.",
    ),
    history_refused: "Your giving cannot be shown",
};
