//! How long a post's fields may be: the hard limits the server enforces, and the
//! recommendations only the editor shows.

/// Hard limits, in characters (content: bytes). The excerpt's 300 is the editor's soft
/// limit; the server takes up to 1,000 so a save is never lost to it. The editor reads
/// these (and the soft limits below) from the file `editor_rules` writes.
pub(crate) const TITLE_MAX: usize = 200;
pub(crate) const EXCERPT_MAX: usize = 1_000;
pub(crate) const KEYWORDS_MAX: usize = 500;
pub(crate) const ALT_MAX: usize = 200;
pub(crate) const AUTHOR_MAX: usize = 200;
pub(crate) const SLUG_INPUT_MAX: usize = 200;
pub(crate) const IMAGE_URL_MAX: usize = 2_000;
pub(crate) const CONTENT_MAX_BYTES: usize = 1024 * 1024;

/// What the editor recommends (spec §5), never enforced here: its counters show the
/// recommended length, turn orange above the warning level and red above the
/// recommendation. Only the editor reads them (through `editor_rules`).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod recommended {
    pub(crate) const EXCERPT: usize = 300;
    pub(crate) const EXCERPT_WARN_ABOVE: usize = 250;
    pub(crate) const KEYWORDS_WARN_ABOVE: usize = 450;
    pub(crate) const ALT: usize = 125;
    pub(crate) const ALT_WARN_ABOVE: usize = 100;
}
