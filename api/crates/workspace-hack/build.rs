// Empty: a crate's build-dependencies are resolved only when it has a build script, and
// the host's half of the list (proc macros and build scripts' crates) lives there.
fn main() {}
