//! What the site's messages and their link pages say: `content/mail.yaml`, where an editor
//! changes the words without touching the server. `{name}` placeholders are filled by
//! [`fill`]; a text that names a placeholder its message does not have fails at start.

use std::path::Path;

use serde::Deserialize;

/// The project's own `content/mail.yaml`, used when `CONTENT_DIR` has none (the tests'
/// fixture site, a content folder from before mail existed).
const DEFAULT: &str = include_str!("../../../../content/mail.yaml");

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Texts {
    /// Closes every message.
    pub footer: String,
    pub receipt: Receipt,
    /// To a donor when money goes back to them.
    pub refund: Receipt,
    /// To a donor when the server returned what passed the year's limit.
    pub limit_refund: Receipt,
    /// The best-efforts request for occupation and employer after a gift.
    pub info_request: Receipt,
    pub staff_alert: StaffAlert,
    pub monthly: Monthly,
    pub newsletter: Newsletter,
    pub pages: Pages,
    /// To staff about their own account.
    pub staff: StaffAccount,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StaffAccount {
    pub code_subject: String,
    pub code_body: String,
    pub invite_subject: String,
    pub invite_body: String,
    pub reset_subject: String,
    pub reset_body: String,
    pub notice_subject: String,
    pub notice_body: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Receipt {
    pub subject: String,
    pub body: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StaffAlert {
    pub contact_subject: String,
    pub contact_body: String,
    pub volunteer_subject: String,
    pub volunteer_body: String,
    pub dispute_subject: String,
    pub dispute_body: String,
    pub refund_failed_subject: String,
    pub refund_failed_body: String,
}

/// What the site says about monthly gifts: notes on their receipts, notices to the donor and
/// staff, and the cancel link's page.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Monthly {
    pub receipt_note: String,
    pub receipt_ended_note: String,
    pub declined_subject: String,
    pub declined_body: String,
    pub stopped_subject: String,
    pub stopped_body: String,
    pub paused_subject: String,
    pub paused_body: String,
    pub canceled_subject: String,
    pub canceled_body: String,
    pub staff_paused_subject: String,
    pub staff_paused_body: String,
    pub info_request_subject: String,
    pub info_request_body: String,
    pub cancel_title: String,
    pub cancel_intro: String,
    pub cancel_next: String,
    pub cancel_button: String,
    pub canceled_title: String,
    pub canceled_text: String,
    pub ended_title: String,
    pub ended_text: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Newsletter {
    /// Recorded with each confirmation: which consent text the person agreed to.
    pub consent_version: String,
    pub consent_text: String,
    pub confirm_subject: String,
    pub confirm_body: String,
    pub welcome_subject: String,
    pub welcome_body: String,
    /// The end of every post mailed to the list: who paid for it, the postal address and the
    /// recipient's unsubscribe link.
    pub list_footer: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pages {
    pub confirm_title: String,
    pub confirm_intro: String,
    pub confirm_button: String,
    pub confirmed_title: String,
    pub confirmed_text: String,
    pub expired_title: String,
    pub expired_text: String,
    pub invalid_title: String,
    pub invalid_text: String,
    pub unsubscribe_title: String,
    pub unsubscribe_intro: String,
    pub unsubscribe_button: String,
    pub unsubscribed_title: String,
    pub unsubscribed_text: String,
    pub sign_out_title: String,
    pub sign_out_intro: String,
    pub sign_out_button: String,
    pub signed_out_title: String,
    pub signed_out_text: String,
}

impl Texts {
    /// `content_dir/mail.yaml`, or the project's own when there is none; checked.
    pub fn load(content_dir: &Path) -> anyhow::Result<Texts> {
        let path = content_dir.join("mail.yaml");
        let texts: Texts = if path.exists() {
            generator::content::read_yaml(&path)?
        } else {
            serde_saphyr::from_str(DEFAULT)
                .map_err(|e| anyhow::anyhow!("the built-in mail.yaml is not valid: {e}"))?
        };
        texts
            .check()
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(texts)
    }

    /// Every text uses only the placeholders its message fills.
    fn check(&self) -> Result<(), String> {
        const EVERY: &[&str] = &["party"];
        let receipt = &[
            "donorName",
            "committee",
            "receiptNumber",
            "date",
            "amount",
            "purpose",
            "donorAddress",
            "yearTotal",
            "historyUrl",
            "signOutUrl",
        ][..];
        let refund = &[
            "donorName",
            "committee",
            "amount",
            "giftAmount",
            "giftDate",
            "receiptNumber",
            "date",
            "year",
            "yearTotal",
        ][..];
        let limit_refund = &[refund, &["limit"][..]].concat();
        let info_request = &["donorName", "year", "threshold"][..];
        let dispute = &[
            "donorName",
            "giftAmount",
            "giftDate",
            "amount",
            "reason",
            "status",
            "adminUrl",
        ][..];
        let refund_failed = &["donorName", "amount", "giftAmount", "giftDate", "adminUrl"][..];
        let contact = &["name", "email", "subject", "message", "adminUrl"][..];
        let volunteer = &["name", "email", "phone", "zipCode", "interests", "adminUrl"][..];
        let n = &self.newsletter;
        let p = &self.pages;
        let m = &self.monthly;
        // Every monthly notice has these.
        let plan = |more: &[&'static str]| -> Vec<&'static str> {
            let mut all = vec!["donorName", "amount", "cancelUrl"];
            all.extend_from_slice(more);
            all
        };
        let declined = plan(&["date", "retryDate", "cardUrl"]);
        let stopped = plan(&["date", "cardUrl"]);
        let paused = plan(&["year", "limit", "resumeDate"]);
        let canceled = plan(&["date"]);
        let staff_paused = plan(&["year", "limit", "resumeDate", "adminUrl"]);
        let info = plan(&["year", "threshold"]);
        let note = plan(&["nextDate"]);
        let st = &self.staff;
        let code = &["name", "code", "browser", "ip", "time"][..];
        let invite = &["name", "inviter", "role", "link", "expires"][..];
        let reset = &["name", "link"][..];
        let notice = &["name", "what", "time", "ip", "browser", "securityUrl"][..];
        // A subject is what lists show (the mail queue, a phone's lock screen): never the
        // code or the link itself, which sign in as the person.
        let code_subject = &["name", "browser", "ip", "time"][..];
        let invite_subject = &["name", "inviter", "role", "expires"][..];
        let checks: Vec<(&str, &str, &[&str])> = vec![
            ("staff.codeSubject", &st.code_subject, code_subject),
            ("staff.codeBody", &st.code_body, code),
            ("staff.inviteSubject", &st.invite_subject, invite_subject),
            ("staff.inviteBody", &st.invite_body, invite),
            ("staff.resetSubject", &st.reset_subject, &["name"]),
            ("staff.resetBody", &st.reset_body, reset),
            ("staff.noticeSubject", &st.notice_subject, notice),
            ("staff.noticeBody", &st.notice_body, notice),
            ("footer", &self.footer, &["committee", "siteUrl"]),
            ("receipt.subject", &self.receipt.subject, &["receiptNumber"]),
            ("receipt.body", &self.receipt.body, receipt),
            ("refund.subject", &self.refund.subject, &[]),
            ("refund.body", &self.refund.body, refund),
            ("limitRefund.subject", &self.limit_refund.subject, &[]),
            ("limitRefund.body", &self.limit_refund.body, limit_refund),
            (
                "infoRequest.subject",
                &self.info_request.subject,
                info_request,
            ),
            ("infoRequest.body", &self.info_request.body, info_request),
            (
                "staffAlert.contactSubject",
                &self.staff_alert.contact_subject,
                contact,
            ),
            (
                "staffAlert.contactBody",
                &self.staff_alert.contact_body,
                contact,
            ),
            (
                "staffAlert.volunteerSubject",
                &self.staff_alert.volunteer_subject,
                volunteer,
            ),
            (
                "staffAlert.volunteerBody",
                &self.staff_alert.volunteer_body,
                volunteer,
            ),
            (
                "staffAlert.disputeSubject",
                &self.staff_alert.dispute_subject,
                dispute,
            ),
            (
                "staffAlert.disputeBody",
                &self.staff_alert.dispute_body,
                dispute,
            ),
            (
                "staffAlert.refundFailedSubject",
                &self.staff_alert.refund_failed_subject,
                refund_failed,
            ),
            (
                "staffAlert.refundFailedBody",
                &self.staff_alert.refund_failed_body,
                refund_failed,
            ),
            ("monthly.receiptNote", &m.receipt_note, &note),
            ("monthly.receiptEndedNote", &m.receipt_ended_note, &note),
            ("monthly.declinedSubject", &m.declined_subject, &declined),
            ("monthly.declinedBody", &m.declined_body, &declined),
            ("monthly.stoppedSubject", &m.stopped_subject, &stopped),
            ("monthly.stoppedBody", &m.stopped_body, &stopped),
            ("monthly.pausedSubject", &m.paused_subject, &paused),
            ("monthly.pausedBody", &m.paused_body, &paused),
            ("monthly.canceledSubject", &m.canceled_subject, &canceled),
            ("monthly.canceledBody", &m.canceled_body, &canceled),
            (
                "monthly.staffPausedSubject",
                &m.staff_paused_subject,
                &staff_paused,
            ),
            (
                "monthly.staffPausedBody",
                &m.staff_paused_body,
                &staff_paused,
            ),
            ("monthly.infoRequestSubject", &m.info_request_subject, &info),
            ("monthly.infoRequestBody", &m.info_request_body, &info),
            ("monthly.cancelTitle", &m.cancel_title, &note),
            ("monthly.cancelIntro", &m.cancel_intro, &note),
            ("monthly.cancelNext", &m.cancel_next, &note),
            ("monthly.cancelButton", &m.cancel_button, &note),
            ("monthly.canceledTitle", &m.canceled_title, &note),
            ("monthly.canceledText", &m.canceled_text, &note),
            ("monthly.endedTitle", &m.ended_title, &note),
            ("monthly.endedText", &m.ended_text, &note),
            ("newsletter.consentText", &n.consent_text, &[]),
            ("newsletter.confirmSubject", &n.confirm_subject, &[]),
            ("newsletter.confirmBody", &n.confirm_body, &["confirmUrl"]),
            ("newsletter.welcomeSubject", &n.welcome_subject, &[]),
            (
                "newsletter.welcomeBody",
                &n.welcome_body,
                &["unsubscribeUrl"],
            ),
        ];
        let pages = [
            &p.confirm_title,
            &p.confirm_intro,
            &p.confirm_button,
            &p.confirmed_title,
            &p.confirmed_text,
            &p.expired_title,
            &p.expired_text,
            &p.invalid_title,
            &p.invalid_text,
            &p.unsubscribe_title,
            &p.unsubscribe_intro,
            &p.unsubscribe_button,
            &p.unsubscribed_title,
            &p.unsubscribed_text,
            &p.sign_out_title,
            &p.sign_out_intro,
            &p.sign_out_button,
            &p.signed_out_title,
            &p.signed_out_text,
        ];
        let all = checks
            .into_iter()
            .chain(pages.into_iter().map(|t| ("pages", t.as_str(), &[][..])));
        for (name, text, allowed) in all {
            for used in placeholders(text) {
                if !EVERY.contains(&used) && !allowed.contains(&used) {
                    return Err(format!(
                        "{name} uses {{{used}}}, which it does not have (it may use {})",
                        EVERY
                            .iter()
                            .chain(allowed)
                            .map(|a| format!("{{{a}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        if n.consent_version.trim().is_empty() {
            return Err("newsletter.consentVersion must not be empty".into());
        }
        Ok(())
    }
}

/// The `{name}` placeholders in `text` (letters only between the braces).
fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|rest| {
        let (name, _) = rest.split_once('}')?;
        (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic())).then_some(name)
    })
}

/// `template` with each `{name}` of `values` replaced. Values are inserted once, never
/// read again for placeholders, so a donor named "{amount}" stays "{amount}".
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let value = after.split_once('}').and_then(|(name, _)| {
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (name.len(), *v))
        });
        match value {
            Some((len, v)) => {
                out.push_str(v);
                rest = &after[len + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projects_texts_load_and_fill_once() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        Texts::load(&dir).unwrap();
        assert_eq!(
            fill(
                "Dear {donorName}, {amount}",
                &[("donorName", "{amount}"), ("amount", "$5.00")]
            ),
            "Dear {amount}, $5.00"
        );
        assert_eq!(fill("{unknown} {", &[]), "{unknown} {");
    }

    #[test]
    fn a_placeholder_a_message_lacks_is_refused() {
        let mut texts: Texts = serde_saphyr::from_str(DEFAULT).unwrap();
        texts.receipt.subject = "Receipt for {donorEmail}".into();
        let err = texts.check().unwrap_err();
        assert!(err.contains("receipt.subject uses {donorEmail}"), "{err}");
    }
}
