//! The donate form's choices: contribution purposes, and the states, territories and
//! military codes a U.S. address may have.

use serde::Serialize;

/// One choice of a select.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Choice {
    /// What is sent and stored.
    pub value: &'static str,
    /// What the donor reads.
    pub label: &'static str,
}

const fn choice(value: &'static str, label: &'static str) -> Choice {
    Choice { value, label }
}

/// Contribution purposes, stored in snake case (spec §5), shown as words.
pub const PURPOSES: [Choice; 6] = [
    choice("general_party_use", "General party use"),
    choice("primary_election", "Primary election"),
    choice("general_election", "General election"),
    choice("party_headquarters", "Party headquarters"),
    choice("legal_proceedings", "Legal proceedings"),
    choice("nominating_convention", "Nominating convention"),
];

/// Where a donor may live: the states, DC, the territories, and the military post offices
/// (APO/FPO/DPO) of service members abroad, by their USPS codes.
pub const STATES: [Choice; 59] = [
    choice("AL", "Alabama"),
    choice("AK", "Alaska"),
    choice("AZ", "Arizona"),
    choice("AR", "Arkansas"),
    choice("CA", "California"),
    choice("CO", "Colorado"),
    choice("CT", "Connecticut"),
    choice("DE", "Delaware"),
    choice("DC", "District of Columbia"),
    choice("FL", "Florida"),
    choice("GA", "Georgia"),
    choice("HI", "Hawaii"),
    choice("ID", "Idaho"),
    choice("IL", "Illinois"),
    choice("IN", "Indiana"),
    choice("IA", "Iowa"),
    choice("KS", "Kansas"),
    choice("KY", "Kentucky"),
    choice("LA", "Louisiana"),
    choice("ME", "Maine"),
    choice("MD", "Maryland"),
    choice("MA", "Massachusetts"),
    choice("MI", "Michigan"),
    choice("MN", "Minnesota"),
    choice("MS", "Mississippi"),
    choice("MO", "Missouri"),
    choice("MT", "Montana"),
    choice("NE", "Nebraska"),
    choice("NV", "Nevada"),
    choice("NH", "New Hampshire"),
    choice("NJ", "New Jersey"),
    choice("NM", "New Mexico"),
    choice("NY", "New York"),
    choice("NC", "North Carolina"),
    choice("ND", "North Dakota"),
    choice("OH", "Ohio"),
    choice("OK", "Oklahoma"),
    choice("OR", "Oregon"),
    choice("PA", "Pennsylvania"),
    choice("RI", "Rhode Island"),
    choice("SC", "South Carolina"),
    choice("SD", "South Dakota"),
    choice("TN", "Tennessee"),
    choice("TX", "Texas"),
    choice("UT", "Utah"),
    choice("VT", "Vermont"),
    choice("VA", "Virginia"),
    choice("WA", "Washington"),
    choice("WV", "West Virginia"),
    choice("WI", "Wisconsin"),
    choice("WY", "Wyoming"),
    choice("AS", "American Samoa"),
    choice("GU", "Guam"),
    choice("MP", "Northern Mariana Islands"),
    choice("PR", "Puerto Rico"),
    choice("VI", "U.S. Virgin Islands"),
    choice("AA", "Armed Forces Americas (AA)"),
    choice(
        "AE",
        "Armed Forces Europe, Middle East, Africa, Canada (AE)",
    ),
    choice("AP", "Armed Forces Pacific (AP)"),
];
