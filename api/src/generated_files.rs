//! Files the server's constants are handed to other code in (the editor's allowlist, the
//! admin app's roles), written by a test: each test builds the file's content from Rust and
//! holds the file in the repository equal to it, like schema.sql and the migrations.

use std::path::Path;

/// Fails unless the file at `relative` (to the api crate) is `expected`; with `BLESS` set,
/// writes it instead. `command` is what to run to rewrite it.
pub fn matches_or_bless(relative: &str, expected: &str, command: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let actual = std::fs::read_to_string(&file).unwrap_or_default();
    if actual == expected {
        return;
    }
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&file, expected).unwrap();
        return;
    }
    panic!("{} is out of date: run `{command}`", file.display());
}
