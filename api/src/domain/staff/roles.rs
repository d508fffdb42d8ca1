//! Roles as sets of named capabilities. A route names the one capability it needs
//! (`routes/admin::allowed`, and `x-capability` in api/openapi.json); a role either holds it
//! or gets `403 "Your role (Organizer) can't …"`. No route asks "is this an Owner?".

use serde::{Deserialize, Serialize};

/// What a route needs. The `as_str` names are the API's (`GET /api/admin/me`'s
/// `capabilities`, and the OpenAPI description's `x-capability`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cap {
    /// Every signed-in person: their own account, security and sign-out.
    Account,
    SubmissionsRead,
    SubmissionsExport,
    SubmissionsDelete,
    TextsManage,
    PeopleRead,
    PeopleMerge,
    DonationsRead,
    DonationsExport,
    DonationsRefund,
    MonthlyCancel,
    ContributorsDecide,
    PostsWriteOwn,
    PostsWriteAny,
    PostsPublishOwn,
    PostsPublishAny,
    Erase,
    AuditRead,
    MailRead,
    /// Mail a post to the newsletter list (and schedule, retry or call off such a send).
    MailBroadcast,
    /// See and change the suppression list.
    MailSuppressions,
    UsersManage,
    UsersResetFactors,
    OwnersManage,
    ServiceTokensManage,
    /// Create, change, publish and cancel events.
    EventsManage,
    /// See who RSVPed to events, mark who came, export the list.
    EventsAttendees,
}

impl Cap {
    pub const ALL: [Cap; 27] = [
        Cap::Account,
        Cap::SubmissionsRead,
        Cap::SubmissionsExport,
        Cap::SubmissionsDelete,
        Cap::TextsManage,
        Cap::PeopleRead,
        Cap::PeopleMerge,
        Cap::DonationsRead,
        Cap::DonationsExport,
        Cap::DonationsRefund,
        Cap::MonthlyCancel,
        Cap::ContributorsDecide,
        Cap::PostsWriteOwn,
        Cap::PostsWriteAny,
        Cap::PostsPublishOwn,
        Cap::PostsPublishAny,
        Cap::Erase,
        Cap::AuditRead,
        Cap::MailRead,
        Cap::MailBroadcast,
        Cap::MailSuppressions,
        Cap::UsersManage,
        Cap::UsersResetFactors,
        Cap::OwnersManage,
        Cap::ServiceTokensManage,
        Cap::EventsManage,
        Cap::EventsAttendees,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Cap::Account => "account",
            Cap::SubmissionsRead => "submissions.read",
            Cap::SubmissionsExport => "submissions.export",
            Cap::SubmissionsDelete => "submissions.delete",
            Cap::TextsManage => "texts.manage",
            Cap::PeopleRead => "people.read",
            Cap::PeopleMerge => "people.merge",
            Cap::DonationsRead => "donations.read",
            Cap::DonationsExport => "donations.export",
            Cap::DonationsRefund => "donations.refund",
            Cap::MonthlyCancel => "monthly.cancel",
            Cap::ContributorsDecide => "contributors.decide",
            Cap::PostsWriteOwn => "posts.write_own",
            Cap::PostsWriteAny => "posts.write_any",
            Cap::PostsPublishOwn => "posts.publish_own",
            Cap::PostsPublishAny => "posts.publish_any",
            Cap::Erase => "erase",
            Cap::AuditRead => "audit.read",
            Cap::MailRead => "mail.read",
            Cap::MailBroadcast => "mail.broadcast",
            Cap::MailSuppressions => "mail.suppressions",
            Cap::UsersManage => "users.manage",
            Cap::UsersResetFactors => "users.reset_factors",
            Cap::OwnersManage => "owners.manage",
            Cap::ServiceTokensManage => "service_tokens.manage",
            Cap::EventsManage => "events.manage",
            Cap::EventsAttendees => "events.attendees",
        }
    }

    pub fn parse(s: &str) -> Option<Cap> {
        Cap::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The end of "Your role (Organizer) can't …".
    pub fn denied(self) -> &'static str {
        match self {
            Cap::Account => "use the admin",
            Cap::SubmissionsRead => "see contacts, volunteers or the newsletter list",
            Cap::SubmissionsExport => "export contacts, volunteers or the newsletter list",
            Cap::SubmissionsDelete => "delete submissions",
            Cap::TextsManage => "change text-message opt-outs",
            Cap::PeopleRead => "see people's records",
            Cap::PeopleMerge => "merge people's records",
            Cap::DonationsRead => "see donations",
            Cap::DonationsExport => "export donations or FEC reports",
            Cap::DonationsRefund => "refund donations",
            Cap::MonthlyCancel => "cancel monthly gifts",
            Cap::ContributorsDecide => "decide who a contributor is",
            Cap::PostsWriteOwn => "write posts",
            Cap::PostsWriteAny => "change other people's posts",
            Cap::PostsPublishOwn => "publish posts",
            Cap::PostsPublishAny => "publish other people's posts",
            Cap::Erase => "erase a person's details",
            Cap::AuditRead => "read the audit log",
            Cap::MailRead => "see the mail queue",
            Cap::MailBroadcast => "mail posts to the newsletter list",
            Cap::MailSuppressions => "change the suppression list",
            Cap::UsersManage => "manage staff accounts",
            Cap::UsersResetFactors => "reset another user's second factors",
            Cap::OwnersManage => "manage Owners",
            Cap::ServiceTokensManage => "manage service tokens",
            Cap::EventsManage => "manage events",
            Cap::EventsAttendees => "see who is coming to events",
        }
    }

    /// Whether a role under the strong-factor policy needs its factor before this: everything
    /// but the person's own account (where they enrol).
    pub fn needs_strong_factor(self) -> bool {
        self != Cap::Account
    }
}

/// The roles, highest first. Rank decides who may grant what: nobody grants a role above
/// their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
    Administrator,
    Treasurer,
    Organizer,
    Editor,
    Author,
    Contributor,
}

use Cap::*;

const ORGANIZER: &[Cap] = &[
    Account,
    SubmissionsRead,
    SubmissionsExport,
    SubmissionsDelete,
    TextsManage,
    PeopleRead,
    PeopleMerge,
    MailSuppressions,
    EventsManage,
    EventsAttendees,
];
const TREASURER: &[Cap] = &[
    Account,
    PeopleRead,
    DonationsRead,
    DonationsExport,
    DonationsRefund,
    MonthlyCancel,
    ContributorsDecide,
];
const EDITOR: &[Cap] = &[
    Account,
    PostsWriteOwn,
    PostsWriteAny,
    PostsPublishOwn,
    PostsPublishAny,
    MailBroadcast,
];
const AUTHOR: &[Cap] = &[Account, PostsWriteOwn, PostsPublishOwn];
const CONTRIBUTOR: &[Cap] = &[Account, PostsWriteOwn];
/// What only an Owner holds.
const OWNER_ONLY: &[Cap] = &[UsersResetFactors, OwnersManage, ServiceTokensManage];

impl Role {
    pub const ALL: [Role; 7] = [
        Role::Owner,
        Role::Administrator,
        Role::Treasurer,
        Role::Organizer,
        Role::Editor,
        Role::Author,
        Role::Contributor,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Administrator => "administrator",
            Role::Treasurer => "treasurer",
            Role::Organizer => "organizer",
            Role::Editor => "editor",
            Role::Author => "author",
            Role::Contributor => "contributor",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    pub fn label(self) -> &'static str {
        match self {
            Role::Owner => "Owner",
            Role::Administrator => "Administrator",
            Role::Treasurer => "Treasurer",
            Role::Organizer => "Organizer",
            Role::Editor => "Editor",
            Role::Author => "Author",
            Role::Contributor => "Contributor",
        }
    }

    pub fn can(self, cap: Cap) -> bool {
        match self {
            Role::Owner => true,
            Role::Administrator => !OWNER_ONLY.contains(&cap),
            Role::Treasurer => TREASURER.contains(&cap),
            Role::Organizer => ORGANIZER.contains(&cap),
            Role::Editor => EDITOR.contains(&cap),
            Role::Author => AUTHOR.contains(&cap),
            Role::Contributor => CONTRIBUTOR.contains(&cap),
        }
    }

    pub fn capabilities(self) -> Vec<&'static str> {
        Cap::ALL
            .into_iter()
            .filter(|c| self.can(*c))
            .map(Cap::as_str)
            .collect()
    }

    /// Owners and Treasurers must have an authenticator app or a passkey: behind them are
    /// the money and the accounts.
    pub fn needs_strong_factor(self) -> bool {
        matches!(self, Role::Owner | Role::Treasurer)
    }

    /// Whether someone of this role may give (or take away) `other`: never above their own
    /// rank, and an Owner's only with [`Cap::OwnersManage`].
    pub fn may_grant(self, other: Role) -> bool {
        self <= other && (other != Role::Owner || self.can(Cap::OwnersManage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_capability_round_trips_and_the_owner_holds_them_all() {
        for cap in Cap::ALL {
            assert_eq!(Cap::parse(cap.as_str()), Some(cap));
            assert!(Role::Owner.can(cap));
        }
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
            assert!(role.can(Cap::Account));
        }
    }

    #[test]
    fn roles_hold_what_the_issue_gives_them() {
        assert!(!Role::Administrator.can(Cap::OwnersManage));
        assert!(Role::Administrator.can(Cap::Erase) && Role::Administrator.can(Cap::AuditRead));
        assert!(Role::Treasurer.can(Cap::DonationsRefund) && !Role::Treasurer.can(Cap::Erase));
        assert!(!Role::Organizer.can(Cap::DonationsRead));
        assert!(Role::Editor.can(Cap::PostsPublishAny) && !Role::Editor.can(Cap::SubmissionsRead));
        assert!(Role::Author.can(Cap::PostsPublishOwn) && !Role::Author.can(Cap::PostsWriteAny));
        assert!(!Role::Contributor.can(Cap::PostsPublishOwn));
    }

    #[test]
    fn nobody_grants_above_their_rank() {
        assert!(Role::Owner.may_grant(Role::Owner));
        assert!(!Role::Administrator.may_grant(Role::Owner));
        assert!(Role::Administrator.may_grant(Role::Administrator));
        assert!(!Role::Treasurer.may_grant(Role::Administrator));
        assert!(Role::Editor.may_grant(Role::Contributor));
    }

    /// The admin app decides which tabs and screens to show from the same names; it reads
    /// them from a file generated here (as the editor reads `allowlist.json`), so a role or
    /// capability added in Rust cannot be missing in TypeScript.
    #[test]
    fn the_admin_app_has_the_same_roles_and_capabilities() {
        const FILE: &str = "../site/src/admin/app/roles.generated.ts";
        let list = |names: Vec<&str>| serde_json::to_string(&names).unwrap();
        let labels: Vec<String> = Role::ALL
            .iter()
            .map(|r| format!("  {}: '{}',\n", r.as_str(), r.label()))
            .collect();
        let expected = format!(
            "// Generated by api/src/domain/staff/roles.rs; do not edit. After changing the roles:\n\
             // BLESS=1 cargo test -p api --lib roles\n\n\
             /** The roles, highest rank first. */\n\
             export const ROLES = {} as const;\n\n\
             export const ROLE_LABELS = {{\n{}}} as const;\n\n\
             /** Every capability a route may name (`x-capability` in api/openapi.json). */\n\
             export const CAPABILITIES = {} as const;\n",
            list(Role::ALL.iter().map(|r| r.as_str()).collect()),
            labels.concat(),
            list(Cap::ALL.iter().map(|c| c.as_str()).collect()),
        );
        crate::generated_files::matches_or_bless(
            FILE,
            &expected,
            "BLESS=1 cargo test -p api --lib roles",
        );
    }
}
