# The party website. `just serve` builds and serves everything; `just test` runs every test.

set dotenv-load := true

export DIST_DIR := env_var_or_default("DIST_DIR", "dist")
target := env_var_or_default("CARGO_TARGET_DIR", "target")
# `-D warnings` in the form clippy-driver reads from its environment (what `cargo clippy -- -D warnings` sets).
clippy_args := "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# List the recipes.
default:
    @just --list

# Install the locked front-end packages when they are missing or out of date (see .ci/run
# for why this is `install --no-save` rather than `ci`).
deps:
    @if [ ! -d site/node_modules ] || [ site/package-lock.json -nt site/node_modules/.package-lock.json ]; then npm --prefix site install --no-save --no-audit --no-fund; fi

# Build the client bundles (when their sources changed) and generate the whole static site into dist/.
build: deps
    node site/scripts/build-if-changed.mjs
    cargo run -p generator -- build

# Build, then serve dist/ and /api on BIND:PORT (default 127.0.0.1:8080) with data/site.db.
# The debug build `just dev` uses (dependencies lightly optimised, see Cargo.toml), the
# generator and the server in one invocation so what they share compiles once: a newcomer's
# first run compiles about a fifth less than a release build would, and says so before it
# starts (cargo's own progress shows: a first compile is long and should not look hung). A
# deployment builds the server in release (docs/operations.md).
serve: deps
    node site/scripts/build-if-changed.mjs
    @if [ ! -x {{target}}/debug/api ] || [ ! -x {{target}}/debug/generator ]; then echo "Compiling the server and the generator for the first time: about 10 minutes on 2 cores; later runs take seconds. Cargo shows its progress below."; fi
    cargo build -p generator -p api
    {{target}}/debug/generator build
    {{target}}/debug/api

# Build, serve on BIND:PORT and rebuild + reload the open page whenever a source file changes.
dev: deps
    node site/scripts/dev.mjs

# Every test: Rust unit and route tests, TypeScript unit tests, then end-to-end tests in Chromium.
test: deps
    cargo test --workspace --quiet
    npm --prefix site run test:unit --silent
    npm --prefix site run typecheck --silent
    @just _site
    npm --prefix site run test:e2e --silent

# dist/ from the debug build the tests and the audit share: every crate and test target in one
# feature set, so after `cargo test` nothing compiles again (`cargo run -p generator` would
# build the generator and the api a second time, without the tests' features).
_site: deps
    node site/scripts/build-if-changed.mjs
    cargo build --workspace --all-targets --quiet
    {{target}}/debug/generator build

# Benchmarks: page weight, static files against nginx, durable signups against a plain loop, the blog's build and publish speed against Hugo, the forms with people linked, the mail sender's rate, the forms and mail under a surge with a kill (alone and while the list is mailed), newsletter confirmations for a crowd from many networks and for one abuser, memory under a mixed load, hostile clients, then a fresh clone's first `just serve`.
bench: build
    cargo build --quiet --release -p api -p generator -p smtp-sink -p fake-stripe --bins --example plain_writes --example photo
    node bench/run.mjs
    node bench/blog.mjs
    node bench/people.mjs
    node bench/mail.mjs
    node bench/surge.mjs
    node bench/confirmations.mjs
    node bench/memory.mjs
    node bench/hostile.mjs
    node bench/first-run.mjs

# Everything a restore needs, in one folder (default backups/site-YYYYMMDD-HHMMSS/): a consistent copy of DATA_DIR/site.db (safe while the server runs), the uploads and the keys.
backup dir=("backups/site-" + `date -u +%Y%m%d-%H%M%S`):
    cargo run --quiet --release -p api -- backup {{dir}}

# Bring the database, uploads and keys back into an empty DATA_DIR from the replica (REPLICA_URL), or from a backup folder (`just restore backups/site-…`); then `just serve` or start the api.
restore from="":
    cargo run --quiet --release -p api -- restore {{ if from == "" { "" } else { "--from " + from } }}

# Make the deploy bucket (DEPLOY_URL) equal dist/ (after `just build`).
deploy:
    cargo run --quiet --release -p api -- deploy

# Lighthouse on every public page (mobile), the admin app's script weight, then the API against its OpenAPI contract (schemathesis): fails on a broken budget or contract.
audit: _site
    @if [ ! -d bench/node_modules ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then npm --prefix bench install --no-save --no-audit --no-fund; fi
    node bench/audit.mjs
    node bench/admin-weight.mjs
    bench/contract.sh

# Format all code: Rust with rustfmt, the site's TypeScript, scripts and styles with Prettier.
fmt: deps
    cargo fmt --all
    npm --prefix site run format --silent

# Lint and type-check all code: rustfmt, the shared dependencies' features (every cargo
# selection must build them alike, tools/feature-sets.py) and Clippy; for the site tsc,
# ESLint and Prettier.
# Clippy runs as the compiler of our own crates inside an ordinary debug build rather than as
# `cargo clippy`, which would type-check every dependency a second time; CI exports the same
# two variables (see .ci/run), so the build `just test` makes next is this one.
lint: deps
    cargo fmt --all -- --check
    python3 tools/feature-sets.py
    RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS={{clippy_args}} cargo build --workspace --all-targets --quiet
    npm --prefix site run typecheck --silent
    npm --prefix site run lint --silent
