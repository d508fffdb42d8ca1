//! Nothing to compile: this crate only names dependencies. Every crate of the workspace
//! depends on it, so every cargo selection (`just serve`, `just test`, `just bench`, a
//! deployment's `cargo build --release -p api`) resolves each shared dependency with the
//! same features and reuses what another already built. `tools/feature-sets.py` (in
//! `just lint`) says when its list must change, and prints the list.
